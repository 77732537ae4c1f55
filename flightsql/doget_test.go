package flightsql

import (
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/protobuf/proto"
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

// TestFlightMessagesDecode writes records through payloadSender and
// flightCodec and reads them back with arrow-go's Flight reader: the body
// written as the record's buffers is the IPC body a client expects,
// including for sliced records (offsets rebased) and a stream of no
// records (the schema message alone).
func TestFlightMessagesDecode(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	whole := idRecord(mem, 0, 1000, 13)
	defer whole.Release()
	for _, tc := range []struct {
		name string
		recs []arrow.RecordBatch
	}{
		{"none", nil},
		{"whole", []arrow.RecordBatch{whole}},
		{"slices", []arrow.RecordBatch{whole.NewSlice(0, 1), whole.NewSlice(1, 700), whole.NewSlice(700, 1000)}},
		{"empty strings", []arrow.RecordBatch{idRecord(mem, 5, 3, 0)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := &wireStream{t: t}
			w := ipc.NewWriterWithPayloadWriter(&payloadSender{stream: ws}, ipc.WithSchema(whole.Schema()), ipc.WithAllocator(mem))
			var want []string
			for _, rec := range tc.recs {
				if err := w.Write(rec); err != nil {
					t.Fatal(err)
				}
				for i := range rec.NumRows() {
					want = append(want, rowText(rec, i))
				}
				rec.Release()
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
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
