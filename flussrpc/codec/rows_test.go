package codec

import (
	"bytes"
	"encoding/hex"
	"errors"
	"math"
	"math/big"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/gofluss/fluss/flussrpc/schema"
)

// readHex loads a testdata file of hex bytes with '#' comments.
func readHex(t testing.TB, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	for _, line := range strings.Split(string(raw), "\n") {
		line, _, _ = strings.Cut(line, "#")
		sb.WriteString(strings.Join(strings.Fields(line), ""))
	}
	b, err := hex.DecodeString(sb.String())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustDec(t testing.TB, unscaled int64, p, s int) Decimal {
	t.Helper()
	d, err := NewDecimal(unscaled, p, s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func allKeyTypesRow(t testing.TB) ([]schema.DataType, []any) {
	types := []schema.DataType{
		schema.Boolean(), schema.TinyInt(), schema.SmallInt(), schema.Int(), schema.BigInt(),
		schema.Float(), schema.Double(), schema.Date(), schema.Time(0), schema.Binary(20),
		schema.Bytes(), schema.Char(2), schema.String(), schema.Decimal(5, 2), schema.Decimal(20, 0),
		schema.Timestamp(1).NotNull(), schema.Timestamp(5).NotNull(),
		schema.TimestampLTZ(1).NotNull(), schema.TimestampLTZ(5).NotNull(),
		schema.ArrayOf(schema.Int()), schema.ArrayOf(schema.Float().NotNull()),
		schema.ArrayOf(schema.ArrayOf(schema.String())),
	}
	ts := int64(1698235273182)
	row := []any{
		true, int8(2), int16(10), int32(100), int64(-6101065172474983726),
		float32(13.2), 15.21, Date(19655), Time(34200000), []byte("1234567890"),
		[]byte("20"), "1", "hello", mustDec(t, 9, 5, 2), mustDec(t, 10, 20, 0),
		TimestampNTZ{Millis: ts}, TimestampNTZ{Millis: ts}, TimestampLTZ{Millis: ts}, TimestampLTZ{Millis: ts},
		[]any{int32(1), int32(2), int32(3), int32(4), int32(5), int32(-11), nil, int32(444), int32(102234)},
		[]any{float32(0.1), float32(1.1), float32(-0.5), float32(6.6), float32(math.MaxFloat32), math.Float32frombits(1)},
		[]any{[]any{"a", nil, "c"}, nil, []any{"hello", "world"}},
	}
	return types, row
}

func TestCompactedKeyJavaGolden(t *testing.T) {
	want := readHex(t, "compacted_key_all_types.hex")
	types, row := allKeyTypesRow(t)
	idx := make([]int, len(types))
	for i := range idx {
		idx[i] = i
	}
	enc, err := NewCompactedKeyEncoder(types, idx)
	if err != nil {
		t.Fatal(err)
	}
	got, err := enc.AppendKey(nil, row)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("key bytes differ\n got %x\nwant %x", got, want)
	}
	back, err := DecodeCompactedKey(types, got)
	if err != nil {
		t.Fatal(err)
	}
	assertRowsEqual(t, back, row)

	// A CompactedRow is the same bytes behind a null bitset (22 columns: 3 bytes).
	renc, _ := NewCompactedEncoder(types)
	rb, err := renc.Encode(row)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(rb[:3], []byte{0, 0, 0}) || !bytes.Equal(rb[3:], want) {
		t.Fatalf("compacted row differs from key bytes behind the bitset: %x", rb)
	}
}

func TestCompactedKeyRustVectors(t *testing.T) {
	types := []schema.DataType{schema.String(), schema.Int(), schema.String(), schema.String()}
	enc, err := NewCompactedKeyEncoder(types, []int{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	got, err := enc.AppendKey(nil, []any{"a1", int32(1), "a2", "a3"})
	if err != nil || !bytes.Equal(got, []byte{1, 2, 'a', '2'}) {
		t.Fatalf("%x %v", got, err)
	}
	if _, err := enc.AppendKey(nil, []any{"a1", nil, "a2", "a3"}); err == nil {
		t.Fatal("NULL key must fail")
	}
	if _, err := NewCompactedKeyEncoder(types, []int{7}); err == nil {
		t.Fatal("bad index must fail")
	}
}

// assertRowsEqual compares decoded rows, treating Decimal by value.
func assertRowsEqual(t testing.TB, got, want []any) {
	t.Helper()
	if !valuesEqual(got, want) {
		t.Fatalf("rows differ\n got %#v\nwant %#v", got, want)
	}
}

func valuesEqual(a, b any) bool {
	switch x := a.(type) {
	case Decimal:
		y, ok := b.(Decimal)
		return ok && x.Equal(y)
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !valuesEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case Map:
		y, ok := b.(Map)
		return ok && valuesEqual(x.Keys, y.Keys) && valuesEqual(x.Values, y.Values)
	case float32:
		y, ok := b.(float32)
		return ok && math.Float32bits(x) == math.Float32bits(y)
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	}
	return reflect.DeepEqual(a, b)
}

func bigDec(t testing.TB, s string, p, sc int) Decimal {
	t.Helper()
	d, err := ParseDecimal(s, p, sc)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// fullRow covers every type, including nulls and nested values whose
// elements exercise all array slot kinds.
func fullRow(t testing.TB) ([]schema.DataType, []any) {
	inner := schema.RowOf(schema.NewField("x", schema.Int()), schema.NewField("s", schema.String()))
	types := []schema.DataType{
		schema.Boolean(), schema.TinyInt(), schema.SmallInt(), schema.Int(), schema.BigInt(),
		schema.Float(), schema.Double(), schema.Char(4), schema.String(), schema.Binary(3), schema.Bytes(),
		schema.Decimal(10, 2), schema.Decimal(30, 5), schema.Date(), schema.Time(3),
		schema.Timestamp(3), schema.Timestamp(9), schema.TimestampLTZ(3), schema.TimestampLTZ(6),
		schema.ArrayOf(schema.BigInt()), schema.MapOf(schema.String().NotNull(), schema.Decimal(25, 3)),
		inner, schema.ArrayOf(inner), schema.String(),
		schema.ArrayOf(schema.Timestamp(6)), schema.ArrayOf(schema.Boolean()), schema.ArrayOf(schema.SmallInt()),
		schema.ArrayOf(schema.Bytes()), schema.MapOf(schema.Int(), schema.ArrayOf(schema.Double())),
	}
	row := []any{
		true, int8(-7), int16(-300), int32(-1), int64(math.MinInt64),
		float32(-2.5), math.Inf(1), "ab", "héllo wörld, longer than seven", []byte{1, 2}, []byte{},
		mustDec(t, -12345, 10, 2), bigDec(t, "-1234567890123456789012.34567", 30, 5), Date(-1), Time(86399999),
		TimestampNTZ{Millis: -1}, TimestampNTZ{Millis: 1698235273182, NanoOfMilli: 999999},
		TimestampLTZ{Millis: 0}, TimestampLTZ{Millis: 42, NanoOfMilli: 1000},
		[]any{int64(1), nil, int64(-3)},
		Map{Keys: []any{"k1", "a-much-longer-key"}, Values: []any{bigDec(t, "12345678901234567890.123", 25, 3), nil}},
		[]any{int32(5), "five"}, []any{[]any{int32(1), nil}, nil, []any{nil, "x"}}, nil,
		[]any{TimestampNTZ{Millis: 5, NanoOfMilli: 7}, nil}, []any{true, false, nil}, []any{int16(-1), int16(2)},
		[]any{[]byte("12345678"), []byte{}, nil}, Map{Keys: []any{int32(1)}, Values: []any{[]any{1.5, nil}}},
	}
	return types, row
}

func TestRowRoundTrip(t *testing.T) {
	types, row := fullRow(t)
	for _, f := range []RowFormat{FormatCompacted, FormatIndexed} {
		t.Run(f.String(), func(t *testing.T) {
			enc, err := NewRowEncoder(f, types)
			if err != nil {
				t.Fatal(err)
			}
			b, err := enc.Encode(row)
			if err != nil {
				t.Fatal(err)
			}
			dec, _ := NewRowDecoder(f, types)
			got, err := dec.Decode(b)
			if err != nil {
				t.Fatal(err)
			}
			want := append([]any(nil), row...)
			if f == FormatIndexed {
				want[9] = []byte{1, 2, 0} // IndexedRow stores BINARY(3) as 3 bytes, zero padded
			}
			assertRowsEqual(t, got, want)
			// Every strict prefix must fail cleanly.
			for n := 0; n < len(b); n++ {
				if _, err := dec.Decode(b[:n]); err == nil {
					t.Fatalf("prefix %d of %d decoded without error", n, len(b))
				}
			}
		})
	}
}

func TestCompactedRowBytes(t *testing.T) {
	types := []schema.DataType{schema.Int(), schema.String(), schema.BigInt(), schema.SmallInt(),
		schema.Decimal(20, 2), schema.Timestamp(6)}
	enc, _ := NewCompactedEncoder(types)
	got, err := enc.Encode([]any{int32(-1), "ab", nil, int16(-2), mustDecBig(t, -129, 20, 2),
		TimestampNTZ{Millis: 1, NanoOfMilli: 128}})
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{
		0x04,                         // null bitset: column 2
		0xff, 0xff, 0xff, 0xff, 0x0f, // INT -1: 5-byte varint, no zig-zag
		0x02, 'a', 'b', // STRING
		0xfe, 0xff, // SMALLINT -2 fixed LE
		0x02, 0xff, 0x7f, // DECIMAL(20,2) -129: BE two's complement ff 7f
		0x01, 0x80, 0x01, // TIMESTAMP(6): millis 1, nano 128
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("got %x want %x", got, want)
	}
}

func mustDecBig(t testing.TB, v int64, p, s int) Decimal {
	t.Helper()
	d, err := NewDecimalBig(big.NewInt(v), p, s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestIndexedRowBytes(t *testing.T) {
	types := []schema.DataType{schema.Int(), schema.String(), schema.Char(3), schema.Bytes(),
		schema.Timestamp(6), schema.Decimal(5, 1)}
	enc, _ := NewIndexedEncoder(types)
	got, err := enc.Encode([]any{int32(7), nil, "a", []byte{9, 8}, TimestampNTZ{Millis: 2, NanoOfMilli: 3},
		mustDec(t, -1, 5, 1)})
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{
		0x02,       // null bitset: column 1
		2, 0, 0, 0, // length of BYTES (first non-null variable column)
		0, 0, 0, 0, // unused slot (STRING is NULL)
		7, 0, 0, 0, // INT
		'a', 0, 0, // CHAR(3) zero padded
		9, 8, // BYTES
		2, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, // TIMESTAMP(6): millis + nano
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, // DECIMAL(5,1) compact int64
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("got %x\nwant %x", got, want)
	}
}

func TestEncodeErrors(t *testing.T) {
	cases := []struct {
		typ schema.DataType
		val any
	}{
		{schema.Int(), "1"}, {schema.TinyInt(), 300}, {schema.SmallInt(), int64(1 << 20)},
		{schema.Int(), int64(1 << 40)}, {schema.BigInt(), uint64(math.MaxUint64)}, {schema.Float(), 1.0},
		{schema.Double(), "x"}, {schema.String(), []byte("x")}, {schema.Bytes(), "x"},
		{schema.Decimal(5, 2), mustDec(t, 1, 5, 1)}, {schema.Decimal(3, 0), mustDec(t, 12345, 10, 0)},
		{schema.Decimal(5, 2), 1.5}, {schema.Date(), 3}, {schema.Time(0), Time(-1)},
		{schema.Timestamp(3), TimestampLTZ{}}, {schema.TimestampLTZ(3), TimestampNTZ{}},
		{schema.Timestamp(3), TimestampNTZ{NanoOfMilli: 1000000}}, {schema.ArrayOf(schema.Int()), []int32{1}},
		{schema.ArrayOf(schema.Int()), []any{"x"}}, {schema.MapOf(schema.Int(), schema.Int()), Map{Keys: []any{int32(1)}}},
		{schema.RowOf(schema.NewField("a", schema.Int())), []any{}}, {schema.Boolean(), 1},
		{schema.Int().NotNull(), nil},
	}
	for _, f := range []RowFormat{FormatCompacted, FormatIndexed} {
		for _, c := range cases {
			enc, err := NewRowEncoder(f, []schema.DataType{c.typ})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := enc.Encode([]any{c.val}); err == nil {
				t.Errorf("%v: %s %#v: expected an error", f, c.typ, c.val)
			}
		}
	}
	enc, _ := NewIndexedEncoder([]schema.DataType{schema.Char(2)})
	if _, err := enc.Encode([]any{"abc"}); err == nil {
		t.Error("CHAR(2) with 3 bytes must fail in IndexedRow")
	}
	if _, err := enc.Encode([]any{"a", "b"}); err == nil {
		t.Error("arity mismatch must fail")
	}
	var te *TypeError
	_, err := enc.Encode([]any{1})
	if !errors.As(err, &te) {
		t.Errorf("want a *TypeError, got %v", err)
	}
	if _, err := NewRowEncoder(FormatCompacted, []schema.DataType{schema.Decimal(50, 0)}); err == nil {
		t.Error("invalid type must be rejected")
	}
}

func TestDecodeErrorsWrapCorrupt(t *testing.T) {
	dec, _ := NewCompactedDecoder([]schema.DataType{schema.String(), schema.ArrayOf(schema.Int())})
	for _, b := range [][]byte{
		{}, {0x00, 0xff, 0xff, 0xff, 0xff, 0x7f}, {0x00, 0x01, 'a', 0x04, 0xff, 0xff, 0xff, 0x7f},
		{0x00, 0x01, 'a', 0x08, 1, 0, 0, 0, 0, 0, 0, 0}, {0x03, 0x00},
	} {
		_, err := dec.Decode(b)
		if !errors.Is(err, ErrCorrupt) {
			t.Errorf("%x: want ErrCorrupt, got %v", b, err)
		}
	}
	if _, err := dec.DecodeInto(make([]any, 1), []byte{3}); err == nil {
		t.Error("DecodeInto with wrong length must fail")
	}
}

func TestEncoderReuseAndLenientInts(t *testing.T) {
	enc, _ := NewCompactedEncoder([]schema.DataType{schema.Int(), schema.BigInt(), schema.TinyInt()})
	a, _ := enc.Encode([]any{7, uint8(3), int64(-1)})
	first := append([]byte(nil), a...)
	b, _ := enc.Encode([]any{int32(7), int64(3), int8(-1)})
	if !bytes.Equal(first, b) {
		t.Fatalf("%x vs %x", first, b)
	}
	if f := ParseRowFormatMust(t, "INDEXED"); f != FormatIndexed {
		t.Fatal(f)
	}
	if _, ok := ParseRowFormat("ARROW"); ok {
		t.Fatal("ARROW is not a row format")
	}
}

func ParseRowFormatMust(t *testing.T, s string) RowFormat {
	f, ok := ParseRowFormat(s)
	if !ok {
		t.Fatalf("ParseRowFormat(%q)", s)
	}
	return f
}

func TestFloatNaNCanonicalInArrays(t *testing.T) {
	types := []schema.DataType{schema.ArrayOf(schema.Float()), schema.Float()}
	weird := math.Float32frombits(0x7f800001)
	enc, _ := NewCompactedEncoder(types)
	b, err := enc.Encode([]any{[]any{weird}, weird})
	if err != nil {
		t.Fatal(err)
	}
	// Array slot: canonical NaN 0x7fc00000; plain row field keeps raw bits.
	if !bytes.Contains(b, []byte{0x00, 0x00, 0xc0, 0x7f}) || !bytes.HasSuffix(b, []byte{0x01, 0x00, 0x80, 0x7f}) {
		t.Fatalf("%x", b)
	}
}

func TestArrayOverlapRejected(t *testing.T) {
	// Two STRING slots pointing at the same 8-byte variable entry.
	arr := []byte{2, 0, 0, 0, 0, 0, 0, 0,
		8, 0, 0, 0, 24, 0, 0, 0, 8, 0, 0, 0, 24, 0, 0, 0,
		'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'}
	if _, err := decodeBinaryArray(FormatCompacted, schema.String(), arr); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("overlapping entries: %v", err)
	}
	arr[20] = 32 // second entry moves behind the first: still outside the bytes
	if _, err := decodeBinaryArray(FormatCompacted, schema.String(), arr); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("out of range entry: %v", err)
	}
	arr = append(arr, 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p')
	got, err := decodeBinaryArray(FormatCompacted, schema.String(), arr)
	if err != nil || got[0] != "abcdefgh" || got[1] != "ijklmnop" {
		t.Fatalf("%v %v", got, err)
	}
}

// TestNestedRowJavaBytes checks rows with ARRAY and ROW columns against
// bytes produced by the Fluss 0.9.1 Java writers (fixture published with
// pletorco/fluss-go).
func TestNestedRowJavaBytes(t *testing.T) {
	types := []schema.DataType{schema.Int(), schema.String(), schema.ArrayOf(schema.Int()),
		schema.RowOf(schema.NewField("number", schema.Int()), schema.NewField("label", schema.String()))}
	row := []any{int32(42), "fluss", []any{int32(1), nil, int32(-2)}, []any{int32(7), "go"}}
	cases := map[RowFormat]string{
		FormatCompacted: "002a05666c7573731803000000020000000100000000000000feffffff0000000005000702676f",
		FormatIndexed: "0005000000180000000b0000002a000000666c75737303000000020000000100000000000000" +
			"feffffff00000000000200000007000000676f",
	}
	for f, h := range cases {
		want, _ := hex.DecodeString(h)
		enc, _ := NewRowEncoder(f, types)
		got, err := enc.Encode(row)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%v: got %x %v\nwant %x", f, got, err, want)
		}
		dec, _ := NewRowDecoder(f, types)
		back, err := dec.Decode(want)
		if err != nil {
			t.Fatal(err)
		}
		assertRowsEqual(t, back, row)
	}
}
