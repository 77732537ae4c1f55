package arrowipc

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// TestNoSilentOverflow pins, for every place a native value is narrowed to
// what a format stores, that a value that does not fit is an error in
// every format, never a different stored value. ok lists the formats that
// hold the value exactly (ARROW, COMPACTED, INDEXED); the rest must refuse.
func TestNoSilentOverflow(t *testing.T) {
	const all = "ARROW COMPACTED INDEXED"
	dec := func(s string, p, sc int) codec.Decimal {
		d, err := codec.ParseDecimal(s, p, sc)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	end := time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)
	tests := []struct {
		name  string
		typ   schema.DataType
		value any
		ok    string
	}{
		{"tinyint max", schema.TinyInt(), int64(127), all},
		{"tinyint over", schema.TinyInt(), int64(128), ""},
		{"smallint under", schema.SmallInt(), -32769, ""},
		{"int over", schema.Int(), int64(math.MaxInt32) + 1, ""},
		{"bigint from uint64", schema.BigInt(), uint64(math.MaxUint64), ""},
		{"decimal more digits", schema.Decimal(5, 2), dec("1234.56", 6, 2), ""},
		{"decimal other scale", schema.Decimal(5, 2), dec("1.005", 5, 3), ""},
		{"decimal 38 nines", schema.Decimal(38, 0), dec(strings.Repeat("9", 38), 38, 0), all},
		{"decimal 38 into 37", schema.Decimal(37, 0), dec(strings.Repeat("9", 38), 38, 0), ""},
		{"date extremes", schema.Date(), codec.Date(math.MinInt32), all},
		{"time last ms", schema.Time(9), codec.Time(86399999), all},
		{"time negative", schema.Time(3), codec.Time(-1), ""},
		{"time a day", schema.Time(0), codec.Time(86400000), ""},
		{"time int32 beyond", schema.Time(6), int32(90000000), ""},
		{"timestamp(9) 9999", schema.Timestamp(9), codec.TimestampNTZOf(end), "COMPACTED INDEXED"},
		{"timestamp_ltz(9) 0001", schema.TimestampLTZ(9), codec.TimestampLTZ{Millis: -62135596800000}, "COMPACTED INDEXED"},
		{"timestamp(6) 9999", schema.Timestamp(6), codec.TimestampNTZOf(end.Truncate(time.Microsecond)), all},
		{"timestamp(6) beyond micros", schema.Timestamp(6), codec.TimestampNTZ{Millis: math.MaxInt64 / 100}, "COMPACTED INDEXED"},
		{"timestamp(3) from a far time.Time", schema.Timestamp(3), time.Date(300000000, 1, 1, 0, 0, 0, 0, time.UTC), ""},
		{"nano of milli", schema.Timestamp(9), codec.TimestampNTZ{NanoOfMilli: 1000000}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cols := []schema.Column{col("c", tc.typ)}
			rb, err := NewRowBuilder(cols, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer rb.Release()
			results := map[string]error{"ARROW": rb.Append([]any{tc.value})}
			for _, f := range []codec.RowFormat{codec.FormatCompacted, codec.FormatIndexed} {
				enc, err := codec.NewRowEncoder(f, []schema.DataType{tc.typ})
				if err != nil {
					t.Fatal(err)
				}
				_, results[f.String()] = enc.Encode([]any{tc.value})
			}
			for format, err := range results {
				if want := strings.Contains(tc.ok, format); want != (err == nil) {
					t.Errorf("%s: error %v, want ok=%v", format, err, want)
				}
			}
			if strings.Contains(tc.ok, "ARROW") {
				if got := decodeOne(t, cols, rb); got != tc.value && !codecEqual(got, tc.value) {
					t.Errorf("ARROW: stored %v, read back %v", tc.value, got)
				}
			}
		})
	}
}

// codecEqual compares values whose Go types differ only by width (an
// int64 written to TINYINT comes back as int8) or that are decimals.
func codecEqual(got, want any) bool {
	if d, ok := want.(codec.Decimal); ok {
		g, ok := got.(codec.Decimal)
		return ok && g.String() == d.String()
	}
	g, ok1 := codec.AsInt64(got)
	w, ok2 := codec.AsInt64(want)
	return ok1 && ok2 && g == w
}

// TestCheckRecordTimeOfDay: Arrow input carries TIME as a count of its
// unit, which may lie outside the day; such a record is refused.
func TestCheckRecordTimeOfDay(t *testing.T) {
	for _, tc := range []struct {
		p     int
		value int64
		ok    bool
	}{
		{0, 86399, true}, {0, 86400, false}, {3, 86399999, true}, {3, -1, false},
		{6, 86399999999, true}, {6, 86400000000, false}, {9, 86399999999999, true}, {9, math.MaxInt64, false},
	} {
		cols := []schema.Column{col("t", schema.Time(tc.p))}
		enc, err := NewEncoder(cols, Compression{Type: schema.CompressionNone}, nil)
		if err != nil {
			t.Fatal(err)
		}
		b := array.NewRecordBuilder(memory.DefaultAllocator, enc.Schema())
		switch x := b.Field(0).(type) {
		case *array.Time32Builder:
			x.AppendValues([]arrow.Time32{0, arrow.Time32(tc.value)}, nil)
		case *array.Time64Builder:
			x.AppendValues([]arrow.Time64{0, arrow.Time64(tc.value)}, nil)
		}
		b.Field(0).AppendNull()
		rec := b.NewRecordBatch()
		err = enc.CheckRecord(rec)
		rec.Release()
		b.Release()
		if tc.ok != (err == nil) || err != nil && !strings.Contains(err.Error(), `row 1: TIME value`) {
			t.Errorf("TIME(%d) %d: error %v, want ok=%v", tc.p, tc.value, err, tc.ok)
		}
	}
}
