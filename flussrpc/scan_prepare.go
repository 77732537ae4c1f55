package flussrpc

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
)

// preparedFetch is the work done on a buffered answer before Poll takes
// it: the CRC check of each batch and, for ARROW tables, its decompression
// and decoding into an Arrow record. Each answer is prepared on a
// goroutine of its own as soon as it arrives, so that the buckets of a
// response decode in parallel and off the caller's goroutine. Preparation
// never fails: a batch it could not check or decode is left to Poll, which
// reports the error exactly as without it.
type preparedFetch struct {
	done    chan struct{}
	batches []preparedBatch // by position of the batch in the answer
	// decoded is the size of the decompressed buffers it holds, counted
	// in the fetcher's buffer until the answer is released.
	decoded int
}

// preparedBatch is what preparation left of one batch.
type preparedBatch struct {
	crcOK bool
	rec   arrow.RecordBatch // in the batch's own columns; nil: decode in Poll
	cts   []codec.ChangeType
}

// batch returns the preparation of the i-th batch of the answer, or nil.
// It waits for the preparation to end.
func (p *preparedFetch) batch(i int) *preparedBatch {
	if p == nil {
		return nil
	}
	<-p.done
	if i >= len(p.batches) {
		return nil
	}
	return &p.batches[i]
}

// checked reports whether the batch's CRC was verified.
func (p *preparedBatch) checked() bool { return p != nil && p.crcOK }

// take hands the decoded record over to the caller (nil when there is
// none), who then owns it.
func (p *preparedBatch) take() (arrow.RecordBatch, []codec.ChangeType) {
	if p == nil || p.rec == nil {
		return nil, nil
	}
	rec, cts := p.rec, p.cts
	p.rec, p.cts = nil, nil
	return rec, cts
}

// release frees the records Poll did not take, once preparation ended.
func (p *preparedFetch) release() {
	if p == nil {
		return
	}
	<-p.done
	for i := range p.batches {
		if rec, _ := p.batches[i].take(); rec != nil {
			rec.Release()
		}
	}
}

// prepare starts preparing answer c, whose bucket reads [from, end) (end
// < 0: unbounded). The fetcher's WaitGroup covers it, so that Close waits
// for it before releasing the decoders; the decoded bytes count in the
// buffer from when it ends until the answer is released.
func (f *fetcher) prepare(c *completedFetch, from, end int64) {
	p := &preparedFetch{done: make(chan struct{})}
	c.prep = p
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		f.s.dec.prepare(f.s.ctx, p, c, from, end)
		f.mu.Lock()
		f.bufferedBytes += p.decoded
		f.mu.Unlock()
		close(p.done)
	}()
}

// prepare fills p for the batches of c that overlap [from, end).
func (d *scanDecoders) prepare(ctx context.Context, p *preparedFetch, c *completedFetch, from, end int64) {
	it := codec.NewLogBatchIterator(c.records, c.line)
	for {
		b, ok := it.Next()
		if !ok {
			return
		}
		p.batches = append(p.batches, preparedBatch{})
		h := &b.Header
		if (from >= 0 && h.LastOffset() < from) || (end >= 0 && h.BaseOffset >= end) || h.RecordCount <= 0 {
			continue
		}
		pb := &p.batches[len(p.batches)-1]
		if !d.skipCRC(c) {
			if b.VerifyCRC() != nil {
				continue
			}
			pb.crcOK = true
		}
		// A schema not at hand would need a request, which Poll, waiting
		// for this preparation, could not cancel: Poll decodes those.
		if d.arrow == nil || !d.decodeAhead.Load() || !d.t.knownSchema(int32(h.SchemaID)) {
			continue
		}
		rd, err := d.arrow.batchDecoder(ctx, h, c.remote)
		if err != nil {
			continue
		}
		rec, cts, err := rd.decode(&b)
		if err != nil {
			continue
		}
		pb.rec, pb.cts = rec, cts
		p.decoded += decodedSize(rec, len(b.Payload))
	}
}

// decodedSize is the memory a decoded record holds beyond the payload it
// came from (whose uncompressed buffers it may point into).
func decodedSize(rec arrow.RecordBatch, payload int) int {
	return max(arrowipc.RecordBytes(rec)-payload, 0)
}
