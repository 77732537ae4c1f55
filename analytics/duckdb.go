//go:build duckdb_arrow

package analytics

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/duckdb/duckdb-go/v2"

	"github.com/gofluss/fluss/engine"
	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/parser"
	"github.com/gofluss/fluss/planner"
)

// DefaultMemoryLimit is DuckDB's memory_limit when the session sets no
// planner.EngineMemoryLimit ('fluss.engine.memory-limit'); the temporary
// directory defaults to fluss-engine under os.TempDir, and the threads to
// one per core.
const DefaultMemoryLimit = "1GB"

func init() { engine.RegisterQueryEngine(&Engine{}) }

// Engine is the DuckDB query engine. One embedded database serves every
// session with the same settings; each query runs on a connection of its
// own, with the query's sources registered on it as Arrow views.
type Engine struct {
	mu  sync.Mutex
	dbs map[settings]*sql.DB
}

// settings are the per-database DuckDB settings.
type settings struct {
	memoryLimit, tempDir, threads string
}

func settingsOf(opts map[string]string) (settings, error) {
	s := settings{memoryLimit: DefaultMemoryLimit, tempDir: filepath.Join(os.TempDir(), "fluss-engine")}
	if v := strings.TrimSpace(opts[planner.EngineMemoryLimit]); v != "" {
		s.memoryLimit = v
	}
	if v := strings.TrimSpace(opts[planner.EngineTempDirectory]); v != "" {
		s.tempDir = v
	}
	s.threads = strings.TrimSpace(opts[planner.EngineThreads])
	for _, v := range []string{s.memoryLimit, s.tempDir, s.threads} {
		if strings.ContainsAny(v, "'\x00") {
			return settings{}, fmt.Errorf("fluss: engine setting %q may not contain a quote", v)
		}
	}
	return s, nil
}

