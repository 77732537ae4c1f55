package arrowipc

import (
	"math"
	"slices"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/klauspost/compress/zstd"

	"github.com/gofluss/fluss/internal/plural"
)

// ZSTD bodies are decompressed here rather than by arrow-go, whose
// decoders verify each frame's xxhash checksum: about 7% of a scan's CPU,
// spent on a check the batch's CRC-32C (over the compressed bytes)
// already made, and that Fluss's Java writer does not even ask for (its
// frames carry no checksum). inflated hands arrow-go a message whose
// buffers are all "stored uncompressed" (length prefix -1), which it only
// slices.

// zstdDecoders are reused across messages; each is used by one goroutine
// at a time.
var zstdDecoders = sync.Pool{New: func() any {
	// Cap limit: DecodeAll fails rather than grow past the buffer sized
	// from the validated length prefix. One block decoder: no goroutines.
	d, err := zstd.NewReader(nil, zstd.IgnoreChecksum(true), zstd.WithDecodeAllCapLimit(true), zstd.WithDecoderConcurrency(1))
	if err != nil {
		panic(err) // only invalid options fail
	}
	return d
}}

// inflated returns m with its ZSTD buffers decompressed into a new body
// allocated from mem, each behind a -1 length prefix, and the metadata's
// buffer entries and body length rewritten to match (in a copy: m's bytes
// are the caller's). The caller owns the body's buffer. parseMessage has
// checked every buffer and the total decompressed size.
func inflated(m message, mem memory.Allocator) (message, *memory.Buffer, error) {
	size := 0
	for _, bs := range m.buffers {
		n, _ := storedLen(m.body, bs)
		size += align8(n)
	}
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(size)
	body := buf.Bytes()
	meta := slices.Clone(m.meta)
	bufs := make([]bufferSpec, len(m.buffers))
	dec := zstdDecoders.Get().(*zstd.Decoder)
	defer zstdDecoders.Put(dec)
	at := 0
	for i, bs := range m.buffers {
		src := m.body[bs.offset : bs.offset+bs.length]
		n, compressed := storedLen(m.body, bs)
		if !compressed {
			copy(body[at:], src) // empty, or stored uncompressed already
		} else {
			le.PutUint64(body[at:], math.MaxUint64) // -1: stored uncompressed
			dst := body[at+8 : at+8 : at+n]
			out, err := dec.DecodeAll(src[8:], dst)
			if err != nil || len(out) != n-8 {
				buf.Release()
				return message{}, nil, corrupt("ZSTD buffer %d: %d of %s, %v", i, len(out), plural.Count(n-8, "byte"), err)
			}
		}
		bufs[i] = bufferSpec{offset: int64(at), length: int64(n)}
		le.PutUint64(meta[m.buffersAt+structSize*i:], uint64(at))
		le.PutUint64(meta[m.buffersAt+structSize*i+8:], uint64(n))
		at += align8(n)
	}
	le.PutUint64(meta[m.bodyLenAt:], uint64(len(body)))
	m.meta, m.body, m.buffers = meta, body, bufs
	return m, buf, nil
}

// storedLen is the length buffer bs takes once decompressed, prefix
// included, and whether it is compressed at all.
func storedLen(body []byte, bs bufferSpec) (int, bool) {
	if bs.length < 8 {
		return int(bs.length), false
	}
	n := int64(le.Uint64(body[bs.offset:]))
	if n == -1 {
		return int(bs.length), false
	}
	return 8 + int(n), true
}
