package engine

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"maps"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/planner"
)

// QueryEngine runs the queries Fluss cannot serve itself (*planner.Analytic
// plans: aggregates, joins, filters on any column, window functions, ...)
// over the Arrow streams of their Fluss reads. Package
// github.com/gofluss/fluss/analytics provides one on an embedded DuckDB
// and registers it when imported; without one such queries are refused
// with an error that names that import.
type QueryEngine interface {
	// Describe returns the result columns of q without reading any
	// source (q.Open is nil).
	Describe(ctx context.Context, q *AnalyticQuery) ([]planner.Column, error)
	// Query runs q and returns its rows. The reader must stop reading
	// the sources and free the engine's resources when ctx ends or it
	// is released.
	Query(ctx context.Context, q *AnalyticQuery) (array.RecordReader, error)
	// Explain returns the engine's own text of q for EXPLAIN.
	Explain(q *AnalyticQuery) (string, error)
}

// AnalyticQuery is one run (or description) of an Analytic plan.
type AnalyticQuery struct {
	Plan *planner.Analytic
	// Schemas are the Arrow schemas of the Sources' rows, in order.
	Schemas []*arrow.Schema
	// Args are the statement's arguments by index (Args[0] is $1);
	// nil when describing.
	Args []any
	// Options are the session's options ('fluss.engine.*' among them),
	// SET over the DSN's.
	Options map[string]string
	// Location is the session's time zone.
	Location *time.Location
	// Open starts reading source i. For a lookup join (Source.LookupJoin)
	// keys holds the probe's distinct key values, one column per key
	// column in primary-key order; Open consumes and releases it.
	Open func(ctx context.Context, i int, keys array.RecordReader) (array.RecordReader, error)
}

var queryEngine atomic.Pointer[QueryEngine]

// RegisterQueryEngine makes e the engine of every session created after
// the call (a nil e removes it). Package analytics calls it from init.
func RegisterQueryEngine(e QueryEngine) {
	if e == nil {
		queryEngine.Store(nil)
		return
	}
	queryEngine.Store(&e)
}

// registeredEngine returns the registered engine or nil.
func registeredEngine() QueryEngine {
	if e := queryEngine.Load(); e != nil {
		return *e
	}
	return nil
}

// Functions are the functions a query engine runs, by the categories
// metadata clients list them in (JDBC's DatabaseMetaData.getNumericFunctions
// and its siblings, Flight SQL's SqlInfo). Aggregate and window functions
// have no category there.
type Functions struct {
	Numeric, String, DateTime, System []string
}

// FunctionLister is a QueryEngine that says which functions it runs: the
// Flight SQL server describes the SQL it serves from it.
type FunctionLister interface {
	QueryEngine
	Functions() Functions
}

// EngineFunctions returns the functions of the registered query engine,
// and false when none is registered or it lists none (an engine that
// cannot run queries, such as package analytics built without its build
// tag, lists none).
func EngineFunctions() (Functions, bool) {
	if l, ok := registeredEngine().(FunctionLister); ok {
		return l.Functions(), true
	}
	return Functions{}, false
}

// analyticQuery prepares a run of p: its sources' schemas and the
// session's settings.
func (c *Session) analyticQuery(p *planner.Analytic) (*AnalyticQuery, error) {
	q := &AnalyticQuery{Plan: p, Location: c.sess.Location, Options: maps.Clone(c.sess.DSNOptions)}
	if q.Options == nil {
		q.Options = map[string]string{}
	}
	maps.Copy(q.Options, c.sess.Options)
	for _, s := range p.Sources {
		sc, err := arrowipc.InstantSchema(flussColumns(s.Read.OutputColumns()))
		if err != nil {
			return nil, fmt.Errorf("fluss: %s: %w", s.Ref, err)
		}
		q.Schemas = append(q.Schemas, sc)
	}
	return q, nil
}

// describe fills in the result columns of p, which only the engine knows.
func (c *Session) describeAnalytic(ctx context.Context, p *planner.Analytic) error {
	e := registeredEngine()
	if e == nil {
		return errors.New("fluss: this query needs the embedded query engine: import github.com/gofluss/fluss/analytics")
	}
	q, err := c.analyticQuery(p)
	if err != nil {
		return err
	}
	cols, err := e.Describe(ctx, q)
	if err != nil {
		return err
	}
	p.Output = cols
	return nil
}

// explainAnalytic is the engine's part of EXPLAIN.
func (c *Session) explainAnalytic(p *planner.Analytic) string {
	e := registeredEngine()
	q, err := c.analyticQuery(p)
	if err != nil || e == nil {
		return ""
	}
	text, err := e.Explain(q)
	if err != nil {
		return "Engine: " + err.Error()
	}
	return text
}

