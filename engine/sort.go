package engine

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/gofluss/fluss/internal/plural"
	"github.com/gofluss/fluss/internal/rowsort"
	"github.com/gofluss/fluss/planner"
)

// sorted runs a Sort plan: it reads the whole bounded input through its
// pipeline into a rowsort.Sorter, then applies OFFSET and LIMIT and cuts
// off the sort columns that only the ORDER BY needed.
func (c *Session) sorted(ctx context.Context, p *planner.Sort, b *binder) ([][]any, error) {
	lim, err := bindCount(p.Limit, b, -1, "LIMIT")
	if err != nil {
		return nil, err
	}
	off, err := bindCount(p.Offset, b, 0, "OFFSET")
	if err != nil {
		return nil, err
	}
	// A window within the bound keeps only its rows; a larger one (or
	// none) keeps every row up to the bound.
	keep := int64(-1)
	if lim >= 0 && off+lim >= 0 && off+lim <= p.MaxRows {
		keep = off + lim
	}
	s := rowsort.New(sortKeys(p.Keys), compareNullable, int(keep), int(p.MaxRows))
	src, pl, err := c.openScan(ctx, p.Input, b)
	if err != nil {
		return nil, err
	}
	defer src.close()
	st := pipelineState{pl: pl}
	for {
		in, err := src.next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, WrapError(err, "")
		}
		out, err := st.apply(in)
		for _, row := range out {
			if aerr := s.Add(row); aerr != nil {
				if errors.Is(aerr, rowsort.ErrTooManyRows) {
					return nil, sortCapError(p.MaxRows)
				}
				return nil, aerr
			}
		}
		if err != nil {
			return nil, err
		}
	}
	rows, err := s.Sorted()
	if err != nil {
		return nil, err
	}
	if off >= int64(len(rows)) {
		return nil, nil
	}
	rows = rows[off:]
	for i, r := range rows {
		rows[i] = r[:len(p.Output)]
	}
	return rows, nil
}

func sortKeys(keys []planner.SortKey) []rowsort.Key {
	out := make([]rowsort.Key, len(keys))
	for i, k := range keys {
		out[i] = rowsort.Key{Index: k.Column, Desc: k.Desc}
	}
	return out
}

// sortCapError explains a result too large to sort in the client.
func sortCapError(max int64) error {
	return &planner.Error{Clause: "ORDER BY", Msg: fmt.Sprintf("ORDER BY sorts in the client and holds at most fluss.scan.max-rows=%s, and the result has more: add or lower LIMIT, narrow WHERE, or raise 'fluss.scan.max-rows'", plural.Count(max, "row"))}
}
