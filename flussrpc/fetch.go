package flussrpc

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/pb"
)

// The fetch engine of a LogScanner, after the Java LogFetcher: every
// subscribed bucket that has no fetch in flight is fetched from its
// leader; buckets are grouped into one FETCH_LOG per tablet server, and a
// server gets no second request while one is pending. Answers are
// buffered until Poll drains them; the buffer is bounded in bytes by
// LogScanOptions.MaxBufferedBytes. Unlike Java, a bucket whose answer
// still waits in the buffer is fetched again from the end of that answer
// (found from the batch headers alone), and the fetch goroutine sends the
// next request itself, so that the server works while Poll decodes.

// completedFetch is one bucket's answer waiting to be polled.
type completedFetch struct {
	id          bucketKey
	epoch       uint64
	fetchOffset int64
	records     []byte
	remote      bool // read from remote storage: full rows, no server projection
	line        codec.ServerLine
	hw          int64
	err         error
	prep        *preparedFetch // nil: none started
}

// fetchEntry is one bucket of a fetch request.
type fetchEntry struct {
	id          bucketKey
	path        PhysicalPath
	epoch       uint64
	fetchOffset int64
	fetchBytes  int32 // max_fetch_bytes for the bucket; 0 = the option's
	tableID     int64
	partitionID int64
}

type fetcher struct {
	s *LogScanner

	mu            sync.Mutex
	pendingNodes  map[int32]bool
	buffer        []*completedFetch
	bufferedBytes int
	lines         map[int32]codec.ServerLine
	wg            sync.WaitGroup
	remoteReads   atomic.Int64 // answers served from remote log segments
}

func newFetcher(s *LogScanner) *fetcher {
	return &fetcher{s: s, pendingNodes: make(map[int32]bool), lines: make(map[int32]codec.ServerLine)}
}

// close waits for the fetch goroutines and frees what is still buffered.
func (f *fetcher) close() {
	f.wg.Wait()
	f.mu.Lock()
	buf := f.buffer
	f.buffer = nil
	f.mu.Unlock()
	for _, c := range buf {
		c.prep.release()
	}
}

// next pops the oldest buffered answer, or nil.
func (f *fetcher) next() *completedFetch {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.buffer) == 0 {
		return nil
	}
	c := f.buffer[0]
	f.buffer[0] = nil
	f.buffer = f.buffer[1:]
	return c
}

// bufferedCount is the number of answers waiting to be polled.
func (f *fetcher) bufferedCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.buffer)
}

// release accounts a drained answer. consumed is false when the bucket
// did not move to the end of the answer (stale, failed or truncated): the
// bucket then stops fetching until it can restart from its position.
func (f *fetcher) release(c *completedFetch, b *scanBucket, consumed bool) {
	c.prep.release()
	n := len(c.records)
	if c.prep != nil {
		n += c.prep.decoded
	}
	f.mu.Lock()
	f.bufferedBytes -= n
	f.mu.Unlock()
	if b == nil {
		return
	}
	s := f.s
	s.mu.Lock()
	if b.epoch == c.epoch {
		b.queued--
		if c.err == nil {
			b.retry = 0
		}
		b.stalled = b.stalled || !consumed
		b.resync()
	}
	s.mu.Unlock()
}

// fetchable reports whether the bucket may be fetched now.
func (b *scanBucket) fetchable(now time.Time) bool {
	return !b.inFlight && !b.stalled && !b.done && (b.end < 0 || b.fetchPos < b.end) && !now.Before(b.backoff)
}

// resync restarts a stalled bucket from its position once nothing of it is
// pending or buffered any more.
func (b *scanBucket) resync() {
	if b.stalled && b.queued == 0 && !b.inFlight {
		b.stalled = false
		b.fetchPos = b.pos
	}
}

// received records an answer with data for the bucket: the next fetch
// starts after its last whole batch, or, when it holds none, once Poll
// has dealt with it (which grows the fetch size of a truncated batch).
func (b *scanBucket) received(records []byte, line codec.ServerLine) {
	b.inFlight = false
	b.queued++
	if next, ok := nextFetchOffset(records, line); ok {
		b.fetchPos = max(b.fetchPos, next)
	} else {
		b.stalled = true
	}
}

// push buffers an answer and wakes Poll.
func (f *fetcher) push(c *completedFetch) {
	f.mu.Lock()
	f.buffer = append(f.buffer, c)
	f.bufferedBytes += len(c.records)
	f.mu.Unlock()
	f.s.signal()
}

