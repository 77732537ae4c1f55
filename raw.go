package fluss

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/gofluss/fluss/engine"
	"github.com/gofluss/fluss/flussrpc"
)

// The escape hatch: helpers that reach the native client through
// sql.Conn.Raw, so that callers need no type assertion on driver types.
// Each takes the *sql.Conn of a fluss database (db.Conn(ctx)); they fail
// for connections of other drivers.

// raw runs f with the fluss session behind c.
func raw(c *sql.Conn, f func(cn *session) error) error {
	if c == nil {
		return errors.New("fluss: nil *sql.Conn")
	}
	return c.Raw(func(dc any) error {
		cn, ok := dc.(*session)
		if !ok {
			return fmt.Errorf("fluss: the connection belongs to another driver (%T)", dc)
		}
		if err := cn.usable(); err != nil {
			return err
		}
		return f(cn)
	})
}

// Client returns the native client shared by every connection of the
// connection's sql.DB. It stays valid until DB.Close; do not close it.
// ctx is accepted for symmetry with the other helpers (reaching the
// client makes no call).
func Client(ctx context.Context, c *sql.Conn) (*flussrpc.Client, error) {
	var out *flussrpc.Client
	err := raw(c, func(cn *session) error {
		out = cn.s.Client()
		return nil
	})
	return out, err
}

// Admin returns the native Admin API (for the calls SQL does not cover).
func Admin(ctx context.Context, c *sql.Conn) (*flussrpc.Admin, error) {
	client, err := Client(ctx, c)
	if err != nil {
		return nil, err
	}
	return client.Admin(), nil
}

// AppendArrow appends an Arrow record batch to a log table of the
// connection's session; see engine.Session.AppendArrow. It writes
// immediately even inside a write-batch transaction.
func AppendArrow(ctx context.Context, c *sql.Conn, table string, rec arrow.RecordBatch) (int64, error) {
	var n int64
	err := raw(c, func(cn *session) (err error) {
		n, err = cn.s.AppendArrow(ctx, table, rec)
		return err
	})
	return n, err
}

// UpsertArrow upserts the rows of an Arrow record batch into a
// primary-key table of the connection's session; see
// engine.Session.UpsertArrow. It writes immediately even inside a
// write-batch transaction.
func UpsertArrow(ctx context.Context, c *sql.Conn, table string, rec arrow.RecordBatch) (int64, error) {
	var n int64
	err := raw(c, func(cn *session) (err error) {
		n, err = cn.s.UpsertArrow(ctx, table, rec)
		return err
	})
	return n, err
}

// ArrowReader streams the result of QueryArrow as Arrow record batches.
type ArrowReader = engine.ArrowReader

// QueryArrow runs a query in the connection's session and returns its rows
// as Arrow record batches; see engine.Session.QueryArrow. Arguments are
// bound like those of QueryContext (sql.Named for named parameters). Keep
// the sql.Conn open (and ctx alive) until the reader is released.
func QueryArrow(ctx context.Context, c *sql.Conn, query string, args ...any) (*ArrowReader, error) {
	var r *ArrowReader
	err := raw(c, func(cn *session) error {
		named := make([]driver.NamedValue, len(args))
		for i, a := range args {
			named[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
			if na, ok := a.(sql.NamedArg); ok {
				named[i] = driver.NamedValue{Name: na.Name, Ordinal: i + 1, Value: na.Value}
			}
		}
		var err error
		r, err = cn.s.QueryArrow(ctx, query, named)
		return connError(err, query)
	})
	return r, err
}
