package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/planner"
)

// Point and prefix lookups: planner.Lookup and planner.PrefixLookup.

// distinctKeys binds keys and drops repeated ones (k IN (1, 1) returns the
// row once, as in SQL). The keys are appended to out[:0], which may have
// room for them.
func distinctKeys(want, planCols []string, keys [][]planner.Value, b *binder, out [][]any) ([][]any, error) {
	out = slices.Grow(out[:0], len(keys))
	var seen map[string]bool
	if len(keys) > 1 {
		seen = make(map[string]bool, len(keys))
	}
	for _, k := range keys {
		key, err := lookupKey(want, planCols, k, b)
		if err != nil {
			return nil, err
		}
		if seen != nil {
			id := fmt.Sprintf("%#v", key)
			if seen[id] {
				continue
			}
			seen[id] = true
		}
		out = append(out, key)
	}
	return out, nil
}

func (c *Session) lookup(ctx context.Context, p *planner.Lookup, b *binder) ([][]any, error) {
	h, err := c.handle(ctx, p.Table)
	if err != nil {
		return nil, err
	}
	lk, err := c.lookuperFor(h, p.Options)
	if err != nil {
		return nil, err
	}
	// The lookuper's key columns, without the copy KeyColumns makes.
	// A point lookup has one key, mostly: its list stays on the stack.
	var one [1][]any
	keys, err := distinctKeys(h.t.Info().Descriptor.Schema.PrimaryKey, p.KeyColumns, p.Keys, b, one[:0])
	if err != nil {
		return nil, err
	}
	filter, err := residualFilter(h, p.Residual, b)
	if err != nil {
		return nil, err
	}
	found, err := lk.LookupMany(ctx, keys)
	if err != nil {
		return nil, err
	}
	return c.finishLookup(found, filter, p.Projection, p.Limit, p.Offset, b)
}

// residualFilter compiles the predicates a lookup checks on the rows it
// found; most lookups have none, and then the table's column names are
// not even listed.
func residualFilter(h *tableHandle, preds []planner.Predicate, b *binder) (*rowFilter, error) {
	if len(preds) == 0 {
		return nil, nil
	}
	return compileFilter(preds, schemaNames(h), b)
}

// lookuperFor picks the lookuper of a point lookup. The hint
// 'lookup.insert-if-not-exists'='true' selects one that inserts the keys
// it does not find; that makes the SELECT a write, acknowledged by every
// in-sync replica (see flussrpc.LookupOptions.InsertIfNotExists). The key
// exists only as a hint (SET and the DSN refuse it): the planner checked
// that this table hands out ids, whereas a session-wide value would turn
// lookups of any table into writes.
func (c *Session) lookuperFor(h *tableHandle, hints planner.Options) (*flussrpc.Lookuper, error) {
	o, err := c.lookupOptions()
	if err != nil {
		return nil, err
	}
	o.InsertIfNotExists = strings.EqualFold(strings.TrimSpace(hints["lookup.insert-if-not-exists"]), "true")
	return h.lookuper(o)
}

// lookupOptions are the session's planner.LookupOptionKeys options. Every point
// lookup asks, so they are worked out again only when the session changed.
func (c *Session) lookupOptions() (flussrpc.LookupOptions, error) {
	if c.lookVersion != c.sessVersion {
		var o flussrpc.LookupOptions
		var err error
		for _, k := range planner.LookupOptionKeys {
			if v := c.option(k); v != "" && err == nil {
				err = o.Set(k, v)
			}
		}
		if err != nil {
			err = fmt.Errorf("fluss: %w", err)
		}
		c.look, c.lookErr, c.lookVersion = o, err, c.sessVersion
	}
	return c.look, c.lookErr
}

// finishLookup filters, projects and windows looked-up rows (nil = not
// found), keeping the order of the keys. found and its rows are the
// caller's to give up: they are reused for the result, which spares a
// point lookup two allocations.
func (c *Session) finishLookup(found [][]any, filter *rowFilter, proj planner.Projection, limit, offset *planner.Value, b *binder) ([][]any, error) {
	out := found[:0]
	for _, row := range found {
		if row == nil {
			continue
		}
		ok, err := filter.match(row)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, projectOwned(row, proj.Indexes))
		}
	}
	return window(out, limit, offset, b)
}

// projectOwned is project for a row nobody else holds: when each output
// column comes from the same or a later input column (the usual SELECT
// list in table order), the row is projected in place.
func projectOwned(row []any, proj []int) []any {
	if proj == nil {
		return row
	}
	for i, j := range proj {
		if j < i {
			return project(row, proj)
		}
	}
	for i, j := range proj {
		row[i] = row[j]
	}
	return row[:len(proj)]
}

func (c *Session) prefixLookup(ctx context.Context, p *planner.PrefixLookup, b *binder) ([][]any, error) {
	h, err := c.handle(ctx, p.Table)
	if err != nil {
		return nil, err
	}
	o, err := c.lookupOptions()
	if err != nil {
		return nil, err
	}
	lk, err := h.prefixLookuper(p.PrefixColumns, o)
	if err != nil {
		return nil, err
	}
	keys, err := distinctKeys(p.PrefixColumns, p.PrefixColumns, p.Prefixes, b, nil)
	if err != nil {
		return nil, err
	}
	filter, err := residualFilter(h, p.Residual, b)
	if err != nil {
		return nil, err
	}
	found, err := lk.LookupMany(ctx, keys)
	if err != nil {
		return nil, err
	}
	var all [][]any
	for _, rows := range found {
		all = append(all, rows...)
	}
	return c.finishLookup(all, filter, p.Projection, p.Limit, p.Offset, b)
}
