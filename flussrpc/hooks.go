package flussrpc

import (
	"context"
	"log/slog"
	"time"
)

// Observability hooks, after pgx's tracers: Config.Tracer holds one value,
// and the client uses each of the interfaces below that it implements.
// NewClient looks once, so that a client without a tracer pays one nil
// check per hook site and nothing else (BenchmarkLookupHooks measures it).
//
// Every Trace...Start receives the context of the work it starts and
// returns the context the work goes on with, which its Trace...End
// receives: a tracer puts its span there, and the requests made inside
// (a connection's handshake, a write's PUT_KV) start from it, so that
// their spans nest. Work that runs on a goroutine of the client's own (a
// writer's sender, a scanner's fetches, a lookup batch shared by several
// callers) starts from a context that carries the values of the caller's
// (its span) under the client's own deadline and cancellation.
//
// Hooks are called from any goroutine and must be safe for concurrent
// use; they run on the request path, so they must not block. The data
// they get is theirs to keep, but errors may wrap the server's message.

// ConnectTracer traces dialing a server: the TCP (and TLS) connection and
// the API_VERSIONS and SASL handshake, whose requests are traced inside.
type ConnectTracer interface {
	TraceConnectStart(ctx context.Context, data TraceConnectStartData) context.Context
	TraceConnectEnd(ctx context.Context, data TraceConnectEndData)
}

// TraceConnectStartData describes a dial about to start.
type TraceConnectStartData struct {
	Addr string // host:port of the server
}

// TraceConnectEndData describes the outcome of a dial.
type TraceConnectEndData struct {
	TraceConnectStartData
	// ServerType is the role the server reported in the handshake;
	// ServerTypeUnknown when it failed before.
	ServerType ServerType
	Latency    time.Duration
	Err        error
}

// RequestTracer traces every request the client sends, of every API, on
// the connection it is written to.
type RequestTracer interface {
	TraceRequestStart(ctx context.Context, data TraceRequestStartData) context.Context
	TraceRequestEnd(ctx context.Context, data TraceRequestEndData)
}

// TraceRequestStartData describes a request about to be written.
type TraceRequestStartData struct {
	API      APIKey
	Addr     string // host:port of the server
	BytesOut int    // the request frame, length prefix included
}

// TraceRequestEndData describes the outcome of a request.
type TraceRequestEndData struct {
	TraceRequestStartData
	// BytesIn is the size of the response frame; 0 when none came.
	BytesIn int
	// Latency runs from the start (before waiting for the connection's
	// write slot) to the answer or the failure.
	Latency time.Duration
	Err     error
}

// WriteTracer traces the requests of writers: each PRODUCE_LOG or PUT_KV
// request carries one batch per bucket of one leader, and ends with the
// server's acknowledgement (or its failure).
type WriteTracer interface {
	TraceWriteBatchStart(ctx context.Context, data TraceWriteBatchStartData) context.Context
	TraceWriteBatchEnd(ctx context.Context, data TraceWriteBatchEndData)
}

// TraceWriteBatchStartData describes a write request about to be sent.
type TraceWriteBatchStartData struct {
	Table TablePath
	API   APIKey // APIKeyProduceLog or APIKeyPutKV
	Addr  string // host:port of the leader
	// Batches, Records and Bytes count what the request carries.
	Batches int
	Records int
	Bytes   int
	// RetriedRecords counts the records of the batches sent before: the
	// request is a retry for them.
	RetriedRecords int
	// QueueTime is the longest time a batch sent for the first time
	// waited between its first record and this send.
	QueueTime time.Duration
}

// TraceWriteBatchEndData describes the answer to a write request.
type TraceWriteBatchEndData struct {
	TraceWriteBatchStartData
	// Latency runs from the send to the answer.
	Latency time.Duration
	// Err is why the request failed, or the first bucket the server
	// refused; batches that are retried fail again in later requests.
	Err error
}

// FetchTracer traces the FETCH_LOG requests of log scanners, one per
// tablet server with buckets to fetch.
type FetchTracer interface {
	TraceFetchStart(ctx context.Context, data TraceFetchStartData) context.Context
	TraceFetchEnd(ctx context.Context, data TraceFetchEndData)
}

// TraceFetchStartData describes a fetch about to be sent.
type TraceFetchStartData struct {
	Table   TablePath
	Addr    string // host:port of the server
	Buckets int
}

// TraceFetchEndData describes the answer to a fetch.
type TraceFetchEndData struct {
	TraceFetchStartData
	// Bytes is the size of the log records received.
	Bytes   int
	Latency time.Duration
	Err     error
}

