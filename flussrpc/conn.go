package flussrpc

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"slices"
	"strings"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
)

// Identity reported to servers in ApiVersions. Servers only log it.
const (
	// ClientSoftwareName is the default client_software_name.
	ClientSoftwareName = "fluss-go-sql"
	// ClientSoftwareVersion is the client_software_version sent to servers.
	ClientSoftwareVersion = "0.1.0"
)

// DefaultDialTimeout bounds connecting plus the ApiVersions and SASL
// handshake when ConnConfig.DialTimeout is zero.
const DefaultDialTimeout = 10 * time.Second

// ServerType is the role a server reports in ApiVersions.
type ServerType int32

// Server roles as encoded in ApiVersionsResponse.server_type.
const (
	ServerTypeUnknown      ServerType = -1 // absent or unrecognised
	ServerTypeCoordinator  ServerType = 1
	ServerTypeTabletServer ServerType = 2
)

// String returns "coordinator", "tablet-server" or "unknown".
func (t ServerType) String() string {
	switch t {
	case ServerTypeCoordinator:
		return "coordinator"
	case ServerTypeTabletServer:
		return "tablet-server"
	default:
		return "unknown"
	}
}

// ConnConfig configures connections to Fluss servers. The zero value is a
// usable plaintext configuration.
type ConnConfig struct {
	// ClientID replaces ClientSoftwareName in the ApiVersions handshake;
	// servers log it, which helps to tell applications apart.
	ClientID string
	// Username and Password enable SASL/PLAIN authentication when Username
	// is non-empty. Both must then be non-empty and free of NUL bytes.
	// Fluss has no TLS of its own: PLAIN credentials travel in clear text
	// unless TLS is set and a TLS-terminating proxy fronts the servers;
	// SASL then runs inside the TLS stream, after its handshake.
	Username string
	// Password is the SASL/PLAIN password belonging to Username.
	Password string
	// MaxFrameSize caps the size of a response frame; a larger length
	// prefix is rejected before any memory is reserved and the connection
	// is closed. Zero means DefaultMaxFrameSize.
	MaxFrameSize int
	// MaxRequestSize caps the size of a request frame; bigger requests are
	// refused without sending. Zero means DefaultMaxRequestSize.
	MaxRequestSize int
	// DialTimeout bounds connecting and the handshake. Zero means
	// DefaultDialTimeout; negative means no limit beyond the context.
	DialTimeout time.Duration
	// Dialer, when set, opens the network connection instead of net.Dialer.
	// Tests use it to inject faults; deployments can use it for proxies.
	Dialer func(ctx context.Context, network, addr string) (net.Conn, error)
	// TLS, when set, runs a TLS client handshake on every connection right
	// after the Dialer. Fluss 0.9 has no TLS listener, so this is for a
	// TLS terminator (HAProxy, envoy, stunnel) in front of each server. An
	// empty ServerName is taken from the host of the address being dialed;
	// the config is cloned per dial, never modified. The handshake runs
	// under DialTimeout and its failures are dial errors: nothing of any
	// request has been sent.
	TLS *tls.Config
}

// Format prints the configuration with a non-empty Password replaced by
// "xxxxx", whatever the verb: without it %v and %#v of a ConnConfig, or of
// a Config holding one, showed the password.
func (cfg ConnConfig) Format(f fmt.State, verb rune) {
	if cfg.Password != "" {
		cfg.Password = "xxxxx"
	}
	type plain ConnConfig // the same fields, without this method
	s := fmt.Sprintf(fmt.FormatString(f, verb), plain(cfg))
	if verb == 'v' && f.Flag('#') {
		s = "flussrpc.ConnConfig" + strings.TrimPrefix(s, "flussrpc.plain")
	}
	io.WriteString(f, s)
}

