package engine

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"

	"github.com/gofluss/fluss/planner"
)

// A log scan whose result order is not specified can be read in parts, one
// per subset of the table's buckets, by several readers at once: a Flight
// SQL server hands each part to the client as an endpoint of its own, and
// the client (ADBC) reads the endpoints in parallel.

// Split names a part of a log scan: the buckets whose id modulo Of is
// Index, in every partition read. Split{} (Of 0) is the whole scan. The
// parts of one Of cover every bucket once, whatever the table's bucket
// count, so parts stay right when planned and read at different times.
type Split struct {
	Index, Of int
}

// of keeps the buckets of the part.
func (sp Split) of(brs []bucketRef) []bucketRef {
	if sp.Of <= 1 {
		return brs
	}
	out := brs[:0:0]
	for _, br := range brs {
		if int(br.bucket)%sp.Of == sp.Index {
			out = append(out, br)
		}
	}
	return out
}

// errNotSplit refuses a Split of a query that is read whole.
var errNotSplit = errors.New("fluss: this query is not read in parts; only a log scan without ORDER BY, LIMIT, OFFSET or aggregate is")

// splittable reports whether a plan is a log scan whose rows come in no
// particular order and whose size no clause bounds: a plain log scan with
// neither LIMIT nor OFFSET, nor a row cap (fluss.scan.max-rows counts the
// whole result). Sorts, aggregates and lookups are other plans.
func splittable(p planner.QueryPlan) (*planner.LogScan, bool) {
	ls, ok := p.(*planner.LogScan)
	return ls, ok && ls.Limit == nil && ls.Offset == nil && ls.MaxRows == 0
}

// ScanParts reports into how many parts (no more than most) the statement can
// be read with Session.QueryArrowSplit: the table's bucket count for a
// splittable log scan (see Split), else 1. It plans the statement but
// reads nothing.
func (p *Prepared) ScanParts(ctx context.Context, most int) (int, error) {
	pl, err := p.Plan(ctx)
	if err != nil {
		return 0, err
	}
	qp, ok := pl.(planner.QueryPlan)
	if !ok {
		return 1, nil
	}
	ls, ok := splittable(qp)
	if !ok || most <= 1 {
		return 1, nil
	}
	h, err := p.s.handle(ctx, ls.Table)
	if err != nil {
		return 0, err
	}
	return max(min(h.t.Info().NumBuckets(), most), 1), nil
}

// QueryArrowSplit is QueryArrow of the part sp of a query
// Prepared.ScanParts said can be read in sp.Of parts; the parts of one Of
// together are the query's result, each row once. Split{} reads it all.
func (c *Session) QueryArrowSplit(ctx context.Context, query string, args []driver.NamedValue, sp Split) (*ArrowReader, error) {
	if sp != (Split{}) && (sp.Index < 0 || sp.Index >= sp.Of) {
		return nil, fmt.Errorf("fluss: part %d of %d does not exist", sp.Index, sp.Of)
	}
	return c.queryArrow(ctx, query, args, sp)
}

// openPart is openScan of the part sp of a plan.
func (c *Session) openPart(ctx context.Context, p planner.QueryPlan, b *binder, sp Split) (scanSource, scanPipeline, error) {
	if sp.Of <= 1 {
		return c.openScan(ctx, p, b)
	}
	ls, ok := splittable(p)
	if !ok {
		return nil, scanPipeline{limit: -1}, errNotSplit
	}
	spec := logScanSpecOf(ls)
	spec.split = sp
	return c.logScan(ctx, spec, b)
}

// logScanSpecOf is the scan of a LogScan plan.
func logScanSpecOf(p *planner.LogScan) logScanSpec {
	return logScanSpec{table: p.Table, start: p.Start, stop: p.Stop, partFilter: p.PartitionFilter,
		filter: p.Filter, maxRows: p.MaxRows, proj: p.Projection, limit: p.Limit, offset: p.Offset, fetch: p.Fetch}
}