// sendReady sends a fetch to every server that has fetchable buckets and
// no request pending.
func (f *fetcher) sendReady(ctx context.Context) {
	s := f.s
	f.mu.Lock()
	full := f.bufferedBytes >= s.opts.MaxBufferedBytes
	f.mu.Unlock()
	if full {
		return
	}
	now := time.Now()
	type cand struct {
		id    bucketKey
		path  PhysicalPath
		epoch uint64
	}
	var cands []cand
	s.mu.Lock()
	for id, b := range s.buckets {
		if b.fetchable(now) {
			cands = append(cands, cand{id, b.path, b.epoch})
		}
	}
	s.mu.Unlock()
	if len(cands) == 0 {
		return
	}
	byNode := make(map[int32][]fetchEntry)
	nodes := make(map[int32]ServerNode)
	for _, c := range cands {
		n, rt, err := s.t.c.leaderOf(ctx, c.path, c.id.bucket)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			f.bucketFailed(fetchEntry{id: c.id, path: c.path, epoch: c.epoch, fetchOffset: -1}, err, false)
			continue
		}
		nodes[n.ID] = n
		byNode[n.ID] = append(byNode[n.ID], fetchEntry{id: c.id, path: c.path, epoch: c.epoch, tableID: rt.tableID, partitionID: rt.partitionID})
	}
	for id, entries := range byNode {
		f.mu.Lock()
		if f.pendingNodes[id] {
			f.mu.Unlock()
			continue
		}
		f.pendingNodes[id] = true
		f.mu.Unlock()
		// Claim the buckets; skip any that changed meanwhile.
		claimed := entries[:0]
		s.mu.Lock()
		for _, e := range entries {
			b := s.buckets[e.id]
			if b == nil || b.epoch != e.epoch || !b.fetchable(now) {
				continue
			}
			if s.closed {
				break
			}
			b.inFlight = true
			e.fetchOffset = b.fetchPos
			e.fetchBytes = b.fetchBytes
			claimed = append(claimed, e)
		}
		if len(claimed) > 0 {
			// Under s.mu, so that Close (which sets closed under it
			// before waiting) never misses this goroutine.
			f.wg.Add(1)
		}
		s.mu.Unlock()
		if len(claimed) == 0 {
			f.nodeDone(id)
			continue
		}
		go f.run(nodes[id], claimed, ctx)
	}
}

func (f *fetcher) nodeDone(id int32) {
	f.mu.Lock()
	delete(f.pendingNodes, id)
	f.mu.Unlock()
	f.s.signal()
}

// nextFetchOffset returns the offset after the last whole batch of an
// answer, reading only the batch headers; false when there is none or
// the bytes are damaged (Poll reports that when it gets there).
func nextFetchOffset(records []byte, line codec.ServerLine) (int64, bool) {
	it := codec.NewLogBatchIterator(records, line)
	next, ok := int64(0), false
	for {
		b, more := it.Next()
		if !more {
			return next, ok && it.Err() == nil
		}
		if b.Header.BaseOffset < 0 || b.Header.LastOffsetDelta < 0 {
			return 0, false
		}
		next, ok = max(next, b.Header.NextOffset()), true
	}
}

// run performs one fetch request and buffers its answers; when some
// carried data, it sends the next requests at once rather than waiting
// for Poll. The request runs under the scanner's context; parent, the
// context the fetch was started from (a Poll's), lends it its values
// when a FetchTracer traces it.
func (f *fetcher) run(node ServerNode, entries []fetchEntry, parent context.Context) {
	defer f.wg.Done()
	s := f.s
	ctx := s.ctx
	var tr *fetchTrace
	if t := s.t.c.hooks.fetch; t != nil {
		ctx = withValuesOf(s.ctx, parent)
		tr = f.startTrace(ctx, t, node, entries)
	}
	gotData := false
	defer func() {
		f.nodeDone(node.ID)
		if gotData && s.ctx.Err() == nil {
			f.sendReady(ctx)
		}
	}()
	req := f.request(entries)
	var resp pb.FetchLogResponse
	err := callNode(tr.context(ctx), s.t.c, node, rpcFetchLog, req, &resp)
	tr.end(&resp, err)
	if err != nil {
		if s.ctx.Err() != nil {
			return
		}
		for _, e := range entries {
			f.bucketFailed(e, err, true)
		}
		return
	}
	line := f.lineOf(node)
	byKey := make(map[partitionBucket]*pb.PbFetchLogRespForBucket)
	for _, tr := range resp.GetTablesResp() {
		for _, br := range tr.GetBucketsResp() {
			k := partitionBucket{-1, br.GetBucketId()}
			if br.PartitionId != nil {
				k.partitionID = br.GetPartitionId()
			}
			byKey[k] = br
		}
	}
	for _, e := range entries {
		br := byKey[partitionBucket{e.partitionID, e.id.bucket}]
		if br == nil {
			f.bucketFailed(e, fmt.Errorf("flussrpc: %s sent no fetch answer for bucket %d of %s", node.UID(), e.id.bucket, e.path), true)
			continue
		}
		gotData = f.handle(e, br, line) || gotData
	}
}

