package arrowipc

import (
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
)

// Compression is the Arrow body compression of a table
// (table.log.arrow.compression.type and .zstd.level).
type Compression struct {
	// Type is schema.CompressionNone, CompressionLZ4 or CompressionZstd.
	Type string
	// ZstdLevel is 1..22; only used for ZSTD.
	ZstdLevel int
}

// TableCompression returns the compression a table's properties select
// (ZSTD level 3 when unset, as in Java).
func TableCompression(d *schema.TableDescriptor) (Compression, error) {
	c := Compression{Type: d.ArrowCompression(), ZstdLevel: d.ArrowZstdLevel()}
	return c, c.validate()
}

func (c Compression) validate() error {
	switch c.Type {
	case schema.CompressionNone, schema.CompressionLZ4:
		return nil
	case schema.CompressionZstd:
		if c.ZstdLevel < 1 || c.ZstdLevel > 22 {
			return fmt.Errorf("arrowipc: ZSTD level %d outside 1..22", c.ZstdLevel)
		}
		return nil
	}
	return fmt.Errorf("arrowipc: unknown Arrow compression %q", c.Type)
}

// minSpaceSavings makes arrow-go store a buffer uncompressed (length
// prefix -1) when compressing does not make it smaller, as Arrow Java's
// AbstractCompressionCodec does; without it arrow-go always keeps the
// compressed form.
const minSpaceSavings = 1e-9

func (c Compression) options() []ipc.Option {
	switch c.Type {
	case schema.CompressionLZ4:
		return []ipc.Option{ipc.WithLZ4(), ipc.WithMinSpaceSavings(minSpaceSavings)}
	case schema.CompressionZstd:
		return []ipc.Option{ipc.WithZstdLevel(encoderLevel(c.ZstdLevel)), ipc.WithMinSpaceSavings(minSpaceSavings)}
	}
	return nil
}

// encoderLevel is the zstd level handed to arrow-go for a table's level.
// Fluss levels are libzstd's (the Java client compresses with zstd-jni),
// while arrow-go compresses with klauspost/compress, which has four
// speeds and maps levels 1-2 to its fastest and 3-5 to its default one.
// On Arrow column buffers the default speed buys nothing over the fastest
// (the same ratio within 4%, on the benchmark's rows a better one for the
// fastest) and costs 1.1-1.6 times its CPU, and the fastest compresses
// about as fast as libzstd does at level 3, the tables' default. So levels
// up to 3 take the fastest speed: a writer then spends on compression
// what the Java client spends at the same level. Higher levels, asked
// for to compress harder, keep arrow-go's mapping.
func encoderLevel(level int) int {
	if level <= 3 {
		return 1
	}
	return level
}

// Encoder turns Arrow record batches of one table schema into the Arrow
// part of ARROW log batches. It keeps no per-call state and may be used
// from several goroutines.
type Encoder struct {
	cols   []schema.Column
	schema *arrow.Schema
	comp   Compression
	opts   []ipc.Option
	// wideOpts are opts compressing the buffers of one record on several
	// goroutines, for records of at least parallelCompressBytes; nil when
	// there is nothing to compress or one CPU.
	wideOpts []ipc.Option
	layout   layout
}

// parallelCompressBytes is the size of a record from which its buffers
// are compressed on several goroutines. A full log batch (2 MiB by
// default) spends most of its encoding time compressing, on the sender
// goroutine of its writer, while the server leaves CPU idle: on two
// cores, compressing its buffers at once cut the time to encode a
// 10-column record of 8192 rows by about a third and sped up the
// 3-column AppendArrow benchmark by about a tenth (medians of alternated
// runs). Below this size the goroutines arrow-go starts per record would
// cost more than they save.
const parallelCompressBytes = 256 << 10

// compressWorkers is how many goroutines compress one large record: one
// per CPU, at most 4 (a record of a few columns has few large buffers).
func compressWorkers() int {
	return min(runtime.GOMAXPROCS(0), 4)
}

