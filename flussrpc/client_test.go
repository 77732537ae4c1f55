package flussrpc

import (
	"context"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc/pb"
	"github.com/gofluss/fluss/internal/fakefluss"
	"google.golang.org/protobuf/proto"
)

// TestAnyReadSkipsARefusingServer: a killed tablet server stays in the
// metadata until its session expires; a read-only admin call that picks it
// must go on to a server that answers instead of failing with the refused
// dial (it did one time in four: the retry picked at random again).
func TestAnyReadSkipsARefusingServer(t *testing.T) {
	live := newFakeServer(t, APIKeyGetMetadata, APIKeyListDatabases)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := ln.Addr().String()
	ln.Close()
	node := func(id int32, addr string) *pb.PbServerNode {
		host, port, _ := net.SplitHostPort(addr)
		p, _ := strconv.Atoi(port)
		return &pb.PbServerNode{NodeId: proto.Int32(id), Host: proto.String(host), Port: proto.Int32(int32(p))}
	}
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			var r fakefluss.Request
			select {
			case r = <-live.Requests():
			case <-stop:
				return
			}
			if APIKey(r.API) == APIKeyListDatabases {
				r.Reply(&pb.ListDatabasesResponse{DatabaseName: []string{"fluss"}})
				continue
			}
			r.Reply(&pb.MetadataResponse{
				CoordinatorServer: node(0, live.Addr()),
				TabletServers:     []*pb.PbServerNode{node(1, live.Addr()), node(2, dead)},
			})
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := NewClient(ctx, Config{Bootstrap: []string{live.Addr()}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for i := range 40 {
		dbs, err := c.Admin().ListDatabases(ctx)
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if len(dbs) != 1 || dbs[0] != "fluss" {
			t.Fatalf("call %d: databases %v", i, dbs)
		}
	}
}

// TestWithTimeoutSharesDeadlines: calls under a bare Background share one
// deadline context while it is young enough, and get a new one before the
// slack is used up; a context of the caller's own still gets a context of
// its own, which keeps its values and cancellation.
func TestWithTimeoutSharesDeadlines(t *testing.T) {
	// The slack (timeout/sharedSlack) is 200 ms: the two calls in a row
	// below must fall within it even on a busy machine.
	const timeout = 12800 * time.Millisecond
	c := &Client{cfg: Config{RequestTimeout: timeout}, hooks: &noHooks, pool: newConnPool(ConnConfig{}, &noHooks)}
	// within checks that ctx, got since start, ends at most the slack
	// before the timeout and never after it.
	within := func(ctx context.Context, start time.Time) {
		t.Helper()
		dl, ok := ctx.Deadline()
		if !ok || dl.After(time.Now().Add(timeout)) || dl.Before(start.Add(timeout-timeout/sharedSlack)) {
			t.Fatalf("deadline %v after the call, want within %v before %v", dl.Sub(start), timeout/sharedSlack, timeout)
		}
	}
	start := time.Now()
	a, _ := c.withTimeout(context.Background())
	b, _ := c.withTimeout(context.TODO())
	within(a, start)
	if a != b {
		t.Fatal("two calls in a row got different deadline contexts")
	}
	time.Sleep(timeout/sharedSlack + 2*time.Millisecond)
	start = time.Now()
	d, _ := c.withTimeout(context.Background())
	within(d, start)
	if d == a {
		t.Fatal("a deadline older than the slack was handed out again")
	}

	type key struct{}
	own, cancelOwn := context.WithCancel(context.WithValue(context.Background(), key{}, 1))
	e, cancel := c.withTimeout(own)
	defer cancel()
	if e == d || e.Value(key{}) != 1 {
		t.Fatal("a context of the caller's own was replaced by the shared one")
	}
	cancelOwn()
	if e.Err() == nil {
		t.Fatal("cancelling the caller's context did not end the call's")
	}

	c.Close()
	if d.Err() == nil {
		t.Fatal("Close left the current shared deadline running")
	}
}
