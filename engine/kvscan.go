package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/planner"
)

// Scans of primary-key tables: planner.KvScan.

func (c *Session) kvScan(ctx context.Context, p *planner.KvScan, b *binder) (scanSource, scanPipeline, error) {
	pl := scanPipeline{limit: -1}
	h, err := c.handle(ctx, p.Table)
	if err != nil {
		return nil, pl, err
	}
	names := schemaNames(h)
	if pl.filter, err = compileFilter(p.Filter, names, b); err != nil {
		return nil, pl, err
	}
	pl.proj = p.Projection.Indexes
	if len(pl.proj) == len(names) {
		identity := true
		for i, j := range pl.proj {
			identity = identity && i == j
		}
		if identity {
			pl.proj = nil
		}
	}
	if pl.limit, err = bindCount(p.Limit, b, -1, "LIMIT"); err != nil {
		return nil, pl, err
	}
	if pl.offset, err = bindCount(p.Offset, b, 0, "OFFSET"); err != nil {
		return nil, pl, err
	}
	if pl.limit == 0 {
		return &sliceSource{rows: [][]any{}}, pl, nil
	}
	parts, err := c.partitions(ctx, h, p.PartitionFilter, names, b)
	if err != nil {
		return nil, pl, err
	}
	maxRows := p.MaxRows
	if maxRows <= 0 {
		maxRows = planner.DefaultScanMaxRows
	}
	return &kvSource{sc: h.t.ScanTable(parts, maxRows), maxRows: maxRows}, pl, nil
}

// kvSource is a flussrpc.TableScan whose row cap is the
// fluss.scan.max-rows option.
type kvSource struct {
	sc      *flussrpc.TableScan
	maxRows int64
}

func (s *kvSource) next(ctx context.Context) ([][]any, error) {
	rows, err := s.sc.Next(ctx)
	return rows, s.explain(err)
}

// explain turns the scan's row cap into the option that sets it.
func (s *kvSource) explain(err error) error {
	if errors.Is(err, flussrpc.ErrRowCap) {
		return &planner.Error{Clause: "fluss.scan.max-rows", Msg: fmt.Sprintf("result exceeds fluss.scan.max-rows=%d for a primary-key table scan; add LIMIT, narrow by partition, or raise the limit", s.maxRows)}
	}
	return err
}

func (s *kvSource) close() { s.sc.Close() }
