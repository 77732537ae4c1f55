package typeconv

import (
	"bytes"
	"database/sql/driver"
	"encoding/base64"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// OutOptions control how FromValue renders values.
type OutOptions struct {
	// Location is the session time zone: TIMESTAMP_LTZ instants are
	// returned in it, and DATE values as midnight in it. nil means UTC.
	Location *time.Location
	// Native returns ARRAY, MAP and ROW values as Go values ([]any,
	// map[string]any, map[any]any, []MapEntry; see FromValue) instead of
	// JSON text. Such values scan only into *any or a sql.Scanner.
	Native bool
}

// MapEntry is one entry of a MAP returned natively when its keys cannot be
// Go map keys (BYTES, BINARY, ARRAY, MAP and ROW keys).
type MapEntry struct {
	Key   any
	Value any
}

// FromValue converts a codec value read from a column of type t into the
// driver.Value returned by Rows.Next:
//
//	BOOLEAN                         bool
//	TINYINT, SMALLINT, INT, BIGINT  int64
//	FLOAT, DOUBLE                   float64 (FLOAT widened exactly)
//	CHAR, STRING                    string
//	BINARY, BYTES                   []byte (a fresh copy)
//	DECIMAL                         string, exact, with exactly scale fractional digits
//	DATE                            time.Time, midnight in opts.Location
//	TIME                            time.Time on 0000-01-01 in UTC
//	TIMESTAMP                       time.Time, the wall clock in UTC
//	TIMESTAMP_LTZ                   time.Time, the instant in opts.Location
//	ARRAY, MAP, ROW                 string, JSON text (see below), or with opts.Native:
//	  ARRAY                         []any
//	  MAP                           map[string]any (CHAR/STRING keys),
//	                                []MapEntry (BYTES/BINARY/ARRAY/MAP/ROW keys),
//	                                map[any]any (other keys)
//	  ROW                           map[string]any by field name
//
// nil (NULL) is returned as nil. Elements of native values follow the same
// table. The JSON text is deterministic: arrays in order; ROW as an object
// with the fields in declaration order; MAP as an object in stored order
// when the key type is CHAR/STRING and as [{"key":k,"value":v},...]
// otherwise; numbers and DECIMAL as JSON numbers (exact text); FLOAT and
// DOUBLE NaN/±Inf as the strings "NaN", "Infinity", "-Infinity"; BYTES as
// base64 strings; DATE "2006-01-02"; TIME "15:04:05[.fff]" and TIMESTAMP
// "2006-01-02T15:04:05[.ffffff]" with exactly the column precision of
// fractional digits; TIMESTAMP_LTZ the same plus its offset in
// opts.Location ("Z" for UTC). ToValue accepts this text back for the
// same type.
//
// A value of the wrong Go type for t is a *ConversionError.
func FromValue(t schema.DataType, v any, opts OutOptions) (driver.Value, error) {
	if v == nil || unchanged(t.Root, v) {
		// Most values of a result (BIGINT, DOUBLE, STRING, ...) are
		// returned as they are: this check is all they cost.
		return v, nil
	}
	o := outConv{opts: opts}
	if o.opts.Location == nil {
		o.opts.Location = time.UTC
	}
	switch t.Root {
	case schema.RootArray, schema.RootMap, schema.RootRow:
		if opts.Native {
			return o.native(t, v, "", 0)
		}
		var b []byte
		b, err := o.appendJSON(b, t, v, "", 0)
		if err != nil {
			return nil, err
		}
		return string(b), nil
	}
	return o.scalar(t, v, "")
}

type outConv struct {
	opts OutOptions
}

func badValue(t schema.DataType, v any, path string) error {
	return convErr(t, v, path, fmt.Sprintf("unexpected Go value %T for this column type", v), nil)
}

// unchanged reports whether FromValue returns v, a value of a column of
// type root, as it is: it already has its database/sql type.
func unchanged(root schema.TypeRoot, v any) bool {
	switch root {
	case schema.RootBoolean:
		_, ok := v.(bool)
		return ok
	case schema.RootTinyInt, schema.RootSmallInt, schema.RootInt, schema.RootBigInt:
		_, ok := v.(int64)
		return ok
	case schema.RootFloat, schema.RootDouble:
		_, ok := v.(float64)
		return ok
	case schema.RootChar, schema.RootString:
		_, ok := v.(string)
		return ok
	}
	return false
}

// PassesThrough reports whether every codec value of a column of type t
// (see package codec: bool, int64, float64 and string for these types) is
// already its database/sql value, which FromValue would return unchanged:
// a reader of such a column may hand its values on as they are.
func PassesThrough(t schema.DataType) bool {
	switch t.Root {
	case schema.RootBoolean, schema.RootBigInt, schema.RootDouble, schema.RootChar, schema.RootString:
		return true
	}
	return false
}

// scalar converts a non-complex value. A value that already has its
// database/sql type (unchanged) is returned as the same interface value:
// boxing it again would cost an allocation per value of every row read.
func (o *outConv) scalar(t schema.DataType, v any, path string) (driver.Value, error) {
	if unchanged(t.Root, v) {
		return v, nil
	}
	switch t.Root {
	case schema.RootTinyInt, schema.RootSmallInt, schema.RootInt, schema.RootBigInt:
		if n, isInt := asInt(v); isInt {
			return n, nil
		}
		if n, isInt := v.(int); isInt {
			return int64(n), nil
		}
	case schema.RootFloat, schema.RootDouble:
		if f, isFloat := v.(float32); isFloat {
			return float64(f), nil
		}
	case schema.RootBinary, schema.RootBytes:
		if b, isBytes := v.([]byte); isBytes {
			if b == nil {
				return []byte{}, nil
			}
			return bytes.Clone(b), nil
		}
	case schema.RootDecimal:
		switch d := v.(type) {
		case codec.Decimal:
			return d.String(), nil
		case string:
			return d, nil
		}
	case schema.RootDate:
		if d, isDate := dateValue(v); isDate {
			y, m, day := d.Time().Date()
			return time.Date(y, m, day, 0, 0, 0, 0, o.opts.Location), nil
		}
	case schema.RootTime:
		if ms, isTime := timeValue(v); isTime {
			return time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(ms) * time.Millisecond), nil
		}
	case schema.RootTimestamp:
		switch x := v.(type) {
		case codec.TimestampNTZ:
			return x.Time(), nil
		case time.Time:
			return x, nil
		}
	case schema.RootTimestampLTZ:
		switch x := v.(type) {
		case codec.TimestampLTZ:
			return x.Time().In(o.opts.Location), nil
		case time.Time:
			return x.In(o.opts.Location), nil
		}
	case schema.RootArray, schema.RootMap, schema.RootRow:
		// Reached for nested values in native mode.
		return o.native(t, v, path, 0)
	}
	return nil, badValue(t, v, path)
}