// db returns the embedded database for opts, opening it on first use.
func (e *Engine) db(opts map[string]string) (*sql.DB, error) {
	s, err := settingsOf(opts)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if db := e.dbs[s]; db != nil {
		return db, nil
	}
	init := []string{
		fmt.Sprintf("SET memory_limit = '%s'", s.memoryLimit),
		fmt.Sprintf("SET temp_directory = '%s'", s.tempDir),
		// A query sets the session's zone (session.setZone) and puts this
		// one back.
		"SET TimeZone = 'UTC'",
		// '/' divides integers as integers, as in Flink.
		"SET integer_division = true",
		// DuckDB pushes filters and projections into the scans of the
		// Arrow views, and the C API's stream applies neither: every row
		// would pass a filter, and a query that leaves a column out would
		// read the wrong ones (or crash). Both stay above the scans.
		"SET disabled_optimizers = 'filter_pushdown,unused_columns'",
	}
	if s.threads != "" {
		init = append(init, fmt.Sprintf("SET threads = %s", s.threads))
	}
	c, err := duckdb.NewConnector("", func(ex driver.ExecerContext) error {
		for _, q := range init {
			if _, err := ex.ExecContext(context.Background(), q, nil); err != nil {
				return fmt.Errorf("fluss: engine setting (%s): %w", q, err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	db := sql.OpenDB(c)
	if e.dbs == nil {
		e.dbs = map[settings]*sql.DB{}
	}
	e.dbs[s] = db
	return db, nil
}

// session is one query's connection with its views.
type session struct {
	conn     *sql.Conn
	arrow    *duckdb.Arrow
	views    *views
	releases []func()
	// drops undo what the session created on the pooled connection, so
	// that the next query on it finds no view over a released stream.
	drops []string
}

// open translates q and opens a session for it.
func (e *Engine) open(ctx context.Context, q *engine.AnalyticQuery) (string, *session, error) {
	v := newViews(q.Plan)
	text, err := translate(v.query)
	if err != nil {
		return "", nil, err
	}
	db, err := e.db(q.Options)
	if err != nil {
		return "", nil, err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return "", nil, err
	}
	s := &session{conn: conn, views: v}
	if err := s.setZone(ctx, q.Location); err != nil {
		conn.Close()
		return "", nil, err
	}
	err = conn.Raw(func(dc any) error {
		a, err := duckdb.NewArrowFromConn(dc.(driver.Conn))
		s.arrow = a
		return err
	})
	if err != nil {
		conn.Close()
		return "", nil, err
	}
	return text, s, nil
}

// setZone makes the session's time zone the engine's, so that the time
// functions of a TIMESTAMP_LTZ (DATE_FORMAT, EXTRACT, FLOOR(t TO DAY),
// FROM_UNIXTIME, a CAST to TIMESTAMP, ...) and CURRENT_DATE,
// LOCALTIMESTAMP and CURRENT_TIME see its wall clock, as in Flink.
func (s *session) setZone(ctx context.Context, loc *time.Location) error {
	zone, err := engineZone(loc)
	if err != nil || zone == "UTC" {
		return err
	}
	if _, err := s.conn.ExecContext(ctx, "SET TimeZone = "+sqlString(zone)); err != nil {
		return fmt.Errorf("fluss: the engine does not know the time zone %s (%s): %w", zone, planner.LocalTimeZone, err)
	}
	s.drops = append(s.drops, "SET TimeZone = 'UTC'")
	return nil
}

// engineZone is DuckDB's name of the zone loc: its IANA name, or for a
// fixed offset of whole hours (Flink's 'GMT+08:00'), the Etc/GMT zone of
// that offset, whose sign POSIX inverts. DuckDB knows no other offsets.
// The machine's zone (loc=Local) is the TZ variable's when it names one.
func engineZone(loc *time.Location) (string, error) {
	if loc == nil || loc == time.UTC {
		return "UTC", nil
	}
	name := loc.String()
	if name == "Local" {
		name = os.Getenv("TZ")
	}
	if _, err := time.LoadLocation(name); err == nil && name != "" && name != "Local" {
		return name, nil
	}
	_, off := time.Now().In(loc).Zone()
	switch {
	case off == 0:
		return "UTC", nil
	case off%3600 == 0:
		return fmt.Sprintf("Etc/GMT%+d", -off/3600), nil
	}
	return "", fmt.Errorf("fluss: the engine takes a time zone by name or a whole-hour offset, and %s is neither: SET '%s' to a name such as 'Asia/Kolkata'", loc, planner.LocalTimeZone)
}

// close drops the views and temporary tables and returns the connection.
func (s *session) close() {
	for _, d := range s.drops {
		_, _ = s.conn.ExecContext(context.Background(), d)
	}
	for _, r := range s.releases {
		r()
	}
	_ = s.conn.Close()
}

// register exposes rr as the view name. The engine's settings keep the
// filters and projections DuckDB would push into the view's scan above it
// (see db).
func (s *session) register(rr array.RecordReader, name string) error {
	release, err := s.arrow.RegisterView(rr, name)
	if err != nil {
		return fmt.Errorf("fluss: engine view %s: %w", name, err)
	}
	s.releases = append(s.releases, release)
	s.drops = append(s.drops, "DROP VIEW IF EXISTS "+quote(name))
	return nil
}

// Describe returns the result columns of q: it plans the query over empty
// views of the sources' schemas.
func (e *Engine) Describe(ctx context.Context, q *engine.AnalyticQuery) ([]planner.Column, error) {
	text, s, err := e.open(ctx, q)
	if err != nil {
		return nil, err
	}
	defer s.close()
	for i := range q.Plan.Sources {
		empty, err := array.NewRecordReader(q.Schemas[i], nil)
		if err != nil {
			return nil, err
		}
		if err := s.register(empty, s.views.names[i]); err != nil {
			return nil, err
		}
	}
	args := make([]any, q.Plan.NumParams)
	probe := "SELECT * FROM (" + text + ") LIMIT 0"
	rr, err := s.arrow.QueryContext(ctx, probe, args...)
	if err != nil {
		return nil, engineError(err)
	}
	defer rr.Release()
	cols, err := columnsOf(rr.Schema())
	if err != nil {
		return nil, err
	}
	return cols, s.narrowHugeInts(ctx, probe, args, cols)
}

// narrowHugeInts makes the HUGEINT columns of a result BIGINT. DuckDB sums
// integers into 128 bits, which its Arrow output cannot tell from a
// DECIMAL(38, 0); Flink's SUM of an integer column is BIGINT, and so is
// ours (a sum that leaves the BIGINT range fails the query).
func (s *session) narrowHugeInts(ctx context.Context, probe string, args []any, cols []planner.Column) error {
	wide := false
	for _, c := range cols {
		wide = wide || c.Type.Root == schema.RootDecimal && c.Type.Precision == 38 && c.Type.Scale == 0
	}
	if !wide {
		return nil
	}
	rows, err := s.conn.QueryContext(ctx, probe, args...)
	if err != nil {
		return engineError(err)
	}
	defer rows.Close()
	types, err := rows.ColumnTypes()
	if err != nil {
		return err
	}
	for i, t := range types {
		if i < len(cols) && t.DatabaseTypeName() == "HUGEINT" {
			cols[i].Type = schema.BigInt()
		}
	}
	return nil
}

// columnsOf maps the engine's result schema to Fluss columns.
func columnsOf(sc *arrow.Schema) ([]planner.Column, error) {
	out := make([]planner.Column, sc.NumFields())
	for i, f := range sc.Fields() {
		t, err := arrowipc.FlussType(f.Type)
		if err != nil {
			return nil, fmt.Errorf("fluss: result column %q: %w", f.Name, err)
		}
		out[i] = planner.Column{Name: f.Name, Type: t}
	}
	return out, nil
}

// Explain returns the SQL the engine runs.
func (e *Engine) Explain(q *engine.AnalyticQuery) (string, error) {
	text, err := translate(q.Plan.Query)
	if err != nil {
		return "", err
	}
	return "Engine: DuckDB " + duckdbVersion + "\n  " + strings.ReplaceAll(text, "\n", "\n  "), nil
}

// duckdbVersion is the DuckDB release duckdb-go v2.10506.0 embeds.
const duckdbVersion = "1.5.6"

// Query runs q. The sources stream into the engine as it reads them; a
// lookup join's probe is read into a temporary table first, so that its
// distinct keys can be looked up before the join runs.
func (e *Engine) Query(ctx context.Context, q *engine.AnalyticQuery) (array.RecordReader, error) {
	text, s, err := e.open(ctx, q)
	if err != nil {
		return nil, err
	}
	if err := s.feed(ctx, q); err != nil {
		s.close()
		return nil, err
	}
	rr, err := s.arrow.QueryContext(ctx, text, q.Args...)
	if err != nil {
		s.close()
		return nil, engineError(err)
	}
	return &result{RecordReader: rr, s: s}, nil
}

// feed registers every source of q: probes of lookup joins first.
func (s *session) feed(ctx context.Context, q *engine.AnalyticQuery) error {
	srcs := q.Plan.Sources
	// probes maps each lookup join's probe to a key query over it, whose
	// WHERE holds the probe's own conjuncts.
	probes := map[int]parser.SelectStatement{}
	for i, src := range srcs {
		if src.LookupJoin != nil {
			probes[src.LookupJoin.Probe] = s.views.keys[i]
		}
	}
	for i, src := range srcs {
		if src.LookupJoin != nil {
			continue
		}
		rr, err := q.Open(ctx, i, nil)
		if err != nil {
			return err
		}
		view := s.views.names[i]
		keys, probe := probes[i]
		name := view
		if probe {
			name += "_stream"
		}
		if err := s.register(rr, name); err != nil {
			return err
		}
		if probe {
			rows, err := probeRows(keys, name)
			if err != nil {
				return err
			}
			if _, err := s.conn.ExecContext(ctx, "CREATE TEMP TABLE "+quote(view)+" AS "+rows); err != nil {
				return engineError(err)
			}
			s.drops = append(s.drops, "DROP TABLE IF EXISTS "+quote(view))
		}
	}
	for i, src := range srcs {
		if src.LookupJoin == nil {
			continue
		}
		text, err := translate(s.views.keys[i])
		if err != nil {
			return err
		}
		keys, err := s.arrow.QueryContext(ctx, text)
		if err != nil {
			return engineError(err)
		}
		rr, err := q.Open(ctx, i, keys)
		if err != nil {
			return err
		}
		if err := s.register(rr, s.views.names[i]); err != nil {
			return err
		}
	}
	return nil
}

// probeRows is the query that fills a lookup join's probe table from its
// stream: the rows that pass the probe's own conjuncts (the WHERE of
// keys, a key query over the probe). The main query applies them again,
// so keeping only these rows changes no answer, and a selective probe
// keeps few.
func probeRows(keys parser.SelectStatement, stream string) (string, error) {
	k, ok := keys.(*parser.Select)
	if !ok || len(k.From) != 1 {
		return "", fmt.Errorf("fluss: lookup join key query %T is not a SELECT from the probe", keys)
	}
	ref, ok := k.From[0].(*parser.TableRef)
	if !ok {
		return "", fmt.Errorf("fluss: lookup join key query reads %T, not the probe", k.From[0])
	}
	return translate(&parser.Select{
		Exprs: []parser.SelectExpr{&parser.StarExpr{Qualifier: ref.Alias}},
		From:  []parser.TableExpr{&parser.TableRef{Name: parser.TableName{Name: stream}, Alias: ref.Alias}},
		Where: k.Where,
	})
}

// result is the engine's answer; releasing it ends the query's session.
type result struct {
	array.RecordReader
	s    *session
	once sync.Once
}

func (r *result) Release() {
	r.RecordReader.Release()
	r.once.Do(r.s.close)
}

// engineError makes DuckDB's errors say where they come from.
func engineError(err error) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if msg := err.Error(); strings.Contains(msg, "Out of Memory Error") {
		// DuckDB's own advice names its settings; ours are the options.
		first, _, _ := strings.Cut(msg, "\n")
		return &outOfMemory{msg: first, err: err}
	}
	return fmt.Errorf("fluss: query engine: %w", err)
}

// outOfMemory is a query that needed more than the engine's memory limit
// and could not spill.
type outOfMemory struct {
	msg string
	err error
}

func (e *outOfMemory) Error() string {
	return "fluss: query engine: " + e.msg + "; raise '" + planner.EngineMemoryLimit + "' (default " + DefaultMemoryLimit +
		") or lower '" + planner.EngineThreads + "'"
}

func (e *outOfMemory) Unwrap() error { return e.err }