// withDefaults fills zero fields with their defaults.
func (cfg ConnConfig) withDefaults() ConnConfig {
	if cfg.ClientID == "" {
		cfg.ClientID = ClientSoftwareName
	}
	if cfg.MaxFrameSize <= 0 {
		cfg.MaxFrameSize = DefaultMaxFrameSize
	}
	if cfg.MaxRequestSize <= 0 {
		cfg.MaxRequestSize = DefaultMaxRequestSize
	}
	if cfg.DialTimeout == 0 {
		cfg.DialTimeout = DefaultDialTimeout
	}
	if cfg.Dialer == nil {
		var d net.Dialer
		cfg.Dialer = d.DialContext
	}
	return cfg
}

// conn is one multiplexed connection to one Fluss server. Any number of
// goroutines may call it concurrently: writes are serialised, responses are
// matched to callers by request id in whatever order the server sends them.
type conn struct {
	addr   string
	nc     net.Conn
	cfg    ConnConfig
	hooks  *hooks
	reader *bufio.Reader

	// writeSlot is a one-token semaphore rather than a mutex so that a
	// caller can give up waiting for it when its context ends.
	writeSlot chan struct{}

	mu        sync.Mutex
	pending   map[int32]*waiter
	nextID    int32
	closeErr  error         // why the connection ended; set once
	closed    chan struct{} // closed together with setting closeErr
	readerEnd chan struct{} // closed when the reader goroutine returns

	// Written during the handshake, read-only afterwards.
	versions   map[APIKey]int16    // negotiated version per usable API
	advertised map[APIKey][2]int32 // server's [min, max] per listed API
	srvType    ServerType
}

// waiter receives the outcome of one in-flight request. The channel has
// room for one result so the sender (reader goroutine or shutdown) never
// blocks, even when the caller has already given up.
type waiter struct {
	id int32
	ch chan result
	// trace is the request's trace when a RequestTracer is set.
	trace *requestTrace
}

// requestTrace is what RequestTracer.TraceRequestEnd needs of a request
// in flight.
type requestTrace struct {
	ctx   context.Context // as TraceRequestStart returned it
	data  TraceRequestStartData
	start time.Time
}

// result is a response frame or the error that replaced it.
type result struct {
	typ  responseType
	body []byte
	err  error
}

// dialConn connects to addr, negotiates API versions and authenticates.
// The returned connection is ready for call. h are the client's hooks
// (nil: none).
func dialConn(ctx context.Context, addr string, cfg ConnConfig, h *hooks) (*conn, error) {
	if h == nil {
		h = &noHooks
	}
	if t := h.connect; t != nil {
		return dialTraced(ctx, addr, cfg, h, t)
	}
	c, err := dialUntraced(ctx, addr, cfg, h)
	if err != nil {
		h.dialFailed(ctx, addr, err)
	}
	return c, err
}

// dialFailed logs a failed dial, unless the caller gave up on it.
func (h *hooks) dialFailed(ctx context.Context, addr string, err error) {
	if ctx.Err() == nil {
		h.log.Warn("flussrpc: connecting failed", "addr", addr, "err", err)
	}
}

// dialTraced is dialConn under a ConnectTracer.
func dialTraced(ctx context.Context, addr string, cfg ConnConfig, h *hooks, t ConnectTracer) (*conn, error) {
	start := time.Now()
	data := TraceConnectStartData{Addr: addr}
	ctx = t.TraceConnectStart(ctx, data)
	c, err := dialUntraced(ctx, addr, cfg, h)
	end := TraceConnectEndData{TraceConnectStartData: data, ServerType: ServerTypeUnknown, Latency: time.Since(start), Err: err}
	if err == nil {
		end.ServerType = c.serverType()
	} else {
		h.dialFailed(ctx, addr, err)
	}
	t.TraceConnectEnd(ctx, end)
	return c, err
}