func dateValue(v any) (codec.Date, bool) {
	switch x := v.(type) {
	case codec.Date:
		return x, true
	case int32:
		return codec.Date(x), true
	}
	return 0, false
}

func timeValue(v any) (int32, bool) {
	switch x := v.(type) {
	case codec.Time:
		return int32(x), true
	case int32:
		return x, true
	}
	return 0, false
}

func mapValue(v any) (codec.Map, bool) {
	switch m := v.(type) {
	case codec.Map:
		return m, len(m.Keys) == len(m.Values)
	case *codec.Map:
		if m != nil && len(m.Keys) == len(m.Values) {
			return *m, true
		}
	}
	return codec.Map{}, false
}

func isStringType(t *schema.DataType) bool {
	return t != nil && (t.Root == schema.RootString || t.Root == schema.RootChar)
}

// hashableKey reports whether values of key type t can be Go map keys.
func hashableKey(t *schema.DataType) bool {
	switch t.Root {
	case schema.RootBinary, schema.RootBytes, schema.RootArray, schema.RootMap, schema.RootRow:
		return false
	}
	return true
}

// native converts a (possibly nested) value to its native Go form.
func (o *outConv) native(t schema.DataType, v any, path string, depth int) (any, error) {
	if v == nil {
		return nil, nil
	}
	if depth > maxValueDepth {
		return nil, convErr(t, v, path, "value nests too deeply", nil)
	}
	switch t.Root {
	case schema.RootArray:
		a, isArr := v.([]any)
		if !isArr || t.Elem == nil {
			return nil, badValue(t, v, path)
		}
		out := make([]any, len(a))
		for i, e := range a {
			cv, err := o.native(*t.Elem, e, path+"["+strconv.Itoa(i)+"]", depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = cv
		}
		return out, nil
	case schema.RootMap:
		m, isMap := mapValue(v)
		if !isMap || t.Key == nil || t.Value == nil {
			return nil, badValue(t, v, path)
		}
		conv := func(i int) (k, val any, err error) {
			if k, err = o.native(*t.Key, m.Keys[i], path+"{key "+strconv.Itoa(i)+"}", depth+1); err != nil {
				return nil, nil, err
			}
			val, err = o.native(*t.Value, m.Values[i], path+"{"+strconv.Itoa(i)+"}", depth+1)
			return k, val, err
		}
		switch {
		case isStringType(t.Key):
			out := make(map[string]any, len(m.Keys))
			for i := range m.Keys {
				k, val, err := conv(i)
				if err != nil {
					return nil, err
				}
				ks, isStr := k.(string)
				if !isStr {
					return nil, convErr(*t.Key, m.Keys[i], path, "MAP key is NULL", nil)
				}
				out[ks] = val
			}
			return out, nil
		case hashableKey(t.Key):
			out := make(map[any]any, len(m.Keys))
			for i := range m.Keys {
				k, val, err := conv(i)
				if err != nil {
					return nil, err
				}
				out[k] = val
			}
			return out, nil
		default:
			out := make([]MapEntry, len(m.Keys))
			for i := range m.Keys {
				k, val, err := conv(i)
				if err != nil {
					return nil, err
				}
				out[i] = MapEntry{Key: k, Value: val}
			}
			return out, nil
		}
	case schema.RootRow:
		r, isRow := v.([]any)
		if !isRow || len(r) != len(t.Fields) {
			return nil, badValue(t, v, path)
		}
		out := make(map[string]any, len(r))
		for i, f := range t.Fields {
			cv, err := o.native(f.Type, r[i], path+"."+schema.QuoteIdentifier(f.Name), depth+1)
			if err != nil {
				return nil, err
			}
			out[f.Name] = cv
		}
		return out, nil
	}
	return o.scalar(t, v, path)
}

// appendJSON appends the JSON text of v (of type t).
func (o *outConv) appendJSON(b []byte, t schema.DataType, v any, path string, depth int) ([]byte, error) {
	if v == nil {
		return append(b, "null"...), nil
	}
	if depth > maxValueDepth {
		return nil, convErr(t, v, path, "value nests too deeply", nil)
	}
	switch t.Root {
	case schema.RootBoolean:
		x, isBool := v.(bool)
		if !isBool {
			return nil, badValue(t, v, path)
		}
		return strconv.AppendBool(b, x), nil
	case schema.RootTinyInt, schema.RootSmallInt, schema.RootInt, schema.RootBigInt:
		n, isInt := asInt(v)
		if !isInt {
			return nil, badValue(t, v, path)
		}
		return strconv.AppendInt(b, n, 10), nil
	case schema.RootFloat, schema.RootDouble:
		switch f := v.(type) {
		case float32:
			bits := 64
			if t.Root == schema.RootFloat {
				bits = 32
			}
			return appendJSONFloat(b, float64(f), bits), nil
		case float64:
			return appendJSONFloat(b, f, 64), nil
		}
		return nil, badValue(t, v, path)
	case schema.RootChar, schema.RootString:
		s, isStr := v.(string)
		if !isStr {
			return nil, badValue(t, v, path)
		}
		return appendJSONString(b, s), nil
	case schema.RootBinary, schema.RootBytes:
		x, isBytes := v.([]byte)
		if !isBytes {
			return nil, badValue(t, v, path)
		}
		b = append(b, '"')
		b = base64.StdEncoding.AppendEncode(b, x)
		return append(b, '"'), nil
	case schema.RootDecimal:
		d, isDec := v.(codec.Decimal)
		if !isDec {
			return nil, badValue(t, v, path)
		}
		return append(b, d.String()...), nil
	case schema.RootDate:
		d, isDate := dateValue(v)
		if !isDate {
			return nil, badValue(t, v, path)
		}
		b = append(b, '"')
		b = d.Time().AppendFormat(b, "2006-01-02")
		return append(b, '"'), nil
	case schema.RootTime:
		ms, isTime := timeValue(v)
		if !isTime {
			return nil, badValue(t, v, path)
		}
		tt := time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(ms) * time.Millisecond)
		b = append(b, '"')
		b = tt.AppendFormat(b, "15:04:05"+fracLayout(t.Precision))
		return append(b, '"'), nil
	case schema.RootTimestamp, schema.RootTimestampLTZ:
		tv, err := o.scalar(t, v, path)
		if err != nil {
			return nil, err
		}
		layout := "2006-01-02T15:04:05" + fracLayout(t.Precision)
		if t.Root == schema.RootTimestampLTZ {
			layout += "Z07:00"
			if _, off := tv.(time.Time).Zone(); off%60 != 0 {
				// Historical local mean time offsets have seconds; keep
				// them so the text names the same instant.
				layout += ":00"
			}
		}
		b = append(b, '"')
		b = tv.(time.Time).AppendFormat(b, layout)
		return append(b, '"'), nil
	case schema.RootArray:
		a, isArr := v.([]any)
		if !isArr || t.Elem == nil {
			return nil, badValue(t, v, path)
		}
		b = append(b, '[')
		for i, e := range a {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = o.appendJSON(b, *t.Elem, e, path+"["+strconv.Itoa(i)+"]", depth+1); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case schema.RootMap:
		m, isMap := mapValue(v)
		if !isMap || t.Key == nil || t.Value == nil {
			return nil, badValue(t, v, path)
		}
		obj := isStringType(t.Key)
		if obj {
			b = append(b, '{')
		} else {
			b = append(b, '[')
		}
		for i := range m.Keys {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			kp, vp := path+"{key "+strconv.Itoa(i)+"}", path+"{"+strconv.Itoa(i)+"}"
			if obj {
				s, isStr := m.Keys[i].(string)
				if !isStr {
					return nil, convErr(*t.Key, m.Keys[i], kp, "MAP key must be a non-NULL string", nil)
				}
				b = appendJSONString(b, s)
				b = append(b, ':')
			} else {
				b = append(b, `{"key":`...)
				if b, err = o.appendJSON(b, *t.Key, m.Keys[i], kp, depth+1); err != nil {
					return nil, err
				}
				b = append(b, `,"value":`...)
			}
			if b, err = o.appendJSON(b, *t.Value, m.Values[i], vp, depth+1); err != nil {
				return nil, err
			}
			if !obj {
				b = append(b, '}')
			}
		}
		if obj {
			return append(b, '}'), nil
		}
		return append(b, ']'), nil
	case schema.RootRow:
		r, isRow := v.([]any)
		if !isRow || len(r) != len(t.Fields) {
			return nil, badValue(t, v, path)
		}
		b = append(b, '{')
		for i, f := range t.Fields {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, f.Name)
			b = append(b, ':')
			var err error
			if b, err = o.appendJSON(b, f.Type, r[i], path+"."+schema.QuoteIdentifier(f.Name), depth+1); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	}
	return nil, badValue(t, v, path)
}

// fracLayout is a time layout fraction with exactly p digits.
func fracLayout(p int) string {
	if p <= 0 {
		return ""
	}
	return "." + strings.Repeat("0", min(p, 9))
}

// appendJSONFloat formats like encoding/json (shortest representation,
// exponent only for very small or large magnitudes), with NaN and
// infinities as strings since JSON has no literal for them.
func appendJSONFloat(b []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(b, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(b, `"-Infinity"`...)
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	b = strconv.AppendFloat(b, f, format, -1, bits)
	if format == 'e' {
		// Clean up e-09 to e-9, as encoding/json does.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string without HTML escaping;
// invalid UTF-8 becomes U+FFFD, and U+2028/U+2029 are escaped.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

// Types reported by ScanType.
var (
	typeAny       = reflect.TypeFor[any]()
	typeAnySlice  = reflect.TypeFor[[]any]()
	typeStringMap = reflect.TypeFor[map[string]any]()
	typeAnyMap    = reflect.TypeFor[map[any]any]()
	typeEntries   = reflect.TypeFor[[]MapEntry]()
)
