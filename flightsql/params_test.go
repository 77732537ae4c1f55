package flightsql

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestArrowValue(t *testing.T) {
	ts := time.Date(2024, 1, 2, 3, 4, 5, 678_000_000, time.UTC)
	tests := []struct {
		name string
		typ  arrow.DataType
		json string // the one-element array, as array.FromJSON reads it
		want any
	}{
		{"null type", arrow.Null, `[null]`, nil},
		{"null int", arrow.PrimitiveTypes.Int64, `[null]`, nil},
		{"int32", arrow.PrimitiveTypes.Int32, `[7]`, int32(7)},
		{"uint64", arrow.PrimitiveTypes.Uint64, `[18446744073709551615]`, uint64(18446744073709551615)},
		{"float32", arrow.PrimitiveTypes.Float32, `[0.5]`, float32(0.5)},
		{"bool", arrow.FixedWidthTypes.Boolean, `[true]`, true},
		{"string", arrow.BinaryTypes.String, `["héllo"]`, "héllo"},
		{"large string", arrow.BinaryTypes.LargeString, `["x"]`, "x"},
		{"binary", arrow.BinaryTypes.Binary, `["AQI="]`, []byte{1, 2}},
		{"decimal keeps its scale", &arrow.Decimal128Type{Precision: 10, Scale: 2}, `["4.00"]`, "4.00"},
		{"date", arrow.FixedWidthTypes.Date32, `["2024-01-02"]`, time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC)},
		{"time of day", arrow.FixedWidthTypes.Time32ms, `["03:04:05.678"]`, 3*time.Hour + 4*time.Minute + 5678*time.Millisecond},
		{"timestamp", &arrow.TimestampType{Unit: arrow.Millisecond}, `["2024-01-02T03:04:05.678"]`, ts},
		{"list", arrow.ListOf(arrow.PrimitiveTypes.Int64), `[[1, null, 3]]`, []any{int64(1), nil, int64(3)}},
		{"struct as JSON", arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true}), `[{"a": 1}]`, `{"a":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			arr, _, err := array.FromJSON(memory.DefaultAllocator, tt.typ, strings.NewReader(tt.json))
			if err != nil {
				t.Fatal(err)
			}
			defer arr.Release()
			got, err := arrowValue(arr, 0)
			if err != nil {
				t.Fatal(err)
			}
			if tm, ok := got.(time.Time); ok {
				got = tm.UTC()
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("arrowValue = %#v (%T), want %#v (%T)", got, got, tt.want, tt.want)
			}
		})
	}
}

func TestParamRowsBindByPosition(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "b", Type: arrow.Null, Nullable: true},
	}, nil)
	rdr := jsonReader(t, sc, `[{"a": 1, "b": null}, {"a": 2, "b": null}]`)
	defer rdr.Release()
	got, err := paramRows(rdr, 2, maxParamValues)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]driver.NamedValue{
		{{Ordinal: 1, Value: int64(1)}, {Ordinal: 2, Value: nil}},
		{{Ordinal: 1, Value: int64(2)}, {Ordinal: 2, Value: nil}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("paramRows = %v, want %v", got, want)
	}
}

// TestParamRowsRefuseWrongWidthAndOversizeBinds: a parameter batch must
// have one column per placeholder, and a bind's values are bounded before
// any is read (NULL columns carry no buffers, so only the server's copy
// would be large).
func TestParamRowsRefuseWrongWidthAndOversizeBinds(t *testing.T) {
	nulls := func(cols, rows int) array.RecordReader {
		fields := make([]arrow.Field, cols)
		arrs := make([]arrow.Array, cols)
		for i := range fields {
			fields[i] = arrow.Field{Name: fmt.Sprintf("p%d", i+1), Type: arrow.Null, Nullable: true}
			arrs[i] = array.NewNull(rows)
			defer arrs[i].Release()
		}
		sc := arrow.NewSchema(fields, nil)
		rec := array.NewRecordBatch(sc, arrs, int64(rows))
		defer rec.Release()
		rdr, err := array.NewRecordReader(sc, []arrow.RecordBatch{rec})
		if err != nil {
			t.Fatal(err)
		}
		return rdr
	}
	tests := []struct {
		name               string
		cols, rows, nparam int
		want               string // "" = accepted
	}{
		{"one column per placeholder", 3, 10, 3, ""},
		{"an extra column", 3, 10, 2, "2 placeholders, the parameter batch has 3 columns"},
		{"a missing column", 1, 10, 2, "2 placeholders, the parameter batch has 1 column"},
		{"columns for a statement without placeholders", 1, 1, 0, "0 placeholders"},
		{"values at the limit", 64, maxParamValues / 64, 64, ""},
		{"values beyond the limit", 64, maxParamValues/64 + 1, 64, "may be bound"},
		{"rows beyond the limit", 0, maxParamRows + 1, 0, "may be bound"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rdr := nulls(tt.cols, tt.rows)
			defer rdr.Release()
			got, err := paramRows(rdr, tt.nparam, maxParamValues)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.want == "" && len(got) != tt.rows:
				t.Fatalf("%d rows bound, want %d", len(got), tt.rows)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			case errors.Is(err, errBindSize) != (tt.want == "may be bound"):
				t.Fatalf("error %v: errBindSize %v", err, errors.Is(err, errBindSize))
			}
		})
	}
}

// jsonReader reads one record batch of schema sc written as JSON rows.
func jsonReader(t *testing.T, sc *arrow.Schema, rows string) array.RecordReader {
	t.Helper()
	rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, sc, strings.NewReader(rows))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	rdr, err := array.NewRecordReader(sc, []arrow.RecordBatch{rec})
	if err != nil {
		t.Fatal(err)
	}
	return rdr
}
