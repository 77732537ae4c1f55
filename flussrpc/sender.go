package flussrpc

import (
	"context"
	"errors"
	"fmt"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
)

// run is the sender goroutine of a writer.
func (e *accumulator) run() {
	defer close(e.stopped)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		if e.ctx.Err() != nil {
			return
		}
		if e.cfg.idempotent {
			e.mu.Lock()
			need := e.writerID < 0 && len(e.incomplete) > 0
			e.mu.Unlock()
			if need {
				if err := e.initWriter(); err != nil {
					if e.ctx.Err() != nil {
						return
					}
					e.failUnsent(fmt.Errorf("flussrpc: INIT_WRITER failed: %w", err))
				}
			}
		}
		e.mu.Lock()
		ready, next := e.readyLocked(time.Now())
		e.mu.Unlock()
		if len(ready) > 0 {
			e.sendBatches(ready)
			continue
		}
		var tc <-chan time.Time
		if !next.IsZero() {
			timer.Reset(max(time.Until(next), 0))
			tc = timer.C
		}
		select {
		case <-e.wake:
		case <-tc:
		case <-e.ctx.Done():
		}
		if tc != nil && !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
	}
}

// failUnsent fails every batch that is not in flight.
func (e *accumulator) failUnsent(err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, bs := range e.order {
		e.closeOpenLocked(bs)
		for _, b := range bs.queue {
			e.completeLocked(b, err)
		}
		bs.queue = nil
	}
}

// sendBatches builds the batches, finds their leaders and sends one
// request per leader (more when they exceed the request size limit). They
// are built and sent about one batch size of building at a time
// (sendChunk), so that the server already works on the first requests
// while the next are built.
func (e *accumulator) sendBatches(ready []*writeBatch) {
	for len(ready) > 0 {
		n := e.sendChunk(ready)
		e.sendPrepared(ready[:n])
		ready = ready[n:]
	}
}

// sendChunk returns how many of the batches to build and send next: those
// up to about one batch size of batches still to build.
func (e *accumulator) sendChunk(ready []*writeBatch) int {
	work := 0
	for i, b := range ready {
		if b.data == nil {
			work += b.builder.sizeBytes()
		}
		if work >= e.cfg.batchSize {
			return i + 1
		}
	}
	return len(ready)
}

// sendPrepared prepares the batches, groups them by leader and sends
// them.
func (e *accumulator) sendPrepared(ready []*writeBatch) {
	byNode := make(map[int32][]*writeBatch)
	nodes := make(map[int32]ServerNode)
	var order []int32
	for _, b := range ready {
		if err := e.prepare(b); err != nil {
			e.result(b, err, -1)
			continue
		}
		node, ok := e.cachedLeader(b.bs)
		if !ok {
			// The route was dropped since readyLocked saw it.
			e.result(b, noLeaderError(b.bs.phys, b.bs.key.bucket, nil), -1)
			continue
		}
		if _, ok := byNode[node.ID]; !ok {
			order = append(order, node.ID)
			nodes[node.ID] = node
		}
		byNode[node.ID] = append(byNode[node.ID], b)
	}
	for _, id := range order {
		for _, req := range splitRequests(byNode[id], e.cfg.requestMax) {
			e.dispatch(nodes[id], req)
		}
	}
}

// Leader lookups never run in the sender goroutine: a bucket whose leader
// is not in the cached metadata waits (retryAt, with back-off) while its
// route is fetched in the background, and the other buckets go on. A
// synchronous lookup used to hold up every bucket of the writer for the
// whole retry budget of a leaderless one.

// cachedLeader returns the leader of a bucket from the cached metadata.
func (e *accumulator) cachedLeader(bs *writeBucket) (ServerNode, bool) {
	rt := e.c.meta.cachedRoute(bs.phys)
	if rt == nil {
		return ServerNode{}, false
	}
	return e.c.leaderIn(rt, bs.key.bucket)
}

