package flussrpc

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc/pb"
	"github.com/gofluss/fluss/internal/fakefluss"
)

// Unit tests of ConnConfig.TLS against the fake server. The TLS proxy in
// front of a real cluster is exercised by the driver's tls_test.go.

// testTLS returns a server config and a client config that trusts it. The
// certificate is the one net/http/httptest ships (valid for example.com
// and 127.0.0.1): these tests need a certificate, not a PKI. Session
// tickets are off so that a handshake over net.Pipe needs no reader once
// it is done.
func testTLS(t *testing.T) (server, client *tls.Config) {
	t.Helper()
	s := httptest.NewUnstartedServer(nil)
	s.StartTLS()
	defer s.Close()
	pool := x509.NewCertPool()
	pool.AddCert(s.Certificate())
	return &tls.Config{Certificates: s.TLS.Certificates, SessionTicketsDisabled: true},
		&tls.Config{RootCAs: pool}
}

// redirect dials target whatever address the client asks for, as a
// proxy map would: the address asked for is what TLS verifies.
func redirect(target string) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, target)
	}
}

// wantDialError fails unless err is a dial TransportError: nothing sent,
// safe to retry elsewhere.
func wantDialError(t *testing.T, err error) {
	t.Helper()
	var te *TransportError
	if !errors.As(err, &te) || te.Op != "dial" || te.MaybeSent || !SafeToRetry(err) {
		t.Fatalf("err = %v, want a safe-to-retry dial error", err)
	}
}

// wantPermanent fails when err counts as retriable: a refused handshake
// would fail the same way on every attempt, and retrying it made a
// misconfigured client hang for the whole retry budget (about 15 s).
func wantPermanent(t *testing.T, err error) {
	t.Helper()
	if IsRetriable(err) {
		t.Fatalf("err = %v counts as retriable", err)
	}
}

