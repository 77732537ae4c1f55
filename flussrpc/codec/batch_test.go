package codec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"testing"

	"github.com/gofluss/fluss/flussrpc/schema"
)

var testTypes = []schema.DataType{schema.Int().NotNull(), schema.String()}

// manualV0 lays out a V0 batch field by field, independently of the builder.
func manualV0(schemaID int16, attr byte, writerID int64, seq, count int32, payload []byte) []byte {
	b := make([]byte, 48, 48+len(payload))
	binary.LittleEndian.PutUint32(b[8:], uint32(36+len(payload)))
	binary.LittleEndian.PutUint16(b[25:], uint16(schemaID))
	b[27] = attr
	if count > 0 {
		binary.LittleEndian.PutUint32(b[28:], uint32(count-1))
	}
	binary.LittleEndian.PutUint64(b[32:], uint64(writerID))
	binary.LittleEndian.PutUint32(b[40:], uint32(seq))
	binary.LittleEndian.PutUint32(b[44:], uint32(count))
	b = append(b, payload...)
	binary.LittleEndian.PutUint32(b[21:], crc32.Checksum(b[25:], crc32.MakeTable(crc32.Castagnoli)))
	return b
}

func TestLogBatchBuilderCompacted(t *testing.T) {
	enc, _ := NewCompactedEncoder(testTypes)
	bb, err := NewLogBatchBuilder(LogCompacted, 3, enc, false)
	if err != nil {
		t.Fatal(err)
	}
	bb.SetWriterState(77, 5)
	if err := bb.Append(Insert, []any{int32(1), "a"}); err != nil {
		t.Fatal(err)
	}
	if err := bb.Append(Delete, []any{int32(2), nil}); err != nil {
		t.Fatal(err)
	}
	if err := bb.Append(Insert, []any{nil, "x"}); err == nil {
		t.Fatal("NULL in NOT NULL column must fail")
	}
	got := bb.Build()
	payload := []byte{
		5, 0, 0, 0, 1, 0x00, 0x01, 0x01, 'a', // len 5, +I, bitset, INT 1, "a"
		3, 0, 0, 0, 4, 0x02, 0x02, // len 3, -D, bitset (col 1 null), INT 2
	}
	want := manualV0(3, 0, 77, 5, 2, payload)
	if !bytes.Equal(got, want) {
		t.Fatalf("got  %x\nwant %x", got, want)
	}
	if bb.RecordCount() != 2 || bb.Size() != len(want) {
		t.Fatal("counters")
	}
	lb, err := ParseLogBatch(got, Line09)
	if err != nil {
		t.Fatal(err)
	}
	if err := lb.VerifyCRC(); err != nil {
		t.Fatal(err)
	}
	dec, _ := NewCompactedDecoder(testTypes)
	recs, err := lb.Records(dec)
	if err != nil || len(recs) != 2 || recs[1].ChangeType != Delete || recs[1].Offset != 1 ||
		recs[0].Row[1] != "a" || recs[1].Row[1] != nil {
		t.Fatalf("%+v %v", recs, err)
	}
	bb.Reset()
	if empty := bb.Build(); !bytes.Equal(empty, manualV0(3, 0, -1, -1, 0, nil)) {
		t.Fatalf("empty batch %x", empty)
	}
}

