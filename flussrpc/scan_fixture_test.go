package flussrpc_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/clustertest"
)

// Fixtures shared by the lookup and scan integration tests.

// scanAllTypeColumns are the value columns of the every-type tables; the
// tests prepend their key columns.
func scanAllTypeColumns() []schema.Column {
	return []schema.Column{
		schema.NewColumn("c_bool", schema.Boolean()),
		schema.NewColumn("c_tiny", schema.TinyInt()),
		schema.NewColumn("c_small", schema.SmallInt()),
		schema.NewColumn("c_int", schema.Int()),
		schema.NewColumn("c_big", schema.BigInt()),
		schema.NewColumn("c_float", schema.Float()),
		schema.NewColumn("c_double", schema.Double()),
		schema.NewColumn("c_char", schema.Char(6)),
		schema.NewColumn("c_str", schema.String()),
		schema.NewColumn("c_bin", schema.Binary(3)),
		schema.NewColumn("c_bytes", schema.Bytes()),
		schema.NewColumn("c_dec", schema.Decimal(10, 2)),
		schema.NewColumn("c_dec38", schema.Decimal(38, 10)),
		schema.NewColumn("c_date", schema.Date()),
		schema.NewColumn("c_time", schema.Time(3)),
		schema.NewColumn("c_ts3", schema.Timestamp(3)),
		schema.NewColumn("c_ts9", schema.Timestamp(9)),
		schema.NewColumn("c_ltz6", schema.TimestampLTZ(6)),
		schema.NewColumn("c_arr", schema.ArrayOf(schema.Int())),
		schema.NewColumn("c_map", schema.MapOf(schema.String().NotNull(), schema.BigInt())),
		schema.NewColumn("c_row", schema.RowOf(schema.NewField("f_int", schema.Int()), schema.NewField("f_str", schema.String()))),
		schema.NewColumn("c_arr_str", schema.ArrayOf(schema.String())),
	}
}

func testDecimal(t testing.TB, unscaled int64, p, s int) codec.Decimal {
	d, err := codec.NewDecimal(unscaled, p, s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func testBigDecimal(t testing.TB, digits string, p, s int) codec.Decimal {
	v, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		t.Fatalf("bad digits %q", digits)
	}
	d, err := codec.NewDecimalBig(v, p, s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// scanAllTypeValues returns value rows for scanAllTypeColumns covering
// NULLs, empty values, extremes, non-ASCII text and nested values. Row i
// is variant i % 4.
func scanAllTypeValues(t testing.TB, i int) []any {
	ts := time.Date(2024, 2, 29, 23, 59, 58, 123456789, time.UTC)
	switch i % 4 {
	case 0: // typical values
		return []any{
			true, int8(7), int16(-300), int32(123456), int64(9876543210), float32(1.5), 3.25,
			"héllo", "Grüße, 世界 🚀", []byte{1, 2, 3}, []byte{0xde, 0xad, 0xbe, 0xef},
			testDecimal(t, 12345, 10, 2), testBigDecimal(t, "12345678901234567890123456789", 38, 10),
			codec.Date(19782), codec.Time(45296789),
			codec.TimestampNTZOf(ts.Truncate(time.Millisecond)), codec.TimestampNTZOf(ts), codec.TimestampLTZOf(ts.Truncate(time.Microsecond)),
			[]any{int32(1), nil, int32(-3)}, codec.Map{Keys: []any{"a", "ü"}, Values: []any{int64(1), nil}},
			[]any{int32(42), "nested ✓"}, []any{"x", "", nil},
		}
	case 1: // all NULL
		return make([]any, len(scanAllTypeColumns()))
	case 2: // minimum / empty values
		return []any{
			false, int8(math.MinInt8), int16(math.MinInt16), int32(math.MinInt32), int64(math.MinInt64),
			float32(-math.MaxFloat32), -math.MaxFloat64,
			"", "", []byte{9, 9, 9}, []byte{},
			testDecimal(t, -99999999, 10, 2), testBigDecimal(t, "-99999999999999999999999999999999999999", 38, 10),
			codec.Date(-719162), codec.Time(0),
			codec.TimestampNTZOf(time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)),
			codec.TimestampNTZOf(time.Date(1969, 12, 31, 23, 59, 59, 999999999, time.UTC)),
			codec.TimestampLTZOf(time.Unix(0, 0)),
			[]any{}, codec.Map{Keys: []any{}, Values: []any{}}, []any{nil, nil}, []any{},
		}
	default: // maximum values
		return []any{
			true, int8(math.MaxInt8), int16(math.MaxInt16), int32(math.MaxInt32), int64(math.MaxInt64),
			float32(math.MaxFloat32), math.SmallestNonzeroFloat64,
			"ÿÿÿ", strings.Repeat("long text ", 200), []byte{0xff, 0xfe, 0x01}, []byte(strings.Repeat("\x00\x01", 300)),
			testDecimal(t, 99999999, 10, 2), testBigDecimal(t, "99999999999999999999999999999999999999", 38, 10),
			codec.Date(2932896), codec.Time(86399999),
			codec.TimestampNTZOf(time.Date(9999, 12, 31, 23, 59, 59, 999000000, time.UTC)),
			codec.TimestampNTZOf(time.Date(2262, 4, 11, 23, 47, 16, 854775807, time.UTC)),
			codec.TimestampLTZOf(time.Date(2200, 1, 1, 0, 0, 0, 999999000, time.UTC)),
			[]any{int32(math.MaxInt32)}, codec.Map{Keys: []any{"k"}, Values: []any{int64(math.MinInt64)}},
			[]any{int32(math.MinInt32), ""}, []any{strings.Repeat("é", 50)},
		}
	}
}

// canon renders a value of the codec value model with its types, so rows
// can be compared and printed; maps are order-sensitive as Fluss keeps
// their order.
func canon(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = canon(e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case codec.Map:
		parts := make([]string, len(x.Keys))
		for i := range x.Keys {
			parts[i] = canon(x.Keys[i]) + ":" + canon(x.Values[i])
		}
		return "map{" + strings.Join(parts, ",") + "}"
	case []byte:
		return fmt.Sprintf("bytes(%x)", x)
	case string:
		return fmt.Sprintf("%q", x)
	case codec.Decimal:
		return "dec(" + x.String() + ")"
	case float32:
		return fmt.Sprintf("f32(%v)", x)
	default:
		return fmt.Sprintf("%T(%v)", x, x)
	}
}

func canonRow(r []any) string { return canon(r) }

func sameRows(t *testing.T, what string, got, want [][]any) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, want %d", what, len(got), len(want))
	}
	for i := range got {
		if g, w := canonRow(got[i]), canonRow(want[i]); g != w {
			t.Fatalf("%s: row %d\n got  %s\n want %s", what, i, g, w)
		}
	}
}

