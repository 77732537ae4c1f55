package engine

import (
	"context"
	"database/sql/driver"
	"fmt"
	"strings"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/internal/plural"
	"github.com/gofluss/fluss/planner"
	"github.com/gofluss/fluss/typeconv"
)

// Version is the driver's version, reported by SELECT VERSION().
const Version = "0.1.0"

// binder resolves the Values of a plan against the statement's arguments.
type binder struct {
	args []driver.NamedValue
	cn   *Session
	// now is the statement's reading of the clock, taken on first use so
	// that every NOW() of one execution is the same instant.
	now time.Time
}

// value returns the codec value of v: the literal, the converted argument,
// or a session value.
func (b *binder) value(v planner.Value) (any, error) {
	switch v.Kind {
	case planner.ValueParam:
		arg, err := b.arg(v.Param)
		if err != nil {
			return nil, err
		}
		out, err := typeconv.ToValue(v.Type, arg, b.cn.sess.Location)
		if err != nil {
			return nil, typeconv.WithColumn(err, v.Param.Column)
		}
		return out, nil
	case planner.ValueSession:
		return b.session(v)
	}
	return v.Literal, nil
}

func (b *binder) arg(p *planner.Param) (any, error) {
	if p.Name != "" {
		for _, a := range b.args {
			if a.Name == p.Name {
				return a.Value, nil
			}
		}
	}
	for _, a := range b.args {
		if a.Name == "" && a.Ordinal == p.Index {
			return a.Value, nil
		}
	}
	if p.Name != "" {
		return nil, fmt.Errorf("fluss: no argument for parameter :%s", p.Name)
	}
	return nil, fmt.Errorf("fluss: no argument for parameter %d (got %s)", p.Index, plural.Count(len(b.args), "argument"))
}

// session resolves a session value or reads the clock for v.
func (b *binder) session(v planner.Value) (any, error) {
	switch v.Session {
	case "version":
		return "fluss-go-sql " + Version, nil
	case "database":
		return b.cn.sess.Database, nil
	case "catalog":
		return b.cn.sess.Catalog, nil
	case "user":
		return b.cn.cfg.User, nil
	case "current_timestamp", "localtimestamp", "current_date", "current_time":
		// The planner checked that Type holds the reading: converting the
		// instant, seen in the session's zone, to it gives the instant,
		// the wall clock, the date or the time of day.
		return typeconv.ToValue(v.Type, b.clock(), b.cn.sess.Location)
	}
	return nil, fmt.Errorf("fluss: unknown session value %q", v.Session)
}

// clock returns the statement's time, to the millisecond as Flink's
// CURRENT_TIMESTAMP, in the session's time zone.
func (b *binder) clock() time.Time {
	if b.now.IsZero() {
		b.now = time.Now().Truncate(time.Millisecond).In(b.cn.sess.Location)
	}
	return b.now
}

