package flussrpc

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// DefaultRequestTimeout bounds a call whose context has no deadline. Fluss
// servers drop some malformed requests without replying, so an unbounded
// wait could hang forever; this is the Java client's client.request-timeout.
const DefaultRequestTimeout = 30 * time.Second

// Config configures a Client.
type Config struct {
	// Bootstrap lists host:port addresses of any servers of the cluster;
	// the first one that answers provides the cluster's node list.
	Bootstrap []string
	// Conn configures every connection (SASL credentials, frame limits,
	// dial timeout, custom dialer).
	Conn ConnConfig
	// RequestTimeout applies to calls whose context has no deadline
	// (under a bare context.Background or TODO it may end up to 1/64 of
	// it earlier, see Client.withTimeout). Zero means
	// DefaultRequestTimeout; negative means none.
	RequestTimeout time.Duration
	// Tracer receives the client's trace events: it may implement any of
	// ConnectTracer, RequestTracer, WriteTracer, FetchTracer, PollTracer,
	// LookupTracer and PoolTracer (see hooks.go), and the layers above
	// look for theirs in it too (engine.ExecuteTracer, engine.PlanTracer).
	// The module github.com/gofluss/fluss/otel makes one for OpenTelemetry.
	Tracer any
	// Logger receives what the client notices on its own: connections
	// that break, dials that fail, write batches retried or given up.
	// Nil logs nothing.
	Logger *slog.Logger
}

// Client is a connection to one Fluss cluster: a connection per server,
// shared by every goroutine, and a cache of cluster and table metadata.
// It is safe for concurrent use. Close releases it.
type Client struct {
	cfg    Config
	hooks  *hooks
	pool   *connPool
	meta   *metadata
	closed atomic.Bool
	// tables are the shared handles Table returns (table.go).
	tables tableCache
	// shared is the current deadline of calls without one (sharedTimeout).
	shared atomic.Pointer[sharedDeadline]
}

// ErrClientClosed is returned by calls on a closed Client.
var ErrClientClosed = errors.New("flussrpc: client is closed")

// NewClient connects to the cluster: it contacts the bootstrap servers
// until one returns the cluster's node list, retrying for at most the
// dial timeout (ConnConfig.DialTimeout), so that a dead bootstrap list
// fails in about that time with the last dial error. When every server
// refuses the connection it fails at once (errors.Is(err,
// syscall.ECONNREFUSED)): nothing listens there, and a mistyped port
// should not wait out the timeout.
func NewClient(ctx context.Context, cfg Config) (*Client, error) {
	if len(cfg.Bootstrap) == 0 {
		return nil, errors.New("flussrpc: no bootstrap servers given")
	}
	for _, a := range cfg.Bootstrap {
		if !strings.Contains(a, ":") {
			return nil, fmt.Errorf("flussrpc: bootstrap address %q is not host:port", a)
		}
	}
	if cfg.RequestTimeout == 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	h := newHooks(cfg.Tracer, cfg.Logger)
	c := &Client{cfg: cfg, hooks: h, pool: newConnPool(cfg.Conn, h), meta: newMetadata()}
	if err := c.refreshClusterWithin(ctx, cfg.Conn.withDefaults().DialTimeout, refusedEverywhere); err != nil {
		c.pool.close()
		return nil, err
	}
	return c, nil
}

// refusedEverywhere reports whether every server a metadata request went
// to refused the connection.
func refusedEverywhere(err error) bool {
	var joined interface{ Unwrap() []error }
	if errors.As(err, &joined) {
		for _, e := range joined.Unwrap() {
			if !errors.Is(e, syscall.ECONNREFUSED) {
				return false
			}
		}
		return true
	}
	return errors.Is(err, syscall.ECONNREFUSED)
}

// Close closes every connection. Calls in flight fail; later calls return
// ErrClientClosed. Close is idempotent.
func (c *Client) Close() error {
	if c.closed.Swap(true) {
		return nil
	}
	c.pool.close()
	if s := c.shared.Swap(nil); s != nil {
		s.cancel()
	}
	return nil
}

// Tracer is Config.Tracer, for the layers above to find their own hooks in.
func (c *Client) Tracer() any { return c.cfg.Tracer }

// Logger is Config.Logger; never nil (a logger that drops everything when
// none was given).
func (c *Client) Logger() *slog.Logger { return c.hooks.log }

