package engine

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// column builds a one-column record of type dt with the given values
// (nil is NULL).
func column(t *testing.T, dt arrow.DataType, vals ...any) arrow.RecordBatch {
	t.Helper()
	b := array.NewBuilder(memory.DefaultAllocator, dt)
	defer b.Release()
	for _, v := range vals {
		switch x := v.(type) {
		case nil:
			b.AppendNull()
		case int64:
			switch bb := b.(type) {
			case *array.Int64Builder:
				bb.Append(x)
			case *array.Int32Builder:
				bb.Append(int32(x))
			case *array.Uint8Builder:
				bb.Append(uint8(x))
			case *array.Uint64Builder:
				bb.Append(uint64(x))
			case *array.TimestampBuilder:
				bb.Append(arrow.Timestamp(x))
			case *array.Decimal128Builder:
				bb.Append(decimal128.FromI64(x))
			}
		case decimal128.Num:
			b.(*array.Decimal128Builder).Append(x)
		}
	}
	arr := b.NewArray()
	defer arr.Release()
	sc := arrow.NewSchema([]arrow.Field{{Name: "c", Type: dt, Nullable: true}}, nil)
	return array.NewRecordBatch(sc, []arrow.Array{arr}, int64(arr.Len()))
}

func TestCastRecord(t *testing.T) {
	huge := decimal128.FromI64(1).Mul(decimal128.FromI64(1 << 62)).Mul(decimal128.FromI64(4))
	tests := []struct {
		name string
		in   arrow.RecordBatch
		want arrow.DataType
		out  string // the cast column as Arrow prints it, or the error
	}{
		{"same type is shared", column(t, arrow.PrimitiveTypes.Int64, int64(1), nil), arrow.PrimitiveTypes.Int64, "[1 (null)]"},
		{"instant relabelled", column(t, &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}, int64(5)), &arrow.TimestampType{Unit: arrow.Millisecond}, "[5]"},
		{"uint8 widened", column(t, arrow.PrimitiveTypes.Uint8, int64(200), nil), arrow.PrimitiveTypes.Int16, "[200 (null)]"},
		{"int64 narrowed", column(t, arrow.PrimitiveTypes.Int64, int64(7)), arrow.PrimitiveTypes.Int32, "[7]"},
		{"int64 overflows int32", column(t, arrow.PrimitiveTypes.Int64, int64(1)<<40), arrow.PrimitiveTypes.Int32, "overflows int32"},
		{"hugeint to bigint", column(t, &arrow.Decimal128Type{Precision: 38, Scale: 0}, int64(-42)), arrow.PrimitiveTypes.Int64, "[-42]"},
		{"hugeint overflows bigint", column(t, &arrow.Decimal128Type{Precision: 38, Scale: 0}, huge), arrow.PrimitiveTypes.Int64, "overflows BIGINT"},
		{"uint64 to decimal", column(t, arrow.PrimitiveTypes.Uint64, int64(9)), &arrow.Decimal128Type{Precision: 20, Scale: 0}, "[9]"},
		{"nulls to any type", array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "c", Type: arrow.Null, Nullable: true}}, nil), []arrow.Array{array.NewNull(2)}, 2), arrow.BinaryTypes.String, `[(null) (null)]`},
		{"refused", column(t, arrow.PrimitiveTypes.Int64, int64(1)), arrow.FixedWidthTypes.Boolean, "cannot convert int64 to bool"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			defer tc.in.Release()
			to := arrow.NewSchema([]arrow.Field{{Name: "c", Type: tc.want, Nullable: true}}, nil)
			got, err := castRecord(tc.in, to)
			if err != nil {
				if !strings.Contains(err.Error(), tc.out) {
					t.Fatalf("error %q, want %q", err, tc.out)
				}
				return
			}
			defer got.Release()
			if !arrow.TypeEqual(got.Column(0).DataType(), tc.want) || got.Column(0).String() != tc.out {
				t.Fatalf("got %s %s, want %s %s", got.Column(0).DataType(), got.Column(0), tc.want, tc.out)
			}
		})
	}
}

func TestCastRecordWidth(t *testing.T) {
	rec := column(t, arrow.PrimitiveTypes.Int64, int64(1))
	defer rec.Release()
	if _, err := castRecord(rec, arrow.NewSchema(nil, nil)); err == nil {
		t.Fatal("a record of another width was cast")
	}
}
