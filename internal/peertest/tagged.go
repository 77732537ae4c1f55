package peertest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
)

// The tagged JSON both peers speak (documented in peers/pyfluss/peer.py
// and in the Java peer's Values class): plain JSON where it is exact, a
// one-key object ($float, $bytes, $decimal, $date, $time, $ts, $map, $row)
// for the rest. Tag and Untag convert between it and the codec value
// model, so a test compares codec values, never spellings.

// TagRow renders a row of codec values of cols as tagged JSON.
func TagRow(cols []schema.Column, row []any) []any {
	out := make([]any, len(row))
	for i, v := range row {
		out[i] = Tag(cols[i].Type, v)
	}
	return out
}

// Tag renders one codec value of type t as tagged JSON.
func Tag(t schema.DataType, v any) any {
	if v == nil {
		return nil
	}
	obj := func(k string, x any) any { return map[string]any{k: x} }
	switch t.Root {
	case schema.RootFloat, schema.RootDouble:
		f, ok := v.(float64)
		if !ok {
			f = float64(v.(float32))
		}
		switch {
		case math.IsNaN(f):
			return obj("$float", "NaN")
		case math.IsInf(f, 1):
			return obj("$float", "Infinity")
		case math.IsInf(f, -1):
			return obj("$float", "-Infinity")
		}
		s := strconv.FormatFloat(f, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0" // a JSON integer would lose the sign of -0
		}
		return json.Number(s)
	case schema.RootTinyInt, schema.RootSmallInt, schema.RootInt, schema.RootBigInt:
		n, _ := codec.AsInt64(v)
		return json.Number(strconv.FormatInt(n, 10))
	case schema.RootBinary, schema.RootBytes:
		return obj("$bytes", base64.StdEncoding.EncodeToString(v.([]byte)))
	case schema.RootDecimal:
		return obj("$decimal", v.(codec.Decimal).String())
	case schema.RootDate:
		return obj("$date", v.(codec.Date).String())
	case schema.RootTime:
		return obj("$time", int64(v.(codec.Time)))
	case schema.RootTimestamp, schema.RootTimestampLTZ:
		var ms int64
		var nano int32
		switch x := v.(type) {
		case codec.TimestampNTZ:
			ms, nano = x.Millis, x.NanoOfMilli
		case codec.TimestampLTZ:
			ms, nano = x.Millis, x.NanoOfMilli
		}
		ns := new(big.Int).Mul(big.NewInt(ms), big.NewInt(1e6))
		return obj("$ts", json.Number(ns.Add(ns, big.NewInt(int64(nano))).String()))
	case schema.RootArray:
		xs := v.([]any)
		out := make([]any, len(xs))
		for i, x := range xs {
			out[i] = Tag(*t.Elem, x)
		}
		return out
	case schema.RootMap:
		m := v.(codec.Map)
		pairs := make([]any, len(m.Keys))
		for i := range m.Keys {
			pairs[i] = []any{Tag(*t.Key, m.Keys[i]), Tag(*t.Value, m.Values[i])}
		}
		return obj("$map", pairs)
	case schema.RootRow:
		xs := v.([]any)
		out := make([]any, len(xs))
		for i, f := range t.Fields {
			out[i] = Tag(f.Type, xs[i])
		}
		return obj("$row", out)
	}
	return v // BOOLEAN, CHAR, STRING
}

// UntagRow decodes a row of tagged JSON into codec values of cols.
func UntagRow(cols []schema.Column, raw []json.RawMessage) ([]any, error) {
	if len(raw) != len(cols) {
		return nil, fmt.Errorf("peertest: row of %s for %s", plural.Count(len(raw), "value"), plural.Count(len(cols), "column"))
	}
	out := make([]any, len(cols))
	for i, r := range raw {
		x, err := decodeJSON(r)
		if err != nil {
			return nil, err
		}
		if out[i], err = Untag(cols[i].Type, x); err != nil {
			return nil, fmt.Errorf("peertest: column %q: %w", cols[i].Name, err)
		}
	}
	return out, nil
}

func decodeJSON(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var x any
	err := dec.Decode(&x)
	return x, err
}

