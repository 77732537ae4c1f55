package flussrpc

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
	"github.com/gofluss/fluss/internal/fakefluss"
)

func TestHandshakeNegotiatesVersions(t *testing.T) {
	s := newFakeServerWith(t, fakefluss.Config{ServerType: fakefluss.Coordinator},
		APIKeyGetTableInfo, APIKeyPutKV, APIKeyLookup)
	c := dialTest(t, s, ConnConfig{})
	if got := c.serverType(); got != ServerTypeCoordinator {
		t.Errorf("server type = %v, want coordinator", got)
	}
	tests := []struct {
		api  APIKey
		want int16
		ok   bool
	}{
		{APIKeyGetTableInfo, 0, true},
		{APIKeyPutKV, 1, true}, // server offers 0-2, client stops at 1
		{APIKeyLookup, 1, true},
		{APIKeyProduceLog, 0, false}, // not advertised
	}
	for _, tt := range tests {
		v, ok := c.apiVersion(tt.api)
		if v != tt.want || ok != tt.ok {
			t.Errorf("apiVersion(%s) = %d,%v want %d,%v", tt.api, v, ok, tt.want, tt.ok)
		}
	}
	if got := len(c.supportedAPIs()); got != 4 { // + API_VERSIONS
		t.Errorf("supportedAPIs has %d entries, want 4", got)
	}
}

func TestHandshakeSendsClientIdentity(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan *pb.ApiVersionsRequest, 1)
	go func() {
		nc, err := ln.Accept()
		if err != nil {
			return
		}
		defer nc.Close()
		p, err := readFrame(nc, requestHeaderSize, 1<<20)
		if err != nil {
			return
		}
		var req pb.ApiVersionsRequest
		_ = proto.Unmarshal(p[requestHeaderSize:], &req)
		got <- &req
		body, _ := proto.Marshal(&pb.ApiVersionsResponse{})
		_, _ = nc.Write(fakefluss.ResponseFrame(fakefluss.Success, int32(binary.BigEndian.Uint32(p[4:])), body))
	}()
	c, err := dialConn(context.Background(), ln.Addr().String(), ConnConfig{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	req := <-got
	if req.GetClientSoftwareName() != ClientSoftwareName || req.GetClientSoftwareVersion() != ClientSoftwareVersion {
		t.Errorf("identity = %q/%q", req.GetClientSoftwareName(), req.GetClientSoftwareVersion())
	}
	if c.serverType() != ServerTypeUnknown {
		t.Errorf("absent server_type should be unknown, got %v", c.serverType())
	}
}

func TestPipeliningOutOfOrder(t *testing.T) {
	s := newFakeServer(t, APIKeyGetTableInfo)
	c := dialTest(t, s, ConnConfig{})
	const n = 8
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var resp pb.GetTableInfoResponse
			name := string(rune('a' + i))
			if err := c.call(context.Background(), APIKeyGetTableInfo, tableInfoReq(name), &resp); err != nil {
				errs <- err
				return
			}
			if resp.GetTableId() != int64('a'+i) {
				errs <- errors.New("response went to the wrong caller: " + name)
			}
		}()
	}
	// Collect all requests first, so they are provably in flight
	// together, then answer them in reverse order.
	reqs := make([]fakefluss.Request, n)
	for i := range reqs {
		reqs[i] = s.Next()
	}
	for i := n - 1; i >= 0; i-- {
		r := reqs[i]
		r.Reply(tableInfoResp(int64(tableName(t, r)[0])))
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestCancelDropsLateReplyConnStaysUsable(t *testing.T) {
	s := newFakeServer(t, APIKeyGetTableInfo)
	c := dialTest(t, s, ConnConfig{})

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		var resp pb.GetTableInfoResponse
		done <- c.call(ctx, APIKeyGetTableInfo, tableInfoReq("slow"), &resp)
	}()
	late := s.Next()
	cancel()
	err := waitErr(t, done)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if SafeToRetry(err) {
		t.Error("a request that was sent must not be SafeToRetry")
	}
	// The late reply arrives after the caller left; it must be dropped,
	// not delivered to the next caller.
	late.Reply(tableInfoResp(666))

	go func() {
		var resp pb.GetTableInfoResponse
		err := c.call(context.Background(), APIKeyGetTableInfo, tableInfoReq("fast"), &resp)
		if err == nil && resp.GetTableId() != 7 {
			err = errors.New("got the dropped late reply")
		}
		done <- err
	}()
	r := s.Next()
	r.Reply(tableInfoResp(7))
	if err := waitErr(t, done); err != nil {
		t.Fatal(err)
	}
	if c.isClosed() {
		t.Error("connection closed after a cancelled call")
	}
}

