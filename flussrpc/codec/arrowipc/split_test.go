package arrowipc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// ipcStream frames a Schema message and the parts of a split message as
// an Arrow IPC stream, byte by byte as the format defines it, so that an
// independent reader checks what Split hands out.
func ipcStream(t *testing.T, sc *arrow.Schema, m Message) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(sc))
	if err := w.Close(); err != nil { // the Schema message, then end of stream
		t.Fatal(err)
	}
	eos := []byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0}
	out, ok := bytes.CutSuffix(buf.Bytes(), eos)
	if !ok {
		t.Fatalf("stream does not end with an end-of-stream marker: % x", buf.Bytes())
	}
	out = binary.LittleEndian.AppendUint32(out, continuationMarker)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(m.Metadata)))
	out = append(out, m.Metadata...)
	out = append(out, m.Body...)
	return append(out, eos...)
}

func TestSplitReadsBackAsDecode(t *testing.T) {
	cols := allTypeColumns()
	rows := allTypeRows(t)
	for _, c := range allCompressions {
		t.Run(c.Type, func(t *testing.T) {
			payload := encodeRows(t, cols, c, nil, rows)
			dec, err := NewDecoder(cols, nil, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			defer dec.Release()
			m, err := dec.Split(payload, len(rows))
			if err != nil {
				t.Fatal(err)
			}
			if m.Compression != c.Type {
				t.Errorf("compression %q, want %q", m.Compression, c.Type)
			}
			// 8 + metadata must keep the body 8-byte aligned; the body
			// is a whole number of 8-byte words.
			if len(m.Metadata)%8 != 0 || len(m.Body)%8 != 0 {
				t.Errorf("metadata %d and body %d bytes: not 8-byte multiples", len(m.Metadata), len(m.Body))
			}
			if 8+len(m.Metadata)+len(m.Body) != len(payload) {
				t.Errorf("parts of %d+%d bytes from a payload of %d", len(m.Metadata), len(m.Body), len(payload))
			}
			want, err := dec.Decode(payload, len(rows))
			if err != nil {
				t.Fatal(err)
			}
			defer want.Release()
			rd, err := ipc.NewReader(bytes.NewReader(ipcStream(t, dec.Schema(), m)), ipc.WithAllocator(memory.DefaultAllocator))
			if err != nil {
				t.Fatal(err)
			}
			defer rd.Release()
			if !rd.Next() {
				t.Fatalf("no record: %v", rd.Err())
			}
			// allTypeRows holds a NaN: compare NaNs as equal.
			if got := rd.RecordBatch(); !array.RecordApproxEqual(got, want, array.WithNaNsEqual(true)) {
				t.Fatalf("read back\n%v\nwant\n%v", got, want)
			}
			if rd.Next() {
				t.Fatal("a second record")
			}
		})
	}
}

func TestSplitRefuses(t *testing.T) {
	cols := fuzzSchemas()[1]
	rows := [][]any{{int32(1), "a"}, {nil, ""}}
	payload := encodeRows(t, cols, allCompressions[2], nil, rows)
	dec, err := NewDecoder(cols, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Release()
	for _, tc := range []struct {
		name    string
		payload []byte
		count   int
	}{
		{"no records", payload, 0},
		{"wrong count", payload, 3},
		{"truncated", payload[:len(payload)-8], 2},
		{"other schema", encodeRows(t, fuzzSchemas()[0][:1], allCompressions[0], nil, [][]any{{true}, {false}}), 2},
	} {
		if _, err := dec.Split(tc.payload, tc.count); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v, want ErrCorrupt", tc.name, err)
		}
	}
}
