package fluss_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gofluss/fluss"
	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/clustertest"
	"github.com/gofluss/fluss/internal/javapeer"
)

// TestJavaReadsSQLWrites writes values of every type as a new user would,
// through database/sql with SQL literals and bound parameters, and through
// fluss.AppendArrow, and requires the Fluss Java client to read exactly
// them back (a log table is scanned, a primary-key table looked up).
func TestJavaReadsSQLWrites(t *testing.T) {
	db := openDB(t, "")
	d := uniqueDB(t, db)
	peer := javapeer.Start(t, clustertest.Bootstrap(t))
	const colsSQL = "id BIGINT, b BOOLEAN, i8 TINYINT, i64 BIGINT, f FLOAT, x DOUBLE, s STRING, bs BYTES, " +
		"dec DECIMAL(38, 10), day DATE, tm TIME(3), ts TIMESTAMP(9), ltz TIMESTAMP_LTZ(6), " +
		"arr ARRAY<INT>, m MAP<STRING, BIGINT>, r ROW<a INT, t TIMESTAMP(3)>"
	c := schema.NewColumn
	cols := []schema.Column{
		c("id", schema.BigInt()), c("b", schema.Boolean()), c("i8", schema.TinyInt()), c("i64", schema.BigInt()),
		c("f", schema.Float()), c("x", schema.Double()), c("s", schema.String()), c("bs", schema.Bytes()),
		c("dec", schema.Decimal(38, 10)), c("day", schema.Date()), c("tm", schema.Time(3)), c("ts", schema.Timestamp(9)),
		c("ltz", schema.TimestampLTZ(6)), c("arr", schema.ArrayOf(schema.Int())),
		c("m", schema.MapOf(schema.String(), schema.BigInt())),
		c("r", schema.RowOf(schema.NewField("a", schema.Int()), schema.NewField("t", schema.Timestamp(3)))),
	}
	dec, err := codec.ParseDecimal("-1234567890123456789012345678.0123456789", 38, 10)
	if err != nil {
		t.Fatal(err)
	}
	pre := time.Date(1969, 7, 20, 20, 17, 40, 123000000, time.UTC)
	hi := time.Unix(0, math.MaxInt64).UTC()
	want := [][]any{
		{int64(1), true, int8(-128), int64(math.MinInt64), float32(-1.5), math.Inf(-1), "nul \x00 ü", []byte{},
			dec, codec.Date(-719162), codec.Time(86399999), codec.TimestampNTZOf(hi), codec.TimestampLTZOf(pre),
			[]any{int32(1), nil, int32(3)}, codec.Map{Keys: []any{"k"}, Values: []any{nil}}, []any{int32(7), codec.TimestampNTZOf(pre)}},
		{int64(2), nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil},
		{int64(3), false, int8(127), int64(math.MaxInt64), float32(math.MaxFloat32), math.NaN(), strings.Repeat("x", 1<<20), []byte{0, 1},
			dec, codec.Date(2932896), codec.Time(0), codec.TimestampNTZOf(pre), codec.TimestampLTZOf(pre),
			[]any{}, codec.Map{}, []any{nil, nil}},
	}
	for _, kind := range []struct{ name, ddl string }{
		{"log", "CREATE TABLE %s (" + colsSQL + ")"},
		{"pk", "CREATE TABLE %s (" + colsSQL + ", PRIMARY KEY (id) NOT ENFORCED)"},
	} {
		t.Run(kind.name, func(t *testing.T) {
			table := d + ".sql_" + kind.name
			mustExec(t, db, strings.Replace(kind.ddl, "%s", table, 1))
			mustExec(t, db, "INSERT INTO "+table+" VALUES (1, TRUE, -128, -9223372036854775808, CAST(-1.5 AS FLOAT), ?, ?, ?, "+
				"-1234567890123456789012345678.0123456789, DATE '0001-01-01', TIME '23:59:59.999', "+
				"TIMESTAMP '2262-04-11 23:47:16.854775807', ?, ?, ?, ?)",
				math.Inf(-1), "nul \x00 ü", []byte{}, pre, []any{1, nil, 3}, map[string]any{"k": nil}, []any{7, pre})
			mustExec(t, db, "INSERT INTO "+table+" (id) VALUES (2)")
			mustExec(t, db, "INSERT INTO "+table+" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
				3, false, 127, int64(math.MaxInt64), float32(math.MaxFloat32), math.NaN(), strings.Repeat("x", 1<<20), []byte{0, 1},
				"-1234567890123456789012345678.0123456789", time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC), "00:00:00", pre, pre,
				[]int32{}, map[string]int64{}, "[null, null]")
			if kind.name == "pk" {
				keys := [][]any{{int64(1)}, {int64(2)}, {int64(3)}}
				jpSameRows(t, peer.Lookup(t, d, "sql_pk", cols[:1], cols, keys), want)
				return
			}
			var got [][]any
			for _, r := range peer.Scan(t, d, "sql_log", cols) {
				got = append(got, r.Row)
			}
			jpSameRows(t, got, want)
		})
	}

	t.Run("arrow", func(t *testing.T) {
		// Arrow input carries the stored int64 itself, so every
		// nanosecond timestamp it can express is stored exactly.
		mustExec(t, db, "CREATE TABLE "+d+".arrow_in (id BIGINT, ts TIMESTAMP(9), ltz TIMESTAMP_LTZ(9))")
		sch := arrow.NewSchema([]arrow.Field{
			{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
			{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Nanosecond}, Nullable: true},
			{Name: "ltz", Type: &arrow.TimestampType{Unit: arrow.Nanosecond}, Nullable: true},
		}, nil)
		b := array.NewRecordBuilder(memory.DefaultAllocator, sch)
		defer b.Release()
		// Java reads pre-1970 ARROW timestamps only to the millisecond
		// (TestJavaPeerPre1970ArrowFraction), hence -9223372036854000000.
		for i, ns := range []int64{math.MaxInt64, -9223372036854000000, 0} {
			b.Field(0).(*array.Int64Builder).Append(int64(i))
			b.Field(1).(*array.TimestampBuilder).Append(arrow.Timestamp(ns))
			b.Field(2).(*array.TimestampBuilder).Append(arrow.Timestamp(ns))
		}
		rec := b.NewRecordBatch()
		defer rec.Release()
		conn, err := db.Conn(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := fluss.AppendArrow(ctxT(t), conn, d+".arrow_in", rec); err != nil {
			t.Fatal(err)
		}
		acols := []schema.Column{c("id", schema.BigInt()), c("ts", schema.Timestamp(9)), c("ltz", schema.TimestampLTZ(9))}
		var got [][]any
		for _, r := range peer.Scan(t, d, "arrow_in", acols) {
			got = append(got, r.Row)
		}
		var want [][]any
		for i, ns := range []int64{math.MaxInt64, -9223372036854000000, 0} {
			tt := time.Unix(0, ns).UTC()
			want = append(want, []any{int64(i), codec.TimestampNTZOf(tt), codec.TimestampLTZOf(tt)})
		}
		jpSameRows(t, got, want)
	})
}

