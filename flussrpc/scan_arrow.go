package flussrpc

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// ArrowScanBatch is a run of consecutive records of one bucket as an Arrow
// record batch, as returned by LogScanner.PollArrow. Its columns are the
// scan's projection (or every column of the table's schema as of
// OpenTable), with the Fluss→Arrow type mapping of package arrowipc.
type ArrowScanBatch struct {
	Partition  string // "" for non-partitioned tables
	Bucket     int32
	BaseOffset int64 // offset of the first row
	LastOffset int64 // offset of the last row
	Timestamp  int64 // commit time of the batch, ms since the epoch
	// ChangeTypes has one entry per row, or is nil when every row is
	// codec.AppendOnly (log tables).
	ChangeTypes []codec.ChangeType
	// Record holds the rows; the caller must Release it. It is nil when
	// IPC holds them instead.
	Record arrow.RecordBatch
	// IPC, only ever set by PollArrowIPC, is the log batch's own Arrow IPC
	// RecordBatch message, which holds exactly the rows and columns Record
	// would (Record is then nil). Its bytes alias the fetched data: they
	// stay valid as long as they are referenced and must not be modified.
	IPC *arrowipc.Message
}

// ArrowIPCOptions says which log batches PollArrowIPC may hand out as
// their own Arrow IPC message.
type ArrowIPCOptions struct {
	// Compressions are the body compressions (schema.CompressionLZ4,
	// schema.CompressionZstd) whose messages may be handed out; batches in
	// others are decoded. Uncompressed messages always may. Only readers
	// that decompress Arrow IPC bodies themselves can take compressed ones.
	Compressions []string
	// MaxBytes caps the metadata and body of a message handed out; larger
	// batches are decoded. 0: no cap.
	MaxBytes int
}

// passes reports whether messages of body compression c may be handed
// out.
func (o *ArrowIPCOptions) passes(c string) bool {
	return c == schema.CompressionNone || slices.Contains(o.Compressions, c)
}

// PollArrow is Poll returning Arrow record batches: one per fetched log
// batch (trimmed to the records not read yet and, for bounded scans,
// before the end). ARROW tables are decoded without a row-by-row detour;
// row-format tables are converted. The caller owns the records and must
// Release them, including those returned together with an error.
func (s *LogScanner) PollArrow(ctx context.Context, maxWait time.Duration) ([]ArrowScanBatch, error) {
	return s.pollArrow(ctx, maxWait, nil)
}

// PollArrowIPC is PollArrow, except that a log batch is handed out as its
// own Arrow IPC message (ArrowScanBatch.IPC, no Record) instead of being
// decoded when all of this holds: the table is ARROW; the batch lies
// wholly inside what the scan still reads (otherwise only a part of it is
// decoded, as by PollArrow); its message holds exactly the scan's columns
// in the scan's order, with their types (written with the table's schema
// as of OpenTable and either not projected or projected by the server to
// columns requested in table order); and opts allow its compression and
// size. The message was checked (arrowipc.Decoder.Split) but its buffers
// were not decompressed. A reader that has seen a Schema message of the
// scan's Arrow schema (that of PollArrow's records) reads it as the
// record PollArrow would return.
func (s *LogScanner) PollArrowIPC(ctx context.Context, maxWait time.Duration, opts ArrowIPCOptions) ([]ArrowScanBatch, error) {
	return s.pollArrow(ctx, maxWait, &opts)
}

// ArrowSchema returns the Arrow schema of the records PollArrow returns,
// which is also the schema an IPC message of PollArrowIPC is read with.
func (s *LogScanner) ArrowSchema() (*arrow.Schema, error) {
	return arrowipc.Schema(s.proj.columns)
}

// Columns returns the columns of the rows the scanner returns, in order:
// the projection, or every column of the table's schema as of OpenTable.
// An arrowipc.ColumnReader of them reads PollArrow's records.
func (s *LogScanner) Columns() []schema.Column {
	return slices.Clone(s.proj.columns)
}

// pollArrow is PollArrow, and PollArrowIPC when ipc is not nil.
func (s *LogScanner) pollArrow(ctx context.Context, maxWait time.Duration, ipc *ArrowIPCOptions) ([]ArrowScanBatch, error) {
	// Batches handed out as IPC messages need no decoding ahead; those
	// of a compression the caller does not take are decoded anyway, so
	// they are decoded ahead, in parallel and off the caller's goroutine,
	// as PollArrow's are. A table's batches have its compression.
	s.dec.decodeAhead.Store(ipc == nil || !ipc.passes(s.t.info.Descriptor.ArrowCompression()))
	var out []ArrowScanBatch
	err := s.poll(ctx, maxWait, func(c *completedFetch, cur readWindow) (bool, int64, error) {
		n := len(out)
		next, err := s.dec.eachBatch(c, cur, func(b *codec.LogBatch, p *preparedBatch) error {
			var err error
			out, err = s.dec.arrowBatch(ctx, out, b, c.remote, cur, ipc, p)
			return err
		})
		return len(out) > n, next, err
	})
	return out, err
}