// Untag turns one tagged JSON value (decoded with UseNumber) of type t
// into the codec value model.
func Untag(t schema.DataType, x any) (any, error) {
	if x == nil {
		return nil, nil
	}
	tag := func(k string) (any, error) {
		m, ok := x.(map[string]any)
		if !ok || len(m) != 1 || m[k] == nil {
			return nil, fmt.Errorf("want {%q: ...} for %s, got %v", k, t, x)
		}
		return m[k], nil
	}
	text := func(k string) (string, error) {
		v, err := tag(k)
		if err != nil {
			return "", err
		}
		s, ok := v.(string)
		if !ok {
			return fmt.Sprint(v), nil
		}
		return s, nil
	}
	switch t.Root {
	case schema.RootBoolean:
		b, ok := x.(bool)
		if !ok {
			return nil, fmt.Errorf("want a boolean, got %v", x)
		}
		return b, nil
	case schema.RootTinyInt, schema.RootSmallInt, schema.RootInt, schema.RootBigInt:
		n, err := strconv.ParseInt(fmt.Sprint(x), 10, 64)
		if err != nil {
			return nil, err
		}
		switch t.Root {
		case schema.RootTinyInt:
			return int8(n), nil
		case schema.RootSmallInt:
			return int16(n), nil
		case schema.RootInt:
			return int32(n), nil
		}
		return n, nil
	case schema.RootFloat, schema.RootDouble:
		var f float64
		if s, err := text("$float"); err == nil {
			f, err = strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, err
			}
		} else if num, ok := x.(json.Number); ok {
			if f, err = strconv.ParseFloat(string(num), 64); err != nil {
				return nil, err
			}
		} else {
			return nil, fmt.Errorf("want a number, got %v", x)
		}
		if t.Root == schema.RootFloat {
			return float32(f), nil
		}
		return f, nil
	case schema.RootChar, schema.RootString:
		s, ok := x.(string)
		if !ok {
			return nil, fmt.Errorf("want a string, got %v", x)
		}
		return s, nil
	case schema.RootBinary, schema.RootBytes:
		s, err := text("$bytes")
		if err != nil {
			return nil, err
		}
		return base64.StdEncoding.DecodeString(s)
	case schema.RootDecimal:
		s, err := text("$decimal")
		if err != nil {
			return nil, err
		}
		// Peers may drop trailing zeros; scale the text to the column's.
		r, ok := new(big.Rat).SetString(s)
		if !ok {
			return nil, fmt.Errorf("bad decimal %q", s)
		}
		return codec.ParseDecimal(r.FloatString(t.Scale), t.Precision, t.Scale)
	case schema.RootDate:
		s, err := text("$date")
		if err != nil {
			return nil, err
		}
		d, err := time.Parse("2006-01-02", s)
		if err != nil {
			return nil, err
		}
		return codec.DateOf(d), nil
	case schema.RootTime:
		s, err := text("$time")
		if err != nil {
			return nil, err
		}
		ms, err := strconv.ParseInt(s, 10, 32)
		return codec.Time(ms), err
	case schema.RootTimestamp, schema.RootTimestampLTZ:
		s, err := text("$ts")
		if err != nil {
			return nil, err
		}
		ns, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return nil, fmt.Errorf("bad nanoseconds %q", s)
		}
		ms, nano := new(big.Int).DivMod(ns, big.NewInt(1e6), new(big.Int)) // Euclidean: nano ≥ 0
		if t.Root == schema.RootTimestamp {
			return codec.TimestampNTZ{Millis: ms.Int64(), NanoOfMilli: int32(nano.Int64())}, nil
		}
		return codec.TimestampLTZ{Millis: ms.Int64(), NanoOfMilli: int32(nano.Int64())}, nil
	case schema.RootArray:
		xs, ok := x.([]any)
		if !ok {
			return nil, fmt.Errorf("want a list, got %v", x)
		}
		out := make([]any, len(xs))
		for i, e := range xs {
			v, err := Untag(*t.Elem, e)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case schema.RootMap:
		v, err := tag("$map")
		if err != nil {
			return nil, err
		}
		pairs, _ := v.([]any)
		var m codec.Map
		for _, p := range pairs {
			kv, ok := p.([]any)
			if !ok || len(kv) != 2 {
				return nil, fmt.Errorf("bad map entry %v", p)
			}
			k, err := Untag(*t.Key, kv[0])
			if err != nil {
				return nil, err
			}
			val, err := Untag(*t.Value, kv[1])
			if err != nil {
				return nil, err
			}
			m.Keys, m.Values = append(m.Keys, k), append(m.Values, val)
		}
		return m, nil
	case schema.RootRow:
		v, err := tag("$row")
		if err != nil {
			return nil, err
		}
		xs, ok := v.([]any)
		if !ok || len(xs) != len(t.Fields) {
			return nil, fmt.Errorf("want %s, got %v", plural.Count(len(t.Fields), "row field"), v)
		}
		out := make([]any, len(xs))
		for i, f := range t.Fields {
			if out[i], err = Untag(f.Type, xs[i]); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("unsupported type %s", t)
}
