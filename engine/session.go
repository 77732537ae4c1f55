package engine

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/internal/plural"
	"github.com/gofluss/fluss/parser"
	"github.com/gofluss/fluss/planner"
	"github.com/gofluss/fluss/typeconv"
)

// Config is what a Session starts from: the defaults a front door (the
// DSN, a shell's flags) gives every new session.
type Config struct {
	Database   string            // current database; "" for none
	Catalog    string            // current catalog name, reported by SHOW CURRENT CATALOG
	Options    map[string]string // options under the session's SET options
	LenientDDL bool              // map foreign column types in DDL instead of refusing them
	Location   *time.Location    // zone of TIMESTAMP values given and returned as time.Time; nil is UTC
	User       string            // reported by CURRENT_USER
	// RejectTx makes Begin (and SQL BEGIN) fail instead of opening a
	// client-side write batch.
	RejectTx bool
}

// Session runs plans for one user of a Catalog: it holds the current
// database, SET options, cached writers and the open write batch. A
// Session is not safe for concurrent use; the client and Catalog under it
// are shared.
type Session struct {
	cat    *Catalog
	client *flussrpc.Client
	cfg    Config
	sess   planner.Session
	// sessVersion changes on USE, SET and RESET (and DDL) so that
	// prepared statements know to plan again.
	sessVersion int
	// touched is set by USE, SET and RESET, cleared by Reset: whether
	// the session may differ from the one Reset makes.
	touched bool
	// out are the result conversion options as of outVersion (a
	// sessVersion), kept because every query needs them (outOptions).
	out        typeconv.OutOptions
	outVersion int
	// look are the session's lookup options as of lookVersion (a
	// sessVersion; see lookupOptions), or lookErr.
	look        flussrpc.LookupOptions
	lookErr     error
	lookVersion int
	// writers are this session's cached append/upsert writers (see
	// write.go), closed with the session.
	writers    map[writerKey]*connWriter
	writerMemo map[writerMemoKey]*connWriter
	// lastWriter is the writer the last write got, under lastWriterKey.
	lastWriter    *connWriter
	lastWriterKey writerMemoKey
	// tx is the open write batch, if any (tx.go).
	tx *batchTx
}

// NewSession returns a session over the catalog's client.
func NewSession(cat *Catalog, cfg Config) *Session {
	if cfg.Location == nil {
		cfg.Location = time.UTC
	}
	s := &Session{cat: cat, client: cat.client, cfg: cfg}
	s.Reset()
	return s
}

// Client is the native client the session runs on.
func (c *Session) Client() *flussrpc.Client { return c.client }

// Reset restores the session a new one starts with; an open write batch
// is dropped.
func (c *Session) Reset() {
	c.tx = nil
	c.sess = planner.Session{
		Database:   c.cfg.Database,
		Catalog:    c.cfg.Catalog,
		Options:    map[string]string{},
		DSNOptions: maps.Clone(c.cfg.Options),
		LenientDDL: c.cfg.LenientDDL,
		Location:   c.cfg.Location,
		Engine:     registeredEngine() != nil,
	}
	c.sessVersion++
	c.touched = false
}

// DropBatch forgets an unfinished write batch, as a server aborts the
// transaction of a dropped session.
func (c *Session) DropBatch() { c.tx = nil }

// stateChanged records a change by USE, SET or RESET: prepared
// statements plan again, and the session is no longer the one Reset makes.
func (c *Session) stateChanged() {
	c.sessVersion++
	c.touched = true
}

// Changed reports whether USE, SET or RESET ran since the last Reset, so
// that the session may differ from the one Reset makes. It is asked each
// time database/sql takes a connection from its pool, so it compares
// nothing.
func (c *Session) Changed() bool { return c.touched }

// Close drops an unfinished write batch and closes the session's writers.
func (c *Session) Close() error {
	c.tx = nil
	return WrapError(c.closeWriters(), "")
}