// arrowBatch appends the part of b inside cur as an ArrowScanBatch: its
// IPC message when ipc allows (see PollArrowIPC), else a record (the one
// prepared in p, if any).
func (d *scanDecoders) arrowBatch(ctx context.Context, out []ArrowScanBatch, b *codec.LogBatch, remote bool, cur readWindow, ipc *ArrowIPCOptions, p *preparedBatch) ([]ArrowScanBatch, error) {
	h := &b.Header
	if h.RecordCount == 0 {
		return out, nil
	}
	lo, hi := windowRows(h, cur)
	if lo >= hi {
		return out, nil
	}
	item := ArrowScanBatch{Partition: cur.partition, Bucket: cur.bucket, BaseOffset: h.BaseOffset + int64(lo), LastOffset: h.BaseOffset + int64(hi) - 1, Timestamp: h.CommitTimestamp}
	if d.arrow != nil && ipc != nil && lo == 0 && hi == int(h.RecordCount) {
		m, cts, err := d.arrow.message(ctx, b, remote, *ipc)
		if err != nil {
			return out, err
		}
		if m != nil {
			item.IPC, item.ChangeTypes = m, cts
			return append(out, item), nil
		}
	}
	var rec arrow.RecordBatch
	var cts []codec.ChangeType
	var err error
	if d.arrow != nil {
		rec, cts, err = d.arrow.record(ctx, b, remote, p)
	} else {
		rec, cts, err = d.rowRecord(ctx, b)
	}
	if err != nil {
		return out, err
	}
	if lo > 0 || hi < int(rec.NumRows()) {
		sl := rec.NewSlice(int64(lo), int64(hi))
		rec.Release()
		rec = sl
		if cts != nil {
			cts = cts[lo:hi]
		}
	}
	item.Record, item.ChangeTypes = rec, cts
	return append(out, item), nil
}

// windowRows returns the row range [lo, hi) of a batch inside cur.
func windowRows(h *codec.LogBatchHeader, cur readWindow) (int, int) {
	n := int64(h.RecordCount)
	lo, hi := int64(0), n
	if cur.from > h.BaseOffset {
		lo = min(cur.from-h.BaseOffset, n)
	}
	if cur.end >= 0 && cur.end-h.BaseOffset < hi {
		hi = max(cur.end-h.BaseOffset, 0)
	}
	return int(lo), int(hi)
}

// rowRecord converts a row-format batch into an Arrow record of the
// scan's columns.
func (d *scanDecoders) rowRecord(ctx context.Context, b *codec.LogBatch) (arrow.RecordBatch, []codec.ChangeType, error) {
	rd, err := d.logRd.get(ctx, b.Header.SchemaID)
	if err != nil {
		return nil, nil, err
	}
	bld, err := arrowipc.NewRowBuilder(d.proj.columns, memory.DefaultAllocator)
	if err != nil {
		return nil, nil, err
	}
	defer bld.Release()
	cts := make([]codec.ChangeType, 0, b.Header.RecordCount)
	appendOnly := true
	err = b.RawRecords(func(off int64, ct codec.ChangeType, raw []byte) error {
		row, err := rd.decode(raw)
		if err != nil {
			return fmt.Errorf("record %d: %w", off, err)
		}
		cts = append(cts, ct)
		appendOnly = appendOnly && ct == codec.AppendOnly
		return bld.Append(d.proj.fromFull(row))
	})
	if err != nil {
		return nil, nil, err
	}
	if appendOnly {
		cts = nil
	}
	return bld.NewRecord(), cts, nil
}

// arrowScanDecoders decodes the ARROW batches of one scanner: one decoder per
// (schema id, server-projected) pair.
type arrowScanDecoders struct {
	t      *Table
	proj   projection
	schema *arrow.Schema // of the scan's output columns

	mu   sync.Mutex
	decs map[arrowDecoderKey]*arrowSchemaDecoder
}

type arrowDecoderKey struct {
	schemaID  int16
	projected bool
}

// arrowSchemaDecoder decodes batches of one schema id. An arrowipc.Decoder
// is not safe for concurrent use, so it keeps a free list of them: one per
// goroutine decoding at the same time (each bucket's answer is prepared on
// a goroutine of its own, see prepare).
type arrowSchemaDecoder struct {
	cols []schema.Column // of the decoded batches
	// full decodes (projected == false) hold the mapping from the batch's
	// schema to the table's; projected decodes hold server columns in
	// ascending position order.
	m         *evolveMap
	projected bool
	// asIs is set when batches decode to exactly the scan's columns: their
	// IPC messages can be handed out as they are.
	asIs bool

	mu     sync.Mutex
	free   []*arrowipc.Decoder
	closed bool
}

