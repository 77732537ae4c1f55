package codec

import (
	"hash/crc32"

	"github.com/gofluss/fluss/internal/plural"
)

// LogBatch is one parsed log batch. Its slices alias the input bytes.
type LogBatch struct {
	Header LogBatchHeader
	// Statistics is the raw statistics block of 1.x magic 1/2 batches.
	Statistics []byte
	// Payload is everything after the header and statistics: the records of
	// row formats, or change-type vector plus Arrow message for ARROW.
	Payload []byte
	// Raw is the whole batch.
	Raw []byte

	crcStart int
}

// VerifyCRC checks the stored CRC-32C against the bytes it covers.
func (b *LogBatch) VerifyCRC() error {
	if got := crc32.Checksum(b.Raw[b.crcStart:], castagnoli); got != b.Header.CRC {
		return corrupt("log batch CRC %08x, computed %08x", b.Header.CRC, got)
	}
	return nil
}

// LogBatchIterator walks a concatenation of log batches (a FETCH_LOG
// records blob). A truncated last batch — normal in fetch responses — ends
// the iteration without error; Truncated reports it. CRCs are not checked
// automatically; call LogBatch.VerifyCRC (the Java client does by default).
type LogBatchIterator struct {
	data      []byte
	off       int
	line      ServerLine
	truncated bool
	err       error
}

// NewLogBatchIterator iterates data, reading magic 1 per line.
func NewLogBatchIterator(data []byte, line ServerLine) *LogBatchIterator {
	return &LogBatchIterator{data: data, line: line}
}

// Next returns the next complete batch, or false at the end, at a
// truncated tail, or on error (see Err).
func (it *LogBatchIterator) Next() (LogBatch, bool) {
	if it.err != nil {
		return LogBatch{}, false
	}
	rest := it.data[it.off:]
	if len(rest) < LogOverhead+1 {
		it.truncated = len(rest) > 0
		return LogBatch{}, false
	}
	length := int64(int32(le.Uint32(rest[8:])))
	if length < V0HeaderSize-LogOverhead {
		it.err = corrupt("log batch length %d at offset %d is below the header size", length, it.off)
		return LogBatch{}, false
	}
	size := length + LogOverhead
	if size > int64(len(rest)) {
		it.truncated = true
		return LogBatch{}, false
	}
	b, err := ParseLogBatch(rest[:size], it.line)
	if err != nil {
		it.err = err
		return LogBatch{}, false
	}
	it.off += int(size)
	return b, true
}

// Err returns the error that stopped the iteration, if any.
func (it *LogBatchIterator) Err() error { return it.err }

// Truncated reports whether iteration ended at an incomplete batch.
func (it *LogBatchIterator) Truncated() bool { return it.truncated }

// Offset returns how many bytes of complete batches were consumed.
func (it *LogBatchIterator) Offset() int { return it.off }

// ParseLogBatch parses exactly one batch occupying all of b.
func ParseLogBatch(b []byte, line ServerLine) (LogBatch, error) {
	if len(b) < LogOverhead+1 {
		return LogBatch{}, corrupt("log batch of %s", plural.Count(len(b), "byte"))
	}
	h := LogBatchHeader{
		BaseOffset: int64(le.Uint64(b)),
		Length:     int32(le.Uint32(b[8:])),
		Magic:      b[12],
	}
	if int(h.Length)+LogOverhead != len(b) {
		return LogBatch{}, corrupt("log batch length %d does not match %s", h.Length, plural.Count(len(b), "byte"))
	}
	l, err := layoutOf(h.Magic, line)
	if err != nil {
		return LogBatch{}, err
	}
	if len(b) < l.header {
		return LogBatch{}, corrupt("magic %d batch of %s is shorter than its header", h.Magic, plural.Count(len(b), "byte"))
	}
	readHeader(b, l, &h)
	out := LogBatch{Header: h, Raw: b, Payload: b[l.header:], crcStart: l.schemaID}
	if l.stats >= 0 {
		n := int(out.Header.StatisticsLength)
		if n < 0 || n > len(out.Payload) {
			return LogBatch{}, corrupt("statistics length %d outside batch", n)
		}
		out.Statistics, out.Payload = out.Payload[:n], out.Payload[n:]
	}
	if out.Header.RecordCount < 0 {
		return LogBatch{}, corrupt("negative record count %d", out.Header.RecordCount)
	}
	return out, nil
}

