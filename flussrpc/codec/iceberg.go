package codec

import (
	"fmt"

	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
)

// IcebergKeyEncoder encodes the single key column of a table whose lake
// format is iceberg the way Iceberg's bucket transform hashes values: INT
// and DATE widened to an int64, TIME and TIMESTAMP as microseconds, other
// numbers as their LE bytes, strings/bytes raw and DECIMAL as big-endian
// unscaled bytes, with no length prefixes.
type IcebergKeyEncoder struct {
	idx int
	typ schema.DataType
}

// NewIcebergKeyEncoder returns an encoder for exactly one key column.
func NewIcebergKeyEncoder(rowTypes []schema.DataType, keyIdx []int) (*IcebergKeyEncoder, error) {
	if len(keyIdx) != 1 {
		return nil, fmt.Errorf("codec: iceberg keys must have exactly one column, got %d", len(keyIdx))
	}
	types, err := keyTypes(rowTypes, keyIdx, func(t schema.DataType) error {
		switch t.Root {
		case schema.RootInt, schema.RootDate, schema.RootTime, schema.RootBigInt, schema.RootFloat,
			schema.RootDouble, schema.RootTimestamp, schema.RootDecimal, schema.RootString,
			schema.RootChar, schema.RootBinary, schema.RootBytes:
			return nil
		}
		return fmt.Errorf("codec: type %s is not supported in iceberg keys", t)
	})
	if err != nil {
		return nil, err
	}
	return &IcebergKeyEncoder{idx: keyIdx[0], typ: types[0]}, nil
}

// AppendKey implements KeyEncoder.
func (e *IcebergKeyEncoder) AppendKey(dst []byte, row []any) ([]byte, error) {
	if e.idx >= len(row) {
		return nil, fmt.Errorf("codec: row has %s, key needs column %d", plural.Count(len(row), "value"), e.idx)
	}
	v, t := row[e.idx], e.typ
	if v == nil {
		return nil, fmt.Errorf("codec: key column %d is NULL", e.idx)
	}
	if width := fixedWidth(t.Root); width != 0 {
		bits, err := fixedBits(t, v)
		switch t.Root {
		case schema.RootInt, schema.RootDate:
			width = 8 // widened to an int64 (the bits are sign-extended)
		case schema.RootTime:
			bits, width = uint64(int64(bits)*1000), 8 // micros
		}
		return appendLE(dst, width, bits), err
	}
	switch t.Root {
	case schema.RootTimestamp:
		ms, nano, err := asTimestamp(t, v)
		return le.AppendUint64(dst, uint64(ms*1000+int64(nano/1000))), err
	case schema.RootDecimal:
		d, err := asDecimal(t, v)
		if err != nil {
			return nil, err
		}
		return d.unscaledBytes(dst), nil
	case schema.RootString, schema.RootChar:
		s, err := asString(t, v)
		return append(dst, s...), err
	}
	b, err := asBytes(t, v)
	return append(dst, b...), err
}
