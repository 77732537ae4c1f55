package engine

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
	"github.com/gofluss/fluss/parser"
	"github.com/gofluss/fluss/planner"
)

// tablePath resolves "t" (in the session's database) or "db.t"; names
// may be quoted with backquotes or double quotes.
func (c *Session) tablePath(name string) (flussrpc.TablePath, error) {
	unq := func(s string) string {
		s = strings.TrimSpace(s)
		if len(s) >= 2 && (s[0] == '`' && s[len(s)-1] == '`' || s[0] == '"' && s[len(s)-1] == '"') {
			s = s[1 : len(s)-1]
		}
		return s
	}
	parts := strings.Split(name, ".")
	switch len(parts) {
	case 1:
		if c.sess.Database == "" {
			return flussrpc.TablePath{}, fmt.Errorf("fluss: table %q has no database and the session has none (qualify it as db.table)", name)
		}
		return flussrpc.TablePath{Database: c.sess.Database, Table: unq(parts[0])}, nil
	case 2:
		return flussrpc.TablePath{Database: unq(parts[0]), Table: unq(parts[1])}, nil
	case 3:
		return flussrpc.TablePath{Database: unq(parts[1]), Table: unq(parts[2])}, nil
	}
	return flussrpc.TablePath{}, fmt.Errorf("fluss: %q is not a table name", name)
}

// rawWriter returns the session's writer for a table named by the user,
// retrying once when the cached table info was stale.
func (c *Session) rawWriter(ctx context.Context, table string, kind writerKind) (*connWriter, error) {
	path, err := c.tablePath(table)
	if err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		info, err := c.cat.TableInfo(ctx, path)
		if err != nil {
			return nil, WrapError(err, "")
		}
		pt := planner.Table{Path: path, TableID: info.TableID, SchemaID: info.SchemaID}
		w, err := c.writer(ctx, pt, kind, nil, flussrpc.MergeDefault, nil)
		if errors.Is(err, errStalePlan) && attempt == 0 {
			continue
		}
		return w, WrapError(err, "")
	}
}

// AppendArrow appends an Arrow record batch to a log table with the
// native AppendWriter.AppendArrow (no per-row conversion: for tables
// without bucket key and partitions the record is encoded as it is),
// flushes, and returns the number of rows acknowledged. The record's
// schema must be the table's Arrow schema (the one QueryArrow returns for
// SELECT * FROM table). Writer options come from the session and the DSN
// as for INSERT. It writes immediately even inside a write-batch
// transaction. The caller keeps its reference to rec.
func (c *Session) AppendArrow(ctx context.Context, table string, rec arrow.RecordBatch) (int64, error) {
	w, err := c.rawWriter(ctx, table, appendWriter)
	if err != nil {
		return 0, err
	}
	if w.app == nil {
		return 0, fmt.Errorf("fluss: %s is a primary-key table; use UpsertArrow", table)
	}
	r, err := w.app.AppendArrow(ctx, rec)
	if err != nil {
		return 0, WrapError(err, "")
	}
	if err := w.app.Flush(ctx); err != nil {
		return 0, WrapError(err, "")
	}
	if err := r.Wait(ctx); err != nil {
		return 0, WrapError(err, "")
	}
	return rec.NumRows(), nil
}

// UpsertArrow upserts the rows of an Arrow record batch into a
// primary-key table, flushes, and returns the number of rows
// acknowledged. The native upsert writer takes rows, not Arrow, so the
// record is converted row by row (no faster than multi-row INSERT, but
// handy when the data is Arrow already). The schema must be the table's
// Arrow schema. It writes immediately even inside a write-batch
// transaction.
func (c *Session) UpsertArrow(ctx context.Context, table string, rec arrow.RecordBatch) (int64, error) {
	w, err := c.rawWriter(ctx, table, upsertWriter)
	if err != nil {
		return 0, err
	}
	cols := w.h.t.Info().Descriptor.Schema.Columns
	dec, err := arrowipc.NewDecoder(cols, nil, arrowipc.Limits{})
	if err != nil {
		return 0, err
	}
	defer dec.Release()
	if err := fitsColumns(cols, rec.Schema()); err != nil {
		return 0, fmt.Errorf("fluss: UpsertArrow into %s: %w", table, err)
	}
	rows, err := dec.AppendRows(nil, rec)
	if err != nil {
		return 0, err
	}
	results := make([]flussrpc.WriteResult, 0, len(rows))
	for _, row := range rows {
		r, err := w.ups.Upsert(ctx, row)
		if err != nil {
			return 0, WrapError(err, "")
		}
		results = append(results, r)
	}
	ferr := w.ups.Flush(ctx)
	acked, werr := awaitResults(ctx, results)
	return acked, WrapError(errors.Join(werr, ferr), "")
}

