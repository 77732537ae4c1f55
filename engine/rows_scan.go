package engine

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"sync"

	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
	"github.com/gofluss/fluss/planner"
	"github.com/gofluss/fluss/typeconv"
)

// scanSource produces the rows of a scan chunk by chunk, in the shape the
// scan was compiled for (see scanShape). next returns io.EOF at the end.
// It is only called from the scanRows producer goroutine; close is called
// once, after that goroutine ended.
type scanSource interface {
	next(ctx context.Context) ([][]any, error)
	close()
}

// columnSource is a scanSource that may also hand out its chunks as
// record batches read column by column (a plain scan of an ARROW table).
// A pipeline that only projects takes them: no row is made of a record,
// Next reads each value straight from the batch's columns, which spares
// the allocation and garbage collection of a slice per row.
type columnSource interface {
	scanSource
	// columnar reports whether nextColumns may be called.
	columnar() bool
	// nextColumns is next, with the chunk's rows held column by column.
	nextColumns(ctx context.Context) ([]*arrowipc.Columns, error)
}

// scanPipeline is what happens to a source's rows before they are handed
// out: the client-side filter, OFFSET, LIMIT, the result cap, and the
// projection onto the output columns.
type scanPipeline struct {
	filter *rowFilter
	proj   []int // source row positions of the output columns
	offset int64
	limit  int64 // -1: none
	// maxRows caps the rows that pass the filter (0: no cap); capErr
	// explains the failure.
	maxRows int64
	capErr  func() error
}

// projectsOnly reports whether the pipeline at most reorders and drops
// columns: every source row is a result row.
func (pl *scanPipeline) projectsOnly() bool {
	return pl.filter == nil && pl.offset == 0 && pl.limit < 0 && pl.maxRows == 0
}

// scanPrefetch is how many chunks the producer may read ahead of Next.
// Together with the scanner's own fetch buffer it bounds the memory of a
// scan regardless of its size.
const scanPrefetch = 2

// scanRows streams the rows of a scan. A producer goroutine pulls chunks
// from the source, filters and projects them, and hands them over a
// channel of scanPrefetch chunks; Next converts one row at a time with
// typeconv.FromValue. Chunks of a columnSource pass unchanged, and Next
// applies the projection as it reads them.
//
// The query's context governs the whole life of the rows (database/sql
// gives Next no context): when it ends, Next returns its error at once and
// the producer stops. Close may be called from any goroutine, also while
// Next waits; it stops the producer, waits for it to exit and then closes
// the source, so no fetch outlives the rows.
type scanRows struct {
	// memRows carries the column metadata: the five ColumnType methods
	// and Columns are memRows', so both kinds of rows describe their
	// columns identically.
	*memRows

	ctx    context.Context
	cancel context.CancelFunc
	ch     chan scanChunk
	exited chan struct{}
	src    scanSource
	// colProj are the batch columns of the output columns when chunks
	// come column by column (nil: the identity).
	colProj []int
	// direct marks the output columns whose batch values pass through
	// (typeconv.PassesThrough): they skip typeconv.FromValue. Made on the
	// first row.
	direct []bool

	cur   scanChunk
	batch int // the batch of cur.batches being read
	pos   int // the next row of cur.rows or of that batch
	err   error

	closeOnce sync.Once
	// onClose, when set, is told at Close how the rows ended: nil, or
	// the error Next returned (hooks.go ends a statement's trace there).
	onClose func(err error)
}

type scanChunk struct {
	rows    [][]any
	batches []*arrowipc.Columns // instead of rows, from a columnSource
	err     error
}

var (
	_ driver.Rows                           = (*scanRows)(nil)
	_ driver.RowsColumnTypeScanType         = (*scanRows)(nil)
	_ driver.RowsColumnTypeDatabaseTypeName = (*scanRows)(nil)
	_ driver.RowsColumnTypeNullable         = (*scanRows)(nil)
	_ driver.RowsColumnTypePrecisionScale   = (*scanRows)(nil)
	_ driver.RowsColumnTypeLength           = (*scanRows)(nil)
)

// newScanRows starts streaming src through pl. The rows own src.
func newScanRows(ctx context.Context, cols []planner.Column, opts typeconv.OutOptions, src scanSource, pl scanPipeline) *scanRows {
	pctx, cancel := context.WithCancel(ctx)
	r := &scanRows{
		memRows: newMemRows(cols, nil, opts),
		ctx:     ctx,
		cancel:  cancel,
		ch:      make(chan scanChunk, scanPrefetch),
		exited:  make(chan struct{}),
		src:     src,
	}
	pull := r.pullRows(pl)
	if cs, ok := src.(columnSource); ok && pl.projectsOnly() && cs.columnar() {
		r.colProj = pl.proj
		pull = func(ctx context.Context) (scanChunk, bool, error) {
			bs, err := cs.nextColumns(ctx)
			return scanChunk{batches: bs}, false, err
		}
	}
	go r.produce(pctx, pull)
	return r
}

// pullRows returns the producer's step for chunks of rows: the source's
// next chunk through pl, and whether LIMIT is reached with it.
func (r *scanRows) pullRows(pl scanPipeline) func(ctx context.Context) (scanChunk, bool, error) {
	st := &pipelineState{pl: pl}
	return func(ctx context.Context) (scanChunk, bool, error) {
		in, err := r.src.next(ctx)
		if err != nil {
			return scanChunk{}, true, err
		}
		out, err := st.apply(in)
		return scanChunk{rows: out, err: err}, st.done(), nil
	}
}

