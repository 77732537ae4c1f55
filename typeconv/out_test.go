package typeconv

import (
	"database/sql/driver"
	"encoding/json"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/testkit"
)

func TestFromValueScalars(t *testing.T) {
	ny := time.FixedZone("EST", -5*3600)
	ts := time.Date(2024, 3, 1, 2, 30, 15, 123456789, time.UTC)
	tests := []struct {
		typ  schema.DataType
		in   any
		opts OutOptions
		want driver.Value
	}{
		{typ: schema.Boolean(), in: true, want: true},
		{typ: schema.TinyInt(), in: int8(-3), want: int64(-3)},
		{typ: schema.SmallInt(), in: int16(300), want: int64(300)},
		{typ: schema.Int(), in: int32(7), want: int64(7)},
		{typ: schema.BigInt(), in: int64(math.MaxInt64), want: int64(math.MaxInt64)},
		{typ: schema.Float(), in: float32(1.5), want: 1.5},
		{typ: schema.Float(), in: float32(0.1), want: float64(float32(0.1))},
		{typ: schema.Double(), in: 0.1, want: 0.1},
		{typ: schema.String(), in: "s", want: "s"},
		{typ: schema.Char(3), in: "abc", want: "abc"},
		{typ: schema.Bytes(), in: []byte{1}, want: []byte{1}},
		{typ: schema.Bytes(), in: []byte{}, want: []byte{}},
		{typ: schema.Binary(2), in: []byte(nil), want: []byte{}},
		{typ: schema.Decimal(5, 2), in: testkit.Decimal(t, "-0.05", 5, 2), want: "-0.05"},
		{typ: schema.Decimal(38, 0), in: testkit.Decimal(t, "12345678901234567890123456789", 38, 0), want: "12345678901234567890123456789"},
		{typ: schema.Date(), in: codec.Date(19782), want: time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)},
		{typ: schema.Date(), in: codec.Date(19782), opts: OutOptions{Location: ny}, want: time.Date(2024, 2, 29, 0, 0, 0, 0, ny)},
		{typ: schema.Date(), in: codec.Date(-1), want: time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC)},
		{typ: schema.Time(3), in: codec.Time(3723004), want: time.Date(0, 1, 1, 1, 2, 3, 4e6, time.UTC)},
		{typ: schema.Time(3), in: codec.Time(3723004), opts: OutOptions{Location: ny}, want: time.Date(0, 1, 1, 1, 2, 3, 4e6, time.UTC)},
		{typ: schema.Timestamp(9), in: codec.TimestampNTZOf(ts), opts: OutOptions{Location: ny}, want: ts},
		{typ: schema.TimestampLTZ(9), in: codec.TimestampLTZOf(ts), want: ts},
		{typ: schema.TimestampLTZ(9), in: codec.TimestampLTZOf(ts), opts: OutOptions{Location: ny}, want: ts.In(ny)},
		{typ: schema.Int(), in: nil, want: nil},
		{typ: schema.ArrayOf(schema.Int()), in: nil, want: nil},
	}
	for _, tt := range tests {
		got, err := FromValue(tt.typ, tt.in, tt.opts)
		if err != nil {
			t.Errorf("FromValue(%s, %#v): %v", tt.typ, tt.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("FromValue(%s, %#v) = %#v, want %#v", tt.typ, tt.in, got, tt.want)
		}
		// A type that passes through gets its codec value back as it is.
		if PassesThrough(tt.typ) && tt.in != nil && (reflect.TypeOf(got) != reflect.TypeOf(tt.in) || !reflect.DeepEqual(got, tt.in)) {
			t.Errorf("%s passes through, but FromValue(%#v) = %#v", tt.typ, tt.in, got)
		}
		if tm, isTime := got.(time.Time); isTime {
			want := tt.want.(time.Time)
			if tm.Location().String() != want.Location().String() {
				t.Errorf("FromValue(%s) location %s, want %s", tt.typ, tm.Location(), want.Location())
			}
		}
		// ScanType agrees with the value.
		if got != nil {
			st := Column(tt.typ.NotNull()).ScanType()
			if reflect.TypeOf(got) != st {
				t.Errorf("%s: FromValue type %T, NOT NULL ScanType %s", tt.typ, got, st)
			}
		}
	}
}

