package codec

import (
	"fmt"

	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
)

// RowFormat selects the binary row layout.
type RowFormat uint8

// Row formats. The values are not wire constants.
const (
	FormatCompacted RowFormat = iota + 1 // CompactedRow: varints, length-prefixed strings
	FormatIndexed                        // IndexedRow: fixed-width slots plus a length list
)

// String returns the Fluss option spelling (COMPACTED, INDEXED).
func (f RowFormat) String() string {
	switch f {
	case FormatCompacted:
		return schema.FormatCompacted
	case FormatIndexed:
		return schema.FormatIndexed
	}
	return fmt.Sprintf("RowFormat(%d)", uint8(f))
}

// ParseRowFormat maps a table.kv.format / table.log.format value to a
// RowFormat; ARROW and unknown values return false.
func ParseRowFormat(s string) (RowFormat, bool) {
	switch s {
	case schema.FormatCompacted:
		return FormatCompacted, true
	case schema.FormatIndexed:
		return FormatIndexed, true
	}
	return 0, false
}

// RowEncoder encodes rows of a fixed schema into one of the binary row
// formats. It keeps its output buffer between calls, so steady-state
// encoding of flat rows does not allocate. Not safe for concurrent use.
type RowEncoder struct {
	format RowFormat
	types  []schema.DataType
	buf    []byte
}

// NewRowEncoder returns an encoder for rows with the given column types.
func NewRowEncoder(format RowFormat, types []schema.DataType) (*RowEncoder, error) {
	if err := checkTypes(format, types); err != nil {
		return nil, err
	}
	return &RowEncoder{format: format, types: types}, nil
}

// NewCompactedEncoder is NewRowEncoder(FormatCompacted, types).
func NewCompactedEncoder(types []schema.DataType) (*RowEncoder, error) {
	return NewRowEncoder(FormatCompacted, types)
}

// NewIndexedEncoder is NewRowEncoder(FormatIndexed, types).
func NewIndexedEncoder(types []schema.DataType) (*RowEncoder, error) {
	return NewRowEncoder(FormatIndexed, types)
}

func checkTypes(format RowFormat, types []schema.DataType) error {
	if format != FormatCompacted && format != FormatIndexed {
		return fmt.Errorf("codec: unsupported row format %v", format)
	}
	for i, t := range types {
		if err := t.Validate(); err != nil {
			return fmt.Errorf("codec: column %d: %w", i, err)
		}
	}
	return nil
}

// Format returns the encoder's row format.
func (e *RowEncoder) Format() RowFormat { return e.format }

// Encode encodes row (one value per column, nil for NULL). The returned
// slice is owned by the encoder and valid until the next call; copy it (or
// use AppendRow) to keep it.
func (e *RowEncoder) Encode(row []any) ([]byte, error) {
	b, err := e.AppendRow(e.buf[:0], row)
	if err != nil {
		return nil, err
	}
	e.buf = b
	return b, nil
}

// AppendRow appends the encoded row to dst.
func (e *RowEncoder) AppendRow(dst []byte, row []any) ([]byte, error) {
	if e.format == FormatIndexed {
		return appendIndexedRow(dst, e.types, row)
	}
	return appendCompactedRow(dst, e.types, row)
}

// appendRow dispatches on the format; nested rows use the format of the
// enclosing row.
func appendRow(dst []byte, format RowFormat, types []schema.DataType, row []any) ([]byte, error) {
	if format == FormatIndexed {
		return appendIndexedRow(dst, types, row)
	}
	return appendCompactedRow(dst, types, row)
}

func colErr(i int, err error) error { return fmt.Errorf("codec: column %d: %w", i, err) }

func checkArity(types []schema.DataType, row []any) error {
	if len(row) != len(types) {
		return fmt.Errorf("codec: row has %s, schema has %s", plural.Count(len(row), "value"), plural.Count(len(types), "column"))
	}
	return nil
}

func nullErr(t schema.DataType) error {
	return &TypeError{Type: t, Value: nil, Msg: "NULL in a NOT NULL column"}
}