// produce runs pull until the source ends, fails, the chunks are all
// wanted, or ctx ends.
func (r *scanRows) produce(ctx context.Context, pull func(context.Context) (scanChunk, bool, error)) {
	defer close(r.exited)
	defer close(r.ch)
	send := func(c scanChunk) bool {
		select {
		case r.ch <- c:
			return true
		case <-ctx.Done():
			return false
		}
	}
	for {
		c, done, err := pull(ctx)
		if err != nil {
			if !errors.Is(err, io.EOF) {
				if ctx.Err() != nil {
					err = ctx.Err()
				}
				send(scanChunk{err: WrapError(err, "")})
			}
			return
		}
		if (len(c.rows) > 0 || len(c.batches) > 0 || c.err != nil) && !send(c) {
			return
		}
		if done || c.err != nil {
			return
		}
	}
}

// pipelineState applies a scanPipeline to successive chunks.
type pipelineState struct {
	pl                       scanPipeline
	skipped, emitted, passed int64
}

// done reports whether LIMIT is reached (no more rows are wanted).
func (s *pipelineState) done() bool { return s.pl.limit >= 0 && s.emitted >= s.pl.limit }

// apply filters, skips, limits and projects one chunk. A pipeline that
// changes nothing hands the chunk on as it is.
func (s *pipelineState) apply(in [][]any) ([][]any, error) {
	pl := &s.pl
	if pl.projectsOnly() && pl.proj == nil {
		s.passed += int64(len(in))
		s.emitted += int64(len(in))
		return in, nil
	}
	out := make([][]any, 0, len(in))
	for _, row := range in {
		if s.done() {
			break
		}
		ok, err := pl.filter.match(row)
		if err != nil {
			return out, err
		}
		if !ok {
			continue
		}
		s.passed++
		if pl.maxRows > 0 && s.passed > pl.maxRows {
			return out, pl.capErr()
		}
		if s.skipped < pl.offset {
			s.skipped++
			continue
		}
		out = append(out, project(row, pl.proj))
		s.emitted++
	}
	return out, nil
}

// project returns the output columns of a source row. The identity
// projection reuses the row.
func project(row []any, proj []int) []any {
	if proj == nil {
		return row
	}
	out := make([]any, len(proj))
	for i, j := range proj {
		out[i] = row[j]
	}
	return out
}

// Next converts the next row into dest, waiting for the producer when
// the current chunk is used up.
func (r *scanRows) Next(dest []driver.Value) error {
	for !r.hasRow() {
		if r.err != nil {
			return r.err
		}
		select {
		case c, ok := <-r.ch:
			if !ok {
				// The producer ended: a cancelled query reports that,
				// anything else is the end of the rows.
				if err := r.ctx.Err(); err != nil {
					r.err = err
					return err
				}
				r.err = io.EOF
				return io.EOF
			}
			r.cur, r.batch, r.pos = c, 0, 0
			if c.err != nil {
				r.err = c.err
			}
		case <-r.ctx.Done():
			r.err = r.ctx.Err()
			return r.err
		}
	}
	if r.cur.batches != nil {
		return r.convertColumns(dest)
	}
	row := r.cur.rows[r.pos]
	r.cur.rows[r.pos] = nil
	r.pos++
	return r.convert(row, dest)
}

// hasRow reports whether the current chunk has a row left, moving on to
// its next batch when one is used up (and letting go of that one).
func (r *scanRows) hasRow() bool {
	if r.cur.batches == nil {
		return r.pos < len(r.cur.rows)
	}
	for ; r.batch < len(r.cur.batches); r.batch, r.pos = r.batch+1, 0 {
		if r.pos < r.cur.batches[r.batch].NumRows() {
			return true
		}
		r.cur.batches[r.batch] = nil
	}
	return false
}

// convertColumns converts the next row of the current batch into dest.
func (r *scanRows) convertColumns(dest []driver.Value) error {
	b, row := r.cur.batches[r.batch], r.pos
	r.pos++
	if r.direct == nil {
		r.direct = make([]bool, len(r.cols))
		for i, c := range r.cols {
			r.direct[i] = typeconv.PassesThrough(c.Type)
		}
	}
	for i := range dest {
		c := i
		if r.colProj != nil {
			c = r.colProj[i]
		}
		v := b.Value(c, row)
		if r.direct[i] {
			// A batch's values are codec values by construction.
			dest[i] = v
		} else if err := r.set(dest, i, v); err != nil {
			return err
		}
	}
	return nil
}

// Close stops the scan and releases the source. It is idempotent and
// safe to call from any goroutine.
func (r *scanRows) Close() error {
	r.closeOnce.Do(func() {
		r.cancel()
		<-r.exited
		r.src.close()
		if r.onClose != nil {
			err := r.err
			if err == io.EOF {
				err = nil
			}
			r.onClose(err)
		}
	})
	return nil
}

// sliceSource serves rows already in memory as one chunk.
type sliceSource struct{ rows [][]any }

func (s *sliceSource) next(context.Context) ([][]any, error) {
	if s.rows == nil {
		return nil, io.EOF
	}
	rows := s.rows
	s.rows = nil
	return rows, nil
}

func (s *sliceSource) close() {}
