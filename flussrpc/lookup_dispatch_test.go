package flussrpc

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/fakefluss"
)

// lookupReply answers a LOOKUP by echoing each key as its value (prefixed
// with schema id 1), or with code for every bucket when code != 0.
func lookupReply(t *testing.T, r fakefluss.Request, code int32) int {
	t.Helper()
	var req pb.LookupRequest
	if err := r.Decode(&req); err != nil {
		t.Fatal(err)
	}
	resp := &pb.LookupResponse{}
	keys := 0
	for _, b := range req.GetBucketsReq() {
		br := &pb.PbLookupRespForBucket{BucketId: proto.Int32(b.GetBucketId())}
		if code != 0 {
			br.ErrorCode = proto.Int32(code)
			br.ErrorMessage = proto.String("injected")
		} else {
			for _, k := range b.GetKeys() {
				keys++
				if string(k) == "missing" {
					br.Values = append(br.Values, &pb.PbValue{})
					continue
				}
				br.Values = append(br.Values, &pb.PbValue{Values: append([]byte{1, 0}, k...)})
			}
		}
		resp.BucketsResp = append(resp.BucketsResp, br)
	}
	r.Reply(resp)
	return keys
}

func newTestCall(ctx context.Context, f *fakeCluster, bucket int32, key string) *lookupCall {
	return &lookupCall{ctx: ctx, path: PhysicalPath{TablePath: f.path}, bucket: bucket, key: []byte(key), retry: *newRetrier(), done: make(chan struct{})}
}

// A lone lookup is sent at once; lookups arriving while it is in flight
// wait for it and leave together in one request, grouped by bucket.
func TestLookupDispatchCoalescesWithoutLinger(t *testing.T) {
	f := newFakeCluster(t, 2, APIKeyLookup)
	d := newLookupDispatcher(f.c, lookupPoint, TablePath{}, f.tableID, LookupOptions{})
	ctx := context.Background()
	first := newTestCall(ctx, f, 0, "k0")
	start := time.Now()
	d.submit(first)
	r := f.Next()
	if time.Since(start) > 500*time.Millisecond {
		t.Fatalf("lone lookup waited %v before being sent", time.Since(start))
	}
	var calls []*lookupCall
	for i := 1; i <= 20; i++ {
		c := newTestCall(ctx, f, int32(i%2), fmt.Sprintf("k%d", i))
		calls = append(calls, c)
		go d.submit(c)
	}
	waitPending(t, d, len(calls))
	f.ExpectNone(50 * time.Millisecond) // nothing more while the first is in flight
	if n := lookupReply(t, r, 0); n != 1 {
		t.Fatalf("first request carried %d keys", n)
	}
	if err := first.wait(ctx); err != nil || string(first.value) != "\x01\x00k0" {
		t.Fatalf("first lookup: %q, %v", first.value, err)
	}
	r = f.Next()
	var req pb.LookupRequest
	_ = r.Decode(&req)
	if len(req.GetBucketsReq()) != 2 {
		t.Fatalf("coalesced request has %d bucket entries, want 2", len(req.GetBucketsReq()))
	}
	if n := lookupReply(t, r, 0); n != 20 {
		t.Fatalf("coalesced request carried %d keys, want 20", n)
	}
	for i, c := range calls {
		if err := c.wait(ctx); err != nil || string(c.value) != fmt.Sprintf("\x01\x00k%d", i+1) {
			t.Fatalf("lookup %d: %q, %v", i+1, c.value, err)
		}
	}
	f.ExpectNone(50 * time.Millisecond)
}

// waitPending waits until n lookups are queued in d: they are submitted
// from goroutines, which a busy machine may start late.
func waitPending(t *testing.T, d *lookupDispatcher, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		d.mu.Lock()
		queued := 0
		for _, q := range d.queues {
			queued += len(q.pending)
		}
		d.mu.Unlock()
		if queued == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d lookups queued, want %d", queued, n)
		}
	}
}