func TestLogBatchBuilderIndexedAppendOnly(t *testing.T) {
	enc, _ := NewIndexedEncoder(testTypes)
	bb, err := NewLogBatchBuilder(LogIndexed, 1, enc, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := bb.Append(Insert, []any{int32(1), "a"}); err == nil {
		t.Fatal("append-only batch must reject +I")
	}
	if err := bb.Append(AppendOnly, []any{int32(1), "a"}); err != nil {
		t.Fatal(err)
	}
	row, _ := enc.Encode([]any{int32(2), nil})
	if err := bb.AppendEncoded(AppendOnly, append([]byte(nil), row...)); err != nil {
		t.Fatal(err)
	}
	got := bb.Build()
	payload := []byte{11, 0, 0, 0, 0, 0x00, 1, 0, 0, 0, 1, 0, 0, 0, 'a',
		10, 0, 0, 0, 0, 0x02, 0, 0, 0, 0, 2, 0, 0, 0}
	if want := manualV0(1, 1, -1, -1, 2, payload); !bytes.Equal(got, want) {
		t.Fatalf("got  %x\nwant %x", got, want)
	}
	if _, err := NewLogBatchBuilder(LogArrow, 1, enc, true); err == nil {
		t.Fatal("ARROW must be refused")
	}
	if _, err := NewLogBatchBuilder(LogCompacted, 1, enc, true); err == nil {
		t.Fatal("encoder format mismatch must be refused")
	}
}

func TestArrowBatchWrapping(t *testing.T) {
	body := []byte{0xff, 0xff, 0xff, 0xff, 8, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8}
	got, err := BuildArrowBatch(nil, ArrowBatch{SchemaID: 2, WriterID: -1, BatchSequence: -1, RecordCount: 3, Body: body})
	if err != nil {
		t.Fatal(err)
	}
	if want := manualV0(2, 1, -1, -1, 3, body); !bytes.Equal(got, want) {
		t.Fatalf("append-only arrow batch\n got %x\nwant %x", got, want)
	}
	cts := []ChangeType{Insert, UpdateBefore, UpdateAfter}
	got, err = BuildArrowBatch(nil, ArrowBatch{SchemaID: 2, WriterID: 9, BatchSequence: 0, RecordCount: 3, ChangeTypes: cts, Body: body})
	if err != nil {
		t.Fatal(err)
	}
	lb, err := ParseLogBatch(got, Line09)
	if err != nil {
		t.Fatal(err)
	}
	gotCT, gotBody, err := lb.ArrowPayload()
	if err != nil || !bytes.Equal(gotBody, body) || len(gotCT) != 3 || gotCT[1] != UpdateBefore {
		t.Fatalf("%v %x %v", gotCT, gotBody, err)
	}
	if _, err := BuildArrowBatch(nil, ArrowBatch{RecordCount: 2, ChangeTypes: cts}); err == nil {
		t.Fatal("change type count mismatch must fail")
	}
	empty, _ := BuildArrowBatch(nil, ArrowBatch{WriterID: -1, BatchSequence: -1, Body: body})
	if len(empty) != V0HeaderSize {
		t.Fatal("zero-record ARROW batch must have no body")
	}
}

// legacyV1 builds a 0.9.x magic-1 batch (leader epoch layout).
func legacyV1(epoch int32, count int32, payload []byte) []byte {
	b := make([]byte, 52)
	binary.LittleEndian.PutUint64(b[0:], 100)
	binary.LittleEndian.PutUint32(b[8:], uint32(40+len(payload)))
	b[12] = 1
	binary.LittleEndian.PutUint32(b[21:], uint32(epoch))
	binary.LittleEndian.PutUint16(b[29:], 4)
	binary.LittleEndian.PutUint32(b[32:], uint32(count-1))
	binary.LittleEndian.PutUint64(b[36:], 0xabc)
	binary.LittleEndian.PutUint32(b[44:], 6)
	binary.LittleEndian.PutUint32(b[48:], uint32(count))
	b = append(b, payload...)
	binary.LittleEndian.PutUint32(b[25:], crc32.Checksum(b[29:], castagnoli))
	return b
}

// statsBatch builds a 1.x batch: magic 1 (V0 + stats) or magic 2.
func statsBatch(magic byte, stats, payload []byte) []byte {
	hdr, crcAt, schemaAt, countAt, statsAt := 52, 21, 25, 44, 48
	if magic == 2 {
		hdr, crcAt, schemaAt, countAt, statsAt = 56, 25, 29, 48, 52
	}
	b := make([]byte, hdr)
	binary.LittleEndian.PutUint32(b[8:], uint32(hdr-12+len(stats)+len(payload)))
	b[12] = magic
	if magic == 2 {
		binary.LittleEndian.PutUint32(b[21:], 3)
	}
	binary.LittleEndian.PutUint16(b[schemaAt:], 8)
	binary.LittleEndian.PutUint32(b[countAt:], 1)
	binary.LittleEndian.PutUint32(b[statsAt:], uint32(len(stats)))
	b = append(append(b, stats...), payload...)
	binary.LittleEndian.PutUint32(b[crcAt:], crc32.Checksum(b[schemaAt:], castagnoli))
	return b
}

func TestLogBatchMagicLayouts(t *testing.T) {
	enc, _ := NewCompactedEncoder(testTypes)
	row, _ := enc.Encode([]any{int32(5), "z"})
	rec := append(binary.LittleEndian.AppendUint32(nil, uint32(1+len(row))), append([]byte{0}, row...)...)

	v1 := legacyV1(11, 1, rec)
	lb, err := ParseLogBatch(v1, Line09)
	if err != nil || lb.VerifyCRC() != nil {
		t.Fatalf("legacy v1: %v %v", err, lb.VerifyCRC())
	}
	h := lb.Header
	if h.LeaderEpoch != 11 || h.SchemaID != 4 || h.WriterID != 0xabc || h.BatchSequence != 6 ||
		h.RecordCount != 1 || h.BaseOffset != 100 || h.NextOffset() != 101 || !bytes.Equal(lb.Payload, rec) {
		t.Fatalf("legacy v1 header %+v", h)
	}
	for _, magic := range []byte{1, 2} {
		raw := statsBatch(magic, []byte{1, 2, 3}, rec)
		lb, err := ParseLogBatch(raw, Line1x)
		if err != nil || lb.VerifyCRC() != nil {
			t.Fatalf("1.x magic %d: %v %v", magic, err, lb.VerifyCRC())
		}
		if lb.Header.SchemaID != 8 || !bytes.Equal(lb.Statistics, []byte{1, 2, 3}) || !bytes.Equal(lb.Payload, rec) {
			t.Fatalf("1.x magic %d: %+v", magic, lb)
		}
		if magic == 2 && lb.Header.LeaderEpoch != 3 {
			t.Fatal("magic 2 leader epoch")
		}
	}
	if _, err := ParseLogBatch(statsBatch(2, nil, rec), Line09); err == nil {
		t.Fatal("magic 2 is not a 0.9 layout")
	}
	bad := append([]byte(nil), v1...)
	bad[len(bad)-1] ^= 0xff
	lb, _ = ParseLogBatch(bad, Line09)
	if err := lb.VerifyCRC(); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("CRC mismatch not detected: %v", err)
	}
}