// PollTracer is told of every LogScanner poll, so that it can tell how
// much of its time a scanner's user spends waiting for records.
type PollTracer interface {
	TracePoll(ctx context.Context, data TracePollData)
}

// TracePollData describes one Poll (or PollArrow) of a LogScanner.
type TracePollData struct {
	Table TablePath
	// Wait is the time spent in the poll.
	Wait time.Duration
	// Between is the time from the end of the scanner's previous poll to
	// the start of this one (what the caller did in between); 0 for the
	// first poll.
	Between time.Duration
}

// LookupTracer traces the LOOKUP and PREFIX_LOOKUP requests of lookupers:
// a batch of keys of one table for one tablet server, possibly of several
// callers.
type LookupTracer interface {
	TraceLookupBatchStart(ctx context.Context, data TraceLookupBatchStartData) context.Context
	TraceLookupBatchEnd(ctx context.Context, data TraceLookupBatchEndData)
}

// TraceLookupBatchStartData describes a lookup request about to be sent.
type TraceLookupBatchStartData struct {
	Table   TablePath
	API     APIKey // APIKeyLookup or APIKeyPrefixLookup
	Addr    string // host:port of the server
	Keys    int
	Buckets int
}

// TraceLookupBatchEndData describes the answer to a lookup request.
type TraceLookupBatchEndData struct {
	TraceLookupBatchStartData
	Latency time.Duration
	// Err is why the request failed; failures of single buckets are
	// retried and are not reported here.
	Err error
}

// PoolTracer traces taking a connection from the client's pool, which
// every request does: the wait is for another caller's dial, or for one
// of its own (traced inside by ConnectTracer).
type PoolTracer interface {
	TracePoolAcquireStart(ctx context.Context, data TracePoolAcquireStartData) context.Context
	TracePoolAcquireEnd(ctx context.Context, data TracePoolAcquireEndData)
}

// TracePoolAcquireStartData describes a connection about to be taken.
type TracePoolAcquireStartData struct {
	Addr string // host:port of the server
}

// TracePoolAcquireEndData describes the connection taken.
type TracePoolAcquireEndData struct {
	TracePoolAcquireStartData
	Wait time.Duration
	Err  error
}

// hooks are a client's tracers, resolved from Config.Tracer once, and its
// logger. Read-only after NewClient; the transport reads it through a
// pointer shared by the pool and every connection.
type hooks struct {
	connect ConnectTracer
	request RequestTracer
	write   WriteTracer
	fetch   FetchTracer
	poll    PollTracer
	lookup  LookupTracer
	pool    PoolTracer
	// log is never nil: Config.Logger, or one that drops everything.
	log *slog.Logger
}

// noHooks is what a connection made outside a Client (tests) uses.
var noHooks = hooks{log: slog.New(slog.DiscardHandler)}

// newHooks resolves the tracer interfaces tracer implements.
func newHooks(tracer any, log *slog.Logger) *hooks {
	h := noHooks
	if log != nil {
		h.log = log
	}
	h.connect, _ = tracer.(ConnectTracer)
	h.request, _ = tracer.(RequestTracer)
	h.write, _ = tracer.(WriteTracer)
	h.fetch, _ = tracer.(FetchTracer)
	h.poll, _ = tracer.(PollTracer)
	h.lookup, _ = tracer.(LookupTracer)
	h.pool, _ = tracer.(PoolTracer)
	return &h
}

// valuesOf is a context with the deadline and cancellation of one
// context (the client's own) and also the values of another (the
// caller's span), for work the client does on the caller's behalf on a
// goroutine of its own. Made only when a tracer wants the values.
type valuesOf struct {
	context.Context // deadline, Done, Err
	values          context.Context
}

// Value asks the client's context first: the context package finds its
// own cancellation there (so that contexts derived from this one are
// cancelled as cheaply as from any other), and the client's contexts
// carry no values of their own, so the caller's come next.
func (c valuesOf) Value(key any) any {
	if v := c.Context.Value(key); v != nil {
		return v
	}
	return c.values.Value(key)
}

// withValuesOf returns ctx carrying the values of from; ctx itself when
// from is nil or ctx already. A from made here lends the values it
// borrowed, so that a chain of fetches started from each other does not
// nest contexts ever deeper.
func withValuesOf(ctx, from context.Context) context.Context {
	if v, ok := from.(valuesOf); ok {
		from = v.values
	}
	if from == nil || from == ctx {
		return ctx
	}
	return valuesOf{Context: ctx, values: from}
}