// dialUntraced is dialConn without its hooks.
func dialUntraced(ctx context.Context, addr string, cfg ConnConfig, h *hooks) (*conn, error) {
	cfg = cfg.withDefaults()
	if err := checkCredentials(cfg); err != nil {
		return nil, err
	}
	if cfg.DialTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.DialTimeout)
		defer cancel()
	}
	nc, err := dialNetwork(ctx, addr, cfg)
	if err != nil {
		if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
			err = fmt.Errorf("%w: %v", ctx.Err(), err)
		}
		return nil, &TransportError{Addr: addr, Op: "dial", Err: err}
	}
	c := newConn(addr, nc, cfg)
	c.hooks = h
	if err := c.handshake(ctx); err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

// newConn wraps an established network connection and starts its reader.
// It has no hooks until dialConn gives it the client's.
func newConn(addr string, nc net.Conn, cfg ConnConfig) *conn {
	c := &conn{
		addr:      addr,
		nc:        nc,
		cfg:       cfg,
		hooks:     &noHooks,
		reader:    bufio.NewReaderSize(nc, 32<<10),
		writeSlot: make(chan struct{}, 1),
		pending:   make(map[int32]*waiter),
		closed:    make(chan struct{}),
		readerEnd: make(chan struct{}),
		srvType:   ServerTypeUnknown,
	}
	go c.readLoop()
	return c
}

// handshake runs ApiVersions and, when configured, SASL/PLAIN. Failures are
// reported as handshake transport errors (nothing of any user request was
// sent) unless the server itself answered with an error.
func (c *conn) handshake(ctx context.Context) error {
	req := &pb.ApiVersionsRequest{
		ClientSoftwareName:    proto.String(c.cfg.ClientID),
		ClientSoftwareVersion: proto.String(ClientSoftwareVersion),
	}
	var resp pb.ApiVersionsResponse
	if err := rpcAPIVersions.roundTrip(ctx, c, 0, req, &resp); err != nil {
		return c.handshakeError(err)
	}
	c.recordVersions(&resp)
	if c.cfg.Username == "" {
		return nil
	}
	if err := c.authenticate(ctx, c.cfg.Username, c.cfg.Password); err != nil {
		return c.handshakeError(err)
	}
	return nil
}

// handshakeError relabels a transport failure during set-up: for the
// caller that triggered the dial, nothing has been sent yet.
func (c *conn) handshakeError(err error) error {
	var te *TransportError
	if errors.As(err, &te) {
		return &TransportError{Addr: c.addr, Op: "handshake", Err: te.Err}
	}
	return err
}

// recordVersions stores the server's API list and role.
func (c *conn) recordVersions(resp *pb.ApiVersionsResponse) {
	c.versions = make(map[APIKey]int16)
	c.advertised = make(map[APIKey][2]int32)
	for _, v := range resp.GetApiVersions() {
		k := v.GetApiKey()
		if k < math.MinInt16 || k > math.MaxInt16 {
			continue
		}
		key := APIKey(k)
		c.advertised[key] = [2]int32{v.GetMinVersion(), v.GetMaxVersion()}
		if ver, ok := negotiateVersion(key, v.GetMinVersion(), v.GetMaxVersion()); ok {
			c.versions[key] = ver
		}
	}
	switch t := ServerType(resp.GetServerType()); t {
	case ServerTypeCoordinator, ServerTypeTabletServer:
		c.srvType = t
	default:
		c.srvType = ServerTypeUnknown
	}
}

// serverType is the role the server reported during the handshake.
func (c *conn) serverType() ServerType { return c.srvType }

// apiVersion returns the version negotiated for api; ok is false when the
// server did not advertise it or no common version exists.
func (c *conn) apiVersion(api APIKey) (int16, bool) {
	v, ok := c.versions[api]
	return v, ok
}