// fetchTrace is a fetch traced by a FetchTracer.
type fetchTrace struct {
	t     FetchTracer
	ctx   context.Context // as TraceFetchStart returned it
	data  TraceFetchStartData
	start time.Time
}

func (f *fetcher) startTrace(ctx context.Context, t FetchTracer, node ServerNode, entries []fetchEntry) *fetchTrace {
	tr := &fetchTrace{t: t, data: TraceFetchStartData{Table: f.s.t.info.Path, Addr: node.Addr(), Buckets: len(entries)}, start: time.Now()}
	tr.ctx = t.TraceFetchStart(ctx, tr.data)
	return tr
}

// context is the context to fetch under: the trace's, else ctx.
func (tr *fetchTrace) context(ctx context.Context) context.Context {
	if tr == nil {
		return ctx
	}
	return tr.ctx
}

// end ends the trace, if any, with the size of the records received.
func (tr *fetchTrace) end(resp *pb.FetchLogResponse, err error) {
	if tr == nil {
		return
	}
	bytes := 0
	for _, t := range resp.GetTablesResp() {
		for _, b := range t.GetBucketsResp() {
			bytes += len(b.GetRecords())
		}
	}
	tr.t.TraceFetchEnd(tr.ctx, TraceFetchEndData{TraceFetchStartData: tr.data, Bytes: bytes, Latency: time.Since(tr.start), Err: err})
}

func (f *fetcher) request(entries []fetchEntry) *pb.FetchLogRequest {
	o := f.s.opts
	tr := &pb.PbFetchLogReqForTable{
		TableId:                   proto.Int64(entries[0].tableID),
		ProjectionPushdownEnabled: proto.Bool(f.s.proj.pushdown),
	}
	if f.s.proj.pushdown {
		tr.ProjectedFields = f.s.proj.sortedPositions32()
	}
	maxBytes := o.MaxFetchBytes
	for _, e := range entries {
		perBucket := o.MaxBucketFetchBytes
		if e.fetchBytes > perBucket {
			perBucket = e.fetchBytes
			maxBytes = max(maxBytes, perBucket)
		}
		b := &pb.PbFetchLogReqForBucket{
			BucketId:      proto.Int32(e.id.bucket),
			FetchOffset:   proto.Int64(e.fetchOffset),
			MaxFetchBytes: proto.Int32(perBucket),
		}
		if e.partitionID >= 0 {
			b.PartitionId = proto.Int64(e.partitionID)
		}
		tr.BucketsReq = append(tr.BucketsReq, b)
	}
	return &pb.FetchLogRequest{
		FollowerServerId: proto.Int32(-1),
		MaxBytes:         proto.Int32(maxBytes),
		MaxWaitMs:        proto.Int32(int32(o.MaxWait / time.Millisecond)),
		MinBytes:         proto.Int32(o.MinBytes),
		TablesReq:        []*pb.PbFetchLogReqForTable{tr},
	}
}

// lineOf tells how to read magic-1 batches from a server: 1.x servers
// advertise SCAN_KV, which 0.9 servers lack.
func (f *fetcher) lineOf(node ServerNode) codec.ServerLine {
	f.mu.Lock()
	l, ok := f.lines[node.ID]
	f.mu.Unlock()
	if ok {
		return l
	}
	l = serverLineOf(f.s.ctx, f.s.t.c, node)
	f.mu.Lock()
	f.lines[node.ID] = l
	f.mu.Unlock()
	return l
}