func TestDeadlineWhileWaitingForReply(t *testing.T) {
	s := newFakeServer(t, APIKeyGetTableInfo)
	c := dialTest(t, s, ConnConfig{})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	var resp pb.GetTableInfoResponse
	err := c.call(ctx, APIKeyGetTableInfo, tableInfoReq("x"), &resp)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want DeadlineExceeded", err)
	}
	c.mu.Lock()
	left := len(c.pending)
	c.mu.Unlock()
	if left != 0 {
		t.Errorf("%d waiters left behind", left)
	}
}

func TestCancelWhileWaitingForWriteSlot(t *testing.T) {
	s := newFakeServer(t, APIKeyGetTableInfo)
	c := dialTest(t, s, ConnConfig{})
	c.writeSlot <- struct{}{} // another writer holds the slot
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	var resp pb.GetTableInfoResponse
	err := c.call(ctx, APIKeyGetTableInfo, tableInfoReq("x"), &resp)
	<-c.writeSlot
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want DeadlineExceeded", err)
	}
	s.ExpectNone(50 * time.Millisecond)
	if c.isClosed() {
		t.Fatal("connection closed")
	}
}

func TestErrorResponseMapsToError(t *testing.T) {
	s := newFakeServer(t, APIKeyGetTableInfo)
	c := dialTest(t, s, ConnConfig{})
	done := make(chan error, 1)
	go func() {
		var resp pb.GetTableInfoResponse
		done <- c.call(context.Background(), APIKeyGetTableInfo, tableInfoReq("nope"), &resp)
	}()
	r := s.Next()
	r.ReplyError(7, "Table 'db.nope' does not exist.")
	err := waitErr(t, done)
	if !errors.Is(err, ErrTableNotExist) {
		t.Fatalf("err = %v, want ErrTableNotExist", err)
	}
	var fe *Error
	if !errors.As(err, &fe) || fe.API != APIKeyGetTableInfo || fe.Message != "Table 'db.nope' does not exist." {
		t.Errorf("error details = %+v", fe)
	}
	if c.isClosed() {
		t.Error("an ERROR_RESPONSE must not close the connection")
	}
}

func TestServerFailureFailsAllPendingAndCloses(t *testing.T) {
	s := newFakeServer(t, APIKeyGetTableInfo)
	c := dialTest(t, s, ConnConfig{})
	done := make(chan error, 2)
	for _, name := range []string{"a", "b"} {
		go func() {
			var resp pb.GetTableInfoResponse
			done <- c.call(context.Background(), APIKeyGetTableInfo, tableInfoReq(name), &resp)
		}()
	}
	r := s.Next()
	s.Next()
	r.Write(fakefluss.ServerFailureFrame(-1, "frame too large"))
	for range 2 {
		err := waitErr(t, done)
		var fe *Error
		if !errors.As(err, &fe) || !fe.ServerFailure || fe.Code != CodeUnknownServerError {
			t.Errorf("err = %v, want a server failure *Error", err)
		}
		var te *TransportError
		if !errors.As(err, &te) || !te.MaybeSent {
			t.Errorf("err = %v, want TransportError with MaybeSent", err)
		}
		if SafeToRetry(err) {
			t.Error("pending requests were sent; not safe to retry")
		}
	}
	if !c.isClosed() {
		t.Fatal("connection still open after SERVER_FAILURE")
	}
	var resp pb.GetTableInfoResponse
	err := c.call(context.Background(), APIKeyGetTableInfo, tableInfoReq("c"), &resp)
	if !SafeToRetry(err) {
		t.Errorf("call on a closed conn: %v; want SafeToRetry", err)
	}
}