func TestFromValueCopiesBytes(t *testing.T) {
	src := []byte("abc")
	got, _ := FromValue(schema.Bytes(), src, OutOptions{})
	src[0] = 'z'
	if string(got.([]byte)) != "abc" {
		t.Errorf("FromValue aliases its input: %q", got)
	}
}

func TestFromValueWrongType(t *testing.T) {
	for _, tt := range []struct {
		typ schema.DataType
		in  any
	}{
		{schema.Int(), "1"},
		{schema.String(), 1},
		{schema.Decimal(5, 2), 1.5},
		{schema.Date(), time.Now()},
		{schema.Timestamp(3), codec.TimestampLTZ{}},
		{schema.ArrayOf(schema.Int()), []int{1}},
		{schema.ArrayOf(schema.Int()), []any{"x"}},
		{schema.MapOf(schema.String(), schema.Int()), codec.Map{Keys: []any{1}, Values: []any{int32(1)}}},
		{schema.MapOf(schema.String(), schema.Int()), codec.Map{Keys: []any{"a"}, Values: []any{}}},
		{schema.RowOf(schema.NewField("a", schema.Int())), []any{}},
	} {
		for _, native := range []bool{false, true} {
			got, err := FromValue(tt.typ, tt.in, OutOptions{Native: native})
			if err == nil {
				t.Errorf("FromValue(%s, %#v, native=%v) = %#v, want an error", tt.typ, tt.in, native, got)
			}
		}
	}
}