// Admin returns the administrative API of the client.
func (c *Client) Admin() *Admin { return &Admin{c: c} }

// Ping checks that the cluster answers a metadata request.
func (c *Client) Ping(ctx context.Context) error {
	return c.refreshCluster(ctx)
}

// withTimeout applies the configured request timeout when ctx has none.
// A bare context.Background or TODO (what database/sql passes for
// db.QueryRow, and what most callers of a lookup pass) gets a shared
// deadline context instead of a context and timer of its own
// (sharedTimeout).
func (c *Client) withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok || c.cfg.RequestTimeout < 0 {
		return ctx, func() {}
	}
	if ctx == context.Background() || ctx == context.TODO() {
		return c.sharedTimeout(), func() {}
	}
	return context.WithTimeout(ctx, c.cfg.RequestTimeout)
}

// sharedSlack is the fraction of the request timeout by which a shared
// deadline may come early: one deadline context serves every call that
// starts within RequestTimeout/sharedSlack of its making.
const sharedSlack = 64

// sharedDeadline is a context ending at deadline, shared by calls that
// have no context of their own to derive from.
type sharedDeadline struct {
	ctx      context.Context
	cancel   context.CancelFunc
	deadline time.Time
}

// sharedTimeout returns a context that ends between RequestTimeout minus
// RequestTimeout/sharedSlack and RequestTimeout from now. A context and
// timer per call cost five allocations and a timer-heap insert and
// delete, more than the rest of a point lookup's own work; a call
// without a context of its own gains nothing from them. A superseded
// context is left to its timer, as its calls may still be running; Close
// cancels the current one.
func (c *Client) sharedTimeout() context.Context {
	now := time.Now()
	timeout := c.cfg.RequestTimeout
	if s := c.shared.Load(); s != nil && s.deadline.Sub(now) >= timeout-timeout/sharedSlack {
		return s.ctx
	}
	deadline := now.Add(timeout)
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	c.shared.Store(&sharedDeadline{ctx: ctx, cancel: cancel, deadline: deadline})
	return ctx
}

// connTo returns the pooled connection to addr: the one way every request
// reaches a connection.
func (c *Client) connTo(ctx context.Context, addr string) (*conn, error) {
	if c.closed.Load() {
		return nil, ErrClientClosed
	}
	if t := c.hooks.pool; t != nil {
		return c.acquireTraced(ctx, t, addr)
	}
	return c.pool.get(ctx, addr)
}

// acquireTraced is connTo under a PoolTracer.
func (c *Client) acquireTraced(ctx context.Context, t PoolTracer, addr string) (*conn, error) {
	start := time.Now()
	data := TracePoolAcquireStartData{Addr: addr}
	ctx = t.TracePoolAcquireStart(ctx, data)
	cn, err := c.pool.get(ctx, addr)
	t.TracePoolAcquireEnd(ctx, TracePoolAcquireEndData{TracePoolAcquireStartData: data, Wait: time.Since(start), Err: err})
	return cn, err
}

// anyServer picks a random live tablet server, or the coordinator when the
// cluster has none.
func (c *Client) anyServer() ServerNode {
	n, _ := c.anyServerExcept(nil)
	return n
}

// anyServerExcept picks a random tablet server whose address is not in
// skip, else the coordinator if it is not; ok is false when every known
// server is in skip.
func (c *Client) anyServerExcept(skip map[string]bool) (n ServerNode, ok bool) {
	view := c.meta.view()
	for _, i := range rand.Perm(len(view.tablets)) {
		if t := view.tablets[i]; !skip[t.Addr()] {
			return t, true
		}
	}
	if view.coordinator.Host != "" && !skip[view.coordinator.Addr()] {
		return view.coordinator, true
	}
	return view.coordinator, len(skip) == 0
}

func (c *Client) coordinator(ctx context.Context) (ServerNode, error) {
	if n := c.meta.view().coordinator; n.Host != "" {
		return n, nil
	}
	if err := c.refreshCluster(ctx); err != nil {
		return ServerNode{}, err
	}
	if n := c.meta.view().coordinator; n.Host != "" {
		return n, nil
	}
	return ServerNode{}, errors.New("flussrpc: the cluster reports no coordinator")
}