// NewEncoder returns an encoder for records with the Arrow schema of cols
// (Schema(cols)), compressing as c says. mem allocates the temporary
// compression buffers (nil means memory.DefaultAllocator).
//
// Use the table's own compression (TableCompression): when a fetch uses
// projection push-down, the tablet server relabels every projected batch
// with the compression of the table's current configuration
// (FileLogProjection.createProjectionInfo) rather than the batch's own, so
// a batch written with another codec would be unreadable after projection.
func NewEncoder(cols []schema.Column, c Compression, mem memory.Allocator) (*Encoder, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	s, l, mem, err := tableSchema(cols, mem)
	if err != nil {
		return nil, err
	}
	opts := append([]ipc.Option{ipc.WithAllocator(mem)}, c.options()...)
	e := &Encoder{cols: cols, schema: s, comp: c, opts: opts, layout: l}
	if n := compressWorkers(); n > 1 && c.Type != schema.CompressionNone {
		e.wideOpts = append(slices.Clip(opts), ipc.WithCompressConcurrency(n))
	}
	return e, nil
}

// NewTableEncoder returns the encoder of a table's ARROW log batches: its
// columns in its own compression (see NewEncoder for why), its temporary
// buffers from mem (nil means memory.DefaultAllocator).
func NewTableEncoder(d *schema.TableDescriptor, mem memory.Allocator) (*Encoder, error) {
	c, err := TableCompression(d)
	if err != nil {
		return nil, err
	}
	return NewEncoder(d.Schema.Columns, c, mem)
}

// Schema returns the Arrow schema records must have.
func (e *Encoder) Schema() *arrow.Schema { return e.schema }

// Compression returns the compression the encoder writes.
func (e *Encoder) Compression() Compression { return e.comp }

// CheckRecord reports whether rec can be written for this table: same
// number of columns, and per column the same name and an equal Arrow type
// (nested field names and nullability flags are not compared, since the
// bytes do not depend on them), and no NULLs in NOT NULL columns. The
// error names the first column that does not fit.
func (e *Encoder) CheckRecord(rec arrow.RecordBatch) error {
	got := rec.Schema()
	if got.NumFields() != e.schema.NumFields() {
		return fmt.Errorf("arrowipc: record has %s, table has %d", plural.Count(got.NumFields(), "column"), e.schema.NumFields())
	}
	for i, want := range e.schema.Fields() {
		f := got.Field(i)
		if f.Name != want.Name {
			return fmt.Errorf("arrowipc: column %d is %q, table column is %q", i, f.Name, want.Name)
		}
		if !sameLayout(f.Type, want.Type, e.cols[i].Type) {
			return fmt.Errorf("arrowipc: column %d (%q) has Arrow type %s, table needs %s", i, f.Name, f.Type, want.Type)
		}
		if !want.Nullable && rec.Column(i).NullN() > 0 {
			return fmt.Errorf("arrowipc: column %d (%q) is NOT NULL but has %s", i, f.Name, plural.Count(rec.Column(i).NullN(), "NULL"))
		}
		if err := checkTimeOfDay(rec.Column(i)); err != nil {
			return fmt.Errorf("arrowipc: column %d (%q): %w", i, f.Name, err)
		}
	}
	return nil
}

// checkTimeOfDay refuses TIME values outside the day: Arrow's time32 and
// time64 hold any count of their unit, Fluss TIME only 00:00 … 23:59:59.999
// (readers fail on, or misread, anything else). Other columns pass.
func checkTimeOfDay(col arrow.Array) error {
	var day int64
	var at func(i int) int64
	switch c := col.(type) {
	case *array.Time32:
		day = int64(24*time.Hour) / int64(c.DataType().(*arrow.Time32Type).Unit.Multiplier())
		at = func(i int) int64 { return int64(c.Value(i)) }
	case *array.Time64:
		day = int64(24*time.Hour) / int64(c.DataType().(*arrow.Time64Type).Unit.Multiplier())
		at = func(i int) int64 { return int64(c.Value(i)) }
	default:
		return nil
	}
	for i := 0; i < col.Len(); i++ {
		if v := at(i); col.IsValid(i) && (v < 0 || v >= day) {
			return fmt.Errorf("row %d: TIME value %d is outside the day (0 … %d)", i, v, day-1)
		}
	}
	return nil
}

// FitsType reports whether an Arrow array of type got can hold the values
// of a Fluss column of type t as Fluss stores them: got is compared with
// ArrowType(t) by what determines the bytes, so nested field names and
// nullability flags do not count. A time zone is accepted on
// TIMESTAMP_LTZ, at any depth (its values count from the epoch in UTC
// either way, and the zone is not written), but not on TIMESTAMP, whose
// values are wall-clock times.
func FitsType(got arrow.DataType, t schema.DataType) bool {
	want, err := ArrowType(t)
	return err == nil && sameLayout(got, want, t)
}

