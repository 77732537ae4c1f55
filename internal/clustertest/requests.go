package clustertest

import (
	"context"
	"sync"

	"github.com/gofluss/fluss/flussrpc"
)

// RequestCounter is a request tracer (flussrpc.Config.Tracer, or the
// driver's Config.Tracer) that counts a client's requests per API, so
// that a test can tell how a statement reached the servers.
type RequestCounter struct {
	mu sync.Mutex
	n  map[flussrpc.APIKey]int
}

// TraceRequestStart counts the request.
func (c *RequestCounter) TraceRequestStart(ctx context.Context, d flussrpc.TraceRequestStartData) context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = make(map[flussrpc.APIKey]int)
	}
	c.n[d.API]++
	return ctx
}

// TraceRequestEnd does nothing: a request counts when it starts.
func (*RequestCounter) TraceRequestEnd(context.Context, flussrpc.TraceRequestEndData) {}

// Count returns how many requests of api started since the last Reset.
func (c *RequestCounter) Count(api flussrpc.APIKey) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[api]
}

// Reset sets every count back to zero.
func (c *RequestCounter) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.n)
}