func TestFromValueJSON(t *testing.T) {
	ny := time.FixedZone("", -5*3600)
	ts := time.Date(2024, 3, 1, 2, 30, 15, 120000000, time.UTC)
	nestedRow := schema.RowOf(
		schema.NewField("id", schema.BigInt()),
		schema.NewField("tags", schema.ArrayOf(schema.String())),
		schema.NewField("a b", schema.MapOf(schema.Int(), schema.Bytes())),
	)
	tests := []struct {
		typ  schema.DataType
		in   any
		opts OutOptions
		want string
	}{
		{schema.ArrayOf(schema.Int()), []any{int32(1), nil, int32(-3)}, OutOptions{}, `[1,null,-3]`},
		{schema.ArrayOf(schema.String()), []any{"a\"b", "<&>", "\n\x01", "\u2028", "é"}, OutOptions{}, `["a\"b","<&>","\n\u0001","\u2028","é"]`},
		{schema.ArrayOf(schema.String()), []any{"\xff"}, OutOptions{}, `["\ufffd"]`},
		{schema.ArrayOf(schema.Double()), []any{0.1, 1e21, 1e-7, math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 123456789.0}, OutOptions{},
			`[0.1,1e+21,1e-7,"NaN","Infinity","-Infinity",-0,123456789]`},
		{schema.ArrayOf(schema.Float()), []any{float32(0.1), float32(3e38)}, OutOptions{}, `[0.1,3e+38]`},
		{schema.ArrayOf(schema.Boolean()), []any{true, false}, OutOptions{}, `[true,false]`},
		{schema.ArrayOf(schema.Decimal(5, 2)), []any{testkit.Decimal(t, "-0.50", 5, 2)}, OutOptions{}, `[-0.50]`},
		{schema.ArrayOf(schema.Bytes()), []any{[]byte{1, 2}, []byte{}}, OutOptions{}, `["AQI=",""]`},
		{schema.ArrayOf(schema.Date()), []any{codec.Date(0)}, OutOptions{}, `["1970-01-01"]`},
		{schema.ArrayOf(schema.Time(0)), []any{codec.Time(3723004)}, OutOptions{}, `["01:02:03"]`},
		{schema.ArrayOf(schema.Time(3)), []any{codec.Time(3723004)}, OutOptions{}, `["01:02:03.004"]`},
		{schema.ArrayOf(schema.Time(6)), []any{codec.Time(3723004)}, OutOptions{}, `["01:02:03.004000"]`},
		{schema.ArrayOf(schema.Timestamp(3)), []any{codec.TimestampNTZOf(ts)}, OutOptions{Location: ny}, `["2024-03-01T02:30:15.120"]`},
		{schema.ArrayOf(schema.Timestamp(0)), []any{codec.TimestampNTZOf(ts)}, OutOptions{}, `["2024-03-01T02:30:15"]`},
		{schema.ArrayOf(schema.TimestampLTZ(6)), []any{codec.TimestampLTZOf(ts)}, OutOptions{}, `["2024-03-01T02:30:15.120000Z"]`},
		{schema.ArrayOf(schema.TimestampLTZ(3)), []any{codec.TimestampLTZOf(ts)}, OutOptions{Location: ny}, `["2024-02-29T21:30:15.120-05:00"]`},
		{schema.ArrayOf(schema.ArrayOf(schema.Int())), []any{[]any{}, nil, []any{int32(1)}}, OutOptions{}, `[[],null,[1]]`},
		{schema.MapOf(schema.String(), schema.Int()), codec.Map{Keys: []any{"b", "a"}, Values: []any{int32(2), nil}}, OutOptions{}, `{"b":2,"a":null}`},
		{schema.MapOf(schema.Char(2), schema.Int()), codec.Map{Keys: []any{}, Values: []any{}}, OutOptions{}, `{}`},
		{schema.MapOf(schema.Int(), schema.String()), codec.Map{Keys: []any{int32(2), int32(1)}, Values: []any{"b", nil}}, OutOptions{}, `[{"key":2,"value":"b"},{"key":1,"value":null}]`},
		{schema.MapOf(schema.Int(), schema.String()), &codec.Map{Keys: []any{int32(2)}, Values: []any{"b"}}, OutOptions{}, `[{"key":2,"value":"b"}]`},
		{nestedRow, []any{int64(7), []any{"x"}, codec.Map{Keys: []any{int32(1)}, Values: []any{[]byte("hi")}}}, OutOptions{},
			`{"id":7,"tags":["x"],"a b":[{"key":1,"value":"aGk="}]}`},
		{nestedRow, []any{nil, nil, nil}, OutOptions{}, `{"id":null,"tags":null,"a b":null}`},
		{schema.RowOf(), []any{}, OutOptions{}, `{}`},
	}
	for _, tt := range tests {
		got, err := FromValue(tt.typ, tt.in, tt.opts)
		if err != nil {
			t.Errorf("FromValue(%s): %v", tt.typ, err)
			continue
		}
		if got != tt.want {
			t.Errorf("FromValue(%s) =\n %s\nwant\n %s", tt.typ, got, tt.want)
		}
		if !json.Valid([]byte(got.(string))) {
			t.Errorf("FromValue(%s) is not valid JSON: %s", tt.typ, got)
		}
		// And it reads back.
		back, err := ToValue(tt.typ, got, tt.opts.Location)
		if err != nil {
			t.Errorf("ToValue(%s, %s): %v", tt.typ, got, err)
		} else if again, _ := FromValue(tt.typ, back, tt.opts); again != got && !strings.Contains(tt.want, `\ufffd`) && tt.typ.Root != schema.RootMap {
			// (Maps from JSON are re-sorted by key.)
			t.Errorf("JSON round trip of %s: %s -> %s", tt.typ, got, again)
		}
	}
}

