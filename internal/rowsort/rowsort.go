// Package rowsort orders rows in memory within a fixed bound. The driver
// uses it for ORDER BY on reads whose size it already bounds (lookups, IN
// lists, bounded scans): Fluss returns rows in per-bucket order, so any
// other order has to be made in the client.
//
// A Sorter that only needs the first n rows (ORDER BY ... LIMIT n, with
// OFFSET counted in n) keeps at most n rows in a heap, however many it is
// offered; one that needs every row keeps up to its maximum and then
// refuses further rows with ErrTooManyRows, so memory never grows past
// the bound the caller chose.
package rowsort

import (
	"cmp"
	"container/heap"
	"errors"
	"slices"
)

// ErrTooManyRows is returned by Add when a Sorter that keeps every row
// is offered more than its maximum.
var ErrTooManyRows = errors.New("rowsort: more rows than the sort bound")

// Key is one ORDER BY item: the position of the column in the row and the
// direction.
type Key struct {
	Index int
	Desc  bool
}

// Compare orders two column values (negative, zero, positive). nil is
// SQL NULL; the caller decides where it sorts.
type Compare func(a, b any) (int, error)

// Sorter collects rows and returns them ordered by its keys. Rows that
// compare equal keep the order in which they were added, so sorting is
// stable. A Sorter is not safe for concurrent use.
type Sorter struct {
	keys []Key
	cmp  Compare
	keep int // rows wanted; -1 for all
	max  int
	h    rowHeap
	seq  int
}

// entry is a row with its arrival number (the stable tie-break).
type entry struct {
	row []any
	seq int
}

// New returns a Sorter. keep is the number of leading rows wanted (-1 for
// every row); max bounds the rows held. A keep above max counts as -1: the
// Sorter then holds every row up to max and refuses more, so a window
// larger than the bound still works on a result that fits in it.
func New(keys []Key, compare Compare, keep, max int) *Sorter {
	if keep > max {
		keep = -1
	}
	s := &Sorter{keys: keys, cmp: compare, keep: keep, max: max}
	s.h.s = s
	return s
}

// compare orders a and b as the output lists them: by the keys, then by
// arrival. It records the first comparison error in the heap, and Add or
// Sorted returns it.
func (s *Sorter) compare(a, b entry) int {
	for _, k := range s.keys {
		c, err := s.cmp(a.row[k.Index], b.row[k.Index])
		if err != nil {
			if s.h.err == nil {
				s.h.err = err
			}
			break
		}
		if k.Desc {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	return cmp.Compare(a.seq, b.seq)
}

// Add offers one row. The Sorter keeps the row itself, not a copy.
func (s *Sorter) Add(row []any) error {
	e := entry{row: row, seq: s.seq}
	s.seq++
	switch {
	case s.keep == 0:
	case s.keep < 0:
		if len(s.h.rows) >= s.max {
			return ErrTooManyRows
		}
		s.h.rows = append(s.h.rows, e)
	case len(s.h.rows) < s.keep:
		heap.Push(&s.h, e)
	case s.compare(e, s.h.rows[0]) < 0:
		// The heap's root is the last of the rows kept so far.
		s.h.rows[0] = e
		heap.Fix(&s.h, 0)
	}
	return s.h.err
}

// Sorted returns the rows kept, in order. The Sorter must not be used
// afterwards.
func (s *Sorter) Sorted() ([][]any, error) {
	rows := s.h.rows
	slices.SortFunc(rows, s.compare)
	if s.h.err != nil {
		return nil, s.h.err
	}
	out := make([][]any, len(rows))
	for i, e := range rows {
		out[i] = e.row
	}
	return out, nil
}

// rowHeap is a max-heap in output order: its root is the row that would
// come last, the one to drop when a better row arrives.
type rowHeap struct {
	s    *Sorter
	rows []entry
	err  error
}

func (h *rowHeap) Len() int           { return len(h.rows) }
func (h *rowHeap) Less(i, j int) bool { return h.s.compare(h.rows[j], h.rows[i]) < 0 }
func (h *rowHeap) Swap(i, j int)      { h.rows[i], h.rows[j] = h.rows[j], h.rows[i] }
func (h *rowHeap) Push(x any)         { h.rows = append(h.rows, x.(entry)) }
func (h *rowHeap) Pop() any {
	e := h.rows[len(h.rows)-1]
	h.rows = h.rows[:len(h.rows)-1]
	return e
}
