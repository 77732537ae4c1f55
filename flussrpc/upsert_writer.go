package flussrpc

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
)

// MergeMode selects how PUT_KV merges a row into the stored one.
type MergeMode int32

// Merge modes (PutKvRequest.agg_mode).
const (
	// MergeDefault applies the table's merge engine (aggregation functions,
	// first/last row, versioned …); plain PK tables overwrite.
	MergeDefault MergeMode = 0
	// MergeOverwrite replaces the stored row even when the table has a
	// merge engine (Java MergeMode.OVERWRITE).
	MergeOverwrite MergeMode = 1
)

// UpsertOptions configure an UpsertWriter.
type UpsertOptions struct {
	WriterOptions
	// TargetColumns names the columns of a partial update; it must
	// include every primary-key column, and the other columns must be
	// nullable (they are written as NULL and left unchanged by the server).
	// Empty means all columns.
	TargetColumns []string
	// TargetColumnIndexes is TargetColumns given as column positions; set
	// at most one of the two.
	TargetColumnIndexes []int
	// MergeMode is sent as PUT_KV agg_mode when not MergeDefault.
	MergeMode MergeMode
}

// UpsertWriter writes rows to a primary-key table: Upsert inserts or
// replaces the row with the same key, Delete removes it. Rows are batched
// per bucket like AppendWriter's and acknowledged through WriteResult and
// Flush. It is safe for concurrent use.
type UpsertWriter struct {
	t      *Table
	e      *accumulator
	enc    *codec.RowEncoder
	keys   *codec.TableKeys
	parts  *partitionResolver
	ncols  int
	nb     int
	target []bool // nil: all columns
	shape  *putKvShape
	// rangeCheck refuses timestamps the server's ARROW changelog would
	// wrap; nil unless the log format is ARROW and a column needs it.
	rangeCheck func(row []any) error
}

// NewUpsertWriter returns a writer for a primary-key table. Values are
// encoded in the table's kv format, keys with the PUT_KV v1 rules (the
// physical primary key, the table's lake and kv-format-version rules).
func (t *Table) NewUpsertWriter(opts UpsertOptions) (*UpsertWriter, error) {
	d := &t.info.Descriptor
	if !d.HasPrimaryKey() {
		return nil, fmt.Errorf("flussrpc: table %s is a log table without primary key; write it with NewAppendWriter", t.info.Path)
	}
	cfg, err := opts.resolve(t.c)
	if err != nil {
		return nil, err
	}
	w := &UpsertWriter{t: t, ncols: len(d.Schema.Columns), nb: t.info.NumBuckets(), shape: &putKvShape{}}
	if w.nb <= 0 {
		return nil, fmt.Errorf("flussrpc: table %s reports no buckets", t.info.Path)
	}
	rf, ok := codec.ParseRowFormat(d.KvFormat())
	if !ok {
		return nil, fmt.Errorf("flussrpc: table %s has unknown table.kv.format %q", t.info.Path, d.KvFormat())
	}
	if w.enc, err = codec.NewRowEncoder(rf, d.Schema.Types()); err != nil {
		return nil, err
	}
	if w.keys, err = codec.NewTableKeys(d); err != nil {
		return nil, err
	}
	if d.LogFormat() == schema.FormatArrow {
		w.rangeCheck = arrowipc.RangeCheck(d.Schema.Columns)
		cfg.maxRecords = maxArrowChangelogRecords
	}
	if w.parts, err = newPartitionResolver(t, cfg.dynamicParts); err != nil {
		return nil, err
	}
	idx := opts.TargetColumnIndexes
	if len(opts.TargetColumns) > 0 {
		if len(idx) > 0 {
			return nil, fmt.Errorf("flussrpc: set TargetColumns or TargetColumnIndexes, not both")
		}
		if idx, err = d.Schema.ColumnIndexes(opts.TargetColumns); err != nil {
			return nil, err
		}
	}
	if len(idx) > 0 {
		w.target = make([]bool, w.ncols)
		for _, i := range idx {
			if i < 0 || i >= w.ncols {
				return nil, fmt.Errorf("flussrpc: target column index %d out of range for %s", i, plural.Count(w.ncols, "column"))
			}
			w.target[i] = true
		}
		for _, pk := range d.Schema.PrimaryKey {
			if !w.target[d.Schema.ColumnIndex(pk)] {
				return nil, fmt.Errorf("flussrpc: partial update of %s must include primary-key column %q", t.info.Path, pk)
			}
		}
		for i, c := range d.Schema.Columns {
			if !w.target[i] && !c.Type.Nullable {
				return nil, fmt.Errorf("flussrpc: partial update of %s leaves out NOT NULL column %q", t.info.Path, c.Name)
			}
			if w.target[i] {
				w.shape.targetColumns = append(w.shape.targetColumns, int32(i))
			}
		}
	}
	if opts.MergeMode != MergeDefault {
		w.shape.aggMode = proto.Int32(int32(opts.MergeMode))
	}
	w.e = newAccumulator(t, cfg, true)
	w.e.putKv = func() *putKvShape { return w.shape }
	return w, nil
}

