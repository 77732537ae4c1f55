package flightsql

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// Fluss marks no time zone on either kind of timestamp in its Arrow log
// batches, so arrowipc's types cannot tell a TIMESTAMP_LTZ (an instant)
// from a TIMESTAMP (a wall clock). A Flight SQL client needs to: pandas
// makes an instant a tz-aware datetime, JDBC a TIMESTAMP WITH TIME ZONE,
// and GetXdbcTypeInfo already says TIMESTAMP_LTZ is one. The schemas this
// server gives clients therefore mark TIMESTAMP_LTZ with the zone "UTC",
// which by Arrow's definition means the values count from the epoch in
// UTC, as Fluss's do: records decoded or built under the unmarked type go
// out as they are, under the marked schema.

// clientSchema is the Arrow schema clients are given for cols.
func clientSchema(cols []schema.Column) (*arrow.Schema, error) {
	sc, err := arrowipc.Schema(cols)
	if err != nil {
		return nil, err
	}
	fields := sc.Fields()
	for i := range fields {
		fields[i].Type = markInstants(fields[i].Type, cols[i].Type)
	}
	return arrow.NewSchema(fields, nil), nil
}

// clientType is the Arrow type clients are given for t.
func clientType(t schema.DataType) (arrow.DataType, error) {
	dt, err := arrowipc.ArrowType(t)
	if err != nil {
		return nil, err
	}
	return markInstants(dt, t), nil
}

// markInstants returns dt, arrowipc's type for t, with the timestamps of
// TIMESTAMP_LTZ marked UTC, also inside ARRAY, MAP and ROW.
func markInstants(dt arrow.DataType, t schema.DataType) arrow.DataType {
	switch x := dt.(type) {
	case *arrow.TimestampType:
		if t.Root == schema.RootTimestampLTZ {
			return &arrow.TimestampType{Unit: x.Unit, TimeZone: "UTC"}
		}
	case *arrow.MapType:
		if t.Key != nil && t.Value != nil {
			key, val := x.KeyField(), x.ItemField()
			key.Type = markInstants(key.Type, *t.Key)
			val.Type = markInstants(val.Type, *t.Value)
			return arrow.MapOfFields(key, val)
		}
	case *arrow.ListType:
		if t.Elem != nil {
			elem := x.ElemField()
			elem.Type = markInstants(elem.Type, *t.Elem)
			return arrow.ListOfField(elem)
		}
	case *arrow.StructType:
		if len(t.Fields) == x.NumFields() {
			fields := x.Fields()
			for i := range fields {
				fields[i].Type = markInstants(fields[i].Type, t.Fields[i].Type)
			}
			return arrow.StructOf(fields...)
		}
	}
	return dt
}
