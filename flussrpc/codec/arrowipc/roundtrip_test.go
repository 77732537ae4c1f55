package arrowipc

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/testkit"
)

var allCompressions = []Compression{
	{Type: schema.CompressionNone},
	{Type: schema.CompressionLZ4},
	{Type: schema.CompressionZstd, ZstdLevel: 3},
	{Type: schema.CompressionZstd, ZstdLevel: 19},
}

func col(name string, t schema.DataType) schema.Column { return schema.NewColumn(name, t) }

func allTypeColumns() []schema.Column {
	return []schema.Column{
		col("b", schema.Boolean()),
		col("i8", schema.TinyInt()),
		col("i16", schema.SmallInt()),
		col("i32", schema.Int().NotNull()),
		col("i64", schema.BigInt()),
		col("f32", schema.Float()),
		col("f64", schema.Double()),
		col("c", schema.Char(4)),
		col("s", schema.String()),
		col("bin", schema.Binary(3)),
		col("bytes", schema.Bytes()),
		col("dec10", schema.Decimal(10, 2)),
		col("dec38", schema.Decimal(38, 10)),
		col("date", schema.Date()),
		col("t0", schema.Time(0)),
		col("t3", schema.Time(3)),
		col("t6", schema.Time(6)),
		col("t9", schema.Time(9)),
		col("ts0", schema.Timestamp(0)),
		col("ts3", schema.Timestamp(3)),
		col("ts6", schema.Timestamp(6)),
		col("ts9", schema.Timestamp(9)),
		col("ltz3", schema.TimestampLTZ(3)),
		col("ltz9", schema.TimestampLTZ(9)),
		col("arr", schema.ArrayOf(schema.String())),
		col("arr2", schema.ArrayOf(schema.ArrayOf(schema.Int().NotNull()))),
		col("m", schema.MapOf(schema.String(), schema.BigInt())),
		col("row", schema.RowOf(schema.NewField("x", schema.Int()), schema.NewField("y", schema.ArrayOf(schema.Double())))),
	}
}

// allTypeRows returns rows whose values are exactly representable at each
// column's precision, so that they must come back unchanged.
func allTypeRows(t testing.TB) [][]any {
	big38 := testkit.Decimal(t, "-"+strings.Repeat("9", 28)+"."+strings.Repeat("9", 10), 38, 10)
	max38 := testkit.Decimal(t, strings.Repeat("9", 28)+"."+strings.Repeat("9", 10), 38, 10)
	return [][]any{
		{
			true, int8(math.MinInt8), int16(math.MinInt16), int32(math.MinInt32), int64(math.MinInt64),
			float32(-1.5), math.Inf(-1), "ab", "héllo wörld ✓ 日本", []byte{1, 2, 3}, []byte{0, 0xff},
			testkit.Decimal(t, "-12345678.90", 10, 2), big38, codec.Date(-719162),
			codec.Time(86399000), codec.Time(86399999), codec.Time(1), codec.Time(0),
			codec.TimestampNTZ{Millis: -62135596800000},
			codec.TimestampNTZ{Millis: 1700000000123},
			codec.TimestampNTZ{Millis: -1, NanoOfMilli: 999000},
			codec.TimestampNTZ{Millis: 1700000000123, NanoOfMilli: 456789},
			codec.TimestampLTZ{Millis: -5},
			codec.TimestampLTZ{Millis: -1, NanoOfMilli: 1},
			[]any{"x", nil, ""}, []any{[]any{int32(1)}, []any{}, nil},
			codec.Map{Keys: []any{"k1", "k2"}, Values: []any{int64(1), nil}},
			[]any{int32(7), []any{1.5, nil}},
		},
		{
			nil, nil, nil, int32(0), nil, nil, nil, nil, nil, nil, nil, nil, nil, nil,
			nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil,
		},
		{
			false, int8(math.MaxInt8), int16(math.MaxInt16), int32(math.MaxInt32), int64(math.MaxInt64),
			float32(math.MaxFloat32), math.NaN(), "", "", []byte{0, 0, 0}, []byte{},
			testkit.Decimal(t, "0.01", 10, 2), max38, codec.Date(2932896),
			codec.Time(0), codec.Time(0), codec.Time(123), codec.Time(86399999),
			codec.TimestampNTZ{Millis: 253402300799000},
			codec.TimestampNTZ{Millis: 0},
			codec.TimestampNTZ{Millis: 0, NanoOfMilli: 1000},
			codec.TimestampNTZ{Millis: -1, NanoOfMilli: 999999},
			codec.TimestampLTZ{Millis: 1700000000999},
			codec.TimestampLTZ{Millis: 0, NanoOfMilli: 999999},
			[]any{}, []any{},
			codec.Map{Keys: []any{}, Values: []any{}},
			[]any{nil, nil},
		},
	}
}

