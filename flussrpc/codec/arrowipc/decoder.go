package arrowipc

import (
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
)

// Decoder reads the Arrow part of ARROW log batches written with one Fluss
// schema: the schema of the batch's schema id, or the projected columns
// (Project) when the fetch used projection push-down. A Decoder is not
// safe for concurrent use; create one per goroutine.
type Decoder struct {
	schema *arrow.Schema
	layout layout
	lim    Limits
	mem    memory.Allocator
	reader *ColumnReader

	schemaMeta *memory.Buffer // flatbuffer Schema message used to prime rd
	rd         *ipc.Reader
}

// NewDecoder returns a decoder for batches of the given columns. mem
// allocates decompressed buffers (nil means memory.DefaultAllocator); lim
// bounds what one message may claim (zero values take the defaults).
func NewDecoder(cols []schema.Column, mem memory.Allocator, lim Limits) (*Decoder, error) {
	s, l, mem, err := tableSchema(cols, mem)
	if err != nil {
		return nil, err
	}
	cr, err := NewColumnReader(cols)
	if err != nil {
		return nil, err
	}
	d := &Decoder{reader: cr, schema: s, layout: l, lim: lim.withDefaults(), mem: mem}
	p := ipc.GetSchemaPayload(s, memory.DefaultAllocator)
	d.schemaMeta = p.Meta()
	p.Release()
	return d, nil
}

// Schema returns the Arrow schema of decoded records.
func (d *Decoder) Schema() *arrow.Schema { return d.schema }

// Release frees the decoder's cached reader and schema message; the
// decoder must not be used afterwards. Records already returned stay
// valid.
func (d *Decoder) Release() {
	if d.rd != nil {
		d.rd.Release()
		d.rd = nil
	}
	if d.schemaMeta != nil {
		d.schemaMeta.Release()
		d.schemaMeta = nil
	}
}

// Decode decodes the Arrow message of a batch with recordCount records
// (the header's RecordCount) into a record batch. payload is the message
// as returned by codec.LogBatch.ArrowPayload. When recordCount is 0 the
// payload is ignored (Fluss writes none) and an empty record is returned.
//
// Ownership: the caller must Release the returned record. For an
// uncompressed message its arrays point into payload without copying, so
// payload must stay unmodified until the record is released; compressed
// buffers are decompressed into memory from the decoder's allocator and
// freed by Release.
//
// Corrupt or hostile input yields an error wrapping ErrCorrupt. Every
// length in the metadata is checked against the bytes present, and every
// claimed decompressed size against Limits and against what the
// compressed bytes could possibly expand to, before arrow-go allocates or
// slices anything; the loaded arrays are then checked (offsets, buffer and
// child lengths) before they are handed out.
func (d *Decoder) Decode(payload []byte, recordCount int) (arrow.RecordBatch, error) {
	if recordCount < 0 {
		return nil, corrupt("negative record count %d", recordCount)
	}
	if recordCount == 0 {
		return d.empty(), nil
	}
	m, err := d.check(payload, recordCount)
	if err != nil {
		return nil, err
	}
	rec, err := d.load(m)
	if err != nil {
		return nil, err
	}
	for i, col := range rec.Columns() {
		if err := checkData(col.Data()); err != nil {
			rec.Release()
			return nil, fmt.Errorf("column %q: %w", d.schema.Field(i).Name, err)
		}
	}
	return rec, nil
}

// check parses and validates the message of a batch of recordCount (> 0)
// records against the decoder's schema and limits.
func (d *Decoder) check(payload []byte, recordCount int) (message, error) {
	m, err := parseMessage(payload, d.layout, d.lim)
	if err != nil {
		return message{}, err
	}
	if m.rows != int64(recordCount) {
		return message{}, corrupt("Arrow message has %s, batch header says %d", plural.Count(m.rows, "row"), recordCount)
	}
	if err := m.checkRows(d.schema); err != nil {
		return message{}, err
	}
	return m, nil
}

// Message is the Arrow IPC RecordBatch message of a log batch, checked
// but not decoded: the two parts an Arrow IPC stream or a Flight
// FlightData (data_header, data_body) carries. A reader that has seen a
// Schema message of the decoder's Schema reads it as Decode would,
// decompressing the body itself.
type Message struct {
	// Metadata is the flatbuffer Message with its padding: the bytes that
	// follow the 8-byte prefix (continuation marker and length) in a
	// stream.
	Metadata []byte
	// Body is the message body, bodyLength bytes. With compression every
	// non-empty buffer is the int64 uncompressed length (-1: stored raw)
	// followed by the compressed bytes, as the Arrow format defines.
	Body []byte
	// Compression is the codec named by the message's BodyCompression:
	// schema.CompressionNone, CompressionLZ4 or CompressionZstd.
	Compression string
}

