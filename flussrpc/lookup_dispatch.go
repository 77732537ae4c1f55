package flussrpc

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
	"github.com/gofluss/fluss/internal/plural"
)

// Lookup scheduling. Keys are queued per bucket-leader server. A key for a
// server with no request in flight is sent at once, alone; keys arriving
// while a request is in flight wait for it and then leave together in the
// next request, one entry per bucket. There is no linger timer: a lone
// caller pays one round trip, concurrent callers are coalesced by the round
// trip itself. Java and Rust instead drain a queue
// for up to 100 ms, which puts that much latency on every synchronous
// lookup.

// Defaults of LookupOptions.
const (
	DefaultLookupMaxBatchKeys = 1024
	DefaultLookupMaxInFlight  = 1
)

// LookupOptions tunes the batching of a Lookuper or PrefixLookuper, and
// can make a Lookuper insert the keys it does not find. The zero value
// gives plain lookups with the default batching.
type LookupOptions struct {
	// MaxBatchKeys caps the keys sent in one request to one server
	// (default DefaultLookupMaxBatchKeys).
	MaxBatchKeys int
	// MaxInFlight is the number of requests that may be outstanding per
	// server (default DefaultLookupMaxInFlight). With 1, a key is sent
	// immediately when nothing is in flight to its server and coalesced
	// into the next request otherwise.
	MaxInFlight int
	// InsertIfNotExists makes a Lookuper insert the keys it does not find
	// (Java's Lookup.enableInsertIfNotExists, Flink's
	// 'lookup.insert-if-not-exists'), the way dictionary tables hand out
	// ids from their auto-increment column. It needs a primary-key table
	// that is not partitioned and whose other columns, the auto-increment
	// column aside, accept NULL; NewPrefixLookuper refuses it. The server
	// writes a missing key as a row holding only the key columns (the rest
	// NULL, the auto-increment column filled by the server) and answers
	// with that row, so Lookup always finds one. Each lookup is then a
	// write: it needs WRITE permission on the table and returns only after
	// every in-sync replica has the insert, waiting at most the client's
	// request timeout (shortened to the callers' deadlines). Fewer acks
	// are not offered: the server reads the new row back once the acks
	// arrive, and a row the other replicas lack is not readable yet, so
	// with acks=1 and three replicas the lookup would find nothing.
	InsertIfNotExists bool
}

func (o LookupOptions) withDefaults() LookupOptions {
	if o.MaxBatchKeys <= 0 {
		o.MaxBatchKeys = DefaultLookupMaxBatchKeys
	}
	if o.MaxInFlight <= 0 {
		o.MaxInFlight = DefaultLookupMaxInFlight
	}
	return o
}

// ErrInvalidInsertLookup is wrapped by the errors of lookupers that
// cannot insert missing keys (LookupOptions.InsertIfNotExists).
var ErrInvalidInsertLookup = errors.New("flussrpc: invalid insert-if-not-exists lookup")

// insertSettings is how the server writes the missing keys of an
// insert-if-not-exists lookup; the server refuses such a request unless
// both are set.
type insertSettings struct {
	acks    int32
	timeout time.Duration // longest wait for acks
}

// newInsertSettings resolves the insert settings of o (nil for plain lookups)
// with the writer's rules, so that acks (all) and the server-side timeout
// get the values of a write. Idempotence is a writer-session feature the
// server's own insert does not use, so it is not required.
func newInsertSettings(c *Client, o LookupOptions) (*insertSettings, error) {
	if !o.InsertIfNotExists {
		return nil, nil
	}
	cfg, err := (&WriterOptions{Acks: "all", DisableIdempotence: true}).resolve(c)
	if err != nil {
		return nil, err
	}
	return &insertSettings{acks: cfg.acks, timeout: cfg.requestTimout}, nil
}

// timeoutMs is the server's wait for the acks of one request: the
// configured timeout, shortened to the latest deadline of the callers in
// it, as nobody waits for the answer longer than that.
func (in *insertSettings) timeoutMs(groups []*bucketCalls) int32 {
	var latest time.Time
	for _, g := range groups {
		for _, c := range g.calls {
			dl, ok := c.ctx.Deadline()
			if !ok {
				return millis(in.timeout)
			}
			if dl.After(latest) {
				latest = dl
			}
		}
	}
	return millis(min(in.timeout, time.Until(latest)))
}

