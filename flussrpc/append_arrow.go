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

type wrArrow struct {
	cols     []schema.Column
	schemaID int16
	enc      *arrowipc.Encoder

	decMu sync.Mutex
	dec   *arrowipc.Decoder // lazily, for routing AppendArrow rows
}

func newWrArrow(d *schema.TableDescriptor, schemaID int16) (wrArrowFactory, error) {
	comp, err := arrowipc.TableCompression(d)
	if err != nil {
		return nil, err
	}
	enc, err := arrowipc.NewEncoder(d.Schema.Columns, comp, nil)
	if err != nil {
		return nil, err
	}
	return &wrArrow{cols: d.Schema.Columns, schemaID: schemaID, enc: enc}, nil
}

func (a *wrArrow) newRowBuilder() (wrRowBuilder, error) {
	rb, err := arrowipc.NewRowBuilder(a.cols, nil)
	if err != nil {
		return nil, err
	}
	return &wrArrowRowBuilder{a: a, rb: rb}, nil
}

func (a *wrArrow) newRecordBuilder(rec arrow.RecordBatch) (wrBuilder, error) {
	rec.Retain()
	return &wrArrowRecBuilder{a: a, rec: rec, size: a.enc.EstimatedSize(rec)}, nil
}

func (a *wrArrow) checkRecord(rec arrow.RecordBatch) error { return a.enc.CheckRecord(rec) }

func (a *wrArrow) estimate(rec arrow.RecordBatch) int { return a.enc.EstimatedSize(rec) }

func (a *wrArrow) recordRows(rec arrow.RecordBatch) ([][]any, error) {
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

func (a *wrArrow) header(writerID int64, seq int32) codec.ArrowBatch {
	return codec.ArrowBatch{SchemaID: a.schemaID, WriterID: writerID, BatchSequence: seq}
}

// wrArrowRowBuilder collects codec rows into Arrow builders.
type wrArrowRowBuilder struct {
	a  *wrArrow
	rb *arrowipc.RowBuilder
	// The size estimate walks every column, so it is refreshed only when
	// the row count grew by 1/16 and scaled in between.
	est, estRows int
}

func (b *wrArrowRowBuilder) addRow(row []any) error { return b.rb.Append(row) }

func (b *wrArrowRowBuilder) wrSize() int {
	n := b.rb.Len()
	if n != b.estRows && (n < 64 || n-b.estRows >= n/16) {
		b.est, b.estRows = b.rb.EstimatedSize(), n
	}
	if b.estRows == 0 {
		return 0
	}
	return b.est * n / b.estRows
}

func (b *wrArrowRowBuilder) wrBuild(writerID int64, seq int32) ([]byte, error) {
	rec := b.rb.NewRecord()
	defer rec.Release()
	b.rb.Release()
	b.rb = nil
	return b.a.enc.AppendLogBatch(nil, b.a.header(writerID, seq), rec)
}

func (b *wrArrowRowBuilder) wrRelease() {
	if b.rb != nil {
		b.rb.Release()
		b.rb = nil
	}
}

// wrArrowRecBuilder holds one record given to AppendArrow.
type wrArrowRecBuilder struct {
	a    *wrArrow
	rec  arrow.RecordBatch
	size int
}

func (b *wrArrowRecBuilder) wrSize() int { return b.size }

func (b *wrArrowRecBuilder) wrBuild(writerID int64, seq int32) ([]byte, error) {
	out, err := b.a.enc.AppendLogBatch(nil, b.a.header(writerID, seq), b.rec)
	b.wrRelease()
	return out, err
}

func (b *wrArrowRecBuilder) wrRelease() {
	if b.rec != nil {
		b.rec.Release()
		b.rec = nil
	}
}
