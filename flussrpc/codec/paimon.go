package codec

import (
	"fmt"

	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
)

// PaimonKeyEncoder encodes key columns as a Paimon BinaryRow, which is what
// Fluss uses for key and bucket bytes of tables whose lake format is
// paimon, so that Fluss and Paimon agree on buckets.
//
// Layout: [header: ((n+71)/64)*8 bytes, byte 0 = row kind (0, INSERT), null
// bit of field i at bit i+8][8-byte slot per field][variable part, 8-byte
// aligned]. Slots hold fixed values LE; strings/bytes of <= 7 bytes inline
// (top byte 0x80|len), longer ones as offset<<32|len; DECIMAL > 18 digits
// reserves 16 bytes; non-compact timestamps put millis in the variable part
// and nano-of-milli in the slot.
type PaimonKeyEncoder struct {
	idx   []int
	types []schema.DataType
}

// NewPaimonKeyEncoder returns an encoder for the columns at keyIdx.
func NewPaimonKeyEncoder(rowTypes []schema.DataType, keyIdx []int) (*PaimonKeyEncoder, error) {
	types, err := keyTypes(rowTypes, keyIdx, func(t schema.DataType) error {
		switch t.Root {
		case schema.RootArray, schema.RootMap, schema.RootRow:
			return fmt.Errorf("codec: type %s is not supported in Paimon keys", t)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &PaimonKeyEncoder{idx: append([]int(nil), keyIdx...), types: types}, nil
}

func paimonHeaderSize(n int) int { return ((n + 63 + 8) / 64) * 8 }

// AppendKey implements KeyEncoder.
func (e *PaimonKeyEncoder) AppendKey(dst []byte, row []any) ([]byte, error) {
	start := len(dst)
	hdr := paimonHeaderSize(len(e.idx))
	dst, _ = grow(dst, hdr+8*len(e.idx))
	var err error
	for i, k := range e.idx {
		if k >= len(row) {
			return nil, fmt.Errorf("codec: row has %s, key needs column %d", plural.Count(len(row), "value"), k)
		}
		if row[k] == nil {
			setNullBit(dst[start:], i+8)
			continue
		}
		if dst, err = appendPaimonField(dst, e.types[i], start, start+hdr+8*i, row[k]); err != nil {
			return nil, fmt.Errorf("codec: key column %d: %w", k, err)
		}
	}
	return dst, nil
}

// appendPaimonField reuses the BinaryArray slot writers: Paimon's row slots
// are always 8 bytes but encode values exactly like array slots, except that
// Paimon rows do not canonicalise NaN.
func appendPaimonField(dst []byte, t schema.DataType, start, slot int, v any) ([]byte, error) {
	if width := fixedWidth(t.Root); width != 0 {
		bits, err := fixedBits(t, v)
		putLE(dst[slot:], width, bits)
		return dst, err
	}
	return appendArrayVar(dst, FormatCompacted, t, start, slot, v)
}
