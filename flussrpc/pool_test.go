package flussrpc

import (
	"context"
	"errors"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
	"github.com/gofluss/fluss/internal/fakefluss"
)

// countingDialer counts dials and can delay or fail them.
type countingDialer struct {
	dials atomic.Int32
	delay time.Duration
	fail  error
}

func (d *countingDialer) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	d.dials.Add(1)
	if d.delay > 0 {
		select {
		case <-time.After(d.delay):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if d.fail != nil {
		return nil, d.fail
	}
	var nd net.Dialer
	return nd.DialContext(ctx, network, addr)
}

func TestPoolSingleDialUnderConcurrentFirstUse(t *testing.T) {
	s := newFakeServer(t, APIKeyGetTableInfo)
	d := &countingDialer{delay: 20 * time.Millisecond}
	p := newConnPool(ConnConfig{Dialer: d.dial}, &noHooks)
	defer p.close()

	const n = 32
	conns := make([]*conn, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := p.get(context.Background(), s.Addr())
			if err != nil {
				t.Error(err)
			}
			conns[i] = c
		}()
	}
	wg.Wait()
	if got := d.dials.Load(); got != 1 {
		t.Fatalf("%d dials, want 1", got)
	}
	for _, c := range conns {
		if c != conns[0] {
			t.Fatal("callers got different connections")
		}
	}
}

func TestPoolReplacesBrokenConn(t *testing.T) {
	s := newFakeServer(t, APIKeyGetTableInfo)
	d := &countingDialer{}
	p := newConnPool(ConnConfig{Dialer: d.dial}, &noHooks)
	defer p.close()
	ctx := context.Background()

	c1, err := p.get(ctx, s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := p.get(ctx, s.Addr()); again != c1 {
		t.Fatal("healthy connection was not reused")
	}
	s.DropAll() // the server goes away, e.g. idle timeout
	select {
	case <-c1.closed:
	case <-time.After(5 * time.Second):
		t.Fatal("client did not notice the closed connection")
	}
	c2, err := p.get(ctx, s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	if c2 == c1 || c2.isClosed() {
		t.Fatal("broken connection was not replaced")
	}
	if d.dials.Load() != 2 {
		t.Fatalf("%d dials, want 2", d.dials.Load())
	}
}

func TestPoolRoundRobinPerAddr(t *testing.T) {
	s := newFakeServer(t, APIKeyGetTableInfo)
	p := newConnPoolN(ConnConfig{}, &noHooks, 3)
	defer p.close()
	seen := map[*conn]bool{}
	for range 6 {
		c, err := p.get(context.Background(), s.Addr())
		if err != nil {
			t.Fatal(err)
		}
		seen[c] = true
	}
	if len(seen) != 3 {
		t.Fatalf("%d distinct connections, want 3", len(seen))
	}
}

func TestPoolSharesDialFailure(t *testing.T) {
	d := &countingDialer{delay: 20 * time.Millisecond, fail: errors.New("connection refused")}
	p := newConnPool(ConnConfig{Dialer: d.dial}, &noHooks)
	defer p.close()
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := p.get(context.Background(), "127.0.0.1:1")
			if !SafeToRetry(err) {
				t.Errorf("err = %v, want a SafeToRetry dial error", err)
			}
		}()
	}
	wg.Wait()
	if got := d.dials.Load(); got != 1 {
		t.Errorf("%d dials of a dead server by concurrent callers, want 1", got)
	}
}

func TestPoolWaitHonoursContext(t *testing.T) {
	d := &countingDialer{delay: time.Second}
	p := newConnPool(ConnConfig{Dialer: d.dial}, &noHooks)
	defer p.close()
	go func() { _, _ = p.get(context.Background(), "127.0.0.1:1") }()
	for d.dials.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := p.get(ctx, "127.0.0.1:1")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want DeadlineExceeded", err)
	}
	if time.Since(start) > 500*time.Millisecond {
		t.Fatal("waiter was not released by its context")
	}
}

