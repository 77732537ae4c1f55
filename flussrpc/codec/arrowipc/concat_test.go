package arrowipc

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gofluss/fluss/flussrpc/schema"
)

// TestConcatRecords joins slices of a record of every type (odd offsets
// included) and reads the rows back through the encoder and decoder.
func TestConcatRecords(t *testing.T) {
	cols := allTypeColumns()
	rows := allTypeRows(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	full := allTypeRecord(t, mem, 3)
	defer full.Release()
	n := full.NumRows()
	var parts []arrow.RecordBatch
	for _, span := range [][2]int64{{0, 3}, {3, 4}, {4, n - 5}, {n - 5, n}} {
		parts = append(parts, full.NewSlice(span[0], span[1]))
	}
	defer func() {
		for _, p := range parts {
			p.Release()
		}
	}()
	if _, err := ConcatRecords(nil, mem); err == nil {
		t.Error("joining no records succeeded")
	}
	one, err := ConcatRecords(parts[:1], mem)
	if err != nil || one != parts[0] {
		t.Fatalf("one record: got %v, %v; want the record itself", one, err)
	}
	one.Release()
	joined, err := ConcatRecords(parts, mem)
	if err != nil {
		t.Fatal(err)
	}
	defer joined.Release()
	if joined.NumRows() != n {
		t.Fatalf("%d rows, want %d", joined.NumRows(), n)
	}
	enc, err := NewEncoder(cols, Compression{Type: schema.CompressionZstd, ZstdLevel: 3}, mem)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := enc.AppendMessage(nil, joined)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := NewDecoder(cols, mem, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Release()
	got, err := dec.DecodeRows(nil, msg, int(n))
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range got {
		if want := rows[i%len(rows)]; !equalValue(want, g) {
			t.Errorf("row %d: got %v, want %v", i, g, want)
		}
	}
}