// leaderKnownLocked reports whether the bucket's leader is known. If not,
// it starts a background lookup and delays the bucket.
func (e *accumulator) leaderKnownLocked(bs *writeBucket, now time.Time) bool {
	if _, ok := e.cachedLeader(bs); ok {
		bs.noLeader, bs.noLeaderErr = 0, nil
		return true
	}
	if bs.noLeader > 0 && bs.noLeaderErr == nil {
		bs.noLeaderErr = noLeaderError(bs.phys, bs.key.bucket, nil)
	}
	bs.retryAt = now.Add(min(retryFirstDelay<<min(bs.noLeader, 5), retryMaxDelay))
	bs.noLeader++
	e.fetchRouteLocked(bs.phys)
	return false
}

// fetchRouteLocked fetches the route of a path in the background, unless
// that is already under way, and wakes the sender when it is back. The
// buckets of the path that now have a leader may send at once.
func (e *accumulator) fetchRouteLocked(p PhysicalPath) {
	if e.routing[p] {
		return
	}
	e.routing[p] = true
	e.awaiting.Add(1)
	go func() {
		defer e.awaiting.Done()
		ctx, cancel := context.WithTimeout(e.ctx, e.cfg.requestTimout)
		rt, err := e.c.fetchRoute(ctx, p)
		if err == nil && e.unknownLeader(rt) {
			// The node list is older than the route.
			err = e.c.refreshCluster(ctx)
		}
		cancel()
		e.mu.Lock()
		delete(e.routing, p)
		for _, bs := range e.order {
			if bs.phys != p {
				continue
			}
			if err != nil {
				bs.noLeaderErr = fmt.Errorf("flussrpc: finding the leader of bucket %d of %s: %w", bs.key.bucket, p, err)
			} else if _, ok := e.cachedLeader(bs); ok {
				bs.retryAt = time.Time{}
			}
		}
		e.mu.Unlock()
		e.signal()
	}()
}

// unknownLeader reports whether a leader of rt is missing from the node list.
func (e *accumulator) unknownLeader(rt *route) bool {
	view := e.c.meta.view()
	for _, id := range rt.leaders {
		if _, ok := view.byID[id]; !ok {
			return true
		}
	}
	return false
}

// expiredLocked reports whether a batch has outlived the delivery timeout.
func (e *accumulator) expiredLocked(b *writeBatch, now time.Time) bool {
	return e.cfg.delivery > 0 && now.Sub(b.created) >= e.cfg.delivery
}

// expireLocked fails the queued batches of a bucket that outlived the
// delivery timeout.
func (e *accumulator) expireLocked(bs *writeBucket, now time.Time) {
	keep := bs.queue[:0]
	for _, b := range bs.queue {
		if !e.expiredLocked(b, now) {
			keep = append(keep, b)
			continue
		}
		e.giveUpLocked(b, e.deliveryError(b), true)
	}
	clear(bs.queue[len(keep):])
	bs.queue = keep
}

// deliveryError is the failure of a batch at the delivery timeout: the
// last error it met, or why its bucket could not send.
func (e *accumulator) deliveryError(b *writeBatch) error {
	cause := b.lastErr
	if cause == nil {
		cause = b.bs.noLeaderErr
	}
	if cause == nil {
		cause = errors.New("never sent (waiting for earlier batches of the bucket or a writer id)")
	}
	return fmt.Errorf("not acknowledged within the delivery timeout of %s (client.writer.delivery-timeout): %w", e.cfg.delivery, cause)
}

// splitRequests groups the batches for one server into requests that
// hold at most one batch per bucket (the server keys a request's entries
// by bucket) and stay under maxBytes unless a single batch is larger.
// Batches of one bucket come in sequence order and land in successive
// requests, which are sent in order.
func splitRequests(batches []*writeBatch, maxBytes int) [][]*writeBatch {
	type req struct {
		batches []*writeBatch
		size    int
		has     map[*writeBucket]bool
	}
	var reqs []*req
	last := make(map[*writeBucket]int) // index of the request with the bucket's previous batch
	for _, b := range batches {
		i, ok := last[b.bs]
		if ok {
			i++
		} else {
			i = 0
		}
		for ; i < len(reqs); i++ {
			r := reqs[i]
			if !r.has[b.bs] && (len(r.batches) == 0 || r.size+len(b.data) <= maxBytes) {
				break
			}
		}
		if i == len(reqs) {
			reqs = append(reqs, &req{has: make(map[*writeBucket]bool)})
		}
		r := reqs[i]
		r.batches = append(r.batches, b)
		r.size += len(b.data)
		r.has[b.bs] = true
		last[b.bs] = i
	}
	out := make([][]*writeBatch, len(reqs))
	for i, r := range reqs {
		out[i] = r.batches
	}
	return out
}

