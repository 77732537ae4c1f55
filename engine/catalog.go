package engine

import (
	"context"
	"strings"
	"sync"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/planner"
)

// Catalog is the table metadata every session of one native client
// shares: the planner's view of tables and the open tables with their
// lookupers, which batch concurrent lookups only when every session uses
// the same one. Both rest on the client's shared table handles
// (flussrpc.Client.Table), so a table's info is fetched once for planning
// and executing a statement.
type Catalog struct {
	client *flussrpc.Client
	// tracers are the statement hooks found in the client's tracer.
	tracers tracers
	// handles are the open tables and their lookupers.
	handles handleCache
}

// NewCatalog returns an empty catalog over client. Its sessions trace
// their statements with the hooks of hooks.go that the client's
// Config.Tracer implements.
func NewCatalog(client *flussrpc.Client) *Catalog {
	return &Catalog{client: client, tracers: newTracers(client.Tracer())}
}

// TableInfo returns the (possibly cached) info of a table; it makes
// Catalog a planner.Catalog.
func (c *Catalog) TableInfo(ctx context.Context, path flussrpc.TablePath) (*flussrpc.TableInfo, error) {
	t, err := c.client.Table(ctx, path)
	if err != nil {
		return nil, err
	}
	return t.Info(), nil
}

var _ planner.Catalog = (*Catalog)(nil)

// ---------------------------------------------------------------------------
// Table handles, shared by the sessions of one Catalog

// handleCache holds one *flussrpc.Table per table path for a Catalog, and
// the lookupers made from it: lookupers batch concurrent lookups, so every
// session must share the same one to benefit. The zero value is ready.
type handleCache struct {
	mu     sync.RWMutex
	byPath map[flussrpc.TablePath]*tableHandle
}

// tableHandle is an open table and its lazily made lookupers.
type tableHandle struct {
	t *flussrpc.Table

	mu        sync.RWMutex
	lookupers map[flussrpc.LookupOptions]*flussrpc.Lookuper
	prefix    map[prefixKey]*flussrpc.PrefixLookuper
}

// prefixKey names a shared prefix lookuper: its columns (joined by NUL)
// and its batching.
type prefixKey struct {
	cols string
	opts flussrpc.LookupOptions
}

// handle returns the open table of plan table pt. The client's shared
// handle (flussrpc.Client.Table: a map lookup, fetched again after DDL
// through this client and after flussrpc.TableTTL) says which version of
// the table is current; a plan made against another version is stale
// (errStalePlan) and must be made again. Checking it on every execution,
// not only when planning, is what lets a plan be kept across executions
// (prepared statements, the driver's statement cache) and still see a
// change made by another session or client as soon as a fresh one would
// (and a dropped table fails as it would: with ErrTableNotExist).
func (c *Session) handle(ctx context.Context, pt planner.Table) (*tableHandle, error) {
	hc := &c.cat.handles
	t, err := c.client.Table(ctx, pt.Path)
	if err != nil {
		return nil, err
	}
	if !isVersion(t.Info(), pt) {
		return nil, errStalePlan
	}
	// Keep the handle while the version stays, so that lookups of every
	// session keep batching together and cached writers stay valid. Every
	// statement of every session passes here: the common case shares the
	// lock.
	hc.mu.RLock()
	h := hc.byPath[pt.Path]
	hc.mu.RUnlock()
	if h != nil && isVersion(h.t.Info(), pt) {
		return h, nil
	}
	hc.mu.Lock()
	defer hc.mu.Unlock()
	if h := hc.byPath[pt.Path]; h != nil && isVersion(h.t.Info(), pt) {
		return h, nil
	}
	h = &tableHandle{t: t}
	if hc.byPath == nil {
		hc.byPath = make(map[flussrpc.TablePath]*tableHandle)
	}
	hc.byPath[pt.Path] = h
	return h, nil
}

// isVersion reports whether info is the version of the table pt was
// planned against.
func isVersion(info *flussrpc.TableInfo, pt planner.Table) bool {
	return info.SchemaID == pt.SchemaID && info.TableID == pt.TableID
}

// lookuper returns the shared point lookuper made with o.
func (h *tableHandle) lookuper(o flussrpc.LookupOptions) (*flussrpc.Lookuper, error) {
	return cachedLookuper(&h.mu, &h.lookupers, o, func() (*flussrpc.Lookuper, error) { return h.t.NewLookuper(o) })
}

// prefixLookuper returns the shared prefix lookuper for cols made with o.
func (h *tableHandle) prefixLookuper(cols []string, o flussrpc.LookupOptions) (*flussrpc.PrefixLookuper, error) {
	return cachedLookuper(&h.mu, &h.prefix, prefixKey{strings.Join(cols, "\x00"), o}, func() (*flussrpc.PrefixLookuper, error) {
		return h.t.NewPrefixLookuper(cols, o)
	})
}

// cachedLookuper returns the lookuper cached in *m under key, making it
// with open on first use. mu guards *m; it is held while open runs so
// that concurrent first uses make one lookuper, whose batching every
// session then shares. Every lookup statement passes here, so finding a
// lookuper shares the lock.
func cachedLookuper[K comparable, L any](mu *sync.RWMutex, m *map[K]L, key K, open func() (L, error)) (L, error) {
	mu.RLock()
	l, ok := (*m)[key]
	mu.RUnlock()
	if ok {
		return l, nil
	}
	mu.Lock()
	defer mu.Unlock()
	if l, ok := (*m)[key]; ok {
		return l, nil
	}
	l, err := open()
	if err != nil {
		return l, err
	}
	if *m == nil {
		*m = make(map[K]L)
	}
	(*m)[key] = l
	return l, nil
}

// columnIndexes returns the schema position of each name.
func (h *tableHandle) columnIndexes(names []string) ([]int, error) {
	return h.t.Info().Descriptor.Schema.ColumnIndexes(names)
}

func (h *tableHandle) width() int { return len(h.t.Info().Descriptor.Schema.Columns) }
