package fluss

import (
	"context"
	"database/sql/driver"
	"errors"

	"github.com/gofluss/fluss/engine"
)

// stmt is a parsed statement (or script, with multi_statements). Plans are
// made at execution, statement by statement, so that a script may create
// a table and then write to it; a plan is reused while the session has not
// changed (USE, SET, DDL).
type stmt struct {
	cn     *session
	stmts  []*engine.Prepared
	closed bool
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
		last = s.cn.s.NoRows()
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
	rows, n, err := s.stmts[i].Run(ctx, args)
	if err != nil {
		return nil, 0, connError(err, s.stmts[i].Text())
	}
	return rows, n, nil
}

// result is the driver.Result of an Exec: the acknowledged row count.
type result int64

// LastInsertId is not available in Fluss; see ErrLastInsertID.
func (r result) LastInsertId() (int64, error) { return 0, ErrLastInsertID }

// RowsAffected is the number of rows the server acknowledged.
func (r result) RowsAffected() (int64, error) { return int64(r), nil }