// prepare builds the batch bytes on first send and stamps the writer id
// and sequence assigned for this attempt.
func (e *accumulator) prepare(b *writeBatch) error {
	if b.data == nil {
		data, err := b.builder.build(b.writerID, b.seq)
		if err != nil {
			return fmt.Errorf("flussrpc: building batch: %w", err)
		}
		b.data = data
		b.stampWriter, b.stampSeq = b.writerID, b.seq
		return nil
	}
	if b.stampWriter != b.writerID || b.stampSeq != b.seq {
		restamp(e.kv, b.data, b.writerID, b.seq)
		b.stampWriter, b.stampSeq = b.writerID, b.seq
	}
	return nil
}

// result hands one batch outcome to the idempotence logic.
func (e *accumulator) result(b *writeBatch, err error, offset int64) {
	e.mu.Lock()
	e.onResultLocked(b, err, offset)
	e.mu.Unlock()
	e.signal()
}

// dispatch writes one request in the sender goroutine, so that requests to
// a server leave in the order their sequences were assigned, and waits for
// the answer in another goroutine.
func (e *accumulator) dispatch(node ServerNode, batches []*writeBatch) {
	tableID := proto.Int64(e.table.info.TableID)
	timeout := proto.Int32(int32(e.cfg.requestTimout / time.Millisecond))
	acks := proto.Int32(e.cfg.acks)
	if e.kv {
		r := &pb.PutKvRequest{Acks: acks, TableId: tableID, TimeoutMs: timeout}
		if e.putKv != nil {
			shape := e.putKv()
			r.TargetColumns = shape.targetColumns
			r.AggMode = shape.aggMode
		}
		for _, b := range batches {
			r.BucketsReq = append(r.BucketsReq, &pb.PbPutKvReqForBucket{PartitionId: pbPartitionID(b), BucketId: proto.Int32(b.bs.key.bucket), Records: b.data})
		}
		sendWriteRequest(e, node, batches, rpcPutKV, r, &pb.PutKvResponse{})
		return
	}
	r := &pb.ProduceLogRequest{Acks: acks, TableId: tableID, TimeoutMs: timeout}
	for _, b := range batches {
		r.BucketsReq = append(r.BucketsReq, &pb.PbProduceLogReqForBucket{PartitionId: pbPartitionID(b), BucketId: proto.Int32(b.bs.key.bucket), Records: b.data})
	}
	sendWriteRequest(e, node, batches, rpcProduceLog, r, &pb.ProduceLogResponse{})
}

// sendWriteRequest sends the request of dispatch for either write API: it
// starts the request here and awaits its answer in a goroutine of its own.
func sendWriteRequest[Req, Resp proto.Message](e *accumulator, node ServerNode, batches []*writeBatch, r rpc[Req, Resp], req Req, resp Resp) {
	fail := func(err error) {
		for _, b := range batches {
			e.result(b, err, -1)
		}
	}
	ctx, cancel := context.WithTimeout(e.ctx, e.cfg.requestTimout)
	var tr *writeTrace
	if t := e.c.hooks.write; t != nil {
		tr = e.startWriteTrace(ctx, t, r.key, node, batches)
		ctx = tr.ctx
	}
	f, err := startAt(ctx, e.c, node.Addr(), r, req)
	if err != nil {
		cancel()
		tr.end(err)
		fail(err)
		return
	}
	e.awaiting.Add(1)
	go func() {
		defer e.awaiting.Done()
		defer cancel()
		if err := f.await(ctx, resp); err != nil {
			tr.end(err)
			fail(err)
			return
		}
		e.handleResponse(batches, resp, tr)
	}()
}