// millis converts d to the int32 milliseconds of a request field, at
// least 1 (0 would not wait at all) and at most what fits.
func millis(d time.Duration) int32 {
	return int32(min(max(d/time.Millisecond, 1), math.MaxInt32))
}

// lookupKind is the RPC a dispatcher sends.
type lookupKind uint8

const (
	lookupPoint  lookupKind = iota // LOOKUP
	lookupPrefix                   // PREFIX_LOOKUP
)

// lookupCall is one key waiting for its value(s).
type lookupCall struct {
	ctx    context.Context
	path   PhysicalPath
	bucket int32
	key    []byte
	retry  retrier // its own, not a pointer: one allocation fewer per key

	partitionID int64 // resolved with the leader

	done     chan struct{}
	finished atomic.Bool
	value    []byte   // point lookup; nil = not found
	values   [][]byte // prefix lookup
	err      error
	// lastErr is the last retriable failure, reported with the caller's
	// context error when the caller gives up.
	lastErr atomic.Pointer[error]
}

// finish records the outcome once; later calls (and calls after the caller
// abandoned the lookup) are ignored.
func (c *lookupCall) finish(value []byte, values [][]byte, err error) {
	if !c.finished.CompareAndSwap(false, true) {
		return
	}
	c.value, c.values, c.err = value, values, err
	close(c.done)
}

// wait blocks until the call finished or ctx ended.
func (c *lookupCall) wait(ctx context.Context) error {
	select {
	case <-c.done:
		return c.err
	case <-ctx.Done():
		if c.finished.CompareAndSwap(false, true) {
			var last error
			if p := c.lastErr.Load(); p != nil {
				last = *p
			}
			return c.gaveUp(ctx.Err(), last)
		}
		<-c.done
		return c.err
	}
}

// serverQueue holds the keys waiting for one server.
type serverQueue struct {
	node     ServerNode
	pending  []*lookupCall
	inflight int
}

// lookupDispatcher batches the lookups of one table and one kind. Each
// lookuper has its own, so plain and insert-if-not-exists lookups never
// share a request.
type lookupDispatcher struct {
	c    *Client
	kind lookupKind
	path TablePath // for tracing
	// tableID is the request field, shared by every request (marshaling
	// only reads it).
	tableID *int64
	opts    LookupOptions
	insert  *insertSettings // point lookups that insert missing keys; nil = plain

	mu     sync.Mutex
	queues map[int32]*serverQueue
}

func newLookupDispatcher(c *Client, kind lookupKind, path TablePath, tableID int64, opts LookupOptions) *lookupDispatcher {
	return &lookupDispatcher{c: c, kind: kind, path: path, tableID: proto.Int64(tableID), opts: opts.withDefaults(), queues: make(map[int32]*serverQueue)}
}

// submit routes the calls to their bucket leaders and queues them there.
func (d *lookupDispatcher) submit(calls ...*lookupCall) {
	var touched [1]*serverQueue
	d.start(d.enqueue(calls, touched[:0]), nil, nil)
}

// submitOwn is submit for the calls of a caller that waits for them at
// once, under ctx. A lone key for a server with nothing in flight is then
// sent by the caller itself, under its own context, instead of by a new
// goroutine: that saves a goroutine start and a hand-over per round trip
// (about 30 of 200 µs at one lookup at a time on a busy 2-core machine).
// What queues for the server meanwhile leaves after it, from a goroutine
// of its own, as in submit.
func (d *lookupDispatcher) submitOwn(ctx context.Context, calls []*lookupCall) {
	var touched [1]*serverQueue
	d.start(d.enqueue(calls, touched[:0]), ctx, calls)
}

// enqueue routes the calls and queues them; it returns the queues they
// went to, appended to touched (which the callers keep on their stack:
// most lookups touch one server).
func (d *lookupDispatcher) enqueue(calls []*lookupCall, touched []*serverQueue) []*serverQueue {
	for _, call := range calls {
		if call.finished.Load() {
			continue
		}
		n, rt, err := d.c.leaderOf(call.ctx, call.path, call.bucket)
		if err != nil {
			d.failed(call, err)
			continue
		}
		call.partitionID = rt.partitionID
		d.mu.Lock()
		q := d.queues[n.ID]
		if q == nil {
			q = &serverQueue{}
			d.queues[n.ID] = q
		}
		q.node = n
		q.pending = append(q.pending, call)
		d.mu.Unlock()
		if !slices.Contains(touched, q) {
			touched = append(touched, q)
		}
	}
	return touched
}

