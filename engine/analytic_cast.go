package engine

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gofluss/fluss/internal/plural"
)

// castRecord returns rec under schema to: columns of the same type are
// shared, timestamps that differ only in their time-zone mark (the data
// is the same, see arrowipc.InstantSchema) are relabelled without a copy,
// and the few layouts a query engine returns that arrowipc.FlussType maps
// to another Arrow type are converted (see convertArray). The caller
// releases both records.
func castRecord(rec arrow.RecordBatch, to *arrow.Schema) (arrow.RecordBatch, error) {
	if int(rec.NumCols()) != to.NumFields() {
		return nil, fmt.Errorf("fluss: the engine returned %s, %d expected", plural.Count(rec.NumCols(), "column"), to.NumFields())
	}
	cols := make([]arrow.Array, to.NumFields())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i := range cols {
		have, want := rec.Column(i), to.Field(i).Type
		switch {
		case arrow.TypeEqual(have.DataType(), want):
			have.Retain()
			cols[i] = have
		case relabels(have.DataType(), want):
			d := have.Data()
			nd := array.NewData(want, d.Len(), d.Buffers(), d.Children(), d.NullN(), d.Offset())
			cols[i] = array.MakeFromData(nd)
			nd.Release()
		default:
			out, err := convertArray(have, want)
			if err != nil {
				return nil, fmt.Errorf("fluss: result column %q: %w", to.Field(i).Name, err)
			}
			cols[i] = out
		}
	}
	return array.NewRecordBatch(to, cols, rec.NumRows()), nil
}

// relabels reports whether a and b are timestamps of one unit.
func relabels(a, b arrow.DataType) bool {
	ta, ok1 := a.(*arrow.TimestampType)
	tb, ok2 := b.(*arrow.TimestampType)
	return ok1 && ok2 && ta.Unit == tb.Unit
}

// convertArray converts the values of a to type want: integers between
// widths and a DECIMAL(38, 0) (an engine's 128-bit integer) to BIGINT (an
// overflow is an error), UINT64 to DECIMAL(20, 0), DATE64 to
// DATE32 and a column of NULLs to any type. Other conversions are
// refused: FlussType never asks for them.
func convertArray(a arrow.Array, want arrow.DataType) (arrow.Array, error) {
	if a.DataType().ID() == arrow.NULL {
		return array.MakeArrayOfNull(memory.DefaultAllocator, want, a.Len()), nil
	}
	b := array.NewBuilder(memory.DefaultAllocator, want)
	defer b.Release()
	b.Reserve(a.Len())
	for i := range a.Len() {
		if a.IsNull(i) {
			b.AppendNull()
			continue
		}
		if err := appendConverted(b, a, i); err != nil {
			return nil, err
		}
	}
	return b.NewArray(), nil
}

// appendConverted appends value i of a to b.
func appendConverted(b array.Builder, a arrow.Array, i int) error {
	if d, ok := a.(*array.Date64); ok {
		if db, ok := b.(*array.Date32Builder); ok {
			db.Append(arrow.Date32FromTime(d.Value(i).ToTime()))
			return nil
		}
	}
	if d, ok := a.(*array.Decimal128); ok {
		if ib, ok := b.(*array.Int64Builder); ok {
			v := d.Value(i)
			if v.Cmp(decimal128.FromI64(math.MinInt64)) < 0 || v.Cmp(decimal128.FromI64(math.MaxInt64)) > 0 {
				return fmt.Errorf("%s overflows BIGINT", v.ToString(0))
			}
			ib.Append(int64(v.LowBits()))
			return nil
		}
	}
	if u, ok := a.(*array.Uint64); ok {
		if db, ok := b.(*array.Decimal128Builder); ok {
			db.Append(decimal128.FromU64(u.Value(i)))
			return nil
		}
	}
	n, ok := integerAt(a, i)
	if !ok {
		return fmt.Errorf("cannot convert %s to %s", a.DataType(), b.Type())
	}
	fits := func(lo, hi int64) error {
		if n < lo || n > hi {
			return fmt.Errorf("%d overflows %s", n, b.Type())
		}
		return nil
	}
	var err error
	switch ib := b.(type) {
	case *array.Int8Builder:
		if err = fits(-1<<7, 1<<7-1); err == nil {
			ib.Append(int8(n))
		}
	case *array.Int16Builder:
		if err = fits(-1<<15, 1<<15-1); err == nil {
			ib.Append(int16(n))
		}
	case *array.Int32Builder:
		if err = fits(-1<<31, 1<<31-1); err == nil {
			ib.Append(int32(n))
		}
	case *array.Int64Builder:
		ib.Append(n)
	default:
		err = fmt.Errorf("cannot convert %s to %s", a.DataType(), b.Type())
	}
	return err
}

// integerAt returns value i of an integer array as an int64 (false for
// other arrays and a UINT64 above the int64 range).
func integerAt(a arrow.Array, i int) (int64, bool) {
	switch x := a.(type) {
	case *array.Int8:
		return int64(x.Value(i)), true
	case *array.Int16:
		return int64(x.Value(i)), true
	case *array.Int32:
		return int64(x.Value(i)), true
	case *array.Int64:
		return x.Value(i), true
	case *array.Uint8:
		return int64(x.Value(i)), true
	case *array.Uint16:
		return int64(x.Value(i)), true
	case *array.Uint32:
		return int64(x.Value(i)), true
	case *array.Uint64:
		v := x.Value(i)
		return int64(v), v <= 1<<63-1
	}
	return 0, false
}