func appendCompactedRow(dst []byte, types []schema.DataType, row []any) ([]byte, error) {
	if err := checkArity(types, row); err != nil {
		return nil, err
	}
	dst, hdr := grow(dst, bitsetBytes(len(types)))
	var err error
	for i, t := range types {
		if row[i] == nil {
			if !t.Nullable {
				return nil, colErr(i, nullErr(t))
			}
			setNullBit(dst[hdr:], i)
			continue
		}
		if dst, err = appendCompactedValue(dst, t, row[i]); err != nil {
			return nil, colErr(i, err)
		}
	}
	return dst, nil
}

// appendCompactedValue writes one non-null value in CompactedRow encoding
// (also the CompactedKeyEncoder encoding, which is the same minus bitset).
func appendCompactedValue(dst []byte, t schema.DataType, v any) ([]byte, error) {
	if width := fixedWidth(t.Root); width != 0 {
		bits, err := fixedBits(t, v)
		if err != nil {
			return nil, err
		}
		switch t.Root {
		case schema.RootInt, schema.RootDate, schema.RootTime:
			return appendUvarint32(dst, int32(bits)), nil
		case schema.RootBigInt:
			return appendUvarint64(dst, int64(bits)), nil
		}
		return appendLE(dst, width, bits), nil
	}
	switch t.Root {
	case schema.RootChar, schema.RootString:
		s, err := asString(t, v)
		if err != nil {
			return nil, err
		}
		return append(appendUvarint32(dst, int32(len(s))), s...), nil
	case schema.RootBinary, schema.RootBytes:
		b, err := asBytes(t, v)
		if err != nil {
			return nil, err
		}
		return append(appendUvarint32(dst, int32(len(b))), b...), nil
	}
	return appendCompactedComplex(dst, t, v)
}

func appendCompactedComplex(dst []byte, t schema.DataType, v any) ([]byte, error) {
	switch t.Root {
	case schema.RootDecimal:
		d, err := asDecimal(t, v)
		if err != nil {
			return nil, err
		}
		if d.IsCompact() {
			return appendUvarint64(dst, d.small), nil
		}
		return withVarintPrefix(dst, func(b []byte) ([]byte, error) { return d.unscaledBytes(b), nil })
	case schema.RootTimestamp, schema.RootTimestampLTZ:
		ms, nano, err := asTimestamp(t, v)
		if err != nil {
			return nil, err
		}
		dst = appendUvarint64(dst, ms)
		if !t.IsCompactTimestamp() {
			dst = appendUvarint32(dst, nano)
		}
		return dst, nil
	}
	return withVarintPrefix(dst, func(b []byte) ([]byte, error) {
		return appendNested(b, FormatCompacted, t, v)
	})
}

// appendNested writes the binary form of an ARRAY, MAP or ROW value.
func appendNested(dst []byte, format RowFormat, t schema.DataType, v any) ([]byte, error) {
	switch t.Root {
	case schema.RootArray:
		a, err := asArray(t, v)
		if err != nil {
			return nil, err
		}
		return appendBinaryArray(dst, format, *t.Elem, a)
	case schema.RootMap:
		m, err := asMap(t, v)
		if err != nil {
			return nil, err
		}
		return appendBinaryMap(dst, format, t, m)
	case schema.RootRow:
		r, err := asRow(t, v)
		if err != nil {
			return nil, err
		}
		return appendRow(dst, format, fieldTypes(t), r)
	}
	return nil, typeErr(t, v, "unsupported type")
}

// fieldTypes returns the field types of a ROW type. It allocates; nested
// rows are rare enough in hot paths that caching is not worth the state.
func fieldTypes(t schema.DataType) []schema.DataType {
	ts := make([]schema.DataType, len(t.Fields))
	for i, f := range t.Fields {
		ts[i] = f.Type
	}
	return ts
}

// withVarintPrefix writes body after a 5-byte gap, then closes the gap to
// the actual varint length. This avoids a scratch buffer: nested binaries
// only hold offsets relative to their own start, so moving them is safe.
func withVarintPrefix(dst []byte, body func([]byte) ([]byte, error)) ([]byte, error) {
	start := len(dst)
	dst, _ = grow(dst, 5)
	dst, err := body(dst)
	if err != nil {
		return nil, err
	}
	n := len(dst) - start - 5
	var tmp [5]byte
	k := len(appendUvarint32(tmp[:0], int32(n)))
	copy(dst[start:], tmp[:k])
	copy(dst[start+k:], dst[start+5:])
	return dst[:start+k+n], nil
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}
