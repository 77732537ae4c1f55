package flussrpc

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/gofluss/fluss/internal/plural"
)

// The write path, shared by AppendWriter and UpsertWriter:
//
//   - the writer turns a row into a bucket of a physical path and adds it
//     to that bucket's open batch (accumulator.mu held);
//   - a batch is closed when it reaches the batch size, when it is older
//     than the batch timeout, on Flush/Close, or when appenders wait for
//     buffer memory;
//   - the sender goroutine (sender.go) stamps writer id and sequence,
//     groups closed batches by bucket leader into one PRODUCE_LOG / PUT_KV
//     request per server, and hands each response back to onResult;
//   - idempotence.go decides what a per-bucket outcome means (success,
//     retry with the same sequence, failure) and renumbers after failures;
//   - a batch not acknowledged within the delivery timeout fails with the
//     last error it met, and a bucket without a known leader waits while
//     its route is fetched in the background (sender.go).

// batchBuilder accumulates the records of one batch and produces its bytes.
type batchBuilder interface {
	// sizeBytes is the batch size in bytes so far (an estimate for ARROW).
	sizeBytes() int
	// build returns the finished batch carrying writer id and sequence.
	// It is called once, by the sender, after the batch was closed.
	build(writerID int64, seq int32) ([]byte, error)
	// release frees the builder's memory.
	release()
}

// writeBatch is one batch of records of one bucket: open (accepting records),
// queued, in flight, or done.
type writeBatch struct {
	bs      *writeBucket
	order   uint64 // creation order within the writer
	created time.Time
	builder batchBuilder // nil once built
	records int
	memory  int64 // bytes charged to the buffer

	data     []byte // built bytes, kept for retries
	writerID int64
	seq      int32 // batch sequence, -1 until first sent (idempotent only)
	// stampWriter and stampSeq are the writer id and sequence in data.
	stampWriter int64
	stampSeq    int32
	attempts    int
	lastErr     error // the last retriable failure, reported at the delivery timeout
	// traceCtx is the context of the batch's first record, whose values
	// (a span) its requests are traced under; kept only for a WriteTracer.
	traceCtx context.Context

	done       chan struct{}
	err        error
	baseOffset int64 // log tables: offset of the first record; -1 if unknown
}

// writeBucket is the state of one bucket: its open batch, the batches waiting
// to be sent (retries first, in sequence order) and idempotence bookkeeping.
type writeBucket struct {
	key         bucketKey
	phys        PhysicalPath
	partitionID int64 // -1 for non-partitioned tables

	open     *writeBatch
	queue    []*writeBatch
	inflight int
	// lastSize is the room a new batch of the bucket is made with, from
	// the last closed batch (nextBatchRoom). A batch that outgrows it
	// grows as a slice does.
	lastSize int

	// Idempotence (idempotence.go).
	writerID   int64 // the writer id the sequences below belong to
	nextSeq    int32
	lastAcked  int32   // -1: none acknowledged yet
	recovering bool    // resend only after every in-flight batch returned
	holes      []int32 // sequences of batches the server rejected
	retryAt    time.Time

	// Leader lookups (sender.go): how many times in a row the bucket was
	// found without a known leader, and why, for the delivery timeout.
	noLeader    int
	noLeaderErr error
}

// accumulator batches the rows of one writer per bucket; its sender
// goroutine (sender.go) ships them and idempotence.go judges the answers.
type accumulator struct {
	c       *Client
	table   *Table
	kv      bool // PUT_KV (upsert writer) instead of PRODUCE_LOG
	cfg     writerConfig
	putKv   func() *putKvShape // PUT_KV request fields; nil for log writers
	ctx     context.Context    // ends when the writer is closed
	cancel  context.CancelFunc
	stopped chan struct{}
	wake    chan struct{}
	// awaiting counts the goroutines waiting for responses.
	awaiting sync.WaitGroup

	mu         sync.Mutex
	buckets    map[bucketKey]*writeBucket
	whole      []*writeBucket // the buckets of the "" partition by number
	order      []*writeBucket // buckets in creation order, for fair draining
	incomplete map[*writeBatch]struct{}
	flushing   int
	closing    bool
	closed     bool

	memUsed    int64
	memFree    chan struct{} // closed (and replaced) whenever memory is freed
	memWaiters int

	batches  uint64 // batches created so far
	writerID int64  // current writer id, -1 when none (idempotence.go)

	// routing holds the paths whose routes are being fetched in the
	// background (sender.go), so that one lookup runs per path at a time.
	routing map[PhysicalPath]bool
}

