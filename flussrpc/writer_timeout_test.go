package flussrpc

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/fakefluss"
)

// Timeouts mean what they say: a bucket without leader neither stalls the
// writer's other buckets nor holds its rows (or a Flush without deadline)
// for ever, and its errors name the table, the bucket and the cause.

// answerWrites acknowledges every bucket of PRODUCE_LOG and PUT_KV
// requests and reports the buckets it saw, until ctx ends.
func answerWrites(ctx context.Context, f *fakeCluster, buckets chan<- int32) {
	for {
		var r fakefluss.Request
		select {
		case r = <-f.Forwarded():
		case <-ctx.Done():
			return
		}
		switch APIKey(r.API) {
		case APIKeyProduceLog:
			var req pb.ProduceLogRequest
			_ = r.Decode(&req)
			resp := &pb.ProduceLogResponse{}
			for _, b := range req.GetBucketsReq() {
				buckets <- b.GetBucketId()
				resp.BucketsResp = append(resp.BucketsResp, &pb.PbProduceLogRespForBucket{BucketId: proto.Int32(b.GetBucketId()), BaseOffset: proto.Int64(0)})
			}
			r.Reply(resp)
		case APIKeyPutKV:
			var req pb.PutKvRequest
			_ = r.Decode(&req)
			resp := &pb.PutKvResponse{}
			for _, b := range req.GetBucketsReq() {
				buckets <- b.GetBucketId()
				resp.BucketsResp = append(resp.BucketsResp, &pb.PbPutKvRespForBucket{BucketId: proto.Int32(b.GetBucketId())})
			}
			r.Reply(resp)
		}
	}
}

func TestWriterLeaderlessBucket(t *testing.T) {
	cols := []schema.Column{schema.NewColumn("id", schema.BigInt().NotNull())}
	opts := WriterOptions{DisableIdempotence: true, BatchTimeout: 5 * time.Millisecond, DeliveryTimeout: 200 * time.Millisecond, NoKeyAssigner: AssignerRoundRobin}
	for _, kv := range []bool{false, true} {
		name := map[bool]string{false: "append", true: "upsert"}[kv]
		t.Run(name, func(t *testing.T) {
			f := newFakeCluster(t, 2, APIKeyProduceLog, APIKeyPutKV)
			f.SetLeaderless(0)
			var pk []string
			if kv {
				pk = []string{"id"}
			}
			s, err := schema.NewSchema(cols, pk, nil)
			if err != nil {
				t.Fatal(err)
			}
			desc := schema.TableDescriptor{Schema: s, BucketCount: new(2)}
			if kv {
				desc.BucketKeys = []string{"id"}
			}
			tbl := f.table(desc)
			write, flush, closeW := wtTestWriter(t, tbl, kv, opts)
			defer closeW()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			seen := make(chan int32, 64)
			go answerWrites(ctx, f, seen)

			var results []WriteResult
			for i := range 16 {
				r, err := write(ctx, []any{int64(i)})
				if err != nil {
					t.Fatal(err)
				}
				results = append(results, r)
			}
			// Bucket 1 is written while bucket 0 waits for a leader.
			select {
			case b := <-seen:
				if b != 1 {
					t.Fatalf("a request carried bucket %d, which has no leader", b)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("the bucket with a leader was not written: the leaderless one stalls the writer")
			}
			// Flush without deadline returns at the delivery timeout.
			done := make(chan error, 1)
			go func() { done <- flush(context.Background()) }()
			err = waitErr(t, done)
			var fe *FlushError
			if !errors.As(err, &fe) || fe.FailedRecords == 0 || fe.FailedRecords == len(results) {
				t.Fatalf("Flush: %v, want some records (those of bucket 0) failed", err)
			}
			var failed, acked int
			for _, r := range results {
				err := r.Wait(ctx)
				if err == nil {
					acked++
					continue
				}
				failed++
				var we *WriteError
				if !errors.As(err, &we) || we.Bucket != 0 || !errors.Is(err, ErrLeaderNotAvailable) || !IsRetriable(err) {
					t.Fatalf("row error %v, want a retriable LEADER_NOT_AVAILABLE WriteError of bucket 0", err)
				}
				for _, want := range []string{"db.t", "bucket 0", "LEADER_NOT_AVAILABLE", "delivery timeout"} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("error %q does not say %q", err, want)
					}
				}
			}
			if failed != fe.FailedRecords || acked == 0 {
				t.Fatalf("%d rows failed, %d acknowledged; Flush counted %d failed", failed, acked, fe.FailedRecords)
			}
		})
	}
}

// wtTestWriter returns the write, flush and close functions of a new
// append (kv false) or upsert writer of tbl.
func wtTestWriter(t *testing.T, tbl *Table, kv bool, opts WriterOptions) (func(context.Context, []any) (WriteResult, error), func(context.Context) error, func()) {
	t.Helper()
	closeCtx := func() context.Context {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		t.Cleanup(cancel)
		return ctx
	}
	if kv {
		w, err := tbl.NewUpsertWriter(UpsertOptions{WriterOptions: opts})
		if err != nil {
			t.Fatal(err)
		}
		return w.Upsert, w.Flush, func() { _ = w.Close(closeCtx()) }
	}
	w, err := tbl.NewAppendWriter(AppendOptions{WriterOptions: opts})
	if err != nil {
		t.Fatal(err)
	}
	return w.Append, w.Flush, func() { _ = w.Close(closeCtx()) }
}

// TestLookupLeaderlessEndsWithinRequestTimeout: a lookup without deadline
// on a bucket without leader ends at the client's request timeout, with an
// error naming the bucket and the cause.
func TestLookupLeaderlessEndsWithinRequestTimeout(t *testing.T) {
	f := newFakeCluster(t, 1, APIKeyLookup)
	f.SetLeaderless(0)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := NewClient(ctx, Config{Bootstrap: []string{f.Bootstrap()}, RequestTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	f.c = c
	s, err := schema.NewSchema([]schema.Column{schema.NewColumn("id", schema.BigInt().NotNull())}, []string{"id"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	l, err := f.table(schema.TableDescriptor{Schema: s, BucketKeys: []string{"id"}, BucketCount: new(1)}).NewLookuper()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, _, err := l.Lookup(context.Background(), []any{int64(1)})
		done <- err
	}()
	err = waitErr(t, done)
	if !errors.Is(err, ErrLeaderNotAvailable) {
		t.Fatalf("Lookup: %v, want LEADER_NOT_AVAILABLE", err)
	}
	for _, want := range []string{"bucket 0 of db.t", "deadline"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}
