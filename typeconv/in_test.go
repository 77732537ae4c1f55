package typeconv

import (
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/testkit"
)

type myInt int16
type myString string
type myFloat float64
type myBool bool

// valuer has a value-receiver Value method: a nil *valuer is NULL.
type valuer struct{ v any }

func (v valuer) Value() (driver.Value, error) { return v.v, nil }

// ptrValuer has a pointer-receiver Value method that handles nil itself.
type ptrValuer struct{ v any }

func (p *ptrValuer) Value() (driver.Value, error) {
	if p == nil {
		return "nil-receiver", nil
	}
	return p.v, nil
}

type failingValuer struct{}

func (failingValuer) Value() (driver.Value, error) { return nil, errors.New("boom") }

// loopValuer returns itself forever.
type loopValuer struct{}

func (l loopValuer) Value() (driver.Value, error) { return l, nil }

func ptr[T any](v T) *T { return &v }

type inCase struct {
	name string
	typ  schema.DataType
	in   any
	want any    // expected canonical value when err == ""
	err  string // substring of the expected error
	is   error  // errors.Is target for the error
}

func runInCases(t *testing.T, loc *time.Location, cases []inCase) {
	t.Helper()
	for _, tc := range cases {
		got, err := ToValue(tc.typ, tc.in, loc)
		name := tc.name
		if name == "" {
			name = tc.typ.String()
		}
		if tc.err != "" || tc.is != nil {
			if err == nil {
				t.Errorf("%s: ToValue(%#v) = %#v, want error %q", name, tc.in, got, tc.err)
				continue
			}
			if !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: ToValue(%#v) error %q, want it to contain %q", name, tc.in, err, tc.err)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("%s: ToValue(%#v) error %q is not %v", name, tc.in, err, tc.is)
			}
			if got != nil {
				t.Errorf("%s: value %#v returned with an error", name, got)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: ToValue(%#v): %v", name, tc.in, err)
			continue
		}
		if !canonDeepEqual(got, tc.want) {
			t.Errorf("%s: ToValue(%#v) = %#v (%T), want %#v (%T)", name, tc.in, got, got, tc.want, tc.want)
		}
	}
}

// canonDeepEqual compares canonical values, decimals by value and scale.
func canonDeepEqual(a, b any) bool {
	switch x := a.(type) {
	case codec.Decimal:
		y, isDec := b.(codec.Decimal)
		return isDec && x.Equal(y)
	case []any:
		y, isArr := b.([]any)
		if !isArr || len(x) != len(y) || (x == nil) != (y == nil) {
			return false
		}
		for i := range x {
			if !canonDeepEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case codec.Map:
		y, isMap := b.(codec.Map)
		return isMap && canonDeepEqual(x.Keys, y.Keys) && canonDeepEqual(x.Values, y.Values)
	case float64:
		y, isF := b.(float64)
		return isF && (x == y || math.IsNaN(x) && math.IsNaN(y))
	case float32:
		y, isF := b.(float32)
		return isF && (x == y || x != x && y != y)
	}
	return reflect.DeepEqual(a, b)
}

func TestToValueNull(t *testing.T) {
	var nilValuer *valuer
	var nilBig *big.Int
	var nilSlice []int
	var nilMap map[string]int
	var nilBytes []byte
	var nilTime *time.Time
	nulls := []any{nil, nilValuer, nilBig, nilSlice, nilMap, nilBytes, nilTime,
		sql.NullInt64{}, sql.NullString{}, sql.Null[int8]{}, valuer{nil}, ptr[*int](nil)}
	for _, typ := range []schema.DataType{schema.Int(), schema.String(), schema.Bytes(), schema.ArrayOf(schema.Int()), schema.Decimal(5, 1)} {
		for _, v := range nulls {
			got, err := ToValue(typ, v, nil)
			if err != nil || got != nil {
				t.Errorf("ToValue(%s, %#v) = %#v, %v; want NULL", typ, v, got, err)
			}
			_, err = ToValue(typ.NotNull(), v, nil)
			var ne *NullError
			if !errors.As(err, &ne) || !errors.Is(err, ErrNotNull) || ne.Path != "" {
				t.Errorf("ToValue(%s NOT NULL, %#v) error = %v; want a top-level NullError", typ, v, err)
			}
		}
	}
	// A nil pointer with a pointer-receiver Value method is called, as
	// database/sql does.
	got, err := ToValue(schema.String(), (*ptrValuer)(nil), nil)
	if err != nil || got != "nil-receiver" {
		t.Errorf("nil *ptrValuer: %#v, %v", got, err)
	}
}

func TestToValueIntegers(t *testing.T) {
	ti, si, in, bi := schema.TinyInt(), schema.SmallInt(), schema.Int(), schema.BigInt()
	runInCases(t, nil, []inCase{
		{typ: ti, in: 127, want: int8(127)},
		{typ: ti, in: -128, want: int8(-128)},
		{typ: ti, in: 128, err: "cannot convert int 128 to TINYINT: out of range -128..127", is: ErrOutOfRange},
		{typ: ti, in: int64(-129), is: ErrOutOfRange},
		{typ: ti, in: uint8(200), is: ErrOutOfRange},
		{typ: si, in: int8(5), want: int16(5)},
		{typ: si, in: uint16(32767), want: int16(32767)},
		{typ: si, in: uint16(32768), is: ErrOutOfRange},
		{typ: si, in: myInt(-7), want: int16(-7)},
		{typ: in, in: int32(math.MinInt32), want: int32(math.MinInt32)},
		{typ: in, in: int64(math.MaxInt32 + 1), is: ErrOutOfRange},
		{typ: in, in: uint(7), want: int32(7)},
		{typ: in, in: 3.0, want: int32(3)},
		{typ: in, in: float32(-2), want: int32(-2)},
		{typ: in, in: 3.5, err: "not an integer", is: ErrFraction},
		{typ: in, in: math.NaN(), is: ErrOutOfRange},
		{typ: in, in: math.Inf(1), is: ErrOutOfRange},
		{typ: in, in: 3e9, is: ErrOutOfRange},
		{typ: in, in: " 42 ", want: int32(42)},
		{typ: in, in: "+42", want: int32(42)},
		{typ: in, in: "4.2e1", want: int32(42)},
		{typ: in, in: "42.000", want: int32(42)},
		{typ: in, in: "42.5", is: ErrFraction},
		{typ: in, in: "1e999999999", is: ErrOutOfRange},
		{typ: in, in: "1e-999999999", is: ErrFraction},
		{typ: in, in: "0e999999999", want: int32(0)},
		{typ: in, in: "abc", err: "invalid integer syntax"},
		{typ: in, in: "", err: "invalid integer syntax"},
		{typ: in, in: json.Number("17"), want: int32(17)},
		{typ: in, in: myString("9"), want: int32(9)},
		{typ: in, in: true, err: "not a bool"},
		{typ: in, in: []byte("1"), err: "want an integer"},
		{typ: in, in: time.Now(), err: "want an integer"},
		{typ: bi, in: int64(math.MaxInt64), want: int64(math.MaxInt64)},
		{typ: bi, in: uint64(math.MaxInt64), want: int64(math.MaxInt64)},
		{typ: bi, in: uint64(math.MaxInt64 + 1), err: "out of range -9223372036854775808..9223372036854775807", is: ErrOutOfRange},
		{typ: bi, in: float64(1 << 63), is: ErrOutOfRange},
		{typ: bi, in: -float64(1 << 63), want: int64(math.MinInt64)},
		{typ: bi, in: "9223372036854775807", want: int64(math.MaxInt64)},
		{typ: bi, in: "9223372036854775808", is: ErrOutOfRange},
		{typ: bi, in: "-9223372036854775808", want: int64(math.MinInt64)},
		{typ: bi, in: big.NewInt(-5), want: int64(-5)},
		{typ: bi, in: new(big.Int).Lsh(big.NewInt(1), 64), is: ErrOutOfRange},
		{typ: bi, in: *big.NewInt(8), want: int64(8)},
		{typ: bi, in: big.NewRat(10, 2), want: int64(5)},
		{typ: bi, in: big.NewRat(1, 2), is: ErrFraction},
		{typ: bi, in: big.NewFloat(1e3), want: int64(1000)},
		{typ: bi, in: big.NewFloat(1.5), is: ErrFraction},
		{typ: bi, in: new(big.Float).SetInf(false), is: ErrOutOfRange},
		{typ: bi, in: testkit.Decimal(t, "12.00", 5, 2), want: int64(12)},
		{typ: bi, in: testkit.Decimal(t, "12.50", 5, 2), is: ErrFraction},
		{typ: bi, in: sql.NullInt64{Int64: 3, Valid: true}, want: int64(3)},
		{typ: bi, in: sql.NullInt32{Int32: 3, Valid: true}, want: int64(3)},
		{typ: bi, in: sql.Null[uint8]{V: 3, Valid: true}, want: int64(3)},
		{typ: bi, in: ptr(int64(4)), want: int64(4)},
		{typ: bi, in: ptr(ptr(4)), want: int64(4)},
		{typ: bi, in: valuer{int64(6)}, want: int64(6)},
		{typ: bi, in: &ptrValuer{int64(6)}, want: int64(6)},
		{typ: bi, in: &valuer{int64(6)}, want: int64(6)},
		{typ: bi, in: failingValuer{}, err: "Value method failed: boom"},
		{typ: bi, in: loopValuer{}, err: "levels of pointers or Valuers"},
	})
}

func TestToValueFloatsAndBool(t *testing.T) {
	f, d, b := schema.Float(), schema.Double(), schema.Boolean()
	runInCases(t, nil, []inCase{
		{typ: f, in: float32(1.5), want: float32(1.5)},
		{typ: f, in: 0.1, want: float32(0.1)},
		{typ: f, in: 1e39, is: ErrOutOfRange},
		{typ: f, in: math.Inf(-1), want: float32(math.Inf(-1))},
		{typ: f, in: math.NaN(), want: float32(math.NaN())},
		{typ: f, in: 1 << 24, want: float32(1 << 24)},
		{typ: f, in: 1<<24 + 1, err: "cannot be represented exactly as a 32-bit float"},
		{typ: f, in: int64(1 << 40), want: float32(1 << 40)},
		{typ: f, in: "2.5", want: float32(2.5)},
		{typ: f, in: "1e40", is: ErrOutOfRange},
		{typ: f, in: "x", err: "invalid number syntax"},
		{typ: d, in: float32(0.1), want: float64(float32(0.1))},
		{typ: d, in: 1<<53 + 1, err: "cannot be represented exactly as a 64-bit float"},
		{typ: d, in: uint64(math.MaxUint64), err: "exactly"},
		{typ: d, in: uint64(1 << 63), want: float64(1 << 63)},
		{typ: d, in: "-Inf", want: math.Inf(-1)},
		{typ: d, in: "NaN", want: math.NaN()},
		{typ: d, in: "1e400", is: ErrOutOfRange},
		{typ: d, in: myFloat(2), want: 2.0},
		{typ: d, in: json.Number("0.25"), want: 0.25},
		{typ: d, in: big.NewRat(1, 4), want: 0.25},
		{typ: d, in: big.NewInt(3), want: 3.0},
		{typ: d, in: big.NewFloat(0.5), want: 0.5},
		{typ: d, in: testkit.Decimal(t, "1.25", 3, 2), want: 1.25},
		{typ: d, in: true, err: "not a bool"},
		{typ: d, in: sql.NullFloat64{Float64: 1, Valid: true}, want: 1.0},
		{typ: b, in: true, want: true},
		{typ: b, in: myBool(true), want: true},
		{typ: b, in: "false", want: false},
		{typ: b, in: "T", want: true},
		{typ: b, in: "yes", err: "want true/false"},
		{typ: b, in: 1, want: true},
		{typ: b, in: uint8(0), want: false},
		{typ: b, in: 2, is: ErrOutOfRange},
		{typ: b, in: 1.0, err: "want a bool"},
		{typ: b, in: sql.NullBool{Bool: true, Valid: true}, want: true},
	})
}

func TestToValueStringsAndBytes(t *testing.T) {
	s, c3, by, bin2 := schema.String(), schema.Char(3), schema.Bytes(), schema.Binary(2)
	buf := []byte("ab")
	runInCases(t, nil, []inCase{
		{typ: s, in: "héllo", want: "héllo"},
		{typ: s, in: []byte("x"), want: "x"},
		{typ: s, in: json.RawMessage(`{"a":1}`), want: `{"a":1}`},
		{typ: s, in: myString("m"), want: "m"},
		{typ: s, in: "", want: ""},
		{typ: s, in: "\xff", err: "not valid UTF-8"},
		{typ: s, in: 5, err: "want a string"},
		{typ: s, in: sql.NullString{String: "n", Valid: true}, want: "n"},
		{typ: c3, in: "äöü", want: "äöü"},
		{typ: c3, in: "a", want: "a"},
		{typ: c3, in: "abcd", err: "4 characters exceed the length 3", is: ErrOutOfRange},
		{typ: by, in: buf, want: []byte("ab")},
		{typ: by, in: []byte{}, want: []byte{}},
		{typ: by, in: "raw", want: []byte("raw")},
		{typ: by, in: [3]byte{1, 2, 3}, want: []byte{1, 2, 3}},
		{typ: by, in: json.RawMessage("[]"), want: []byte("[]")},
		{typ: by, in: 1, err: "want []byte or string"},
		{typ: bin2, in: []byte{1, 2}, want: []byte{1, 2}},
		{typ: bin2, in: []byte{1}, want: []byte{1}},
		{typ: bin2, in: []byte{1, 2, 3}, err: "3 bytes exceed the length 2", is: ErrOutOfRange},
	})
	// Bytes are copied.
	got, _ := ToValue(by, buf, nil)
	buf[0] = 'z'
	if string(got.([]byte)) != "ab" {
		t.Errorf("ToValue aliases the caller's []byte: %q", got)
	}
}

func TestToValueDecimal(t *testing.T) {
	d52, d380, d3838 := schema.Decimal(5, 2), schema.Decimal(38, 0), schema.Decimal(38, 38)
	runInCases(t, nil, []inCase{
		{typ: d52, in: "123.45", want: testkit.Decimal(t, "123.45", 5, 2)},
		{typ: d52, in: "-1.5", want: testkit.Decimal(t, "-1.50", 5, 2)},
		{typ: d52, in: ".5", want: testkit.Decimal(t, "0.50", 5, 2)},
		{typ: d52, in: "7.", want: testkit.Decimal(t, "7.00", 5, 2)},
		{typ: d52, in: "1.2300", want: testkit.Decimal(t, "1.23", 5, 2)},
		{typ: d52, in: "1.5e2", want: testkit.Decimal(t, "150.00", 5, 2)},
		{typ: d52, in: "12345e-2", want: testkit.Decimal(t, "123.45", 5, 2)},
		{typ: d52, in: "1.234", err: "has more than 2 fractional digits (values are never rounded)", is: ErrFraction},
		{typ: d52, in: "1234.5", err: "4 integer digits, more than the 3 the type holds", is: ErrOutOfRange},
		{typ: d52, in: "1e1000000", is: ErrOutOfRange},
		{typ: d52, in: "-0", want: testkit.Decimal(t, "0", 5, 2)},
		{typ: d52, in: "NaN", err: "invalid decimal syntax"},
		{typ: d52, in: "1,5", err: "invalid decimal syntax"},
		{typ: d52, in: "--1", err: "invalid decimal syntax"},
		{typ: d52, in: "1e", err: "invalid decimal syntax"},
		{typ: d52, in: 12, want: testkit.Decimal(t, "12", 5, 2)},
		{typ: d52, in: uint64(999), want: testkit.Decimal(t, "999", 5, 2)},
		{typ: d52, in: 1000, is: ErrOutOfRange},
		{typ: d52, in: 0.1, want: testkit.Decimal(t, "0.10", 5, 2)},
		{typ: d52, in: float32(0.1), want: testkit.Decimal(t, "0.10", 5, 2)},
		{typ: d52, in: 0.125, is: ErrFraction},
		{typ: d52, in: math.Inf(1), err: "not a finite number"},
		{typ: d52, in: big.NewRat(1, 4), want: testkit.Decimal(t, "0.25", 5, 2)},
		{typ: d52, in: big.NewRat(1, 3), is: ErrFraction},
		{typ: d52, in: big.NewRat(1, 8), is: ErrFraction},
		{typ: d52, in: big.NewInt(-999), want: testkit.Decimal(t, "-999", 5, 2)},
		{typ: d52, in: big.NewFloat(2.5), want: testkit.Decimal(t, "2.5", 5, 2)},
		{typ: d52, in: testkit.Decimal(t, "1.5", 2, 1), want: testkit.Decimal(t, "1.50", 5, 2)},
		{typ: d52, in: testkit.Decimal(t, "1.50", 5, 2), want: testkit.Decimal(t, "1.50", 5, 2)},
		{typ: d52, in: testkit.Decimal(t, "1.505", 4, 3), is: ErrFraction},
		{typ: d52, in: json.Number("3.14"), want: testkit.Decimal(t, "3.14", 5, 2)},
		{typ: d52, in: true, err: "not a bool"},
		{typ: d52, in: []byte("1"), err: "want a number or a decimal string"},
		{typ: d380, in: "99999999999999999999999999999999999999", want: testkit.Decimal(t, "99999999999999999999999999999999999999", 38, 0)},
		{typ: d380, in: "100000000000000000000000000000000000000", is: ErrOutOfRange},
		{typ: d380, in: uint64(math.MaxUint64), want: testkit.Decimal(t, "18446744073709551615", 38, 0)},
		{typ: d3838, in: "0.12345678901234567890123456789012345678", want: testkit.Decimal(t, "0.12345678901234567890123456789012345678", 38, 38)},
		{typ: d3838, in: "1", is: ErrOutOfRange},
	})
}

func TestToValueTemporal(t *testing.T) {
	tokyo := time.FixedZone("JST", 9*3600)
	ny := time.FixedZone("EST", -5*3600)
	inTokyo := time.Date(2024, 3, 1, 2, 30, 15, 123456789, tokyo) // 2024-02-29 17:30:15 UTC
	ntzMs := time.Date(2024, 3, 1, 2, 30, 15, 0, time.UTC).UnixMilli()
	date := func(y int, m time.Month, d int) codec.Date {
		return codec.DateOf(time.Date(y, m, d, 0, 0, 0, 0, time.UTC))
	}
	runInCases(t, nil, []inCase{
		{name: "date own zone", typ: schema.Date(), in: inTokyo, want: date(2024, 3, 1)},
		{typ: schema.Date(), in: "2024-02-29", want: date(2024, 2, 29)},
		{typ: schema.Date(), in: "1969-12-31", want: codec.Date(-1)},
		{typ: schema.Date(), in: "0001-01-01", want: date(1, 1, 1)},
		{typ: schema.Date(), in: "2024-02-30", err: "want yyyy-mm-dd"},
		{typ: schema.Date(), in: codec.Date(5), want: codec.Date(5)},
		{typ: schema.Date(), in: 5, err: "want time.Time"},
		{typ: schema.Date(), in: time.Date(6000000, 1, 1, 0, 0, 0, 0, time.UTC), is: ErrOutOfRange},
		{typ: schema.Time(3), in: inTokyo, want: codec.Time((2*3600+30*60+15)*1000 + 123)},
		{typ: schema.Time(0), in: inTokyo, want: codec.Time((2*3600 + 30*60 + 15) * 1000)},
		{typ: schema.Time(1), in: inTokyo, want: codec.Time((2*3600+30*60+15)*1000 + 100)},
		{typ: schema.Time(9), in: inTokyo, want: codec.Time((2*3600+30*60+15)*1000 + 123)},
		{typ: schema.Time(3), in: "23:59:59.999999", want: codec.Time(86399999)},
		{typ: schema.Time(3), in: "08:15", want: codec.Time(8*3600000 + 15*60000)},
		{typ: schema.Time(3), in: "24:00:00", err: "want hh:mm"},
		{typ: schema.Time(3), in: "8:15", err: "want hh:mm"},
		{typ: schema.Time(3), in: 90 * time.Minute, want: codec.Time(5400000)},
		{typ: schema.Time(3), in: 25 * time.Hour, is: ErrOutOfRange},
		{typ: schema.Time(3), in: codec.Time(86400000), is: ErrOutOfRange},
		{typ: schema.Time(3), in: codec.Time(1), want: codec.Time(1)},
		{name: "ntz wall clock as given", typ: schema.Timestamp(9), in: inTokyo, want: codec.TimestampNTZ{Millis: ntzMs + 123, NanoOfMilli: 456789}},
		{name: "ntz truncated", typ: schema.Timestamp(3), in: inTokyo, want: codec.TimestampNTZ{Millis: ntzMs + 123}},
		{name: "ntz truncated 5", typ: schema.Timestamp(5), in: inTokyo, want: codec.TimestampNTZ{Millis: ntzMs + 123, NanoOfMilli: 450000}},
		{name: "ntz truncated 0", typ: schema.Timestamp(0), in: inTokyo, want: codec.TimestampNTZ{Millis: ntzMs}},
		{typ: schema.Timestamp(6), in: "2024-03-01 02:30:15.123456", want: codec.TimestampNTZ{Millis: ntzMs + 123, NanoOfMilli: 456000}},
		{typ: schema.Timestamp(6), in: "2024-03-01T02:30:15", want: codec.TimestampNTZ{Millis: ntzMs}},
		{typ: schema.Timestamp(6), in: "2024-03-01T02:30:15+09:00", want: codec.TimestampNTZ{Millis: ntzMs}},
		{typ: schema.Timestamp(6), in: "2024-03-01", want: codec.TimestampNTZ{Millis: ntzMs - (2*3600+30*60+15)*1000}},
		{typ: schema.Timestamp(6), in: "2024-03-01 02:30", want: codec.TimestampNTZ{Millis: ntzMs - 15000}},
		{typ: schema.Timestamp(6), in: "yesterday", err: "want yyyy-mm-dd"},
		{name: "pre-1970 truncation", typ: schema.Timestamp(3), in: time.Date(1969, 12, 31, 23, 59, 59, 999999999, time.UTC), want: codec.TimestampNTZ{Millis: -1}},
		{typ: schema.Timestamp(3), in: codec.TimestampNTZ{Millis: 5, NanoOfMilli: 999}, want: codec.TimestampNTZ{Millis: 5}},
		{typ: schema.Timestamp(3), in: codec.TimestampNTZ{Millis: 5, NanoOfMilli: -1}, is: ErrOutOfRange},
		{typ: schema.Timestamp(3), in: codec.TimestampLTZ{Millis: 5}, err: "is not a wall clock"},
		{typ: schema.Timestamp(3), in: time.Date(300000000, 1, 1, 0, 0, 0, 0, time.UTC), is: ErrOutOfRange},
		{typ: schema.Timestamp(3), in: 5, err: "want time.Time"},
		{name: "ltz instant", typ: schema.TimestampLTZ(9), in: inTokyo, want: codec.TimestampLTZOf(inTokyo)},
		{typ: schema.TimestampLTZ(3), in: "2024-02-29T17:30:15.123Z", want: codec.TimestampLTZOf(inTokyo.Truncate(time.Millisecond))},
		{typ: schema.TimestampLTZ(3), in: "2024-03-01 02:30:15.123+09:00", want: codec.TimestampLTZOf(inTokyo.Truncate(time.Millisecond))},
		{name: "ltz text without offset is UTC by default", typ: schema.TimestampLTZ(0), in: "2024-02-29 17:30:15", want: codec.TimestampLTZOf(inTokyo.Truncate(time.Second))},
		{typ: schema.TimestampLTZ(3), in: codec.TimestampLTZ{Millis: 7}, want: codec.TimestampLTZ{Millis: 7}},
		{typ: schema.TimestampLTZ(3), in: codec.TimestampNTZ{Millis: 7}, err: "is not an instant"},
		{typ: schema.TimestampLTZ(3), in: sql.NullTime{Time: inTokyo, Valid: true}, want: codec.TimestampLTZOf(inTokyo.Truncate(time.Millisecond))},
	})
	// With a session zone: DATE takes the calendar date in it, LTZ text
	// without an offset is read in it, TIME and TIMESTAMP ignore it.
	runInCases(t, ny, []inCase{
		{name: "date in loc", typ: schema.Date(), in: inTokyo, want: date(2024, 2, 29)},
		{typ: schema.Date(), in: "2024-03-01", want: date(2024, 3, 1)},
		{name: "time ignores loc", typ: schema.Time(3), in: inTokyo, want: codec.Time((2*3600+30*60+15)*1000 + 123)},
		{name: "ntz ignores loc", typ: schema.Timestamp(3), in: inTokyo, want: codec.TimestampNTZ{Millis: ntzMs + 123}},
		{name: "ltz text in loc", typ: schema.TimestampLTZ(0), in: "2024-02-29 12:30:15", want: codec.TimestampLTZOf(inTokyo.Truncate(time.Second))},
		{name: "ltz instant ignores loc", typ: schema.TimestampLTZ(9), in: inTokyo, want: codec.TimestampLTZOf(inTokyo)},
	})
}

type inner struct {
	B string `db:"b"`
}

type Embedded struct {
	C int32
}

type rowStruct struct {
	A       int64  `db:"a"`
	Skipped string `db:"-"`
	hidden  int
	inner
	*Embedded
}

func TestToValueComplex(t *testing.T) {
	arr := schema.ArrayOf(schema.Int())
	arrNN := schema.ArrayOf(schema.Int().NotNull())
	m := schema.MapOf(schema.String().NotNull(), schema.BigInt())
	mi := schema.MapOf(schema.Int(), schema.String())
	row := schema.RowOf(schema.NewField("a", schema.BigInt()), schema.NewField("b", schema.String()), schema.NewField("C", schema.Int()))
	rowNN := schema.RowOf(schema.NewField("a", schema.BigInt().NotNull()))
	nested := schema.ArrayOf(schema.RowOf(schema.NewField("x", schema.ArrayOf(schema.Decimal(3, 1).NotNull()))))
	runInCases(t, nil, []inCase{
		{typ: arr, in: []any{1, nil, "3"}, want: []any{int32(1), nil, int32(3)}},
		{typ: arr, in: []int8{1, 2}, want: []any{int32(1), int32(2)}},
		{typ: arr, in: [2]uint{1, 2}, want: []any{int32(1), int32(2)}},
		{typ: arr, in: []*int{ptr(1), nil}, want: []any{int32(1), nil}},
		{typ: arr, in: []any{}, want: []any{}},
		{typ: arr, in: []int64{1, 1 << 40}, err: "value at [1]: cannot convert int64 1099511627776 to INT: out of range", is: ErrOutOfRange},
		{typ: arr, in: "[1, null, 3]", want: []any{int32(1), nil, int32(3)}},
		{typ: arr, in: "null", want: nil},
		{typ: arr, in: json.RawMessage("[7]"), want: []any{int32(7)}},
		{typ: arr, in: "[1,", err: "invalid JSON text"},
		{typ: arr, in: "[1] [2]", err: "data after the value"},
		{typ: arr, in: `{"a":1}`, err: "want a JSON array"},
		{typ: arr, in: 5, err: "want a slice or array"},
		{typ: arrNN, in: []any{1, nil}, err: "value at [1]: NULL is not allowed for INT NOT NULL", is: ErrNotNull},
		{typ: m, in: map[string]int{"b": 2, "a": 1}, want: codec.Map{Keys: []any{"a", "b"}, Values: []any{int64(1), int64(2)}}},
		{typ: m, in: map[string]any{"a": nil}, want: codec.Map{Keys: []any{"a"}, Values: []any{nil}}},
		{typ: m, in: map[myString]float64{"x": 2}, want: codec.Map{Keys: []any{"x"}, Values: []any{int64(2)}}},
		{typ: m, in: map[string]int{}, want: codec.Map{Keys: []any{}, Values: []any{}}},
		{typ: m, in: map[string]any{"a": "x"}, err: `value at {"a"}: cannot convert string "x" to BIGINT`},
		{typ: m, in: codec.Map{Keys: []any{"z", "a"}, Values: []any{1, 2}}, want: codec.Map{Keys: []any{"z", "a"}, Values: []any{int64(1), int64(2)}}},
		{typ: m, in: &codec.Map{Keys: []any{"z"}, Values: []any{1}}, want: codec.Map{Keys: []any{"z"}, Values: []any{int64(1)}}},
		{typ: m, in: codec.Map{Keys: []any{"z"}, Values: []any{}}, err: "differ in length"},
		{typ: m, in: codec.Map{Keys: []any{nil}, Values: []any{1}}, err: "MAP keys must not be NULL", is: ErrNotNull},
		{typ: m, in: codec.Map{Keys: []any{"a", "a"}, Values: []any{1, 2}}, err: `duplicate MAP key "a"`},
		{typ: m, in: codec.Map{Keys: []any{"a", "b", "a"}, Values: []any{1, 2, 3}}, err: `duplicate MAP key "a"`},
		{typ: m, in: `{"a": 1, "b": null}`, want: codec.Map{Keys: []any{"a", "b"}, Values: []any{int64(1), nil}}},
		{typ: mi, in: map[int]string{3: "c", -1: "a", 2: "b"}, want: codec.Map{Keys: []any{int32(-1), int32(2), int32(3)}, Values: []any{"a", "b", "c"}}},
		{typ: mi, in: map[string]string{"1": "x", "01": "y"}, err: "duplicate MAP key 1"},
		{typ: mi, in: map[*int]string{nil: "x"}, err: "MAP keys must not be NULL"},
		{typ: mi, in: `[{"key": 2, "value": "b"}, {"key": 1, "value": null}]`, want: codec.Map{Keys: []any{int32(1), int32(2)}, Values: []any{nil, "b"}}},
		{typ: mi, in: `{"2": "b"}`, want: codec.Map{Keys: []any{int32(2)}, Values: []any{"b"}}},
		{typ: mi, in: `[{"key": 2}]`, err: `want {"key": ..., "value": ...}`},
		{typ: mi, in: []any{1}, err: "want a map"},
		{typ: row, in: []any{1, "x", 2}, want: []any{int64(1), "x", int32(2)}},
		{typ: row, in: []any{1, "x"}, err: "2 values for 3 ROW fields"},
		{typ: row, in: []string{"1", "x", "3"}, want: []any{int64(1), "x", int32(3)}},
		{typ: row, in: map[string]any{"a": 1, "B": "y"}, want: []any{int64(1), "y", nil}},
		{typ: row, in: map[string]any{"a": 1, "zz": 2}, err: `no ROW field named "zz"`},
		{typ: row, in: map[string]any{"b": "1", "B": "2"}, err: "given twice"},
		{typ: row, in: map[int]any{1: 1}, err: "needs string keys"},
		{typ: row, in: rowStruct{A: 1, Skipped: "s", hidden: 3, inner: inner{B: "b"}, Embedded: &Embedded{C: 3}}, want: []any{int64(1), "b", int32(3)}},
		{typ: row, in: &rowStruct{A: 1}, want: []any{int64(1), "", nil}},
		{typ: row, in: struct{ A, Zed int }{1, 2}, err: `struct field Zed ("Zed") matches no ROW field`},
		{typ: row, in: struct{ A, B int }{1, 2}, err: `cannot convert int 2 to STRING`},
		{typ: row, in: `{"a": 1, "b": "q", "C": null}`, want: []any{int64(1), "q", nil}},
		{typ: row, in: `[1, "q", 3]`, want: []any{int64(1), "q", int32(3)}},
		{typ: row, in: 5, err: "want a struct"},
		{typ: rowNN, in: map[string]any{}, err: "value at .a: NULL is not allowed for BIGINT NOT NULL", is: ErrNotNull},
		{typ: nested, in: []any{map[string]any{"x": []string{"1.5", "2.25"}}}, err: "value at [0].x[1]: cannot convert string \"2.25\" to DECIMAL(3, 1) NOT NULL", is: ErrFraction},
		{typ: nested, in: `[{"x": [1.5, 2]}, null]`, want: []any{[]any{[]any{testkit.Decimal(t, "1.5", 3, 1), testkit.Decimal(t, "2.0", 3, 1)}}, nil}},
		{typ: schema.ArrayOf(schema.Bytes()), in: `["AQI=", null]`, want: []any{[]byte{1, 2}, nil}},
		{typ: schema.ArrayOf(schema.Bytes()), in: `["!"]`, err: "invalid base64"},
		{typ: schema.ArrayOf(schema.Bytes()), in: [][]byte{[]byte("ab")}, want: []any{[]byte("ab")}},
		{typ: schema.ArrayOf(schema.TinyInt()), in: []byte{1, 200}, is: ErrOutOfRange},
	})
}

func TestToValueCycles(t *testing.T) {
	a := []any{nil}
	a[0] = a
	_, e := ToValue(schema.ArrayOf(schema.Int()), a, nil)
	if e == nil {
		t.Fatal("cyclic value: no error")
	}
	deep := schema.Int()
	for range 120 {
		deep = schema.ArrayOf(deep)
	}
	_, e = ToValue(deep, a, nil)
	if e == nil || !strings.Contains(e.Error(), "nests deeper") {
		t.Fatalf("deep cyclic value: %v", e)
	}
	type node struct{ Next *node }
	n := &node{}
	n.Next = n
	_, e = ToValue(schema.RowOf(schema.NewField("next", schema.Int())), n, nil)
	if e == nil {
		t.Fatal("self-referencing struct: no error")
	}
}

func TestWithColumn(t *testing.T) {
	_, e := ToValue(schema.TinyInt(), 300, nil)
	e = WithColumn(e, "qty")
	if got, want := e.Error(), "fluss: column qty: cannot convert int 300 to TINYINT: out of range -128..127"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	_, e = ToValue(schema.BigInt().NotNull(), nil, nil)
	e = WithColumn(e, "order id")
	if got, want := e.Error(), "fluss: column `order id`: NULL is not allowed for BIGINT NOT NULL"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	_, e = ToValue(schema.ArrayOf(schema.Int().NotNull()), []any{nil}, nil)
	e = WithColumn(e, "xs")
	if got, want := e.Error(), "fluss: column xs[0]: NULL is not allowed for INT NOT NULL"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if WithColumn(nil, "x") != nil {
		t.Error("WithColumn(nil) != nil")
	}
	e = WithColumn(errors.New("other"), "x")
	if e.Error() != "fluss: column x: other" {
		t.Errorf("got %q", e)
	}
	long := strings.Repeat("x", 200)
	_, e = ToValue(schema.Int(), long, nil)
	if len(e.Error()) > 200 {
		t.Errorf("error message not bounded: %d bytes", len(e.Error()))
	}
}

func TestErrorMessagesBounded(t *testing.T) {
	a := []any{nil}
	a[0] = a
	m := map[string]any{}
	m["m"] = m
	type arr4 [4]uint8
	for _, v := range []any{a, m, strings.Repeat("é", 500), make([]byte, 1000), arr4{1, 2, 3, 4}, struct{ X []any }{a}} {
		for _, typ := range []schema.DataType{schema.Int(), schema.ArrayOf(schema.Int()), schema.MapOf(schema.String(), schema.Int()), schema.Date()} {
			_, e := ToValue(typ, v, nil)
			if e != nil && len(e.Error()) > 400 {
				t.Errorf("%s: error message of %d bytes", typ, len(e.Error()))
			}
		}
	}
	got, e := ToValue(schema.Binary(4), arr4{1, 2, 3, 4}, nil)
	if e != nil || string(got.([]byte)) != "\x01\x02\x03\x04" {
		t.Errorf("named byte array: %v, %v", got, e)
	}
	got, e = ToValue(schema.Decimal(10, 2), new(big.Float).SetMantExp(big.NewFloat(1), 1<<30), nil)
	if !errors.Is(e, ErrOutOfRange) {
		t.Errorf("huge big.Float: %v, %v", got, e)
	}
	got, e = ToValue(schema.Decimal(10, 2), new(big.Float).SetMantExp(big.NewFloat(1), -(1<<30)), nil)
	if !errors.Is(e, ErrFraction) {
		t.Errorf("tiny big.Float: %v, %v", got, e)
	}
	got, e = ToValue(schema.BigInt(), new(big.Float).SetMantExp(big.NewFloat(1), 1<<30), nil)
	if !errors.Is(e, ErrOutOfRange) {
		t.Errorf("huge big.Float to BIGINT: %v, %v", got, e)
	}
	got, e = ToValue(schema.Double(), new(big.Float).SetMantExp(big.NewFloat(1), 1<<30), nil)
	if !errors.Is(e, ErrOutOfRange) {
		t.Errorf("huge big.Float to DOUBLE: %v, %v", got, e)
	}
}

// TestCompareCanonMapKeysByContent pins a flake of TestValueRoundTrip:
// MAP keys that are MAPs holding large decimals were ordered by the text
// of their values, which shows the decimals' pointers, so the same map
// could sort (and encode) differently from one run to the next.
func TestCompareCanonMapKeysByContent(t *testing.T) {
	dec := func(s string) codec.Decimal {
		d, err := codec.ParseDecimal(s, 38, 0)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	for i := range 100 {
		var lo, hi codec.Map
		// Allocate in both orders, so that pointer order disagrees with
		// value order half of the time.
		if i%2 == 0 {
			lo = codec.Map{Keys: []any{dec("10000000000000000000000")}, Values: []any{nil}}
			hi = codec.Map{Keys: []any{dec("20000000000000000000000")}, Values: []any{nil}}
		} else {
			hi = codec.Map{Keys: []any{dec("20000000000000000000000")}, Values: []any{nil}}
			lo = codec.Map{Keys: []any{dec("10000000000000000000000")}, Values: []any{nil}}
		}
		if compareCanon(lo, hi) >= 0 || compareCanon(hi, lo) <= 0 {
			t.Fatalf("compareCanon orders MAP keys %v and %v by something other than their content", lo, hi)
		}
	}
}