// sameLayout is FitsType with want, the Arrow type of t, at hand.
func sameLayout(got, want arrow.DataType, t schema.DataType) bool {
	switch w := want.(type) {
	case *arrow.TimestampType:
		g, ok := got.(*arrow.TimestampType)
		return ok && g.Unit == w.Unit && (g.TimeZone == "" || t.Root == schema.RootTimestampLTZ)
	case *arrow.ListType:
		g, ok := got.(*arrow.ListType)
		return ok && t.Elem != nil && sameLayout(g.Elem(), w.Elem(), *t.Elem)
	case *arrow.MapType:
		g, ok := got.(*arrow.MapType)
		return ok && t.Key != nil && t.Value != nil &&
			sameLayout(g.KeyType(), w.KeyType(), *t.Key) && sameLayout(g.ItemType(), w.ItemType(), *t.Value)
	case *arrow.StructType:
		g, ok := got.(*arrow.StructType)
		if !ok || g.NumFields() != w.NumFields() || len(t.Fields) != w.NumFields() {
			return false
		}
		for i := range w.Fields() {
			if !sameLayout(g.Field(i).Type, w.Field(i).Type, t.Fields[i].Type) {
				return false
			}
		}
		return true
	}
	return arrow.TypeEqual(got, want)
}

// AppendMessage validates rec (CheckRecord) and appends to dst the bytes
// Fluss expects after the log batch header and change-type vector: one
// encapsulated Arrow IPC RecordBatch message (0xFFFFFFFF, int32 metadata
// length including padding, flatbuffer Message of metadata version V5,
// zero padding to a multiple of 8, then the body with every buffer
// 8-byte aligned, compressed per buffer when the encoder compresses). No
// schema message and no end-of-stream marker are written. A record with
// no rows appends nothing, because Fluss batches with RecordCount 0 carry
// no Arrow bytes. rec is not modified or released.
func (e *Encoder) AppendMessage(dst []byte, rec arrow.RecordBatch) ([]byte, error) {
	if err := e.CheckRecord(rec); err != nil {
		return dst, err
	}
	return e.appendMessage(dst, rec)
}

// appendMessage is AppendMessage for a record already checked.
func (e *Encoder) appendMessage(dst []byte, rec arrow.RecordBatch) ([]byte, error) {
	if rec.NumRows() == 0 {
		return dst, nil
	}
	if rec.NumRows() > 1<<31-1 {
		return dst, fmt.Errorf("arrowipc: record of %s exceeds a log batch", plural.Count(rec.NumRows(), "row"))
	}
	opts := e.opts
	if e.wideOpts != nil && RecordBytes(rec) >= parallelCompressBytes {
		opts = e.wideOpts
	}
	p, err := ipc.GetRecordBatchPayload(rec, opts...)
	if err != nil {
		return dst, fmt.Errorf("arrowipc: encoding record batch: %w", err)
	}
	defer p.Release()
	meta := p.Meta()
	defer meta.Release()

	metaLen := meta.Len()
	padded := align8(prefixSize+metaLen) - prefixSize
	// The body's size first (a pass that copies nothing), so that dst
	// grows once, to the message's size, instead of doubling its way
	// there.
	var body counter
	if err := p.SerializeBody(&body); err != nil {
		return dst, err
	}
	dst = slices.Grow(dst, prefixSize+padded+int(body))
	dst = le.AppendUint32(dst, continuationMarker)
	dst = le.AppendUint32(dst, uint32(padded))
	dst = append(dst, meta.Bytes()...)
	dst = append(dst, zeros[:padded-metaLen]...)
	w := appender{dst}
	if err := p.SerializeBody(&w); err != nil {
		return dst, err
	}
	return w.b, nil
}

