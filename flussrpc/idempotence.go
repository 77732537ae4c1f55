package flussrpc

import (
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"slices"
	"time"

	"github.com/gofluss/fluss/flussrpc/pb"
)

// Idempotent writes. The writer gets one writer id
// from INIT_WRITER; every bucket numbers its batches 0, 1, 2, … under that
// id, and a batch keeps its number across retries, so the server can drop
// a batch it already appended (DUPLICATE_SEQUENCE) and refuse gaps
// (OUT_OF_ORDER_SEQUENCE).
//
// After a retry or a failure a bucket recovers as a whole: it sends
// nothing until every in-flight batch has come back, then resends in
// sequence order (retried batches keep their numbers) and resumes
// pipelining. A batch the server rejected for good leaves a gap that the
// later batches close by moving down one number, as the Java client's
// adjustSequencesDueToFailedBatch does.
// When the server lost the writer (UNKNOWN_WRITER_ID), or a failure leaves
// it unknown whether a batch was appended, the writer takes a new writer
// id and every bucket starts again at sequence 0.

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Offsets of writer id, batch sequence, CRC and CRC start in V0 log
// batches and KV batches.
const (
	logWriterIDOff = 32
	logSeqOff      = 40
	logCRCOff      = 21
	logCRCFrom     = 25
	kvWriterIDOff  = 12
	kvSeqOff       = 20
	kvCRCOff       = 5
	kvCRCFrom      = 9
)

// restamp rewrites writer id and batch sequence of a built batch and
// recomputes its CRC.
func restamp(kv bool, b []byte, writerID int64, seq int32) {
	le := binary.LittleEndian
	if kv {
		le.PutUint64(b[kvWriterIDOff:], uint64(writerID))
		le.PutUint32(b[kvSeqOff:], uint32(seq))
		le.PutUint32(b[kvCRCOff:], crc32.Checksum(b[kvCRCFrom:], castagnoli))
		return
	}
	le.PutUint64(b[logWriterIDOff:], uint64(writerID))
	le.PutUint32(b[logSeqOff:], uint32(seq))
	le.PutUint32(b[logCRCOff:], crc32.Checksum(b[logCRCFrom:], castagnoli))
}

// sequenceReadyLocked reports whether the bucket may send now. A bucket
// whose writer id is stale, or that is recovering from a retry or a
// failure, waits until every in-flight batch came back; then it restarts
// at sequence 0 under the new writer id, or closes the gaps left by
// batches the server definitely rejected. Batches that were sent keep
// their sequence otherwise: a batch that timed out may well be in the log
// (later batches can even have been acknowledged after it), and only its
// own sequence lets the server recognise it as a duplicate.
func (e *accumulator) sequenceReadyLocked(bs *writeBucket) bool {
	if !e.cfg.idempotent {
		return true
	}
	if e.writerID < 0 {
		return false
	}
	if bs.writerID == e.writerID && !bs.recovering {
		return true
	}
	if bs.inflight > 0 {
		return false
	}
	if bs.writerID != e.writerID {
		bs.writerID, bs.nextSeq, bs.lastAcked = e.writerID, 0, -1
		for _, b := range bs.queue {
			b.seq = -1
		}
	} else if len(bs.holes) > 0 {
		for _, b := range bs.queue {
			if b.seq < 0 {
				continue
			}
			shift := int32(0)
			for _, h := range bs.holes {
				if h < b.seq {
					shift++
				}
			}
			b.seq -= shift
		}
		bs.nextSeq -= int32(len(bs.holes))
	}
	bs.holes = nil
	bs.recovering = false
	return true
}

func nextSequence(s int32) int32 {
	if s == math.MaxInt32 {
		return 0
	}
	return s + 1
}

// assignSequenceLocked numbers a batch that is about to be sent for the
// first time since the bucket last renumbered.
func (e *accumulator) assignSequenceLocked(bs *writeBucket, b *writeBatch) {
	if !e.cfg.idempotent {
		b.writerID, b.seq = -1, -1
		return
	}
	if b.seq < 0 || b.writerID != bs.writerID {
		b.writerID, b.seq = bs.writerID, bs.nextSeq
		bs.nextSeq = nextSequence(bs.nextSeq)
	}
}