// analytic runs p on the engine and returns its rows as Arrow records in
// the Arrow schema of p.Output.
func (c *Session) analytic(ctx context.Context, p *planner.Analytic, b *binder) (*ArrowReader, error) {
	e := registeredEngine()
	if e == nil {
		return nil, errors.New("fluss: this query needs the embedded query engine: import github.com/gofluss/fluss/analytics")
	}
	q, err := c.analyticQuery(p)
	if err != nil {
		return nil, err
	}
	q.Args = make([]any, p.NumParams)
	for _, a := range b.args {
		if a.Ordinal >= 1 && a.Ordinal <= len(q.Args) {
			q.Args[a.Ordinal-1] = a.Value
		}
	}
	q.Open = func(ctx context.Context, i int, keys array.RecordReader) (array.RecordReader, error) {
		return c.openSource(ctx, p.Sources[i], b, keys)
	}
	cols := flussColumns(p.Output)
	sc, err := arrowipc.Schema(cols)
	if err != nil {
		return nil, err
	}
	rr, err := e.Query(ctx, q)
	if err != nil {
		return nil, WrapError(err, "")
	}
	r := &ArrowReader{ctx: ctx, cols: cols, schema: sc, engine: rr}
	r.refs.Store(1)
	return r, nil
}

// openSource reads one source of an analytic query as Arrow records.
func (c *Session) openSource(ctx context.Context, s planner.Source, b *binder, keys array.RecordReader) (array.RecordReader, error) {
	read := s.Read
	if s.LookupJoin != nil {
		if keys == nil {
			return nil, fmt.Errorf("fluss: lookup join on %s has no keys", s.Ref)
		}
		lk, err := lookupOfKeys(read.(*planner.Lookup), keys)
		keys.Release()
		if err != nil {
			return nil, err
		}
		if read, err = c.joinRead(ctx, s.LookupJoin, lk, b); err != nil {
			return nil, WrapError(err, "")
		}
	}
	src, pl, err := c.openScan(ctx, read, b)
	if err != nil {
		return nil, WrapError(err, "")
	}
	r, err := newArrowReader(ctx, read.OutputColumns(), src, pl)
	if err != nil {
		return nil, err
	}
	sc, err := arrowipc.InstantSchema(r.cols)
	if err != nil {
		r.Release()
		return nil, err
	}
	return &instantReader{ArrowReader: r, schema: sc}, nil
}

// instantReader hands an engine a source's records with TIMESTAMP_LTZ
// marked as instants (arrowipc.InstantSchema), so that the engine keeps
// them apart from TIMESTAMP.
type instantReader struct {
	*ArrowReader
	schema *arrow.Schema
	cur    arrow.RecordBatch
}

func (r *instantReader) Schema() *arrow.Schema { return r.schema }

func (r *instantReader) Next() bool {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if !r.ArrowReader.Next() {
		return false
	}
	r.cur, r.ArrowReader.err = castRecord(r.ArrowReader.RecordBatch(), r.schema)
	return r.ArrowReader.err == nil
}

func (r *instantReader) RecordBatch() arrow.RecordBatch { return r.cur }

func (r *instantReader) Record() arrow.RecordBatch { return r.cur }

func (r *instantReader) Release() {
	if r.ArrowReader.refs.Load() == 1 && r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	r.ArrowReader.Release()
}

// joinRead is how a lookup join reads its table: the lookups lk of the
// probe's keys, or the whole table when they outnumber
// 1/planner.LookupJoinScanRatio of its rows (lj.Scan).
func (c *Session) joinRead(ctx context.Context, lj *planner.LookupJoin, lk *planner.Lookup, b *binder) (planner.QueryPlan, error) {
	if lj.Scan == nil || len(lk.Keys) == 0 {
		return lk, nil
	}
	h, err := c.handle(ctx, lj.Scan.Table)
	if err != nil {
		return nil, err
	}
	rows, err := c.rowCount(ctx, h, lj.Scan.PartitionFilter, b)
	if err != nil {
		return nil, err
	}
	if scanInstead(len(lk.Keys), rows) {
		return lj.Scan, nil
	}
	return lk, nil
}

// scanInstead reports whether keys lookups cost more than a scan of rows
// rows. No rows counted (an empty table, or counts not kept) keeps the
// lookups, which are right whatever the table holds.
func scanInstead(keys int, rows int64) bool {
	return rows > 0 && int64(keys)*planner.LookupJoinScanRatio > rows
}

