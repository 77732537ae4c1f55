package arrowipc

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// scribble overwrites every buffer of d and its children, as a pooled
// allocator reusing a released record's memory would.
func scribble(d arrow.ArrayData) {
	for _, b := range d.Buffers() {
		if b != nil {
			bs := b.Bytes()
			for i := range bs {
				bs[i] = 0xA5
			}
		}
	}
	for _, c := range d.Children() {
		scribble(c)
	}
}

// Read of a record, whole or sliced, holds the values AppendRows makes of
// it (NULLs included), and none of them aliases the record's buffers.
func TestReadColumns(t *testing.T) {
	cols := allTypeColumns()
	rows := allTypeRows(t)
	cr, err := NewColumnReader(cols)
	if err != nil {
		t.Fatal(err)
	}
	for _, span := range [][2]int64{{0, int64(3 * len(rows))}, {1, 4}, {2, int64(3*len(rows)) - 1}, {0, 0}} {
		full := allTypeRecord(t, nil, 3)
		part := full.NewSlice(span[0], span[1])
		got, err := cr.Read(part)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range full.Columns() {
			scribble(c.Data())
		}
		part.Release()
		full.Release()
		if got.NumRows() != int(span[1]-span[0]) {
			t.Fatalf("slice %v: %d rows", span, got.NumRows())
		}
		for r := 0; r < got.NumRows(); r++ {
			want := rows[(int(span[0])+r)%len(rows)]
			for c := range cols {
				if g := got.Value(c, r); !equalValue(want[c], g) {
					t.Errorf("slice %v row %d column %s: got %v, want %v", span, r, cols[c].Name, g, want[c])
				}
			}
		}
	}
}

// A record of another width is refused, not read out of bounds.
func TestReadColumnsWidth(t *testing.T) {
	cr, err := NewColumnReader(allTypeColumns()[:2])
	if err != nil {
		t.Fatal(err)
	}
	rb, err := NewRowBuilder(allTypeColumns()[:3], nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rb.Release()
	rec := rb.NewRecord()
	defer rec.Release()
	if _, err := cr.Read(rec); err == nil {
		t.Fatal("a record of 3 columns read with a reader of 2")
	}
}