// allTypeRecord is a record of allTypeRows repeated copies times, its
// buffers from mem (nil: the default allocator).
func allTypeRecord(t testing.TB, mem memory.Allocator, copies int) arrow.RecordBatch {
	t.Helper()
	rb, err := NewRowBuilder(allTypeColumns(), mem)
	if err != nil {
		t.Fatal(err)
	}
	defer rb.Release()
	rows := allTypeRows(t)
	for i := 0; i < copies; i++ {
		for _, r := range rows {
			if err := rb.Append(r); err != nil {
				t.Fatal(err)
			}
		}
	}
	return rb.NewRecord()
}

// equalValue compares codec values, treating NaN as equal to NaN and
// decimals by value.
func equalValue(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case float64:
		y, ok := b.(float64)
		return ok && (x == y || (math.IsNaN(x) && math.IsNaN(y)))
	case codec.Decimal:
		y, ok := b.(codec.Decimal)
		return ok && x.Equal(y)
	case []byte:
		y, ok := b.([]byte)
		return ok && bytes.Equal(x, y) && y != nil
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalValue(x[i], y[i]) {
				return false
			}
		}
		return true
	case codec.Map:
		y, ok := b.(codec.Map)
		return ok && equalValue(x.Keys, y.Keys) && equalValue(x.Values, y.Values)
	}
	return a == b
}

// appendRows returns a RowBuilder holding rows; the caller releases it.
func appendRows(t testing.TB, cols []schema.Column, mem memory.Allocator, rows [][]any) *RowBuilder {
	t.Helper()
	rb, err := NewRowBuilder(cols, mem)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if err := rb.Append(r); err != nil {
			rb.Release()
			t.Fatalf("append %v: %v", r, err)
		}
	}
	return rb
}

func encodeRows(t testing.TB, cols []schema.Column, c Compression, mem memory.Allocator, rows [][]any) []byte {
	t.Helper()
	rb := appendRows(t, cols, mem, rows)
	defer rb.Release()
	est := rb.EstimatedSize()
	rec := rb.NewRecord()
	defer rec.Release()
	enc, err := NewEncoder(cols, c, mem)
	if err != nil {
		t.Fatal(err)
	}
	out, err := enc.AppendMessage(nil, rec)
	if err != nil {
		t.Fatal(err)
	}
	if c.Type == schema.CompressionNone && len(out) > est {
		t.Errorf("estimate %d below actual %d", est, len(out))
	}
	if full := enc.EstimatedSize(rec); len(out) > full {
		t.Errorf("record estimate %d below actual %d", full, len(out))
	}
	return out
}

func TestRoundTripAllTypes(t *testing.T) {
	cols := allTypeColumns()
	rows := allTypeRows(t)
	for _, c := range allCompressions {
		t.Run(fmt.Sprintf("%s-%d", c.Type, c.ZstdLevel), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			msg := encodeRows(t, cols, c, mem, rows)
			dec, err := NewDecoder(cols, mem, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			defer dec.Release()
			for pass := 0; pass < 2; pass++ { // the second pass reuses the primed reader
				got, err := dec.DecodeRows(nil, msg, len(rows))
				if err != nil {
					t.Fatal(err)
				}
				sameRows(t, cols, got, rows)
			}
		})
	}
}

// sameRows checks that got holds the rows of want, value by value
// (equalValue), and names each value that differs.
func sameRows(t *testing.T, cols []schema.Column, got, want [][]any) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for r := range want {
		for i := range cols {
			if !equalValue(want[r][i], got[r][i]) {
				t.Errorf("row %d column %s: got %#v, want %#v", r, cols[i].Name, got[r][i], want[r][i])
			}
		}
	}
}

func TestDecodedValuesDoNotAliasPayload(t *testing.T) {
	cols := []schema.Column{col("s", schema.String()), col("b", schema.Bytes())}
	msg := encodeRows(t, cols, Compression{Type: schema.CompressionNone}, nil, [][]any{{"abc", []byte("xyz")}})
	dec, _ := NewDecoder(cols, nil, Limits{})
	defer dec.Release()
	rows, err := dec.DecodeRows(nil, msg, 1)
	if err != nil {
		t.Fatal(err)
	}
	clear(msg)
	if rows[0][0] != "abc" || string(rows[0][1].([]byte)) != "xyz" {
		t.Fatalf("values changed with the payload: %v", rows[0])
	}
}

