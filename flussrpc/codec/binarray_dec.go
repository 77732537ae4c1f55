package codec

import (
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
)

func decodeBinaryArray(format RowFormat, et schema.DataType, b []byte) ([]any, error) {
	if len(b) < 4 {
		return nil, corrupt("array of %s has no header", plural.Count(len(b), "byte"))
	}
	n := int(int32(le.Uint32(b)))
	es := arraySlotSize(et)
	// Bound the count by the bytes present before allocating anything.
	if n < 0 || n > (len(b)-4)/es {
		return nil, corrupt("array count %d does not fit in %s", n, plural.Count(len(b), "byte"))
	}
	hdr := arrayHeaderSize(n)
	if hdr+n*es > len(b) {
		return nil, corrupt("array of %s needs %s, has %d", plural.Count(n, "element"), plural.Count(hdr+n*es, "byte"), len(b))
	}
	out := make([]any, n)
	// Java appends variable parts in element order, so entries never
	// overlap. Enforcing that keeps decoding linear in the input size: a
	// forged array whose slots all point at one nested array would otherwise
	// multiply allocations.
	a := arrayBytes{b: b, floor: hdr + n*es}
	for i := range out {
		if nullBit(b[4:], i) {
			continue
		}
		v, err := readArrayElem(format, et, &a, b[hdr+i*es:hdr+(i+1)*es])
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// arrayBytes is an array's bytes plus the lowest offset the next
// variable-part entry may start at.
type arrayBytes struct {
	b     []byte
	floor int
}

func readArrayElem(format RowFormat, t schema.DataType, arr *arrayBytes, slot []byte) (any, error) {
	if v, ok := fixedValue(t, slot); ok {
		return v, nil
	}
	return readArrayVar(format, t, arr, le.Uint64(slot), slot)
}

// varPart resolves an offset<<32|size slot against the array bytes.
func varPart(arr *arrayBytes, v uint64) ([]byte, error) {
	off, size := uint64(v>>32), uint64(uint32(v))
	if off < uint64(arr.floor) {
		return nil, corrupt("array entry at %d overlaps earlier data (ends at %d)", off, arr.floor)
	}
	if off > uint64(len(arr.b)) || size > uint64(len(arr.b))-off {
		return nil, corrupt("array entry [%d,+%d) outside %s", off, size, plural.Count(len(arr.b), "byte"))
	}
	arr.floor = int(off + size)
	return arr.b[off : off+size], nil
}

func readArrayBytes(arr *arrayBytes, v uint64, slot []byte) ([]byte, error) {
	if v&inlineMark != 0 {
		n := int(v >> 56 & 0x7f)
		if n > 7 {
			return nil, corrupt("inline array entry of %s", plural.Count(n, "byte"))
		}
		return slot[:n], nil
	}
	return varPart(arr, v)
}

func readArrayVar(format RowFormat, t schema.DataType, arr *arrayBytes, v uint64, slot []byte) (any, error) {
	switch t.Root {
	case schema.RootChar, schema.RootString:
		b, err := readArrayBytes(arr, v, slot)
		return string(b), err
	case schema.RootBinary, schema.RootBytes:
		b, err := readArrayBytes(arr, v, slot)
		if err != nil {
			return nil, err
		}
		return append([]byte{}, b...), nil
	case schema.RootDecimal:
		if t.IsCompactDecimal() {
			return NewDecimal(int64(v), t.Precision, t.Scale)
		}
		b, err := varPart(arr, v)
		if err != nil {
			return nil, err
		}
		return decimalFromBytes(b, t.Precision, t.Scale)
	case schema.RootTimestamp, schema.RootTimestampLTZ:
		if t.IsCompactTimestamp() {
			return makeTimestamp(t, int64(v), 0)
		}
		ms, err := varPart(arr, v>>32<<32|8)
		if err != nil {
			return nil, err
		}
		return makeTimestamp(t, int64(le.Uint64(ms)), int32(uint32(v)))
	}
	b, err := varPart(arr, v)
	if err != nil {
		return nil, err
	}
	return decodeNested(format, t, b)
}

func decodeBinaryMap(format RowFormat, t schema.DataType, b []byte) (any, error) {
	if len(b) < 4 {
		return nil, corrupt("map of %s has no header", plural.Count(len(b), "byte"))
	}
	kn := int(int32(le.Uint32(b)))
	if kn < 0 || kn > len(b)-4 {
		return nil, corrupt("map key array size %d outside %s", kn, plural.Count(len(b), "byte"))
	}
	keys, err := decodeBinaryArray(format, *t.Key, b[4:4+kn])
	if err != nil {
		return nil, err
	}
	vals, err := decodeBinaryArray(format, *t.Value, b[4+kn:])
	if err != nil {
		return nil, err
	}
	if len(keys) != len(vals) {
		return nil, corrupt("map has %s and %s", plural.Count(len(keys), "key"), plural.Count(len(vals), "value"))
	}
	return Map{Keys: keys, Values: vals}, nil
}