func TestTLSVerifiesDialedHost(t *testing.T) {
	srv, cli := testTLS(t)
	s := newFakeServerWith(t, fakefluss.Config{
		Listen: func(ln net.Listener) net.Listener { return tls.NewListener(ln, srv) },
	}, APIKeyGetTableInfo)
	for _, tc := range []struct {
		addr, serverName string
		ok               bool
	}{
		{"example.com:9123", "", true},
		{"127.0.0.1:9124", "", true},
		{"fluss-1.internal:9123", "", false}, // the certificate does not name it
		{"fluss-1.internal:9123", "example.com", true},
	} {
		t.Run(tc.addr+"/"+tc.serverName, func(t *testing.T) {
			mine := cli.Clone()
			mine.ServerName = tc.serverName
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			c, err := dialConn(ctx, tc.addr, ConnConfig{TLS: mine, Dialer: redirect(s.Addr())}, nil)
			if mine.ServerName != tc.serverName {
				t.Fatalf("the dial changed the caller's ServerName to %q", mine.ServerName)
			}
			if !tc.ok {
				var he x509.HostnameError
				if !errors.As(err, &he) {
					t.Fatalf("err = %v, want an x509.HostnameError", err)
				}
				wantDialError(t, err)
				wantPermanent(t, err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer c.close()
			wantTableInfoRoundTrip(t, s, c)
		})
	}
}

// wantTableInfoRoundTrip sends one request over c and answers it.
func wantTableInfoRoundTrip(t *testing.T, s *fakefluss.Server, c *conn) {
	t.Helper()
	done := make(chan error, 1)
	var resp pb.GetTableInfoResponse
	go func() { done <- c.call(context.Background(), APIKeyGetTableInfo, tableInfoReq("a"), &resp) }()
	r := s.Next()
	r.Reply(tableInfoResp(7))
	if err := waitErr(t, done); err != nil || resp.GetTableId() != 7 {
		t.Fatalf("call over TLS = %v, table id %d", err, resp.GetTableId())
	}
}

// TestTLSToPlainServerIsADialError: a server that does not speak TLS (the
// Fluss port itself instead of its proxy) fails the dial.
func TestTLSToPlainServerIsADialError(t *testing.T) {
	_, cli := testTLS(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() { // answer the ClientHello with a Fluss frame
		nc, err := ln.Accept()
		if err == nil {
			defer nc.Close()
			_, _ = nc.Write(fakefluss.ResponseFrame(fakefluss.Success, 0, make([]byte, 16)))
			_, _ = io.Copy(io.Discard, nc)
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = dialConn(ctx, ln.Addr().String(), ConnConfig{TLS: cli}, nil)
	wantDialError(t, err)
	wantPermanent(t, err)
	if !strings.Contains(err.Error(), "TLS handshake") || ctx.Err() != nil {
		t.Fatalf("err = %v, want the TLS handshake to fail at once", err)
	}
}

// silentListener accepts connections and never answers. started receives
// a value once a client has sent its first bytes (the ClientHello).
func silentListener(t *testing.T) (addr string, started <-chan struct{}) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ch := make(chan struct{}, 1)
	accepted := make(chan net.Conn, 16)
	go func() {
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- nc
			if _, err := nc.Read(make([]byte, 1)); err == nil {
				select {
				case ch <- struct{}{}:
				default:
				}
			}
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		for len(accepted) > 0 {
			(<-accepted).Close()
		}
	})
	return ln.Addr().String(), ch
}

func TestTLSHandshakeCancelled(t *testing.T) {
	_, cli := testTLS(t)
	addr, started := silentListener(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		c, err := NewClient(ctx, Config{Bootstrap: []string{addr}, Conn: ConnConfig{TLS: cli, DialTimeout: -1}})
		if err == nil {
			c.Close()
		}
		done <- err
	}()
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the client never started its handshake")
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
		var te *TransportError
		if !errors.As(err, &te) || te.Op != "dial" || te.MaybeSent {
			t.Fatalf("err = %v, want it to carry the dial failure", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("NewClient did not return within 10s of the cancellation")
	}
}

func TestTLSHandshakeTimeout(t *testing.T) {
	_, cli := testTLS(t)
	addr, _ := silentListener(t)
	_, err := dialConn(context.Background(), addr, ConnConfig{TLS: cli, DialTimeout: 50 * time.Millisecond}, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want DeadlineExceeded", err)
	}
	var te *TransportError
	if !errors.As(err, &te) || te.Op != "dial" {
		t.Fatalf("err = %v, want a dial error", err)
	}
}

// TestTLSInterruptedWriteClosesConn: crypto/tls cannot continue after a
// write deadline fired, so unlike plaintext (see TestCancelDuringBlockedWrite)
// the connection closes, the request counting as not sent.
func TestTLSInterruptedWriteClosesConn(t *testing.T) {
	srv, cli := testTLS(t)
	cli.ServerName = "example.com"
	client, server := net.Pipe()
	tc, ts := tls.Client(client, cli), tls.Server(server, srv)
	hsCtx, hsCancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer hsCancel()
	hs := make(chan error, 1)
	go func() { hs <- ts.HandshakeContext(hsCtx) }()
	if err := tc.HandshakeContext(hsCtx); err != nil {
		t.Fatal(err)
	}
	if err := <-hs; err != nil {
		t.Fatal(err)
	}
	c := newConn("pipe", tc, ConnConfig{}.withDefaults())
	c.versions = map[APIKey]int16{APIKeyGetTableInfo: 0}
	t.Cleanup(func() {
		server.Close()
		c.close()
	})
	// Nobody reads the server end: the write blocks until the deadline.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	var resp pb.GetTableInfoResponse
	err := c.call(ctx, APIKeyGetTableInfo, tableInfoReq("a"), &resp)
	if !errors.Is(err, context.DeadlineExceeded) || SafeToRetry(err) {
		t.Fatalf("err = %v, want DeadlineExceeded", err)
	}
	var te *TransportError
	if errors.As(err, &te) {
		t.Fatalf("err = %v: nothing was sent, want no transport error", err)
	}
	if !c.isClosed() {
		t.Fatal("the TLS connection stays open after an interrupted write")
	}
}