// fitsColumns checks that a record has the table's column types in
// order (arrowipc.FitsType: a time zone is fine on TIMESTAMP_LTZ). Names
// and nullability may differ: a nullable field for a NOT NULL column is
// fine as long as it holds no NULL, which the writer checks row by row.
func fitsColumns(cols []schema.Column, rec *arrow.Schema) error {
	if len(cols) != rec.NumFields() {
		return fmt.Errorf("the record has %s, the table %d", plural.Count(rec.NumFields(), "column"), len(cols))
	}
	for i, c := range cols {
		if rf := rec.Field(i); !arrowipc.FitsType(rf.Type, c.Type) {
			want, _ := arrowipc.ArrowType(c.Type)
			return fmt.Errorf("column %d (%s) is %s in the record, the table's %s needs %s", i+1, c.Name, rf.Type, c.Type, want)
		}
	}
	return nil
}

// arrowBatchRows is how many rows an ArrowReader collects per record
// (fewer at the end of the scan).
const arrowBatchRows = 64 << 10

// ArrowReader streams the result of QueryArrow as Arrow record batches.
// It implements array.RecordReader. Not safe for concurrent use.
type ArrowReader struct {
	refs   atomic.Int64
	ctx    context.Context
	src    scanSource
	st     pipelineState
	bld    *arrowipc.RowBuilder
	cols   []schema.Column
	schema *arrow.Schema
	cur    arrow.RecordBatch
	ipc    *arrowipc.Message // instead of cur, see PassIPC
	err    error
	eof    bool
	// direct is set when the source's Arrow batches are the result.
	direct *directArrow
	// kv is set when a primary-key table scan's records are the result,
	// projected by kvProj (nil: as they are).
	kv     *kvSource
	kvProj []int
	// engine, instead of src, gives the records of a query engine
	// (analytic.go).
	engine array.RecordReader
	// onRelease, when set, is told at the last Release how the records
	// ended: nil, or the error Err reports (hooks.go ends a statement's
	// trace there).
	onRelease func(err error)
}

// directArrow hands out the Arrow batches of a log scan, reshaped to the
// result's schema.
type directArrow struct {
	src *logSource
	// proj is the batch column of each result column; nil: the same.
	proj  []int
	queue []flussrpc.ArrowScanBatch
	// ipc, set by PassIPC, polls with PollArrowIPC.
	ipc *flussrpc.ArrowIPCOptions
}

var _ array.RecordReader = (*ArrowReader)(nil)

// QueryArrow runs a query and returns its rows as Arrow record batches,
// in the Arrow schema Fluss uses for the result columns (QueryArrow of
// SELECT * FROM t gives the schema AppendArrow expects for t).
//
// A log scan the client neither filters nor windows (no WHERE on
// non-partition columns, no LIMIT or OFFSET) hands out the log batches as
// flussrpc's LogScanner.PollArrow decodes them, one record per batch, with
// no row-by-row detour; so does an unfiltered, unwindowed scan of a
// primary-key table, whose LIMIT_SCAN answers are decoded field by field
// into records (flussrpc.TableScan.NextArrow). Other plans decode rows
// into the codec value model and build them into Arrow again, which saves
// only the database/sql conversion per value. Every read plan is accepted; lookups, COUNT and LIMIT scans are read at
// once and come back as one record. The reader fetches with ctx until it
// is released; keep ctx alive (and the session open) until then. It
// takes one statement; args are bound as in Prepared.Run.
func (c *Session) QueryArrow(ctx context.Context, query string, args []driver.NamedValue) (*ArrowReader, error) {
	return c.queryArrow(ctx, query, args, Split{})
}

// queryArrow is QueryArrow of the part sp of the result (see
// QueryArrowSplit).
func (c *Session) queryArrow(ctx context.Context, query string, args []driver.NamedValue, sp Split) (*ArrowReader, error) {
	stmts, err := parser.ParseScript(query)
	if err != nil {
		return nil, err
	}
	if len(stmts) != 1 {
		return nil, errors.New("fluss: QueryArrow runs a single statement")
	}
	if err := checkArgs(stmts[0], args); err != nil {
		return nil, err
	}
	pr := c.Prepare(stmts[0])
	if t := c.cat.tracers.exec; t != nil {
		tr := c.startExec(ctx, t, pr.Text())
		r, err := c.queryPrepared(tr.ctx, pr, args, sp)
		if err != nil {
			tr.end(pr.plan, 0, err)
			return nil, err
		}
		r.onRelease = func(err error) { tr.end(pr.plan, 0, err) }
		return r, nil
	}
	return c.queryPrepared(ctx, pr, args, sp)
}