// writeTrace is a write request traced by a WriteTracer.
type writeTrace struct {
	t     WriteTracer
	ctx   context.Context // as TraceWriteBatchStart returned it
	data  TraceWriteBatchStartData
	start time.Time
}

// startWriteTrace starts the trace of a request of batches to node, under
// the values of the context of the first batch's first record (the
// statement that wrote it) and the deadline of ctx.
func (e *accumulator) startWriteTrace(ctx context.Context, t WriteTracer, api APIKey, node ServerNode, batches []*writeBatch) *writeTrace {
	now := time.Now()
	data := TraceWriteBatchStartData{Table: e.table.info.Path, API: api, Addr: node.Addr(), Batches: len(batches)}
	var parent context.Context
	for _, b := range batches {
		data.Records += b.records
		data.Bytes += len(b.data)
		if b.attempts > 1 {
			data.RetriedRecords += b.records
		} else {
			data.QueueTime = max(data.QueueTime, now.Sub(b.created))
		}
		if parent == nil {
			parent = b.traceCtx
		}
	}
	tr := &writeTrace{t: t, data: data, start: now}
	tr.ctx = t.TraceWriteBatchStart(withValuesOf(ctx, parent), data)
	return tr
}

// end ends the trace, if any, before the batches complete: whoever waits
// for them finds the request's trace ended.
func (tr *writeTrace) end(err error) {
	if tr == nil {
		return
	}
	tr.t.TraceWriteBatchEnd(tr.ctx, TraceWriteBatchEndData{TraceWriteBatchStartData: tr.data, Latency: time.Since(tr.start), Err: err})
}

// pbPartitionID is the partition_id of b's bucket entry in a request: nil
// for a bucket of a non-partitioned table.
func pbPartitionID(b *writeBatch) *int64 {
	if b.bs.partitionID < 0 {
		return nil
	}
	return proto.Int64(b.bs.partitionID)
}

// errNoBucketResponse is returned when a response lacks a bucket that was
// in the request; it is retriable, as the request may simply be resent.
var errNoBucketResponse = &TransportError{Op: "read", MaybeSent: true, Err: errors.New("the response has no entry for the bucket")}

// handleResponse matches per-bucket answers to the batches sent, and ends
// the request's trace tr (nil: none) with the first bucket's failure.
func (e *accumulator) handleResponse(batches []*writeBatch, resp proto.Message, tr *writeTrace) {
	type key struct {
		partition int64
		bucket    int32
	}
	type outcome struct {
		err    error
		offset int64
	}
	got := make(map[key]outcome, len(batches))
	switch r := resp.(type) {
	case *pb.ProduceLogResponse:
		for _, br := range r.GetBucketsResp() {
			p := int64(-1)
			if br.PartitionId != nil {
				p = br.GetPartitionId()
			}
			off := int64(-1)
			if br.BaseOffset != nil {
				off = br.GetBaseOffset()
			}
			got[key{p, br.GetBucketId()}] = outcome{ErrorFromCode(br.GetErrorCode(), br.GetErrorMessage()), off}
		}
	case *pb.PutKvResponse:
		for _, br := range r.GetBucketsResp() {
			p := int64(-1)
			if br.PartitionId != nil {
				p = br.GetPartitionId()
			}
			off := int64(-1)
			if br.LogEndOffset != nil {
				off = br.GetLogEndOffset()
			}
			got[key{p, br.GetBucketId()}] = outcome{ErrorFromCode(br.GetErrorCode(), br.GetErrorMessage()), off}
		}
	}
	outcomeOf := func(b *writeBatch) outcome {
		if o, ok := got[key{b.bs.partitionID, b.bs.key.bucket}]; ok {
			return o
		}
		return outcome{errNoBucketResponse, -1}
	}
	if tr != nil {
		var first error
		for _, b := range batches {
			if first = outcomeOf(b).err; first != nil {
				break
			}
		}
		tr.end(first)
	}
	e.mu.Lock()
	for _, b := range batches {
		o := outcomeOf(b)
		e.onResultLocked(b, o.err, o.offset)
	}
	e.mu.Unlock()
	e.signal()
}