func TestPrecisionTruncation(t *testing.T) {
	// Values finer than the column precision are cut the way the Java
	// writers cut them (ArrowTimeWriter, ArrowTimestampNtzWriter).
	cols := []schema.Column{
		col("t0", schema.Time(0)), col("ts0", schema.Timestamp(0)), col("ts3", schema.Timestamp(3)),
		col("ts6", schema.Timestamp(6)), col("ts0neg", schema.Timestamp(0)),
	}
	in := []any{
		codec.Time(1999), codec.TimestampNTZ{Millis: 1999, NanoOfMilli: 5},
		codec.TimestampNTZ{Millis: 7, NanoOfMilli: 999999}, codec.TimestampNTZ{Millis: 7, NanoOfMilli: 123456},
		codec.TimestampNTZ{Millis: -1500},
	}
	want := []any{
		codec.Time(1000), codec.TimestampNTZ{Millis: 1000}, codec.TimestampNTZ{Millis: 7},
		codec.TimestampNTZ{Millis: 7, NanoOfMilli: 123000}, codec.TimestampNTZ{Millis: -1000},
	}
	msg := encodeRows(t, cols, Compression{Type: schema.CompressionNone}, nil, [][]any{in})
	dec, _ := NewDecoder(cols, nil, Limits{})
	defer dec.Release()
	got, err := dec.DecodeRows(nil, msg, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got[0][i] != want[i] {
			t.Errorf("%s: got %v, want %v", cols[i].Name, got[0][i], want[i])
		}
	}
}

