package codec

import (
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
)

// FieldVisitor receives the fields of a row that DecodeCompactedFields
// reads, in column order. The scalar types that dominate wide scans come
// unboxed, so that a consumer building columns (an Arrow builder) makes no
// value per field; every other type comes as its codec value.
type FieldVisitor interface {
	// Null is a NULL field.
	Null(col int)
	// Bool is a BOOLEAN.
	Bool(col int, v bool)
	// Int is a TINYINT, SMALLINT, INT or BIGINT.
	Int(col int, v int64)
	// Float is a FLOAT (widened exactly) or a DOUBLE.
	Float(col int, v float64)
	// Bytes is a CHAR, STRING or BYTES: a view of the row's bytes, valid
	// only during the call.
	Bytes(col int, v []byte)
	// Value is a field of any other type, in the value model (as
	// RowDecoder decodes it).
	Value(col int, v any)
}

// DecodeCompactedFields reads one compacted row of the given column types
// that occupies all of b, handing each field to v. It is RowDecoder.Decode
// without the row: the fields go to v as they are read, so on an error v
// may have received some of them.
func DecodeCompactedFields(v FieldVisitor, types []schema.DataType, b []byte) error {
	r := reader{b: b}
	bits, err := r.bytes(bitsetBytes(len(types)))
	if err != nil {
		return err
	}
	for i, t := range types {
		if nullBit(bits, i) {
			v.Null(i)
			continue
		}
		if err := visitCompacted(v, i, &r, t); err != nil {
			return colErr(i, err)
		}
	}
	if r.remaining() != 0 {
		return corrupt("%s after compacted row", plural.Count(r.remaining(), "trailing byte"))
	}
	return nil
}

// visitCompacted reads the non-null field col of type t and hands it to v.
func visitCompacted(v FieldVisitor, col int, r *reader, t schema.DataType) error {
	switch t.Root {
	case schema.RootBoolean, schema.RootTinyInt, schema.RootSmallInt, schema.RootFloat, schema.RootDouble:
		b, err := r.bytes(fixedWidth(t.Root))
		if err != nil {
			return err
		}
		// As fixedValue reads them, without boxing.
		switch t.Root {
		case schema.RootBoolean:
			v.Bool(col, b[0] != 0)
		case schema.RootTinyInt:
			v.Int(col, int64(int8(b[0])))
		case schema.RootSmallInt:
			v.Int(col, int64(int16(le.Uint16(b))))
		case schema.RootFloat:
			v.Float(col, float64(float32From(le.Uint32(b))))
		default:
			v.Float(col, float64From(le.Uint64(b)))
		}
	case schema.RootInt:
		n, err := r.varint32()
		if err != nil {
			return err
		}
		v.Int(col, int64(n))
	case schema.RootBigInt:
		n, err := r.varint64()
		if err != nil {
			return err
		}
		v.Int(col, n)
	case schema.RootChar, schema.RootString, schema.RootBytes:
		b, err := r.lenPrefixed()
		if err != nil {
			return err
		}
		v.Bytes(col, b)
	default:
		x, err := readCompactedValue(r, t)
		if err != nil {
			return err
		}
		v.Value(col, x)
	}
	return nil
}
