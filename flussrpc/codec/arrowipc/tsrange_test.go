package arrowipc

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// The first and last instants an int64 count of nanoseconds or
// microseconds since the epoch can hold.
var (
	nanoLo  = time.Unix(0, math.MinInt64).UTC()
	nanoHi  = time.Unix(0, math.MaxInt64).UTC()
	microLo = codec.TimestampNTZ{Millis: math.MinInt64/1000 - 1, NanoOfMilli: 192000}
	microHi = codec.TimestampNTZ{Millis: math.MaxInt64 / 1000, NanoOfMilli: 807000}
)

// TestTimestampRange pins which timestamps an ARROW log batch can hold per
// precision: values inside come back unchanged, values outside are refused
// with an error that names the column, the value and the range, instead of
// wrapping to another instant (9999-12-31 in TIMESTAMP(9) used to be stored
// as a day in 1816).
func TestTimestampRange(t *testing.T) {
	end := time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)
	first := time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		typ     schema.DataType
		value   any
		wantErr string // empty: must round-trip
	}{
		{"ns lowest", schema.Timestamp(9), codec.TimestampNTZOf(nanoLo), ""},
		{"ns highest", schema.Timestamp(9), codec.TimestampNTZOf(nanoHi), ""},
		{"ltz ns lowest", schema.TimestampLTZ(9), codec.TimestampLTZOf(nanoLo), ""},
		{"ltz ns highest", schema.TimestampLTZ(7), codec.TimestampLTZOf(nanoHi), ""},
		{"ns one below", schema.Timestamp(9), codec.TimestampNTZOf(nanoLo.Add(-1)),
			"1677-09-21 00:12:43.145224191 is outside the range an ARROW log table can store for this precision, 1677-09-21 00:12:43.145224192 … 2262-04-11 23:47:16.854775807"},
		{"ns one above", schema.Timestamp(8), codec.TimestampNTZOf(nanoHi.Add(1)), "2262-04-11 23:47:16.854775808 is outside"},
		{"ns 9999", schema.Timestamp(9), codec.TimestampNTZOf(end), "9999-12-31 23:59:59.999999999 is outside"},
		{"ns 0001", schema.Timestamp(9), codec.TimestampNTZOf(first), "0001-01-01 00:00:00 is outside"},
		{"ltz ns 9999", schema.TimestampLTZ(9), codec.TimestampLTZOf(end), "9999-12-31 23:59:59.999999999Z is outside"},
		{"ltz ns time.Time", schema.TimestampLTZ(9), end, "9999-12-31 23:59:59.999999999Z is outside"},
		{"us 9999", schema.Timestamp(6), codec.TimestampNTZOf(end.Truncate(time.Microsecond)), ""},
		{"us 0001", schema.Timestamp(6), codec.TimestampNTZOf(first), ""},
		{"us lowest", schema.Timestamp(6), microLo, ""},
		{"us highest", schema.Timestamp(6), microHi, ""},
		{"us one below", schema.Timestamp(6), codec.TimestampNTZ{Millis: microLo.Millis - 1, NanoOfMilli: 999000}, "is outside"},
		{"us one above", schema.Timestamp(4), codec.TimestampNTZ{Millis: microHi.Millis + 1}, "is outside"},
		{"ms extreme", schema.Timestamp(3), codec.TimestampNTZ{Millis: math.MaxInt64}, ""},
		{"s extreme", schema.Timestamp(0), codec.TimestampNTZ{Millis: math.MinInt64 + 808}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cols := []schema.Column{col("ts", tc.typ)}
			rb, err := NewRowBuilder(cols, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer rb.Release()
			err = rb.Append([]any{tc.value})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), `column "ts"`) {
					t.Fatalf("error %v, want one naming column \"ts\" and containing %q", err, tc.wantErr)
				}
				if rb.Len() != 0 {
					t.Fatal("a refused row was appended")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := decodeOne(t, cols, rb)
			want := tc.value
			if tt, ok := want.(time.Time); ok {
				want = codec.TimestampLTZOf(tt)
			}
			if got != want {
				t.Fatalf("stored %v, read back %v", want, got)
			}
		})
	}
}

// decodeOne encodes the single row in rb and decodes its first value.
func decodeOne(t *testing.T, cols []schema.Column, rb *RowBuilder) any {
	t.Helper()
	rec := rb.NewRecord()
	defer rec.Release()
	enc, err := NewEncoder(cols, Compression{Type: schema.CompressionNone}, nil)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := enc.AppendMessage(nil, rec)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := NewDecoder(cols, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Release()
	rows, err := dec.DecodeRows(nil, msg, 1)
	if err != nil {
		t.Fatal(err)
	}
	return rows[0][0]
}

// TestRangeCheck covers the check primary-key tables with an ARROW
// changelog run before a row goes to the key-value store, nested fields
// included.
func TestRangeCheck(t *testing.T) {
	over := codec.TimestampNTZOf(nanoHi.Add(1))
	ok := codec.TimestampNTZOf(nanoHi)
	cols := []schema.Column{
		col("id", schema.Int()),
		col("ts3", schema.Timestamp(3)),
		col("arr", schema.ArrayOf(schema.Timestamp(9))),
		col("m", schema.MapOf(schema.String(), schema.Timestamp(7))),
		col("r", schema.RowOf(schema.NewField("x", schema.Int()), schema.NewField("t", schema.Timestamp(9)))),
	}
	check := RangeCheck(cols)
	tests := []struct {
		name    string
		row     []any
		wantCol string // empty: accepted
	}{
		{"all fit", []any{1, codec.TimestampNTZ{Millis: math.MaxInt64}, []any{ok, nil}, codec.Map{Keys: []any{"k"}, Values: []any{ok}}, []any{1, ok}}, ""},
		{"all NULL", []any{nil, nil, nil, nil, nil}, ""},
		{"array element", []any{1, nil, []any{nil, over}, nil, nil}, "arr"},
		{"map value", []any{1, nil, nil, codec.Map{Keys: []any{"k"}, Values: []any{over}}, nil}, "m"},
		{"row field", []any{1, nil, nil, nil, []any{1, over}}, "r"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := check(tc.row)
			if tc.wantCol == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), `column "`+tc.wantCol+`"`) || !strings.Contains(err.Error(), "2262-04-11 23:47:16.854775808 is outside") {
				t.Fatalf("error %v, want one for column %q", err, tc.wantCol)
			}
		})
	}
	if RangeCheck([]schema.Column{col("ts", schema.Timestamp(3)), col("a", schema.ArrayOf(schema.TimestampLTZ(0)))}) != nil {
		t.Error("a table without micro- or nanosecond timestamps needs no check")
	}
}