// supportedAPIs lists the APIs usable on this connection, sorted.
func (c *conn) supportedAPIs() []APIKey {
	keys := make([]APIKey, 0, len(c.versions))
	for k := range c.versions {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// call sends req as api and decodes the reply into resp. It refuses, without
// sending, any API the server did not advertise: servers drop unknown APIs
// silently, so sending one would only end in a timeout. ctx bounds both the
// wait for the write slot and the wait for the reply; when it ends after the
// request was written, the late reply is discarded and the connection stays
// usable.
func (c *conn) call(ctx context.Context, api APIKey, req, resp proto.Message) error {
	w, err := c.start(ctx, api, req)
	if err != nil {
		return err
	}
	return c.await(ctx, api, w, resp)
}

// start is the first half of every request: it checks that the server
// advertises api, encodes req at the version both sides support and writes
// it. await is the second half. The writer's sender calls the two halves
// from different goroutines, so that requests to a server leave in order
// while their answers are awaited concurrently.
func (c *conn) start(ctx context.Context, api APIKey, req proto.Message) (*waiter, error) {
	version, ok := c.apiVersion(api)
	if !ok {
		return nil, c.notAdvertised(api)
	}
	return c.startVersion(ctx, api, version, req)
}

// notAdvertised explains why api cannot be used on this connection.
func (c *conn) notAdvertised(api APIKey) error {
	if r, listed := c.advertised[api]; listed {
		lo, hi, _ := api.ClientVersions()
		return fmt.Errorf("%w: %s on %s (%s) offers versions %d-%d, client supports %d-%d",
			ErrAPINotAdvertised, api, c.addr, c.srvType, r[0], r[1], lo, hi)
	}
	return fmt.Errorf("%w: %s is not served by %s (%s); it may belong to the other server role or a newer Fluss release",
		ErrAPINotAdvertised, api, c.addr, c.srvType)
}

// startVersion encodes req at an explicit version and writes it.
func (c *conn) startVersion(ctx context.Context, api APIKey, version int16, req proto.Message) (*waiter, error) {
	if err := ctx.Err(); err != nil {
		return nil, c.contextError(api, err, false)
	}
	frame, err := encodeRequest(api, version, req, c.cfg.MaxRequestSize)
	if err != nil {
		return nil, err
	}
	if t := c.hooks.request; t != nil {
		return c.sendTraced(ctx, t, api, frame)
	}
	return c.send(ctx, api, frame)
}

// sendTraced is send under a RequestTracer; await ends the trace of a
// request that was written.
func (c *conn) sendTraced(ctx context.Context, t RequestTracer, api APIKey, frame requestFrame) (*waiter, error) {
	tr := &requestTrace{data: TraceRequestStartData{API: api, Addr: c.addr, BytesOut: frame.size()}, start: time.Now()}
	tr.ctx = t.TraceRequestStart(ctx, tr.data)
	w, err := c.send(tr.ctx, api, frame)
	if err != nil {
		c.endTrace(tr, 0, err)
		return nil, err
	}
	w.trace = tr
	return w, nil
}

// endTrace ends the trace of a request.
func (c *conn) endTrace(tr *requestTrace, bytesIn int, err error) {
	c.hooks.request.TraceRequestEnd(tr.ctx, TraceRequestEndData{TraceRequestStartData: tr.data, BytesIn: bytesIn, Latency: time.Since(tr.start), Err: err})
}

// send acquires the write slot, registers a waiter and writes the frame.
func (c *conn) send(ctx context.Context, api APIKey, frame requestFrame) (*waiter, error) {
	select {
	case c.writeSlot <- struct{}{}:
	case <-ctx.Done():
		return nil, c.contextError(api, ctx.Err(), false)
	case <-c.closed:
		return nil, c.closedError()
	}
	defer func() { <-c.writeSlot }()
	if err := ctx.Err(); err != nil {
		return nil, c.contextError(api, err, false)
	}
	// Register only now, under the write slot: a waiter that exists but
	// was never written would be told "may have been sent" on shutdown.
	w, err := c.register()
	if err != nil {
		return nil, err
	}
	setRequestID(frame, w.id)
	n, werr := c.write(ctx, frame)
	if werr == nil {
		return w, nil
	}
	c.unregister(w.id)
	if n == 0 && ctx.Err() != nil {
		// The context interrupted the write before any byte left: the
		// stream is still aligned on a frame boundary, keep the connection.
		// Not so under TLS: crypto/tls makes an interrupted write permanent
		// (and may have sent part of a record, which the terminator drops
		// unread), so close it now rather than fail the next caller.
		if _, isTLS := c.nc.(*tls.Conn); isTLS {
			c.shutdown("write", fmt.Errorf("%w (TLS write interrupted, connection closed)", ctx.Err()))
		}
		return nil, c.contextError(api, ctx.Err(), false)
	}
	// Part of a frame may be on the wire; the stream is unusable.
	cause := werr
	if ctx.Err() != nil {
		cause = fmt.Errorf("%w (interrupted mid-frame, connection closed)", ctx.Err())
	}
	c.shutdown("write", cause)
	return nil, &TransportError{Addr: c.addr, Op: "write", MaybeSent: n > 0, Err: cause}
}

// write writes the whole frame: a frame of one part in one Write call,
// one of several through net.Buffers, a single writev on a TCP connection.
// If ctx ends meanwhile, a past write deadline interrupts the blocked
// write; the deadline is reset afterwards so the connection can continue
// when nothing was written.
func (c *conn) write(ctx context.Context, frame requestFrame) (int64, error) {
	fired := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		_ = c.nc.SetWriteDeadline(time.Unix(1, 0))
		close(fired)
	})
	var n int64
	var err error
	if frame.parts == nil {
		var m int
		m, err = c.nc.Write(frame.head)
		n = int64(m)
	} else {
		parts := net.Buffers(frame.parts) // spent by WriteTo, as frame is after the write
		n, err = parts.WriteTo(c.nc)
	}
	if !stop() {
		<-fired
		_ = c.nc.SetWriteDeadline(time.Time{})
	}
	return n, err
}

