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
// batch is sent; AppendArrow records are kept as they are until then.

type arrowAppender struct {
	cols     []schema.Column
	schemaID int16
	enc      *arrowipc.Encoder

	decMu sync.Mutex
	dec   *arrowipc.Decoder // lazily, for routing AppendArrow rows
}

func newArrowAppender(d *schema.TableDescriptor, schemaID int16) (arrowBatchFactory, error) {
	enc, err := arrowipc.NewTableEncoder(d)
	if err != nil {
		return nil, err
	}
	return &arrowAppender{cols: d.Schema.Columns, schemaID: schemaID, enc: enc}, nil
}

func (a *arrowAppender) newRowBuilder() (rowBuilder, error) {
	rb, err := arrowipc.NewRowBuilder(a.cols, nil)
	if err != nil {
		return nil, err
	}
	return &arrowRowBuilder{a: a, rb: rb}, nil
}

func (a *arrowAppender) newRecordBuilder(rec arrow.RecordBatch) (batchBuilder, error) {
	rec.Retain()
	return &arrowRecordBuilder{a: a, rec: rec, size: a.enc.EstimatedSize(rec)}, nil
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
	b.rb.Release()
	b.rb = nil
	return b.a.enc.AppendLogBatch(nil, b.a.header(writerID, seq), rec)
}

func (b *arrowRowBuilder) release() {
	if b.rb != nil {
		b.rb.Release()
		b.rb = nil
	}
}

// arrowRecordBuilder holds one record given to AppendArrow.
type arrowRecordBuilder struct {
	a    *arrowAppender
	rec  arrow.RecordBatch
	size int
}

func (b *arrowRecordBuilder) sizeBytes() int { return b.size }

func (b *arrowRecordBuilder) build(writerID int64, seq int32) ([]byte, error) {
	out, err := b.a.enc.AppendLogBatch(nil, b.a.header(writerID, seq), b.rec)
	b.release()
	return out, err
}

func (b *arrowRecordBuilder) release() {
	if b.rec != nil {
		b.rec.Release()
		b.rec = nil
	}
}
