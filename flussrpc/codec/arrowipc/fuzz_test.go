package arrowipc

import (
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gofluss/fluss/flussrpc/schema"
)

// recordingAllocator remembers the largest single allocation.
type recordingAllocator struct {
	memory.Allocator
	max atomic.Int64
}

func (r *recordingAllocator) note(n int) {
	for {
		cur := r.max.Load()
		if int64(n) <= cur || r.max.CompareAndSwap(cur, int64(n)) {
			return
		}
	}
}

func (r *recordingAllocator) Allocate(n int) []byte {
	r.note(n)
	return r.Allocator.Allocate(n)
}

func (r *recordingAllocator) Reallocate(n int, b []byte) []byte {
	r.note(n)
	return r.Allocator.Reallocate(n, b)
}

func fuzzSchemas() [][]schema.Column {
	return [][]schema.Column{
		allTypeColumns(),
		{col("id", schema.Int()), col("name", schema.String().NotNull())},
	}
}

// FuzzDecode feeds hostile bytes to the decoder: the first byte is the
// record count, the second selects the schema, the rest is the Arrow
// message. Decoding must fail with an error, never panic, and never
// allocate more than the limits allow.
func FuzzDecode(f *testing.F) {
	schemas := fuzzSchemas()
	for si, cols := range schemas {
		var rows [][]any
		if si == 0 {
			rows = allTypeRows(f)
		} else {
			rows = [][]any{{int32(1), "a"}, {nil, ""}, {int32(-7), "héllo"}}
		}
		for _, c := range allCompressions[:3] {
			msg := encodeRows(f, cols, c, nil, rows)
			f.Add(append([]byte{byte(len(rows)), byte(si)}, msg...))
		}
	}
	f.Add([]byte{0, 0})
	f.Add([]byte{1, 1, 0xff, 0xff, 0xff, 0xff, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})

	const limit = 1 << 20
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		alloc := &recordingAllocator{Allocator: memory.NewGoAllocator()}
		cols := schemas[int(data[1])%len(schemas)]
		dec, err := NewDecoder(cols, alloc, Limits{MaxDecompressedBytes: limit, MaxMetadataBytes: 64 << 10})
		if err != nil {
			t.Fatal(err)
		}
		defer dec.Release()
		rows, err := dec.DecodeRows(nil, data[2:], int(data[0]))
		if err == nil && len(rows) != int(data[0]) {
			t.Fatalf("%d rows for count %d", len(rows), data[0])
		}
		// Split checks what Decode checks before loading: whatever Decode
		// accepts, Split must accept too.
		if _, serr := dec.Split(data[2:], int(data[0])); err == nil && data[0] > 0 && serr != nil {
			t.Fatalf("Decode accepted what Split refused: %v", serr)
		}
		// arrow-go rounds allocations up to 64 bytes; leave room for that.
		if m := alloc.max.Load(); m > limit+64 {
			t.Fatalf("allocated %d bytes at once", m)
		}
	})
}

func TestFuzzSeedsDecode(t *testing.T) {
	// The unmodified seeds must decode; truncations and bit flips must not
	// panic (a quick deterministic sweep in addition to the fuzzer).
	for si, cols := range fuzzSchemas() {
		var rows [][]any
		if si == 0 {
			rows = allTypeRows(t)
		} else {
			rows = [][]any{{int32(1), "a"}, {nil, ""}, {int32(-7), "héllo"}}
		}
		for _, c := range allCompressions[:3] {
			msg := encodeRows(t, cols, c, nil, rows)
			dec, _ := NewDecoder(cols, nil, Limits{MaxDecompressedBytes: 1 << 20})
			if _, err := dec.DecodeRows(nil, msg, len(rows)); err != nil {
				t.Fatalf("seed: %v", err)
			}
			for cut := 0; cut < len(msg); cut += 3 {
				_, _ = dec.DecodeRows(nil, msg[:cut], len(rows))
			}
			mut := make([]byte, len(msg))
			for i := 0; i < len(msg); i++ {
				for _, x := range []byte{0x01, 0x80, 0xff} {
					copy(mut, msg)
					mut[i] ^= x
					_, _ = dec.DecodeRows(nil, mut, len(rows))
				}
			}
			dec.Release()
		}
	}
}