// register allocates a request id and records its waiter.
func (c *conn) register() (*waiter, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closeErr != nil {
		return nil, c.closedErrorLocked()
	}
	// Ids only need to be unique among pending requests; skip ids still
	// in use after the counter wraps.
	id := c.nextID
	for {
		if _, busy := c.pending[id]; !busy {
			break
		}
		id = nextRequestID(id)
	}
	c.nextID = nextRequestID(id)
	w := &waiter{id: id, ch: make(chan result, 1)}
	c.pending[id] = w
	return w, nil
}

// nextRequestID advances a request id, wrapping to 0 to stay non-negative.
func nextRequestID(id int32) int32 {
	if id == math.MaxInt32 {
		return 0
	}
	return id + 1
}

// unregister removes a waiter; it reports whether the waiter was still
// pending (false means a result has been or is being delivered to it).
func (c *conn) unregister(id int32) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.pending[id]; !ok {
		return false
	}
	delete(c.pending, id)
	return true
}

// await waits for the response to w and decodes it into resp.
func (c *conn) await(ctx context.Context, api APIKey, w *waiter, resp proto.Message) error {
	select {
	case r := <-w.ch:
		err := c.decodeResult(api, r, resp)
		if w.trace != nil {
			c.endTrace(w.trace, responseSize(r), err)
		}
		return err
	case <-ctx.Done():
		// Removing the waiter makes the reader drop the late reply.
		c.unregister(w.id)
		err := c.contextError(api, ctx.Err(), true)
		if w.trace != nil {
			c.endTrace(w.trace, 0, err)
		}
		return err
	}
}

// responseSize is the size of the frame a result came in: its body and
// the response header (and length prefix) before it; 0 when it failed.
func responseSize(r result) int {
	if r.err != nil {
		return 0
	}
	return lengthFieldSize + responseHeaderSize + len(r.body)
}

