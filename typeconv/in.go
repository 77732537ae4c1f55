package typeconv

import (
	"bytes"
	"database/sql/driver"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
)

const (
	// maxValueDepth bounds the nesting of a value (and so the recursion of
	// ToValue) so that cyclic or absurdly deep values fail cleanly.
	maxValueDepth = 100
	// maxUnwrap bounds the chain of Valuers and pointers unwrapped for one
	// value.
	maxUnwrap = 32
)

var valuerType = reflect.TypeFor[driver.Valuer]()

// ToValue converts a Go value bound to a column (or nested element) of type
// t into the codec value model (see the package documentation for the
// accepted inputs per type). loc is the session time zone: it fixes the
// calendar date of a time.Time bound to DATE and interprets TIMESTAMP_LTZ
// text without an offset; nil means "the time.Time's own location" for
// DATE and UTC for text.
//
// nil, nil pointers, nil slices and maps, and Valuers returning nil are SQL
// NULL: the result is nil, or a *NullError when t is NOT NULL (NOT NULL
// elements, keys and fields are checked the same way, with Path set).
// Every other failure is a *ConversionError; ToValue never panics on its
// own account (a panicking Valuer still panics).
func ToValue(t schema.DataType, v any, loc *time.Location) (any, error) {
	c := inConv{loc: loc}
	return c.convert(t, v, "", 0)
}

// inConv carries the settings of one ToValue call.
type inConv struct {
	loc *time.Location
	// json is set while converting values decoded from JSON text: BYTES
	// are base64 strings, MAPs with non-string keys are [{key, value}].
	json bool
}

func convErr(t schema.DataType, v any, path, reason string, err error) error {
	return &ConversionError{Path: path, Type: t, Value: v, Reason: reason, Err: err}
}

func (c *inConv) convert(t schema.DataType, v any, path string, depth int) (any, error) {
	if depth > maxValueDepth {
		return nil, convErr(t, v, path, fmt.Sprintf("value nests deeper than %s", plural.Count(maxValueDepth, "level")), nil)
	}
	v, err := unwrap(t, v, path)
	if err != nil {
		return nil, err
	}
	if v == nil {
		if !t.Nullable {
			return nil, &NullError{Path: path, Type: t}
		}
		return nil, nil
	}
	switch t.Root {
	case schema.RootBoolean:
		return result(c.toBool(t, v, path))
	case schema.RootTinyInt:
		n, err := c.toInt(t, v, path, math.MinInt8, math.MaxInt8)
		return result(int8(n), err)
	case schema.RootSmallInt:
		n, err := c.toInt(t, v, path, math.MinInt16, math.MaxInt16)
		return result(int16(n), err)
	case schema.RootInt:
		n, err := c.toInt(t, v, path, math.MinInt32, math.MaxInt32)
		return result(int32(n), err)
	case schema.RootBigInt:
		if _, isInt64 := v.(int64); isInt64 {
			return v, nil // as it is: boxing it again would allocate
		}
		return result(c.toInt(t, v, path, math.MinInt64, math.MaxInt64))
	case schema.RootFloat:
		f, err := c.toFloat(t, v, path, 32)
		return result(float32(f), err)
	case schema.RootDouble:
		return result(c.toFloat(t, v, path, 64))
	case schema.RootChar, schema.RootString:
		str, err := c.toString(t, v, path)
		if in, isStr := v.(string); isStr && err == nil && in == str {
			return v, nil // as it is, checked: boxing it again would allocate
		}
		return result(str, err)
	case schema.RootBinary, schema.RootBytes:
		return result(c.toBytes(t, v, path))
	case schema.RootDecimal:
		return result(c.toDecimal(t, v, path))
	case schema.RootDate:
		return result(c.toDate(t, v, path))
	case schema.RootTime:
		return result(c.toTime(t, v, path))
	case schema.RootTimestamp, schema.RootTimestampLTZ:
		return c.toTimestamp(t, v, path)
	case schema.RootArray:
		return c.toArray(t, v, path, depth)
	case schema.RootMap:
		return c.toMap(t, v, path, depth)
	case schema.RootRow:
		return c.toRow(t, v, path, depth)
	}
	return nil, convErr(t, v, path, "unknown column type", nil)
}

// result turns a typed result into (any, error) with a nil value on
// error, so that a failed conversion never yields a typed zero.
func result[T any](v T, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return v, nil
}

