package flightsql

import (
	"context"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// wireStream is a DoGet stream that encodes each message with flightCodec,
// as gRPC does, and decodes the bytes back into FlightData, as a client
// does.
type wireStream struct {
	flight.FlightService_DoGetServer
	t    *testing.T
	sent []*flight.FlightData
	next int
}

func (w *wireStream) SendMsg(m any) error {
	bufs, err := newFlightCodec().Marshal(m)
	if err != nil {
		return err
	}
	var fd flight.FlightData
	if err := proto.Unmarshal(bufs.Materialize(), &fd); err != nil {
		w.t.Fatalf("the encoded message is not a FlightData: %v", err)
	}
	w.sent = append(w.sent, &fd)
	return nil
}

func (w *wireStream) Recv() (*flight.FlightData, error) {
	if w.next == len(w.sent) {
		return nil, io.EOF
	}
	w.next++
	return w.sent[w.next-1], nil
}

// Context is the call's context, which streamChunks watches.
func (w *wireStream) Context() context.Context { return w.t.Context() }

// ipcChunk encodes rec as the Arrow message of a Fluss log batch in
// compression c and returns it as a chunk of a passed-through batch.
func ipcChunk(t *testing.T, rec arrow.RecordBatch, c string) chunk {
	t.Helper()
	cols := []schema.Column{schema.NewColumn("id", schema.BigInt()), schema.NewColumn("s", schema.String())}
	enc, err := arrowipc.NewEncoder(cols, arrowipc.Compression{Type: c, ZstdLevel: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	payload, err := enc.AppendMessage(nil, rec)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := arrowipc.NewDecoder(cols, nil, arrowipc.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Release()
	m, err := dec.Split(payload, int(rec.NumRows()))
	if err != nil {
		t.Fatal(err)
	}
	return chunk{msg: &m}
}

// TestFlightMessagesDecode writes records and log batches' own messages
// through streamChunks and flightCodec and reads them back with
// arrow-go's Flight reader: the body written as the record's buffers is
// the IPC body a client expects, including for sliced records (offsets
// rebased) and a stream of no records (the schema message alone), and a
// passed-through message is read as its record, compressed or not.
func TestFlightMessagesDecode(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	whole := idRecord(mem, 0, 1000, 13)
	defer whole.Release()
	other := idRecord(mem, 1000, 50, 3)
	defer other.Release()
	empty := idRecord(mem, 5, 3, 0)
	defer empty.Release()
	rec := func(r arrow.RecordBatch) chunk {
		r.Retain()
		return chunk{rec: r}
	}
	for _, tc := range []struct {
		name   string
		chunks []chunk
		want   []arrow.RecordBatch
	}{
		{"none", nil, nil},
		{"whole", []chunk{rec(whole)}, []arrow.RecordBatch{whole}},
		{"slices", []chunk{{rec: whole.NewSlice(0, 1)}, {rec: whole.NewSlice(1, 700)}, {rec: whole.NewSlice(700, 1000)}}, []arrow.RecordBatch{whole}},
		{"empty strings", []chunk{rec(empty)}, []arrow.RecordBatch{empty}},
		{"zstd message between records", []chunk{rec(other), ipcChunk(t, whole, schema.CompressionZstd), rec(other)}, []arrow.RecordBatch{other, whole, other}},
		{"lz4 and plain messages", []chunk{ipcChunk(t, whole, schema.CompressionLZ4), ipcChunk(t, other, schema.CompressionNone)}, []arrow.RecordBatch{whole, other}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := &wireStream{t: t}
			ch := make(chan chunk, len(tc.chunks))
			for _, c := range tc.chunks {
				ch <- c
			}
			close(ch)
			if err := streamChunks(ws, whole.Schema(), ch, mem); err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, r := range tc.want {
				for i := range r.NumRows() {
					want = append(want, rowText(r, i))
				}
			}
			rdr, err := flight.NewRecordReader(ws)
			if err != nil {
				t.Fatal(err)
			}
			defer rdr.Release()
			if !rdr.Schema().Equal(whole.Schema()) {
				t.Fatalf("schema %s, want %s", rdr.Schema(), whole.Schema())
			}
			var got []string
			for rdr.Next() {
				rec := rdr.RecordBatch()
				for i := range rec.NumRows() {
					got = append(got, rowText(rec, i))
				}
			}
			if err := rdr.Err(); err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("read %d rows, want %d", len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("row %d = %s, want %s", i, got[i], want[i])
				}
			}
		})
	}
}

func rowText(rec arrow.RecordBatch, i int64) string {
	s := ""
	for _, c := range rec.Columns() {
		s += c.ValueStr(int(i)) + "|"
	}
	return s
}