func TestPeerClosesMidFrame(t *testing.T) {
	s := newFakeServer(t, APIKeyGetTableInfo)
	c := dialTest(t, s, ConnConfig{})
	done := make(chan error, 1)
	go func() {
		var resp pb.GetTableInfoResponse
		done <- c.call(context.Background(), APIKeyGetTableInfo, tableInfoReq("a"), &resp)
	}()
	r := s.Next()
	full := fakefluss.ResponseFrame(fakefluss.Success, r.ID, make([]byte, 100))
	r.Write(full[:30])
	r.CloseConn()
	err := waitErr(t, done)
	var te *TransportError
	if !errors.As(err, &te) || te.Op != "read" || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("err = %v, want read TransportError wrapping ErrUnexpectedEOF", err)
	}
	if !errors.Is(err, ErrNetwork) || !IsInvalidMetadata(err) {
		t.Error("connection loss should read as NETWORK_EXCEPTION")
	}
	if !c.isClosed() {
		t.Error("connection not closed")
	}
}

func TestOversizedResponseClosesConn(t *testing.T) {
	s := newFakeServer(t, APIKeyGetTableInfo)
	c := dialTest(t, s, ConnConfig{MaxFrameSize: 1 << 10})
	done := make(chan error, 1)
	go func() {
		var resp pb.GetTableInfoResponse
		done <- c.call(context.Background(), APIKeyGetTableInfo, tableInfoReq("a"), &resp)
	}()
	r := s.Next()
	r.Write(fakefluss.ResponseFrame(fakefluss.Success, r.ID, make([]byte, 2<<10)))
	err := waitErr(t, done)
	if !errors.Is(err, errFrame) {
		t.Fatalf("err = %v, want a frame error", err)
	}
}

func TestUnknownResponseTypeClosesConn(t *testing.T) {
	s := newFakeServer(t, APIKeyGetTableInfo)
	c := dialTest(t, s, ConnConfig{})
	done := make(chan error, 1)
	go func() {
		var resp pb.GetTableInfoResponse
		done <- c.call(context.Background(), APIKeyGetTableInfo, tableInfoReq("a"), &resp)
	}()
	r := s.Next()
	r.Write(fakefluss.ResponseFrame(9, r.ID, nil))
	if err := waitErr(t, done); !errors.Is(err, errFrame) {
		t.Fatalf("err = %v, want a frame error", err)
	}
}

func TestGarbageResponseBody(t *testing.T) {
	s := newFakeServer(t, APIKeyGetTableInfo)
	c := dialTest(t, s, ConnConfig{})
	done := make(chan error, 1)
	go func() {
		var resp pb.GetTableInfoResponse
		done <- c.call(context.Background(), APIKeyGetTableInfo, tableInfoReq("a"), &resp)
	}()
	r := s.Next()
	r.Write(fakefluss.ResponseFrame(fakefluss.Success, r.ID, []byte{0xff, 0xff, 0xff}))
	if err := waitErr(t, done); err == nil {
		t.Fatal("garbage body decoded without error")
	}
	if c.isClosed() {
		t.Error("a bad body is confined to its request; the stream is intact")
	}
}

func TestUnadvertisedAPIRefusedWithoutSending(t *testing.T) {
	s := newFakeServer(t, APIKeyGetTableInfo)
	c := dialTest(t, s, ConnConfig{})
	req := &pb.ProduceLogRequest{Acks: proto.Int32(-1), TableId: proto.Int64(1), TimeoutMs: proto.Int32(1000)}
	var resp pb.ProduceLogResponse
	err := c.call(context.Background(), APIKeyProduceLog, req, &resp)
	if !errors.Is(err, ErrAPINotAdvertised) {
		t.Fatalf("err = %v, want ErrAPINotAdvertised", err)
	}
	if SafeToRetry(err) {
		t.Error("a refused API is not a transport failure")
	}
	s.ExpectNone(50 * time.Millisecond)
}

