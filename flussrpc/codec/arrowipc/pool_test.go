package arrowipc

import (
	"bytes"
	"testing"
	"unsafe"
)

// TestBufferPool checks what Arrow expects of an allocator: zeroed,
// 64-byte aligned buffers of the asked length, also when a freed (dirty)
// buffer is handed out again, and contents kept by Reallocate.
func TestBufferPool(t *testing.T) {
	var p BufferPool
	for _, size := range []int{0, 1, 63, 64, 65, 1000, 4096, 100_000, 1 << 20, 1<<26 + 1} {
		for round := 0; round < 2; round++ {
			b := p.Allocate(size)
			if len(b) != size {
				t.Fatalf("Allocate(%d): length %d", size, len(b))
			}
			if cap(b) > 0 && uintptr(unsafe.Pointer(unsafe.SliceData(b)))%64 != 0 {
				t.Errorf("Allocate(%d): not 64-byte aligned", size)
			}
			if bytes.Count(b, []byte{0}) != size {
				t.Fatalf("Allocate(%d) round %d: not zeroed", size, round)
			}
			fill(b, 0xAB)
			grown := p.Reallocate(size+100, b)
			if len(grown) != size+100 {
				t.Fatalf("Reallocate(%d): length %d", size+100, len(grown))
			}
			if bytes.Count(grown[:size], []byte{0xAB}) != size {
				t.Fatalf("Reallocate(%d) lost bytes", size+100)
			}
			p.Free(grown)
		}
	}
	p.Free(make([]byte, 100)) // not from the pool: ignored
}

// fill sets every byte of b to v (by doubling copies, which the race
// detector checks once per copy rather than per byte).
func fill(b []byte, v byte) {
	if len(b) == 0 {
		return
	}
	b[0] = v
	for n := 1; n < len(b); n *= 2 {
		copy(b[n:], b[:n])
	}
}
