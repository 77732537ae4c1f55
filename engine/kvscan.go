package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

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
	capErr := func() error {
		return &planner.Error{Clause: "fluss.scan.max-rows", Msg: fmt.Sprintf("result exceeds fluss.scan.max-rows=%d for a primary-key table scan; add LIMIT, narrow by partition, or raise the limit", maxRows)}
	}
	return &kvSource{t: h.t, buckets: buckets(h, parts), maxRows: maxRows, capErr: capErr}, pl, nil
}

// kvSource reads the current state of a primary-key table bucket by
// bucket: with SCAN_KV where the server has it (Fluss 1.x), otherwise with
// LIMIT_SCAN(maxRows+1), failing when a bucket or the total exceeds
// maxRows, because then the result would silently be incomplete.
type kvSource struct {
	t        *flussrpc.Table
	buckets  []bucketRef
	pos      int
	cur      *flussrpc.KVScanner
	useLimit bool
	maxRows  int64
	scanned  int64
	capErr   func() error
}

func (s *kvSource) next(ctx context.Context) ([][]any, error) {
	for {
		if s.cur != nil {
			rows, err := s.cur.Next(ctx)
			if errors.Is(err, io.EOF) {
				s.cur = nil
				continue
			}
			return rows, err
		}
		if s.pos >= len(s.buckets) {
			return nil, io.EOF
		}
		br := s.buckets[s.pos]
		s.pos++
		if !s.useLimit {
			sc, err := s.t.NewKVScanner(ctx, br.partition, br.bucket)
			switch {
			case errors.Is(err, flussrpc.ErrKVScanUnsupported):
				s.useLimit = true
			case err != nil:
				return nil, err
			default:
				s.cur = sc
				continue
			}
		}
		rows, err := s.t.LimitScan(ctx, br.partition, br.bucket, int(s.maxRows+1))
		if err != nil {
			return nil, err
		}
		s.scanned += int64(len(rows))
		if s.scanned > s.maxRows {
			return nil, s.capErr()
		}
		if len(rows) > 0 {
			return rows, nil
		}
	}
}

func (s *kvSource) close() {
	if s.cur != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		s.cur.Close(ctx)
		cancel()
	}
}
