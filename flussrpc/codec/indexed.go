package codec

import (
	"unicode/utf8"

	"github.com/gofluss/fluss/flussrpc/schema"
)

// IndexedRow layout: [null bitset][int32 length per non-null variable-width
// column, in column order, unused slots 0][values of non-null columns].

// indexedFixedSize returns the width of a fixed-width IndexedRow column, or
// -1 when the column is variable-width (its length goes into the list).
func indexedFixedSize(t schema.DataType) int {
	if w := fixedWidth(t.Root); w != 0 {
		return w
	}
	switch t.Root {
	case schema.RootDecimal:
		if t.IsCompactDecimal() {
			return 8
		}
	case schema.RootTimestamp, schema.RootTimestampLTZ:
		if t.IsCompactTimestamp() {
			return 8
		}
		return 12
	case schema.RootChar, schema.RootBinary:
		return t.Length
	}
	return -1
}

func indexedVarCount(types []schema.DataType) int {
	n := 0
	for _, t := range types {
		if indexedFixedSize(t) < 0 {
			n++
		}
	}
	return n
}

func appendIndexedRow(dst []byte, types []schema.DataType, row []any) ([]byte, error) {
	if err := checkArity(types, row); err != nil {
		return nil, err
	}
	start := len(dst)
	nullBytes := bitsetBytes(len(types))
	dst, _ = grow(dst, nullBytes+4*indexedVarCount(types))
	varSlot := start + nullBytes
	var err error
	for i, t := range types {
		if row[i] == nil {
			if !t.Nullable {
				return nil, colErr(i, nullErr(t))
			}
			setNullBit(dst[start:], i)
			continue
		}
		before := len(dst)
		if dst, err = appendIndexedValue(dst, t, row[i]); err != nil {
			return nil, colErr(i, err)
		}
		if indexedFixedSize(t) < 0 {
			le.PutUint32(dst[varSlot:], uint32(len(dst)-before))
			varSlot += 4
		}
	}
	return dst, nil
}

func appendIndexedValue(dst []byte, t schema.DataType, v any) ([]byte, error) {
	if width := fixedWidth(t.Root); width != 0 {
		bits, err := fixedBits(t, v)
		return appendLE(dst, width, bits), err
	}
	return appendIndexedOther(dst, t, v)
}

func appendIndexedOther(dst []byte, t schema.DataType, v any) ([]byte, error) {
	switch t.Root {
	case schema.RootChar:
		s, err := asString(t, v)
		if err != nil {
			return nil, err
		}
		if !utf8.ValidString(s) {
			return nil, typeErr(t, v, "invalid UTF-8")
		}
		return appendPadded(dst, t, v, s)
	case schema.RootBinary:
		b, err := asBytes(t, v)
		if err != nil {
			return nil, err
		}
		return appendPadded(dst, t, v, b)
	case schema.RootString:
		s, err := asString(t, v)
		return append(dst, s...), err
	case schema.RootBytes:
		b, err := asBytes(t, v)
		return append(dst, b...), err
	case schema.RootDecimal:
		d, err := asDecimal(t, v)
		if err != nil {
			return nil, err
		}
		if d.IsCompact() {
			return le.AppendUint64(dst, uint64(d.small)), nil
		}
		return d.unscaledBytes(dst), nil
	case schema.RootTimestamp, schema.RootTimestampLTZ:
		ms, nano, err := asTimestamp(t, v)
		if err != nil {
			return nil, err
		}
		dst = le.AppendUint64(dst, uint64(ms))
		if !t.IsCompactTimestamp() {
			dst = le.AppendUint32(dst, uint32(nano))
		}
		return dst, nil
	}
	return appendNested(dst, FormatIndexed, t, v)
}

// appendPadded writes CHAR(n)/BINARY(n) as exactly n bytes, zero padded.
// Longer values are rejected rather than truncated.
func appendPadded[S string | []byte](dst []byte, t schema.DataType, v any, s S) ([]byte, error) {
	if len(s) > t.Length {
		return nil, typeErr(t, v, "value longer than the declared length")
	}
	dst = append(dst, s...)
	dst, _ = grow(dst, t.Length-len(s))
	return dst, nil
}