// queryPrepared is queryArrow of a statement parsed and checked, without
// its tracing.
func (c *Session) queryPrepared(ctx context.Context, pr *Prepared, args []driver.NamedValue, sp Split) (*ArrowReader, error) {
	b := &binder{args: args, cn: c}
	for attempt := 0; ; attempt++ {
		p, err := pr.Plan(ctx)
		if err != nil {
			return nil, err
		}
		if a, ok := p.(*planner.Analytic); ok {
			if sp.Of > 1 {
				return nil, errNotSplit
			}
			return c.analytic(ctx, a, b)
		}
		qp, ok := p.(planner.QueryPlan)
		if !ok {
			return nil, fmt.Errorf("fluss: QueryArrow needs a query; %s is not one", planKind(p))
		}
		src, pl, err := c.openPart(ctx, qp, b, sp)
		if errors.Is(err, errStalePlan) && attempt == 0 {
			pr.plan = nil
			continue
		}
		if err != nil {
			return nil, err
		}
		return newArrowReader(ctx, qp.OutputColumns(), src, pl)
	}
}

func newArrowReader(ctx context.Context, out []planner.Column, src scanSource, pl scanPipeline) (*ArrowReader, error) {
	cols := make([]schema.Column, len(out))
	for i, c := range out {
		cols[i] = schema.Column{Name: c.Name, Type: c.Type}
	}
	bld, err := arrowipc.NewRowBuilder(cols, nil)
	if err != nil {
		src.close()
		return nil, err
	}
	r := &ArrowReader{ctx: ctx, src: src, bld: bld, cols: cols, schema: bld.Schema()}
	if _, mem := src.(*sliceSource); mem {
		// In-memory results are final already.
		pl = scanPipeline{limit: -1}
	}
	if ls, ok := src.(*logSource); ok && !ls.changelog && ls.before == nil && pl.projectsOnly() {
		r.direct = &directArrow{src: ls, proj: pl.proj}
	}
	if ks, ok := src.(*kvSource); ok && pl.projectsOnly() {
		// The table's rows go from the LIMIT_SCAN answers straight into
		// records (TableScan.NextArrow).
		r.kv, r.kvProj = ks, pl.proj
	}
	r.st = pipelineState{pl: pl}
	r.refs.Store(1)
	return r, nil
}

// Schema returns the Arrow schema of the records.
func (r *ArrowReader) Schema() *arrow.Schema { return r.schema }

// Columns returns the result's columns with their Fluss types, in the
// order of Schema's fields.
func (r *ArrowReader) Columns() []schema.Column { return r.cols }

// PassIPC lets Next stop at log batches handed out as their own Arrow IPC
// RecordBatch message (see flussrpc.LogScanner.PollArrowIPC, which opts
// configures): IPC then returns the message, to be read with Schema, and
// RecordBatch returns nil. It reports whether the plan allows it: a log
// scan whose batches are the result as they are (every column or columns
// in table order, no filter, no window, no LIMIT). Call it before the
// first Next.
func (r *ArrowReader) PassIPC(opts flussrpc.ArrowIPCOptions) bool {
	d := r.direct
	if d == nil || d.proj != nil {
		return false
	}
	sc, err := d.src.sc.ArrowSchema()
	if err != nil || sc.NumFields() != r.schema.NumFields() {
		return false
	}
	for i := range sc.NumFields() {
		if !arrow.TypeEqual(sc.Field(i).Type, r.schema.Field(i).Type) {
			return false
		}
	}
	d.ipc = &opts
	return true
}

// IPC returns the current log batch's Arrow IPC message when Next stopped
// at one (see PassIPC), else nil. It stays valid after Next.
func (r *ArrowReader) IPC() *arrowipc.Message { return r.ipc }

