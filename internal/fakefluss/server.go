package fakefluss

import (
	"net"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
)

// Server types a server reports in API_VERSIONS.
const (
	Coordinator  int32 = 1
	TabletServer int32 = 2
)

// Wait is how long Next waits for a request before failing the test.
const Wait = 5 * time.Second

// Config describes one Server. The zero value is a tablet server that
// advertises only API_VERSIONS and forwards every request to the test.
type Config struct {
	// APIs are advertised in API_VERSIONS besides API_VERSIONS itself, at
	// versions 0-0, except PUT_KV, LOOKUP and PREFIX_LOOKUP at 0-2 (more
	// than the client speaks, so that negotiation has to pick).
	APIs []APIKey
	// ServerType is Coordinator or TabletServer (the default).
	ServerType int32
	// Auth, when set, answers AUTHENTICATE requests; otherwise they are
	// forwarded like any other.
	Auth func(Request)
	// Listen, when set, wraps the loopback listener (e.g. in TLS).
	Listen func(net.Listener) net.Listener
	// Handle, when set, sees every request but API_VERSIONS and
	// AUTHENTICATE first; those it reports handled are not forwarded.
	Handle func(Request) bool
}

// Server is one fake Fluss server on a loopback port.
type Server struct {
	tb   testing.TB // nil for a server from Start: Next is then unusable
	cfg  Config
	ln   net.Listener
	reqs chan Request

	mu    sync.Mutex
	conns []*conn
	wg    sync.WaitGroup
}

// conn is the server's side of one client connection. Writes are
// serialised so that replies may come from several goroutines.
type conn struct {
	nc  net.Conn
	wmu sync.Mutex
}

func (c *conn) write(b []byte) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, _ = c.nc.Write(b)
}

// Request is one request frame the server received.
type Request struct {
	API     APIKey
	Version int16
	ID      int32
	Body    []byte
	c       *conn
}

// Decode unmarshals the request body into m.
func (r Request) Decode(m proto.Message) error { return proto.Unmarshal(r.Body, m) }

// Reply answers the request with m in a SUCCESS frame.
func (r Request) Reply(m proto.Message) {
	body, err := proto.Marshal(m)
	if err != nil {
		panic("fakefluss: reply does not marshal: " + err.Error()) // a bug in the test or model
	}
	r.c.write(ResponseFrame(Success, r.ID, body))
}

// ReplyError answers the request with an ERROR frame.
func (r Request) ReplyError(code int32, msg string) {
	r.c.write(ResponseFrame(ErrorResponse, r.ID, errorBody(code, msg)))
}

// Write sends raw bytes on the request's connection.
func (r Request) Write(b []byte) { r.c.write(b) }

// CloseConn closes the request's connection from the server side.
func (r Request) CloseConn() { _ = r.c.nc.Close() }

// Start starts a server on a loopback port; Close stops it.
func Start(cfg Config) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	if cfg.ServerType == 0 {
		cfg.ServerType = TabletServer
	}
	s := &Server{cfg: cfg, ln: ln, reqs: make(chan Request, 128)}
	if cfg.Listen != nil {
		s.ln = cfg.Listen(ln)
	}
	s.wg.Add(1)
	go s.acceptLoop()
	return s, nil
}

// New starts a server that is stopped when the test ends; Next and
// ExpectNone fail tb.
func New(tb testing.TB, cfg Config) *Server {
	tb.Helper()
	s, err := Start(cfg)
	if err != nil {
		tb.Fatalf("fakefluss: %v", err)
	}
	s.tb = tb
	tb.Cleanup(s.Close)
	return s
}

// Addr is the server's "host:port".
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Close stops the server and closes every connection.
func (s *Server) Close() {
	_ = s.ln.Close()
	s.DropAll()
	s.wg.Wait()
}

// DropAll closes every accepted connection from the server side; the
// server keeps accepting new ones.
func (s *Server) DropAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.conns {
		_ = c.nc.Close()
	}
}

// Requests is the channel of forwarded requests, for tests that select
// on it together with other events.
func (s *Server) Requests() <-chan Request { return s.reqs }

// Next returns the next forwarded request, failing the test after Wait.
func (s *Server) Next() Request {
	s.mustTB().Helper()
	return next(s.tb, s.reqs)
}

// ExpectNone fails the test if a request is forwarded within d.
func (s *Server) ExpectNone(d time.Duration) {
	s.mustTB().Helper()
	expectNone(s.tb, s.reqs, d)
}

func (s *Server) mustTB() testing.TB { return mustTB(s.tb) }

// mustTB returns tb, which Next and ExpectNone fail; servers and clusters
// from Start and StartCluster have none.
func mustTB(tb testing.TB) testing.TB {
	if tb == nil {
		panic("fakefluss: Next and ExpectNone need a server from New or a cluster from NewCluster")
	}
	return tb
}

// next receives a forwarded request, failing tb after Wait.
func next(tb testing.TB, ch <-chan Request) Request {
	tb.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(Wait):
		tb.Fatal("fakefluss: no request arrived")
		return Request{}
	}
}

// expectNone fails tb if a request is forwarded within d.
func expectNone(tb testing.TB, ch <-chan Request, d time.Duration) {
	tb.Helper()
	select {
	case r := <-ch:
		tb.Fatalf("fakefluss: unexpected %s request", r.API)
	case <-time.After(d):
	}
}

func (s *Server) acceptLoop() {
	defer s.wg.Done()
	for {
		nc, err := s.ln.Accept()
		if err != nil {
			return
		}
		c := &conn{nc: nc}
		s.mu.Lock()
		s.conns = append(s.conns, c)
		s.mu.Unlock()
		s.wg.Add(1)
		go s.serve(c)
	}
}

// serve reads request frames until the connection closes. Requests are
// handled in order, one at a time per connection; a test that answers a
// forwarded request later does not hold up the connection.
func (s *Server) serve(c *conn) {
	defer s.wg.Done()
	for {
		api, version, id, body, err := readRequest(c.nc)
		if err != nil {
			_ = c.nc.Close()
			return
		}
		r := Request{API: api, Version: version, ID: id, Body: body, c: c}
		switch {
		case api == APIVersions:
			s.answerVersions(r)
		case api == Authenticate && s.cfg.Auth != nil:
			s.cfg.Auth(r)
		case s.cfg.Handle != nil && s.cfg.Handle(r):
		default:
			s.reqs <- r
		}
	}
}

// answerVersions replies with the advertised APIs.
func (s *Server) answerVersions(r Request) {
	var req pb.ApiVersionsRequest
	if err := r.Decode(&req); err != nil {
		r.ReplyError(codeCorruptMessage, "bad API_VERSIONS request: "+err.Error())
		return
	}
	resp := &pb.ApiVersionsResponse{ServerType: proto.Int32(s.cfg.ServerType)}
	add := func(k APIKey, hi int32) {
		resp.ApiVersions = append(resp.ApiVersions, &pb.PbApiVersion{
			ApiKey: proto.Int32(int32(k)), MinVersion: proto.Int32(0), MaxVersion: proto.Int32(hi),
		})
	}
	add(APIVersions, 0)
	for _, k := range s.cfg.APIs {
		hi := int32(0)
		if k == PutKV || k == Lookup || k == PrefixLookup {
			hi = 2
		}
		add(k, hi)
	}
	r.Reply(resp)
}
