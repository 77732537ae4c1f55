package codec

import (
	"fmt"

	"github.com/gofluss/fluss/flussrpc/schema"
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
	k := keyIdx[0]
	if k < 0 || k >= len(rowTypes) {
		return nil, fmt.Errorf("codec: key column index %d out of range", k)
	}
	switch rowTypes[k].Root {
	case schema.RootInt, schema.RootDate, schema.RootTime, schema.RootBigInt, schema.RootFloat,
		schema.RootDouble, schema.RootTimestamp, schema.RootDecimal, schema.RootString,
		schema.RootChar, schema.RootBinary, schema.RootBytes:
	default:
		return nil, fmt.Errorf("codec: type %s is not supported in iceberg keys", rowTypes[k])
	}
	return &IcebergKeyEncoder{idx: k, typ: rowTypes[k]}, nil
}

// AppendKey implements KeyEncoder.
func (e *IcebergKeyEncoder) AppendKey(dst []byte, row []any) ([]byte, error) {
	if e.idx >= len(row) {
		return nil, fmt.Errorf("codec: row has %d values, key needs column %d", len(row), e.idx)
	}
	v, t := row[e.idx], e.typ
	if v == nil {
		return nil, fmt.Errorf("codec: key column %d is NULL", e.idx)
	}
	switch t.Root {
	case schema.RootInt:
		n, err := asIntN(t, v, -1<<31, 1<<31-1)
		return le.AppendUint64(dst, uint64(n)), err
	case schema.RootDate:
		n, err := asDate(t, v)
		return le.AppendUint64(dst, uint64(int64(n))), err
	case schema.RootTime:
		n, err := asTime(t, v)
		return le.AppendUint64(dst, uint64(int64(n)*1000)), err
	case schema.RootBigInt:
		n, err := asIntN(t, v, -1<<63, 1<<63-1)
		return le.AppendUint64(dst, uint64(n)), err
	case schema.RootFloat:
		f, err := asFloat32(t, v)
		return le.AppendUint32(dst, float32Bits(f)), err
	case schema.RootDouble:
		f, err := asFloat64(t, v)
		return le.AppendUint64(dst, float64Bits(f)), err
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