// handle processes one bucket's answer and reports whether it buffered
// data.
func (f *fetcher) handle(e fetchEntry, br *pb.PbFetchLogRespForBucket, line codec.ServerLine) bool {
	if err := ErrorFromCode(br.GetErrorCode(), br.GetErrorMessage()); err != nil {
		if errors.Is(err, ErrLogOffsetOutOfRange) {
			f.outOfRange(e, err)
			return false
		}
		f.bucketFailed(e, err, true)
		return false
	}
	c := &completedFetch{id: e.id, epoch: e.epoch, fetchOffset: e.fetchOffset, line: line, hw: br.GetHighWatermark()}
	switch {
	case br.GetRemoteLogFetchInfo() != nil && len(br.GetRecords()) == 0:
		recs, err := readRemote(br.GetRemoteLogFetchInfo(), e.fetchOffset, int(f.s.opts.MaxBucketFetchBytes), line)
		if err != nil {
			c.err = fmt.Errorf("reading remote log segment: %w", err)
		}
		c.records, c.remote = recs, true
		f.remoteReads.Add(1)
		if c.err == nil && len(recs) == 0 {
			f.idle(e)
			return false
		}
	case len(br.GetRecords()) > 0:
		c.records = br.GetRecords()
	default:
		f.idle(e)
		return false
	}
	s := f.s
	s.mu.Lock()
	b := s.buckets[e.id]
	live := b != nil && b.epoch == e.epoch
	end := int64(-1)
	if live && c.err != nil {
		b.inFlight, b.stalled = false, true
		b.queued++
	} else if live {
		b.received(c.records, line)
		end = b.end
	}
	s.mu.Unlock()
	if !live {
		return false
	}
	if c.err == nil {
		f.prepare(c, e.fetchOffset, end)
	}
	f.push(c)
	return true
}

// idle marks a bucket fetchable again after an answer without data.
func (f *fetcher) idle(e fetchEntry) {
	s := f.s
	s.mu.Lock()
	if b := s.buckets[e.id]; b != nil && b.epoch == e.epoch {
		b.inFlight = false
		b.retry = 0
		b.resync()
	}
	s.mu.Unlock()
}

// bucketFailed handles a failed fetch of one bucket: retriable errors back
// the bucket off (after invalidating stale routing) and are retried, up to
// retryAttempts times in a row; other errors are reported through Poll.
func (f *fetcher) bucketFailed(e fetchEntry, err error, claimed bool) {
	s := f.s
	retriable := IsRetriable(err) && !errors.Is(err, ErrClientClosed)
	if IsInvalidMetadata(err) {
		s.t.c.meta.invalidate(e.path)
	}
	s.mu.Lock()
	b := s.buckets[e.id]
	if b == nil || b.epoch != e.epoch {
		s.mu.Unlock()
		return
	}
	if claimed {
		b.inFlight = false
	}
	b.retry++
	if retriable && b.retry < retryAttempts {
		d := min(retryFirstDelay<<min(b.retry-1, 5), retryMaxDelay)
		b.backoff = time.Now().Add(d)
		s.mu.Unlock()
		time.AfterFunc(d, s.signal) // wake a waiting Poll to retry
		return
	}
	// No fetch until the error is polled; it is polled where the bucket's
	// answers buffered before it end.
	b.stalled = true
	b.queued++
	b.retry = 0
	pos := b.fetchPos
	s.mu.Unlock()
	f.push(&completedFetch{id: e.id, epoch: e.epoch, fetchOffset: pos, err: err})
}

// outOfRange handles LOG_OFFSET_OUT_OF_RANGE: a position below the log
// start (data expired) moves to the earliest offset still stored, like a
// Kafka consumer with auto.offset.reset=earliest; a position past the end
// is an error for the caller, who asked for an offset that does not exist.
func (f *fetcher) outOfRange(e fetchEntry, cause error) {
	s := f.s
	ctx, cancel := context.WithTimeout(s.ctx, DefaultRequestTimeout)
	defer cancel()
	adm := s.t.c.Admin()
	bs := []int32{e.id.bucket}
	earliest, err1 := adm.ListOffsets(ctx, e.path.TablePath, e.path.Partition, bs, OffsetEarliest())
	latest, err2 := adm.ListOffsets(ctx, e.path.TablePath, e.path.Partition, bs, OffsetLatest())
	if err := errors.Join(err1, err2); err != nil {
		f.bucketFailed(e, errors.Join(cause, err), true)
		return
	}
	lo, hi := earliest[e.id.bucket], latest[e.id.bucket]
	if e.fetchOffset >= 0 && e.fetchOffset < lo {
		s.mu.Lock()
		if b := s.buckets[e.id]; b != nil && b.epoch == e.epoch {
			b.inFlight = false
			if b.pos == e.fetchOffset && b.queued == 0 {
				b.pos, b.fetchPos = lo, lo
				b.done = b.end >= 0 && b.pos >= b.end
			} else {
				// Answers before this one are still to be polled: move
				// once they are, should the position still be expired.
				b.stalled = true
				b.resync()
			}
		}
		s.mu.Unlock()
		s.signal()
		return
	}
	f.bucketFailed(e, fmt.Errorf("%w (offset %d, log holds %d..%d)", cause, e.fetchOffset, lo, hi), true)
}