// lookupOfKeys is the lookup template t with the key rows of keys.
func lookupOfKeys(t *planner.Lookup, keys array.RecordReader) (*planner.Lookup, error) {
	types := make([]schema.DataType, len(t.KeyColumns))
	cols := make([]schema.Column, len(t.KeyColumns))
	for i, k := range t.KeyColumns {
		typ, ok := keyType(t, k)
		if !ok {
			return nil, fmt.Errorf("fluss: key column %s is not in the lookup's columns", k)
		}
		types[i], cols[i] = typ, schema.Column{Name: k, Type: typ.WithNullable(true)}
	}
	target, err := arrowipc.Schema(cols)
	if err != nil {
		return nil, err
	}
	cr, err := arrowipc.NewColumnReader(cols)
	if err != nil {
		return nil, err
	}
	lk := *t
	lk.Keys = nil
	for keys.Next() {
		rec, err := castRecord(keys.RecordBatch(), target)
		if err != nil {
			return nil, err
		}
		vals, err := cr.Read(rec)
		rec.Release()
		if err != nil {
			return nil, err
		}
	rows:
		for r := range vals.NumRows() {
			key := make([]planner.Value, len(types))
			for k := range key {
				v := vals.Value(k, r)
				if v == nil {
					continue rows // NULL joins nothing
				}
				key[k] = planner.Value{Kind: planner.ValueLiteral, Type: types[k], Literal: v}
			}
			lk.Keys = append(lk.Keys, key)
		}
	}
	if err := keys.Err(); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return &lk, nil
}

// keyType finds the type of key column k among the lookup's output or,
// failing that, its table schema as the planner recorded it.
func keyType(t *planner.Lookup, k string) (schema.DataType, bool) {
	for _, c := range t.Output {
		if c.Name == k {
			return c.Type, true
		}
	}
	return schema.DataType{}, false
}

// flussColumns converts planner columns to schema columns.
func flussColumns(out []planner.Column) []schema.Column {
	cols := make([]schema.Column, len(out))
	for i, c := range out {
		cols[i] = schema.Column{Name: c.Name, Type: c.Type}
	}
	return cols
}

// analyticRows runs p and streams its rows to database/sql.
func (c *Session) analyticRows(ctx context.Context, p *planner.Analytic, b *binder) (driver.Rows, error) {
	r, err := c.analytic(ctx, p, b)
	if err != nil {
		return nil, err
	}
	cr, err := arrowipc.NewColumnReader(r.cols)
	if err != nil {
		r.Release()
		return nil, err
	}
	return newScanRows(ctx, p.Output, c.outOptions(), &recordSource{r: r, cr: cr}, scanPipeline{limit: -1}), nil
}

// recordSource is a columnSource over Arrow records of Fluss's layout.
type recordSource struct {
	r  *ArrowReader
	cr *arrowipc.ColumnReader
}

func (s *recordSource) columnar() bool { return true }

func (s *recordSource) nextColumns(context.Context) ([]*arrowipc.Columns, error) {
	if !s.r.Next() {
		if err := s.r.Err(); err != nil {
			return nil, err
		}
		return nil, io.EOF
	}
	cols, err := s.cr.Read(s.r.RecordBatch())
	if err != nil {
		return nil, err
	}
	return []*arrowipc.Columns{cols}, nil
}

func (s *recordSource) next(ctx context.Context) ([][]any, error) {
	bs, err := s.nextColumns(ctx)
	if err != nil {
		return nil, err
	}
	rows := make([][]any, 0, bs[0].NumRows())
	width := len(s.r.cols)
	for r := range bs[0].NumRows() {
		row := make([]any, width)
		for c := range row {
			row[c] = bs[0].Value(c, r)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

func (s *recordSource) close() { s.r.Release() }

// nextEngine makes the engine's next record, in the result's schema, the
// current one.
func (r *ArrowReader) nextEngine() bool {
	if !r.engine.Next() {
		if err := r.engine.Err(); err != nil && !errors.Is(err, io.EOF) {
			r.err = WrapError(err, "")
		}
		return false
	}
	rec, err := castRecord(r.engine.RecordBatch(), r.schema)
	if err == nil {
		r.cur, err = inGoMemory(rec)
		rec.Release()
	}
	r.err = err
	return err == nil
}

// inGoMemory copies rec into buffers of the Go heap. An engine's records
// may live in its own memory (DuckDB's, through the Arrow C interface),
// freed the moment they are released; a consumer such as the Flight SQL
// server hands buffers to gRPC, which may still write them after the
// record's Release, as it may with Go memory, which the garbage collector
// keeps alive.
func inGoMemory(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, rec.NumCols())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, c := range rec.Columns() {
		out, err := array.Concatenate([]arrow.Array{c}, memory.DefaultAllocator)
		if err != nil {
			return nil, fmt.Errorf("fluss: result column %q: %w", rec.ColumnName(i), err)
		}
		cols[i] = out
	}
	return array.NewRecordBatch(rec.Schema(), cols, rec.NumRows()), nil
}