// Table returns the table the writer writes to.
func (w *UpsertWriter) Table() *Table { return w.t }

// Upsert buffers an insert-or-update of row (codec value model, every
// column; with target columns the others are sent as NULL).
func (w *UpsertWriter) Upsert(ctx context.Context, row []any) (WriteResult, error) {
	return w.write(ctx, row, false)
}

// Delete buffers the deletion of the row with the key of row: the
// primary-key (and partition) columns must be set, the rest is ignored.
func (w *UpsertWriter) Delete(ctx context.Context, row []any) (WriteResult, error) {
	return w.write(ctx, row, true)
}

func (w *UpsertWriter) write(ctx context.Context, row []any, del bool) (WriteResult, error) {
	if len(row) != w.ncols {
		return WriteResult{}, fmt.Errorf("flussrpc: row has %s, table %s has %s", plural.Count(len(row), "value"), w.t.info.Path, plural.Count(w.ncols, "column"))
	}
	if w.target != nil && !del {
		row = slices.Clone(row)
		for i, in := range w.target {
			if !in {
				row[i] = nil
			}
		}
	}
	phys, pid, err := rowTarget(ctx, w.t, w.parts, row)
	if err != nil {
		return WriteResult{}, err
	}
	// The key and the value are encoded into pooled buffers, outside the
	// writer's lock, and copied into the batch under it.
	sc := getScratch()
	defer putScratch(sc)
	key, bk, err := w.keys.AppendKeys(sc.key[:0], row)
	if err != nil {
		return WriteResult{}, err
	}
	sc.key = key
	bucket, err := w.keys.Bucketing.Bucket(bk, w.nb)
	if err != nil {
		return WriteResult{}, err
	}
	var value []byte
	if !del {
		if w.rangeCheck != nil {
			if err := w.rangeCheck(row); err != nil {
				return WriteResult{}, err
			}
		}
		if value, err = w.enc.AppendRow(sc.value[:0], row); err != nil {
			return WriteResult{}, err
		}
		sc.value = value
	}
	e := w.e
	if err := e.lockForAppend(ctx); err != nil {
		return WriteResult{}, err
	}
	defer e.mu.Unlock()
	bs := e.bucketLocked(phys, pid, int32(bucket))
	b, err := e.appendLocked(ctx, bs, 1, w.newBuilder, func(bld batchBuilder) error {
		return bld.(*kvBuilder).b.Append(key, value)
	})
	if err != nil {
		return WriteResult{}, err
	}
	return WriteResult{b: b}, nil
}

// newBuilder makes the builder of a new batch with room for size bytes.
func (w *UpsertWriter) newBuilder(size int) (batchBuilder, error) {
	b := codec.NewKvBatchBuilder(int16(w.t.info.SchemaID))
	b.Grow(size)
	return &kvBuilder{b: b}, nil
}

// writeScratch holds the encoding buffers of one Upsert or Delete call.
type writeScratch struct{ key, value []byte }

// maxPooledScratch bounds the buffers kept for reuse: a rare huge row
// must not pin its memory for the rows after it.
const maxPooledScratch = 64 << 10

var scratchPool = sync.Pool{New: func() any { return new(writeScratch) }}

func getScratch() *writeScratch { return scratchPool.Get().(*writeScratch) }

func putScratch(sc *writeScratch) {
	if cap(sc.key) > maxPooledScratch {
		sc.key = nil
	}
	if cap(sc.value) > maxPooledScratch {
		sc.value = nil
	}
	scratchPool.Put(sc)
}

// Flush sends every buffered write at once and returns when all writes
// made before the call are acknowledged, or reports the failed ones as a
// *FlushError.
func (w *UpsertWriter) Flush(ctx context.Context) error { return w.e.flush(ctx) }

// Close flushes and stops the writer; see AppendWriter.Close.
func (w *UpsertWriter) Close(ctx context.Context) error { return w.e.close(ctx) }

// maxArrowChangelogRecords caps the records of one PUT_KV batch to a
// table whose changelog is ARROW. The tablet server writes one change-type
// byte per changelog record of a batch into a fixed 128 KiB page (Fluss
// 0.6-0.9, see apache/fluss#2967), and an update of an existing key makes
// two changelog records (-U and +U): on 0.9.1 a batch of 65,534 updates
// already fails whole with an IndexOutOfBoundsException. 2 MiB of small
// rows is well over that; a quarter of the page leaves room for both.
const maxArrowChangelogRecords = 32768

// kvBuilder builds KV record batches.
type kvBuilder struct {
	b *codec.KvBatchBuilder
}

func (k *kvBuilder) sizeBytes() int { return k.b.Size() }

func (k *kvBuilder) build(writerID int64, seq int32) ([]byte, error) {
	k.b.SetWriterState(writerID, seq)
	return k.b.Build(), nil
}

func (k *kvBuilder) release() {}