// start sends to each touched server that has room for a request. Called
// only once all calls are queued, so that calls submitted together leave
// together instead of the first alone. When own is a single call and the
// request would carry it alone, it is sent here under ctx (submitOwn).
func (d *lookupDispatcher) start(touched []*serverQueue, ctx context.Context, own []*lookupCall) {
	for _, q := range touched {
		d.mu.Lock()
		if q.inflight >= d.opts.MaxInFlight || len(q.pending) == 0 {
			d.mu.Unlock()
			continue
		}
		q.inflight++
		batch := d.takeLocked(q)
		d.mu.Unlock()
		if len(own) == 1 && len(batch) == 1 && batch[0] == own[0] {
			d.sendTo(ctx, q, batch)
			if next, more := d.next(q); more {
				go d.run(q, next)
			}
			continue
		}
		go d.run(q, batch)
	}
}

// takeLocked removes up to MaxBatchKeys live calls from q.
func (d *lookupDispatcher) takeLocked(q *serverQueue) []*lookupCall {
	var batch []*lookupCall
	i := 0
	for ; i < len(q.pending) && len(batch) < d.opts.MaxBatchKeys; i++ {
		if c := q.pending[i]; !c.finished.Load() {
			batch = append(batch, c)
		}
	}
	rest := copy(q.pending, q.pending[i:])
	clear(q.pending[rest:])
	q.pending = q.pending[:rest]
	return batch
}

// run sends batches to q's server until nothing is pending.
func (d *lookupDispatcher) run(q *serverQueue, batch []*lookupCall) {
	for more := true; more; batch, more = d.next(q) {
		d.sendTo(context.Background(), q, batch)
	}
}

// next takes the next batch of q (possibly empty: its calls all ended),
// or ends q's request turn when nothing is pending (more == false).
func (d *lookupDispatcher) next(q *serverQueue) (batch []*lookupCall, more bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(q.pending) == 0 {
		q.inflight--
		return nil, false
	}
	return d.takeLocked(q), true
}

// sendTo sends batch, if any, to q's server.
func (d *lookupDispatcher) sendTo(ctx context.Context, q *serverQueue, batch []*lookupCall) {
	if len(batch) == 0 {
		return
	}
	d.mu.Lock()
	node := q.node
	d.mu.Unlock()
	d.send(ctx, node, batch)
}

// partitionBucket identifies one bucket entry of a request.
type partitionBucket struct {
	partitionID int64
	bucket      int32
}

// bucketCalls is the calls of one bucket in request order.
type bucketCalls struct {
	key   partitionBucket
	calls []*lookupCall
}

func groupByBucket(batch []*lookupCall) []*bucketCalls {
	if len(batch) == 1 {
		// One lookup at a time: its request needs no index of buckets.
		c := batch[0]
		return []*bucketCalls{{key: partitionBucket{c.partitionID, c.bucket}, calls: batch}}
	}
	idx := make(map[partitionBucket]int)
	var groups []*bucketCalls
	for _, c := range batch {
		k := partitionBucket{c.partitionID, c.bucket}
		i, ok := idx[k]
		if !ok {
			i = len(groups)
			idx[k] = i
			groups = append(groups, &bucketCalls{key: k})
		}
		groups[i].calls = append(groups[i].calls, c)
	}
	return groups
}