func TestZeroRows(t *testing.T) {
	cols := allTypeColumns()
	rb, _ := NewRowBuilder(cols, nil)
	defer rb.Release()
	if rb.EstimatedSize() != 0 {
		t.Fatal("empty builder has a size")
	}
	rec := rb.NewRecord()
	defer rec.Release()
	enc, _ := NewEncoder(cols, Compression{Type: schema.CompressionZstd, ZstdLevel: 3}, nil)
	out, err := enc.AppendMessage([]byte("x"), rec)
	if err != nil || string(out) != "x" {
		t.Fatalf("zero rows wrote %q, %v", out, err)
	}
	dec, _ := NewDecoder(cols, nil, Limits{})
	defer dec.Release()
	got, err := dec.Decode(nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	if got.NumRows() != 0 || got.NumCols() != int64(len(cols)) {
		t.Fatalf("empty record %d x %d", got.NumRows(), got.NumCols())
	}
	// A zero-record log batch is header only.
	b, err := enc.AppendLogBatch(nil, codec.ArrowBatch{SchemaID: 1, WriterID: -1, BatchSequence: -1}, rec)
	if err != nil || len(b) != codec.V0HeaderSize {
		t.Fatalf("zero-record batch of %d bytes, %v", len(b), err)
	}
}

func TestLogBatchRoundTrip(t *testing.T) {
	cols := []schema.Column{col("id", schema.BigInt().NotNull()), col("name", schema.String())}
	rb, _ := NewRowBuilder(cols, nil)
	defer rb.Release()
	_ = rb.Append([]any{int64(1), "a"})
	_ = rb.Append([]any{int64(2), nil})
	rec := rb.NewRecord()
	defer rec.Release()
	for _, c := range allCompressions {
		enc, _ := NewEncoder(cols, c, nil)
		cts := []codec.ChangeType{codec.Insert, codec.Delete}
		raw, err := enc.AppendLogBatch(nil, codec.ArrowBatch{SchemaID: 3, WriterID: 9, BatchSequence: 4, ChangeTypes: cts}, rec)
		if err != nil {
			t.Fatal(err)
		}
		lb, err := codec.ParseLogBatch(raw, codec.Line09)
		if err != nil {
			t.Fatal(err)
		}
		if err := lb.VerifyCRC(); err != nil {
			t.Fatal(err)
		}
		dec, _ := NewDecoder(cols, nil, Limits{})
		got, gotCts, err := dec.DecodeLogBatch(&lb)
		if err != nil {
			t.Fatal(err)
		}
		if got.NumRows() != 2 || len(gotCts) != 2 || gotCts[1] != codec.Delete {
			t.Fatalf("decoded %d rows, change types %v", got.NumRows(), gotCts)
		}
		got.Release()
		dec.Release()
	}
}

func TestProjection(t *testing.T) {
	cols := allTypeColumns()
	proj, pos, err := Project(cols, []int{26, 1, 8})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(pos) != "[1 8 26]" || proj[0].Name != "i8" || proj[2].Name != "m" {
		t.Fatalf("projection %v %v", pos, proj)
	}
	rows := allTypeRows(t)
	prows := make([][]any, len(rows))
	for i, r := range rows {
		prows[i] = []any{r[1], r[8], r[26]}
	}
	for _, c := range allCompressions {
		msg := encodeRows(t, proj, c, nil, prows)
		dec, _ := NewDecoder(proj, nil, Limits{})
		got, err := dec.DecodeRows(nil, msg, len(prows))
		dec.Release()
		if err != nil {
			t.Fatal(err)
		}
		if !equalValue(got[0], prows[0]) || !equalValue(got[2], prows[2]) {
			t.Fatalf("projected rows %v", got)
		}
	}
	if _, _, err := Project(cols, []int{1, 1}); err == nil {
		t.Error("duplicate position accepted")
	}
	if _, _, err := Project(cols, []int{len(cols)}); err == nil {
		t.Error("out of range position accepted")
	}
}

func TestCheckRecordNamesFirstMismatch(t *testing.T) {
	cols := []schema.Column{col("id", schema.Int().NotNull()), col("name", schema.String()), col("ts", schema.Timestamp(6))}
	enc, _ := NewEncoder(cols, Compression{Type: schema.CompressionNone}, nil)
	build := func(fields []arrow.Field) arrow.RecordBatch {
		rb := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(fields, nil))
		defer rb.Release()
		return rb.NewRecordBatch()
	}
	good := []arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true},
	}
	rec := build(good)
	if err := enc.CheckRecord(rec); err != nil {
		t.Fatal(err)
	}
	rec.Release()

	bad := append([]arrow.Field(nil), good...)
	bad[1].Type = arrow.BinaryTypes.LargeString
	bad[2].Type = arrow.PrimitiveTypes.Int64
	rec = build(bad)
	err := enc.CheckRecord(rec)
	rec.Release()
	if err == nil || !strings.Contains(err.Error(), `"name"`) {
		t.Fatalf("error %v does not name column name", err)
	}

	tz := append([]arrow.Field(nil), good...)
	tz[2].Type = &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	rec = build(tz)
	if err := enc.CheckRecord(rec); err == nil || !strings.Contains(err.Error(), `"ts"`) {
		t.Fatalf("zoned timestamp for a TIMESTAMP column: %v", err)
	}
	rec.Release()

	// NULLs in a NOT NULL column.
	rb := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(good, nil))
	rb.Field(0).AppendNull()
	rb.Field(1).AppendNull()
	rb.Field(2).AppendNull()
	rec = rb.NewRecordBatch()
	rb.Release()
	if _, err := enc.AppendMessage(nil, rec); err == nil || !strings.Contains(err.Error(), `"id"`) {
		t.Fatalf("NULL in NOT NULL column: %v", err)
	}
	rec.Release()
}

func TestRowBuilderRejectsBadValuesAtomically(t *testing.T) {
	cols := []schema.Column{col("a", schema.Int()), col("b", schema.TinyInt()), col("d", schema.Decimal(5, 2)), col("bin", schema.Binary(2))}
	rb, _ := NewRowBuilder(cols, nil)
	defer rb.Release()
	bad := [][]any{
		{int32(1), 300, nil, nil},
		{int32(1), "x", nil, nil},
		{int32(1), nil, testkit.Decimal(t, "1.5", 5, 1), nil},
		{int32(1), nil, testkit.Decimal(t, "12345.00", 7, 2), nil},
		{int32(1), nil, nil, []byte{1, 2, 3}},
		{int32(1)},
	}
	for _, r := range bad {
		if err := rb.Append(r); err == nil {
			t.Errorf("row %v accepted", r)
		}
	}
	if err := rb.Append([]any{int64(5), uint8(7), testkit.Decimal(t, "-999.99", 5, 2), []byte{9}}); err != nil {
		t.Fatal(err)
	}
	rec := rb.NewRecord()
	defer rec.Release()
	if rec.NumRows() != 1 {
		t.Fatalf("%d rows after rejected appends", rec.NumRows())
	}
	for i := 0; i < int(rec.NumCols()); i++ {
		if rec.Column(i).Len() != 1 {
			t.Fatalf("column %d has %d values", i, rec.Column(i).Len())
		}
	}
	if got := rec.Column(3).(*array.FixedSizeBinary).Value(0); !bytes.Equal(got, []byte{9, 0}) {
		t.Fatalf("BINARY(2) value %v, want zero padded", got)
	}
}