// unwrap resolves driver.Valuers (a nil pointer whose element type
// implements Valuer is NULL, as in database/sql) and pointers, and maps nil
// slices and maps to NULL.
func unwrap(t schema.DataType, v any, path string) (any, error) {
	for range maxUnwrap {
		switch x := v.(type) {
		case nil:
			return nil, nil
		case string, []byte, bool, int64, int32, int, float64, float32, time.Time,
			codec.Decimal, codec.Date, codec.Time, codec.TimestampNTZ, codec.TimestampLTZ, codec.Map, []any:
			if b, isBytes := v.([]byte); isBytes && b == nil {
				return nil, nil
			}
			if a, isSlice := v.([]any); isSlice && a == nil {
				return nil, nil
			}
			return v, nil
		case *big.Int, *big.Rat, *big.Float:
			if reflect.ValueOf(x).IsNil() {
				return nil, nil
			}
			return v, nil
		case big.Int:
			return new(big.Int).Set(&x), nil
		case big.Rat:
			return new(big.Rat).Set(&x), nil
		case big.Float:
			return new(big.Float).Copy(&x), nil
		case driver.Valuer:
			rv := reflect.ValueOf(v)
			if rv.Kind() == reflect.Pointer && rv.IsNil() && rv.Type().Elem().Implements(valuerType) {
				return nil, nil
			}
			nv, err := x.Value()
			if err != nil {
				return nil, convErr(t, v, path, "its Value method failed: "+err.Error(), err)
			}
			v = nv
			continue
		}
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.Pointer:
			if rv.IsNil() {
				return nil, nil
			}
			v = rv.Elem().Interface()
			continue
		case reflect.Slice, reflect.Map:
			if rv.IsNil() {
				return nil, nil
			}
		case reflect.Interface:
			// Not reachable through an any, kept for completeness.
			if rv.IsNil() {
				return nil, nil
			}
		}
		return v, nil
	}
	return nil, convErr(t, v, path, fmt.Sprintf("more than %s of pointers or Valuers", plural.Count(maxUnwrap, "level")), nil)
}

// ---- BOOLEAN ----

func (c *inConv) toBool(t schema.DataType, v any, path string) (bool, error) {
	if b, isBool := v.(bool); isBool {
		return b, nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Bool:
		return rv.Bool(), nil
	case reflect.String:
		b, err := strconv.ParseBool(strings.TrimSpace(rv.String()))
		if err != nil {
			return false, convErr(t, v, path, "want true/false, t/f or 1/0", nil)
		}
		return b, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if n := rv.Int(); n == 0 || n == 1 {
			return n == 1, nil
		}
		return false, convErr(t, v, path, "only the integers 0 and 1 convert to BOOLEAN", ErrOutOfRange)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if n := rv.Uint(); n <= 1 {
			return n == 1, nil
		}
		return false, convErr(t, v, path, "only the integers 0 and 1 convert to BOOLEAN", ErrOutOfRange)
	}
	return false, convErr(t, v, path, "want a bool", nil)
}

// ---- integers ----

func (c *inConv) toInt(t schema.DataType, v any, path string, lo, hi int64) (int64, error) {
	rangeErr := func() (int64, error) {
		return 0, convErr(t, v, path, fmt.Sprintf("out of range %d..%d", lo, hi), ErrOutOfRange)
	}
	fracErr := func() (int64, error) {
		return 0, convErr(t, v, path, "not an integer", ErrFraction)
	}
	inRange := func(n int64) (int64, error) {
		if n < lo || n > hi {
			return rangeErr()
		}
		return n, nil
	}
	fromBig := func(b *big.Int) (int64, error) {
		if !b.IsInt64() {
			return rangeErr()
		}
		return inRange(b.Int64())
	}
	fromDec := func(d decText) (int64, error) {
		b, err := d.scaled(0, 19)
		if errors.Is(err, ErrFraction) {
			return fracErr()
		}
		if err != nil {
			return rangeErr()
		}
		return fromBig(b)
	}
	switch x := v.(type) {
	case int64:
		return inRange(x)
	case int:
		return inRange(int64(x))
	case int32:
		return inRange(int64(x))
	case bool:
		return 0, convErr(t, v, path, "want an integer, not a bool", nil)
	case *big.Int:
		return fromBig(x)
	case *big.Rat:
		if !x.IsInt() {
			return fracErr()
		}
		return fromBig(x.Num())
	case *big.Float:
		if x.IsInf() {
			return rangeErr()
		}
		if !x.IsInt() {
			return fracErr()
		}
		n, acc := x.Int64()
		if acc != big.Exact {
			return rangeErr()
		}
		return inRange(n)
	case codec.Decimal:
		d, err := parseDecText(x.String())
		if err != nil {
			return 0, convErr(t, v, path, "invalid decimal", err)
		}
		return fromDec(d)
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return inRange(rv.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u := rv.Uint()
		if u > uint64(hi) {
			return rangeErr()
		}
		return int64(u), nil
	case reflect.Float32, reflect.Float64:
		f := rv.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return rangeErr()
		}
		if f != math.Trunc(f) {
			return fracErr()
		}
		// -lo = hi+1 is a power of two, exact as a float64.
		if f < float64(lo) || f >= -float64(lo) {
			return rangeErr()
		}
		return int64(f), nil
	case reflect.String:
		s := strings.TrimSpace(rv.String())
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return inRange(n)
		}
		d, err := parseDecText(s)
		if err != nil {
			return 0, convErr(t, v, path, "invalid integer syntax", err)
		}
		return fromDec(d)
	}
	return 0, convErr(t, v, path, "want an integer", nil)
}

