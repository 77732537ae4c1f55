package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/gofluss/fluss/internal/plural"
)

// JSON keys of DataTypeJsonSerde.
const (
	keyType        = "type"
	keyNullable    = "nullable"
	keyLength      = "length"
	keyPrecision   = "precision"
	keyScale       = "scale"
	keyElementType = "element_type"
	keyKeyType     = "key_type"
	keyValueType   = "value_type"
	keyFields      = "fields"
	keyFieldName   = "name"
	keyFieldType   = "field_type"
	keyFieldID     = "field_id"
	keyFieldDesc   = "description"
)

// MarshalJSON encodes t as Fluss data type JSON: "nullable" only when false,
// then the root-specific parameters.
func (t DataType) MarshalJSON() ([]byte, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	var w jsonWriter
	t.writeJSON(&w)
	return w.buf.Bytes(), nil
}

func (t DataType) writeJSON(w *jsonWriter) {
	w.beginObject()
	w.strField(keyType, rootNames[t.Root])
	if !t.Nullable {
		w.key(keyNullable)
		w.boolean(false)
	}
	switch t.Root {
	case RootChar, RootBinary:
		w.numField(keyLength, t.Length)
	case RootDecimal:
		w.numField(keyPrecision, t.Precision)
		w.numField(keyScale, t.Scale)
	case RootTime, RootTimestamp, RootTimestampLTZ:
		w.numField(keyPrecision, t.Precision)
	case RootArray:
		w.key(keyElementType)
		t.Elem.writeJSON(w)
	case RootMap:
		w.key(keyKeyType)
		t.Key.writeJSON(w)
		w.key(keyValueType)
		t.Value.writeJSON(w)
	case RootRow:
		w.key(keyFields)
		w.beginArray()
		for _, f := range t.Fields {
			writeFieldJSON(w, f)
		}
		w.endArray()
	}
	w.endObject()
}

func writeFieldJSON(w *jsonWriter, f Field) {
	w.beginObject()
	w.strField(keyFieldName, f.Name)
	w.key(keyFieldType)
	f.Type.writeJSON(w)
	if f.Description != "" {
		w.strField(keyFieldDesc, f.Description)
	}
	w.numField(keyFieldID, f.ID)
	w.endObject()
}

// UnmarshalJSON decodes Fluss data type JSON. A missing "nullable" means
// nullable; a ROW field without "field_id" gets UnknownID. Unknown keys are
// ignored. The decoded type is validated.
func (t *DataType) UnmarshalJSON(data []byte) error {
	obj, err := decodeObject(data)
	if err != nil {
		return err
	}
	var d DataType
	if err := d.fromObject(obj, 0); err != nil {
		return err
	}
	if err := d.Validate(); err != nil {
		return err
	}
	*t = d
	return nil
}

// jsonObject is a decoded JSON object whose values are decoded lazily.
type jsonObject map[string]json.RawMessage

func decodeObject(data []byte) (jsonObject, error) {
	var obj jsonObject
	if err := json.Unmarshal(data, &obj); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	if obj == nil {
		return nil, errors.New("schema: expected a JSON object, got null")
	}
	return obj, nil
}

func (o jsonObject) has(k string) bool {
	v, ok := o[k]
	return ok && string(v) != "null"
}

// str reads a string value. Like Jackson's asText, numbers and booleans are
// accepted and rendered as their literal text.
func (o jsonObject) str(k string) (string, error) {
	raw, ok := o[k]
	if !ok {
		return "", fmt.Errorf("schema: missing key %q", k)
	}
	return rawText(raw, k)
}

func rawText(raw json.RawMessage, k string) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", fmt.Errorf("schema: key %q: %w", k, err)
	}
	switch x := v.(type) {
	case float64, bool:
		return string(raw), nil
	case nil:
		return "", nil
	default:
		return "", fmt.Errorf("schema: key %q: expected a string, got %T", k, x)
	}
}