// Split checks the message of a batch with recordCount records as Decode
// does before loading it (metadata bounds, node and buffer layout against
// the schema, buffer ranges, plausible decompressed sizes) and returns its
// parts, which alias payload. It does not decompress, so it does not see
// inconsistencies inside the buffers (such as bad offsets) that Decode
// would report; a reader of the message must validate as usual.
// recordCount must be positive: a batch without records has no message.
// Split changes nothing in the decoder: it may run concurrently with any
// of its methods.
func (d *Decoder) Split(payload []byte, recordCount int) (Message, error) {
	if recordCount <= 0 {
		return Message{}, corrupt("no message in a batch of %s", plural.Count(recordCount, "record"))
	}
	m, err := d.check(payload, recordCount)
	if err != nil {
		return Message{}, err
	}
	c := schema.CompressionNone
	switch m.codec {
	case codecLZ4:
		c = schema.CompressionLZ4
	case codecZstd:
		c = schema.CompressionZstd
	}
	return Message{Metadata: m.meta, Body: m.body, Compression: c}, nil
}

func (d *Decoder) empty() arrow.RecordBatch {
	cols := make([]arrow.Array, d.schema.NumFields())
	for i, f := range d.schema.Fields() {
		cols[i] = array.MakeArrayOfNull(d.mem, f.Type, 0)
	}
	rec := array.NewRecordBatch(d.schema, cols, 0)
	for _, c := range cols {
		c.Release()
	}
	return rec
}

// load hands a validated message to arrow-go. The reader is primed once
// with a Schema message for d.schema (Fluss batches carry none) and then
// continued with one single-message source per batch, so the schema is
// parsed only once per decoder.
func (d *Decoder) load(m message) (arrow.RecordBatch, error) {
	if d.rd == nil {
		body := memory.NewBufferBytes(nil)
		rd, err := ipc.NewReaderFromMessageReader(&oneMessage{msg: ipc.NewMessage(d.schemaMeta, body)}, ipc.WithAllocator(d.mem))
		if err != nil {
			return nil, fmt.Errorf("arrowipc: priming reader: %w", err)
		}
		d.rd = rd
	}
	var body *memory.Buffer
	if m.codec == codecZstd && m.bodyLenAt >= 0 {
		var err error
		if m, body, err = inflated(m, d.mem); err != nil {
			return nil, err
		}
		defer body.Release() // the message holds its own reference
	} else {
		body = memory.NewBufferBytes(m.body)
	}
	meta := memory.NewBufferBytes(m.meta)
	src := &oneMessage{msg: ipc.NewMessage(meta, body)}
	if err := d.rd.ContinueFromMessageReader(src); err != nil {
		src.Release()
		d.dropReader()
		return nil, fmt.Errorf("arrowipc: %w", err)
	}
	// arrow-go recovers panics raised while it builds arrays from the
	// message and reports them as errors; parseMessage has already
	// rejected everything that could make it slice out of range or
	// over-allocate, so what remains are inconsistencies it detects itself.
	rec, err := d.rd.Read()
	if err != nil || rec == nil {
		d.dropReader()
		if err == nil || errors.Is(err, io.EOF) {
			err = errors.New("no record batch in message")
		}
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	rec.Retain()
	// Point the reader at an empty source so that it drops its own
	// reference to this record and message now, not at the next Decode.
	_ = d.rd.ContinueFromMessageReader(&oneMessage{})
	return rec, nil
}

func (d *Decoder) dropReader() {
	if d.rd != nil {
		d.rd.Release()
		d.rd = nil
	}
}

// DecodeLogBatch decodes an ARROW log batch parsed by codec.ParseLogBatch
// or a codec.LogBatchIterator. It returns the record (see Decode for
// ownership) and the change types: nil for an append-only batch, where
// every row is codec.AppendOnly.
func (d *Decoder) DecodeLogBatch(b *codec.LogBatch) (arrow.RecordBatch, []codec.ChangeType, error) {
	cts, msg, err := b.ArrowPayload()
	if err != nil {
		return nil, nil, err
	}
	rec, err := d.Decode(msg, int(b.Header.RecordCount))
	if err != nil {
		return nil, nil, err
	}
	return rec, cts, nil
}

// DecodeRows decodes the message like Decode and appends one []any row
// per record to dst, in the codec value model (see package codec). The
// values never alias payload, and no Arrow memory outlives the call; the
// rows of one call share their backing memory (one array per column), so
// that a value kept keeps its column of the batch in memory.
func (d *Decoder) DecodeRows(dst [][]any, payload []byte, recordCount int) ([][]any, error) {
	rec, err := d.Decode(payload, recordCount)
	if err != nil {
		return dst, err
	}
	defer rec.Release()
	return d.AppendRows(dst, rec)
}

// AppendRows converts a record with the decoder's schema (such as one from
// Decode) to rows in the codec value model and appends them to dst.
func (d *Decoder) AppendRows(dst [][]any, rec arrow.RecordBatch) ([][]any, error) {
	return d.reader.appendRows(dst, rec)
}

// oneMessage is an ipc.MessageReader yielding a single message.
type oneMessage struct {
	msg  *ipc.Message
	done bool
}

func (o *oneMessage) Message() (*ipc.Message, error) {
	if o.done || o.msg == nil {
		return nil, io.EOF
	}
	o.done = true
	return o.msg, nil
}

func (o *oneMessage) Retain() {}

func (o *oneMessage) Release() {
	if o.msg != nil {
		o.msg.Release()
		o.msg = nil
	}
}
