package arrowipc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/gofluss/fluss/internal/plural"
)

// ErrCorrupt is wrapped by every error about malformed Arrow bytes.
var ErrCorrupt = errors.New("arrowipc: corrupt Arrow message")

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, args...)...)
}

var le = binary.LittleEndian

// Constants of the Arrow IPC format (Message.fbs / Schema.fbs).
const (
	continuationMarker = 0xFFFFFFFF
	prefixSize         = 8 // continuation marker + int32 metadata length

	metadataV4 = 3 // MetadataVersion.V4
	metadataV5 = 4 // MetadataVersion.V5; what Arrow Java 15 and arrow-go write

	headerRecordBatch = 3 // MessageHeader.RecordBatch

	// CompressionType values of BodyCompression.codec.
	codecNone = -1 // no BodyCompression table
	codecLZ4  = 0  // LZ4_FRAME
	codecZstd = 1  // ZSTD

	methodBuffer = 0 // BodyCompressionMethod.BUFFER

	structSize = 16 // FieldNode and Buffer structs: two int64 each
)

// Limits bound what a decoder accepts and allocates for one message.
// Zero fields take the defaults.
type Limits struct {
	// MaxMetadataBytes caps the flatbuffer metadata length (default 1 MiB).
	MaxMetadataBytes int
	// MaxDecompressedBytes caps the sum of uncompressed lengths of the
	// compressed body buffers of one message (default 256 MiB).
	MaxDecompressedBytes int64
}

// Default limits.
const (
	DefaultMaxMetadataBytes     = 1 << 20
	DefaultMaxDecompressedBytes = 256 << 20
)

func (l Limits) withDefaults() Limits {
	if l.MaxMetadataBytes <= 0 {
		l.MaxMetadataBytes = DefaultMaxMetadataBytes
	}
	if l.MaxDecompressedBytes <= 0 {
		l.MaxDecompressedBytes = DefaultMaxDecompressedBytes
	}
	return l
}

type fieldNode struct{ length, nulls int64 }

type bufferSpec struct{ offset, length int64 }

// message is a parsed encapsulated RecordBatch message whose metadata has
// been checked against a schema; meta and body alias the input.
type message struct {
	version  int16
	meta     []byte // flatbuffer Message (padding included)
	body     []byte // exactly bodyLength bytes
	rows     int64
	nodes    []fieldNode
	buffers  []bufferSpec
	codec    int
	consumed int // bytes of input used: prefix + metadata + body
	// buffersAt and bodyLenAt are where in meta the Buffer structs and
	// the body length lie (bodyLenAt -1: absent), for inflated.
	buffersAt int
	bodyLenAt int
}

// fbTable is a bounds-checked view of one flatbuffer table. The official
// flatbuffers runtime trusts its input, so hostile metadata would make it
// index out of range; every access here is checked first.
type fbTable struct {
	buf    []byte
	pos    int // table start
	vt     int // vtable start
	vtSize int
	size   int // inline size of the table
}

func fbRoot(buf []byte) (fbTable, error) {
	if len(buf) < 4 {
		return fbTable{}, corrupt("metadata of %s", plural.Count(len(buf), "byte"))
	}
	return fbTableAt(buf, int64(le.Uint32(buf)))
}

func fbTableAt(buf []byte, pos int64) (fbTable, error) {
	if pos < 0 || pos+4 > int64(len(buf)) {
		return fbTable{}, corrupt("flatbuffer table offset %d outside %s", pos, plural.Count(len(buf), "byte"))
	}
	vt := pos - int64(int32(le.Uint32(buf[pos:])))
	if vt < 0 || vt+4 > int64(len(buf)) {
		return fbTable{}, corrupt("flatbuffer vtable offset %d outside %s", vt, plural.Count(len(buf), "byte"))
	}
	vtSize := int64(le.Uint16(buf[vt:]))
	size := int64(le.Uint16(buf[vt+2:]))
	if vtSize < 4 || vtSize%2 != 0 || vt+vtSize > int64(len(buf)) || size < 4 || pos+size > int64(len(buf)) {
		return fbTable{}, corrupt("flatbuffer vtable (size %d, table %d) outside %s", vtSize, size, plural.Count(len(buf), "byte"))
	}
	return fbTable{buf: buf, pos: int(pos), vt: int(vt), vtSize: int(vtSize), size: int(size)}, nil
}