// values resolves a list of Values.
func (b *binder) values(vs []planner.Value) ([]any, error) {
	out := make([]any, len(vs))
	for i, v := range vs {
		x, err := b.value(v)
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	return out, nil
}

// outOptions are the conversion options of result values. They follow
// the session's options, so they are worked out again only when those
// changed.
func (c *Session) outOptions() typeconv.OutOptions {
	if c.outVersion != c.sessVersion {
		native := strings.EqualFold(c.option("fluss.complex-types"), "native")
		c.out, c.outVersion = typeconv.OutOptions{Location: c.sess.Location, Native: native}, c.sessVersion
	}
	return c.out
}

// option returns a session option, falling back to the DSN.
func (c *Session) option(key string) string {
	if v, ok := c.sess.Options[key]; ok {
		return v
	}
	return c.sess.DSNOptions[key]
}

// execute runs one plan: the one place that maps each kind of plan to the
// code that runs it. Query plans return rows; the others return the number
// of rows affected (acknowledged by the server).
func (c *Session) execute(ctx context.Context, p planner.Plan, b *binder) (driver.Rows, int64, error) {
	switch p := p.(type) {
	// Session state.
	case *planner.NoOp, *planner.UseCatalog:
		return nil, 0, nil
	case *planner.Use:
		return nil, 0, c.use(ctx, p.Database)
	case *planner.SetOption:
		if err := flussrpc.CheckOption(p.Key, p.Value); err != nil {
			return nil, 0, fmt.Errorf("fluss: %w", err)
		}
		if p.Key == planner.LocalTimeZone {
			loc, err := parseTimeZone(p.Value, c.cfg.Location)
			if err != nil {
				return nil, 0, err
			}
			c.sess.Location = loc
		}
		c.sess.Options[p.Key] = p.Value
		c.stateChanged()
		return nil, 0, nil
	case *planner.ResetOption:
		c.resetOption(p.Key)
		return nil, 0, nil
	case *planner.ShowOptions:
		return c.showOptions(p), 0, nil
	case *planner.Batch:
		return c.executeBatch(ctx, p, b)
	case *planner.Transaction:
		return nil, 0, c.execTransaction(ctx, p)

	// Writes (write.go).
	case *planner.Flush:
		return nil, 0, c.execFlush(ctx, p)
	case *planner.Append:
		n, err := c.execAppend(ctx, p, b)
		return nil, n, err
	case *planner.Upsert:
		n, err := c.execUpsert(ctx, p, b)
		return nil, n, err
	case *planner.Delete:
		n, err := c.execDelete(ctx, p, b)
		return nil, n, err
	case *planner.Update:
		n, err := c.execUpdate(ctx, p, b)
		return nil, n, err

	// Reads (read.go, logscan.go, kvscan.go).
	case *planner.Lookup, *planner.PrefixLookup, *planner.Count, *planner.LimitScan,
		*planner.LogScan, *planner.KvScan, *planner.ChangelogScan, *planner.Sort:
		rows, err := c.query(ctx, p.(planner.QueryPlan), b)
		return rows, 0, err
	case *planner.Analytic:
		rows, err := c.analyticRows(ctx, p, b)
		return rows, 0, err
	case *planner.Constant:
		row, err := b.values(p.Row)
		if err != nil {
			return nil, 0, err
		}
		return newMemRows(p.Output, [][]any{row}, c.outOptions()), 0, nil

	// Metadata (show.go, infoschema.go, call.go).
	case *planner.Explain:
		return c.explain(p), 0, nil
	case *planner.Show:
		rows, err := c.show(ctx, p, b)
		return rows, 0, err
	case *planner.Describe:
		rows, err := c.describe(ctx, p)
		return rows, 0, err
	case *planner.InfoSchema:
		rows, err := c.infoSchema(ctx, p, b)
		if err != nil {
			return nil, 0, err
		}
		return newMemRows(p.Output, rows, c.outOptions()), 0, nil
	case *planner.Call:
		rows, err := c.execCall(ctx, p, b)
		return rows, 0, err

	// Catalog changes (ddl.go).
	case *planner.CreateDatabase, *planner.DropDatabase, *planner.AlterDatabase, *planner.CreateTable,
		*planner.DropTable, *planner.AlterTable, *planner.AddPartition, *planner.DropPartition:
		return nil, 0, c.executeDDL(ctx, p)
	}
	return nil, 0, fmt.Errorf("fluss: %s statements are not executed by this version of the driver yet", planKind(p))
}

// planKind names a plan for messages, e.g. "LogScan".
func planKind(p planner.Plan) string {
	return strings.TrimPrefix(fmt.Sprintf("%T", p), "*planner.")
}

func (c *Session) use(ctx context.Context, db string) error {
	if err := c.databaseExists(ctx, db); err != nil {
		return err
	}
	c.sess.Database = db
	c.stateChanged()
	return nil
}

// CheckDatabase fails with a DATABASE_NOT_EXIST error naming the current
// database when one was given (by the configuration or USE) and the
// cluster has no such database; a driver's Ping calls it, so that a DSN
// naming a missing database fails there, not at its first statement.
func (c *Session) CheckDatabase(ctx context.Context) error {
	if c.sess.Database == "" {
		return nil
	}
	return c.databaseExists(ctx, c.sess.Database)
}

func (c *Session) databaseExists(ctx context.Context, db string) error {
	ok, err := c.client.Admin().DatabaseExists(ctx, db)
	if err != nil {
		return err
	}
	if !ok {
		return &flussrpc.Error{Code: flussrpc.CodeDatabaseNotExist, Message: fmt.Sprintf("database %q does not exist", db)}
	}
	return nil
}

func (c *Session) resetOption(key string) {
	if key == "" {
		clear(c.sess.Options)
	} else {
		delete(c.sess.Options, key)
	}
	if key == "" || key == planner.LocalTimeZone {
		c.sess.Location = c.cfg.Location
	}
	c.stateChanged()
}

func (c *Session) showOptions(p *planner.ShowOptions) driver.Rows {
	return newMemRows(p.Output, optionRowsPlain(c.sess.Options), c.outOptions())
}

func (c *Session) executeBatch(ctx context.Context, p *planner.Batch, b *binder) (driver.Rows, int64, error) {
	var total int64
	for _, inner := range p.Plans {
		rows, n, err := c.execute(ctx, inner, b)
		if err != nil {
			return nil, total, err
		}
		if rows != nil {
			rows.Close()
		}
		total += n
	}
	return nil, total, nil
}

func (c *Session) explain(p *planner.Explain) driver.Rows {
	var rows [][]any
	text := p.Inner.String()
	if a, ok := p.Inner.(*planner.Analytic); ok {
		// The native reads, then what the engine runs over them.
		text += "\n" + c.explainAnalytic(a)
	}
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		rows = append(rows, []any{line})
	}
	return newMemRows(p.Output, rows, c.outOptions())
}