// ---- FLOAT / DOUBLE ----

func (c *inConv) toFloat(t schema.DataType, v any, path string, bits int) (float64, error) {
	rangeErr := func() (float64, error) {
		return 0, convErr(t, v, path, "out of range", ErrOutOfRange)
	}
	narrow := func(f float64) (float64, error) {
		if bits == 32 && !math.IsInf(f, 0) && math.IsInf(float64(float32(f)), 0) {
			return rangeErr()
		}
		return f, nil
	}
	exact := func(f *big.Float) (float64, error) {
		if bits == 32 {
			if f32, acc := f.Float32(); acc == big.Exact {
				return float64(f32), nil
			}
		} else if f64, acc := f.Float64(); acc == big.Exact {
			return f64, nil
		}
		return 0, convErr(t, v, path, fmt.Sprintf("cannot be represented exactly as a %d-bit float", bits), ErrOutOfRange)
	}
	fromRat := func(r *big.Rat) (float64, error) {
		var f float64
		if bits == 32 {
			f32, _ := r.Float32()
			f = float64(f32)
		} else {
			f, _ = r.Float64()
		}
		if math.IsInf(f, 0) {
			return rangeErr()
		}
		return f, nil
	}
	switch x := v.(type) {
	case float64:
		return narrow(x)
	case float32:
		return float64(x), nil
	case bool:
		return 0, convErr(t, v, path, "want a number, not a bool", nil)
	case *big.Int:
		return fromRat(new(big.Rat).SetInt(x))
	case *big.Rat:
		return fromRat(x)
	case *big.Float:
		var f float64
		if bits == 32 {
			f32, _ := x.Float32()
			f = float64(f32)
		} else {
			f, _ = x.Float64()
		}
		if math.IsInf(f, 0) && !x.IsInf() {
			return rangeErr()
		}
		return f, nil
	case codec.Decimal:
		r, _ := new(big.Rat).SetString(x.String())
		if r == nil {
			return 0, convErr(t, v, path, "invalid decimal", nil)
		}
		return fromRat(r)
	}
	mantissa := int64(1) << 53
	if bits == 32 {
		mantissa = 1 << 24
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n := rv.Int()
		if n >= -mantissa && n <= mantissa {
			return float64(n), nil
		}
		return exact(new(big.Float).SetInt64(n))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u := rv.Uint()
		if u <= uint64(mantissa) {
			return float64(u), nil
		}
		return exact(new(big.Float).SetUint64(u))
	case reflect.Float32:
		return rv.Float(), nil
	case reflect.Float64:
		return narrow(rv.Float())
	case reflect.String:
		f, err := strconv.ParseFloat(strings.TrimSpace(rv.String()), bits)
		if err != nil {
			if errors.Is(err, strconv.ErrRange) {
				return rangeErr()
			}
			return 0, convErr(t, v, path, "invalid number syntax", nil)
		}
		return f, nil
	}
	return 0, convErr(t, v, path, "want a number", nil)
}

// ---- CHAR / STRING ----

func (c *inConv) toString(t schema.DataType, v any, path string) (string, error) {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case []byte:
		s = string(x)
	default:
		rv := reflect.ValueOf(v)
		switch {
		case rv.Kind() == reflect.String:
			s = rv.String()
		case rv.Kind() == reflect.Slice && rv.Type().Elem().Kind() == reflect.Uint8:
			s = string(rv.Bytes())
		default:
			return "", convErr(t, v, path, "want a string", nil)
		}
	}
	if !utf8.ValidString(s) {
		return "", convErr(t, v, path, "not valid UTF-8", nil)
	}
	if t.Root == schema.RootChar {
		if n := utf8.RuneCountInString(s); n > t.Length {
			return "", convErr(t, v, path, fmt.Sprintf("%s exceed the length %d", plural.Count(n, "character"), t.Length), ErrOutOfRange)
		}
	}
	return s, nil
}

// ---- BINARY / BYTES ----

