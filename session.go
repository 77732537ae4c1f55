package fluss

import (
	"context"
	"database/sql/driver"
	"errors"

	"github.com/gofluss/fluss/engine"
	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/parser"
)

// session is one database/sql connection: an engine.Session (current
// database, SET options, writers, write batch) over the Connector's shared
// native client. It holds no socket of its own, so "bad connection" only
// ever means "the client is closed".
type session struct {
	c      *Connector
	client *flussrpc.Client
	s      *engine.Session
	closed bool
	// stmts are the statements of unprepared calls (stmtcache.go).
	stmts stmtCache
}

var (
	_ driver.Conn               = (*session)(nil)
	_ driver.ConnPrepareContext = (*session)(nil)
	_ driver.ExecerContext      = (*session)(nil)
	_ driver.QueryerContext     = (*session)(nil)
	_ driver.Pinger             = (*session)(nil)
	_ driver.SessionResetter    = (*session)(nil)
	_ driver.Validator          = (*session)(nil)
	_ driver.NamedValueChecker  = (*session)(nil)
)

func newSession(c *Connector, client *flussrpc.Client, cat *engine.Catalog) *session {
	cfg := c.cfg
	return &session{c: c, client: client, s: engine.NewSession(cat, engine.Config{
		Database:   cfg.Database,
		Catalog:    cfg.Catalog,
		Options:    cfg.Options,
		LenientDDL: cfg.LenientDDL,
		Location:   cfg.Location,
		User:       cfg.User,
		RejectTx:   cfg.TxMode == "reject",
	})}
}

// Prepare is PrepareContext without a context.
func (c *session) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

// PrepareContext parses the statement; planning happens at first use and
// is kept while the session and table metadata stay the same.
func (c *session) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	if err := c.usable(); err != nil {
		return nil, err
	}
	return c.prepare(query)
}

// prepare parses query into a statement of the session.
func (c *session) prepare(query string) (*stmt, error) {
	stmts, err := c.parse(query)
	if err != nil {
		return nil, err
	}
	prepared := make([]*engine.Prepared, len(stmts))
	for i, st := range stmts {
		prepared[i] = c.s.Prepare(st)
	}
	return &stmt{cn: c, stmts: prepared}, nil
}

// parse splits and parses query; several statements need multi_statements.
func (c *session) parse(query string) ([]parser.Statement, error) {
	stmts, err := parser.ParseScript(query)
	if err != nil {
		return nil, err
	}
	switch {
	case len(stmts) == 0:
		return nil, errors.New("fluss: empty statement")
	case len(stmts) > 1 && !c.c.cfg.MultiStatements:
		return nil, errors.New("fluss: several statements in one call need multi_statements=true in the DSN")
	}
	return stmts, nil
}

// Close ends the session: an unfinished write batch is dropped and the
// session's writers are closed. The shared client stays open for the pool.
func (c *session) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	c.stmts = stmtCache{}
	return c.s.Close()
}

// ExecContext runs statements without a prepare round trip, reusing the
// statement of an earlier call with the same text (stmtcache.go).
func (c *session) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	st, err := c.cachedStmt(query)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args)
}

// QueryContext runs a query without a prepare round trip, reusing the
// statement of an earlier call with the same text (stmtcache.go).
func (c *session) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	st, err := c.cachedStmt(query)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args)
}

// Ping asks the cluster for its node list, a real round trip, and checks
// that the session's database exists (ErrDatabaseNotExist names it).
func (c *session) Ping(ctx context.Context) error {
	if err := c.usable(); err != nil {
		return err
	}
	if err := c.client.Ping(ctx); err != nil {
		return connError(err, "")
	}
	return connError(c.s.CheckDatabase(ctx), "")
}

// ResetSession restores the DSN's database and options before the pool
// hands the connection to another user.
func (c *session) ResetSession(ctx context.Context) error {
	if err := c.usable(); err != nil {
		return err
	}
	// A batch opened with SQL BEGIN and never finished is dropped, as
	// a server would abort the transaction of a dropped session.
	c.s.DropBatch()
	// database/sql resets before every reuse from the pool; resetting an
	// unchanged session would invalidate every prepared plan each time.
	if c.s.Changed() {
		c.s.Reset()
	}
	return nil
}

// IsValid reports whether the pool may keep the connection.
func (c *session) IsValid() bool { return c.usable() == nil }

// CheckNamedValue accepts every argument as it is: conversion happens when
// the statement binds it, against the type of the column it goes to, which
// gives better errors than a type-blind conversion here.
func (c *session) CheckNamedValue(*driver.NamedValue) error { return nil }

// usable returns driver.ErrBadConn when the session or its client is gone
// (nothing has been sent at that point, so database/sql may retry). It
// runs several times per call of every session, so it takes no lock.
func (c *session) usable() error {
	if c.closed || c.c.live.Load() != c.client {
		return driver.ErrBadConn
	}
	return nil
}

var _ driver.ConnBeginTx = (*session)(nil)

// Begin is BeginTx with default options.
func (c *session) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

// BeginTx opens a client-side write batch (see engine.Session.Begin:
// Fluss has no transactions). Reads inside it do not see its queued
// writes (the package documentation's Transactions section).
func (c *session) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	// Check liveness here: database/sql does not retry a dead connection
	// once the transaction has started.
	if err := c.usable(); err != nil {
		return nil, err
	}
	return c.s.Begin(ctx, opts)
}