// field returns the absolute position of field i, whose inline value takes
// width bytes, or -1 when the field is absent.
func (t fbTable) field(i, width int) (int, error) {
	slot := 4 + 2*i
	if slot+2 > t.vtSize {
		return -1, nil
	}
	off := int(le.Uint16(t.buf[t.vt+slot:]))
	if off == 0 {
		return -1, nil
	}
	if off+width > t.size {
		return 0, corrupt("flatbuffer field %d at %d exceeds its table of %s", i, off, plural.Count(t.size, "byte"))
	}
	return t.pos + off, nil
}

func (t fbTable) int8(i int, def int8) (int8, error) {
	p, err := t.field(i, 1)
	if err != nil || p < 0 {
		return def, err
	}
	return int8(t.buf[p]), nil
}

func (t fbTable) int16(i int, def int16) (int16, error) {
	p, err := t.field(i, 2)
	if err != nil || p < 0 {
		return def, err
	}
	return int16(le.Uint16(t.buf[p:])), nil
}

func (t fbTable) int64(i int, def int64) (int64, error) {
	p, err := t.field(i, 8)
	if err != nil || p < 0 {
		return def, err
	}
	return int64(le.Uint64(t.buf[p:])), nil
}

// ref follows the uoffset stored in field i; ok is false when absent.
func (t fbTable) ref(i int) (pos int64, ok bool, err error) {
	p, err := t.field(i, 4)
	if err != nil || p < 0 {
		return 0, false, err
	}
	return int64(p) + int64(le.Uint32(t.buf[p:])), true, nil
}

func (t fbTable) table(i int) (fbTable, bool, error) {
	pos, ok, err := t.ref(i)
	if err != nil || !ok {
		return fbTable{}, false, err
	}
	sub, err := fbTableAt(t.buf, pos)
	return sub, err == nil, err
}

// vector returns the element bytes and length of a vector of elemSize-byte
// elements in field i (nil when absent).
func (t fbTable) vector(i, elemSize int) ([]byte, int, error) {
	pos, ok, err := t.ref(i)
	if err != nil || !ok {
		return nil, 0, err
	}
	if pos+4 > int64(len(t.buf)) {
		return nil, 0, corrupt("flatbuffer vector at %d outside %s", pos, plural.Count(len(t.buf), "byte"))
	}
	n := int64(le.Uint32(t.buf[pos:]))
	start := pos + 4
	if n*int64(elemSize) > int64(len(t.buf))-start {
		return nil, 0, corrupt("flatbuffer vector of %s outside %s", plural.Count(n, "element"), plural.Count(len(t.buf), "byte"))
	}
	return t.buf[start : start+n*int64(elemSize)], int(n), nil
}

// layout is the number of field nodes and buffers an Arrow schema needs in
// a RecordBatch, counted as Arrow Java's TypeLayout and VectorLoader do
// (pre-order over nested fields).
type layout struct{ nodes, buffers int }

func (l *layout) add(dt arrow.DataType) error {
	l.nodes++
	switch t := dt.(type) {
	case *arrow.StringType, *arrow.BinaryType:
		l.buffers += 3
	case *arrow.ListType:
		l.buffers += 2
		return l.add(t.Elem())
	case *arrow.MapType:
		l.buffers += 2
		return l.add(t.Elem())
	case *arrow.StructType:
		l.buffers++
		for _, f := range t.Fields() {
			if err := l.add(f.Type); err != nil {
				return err
			}
		}
	case *arrow.BooleanType, *arrow.FixedSizeBinaryType, arrow.FixedWidthDataType:
		l.buffers += 2
	default:
		return fmt.Errorf("arrowipc: Arrow type %s is not used by Fluss", dt)
	}
	return nil
}