func (c *inConv) toBytes(t schema.DataType, v any, path string) ([]byte, error) {
	var b []byte
	switch x := v.(type) {
	case []byte:
		b = bytes.Clone(x)
	case string:
		if c.json {
			d, err := base64.StdEncoding.DecodeString(x)
			if err != nil {
				return nil, convErr(t, v, path, "invalid base64 in JSON text", err)
			}
			b = d
		} else {
			b = []byte(x)
		}
	default:
		rv := reflect.ValueOf(v)
		switch {
		case rv.Kind() == reflect.String:
			b = []byte(rv.String())
		case rv.Kind() == reflect.Slice && rv.Type().Elem().Kind() == reflect.Uint8:
			b = bytes.Clone(rv.Bytes())
		case rv.Kind() == reflect.Array && rv.Type().Elem().Kind() == reflect.Uint8:
			b = make([]byte, rv.Len())
			for i := range b {
				b[i] = byte(rv.Index(i).Uint())
			}
		default:
			return nil, convErr(t, v, path, "want []byte or string", nil)
		}
	}
	if t.Root == schema.RootBinary && len(b) > t.Length {
		return nil, convErr(t, v, path, fmt.Sprintf("%s exceed the length %d", plural.Count(len(b), "byte"), t.Length), ErrOutOfRange)
	}
	return b, nil
}

// ---- DECIMAL ----

func (c *inConv) toDecimal(t schema.DataType, v any, path string) (codec.Decimal, error) {
	p, s := t.Precision, t.Scale
	fail := func(reason string, err error) (codec.Decimal, error) {
		return codec.Decimal{}, convErr(t, v, path, reason, err)
	}
	var d decText
	var err error
	switch x := v.(type) {
	case codec.Decimal:
		if x.Scale() == s && x.Precision() == p {
			return x, nil
		}
		d, err = parseDecText(x.String())
	case *big.Int:
		d, err = parseDecText(x.String())
	case *big.Rat:
		d, err = decTextOfRat(x, s)
		if errors.Is(err, ErrFraction) {
			return fail(fmt.Sprintf("has more than %s (values are never rounded)", plural.Count(s, "fractional digit")), ErrFraction)
		}
	case *big.Float:
		if x.IsInf() {
			return fail("not a finite number", ErrOutOfRange)
		}
		// Bound the binary exponent before formatting: 2^130 exceeds every
		// DECIMAL and a non-zero value below 2^-130 needs more than 38
		// fractional digits, and formatting huge exponents is costly.
		if exp := x.MantExp(nil); x.Sign() != 0 && exp > 130 {
			return fail("out of range", ErrOutOfRange)
		} else if x.Sign() != 0 && exp < -130 {
			return fail(fmt.Sprintf("has more than %s (values are never rounded)", plural.Count(s, "fractional digit")), ErrFraction)
		}
		d, err = parseDecText(x.Text('g', -1))
	case bool:
		return fail("want a number, not a bool", nil)
	default:
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			d, err = parseDecText(strconv.FormatInt(rv.Int(), 10))
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			d, err = parseDecText(strconv.FormatUint(rv.Uint(), 10))
		case reflect.Float32, reflect.Float64:
			f := rv.Float()
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return fail("not a finite number", ErrOutOfRange)
			}
			// The shortest text that reads back as the same float: 0.1
			// means 0.1, not its binary expansion.
			d, err = parseDecText(strconv.FormatFloat(f, 'g', -1, rv.Type().Bits()))
		case reflect.String:
			d, err = parseDecText(rv.String())
			if err != nil {
				return fail("invalid decimal syntax", err)
			}
		default:
			return fail("want a number or a decimal string", nil)
		}
	}
	if err != nil {
		return fail("invalid decimal", err)
	}
	if e := d.exp + s; !d.isZero() && e >= 0 && len(d.digits)+e <= min(p, 18) {
		// Fast path: the unscaled value fits an int64.
		n, perr := strconv.ParseInt(d.digits, 10, 64)
		if perr == nil {
			for range e {
				n *= 10
			}
			if d.neg {
				n = -n
			}
			if dec, derr := codec.NewDecimal(n, p, s); derr == nil {
				return dec, nil
			}
		}
	}
	u, err := d.scaled(s, p)
	switch {
	case errors.Is(err, ErrFraction):
		return fail(fmt.Sprintf("has more than %s (values are never rounded)", plural.Count(s, "fractional digit")), ErrFraction)
	case errors.Is(err, ErrOutOfRange):
		return fail(fmt.Sprintf("%s, more than the %d the type holds", plural.Count(d.intDigits(), "integer digit"), p-s), ErrOutOfRange)
	case err != nil:
		return fail("invalid decimal", err)
	}
	dec, err := codec.NewDecimalBig(u, p, s)
	if err != nil {
		return fail(err.Error(), ErrOutOfRange)
	}
	return dec, nil
}

// ---- DATE / TIME / TIMESTAMP ----

