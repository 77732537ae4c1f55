package codec

import (
	"math"

	"github.com/gofluss/fluss/flussrpc/schema"
)

// BinaryArray layout (all LE, offsets relative to the array start):
//
//	[int32 count][null bits, 4-byte words][count fixed slots][variable part]
//
// Slots are 1 byte (BOOLEAN, TINYINT), 2 (SMALLINT), 4 (INT, FLOAT, DATE,
// TIME) or 8 bytes for everything else. An 8-byte slot of a variable-width
// element holds either the bytes inline (<= 7 bytes, top byte 0x80|len) or
// offset<<32|length into the variable part. Every variable-part entry and the
// fixed part are padded to 8 bytes. Null elements only set their bit; the
// slot stays zero. Nested ROW elements use the enclosing row format.

const inlineMark = uint64(0x80) << 56

func arrayHeaderSize(n int) int { return 4 + ((n+31)/32)*4 }

func arraySlotSize(t schema.DataType) int {
	if w := fixedWidth(t.Root); w != 0 {
		return w
	}
	return 8
}

func roundUp8(n int) int { return (n + 7) &^ 7 }

// padTo8 zero-pads the variable part that started at base to a multiple of
// 8 bytes relative to arrStart.
func padTo8(dst []byte, arrStart int) []byte {
	n := len(dst) - arrStart
	dst, _ = grow(dst, roundUp8(n)-n)
	return dst
}

func appendBinaryArray(dst []byte, format RowFormat, et schema.DataType, vals []any) ([]byte, error) {
	if len(vals) > math.MaxInt32/8 {
		return nil, typeErr(schema.ArrayOf(et), vals, "array too long")
	}
	start := len(dst)
	hdr := arrayHeaderSize(len(vals))
	es := arraySlotSize(et)
	dst, _ = grow(dst, roundUp8(hdr+es*len(vals)))
	le.PutUint32(dst[start:], uint32(len(vals)))
	var err error
	for i, v := range vals {
		if v == nil {
			setNullBit(dst[start+4:], i)
			continue
		}
		if dst, err = appendArrayElem(dst, format, et, start, start+hdr+i*es, v); err != nil {
			return nil, err
		}
	}
	return dst, nil
}

// appendArrayElem writes element v into its slot at dst[slot:], appending
// to the variable part when needed.
func appendArrayElem(dst []byte, format RowFormat, t schema.DataType, start, slot int, v any) ([]byte, error) {
	if width := fixedWidth(t.Root); width != 0 {
		bits, err := fixedBits(t, v)
		putLE(dst[slot:], width, canonicalNaN(t, bits)) // Java canonicalises NaN in arrays
		return dst, err
	}
	return appendArrayVar(dst, format, t, start, slot, v)
}

// canonicalNaN replaces a FLOAT or DOUBLE NaN bit pattern with the
// canonical NaN; other bits are returned unchanged.
func canonicalNaN(t schema.DataType, bits uint64) uint64 {
	switch t.Root {
	case schema.RootFloat:
		if f := float32From(uint32(bits)); f != f {
			return uint64(float32Bits(float32(math.NaN())))
		}
	case schema.RootDouble:
		if f := float64From(bits); f != f {
			return float64Bits(math.NaN())
		}
	}
	return bits
}

func appendArrayVar(dst []byte, format RowFormat, t schema.DataType, start, slot int, v any) ([]byte, error) {
	switch t.Root {
	case schema.RootChar, schema.RootString:
		s, err := asString(t, v)
		if err != nil {
			return nil, err
		}
		return putArrayBytes(dst, start, slot, s), nil
	case schema.RootBinary, schema.RootBytes:
		b, err := asBytes(t, v)
		if err != nil {
			return nil, err
		}
		return putArrayBytes(dst, start, slot, b), nil
	case schema.RootDecimal:
		return putArrayDecimal(dst, t, start, slot, v)
	case schema.RootTimestamp, schema.RootTimestampLTZ:
		ms, nano, err := asTimestamp(t, v)
		if err != nil {
			return nil, err
		}
		if t.IsCompactTimestamp() {
			le.PutUint64(dst[slot:], uint64(ms))
			return dst, nil
		}
		// Millis go to the variable part, nano-of-milli into the slot.
		off := len(dst) - start
		dst = le.AppendUint64(dst, uint64(ms))
		le.PutUint64(dst[slot:], uint64(off)<<32|uint64(uint32(nano)))
		return dst, nil
	}
	off := len(dst) - start
	dst, err := appendNested(dst, format, t, v)
	if err != nil {
		return nil, err
	}
	size := len(dst) - start - off
	dst = padTo8(dst, start)
	le.PutUint64(dst[slot:], uint64(off)<<32|uint64(size))
	return dst, nil
}

func putArrayBytes[S string | []byte](dst []byte, start, slot int, s S) []byte {
	if len(s) <= 7 {
		copy(dst[slot:slot+7], s)
		dst[slot+7] = byte(0x80 | len(s))
		return dst
	}
	off := len(dst) - start
	dst = append(dst, s...)
	dst = padTo8(dst, start)
	le.PutUint64(dst[slot:], uint64(off)<<32|uint64(len(s)))
	return dst
}

// putArrayDecimal stores compact decimals in the slot and larger ones in a
// fixed 16-byte variable-part area, as Java's writer does.
func putArrayDecimal(dst []byte, t schema.DataType, start, slot int, v any) ([]byte, error) {
	d, err := asDecimal(t, v)
	if err != nil {
		return nil, err
	}
	if d.IsCompact() {
		le.PutUint64(dst[slot:], uint64(d.small))
		return dst, nil
	}
	off := len(dst) - start
	var tmp [17]byte
	b := d.unscaledBytes(tmp[:0])
	if len(b) > 16 {
		return nil, typeErr(t, v, "unscaled value needs more than 16 bytes")
	}
	dst, at := grow(dst, 16)
	copy(dst[at:], b)
	le.PutUint64(dst[slot:], uint64(off)<<32|uint64(len(b)))
	return dst, nil
}

// appendBinaryMap writes [int32 key array size][key array][value array].
func appendBinaryMap(dst []byte, format RowFormat, t schema.DataType, m Map) ([]byte, error) {
	start := len(dst)
	dst, _ = grow(dst, 4)
	dst, err := appendBinaryArray(dst, format, *t.Key, m.Keys)
	if err != nil {
		return nil, err
	}
	le.PutUint32(dst[start:], uint32(len(dst)-start-4))
	return appendBinaryArray(dst, format, *t.Value, m.Values)
}
