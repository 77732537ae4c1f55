package flussrpc

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/internal/plural"
)

// AppendOptions configure an AppendWriter; see WriterOptions.
type AppendOptions struct {
	WriterOptions
}

// AppendWriter writes rows to a log table (one without primary key). Rows
// are batched per bucket and sent in the background; Append returns as
// soon as the row is buffered. Flush waits for acknowledgement. It is safe
// for concurrent use; rows appended by one goroutine to one bucket keep
// their order.
type AppendWriter struct {
	t      *Table
	e      *accumulator
	format codec.LogFormat
	enc    *codec.RowEncoder // INDEXED / COMPACTED
	arrow  arrowBatchFactory // ARROW
	ncols  int
	nb     int
	keys   *codec.TableKeys
	parts  *partitionResolver

	// Rows without bucket key (e.mu held).
	sticky map[string]int32
	rr     int
}

// arrowBatchFactory produces ARROW batch builders (append_arrow.go).
type arrowBatchFactory interface {
	newRowBuilder() (rowBuilder, error)
	newRecordBuilder() (batchBuilder, error)
	checkRecord(rec arrow.RecordBatch) error
	recordRows(rec arrow.RecordBatch) ([][]any, error)
	estimate(rec arrow.RecordBatch) int
}

// rowBuilder is a batch builder that takes codec rows.
type rowBuilder interface {
	batchBuilder
	addRow(row []any) error
}

// NewAppendWriter returns a writer for a log table. The table's log format
// (table.log.format: ARROW, INDEXED or COMPACTED), schema, bucket key and
// partition keys come from the info the Table was opened with.
func (t *Table) NewAppendWriter(opts AppendOptions) (*AppendWriter, error) {
	d := &t.info.Descriptor
	if d.HasPrimaryKey() {
		return nil, fmt.Errorf("flussrpc: table %s has a primary key %v; write it with NewUpsertWriter", t.info.Path, d.Schema.PrimaryKey)
	}
	cfg, err := opts.resolve(t.c)
	if err != nil {
		return nil, err
	}
	w := &AppendWriter{t: t, ncols: len(d.Schema.Columns), nb: t.info.NumBuckets(), sticky: make(map[string]int32)}
	if w.nb <= 0 {
		return nil, fmt.Errorf("flussrpc: table %s reports no buckets", t.info.Path)
	}
	if w.format, err = codec.ParseLogFormat(d.LogFormat()); err != nil {
		return nil, err
	}
	if w.keys, err = codec.NewTableKeys(d); err != nil {
		return nil, err
	}
	if w.parts, err = newPartitionResolver(t, cfg.dynamicParts); err != nil {
		return nil, err
	}
	if rf, ok := w.format.RowFormat(); ok {
		if w.enc, err = codec.NewRowEncoder(rf, d.Schema.Types()); err != nil {
			return nil, err
		}
	} else {
		if w.arrow, err = newArrowAppender(d, int16(t.info.SchemaID)); err != nil {
			return nil, err
		}
	}
	w.e = newAccumulator(t, cfg, false)
	return w, nil
}

// Table returns the table the writer writes to.
func (w *AppendWriter) Table() *Table { return w.t }

// Append buffers one row (codec value model: one value per column, nil for
// NULL) for sending. It blocks, honouring ctx, while the buffer memory is
// used up. An error means the row was not taken (wrong arity or types,
// missing partition, closed writer); the server's verdict comes through
// the WriteResult and Flush.
func (w *AppendWriter) Append(ctx context.Context, row []any) (WriteResult, error) {
	if len(row) != w.ncols {
		return WriteResult{}, fmt.Errorf("flussrpc: row has %s, table %s has %s", plural.Count(len(row), "value"), w.t.info.Path, plural.Count(w.ncols, "column"))
	}
	phys, pid, err := rowTarget(ctx, w.t, w.parts, row)
	if err != nil {
		return WriteResult{}, err
	}
	bucket := int32(-1)
	if w.keys.Bucket != nil {
		if bucket, err = w.hashBucket(row); err != nil {
			return WriteResult{}, err
		}
	}
	e := w.e
	if err := e.lockForAppend(ctx); err != nil {
		return WriteResult{}, err
	}
	defer e.mu.Unlock()
	sticky := bucket < 0 && !e.cfg.roundRobin
	if bucket < 0 {
		bucket = w.noKeyBucketLocked(phys.Partition)
	}
	bs := e.bucketLocked(phys, pid, bucket)
	if bs.open != nil && !w.takesRows(bs.open.builder) {
		e.closeOpenLocked(bs)
	}
	b, err := e.appendLocked(ctx, bs, 1, w.newBuilder, func(bld batchBuilder) error {
		if w.enc != nil {
			return bld.(*logRowBuilder).b.Append(codec.AppendOnly, row)
		}
		return bld.(rowBuilder).addRow(row)
	})
	if err != nil {
		return WriteResult{}, err
	}
	if sticky && bs.open == nil {
		// The batch was full: stick to another bucket (Java
		// StickyBucketAssigner.onNewBatch).
		w.nextStickyLocked(phys.Partition, bucket)
	}
	return WriteResult{b: b}, nil
}

