package arrowipc

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// ConcatRecords joins records of one schema, in order, into a new record
// whose buffers come from mem (nil means memory.DefaultAllocator). A single
// record is returned itself with one more reference. The caller keeps its
// references to recs and releases the result.
func ConcatRecords(recs []arrow.RecordBatch, mem memory.Allocator) (arrow.RecordBatch, error) {
	switch len(recs) {
	case 0:
		return nil, fmt.Errorf("arrowipc: no records to join")
	case 1:
		recs[0].Retain()
		return recs[0], nil
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	sc := recs[0].Schema()
	cols := make([]arrow.Array, sc.NumFields())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	parts := make([]arrow.Array, len(recs))
	var rows int64
	for _, r := range recs {
		rows += r.NumRows()
	}
	for i := range cols {
		for k, r := range recs {
			parts[k] = r.Column(i)
		}
		c, err := array.Concatenate(parts, mem)
		if err != nil {
			return nil, fmt.Errorf("arrowipc: joining records: %w", err)
		}
		cols[i] = c
	}
	return array.NewRecordBatch(sc, cols, rows), nil
}
