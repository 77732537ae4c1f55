package flussrpc

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// ARROW log batches: rows are collected into Arrow column builders per
// batch and encoded (with the table's compression) by the sender when the
// batch is sent; AppendArrow records are kept as they are until then and
// joined into one record per batch.

// writeBuffers lends the Arrow buffers of every writer's batches: row
// builders, joined records and compressed bodies are freed once a batch is
// encoded, and the next batch takes them again.
var writeBuffers arrowipc.BufferPool

type arrowAppender struct {
	cols     []schema.Column
	schemaID int16
	enc      *arrowipc.Encoder

	// idle are row builders whose batch was built: empty, their buffers
	// already sized for a batch like the last one, so that the next
	// batch's columns do not grow by doubling (and copying) from nothing.
	idleMu sync.Mutex
	idle   []*arrowipc.RowBuilder

	decMu sync.Mutex
	dec   *arrowipc.Decoder // lazily, for routing AppendArrow rows
}

func newArrowAppender(d *schema.TableDescriptor, schemaID int16) (arrowBatchFactory, error) {
	enc, err := arrowipc.NewTableEncoder(d, &writeBuffers)
	if err != nil {
		return nil, err
	}
	return &arrowAppender{cols: d.Schema.Columns, schemaID: schemaID, enc: enc}, nil
}

// maxIdleRowBuilders bounds the builders an appender keeps for later
// batches: a writer fills one batch per bucket at a time, and the sticky
// bucket assigner moves from one to the next.
const maxIdleRowBuilders = 4

func (a *arrowAppender) newRowBuilder() (rowBuilder, error) {
	a.idleMu.Lock()
	if n := len(a.idle); n > 0 {
		rb := a.idle[n-1]
		a.idle[n-1] = nil
		a.idle = a.idle[:n-1]
		a.idleMu.Unlock()
		return &arrowRowBuilder{a: a, rb: rb}, nil
	}
	a.idleMu.Unlock()
	rb, err := arrowipc.NewRowBuilder(a.cols, &writeBuffers)
	if err != nil {
		return nil, err
	}
	return &arrowRowBuilder{a: a, rb: rb}, nil
}

// recycle keeps rb, emptied by NewRecord, for a later batch, or releases
// it when enough are kept.
func (a *arrowAppender) recycle(rb *arrowipc.RowBuilder) {
	a.idleMu.Lock()
	defer a.idleMu.Unlock()
	if len(a.idle) < maxIdleRowBuilders {
		a.idle = append(a.idle, rb)
		return
	}
	rb.Release()
}

func (a *arrowAppender) newRecordBuilder() (batchBuilder, error) {
	return &arrowRecordBuilder{a: a}, nil
}

func (a *arrowAppender) checkRecord(rec arrow.RecordBatch) error { return a.enc.CheckRecord(rec) }

func (a *arrowAppender) estimate(rec arrow.RecordBatch) int { return a.enc.EstimatedSize(rec) }

func (a *arrowAppender) recordRows(rec arrow.RecordBatch) ([][]any, error) {
	a.decMu.Lock()
	defer a.decMu.Unlock()
	if a.dec == nil {
		dec, err := arrowipc.NewDecoder(a.cols, nil, arrowipc.Limits{})
		if err != nil {
			return nil, err
		}
		a.dec = dec
	}
	return a.dec.AppendRows(nil, rec)
}

func (a *arrowAppender) header(writerID int64, seq int32) codec.ArrowBatch {
	return codec.ArrowBatch{SchemaID: a.schemaID, WriterID: writerID, BatchSequence: seq}
}

// arrowRowBuilder collects codec rows into Arrow builders.
type arrowRowBuilder struct {
	a  *arrowAppender
	rb *arrowipc.RowBuilder
	// The size estimate walks every column, so it is refreshed only when
	// the row count grew by 1/16 and scaled in between.
	est, estRows int
}

func (b *arrowRowBuilder) addRow(row []any) error { return b.rb.Append(row) }

func (b *arrowRowBuilder) sizeBytes() int {
	n := b.rb.Len()
	if n != b.estRows && (n < 64 || n-b.estRows >= n/16) {
		b.est, b.estRows = b.rb.EstimatedSize(), n
	}
	if b.estRows == 0 {
		return 0
	}
	return b.est * n / b.estRows
}

func (b *arrowRowBuilder) build(writerID int64, seq int32) ([]byte, error) {
	rec := b.rb.NewRecord()
	defer rec.Release()
	b.a.recycle(b.rb)
	b.rb = nil
	return b.a.enc.AppendLogBatch(nil, b.a.header(writerID, seq), rec)
}

func (b *arrowRowBuilder) release() {
	if b.rb != nil {
		b.rb.Release()
		b.rb = nil
	}
}

// arrowRecordBuilder holds the records given to AppendArrow that share a
// batch. They become one Arrow record when the batch is built: a log
// batch of some thousand rows costs the server and the compressor about
// as much as one of the batch size, so small records are joined.
type arrowRecordBuilder struct {
	a    *arrowAppender
	recs []arrow.RecordBatch
	size int
}

// add retains rec, whose estimated size is size, for the batch.
func (b *arrowRecordBuilder) add(rec arrow.RecordBatch, size int) {
	rec.Retain()
	b.recs = append(b.recs, rec)
	b.size += size
}

// joins reports whether rec may join the batch: records of one batch
// become one, so their Arrow schemas must be equal (CheckRecord lets
// nullability flags and nested field names differ).
func (b *arrowRecordBuilder) joins(rec arrow.RecordBatch) bool {
	return len(b.recs) == 0 || b.recs[0].Schema().Equal(rec.Schema())
}

func (b *arrowRecordBuilder) sizeBytes() int { return b.size }

func (b *arrowRecordBuilder) build(writerID int64, seq int32) ([]byte, error) {
	defer b.release()
	rec, err := arrowipc.ConcatRecords(b.recs, &writeBuffers)
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	return b.a.enc.AppendLogBatch(nil, b.a.header(writerID, seq), rec)
}

func (b *arrowRecordBuilder) release() {
	for _, r := range b.recs {
		r.Release()
	}
	b.recs = nil
}
