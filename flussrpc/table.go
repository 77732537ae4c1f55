package flussrpc

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/gofluss/fluss/flussrpc/schema"
)

// Table is a handle on one table, from which writers, lookupers and
// scanners are made. It holds the table's info as of OpenTable and caches
// older schema versions met while reading. It is safe for concurrent use;
// open it again after the table was altered to write with the new schema.
type Table struct {
	c    *Client
	info *TableInfo

	mu      sync.Mutex
	schemas map[int32]schema.Schema // by schema id, the latest included
}

// OpenTable fetches a table's info and returns a handle on it.
func (c *Client) OpenTable(ctx context.Context, path TablePath) (*Table, error) {
	info, err := c.Admin().GetTableInfo(ctx, path)
	if err != nil {
		return nil, err
	}
	return &Table{
		c:       c,
		info:    info,
		schemas: map[int32]schema.Schema{info.SchemaID: info.Descriptor.Schema},
	}, nil
}

// TableTTL bounds how long Table trusts a table's info without fetching
// it again: DDL through this client drops the handle at once, DDL by other
// clients is seen at the latest after this long.
const TableTTL = 30 * time.Second

// tableCache holds the handles Client.Table shares. The zero value is
// ready. The driver reads it on every statement it runs, from every
// session at once, so readers share the lock.
type tableCache struct {
	mu     sync.RWMutex
	byPath map[TablePath]cachedTable
}

type cachedTable struct {
	t  *Table
	at time.Time
}

// Table returns a shared handle on a table: the one handle made by the
// first call, until TableTTL passed or ForgetTable (or DDL through this
// client) dropped it. Code that plans statements and code that writes or
// looks up rows both use it, so a table's info is fetched once for both.
// OpenTable makes a fresh, unshared handle instead.
func (c *Client) Table(ctx context.Context, path TablePath) (*Table, error) {
	tc := &c.tables
	tc.mu.RLock()
	ct, ok := tc.byPath[path]
	tc.mu.RUnlock()
	if ok && time.Since(ct.at) < TableTTL {
		return ct.t, nil
	}
	t, err := c.OpenTable(ctx, path)
	if err != nil {
		return nil, err
	}
	tc.mu.Lock()
	if tc.byPath == nil {
		tc.byPath = make(map[TablePath]cachedTable)
	}
	tc.byPath[path] = cachedTable{t: t, at: time.Now()}
	tc.mu.Unlock()
	return t, nil
}

// ForgetTable drops the shared handle of a table, so that the next Table
// call fetches its info again. Admin's DDL calls do it themselves.
func (c *Client) ForgetTable(path TablePath) {
	c.tables.mu.Lock()
	delete(c.tables.byPath, path)
	c.tables.mu.Unlock()
}

// forgetDatabase drops the shared handles of every table of a database.
func (c *Client) forgetDatabase(db string) {
	c.tables.mu.Lock()
	for p := range c.tables.byPath {
		if p.Database == db {
			delete(c.tables.byPath, p)
		}
	}
	c.tables.mu.Unlock()
}

// Info returns the table's info as of OpenTable. Callers must not modify it.
func (t *Table) Info() *TableInfo { return t.info }

// Path returns the table's path.
func (t *Table) Path() TablePath { return t.info.Path }

// Schema returns the schema with the given id, fetching and caching it when
// it is not the one the table was opened with. Records carry the id of the
// schema they were written with, which may be older (or, after a
// concurrent ALTER, newer) than the table's.
func (t *Table) Schema(ctx context.Context, id int32) (schema.Schema, error) {
	t.mu.Lock()
	s, ok := t.schemas[id]
	t.mu.Unlock()
	if ok {
		return s, nil
	}
	info, err := t.c.Admin().GetTableSchema(ctx, t.info.Path, id)
	if err != nil {
		return schema.Schema{}, fmt.Errorf("flussrpc: schema %d of %s: %w", id, t.info.Path, err)
	}
	t.mu.Lock()
	t.schemas[id] = info.Schema
	t.mu.Unlock()
	return info.Schema, nil
}

// knownSchema reports whether Schema has schema id at hand, without a
// request.
func (t *Table) knownSchema(id int32) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, ok := t.schemas[id]
	return ok
}
