package arrowipc

import (
	"math/bits"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// BufferPool is a memory.Allocator that keeps freed buffers for reuse, in
// power-of-two size classes from 64 bytes to 64 MiB (larger ones come and
// go with the garbage collector). A writer allocates and frees the same
// buffers batch after batch: Arrow builders, joined records, compressed
// bodies; taking them from a pool spares most of the garbage collector's
// work and the zeroing of fresh pages. Buffers are zeroed when handed
// out, as Go's allocator does. Its zero value is ready; it is safe for
// concurrent use, and a pooled buffer lives until a garbage collection
// (sync.Pool).
type BufferPool struct {
	classes [maxPoolClass + 1]sync.Pool
}

const (
	minPoolClass = 6  // 64 bytes, Arrow's buffer alignment
	maxPoolClass = 26 // 64 MiB
)

var _ memory.Allocator = (*BufferPool)(nil)

// poolClass is the size class holding n bytes.
func poolClass(n int) int {
	if n <= 1<<minPoolClass {
		return minPoolClass
	}
	return bits.Len(uint(n - 1))
}

// Allocate returns a zeroed buffer of size bytes, 64-byte aligned.
func (p *BufferPool) Allocate(size int) []byte {
	c := poolClass(size)
	if c > maxPoolClass {
		return memory.DefaultAllocator.Allocate(size)
	}
	if b, ok := p.classes[c].Get().(*[]byte); ok {
		buf := (*b)[:size]
		clear(buf)
		return buf
	}
	// A power-of-two size of 64 bytes or more is 64-byte aligned in Go's
	// size classes and large-object spans.
	return make([]byte, size, 1<<c)
}

// Reallocate grows or shrinks b to size bytes, keeping its contents.
func (p *BufferPool) Reallocate(size int, b []byte) []byte {
	if cap(b) >= size {
		return b[:size]
	}
	nb := p.Allocate(size)
	copy(nb, b)
	p.Free(b)
	return nb
}

// Free takes b back for reuse if it came from the pool.
func (p *BufferPool) Free(b []byte) {
	c := poolClass(cap(b))
	if c > maxPoolClass || cap(b) != 1<<c {
		return
	}
	b = b[:0]
	p.classes[c].Put(&b)
}
