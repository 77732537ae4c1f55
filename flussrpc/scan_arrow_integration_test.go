package flussrpc_test

import (
	"errors"
	"io"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// PollArrow returns the same records as Poll, as Arrow batches with the
// projected columns in the requested order, for every log format.
func TestScanPollArrow(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	for _, format := range scanFormats() {
		t.Run(format, func(t *testing.T) {
			tbl := scanLogTable(t, c, db, format, 2, false)
			rows := appendRounds(t, tbl)
			got, want, _ := scanArrowBatches(t, tbl, []string{"c_row", "id", "c_ts9", "c_dec38", "c_map", "c_str"}, nil, rows)
			sameRowSet(t, "PollArrow rows", got, want)
		})
	}
}

// PollArrowIPC hands out whole batches whose message holds the scan's
// columns in order as their own IPC message, which an Arrow IPC reader
// reads as the records PollArrow decodes; other batches (a cut first
// batch, a reordering projection, a compression the caller refused) come
// as records.
func TestScanPollArrowIPC(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	for _, comp := range []string{schema.CompressionZstd, schema.CompressionNone} {
		t.Run(comp, func(t *testing.T) {
			cols := append([]schema.Column{schema.NewColumn("id", schema.BigInt())}, scanAllTypeColumns()...)
			tbl := createTable(t, c, db, uniqueName("ipc_"), schema.TableDescriptor{
				BucketCount: intPtr(2),
				Properties:  map[string]string{schema.OptArrowCompressionType: comp},
				Schema:      newSchema(t, cols),
			})
			rows := appendRounds(t, tbl)
			for _, tc := range []struct {
				name         string
				cols         []string
				compressions []string
				asIs         bool // whole batches come as IPC messages
			}{
				{"all columns", nil, []string{comp}, true},
				{"columns in table order", []string{"id", "c_str", "c_dec38", "c_ts9", "c_map", "c_row"}, []string{comp}, true},
				{"reordered columns", []string{"c_row", "id", "c_str"}, []string{comp}, false},
				{"compression refused", nil, []string{schema.CompressionLZ4}, comp == schema.CompressionNone},
			} {
				t.Run(tc.name, func(t *testing.T) {
					got, want, ipcs := scanArrowBatches(t, tbl, tc.cols, &flussrpc.ArrowIPCOptions{Compressions: tc.compressions}, rows)
					if (ipcs > 0) != tc.asIs {
						t.Fatalf("%d batches came as IPC messages, want some: %v", ipcs, tc.asIs)
					}
					sameRowSet(t, "PollArrowIPC rows", got, want)
				})
			}
		})
	}
}

// scanArrowBatches reads the table's two buckets with PollArrow (or
// PollArrowIPC with opts, reading IPC messages with an Arrow IPC reader),
// bucket 0 from offset 1 (inside its first batch), checking that batches
// follow each other and have the projection's schema. It returns the
// rows, the rows of the table's rows expected and how many batches came
// as messages.
func scanArrowBatches(t *testing.T, tbl *flussrpc.Table, cols []string, opts *flussrpc.ArrowIPCOptions, rows [][]any) (got, want [][]any, ipcs int) {
	t.Helper()
	ctx := testCtx(t)
	sc := tbl.Info().Descriptor.Schema
	idx := make([]int, len(sc.Columns))
	for i := range idx {
		idx[i] = i
	}
	if cols != nil {
		idx, _ = sc.ColumnIndexes(cols)
	}
	var outCols []schema.Column
	for _, i := range idx {
		outCols = append(outCols, sc.Columns[i])
	}
	dec, err := arrowipc.NewDecoder(outCols, nil, arrowipc.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Release()
	s, err := tbl.NewLogScanner(flussrpc.LogScanOptions{Columns: cols, Bounded: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Subscribe(ctx, 0, flussrpc.ScanFromOffset(1)); err != nil {
		t.Fatal(err)
	}
	if err := s.Subscribe(ctx, 1, flussrpc.ScanFromEarliest()); err != nil {
		t.Fatal(err)
	}
	next := map[int32]int64{0: 1, 1: 0}
	for {
		var batches []flussrpc.ArrowScanBatch
		var err error
		if opts == nil {
			batches, err = s.PollArrow(ctx, 5*time.Second)
		} else {
			batches, err = s.PollArrowIPC(ctx, 5*time.Second, *opts)
		}
		for _, b := range batches {
			rec := b.Record
			if b.IPC != nil {
				if rec != nil {
					t.Fatal("a batch with both a record and an IPC message")
				}
				ipcs++
				rec = readIPC(t, dec.Schema(), b.IPC)
			}
			if b.BaseOffset != next[b.Bucket] || b.LastOffset-b.BaseOffset+1 != rec.NumRows() {
				t.Fatalf("bucket %d batch %d..%d (%d rows), expected to start at %d", b.Bucket, b.BaseOffset, b.LastOffset, rec.NumRows(), next[b.Bucket])
			}
			next[b.Bucket] = b.LastOffset + 1
			if b.ChangeTypes != nil {
				t.Fatalf("change types %v for a log table", b.ChangeTypes)
			}
			if !rec.Schema().Equal(dec.Schema()) {
				t.Fatalf("record schema %v, want %v", rec.Schema(), dec.Schema())
			}
			if got, err = dec.AppendRows(got, rec); err != nil {
				t.Fatal(err)
			}
			rec.Release()
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	// ScanTestAppend puts row i of a call into bucket i%2: rows[0] is
	// offset 0 of bucket 0.
	for _, r := range rows[1:] {
		p := make([]any, len(idx))
		for j, x := range idx {
			p[j] = r[x]
		}
		want = append(want, p)
	}
	return got, want, ipcs
}

// readIPC reads a message as an Arrow IPC stream reader (and a Flight
// client) would: after a Schema message, the metadata and body as they are.
func readIPC(t *testing.T, sc *arrow.Schema, m *arrowipc.Message) arrow.RecordBatch {
	t.Helper()
	p := ipc.GetSchemaPayload(sc, memory.DefaultAllocator)
	schemaMeta := p.Meta()
	msgs := &messageList{msgs: []*ipc.Message{
		ipc.NewMessage(schemaMeta, memory.NewBufferBytes(nil)),
		ipc.NewMessage(memory.NewBufferBytes(m.Metadata), memory.NewBufferBytes(m.Body)),
	}}
	rd, err := ipc.NewReaderFromMessageReader(msgs)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Release()
	if !rd.Next() {
		t.Fatalf("no record in the IPC message: %v", rd.Err())
	}
	rec := rd.RecordBatch()
	rec.Retain()
	return rec
}

// messageList is an ipc.MessageReader of a list of messages.
type messageList struct{ msgs []*ipc.Message }

func (l *messageList) Message() (*ipc.Message, error) {
	if len(l.msgs) == 0 {
		return nil, io.EOF
	}
	m := l.msgs[0]
	l.msgs = l.msgs[1:]
	return m, nil
}

func (l *messageList) Retain()  {}
func (l *messageList) Release() {}

// appendRounds appends three batches of 8 rows to each of the table's
// two buckets (id, then the values of scanAllTypeColumns) and returns
// the rows.
func appendRounds(t *testing.T, tbl *flussrpc.Table) [][]any {
	t.Helper()
	enc := scanTestEncoder(t, tbl)
	ctx := testCtx(t)
	var rows [][]any
	for round := 0; round < 3; round++ {
		var batch [][]any
		for i := 0; i < 8; i++ {
			batch = append(batch, append([]any{int64(round*8 + i)}, scanAllTypeValues(t, i)...))
		}
		if _, _, err := flussrpc.ScanTestAppend(ctx, tbl, enc, batch); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, batch...)
	}
	return rows
}