func TestFromValueNative(t *testing.T) {
	ts := time.Date(2024, 3, 1, 2, 30, 15, 0, time.UTC)
	typ := schema.RowOf(
		schema.NewField("xs", schema.ArrayOf(schema.SmallInt())),
		schema.NewField("m", schema.MapOf(schema.String(), schema.Decimal(4, 1))),
		schema.NewField("mi", schema.MapOf(schema.Int(), schema.Timestamp(0))),
		schema.NewField("mb", schema.MapOf(schema.Bytes(), schema.Boolean())),
	)
	in := []any{
		[]any{int16(1), nil},
		codec.Map{Keys: []any{"a"}, Values: []any{testkit.Decimal(t, "1.5", 4, 1)}},
		codec.Map{Keys: []any{int32(3)}, Values: []any{codec.TimestampNTZOf(ts)}},
		codec.Map{Keys: []any{[]byte("k")}, Values: []any{true}},
	}
	got, err := FromValue(typ, in, OutOptions{Native: true})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"xs": []any{int64(1), nil},
		"m":  map[string]any{"a": "1.5"},
		"mi": map[any]any{int64(3): ts},
		"mb": []MapEntry{{Key: []byte("k"), Value: true}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("native = %#v\nwant %#v", got, want)
	}
	for _, f := range typ.Fields {
		st := ColumnFor(f.Type, OutOptions{Native: true}).ScanType()
		if v := got.(map[string]any)[f.Name]; reflect.TypeOf(v) != st {
			t.Errorf("%s: native value %T, ScanType %s", f.Type, v, st)
		}
	}
	// Native values bind back.
	back, err := ToValue(typ, got, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !canonDeepEqual(back, in) {
		t.Errorf("native round trip: %#v, want %#v", back, in)
	}
}

func TestColumn(t *testing.T) {
	tests := []struct {
		typ      schema.DataType
		name     string
		scan     reflect.Type
		nullable bool
		p, s     int64
		psOK     bool
		length   int64
		lengthOK bool
	}{
		{schema.BigInt(), "BIGINT", typeNullInt64, true, 0, 0, false, 0, false},
		{schema.BigInt().NotNull(), "BIGINT", typeInt64, false, 0, 0, false, 0, false},
		{schema.TimestampLTZ(3), "TIMESTAMP_LTZ(3)", typeNullTime, true, 3, 0, true, 0, false},
		{schema.Time(0).NotNull(), "TIME(0)", typeTime, false, 0, 0, true, 0, false},
		{schema.Decimal(12, 4), "DECIMAL(12, 4)", typeNullString, true, 12, 4, true, 0, false},
		{schema.ArrayOf(schema.String()), "ARRAY<STRING>", typeNullString, true, 0, 0, false, 0, false},
		{schema.Char(5).NotNull(), "CHAR(5)", typeString, false, 0, 0, false, 5, true},
		{schema.Binary(16), "BINARY(16)", typeBytes, true, 0, 0, false, 16, true},
		{schema.String(), "STRING", typeNullString, true, 0, 0, false, math.MaxInt64, true},
		{schema.Bytes().NotNull(), "BYTES", typeBytes, false, 0, 0, false, math.MaxInt64, true},
		{schema.Float().NotNull(), "FLOAT", typeFloat64, false, 0, 0, false, 0, false},
		{schema.Boolean(), "BOOLEAN", typeNullBool, true, 0, 0, false, 0, false},
	}
	for _, tt := range tests {
		c := Column(tt.typ)
		if c.DatabaseTypeName() != tt.name {
			t.Errorf("%s: DatabaseTypeName %q, want %q", tt.typ, c.DatabaseTypeName(), tt.name)
		}
		if c.ScanType() != tt.scan {
			t.Errorf("%s: ScanType %s, want %s", tt.typ, c.ScanType(), tt.scan)
		}
		if n, ok := c.Nullable(); n != tt.nullable || !ok {
			t.Errorf("%s: Nullable %v %v", tt.typ, n, ok)
		}
		if p, s, ok := c.PrecisionScale(); p != tt.p || s != tt.s || ok != tt.psOK {
			t.Errorf("%s: PrecisionScale %d %d %v", tt.typ, p, s, ok)
		}
		if l, ok := c.Length(); l != tt.length || ok != tt.lengthOK {
			t.Errorf("%s: Length %d %v", tt.typ, l, ok)
		}
		if !c.Type().Equal(tt.typ) {
			t.Errorf("%s: Type() = %s", tt.typ, c.Type())
		}
	}
}

// randomValue returns a random canonical codec value of type t.
func randomValue(r *rand.Rand, t schema.DataType, depth int) any {
	if t.Nullable && r.IntN(6) == 0 {
		return nil
	}
	switch t.Root {
	case schema.RootBoolean:
		return r.IntN(2) == 0
	case schema.RootTinyInt:
		return int8(r.Uint32())
	case schema.RootSmallInt:
		return int16(r.Uint32())
	case schema.RootInt:
		return int32(r.Uint32())
	case schema.RootBigInt:
		return int64(r.Uint64())
	case schema.RootFloat:
		switch r.IntN(8) {
		case 0:
			return float32(math.NaN())
		case 1:
			return float32(math.Inf(1 - 2*r.IntN(2)))
		case 2:
			return float32(r.IntN(100)) / 10
		}
		f := math.Float32frombits(r.Uint32())
		if f != f {
			f = 1
		}
		return f
	case schema.RootDouble:
		switch r.IntN(8) {
		case 0:
			return math.NaN()
		case 1:
			return math.Inf(1 - 2*r.IntN(2))
		case 2:
			return float64(r.IntN(100)) / 10
		}
		f := math.Float64frombits(r.Uint64())
		if f != f {
			f = 1
		}
		return f
	case schema.RootChar, schema.RootString:
		n := r.IntN(6)
		if t.Root == schema.RootChar {
			n = min(n, t.Length)
		}
		alphabet := []rune("aZ09 \"\\\n\t\x00é€😀<>&\u2028'`")
		rs := make([]rune, n)
		for i := range rs {
			rs[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(rs)
	case schema.RootBinary, schema.RootBytes:
		n := r.IntN(6)
		if t.Root == schema.RootBinary {
			n = min(n, t.Length)
		}
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	case schema.RootDecimal:
		digits := 1 + r.IntN(t.Precision)
		var sb strings.Builder
		if r.IntN(2) == 0 {
			sb.WriteByte('-')
		}
		for range digits {
			sb.WriteByte(byte('0' + r.IntN(10)))
		}
		u, _ := new(big.Int).SetString(sb.String(), 10)
		d, err := codec.NewDecimalBig(u, t.Precision, t.Scale)
		if err != nil {
			panic(err)
		}
		return d
	case schema.RootDate:
		// Years 0001..9999.
		return codec.Date(-719162 + r.IntN(3652059))
	case schema.RootTime:
		ms := r.Int64N(msPerDay)
		if p := t.Precision; p < 3 {
			unit := int64(math.Pow10(3 - p))
			ms -= ms % unit
		}
		return codec.Time(ms)
	case schema.RootTimestamp, schema.RootTimestampLTZ:
		lo := time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
		hi := time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC).UnixMilli()
		ms := lo + r.Int64N(hi-lo)
		nano := int32(0)
		if t.Precision > 3 {
			unit := int32(math.Pow10(9 - t.Precision))
			nano = r.Int32N(1000000)
			nano -= nano % unit
		} else {
			unit := int64(math.Pow10(3 - t.Precision))
			ms -= ((ms % unit) + unit) % unit
		}
		if t.Root == schema.RootTimestamp {
			return codec.TimestampNTZ{Millis: ms, NanoOfMilli: nano}
		}
		return codec.TimestampLTZ{Millis: ms, NanoOfMilli: nano}
	case schema.RootArray:
		n := r.IntN(4)
		if depth > 4 {
			n = 0
		}
		a := make([]any, n)
		for i := range a {
			a[i] = randomValue(r, *t.Elem, depth+1)
		}
		return a
	case schema.RootMap:
		n := r.IntN(4)
		if depth > 4 {
			n = 0
		}
		var keys []any
		for range n {
			k := randomValue(r, t.Key.NotNull(), depth+1)
			if f, isF := k.(float32); isF && f != f {
				continue
			}
			if f, isF := k.(float64); isF && f != f {
				continue
			}
			dup := false
			for _, o := range keys {
				if compareCanon(o, k) == 0 {
					dup = true
				}
			}
			if !dup {
				keys = append(keys, k)
			}
		}
		sort.SliceStable(keys, func(i, j int) bool { return compareCanon(keys[i], keys[j]) < 0 })
		m := codec.Map{Keys: keys, Values: make([]any, len(keys))}
		if m.Keys == nil {
			m.Keys = []any{}
		}
		for i := range m.Values {
			m.Values[i] = randomValue(r, *t.Value, depth+1)
		}
		return m
	case schema.RootRow:
		row := make([]any, len(t.Fields))
		for i, f := range t.Fields {
			row[i] = randomValue(r, f.Type, depth+1)
		}
		return row
	}
	panic("unknown type " + t.String())
}

// TestValueRoundTrip checks ToValue(t, FromValue(t, v)) == v for random
// values of random types, as JSON text and as native values, in UTC and in
// other session zones.
func TestValueRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	scalars := testkit.ScalarTypes()
	locs := []*time.Location{nil, time.UTC, time.FixedZone("", -5*3600), time.FixedZone("", 13*3600+45*60)}
	for _, name := range []string{"America/Sao_Paulo", "Europe/Amsterdam", "Asia/Kathmandu"} {
		if l, err := time.LoadLocation(name); err == nil {
			locs = append(locs, l)
		}
	}
	for i := range 4000 {
		typ := testkit.RandomType(r, scalars, 0)
		v := randomValue(r, typ, 0)
		loc := locs[i%len(locs)]
		for _, native := range []bool{false, true} {
			opts := OutOptions{Location: loc, Native: native}
			out, err := FromValue(typ, v, opts)
			if err != nil {
				t.Fatalf("FromValue(%s, %#v): %v", typ, v, err)
			}
			if out != nil && !native {
				if st := ColumnFor(typ, opts).ScanType(); typ.Nullable && st.Kind() == reflect.Struct {
					// sql.NullX: its first field has the value's type.
					if reflect.TypeOf(out) != st.Field(0).Type {
						t.Fatalf("%s: value %T does not match ScanType %s", typ, out, st)
					}
				} else if reflect.TypeOf(out) != st {
					t.Fatalf("%s: value %T does not match ScanType %s", typ, out, st)
				}
			}
			if s, isStr := out.(string); isStr && !native && isComplex(typ) && !json.Valid([]byte(s)) {
				t.Fatalf("%s: invalid JSON %s", typ, s)
			}
			back, err := ToValue(typ, out, loc)
			if err != nil {
				t.Fatalf("ToValue(%s, %#v) (native=%v, loc=%v): %v\norig %#v", typ, out, native, loc, err, v)
			}
			if !canonDeepEqual(back, normalizeCanon(v)) {
				t.Fatalf("round trip of %s (native=%v, loc=%v):\n in  %#v\n out %#v\n back %#v", typ, native, loc, v, out, back)
			}
		}
	}
}

func isComplex(t schema.DataType) bool {
	return t.Root == schema.RootArray || t.Root == schema.RootMap || t.Root == schema.RootRow
}

// normalizeCanon maps values to what ToValue produces: TIME(p > 3) keeps
// milliseconds; nothing else changes.
func normalizeCanon(v any) any { return v }

// TestFromValueNilBigPointers pins a bug found in review: a typed nil
// *big.Rat or *big.Float made the error's message panic.
func TestFromValueNilBigPointers(t *testing.T) {
	for _, v := range []any{(*big.Rat)(nil), (*big.Float)(nil), (*big.Int)(nil)} {
		_, err := FromValue(schema.Decimal(10, 2), v, OutOptions{})
		if err == nil {
			t.Fatalf("FromValue(%T nil) succeeded", v)
		}
		_ = err.Error()
	}
}