const (
	msPerDay = 86400000
	// Limits keeping epoch milliseconds inside an int64.
	maxEpochSec = math.MaxInt64/1000 - 1
	minEpochSec = math.MinInt64/1000 + 1
)

// parseStringKind parses v, whose kind must be string, with parse; want
// says in the error what else would have been accepted.
func parseStringKind[T any](t schema.DataType, v any, path, want string, parse func(string) (T, error)) (T, error) {
	var zero T
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.String {
		return zero, convErr(t, v, path, want, nil)
	}
	x, err := parse(rv.String())
	if err != nil {
		return zero, convErr(t, v, path, err.Error(), nil)
	}
	return x, nil
}

func (c *inConv) toDate(t schema.DataType, v any, path string) (codec.Date, error) {
	var tt time.Time
	switch x := v.(type) {
	case codec.Date:
		return x, nil
	case time.Time:
		tt = x
		if c.loc != nil {
			tt = tt.In(c.loc)
		}
	default:
		var err error
		if tt, err = parseStringKind(t, v, path, "want time.Time or a yyyy-mm-dd string", parseDateText); err != nil {
			return 0, err
		}
	}
	y, m, d := tt.Date()
	sec := time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix()
	days := sec / 86400
	if sec%86400 < 0 {
		days--
	}
	if days < math.MinInt32 || days > math.MaxInt32 {
		return 0, convErr(t, v, path, "date out of range", ErrOutOfRange)
	}
	return codec.Date(days), nil
}

func (c *inConv) toTime(t schema.DataType, v any, path string) (codec.Time, error) {
	var nanos int64
	switch x := v.(type) {
	case codec.Time:
		if x < 0 || x >= msPerDay {
			return 0, convErr(t, v, path, "milliseconds of day out of range", ErrOutOfRange)
		}
		nanos = int64(x) * 1e6
	case time.Time:
		h, m, s := x.Clock()
		nanos = int64((h*60+m)*60+s)*1e9 + int64(x.Nanosecond())
	case time.Duration:
		if x < 0 || x >= 24*time.Hour {
			return 0, convErr(t, v, path, "a duration must be within [0, 24h) to be a time of day", ErrOutOfRange)
		}
		nanos = int64(x)
	default:
		var err error
		if nanos, err = parseStringKind(t, v, path, "want time.Time, time.Duration or an hh:mm:ss string", parseTimeText); err != nil {
			return 0, err
		}
	}
	ms := nanos / 1e6
	if p := t.Precision; p < 3 {
		unit := int64(math.Pow10(3 - p))
		ms -= ms % unit
	}
	return codec.Time(ms), nil
}

func (c *inConv) toTimestamp(t schema.DataType, v any, path string) (any, error) {
	ltz := t.Root == schema.RootTimestampLTZ
	var tt time.Time
	switch x := v.(type) {
	case time.Time:
		tt = x
	case codec.TimestampNTZ:
		if ltz {
			return nil, convErr(t, v, path, "a TIMESTAMP (wall clock) value is not an instant; use time.Time or codec.TimestampLTZ", nil)
		}
		if x.NanoOfMilli < 0 || x.NanoOfMilli > 999999 {
			return nil, convErr(t, v, path, "nano of milli out of range", ErrOutOfRange)
		}
		tt = x.Time()
	case codec.TimestampLTZ:
		if !ltz {
			return nil, convErr(t, v, path, "a TIMESTAMP_LTZ (instant) value is not a wall clock; use time.Time or codec.TimestampNTZ", nil)
		}
		if x.NanoOfMilli < 0 || x.NanoOfMilli > 999999 {
			return nil, convErr(t, v, path, "nano of milli out of range", ErrOutOfRange)
		}
		tt = x.Time()
	default:
		loc := time.UTC
		if ltz && c.loc != nil {
			loc = c.loc
		}
		var err error
		tt, err = parseStringKind(t, v, path, "want time.Time or a yyyy-mm-dd hh:mm:ss[.f] string", func(s string) (time.Time, error) {
			return parseTimestampText(s, loc)
		})
		if err != nil {
			return nil, err
		}
	}
	// Truncate (never round) to the column precision: rounding could move
	// the value into the next second, day or year.
	if p := t.Precision; p < 9 {
		unit := int64(math.Pow10(9 - p))
		tt = tt.Add(-time.Duration(int64(tt.Nanosecond()) % unit))
	}
	var sec int64
	if ltz {
		sec = tt.Unix()
	} else {
		y, mo, d := tt.Date()
		h, mi, s := tt.Clock()
		sec = time.Date(y, mo, d, h, mi, s, 0, time.UTC).Unix()
	}
	if sec > maxEpochSec || sec < minEpochSec {
		return nil, convErr(t, v, path, "timestamp out of range", ErrOutOfRange)
	}
	if ltz {
		return codec.TimestampLTZOf(tt), nil
	}
	return codec.TimestampNTZOf(tt), nil
}