// sameRowSet compares rows ignoring order.
func sameRowSet(t *testing.T, what string, got, want [][]any) {
	t.Helper()
	g := make([]string, len(got))
	for i, r := range got {
		g[i] = canonRow(r)
	}
	w := make([]string, len(want))
	for i, r := range want {
		w[i] = canonRow(r)
	}
	sort.Strings(g)
	sort.Strings(w)
	if strings.Join(g, "\n") != strings.Join(w, "\n") {
		t.Fatalf("%s: rows differ\n got:\n%s\n want:\n%s", what, strings.Join(g, "\n"), strings.Join(w, "\n"))
	}
}

// mustCreate creates a table, again if a loaded coordinator created it
// without leaders (clustertest.CreateWithLeaders), or fails the test.
func mustCreate(t testing.TB, adm *flussrpc.Admin, path flussrpc.TablePath, desc schema.TableDescriptor) {
	t.Helper()
	err := clustertest.CreateWithLeaders(t, func() error { return adm.CreateTable(testCtx(t), path, desc, false) },
		func() error { return adm.DropTable(testCtx(t), path, true) })
	if err != nil {
		t.Fatalf("CreateTable %s: %v", path, err)
	}
}

// createTable creates a table (mustCreate) and opens it.
func createTable(t testing.TB, c *flussrpc.Client, db, name string, desc schema.TableDescriptor) *flussrpc.Table {
	t.Helper()
	path := flussrpc.TablePath{Database: db, Table: name}
	mustCreate(t, c.Admin(), path, desc)
	tbl, err := c.OpenTable(testCtx(t), path)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

func intPtr(n int) *int { return &n }

// newSchema builds a schema or fails the test.
func newSchema(t testing.TB, cols []schema.Column, pk ...string) schema.Schema {
	t.Helper()
	s, err := schema.NewSchema(cols, pk, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// scanFormats lists the log formats every scan test runs with.
func scanFormats() []string {
	return []string{schema.FormatCompacted, schema.FormatIndexed, schema.FormatArrow}
}

// scanEncoderFor returns a raw log-batch encoder for the table's format.
func scanEncoderFor(t *flussrpc.Table) (flussrpc.ScanTestLogEncoder, error) {
	return flussrpc.ScanTestLogEncoderFor(t)
}

// createPartition creates a partition (see clustertest.CreateWithLeaders).
func createPartition(t *testing.T, c *flussrpc.Client, path flussrpc.TablePath, spec map[string]string) {
	t.Helper()
	err := clustertest.CreateWithLeaders(t, func() error { return c.Admin().CreatePartition(testCtx(t), path, spec, false) },
		func() error { return c.Admin().DropPartition(testCtx(t), path, spec, true) })
	if err != nil {
		t.Fatalf("CreatePartition %s %v: %v", path, spec, err)
	}
}

// createRowPartitions creates (createPartition) each partition the rows
// of tbl fall in, so that a writer finds them instead of creating them
// on the fly, where a partition the coordinator misses fails the test.
// Rows may end after their last partition column; a table without
// partitions gets none.
func createRowPartitions(t *testing.T, c *flussrpc.Client, tbl *flussrpc.Table, rows [][]any) {
	t.Helper()
	d := tbl.Info().Descriptor
	if !d.IsPartitioned() {
		return
	}
	idx, err := d.PartitionKeyIndexes()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range rows {
		spec := make(map[string]string, len(idx))
		for i, k := range idx {
			v, err := codec.PartitionValueString(d.Schema.Columns[k].Type, r[k])
			if err != nil {
				t.Fatal(err)
			}
			spec[d.PartitionKeys[i]] = v
		}
		if key := fmt.Sprint(spec); !seen[key] {
			seen[key] = true
			createPartition(t, c, tbl.Path(), spec)
		}
	}
}

// scanTableArrow reads a primary-key table whole with TableScan.NextArrow
// (capped at maxRows) and returns its records' rows.
func scanTableArrow(t *testing.T, ctx context.Context, tbl *flussrpc.Table, maxRows int64) ([][]any, error) {
	t.Helper()
	sc := tbl.ScanTable([]string{""}, maxRows)
	defer sc.Close()
	cols := tbl.Info().Descriptor.Schema.Columns
	rd, err := arrowipc.NewColumnReader(cols)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]any
	for {
		rec, err := sc.NextArrow(ctx)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		got, err := rd.Read(rec)
		rec.Release()
		if err != nil {
			t.Fatal(err)
		}
		for r := range got.NumRows() {
			row := make([]any, len(cols))
			for c := range row {
				row[c] = got.Value(c, r)
			}
			out = append(out, row)
		}
	}
}