// Retriable per-bucket errors are retried after refreshing the route;
// missing values are reported as not found.
func TestLookupDispatchRetriesStaleRouting(t *testing.T) {
	f := newFakeCluster(t, 1, APIKeyLookup)
	d := newLookupDispatcher(f.c, lookupPoint, TablePath{}, f.tableID, LookupOptions{})
	ctx := context.Background()
	c1, c2 := newTestCall(ctx, f, 0, "a"), newTestCall(ctx, f, 0, "missing")
	d.submit(c1)
	r := f.Next()
	d.submit(c2)
	before := f.metadataRequests()
	lookupReply(t, r, int32(CodeNotLeaderOrFollower))
	// c2 (queued meanwhile) goes out at once; c1 after its back-off.
	for n := 0; n < 2; {
		n += lookupReply(t, f.Next(), 0)
	}
	if err := c1.wait(ctx); err != nil || string(c1.value) != "\x01\x00a" {
		t.Fatalf("retried lookup: %q, %v", c1.value, err)
	}
	if err := c2.wait(ctx); err != nil || c2.value != nil {
		t.Fatalf("missing key: %q, %v", c2.value, err)
	}
	if f.metadataRequests() == before {
		t.Fatal("NOT_LEADER_OR_FOLLOWER did not refresh the route")
	}
	// A non-retriable error fails the lookup.
	c3 := newTestCall(ctx, f, 0, "b")
	d.submit(c3)
	lookupReply(t, f.Next(), int32(CodeTableNotExist))
	if err := c3.wait(ctx); err == nil {
		t.Fatal("TABLE_NOT_EXIST did not fail the lookup")
	}
	// A cancelled caller returns at once; the late answer is dropped.
	cctx, cancel := context.WithCancel(ctx)
	c4 := newTestCall(cctx, f, 0, "c")
	d.submit(c4)
	r = f.Next()
	cancel()
	if err := c4.wait(cctx); err == nil {
		t.Fatal("cancelled lookup returned no error")
	}
	lookupReply(t, r, 0)
}

// Calls submitted together (LookupMany) leave in one request grouped by
// bucket, not the first alone and the rest after it; MaxBatchKeys still
// splits them.
func TestLookupDispatchSubmitsManyTogether(t *testing.T) {
	f := newFakeCluster(t, 3, APIKeyLookup)
	d := newLookupDispatcher(f.c, lookupPoint, TablePath{}, f.tableID, LookupOptions{MaxBatchKeys: 8})
	ctx := context.Background()
	var calls []*lookupCall
	for i := range 10 {
		calls = append(calls, newTestCall(ctx, f, int32(i%3), fmt.Sprintf("k%d", i)))
	}
	d.submit(calls...)
	r := f.Next()
	var req pb.LookupRequest
	_ = r.Decode(&req)
	if len(req.GetBucketsReq()) != 3 {
		t.Fatalf("first request has %d bucket entries, want 3", len(req.GetBucketsReq()))
	}
	if n := lookupReply(t, r, 0); n != 8 {
		t.Fatalf("first request carried %d keys, want MaxBatchKeys (8)", n)
	}
	if n := lookupReply(t, f.Next(), 0); n != 2 {
		t.Fatalf("second request carried %d keys, want 2", n)
	}
	for i, c := range calls {
		if err := c.wait(ctx); err != nil || string(c.value) != fmt.Sprintf("\x01\x00k%d", i) {
			t.Fatalf("lookup %d: %q, %v", i, c.value, err)
		}
	}
	f.ExpectNone(50 * time.Millisecond)
}

// A lookup under a context that has already ended fails with its error
// and sends nothing: sent anyway, its answer could beat the cancellation
// and the lookup succeed (seen under load).
func TestLookupEndedContextSendsNothing(t *testing.T) {
	f := newFakeCluster(t, 1, APIKeyLookup)
	s, err := schema.NewSchema([]schema.Column{schema.NewColumn("k", schema.Int()), schema.NewColumn("v", schema.Int())}, []string{"k"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	lk, err := f.table(schema.TableDescriptor{Schema: s, BucketCount: new(1)}).NewLookuper()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := lk.Lookup(ctx, []any{int32(1)}); !errors.Is(err, context.Canceled) {
		t.Fatalf("lookup under a cancelled context: %v", err)
	}
	f.ExpectNone(200 * time.Millisecond)
}

// A lone lookup is sent by its caller (submitOwn), under the caller's
// context: cancelling it returns at once, and a lookup queued meanwhile
// still leaves, after it, from a goroutine of its own.
func TestLookupDispatchSendsOwnCallInline(t *testing.T) {
	f := newFakeCluster(t, 1, APIKeyLookup)
	d := newLookupDispatcher(f.c, lookupPoint, TablePath{}, f.tableID, LookupOptions{})
	ctx := context.Background()
	cctx, cancel := context.WithCancel(ctx)
	own := newTestCall(cctx, f, 0, "a")
	returned := make(chan struct{})
	go func() {
		d.submitOwn(cctx, []*lookupCall{own})
		close(returned)
	}()
	r := f.Next()
	other := newTestCall(ctx, f, 0, "b")
	d.submit(other)
	f.ExpectNone(50 * time.Millisecond) // queued behind the request in flight
	cancel()
	select {
	case <-returned:
	case <-time.After(5 * time.Second):
		t.Fatal("submitOwn did not return when its context ended")
	}
	if err := own.wait(cctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled lookup: %v", err)
	}
	lookupReply(t, r, 0) // the late answer is dropped
	if n := lookupReply(t, f.Next(), 0); n != 1 {
		t.Fatalf("queued request carried %d keys", n)
	}
	if err := other.wait(ctx); err != nil || string(other.value) != "\x01\x00b" {
		t.Fatalf("queued lookup: %q, %v", other.value, err)
	}
}