// onResultLocked applies the server's answer for one batch.
func (e *accumulator) onResultLocked(b *writeBatch, err error, offset int64) {
	bs := b.bs
	bs.inflight--
	if _, ok := e.incomplete[b]; !ok {
		return
	}
	if e.ctx.Err() != nil {
		e.completeLocked(b, ErrWriterClosed)
		return
	}
	if err == nil || e.cfg.idempotent && errors.Is(err, ErrDuplicateSequence) {
		e.ackLocked(b, offset)
		return
	}
	retriable := IsRetriable(err) || errors.Is(err, context.DeadlineExceeded)
	if retriable {
		b.lastErr = err
	}
	if e.cfg.idempotent {
		switch {
		case errors.Is(err, ErrOutOfOrderSequence):
			switch {
			case b.writerID == bs.writerID && bs.lastAcked >= 0 && b.seq <= bs.lastAcked:
				// An earlier attempt was appended and acknowledged.
				e.ackLocked(b, offset)
				return
			case b.writerID == bs.writerID && b.seq == nextSequence(bs.lastAcked):
				// The server's sequence for us is not what we know it
				// to be: fail this batch and start over with a new id.
				e.resetWriterLocked(b.writerID)
				retriable = false
			default:
				// An earlier batch of the bucket failed; this one
				// comes again after it.
				retriable = true
			}
		case errors.Is(err, ErrUnknownWriterID):
			e.resetWriterLocked(b.writerID)
			retriable = true
		}
	}
	if retriable && b.attempts <= e.cfg.retries && !errors.Is(err, ErrClientClosed) {
		if IsInvalidMetadata(err) || errors.Is(err, context.DeadlineExceeded) {
			e.c.meta.invalidate(bs.phys)
		}
		if !e.expiredLocked(b, time.Now()) {
			e.c.hooks.log.Info("flussrpc: retrying a write batch", "table", e.table.info.Path.String(), "bucket", bs.key.bucket,
				"records", b.records, "attempt", b.attempts, "err", err)
			e.requeueLocked(b)
			return
		}
		err = e.deliveryError(b)
	}
	e.giveUpLocked(b, err, retriable)
}

// giveUpLocked fails a batch for good. retriable says whether the last
// failure left it unknown if the batch was appended.
func (e *accumulator) giveUpLocked(b *writeBatch, err error, retriable bool) {
	bs := b.bs
	e.c.hooks.log.Warn("flussrpc: a write batch failed", "table", e.table.info.Path.String(), "bucket", bs.key.bucket,
		"records", b.records, "attempts", b.attempts, "err", err)
	if e.cfg.idempotent && b.writerID == bs.writerID && b.seq >= 0 {
		bs.recovering = true
		if retriable {
			// Retries are used up after an ambiguous failure: the batch
			// may or may not be in the log, so its sequence cannot be
			// given to the next batch.
			e.resetWriterLocked(b.writerID)
		} else {
			// The server rejected it: later batches move down by one.
			bs.holes = append(bs.holes, b.seq)
		}
	}
	e.completeLocked(b, err)
}

// ackLocked completes an acknowledged batch.
func (e *accumulator) ackLocked(b *writeBatch, offset int64) {
	bs := b.bs
	if e.cfg.idempotent && b.writerID == bs.writerID && b.seq > bs.lastAcked {
		bs.lastAcked = b.seq
	}
	b.baseOffset = offset
	e.completeLocked(b, nil)
}

// requeueLocked puts a batch back into the bucket's queue in creation
// (and so sequence) order, and delays the bucket.
func (e *accumulator) requeueLocked(b *writeBatch) {
	bs := b.bs
	i := 0
	for i < len(bs.queue) && bs.queue[i].order < b.order {
		i++
	}
	bs.queue = slices.Insert(bs.queue, i, b)
	bs.recovering = e.cfg.idempotent
	backoff := retryFirstDelay << min(b.attempts-1, 5)
	bs.retryAt = time.Now().Add(min(backoff, retryMaxDelay))
}

// resetWriterLocked drops the writer id the failed batch was sent with, so
// that the sender asks for a new one and every bucket restarts at 0.
func (e *accumulator) resetWriterLocked(id int64) {
	if e.writerID == id {
		e.writerID = -1
	}
	for _, bs := range e.order {
		bs.recovering = true
	}
}

// initWriter obtains a writer id (INIT_WRITER to any tablet server),
// retrying retriable failures for at most the delivery timeout.
func (e *accumulator) initWriter() error {
	r := newRetrierWithin(e.cfg.delivery)
	req := &pb.InitWriterRequest{TablePath: []*pb.PbTablePath{pbPath(e.table.info.Path)}}
	for {
		var resp pb.InitWriterResponse
		err := callNode(e.ctx, e.c, e.c.anyServer(), rpcInitWriter, req, &resp)
		if err == nil {
			e.mu.Lock()
			e.writerID = resp.GetWriterId()
			e.mu.Unlock()
			return nil
		}
		if !IsRetriable(err) {
			return err
		}
		if IsInvalidMetadata(err) {
			_ = e.c.refreshCluster(e.ctx)
		}
		if ok, werr := r.again(e.ctx); !ok {
			return errors.Join(err, werr)
		}
	}
}