// ---- ARRAY / MAP / ROW ----

// decodeJSON parses JSON text given for an ARRAY, MAP or ROW.
func (c *inConv) decodeJSON(t schema.DataType, v any, s, path string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return nil, convErr(t, v, path, "invalid JSON text: "+err.Error(), err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, convErr(t, v, path, "invalid JSON text: data after the value", nil)
	}
	return x, nil
}

// jsonInput returns the decoded JSON of a string (or json.RawMessage)
// given for a complex type, and whether v was such a text.
func (c *inConv) jsonInput(t schema.DataType, v any, path string) (any, bool, error) {
	if c.json {
		return nil, false, nil
	}
	if raw, isRaw := v.(json.RawMessage); isRaw {
		x, err := c.decodeJSON(t, v, string(raw), path)
		return x, true, err
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.String {
		return nil, false, nil
	}
	x, err := c.decodeJSON(t, v, rv.String(), path)
	return x, true, err
}

// viaJSON converts v when it is JSON text (see jsonInput), and only then
// reports done: JSON null as NULL, any other decoded value x with conv and
// a converter in JSON mode.
func (c *inConv) viaJSON(t schema.DataType, v any, path string, depth int, conv func(jc *inConv, x any) (any, error)) (out any, done bool, err error) {
	x, isJSON, err := c.jsonInput(t, v, path)
	if err != nil || !isJSON {
		return nil, err != nil, err
	}
	if x == nil {
		out, err = c.convert(t, nil, path, depth)
		return out, true, err
	}
	jc := inConv{loc: c.loc, json: true}
	out, err = conv(&jc, x)
	return out, true, err
}

func missingChild(t schema.DataType, v any, path string) error {
	return convErr(t, v, path, "the type has no element/key/value type", nil)
}

func (c *inConv) toArray(t schema.DataType, v any, path string, depth int) (any, error) {
	if t.Elem == nil {
		return nil, missingChild(t, v, path)
	}
	if out, done, err := c.viaJSON(t, v, path, depth, func(jc *inConv, x any) (any, error) {
		if _, isArr := x.([]any); !isArr {
			return nil, convErr(t, v, path, "want a JSON array", nil)
		}
		return jc.toArray(t, x, path, depth)
	}); done {
		return out, err
	}
	elem := *t.Elem
	if a, isAny := v.([]any); isAny {
		out := make([]any, len(a))
		for i, e := range a {
			cv, err := c.convert(elem, e, path+"["+strconv.Itoa(i)+"]", depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = cv
		}
		return out, nil
	}
	rv := reflect.ValueOf(v)
	if k := rv.Kind(); k != reflect.Slice && k != reflect.Array {
		return nil, convErr(t, v, path, "want a slice or array (or JSON array text)", nil)
	}
	out := make([]any, rv.Len())
	for i := range out {
		cv, err := c.convert(elem, rv.Index(i).Interface(), path+"["+strconv.Itoa(i)+"]", depth+1)
		if err != nil {
			return nil, err
		}
		out[i] = cv
	}
	return out, nil
}

type mapEntry struct {
	key, value any
	label      string // key rendering for error paths
}

func (c *inConv) toMap(t schema.DataType, v any, path string, depth int) (any, error) {
	if t.Key == nil || t.Value == nil {
		return nil, missingChild(t, v, path)
	}
	if out, done, err := c.viaJSON(t, v, path, depth, func(jc *inConv, x any) (any, error) {
		return jc.toMap(t, x, path, depth)
	}); done {
		return out, err
	}
	kt, vt := *t.Key, *t.Value
	var raw []mapEntry
	switch x := v.(type) {
	case codec.Map:
		if len(x.Keys) != len(x.Values) {
			return nil, convErr(t, v, path, "codec.Map keys and values differ in length", nil)
		}
		for i := range x.Keys {
			raw = append(raw, mapEntry{key: x.Keys[i], value: x.Values[i], label: strconv.Itoa(i)})
		}
	case []MapEntry:
		for i, e := range x {
			raw = append(raw, mapEntry{key: e.Key, value: e.Value, label: strconv.Itoa(i)})
		}
	case []any:
		if !c.json {
			return nil, convErr(t, v, path, "want a map (or codec.Map, []MapEntry, or JSON text)", nil)
		}
		// JSON form for non-string keys: [{"key": k, "value": v}, ...].
		for i, e := range x {
			obj, isObj := e.(map[string]any)
			k, hasK := obj["key"]
			val, hasV := obj["value"]
			if !isObj || !hasK || !hasV || len(obj) != 2 {
				return nil, convErr(t, v, path+"["+strconv.Itoa(i)+"]", `want {"key": ..., "value": ...}`, nil)
			}
			raw = append(raw, mapEntry{key: k, value: val, label: strconv.Itoa(i)})
		}
	default:
		rv := reflect.ValueOf(v)
		if rv.Kind() != reflect.Map {
			return nil, convErr(t, v, path, "want a map (or codec.Map, []MapEntry, or JSON text)", nil)
		}
		it := rv.MapRange()
		for it.Next() {
			k := it.Key().Interface()
			raw = append(raw, mapEntry{key: k, value: it.Value().Interface(), label: labelOf(k)})
		}
	}
	out := make([]mapEntry, len(raw))
	for i, e := range raw {
		kp := path + "{key " + e.label + "}"
		if e.key == nil || isNilValue(e.key) {
			return nil, convErr(kt, nil, kp, "MAP keys must not be NULL", ErrNotNull)
		}
		k, err := c.convert(kt, e.key, kp, depth+1)
		if err != nil {
			return nil, err
		}
		if k == nil {
			return nil, convErr(kt, e.key, kp, "MAP keys must not be NULL", ErrNotNull)
		}
		val, err := c.convert(vt, e.value, path+"{"+e.label+"}", depth+1)
		if err != nil {
			return nil, err
		}
		out[i] = mapEntry{key: k, value: val, label: e.label}
	}
	sorted := out
	if _, isCodec := v.(codec.Map); isCodec {
		// A codec.Map keeps its order; check duplicates on a sorted copy.
		sorted = append([]mapEntry(nil), out...)
	}
	// Go maps iterate in random order; sort so that the same map always
	// encodes to the same bytes.
	sort.SliceStable(sorted, func(i, j int) bool { return compareCanon(sorted[i].key, sorted[j].key) < 0 })
	for i := 1; i < len(sorted); i++ {
		if compareCanon(sorted[i-1].key, sorted[i].key) == 0 && canonEqual(sorted[i-1].key, sorted[i].key) {
			return nil, convErr(t, v, path, "duplicate MAP key "+labelOf(sorted[i].key), nil)
		}
	}
	m := codec.Map{Keys: make([]any, len(out)), Values: make([]any, len(out))}
	for i, e := range out {
		m.Keys[i], m.Values[i] = e.key, e.value
	}
	return m, nil
}

func isNilValue(v any) bool {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
		return rv.IsNil()
	}
	return false
}

func labelOf(k any) string {
	if s, isStr := k.(string); isStr {
		return quoteTrunc(s)
	}
	return valueText(k)
}

// compareCanon orders canonical codec values of one type (used for map
// keys). Values of kinds without a natural order compare by their printed
// form, which is deterministic.
func compareCanon(a, b any) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	switch x := a.(type) {
	case []any:
		if y, isSame := b.([]any); isSame {
			for i := 0; i < len(x) && i < len(y); i++ {
				if c := compareCanon(x[i], y[i]); c != 0 {
					return c
				}
			}
			return cmpOrdered(int64(len(x)), int64(len(y)))
		}
	case string:
		if y, isSame := b.(string); isSame {
			return strings.Compare(x, y)
		}
	case bool:
		if y, isSame := b.(bool); isSame {
			switch {
			case x == y:
				return 0
			case !x:
				return -1
			}
			return 1
		}
	case int8, int16, int32, int64:
		if y, isInt := asInt(b); isInt {
			xi, _ := asInt(a)
			return cmpOrdered(xi, y)
		}
	case float32:
		if y, isSame := b.(float32); isSame {
			return cmpOrdered(x, y)
		}
	case float64:
		if y, isSame := b.(float64); isSame {
			return cmpOrdered(x, y)
		}
	case []byte:
		if y, isSame := b.([]byte); isSame {
			return bytes.Compare(x, y)
		}
	case codec.Decimal:
		if y, isSame := b.(codec.Decimal); isSame {
			return x.Unscaled().Cmp(y.Unscaled())
		}
	case codec.Map:
		// Compared by content: the text fallback below prints the
		// pointers of large decimals, which would order MAP keys that are
		// MAPs by where they happen to be allocated.
		if y, isSame := b.(codec.Map); isSame {
			if c := compareCanon(x.Keys, y.Keys); c != 0 {
				return c
			}
			return compareCanon(x.Values, y.Values)
		}
	case codec.Date:
		if y, isSame := b.(codec.Date); isSame {
			return cmpOrdered(x, y)
		}
	case codec.Time:
		if y, isSame := b.(codec.Time); isSame {
			return cmpOrdered(x, y)
		}
	case codec.TimestampNTZ:
		if y, isSame := b.(codec.TimestampNTZ); isSame {
			if c := cmpOrdered(x.Millis, y.Millis); c != 0 {
				return c
			}
			return cmpOrdered(x.NanoOfMilli, y.NanoOfMilli)
		}
	case codec.TimestampLTZ:
		if y, isSame := b.(codec.TimestampLTZ); isSame {
			if c := cmpOrdered(x.Millis, y.Millis); c != 0 {
				return c
			}
			return cmpOrdered(x.NanoOfMilli, y.NanoOfMilli)
		}
	}
	return strings.Compare(fmt.Sprintf("%#v", a), fmt.Sprintf("%#v", b))
}

