package codec

import (
	"errors"
	"hash/crc32"
	"math"

	"github.com/gofluss/fluss/internal/plural"
)

// KV record batch (PUT_KV "records"), all LE:
//
//	[int32 length = size-4][int8 magic 0][uint32 CRC-32C of [9,end)]
//	[int16 schema id][int8 attributes 0][int64 writer id][int32 sequence]
//	[int32 record count] then records:
//	[int32 length of rest][uvarint key length][key][value row, absent = delete]
const (
	KvHeaderSize   = 28
	kvMagic        = 0
	kvCRCOffset    = 5
	kvSchemaOffset = 9
)

// KvBatchBuilder builds one KV record batch. Reuse it with Reset.
type KvBatchBuilder struct {
	batchBuffer
	schemaID int16
}

// NewKvBatchBuilder returns a builder whose value rows are encoded with the
// schema identified by schemaID.
func NewKvBatchBuilder(schemaID int16) *KvBatchBuilder {
	b := &KvBatchBuilder{schemaID: schemaID}
	b.Reset()
	return b
}

// Reset discards records and writer state.
func (b *KvBatchBuilder) Reset() { b.reset(KvHeaderSize) }

var errEmptyKVKey = errors.New("codec: KV record key must not be empty")

// Append adds an upsert of value (an encoded row without schema-id prefix)
// under key, or a delete when value is nil.
func (b *KvBatchBuilder) Append(key, value []byte) error {
	if len(key) == 0 {
		return errEmptyKVKey
	}
	if int64(len(key))+int64(len(value)) > math.MaxInt32-10 {
		return errors.New("codec: KV record too large")
	}
	var tmp [5]byte
	klen := appendUvarint32(tmp[:0], int32(len(key)))
	b.buf = le.AppendUint32(b.buf, uint32(len(klen)+len(key)+len(value)))
	b.buf = append(append(append(b.buf, klen...), key...), value...)
	b.count++
	return nil
}

// Build finalises header and CRC and returns the batch (owned by the
// builder until Reset).
func (b *KvBatchBuilder) Build() []byte {
	h := b.buf
	le.PutUint32(h[0:], uint32(len(h)-4))
	h[4] = kvMagic
	le.PutUint16(h[9:], uint16(b.schemaID))
	h[11] = 0
	le.PutUint64(h[12:], uint64(b.writerID))
	le.PutUint32(h[20:], uint32(b.sequence))
	le.PutUint32(h[24:], uint32(b.count))
	le.PutUint32(h[kvCRCOffset:], crc32.Checksum(h[kvSchemaOffset:], castagnoli))
	return h
}

// KvBatch is a parsed KV record batch (used by tests and tools; servers
// are the usual readers).
type KvBatch struct {
	SchemaID      int16
	Attributes    byte
	WriterID      int64
	BatchSequence int32
	CRC           uint32
	Records       []KvRecord
}

// KvRecord is one KV record; Value is nil for deletes. Slices alias input.
type KvRecord struct {
	Key   []byte
	Value []byte
}

// ParseKvBatch parses one KV batch occupying all of b and verifies its CRC.
func ParseKvBatch(b []byte) (KvBatch, error) {
	if len(b) < KvHeaderSize {
		return KvBatch{}, corrupt("KV batch of %s", plural.Count(len(b), "byte"))
	}
	if int(int32(le.Uint32(b)))+4 != len(b) {
		return KvBatch{}, corrupt("KV batch length field does not match %s", plural.Count(len(b), "byte"))
	}
	if b[4] != kvMagic {
		return KvBatch{}, corrupt("KV batch magic %d", b[4])
	}
	out := KvBatch{
		CRC: le.Uint32(b[5:]), SchemaID: int16(le.Uint16(b[9:])), Attributes: b[11],
		WriterID: int64(le.Uint64(b[12:])), BatchSequence: int32(le.Uint32(b[20:])),
	}
	if got := crc32.Checksum(b[kvSchemaOffset:], castagnoli); got != out.CRC {
		return KvBatch{}, corrupt("KV batch CRC %08x, computed %08x", out.CRC, got)
	}
	count := int(int32(le.Uint32(b[24:])))
	if count < 0 || count > (len(b)-KvHeaderSize)/5 {
		return KvBatch{}, corrupt("KV record count %d does not fit", count)
	}
	recs, err := parseKvRecords(b[KvHeaderSize:], count)
	out.Records = recs
	return out, err
}