func TestMissingRequiredFieldRefusedWithoutSending(t *testing.T) {
	s := newFakeServer(t, APIKeyGetTableInfo)
	c := dialTest(t, s, ConnConfig{})
	var resp pb.GetTableInfoResponse
	req := &pb.GetTableInfoRequest{TablePath: &pb.PbTablePath{DatabaseName: proto.String("db")}}
	if err := c.call(context.Background(), APIKeyGetTableInfo, req, &resp); err == nil {
		t.Fatal("request without required table_name was accepted")
	}
	s.ExpectNone(50 * time.Millisecond)
}

func TestRequestTooLargeRefused(t *testing.T) {
	s := newFakeServer(t, APIKeyProduceLog)
	c := dialTest(t, s, ConnConfig{MaxRequestSize: 1 << 10})
	req := &pb.ProduceLogRequest{Acks: proto.Int32(-1), TableId: proto.Int64(1), TimeoutMs: proto.Int32(1000),
		BucketsReq: []*pb.PbProduceLogReqForBucket{{BucketId: proto.Int32(0), Records: make([]byte, 2<<10)}}}
	var resp pb.ProduceLogResponse
	if err := c.call(context.Background(), APIKeyProduceLog, req, &resp); err == nil {
		t.Fatal("oversized request accepted")
	}
	s.ExpectNone(50 * time.Millisecond)
}

func TestDialFailureIsSafeToRetry(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, err = dialConn(context.Background(), addr, ConnConfig{DialTimeout: time.Second}, nil)
	var te *TransportError
	if !errors.As(err, &te) || te.Op != "dial" || !SafeToRetry(err) {
		t.Fatalf("err = %v, want a SafeToRetry dial error", err)
	}
}

func TestHandshakeTimeout(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() { // accept and never answer
		nc, err := ln.Accept()
		if err == nil {
			defer nc.Close()
			_, _ = io.Copy(io.Discard, nc)
		}
	}()
	_, err = dialConn(context.Background(), ln.Addr().String(), ConnConfig{DialTimeout: 50 * time.Millisecond}, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want DeadlineExceeded", err)
	}
}

// faultConn fails every Write after budget bytes, having written only the
// part of the buffer that fits: a connection that dies mid-frame.
type faultConn struct {
	net.Conn
	mu     sync.Mutex
	budget int
}

func (f *faultConn) Write(b []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(b) <= f.budget {
		f.budget -= len(b)
		return f.Conn.Write(b)
	}
	n, _ := f.Conn.Write(b[:f.budget])
	f.budget = 0
	return n, errors.New("injected write failure")
}

// dialWithWriteBudget connects to a fake server through a faultConn whose
// write budget the test then lowers.
func dialWithWriteBudget(t *testing.T) (*conn, *faultConn) {
	t.Helper()
	s := newFakeServer(t, APIKeyGetTableInfo)
	var fc *faultConn
	cfg := ConnConfig{Dialer: func(ctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		nc, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		fc = &faultConn{Conn: nc, budget: 1 << 20}
		return fc, nil
	}}
	return dialTest(t, s, cfg), fc
}

func TestWriteFailureMidFrameClosesConn(t *testing.T) {
	c, fc := dialWithWriteBudget(t)
	fc.mu.Lock()
	fc.budget = 5 // the next frame dies after 5 bytes
	fc.mu.Unlock()
	var resp pb.GetTableInfoResponse
	err := c.call(context.Background(), APIKeyGetTableInfo, tableInfoReq("a"), &resp)
	var te *TransportError
	if !errors.As(err, &te) || te.Op != "write" || !te.MaybeSent || SafeToRetry(err) {
		t.Fatalf("err = %v, want a write error with MaybeSent", err)
	}
	if !c.isClosed() {
		t.Fatal("a half-written frame must close the connection")
	}
}

func TestWriteFailureBeforeAnyByteIsSafeToRetry(t *testing.T) {
	c, fc := dialWithWriteBudget(t)
	fc.mu.Lock()
	fc.budget = 0
	fc.mu.Unlock()
	var resp pb.GetTableInfoResponse
	err := c.call(context.Background(), APIKeyGetTableInfo, tableInfoReq("a"), &resp)
	if !SafeToRetry(err) {
		t.Fatalf("err = %v, want SafeToRetry", err)
	}
}