// canonEqual reports whether two canonical values are the same key (NaN
// float keys compare equal in order but are kept as distinct entries, as
// no lookup could ever find them).
func canonEqual(a, b any) bool {
	switch x := a.(type) {
	case float32:
		return x == b.(float32)
	case float64:
		return x == b.(float64)
	}
	return true
}

func asInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	}
	return 0, false
}

func cmpOrdered[T int64 | int32 | float32 | float64 | codec.Date | codec.Time](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	case a == b:
		return 0
	}
	// NaNs: order them after everything, equal to each other.
	an, bn := a != a, b != b
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	}
	return -1
}

func (c *inConv) toRow(t schema.DataType, v any, path string, depth int) (any, error) {
	if out, done, err := c.viaJSON(t, v, path, depth, func(jc *inConv, x any) (any, error) {
		return jc.toRow(t, x, path, depth)
	}); done {
		return out, err
	}
	fields := t.Fields
	out := make([]any, len(fields))
	fieldPath := func(i int) string { return path + "." + schema.QuoteIdentifier(fields[i].Name) }
	setField := func(i int, val any) error {
		cv, err := c.convert(fields[i].Type, val, fieldPath(i), depth+1)
		if err != nil {
			return err
		}
		out[i] = cv
		return nil
	}
	// Fields never given are NULL, which NOT NULL fields reject.
	fillMissing := func(given []bool) error {
		for i, g := range given {
			if !g {
				if err := setField(i, nil); err != nil {
					return err
				}
			}
		}
		return nil
	}
	positional := func(n int, get func(int) any) (any, error) {
		if n != len(fields) {
			return nil, convErr(t, v, path, fmt.Sprintf("%s for %s", plural.Count(n, "value"), plural.Count(len(fields), "ROW field")), nil)
		}
		for i := range fields {
			if err := setField(i, get(i)); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	if a, isAny := v.([]any); isAny {
		return positional(len(a), func(i int) any { return a[i] })
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		return positional(rv.Len(), func(i int) any { return rv.Index(i).Interface() })
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return nil, convErr(t, v, path, "a map for a ROW needs string keys (field names)", nil)
		}
		given := make([]bool, len(fields))
		keys := rv.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		for _, k := range keys {
			i := fieldIndex(fields, k.String())
			if i < 0 {
				return nil, convErr(t, v, path, fmt.Sprintf("no ROW field named %q", k.String()), nil)
			}
			if given[i] {
				return nil, convErr(t, v, path, fmt.Sprintf("ROW field %q given twice", fields[i].Name), nil)
			}
			given[i] = true
			if err := setField(i, rv.MapIndex(k).Interface()); err != nil {
				return nil, err
			}
		}
		if err := fillMissing(given); err != nil {
			return nil, err
		}
		return out, nil
	case reflect.Struct:
		given := make([]bool, len(fields))
		for _, sf := range structFields(rv.Type()) {
			i := fieldIndex(fields, sf.name)
			if i < 0 {
				return nil, convErr(t, v, path, fmt.Sprintf("struct field %s (%q) matches no ROW field; tag it `db:\"-\"` to skip it", sf.goName, sf.name), nil)
			}
			if given[i] {
				return nil, convErr(t, v, path, fmt.Sprintf("ROW field %q matched by two struct fields", fields[i].Name), nil)
			}
			given[i] = true
			var val any
			if f, err := rv.FieldByIndexErr(sf.index); err == nil && f.CanInterface() {
				val = f.Interface()
			}
			if err := setField(i, val); err != nil {
				return nil, err
			}
		}
		if err := fillMissing(given); err != nil {
			return nil, err
		}
		return out, nil
	}
	return nil, convErr(t, v, path, "want a struct, map[string]any or []any (or JSON object text)", nil)
}

// fieldIndex finds a ROW field by exact name, then case-insensitively.
func fieldIndex(fields []schema.Field, name string) int {
	for i, f := range fields {
		if f.Name == name {
			return i
		}
	}
	for i, f := range fields {
		if strings.EqualFold(f.Name, name) {
			return i
		}
	}
	return -1
}