func (o jsonObject) integer(k string) (int, error) {
	raw, ok := o[k]
	if !ok {
		return 0, fmt.Errorf("schema: missing key %q", k)
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil {
		return 0, fmt.Errorf("schema: key %q: %w", k, err)
	}
	v, err := strconv.ParseInt(string(n), 10, 32)
	if err != nil {
		return 0, fmt.Errorf("schema: key %q: %w", k, err)
	}
	return int(v), nil
}

func (o jsonObject) optInt(k string, def int) (int, error) {
	if !o.has(k) {
		return def, nil
	}
	return o.integer(k)
}

func (o jsonObject) optStr(k string) (string, error) {
	if !o.has(k) {
		return "", nil
	}
	return o.str(k)
}

func (o jsonObject) strList(k string) ([]string, error) {
	if !o.has(k) {
		return nil, nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(o[k], &raws); err != nil {
		return nil, fmt.Errorf("schema: key %q: %w", k, err)
	}
	out := make([]string, len(raws))
	for i, r := range raws {
		s, err := rawText(r, k)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

func (o jsonObject) strMap(k string) (map[string]string, error) {
	out := map[string]string{}
	if !o.has(k) {
		return out, nil
	}
	var raws map[string]json.RawMessage
	if err := json.Unmarshal(o[k], &raws); err != nil {
		return nil, fmt.Errorf("schema: key %q: %w", k, err)
	}
	for mk, r := range raws {
		s, err := rawText(r, k)
		if err != nil {
			return nil, err
		}
		out[mk] = s
	}
	return out, nil
}

// maxTypeDepth bounds type nesting on read. Each level re-scans its
// subtree, so unbounded depth would make hostile input quadratic; real
// schemas nest a handful of levels.
const maxTypeDepth = 64

func (o jsonObject) child(k string, depth int) (*DataType, error) {
	if depth >= maxTypeDepth {
		return nil, fmt.Errorf("schema: data type nested deeper than %s", plural.Count(maxTypeDepth, "level"))
	}
	raw, ok := o[k]
	if !ok {
		return nil, fmt.Errorf("schema: missing key %q", k)
	}
	obj, err := decodeObject(raw)
	if err != nil {
		return nil, err
	}
	var d DataType
	if err := d.fromObject(obj, depth+1); err != nil {
		return nil, err
	}
	return &d, nil
}

func (t *DataType) fromObject(o jsonObject, depth int) error {
	name, err := o.str(keyType)
	if err != nil {
		return err
	}
	root, ok := ParseTypeRoot(name)
	if !ok {
		return fmt.Errorf("schema: unsupported type root %q", name)
	}
	t.Root, t.Nullable = root, true
	if o.has(keyNullable) {
		if err := json.Unmarshal(o[keyNullable], &t.Nullable); err != nil {
			return fmt.Errorf("schema: key %q: %w", keyNullable, err)
		}
	}
	return t.paramsFromObject(o, depth)
}

func (t *DataType) paramsFromObject(o jsonObject, depth int) (err error) {
	switch t.Root {
	case RootChar, RootBinary:
		t.Length, err = o.integer(keyLength)
	case RootDecimal:
		if t.Precision, err = o.integer(keyPrecision); err == nil {
			t.Scale, err = o.integer(keyScale)
		}
	case RootTime, RootTimestamp, RootTimestampLTZ:
		t.Precision, err = o.integer(keyPrecision)
	case RootArray:
		t.Elem, err = o.child(keyElementType, depth)
	case RootMap:
		if t.Key, err = o.child(keyKeyType, depth); err == nil {
			t.Value, err = o.child(keyValueType, depth)
		}
	case RootRow:
		t.Fields, err = fieldsFromObject(o, depth)
	}
	return err
}

func fieldsFromObject(o jsonObject, depth int) ([]Field, error) {
	var raws []json.RawMessage
	if err := json.Unmarshal(o[keyFields], &raws); err != nil {
		return nil, fmt.Errorf("schema: key %q: %w", keyFields, err)
	}
	fields := make([]Field, 0, len(raws))
	for _, raw := range raws {
		fo, err := decodeObject(raw)
		if err != nil {
			return nil, err
		}
		f := Field{}
		if f.Name, err = fo.str(keyFieldName); err != nil {
			return nil, err
		}
		ft, err := fo.child(keyFieldType, depth)
		if err != nil {
			return nil, err
		}
		f.Type = *ft
		if f.Description, err = fo.optStr(keyFieldDesc); err != nil {
			return nil, err
		}
		if f.ID, err = fo.optInt(keyFieldID, UnknownID); err != nil {
			return nil, err
		}
		fields = append(fields, f)
	}
	return fields, nil
}