func schemaLayout(s *arrow.Schema) (layout, error) {
	var l layout
	for _, f := range s.Fields() {
		if err := l.add(f.Type); err != nil {
			return layout{}, err
		}
	}
	return l, nil
}

// parseMessage reads one encapsulated RecordBatch message from the start
// of b and checks its metadata against the expected layout and limits: the
// node and buffer counts must match, every buffer must lie inside the
// body, null counts must be within lengths, and compressed buffers must
// carry a plausible uncompressed length. After this, arrow-go can load the
// message without slicing out of range or allocating more than the limits.
func parseMessage(b []byte, want layout, lim Limits) (message, error) {
	if len(b) < prefixSize {
		return message{}, corrupt("%s cannot hold an IPC message prefix", plural.Count(len(b), "byte"))
	}
	if le.Uint32(b) != continuationMarker {
		return message{}, corrupt("missing IPC continuation marker (got %08x)", le.Uint32(b))
	}
	metaLen := int64(int32(le.Uint32(b[4:])))
	if metaLen <= 0 || metaLen > int64(lim.MaxMetadataBytes) || metaLen > int64(len(b)-prefixSize) {
		return message{}, corrupt("metadata length %d invalid for %s", metaLen, plural.Count(len(b), "byte"))
	}
	m := message{meta: b[prefixSize : prefixSize+metaLen], codec: codecNone}
	root, err := fbRoot(m.meta)
	if err != nil {
		return message{}, err
	}
	if m.version, err = root.int16(0, 0); err != nil {
		return message{}, err
	}
	if m.version != metadataV4 && m.version != metadataV5 {
		return message{}, corrupt("unsupported metadata version %d", m.version)
	}
	ht, err := root.int8(1, 0)
	if err != nil {
		return message{}, err
	}
	if ht != headerRecordBatch {
		return message{}, corrupt("message header type %d, want RecordBatch", ht)
	}
	bodyLen, err := root.int64(3, 0)
	if err != nil {
		return message{}, err
	}
	if m.bodyLenAt, err = root.field(3, 8); err != nil {
		return message{}, err
	}
	// arrow-go sizes a slice by the custom_metadata count before reading
	// the entries, so the count must be bounded by the bytes present.
	if _, _, err := root.vector(4, 4); err != nil {
		return message{}, err
	}
	bodyStart := prefixSize + metaLen
	if bodyLen < 0 || bodyLen > int64(len(b))-bodyStart {
		return message{}, corrupt("body length %d but the metadata is followed by %s", bodyLen, plural.Count(int64(len(b))-bodyStart, "byte"))
	}
	m.body = b[bodyStart : bodyStart+bodyLen]
	m.consumed = int(bodyStart + bodyLen)
	rb, ok, err := root.table(2)
	if err != nil {
		return message{}, err
	}
	if !ok {
		return message{}, corrupt("message has no RecordBatch header")
	}
	if m.rows, err = rb.int64(0, 0); err != nil {
		return message{}, err
	}
	if m.rows < 0 || m.rows > math.MaxInt32 {
		return message{}, corrupt("record batch length %d", m.rows)
	}
	if err := m.readNodes(rb, want); err != nil {
		return message{}, err
	}
	if err := m.readBuffers(rb, want); err != nil {
		return message{}, err
	}
	if _, n, err := rb.vector(4, 8); err != nil || n != 0 {
		if err == nil {
			err = corrupt("unexpected variadic buffer counts")
		}
		return message{}, err
	}
	if err := m.readCompression(rb, lim); err != nil {
		return message{}, err
	}
	return m, nil
}