// send issues one request for batch and distributes the answers. ctx is the
// caller's for a batch of its own call (submitOwn), else Background: a
// batch shared by several callers is bounded by the request timeout, each
// caller by its own context in lookupCall.wait.
func (d *lookupDispatcher) send(ctx context.Context, node ServerNode, batch []*lookupCall) {
	groups := groupByBucket(batch)
	var tr *lookupTrace
	if t := d.c.hooks.lookup; t != nil {
		tr = d.startTrace(ctx, t, node, batch, groups)
		ctx = tr.ctx
	}
	var err error
	var resps map[partitionBucket]bucketResult
	if d.kind == lookupPrefix {
		resps, err = d.sendPrefix(ctx, node, groups)
	} else {
		resps, err = d.sendPoint(ctx, node, groups)
	}
	tr.end(err)
	if err != nil {
		for _, c := range batch {
			d.failed(c, err)
		}
		return
	}
	for _, g := range groups {
		r, ok := resps[g.key]
		switch {
		case !ok:
			err := fmt.Errorf("flussrpc: %s answered no entry for bucket %d (partition %d)", node.UID(), g.key.bucket, g.key.partitionID)
			for _, c := range g.calls {
				c.finish(nil, nil, err)
			}
		case r.err != nil:
			for _, c := range g.calls {
				d.failed(c, r.err)
			}
		case len(r.values) != len(g.calls):
			err := fmt.Errorf("flussrpc: %s answered %s for %s of bucket %d", node.UID(), plural.Count(len(r.values), "value"), plural.Count(len(g.calls), "key"), g.key.bucket)
			for _, c := range g.calls {
				c.finish(nil, nil, err)
			}
		default:
			for i, c := range g.calls {
				if d.kind == lookupPrefix {
					c.finish(nil, r.lists[i], nil)
				} else {
					c.finish(r.values[i], nil, nil)
				}
			}
		}
	}
}

// lookupTrace is a lookup request traced by a LookupTracer.
type lookupTrace struct {
	t     LookupTracer
	ctx   context.Context // as TraceLookupBatchStart returned it
	data  TraceLookupBatchStartData
	start time.Time
}

// startTrace starts the trace of the request for batch, under the values
// of the first call's context (the statement that looks up) and the
// deadline of ctx (its own or, for a batch shared by several callers,
// none).
func (d *lookupDispatcher) startTrace(ctx context.Context, t LookupTracer, node ServerNode, batch []*lookupCall, groups []*bucketCalls) *lookupTrace {
	api := APIKeyLookup
	if d.kind == lookupPrefix {
		api = APIKeyPrefixLookup
	}
	tr := &lookupTrace{t: t, data: TraceLookupBatchStartData{Table: d.path, API: api, Addr: node.Addr(), Keys: len(batch), Buckets: len(groups)}, start: time.Now()}
	tr.ctx = t.TraceLookupBatchStart(withValuesOf(ctx, batch[0].ctx), tr.data)
	return tr
}

// end ends the trace, if any, before the calls complete: whoever waits
// for them finds the request's trace ended.
func (tr *lookupTrace) end(err error) {
	if tr == nil {
		return
	}
	tr.t.TraceLookupBatchEnd(tr.ctx, TraceLookupBatchEndData{TraceLookupBatchStartData: tr.data, Latency: time.Since(tr.start), Err: err})
}

// bucketResult is one bucket's answer: a value per key (point lookups;
// nil = not found) or a list per key (prefix lookups; values holds
// placeholders so that lengths can be checked uniformly).
type bucketResult struct {
	err    error
	values [][]byte
	lists  [][][]byte
}

// request is the bucket entry of a lookup request (point or prefix) for
// g: bucket, partition id (nil for none) and keys in call order.
func (g *bucketCalls) request() (bucket *int32, partition *int64, keys [][]byte) {
	if g.key.partitionID >= 0 {
		partition = proto.Int64(g.key.partitionID)
	}
	keys = make([][]byte, len(g.calls))
	for i, c := range g.calls {
		keys[i] = c.key
	}
	return proto.Int32(g.key.bucket), partition, keys
}

// newBucketResult starts the result of one bucket entry of a lookup response:
// which bucket it answers and its error, if any.
func newBucketResult(bucket int32, partition *int64, code int32, msg string) (partitionBucket, bucketResult) {
	k := partitionBucket{-1, bucket}
	if partition != nil {
		k.partitionID = *partition
	}
	return k, bucketResult{err: ErrorFromCode(code, msg)}
}

