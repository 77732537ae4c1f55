package flussrpc

import (
	"context"
	"fmt"
	"sync"

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