func (w *AppendWriter) hashBucket(row []any) (int32, error) {
	bk, err := w.keys.Bucket.AppendKey(nil, row)
	if err != nil {
		return 0, err
	}
	b, err := w.keys.Bucketing.Bucket(bk, w.nb)
	return int32(b), err
}

// noKeyBucketLocked picks the bucket of a row without bucket key.
func (w *AppendWriter) noKeyBucketLocked(partition string) int32 {
	if w.e.cfg.roundRobin {
		w.rr++
		return int32(w.rr % w.nb)
	}
	b, ok := w.sticky[partition]
	if !ok {
		b = int32(rand.IntN(w.nb))
		w.sticky[partition] = b
	}
	return b
}

// nextStickyLocked moves the sticky bucket elsewhere.
func (w *AppendWriter) nextStickyLocked(partition string, prev int32) {
	if w.nb == 1 {
		return
	}
	b := int32(rand.IntN(w.nb - 1))
	if b >= prev {
		b++
	}
	w.sticky[partition] = b
}

// newBuilder makes the builder of a new batch; size, the expected batch
// size, presizes row-format batches (Arrow builders size themselves).
func (w *AppendWriter) newBuilder(size int) (batchBuilder, error) {
	if w.enc != nil {
		b, err := codec.NewLogBatchBuilder(w.format, int16(w.t.info.SchemaID), w.enc, true)
		if err != nil {
			return nil, err
		}
		b.Grow(size)
		return &logRowBuilder{b: b}, nil
	}
	return w.arrow.newRowBuilder()
}

// fitsRecordLocked reports whether rec, of size bytes, may join the
// bucket's open batch (or start one): the batch holds records of the same
// schema, not rows, and stays within the batch size.
func (w *AppendWriter) fitsRecordLocked(bs *writeBucket, rec arrow.RecordBatch, size int) bool {
	if bs.open == nil {
		return true
	}
	rb, ok := bs.open.builder.(*arrowRecordBuilder)
	return ok && rb.joins(rec) && (bs.open.records == 0 || rb.sizeBytes()+size <= w.e.cfg.batchSize)
}

// takesRows reports whether an open batch takes single rows: an ARROW
// batch holding AppendArrow records does not.
func (w *AppendWriter) takesRows(bld batchBuilder) bool {
	_, records := bld.(*arrowRecordBuilder)
	return !records
}

