package flussrpc_test

import (
	"context"
	"encoding/binary"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// wtCutDialer closes a connection right after it carried a request frame
// of the chosen API, once: the server receives (and executes) the request
// but the client never sees the answer.
type wtCutDialer struct {
	api   flussrpc.APIKey
	armed atomic.Bool
	cuts  atomic.Int32
}

type wtCutConn struct {
	net.Conn
	d *wtCutDialer
}

func (d *wtCutDialer) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	var nd net.Dialer
	c, err := nd.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &wtCutConn{Conn: c, d: d}, nil
}

func (c *wtCutConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	// Every request goes out in one Write: [len][api key][version][id]...
	if err == nil && len(p) >= 6 && flussrpc.APIKey(binary.BigEndian.Uint16(p[4:])) == c.d.api && c.d.armed.CompareAndSwap(true, false) {
		c.d.cuts.Add(1)
		c.Conn.Close()
	}
	return n, err
}

// wtCountRows sums the latest offsets of every bucket.
func wtCountRows(t *testing.T, c *flussrpc.Client, tbl *flussrpc.Table) int64 {
	t.Helper()
	buckets := make([]int32, tbl.Info().NumBuckets())
	for i := range buckets {
		buckets[i] = int32(i)
	}
	offs, err := c.Admin().ListOffsets(testCtx(t), tbl.Path(), "", buckets, flussrpc.OffsetLatest())
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, o := range offs {
		n += o
	}
	return n
}

// TestAppendIdempotentRetryAfterCut: the connection dies right after a
// PRODUCE_LOG was sent, so the writer resends the same batches on a new
// connection. With idempotence the server drops the duplicates and the
// row count is exact; without, the same fault duplicates rows.
func TestAppendIdempotentRetryAfterCut(t *testing.T) {
	const n = 3000
	// The idempotent writer must store every row exactly once.
	_, tbl, got := wtCutAppend(t, true, n)
	if got != n {
		t.Fatalf("idempotent writer stored %d rows, want exactly %d", got, n)
	}
	seen := map[int64]int{}
	for _, r := range wtOurScan(t, tbl) {
		seen[r.Row[0].(int64)]++
	}
	for i := int64(0); i < n; i++ {
		if seen[i] != 1 {
			t.Fatalf("id %d stored %d times", i, seen[i])
		}
	}
	// Control: without idempotence the same fault duplicates rows (the
	// server usually, not always, executed the cut request: try 3 times).
	for try := 0; ; try++ {
		_, _, got := wtCutAppend(t, false, n)
		t.Logf("not idempotent, try %d: %d rows stored for %d appended", try, got, n)
		if got > n {
			break
		}
		if try == 2 {
			t.Fatal("the cut never duplicated rows without idempotence; is the test still cutting after the send?")
		}
	}
}

