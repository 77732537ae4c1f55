package codec

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/gofluss/fluss/internal/plural"
)

// ErrCorrupt is wrapped by every decoding error caused by malformed bytes.
var ErrCorrupt = errors.New("codec: corrupt data")

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
}

var le = binary.LittleEndian

// appendUvarint32 writes v as unsigned LEB128 of its 32-bit two's-complement
// pattern (Fluss never zig-zags, so negative ints take 5 bytes).
func appendUvarint32(b []byte, v int32) []byte {
	u := uint32(v)
	for u >= 0x80 {
		b = append(b, byte(u)|0x80)
		u >>= 7
	}
	return append(b, byte(u))
}

// appendUvarint64 is appendUvarint32 for 64-bit values (up to 10 bytes).
func appendUvarint64(b []byte, v int64) []byte {
	u := uint64(v)
	for u >= 0x80 {
		b = append(b, byte(u)|0x80)
		u >>= 7
	}
	return append(b, byte(u))
}

// reader walks a byte slice; every read checks the remaining length first,
// so corrupt input yields an error and never a panic or huge allocation.
type reader struct {
	b   []byte
	off int
}

func (r *reader) remaining() int { return len(r.b) - r.off }

func (r *reader) need(n int) error {
	if n < 0 || n > r.remaining() {
		return corrupt("need %s at offset %d, have %d", plural.Count(n, "byte"), r.off, r.remaining())
	}
	return nil
}

func (r *reader) byte1() (byte, error) {
	if err := r.need(1); err != nil {
		return 0, err
	}
	v := r.b[r.off]
	r.off++
	return v, nil
}

func (r *reader) uint32() (uint32, error) {
	if err := r.need(4); err != nil {
		return 0, err
	}
	v := le.Uint32(r.b[r.off:])
	r.off += 4
	return v, nil
}

// bytes returns the next n bytes without copying.
func (r *reader) bytes(n int) ([]byte, error) {
	if err := r.need(n); err != nil {
		return nil, err
	}
	v := r.b[r.off : r.off+n : r.off+n]
	r.off += n
	return v, nil
}

// varint32 reads an unsigned LEB128 of at most 5 bytes as an int32.
func (r *reader) varint32() (int32, error) {
	var u uint32
	for i := 0; i < 5; i++ {
		c, err := r.byte1()
		if err != nil {
			return 0, err
		}
		u |= uint32(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			return int32(u), nil
		}
	}
	return 0, corrupt("varint32 longer than 5 bytes at offset %d", r.off)
}

// varint64 reads an unsigned LEB128 of at most 10 bytes as an int64.
func (r *reader) varint64() (int64, error) {
	var u uint64
	for i := 0; i < 10; i++ {
		c, err := r.byte1()
		if err != nil {
			return 0, err
		}
		u |= uint64(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			return int64(u), nil
		}
	}
	return 0, corrupt("varint64 longer than 10 bytes at offset %d", r.off)
}

// lenPrefixed reads a varint32 length and that many bytes.
func (r *reader) lenPrefixed() ([]byte, error) {
	n, err := r.varint32()
	if err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, corrupt("negative length %d", n)
	}
	return r.bytes(int(n))
}

// int32Prefixed reads an int32 LE length and that many bytes.
func (r *reader) int32Prefixed() ([]byte, error) {
	n, err := r.uint32()
	if err != nil {
		return nil, err
	}
	return r.bytes(int(int32(n)))
}

// nullBit reports bit i of a LSB-first null bitset starting at b[0].
func nullBit(b []byte, i int) bool { return b[i>>3]&(1<<(i&7)) != 0 }

func setNullBit(b []byte, i int) { b[i>>3] |= 1 << (i & 7) }

// bitsetBytes is the null bitset width of a row with n fields.
func bitsetBytes(n int) int { return (n + 7) / 8 }

// grow makes room for n more bytes and returns the extended slice and the
// start of the new region (zeroed).
func grow(b []byte, n int) ([]byte, int) {
	start := len(b)
	if cap(b)-start >= n {
		b = b[:start+n]
		clear(b[start:])
		return b, start
	}
	nb := make([]byte, start+n, max(2*cap(b), start+n))
	copy(nb, b)
	return nb, start
}
