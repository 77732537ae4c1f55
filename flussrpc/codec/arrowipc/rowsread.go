package arrowipc

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// getter returns the codec value of row i of one array (nil for NULL).
type getter func(i int) (any, error)

// getterFactory binds a getter to an array of the column's Arrow type.
type getterFactory func(arr arrow.Array) (getter, error)

func wrongArray(t schema.DataType, arr arrow.Array) error {
	return fmt.Errorf("arrowipc: %T cannot hold %s values", arr, t)
}

// bound makes the getter factory for arrays of type A: bind runs once per
// array (so the type assertion and any child binding happen once per column
// rather than per value) and its getter is only asked for non-NULL rows.
func bound[A arrow.Array](t schema.DataType, bind func(a A) (getter, error)) getterFactory {
	return func(arr arrow.Array) (getter, error) {
		a, ok := arr.(A)
		if !ok {
			return nil, wrongArray(t, arr)
		}
		get, err := bind(a)
		if err != nil {
			return nil, err
		}
		return func(i int) (any, error) {
			if a.IsNull(i) {
				return nil, nil
			}
			return get(i)
		}, nil
	}
}

// typed is bound for getters that need nothing but the array, without the
// extra call per value that wrapping f in bound would cost.
func typed[A arrow.Array](t schema.DataType, f func(a A, i int) (any, error)) getterFactory {
	return func(arr arrow.Array) (getter, error) {
		a, ok := arr.(A)
		if !ok {
			return nil, wrongArray(t, arr)
		}
		return func(i int) (any, error) {
			if a.IsNull(i) {
				return nil, nil
			}
			return f(a, i)
		}, nil
	}
}

// plain is typed for arrays whose values already are codec values.
func plain[A interface {
	arrow.Array
	Value(int) T
}, T any](t schema.DataType) getterFactory {
	return typed(t, func(a A, i int) (any, error) { return a.Value(i), nil })
}

// newGetter returns the factory converting Arrow values of type t to the
// codec value model, mirroring the Arrow column vectors of the Java client
// (row/arrow/vectors/*): TIME back to milliseconds of day, timestamps to
// epoch millis + nano-of-milli. Sub-millisecond timestamps are split with
// floor division so that pre-1970 values keep a nano-of-milli in
// 0..999999 (Java's truncating division would produce a negative one).
func newGetter(t schema.DataType) (getterFactory, error) {
	switch t.Root {
	case schema.RootBoolean:
		return plain[*array.Boolean](t), nil
	case schema.RootTinyInt:
		return plain[*array.Int8](t), nil
	case schema.RootSmallInt:
		return plain[*array.Int16](t), nil
	case schema.RootInt:
		return plain[*array.Int32](t), nil
	case schema.RootBigInt:
		return plain[*array.Int64](t), nil
	case schema.RootFloat:
		return plain[*array.Float32](t), nil
	case schema.RootDouble:
		return plain[*array.Float64](t), nil
	case schema.RootChar, schema.RootString:
		return typed(t, func(a *array.String, i int) (any, error) { return strings.Clone(a.Value(i)), nil }), nil
	case schema.RootBytes:
		return typed(t, func(a *array.Binary, i int) (any, error) { return cloneBytes(a.Value(i)), nil }), nil
	case schema.RootBinary:
		return typed(t, func(a *array.FixedSizeBinary, i int) (any, error) { return cloneBytes(a.Value(i)), nil }), nil
	case schema.RootDecimal:
		p, s := t.Precision, t.Scale
		return typed(t, func(a *array.Decimal128, i int) (any, error) { return decimalOf(a.Value(i), p, s) }), nil
	case schema.RootDate:
		return typed(t, func(a *array.Date32, i int) (any, error) { return codec.Date(a.Value(i)), nil }), nil
	case schema.RootTime:
		return timeGetter(t)
	case schema.RootTimestamp, schema.RootTimestampLTZ:
		return timestampGetter(t)
	case schema.RootArray:
		elem, err := newGetter(*t.Elem)
		if err != nil {
			return nil, err
		}
		return listGetter(t, elem), nil
	case schema.RootMap:
		return mapGetter(t)
	case schema.RootRow:
		return rowGetter(t)
	}
	return nil, fmt.Errorf("arrowipc: unsupported Fluss type %s", t.Root)
}

func cloneBytes(b []byte) []byte { return append(make([]byte, 0, len(b)), b...) }

func decimalOf(n decimal128.Num, precision, scale int) (any, error) {
	hi, lo := n.HighBits(), n.LowBits()
	if (hi == 0 && lo < 1<<63) || (hi == -1 && lo >= 1<<63) {
		return codec.NewDecimal(int64(lo), precision, scale)
	}
	return codec.NewDecimalBig(n.BigInt(), precision, scale)
}