func (m *message) readNodes(rb fbTable, want layout) error {
	raw, n, err := rb.vector(1, structSize)
	if err != nil {
		return err
	}
	if n != want.nodes {
		return corrupt("%s, schema needs %d", plural.Count(n, "field node"), want.nodes)
	}
	m.nodes = make([]fieldNode, n)
	for i := range m.nodes {
		fn := fieldNode{length: int64(le.Uint64(raw[16*i:])), nulls: int64(le.Uint64(raw[16*i+8:]))}
		if fn.length < 0 || fn.length > math.MaxInt32 || fn.nulls < 0 || fn.nulls > fn.length {
			return corrupt("field node %d: length %d, null count %d", i, fn.length, fn.nulls)
		}
		m.nodes[i] = fn
	}
	return nil
}

func (m *message) readBuffers(rb fbTable, want layout) error {
	raw, n, err := rb.vector(2, structSize)
	if err != nil {
		return err
	}
	if n != want.buffers {
		return corrupt("%s, schema needs %d", plural.Count(n, "buffer"), want.buffers)
	}
	if n > 0 {
		pos, _, _ := rb.ref(2) // vector checked it
		m.buffersAt = int(pos) + 4
	}
	bodyLen := int64(len(m.body))
	m.buffers = make([]bufferSpec, n)
	for i := range m.buffers {
		bs := bufferSpec{offset: int64(le.Uint64(raw[16*i:])), length: int64(le.Uint64(raw[16*i+8:]))}
		if bs.offset < 0 || bs.length < 0 || bs.offset > bodyLen || bs.length > bodyLen-bs.offset {
			return corrupt("buffer %d (offset %d, length %d) outside body of %s", i, bs.offset, bs.length, plural.Count(bodyLen, "byte"))
		}
		m.buffers[i] = bs
	}
	return nil
}

func (m *message) readCompression(rb fbTable, lim Limits) error {
	bc, ok, err := rb.table(3)
	if err != nil || !ok {
		return err
	}
	codec, err := bc.int8(0, codecLZ4)
	if err != nil {
		return err
	}
	method, err := bc.int8(1, methodBuffer)
	if err != nil {
		return err
	}
	if (codec != codecLZ4 && codec != codecZstd) || method != methodBuffer {
		return corrupt("unsupported body compression codec %d method %d", codec, method)
	}
	m.codec = int(codec)
	var total int64
	for i, bs := range m.buffers {
		if bs.length == 0 {
			continue // empty buffers carry no length prefix (Arrow Java VectorLoader skips them too)
		}
		if bs.length < 8 {
			return corrupt("compressed buffer %d of %s has no length prefix", i, plural.Count(bs.length, "byte"))
		}
		n := int64(le.Uint64(m.body[bs.offset:]))
		if n == -1 {
			continue // stored uncompressed
		}
		if n < 0 || n > maxExpansion(m.codec, bs.length-8) {
			return corrupt("compressed buffer %d claims %s from %d", i, plural.Count(n, "byte"), bs.length-8)
		}
		if total += n; total > lim.MaxDecompressedBytes {
			return corrupt("message decompresses to more than %s", plural.Count(lim.MaxDecompressedBytes, "byte"))
		}
	}
	return nil
}

// maxExpansion bounds what n compressed bytes can decode to, so that a
// forged length prefix cannot make the decoder allocate far more than the
// input could ever produce. LZ4 sequences expand at most about 255:1. A
// ZSTD block holds at most 128 KiB and even an RLE block needs 4 bytes, so
// ZSTD expands at most 32768:1. Slack covers tiny frames.
func maxExpansion(codec int, n int64) int64 {
	if codec == codecLZ4 {
		return 256*n + 64<<10
	}
	return 32768*n + 128<<10
}

// checkRows compares the top-level node lengths with the batch length.
func (m *message) checkRows(s *arrow.Schema) error {
	i := 0
	for _, f := range s.Fields() {
		if m.nodes[i].length != m.rows {
			return corrupt("column %q has %s in a batch of %s", f.Name, plural.Count(m.nodes[i].length, "value"), plural.Count(m.rows, "row"))
		}
		var l layout
		_ = l.add(f.Type) // the schema was accepted by schemaLayout already
		i += l.nodes
	}
	return nil
}
