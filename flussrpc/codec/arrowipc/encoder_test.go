package arrowipc

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gofluss/fluss/flussrpc/schema"
)

// TestParallelCompressionSameBytes: a record large enough to have its
// buffers compressed on several goroutines encodes to the bytes it has
// when compressed on one, and decodes back to its rows.
func TestParallelCompressionSameBytes(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	cols := benchColumns()
	var rows [][]any
	for range 3 {
		rows = append(rows, benchData()...)
	}
	for _, c := range []Compression{{Type: schema.CompressionLZ4}, {Type: schema.CompressionZstd, ZstdLevel: 3}} {
		t.Run(benchName(c), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			rb := appendRows(t, cols, mem, rows)
			defer rb.Release()
			rec := rb.NewRecord()
			defer rec.Release()
			if n := RecordBytes(rec); n < parallelCompressBytes {
				t.Fatalf("the record has %d bytes, too few to be compressed in parallel", n)
			}
			enc, err := NewEncoder(cols, c, mem)
			if err != nil {
				t.Fatal(err)
			}
			if enc.wideOpts == nil {
				t.Fatal("an encoder on 2 CPUs does not compress in parallel")
			}
			wide, err := enc.AppendMessage(nil, rec)
			if err != nil {
				t.Fatal(err)
			}
			enc.wideOpts = nil
			narrow, err := enc.AppendMessage(nil, rec)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(wide, narrow) {
				t.Fatalf("compressed in parallel: %d bytes unlike the %d of one goroutine", len(wide), len(narrow))
			}
			dec, err := NewDecoder(cols, mem, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			defer dec.Release()
			got, err := dec.DecodeRows(nil, wide, len(rows))
			if err != nil {
				t.Fatal(err)
			}
			sameRows(t, cols, got, rows)
		})
	}
}

// TestNoParallelCompressionOnOneCPU: with one CPU, or nothing to
// compress, records are encoded on the caller's goroutine alone.
func TestNoParallelCompressionOnOneCPU(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	enc, err := NewEncoder(benchColumns(), Compression{Type: schema.CompressionZstd, ZstdLevel: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if enc.wideOpts != nil {
		t.Error("an encoder on 1 CPU compresses in parallel")
	}
	runtime.GOMAXPROCS(2)
	if enc, _ := NewEncoder(benchColumns(), Compression{Type: schema.CompressionNone}, nil); enc.wideOpts != nil {
		t.Error("an encoder without compression has parallel compression options")
	}
}