// get returns an idle decoder, made on demand.
func (d *arrowSchemaDecoder) get() (*arrowipc.Decoder, error) {
	d.mu.Lock()
	if n := len(d.free); n > 0 {
		dec := d.free[n-1]
		d.free = d.free[:n-1]
		d.mu.Unlock()
		return dec, nil
	}
	d.mu.Unlock()
	return arrowipc.NewDecoder(d.cols, memory.DefaultAllocator, arrowipc.Limits{})
}

// put returns a decoder got from get.
func (d *arrowSchemaDecoder) put(dec *arrowipc.Decoder) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		dec.Release()
		return
	}
	d.free = append(d.free, dec)
}

func (d *arrowSchemaDecoder) release() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed = true
	for _, dec := range d.free {
		dec.Release()
	}
	d.free = nil
}

// decode decodes an ARROW batch into a record of the batch's columns.
func (d *arrowSchemaDecoder) decode(b *codec.LogBatch) (arrow.RecordBatch, []codec.ChangeType, error) {
	dec, err := d.get()
	if err != nil {
		return nil, nil, err
	}
	defer d.put(dec)
	return dec.DecodeLogBatch(b)
}

// appendRows converts a record from decode to rows.
func (d *arrowSchemaDecoder) appendRows(dst [][]any, rec arrow.RecordBatch) ([][]any, error) {
	dec, err := d.get()
	if err != nil {
		return dst, err
	}
	defer d.put(dec)
	return dec.AppendRows(dst, rec)
}

// split checks an ARROW batch's IPC message without decoding it.
func (d *arrowSchemaDecoder) split(payload []byte, records int) (arrowipc.Message, error) {
	dec, err := d.get()
	if err != nil {
		return arrowipc.Message{}, err
	}
	defer d.put(dec)
	return dec.Split(payload, records)
}

func newArrowScanDecoders(t *Table, proj projection) (*arrowScanDecoders, error) {
	s, err := arrowipc.Schema(proj.columns)
	if err != nil {
		return nil, fmt.Errorf("flussrpc: scanning %s: %w", t.info.Path, err)
	}
	return &arrowScanDecoders{t: t, proj: proj, schema: s, decs: make(map[arrowDecoderKey]*arrowSchemaDecoder)}, nil
}

func (a *arrowScanDecoders) release() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, d := range a.decs {
		d.release()
	}
	a.decs = nil
}

// decoder returns the decoder for batches of schemaID; projected is true
// for batches the server projected (local reads with push-down).
func (a *arrowScanDecoders) decoder(ctx context.Context, schemaID int16, projected bool) (*arrowSchemaDecoder, error) {
	k := arrowDecoderKey{schemaID, projected}
	a.mu.Lock()
	d, ok := a.decs[k]
	a.mu.Unlock()
	if ok {
		return d, nil
	}
	src, err := a.t.Schema(ctx, int32(schemaID))
	if err != nil {
		return nil, err
	}
	d = &arrowSchemaDecoder{projected: projected, cols: src.Columns}
	if projected {
		// The server applies the positions to each batch's own schema.
		if d.cols, _, err = arrowipc.Project(src.Columns, a.proj.sorted); err != nil {
			return nil, fmt.Errorf("flussrpc: projection on schema %d of %s: %w", schemaID, a.t.info.Path, err)
		}
	} else {
		d.m = newEvolveMap(&src, &a.t.info.Descriptor.Schema)
	}
	// One decoder now, so that a column type it cannot read fails here.
	dec, err := arrowipc.NewDecoder(d.cols, memory.DefaultAllocator, arrowipc.Limits{})
	if err != nil {
		return nil, fmt.Errorf("flussrpc: schema %d of %s: %w", schemaID, a.t.info.Path, err)
	}
	d.free = append(d.free, dec)
	d.asIs = a.decodesAsIs(d, dec.Schema())
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.decs == nil {
		d.release()
		return nil, ErrScannerClosed
	}
	if have, ok := a.decs[k]; ok {
		d.release()
		return have, nil
	}
	a.decs[k] = d
	return d, nil
}

// batchDecoder returns the decoder of a batch with header h: local reads
// of a scan with push-down hold the columns the server projected, tiered
// (remote) batches every column of their schema.
func (a *arrowScanDecoders) batchDecoder(ctx context.Context, h *codec.LogBatchHeader, remote bool) (*arrowSchemaDecoder, error) {
	return a.decoder(ctx, h.SchemaID, a.proj.pushdown && !remote)
}

