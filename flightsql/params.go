package flightsql

import (
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/gofluss/fluss/internal/plural"
	"github.com/gofluss/fluss/planner"
)

// maxParamRows bounds the parameter rows one bind may upload: each row is
// one execution, held in memory until the statement runs.
const maxParamRows = 1 << 20

// maxParamValues bounds the values of one bind (rows times placeholders),
// and of all the binds one user keeps (see bind): each is held as a
// driver.NamedValue of about 40 bytes, so the few megabytes of an Arrow
// batch of narrow columns would otherwise become gigabytes of server
// memory.
const maxParamValues = 1 << 22

// errBindSize is wrapped by the error of a bind beyond its limits.
var errBindSize = errors.New("parameter bind too large")

// paramRows reads uploaded parameter batches for a statement with
// nparams placeholders: each row binds them by position, column i to
// placeholder i+1. A batch of another width is refused before it is read,
// as is a bind beyond maxParamRows or maxValues values.
func paramRows(rdr array.RecordReader, nparams int, maxValues int64) ([][]driver.NamedValue, error) {
	var out [][]driver.NamedValue
	for rdr.Next() {
		rec := rdr.RecordBatch()
		if int(rec.NumCols()) != nparams {
			return nil, fmt.Errorf("fluss flightsql: the statement has %s, the parameter batch has %s", plural.Count(nparams, "placeholder"), plural.Count(rec.NumCols(), "column"))
		}
		rows := int64(len(out)) + rec.NumRows()
		if rows > maxParamRows || rows*int64(nparams) > maxValues {
			return nil, fmt.Errorf("fluss flightsql: %w: at most %s and %s may be bound, this bind has %s of %d", errBindSize, plural.Count(maxParamRows, "row"), plural.Count(max(maxValues, 0), "value"), plural.Count(rows, "row"), nparams)
		}
		for i := range int(rec.NumRows()) {
			row := make([]driver.NamedValue, nparams)
			for c, col := range rec.Columns() {
				v, err := arrowValue(col, i)
				if err != nil {
					return nil, fmt.Errorf("fluss flightsql: parameter %d of row %d: %w", c+1, len(out)+1, err)
				}
				row[c] = driver.NamedValue{Ordinal: c + 1, Value: v}
			}
			out = append(out, row)
		}
	}
	return out, rdr.Err()
}

// arrowValue returns element i of arr as a Go value the engine binds
// (see typeconv.ToValue): integers, floats, strings, bytes, decimal text,
// time.Time for dates and timestamps (an instant for zoned timestamps,
// else the wall clock in UTC), time.Duration for times of day, []any for
// lists, and JSON text for maps and structs.
func arrowValue(arr arrow.Array, i int) (any, error) {
	// A NullArray has no validity bitmap, so IsNull alone misses it;
	// pyarrow makes one for a parameter column of only None.
	if arr.DataType().ID() == arrow.NULL || arr.IsNull(i) {
		return nil, nil
	}
	switch a := arr.(type) {
	case *array.Boolean:
		return a.Value(i), nil
	case *array.Int8:
		return a.Value(i), nil
	case *array.Int16:
		return a.Value(i), nil
	case *array.Int32:
		return a.Value(i), nil
	case *array.Int64:
		return a.Value(i), nil
	case *array.Uint8:
		return a.Value(i), nil
	case *array.Uint16:
		return a.Value(i), nil
	case *array.Uint32:
		return a.Value(i), nil
	case *array.Uint64:
		return a.Value(i), nil
	case *array.Float32:
		return a.Value(i), nil
	case *array.Float64:
		return a.Value(i), nil
	case *array.String:
		return a.Value(i), nil
	case *array.LargeString:
		return a.Value(i), nil
	case *array.StringView:
		return a.Value(i), nil
	case *array.Binary:
		return append([]byte(nil), a.Value(i)...), nil
	case *array.LargeBinary:
		return append([]byte(nil), a.Value(i)...), nil
	case *array.FixedSizeBinary:
		return append([]byte(nil), a.Value(i)...), nil
	case *array.Decimal128:
		return a.Value(i).ToString(a.DataType().(*arrow.Decimal128Type).Scale), nil
	case *array.Decimal256:
		return a.Value(i).ToString(a.DataType().(*arrow.Decimal256Type).Scale), nil
	case *array.Date32:
		return a.Value(i).ToTime(), nil
	case *array.Date64:
		return a.Value(i).ToTime(), nil
	case *array.Time32:
		return a.Value(i).ToTime(a.DataType().(*arrow.Time32Type).Unit).Sub(time.Unix(0, 0).UTC()), nil
	case *array.Time64:
		return a.Value(i).ToTime(a.DataType().(*arrow.Time64Type).Unit).Sub(time.Unix(0, 0).UTC()), nil
	case *array.Timestamp:
		return a.Value(i).ToTime(a.DataType().(*arrow.TimestampType).Unit), nil
	case array.ListLike:
		start, end := a.ValueOffsets(i)
		vals := a.ListValues()
		if _, isMap := a.(*array.Map); !isMap {
			out := make([]any, 0, end-start)
			for j := start; j < end; j++ {
				v, err := arrowValue(vals, int(j))
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			}
			return out, nil
		}
	}
	// Maps, structs and the rest: their JSON form, which typeconv reads
	// for MAP and ROW columns.
	js, err := json.Marshal(arr.GetOneForMarshal(i))
	if err != nil {
		return nil, err
	}
	return string(js), nil
}

// parameterSchema describes a plan's parameters for clients that bind
// typed values (JDBC's PreparedStatement.setX needs it): one nullable
// field per argument position, named after its ':name' or its target
// column, of the Arrow type of the column type the argument is converted
// to. It is nil when the plan takes no arguments, or when one has no
// Arrow type: clients then bind what they have, and the server converts.
func parameterSchema(p planner.Plan) *arrow.Schema {
	params := planner.ParamsOf(p)
	if len(params) == 0 {
		return nil
	}
	var fields []arrow.Field
	for _, prm := range params {
		for len(fields) < prm.Index {
			fields = append(fields, arrow.Field{})
		}
		f := &fields[prm.Index-1]
		if f.Type != nil {
			continue // a ':name' used twice, or a key and its IN list
		}
		dt, err := clientType(prm.Type)
		if err != nil {
			return nil
		}
		f.Name, f.Type, f.Nullable = prm.Name, dt, true
		if f.Name == "" {
			f.Name = prm.Column
		}
		if f.Name == "" {
			f.Name = fmt.Sprintf("p%d", prm.Index)
		}
	}
	for _, f := range fields {
		if f.Type == nil {
			return nil // a position the plan does not type
		}
	}
	return arrow.NewSchema(fields, nil)
}
