package codec

import (
	"math"

	"github.com/gofluss/fluss/flussrpc/schema"
)

// Every binary format here (CompactedRow, IndexedRow, BinaryArray, Paimon
// BinaryRow, Iceberg keys) stores BOOLEAN, the integers, FLOAT, DOUBLE, DATE
// and TIME the same way when it stores them fixed-width: the value's
// two's-complement or IEEE bits, little-endian, in fixedWidth(t.Root) bytes.

// fixedWidths maps each fixed-width scalar type root to its byte width.
var fixedWidths = [...]uint8{
	schema.RootBoolean: 1, schema.RootTinyInt: 1, schema.RootSmallInt: 2,
	schema.RootInt: 4, schema.RootFloat: 4, schema.RootDate: 4, schema.RootTime: 4,
	schema.RootBigInt: 8, schema.RootDouble: 8,
}

// fixedWidth returns the byte width of a fixed-width scalar type root, or 0
// for every other root.
func fixedWidth(r schema.TypeRoot) int {
	if int(r) < len(fixedWidths) {
		return int(fixedWidths[r])
	}
	return 0
}

// fixedBits converts v for a column of a fixed-width scalar type (one with
// a fixedWidth) to its bit pattern, integers sign-extended to 64 bits. On
// error the bits are 0.
func fixedBits(t schema.DataType, v any) (uint64, error) {
	var n int64
	var err error
	switch t.Root {
	case schema.RootBoolean:
		b, err := asBool(t, v)
		return uint64(boolByte(b)), err
	case schema.RootTinyInt:
		n, err = asIntN(t, v, math.MinInt8, math.MaxInt8)
	case schema.RootSmallInt:
		n, err = asIntN(t, v, math.MinInt16, math.MaxInt16)
	case schema.RootInt:
		n, err = asIntN(t, v, math.MinInt32, math.MaxInt32)
	case schema.RootBigInt:
		n, err = asIntN(t, v, math.MinInt64, math.MaxInt64)
	case schema.RootFloat:
		f, err := asFloat32(t, v)
		return uint64(float32Bits(f)), err
	case schema.RootDouble:
		f, err := asFloat64(t, v)
		return float64Bits(f), err
	case schema.RootDate:
		d, err := asDate(t, v)
		return uint64(int64(d)), err
	case schema.RootTime:
		ms, err := AsTime(t, v)
		return uint64(int64(ms)), err
	}
	return uint64(n), err
}

// putLE stores the low width bytes of bits at b[0:width], little-endian.
func putLE(b []byte, width int, bits uint64) {
	switch width {
	case 1:
		b[0] = byte(bits)
	case 2:
		le.PutUint16(b, uint16(bits))
	case 4:
		le.PutUint32(b, uint32(bits))
	default:
		le.PutUint64(b, bits)
	}
}

// appendLE appends the low width bytes of bits, little-endian.
func appendLE(dst []byte, width int, bits uint64) []byte {
	switch width {
	case 1:
		return append(dst, byte(bits))
	case 2:
		return le.AppendUint16(dst, uint16(bits))
	case 4:
		return le.AppendUint32(dst, uint32(bits))
	}
	return le.AppendUint64(dst, bits)
}

// fixedValue decodes a fixed-width scalar from its little-endian bytes; ok
// is false when t is not such a type.
func fixedValue(t schema.DataType, b []byte) (v any, ok bool) {
	switch t.Root {
	case schema.RootBoolean:
		return b[0] != 0, true
	case schema.RootTinyInt:
		return int8(b[0]), true
	case schema.RootSmallInt:
		return int16(le.Uint16(b)), true
	case schema.RootInt:
		return int32(le.Uint32(b)), true
	case schema.RootBigInt:
		return int64(le.Uint64(b)), true
	case schema.RootFloat:
		return float32From(le.Uint32(b)), true
	case schema.RootDouble:
		return float64From(le.Uint64(b)), true
	case schema.RootDate:
		return Date(int32(le.Uint32(b))), true
	case schema.RootTime:
		return Time(int32(le.Uint32(b))), true
	}
	return nil, false
}
