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
func (e *wrEngine) run() {
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
func (e *wrEngine) failUnsent(err error) {
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
// request per leader (more when they exceed the request size limit).
func (e *wrEngine) sendBatches(ready []*wrBatch) {
	byNode := make(map[int32][]*wrBatch)
	nodes := make(map[int32]ServerNode)
	var order []int32
	for _, b := range ready {
		if err := e.prepare(b); err != nil {
			e.result(b, err, -1)
			continue
		}
		node, _, err := e.c.leaderOf(e.ctx, b.bs.phys, b.bs.key.bucket)
		if err != nil {
			e.result(b, err, -1)
			continue
		}
		if _, ok := byNode[node.ID]; !ok {
			order = append(order, node.ID)
			nodes[node.ID] = node
		}
		byNode[node.ID] = append(byNode[node.ID], b)
	}
	for _, id := range order {
		for _, req := range wrSplitRequests(byNode[id], e.cfg.requestMax) {
			e.dispatch(nodes[id], req)
		}
	}
}

// wrSplitRequests groups the batches for one server into requests that
// hold at most one batch per bucket (the server keys a request's entries
// by bucket) and stay under maxBytes unless a single batch is larger.
// Batches of one bucket come in sequence order and land in successive
// requests, which are sent in order.
func wrSplitRequests(batches []*wrBatch, maxBytes int) [][]*wrBatch {
	type req struct {
		batches []*wrBatch
		size    int
		has     map[*wrBucket]bool
	}
	var reqs []*req
	last := make(map[*wrBucket]int) // index of the request with the bucket's previous batch
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
			reqs = append(reqs, &req{has: make(map[*wrBucket]bool)})
		}
		r := reqs[i]
		r.batches = append(r.batches, b)
		r.size += len(b.data)
		r.has[b.bs] = true
		last[b.bs] = i
	}
	out := make([][]*wrBatch, len(reqs))
	for i, r := range reqs {
		out[i] = r.batches
	}
	return out
}

// prepare builds the batch bytes on first send and stamps the writer id
// and sequence assigned for this attempt.
func (e *wrEngine) prepare(b *wrBatch) error {
	if b.data == nil {
		data, err := b.builder.wrBuild(b.writerID, b.seq)
		if err != nil {
			return fmt.Errorf("flussrpc: building batch: %w", err)
		}
		b.data = data
		b.stampWriter, b.stampSeq = b.writerID, b.seq
		return nil
	}
	if b.stampWriter != b.writerID || b.stampSeq != b.seq {
		wrRestamp(e.kv, b.data, b.writerID, b.seq)
		b.stampWriter, b.stampSeq = b.writerID, b.seq
	}
	return nil
}

// result hands one batch outcome to the idempotence logic.
func (e *wrEngine) result(b *wrBatch, err error, offset int64) {
	e.mu.Lock()
	e.onResultLocked(b, err, offset)
	e.mu.Unlock()
	e.signal()
}

// dispatch writes one request in the sender goroutine, so that requests to
// a server leave in the order their sequences were assigned, and waits for
// the answer in another goroutine.
func (e *wrEngine) dispatch(node ServerNode, batches []*wrBatch) {
	api := APIKeyProduceLog
	var req, resp proto.Message
	tableID := proto.Int64(e.table.info.TableID)
	timeout := proto.Int32(int32(e.cfg.requestTimout / time.Millisecond))
	acks := proto.Int32(e.cfg.acks)
	if e.kv {
		api = APIKeyPutKV
		r := &pb.PutKvRequest{Acks: acks, TableId: tableID, TimeoutMs: timeout}
		if e.putKv != nil {
			shape := e.putKv()
			r.TargetColumns = shape.targetColumns
			r.AggMode = shape.aggMode
		}
		for _, b := range batches {
			r.BucketsReq = append(r.BucketsReq, &pb.PbPutKvReqForBucket{PartitionId: wrPartitionPB(b), BucketId: proto.Int32(b.bs.key.bucket), Records: b.data})
		}
		req, resp = r, &pb.PutKvResponse{}
	} else {
		r := &pb.ProduceLogRequest{Acks: acks, TableId: tableID, TimeoutMs: timeout}
		for _, b := range batches {
			r.BucketsReq = append(r.BucketsReq, &pb.PbProduceLogReqForBucket{PartitionId: wrPartitionPB(b), BucketId: proto.Int32(b.bs.key.bucket), Records: b.data})
		}
		req, resp = r, &pb.ProduceLogResponse{}
	}
	fail := func(err error) {
		for _, b := range batches {
			e.result(b, err, -1)
		}
	}
	ctx, cancel := context.WithTimeout(e.ctx, e.cfg.requestTimout)
	cn, err := e.c.connTo(ctx, node.Addr())
	if err != nil {
		cancel()
		fail(err)
		return
	}
	w, err := cn.start(ctx, api, req)
	if err != nil {
		cancel()
		fail(err)
		return
	}
	e.awaiting.Add(1)
	go func() {
		defer e.awaiting.Done()
		defer cancel()
		if err := cn.await(ctx, api, w, resp); err != nil {
			fail(err)
			return
		}
		e.handleResponse(batches, resp)
	}()
}

func wrPartitionPB(b *wrBatch) *int64 {
	if b.bs.partitionID < 0 {
		return nil
	}
	return proto.Int64(b.bs.partitionID)
}

// errNoBucketResponse is returned when a response lacks a bucket that was
// in the request; it is retriable, as the request may simply be resent.
var errNoBucketResponse = &TransportError{Op: "read", MaybeSent: true, Err: errors.New("the response has no entry for the bucket")}

// handleResponse matches per-bucket answers to the batches sent.
func (e *wrEngine) handleResponse(batches []*wrBatch, resp proto.Message) {
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
	e.mu.Lock()
	for _, b := range batches {
		o, ok := got[key{b.bs.partitionID, b.bs.key.bucket}]
		if !ok {
			o = outcome{errNoBucketResponse, -1}
		}
		e.onResultLocked(b, o.err, o.offset)
	}
	e.mu.Unlock()
	e.signal()
}