func readHeader(b []byte, l layout, h *LogBatchHeader) {
	h.CommitTimestamp = int64(le.Uint64(b[13:]))
	if l.leaderEpoch >= 0 {
		h.LeaderEpoch = int32(le.Uint32(b[l.leaderEpoch:]))
	}
	h.CRC = le.Uint32(b[l.crc:])
	h.SchemaID = int16(le.Uint16(b[l.schemaID:]))
	h.Attributes = b[l.attr]
	h.LastOffsetDelta = int32(le.Uint32(b[l.lastDelta:]))
	h.WriterID = int64(le.Uint64(b[l.writerID:]))
	h.BatchSequence = int32(le.Uint32(b[l.seq:]))
	h.RecordCount = int32(le.Uint32(b[l.count:]))
	if l.stats >= 0 {
		h.StatisticsLength = int32(le.Uint32(b[l.stats:]))
	}
}

// LogRecord is one decoded record of a row-format log batch.
type LogRecord struct {
	Offset     int64
	ChangeType ChangeType
	Row        []any
}

// RawRecords splits the payload of an INDEXED or COMPACTED batch into
// per-record change types and row bytes, calling fn for each in order.
// The row slice aliases the batch.
func (b *LogBatch) RawRecords(fn func(offset int64, ct ChangeType, row []byte) error) error {
	r := reader{b: b.Payload}
	for i := int32(0); i < b.Header.RecordCount; i++ {
		n, err := r.uint32()
		if err != nil {
			return err
		}
		if n < 1 {
			return corrupt("record %d has length %d", i, n)
		}
		rec, err := r.bytes(int(n))
		if err != nil {
			return err
		}
		ct := ChangeType(rec[0])
		if !ct.Valid() {
			return corrupt("record %d has change type %d", i, rec[0])
		}
		if err := fn(b.Header.BaseOffset+int64(i), ct, rec[1:]); err != nil {
			return err
		}
	}
	return nil
}

// Records decodes every record of an INDEXED or COMPACTED batch with dec
// (which must match the batch's schema id and the table's log format).
func (b *LogBatch) Records(dec *RowDecoder) ([]LogRecord, error) {
	out := make([]LogRecord, 0, min(int(b.Header.RecordCount), len(b.Payload)/5))
	err := b.RawRecords(func(off int64, ct ChangeType, row []byte) error {
		vals, err := dec.Decode(row)
		if err != nil {
			return err
		}
		out = append(out, LogRecord{Offset: off, ChangeType: ct, Row: vals})
		return nil
	})
	return out, err
}

// ArrowPayload splits an ARROW batch into its change-type vector (nil when
// the batch is append-only, meaning every row is +A) and the Arrow IPC
// RecordBatch message (empty for zero-record batches).
func (b *LogBatch) ArrowPayload() ([]ChangeType, []byte, error) {
	p := b.Payload
	if b.Header.AppendOnly() {
		return nil, p, nil
	}
	n := int(b.Header.RecordCount)
	if n > len(p) {
		return nil, nil, corrupt("%s in a change-type vector of %s", plural.Count(n, "change type"), plural.Count(len(p), "byte"))
	}
	cts := make([]ChangeType, n)
	for i := range cts {
		cts[i] = ChangeType(p[i])
		if !cts[i].Valid() {
			return nil, nil, corrupt("change type %d at row %d", p[i], i)
		}
	}
	return cts, p[n:], nil
}
