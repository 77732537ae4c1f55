package arrowipc

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gofluss/fluss/flussrpc/schema"
)

var goldenPath = filepath.Join("testdata", "int_string_uncompressed.bin")

// goldenColumns is the schema of the golden message: rows (1, "a"),
// (NULL, ""), (-7, "héllo").
func goldenColumns() []schema.Column {
	return []schema.Column{
		schema.NewColumn("id", schema.Int()),
		schema.NewColumn("name", schema.String().NotNull()),
	}
}

// TestGoldenLayout checks the pinned bytes of a small uncompressed message
// (written by Encoder, see TestGoldenMatchesEncoder) and explains why each
// part is what the Java side expects.
//
// Java writes the Arrow part with Arrow Java's MessageSerializer.serialize
// (ArrowWriter.serializeToOutputView → VectorUnloader(root, true, codec,
// true) → MessageSerializer.serialize with IpcOption.DEFAULT):
//   - int32 0xFFFFFFFF continuation marker, then an int32 metadata length
//     that includes the padding making prefix + flatbuffer a multiple of 8;
//   - a flatbuffer Message with version V5, header type RecordBatch, the
//     body length, and no custom metadata;
//   - the body: every buffer starts at an 8-byte aligned offset, zero
//     padding between buffers, total length a multiple of 8.
//
// Readers use only these facts: Arrow Java's MessageSerializer.readMessage
// and deserializeRecordBatch (the Fluss client, ArrowUtils.createArrowReader),
// and the tablet server's FileLogProjection, which reads the metadata length
// at offset 4, finds the body right after the metadata, and takes each
// buffer's padded length as the next buffer's offset minus its own (the
// last one ends at bodyLength). The flatbuffer itself is built by arrow-go,
// so its byte order inside the metadata need not match Java's
// FlatBufferBuilder; readers see only the decoded fields, which the test
// checks.
//
// Buffer lengths may exceed Java's exact lengths (arrow-go ships the whole
// 4-byte validity bitmap it allocated for 3 rows) and a column without
// NULLs has an empty validity buffer where Java writes ceil(n/8) bytes;
// Arrow Java's loader treats a buffer as covering at least what it needs
// and synthesises an all-valid bitmap when null_count is 0
// (BitVectorHelper.loadValidityBuffer), so both are read the same way.
func TestGoldenLayout(t *testing.T) {
	golden, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	cols := goldenColumns()
	if le.Uint32(golden) != 0xFFFFFFFF {
		t.Fatal("no continuation marker")
	}
	metaLen := int(le.Uint32(golden[4:]))
	if (8+metaLen)%8 != 0 {
		t.Fatalf("metadata length %d leaves the body unaligned", metaLen)
	}
	s, _ := Schema(cols)
	l, _ := schemaLayout(s)
	m, err := parseMessage(golden, l, Limits{}.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	if m.version != metadataV5 || m.codec != codecNone || m.rows != 3 || m.consumed != len(golden) {
		t.Fatalf("version %d codec %d rows %d consumed %d of %d", m.version, m.codec, m.rows, m.consumed, len(golden))
	}
	if len(m.body)%8 != 0 || 8+metaLen+len(m.body) != len(golden) {
		t.Fatalf("body of %d bytes", len(m.body))
	}
	// Nodes: id has one NULL, name none.
	if m.nodes[0] != (fieldNode{3, 1}) || m.nodes[1] != (fieldNode{3, 0}) {
		t.Fatalf("nodes %+v", m.nodes)
	}
	// Buffers in Arrow Java's TypeLayout order: id validity, id values,
	// name validity, name offsets, name data.
	want := []bufferSpec{{0, 4}, {8, 12}, {24, 0}, {24, 16}, {40, 7}}
	for i, b := range m.buffers {
		if b != want[i] {
			t.Fatalf("buffer %d: %+v, want %+v", i, b, want[i])
		}
		if b.offset%8 != 0 {
			t.Fatalf("buffer %d unaligned", i)
		}
	}
	body := m.body
	if body[0] != 0b101 { // rows 0 and 2 valid, LSB first
		t.Errorf("validity %08b", body[0])
	}
	if int32(le.Uint32(body[8:])) != 1 || int32(le.Uint32(body[16:])) != -7 {
		t.Error("int values")
	}
	for i, o := range []uint32{0, 1, 1, 7} {
		if le.Uint32(body[24+4*i:]) != o {
			t.Errorf("offset %d = %d, want %d", i, le.Uint32(body[24+4*i:]), o)
		}
	}
	if string(body[40:47]) != "ahéllo" {
		t.Errorf("string data %q", body[40:47])
	}
	for _, p := range [][2]int{{4, 8}, {20, 24}, {47, 48}} {
		for _, c := range body[p[0]:p[1]] {
			if c != 0 {
				t.Errorf("padding %v not zero", p)
			}
		}
	}
}

// FuzzParseMessage checks that the message validator rejects hostile
// metadata with an error and never panics.
func FuzzParseMessage(f *testing.F) {
	golden, err := os.ReadFile(goldenPath)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(golden)
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 8, 0, 0, 0, 4, 0, 0, 0, 0xfc, 0xff, 0xff, 0xff})
	s, err := Schema(goldenColumns())
	if err != nil {
		f.Fatal(err)
	}
	l, _ := schemaLayout(s)
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := parseMessage(b, l, Limits{}.withDefaults())
		if err != nil {
			return
		}
		if m.consumed > len(b) || len(m.nodes) != l.nodes || len(m.buffers) != l.buffers {
			t.Fatalf("accepted inconsistent message %+v", m)
		}
		_ = m.checkRows(s)
	})
}