func TestDecodeRejectsMismatchedCount(t *testing.T) {
	cols := []schema.Column{col("a", schema.Int())}
	msg := encodeRows(t, cols, Compression{Type: schema.CompressionNone}, nil, [][]any{{int32(1)}, {int32(2)}})
	dec, _ := NewDecoder(cols, nil, Limits{})
	defer dec.Release()
	if _, err := dec.Decode(msg, 3); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("count mismatch: %v", err)
	}
	// A schema with another layout must be rejected, not misread.
	other, _ := NewDecoder([]schema.Column{col("a", schema.String())}, nil, Limits{})
	defer other.Release()
	if _, err := other.Decode(msg, 2); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("layout mismatch: %v", err)
	}
	// The decoder still works after errors.
	if rows, err := dec.DecodeRows(nil, msg, 2); err != nil || len(rows) != 2 {
		t.Fatalf("after errors: %v %v", rows, err)
	}
}

func TestDecompressionBombRejected(t *testing.T) {
	cols := []schema.Column{col("s", schema.String())}
	rows := make([][]any, 1000)
	for i := range rows {
		rows[i] = []any{strings.Repeat("a", 1000)}
	}
	msg := encodeRows(t, cols, Compression{Type: schema.CompressionZstd, ZstdLevel: 3}, nil, rows)
	dec, _ := NewDecoder(cols, nil, Limits{MaxDecompressedBytes: 64 << 10})
	defer dec.Release()
	if _, err := dec.Decode(msg, len(rows)); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("limit not enforced: %v", err)
	}
	dec2, _ := NewDecoder(cols, nil, Limits{})
	defer dec2.Release()
	if got, err := dec2.DecodeRows(nil, msg, len(rows)); err != nil || got[999][0] != rows[999][0] {
		t.Fatalf("default limits: %v", err)
	}
}

func TestBigDecimalValues(t *testing.T) {
	cols := []schema.Column{col("d", schema.Decimal(38, 0))}
	max := new(big.Int).Sub(new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil), big.NewInt(1))
	vals := []*big.Int{max, new(big.Int).Neg(max), big.NewInt(math.MinInt64), new(big.Int).Lsh(big.NewInt(1), 64)}
	var rows [][]any
	for _, v := range vals {
		d, err := codec.NewDecimalBig(v, 38, 0)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, []any{d})
	}
	msg := encodeRows(t, cols, Compression{Type: schema.CompressionNone}, nil, rows)
	dec, _ := NewDecoder(cols, nil, Limits{})
	defer dec.Release()
	got, err := dec.DecodeRows(nil, msg, len(rows))
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		if !equalValue(rows[i][0], got[i][0]) {
			t.Errorf("%v: got %v", rows[i][0], got[i][0])
		}
	}
}

func TestSlicedRecord(t *testing.T) {
	// User records may be slices of larger ones (e.g. split at a byte
	// budget); the writer must emit only the sliced rows.
	cols := allTypeColumns()
	rows := allTypeRows(t)
	rb, _ := NewRowBuilder(cols, nil)
	defer rb.Release()
	for i := 0; i < 4; i++ {
		for _, r := range rows {
			if err := rb.Append(r); err != nil {
				t.Fatal(err)
			}
		}
	}
	full := rb.NewRecord()
	defer full.Release()
	for _, c := range allCompressions[:3] {
		enc, _ := NewEncoder(cols, c, nil)
		dec, _ := NewDecoder(cols, nil, Limits{})
		for _, span := range [][2]int64{{1, 5}, {5, 12}, {0, 1}} {
			part := full.NewSlice(span[0], span[1])
			msg, err := enc.AppendMessage(nil, part)
			if err != nil {
				t.Fatal(err)
			}
			if est := enc.EstimatedSize(part); len(msg) > est {
				t.Errorf("estimate %d below actual %d", est, len(msg))
			}
			got, err := dec.DecodeRows(nil, msg, int(span[1]-span[0]))
			part.Release()
			if err != nil {
				t.Fatal(err)
			}
			for i, g := range got {
				want := rows[(int(span[0])+i)%len(rows)]
				if !equalValue(want, g) {
					t.Errorf("slice %v row %d: got %v, want %v", span, i, g, want)
				}
			}
		}
		dec.Release()
	}
}

