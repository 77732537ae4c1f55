package typeconv

import (
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
)

func BenchmarkToValue(b *testing.B) {
	now := time.Now()
	for _, bc := range []struct {
		name string
		typ  schema.DataType
		v    any
	}{
		{"BIGINT/int64", schema.BigInt(), int64(42)},
		{"BIGINT/int64-large", schema.BigInt(), int64(1) << 40},
		{"INT/int", schema.Int(), 42},
		{"STRING/string", schema.String(), "hello"},
		{"DECIMAL/string", schema.Decimal(10, 2), "1234.56"},
		{"TIMESTAMP_LTZ/time", schema.TimestampLTZ(3), now},
		{"ARRAY<INT>/[]int32", schema.ArrayOf(schema.Int()), []int32{1, 2, 3, 4}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ToValue(bc.typ, bc.v, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkFromValue(b *testing.B) {
	for _, bc := range []struct {
		name string
		typ  schema.DataType
		v    any
	}{
		{"BIGINT", schema.BigInt(), int64(42)},
		{"BIGINT/large", schema.BigInt(), int64(1) << 40},
		{"STRING", schema.String(), "row with some text"},
		{"TIMESTAMP_LTZ", schema.TimestampLTZ(3), codec.TimestampLTZOf(time.Now())},
		{"ARRAY<STRING>/json", schema.ArrayOf(schema.String()), []any{"a", "b", "c"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := FromValue(bc.typ, bc.v, OutOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