// AppendLogBatch appends a complete V0 ARROW log batch holding rec to dst:
// the header fields come from hdr (SchemaID, WriterID, BatchSequence,
// ChangeTypes; nil ChangeTypes means an append-only batch), RecordCount
// and Body are set from rec.
func (e *Encoder) AppendLogBatch(dst []byte, hdr codec.ArrowBatch, rec arrow.RecordBatch) ([]byte, error) {
	if err := e.CheckRecord(rec); err != nil {
		return dst, err
	}
	hdr.RecordCount = int32(rec.NumRows())
	out, err := codec.AppendArrowBatch(dst, hdr, func(b []byte) ([]byte, error) { return e.appendMessage(b, rec) })
	if err != nil {
		return dst, err
	}
	return out, nil
}

// EstimatedSize returns an upper bound of the bytes AppendMessage writes
// for rec: the metadata plus every buffer rounded up to 64 bytes (arrow-go
// may write a buffer's allocation padding), plus the
// 8-byte length prefix per buffer when compressing (a buffer that does not
// shrink is stored raw). Compression usually makes the real size smaller;
// Java scales its estimate by an observed ratio instead.
func (e *Encoder) EstimatedSize(rec arrow.RecordBatch) int {
	if rec.NumRows() == 0 {
		return 0
	}
	body := 0
	for _, col := range rec.Columns() {
		body += dataSize(col.Data())
	}
	return e.metadataEstimate() + body + e.compressionOverhead()
}

func (e *Encoder) compressionOverhead() int {
	if e.comp.Type == schema.CompressionNone {
		return 0
	}
	return 8 * e.layout.buffers
}

func (e *Encoder) metadataEstimate() int {
	return estimateMetadata(e.layout, e.comp.Type != schema.CompressionNone)
}

// estimateMetadata bounds the prefix + flatbuffer + padding of a
// RecordBatch message with the given layout.
func estimateMetadata(l layout, compressed bool) int {
	n := prefixSize + 96 + structSize*(l.nodes+l.buffers)
	if compressed {
		n += 24
	}
	return align8(n)
}

// dataSize is the padded size of the buffers of d as the IPC writer emits
// them (sliced arrays are written truncated, so only the used range counts).
func dataSize(d arrow.ArrayData) int {
	n := d.Len()
	size := 0
	if d.NullN() > 0 {
		size += bufSize((n + 7) / 8)
	}
	switch t := d.DataType().(type) {
	case *arrow.BooleanType:
		size += bufSize((n + 7) / 8)
	case *arrow.StringType, *arrow.BinaryType:
		if n > 0 {
			offs := arrow.Int32Traits.CastFromBytes(d.Buffers()[1].Bytes())[d.Offset():]
			size += bufSize(4*(n+1)) + bufSize(int(offs[n]-offs[0]))
		}
	case *arrow.ListType, *arrow.MapType:
		if n > 0 {
			offs := arrow.Int32Traits.CastFromBytes(d.Buffers()[1].Bytes())[d.Offset():]
			size += bufSize(4 * (n + 1))
			child := d.Children()[0]
			if offs[0] == 0 && int(offs[n]) == child.Len() {
				size += dataSize(child)
			} else {
				size += sliceSize(child, int(offs[0]), int(offs[n]))
			}
		}
	case *arrow.StructType:
		for _, c := range d.Children() {
			if d.Offset() == 0 && c.Len() == n {
				size += dataSize(c)
			} else {
				size += sliceSize(c, d.Offset(), d.Offset()+n)
			}
		}
	case arrow.FixedWidthDataType:
		size += bufSize(n * t.BitWidth() / 8)
	}
	return size
}

func sliceSize(d arrow.ArrayData, from, to int) int {
	s := arrowSlice(d, from, to)
	defer s.Release()
	return dataSize(s)
}

func arrowSlice(d arrow.ArrayData, from, to int) arrow.ArrayData {
	return array.NewSliceData(d, int64(from), int64(to))
}

func align8(n int) int { return (n + 7) &^ 7 }

// bufSize bounds what the IPC writer emits for a buffer holding n used
// bytes: arrow-go may ship the buffer's padding up to a 64-byte boundary
// (and always pads to 8 in the body).
func bufSize(n int) int { return (n + 63) &^ 63 }

var zeros [8]byte

// counter is an io.Writer that only counts the bytes written to it.
type counter int

func (c *counter) Write(p []byte) (int, error) {
	*c += counter(len(p))
	return len(p), nil
}

// appender is an io.Writer appending to a byte slice.
type appender struct{ b []byte }

func (a *appender) Write(p []byte) (int, error) {
	a.b = append(a.b, p...)
	return len(p), nil
}
