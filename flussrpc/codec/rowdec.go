package codec

import (
	"fmt"

	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
)

// RowDecoder decodes rows of a fixed schema from a binary row format into
// the canonical value model (see the package documentation). Decoded
// strings and byte slices are copies, so the input may be reused. Safe for
// concurrent use (it holds no mutable state).
type RowDecoder struct {
	format RowFormat
	types  []schema.DataType
}

// NewRowDecoder returns a decoder for rows with the given column types.
func NewRowDecoder(format RowFormat, types []schema.DataType) (*RowDecoder, error) {
	if err := checkTypes(format, types); err != nil {
		return nil, err
	}
	return &RowDecoder{format: format, types: types}, nil
}

// NewCompactedDecoder is NewRowDecoder(FormatCompacted, types).
func NewCompactedDecoder(types []schema.DataType) (*RowDecoder, error) {
	return NewRowDecoder(FormatCompacted, types)
}

// NewIndexedDecoder is NewRowDecoder(FormatIndexed, types).
func NewIndexedDecoder(types []schema.DataType) (*RowDecoder, error) {
	return NewRowDecoder(FormatIndexed, types)
}

// Format returns the decoder's row format.
func (d *RowDecoder) Format() RowFormat { return d.format }

// NumColumns returns the number of columns decoded per row.
func (d *RowDecoder) NumColumns() int { return len(d.types) }

// Decode decodes one row that must occupy all of b.
func (d *RowDecoder) Decode(b []byte) ([]any, error) {
	return d.DecodeInto(make([]any, len(d.types)), b)
}

// DecodeInto is Decode writing into dst, which must have one element per
// column; it returns dst.
func (d *RowDecoder) DecodeInto(dst []any, b []byte) ([]any, error) {
	if len(dst) != len(d.types) {
		return nil, fmt.Errorf("codec: DecodeInto needs %s, got %d", plural.Count(len(d.types), "slot"), len(dst))
	}
	return decodeRow(dst, d.format, d.types, b)
}

func decodeRow(dst []any, format RowFormat, types []schema.DataType, b []byte) ([]any, error) {
	if format == FormatIndexed {
		return decodeIndexedRow(dst, types, b)
	}
	return decodeCompactedRow(dst, types, b)
}

func decodeCompactedRow(dst []any, types []schema.DataType, b []byte) ([]any, error) {
	r := reader{b: b}
	bits, err := r.bytes(bitsetBytes(len(types)))
	if err != nil {
		return nil, err
	}
	for i, t := range types {
		if nullBit(bits, i) {
			dst[i] = nil
			continue
		}
		if dst[i], err = readCompactedValue(&r, t); err != nil {
			return nil, colErr(i, err)
		}
	}
	if r.remaining() != 0 {
		return nil, corrupt("%s after compacted row", plural.Count(r.remaining(), "trailing byte"))
	}
	return dst, nil
}

// readCompactedValue reads one non-null value (row field or key field).
func readCompactedValue(r *reader, t schema.DataType) (any, error) {
	switch t.Root {
	case schema.RootBoolean, schema.RootTinyInt, schema.RootSmallInt, schema.RootFloat, schema.RootDouble:
		var zero [8]byte
		b, err := r.bytes(fixedWidth(t.Root))
		if err != nil {
			b = zero[:] // the zero value of the column type, like the varint arms
		}
		v, _ := fixedValue(t, b)
		return v, err
	case schema.RootInt:
		return r.varint32()
	case schema.RootBigInt:
		return r.varint64()
	case schema.RootChar, schema.RootString:
		b, err := r.lenPrefixed()
		return string(b), err
	case schema.RootBinary, schema.RootBytes:
		b, err := r.lenPrefixed()
		return append([]byte{}, b...), err
	case schema.RootDate:
		v, err := r.varint32()
		return Date(v), err
	case schema.RootTime:
		v, err := r.varint32()
		return Time(v), err
	}
	return readCompactedComplex(r, t)
}