// AppendArrow buffers a whole Arrow record batch whose schema matches the
// table (the Arrow schema Fluss derives from the table's columns). For a
// table without bucket key and partitions the record goes to one bucket
// (the sticky one, or the next in round-robin order), where consecutive
// records share a log batch of up to the batch size (a record larger than
// that is split); otherwise its rows are routed one by one like Append.
// The record is retained until sent; the caller may release its own
// reference at once.
func (w *AppendWriter) AppendArrow(ctx context.Context, rec arrow.RecordBatch) (WriteResult, error) {
	if w.arrow == nil {
		return WriteResult{}, fmt.Errorf("flussrpc: table %s uses the %s log format; AppendArrow needs an ARROW table", w.t.info.Path, w.t.info.Descriptor.LogFormat())
	}
	if err := w.arrow.checkRecord(rec); err != nil {
		return WriteResult{}, err
	}
	if rec.NumRows() == 0 {
		return WriteResult{}, nil
	}
	if w.keys.Bucket != nil || w.parts != nil {
		rows, err := w.arrow.recordRows(rec)
		if err != nil {
			return WriteResult{}, err
		}
		var res WriteResult
		for _, row := range rows {
			r, err := w.Append(ctx, row)
			if err != nil {
				return res, err
			}
			res = res.join(r)
		}
		return res, nil
	}
	// Split into slices of about the batch size.
	n := rec.NumRows()
	per := n
	if est := w.arrow.estimate(rec); est > w.e.cfg.batchSize {
		per = max(1, int64(float64(n)*float64(w.e.cfg.batchSize)/float64(est)))
	}
	var res WriteResult
	for off := int64(0); off < n; off += per {
		part := rec.NewSlice(off, min(off+per, n))
		r, err := w.appendRecord(ctx, part)
		part.Release()
		if err != nil {
			return res, err
		}
		res = res.join(r)
	}
	return res, nil
}

// appendRecord adds a record of at most about the batch size to the open
// batch of the next bucket without bucket key, closing that batch first
// when the record would take it past the batch size.
func (w *AppendWriter) appendRecord(ctx context.Context, rec arrow.RecordBatch) (WriteResult, error) {
	size := w.arrow.estimate(rec)
	e := w.e
	if err := e.lockForAppend(ctx); err != nil {
		return WriteResult{}, err
	}
	defer e.mu.Unlock()
	phys := physicalPathOf(w.t, "")
	bucket := w.noKeyBucketLocked("")
	bs := e.bucketLocked(phys, -1, bucket)
	if open := bs.open; open != nil && open.records > 0 && open.builder.sizeBytes()+size > e.cfg.batchSize && !e.cfg.roundRobin {
		// A batch closed for being full moves the sticky bucket, as in
		// Append.
		e.closeOpenLocked(bs)
		e.signal()
		w.nextStickyLocked("", bucket)
		bucket = w.noKeyBucketLocked("")
		bs = e.bucketLocked(phys, -1, bucket)
	}
	if !w.fitsRecordLocked(bs, rec, size) {
		e.closeOpenLocked(bs)
		e.signal()
	}
	// A batch of whole records is encoded in one piece when it is built:
	// it takes no size hint.
	newBuilder := func(int) (batchBuilder, error) { return w.arrow.newRecordBuilder() }
	b, err := e.appendLocked(ctx, bs, int(rec.NumRows()), newBuilder, func(bld batchBuilder) error {
		bld.(*arrowRecordBuilder).add(rec, size)
		return nil
	})
	if err != nil {
		return WriteResult{}, err
	}
	if !e.cfg.roundRobin && bs.open == nil {
		w.nextStickyLocked("", bucket)
	}
	return WriteResult{b: b}, nil
}

// join combines the results of several writes.
func (r WriteResult) join(o WriteResult) WriteResult {
	if o.b == nil {
		return r
	}
	if r.b == nil {
		return o
	}
	if r.b == o.b {
		return r
	}
	if n := len(r.more); n > 0 && r.more[n-1] == o.b {
		return r
	}
	r.more = append(r.more, o.b)
	r.more = append(r.more, o.more...)
	return r
}

// Flush sends every buffered row at once and returns when all rows
// appended before the call are acknowledged by the server (acks=all by
// default), or reports the ones that failed as a *FlushError.
func (w *AppendWriter) Flush(ctx context.Context) error { return w.e.flush(ctx) }

// Close flushes and stops the writer. Rows still unacknowledged when ctx
// ends fail with ErrWriterClosed. Close is idempotent.
func (w *AppendWriter) Close(ctx context.Context) error { return w.e.close(ctx) }

// logRowBuilder builds INDEXED / COMPACTED log batches.
type logRowBuilder struct {
	b *codec.LogBatchBuilder
}

func (l *logRowBuilder) sizeBytes() int { return l.b.Size() }

func (l *logRowBuilder) build(writerID int64, seq int32) ([]byte, error) {
	l.b.SetWriterState(writerID, seq)
	return l.b.Build(), nil
}

func (l *logRowBuilder) release() {}
