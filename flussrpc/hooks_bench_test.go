package flussrpc_test

import (
	"context"
	"testing"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/internal/lookupbench"
)

// noopTracer implements the tracers a lookup calls and does nothing.
type noopTracer struct{}

func (noopTracer) TraceConnectStart(ctx context.Context, _ flussrpc.TraceConnectStartData) context.Context {
	return ctx
}
func (noopTracer) TraceConnectEnd(context.Context, flussrpc.TraceConnectEndData) {}
func (noopTracer) TraceRequestStart(ctx context.Context, _ flussrpc.TraceRequestStartData) context.Context {
	return ctx
}
func (noopTracer) TraceRequestEnd(context.Context, flussrpc.TraceRequestEndData) {}
func (noopTracer) TraceLookupBatchStart(ctx context.Context, _ flussrpc.TraceLookupBatchStartData) context.Context {
	return ctx
}
func (noopTracer) TraceLookupBatchEnd(context.Context, flussrpc.TraceLookupBatchEndData) {}
func (noopTracer) TracePoolAcquireStart(ctx context.Context, _ flussrpc.TracePoolAcquireStartData) context.Context {
	return ctx
}
func (noopTracer) TracePoolAcquireEnd(context.Context, flussrpc.TracePoolAcquireEndData) {}

// BenchmarkLookupHooks is a point lookup on the in-process fake cluster,
// without a tracer and with one that does nothing: what the hooks cost
// the client when unset (compare "unset" with BenchmarkLookup of a build
// without them) and the least they cost when set.
//
//	go test ./flussrpc -run '^$' -bench LookupHooks -benchmem -count 5
func BenchmarkLookupHooks(b *testing.B) {
	b.Run("unset", func(b *testing.B) { lookupbench.Run(b, nil) })
	b.Run("noop", func(b *testing.B) { lookupbench.Run(b, noopTracer{}) })
}