func TestPoolCancelledDialerDoesNotFailWaiters(t *testing.T) {
	s := newFakeServer(t, APIKeyGetTableInfo)
	d := &countingDialer{delay: 50 * time.Millisecond}
	p := newConnPool(ConnConfig{Dialer: d.dial}, &noHooks)
	defer p.close()
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() {
		_, err := p.get(ctx, s.Addr())
		first <- err
	}()
	for d.dials.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	second := make(chan error, 1)
	go func() {
		_, err := p.get(context.Background(), s.Addr())
		second <- err
	}()
	time.Sleep(5 * time.Millisecond)
	cancel()
	if err := waitErr(t, first); !errors.Is(err, context.Canceled) {
		t.Fatalf("first: %v, want Canceled", err)
	}
	if err := waitErr(t, second); err != nil {
		t.Fatalf("second caller inherited the first caller's cancellation: %v", err)
	}
}

func TestPoolClose(t *testing.T) {
	s := newFakeServer(t, APIKeyGetTableInfo)
	p := newConnPool(ConnConfig{}, &noHooks)
	c, err := p.get(context.Background(), s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	p.close()
	if !c.isClosed() {
		t.Error("pool close left a connection open")
	}
	if _, err := p.get(context.Background(), s.Addr()); !errors.Is(err, ErrClosed) {
		t.Errorf("get after close: %v, want ErrClosed", err)
	}
}

func TestPoolDiscard(t *testing.T) {
	s := newFakeServer(t, APIKeyGetTableInfo)
	p := newConnPool(ConnConfig{}, &noHooks)
	defer p.close()
	c1, err := p.get(context.Background(), s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	p.discard(s.Addr())
	if !c1.isClosed() {
		t.Error("discard left the connection open")
	}
	c2, err := p.get(context.Background(), s.Addr())
	if err != nil || c2 == c1 {
		t.Fatalf("get after discard: %v", err)
	}
}

// TestPoolClosesConnsOfDepartedServers: once the metadata no longer lists
// a server, the client closes its connection to it instead of keeping it
// for ever; connections to servers still listed stay open.
func TestPoolClosesConnsOfDepartedServers(t *testing.T) {
	boot := newFakeServer(t, APIKeyGetMetadata)
	gone := newFakeServer(t, APIKeyGetMetadata)
	node := func(id int32, s *fakefluss.Server) *pb.PbServerNode {
		host, port, _ := net.SplitHostPort(s.Addr())
		p, _ := strconv.Atoi(port)
		return &pb.PbServerNode{NodeId: proto.Int32(id), Host: proto.String(host), Port: proto.Int32(int32(p))}
	}
	var listGone atomic.Bool
	listGone.Store(true)
	stop := make(chan struct{})
	defer close(stop)
	for _, s := range []*fakefluss.Server{boot, gone} {
		go func() {
			for {
				var r fakefluss.Request
				select {
				case r = <-s.Requests():
				case <-stop:
					return
				}
				resp := &pb.MetadataResponse{CoordinatorServer: node(0, boot), TabletServers: []*pb.PbServerNode{node(1, boot)}}
				if listGone.Load() {
					resp.TabletServers = append(resp.TabletServers, node(2, gone))
				}
				r.Reply(resp)
			}
		}()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := NewClient(ctx, Config{Bootstrap: []string{boot.Addr()}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	kept, err := c.pool.get(ctx, boot.Addr())
	if err != nil {
		t.Fatal(err)
	}
	left, err := c.pool.get(ctx, gone.Addr())
	if err != nil {
		t.Fatal(err)
	}
	listGone.Store(false)
	if err := c.refreshCluster(ctx); err != nil {
		t.Fatal(err)
	}
	if !left.isClosed() {
		t.Error("the connection to the server that left the cluster is still open")
	}
	if kept.isClosed() {
		t.Error("the connection to a listed server was closed")
	}
}