// jpSameRows compares rows by id (column 0), NaN equal to NaN.
func jpSameRows(t *testing.T, got, want [][]any) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("Java read %d rows, want %d", len(got), len(want))
	}
	byID := map[any][]any{}
	for _, r := range got {
		byID[r[0]] = r
	}
	for _, w := range want {
		g := byID[w[0]]
		if g == nil {
			t.Errorf("Java did not read row %v", w[0])
			continue
		}
		for i := range w {
			if !sameValue(g[i], w[i]) {
				t.Errorf("row %v column %d: Java read %.200v, want %.200v", w[0], i, g[i], w[i])
			}
		}
	}
}

func sameValue(a, b any) bool {
	switch x := b.(type) {
	case float64:
		y, ok := a.(float64)
		return ok && (x == y && math.Signbit(x) == math.Signbit(y) || math.IsNaN(x) && math.IsNaN(y))
	case []byte:
		y, ok := a.([]byte)
		return ok && string(x) == string(y)
	case codec.Decimal:
		y, ok := a.(codec.Decimal)
		return ok && x.Equal(y)
	case []any:
		y, ok := a.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameValue(y[i], x[i]) {
				return false
			}
		}
		return true
	case codec.Map:
		y, ok := a.(codec.Map)
		return ok && sameValue(y.Keys, x.Keys) && sameValue(y.Values, x.Values)
	}
	return a == b
}