func (d *lookupDispatcher) sendPoint(ctx context.Context, node ServerNode, groups []*bucketCalls) (map[partitionBucket]bucketResult, error) {
	req := &pb.LookupRequest{TableId: d.tableID}
	if d.insert != nil {
		req.InsertIfNotExists = proto.Bool(true)
		req.Acks = proto.Int32(d.insert.acks)
		req.TimeoutMs = proto.Int32(d.insert.timeoutMs(groups))
	}
	for _, g := range groups {
		bucket, partition, keys := g.request()
		req.BucketsReq = append(req.BucketsReq, &pb.PbLookupReqForBucket{BucketId: bucket, PartitionId: partition, Keys: keys})
	}
	var resp pb.LookupResponse
	if err := callNode(ctx, d.c, node, rpcLookup, req, &resp); err != nil {
		return nil, err
	}
	out := make(map[partitionBucket]bucketResult, len(resp.GetBucketsResp()))
	for _, br := range resp.GetBucketsResp() {
		k, r := newBucketResult(br.GetBucketId(), br.PartitionId, br.GetErrorCode(), br.GetErrorMessage())
		if r.err == nil {
			r.values = make([][]byte, len(br.GetValues()))
			for i, v := range br.GetValues() {
				if v.Values != nil {
					r.values[i] = v.Values
				}
			}
		}
		out[k] = r
	}
	return out, nil
}

func (d *lookupDispatcher) sendPrefix(ctx context.Context, node ServerNode, groups []*bucketCalls) (map[partitionBucket]bucketResult, error) {
	req := &pb.PrefixLookupRequest{TableId: d.tableID}
	for _, g := range groups {
		bucket, partition, keys := g.request()
		req.BucketsReq = append(req.BucketsReq, &pb.PbPrefixLookupReqForBucket{BucketId: bucket, PartitionId: partition, Keys: keys})
	}
	var resp pb.PrefixLookupResponse
	if err := callNode(ctx, d.c, node, rpcPrefixLookup, req, &resp); err != nil {
		return nil, err
	}
	out := make(map[partitionBucket]bucketResult, len(resp.GetBucketsResp()))
	for _, br := range resp.GetBucketsResp() {
		k, r := newBucketResult(br.GetBucketId(), br.PartitionId, br.GetErrorCode(), br.GetErrorMessage())
		if r.err == nil {
			n := len(br.GetValueLists())
			r.values = make([][]byte, n)
			r.lists = make([][][]byte, n)
			for i, l := range br.GetValueLists() {
				r.lists[i] = l.GetValues()
			}
		}
		out[k] = r
	}
	return out, nil
}

// failed retries a call after a retriable error (refreshing the route
// first when the error says it is stale) or finishes it with the error.
// Resending after an ambiguous failure is safe: lookups are reads, and an
// insert-if-not-exists lookup that is repeated finds the key the first
// attempt inserted (or inserts it now). Whether the driver may retry on
// another connection is decided separately, from whether anything was
// sent.
func (d *lookupDispatcher) failed(call *lookupCall, err error) {
	if call.finished.Load() {
		return
	}
	if !IsRetriable(err) || errors.Is(err, ErrClientClosed) {
		call.finish(nil, nil, err)
		return
	}
	if cerr := call.ctx.Err(); cerr != nil {
		call.finish(nil, nil, call.gaveUp(cerr, err))
		return
	}
	if IsInvalidMetadata(err) {
		d.c.meta.invalidate(call.path)
	}
	call.lastErr.Store(&err)
	go func() {
		ok, werr := call.retry.again(call.ctx)
		if !ok {
			call.finish(nil, nil, call.gaveUp(werr, err))
			return
		}
		d.submit(call)
	}()
}

// gaveUp is the error of a call that stops retrying, because its context
// ended (ctxErr) or its attempts ran out (ctxErr nil), after the retriable
// failure last (nil if none): it names the bucket and both causes.
func (c *lookupCall) gaveUp(ctxErr, last error) error {
	switch {
	case ctxErr == nil:
		return fmt.Errorf("flussrpc: lookup on %s bucket %d: %w", c.path, c.bucket, last)
	case last == nil:
		return fmt.Errorf("flussrpc: lookup on %s bucket %d abandoned: %w", c.path, c.bucket, ctxErr)
	}
	return fmt.Errorf("flussrpc: lookup on %s bucket %d abandoned: %w (last error: %w)", c.path, c.bucket, ctxErr, last)
}
