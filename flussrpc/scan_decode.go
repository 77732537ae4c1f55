package flussrpc

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
)

// projection is a scan's column selection against the table's schema as
// of OpenTable.
type projection struct {
	columns   []schema.Column // output columns, in the requested order
	positions []int           // their positions in the table schema; nil = all
	sorted    []int           // positions ascending (the server's order)
	rank      []int           // output i is sorted-projected column rank[i]
	pushdown  bool            // ARROW table with a projection: done by the server
	format    codec.LogFormat
}

func newProjection(t *Table, names []string) (projection, error) {
	d := &t.info.Descriptor
	format, err := codec.ParseLogFormat(d.LogFormat())
	if err != nil {
		return projection{}, fmt.Errorf("flussrpc: scanning %s: %w", t.info.Path, err)
	}
	p := projection{format: format, columns: d.Schema.Columns}
	if names == nil {
		return p, nil
	}
	if len(names) == 0 {
		return projection{}, fmt.Errorf("flussrpc: scanning %s: empty projection", t.info.Path)
	}
	pos, err := d.Schema.ColumnIndexes(names)
	if err != nil {
		return projection{}, fmt.Errorf("flussrpc: scanning %s: %w", t.info.Path, err)
	}
	p.positions = pos
	p.sorted = slices.Clone(pos)
	slices.Sort(p.sorted)
	if len(slices.Compact(slices.Clone(p.sorted))) != len(p.sorted) {
		return projection{}, fmt.Errorf("flussrpc: scanning %s: projection %v names a column twice", t.info.Path, names)
	}
	p.rank = make([]int, len(pos))
	for i, x := range pos {
		p.rank[i], _ = slices.BinarySearch(p.sorted, x)
	}
	p.columns = make([]schema.Column, len(pos))
	for i, x := range pos {
		p.columns[i] = d.Schema.Columns[x]
	}
	p.pushdown = format == codec.LogArrow
	return p, nil
}

func (p *projection) sortedPositions32() []int32 {
	out := make([]int32, len(p.sorted))
	for i, x := range p.sorted {
		out[i] = int32(x)
	}
	return out
}

// fromFull projects a row of the table schema.
func (p *projection) fromFull(row []any) []any {
	if p.positions == nil {
		return row
	}
	out := make([]any, len(p.positions))
	for i, x := range p.positions {
		out[i] = row[x]
	}
	return out
}

// fromSorted reorders a row of the server-projected columns.
func (p *projection) fromSorted(row []any) []any {
	out := make([]any, len(p.rank))
	for i, r := range p.rank {
		out[i] = row[r]
	}
	return out
}

// scanDecoders decodes fetched batches of one scanner.
type scanDecoders struct {
	t     *Table
	proj  projection
	rows  rowsFunc
	logRd *evolveReaders     // row formats
	arrow *arrowScanDecoders // ARROW
	noCRC bool
	// decodeAhead lets prepare decode ARROW batches; PollArrowIPC clears
	// it (its batches mostly pass undecoded), Poll and PollArrow set it.
	decodeAhead atomic.Bool
}

// rowsFunc appends the records of buffered fetch c inside cur to out.
type rowsFunc func(ctx context.Context, out []ScanRecord, c *completedFetch, cur readWindow) ([]ScanRecord, int64, error)

func newScanDecoders(t *Table, proj projection, noCRC bool) (*scanDecoders, error) {
	d := &scanDecoders{t: t, proj: proj, noCRC: noCRC}
	d.decodeAhead.Store(true)
	if rf, ok := proj.format.RowFormat(); ok {
		d.logRd = newEvolveReaders(t, rf)
	} else {
		a, err := newArrowScanDecoders(t, proj)
		if err != nil {
			return nil, err
		}
		d.arrow = a
	}
	d.rows = d.decodeRows
	return d, nil
}

func (d *scanDecoders) release() {
	if d.arrow != nil {
		d.arrow.release()
	}
}

// batchFunc handles one batch that overlaps the cursor, with what its
// preparation left (nil if none).
type batchFunc func(b *codec.LogBatch, p *preparedBatch) error