// wtCutAppend appends n rows while one PRODUCE_LOG connection is cut
// right after a send, and returns the rows stored.
func wtCutAppend(t *testing.T, idempotent bool, n int) (*flussrpc.Client, *flussrpc.Table, int64) {
	t.Helper()
	d := &wtCutDialer{api: flussrpc.APIKeyProduceLog}
	c := newClient(t, flussrpc.Config{Conn: flussrpc.ConnConfig{Dialer: d.dial}})
	db := newDatabase(t, c.Admin())
	cols := []schema.Column{schema.NewColumn("id", schema.BigInt()), schema.NewColumn("s", schema.String())}
	desc := schema.TableDescriptor{Schema: newSchema(t, cols), BucketKeys: []string{"id"}, BucketCount: intPtr(3),
		Properties: map[string]string{schema.OptLogFormat: schema.FormatCompacted}}
	tbl := createTable(t, c, db, uniqueName("cut"), desc)
	ctx := testCtx(t)
	w, err := tbl.NewAppendWriter(flussrpc.AppendOptions{WriterOptions: flussrpc.WriterOptions{
		BatchSize: 512, DisableIdempotence: !idempotent}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close(context.Background())
	for i := 0; i < n; i++ {
		if i == 100 {
			// Writer id, leaders and connections are in place now.
			if err := w.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			d.armed.Store(true)
		}
		if _, err := w.Append(ctx, []any{int64(i), "some text to fill batches"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(ctx); err != nil {
		t.Fatalf("Flush after the cut: %v", err)
	}
	if d.cuts.Load() != 1 {
		t.Fatalf("%d connections cut, want 1", d.cuts.Load())
	}
	return c, tbl, wtCountRows(t, c, tbl)
}

// TestWriterFlushAndLinger: nothing is sent before the batch timeout
// unless Flush asks; Flush returns once everything is acknowledged; a
// short batch timeout sends without Flush.
func TestWriterFlushAndLinger(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	cols := []schema.Column{schema.NewColumn("id", schema.BigInt()), schema.NewColumn("s", schema.String())}
	desc := schema.TableDescriptor{Schema: newSchema(t, cols), BucketCount: intPtr(3),
		Properties: map[string]string{schema.OptLogFormat: schema.FormatIndexed}}
	tbl := createTable(t, c, db, uniqueName("fl"), desc)
	ctx := testCtx(t)
	w, err := tbl.NewAppendWriter(flussrpc.AppendOptions{WriterOptions: flussrpc.WriterOptions{BatchTimeout: time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(ctx); err != nil {
		t.Fatalf("Flush of nothing: %v", err)
	}
	var res []flussrpc.WriteResult
	for i := 0; i < 50; i++ {
		r, err := w.Append(ctx, []any{int64(i), "x"})
		if err != nil {
			t.Fatal(err)
		}
		res = append(res, r)
	}
	time.Sleep(300 * time.Millisecond)
	if n := wtCountRows(t, c, tbl); n != 0 {
		t.Fatalf("%d rows visible before Flush with a one-hour batch timeout", n)
	}
	select {
	case <-res[0].Done():
		t.Fatal("row acknowledged before it was sent")
	default:
	}
	start := time.Now()
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Flush took %s", d)
	}
	for i, r := range res {
		select {
		case <-r.Done():
		default:
			t.Fatalf("row %d not done after Flush", i)
		}
	}
	if n := wtCountRows(t, c, tbl); n != 50 {
		t.Fatalf("%d rows after Flush, want 50", n)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Append(ctx, []any{int64(1), "x"}); !errors.Is(err, flussrpc.ErrWriterClosed) {
		t.Fatalf("Append after Close: %v", err)
	}

	// Batch timeout 20ms: rows go out without Flush.
	w2, err := tbl.NewAppendWriter(flussrpc.AppendOptions{WriterOptions: flussrpc.WriterOptions{BatchTimeout: 20 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer w2.Close(ctx)
	r, err := w2.Append(ctx, []any{int64(99), "lingered"})
	if err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := r.Wait(wctx); err != nil {
		t.Fatalf("row with a 20ms batch timeout: %v", err)
	}
}

// TestWriterBufferFullCancel: with the buffer memory used up by rows the
// server has not acknowledged, Append blocks and returns when its context
// ends; once replies flow again everything accepted is written.
func TestWriterBufferFullCancel(t *testing.T) {
	d := &faultDialer{}
	c := newClient(t, flussrpc.Config{Conn: flussrpc.ConnConfig{Dialer: d.dial}})
	db := newDatabase(t, c.Admin())
	cols := []schema.Column{schema.NewColumn("id", schema.BigInt()), schema.NewColumn("s", schema.String())}
	desc := schema.TableDescriptor{Schema: newSchema(t, cols), BucketCount: intPtr(2),
		Properties: map[string]string{schema.OptLogFormat: schema.FormatCompacted}}
	tbl := createTable(t, c, db, uniqueName("mem"), desc)
	ctx := testCtx(t)
	w, err := tbl.NewAppendWriter(flussrpc.AppendOptions{WriterOptions: flussrpc.WriterOptions{
		BatchSize: 1024, BufferMemory: 16 << 10}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close(context.Background())
	if _, err := w.Append(ctx, []any{int64(-1), "warm-up"}); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	d.mu.Lock()
	held := append([]*faultConn(nil), d.conns...)
	for _, fc := range held {
		fc.holdReads.Store(true)
	}
	d.mu.Unlock()
	var once sync.Once
	release := func() {
		once.Do(func() {
			for _, fc := range held {
				fc.release()
			}
		})
	}
	t.Cleanup(release)

	accepted := 1
	var blockErr error
	var blockedFor time.Duration
	for i := 0; i < 100000 && blockErr == nil; i++ {
		actx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
		start := time.Now()
		_, err := w.Append(actx, []any{int64(i), "0123456789012345678901234567890123456789"})
		cancel()
		if err != nil {
			blockErr, blockedFor = err, time.Since(start)
			break
		}
		accepted++
	}
	if !errors.Is(blockErr, context.DeadlineExceeded) {
		t.Fatalf("Append with a full buffer: %v after %d rows", blockErr, accepted)
	}
	if blockedFor < 250*time.Millisecond || blockedFor > 3*time.Second {
		t.Fatalf("Append returned after %s, want about the 300ms context", blockedFor)
	}
	if accepted > 2000 {
		t.Fatalf("%d rows of ~60 bytes accepted into a 16 KiB buffer", accepted)
	}
	release()
	if err := w.Flush(ctx); err != nil {
		t.Fatalf("Flush after release: %v", err)
	}
	if n := wtCountRows(t, c, tbl); n != int64(accepted) {
		t.Fatalf("%d rows stored, %d accepted", n, accepted)
	}
}

// TestUpsertIdempotentRetryAfterCut: the same for PUT_KV. Re-applying an
// insert batch would turn its +I records into -U/+U pairs, so the
// changelog must hold exactly one +I per key and nothing else.
func TestUpsertIdempotentRetryAfterCut(t *testing.T) {
	d := &wtCutDialer{api: flussrpc.APIKeyPutKV}
	c := newClient(t, flussrpc.Config{Conn: flussrpc.ConnConfig{Dialer: d.dial}})
	db := newDatabase(t, c.Admin())
	cols := []schema.Column{schema.NewColumn("id", schema.BigInt().NotNull()), schema.NewColumn("s", schema.String())}
	tbl := createTable(t, c, db, uniqueName("cutkv"), schema.TableDescriptor{Schema: newSchema(t, cols, "id"), BucketCount: intPtr(3)})
	ctx := testCtx(t)
	w, err := tbl.NewUpsertWriter(flussrpc.UpsertOptions{WriterOptions: flussrpc.WriterOptions{BatchSize: 512}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close(context.Background())
	const n = 2000
	for i := 0; i < n; i++ {
		if i == 100 {
			if err := w.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			d.armed.Store(true)
		}
		if _, err := w.Upsert(ctx, []any{int64(i), "some text to fill batches"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(ctx); err != nil {
		t.Fatalf("Flush after the cut: %v", err)
	}
	if d.cuts.Load() != 1 {
		t.Fatalf("%d connections cut, want 1", d.cuts.Load())
	}
	recs := wtOurScan(t, tbl)
	if len(recs) != n {
		t.Fatalf("changelog has %d records for %d new keys", len(recs), n)
	}
	for _, r := range recs {
		if r.ChangeType != codec.Insert {
			t.Fatalf("changelog record %v for key %v", r.ChangeType, r.Row[0])
		}
	}
}
