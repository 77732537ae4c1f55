package codec

import (
	"errors"
	"fmt"
	"hash/crc32"
	"slices"

	"github.com/gofluss/fluss/internal/plural"
)

// Log batch magic values.
const (
	MagicV0 byte = 0 // written by every released client; the only one we write
	MagicV1 byte = 1 // 0.9.x: leader-epoch layout; 1.x: V0 + statistics
	MagicV2 byte = 2 // 1.x only: leader epoch + statistics
)

// Fixed sizes of the log batch format.
const (
	LogOverhead        = 12 // base offset + length
	V0HeaderSize       = 48
	V1LegacyHeaderSize = 52 // 0.9.x magic 1
	V1StatsHeaderSize  = 52 // 1.x magic 1 (before the statistics bytes)
	V2HeaderSize       = 56
	NoWriterID         = int64(-1)
	NoBatchSequence    = int32(-1)
	NoLeaderEpoch      = int32(-1)
	attrAppendOnly     = 0x01
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ServerLine selects how magic 1 batches are read, because Fluss 1.x reused
// magic 1 for a different layout than 0.9.x.
type ServerLine uint8

// Server lines.
const (
	Line09 ServerLine = iota // Fluss 0.9.x: magic 0 and leader-epoch magic 1
	Line1x                   // Fluss 1.x: magic 0, statistics magic 1, magic 2
)

// LogFormat is the payload format of a log batch (table.log.format). Only
// the row formats are built here; ARROW payloads are produced elsewhere and
// wrapped with BuildArrowBatch.
type LogFormat uint8

// Log payload formats.
const (
	LogArrow LogFormat = iota + 1
	LogIndexed
	LogCompacted
)

// ParseLogFormat maps a table.log.format value (upper case) to a LogFormat.
func ParseLogFormat(s string) (LogFormat, error) {
	switch s {
	case "ARROW":
		return LogArrow, nil
	case "INDEXED":
		return LogIndexed, nil
	case "COMPACTED":
		return LogCompacted, nil
	}
	return 0, fmt.Errorf("codec: unknown log format %q", s)
}

// RowFormat returns the row format of a row-based log format.
func (f LogFormat) RowFormat() (RowFormat, bool) {
	switch f {
	case LogIndexed:
		return FormatIndexed, true
	case LogCompacted:
		return FormatCompacted, true
	}
	return 0, false
}

// LogBatchHeader holds every header field of any magic. Fields a magic
// lacks are zero (LeaderEpoch, StatisticsLength) on read.
type LogBatchHeader struct {
	BaseOffset       int64
	Length           int32 // batch size - LogOverhead
	Magic            byte
	CommitTimestamp  int64
	LeaderEpoch      int32
	CRC              uint32
	SchemaID         int16
	Attributes       byte
	LastOffsetDelta  int32
	WriterID         int64
	BatchSequence    int32
	RecordCount      int32
	StatisticsLength int32
}

// AppendOnly reports the append-only attribute (no change-type vector in
// ARROW payloads).
func (h *LogBatchHeader) AppendOnly() bool { return h.Attributes&attrAppendOnly != 0 }

// LastOffset is BaseOffset + LastOffsetDelta.
func (h *LogBatchHeader) LastOffset() int64 { return h.BaseOffset + int64(h.LastOffsetDelta) }

// NextOffset is the fetch offset after this batch, also for empty batches.
func (h *LogBatchHeader) NextOffset() int64 { return h.LastOffset() + 1 }

// layout gives the byte offsets of one header variant.
type layout struct {
	leaderEpoch, crc, schemaID, attr, lastDelta, writerID, seq, count, stats, header int
}

var (
	layoutV0       = layout{-1, 21, 25, 27, 28, 32, 40, 44, -1, 48}
	layoutV1Legacy = layout{21, 25, 29, 31, 32, 36, 44, 48, -1, 52}
	layoutV1Stats  = layout{-1, 21, 25, 27, 28, 32, 40, 44, 48, 52}
	layoutV2       = layout{21, 25, 29, 31, 32, 36, 44, 48, 52, 56}
)

func layoutOf(magic byte, line ServerLine) (layout, error) {
	switch {
	case magic == MagicV0:
		return layoutV0, nil
	case magic == MagicV1 && line == Line09:
		return layoutV1Legacy, nil
	case magic == MagicV1 && line == Line1x:
		return layoutV1Stats, nil
	case magic == MagicV2 && line == Line1x:
		return layoutV2, nil
	}
	return layout{}, corrupt("unsupported log batch magic %d", magic)
}

// putV0Header writes a V0 header into b[:48] and the CRC over b[25:].
func putV0Header(b []byte, h *LogBatchHeader) {
	le.PutUint64(b[0:], uint64(h.BaseOffset))
	le.PutUint32(b[8:], uint32(len(b)-LogOverhead))
	b[12] = MagicV0
	le.PutUint64(b[13:], uint64(h.CommitTimestamp))
	le.PutUint16(b[25:], uint16(h.SchemaID))
	b[27] = h.Attributes
	le.PutUint32(b[28:], uint32(lastOffsetDelta(h.RecordCount)))
	le.PutUint64(b[32:], uint64(h.WriterID))
	le.PutUint32(b[40:], uint32(h.BatchSequence))
	le.PutUint32(b[44:], uint32(h.RecordCount))
	// The CRC is computed last, over everything from the schema id on.
	le.PutUint32(b[21:], crc32.Checksum(b[25:], castagnoli))
}

func lastOffsetDelta(count int32) int32 {
	if count > 0 {
		return count - 1
	}
	return 0
}

// batchBuffer is the state the log and KV batch builders share: the batch
// bytes (a header that Build fills in, then the records), the record count
// and the idempotent writer state.
type batchBuffer struct {
	writerID int64
	sequence int32
	count    int32
	buf      []byte
}

// reset discards records and writer state, leaving a zeroed header of
// headerSize bytes.
func (b *batchBuffer) reset(headerSize int) {
	b.buf, _ = grow(b.buf[:0], headerSize)
	b.count = 0
	b.writerID, b.sequence = NoWriterID, NoBatchSequence
}

// SetWriterState sets the idempotent writer id and batch sequence.
func (b *batchBuffer) SetWriterState(writerID int64, sequence int32) {
	b.writerID, b.sequence = writerID, sequence
}

// RecordCount returns the number of records appended so far.
func (b *batchBuffer) RecordCount() int { return int(b.count) }

// Size returns the current batch size in bytes.
func (b *batchBuffer) Size() int { return len(b.buf) }

// Grow makes room for n more bytes, so that a batch of a size known in
// advance (a writer expects each batch of a bucket to be as big as the
// last one) is allocated once instead of growing its way there.
func (b *batchBuffer) Grow(n int) { b.buf = slices.Grow(b.buf, max(n, 0)) }

// LogBatchBuilder builds one V0 log batch with an INDEXED or COMPACTED row
// payload. Reuse it with Reset. Not safe for concurrent use.
type LogBatchBuilder struct {
	batchBuffer
	format     LogFormat
	appendOnly bool
	schemaID   int16
	enc        *RowEncoder
}

// NewLogBatchBuilder returns a builder for a row-based log format. enc must
// encode the table schema identified by schemaID in the matching row
// format. appendOnly sets the batch attribute and restricts records to +A
// (log tables); the Java client writes log tables this way.
func NewLogBatchBuilder(format LogFormat, schemaID int16, enc *RowEncoder, appendOnly bool) (*LogBatchBuilder, error) {
	rf, ok := format.RowFormat()
	if !ok {
		return nil, errors.New("codec: LogBatchBuilder builds row formats only; wrap ARROW bodies with BuildArrowBatch")
	}
	if enc == nil || enc.Format() != rf {
		return nil, fmt.Errorf("codec: log format %d needs a %v row encoder", format, rf)
	}
	b := &LogBatchBuilder{format: format, appendOnly: appendOnly, schemaID: schemaID, enc: enc}
	b.Reset()
	return b, nil
}

// Reset discards appended records and writer state.
func (b *LogBatchBuilder) Reset() { b.reset(V0HeaderSize) }

// Append encodes row and adds it as a record with change type ct.
func (b *LogBatchBuilder) Append(ct ChangeType, row []any) error {
	if err := b.checkChange(ct); err != nil {
		return err
	}
	start := len(b.buf)
	b.buf = append(b.buf, 0, 0, 0, 0, byte(ct))
	out, err := b.enc.AppendRow(b.buf, row)
	if err != nil {
		b.buf = b.buf[:start]
		return err
	}
	b.buf = out
	le.PutUint32(b.buf[start:], uint32(len(b.buf)-start-4))
	b.count++
	return nil
}

// AppendEncoded adds a record whose row bytes are already encoded.
func (b *LogBatchBuilder) AppendEncoded(ct ChangeType, row []byte) error {
	if err := b.checkChange(ct); err != nil {
		return err
	}
	b.buf = le.AppendUint32(b.buf, uint32(1+len(row)))
	b.buf = append(append(b.buf, byte(ct)), row...)
	b.count++
	return nil
}

func (b *LogBatchBuilder) checkChange(ct ChangeType) error {
	if !ct.Valid() {
		return fmt.Errorf("codec: invalid change type %d", ct)
	}
	if b.appendOnly && ct != AppendOnly {
		return fmt.Errorf("codec: append-only batch cannot hold %v records", ct)
	}
	return nil
}

// Build finalises the header and CRC and returns the batch. The slice is
// owned by the builder until Reset.
func (b *LogBatchBuilder) Build() []byte {
	h := LogBatchHeader{SchemaID: b.schemaID, WriterID: b.writerID, BatchSequence: b.sequence, RecordCount: b.count}
	if b.appendOnly {
		h.Attributes = attrAppendOnly
	}
	putV0Header(b.buf, &h)
	return b.buf
}

// ArrowBatch describes an ARROW log batch to wrap around an Arrow IPC
// RecordBatch message produced elsewhere.
type ArrowBatch struct {
	SchemaID      int16
	WriterID      int64 // NoWriterID unless idempotent
	BatchSequence int32 // NoBatchSequence unless idempotent
	RecordCount   int32
	// ChangeTypes is nil for append-only batches (log tables); otherwise it
	// must hold RecordCount entries and is written as the change-type vector.
	ChangeTypes []ChangeType
	// Body is the encapsulated Arrow RecordBatch message (absent when
	// RecordCount is 0).
	Body []byte
}

// BuildArrowBatch appends a V0 ARROW log batch to dst.
func BuildArrowBatch(dst []byte, a ArrowBatch) ([]byte, error) {
	return AppendArrowBatch(dst, a, func(dst []byte) ([]byte, error) { return append(dst, a.Body...), nil })
}

// AppendArrowBatch is BuildArrowBatch for a body that appendBody appends
// to the batch in place (a.Body is ignored), which spares copying an
// encoded message into the batch. appendBody is not called when
// RecordCount is 0.
func AppendArrowBatch(dst []byte, a ArrowBatch, appendBody func(dst []byte) ([]byte, error)) ([]byte, error) {
	if a.ChangeTypes != nil && len(a.ChangeTypes) != int(a.RecordCount) {
		return nil, fmt.Errorf("codec: %s for %s", plural.Count(len(a.ChangeTypes), "change type"), plural.Count(a.RecordCount, "record"))
	}
	start := len(dst)
	dst, _ = grow(dst, V0HeaderSize)
	h := LogBatchHeader{SchemaID: a.SchemaID, WriterID: a.WriterID, BatchSequence: a.BatchSequence, RecordCount: a.RecordCount}
	if a.ChangeTypes == nil {
		h.Attributes = attrAppendOnly
	}
	for _, ct := range a.ChangeTypes {
		dst = append(dst, byte(ct))
	}
	if a.RecordCount > 0 {
		var err error
		if dst, err = appendBody(dst); err != nil {
			return nil, err
		}
	}
	putV0Header(dst[start:], &h)
	return dst, nil
}