// pipeConn returns a conn over net.Pipe whose server end the test drives
// by hand; the handshake is skipped and every API is usable.
func pipeConn(t *testing.T) (*conn, net.Conn) {
	t.Helper()
	client, server := net.Pipe()
	c := newConn("pipe", client, ConnConfig{}.withDefaults())
	c.versions = map[APIKey]int16{APIKeyGetTableInfo: 0}
	t.Cleanup(func() {
		server.Close()
		c.close()
	})
	return c, server
}

func TestCancelDuringBlockedWrite(t *testing.T) {
	t.Run("nothing written keeps the connection", func(t *testing.T) {
		c, _ := pipeConn(t) // nobody reads the server end: Write blocks
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
		defer cancel()
		var resp pb.GetTableInfoResponse
		err := c.call(ctx, APIKeyGetTableInfo, tableInfoReq("a"), &resp)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want DeadlineExceeded", err)
		}
		if c.isClosed() {
			t.Fatal("connection closed although no byte was written")
		}
	})
	t.Run("partial frame closes the connection", func(t *testing.T) {
		c, server := pipeConn(t)
		go func() {
			buf := make([]byte, 3)
			_, _ = io.ReadFull(server, buf) // take 3 bytes, then stall
		}()
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		var resp pb.GetTableInfoResponse
		err := c.call(ctx, APIKeyGetTableInfo, tableInfoReq("a"), &resp)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want DeadlineExceeded", err)
		}
		var te *TransportError
		if !errors.As(err, &te) || !te.MaybeSent {
			t.Fatalf("err = %v, want TransportError with MaybeSent", err)
		}
		if !c.isClosed() {
			t.Fatal("connection must close after a partial frame")
		}
	})
}

func TestCloseFailsPendingCalls(t *testing.T) {
	s := newFakeServer(t, APIKeyGetTableInfo)
	c := dialTest(t, s, ConnConfig{})
	done := make(chan error, 1)
	go func() {
		var resp pb.GetTableInfoResponse
		done <- c.call(context.Background(), APIKeyGetTableInfo, tableInfoReq("a"), &resp)
	}()
	s.Next()
	c.close()
	err := waitErr(t, done)
	if !errors.Is(err, ErrClosed) {
		t.Fatalf("err = %v, want ErrClosed", err)
	}
	c.close() // idempotent
}

func TestRequestIDsSkipPending(t *testing.T) {
	c, _ := pipeConn(t)
	c.nextID = 1<<31 - 1
	a, _ := c.register()
	b, _ := c.register()
	if a.id != 1<<31-1 || b.id != 0 {
		t.Fatalf("ids %d, %d: want wrap to 0", a.id, b.id)
	}
	c.nextID = 0 // 0 is still pending
	d, _ := c.register()
	if d.id != 1 {
		t.Fatalf("id %d reused a pending id", d.id)
	}
}

// FuzzConnResponseStream plays arbitrary server bytes against a live
// connection with one call in flight. Whatever arrives, the call must
// return (success or error) and nothing may panic.
func FuzzConnResponseStream(f *testing.F) {
	fuzzFrameSeeds(f)
	f.Add(fakefluss.ResponseFrame(fakefluss.Success, 0, tableInfoRespBytes()))
	f.Add(fakefluss.ResponseFrame(fakefluss.ErrorResponse, 0, []byte{0x08, 0x07}))
	f.Fuzz(func(t *testing.T, data []byte) {
		client, server := net.Pipe()
		c := newConn("fuzz", client, ConnConfig{MaxFrameSize: 1 << 16}.withDefaults())
		c.versions = map[APIKey]int16{APIKeyGetTableInfo: 0}
		defer c.close()
		go func() {
			// Swallow the request, then play the stream and hang up.
			_, _ = readFrame(server, requestHeaderSize, 1<<20)
			_, _ = server.Write(data)
			server.Close()
		}()
		var resp pb.GetTableInfoResponse
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err := c.call(ctx, APIKeyGetTableInfo, tableInfoReq("t"), &resp)
		if errors.Is(err, context.DeadlineExceeded) {
			t.Fatal("call hung on hostile input")
		}
	})
}

func tableInfoRespBytes() []byte {
	b, _ := proto.Marshal(tableInfoResp(1))
	return b
}
