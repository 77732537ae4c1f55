package arrowipc

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/gofluss/fluss/flussrpc/schema"
)

func TestFlussType(t *testing.T) {
	tests := []struct {
		in   arrow.DataType
		want schema.DataType
	}{
		{arrow.FixedWidthTypes.Boolean, schema.Boolean()},
		{arrow.PrimitiveTypes.Uint8, schema.SmallInt()},
		{arrow.PrimitiveTypes.Uint32, schema.BigInt()},
		{arrow.PrimitiveTypes.Uint64, schema.Decimal(20, 0)},
		{arrow.BinaryTypes.LargeString, schema.String()},
		{arrow.BinaryTypes.StringView, schema.String()},
		{&arrow.FixedSizeBinaryType{ByteWidth: 4}, schema.Binary(4)},
		{&arrow.Decimal128Type{Precision: 12, Scale: 3}, schema.Decimal(12, 3)},
		{arrow.FixedWidthTypes.Date64, schema.Date()},
		{&arrow.TimestampType{Unit: arrow.Millisecond}, schema.Timestamp(3)},
		{&arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, schema.TimestampLTZ(6)},
		{arrow.ListOf(arrow.PrimitiveTypes.Int32), schema.ArrayOf(schema.Int())},
		{arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Float64), schema.MapOf(schema.String().NotNull(), schema.Double())},
		{arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int8}), schema.RowOf(schema.NewField("a", schema.TinyInt()))},
	}
	for _, tc := range tests {
		got, err := FlussType(tc.in)
		if err != nil || !got.Equal(tc.want) {
			t.Errorf("FlussType(%s) = %s, %v; want %s", tc.in, got, err, tc.want)
		}
	}
	if _, err := FlussType(arrow.FixedWidthTypes.MonthDayNanoInterval); err == nil {
		t.Error("an interval got a Fluss type")
	}
}

// TestFlussTypeRoundTrip: every Fluss type InstantType maps comes back.
func TestFlussTypeRoundTrip(t *testing.T) {
	for _, ft := range []schema.DataType{schema.TinyInt(), schema.Int(), schema.BigInt(), schema.Float(), schema.Double(),
		schema.String(), schema.Bytes(), schema.Decimal(38, 10), schema.Date(), schema.Time(3), schema.Timestamp(6), schema.TimestampLTZ(3)} {
		dt, err := InstantType(ft)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := FlussType(dt); err != nil || !got.Equal(ft) {
			t.Errorf("%s -> %s -> %s, %v", ft, dt, got, err)
		}
	}
}