func timeGetter(t schema.DataType) (getterFactory, error) {
	unit, err := timeUnit(t)
	if err != nil {
		return nil, err
	}
	switch unit {
	case arrow.Second:
		return typed(t, func(a *array.Time32, i int) (any, error) { return codec.Time(int32(a.Value(i)) * 1000), nil }), nil
	case arrow.Millisecond:
		return typed(t, func(a *array.Time32, i int) (any, error) { return codec.Time(a.Value(i)), nil }), nil
	case arrow.Microsecond:
		return typed(t, func(a *array.Time64, i int) (any, error) { return codec.Time(int64(a.Value(i)) / 1000), nil }), nil
	}
	return typed(t, func(a *array.Time64, i int) (any, error) { return codec.Time(int64(a.Value(i)) / 1000000), nil }), nil
}

// splitUnits converts v units to epoch millis + nano-of-milli.
func splitUnits(v int64, unit arrow.TimeUnit) (int64, int32) {
	switch unit {
	case arrow.Second:
		return v * 1000, 0
	case arrow.Millisecond:
		return v, 0
	case arrow.Microsecond:
		ms, rem := floorDivMod(v, 1000)
		return ms, int32(rem * 1000)
	}
	ms, rem := floorDivMod(v, 1000000)
	return ms, int32(rem)
}

func floorDivMod(a, b int64) (int64, int64) {
	q, r := a/b, a%b
	if r < 0 {
		q, r = q-1, r+b
	}
	return q, r
}

func timestampGetter(t schema.DataType) (getterFactory, error) {
	unit, err := timeUnit(t)
	if err != nil {
		return nil, err
	}
	if t.Root == schema.RootTimestampLTZ {
		return typed(t, func(a *array.Timestamp, i int) (any, error) {
			ms, ns := splitUnits(int64(a.Value(i)), unit)
			return codec.TimestampLTZ{Millis: ms, NanoOfMilli: ns}, nil
		}), nil
	}
	return typed(t, func(a *array.Timestamp, i int) (any, error) {
		ms, ns := splitUnits(int64(a.Value(i)), unit)
		return codec.TimestampNTZ{Millis: ms, NanoOfMilli: ns}, nil
	}), nil
}

func listGetter(t schema.DataType, elem getterFactory) getterFactory {
	return bound(t, func(a *array.List) (getter, error) {
		get, err := elem(a.ListValues())
		if err != nil {
			return nil, err
		}
		return func(i int) (any, error) {
			start, end := a.ValueOffsets(i)
			out := make([]any, end-start)
			for j := range out {
				v, err := get(int(start) + j)
				if err != nil {
					return nil, err
				}
				out[j] = v
			}
			return out, nil
		}, nil
	})
}

func mapGetter(t schema.DataType) (getterFactory, error) {
	keyF, err := newGetter(t.Key.NotNull())
	if err != nil {
		return nil, err
	}
	valF, err := newGetter(*t.Value)
	if err != nil {
		return nil, err
	}
	return bound(t, func(a *array.Map) (getter, error) {
		keys, err := keyF(a.Keys())
		if err != nil {
			return nil, err
		}
		vals, err := valF(a.Items())
		if err != nil {
			return nil, err
		}
		return func(i int) (any, error) {
			start, end := a.ValueOffsets(i)
			m := codec.Map{Keys: make([]any, end-start), Values: make([]any, end-start)}
			for j := range m.Keys {
				k, err := keys(int(start) + j)
				if err != nil {
					return nil, err
				}
				if k == nil {
					return nil, corrupt("NULL map key")
				}
				v, err := vals(int(start) + j)
				if err != nil {
					return nil, err
				}
				m.Keys[j], m.Values[j] = k, v
			}
			return m, nil
		}, nil
	}), nil
}

func rowGetter(t schema.DataType) (getterFactory, error) {
	fields := make([]getterFactory, len(t.Fields))
	for i, f := range t.Fields {
		g, err := newGetter(f.Type)
		if err != nil {
			return nil, err
		}
		fields[i] = g
	}
	return bound(t, func(a *array.Struct) (getter, error) {
		if a.NumField() != len(fields) {
			return nil, wrongArray(t, a)
		}
		gets := make([]getter, len(fields))
		for i, mk := range fields {
			g, err := mk(a.Field(i))
			if err != nil {
				return nil, err
			}
			gets[i] = g
		}
		return func(i int) (any, error) {
			out := make([]any, len(gets))
			for j, g := range gets {
				v, err := g(i)
				if err != nil {
					return nil, err
				}
				out[j] = v
			}
			return out, nil
		}, nil
	}), nil
}
