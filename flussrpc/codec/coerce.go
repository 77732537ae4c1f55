package codec

import (
	"fmt"
	"math"

	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
)

// TypeError reports a Go value that does not fit the column type.
type TypeError struct {
	Type  schema.DataType
	Value any
	Msg   string
}

// Error implements error.
func (e *TypeError) Error() string {
	return fmt.Sprintf("codec: cannot encode %T(%v) as %s: %s", e.Value, e.Value, e.Type, e.Msg)
}

func typeErr(t schema.DataType, v any, msg string) error {
	return &TypeError{Type: t, Value: v, Msg: msg}
}

// AsInt64 returns v as an int64 for every Go integer kind, so callers need
// not convert literals; ok is false for other types and for unsigned
// values above math.MaxInt64. (The range check against a column's width
// happens when a value is encoded.)
func AsInt64(v any) (int64, bool) {
	switch x := v.(type) {
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case int:
		return int64(x), true
	case uint8:
		return int64(x), true
	case uint16:
		return int64(x), true
	case uint32:
		return int64(x), true
	case uint:
		if uint64(x) > math.MaxInt64 {
			return 0, false
		}
		return int64(x), true
	case uint64:
		if x > math.MaxInt64 {
			return 0, false
		}
		return int64(x), true
	}
	return 0, false
}

func asIntN(t schema.DataType, v any, lo, hi int64) (int64, error) {
	n, ok := AsInt64(v)
	if !ok {
		return 0, typeErr(t, v, "want an integer")
	}
	if n < lo || n > hi {
		return 0, typeErr(t, v, "out of range")
	}
	return n, nil
}

// asType returns v when its Go type is T, named want in the error.
func asType[T any](t schema.DataType, v any, want string) (T, error) {
	x, ok := v.(T)
	if !ok {
		var zero T
		return zero, typeErr(t, v, "want "+want)
	}
	return x, nil
}

func asBool(t schema.DataType, v any) (bool, error) { return asType[bool](t, v, "bool") }

func asFloat32(t schema.DataType, v any) (float32, error) { return asType[float32](t, v, "float32") }

func asFloat64(t schema.DataType, v any) (float64, error) {
	switch f := v.(type) {
	case float64:
		return f, nil
	case float32:
		return float64(f), nil // widening is exact
	}
	return 0, typeErr(t, v, "want float64")
}

func asString(t schema.DataType, v any) (string, error) { return asType[string](t, v, "string") }

func asBytes(t schema.DataType, v any) ([]byte, error) { return asType[[]byte](t, v, "[]byte") }

func asDecimal(t schema.DataType, v any) (Decimal, error) {
	d, ok := v.(Decimal)
	if !ok {
		return Decimal{}, typeErr(t, v, "want codec.Decimal")
	}
	d, err := d.rescale(t.Precision, t.Scale)
	if err != nil {
		return Decimal{}, typeErr(t, v, err.Error())
	}
	return d, nil
}

func asDate(t schema.DataType, v any) (int32, error) {
	switch x := v.(type) {
	case Date:
		return int32(x), nil
	case int32:
		return x, nil
	}
	return 0, typeErr(t, v, "want codec.Date")
}

// AsTime returns the milliseconds of the day of a TIME value (codec.Time
// or int32), refusing values outside 0..86399999: no row format, and no
// reader, takes a TIME beyond the day.
func AsTime(t schema.DataType, v any) (int32, error) {
	var ms int32
	switch x := v.(type) {
	case Time:
		ms = int32(x)
	case int32:
		ms = x
	default:
		return 0, typeErr(t, v, "want codec.Time")
	}
	if ms < 0 || ms >= 86400000 {
		return 0, typeErr(t, v, "millis of day outside 0..86399999")
	}
	return ms, nil
}

// asTimestamp returns millis and nano-of-milli of a TIMESTAMP or
// TIMESTAMP_LTZ value; the Go type must match the column's root so that
// wall-clock and instant values are never confused.
func asTimestamp(t schema.DataType, v any) (int64, int32, error) {
	var ms int64
	var nano int32
	switch x := v.(type) {
	case TimestampNTZ:
		if t.Root != schema.RootTimestamp {
			return 0, 0, typeErr(t, v, "want codec.TimestampLTZ")
		}
		ms, nano = x.Millis, x.NanoOfMilli
	case TimestampLTZ:
		if t.Root != schema.RootTimestampLTZ {
			return 0, 0, typeErr(t, v, "want codec.TimestampNTZ")
		}
		ms, nano = x.Millis, x.NanoOfMilli
	default:
		return 0, 0, typeErr(t, v, "want a codec timestamp")
	}
	if nano < 0 || nano > 999999 {
		return 0, 0, typeErr(t, v, "nano of milli must be 0..999999")
	}
	return ms, nano, nil
}

func asArray(t schema.DataType, v any) ([]any, error) { return asType[[]any](t, v, "[]any") }

func asMap(t schema.DataType, v any) (Map, error) {
	switch m := v.(type) {
	case Map:
		if len(m.Keys) != len(m.Values) {
			return Map{}, typeErr(t, v, "keys and values differ in length")
		}
		return m, nil
	case *Map:
		if m != nil && len(m.Keys) == len(m.Values) {
			return *m, nil
		}
	}
	return Map{}, typeErr(t, v, "want codec.Map")
}

func asRow(t schema.DataType, v any) ([]any, error) {
	r, err := asArray(t, v)
	if err != nil {
		return nil, err
	}
	if len(r) != len(t.Fields) {
		return nil, typeErr(t, v, fmt.Sprintf("row has %s, type has %d", plural.Count(len(r), "field"), len(t.Fields)))
	}
	return r, nil
}