// Next advances to the next record (or log batch message, see PassIPC);
// false at the end or on error (Err). The previous record is released.
func (r *ArrowReader) Next() bool {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	r.ipc = nil
	if r.err != nil {
		return false
	}
	if r.direct != nil {
		return r.nextDirect()
	}
	if r.kv != nil {
		return r.nextKV()
	}
	if r.engine != nil {
		return r.nextEngine()
	}
	for !r.eof && r.bld.Len() < arrowBatchRows {
		if r.st.done() {
			r.eof = true
			break
		}
		in, err := r.src.next(r.ctx)
		if errors.Is(err, io.EOF) {
			r.eof = true
			break
		}
		if err != nil {
			r.err = WrapError(err, "")
			return false
		}
		out, err := r.st.apply(in)
		for _, row := range out {
			if aerr := r.bld.Append(row); aerr != nil {
				r.err = aerr
				return false
			}
		}
		if err != nil {
			r.err = err
			return false
		}
	}
	if r.bld.Len() == 0 {
		return false
	}
	r.cur = r.bld.NewRecord()
	return true
}

// nextDirect makes the next polled batch the current record.
func (r *ArrowReader) nextDirect() bool {
	d := r.direct
	for len(d.queue) == 0 {
		if r.eof {
			return false
		}
		var bs []flussrpc.ArrowScanBatch
		var err error
		if d.ipc != nil {
			bs, err = d.src.sc.PollArrowIPC(r.ctx, d.src.wait, *d.ipc)
		} else {
			bs, err = d.src.sc.PollArrow(r.ctx, d.src.wait)
		}
		d.queue = append(d.queue, bs...)
		if errors.Is(err, io.EOF) {
			r.eof = true
		} else if err != nil {
			r.err = WrapError(err, "")
			return false
		}
	}
	b := d.queue[0]
	d.queue[0] = flussrpc.ArrowScanBatch{}
	d.queue = d.queue[1:]
	if b.IPC != nil {
		r.ipc = b.IPC
		return true
	}
	defer b.Record.Release()
	r.cur, r.err = reshapeRecord(r.schema, b.Record, d.proj)
	return r.err == nil
}

// nextKV makes the next record of a primary-key table scan, reshaped to
// the result's schema, the current record.
func (r *ArrowReader) nextKV() bool {
	for {
		rec, err := r.kv.sc.NextArrow(r.ctx)
		if errors.Is(err, io.EOF) {
			return false
		}
		if err != nil {
			r.err = WrapError(r.kv.explain(err), "")
			return false
		}
		if rec.NumRows() == 0 {
			rec.Release()
			continue
		}
		r.cur, r.err = reshapeRecord(r.schema, rec, r.kvProj)
		rec.Release()
		return r.err == nil
	}
}

// reshapeRecord returns the columns proj of rec (all, in order, when proj
// is nil) under schema, sharing rec's buffers. The types must be the
// same: both sides map the Fluss types with package arrowipc.
func reshapeRecord(schema *arrow.Schema, rec arrow.RecordBatch, proj []int) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, schema.NumFields())
	for k := range cols {
		i := k
		if proj != nil {
			i = proj[k]
		}
		if i >= int(rec.NumCols()) || !arrow.TypeEqual(rec.Column(i).DataType(), schema.Field(k).Type) {
			return nil, fmt.Errorf("fluss: a scanned Arrow batch (%s) does not hold result column %s", rec.Schema(), schema.Field(k))
		}
		cols[k] = rec.Column(i)
	}
	return array.NewRecordBatch(schema, cols, rec.NumRows()), nil
}

// RecordBatch returns the current record, valid until the next Next or
// Release (Retain it to keep it longer).
func (r *ArrowReader) RecordBatch() arrow.RecordBatch { return r.cur }

// Record is RecordBatch.
//
// Deprecated: use RecordBatch, as array.RecordReader does.
func (r *ArrowReader) Record() arrow.RecordBatch { return r.cur }

// Err returns the error that ended the records, if any.
func (r *ArrowReader) Err() error { return r.err }

// Retain adds a reference.
func (r *ArrowReader) Retain() { r.refs.Add(1) }

// Release drops a reference; the last one stops the scan and frees the
// memory.
func (r *ArrowReader) Release() {
	if r.refs.Add(-1) != 0 {
		return
	}
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if r.direct != nil {
		for _, b := range r.direct.queue {
			if b.Record != nil {
				b.Record.Release()
			}
		}
		r.direct.queue = nil
	}
	if r.onRelease != nil {
		defer r.onRelease(r.err)
	}
	if r.engine != nil {
		r.engine.Release()
		return
	}
	r.src.close()
	r.bld.Release()
}