// decodeResult turns a delivered result into the caller's outcome.
func (c *conn) decodeResult(api APIKey, r result, resp proto.Message) error {
	switch {
	case r.err != nil:
		return r.err
	case r.typ == respError:
		return decodeServerError(r.body, api, false)
	}
	if fr, ok := resp.(*pb.FetchLogResponse); ok && decodeFetchLog(r.body, fr) {
		return nil
	}
	// AllowPartial: a reply lacking a required field is still usable (the
	// field reads as zero); rejecting it would gain nothing.
	if err := (proto.UnmarshalOptions{AllowPartial: true}).Unmarshal(r.body, resp); err != nil {
		return fmt.Errorf("flussrpc: decode %s response from %s: %w", api, c.addr, err)
	}
	return nil
}

// readLoop reads response frames until the connection fails, handing each
// to its waiter. Replies for unknown ids (the caller gave up) are dropped.
func (c *conn) readLoop() {
	defer close(c.readerEnd)
	for {
		payload, err := readFrame(c.reader, serverFailureHdrSize, c.cfg.MaxFrameSize)
		if err != nil {
			c.shutdown("read", err)
			return
		}
		f, err := parseResponse(payload)
		if err != nil {
			c.shutdown("read", err)
			return
		}
		if f.typ == respServerFailure {
			// Not tied to any request: the server is about to close.
			c.shutdown("read", decodeServerError(f.body, 0, true))
			return
		}
		c.deliver(f)
	}
}

// deliver passes a frame to the waiter of its request id, if any.
func (c *conn) deliver(f responseFrame) {
	c.mu.Lock()
	w := c.pending[f.requestID]
	delete(c.pending, f.requestID)
	c.mu.Unlock()
	if w != nil {
		w.ch <- result{typ: f.typ, body: f.body}
	}
}

// shutdown closes the connection once. Every pending request was written
// in full, so each fails with a TransportError marked MaybeSent; op and
// cause say what broke. Later calls keep the first cause.
func (c *conn) shutdown(op string, cause error) {
	c.mu.Lock()
	if c.closeErr != nil {
		c.mu.Unlock()
		return
	}
	c.closeErr = cause
	pending := c.pending
	c.pending = make(map[int32]*waiter)
	close(c.closed)
	c.mu.Unlock()

	_ = closeNetConn(c.nc)
	err := &TransportError{Addr: c.addr, Op: op, MaybeSent: true, Err: cause}
	if !errors.Is(cause, ErrClosed) {
		c.hooks.log.Warn("flussrpc: connection lost", "addr", c.addr, "pending", len(pending), "err", err)
	}
	for _, w := range pending {
		w.ch <- result{err: err}
	}
}

// close closes the connection and waits for its reader to stop. Pending
// calls fail with a TransportError wrapping ErrClosed.
func (c *conn) close() {
	c.shutdown("closed", ErrClosed)
	<-c.readerEnd
}

// isClosed reports whether the connection has ended for any reason.
func (c *conn) isClosed() bool {
	select {
	case <-c.closed:
		return true
	default:
		return false
	}
}

// closedError is returned to calls made after the connection ended.
func (c *conn) closedError() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closedErrorLocked()
}

// closedErrorLocked is closedError with c.mu held. Nothing was written,
// so the error is SafeToRetry on another connection.
func (c *conn) closedErrorLocked() error {
	return &TransportError{Addr: c.addr, Op: "closed", Err: c.closeErr}
}

// contextError wraps a context error so errors.Is(err, context.Canceled)
// and errors.Is(err, context.DeadlineExceeded) keep working.
func (c *conn) contextError(api APIKey, err error, sent bool) error {
	if sent {
		return fmt.Errorf("flussrpc: %s to %s abandoned after sending (the server may still execute it): %w", api, c.addr, err)
	}
	return fmt.Errorf("flussrpc: %s to %s not sent: %w", api, c.addr, err)
}
