package flussrpc_test

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/clustertest"
	"github.com/gofluss/fluss/internal/javapeer"
)

// Cross-checks against the Fluss Java client at the server's version, the
// reference client (internal/javapeer): every type with its edge values is
// written by one client and read by the other, both ways, on every kind
// of table; and keys of every key type written by either client are found
// by both. One JVM serves each test.

// jpValueColumns are the value columns of the every-type tables.
func jpValueColumns() []schema.Column {
	c := schema.NewColumn
	return []schema.Column{
		c("b", schema.Boolean()), c("i8", schema.TinyInt()), c("i16", schema.SmallInt()),
		c("i32", schema.Int()), c("i64", schema.BigInt()), c("f32", schema.Float()), c("f64", schema.Double()),
		c("ch", schema.Char(5)), c("s", schema.String()), c("bin", schema.Binary(4)), c("bs", schema.Bytes()),
		c("d10", schema.Decimal(10, 2)), c("d18", schema.Decimal(18, 18)), c("d38", schema.Decimal(38, 10)),
		c("d38i", schema.Decimal(38, 0)), c("day", schema.Date()), c("t0", schema.Time(0)), c("t3", schema.Time(3)),
		c("ts0", schema.Timestamp(0)), c("ts3", schema.Timestamp(3)), c("ts6", schema.Timestamp(6)), c("ts9", schema.Timestamp(9)),
		c("ltz0", schema.TimestampLTZ(0)), c("ltz3", schema.TimestampLTZ(3)), c("ltz6", schema.TimestampLTZ(6)), c("ltz9", schema.TimestampLTZ(9)),
		c("arr", schema.ArrayOf(schema.Int())),
		c("arr2", schema.ArrayOf(schema.ArrayOf(schema.String()))),
		c("m", schema.MapOf(schema.String().NotNull(), schema.Double())),
		c("r", schema.RowOf(schema.NewField("x", schema.Int()), schema.NewField("t", schema.Timestamp(9)))),
		c("ar", schema.ArrayOf(schema.RowOf(schema.NewField("k", schema.String()), schema.NewField("v", schema.ArrayOf(schema.BigInt()))))),
	}
}

// jpLimits says which values a table (and the reader at hand) can hold.
type jpLimits struct {
	// nanoArrow: TIMESTAMP(7..9) is int64 nanoseconds (ARROW log, or the
	// ARROW changelog of a primary-key table), 1677-09-21 … 2262-04-11.
	nanoArrow bool
	// javaReadsArrow: the Java client reads these rows from ARROW batches,
	// where it fails on instants before 1970 with a sub-millisecond part
	// (its ArrowTimestamp*ColumnVector splits with / and %, and the
	// negative nano-of-milli it gets is rejected); such values are kept
	// to whole milliseconds and checked in TestJavaPeerPre1970Arrow.
	javaReadsArrow bool
}

