package arrowipc

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/gofluss/fluss/flussrpc/schema"
)

// Fluss marks no time zone on either kind of timestamp in its Arrow log
// batches, so the types of ArrowType cannot tell a TIMESTAMP_LTZ (an
// instant) from a TIMESTAMP (a wall clock). Whoever must tell them apart
// outside Fluss (a Flight SQL client: pandas makes an instant a tz-aware
// datetime, JDBC a TIMESTAMP WITH TIME ZONE; a query engine, which must
// keep TIMESTAMP_LTZ an instant through its functions) is given types
// that mark TIMESTAMP_LTZ with the zone "UTC", which by Arrow's
// definition means the values count from the epoch in UTC, as Fluss's
// do: the data of both types is the same.

// InstantSchema is Schema with the timestamps of TIMESTAMP_LTZ columns
// marked UTC, also inside ARRAY, MAP and ROW.
func InstantSchema(cols []schema.Column) (*arrow.Schema, error) {
	sc, err := Schema(cols)
	if err != nil {
		return nil, err
	}
	fields := sc.Fields()
	for i := range fields {
		fields[i].Type = MarkInstants(fields[i].Type, cols[i].Type)
	}
	return arrow.NewSchema(fields, nil), nil
}

// InstantType is ArrowType with the timestamps of TIMESTAMP_LTZ marked UTC.
func InstantType(t schema.DataType) (arrow.DataType, error) {
	dt, err := ArrowType(t)
	if err != nil {
		return nil, err
	}
	return MarkInstants(dt, t), nil
}

// MarkInstants returns dt, ArrowType's type for t, with the timestamps of
// TIMESTAMP_LTZ marked UTC, also inside ARRAY, MAP and ROW.
func MarkInstants(dt arrow.DataType, t schema.DataType) arrow.DataType {
	switch x := dt.(type) {
	case *arrow.TimestampType:
		if t.Root == schema.RootTimestampLTZ {
			return &arrow.TimestampType{Unit: x.Unit, TimeZone: "UTC"}
		}
	case *arrow.MapType:
		if t.Key != nil && t.Value != nil {
			key, val := x.KeyField(), x.ItemField()
			key.Type = MarkInstants(key.Type, *t.Key)
			val.Type = MarkInstants(val.Type, *t.Value)
			return arrow.MapOfFields(key, val)
		}
	case *arrow.ListType:
		if t.Elem != nil {
			elem := x.ElemField()
			elem.Type = MarkInstants(elem.Type, *t.Elem)
			return arrow.ListOfField(elem)
		}
	case *arrow.StructType:
		if len(t.Fields) == x.NumFields() {
			fields := x.Fields()
			for i := range fields {
				fields[i].Type = MarkInstants(fields[i].Type, t.Fields[i].Type)
			}
			return arrow.StructOf(fields...)
		}
	}
	return dt
}
