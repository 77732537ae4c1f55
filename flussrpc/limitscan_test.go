package flussrpc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/pb"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/fakefluss"
)

// SCAN_KV against a scripted 1.x-like server (0.9.1 has no SCAN_KV, so
// the real cluster can only show ErrKVScanUnsupported).
func TestKVScannerScripted(t *testing.T) {
	f := newFakeCluster(t, 1, APIKeyScanKV)
	s, err := schema.NewSchema([]schema.Column{schema.NewColumn("k", schema.Int()), schema.NewColumn("v", schema.String())}, []string{"k"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 1
	tbl := f.table(schema.TableDescriptor{Schema: s, BucketCount: &n})
	ctx := context.Background()
	sc, err := tbl.NewKVScanner(ctx, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	enc, _ := codec.NewCompactedEncoder(s.Types())
	batch := func(keys ...int32) []byte {
		var recs []codec.ValueRecord
		for _, k := range keys {
			row, _ := enc.Encode([]any{k, "v"})
			recs = append(recs, codec.ValueRecord{SchemaID: 1, Row: row})
		}
		return codec.BuildValueBatch(nil, recs)
	}
	type res struct {
		rows [][]any
		err  error
	}
	next := func() chan res {
		ch := make(chan res, 1)
		go func() {
			rows, err := sc.Next(ctx)
			ch <- res{rows, err}
		}()
		return ch
	}
	ch := next()
	r := f.Next()
	var req pb.ScanKvRequest
	_ = r.Decode(&req)
	if req.GetBucketScanReq().GetTableId() != f.tableID || req.GetCallSeqId() != 0 || req.ScannerId != nil {
		t.Fatalf("open request %v", &req)
	}
	r.Reply(&pb.ScanKvResponse{ScannerId: []byte("s1"), HasMoreResults: proto.Bool(true), Records: batch(1, 2)})
	if got := <-ch; got.err != nil || len(got.rows) != 2 || got.rows[1][0] != int32(2) {
		t.Fatalf("first batch %v, %v", got.rows, got.err)
	}
	ch = next()
	r = f.Next()
	req.Reset()
	_ = r.Decode(&req)
	if string(req.GetScannerId()) != "s1" || req.GetCallSeqId() != 1 || req.BucketScanReq != nil {
		t.Fatalf("continue request %v", &req)
	}
	r.Reply(&pb.ScanKvResponse{ScannerId: []byte("s1"), HasMoreResults: proto.Bool(false), Records: batch(3)})
	if got := <-ch; got.err != nil || len(got.rows) != 1 {
		t.Fatalf("last batch %v, %v", got.rows, got.err)
	}
	if _, err := sc.Next(ctx); !errors.Is(err, io.EOF) {
		t.Fatalf("after the end: %v", err)
	}
	if err := sc.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestKVScannerUnsupported(t *testing.T) {
	f := newFakeCluster(t, 1) // SCAN_KV not advertised, as on 0.9.1
	s, _ := schema.NewSchema([]schema.Column{schema.NewColumn("k", schema.Int())}, []string{"k"}, nil)
	n := 1
	tbl := f.table(schema.TableDescriptor{Schema: s, BucketCount: &n})
	if _, err := tbl.NewKVScanner(context.Background(), "", 0); !errors.Is(err, ErrKVScanUnsupported) {
		t.Fatalf("NewKVScanner: %v", err)
	}
}

// ScanTable runs the LIMIT_SCANs of several buckets at once and still
// returns their rows bucket by bucket, whatever order the answers come in;
// Close cancels those still running.
func TestScanTableRunsAhead(t *testing.T) {
	const buckets = 5
	f := newFakeCluster(t, buckets, APIKeyLimitScan)
	s, err := schema.NewSchema([]schema.Column{schema.NewColumn("k", schema.Int()), schema.NewColumn("v", schema.String())}, []string{"k"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := buckets
	tbl := f.table(schema.TableDescriptor{Schema: s, BucketCount: &n})
	enc, _ := codec.NewCompactedEncoder(s.Types())
	reply := func(r fakefluss.Request) {
		var req pb.LimitScanRequest
		if err := r.Decode(&req); err != nil {
			t.Fatal(err)
		}
		b := req.GetBucketId()
		var recs []codec.ValueRecord
		for k := range 2 {
			row, _ := enc.Encode([]any{b*10 + int32(k), "v"})
			recs = append(recs, codec.ValueRecord{SchemaID: 1, Row: bytes.Clone(row)}) // the encoder reuses its buffer
		}
		r.Reply(&pb.LimitScanResponse{Records: codec.BuildValueBatch(nil, recs)})
	}
	sc := tbl.ScanTable([]string{""}, 1000)
	defer sc.Close()
	ctx := context.Background()
	type res struct {
		rows [][]any
		err  error
	}
	first := make(chan res, 1)
	go func() {
		rows, err := sc.Next(ctx)
		first <- res{rows, err}
	}()
	// limitScanAhead requests are out before any is answered; answered
	// last to first.
	var reqs []fakefluss.Request
	for range limitScanAhead {
		reqs = append(reqs, f.Next())
	}
	f.ExpectNone(50 * time.Millisecond)
	for i := len(reqs) - 1; i >= 0; i-- {
		reply(reqs[i])
	}
	var keys []int32
	r := <-first
	for b := 0; ; b++ {
		if r.err != nil {
			t.Fatalf("bucket %d: %v", b, r.err)
		}
		for _, row := range r.rows {
			keys = append(keys, row[0].(int32))
		}
		if b == buckets-1 {
			break
		}
		next := make(chan res, 1)
		go func() {
			rows, err := sc.Next(ctx)
			next <- res{rows, err}
		}()
		// Taking bucket b+1 starts the request of bucket b+1+limitScanAhead-1.
		if b+limitScanAhead < buckets {
			reply(f.Next())
		}
		r = <-next
	}
	want := []int32{0, 1, 10, 11, 20, 21, 30, 31, 40, 41}
	if fmt.Sprint(keys) != fmt.Sprint(want) {
		t.Errorf("keys %v, want %v in bucket order", keys, want)
	}
	if _, err := sc.Next(ctx); !errors.Is(err, io.EOF) {
		t.Errorf("after the last bucket: %v", err)
	}
}

// Close while LIMIT_SCANs run ahead cancels them: nothing waits for
// their answers.
func TestScanTableCloseCancelsAhead(t *testing.T) {
	f := newFakeCluster(t, 4, APIKeyLimitScan)
	s, _ := schema.NewSchema([]schema.Column{schema.NewColumn("k", schema.Int())}, []string{"k"}, nil)
	n := 4
	tbl := f.table(schema.TableDescriptor{Schema: s, BucketCount: &n})
	sc := tbl.ScanTable([]string{""}, 1000)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := sc.Next(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Next without answers: %v", err)
	}
	for range limitScanAhead {
		f.Next()
	}
	sc.Close()
	if len(sc.pending) != 0 {
		t.Errorf("%d LIMIT_SCANs still pending after Close", len(sc.pending))
	}
}
