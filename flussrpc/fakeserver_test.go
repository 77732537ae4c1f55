package flussrpc

import (
	"context"
	"encoding/binary"
	"errors"
	"net"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
)

// fakeRequest is one request frame received by the fake server.
type fakeRequest struct {
	api     APIKey
	version int16
	id      int32
	body    []byte
	sc      *serverConn
}

// serverConn is the fake server's side of one client connection. Writes are
// serialised so handler goroutines may reply concurrently.
type serverConn struct {
	nc  net.Conn
	wmu sync.Mutex
}

// fakeServer is a loopback Fluss look-alike. It answers API_VERSIONS (and,
// if configured, AUTHENTICATE) itself and hands every other request to the
// test through reqs, so the test decides when, how and in which order to
// answer.
type fakeServer struct {
	t          *testing.T
	ln         net.Listener
	apis       []APIKey // advertised, besides API_VERSIONS
	serverType int32

	// auth, when set, answers AUTHENTICATE requests; nil forwards them to
	// reqs like any other request.
	auth func(r fakeRequest)

	reqs chan fakeRequest

	mu    sync.Mutex
	conns []*serverConn
	wg    sync.WaitGroup
}

// newFakeServer starts a fake server advertising apis and stops it when the
// test ends.
func newFakeServer(t *testing.T, apis ...APIKey) *fakeServer {
	t.Helper()
	return newFakeServerWith(t, nil, apis...)
}

// newFakeServerWith is newFakeServer with a hook that adjusts the server
// before it starts accepting (so no field is written while serving).
func newFakeServerWith(t *testing.T, configure func(*fakeServer), apis ...APIKey) *fakeServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	s := &fakeServer{t: t, ln: ln, apis: apis, serverType: 2, reqs: make(chan fakeRequest, 128)}
	if configure != nil {
		configure(s)
	}
	s.wg.Add(1)
	go s.acceptLoop()
	t.Cleanup(s.stop)
	return s
}

func (s *fakeServer) addr() string { return s.ln.Addr().String() }

