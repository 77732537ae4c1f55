package schema

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
)

// jsonWriter emits JSON objects with a fixed key order. Go's encoding/json
// would order struct fields by declaration and map keys alphabetically; the
// Java serialisers use a specific order, and matching it keeps our documents
// byte-comparable with the Java client's (handy in golden tests and logs).
type jsonWriter struct {
	buf      bytes.Buffer
	comma    []bool // per open container: whether an element was already written
	afterKey bool   // the next value belongs to the key just written
}

// sep writes the comma that separates container elements, except for the
// value directly following an object key.
func (w *jsonWriter) sep() {
	if w.afterKey {
		w.afterKey = false
		return
	}
	if n := len(w.comma); n > 0 {
		if w.comma[n-1] {
			w.buf.WriteByte(',')
		}
		w.comma[n-1] = true
	}
}

func (w *jsonWriter) open(c byte) {
	w.sep()
	w.buf.WriteByte(c)
	w.comma = append(w.comma, false)
}

func (w *jsonWriter) close(c byte) {
	w.comma = w.comma[:len(w.comma)-1]
	w.buf.WriteByte(c)
}

func (w *jsonWriter) beginObject() { w.open('{') }
func (w *jsonWriter) endObject()   { w.close('}') }
func (w *jsonWriter) beginArray()  { w.open('[') }
func (w *jsonWriter) endArray()    { w.close(']') }

// key writes an object key; exactly one value must follow.
func (w *jsonWriter) key(k string) {
	w.sep()
	w.quote(k)
	w.buf.WriteByte(':')
	w.afterKey = true
}

// quote writes s as a JSON string without HTML escaping (Jackson does not
// escape <, > or &).
func (w *jsonWriter) quote(s string) {
	var tmp bytes.Buffer
	enc := json.NewEncoder(&tmp)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // encoding a string cannot fail
	w.buf.Write(bytes.TrimSuffix(tmp.Bytes(), []byte{'\n'}))
}

func (w *jsonWriter) str(s string) {
	w.sep()
	w.quote(s)
}

func (w *jsonWriter) num(n int) {
	w.sep()
	w.buf.WriteString(strconv.Itoa(n))
}

func (w *jsonWriter) boolean(b bool) {
	w.sep()
	w.buf.WriteString(strconv.FormatBool(b))
}

func (w *jsonWriter) strField(k, v string) { w.key(k); w.str(v) }
func (w *jsonWriter) numField(k string, v int) {
	w.key(k)
	w.num(v)
}

func (w *jsonWriter) strings(k string, vs []string) {
	w.key(k)
	w.beginArray()
	for _, v := range vs {
		w.str(v)
	}
	w.endArray()
}

// stringMap writes a string map with sorted keys (the Java side uses hash
// order, which is not stable anyway; readers treat it as a map).
func (w *jsonWriter) stringMap(k string, m map[string]string) {
	w.key(k)
	w.beginObject()
	keys := make([]string, 0, len(m))
	for key := range m {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		w.strField(key, m[key])
	}
	w.endObject()
}
