package fluss

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"

	"github.com/gofluss/fluss/parser"
	"github.com/gofluss/fluss/planner"
)

// stmt is a parsed statement (or script, with multi_statements). Plans are
// made at execution, statement by statement, so that a script may create
// a table and then write to it; a plan is reused while the session has not
// changed (USE, SET, DDL).
type stmt struct {
	cn          *conn
	stmts       []parser.Statement
	plans       []planner.Plan
	planVersion int
	closed      bool
}

var (
	_ driver.Stmt              = (*stmt)(nil)
	_ driver.StmtExecContext   = (*stmt)(nil)
	_ driver.StmtQueryContext  = (*stmt)(nil)
	_ driver.NamedValueChecker = (*stmt)(nil)
)

// Close releases the statement. It is idempotent.
func (s *stmt) Close() error {
	s.closed = true
	return nil
}

// NumInput is the exact number of parameters of a single statement, so
// database/sql can check the argument count; -1 for scripts.
func (s *stmt) NumInput() int {
	if len(s.stmts) == 1 {
		return s.stmts[0].NumParams()
	}
	return -1
}

// CheckNamedValue accepts every argument; see conn.CheckNamedValue.
func (s *stmt) CheckNamedValue(*driver.NamedValue) error { return nil }

// Exec is ExecContext without a context, for old callers.
func (s *stmt) Exec(args []driver.Value) (driver.Result, error) {
	return s.ExecContext(context.Background(), named(args))
}

// Query is QueryContext without a context, for old callers.
func (s *stmt) Query(args []driver.Value) (driver.Rows, error) {
	return s.QueryContext(context.Background(), named(args))
}

func named(args []driver.Value) []driver.NamedValue {
	out := make([]driver.NamedValue, len(args))
	for i, a := range args {
		out[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
	}
	return out
}

// ExecContext runs every statement; RowsAffected is the sum of the rows
// the server acknowledged.
func (s *stmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	var total int64
	for i := range s.stmts {
		rows, n, err := s.run(ctx, i, args)
		if err != nil {
			return nil, err
		}
		if rows != nil {
			if err := rows.Close(); err != nil {
				return nil, err
			}
		}
		total += n
	}
	return result(total), nil
}

// QueryContext runs the statements and returns the rows of the last one
// (statements without rows give an empty result).
func (s *stmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	var last driver.Rows
	for i := range s.stmts {
		if last != nil {
			if err := last.Close(); err != nil {
				return nil, err
			}
		}
		rows, _, err := s.run(ctx, i, args)
		if err != nil {
			return nil, err
		}
		last = rows
	}
	if last == nil {
		last = newMemRows(nil, nil, s.cn.outOptions())
	}
	return last, nil
}

// run plans (or reuses the plan of) statement i and executes it.
func (s *stmt) run(ctx context.Context, i int, args []driver.NamedValue) (driver.Rows, int64, error) {
	if s.closed {
		return nil, 0, errors.New("fluss: statement is closed")
	}
	if err := s.cn.usable(); err != nil {
		return nil, 0, err
	}
	if len(s.stmts) > 1 && len(args) > 0 {
		return nil, 0, errors.New("fluss: parameters are not supported in a script of several statements")
	}
	if err := checkArgs(s.stmts[i], args); err != nil {
		return nil, 0, err
	}
	p, err := s.plan(ctx, i)
	if err != nil {
		return nil, 0, err
	}
	b := &binder{args: args, cn: s.cn}
	rows, n, err := s.cn.execute(ctx, p, b)
	if _, set := p.(*planner.Batch); errors.Is(err, errStalePlan) && !set {
		// The table was altered since planning (the table cache already
		// forgot it): plan once more against the new schema. Nothing was
		// written yet, since a plan checks its table before writing; a
		// statement set may have run some of its statements, so it is not
		// run again.
		s.plans[i] = nil
		if p, err = s.plan(ctx, i); err != nil {
			return nil, 0, err
		}
		rows, n, err = s.cn.execute(ctx, p, b)
	}
	if err != nil {
		return nil, 0, connError(err, s.stmts[i].Text())
	}
	return rows, n, nil
}

// checkArgs refuses arguments that do not fit the statement's placeholders.
// database/sql counts them only for prepared statements, and binding only
// looks up the arguments a placeholder asks for, so without this an extra
// argument of Exec or Query would be dropped without a word.
func checkArgs(st parser.Statement, args []driver.NamedValue) error {
	if want := st.NumParams(); len(args) != want {
		return fmt.Errorf("fluss: wrong number of arguments: the statement has %d placeholders, got %d arguments", want, len(args))
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

// plan returns the plan of statement i, planning it when the session
// changed since the last plan or it was never planned.
func (s *stmt) plan(ctx context.Context, i int) (planner.Plan, error) {
	if s.plans == nil || s.planVersion != s.cn.sessVersion {
		s.plans = make([]planner.Plan, len(s.stmts))
		s.planVersion = s.cn.sessVersion
	}
	if s.plans[i] == nil {
		p, err := planner.Build(ctx, s.stmts[i], s.cn.c.tables, &s.cn.sess)
		if err != nil {
			return nil, wrapError(err, s.stmts[i].Text())
		}
		s.plans[i] = p
	}
	return s.plans[i], nil
}

// result is the driver.Result of an Exec: the acknowledged row count.
type result int64

// LastInsertId is not available in Fluss; see ErrLastInsertID.
func (r result) LastInsertId() (int64, error) { return 0, ErrLastInsertID }

// RowsAffected is the number of rows the server acknowledged.
func (r result) RowsAffected() (int64, error) { return int64(r), nil }