// TestLZ4FramesReadableByJava checks the frame descriptor of every
// LZ4-compressed buffer against what Fluss's FlussLZ4BlockInputStream
// accepts: magic 0x184D2204, FLG version 1 with the block-independence bit
// set and the reserved and dictionary-id bits clear (FLG.validate), and BD
// with a 64 KiB..4 MiB block size and clear reserved bits (BD.validate).
// Buffers above 64 KiB make arrow-go write several blocks.
func TestLZ4FramesReadableByJava(t *testing.T) {
	cols := []schema.Column{col("s", schema.String()), col("n", schema.BigInt())}
	var rows [][]any
	for i := 0; i < 20000; i++ {
		rows = append(rows, []any{fmt.Sprintf("value-%d-%s", i%97, strings.Repeat("z", i%13)), int64(i)})
	}
	msg := encodeRows(t, cols, Compression{Type: schema.CompressionLZ4}, nil, rows)
	s, _ := Schema(cols)
	l, _ := schemaLayout(s)
	m, err := parseMessage(msg, l, Limits{}.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	if m.codec != codecLZ4 {
		t.Fatalf("codec %d", m.codec)
	}
	frames := 0
	for i, b := range m.buffers {
		if b.length == 0 || int64(le.Uint64(m.body[b.offset:])) == -1 {
			continue
		}
		f := m.body[b.offset+8 : b.offset+b.length]
		if le.Uint32(f) != 0x184D2204 {
			t.Fatalf("buffer %d: magic %x", i, le.Uint32(f))
		}
		flg, bd := f[4], f[5]
		if flg>>6 != 1 || flg&0x20 == 0 || flg&0x03 != 0 {
			t.Errorf("buffer %d: FLG %08b", i, flg)
		}
		if bd&0x8f != 0 || (bd>>4)&7 < 4 {
			t.Errorf("buffer %d: BD %08b", i, bd)
		}
		frames++
	}
	if frames == 0 {
		t.Fatal("no compressed buffer")
	}
	dec, _ := NewDecoder(cols, nil, Limits{})
	defer dec.Release()
	got, err := dec.DecodeRows(nil, msg, len(rows))
	if err != nil || got[19999][0] != rows[19999][0] {
		t.Fatalf("decode: %v", err)
	}
}

// AppendRows of a sliced record (arrays at an offset, as the column
// copiers see them) returns the rows of the slice, and the rows of one
// call are independent values even where they share backing memory.
func TestAppendRowsOfSlice(t *testing.T) {
	cols := allTypeColumns()
	rows := allTypeRows(t)
	full := allTypeRecord(t, nil, 3)
	defer full.Release()
	dec, err := NewDecoder(cols, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Release()
	for _, span := range [][2]int64{{1, 4}, {2, int64(3 * len(rows))}, {0, 0}} {
		part := full.NewSlice(span[0], span[1])
		got, err := dec.AppendRows(nil, part)
		part.Release()
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != int(span[1]-span[0]) {
			t.Fatalf("slice %v: %d rows", span, len(got))
		}
		for i, g := range got {
			if want := rows[(int(span[0])+i)%len(rows)]; !equalValue(want, g) {
				t.Errorf("slice %v row %d: got %v, want %v", span, i, g, want)
			}
		}
	}
}

// Levels up to 3 compress at klauspost's fastest speed, and on column
// buffers that loses next to nothing against its default speed (level
// 4 here), the premise of encoderLevel.
func TestZstdDefaultLevelRatio(t *testing.T) {
	for level, want := range map[int]int{1: 1, 2: 1, 3: 1, 4: 4, 9: 9, 22: 22} {
		if got := encoderLevel(level); got != want {
			t.Errorf("encoderLevel(%d) = %d, want %d", level, got, want)
		}
	}
	cols := []schema.Column{col("id", schema.BigInt()), col("name", schema.String()), col("v", schema.Double())}
	rows := make([][]any, 8192)
	for i := range rows {
		rows[i] = []any{int64(i), fmt.Sprintf("name-%d", i), float64(i) * 0.5}
	}
	fast := encodeRows(t, cols, Compression{Type: schema.CompressionZstd, ZstdLevel: 3}, nil, rows)
	dflt := encodeRows(t, cols, Compression{Type: schema.CompressionZstd, ZstdLevel: 4}, nil, rows)
	if float64(len(fast)) > 1.05*float64(len(dflt)) {
		t.Fatalf("level 3: %d bytes, level 4: %d", len(fast), len(dflt))
	}
}
