package flussrpc

import (
	"context"
	"errors"
	"io"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/pb"
	"github.com/gofluss/fluss/flussrpc/schema"
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
