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
	// handles are the open tables and their lookupers.
	handles handleCache
}

// NewCatalog returns an empty catalog over client.
func NewCatalog(client *flussrpc.Client) *Catalog {
	return &Catalog{client: client}
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
	mu     sync.Mutex
	byPath map[flussrpc.TablePath]*tableHandle
}

// tableHandle is an open table and its lazily made lookupers.
type tableHandle struct {
	t *flussrpc.Table

	mu        sync.Mutex
	lookupers map[flussrpc.LookupOptions]*flussrpc.Lookuper
	prefix    map[string]*flussrpc.PrefixLookuper
}

// handle returns the open table of plan table pt. A cached handle is
// reused while its schema id is the plan's; otherwise the client's shared
// handle is taken. When that one is newer than the plan (the plan was made
// before the client saw a change), the plan is stale (errStalePlan) and
// must be made again, against the newer info.
func (c *Session) handle(ctx context.Context, pt planner.Table) (*tableHandle, error) {
	hc := &c.cat.handles
	hc.mu.Lock()
	h := hc.byPath[pt.Path]
	hc.mu.Unlock()
	if h != nil && h.t.Info().SchemaID == pt.SchemaID && h.t.Info().TableID == pt.TableID {
		return h, nil
	}
	t, err := c.client.Table(ctx, pt.Path)
	if err != nil {
		return nil, err
	}
	if t.Info().SchemaID != pt.SchemaID || t.Info().TableID != pt.TableID {
		return nil, errStalePlan
	}
	h = &tableHandle{t: t}
	hc.mu.Lock()
	if hc.byPath == nil {
		hc.byPath = make(map[flussrpc.TablePath]*tableHandle)
	}
	// Another session may have opened the same version meanwhile; keep
	// one so lookups keep batching together.
	if old := hc.byPath[pt.Path]; old != nil && old.t.Info().SchemaID == t.Info().SchemaID && old.t.Info().TableID == t.Info().TableID {
		h = old
	} else {
		hc.byPath[pt.Path] = h
	}
	hc.mu.Unlock()
	return h, nil
}

// pointLookuper returns the shared point lookuper of the table.
func (h *tableHandle) pointLookuper() (*flussrpc.Lookuper, error) {
	return h.lookuper(flussrpc.LookupOptions{})
}

// insertLookuper returns the shared lookuper that inserts missing keys.
func (h *tableHandle) insertLookuper() (*flussrpc.Lookuper, error) {
	return h.lookuper(flussrpc.LookupOptions{InsertIfNotExists: true})
}

// lookuper returns the shared point lookuper made with o.
func (h *tableHandle) lookuper(o flussrpc.LookupOptions) (*flussrpc.Lookuper, error) {
	return cachedLookuper(&h.mu, &h.lookupers, o, func() (*flussrpc.Lookuper, error) { return h.t.NewLookuper(o) })
}

// prefixLookuper returns the shared prefix lookuper for cols.
func (h *tableHandle) prefixLookuper(cols []string) (*flussrpc.PrefixLookuper, error) {
	return cachedLookuper(&h.mu, &h.prefix, strings.Join(cols, "\x00"), func() (*flussrpc.PrefixLookuper, error) {
		return h.t.NewPrefixLookuper(cols)
	})
}

// cachedLookuper returns the lookuper cached in *m under key, making it
// with open on first use. mu guards *m; it is held while open runs so
// that concurrent first uses make one lookuper, whose batching every
// session then shares.
func cachedLookuper[K comparable, L any](mu *sync.Mutex, m *map[K]L, key K, open func() (L, error)) (L, error) {
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
