package arrowipc

import (
	"errors"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/klauspost/compress/zstd"

	"github.com/gofluss/fluss/flussrpc/schema"
)

// zstdMessage encodes rows as one ZSTD message and returns it with its
// parse, whose offsets are relative to the message's body.
func zstdMessage(t *testing.T, cols []schema.Column, rows [][]any) ([]byte, message, int) {
	t.Helper()
	msg := encodeRows(t, cols, Compression{Type: schema.CompressionZstd, ZstdLevel: 3}, nil, rows)
	dec, err := NewDecoder(cols, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Release()
	m, err := dec.check(msg, len(rows))
	if err != nil || m.codec != codecZstd {
		t.Fatalf("parse: codec %d, %v", m.codec, err)
	}
	return msg, m, m.consumed - len(m.body)
}

// TestInflateFramesWithoutChecksum: the decoder reads ZSTD buffers with
// and without a frame checksum (arrow-go writes one, Fluss's Java writer
// does not) to the same rows, and each ends up stored uncompressed.
func TestInflateFramesWithoutChecksum(t *testing.T) {
	cols := allTypeColumns()
	rows := allTypeRows(t)
	msg, m, bodyAt := zstdMessage(t, cols, rows)
	// Re-compress every buffer without the checksum, as the Java writer
	// does; the body grows or shrinks, so it is rebuilt.
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderCRC(false))
	if err != nil {
		t.Fatal(err)
	}
	dec, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	meta := append([]byte(nil), msg[prefixSize:bodyAt]...)
	var body []byte
	for i, bs := range m.buffers {
		src := m.body[bs.offset : bs.offset+bs.length]
		if _, compressed := storedLen(m.body, bs); compressed {
			plain, err := dec.DecodeAll(src[8:], nil)
			if err != nil {
				t.Fatal(err)
			}
			src = enc.EncodeAll(plain, append([]byte(nil), src[:8]...))
		}
		le.PutUint64(meta[m.buffersAt+structSize*i:], uint64(len(body)))
		le.PutUint64(meta[m.buffersAt+structSize*i+8:], uint64(len(src)))
		body = append(body, src...)
		body = append(body, make([]byte, align8(len(body))-len(body))...)
	}
	le.PutUint64(meta[m.bodyLenAt:], uint64(len(body)))
	noCRC := append(append(append([]byte(nil), msg[:prefixSize]...), meta...), body...)

	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	d, err := NewDecoder(cols, mem, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Release()
	var got [2][][]any
	for i, in := range [][]byte{msg, noCRC} {
		if got[i], err = d.DecodeRows(nil, in, len(rows)); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
	}
	// Compared as text: a NaN is never DeepEqual to itself.
	if a, b, want := fmt.Sprint(got[0]), fmt.Sprint(got[1]), fmt.Sprint(rows); a != b || a != want {
		t.Errorf("with checksum %s\nwithout %s\nwant %s", a, b, want)
	}
	in, buf, err := inflated(m, mem)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Release()
	for i, bs := range in.buffers {
		if bs.length >= 8 && int64(le.Uint64(in.body[bs.offset:])) != -1 {
			t.Errorf("buffer %d still compressed", i)
		}
	}
}

// TestInflateWrongLengths: a frame that decodes to fewer or more bytes
// than its buffer's length prefix claims is corrupt, never a short or
// overgrown buffer.
func TestInflateWrongLengths(t *testing.T) {
	cols := []schema.Column{col("s", schema.String())}
	rows := make([][]any, 1000)
	for i := range rows {
		rows[i] = []any{fmt.Sprintf("value %d", i)}
	}
	msg, m, bodyAt := zstdMessage(t, cols, rows)
	for _, delta := range []int64{-1, 1} {
		t.Run(fmt.Sprint(delta), func(t *testing.T) {
			bad := append([]byte(nil), msg...)
			for _, bs := range m.buffers {
				if n, compressed := storedLen(m.body, bs); compressed {
					at := bodyAt + int(bs.offset)
					le.PutUint64(bad[at:], uint64(int64(n-8)+delta))
				}
			}
			d, err := NewDecoder(cols, nil, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Release()
			if _, err := d.DecodeRows(nil, bad, len(rows)); !errors.Is(err, ErrCorrupt) {
				t.Errorf("length prefix off by %d: %v, want ErrCorrupt", delta, err)
			}
		})
	}
}
