package engine

import (
	"context"
	"database/sql/driver"
	"strings"
	"time"
	"unicode"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/planner"
)

// Statement hooks, beside flussrpc's (flussrpc/hooks.go): the engine
// looks for them in the client's Config.Tracer once, in NewCatalog, so
// that a client without a tracer pays one nil check per statement. The
// context a Start returns is the one the statement runs under: the
// requests it makes are traced inside its span.

// ExecuteTracer traces running a statement (Prepared.Run,
// Session.QueryArrow and QueryArrowSplit): planning, when the statement is
// planned again, and executing, up to the end of its result. Rows that
// stream (scans) end it when they are closed, an ArrowReader when it is
// released; other results end it before they are returned.
type ExecuteTracer interface {
	TraceExecuteStart(ctx context.Context, data TraceExecuteStartData) context.Context
	TraceExecuteEnd(ctx context.Context, data TraceExecuteEndData)
}

// TraceExecuteStartData describes a statement about to run.
type TraceExecuteStartData struct {
	// SQL is the statement's text, as written (arguments are not in it,
	// but literals are).
	SQL string
	// Operation is the statement's first keyword in upper case (SELECT,
	// INSERT, CREATE, ...); "" when it starts otherwise.
	Operation string
	// Database is the session's current database.
	Database string
}

// TraceExecuteEndData describes how a statement ended.
type TraceExecuteEndData struct {
	TraceExecuteStartData
	// Plan is the kind of plan that ran (Lookup, LogScan, Upsert, ...);
	// "" when planning failed.
	Plan string
	// Table is the table the plan reads or writes; zero for none.
	Table flussrpc.TablePath
	// RowsAffected is the count of a statement without rows.
	RowsAffected int64
	// Latency runs from the start to the end of the result.
	Latency time.Duration
	Err     error
}

// PlanTracer traces planning a statement (planner.Build), which fetches
// the metadata of the tables it names when the client has none cached.
// A statement whose plan is kept is not planned again.
type PlanTracer interface {
	TracePlanStart(ctx context.Context, data TracePlanStartData) context.Context
	TracePlanEnd(ctx context.Context, data TracePlanEndData)
}

// TracePlanStartData describes a statement about to be planned.
type TracePlanStartData struct {
	SQL      string // the statement's text
	Database string // the session's current database
}

// TracePlanEndData describes the outcome of planning.
type TracePlanEndData struct {
	TracePlanStartData
	Plan    string // the kind of plan made; "" when planning failed
	Latency time.Duration
	Err     error
}

// tracers are the statement hooks of a Catalog.
type tracers struct {
	exec ExecuteTracer
	plan PlanTracer
}

func newTracers(tracer any) tracers {
	var t tracers
	t.exec, _ = tracer.(ExecuteTracer)
	t.plan, _ = tracer.(PlanTracer)
	return t
}

// execTrace is a statement traced by an ExecuteTracer.
type execTrace struct {
	t     ExecuteTracer
	ctx   context.Context // as TraceExecuteStart returned it
	data  TraceExecuteStartData
	start time.Time
}

func (c *Session) startExec(ctx context.Context, t ExecuteTracer, text string) *execTrace {
	tr := &execTrace{t: t, data: TraceExecuteStartData{SQL: text, Operation: operationOf(text), Database: c.sess.Database}, start: time.Now()}
	tr.ctx = t.TraceExecuteStart(ctx, tr.data)
	return tr
}

// end ends the trace of a statement whose plan (nil: none made) ran.
func (tr *execTrace) end(plan planner.Plan, n int64, err error) {
	end := TraceExecuteEndData{TraceExecuteStartData: tr.data, RowsAffected: n, Latency: time.Since(tr.start), Err: err}
	if plan != nil {
		end.Plan = planKind(plan)
		end.Table = planTable(plan)
	}
	tr.t.TraceExecuteEnd(tr.ctx, end)
}

// endWith ends the trace when rows are done: at once for rows that are
// complete already, when streaming rows close.
func (tr *execTrace) endWith(plan planner.Plan, rows driver.Rows, n int64, err error) {
	if sr, ok := rows.(*scanRows); ok && err == nil {
		sr.onClose = func(err error) { tr.end(plan, 0, err) }
		return
	}
	tr.end(plan, n, err)
}

// runTraced is Run under an ExecuteTracer.
func (p *Prepared) runTraced(ctx context.Context, t ExecuteTracer, args []driver.NamedValue) (driver.Rows, int64, error) {
	tr := p.s.startExec(ctx, t, p.stmt.Text())
	rows, n, err := p.run(tr.ctx, args)
	tr.endWith(p.plan, rows, n, err)
	return rows, n, err
}

// planTraced is planner.Build under a PlanTracer.
func (p *Prepared) planTraced(ctx context.Context, t PlanTracer) (planner.Plan, error) {
	start := time.Now()
	data := TracePlanStartData{SQL: p.stmt.Text(), Database: p.s.sess.Database}
	ctx = t.TracePlanStart(ctx, data)
	plan, err := planner.Build(ctx, p.stmt, p.s.cat, &p.s.sess)
	end := TracePlanEndData{TracePlanStartData: data, Latency: time.Since(start), Err: err}
	if plan != nil {
		end.Plan = planKind(plan)
	}
	t.TracePlanEnd(ctx, end)
	return plan, err
}

// operationOf is the first keyword of a statement's text, upper case,
// after any blanks and comments.
func operationOf(text string) string {
	for {
		text = strings.TrimLeftFunc(text, unicode.IsSpace)
		switch {
		case strings.HasPrefix(text, "--"):
			_, text, _ = strings.Cut(text, "\n")
			continue
		case strings.HasPrefix(text, "/*"):
			_, text, _ = strings.Cut(text[2:], "*/")
			continue
		}
		break
	}
	end := strings.IndexFunc(text, func(r rune) bool { return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') })
	if end < 0 {
		end = len(text)
	}
	return strings.ToUpper(text[:end])
}

// planTable is the table a plan reads or writes, if one.
func planTable(p planner.Plan) flussrpc.TablePath {
	switch p := p.(type) {
	case *planner.Append:
		return p.Table.Path
	case *planner.Upsert:
		return p.Table.Path
	case *planner.Delete:
		return p.Table.Path
	case *planner.Update:
		return p.Table.Path
	case *planner.Lookup:
		return p.Table.Path
	case *planner.PrefixLookup:
		return p.Table.Path
	case *planner.Count:
		return p.Table.Path
	case *planner.LimitScan:
		return p.Table.Path
	case *planner.LogScan:
		return p.Table.Path
	case *planner.KvScan:
		return p.Table.Path
	case *planner.ChangelogScan:
		return p.Table.Path
	case *planner.Sort:
		return planTable(p.Input)
	case *planner.CreateTable:
		return p.Path
	case *planner.AlterTable:
		return p.Path
	}
	return flussrpc.TablePath{}
}