// errTruncatedBatch reports a fetch that holds only the start of its
// first batch; the scanner retries the bucket with a larger fetch size.
var errTruncatedBatch = errors.New("flussrpc: fetch holds only part of a batch")

// eachBatch walks the batches of a fetch that overlap cur, checking CRCs,
// and returns the offset after the last batch seen. A fetch always starts
// with a whole batch (the server sends at least one), so a records blob
// without any is corrupt.
func (d *scanDecoders) eachBatch(c *completedFetch, cur readWindow, fn batchFunc) (int64, error) {
	next := cur.from
	it := codec.NewLogBatchIterator(c.records, c.line)
	seen := false
	for i := 0; ; i++ {
		b, ok := it.Next()
		if !ok {
			break
		}
		seen = true
		p := c.prep.batch(i)
		h := &b.Header
		if h.BaseOffset < 0 || h.LastOffsetDelta < 0 || int64(h.LastOffsetDelta) < int64(h.RecordCount)-1 {
			return next, fmt.Errorf("%w: batch at offset %d has %s but last offset delta %d", codec.ErrCorrupt, h.BaseOffset, plural.Count(h.RecordCount, "record"), h.LastOffsetDelta)
		}
		if cur.from >= 0 && h.LastOffset() < cur.from {
			continue
		}
		if cur.end >= 0 && h.BaseOffset >= cur.end {
			break
		}
		// Projected batches were rewritten by the server; Java skips their
		// CRC check too.
		if !d.skipCRC(c) && !p.checked() {
			if err := b.VerifyCRC(); err != nil {
				return next, fmt.Errorf("batch at offset %d: %w", h.BaseOffset, err)
			}
		}
		if err := fn(&b, p); err != nil {
			return next, fmt.Errorf("batch at offset %d: %w", h.BaseOffset, err)
		}
		next = max(next, h.NextOffset())
	}
	if err := it.Err(); err != nil {
		return next, err
	}
	if !seen && len(c.records) > 0 && it.Truncated() {
		return next, errTruncatedBatch
	}
	if !seen && len(c.records) > 0 {
		return next, fmt.Errorf("%w: no complete batch in %s", codec.ErrCorrupt, plural.Count(len(c.records), "fetched byte"))
	}
	return next, nil
}

func (d *scanDecoders) skipCRC(c *completedFetch) bool {
	return d.noCRC || (d.proj.pushdown && !c.remote)
}

// inWindow reports whether offset is to be returned.
func (cur readWindow) inWindow(offset int64) bool {
	return offset >= cur.from && (cur.end < 0 || offset < cur.end)
}

// decodeRows is the rowsFunc of every log format.
func (d *scanDecoders) decodeRows(ctx context.Context, out []ScanRecord, c *completedFetch, cur readWindow) ([]ScanRecord, int64, error) {
	out = slices.Grow(out, recordCount(c, cur))
	next, err := d.eachBatch(c, cur, func(b *codec.LogBatch, p *preparedBatch) error {
		h := &b.Header
		if d.arrow != nil {
			var err error
			out, err = d.arrow.rows(ctx, out, b, c.remote, cur, p)
			return err
		}
		rd, err := d.logRd.get(ctx, h.SchemaID)
		if err != nil {
			return err
		}
		return b.RawRecords(func(off int64, ct codec.ChangeType, raw []byte) error {
			if !cur.inWindow(off) {
				return nil
			}
			row, err := rd.decode(raw)
			if err != nil {
				return fmt.Errorf("record %d: %w", off, err)
			}
			out = append(out, ScanRecord{
				Partition: cur.partition, Bucket: cur.bucket, Offset: off,
				Timestamp: h.CommitTimestamp, ChangeType: ct, Row: d.proj.fromFull(row),
			})
			return nil
		})
	})
	return out, next, err
}

// recordCount estimates the records of a fetch (from the batch headers)
// so that the output grows once.
func recordCount(c *completedFetch, cur readWindow) int {
	n := 0
	it := codec.NewLogBatchIterator(c.records, c.line)
	for {
		b, ok := it.Next()
		if !ok {
			return min(n, len(c.records)) // a record takes at least one byte
		}
		if cur.from < 0 || b.Header.LastOffset() >= cur.from {
			n += int(b.Header.RecordCount)
		}
	}
}
