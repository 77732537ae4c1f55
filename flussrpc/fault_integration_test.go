package flussrpc_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// faultConn sits between the client and a real server. It can hold back
// every read (the server's replies) until released, or cut the connection
// right after a chosen write has been passed on to the server.
type faultConn struct {
	net.Conn
	cutNext atomic.Bool // close right after the next write
	cut     atomic.Bool // the cut write was made: nothing is read any more
	// cutDelay (nanoseconds) passes between the cut write and the close,
	// as when the writing goroutine is descheduled on a busy machine.
	cutDelay  atomic.Int64
	holdReads atomic.Bool
	mu        sync.Mutex // serialises release
	released  chan struct{}
}

// Write passes p on and, when armed, closes the connection after it. The
// connection counts as cut before p leaves: on a busy machine this
// goroutine may not run again until the server has answered and the
// client's reader has the answer, which must be dropped all the same.
func (f *faultConn) Write(p []byte) (int, error) {
	cut := f.cutNext.Swap(false)
	if cut {
		f.cut.Store(true)
	}
	n, err := f.Conn.Write(p)
	if cut {
		time.Sleep(time.Duration(f.cutDelay.Load()))
		f.Conn.Close()
	}
	return n, err
}

// Read passes data on, but while reads are held it keeps what arrived until
// release: the client's reader is usually already blocked in Read when the
// hold begins, so the check must come after the read returns.
func (f *faultConn) Read(p []byte) (int, error) {
	n, err := f.Conn.Read(p)
	if f.holdReads.Load() {
		<-f.released
	}
	if f.cut.Load() {
		return 0, net.ErrClosed
	}
	return n, err
}

func (f *faultConn) release() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.holdReads.Swap(false) {
		close(f.released)
	}
}

// faultDialer hands out faultConns and records them.
type faultDialer struct {
	mu    sync.Mutex
	conns []*faultConn
}

func (d *faultDialer) count() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.conns)
}

func (d *faultDialer) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	var nd net.Dialer
	c, err := nd.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	fc := &faultConn{Conn: c, released: make(chan struct{})}
	d.mu.Lock()
	d.conns = append(d.conns, fc)
	d.mu.Unlock()
	return fc, nil
}

// TestCancelledCallKeepsConnection pins the rule that a call abandoned by
// its context drops the late reply and leaves the connection usable.
func TestCancelledCallKeepsConnection(t *testing.T) {
	d := &faultDialer{}
	c := newClient(t, flussrpc.Config{Conn: flussrpc.ConnConfig{Dialer: d.dial}})
	adm := c.Admin()
	// Reads go to a random server: connect to every one first, so that
	// holding the replies of all connections holds the next call's.
	nodes, err := adm.GetServerNodes(testCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 500 && d.count() < len(nodes); i++ {
		if _, err := adm.ListDatabases(testCtx(t)); err != nil {
			t.Fatal(err)
		}
	}
	if d.count() < len(nodes) {
		t.Fatalf("%d connections for %d servers", d.count(), len(nodes))
	}
	d.mu.Lock()
	for _, fc := range d.conns {
		fc.holdReads.Store(true)
	}
	held := append([]*faultConn(nil), d.conns...)
	d.mu.Unlock()
	t.Cleanup(func() {
		for _, fc := range held {
			fc.release()
		}
	})

	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = adm.ListDatabases(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("ListDatabases with held replies: %v, want context.DeadlineExceeded", err)
	}
	if time.Since(start) > 2*time.Second {
		t.Fatalf("cancellation took %s", time.Since(start))
	}
	if flussrpc.SafeToRetry(err) {
		t.Fatal("SafeToRetry is true for a request that was sent")
	}
	for _, fc := range held {
		fc.release()
	}
	dialsBefore := d.count()
	for i := 0; i < 3; i++ {
		if _, err := adm.ListDatabases(testCtx(t)); err != nil {
			t.Fatalf("call %d after the cancelled one: %v", i, err)
		}
	}
	if d.count() != dialsBefore {
		t.Fatalf("client dialed %d new connections; the old one should have stayed usable", d.count()-dialsBefore)
	}
}

// TestCutAfterSendIsNotSafeToRetry: when the connection dies after a
// request went out, the error must say the request may have been executed
// (the database/sql layer must then not answer driver.ErrBadConn).
func TestCutAfterSendIsNotSafeToRetry(t *testing.T) {
	// With a delay before the close, the server's reply reaches the client
	// before the connection is closed: it must be dropped all the same.
	for _, delay := range []time.Duration{0, 50 * time.Millisecond} {
		t.Run(fmt.Sprintf("close-after=%s", delay), func(t *testing.T) { testCutAfterSend(t, delay) })
	}
}

func testCutAfterSend(t *testing.T, delay time.Duration) {
	d := &faultDialer{}
	c := newClient(t, flussrpc.Config{Conn: flussrpc.ConnConfig{Dialer: d.dial}})
	adm := c.Admin()
	db := uniqueName("cut")
	// Arm every open connection (the coordinator's among them, which
	// catalog writes use) to die right after its next write: the request
	// reaches the server, its reply never comes back.
	d.mu.Lock()
	for _, fc := range d.conns {
		fc.cutDelay.Store(int64(delay))
		fc.cutNext.Store(true)
	}
	d.mu.Unlock()

	err := adm.CreateDatabase(testCtx(t), db, schema.DatabaseDescriptor{}, false)
	if err == nil {
		t.Fatal("CreateDatabase over a connection cut after sending succeeded")
	}
	var te *flussrpc.TransportError
	if !errors.As(err, &te) || flussrpc.SafeToRetry(err) {
		t.Fatalf("error = %v (SafeToRetry %v), want a transport error that may have been sent", err, flussrpc.SafeToRetry(err))
	}
	// The server may well have created it: that is exactly why no retry.
	_ = adm.DropDatabase(context.Background(), db, true, true)
}

// TestNewClientDeadAddressIsSafeToRetry: nothing was sent when the dial fails.
func TestNewClientDeadAddressIsSafeToRetry(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err = flussrpc.NewClient(ctx, flussrpc.Config{Bootstrap: []string{addr}})
	if err == nil || !flussrpc.SafeToRetry(err) {
		t.Fatalf("NewClient to a closed port: %v (SafeToRetry %v), want a safe-to-retry error", err, flussrpc.SafeToRetry(err))
	}
}
