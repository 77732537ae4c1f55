package codec

import (
	"bytes"
	"math"
	"math/big"
	"testing"

	"github.com/gofluss/fluss/flussrpc/schema"
)

func TestBucketingVectors(t *testing.T) {
	// Vectors of the fluss-rust and Java bucketing tests.
	cases := []struct {
		key           []byte
		n             int
		fluss, paimon int
	}{
		{[]byte{0x00, 0x0a}, 7, 1, 1},
		{[]byte{0x00, 0x0a, 0x0a, 0x0a}, 12, 0, 11},
		{[]byte("2bb87d68-baf9-4e64-90f9-f80910419fa6"), 16, 6, 12},
		{[]byte("The quick brown fox jumps over the lazy dog"), 8, 6, 0},
	}
	for _, c := range cases {
		f, err := FlussBucketing{}.Bucket(c.key, c.n)
		if err != nil || f != c.fluss {
			t.Errorf("fluss %q: got %d %v want %d", c.key, f, err, c.fluss)
		}
		p, err := PaimonBucketing{}.Bucket(c.key, c.n)
		if err != nil || p != c.paimon {
			t.Errorf("paimon %q: got %d %v want %d", c.key, p, err, c.paimon)
		}
	}
	for _, fn := range []BucketingFunction{FlussBucketing{}, PaimonBucketing{}, IcebergBucketing{}} {
		if _, err := fn.Bucket(nil, 3); err == nil {
			t.Errorf("%T: empty key must fail", fn)
		}
		if _, err := fn.Bucket([]byte{1}, 0); err == nil {
			t.Errorf("%T: zero buckets must fail", fn)
		}
	}
}

func TestHashVectors(t *testing.T) {
	fox := []byte("The quick brown fox jumps over the lazy dog")
	if got := uint32(FlussHash(nil)); got != 0x087fcd5c {
		t.Errorf("FlussHash(empty) = %08x", got)
	}
	if got := uint32(FlussHash(fox)); got != 0x1bc6f880 {
		t.Errorf("FlussHash(fox) = %08x", got)
	}
	if got := uint32(flussHash(fox, 0)); got != 0x5fd20a20 {
		t.Errorf("flussHash(fox, 0) = %08x", got)
	}
	for in, want := range map[int32]uint32{0: 0x2362f9de, 42: 0x43a46e1d, -77: 0x2eeb27de} {
		if got := uint32(mixInt(in)); got != want {
			t.Errorf("mixInt(%d) = %08x want %08x", in, got, want)
		}
	}
	std := []struct {
		seed uint32
		in   []byte
		want uint32
	}{{0, nil, 0}, {1, nil, 0x514e28b7}, {0xffffffff, nil, 0x81f16f39}, {0, fox, 0x2e4ff723}, {0x9747b28c, fox, 0x2fa826cd}}
	for _, c := range std {
		if got := Murmur3x86(c.in, c.seed); got != c.want {
			t.Errorf("Murmur3x86(%q,%x) = %08x want %08x", c.in, c.seed, got, c.want)
		}
	}
	if got, _ := (IcebergBucketing{}).Bucket(fox, 16); got != int(0x2e4ff723&0x7fffffff%16) {
		t.Errorf("iceberg bucket %d", got)
	}
}

func TestBucketingFor(t *testing.T) {
	for lake, want := range map[string]BucketingFunction{"": FlussBucketing{}, "lance": FlussBucketing{},
		"paimon": PaimonBucketing{}, "iceberg": IcebergBucketing{}} {
		got, err := BucketingFor(lake)
		if err != nil || got != want {
			t.Errorf("%q: %T %v", lake, got, err)
		}
	}
	if _, err := BucketingFor("hudi"); err == nil {
		t.Error("hudi bucketing is not implemented and must say so")
	}
}