// Prepared is one parsed statement of a session. Its plan is made at the
// first run and kept while the session has not changed (USE, SET, DDL),
// so that a script may create a table and then write to it.
type Prepared struct {
	s       *Session
	stmt    parser.Statement
	plan    planner.Plan
	version int
}

// Prepare returns st ready to run in the session.
func (c *Session) Prepare(st parser.Statement) *Prepared {
	return &Prepared{s: c, stmt: st}
}

// Plan returns the statement's plan, planning it when the session changed
// since the last plan or it was never planned.
func (p *Prepared) Plan(ctx context.Context) (planner.Plan, error) {
	if p.plan == nil || p.version != p.s.sessVersion {
		version := p.s.sessVersion
		var plan planner.Plan
		var err error
		if t := p.s.cat.tracers.plan; t != nil {
			plan, err = p.planTraced(ctx, t)
		} else {
			plan, err = planner.Build(ctx, p.stmt, p.s.cat, &p.s.sess)
		}
		if err != nil {
			return nil, WrapError(err, p.stmt.Text())
		}
		if a, ok := plan.(*planner.Analytic); ok {
			if err := p.s.describeAnalytic(ctx, a); err != nil {
				return nil, WrapError(err, p.stmt.Text())
			}
		}
		p.plan, p.version = plan, version
	}
	return p.plan, nil
}

// Run executes the statement with args. Queries return rows; the other
// statements return the number of rows the server acknowledged. When a
// table changed since planning, the statement is planned and run once
// more (see errStalePlan). Errors are not yet wrapped for the caller: the
// front door decides what a failure means for its connection.
func (p *Prepared) Run(ctx context.Context, args []driver.NamedValue) (driver.Rows, int64, error) {
	if t := p.s.cat.tracers.exec; t != nil {
		return p.runTraced(ctx, t, args)
	}
	return p.run(ctx, args)
}

// run is Run without its tracing.
func (p *Prepared) run(ctx context.Context, args []driver.NamedValue) (driver.Rows, int64, error) {
	if err := checkArgs(p.stmt, args); err != nil {
		return nil, 0, err
	}
	plan, err := p.Plan(ctx)
	if err != nil {
		return nil, 0, err
	}
	b := &binder{args: args, cn: p.s}
	rows, n, err := p.s.execute(ctx, plan, b)
	if _, set := plan.(*planner.Batch); errors.Is(err, errStalePlan) && !set {
		// The table was altered since planning (the table cache already
		// forgot it): plan once more against the new schema. Nothing was
		// written yet, since a plan checks its table before writing; a
		// statement set may have run some of its statements, so it is not
		// run again.
		p.plan = nil
		if plan, err = p.Plan(ctx); err != nil {
			return nil, 0, err
		}
		rows, n, err = p.s.execute(ctx, plan, b)
	}
	return rows, n, err
}

// NumParams is the number of parameters of the statement.
func (p *Prepared) NumParams() int { return p.stmt.NumParams() }

// checkArgs refuses arguments that do not fit the statement's placeholders.
// database/sql counts them only for prepared statements, and binding only
// looks up the arguments a placeholder asks for, so without this an extra
// argument of Exec or Query would be dropped without a word.
func checkArgs(st parser.Statement, args []driver.NamedValue) error {
	if want := st.NumParams(); len(args) != want {
		return fmt.Errorf("fluss: wrong number of arguments: the statement has %s, got %s", plural.Count(want, "placeholder"), plural.Count(len(args), "argument"))
	}
	for _, a := range args {
		if a.Name != "" && !hasPlaceholder(st, a.Name) {
			return fmt.Errorf("fluss: named argument %q matches no :%s placeholder of the statement", a.Name, a.Name)
		}
	}
	return nil
}

func hasPlaceholder(st parser.Statement, name string) bool {
	for _, p := range st.Placeholders() {
		if p.Name == name {
			return true
		}
	}
	return false
}

// Text is the statement's SQL text.
func (p *Prepared) Text() string { return p.stmt.Text() }

// NoRows is the empty result of a statement that returns no rows.
func (c *Session) NoRows() driver.Rows { return newMemRows(nil, nil, c.outOptions()) }
