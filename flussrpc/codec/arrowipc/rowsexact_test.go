package arrowipc

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/gofluss/fluss/flussrpc/schema"
)

// TestRowBuilderExactAndConvertedValuesAgree appends the same values once
// in each column's exact Go type (Append's direct path) and once in other
// accepted types or as NULL (the writer's path); both records must be
// equal, whichever path each value took.
func TestRowBuilderExactAndConvertedValuesAgree(t *testing.T) {
	cols := []schema.Column{
		col("bo", schema.Boolean()), col("ti", schema.TinyInt()), col("si", schema.SmallInt()),
		col("i", schema.Int()), col("bi", schema.BigInt()), col("f", schema.Float()),
		col("d", schema.Double()), col("c", schema.Char(3)), col("s", schema.String()),
		col("by", schema.Bytes()),
	}
	exact := [][]any{
		{true, int8(-8), int16(-16), int32(-32), int64(-64), float32(1.5), float64(2.5), "abc", "str", []byte{1, 2}},
		{nil, nil, nil, nil, nil, nil, nil, nil, nil, nil},
		{false, int8(8), int16(16), int32(32), int64(1) << 40, float32(-1), float64(-2), "", "", []byte{}},
	}
	// The same values, every convertible one in another Go type.
	converted := [][]any{
		{true, -8, int32(-16), int64(-32), -64, float32(1.5), float32(2.5), "abc", "str", []byte{1, 2}},
		{nil, nil, nil, nil, nil, nil, nil, nil, nil, nil},
		{false, uint8(8), uint16(16), uint32(32), int64(1) << 40, float32(-1), float32(-2), "", "", []byte{}},
	}
	build := func(rows [][]any) arrow.RecordBatch {
		rb := appendRows(t, cols, nil, rows)
		defer rb.Release()
		return rb.NewRecord()
	}
	a, b := build(exact), build(converted)
	defer a.Release()
	defer b.Release()
	if !array.RecordEqual(a, b) {
		t.Fatalf("exact values built\n%v\nconverted values built\n%v", a, b)
	}
	for i := range cols {
		if got := a.Column(i).NullN(); got != 1 {
			t.Errorf("column %s: %d nulls, want 1", cols[i].Name, got)
		}
	}
}