func TestPartitionValueStrings(t *testing.T) {
	// Expectations from Java's PartitionUtilsTest (0.9.1).
	ms, msRound := int64(1748662955428), int64(1748662955000)
	cases := []struct {
		typ  schema.DataType
		val  any
		want string
	}{
		{schema.String(), "Fluss", "Fluss"},
		{schema.Char(1), "F", "F"},
		{schema.Boolean(), true, "true"},
		{schema.Bytes(), []byte{0x10, 0x20, 0x30, 0x40, 0x50, 0xff}, "1020304050ff"},
		{schema.Binary(6), []byte{0x10, 0x20, 0x30, 0x40, 0x50, 0xff}, "1020304050ff"},
		{schema.TinyInt(), int8(100), "100"},
		{schema.SmallInt(), int16(-32760), "-32760"},
		{schema.Int(), int32(299000), "299000"},
		{schema.BigInt(), int64(1748662955428), "1748662955428"},
		{schema.Date(), Date(20235), "2025-05-27"},
		{schema.Time(0), Time(5402199), "01-30-02_199"},
		{schema.Float(), float32(5.73), "5_73"},
		{schema.Double(), 5.73, "5_73"},
		{schema.Double(), math.NaN(), "NaN"},
		{schema.Float(), float32(math.Inf(-1)), "-Inf"},
		{schema.Double(), 1e10, "1_0E10"},
		{schema.Timestamp(9), TimestampNTZ{ms, 99988}, "2025-05-31-03-42-35_428099988"},
		{schema.Timestamp(9), TimestampNTZ{ms, 0}, "2025-05-31-03-42-35_428"},
		{schema.Timestamp(9), TimestampNTZ{msRound, 99988}, "2025-05-31-03-42-35_000099988"},
		{schema.Timestamp(9), TimestampNTZ{msRound, 0}, "2025-05-31-03-42-35_"},
		{schema.Timestamp(9), TimestampNTZ{-ms, 99988}, "1914-08-03-20-17-24_572099988"},
		{schema.TimestampLTZ(9), TimestampLTZ{ms, 99988}, "2025-05-31-03-42-35_428099988"},
		{schema.TimestampLTZ(9), TimestampLTZ{-ms, 99988}, "1914-08-03-20-17-24_572099988"},
	}
	for _, c := range cases {
		got, err := PartitionValueString(c.typ, c.val)
		if err != nil || got != c.want {
			t.Errorf("%s %v: got %q %v want %q", c.typ, c.val, got, err, c.want)
		}
	}
	for _, bad := range []struct {
		typ schema.DataType
		val any
	}{{schema.Int(), nil}, {schema.ArrayOf(schema.Int()), []any{}}, {schema.TinyInt(), 1000}, {schema.Decimal(5, 0), mustDec(t, 1, 5, 0)}} {
		if _, err := PartitionValueString(bad.typ, bad.val); err == nil {
			t.Errorf("%s %v: expected an error", bad.typ, bad.val)
		}
	}
	types := []schema.DataType{schema.String(), schema.Int(), schema.Date()}
	name, err := PartitionNameOf(types, []int{0, 2}, []any{"us", int32(1), Date(19655)})
	if err != nil || name != "us$2023-10-25" {
		t.Errorf("PartitionNameOf = %q %v", name, err)
	}
	if got := PartitionDisplayName([]string{"region", "dt"}, []string{"us", "2024-01-01"}); got != "region=us/dt=2024-01-01" {
		t.Error(got)
	}
}

func TestJavaFloatString(t *testing.T) {
	cases := []struct {
		f    float64
		bits int
		want string
	}{
		{1, 64, "1.0"}, {math.Copysign(0, -1), 64, "-0.0"}, {0, 64, "0.0"}, {0.001, 64, "0.001"}, {0.0001, 64, "1.0E-4"},
		{1234567, 64, "1234567.0"}, {1e7, 64, "1.0E7"}, {5e-324, 64, "4.9E-324"}, {2, 64, "2.0"}, {3e10, 64, "3.0E10"}, {12345678.9, 64, "1.23456789E7"},
		{100, 64, "100.0"}, {0.1, 32, "0.1"}, {float64(float32(3.4028235e38)), 32, "3.4028235E38"},
		{float64(math.SmallestNonzeroFloat32), 32, "1.4E-45"}, {math.MaxFloat64, 64, "1.7976931348623157E308"},
		{-5.73, 64, "-5.73"}, {123.456, 64, "123.456"},
	}
	for _, c := range cases {
		if got := JavaFloatString(c.f, c.bits); got != c.want {
			t.Errorf("JavaFloatString(%v,%d) = %q want %q", c.f, c.bits, got, c.want)
		}
	}
}