func parseKvRecords(p []byte, count int) ([]KvRecord, error) {
	r := reader{b: p}
	out := make([]KvRecord, 0, count)
	for i := 0; i < count; i++ {
		rec, err := r.int32Prefixed()
		if err != nil {
			return nil, err
		}
		rr := reader{b: rec}
		key, err := rr.lenPrefixed()
		if err != nil {
			return nil, err
		}
		var val []byte
		if rr.remaining() > 0 {
			val = rec[rr.off:]
		}
		out = append(out, KvRecord{Key: key, Value: val})
	}
	if r.remaining() != 0 {
		return nil, corrupt("%s after KV records", plural.Count(r.remaining(), "trailing byte"))
	}
	return out, nil
}

// ValueRecord is one record of a value record batch or a lookup value: the
// schema id the row was written with, and the row bytes (table.kv.format).
type ValueRecord struct {
	SchemaID int16
	Row      []byte
}

// ParseValueBatch parses a value record batch (LIMIT_SCAN of PK tables,
// SCAN_KV): [int32 length=size-4][int8 magic 0][int32 count] then records
// [int32 length][int16 schema id][row]. Row slices alias b.
func ParseValueBatch(b []byte) ([]ValueRecord, error) {
	if len(b) < 9 {
		return nil, corrupt("value batch of %s", plural.Count(len(b), "byte"))
	}
	if int(int32(le.Uint32(b)))+4 != len(b) {
		return nil, corrupt("value batch length field does not match %s", plural.Count(len(b), "byte"))
	}
	if b[4] != 0 {
		return nil, corrupt("value batch magic %d", b[4])
	}
	count := int(int32(le.Uint32(b[5:])))
	if count < 0 || count > (len(b)-9)/6 {
		return nil, corrupt("value record count %d does not fit", count)
	}
	r := reader{b: b[9:]}
	out := make([]ValueRecord, 0, count)
	for i := 0; i < count; i++ {
		rec, err := r.int32Prefixed()
		if err != nil {
			return nil, err
		}
		v, err := ParseLookupValue(rec)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// BuildValueBatch appends a value record batch holding recs to dst (the
// inverse of ParseValueBatch; servers build these, tests need them).
func BuildValueBatch(dst []byte, recs []ValueRecord) []byte {
	start := len(dst)
	dst, _ = grow(dst, 9)
	for _, v := range recs {
		dst = le.AppendUint32(dst, uint32(2+len(v.Row)))
		dst = append(le.AppendUint16(dst, uint16(v.SchemaID)), v.Row...)
	}
	le.PutUint32(dst[start:], uint32(len(dst)-start-4))
	le.PutUint32(dst[start+5:], uint32(len(recs)))
	return dst
}

// ParseLookupValue splits a LOOKUP / PREFIX_LOOKUP value into its 2-byte LE
// schema id and row bytes (aliasing b).
func ParseLookupValue(b []byte) (ValueRecord, error) {
	if len(b) < 2 {
		return ValueRecord{}, corrupt("value of %s has no schema id", plural.Count(len(b), "byte"))
	}
	return ValueRecord{SchemaID: int16(le.Uint16(b)), Row: b[2:]}, nil
}

// AppendLookupValue appends schema id + row, the stored value format.
func AppendLookupValue(dst []byte, schemaID int16, row []byte) []byte {
	return append(le.AppendUint16(dst, uint16(schemaID)), row...)
}
