package codec

import (
	"reflect"
	"testing"

	"github.com/gofluss/fluss/flussrpc/schema"
)

// Fuzz targets: arbitrary bytes must yield a value or an error, never a
// panic. Seeds are valid encodings so the fuzzer starts from real layouts.

func FuzzCompactedDecode(f *testing.F) {
	types, row := fullRow(f)
	enc, _ := NewCompactedEncoder(types)
	b, err := enc.Encode(row)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(append([]byte(nil), b...))
	f.Add([]byte{})
	dec, _ := NewCompactedDecoder(types)
	f.Fuzz(func(t *testing.T, data []byte) {
		want, err := dec.Decode(data)
		// DecodeCompactedFields reads the same row the same way.
		c := &rowCollector{types: types, row: make([]any, len(types))}
		ferr := DecodeCompactedFields(c, types, data)
		if (err == nil) != (ferr == nil) {
			t.Fatalf("Decode: %v, DecodeCompactedFields: %v", err, ferr)
		}
		if err == nil && !reflect.DeepEqual(c.row, want) {
			t.Fatalf("DecodeCompactedFields gave %#v, Decode %#v", c.row, want)
		}
	})
}

// rowCollector is a FieldVisitor that rebuilds the row Decode returns.
type rowCollector struct {
	types []schema.DataType
	row   []any
}

func (c *rowCollector) Null(col int)         { c.row[col] = nil }
func (c *rowCollector) Bool(col int, v bool) { c.row[col] = v }
func (c *rowCollector) Value(col int, v any) { c.row[col] = v }

func (c *rowCollector) Int(col int, v int64) {
	switch c.types[col].Root {
	case schema.RootTinyInt:
		c.row[col] = int8(v)
	case schema.RootSmallInt:
		c.row[col] = int16(v)
	case schema.RootInt:
		c.row[col] = int32(v)
	default:
		c.row[col] = v
	}
}

func (c *rowCollector) Float(col int, v float64) {
	if c.types[col].Root == schema.RootFloat {
		c.row[col] = float32(v)
		return
	}
	c.row[col] = v
}

func (c *rowCollector) Bytes(col int, v []byte) {
	if c.types[col].Root == schema.RootBytes {
		c.row[col] = append([]byte{}, v...)
		return
	}
	c.row[col] = string(v)
}

func FuzzIndexedDecode(f *testing.F) {
	types, row := fullRow(f)
	enc, _ := NewIndexedEncoder(types)
	b, err := enc.Encode(row)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(append([]byte(nil), b...))
	dec, _ := NewIndexedDecoder(types)
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = dec.Decode(data)
	})
}

func FuzzCompactedKeyDecode(f *testing.F) {
	types, _ := allKeyTypesRow(f)
	f.Add(readHex(f, "compacted_key_all_types.hex"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = DecodeCompactedKey(types, data)
	})
}

func FuzzLogBatches(f *testing.F) {
	enc, _ := NewCompactedEncoder(testTypes)
	bb, _ := NewLogBatchBuilder(LogCompacted, 1, enc, false)
	_ = bb.Append(Insert, []any{int32(1), "a"})
	_ = bb.Append(UpdateBefore, []any{int32(2), nil})
	one := append([]byte(nil), bb.Build()...)
	f.Add(append(append([]byte(nil), one...), one[:20]...), false)
	f.Add(legacyV1(1, 1, []byte{3, 0, 0, 0, 0, 0, 1}), false)
	f.Add(statsBatch(2, []byte{1}, nil), true)
	arrow, _ := BuildArrowBatch(nil, ArrowBatch{RecordCount: 2, ChangeTypes: []ChangeType{1, 4}, Body: []byte{1, 2}})
	f.Add(arrow, true)
	dec, _ := NewCompactedDecoder(testTypes)
	f.Fuzz(func(t *testing.T, data []byte, line1x bool) {
		line := Line09
		if line1x {
			line = Line1x
		}
		it := NewLogBatchIterator(data, line)
		for {
			b, ok := it.Next()
			if !ok {
				break
			}
			_ = b.VerifyCRC()
			_, _ = b.Records(dec)
			_, _, _ = b.ArrowPayload()
		}
	})
}

func FuzzKvAndValueBatches(f *testing.F) {
	kb := NewKvBatchBuilder(1)
	_ = kb.Append([]byte{1}, []byte{0, 2})
	_ = kb.Append([]byte{2, 3}, nil)
	f.Add(append([]byte(nil), kb.Build()...))
	f.Add(BuildValueBatch(nil, []ValueRecord{{SchemaID: 1, Row: []byte{0, 5}}}))
	dec, _ := NewCompactedDecoder([]schema.DataType{schema.Int()})
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ParseKvBatch(data)
		recs, _ := ParseValueBatch(data)
		for _, r := range recs {
			_, _ = dec.Decode(r.Row)
		}
		if v, err := ParseLookupValue(data); err == nil {
			_, _ = dec.Decode(v.Row)
		}
	})
}