func TestDecimal(t *testing.T) {
	cases := []struct {
		in   string
		p, s int
		str  string
		be   []byte
	}{
		{"0", 10, 0, "0", []byte{0}},
		{"-0.05", 10, 2, "-0.05", []byte{0xfb}},
		{"12.3", 10, 2, "12.30", []byte{0x04, 0xce}},
		{"128", 20, 0, "128", []byte{0x00, 0x80}},
		{"-128", 20, 0, "-128", []byte{0x80}},
		{"-129", 20, 0, "-129", []byte{0xff, 0x7f}},
		{"99999999999999999999999999999999999999", 38, 0, "99999999999999999999999999999999999999",
			[]byte{0x4b, 0x3b, 0x4c, 0xa8, 0x5a, 0x86, 0xc4, 0x7a, 0x09, 0x8a, 0x22, 0x3f, 0xff, 0xff, 0xff, 0xff}},
		{"-9223372036854775809", 20, 0, "-9223372036854775809", []byte{0xff, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
		{".5", 3, 1, "0.5", []byte{5}},
	}
	for _, c := range cases {
		d, err := ParseDecimal(c.in, c.p, c.s)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if d.String() != c.str || d.Precision() != c.p || d.Scale() != c.s {
			t.Errorf("%s: String %q p %d s %d", c.in, d.String(), d.Precision(), d.Scale())
		}
		if got := d.unscaledBytes(nil); !bytes.Equal(got, c.be) {
			t.Errorf("%s: bytes %x want %x", c.in, got, c.be)
		}
		back, err := decimalFromBytes(c.be, c.p, c.s)
		if err != nil || !back.Equal(d) {
			t.Errorf("%s: from bytes %v %v", c.in, back, err)
		}
	}
	for _, bad := range []struct {
		in   string
		p, s int
	}{{"1.234", 10, 2}, {"123", 2, 0}, {"abc", 5, 0}, {"1e5", 10, 0}, {"", 5, 0}, {"1", 0, 0}, {"1", 39, 0}, {"1", 5, 6}} {
		if _, err := ParseDecimal(bad.in, bad.p, bad.s); err == nil {
			t.Errorf("ParseDecimal(%q,%d,%d) should fail", bad.in, bad.p, bad.s)
		}
	}
	if d, _ := ParseDecimal("1.50", 5, 1); d.String() != "1.5" {
		t.Errorf("trailing zero beyond scale: %v", d)
	}
	d, _ := NewDecimalBig(new(big.Int).Lsh(big.NewInt(1), 100), 38, 0)
	if _, ok := d.UnscaledInt64(); ok || d.Unscaled().BitLen() != 101 || d.IsCompact() {
		t.Error("big decimal accessors")
	}
	if _, err := decimalFromBytes(make([]byte, 18), 38, 0); err == nil {
		t.Error("18-byte decimal must fail")
	}
}

func TestTimeHelpers(t *testing.T) {
	if Date(19655).String() != "2023-10-25" || Time(34200123).String() != "09:30:00.123" {
		t.Error("String helpers")
	}
	ts := TimestampNTZ{Millis: 1698235273182, NanoOfMilli: 456}
	if got := TimestampNTZOf(ts.Time()); got != ts {
		t.Errorf("NTZ round trip %v", got)
	}
	l := TimestampLTZ{Millis: -1, NanoOfMilli: 999999}
	if got := TimestampLTZOf(l.Time()); got != l {
		t.Errorf("LTZ round trip %v", got)
	}
	if DateOf(Date(-5).Time()) != -5 {
		t.Error("DateOf")
	}
	for ct := AppendOnly; ct <= Delete; ct++ {
		if !ct.Valid() || ct.String()[0] != "+-"[boolIdx(ct == UpdateBefore || ct == Delete)] {
			t.Errorf("change type %v", ct)
		}
	}
	if ChangeType(9).Valid() {
		t.Error("9 is not a change type")
	}
}

func boolIdx(b bool) int {
	if b {
		return 1
	}
	return 0
}

func pkTable(t *testing.T, props map[string]string, pk, partition, bucket []string) *schema.TableDescriptor {
	t.Helper()
	s, err := schema.NewSchema([]schema.Column{
		schema.NewColumn("dt", schema.String()), schema.NewColumn("id", schema.Int()),
		schema.NewColumn("name", schema.String()), schema.NewColumn("v", schema.BigInt()),
	}, pk, nil)
	if err != nil {
		t.Fatal(err)
	}
	d := &schema.TableDescriptor{Schema: s, PartitionKeys: partition, BucketKeys: bucket, Properties: props}
	if err := d.Normalize(); err != nil {
		t.Fatal(err)
	}
	return d
}

func TestKeyEncodingRules(t *testing.T) {
	cases := []struct {
		lake    string
		version int
		dflt    bool
		want    KeyEncoding
	}{
		{"", 1, true, KeyCompacted}, {"", 2, false, KeyCompacted}, {"paimon", 1, false, KeyPaimon},
		{"paimon", 2, true, KeyPaimon}, {"paimon", 2, false, KeyCompacted}, {"iceberg", 1, true, KeyIceberg},
		{"lance", 2, true, KeyCompacted}, {"hudi", 2, true, KeyCompacted},
	}
	for _, c := range cases {
		got, err := PrimaryKeyEncoding(c.lake, c.version, c.dflt)
		if err != nil || got != c.want {
			t.Errorf("%+v: got %v %v", c, got, err)
		}
	}
	if _, err := PrimaryKeyEncoding("", 3, true); err == nil {
		t.Error("version 3 must fail")
	}
	if _, err := LakeKeyEncoding("delta"); err == nil {
		t.Error("unknown lake must fail")
	}
}

func TestTableKeys(t *testing.T) {
	row := []any{"2024-01-01", int32(7), "bob", int64(1)}
	// Partitioned PK table, default bucket key: key = physical PK (id, name), bucket bytes reuse it.
	d := pkTable(t, map[string]string{schema.OptKvFormatVersion: "2"}, []string{"dt", "id", "name"}, []string{"dt"}, nil)
	tk, err := NewTableKeys(d)
	if err != nil {
		t.Fatal(err)
	}
	key, bk, err := tk.EncodeKeys(row)
	if err != nil || !bytes.Equal(key, []byte{7, 3, 'b', 'o', 'b'}) || &bk[0] != &key[0] || tk.Bucket != nil {
		t.Fatalf("key %x bucket %x %v", key, bk, err)
	}
	// Custom bucket key on a paimon table with version 2: key Compacted, bucket Paimon.
	d = pkTable(t, map[string]string{schema.OptKvFormatVersion: "2", schema.OptDataLakeFormat: "paimon"},
		[]string{"id", "name"}, nil, []string{"id"})
	tk, err = NewTableKeys(d)
	if err != nil {
		t.Fatal(err)
	}
	key, bk, err = tk.EncodeKeys(row)
	wantBucket := []byte{0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0}
	if err != nil || !bytes.Equal(key, []byte{7, 3, 'b', 'o', 'b'}) || !bytes.Equal(bk, wantBucket) {
		t.Fatalf("key %x bucket %x %v", key, bk, err)
	}
	if _, ok := tk.Bucketing.(PaimonBucketing); !ok {
		t.Fatalf("bucketing %T", tk.Bucketing)
	}
	// Log table with a bucket key, no lake.
	s, _ := schema.NewSchema([]schema.Column{schema.NewColumn("a", schema.Int()), schema.NewColumn("b", schema.String())}, nil, nil)
	tk, err = NewTableKeys(&schema.TableDescriptor{Schema: s, BucketKeys: []string{"b"}})
	if err != nil {
		t.Fatal(err)
	}
	key, bk, err = tk.EncodeKeys([]any{int32(1), "x"})
	if err != nil || key != nil || !bytes.Equal(bk, []byte{1, 'x'}) {
		t.Fatalf("log key %x bucket %x %v", key, bk, err)
	}
	// Iceberg: single INT key widened to 8 bytes; bucketing by standard murmur3.
	d = pkTable(t, map[string]string{schema.OptDataLakeFormat: "iceberg"}, []string{"id"}, nil, nil)
	tk, err = NewTableKeys(d)
	if err != nil {
		t.Fatal(err)
	}
	key, _, err = tk.EncodeKeys(row)
	if err != nil || !bytes.Equal(key, []byte{7, 0, 0, 0, 0, 0, 0, 0}) {
		t.Fatalf("iceberg key %x %v", key, err)
	}
	d = pkTable(t, map[string]string{schema.OptDataLakeFormat: "iceberg"}, []string{"id", "name"}, nil, nil)
	if _, err := NewTableKeys(d); err == nil {
		t.Fatal("iceberg with two key columns must fail")
	}
	if _, err := PrimaryKeyEncoding("delta", 1, true); err == nil {
		t.Fatal("unknown lake")
	}
}

func TestPaimonKeyEncoder(t *testing.T) {
	types := []schema.DataType{schema.String(), schema.Int(), schema.String(), schema.Decimal(20, 2),
		schema.Timestamp(6), schema.Boolean()}
	enc, err := NewPaimonKeyEncoder(types, []int{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	got, err := enc.AppendKey(nil, []any{"ignored", int32(7), "hi", nil, nil, nil})
	want := append(make([]byte, 8), 7, 0, 0, 0, 0, 0, 0, 0, 'h', 'i', 0, 0, 0, 0, 0, 0x82)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("got %x %v\nwant %x", got, err, want)
	}
	enc, _ = NewPaimonKeyEncoder(types, []int{2, 3, 4, 5})
	got, err = enc.AppendKey(nil, []any{nil, nil, "longer than 7", mustDecBig(t, -1, 20, 2),
		TimestampNTZ{Millis: 9, NanoOfMilli: 5}, nil})
	if err != nil {
		t.Fatal(err)
	}
	want = []byte{0, 0x08, 0, 0, 0, 0, 0, 0, // header: null bit of key field 3 at bit 11
		13, 0, 0, 0, 40, 0, 0, 0, // string: len 13 at offset 40
		1, 0, 0, 0, 56, 0, 0, 0, // decimal: 1 byte at 56
		5, 0, 0, 0, 72, 0, 0, 0, // timestamp: nano 5, millis at 72
		0, 0, 0, 0, 0, 0, 0, 0, // NULL boolean
		'l', 'o', 'n', 'g', 'e', 'r', ' ', 't', 'h', 'a', 'n', ' ', '7', 0, 0, 0,
		0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		9, 0, 0, 0, 0, 0, 0, 0}
	if !bytes.Equal(got, want) {
		t.Fatalf("got  %x\nwant %x", got, want)
	}
	if _, err := NewPaimonKeyEncoder([]schema.DataType{schema.ArrayOf(schema.Int())}, []int{0}); err == nil {
		t.Error("ARRAY in a Paimon key must fail")
	}
}

func TestIcebergKeyEncoder(t *testing.T) {
	types := []schema.DataType{schema.Date(), schema.Time(3), schema.Timestamp(6), schema.Decimal(10, 2),
		schema.String(), schema.Bytes(), schema.Double(), schema.Boolean(), schema.TimestampLTZ(3)}
	cases := []struct {
		col  int
		val  any
		want []byte
	}{
		{0, Date(-1), []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
		{1, Time(2), []byte{0xd0, 0x07, 0, 0, 0, 0, 0, 0}},
		{2, TimestampNTZ{Millis: 1, NanoOfMilli: 2500}, []byte{0xea, 0x03, 0, 0, 0, 0, 0, 0}},
		{3, mustDec(t, 300, 10, 2), []byte{0x01, 0x2c}},
		{4, "héllo", []byte("héllo")},
		{5, []byte{0, 1}, []byte{0, 1}},
		{6, 1.0, []byte{0, 0, 0, 0, 0, 0, 0xf0, 0x3f}},
	}
	for _, c := range cases {
		enc, err := NewIcebergKeyEncoder(types, []int{c.col})
		if err != nil {
			t.Fatal(err)
		}
		row := make([]any, len(types))
		row[c.col] = c.val
		got, err := enc.AppendKey(nil, row)
		if err != nil || !bytes.Equal(got, c.want) {
			t.Errorf("%s: got %x %v want %x", types[c.col], got, err, c.want)
		}
		if _, err := enc.AppendKey(nil, make([]any, len(types))); err == nil {
			t.Errorf("%s: NULL must fail", types[c.col])
		}
	}
	for _, col := range []int{7, 8} {
		if _, err := NewIcebergKeyEncoder(types, []int{col}); err == nil {
			t.Errorf("%s must be rejected", types[col])
		}
	}
}

func TestPrefixLookupKeys(t *testing.T) {
	d := pkTable(t, map[string]string{schema.OptKvFormatVersion: "2"}, []string{"dt", "id", "name"}, []string{"dt"}, []string{"id"})
	tk, err := NewPrefixLookupKeys(d)
	if err != nil {
		t.Fatal(err)
	}
	key, bk, err := tk.EncodeKeys([]any{"2024", int32(9), nil, nil})
	if err != nil || !bytes.Equal(key, []byte{9}) || !bytes.Equal(bk, key) || tk.Bucket != nil {
		t.Fatalf("%x %x %v", key, bk, err)
	}
	d = pkTable(t, map[string]string{schema.OptKvFormatVersion: "2", schema.OptDataLakeFormat: "paimon"},
		[]string{"id", "name"}, nil, []string{"id"})
	tk, err = NewPrefixLookupKeys(d)
	if err != nil {
		t.Fatal(err)
	}
	key, bk, err = tk.EncodeKeys([]any{nil, int32(9), nil, nil})
	if err != nil || !bytes.Equal(key, []byte{9}) || len(bk) != 16 || bk[8] != 9 {
		t.Fatalf("%x %x %v", key, bk, err)
	}
	s, _ := schema.NewSchema([]schema.Column{schema.NewColumn("a", schema.Int())}, nil, nil)
	if _, err := NewPrefixLookupKeys(&schema.TableDescriptor{Schema: s}); err == nil {
		t.Fatal("log table must fail")
	}
}

// TestAppendKeys: AppendKeys after a prefix gives EncodeKeys' bytes and
// leaves the prefix alone, for every key encoding and for a bucket key
// encoded apart from the primary key.
func TestAppendKeys(t *testing.T) {
	row := []any{"2024-01-01", int32(7), "bob", int64(1)}
	logSchema, _ := schema.NewSchema([]schema.Column{schema.NewColumn("dt", schema.String()), schema.NewColumn("id", schema.Int()),
		schema.NewColumn("name", schema.String()), schema.NewColumn("v", schema.BigInt())}, nil, nil)
	tables := map[string]*schema.TableDescriptor{
		"compacted, default bucket key": pkTable(t, map[string]string{schema.OptKvFormatVersion: "2"}, []string{"dt", "id", "name"}, []string{"dt"}, nil),
		"paimon bucket key apart": pkTable(t, map[string]string{schema.OptKvFormatVersion: "2", schema.OptDataLakeFormat: "paimon"},
			[]string{"id", "name"}, nil, []string{"id"}),
		"iceberg":               pkTable(t, map[string]string{schema.OptDataLakeFormat: "iceberg"}, []string{"id"}, nil, nil),
		"log table, bucket key": {Schema: logSchema, BucketKeys: []string{"name"}},
	}
	for name, d := range tables {
		t.Run(name, func(t *testing.T) {
			tk, err := NewTableKeys(d)
			if err != nil {
				t.Fatal(err)
			}
			wantKey, wantBucket, err := tk.EncodeKeys(row)
			if err != nil {
				t.Fatal(err)
			}
			// Room to spare, so that both keys are appended in place.
			dst := append(make([]byte, 0, 64), "prefix"...)
			key, bk, err := tk.AppendKeys(dst, row)
			if err != nil || !bytes.Equal(key, wantKey) || !bytes.Equal(bk, wantBucket) {
				t.Fatalf("AppendKeys = %x, %x, %v; want %x, %x", key, bk, err, wantKey, wantBucket)
			}
			if string(dst[:6]) != "prefix" {
				t.Fatalf("prefix overwritten: %q", dst[:6])
			}
		})
	}
}