func jpDec(t testing.TB, s string, p, sc int) codec.Decimal {
	d, err := codec.ParseDecimal(s, p, sc)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// jpValues returns value rows for jpValueColumns: typical values, all
// NULL, minimum and empty values, maximum values, and the special floats.
func jpValues(t testing.TB, lim jpLimits) [][]any {
	ntz := func(tt time.Time) codec.TimestampNTZ { return codec.TimestampNTZOf(tt) }
	ltz := func(tt time.Time) codec.TimestampLTZ { return codec.TimestampLTZOf(tt) }
	utc := func(y int, mo time.Month, d, h, mi, s, ns int) time.Time {
		return time.Date(y, mo, d, h, mi, s, ns, time.UTC)
	}
	first, last := utc(1, 1, 1, 0, 0, 0, 0), utc(9999, 12, 31, 23, 59, 59, 999999999)
	// Before 1970 with a fraction: sub-millisecond unless Java reads Arrow.
	pre := utc(1969, 12, 31, 23, 59, 59, 123456789)
	if lim.javaReadsArrow {
		pre = pre.Truncate(time.Millisecond)
	}
	lo9, hi9 := first, last
	if lim.nanoArrow {
		lo9, hi9 = time.Unix(0, math.MinInt64).UTC(), time.Unix(0, math.MaxInt64).UTC()
		if lim.javaReadsArrow {
			lo9 = lo9.Add(time.Millisecond).Truncate(time.Millisecond)
		}
	}
	oneMB := strings.Repeat("0123456789abcdef", 1<<16)
	typical := []any{
		true, int8(7), int16(-300), int32(123456), int64(9876543210), float32(1.5), 3.25,
		"hello", "Grüße, 世界 🚀", []byte{1, 2, 3, 4}, []byte{0xde, 0xad, 0xbe, 0xef},
		jpDec(t, "12345.67", 10, 2), jpDec(t, "0.123456789012345678", 18, 18),
		jpDec(t, "1234567890123456789012345678.0123456789", 38, 10), jpDec(t, "-42", 38, 0),
		codec.Date(19782), codec.Time(45296000), codec.Time(45296789),
		ntz(utc(2024, 2, 29, 23, 59, 58, 0)), ntz(utc(2024, 2, 29, 23, 59, 58, 123000000)),
		ntz(utc(2024, 2, 29, 23, 59, 58, 123456000)), ntz(utc(2024, 2, 29, 23, 59, 58, 123456789)),
		ltz(utc(2024, 2, 29, 23, 59, 58, 0)), ltz(utc(2024, 2, 29, 23, 59, 58, 123000000)),
		ltz(utc(2024, 2, 29, 23, 59, 58, 123456000)), ltz(utc(2024, 2, 29, 23, 59, 58, 123456789)),
		[]any{int32(1), nil, int32(-3)}, []any{[]any{"a", nil}, nil, []any{}},
		codec.Map{Keys: []any{"a", "ü", "null"}, Values: []any{1.25, math.Copysign(0, -1), nil}},
		[]any{int32(42), ntz(pre)},
		[]any{[]any{"k1", []any{int64(1), nil}}, nil, []any{nil, nil}, []any{"", []any{}}},
	}
	allNull := make([]any, len(typical))
	minimum := []any{
		false, int8(math.MinInt8), int16(math.MinInt16), int32(math.MinInt32), int64(math.MinInt64),
		float32(math.Copysign(0, -1)), math.Copysign(0, -1),
		"\x00\x00\x00\x00z", "", []byte{0, 0, 0, 1}, []byte{},
		jpDec(t, "-99999999.99", 10, 2), jpDec(t, "-0.999999999999999999", 18, 18),
		jpDec(t, "-9999999999999999999999999999.9999999999", 38, 10), jpDec(t, "-"+strings.Repeat("9", 38), 38, 0),
		codec.Date(-719162), codec.Time(0), codec.Time(0),
		ntz(first), ntz(pre.Truncate(time.Millisecond)), ntz(first), ntz(lo9),
		ltz(first), ltz(pre.Truncate(time.Millisecond)), ltz(pre.Truncate(time.Microsecond)), ltz(lo9),
		[]any{}, []any{}, codec.Map{}, []any{nil, nil}, []any{},
	}
	maximum := []any{
		true, int8(math.MaxInt8), int16(math.MaxInt16), int32(math.MaxInt32), int64(math.MaxInt64),
		float32(math.MaxFloat32), math.MaxFloat64,
		"ÿ\x00ÿ", oneMB, []byte{0xff, 0xff, 0xff, 0xff}, []byte("nul\x00inside\x00"),
		jpDec(t, "99999999.99", 10, 2), jpDec(t, "0.999999999999999999", 18, 18),
		jpDec(t, "9999999999999999999999999999.9999999999", 38, 10), jpDec(t, strings.Repeat("9", 38), 38, 0),
		codec.Date(2932896), codec.Time(86399000), codec.Time(86399999),
		ntz(last.Truncate(time.Second)), ntz(last.Truncate(time.Millisecond)), ntz(last.Truncate(time.Microsecond)), ntz(hi9),
		ltz(last.Truncate(time.Second)), ltz(last.Truncate(time.Millisecond)), ltz(last.Truncate(time.Microsecond)), ltz(hi9),
		[]any{int32(math.MaxInt32), int32(math.MinInt32)}, []any{[]any{strings.Repeat("é", 100)}},
		codec.Map{Keys: []any{""}, Values: []any{math.MaxFloat64}},
		[]any{nil, nil},
		[]any{[]any{"x", []any{int64(math.MinInt64), int64(math.MaxInt64)}}},
	}
	special := []any{
		nil, nil, nil, nil, nil, float32(math.NaN()), math.Inf(1),
		"a\x00b\x00c", "nul \x00 in the middle", nil, []byte{0},
		nil, nil, nil, nil, codec.Date(-1), nil, codec.Time(1),
		nil, ntz(utc(1900, 1, 1, 0, 0, 0, 1000000)), ntz(pre.Truncate(time.Microsecond)), ntz(pre),
		nil, nil, nil, ltz(pre),
		[]any{nil}, []any{nil, []any{nil}}, codec.Map{Keys: []any{"nan", "inf"}, Values: []any{math.NaN(), math.Inf(-1)}},
		nil, nil,
	}
	specialF := []any{
		nil, nil, nil, nil, nil, float32(math.Inf(-1)), math.NaN(),
		nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil,
		nil, nil, nil, nil, nil, nil, nil, nil,
		nil, nil, nil, nil, nil,
	}
	denorm := []any{
		nil, nil, nil, nil, nil, float32(math.SmallestNonzeroFloat32), -math.SmallestNonzeroFloat64,
		nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil,
		nil, nil, nil, nil, nil, nil, nil, nil,
		nil, nil, nil, nil, nil,
	}
	return [][]any{typical, allNull, minimum, maximum, special, specialF, denorm}
}

// jpTable is one kind of table the types are cross-checked on.
type jpTable struct {
	name   string
	keys   []schema.Column // leading columns: ids (and partition column)
	pk     []string
	parts  []string
	format string // table.log.format
}

func (k jpTable) columns() []schema.Column {
	return append(append([]schema.Column{}, k.keys...), jpValueColumns()...)
}

// keyed prepends the key values of row i to vals.
func (k jpTable) keyed(i int, vals []any) []any {
	var key []any
	for _, c := range k.keys {
		switch c.Name {
		case "id":
			key = append(key, int64(i))
		case "dt":
			key = append(key, fmt.Sprintf("p%d", i%2))
		case "k2":
			key = append(key, fmt.Sprintf("k-%d", i*7))
		}
	}
	return append(key, vals...)
}

func (k jpTable) descriptor(t *testing.T) schema.TableDescriptor {
	return schema.TableDescriptor{
		Schema:        newSchema(t, k.columns(), k.pk...),
		PartitionKeys: k.parts,
		BucketCount:   intPtr(3),
		Properties:    map[string]string{schema.OptLogFormat: k.format},
	}
}

func jpTables() []jpTable {
	id := schema.NewColumn("id", schema.BigInt().NotNull())
	dt := schema.NewColumn("dt", schema.String().NotNull())
	k2 := schema.NewColumn("k2", schema.String().NotNull())
	return []jpTable{
		{name: "log_arrow", keys: []schema.Column{id}, format: schema.FormatArrow},
		{name: "log_indexed", keys: []schema.Column{id}, format: schema.FormatIndexed},
		{name: "pk", keys: []schema.Column{id}, pk: []string{"id"}, format: schema.FormatArrow},
		{name: "pk_part", keys: []schema.Column{id, dt}, pk: []string{"id", "dt"}, parts: []string{"dt"}, format: schema.FormatArrow},
		{name: "pk_composite", keys: []schema.Column{id, k2}, pk: []string{"id", "k2"}, format: schema.FormatArrow},
	}
}

// TestJavaPeerAllTypes writes every type's edge values with this client
// and reads them with Java, and the other way round, on log (ARROW and
// INDEXED), primary-key, partitioned primary-key and composite-key
// tables. Log tables are read by scanning; primary-key tables by lookup
// of every key and by scanning their changelog.
func TestJavaPeerAllTypes(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	peer := javapeer.Start(t, clustertest.Bootstrap(t))
	for _, kind := range jpTables() {
		t.Run(kind.name, func(t *testing.T) {
			cols := kind.columns()
			arrow := kind.format == schema.FormatArrow
			lim := jpLimits{nanoArrow: arrow, javaReadsArrow: arrow}
			var rows [][]any
			for i, vals := range jpValues(t, lim) {
				rows = append(rows, kind.keyed(i, vals))
			}
			t.Run("go_to_java", func(t *testing.T) {
				tbl := createTable(t, c, db, kind.name+"_go", kind.descriptor(t))
				createRowPartitions(t, c, tbl, rows)
				jpWriteGo(t, tbl, rows)
				jpCheckJavaReads(t, peer, db, tbl.Path().Table, kind, rows)
			})
			t.Run("java_to_go", func(t *testing.T) {
				// Java writes Arrow correctly for every instant in range;
				// only its Arrow reader has the pre-1970 limit.
				var rows [][]any
				for i, vals := range jpValues(t, jpLimits{nanoArrow: arrow}) {
					rows = append(rows, kind.keyed(i, vals))
				}
				tbl := createTable(t, c, db, kind.name+"_java", kind.descriptor(t))
				createRowPartitions(t, c, tbl, rows)
				how := "append"
				if len(kind.pk) > 0 {
					how = "upsert"
				}
				peer.Write(t, how, db, tbl.Path().Table, cols, rows)
				jpCheckGoReads(t, tbl, kind, rows)
			})
		})
	}
}

// jpWriteGo writes rows with this client's append or upsert writer.
func jpWriteGo(t *testing.T, tbl *flussrpc.Table, rows [][]any) {
	t.Helper()
	ctx := testCtx(t)
	if tbl.Info().Descriptor.HasPrimaryKey() {
		w, err := tbl.NewUpsertWriter(flussrpc.UpsertOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if _, err := w.Upsert(ctx, r); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(ctx); err != nil {
			t.Fatal(err)
		}
		return
	}
	w, err := tbl.NewAppendWriter(flussrpc.AppendOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if _, err := w.Append(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

func jpKeys(kind jpTable, rows [][]any) [][]any {
	keys := make([][]any, len(rows))
	for i, r := range rows {
		keys[i] = r[:len(kind.keys)]
	}
	return keys
}

// jpCheckJavaReads requires Java to read exactly rows from the table.
func jpCheckJavaReads(t *testing.T, peer *javapeer.Peer, db, table string, kind jpTable, rows [][]any) {
	t.Helper()
	cols := kind.columns()
	recs := peer.Scan(t, db, table, cols)
	want := "+A"
	if len(kind.pk) > 0 {
		want = "+I"
		got := peer.Lookup(t, db, table, kind.keys, cols, jpKeys(kind, rows))
		sameRowSet(t, "rows Java looked up", jpSortMaps(got), jpSortMaps(rows))
	}
	var got [][]any
	for _, r := range recs {
		if r.Change != want {
			t.Fatalf("Java read change type %s at %s/%d@%d, want %s", r.Change, r.Partition, r.Bucket, r.Offset, want)
		}
		got = append(got, r.Row)
	}
	sameRowSet(t, "rows Java scanned", jpSortMaps(got), jpSortMaps(rows))
}

// jpCheckGoReads requires this client to read exactly rows from the table.
func jpCheckGoReads(t *testing.T, tbl *flussrpc.Table, kind jpTable, rows [][]any) {
	t.Helper()
	if len(kind.pk) > 0 {
		l, err := tbl.NewLookuper()
		if err != nil {
			t.Fatal(err)
		}
		var got [][]any
		for _, k := range jpKeys(kind, rows) {
			row, found, err := l.Lookup(testCtx(t), k)
			if err != nil || !found {
				t.Fatalf("lookup %v: found %v, %v", k, found, err)
			}
			got = append(got, row)
		}
		sameRowSet(t, "rows looked up", got, rows)
	}
	s, err := tbl.NewLogScanner(flussrpc.LogScanOptions{Bounded: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.SubscribeAll(testCtx(t), flussrpc.ScanFromEarliest()); err != nil {
		t.Fatal(err)
	}
	var got [][]any
	for _, r := range scanAll(t, s) {
		got = append(got, r.Row)
	}
	sameRowSet(t, "rows scanned", got, rows)
}

// jpSortMaps returns rows with every map's entries sorted by key: the Java
// client reads ARROW maps into hash maps, so their order is not kept.
func jpSortMaps(rows [][]any) [][]any {
	out := make([][]any, len(rows))
	for i, r := range rows {
		out[i] = jpSortMapsIn(r).([]any)
	}
	return out
}

func jpSortMapsIn(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jpSortMapsIn(e)
		}
		return out
	case codec.Map:
		idx := make([]int, len(x.Keys))
		for i := range idx {
			idx[i] = i
		}
		sort.Slice(idx, func(a, b int) bool { return canon(x.Keys[idx[a]]) < canon(x.Keys[idx[b]]) })
		var m codec.Map
		for _, i := range idx {
			m.Keys = append(m.Keys, jpSortMapsIn(x.Keys[i]))
			m.Values = append(m.Values, jpSortMapsIn(x.Values[i]))
		}
		return m
	}
	return v
}