// raw returns the record of an ARROW batch in the batch's own columns,
// from its preparation when there is one, and the decoder of its schema.
func (a *arrowScanDecoders) raw(ctx context.Context, b *codec.LogBatch, remote bool, p *preparedBatch) (arrow.RecordBatch, []codec.ChangeType, *arrowSchemaDecoder, error) {
	d, err := a.batchDecoder(ctx, &b.Header, remote)
	if err != nil {
		return nil, nil, nil, err
	}
	if rec, cts := p.take(); rec != nil {
		return rec, cts, d, nil
	}
	rec, cts, err := d.decode(b)
	return rec, cts, d, err
}

// rows appends the records of an ARROW batch inside cur to out.
func (a *arrowScanDecoders) rows(ctx context.Context, out []ScanRecord, b *codec.LogBatch, remote bool, cur readWindow, p *preparedBatch) ([]ScanRecord, error) {
	h := &b.Header
	if h.RecordCount == 0 {
		return out, nil
	}
	lo, hi := windowRows(h, cur)
	if lo >= hi {
		return out, nil
	}
	rec, cts, d, err := a.raw(ctx, b, remote, p)
	if err != nil {
		return out, err
	}
	rows, err := d.appendRows(nil, rec)
	rec.Release()
	if err != nil {
		return out, err
	}
	for i := lo; i < hi; i++ {
		ct := codec.AppendOnly
		if cts != nil {
			ct = cts[i]
		}
		var row []any
		if d.projected {
			row = a.proj.fromSorted(rows[i])
		} else {
			row = a.proj.fromFull(d.m.apply(rows[i]))
		}
		out = append(out, ScanRecord{
			Partition: cur.partition, Bucket: cur.bucket, Offset: h.BaseOffset + int64(i),
			Timestamp: h.CommitTimestamp, ChangeType: ct, Row: row,
		})
	}
	return out, nil
}

// record decodes an ARROW batch into a record of the scan's columns.
func (a *arrowScanDecoders) record(ctx context.Context, b *codec.LogBatch, remote bool, p *preparedBatch) (arrow.RecordBatch, []codec.ChangeType, error) {
	rec, cts, d, err := a.raw(ctx, b, remote, p)
	if err != nil {
		return nil, nil, err
	}
	defer rec.Release()
	n := rec.NumRows()
	cols := make([]arrow.Array, len(a.proj.columns))
	for i := range cols {
		src := a.columnOf(d, i)
		if src < 0 {
			cols[i] = array.MakeArrayOfNull(memory.DefaultAllocator, a.schema.Field(i).Type, int(n))
			continue
		}
		cols[i] = rec.Column(src)
		cols[i].Retain()
	}
	out := array.NewRecordBatch(a.schema, cols, n)
	for _, c := range cols {
		c.Release()
	}
	return out, cts, nil
}

// columnOf returns the column of d's records that holds the scan's output
// column i, or -1 when the batch's schema lacks it.
func (a *arrowScanDecoders) columnOf(d *arrowSchemaDecoder, i int) int {
	switch {
	case d.projected:
		return a.proj.rank[i]
	case a.proj.positions == nil:
		return d.m.from[i]
	}
	return d.m.from[a.proj.positions[i]]
}

// decodesAsIs reports whether d's records, of schema got, are the scan's
// output columns in order, with the output types.
func (a *arrowScanDecoders) decodesAsIs(d *arrowSchemaDecoder, got *arrow.Schema) bool {
	if got.NumFields() != a.schema.NumFields() {
		return false
	}
	for i := range a.schema.NumFields() {
		if a.columnOf(d, i) != i || !arrow.TypeEqual(got.Field(i).Type, a.schema.Field(i).Type) {
			return false
		}
	}
	return true
}

// message returns the IPC message of an ARROW batch and its change types
// when opts allow handing it out as it is; nil when it must be decoded.
func (a *arrowScanDecoders) message(ctx context.Context, b *codec.LogBatch, remote bool, opts ArrowIPCOptions) (*arrowipc.Message, []codec.ChangeType, error) {
	h := &b.Header
	d, err := a.batchDecoder(ctx, h, remote)
	if err != nil || !d.asIs {
		return nil, nil, err
	}
	cts, payload, err := b.ArrowPayload()
	if err != nil {
		return nil, nil, err
	}
	m, err := d.split(payload, int(h.RecordCount))
	if err != nil {
		return nil, nil, err
	}
	if !opts.passes(m.Compression) || (opts.MaxBytes > 0 && len(m.Metadata)+len(m.Body) > opts.MaxBytes) {
		return nil, nil, nil
	}
	return &m, cts, nil
}
