package fluss

import (
	"context"
	"database/sql/driver"
	"errors"
	"maps"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/parser"
	"github.com/gofluss/fluss/planner"
)

// conn is one database/sql connection: a session (current database, SET
// options) over the Connector's shared native client. It holds no socket
// of its own, so "bad connection" only ever means "the client is closed".
type conn struct {
	c      *Connector
	client *flussrpc.Client
	sess   planner.Session
	// sessVersion changes on USE, SET and RESET so that prepared
	// statements know to plan again.
	sessVersion int
	closed      bool
	// writers are this session's cached append/upsert writers (see
	// exec_write.go), closed with the connection.
	writers    map[writerKey]*connWriter
	writerMemo map[writerMemoKey]*connWriter
	// tx is the open write batch, if any (tx.go).
	tx *batchTx
}

var (
	_ driver.Conn               = (*conn)(nil)
	_ driver.ConnPrepareContext = (*conn)(nil)
	_ driver.ExecerContext      = (*conn)(nil)
	_ driver.QueryerContext     = (*conn)(nil)
	_ driver.Pinger             = (*conn)(nil)
	_ driver.SessionResetter    = (*conn)(nil)
	_ driver.Validator          = (*conn)(nil)
	_ driver.NamedValueChecker  = (*conn)(nil)
)

func newConn(c *Connector, client *flussrpc.Client) *conn {
	cn := &conn{c: c, client: client}
	cn.resetSession()
	return cn
}

// resetSession restores the session a new connection starts with.
func (c *conn) resetSession() {
	cfg := c.c.cfg
	c.sess = planner.Session{
		Database:   cfg.Database,
		Catalog:    cfg.Catalog,
		Options:    map[string]string{},
		DSNOptions: maps.Clone(cfg.Options),
		LenientDDL: cfg.LenientDDL,
		Location:   cfg.Location,
	}
	c.sessVersion++
}

// Prepare is PrepareContext without a context.
func (c *conn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

// PrepareContext parses the statement; planning happens at first use and
// is kept while the session and table metadata stay the same.
func (c *conn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	if err := c.usable(); err != nil {
		return nil, err
	}
	stmts, err := c.parse(query)
	if err != nil {
		return nil, err
	}
	return &stmt{cn: c, stmts: stmts}, nil
}

// parse splits and parses query; several statements need multi_statements.
func (c *conn) parse(query string) ([]parser.Statement, error) {
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
func (c *conn) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	c.tx = nil
	return wrapError(c.closeWriters(), "")
}

// ExecContext runs statements without a prepare round trip.
func (c *conn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	st, err := c.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.(*stmt).ExecContext(ctx, args)
}

// QueryContext runs a query without a prepare round trip.
func (c *conn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	st, err := c.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.(*stmt).QueryContext(ctx, args)
}

// Ping asks the cluster for its node list: a real round trip.
func (c *conn) Ping(ctx context.Context) error {
	if err := c.usable(); err != nil {
		return err
	}
	return connError(c.client.Ping(ctx), "")
}

// ResetSession restores the DSN's database and options before the pool
// hands the connection to another user.
func (c *conn) ResetSession(ctx context.Context) error {
	if err := c.usable(); err != nil {
		return err
	}
	// A batch opened with SQL BEGIN and never finished is dropped, as
	// a server would abort the transaction of a dropped session.
	c.tx = nil
	// database/sql resets before every reuse from the pool; resetting an
	// unchanged session would invalidate every prepared plan each time.
	if c.sessionChanged() {
		c.resetSession()
	}
	return nil
}

// sessionChanged reports whether USE, SET or RESET left the session
// different from the one resetSession makes.
func (c *conn) sessionChanged() bool {
	cfg := c.c.cfg
	return c.sess.Database != cfg.Database || c.sess.Catalog != cfg.Catalog || len(c.sess.Options) > 0 ||
		!maps.Equal(c.sess.DSNOptions, cfg.Options)
}

// IsValid reports whether the pool may keep the connection.
func (c *conn) IsValid() bool { return c.usable() == nil }

// CheckNamedValue accepts every argument as it is: conversion happens when
// the statement binds it, against the type of the column it goes to, which
// gives better errors than a type-blind conversion here.
func (c *conn) CheckNamedValue(*driver.NamedValue) error { return nil }

// usable returns driver.ErrBadConn when the session or its client is gone
// (nothing has been sent at that point, so database/sql may retry).
func (c *conn) usable() error {
	if c.closed {
		return driver.ErrBadConn
	}
	c.c.mu.Lock()
	defer c.c.mu.Unlock()
	if c.c.client != c.client {
		return driver.ErrBadConn
	}
	return nil
}