// putKvShape carries the PUT_KV fields that are the same for every request.
type putKvShape struct {
	targetColumns []int32
	aggMode       *int32
}

// ErrWriterClosed is returned by writes on a closed writer.
var ErrWriterClosed = errors.New("flussrpc: writer is closed")

func newAccumulator(t *Table, cfg writerConfig, kv bool) *accumulator {
	ctx, cancel := context.WithCancel(context.Background())
	e := &accumulator{
		c: t.c, table: t, kv: kv, cfg: cfg, ctx: ctx, cancel: cancel,
		stopped:    make(chan struct{}),
		wake:       make(chan struct{}, 1),
		buckets:    make(map[bucketKey]*writeBucket),
		incomplete: make(map[*writeBatch]struct{}),
		memFree:    make(chan struct{}),
		writerID:   -1,
		routing:    make(map[PhysicalPath]bool),
	}
	go e.run()
	return e
}

// signal wakes the sender.
func (e *accumulator) signal() {
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// lockForAppend takes e.mu once buffer memory is available, waiting (and
// asking the sender to send what it has) while it is used up.
func (e *accumulator) lockForAppend(ctx context.Context) error {
	e.mu.Lock()
	if !e.closed && !e.closing && e.memUsed < e.cfg.memory {
		return nil
	}
	e.mu.Unlock()
	return e.waitForMemory(ctx)
}

// waitForMemory is lockForAppend once the buffer looked full (or the
// writer closed): it checks again and waits until memory is free. It is a
// function of its own because its deferred timer stop would otherwise
// make every append pay for a defer in a loop.
func (e *accumulator) waitForMemory(ctx context.Context) error {
	var deadline <-chan time.Time
	for {
		e.mu.Lock()
		if e.closed || e.closing {
			e.mu.Unlock()
			return ErrWriterClosed
		}
		if e.memUsed < e.cfg.memory {
			return nil
		}
		ch := e.memFree
		e.memWaiters++
		e.mu.Unlock()
		e.signal()
		if deadline == nil && e.cfg.memWait > 0 {
			t := time.NewTimer(e.cfg.memWait)
			defer t.Stop()
			deadline = t.C
		}
		var err error
		select {
		case <-ch:
		case <-ctx.Done():
			err = ctx.Err()
		case <-deadline:
			err = fmt.Errorf("flussrpc: no writer buffer memory became free within %s (client.writer.buffer.wait-timeout)", e.cfg.memWait)
		}
		e.mu.Lock()
		e.memWaiters--
		e.mu.Unlock()
		if err != nil {
			return err
		}
	}
}

// bucketLocked returns the state of a bucket, creating it. The buckets of
// a table without partitions are also kept by number (e.whole), which
// spares a map lookup per row.
func (e *accumulator) bucketLocked(phys PhysicalPath, partitionID int64, bucket int32) *writeBucket {
	whole := phys.Partition == "" && bucket >= 0
	if whole && int(bucket) < len(e.whole) && e.whole[bucket] != nil {
		return e.whole[bucket]
	}
	k := bucketKey{partition: phys.Partition, bucket: bucket}
	bs, ok := e.buckets[k]
	if !ok {
		bs = &writeBucket{key: k, phys: phys, partitionID: partitionID, writerID: -1, lastAcked: -1}
		e.buckets[k] = bs
		e.order = append(e.order, bs)
	}
	if whole {
		if int(bucket) >= len(e.whole) {
			e.whole = append(e.whole, make([]*writeBucket, int(bucket)+1-len(e.whole))...)
		}
		e.whole[bucket] = bs
	}
	return bs
}

// closeOpenLocked moves the open batch to the send queue.
func (e *accumulator) closeOpenLocked(bs *writeBucket) {
	if bs.open == nil {
		return
	}
	if bs.open.records == 0 {
		bs.open.builder.release()
		delete(e.incomplete, bs.open)
		bs.open = nil
		return
	}
	bs.lastSize = nextBatchRoom(bs.open.builder.sizeBytes(), bs.open.records, e.cfg.batchSize, e.cfg.maxRecords)
	bs.queue = append(bs.queue, bs.open)
	bs.open = nil
}

// nextBatchRoom is the room a bucket's next batch is made with after one
// of size bytes and records records closed: that size and a quarter more,
// since a batch closed by the linger time is often followed by a bigger
// one, at most the batch size, plus one average record (the one that
// crosses the batch size). A batch closed at the record cap is followed by
// one that closes at as many records, so it gets a sixteenth more: room a
// closed batch does not use stays allocated until its acknowledgement,
// and with a quarter more it was a fifth of the memory of the buffered
// batches of an upsert whose changelog caps them.
func nextBatchRoom(size, records, batchSize, maxRecords int) int {
	margin := size / 4
	if maxRecords > 0 && records >= maxRecords {
		margin = size / 16
	}
	return min(size+margin, batchSize) + size/records
}

// appendLocked adds n records to the bucket's open batch through add
// (one row, or the rows of an Arrow record), and closes the batch once it
// reaches the batch size (or the record cap), so that the next record
// starts a new one. newBuilder makes the builder of a new batch, with room
// for size bytes where it can. It returns the batch holding the records.
// ctx is the appending caller's. e.mu must be held.
func (e *accumulator) appendLocked(ctx context.Context, bs *writeBucket, n int, newBuilder func(size int) (batchBuilder, error), add func(batchBuilder) error) (*writeBatch, error) {
	if bs.open == nil {
		bld, err := newBuilder(bs.lastSize)
		if err != nil {
			return nil, err
		}
		e.batches++
		b := &writeBatch{bs: bs, order: e.batches, created: time.Now(), builder: bld, seq: -1, done: make(chan struct{}), baseOffset: -1}
		if e.c.hooks.write != nil {
			b.traceCtx = ctx
		}
		bs.open = b
		e.incomplete[b] = struct{}{}
		// The sender only arms its timer for batches it has seen: wake it
		// so that this batch leaves within the linger time of its first row.
		e.signal()
	}
	b := bs.open
	if err := add(b.builder); err != nil {
		if b.records == 0 {
			e.closeOpenLocked(bs) // drops the empty batch
		}
		return nil, err
	}
	b.records += n
	// The size is looked at once per record: for ARROW rows it is an
	// estimate that walks the column builders now and then.
	size := b.builder.sizeBytes()
	e.chargeLocked(b, size)
	if size >= e.cfg.batchSize || e.cfg.maxRecords > 0 && b.records >= e.cfg.maxRecords {
		e.closeOpenLocked(bs)
		e.signal()
	}
	return b, nil
}

// chargeLocked charges the growth of a batch to size bytes to the buffer
// memory.
func (e *accumulator) chargeLocked(b *writeBatch, size int) {
	if n := int64(size); n > b.memory {
		e.memUsed += n - b.memory
		b.memory = n
	}
}

// completeLocked finishes a batch: its records are acknowledged (err nil)
// or failed, its memory is returned and waiters are woken.
func (e *accumulator) completeLocked(b *writeBatch, err error) {
	if _, ok := e.incomplete[b]; !ok {
		return
	}
	delete(e.incomplete, b)
	if err != nil {
		err = &WriteError{Table: e.table.info.Path, Partition: b.bs.phys.Partition, Bucket: b.bs.key.bucket, Records: b.records, Err: err}
	}
	b.err = err
	if b.builder != nil {
		b.builder.release()
		b.builder = nil
	}
	b.data = nil
	e.memUsed -= b.memory
	b.memory = 0
	if e.memWaiters > 0 {
		close(e.memFree)
		e.memFree = make(chan struct{})
	}
	close(b.done)
}

// WriteError is the failure of the records of one batch: they were not
// written (or, after an ambiguous network failure with idempotence off,
// may have been). errors.Is matches the server error, for example
// errors.Is(err, ErrDeletionDisabled).
type WriteError struct {
	Table     TablePath
	Partition string // "" for non-partitioned tables
	Bucket    int32
	Records   int // records of the batch, all failed
	Err       error
}

// Error describes the failed batch.
func (e *WriteError) Error() string {
	where := e.Table.String()
	if e.Partition != "" {
		where += " partition " + e.Partition
	}
	return fmt.Sprintf("flussrpc: writing %s to %s bucket %d: %v", plural.Count(e.Records, "record"), where, e.Bucket, e.Err)
}

// Unwrap returns the cause.
func (e *WriteError) Unwrap() error { return e.Err }

// WriteResult is the outcome of one Append, AppendArrow, Upsert or Delete.
// The zero value is complete and successful.
type WriteResult struct {
	b    *writeBatch
	more []*writeBatch // AppendArrow records split over several batches
}

// Done is closed once the server acknowledged or rejected the write (for
// writes split over several batches, the first of them).
func (r WriteResult) Done() <-chan struct{} {
	if r.b == nil {
		return closedChan
	}
	return r.b.done
}

var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// Wait blocks until the write is acknowledged and returns nil, or returns
// the *WriteError that failed it, or the context's error.
func (r WriteResult) Wait(ctx context.Context) error {
	if r.b == nil {
		return nil
	}
	for _, b := range append([]*writeBatch{r.b}, r.more...) {
		select {
		case <-b.done:
			if b.err != nil {
				return b.err
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// Offset returns the log offset the server assigned to the write's batch
// (PRODUCE_LOG base_offset; for upserts the changelog end offset), or -1
// when unknown or not yet acknowledged.
func (r WriteResult) Offset() int64 {
	if r.b == nil {
		return -1
	}
	select {
	case <-r.b.done:
		return r.b.baseOffset
	default:
		return -1
	}
}

// FlushError reports the writes that failed among those a Flush waited for.
type FlushError struct {
	// FailedRecords counts the failed records.
	FailedRecords int
	// Errs holds the *WriteError of each failed batch (at most 16).
	Errs []error
}

// Error summarises the failures.
func (e *FlushError) Error() string {
	if len(e.Errs) == 0 {
		return fmt.Sprintf("flussrpc: %s failed", plural.Count(e.FailedRecords, "record"))
	}
	return fmt.Sprintf("flussrpc: %s failed; first: %v", plural.Count(e.FailedRecords, "record"), e.Errs[0])
}

// Unwrap gives errors.Is and errors.As access to every batch error.
func (e *FlushError) Unwrap() []error { return e.Errs }

// flush sends every record added so far without waiting for the batch
// timeout and waits until all are acknowledged or failed.
func (e *accumulator) flush(ctx context.Context) error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return ErrWriterClosed
	}
	pending := make([]*writeBatch, 0, len(e.incomplete))
	for b := range e.incomplete {
		pending = append(pending, b)
	}
	e.flushing++
	e.mu.Unlock()
	e.signal()
	defer func() {
		e.mu.Lock()
		e.flushing--
		e.mu.Unlock()
	}()
	var fe FlushError
	for _, b := range pending {
		select {
		case <-b.done:
		case <-ctx.Done():
			return ctx.Err()
		}
		if b.err != nil {
			fe.FailedRecords += b.records
			if len(fe.Errs) < 16 {
				fe.Errs = append(fe.Errs, b.err)
			}
		}
	}
	if fe.FailedRecords > 0 {
		return &fe
	}
	return nil
}

// close flushes, then stops the sender. Batches still unsent when ctx ends
// fail with ErrWriterClosed.
func (e *accumulator) close(ctx context.Context) error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil
	}
	e.mu.Unlock()
	ferr := e.flush(ctx)
	e.mu.Lock()
	e.closing = true
	e.mu.Unlock()
	e.cancel()
	<-e.stopped
	e.awaiting.Wait()
	e.mu.Lock()
	e.closed = true
	for b := range e.incomplete {
		e.completeLocked(b, ErrWriterClosed)
	}
	e.mu.Unlock()
	return ferr
}

// readyLocked collects the batches to send now, marking them in flight,
// and returns when the sender should look again if nothing changes.
func (e *accumulator) readyLocked(now time.Time) (ready []*writeBatch, next time.Time) {
	urgent := e.flushing > 0 || e.memWaiters > 0 || e.closing
	for _, bs := range e.order {
		if bs.open != nil && bs.open.records > 0 {
			due := bs.open.created.Add(e.cfg.linger)
			if urgent || !now.Before(due) {
				e.closeOpenLocked(bs)
			} else if next.IsZero() || due.Before(next) {
				next = due
			}
		}
		e.expireLocked(bs, now)
		if len(bs.queue) == 0 {
			continue
		}
		if e.cfg.delivery > 0 {
			// Wake up to fail the oldest batch if it is still here then.
			if due := bs.queue[0].created.Add(e.cfg.delivery); next.IsZero() || due.Before(next) {
				next = due
			}
		}
		if now.Before(bs.retryAt) {
			if next.IsZero() || bs.retryAt.Before(next) {
				next = bs.retryAt
			}
			continue
		}
		if !e.sequenceReadyLocked(bs) {
			continue
		}
		if !e.leaderKnownLocked(bs, now) {
			if next.IsZero() || bs.retryAt.Before(next) {
				next = bs.retryAt
			}
			continue
		}
		for len(bs.queue) > 0 && bs.inflight < e.cfg.maxInflight {
			b := bs.queue[0]
			bs.queue = slices.Delete(bs.queue, 0, 1)
			e.assignSequenceLocked(bs, b)
			bs.inflight++
			b.attempts++
			ready = append(ready, b)
		}
	}
	return ready, next
}