func TestLogBatchIterator(t *testing.T) {
	enc, _ := NewCompactedEncoder(testTypes)
	bb, _ := NewLogBatchBuilder(LogCompacted, 1, enc, true)
	_ = bb.Append(AppendOnly, []any{int32(1), "a"})
	first := append([]byte(nil), bb.Build()...)
	bb.Reset()
	zero := append([]byte(nil), bb.Build()...)
	all := append(append(append([]byte(nil), first...), zero...), first[:30]...) // truncated tail

	it := NewLogBatchIterator(all, Line09)
	var n int
	for {
		b, ok := it.Next()
		if !ok {
			break
		}
		n++
		if n == 2 && (b.Header.RecordCount != 0 || len(b.Payload) != 0) {
			t.Fatal("zero-record batch")
		}
	}
	if n != 2 || it.Err() != nil || !it.Truncated() || it.Offset() != len(first)+len(zero) {
		t.Fatalf("n=%d err=%v truncated=%v off=%d", n, it.Err(), it.Truncated(), it.Offset())
	}
	it = NewLogBatchIterator(append(append([]byte(nil), first...), make([]byte, 20)...), Line09)
	it.Next()
	if _, ok := it.Next(); ok || it.Err() == nil {
		t.Fatal("garbage after a batch must be an error")
	}
	it = NewLogBatchIterator(nil, Line09)
	if _, ok := it.Next(); ok || it.Truncated() || it.Err() != nil {
		t.Fatal("empty input")
	}
}