func (s *fakeServer) stop() {
	_ = s.ln.Close()
	s.mu.Lock()
	for _, sc := range s.conns {
		_ = sc.nc.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

// dropAll closes every accepted connection from the server side.
func (s *fakeServer) dropAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sc := range s.conns {
		_ = sc.nc.Close()
	}
}

func (s *fakeServer) acceptLoop() {
	defer s.wg.Done()
	for {
		nc, err := s.ln.Accept()
		if err != nil {
			return
		}
		sc := &serverConn{nc: nc}
		s.mu.Lock()
		s.conns = append(s.conns, sc)
		s.mu.Unlock()
		s.wg.Add(1)
		go s.serve(sc)
	}
}

// serve reads request frames until the connection closes.
func (s *fakeServer) serve(sc *serverConn) {
	defer s.wg.Done()
	for {
		p, err := readFrame(sc.nc, requestHeaderSize, 16<<20)
		if err != nil {
			return
		}
		r := fakeRequest{
			api:     APIKey(binary.BigEndian.Uint16(p[0:])),
			version: int16(binary.BigEndian.Uint16(p[2:])),
			id:      int32(binary.BigEndian.Uint32(p[4:])),
			body:    p[requestHeaderSize:],
			sc:      sc,
		}
		switch {
		case r.api == APIKeyAPIVersions:
			s.answerVersions(r)
		case r.api == APIKeyAuthenticate && s.auth != nil:
			s.auth(r)
		default:
			s.reqs <- r
		}
	}
}

// answerVersions replies with the advertised API list, using the server
// side version ranges of Fluss 0.9.1.
func (s *fakeServer) answerVersions(r fakeRequest) {
	var req pb.ApiVersionsRequest
	if err := proto.Unmarshal(r.body, &req); err != nil {
		s.t.Errorf("fake server: bad ApiVersions request: %v", err)
		return
	}
	resp := &pb.ApiVersionsResponse{ServerType: proto.Int32(s.serverType)}
	add := func(k APIKey, hi int32) {
		resp.ApiVersions = append(resp.ApiVersions, &pb.PbApiVersion{
			ApiKey: proto.Int32(int32(k)), MinVersion: proto.Int32(0), MaxVersion: proto.Int32(hi),
		})
	}
	add(APIKeyAPIVersions, 0)
	for _, k := range s.apis {
		hi := int32(0)
		if k == APIKeyPutKV || k == APIKeyLookup || k == APIKeyPrefixLookup {
			hi = 2 // more than the client: negotiation must pick 1
		}
		add(k, hi)
	}
	r.sc.reply(r.id, resp)
}

// next returns the next forwarded request or fails the test.
func (s *fakeServer) next() fakeRequest {
	s.t.Helper()
	select {
	case r := <-s.reqs:
		return r
	case <-time.After(5 * time.Second):
		s.t.Fatal("fake server: no request arrived")
		return fakeRequest{}
	}
}

// expectNone fails the test if a request arrives within d.
func (s *fakeServer) expectNone(d time.Duration) {
	s.t.Helper()
	select {
	case r := <-s.reqs:
		s.t.Fatalf("fake server: unexpected %s request", r.api)
	case <-time.After(d):
	}
}

func (sc *serverConn) write(b []byte) {
	sc.wmu.Lock()
	defer sc.wmu.Unlock()
	_, _ = sc.nc.Write(b)
}

// responseBytes builds a SUCCESS or ERROR frame.
func responseBytes(typ responseType, id int32, body []byte) []byte {
	b := make([]byte, 9, 9+len(body))
	binary.BigEndian.PutUint32(b, uint32(5+len(body)))
	b[4] = byte(typ)
	binary.BigEndian.PutUint32(b[5:], uint32(id))
	return append(b, body...)
}

// serverFailureBytes builds a SERVER_FAILURE frame (no request id).
func serverFailureBytes(code int32, msg string) []byte {
	body, _ := proto.Marshal(&pb.ErrorResponse{ErrorCode: proto.Int32(code), ErrorMessage: proto.String(msg)})
	b := make([]byte, 5, 5+len(body))
	binary.BigEndian.PutUint32(b, uint32(1+len(body)))
	b[4] = byte(respServerFailure)
	return append(b, body...)
}

func (sc *serverConn) reply(id int32, m proto.Message) {
	body, err := proto.Marshal(m)
	if err != nil {
		panic(err)
	}
	sc.write(responseBytes(respSuccess, id, body))
}

func (sc *serverConn) replyError(id int32, code int32, msg string) {
	body, _ := proto.Marshal(&pb.ErrorResponse{ErrorCode: proto.Int32(code), ErrorMessage: proto.String(msg)})
	sc.write(responseBytes(respError, id, body))
}

// dialTest connects to the fake server with cfg.
func dialTest(t *testing.T, s *fakeServer, cfg ConnConfig) *conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := dialConn(ctx, s.addr(), cfg)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(c.close)
	return c
}

// tableInfoReq is a small valid request used throughout the tests.
func tableInfoReq(table string) *pb.GetTableInfoRequest {
	return &pb.GetTableInfoRequest{TablePath: &pb.PbTablePath{
		DatabaseName: proto.String("db"), TableName: proto.String(table),
	}}
}

// tableInfoResp answers a tableInfoReq with table_id = id.
func tableInfoResp(id int64) *pb.GetTableInfoResponse {
	return &pb.GetTableInfoResponse{
		TableId: proto.Int64(id), SchemaId: proto.Int32(1), TableJson: []byte("{}"),
		CreatedTime: proto.Int64(1), ModifiedTime: proto.Int64(2),
	}
}

// tableName decodes the table name of a forwarded GET_TABLE_INFO request.
func tableName(t *testing.T, r fakeRequest) string {
	t.Helper()
	var req pb.GetTableInfoRequest
	if err := proto.Unmarshal(r.body, &req); err != nil {
		t.Fatalf("decode request: %v", err)
	}
	return req.GetTablePath().GetTableName()
}

// waitErr waits for an asynchronous call result.
func waitErr(t *testing.T, ch <-chan error) error {
	t.Helper()
	select {
	case err := <-ch:
		return err
	case <-time.After(5 * time.Second):
		t.Fatal("call did not return")
		return errors.New("unreachable")
	}
}