func readCompactedComplex(r *reader, t schema.DataType) (any, error) {
	switch t.Root {
	case schema.RootDecimal:
		if t.IsCompactDecimal() {
			v, err := r.varint64()
			if err != nil {
				return nil, err
			}
			return NewDecimal(v, t.Precision, t.Scale)
		}
		b, err := r.lenPrefixed()
		if err != nil {
			return nil, err
		}
		return decimalFromBytes(b, t.Precision, t.Scale)
	case schema.RootTimestamp, schema.RootTimestampLTZ:
		ms, err := r.varint64()
		if err != nil {
			return nil, err
		}
		var nano int32
		if !t.IsCompactTimestamp() {
			if nano, err = r.varint32(); err != nil {
				return nil, err
			}
		}
		return makeTimestamp(t, ms, nano)
	}
	b, err := r.lenPrefixed()
	if err != nil {
		return nil, err
	}
	return decodeNested(FormatCompacted, t, b)
}

func makeTimestamp(t schema.DataType, ms int64, nano int32) (any, error) {
	if nano < 0 || nano > 999999 {
		return nil, corrupt("nano of milli %d out of range", nano)
	}
	if t.Root == schema.RootTimestamp {
		return TimestampNTZ{Millis: ms, NanoOfMilli: nano}, nil
	}
	return TimestampLTZ{Millis: ms, NanoOfMilli: nano}, nil
}

// decodeNested decodes the binary form of an ARRAY, MAP or ROW value that
// occupies all of b.
func decodeNested(format RowFormat, t schema.DataType, b []byte) (any, error) {
	switch t.Root {
	case schema.RootArray:
		return decodeBinaryArray(format, *t.Elem, b)
	case schema.RootMap:
		return decodeBinaryMap(format, t, b)
	case schema.RootRow:
		types := fieldTypes(t)
		return decodeRow(make([]any, len(types)), format, types, b)
	}
	return nil, fmt.Errorf("codec: type %s is not nested", t)
}

func decodeIndexedRow(dst []any, types []schema.DataType, b []byte) ([]any, error) {
	r := reader{b: b}
	bits, err := r.bytes(bitsetBytes(len(types)))
	if err != nil {
		return nil, err
	}
	lens, err := r.bytes(4 * indexedVarCount(types))
	if err != nil {
		return nil, err
	}
	for i, t := range types {
		if nullBit(bits, i) {
			dst[i] = nil
			continue
		}
		size := indexedFixedSize(t)
		if size < 0 {
			size = int(int32(le.Uint32(lens)))
			lens = lens[4:]
		}
		field, err := r.bytes(size)
		if err != nil {
			return nil, colErr(i, err)
		}
		if dst[i], err = readIndexedValue(t, field); err != nil {
			return nil, colErr(i, err)
		}
	}
	if r.remaining() != 0 {
		return nil, corrupt("%s after indexed row", plural.Count(r.remaining(), "trailing byte"))
	}
	return dst, nil
}

// readIndexedValue decodes one field whose bytes were already cut out.
func readIndexedValue(t schema.DataType, b []byte) (any, error) {
	if v, ok := fixedValue(t, b); ok {
		return v, nil
	}
	switch t.Root {
	case schema.RootChar:
		return string(trimZeros(b)), nil
	case schema.RootString:
		return string(b), nil
	case schema.RootBinary, schema.RootBytes:
		// A BINARY(n) value is its n stored bytes. (The Java client 0.9.1
		// trims trailing zero bytes here, changing values that end in
		// 0x00; ARROW and COMPACTED rows keep them, and so do we.)
		return append([]byte{}, b...), nil
	}
	return readIndexedComplex(t, b)
}

func readIndexedComplex(t schema.DataType, b []byte) (any, error) {
	switch t.Root {
	case schema.RootDecimal:
		if t.IsCompactDecimal() {
			return NewDecimal(int64(le.Uint64(b)), t.Precision, t.Scale)
		}
		return decimalFromBytes(b, t.Precision, t.Scale)
	case schema.RootTimestamp, schema.RootTimestampLTZ:
		var nano int32
		if !t.IsCompactTimestamp() {
			nano = int32(le.Uint32(b[8:]))
		}
		return makeTimestamp(t, int64(le.Uint64(b)), nano)
	}
	return decodeNested(FormatIndexed, t, b)
}

// trimZeros drops the trailing 0x00 bytes CHAR(n) is padded with in
// IndexedRow, as Java does on read.
func trimZeros(b []byte) []byte {
	n := len(b)
	for n > 0 && b[n-1] == 0 {
		n--
	}
	return b[:n]
}