func TestKvBatch(t *testing.T) {
	b := NewKvBatchBuilder(2)
	// Grow keeps the header and makes room for both records at once.
	b.Grow(64)
	head := &b.buf[0]
	b.SetWriterState(5, 9)
	if err := b.Append([]byte{1, 2}, []byte{0, 7}); err != nil {
		t.Fatal(err)
	}
	if err := b.Append([]byte{3}, nil); err != nil {
		t.Fatal(err)
	}
	if err := b.Append(nil, nil); err == nil {
		t.Fatal("empty key must fail")
	}
	got := b.Build()
	want := []byte{
		0, 0, 0, 0, 0, // length, magic (filled below)
		0, 0, 0, 0, // crc
		2, 0, 0, // schema id, attributes
		5, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 2, 0, 0, 0,
		5, 0, 0, 0, 2, 1, 2, 0, 7, // upsert
		2, 0, 0, 0, 1, 3, // delete
	}
	binary.LittleEndian.PutUint32(want, uint32(len(want)-4))
	binary.LittleEndian.PutUint32(want[5:], crc32.Checksum(want[9:], castagnoli))
	if !bytes.Equal(got, want) {
		t.Fatalf("got  %x\nwant %x", got, want)
	}
	if &got[0] != head {
		t.Error("the batch moved although Grow made room for it")
	}
	kb, err := ParseKvBatch(got)
	if err != nil || kb.SchemaID != 2 || kb.WriterID != 5 || kb.BatchSequence != 9 || len(kb.Records) != 2 ||
		!bytes.Equal(kb.Records[0].Value, []byte{0, 7}) || kb.Records[1].Value != nil {
		t.Fatalf("%+v %v", kb, err)
	}
	b.Reset()
	if len(b.Build()) != KvHeaderSize || b.RecordCount() != 0 {
		t.Fatal("reset")
	}
}

func TestValueBatchAndLookupValue(t *testing.T) {
	recs := []ValueRecord{{SchemaID: 1, Row: []byte{0, 1}}, {SchemaID: 3, Row: nil}}
	raw := BuildValueBatch(nil, recs)
	want := []byte{0, 0, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 1, 2, 0, 0, 0, 3, 0}
	binary.LittleEndian.PutUint32(want, uint32(len(want)-4))
	if !bytes.Equal(raw, want) {
		t.Fatalf("got %x want %x", raw, want)
	}
	got, err := ParseValueBatch(raw)
	if err != nil || len(got) != 2 || got[0].SchemaID != 1 || !bytes.Equal(got[0].Row, []byte{0, 1}) || got[1].SchemaID != 3 {
		t.Fatalf("%+v %v", got, err)
	}
	v := AppendLookupValue(nil, 258, []byte{9})
	if !bytes.Equal(v, []byte{2, 1, 9}) {
		t.Fatalf("%x", v)
	}
	lv, err := ParseLookupValue(v)
	if err != nil || lv.SchemaID != 258 || !bytes.Equal(lv.Row, []byte{9}) {
		t.Fatal(lv, err)
	}
	if _, err := ParseLookupValue([]byte{1}); err == nil {
		t.Fatal("short value must fail")
	}
}

func TestParseLogFormat(t *testing.T) {
	for s, want := range map[string]LogFormat{"ARROW": LogArrow, "INDEXED": LogIndexed, "COMPACTED": LogCompacted} {
		if got, err := ParseLogFormat(s); err != nil || got != want {
			t.Errorf("%s: %v %v", s, got, err)
		}
	}
	if _, err := ParseLogFormat("CSV"); err == nil {
		t.Error("CSV")
	}
	if _, ok := LogArrow.RowFormat(); ok {
		t.Error("ARROW has no row format")
	}
}
