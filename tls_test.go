package fluss

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"database/sql"
	"database/sql/driver"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/clustertest"
	"github.com/gofluss/fluss/internal/testkit"
)

// Fluss 0.9 has no TLS listener, so these tests put a TLS-terminating
// proxy (what HAProxy or stunnel would be) in front of the real cluster.

// testPKI is a private CA and a proxy certificate it signed for 127.0.0.1
// and localhost.
type testPKI struct {
	caPEM  []byte
	roots  *x509.CertPool // holds the CA
	server tls.Certificate
}

func newTestPKI(t testing.TB) *testPKI {
	t.Helper()
	caKey := newTestKey(t)
	ca, caDER := issueCert(t, &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "fluss TLS test CA"},
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign,
	}, nil, caKey, caKey)
	serverKey := newTestKey(t)
	_, serverDER := issueCert(t, &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "fluss TLS test proxy"},
		DNSNames:     []string{"localhost"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}, ca, serverKey, caKey)
	roots := x509.NewCertPool()
	roots.AddCert(ca)
	return &testPKI{
		caPEM:  pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}),
		roots:  roots,
		server: tls.Certificate{Certificate: [][]byte{serverDER}, PrivateKey: serverKey},
	}
}

func newTestKey(t testing.TB) *ecdsa.PrivateKey {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// issueCert signs tmpl with parentKey (self-signed when parent is nil),
// valid from an hour ago for a day.
func issueCert(t testing.TB, tmpl, parent *x509.Certificate, key, parentKey *ecdsa.PrivateKey) (*x509.Certificate, []byte) {
	t.Helper()
	tmpl.NotBefore, tmpl.NotAfter = time.Now().Add(-time.Hour), time.Now().Add(24*time.Hour)
	if parent == nil {
		parent = tmpl
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return cert, der
}

// caFile writes the CA certificate to a file, for tls_ca.
func (p *testPKI) caFile(t testing.TB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(path, p.caPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// tlsProxy terminates TLS on a local port and forwards the plaintext to
// one Fluss listener. It counts what went through it.
type tlsProxy struct {
	addr       string
	handshakes atomic.Int64 // TLS handshakes completed
	bytes      atomic.Int64 // bytes forwarded, both ways

	ln   net.Listener
	wg   sync.WaitGroup
	mu   sync.Mutex
	raws []net.Conn // every socket, closed when the test ends
}

func startTLSProxy(t *testing.T, pki *testPKI, backend string) *tlsProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &tlsProxy{addr: ln.Addr().String(), ln: tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{pki.server}})}
	p.wg.Add(1)
	go p.serve(backend)
	t.Cleanup(p.close)
	return p
}

func (p *tlsProxy) serve(backend string) {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.track(c.(*tls.Conn).NetConn())
		p.wg.Add(1)
		go p.forward(c.(*tls.Conn), backend)
	}
}

// forward completes the handshake first, so a client that fails it never
// reaches the backend, then copies both ways until either side ends.
func (p *tlsProxy) forward(client *tls.Conn, backend string) {
	defer p.wg.Done()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := client.HandshakeContext(ctx); err != nil {
		client.NetConn().Close()
		return
	}
	p.handshakes.Add(1)
	var d net.Dialer
	server, err := d.DialContext(ctx, "tcp", backend)
	if err != nil {
		client.NetConn().Close()
		return
	}
	p.track(server)
	var both sync.WaitGroup
	oneWay := func(dst io.Writer, src io.Reader) {
		defer both.Done()
		_, _ = io.Copy(countingWriter{dst, &p.bytes}, src)
		client.NetConn().Close()
		server.Close()
	}
	both.Add(2)
	go oneWay(server, client)
	go oneWay(client, server)
	both.Wait()
}

func (p *tlsProxy) track(c net.Conn) {
	p.mu.Lock()
	p.raws = append(p.raws, c)
	p.mu.Unlock()
}

func (p *tlsProxy) close() {
	p.ln.Close()
	p.mu.Lock()
	for _, c := range p.raws {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}

// countingWriter adds what it writes to n as it goes, so the counts are
// current while connections stay open.
type countingWriter struct {
	w io.Writer
	n *atomic.Int64
}

func (c countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n.Add(int64(n))
	return n, err
}

// proxyDialer reaches each server through its proxy. The client learns
// the real addresses from metadata; one without a proxy fails the dial and
// the test, since that would be a direct plaintext connection.
func proxyDialer(t *testing.T, proxies map[string]*tlsProxy) func(context.Context, string, string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		p, ok := proxies[addr]
		if !ok {
			t.Errorf("the client dialed %s, which has no TLS proxy", addr)
			return nil, fmt.Errorf("test: no TLS proxy for %s", addr)
		}
		var d net.Dialer
		return d.DialContext(ctx, network, p.addr)
	}
}

// proxyCluster starts a proxy for every server that the listener at
// bootstrap advertises (and for bootstrap itself), keyed by address. It
// asks with a plaintext client; conn carries the credentials it needs.
func proxyCluster(t *testing.T, pki *testPKI, bootstrap string, conn flussrpc.ConnConfig) map[string]*tlsProxy {
	t.Helper()
	c := newTestClient(t, bootstrap, conn)
	nodes, err := c.Admin().GetServerNodes(testkit.Context(t))
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	proxies := map[string]*tlsProxy{bootstrap: startTLSProxy(t, pki, bootstrap)}
	for _, n := range nodes {
		if proxies[n.Addr()] == nil {
			proxies[n.Addr()] = startTLSProxy(t, pki, n.Addr())
		}
	}
	return proxies
}

func newTestClient(t *testing.T, bootstrap string, conn flussrpc.ConnConfig) *flussrpc.Client {
	t.Helper()
	c, err := flussrpc.NewClient(testkit.Context(t), flussrpc.Config{Bootstrap: []string{bootstrap}, Conn: conn})
	if err != nil {
		t.Fatalf("NewClient(%s): %v", bootstrap, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestTLSClientThroughProxies runs admin calls, a write and a read over
// TLS with the CA as the only root, plaintext and SASL listeners alike.
func TestTLSClientThroughProxies(t *testing.T) {
	pki := newTestPKI(t)
	for _, tc := range []struct {
		name      string
		bootstrap string
		conn      flussrpc.ConnConfig
	}{
		{"plain", clustertest.Bootstrap(t), flussrpc.ConnConfig{}},
		{"sasl", clustertest.SASLBootstrap(t), flussrpc.ConnConfig{Username: clustertest.SASLUser, Password: clustertest.SASLPassword}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proxies := proxyCluster(t, pki, tc.bootstrap, tc.conn)
			conn := tc.conn
			conn.TLS = &tls.Config{RootCAs: pki.roots}
			conn.Dialer = proxyDialer(t, proxies)
			c := newTestClient(t, tc.bootstrap, conn)
			writeAndReadBack(t, c)
			if conn.TLS.ServerName != "" {
				t.Fatalf("the client changed the caller's ServerName to %q", conn.TLS.ServerName)
			}
			used := 0
			for addr, p := range proxies {
				t.Logf("proxy for %s: %d handshakes, %d bytes", addr, p.handshakes.Load(), p.bytes.Load())
				if p.handshakes.Load() > 0 && p.bytes.Load() > 0 {
					used++
				}
			}
			if used < 2 { // the coordinator and at least one tablet server
				t.Fatalf("traffic went through %d proxies, want the coordinator's and a tablet server's", used)
			}
		})
	}
}

// writeAndReadBack lists databases, creates a log table, appends to it
// (tablet server) and scans the rows back.
func writeAndReadBack(t *testing.T, c *flussrpc.Client) {
	t.Helper()
	ctx := testkit.Context(t)
	adm := c.Admin()
	db := "tls_" + strings.ToLower(rand.Text()[:10])
	if err := adm.CreateDatabase(ctx, db, schema.DatabaseDescriptor{}, false); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = adm.DropDatabase(context.Background(), db, true, true) })
	// A fresh cluster has no databases of its own, so look for ours.
	if dbs, err := adm.ListDatabases(ctx); err != nil || !slices.Contains(dbs, db) {
		t.Fatalf("ListDatabases = %v, %v", dbs, err)
	}
	s, err := schema.NewSchema([]schema.Column{
		schema.NewColumn("id", schema.BigInt()), schema.NewColumn("msg", schema.String()),
	}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	path := flussrpc.TablePath{Database: db, Table: "t"}
	// As every test does: a 0.9.1 coordinator under load can miss a new table.
	err = clustertest.CreateWithLeaders(t,
		func() error { return adm.CreateTable(ctx, path, schema.TableDescriptor{Schema: s}, false) },
		func() error { return adm.DropTable(ctx, path, true) })
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := c.OpenTable(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]any{{int64(1), "over"}, {int64(2), "TLS"}}
	appendRows(t, ctx, tbl, want)
	if got := scanTable(t, ctx, tbl); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("read back %v, want %v", got, want)
	}
}

func appendRows(t *testing.T, ctx context.Context, tbl *flussrpc.Table, rows [][]any) {
	t.Helper()
	w, err := tbl.NewAppendWriter(flussrpc.AppendOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close(context.Background())
	for _, r := range rows {
		if _, err := w.Append(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
}

// scanTable reads the whole table, ordered by its first (BIGINT) column.
func scanTable(t *testing.T, ctx context.Context, tbl *flussrpc.Table) [][]any {
	t.Helper()
	s, err := tbl.NewLogScanner(flussrpc.LogScanOptions{Bounded: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.SubscribeAll(ctx, flussrpc.ScanFromEarliest()); err != nil {
		t.Fatal(err)
	}
	var rows [][]any
	for {
		recs, err := s.Poll(ctx, 5*time.Second)
		for _, r := range recs {
			rows = append(rows, r.Row)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	slices.SortFunc(rows, func(a, b []any) int { return int(a[0].(int64) - b[0].(int64)) })
	return rows
}

// registerTestTLS registers cfg under a name of its own for this test.
func registerTestTLS(t *testing.T, cfg *tls.Config) string {
	t.Helper()
	name := "test-" + strings.ToLower(rand.Text()[:8])
	if err := RegisterTLSConfig(name, cfg); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { DeregisterTLSConfig(name) })
	return name
}

// connectDSN opens a database for dsn and makes its first connection,
// which dials the bootstrap server (and only that one).
func connectDSN(ctx context.Context, dsn string) error {
	db, err := sql.Open(DriverName, dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	return conn.Close()
}

// TestTLSDriverDSN connects through sql.Open with each tls form. Without
// a Dialer only the first connection (to the bootstrap proxy) can go over
// TLS, as the cluster's metadata names the servers' own ports;
// TestTLSDriverRoundTrip covers the whole cluster.
func TestTLSDriverDSN(t *testing.T) {
	pki := newTestPKI(t)
	plain := startTLSProxy(t, pki, clustertest.Bootstrap(t))
	sasl := startTLSProxy(t, pki, clustertest.SASLBootstrap(t))
	name := registerTestTLS(t, &tls.Config{RootCAs: pki.roots})
	ca := url.QueryEscape(pki.caFile(t))
	creds := clustertest.SASLUser + ":" + clustertest.SASLPassword + "@"
	for _, tc := range []struct {
		name, dsn string
		proxy     *tlsProxy
	}{
		{"registered", "fluss://" + plain.addr + "/?tls=" + name, plain},
		{"tls_ca", "fluss://" + plain.addr + "/?tls=true&tls_ca=" + ca, plain},
		{"tls_server_name", "fluss://" + plain.addr + "/?tls=true&tls_ca=" + ca + "&tls_server_name=localhost", plain},
		{"skip-verify", "fluss://" + plain.addr + "/?tls=skip-verify", plain},
		{"sasl", "fluss://" + creds + sasl.addr + "/?tls=" + name, sasl},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := tc.proxy.handshakes.Load()
			if err := connectDSN(testkit.Context(t), tc.dsn); err != nil {
				t.Fatal(err)
			}
			if tc.proxy.handshakes.Load() == before {
				t.Fatal("the connection did not go through the TLS proxy")
			}
		})
	}
	t.Run("sasl wrong password", func(t *testing.T) {
		err := connectDSN(testkit.Context(t), "fluss://"+clustertest.SASLUser+":NotTheSecret9@"+sasl.addr+"/?tls="+name)
		if !errors.Is(err, flussrpc.ErrAuthenticate) || strings.Contains(err.Error(), "NotTheSecret9") {
			t.Fatalf("err = %v, want AUTHENTICATE_EXCEPTION without the password", err)
		}
	})
}

// TestTLSDriverRoundTrip runs DDL, writes, a lookup and a scan through
// database/sql over TLS to every server of the cluster, each reached
// through its proxy by Config.Dialer.
func TestTLSDriverRoundTrip(t *testing.T) {
	pki := newTestPKI(t)
	bootstrap := clustertest.Bootstrap(t)
	proxies := proxyCluster(t, pki, bootstrap, flussrpc.ConnConfig{})
	cfg, err := ParseDSN("fluss://" + bootstrap + "/?tls=" + registerTestTLS(t, &tls.Config{RootCAs: pki.roots}))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Dialer = proxyDialer(t, proxies)
	connector, err := NewConnector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(connector)
	defer db.Close()
	ctx := testkit.Context(t)
	name := "tls_" + strings.ToLower(rand.Text()[:10])
	for _, q := range []string{
		"CREATE DATABASE " + name,
		"CREATE TABLE " + name + ".kv (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED)",
		"CREATE TABLE " + name + ".log (id INT, v STRING)",
		"INSERT INTO " + name + ".kv VALUES (1, 'one'), (2, 'two')",
		"INSERT INTO " + name + ".log VALUES (3, 'three')",
	} {
		err := clustertest.ExecWithLeaders(t, q, func(q string) error {
			_, err := db.ExecContext(ctx, q)
			return err
		})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	t.Cleanup(func() { db.Exec("DROP DATABASE IF EXISTS " + name + " CASCADE") })
	var v string
	if err := db.QueryRowContext(ctx, "SELECT v FROM "+name+".kv WHERE id = 2").Scan(&v); err != nil || v != "two" {
		t.Fatalf("lookup over TLS = %q, %v", v, err)
	}
	if err := db.QueryRowContext(ctx, "SELECT v FROM "+name+".log").Scan(&v); err != nil || v != "three" {
		t.Fatalf("scan over TLS = %q, %v", v, err)
	}
	for addr, p := range proxies {
		if p.bytes.Load() == 0 {
			t.Errorf("no traffic through the proxy of %s", addr)
		}
	}
}

// TestTLSDriverVerificationFails: without the CA, or under another name,
// the dial fails on its own with the x509 cause, as a dial error (nothing
// sent) and not as driver.ErrBadConn, and it is not retried.
func TestTLSDriverVerificationFails(t *testing.T) {
	pki := newTestPKI(t)
	proxy := startTLSProxy(t, pki, clustertest.Bootstrap(t))
	ca := url.QueryEscape(pki.caFile(t))
	for _, tc := range []struct {
		name, query string
		is          func(error) bool
	}{
		{"no CA", "tls=true", func(err error) bool { return errors.As(err, new(x509.UnknownAuthorityError)) }},
		{"other name", "tls=true&tls_ca=" + ca + "&tls_server_name=fluss.example", func(err error) bool {
			return errors.As(err, new(x509.HostnameError))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := testkit.Context(t)
			err := connectDSN(ctx, "fluss://"+proxy.addr+"/?"+tc.query)
			if !tc.is(err) || ctx.Err() != nil {
				t.Fatalf("err = %v, want the x509 failure itself", err)
			}
			var te *flussrpc.TransportError
			if !errors.As(err, &te) || te.Op != "dial" || te.MaybeSent || errors.Is(err, driver.ErrBadConn) {
				t.Fatalf("err = %v, want a dial error that is not driver.ErrBadConn", err)
			}
			if flussrpc.IsRetriable(err) {
				t.Fatalf("err = %v counts as retriable", err)
			}
			if proxy.bytes.Load() != 0 {
				t.Fatal("a connection that failed verification reached the backend")
			}
		})
	}
}

func TestRegisterTLSConfig(t *testing.T) {
	for _, name := range []string{"", "true", "false", "skip-verify", "preferred", "Skip-Verify", "TRUE"} {
		if err := RegisterTLSConfig(name, &tls.Config{}); err == nil {
			DeregisterTLSConfig(name)
			t.Errorf("RegisterTLSConfig(%q) succeeded, want it reserved", name)
		}
	}
	if err := RegisterTLSConfig("nil-config", nil); err == nil {
		t.Error("RegisterTLSConfig with a nil config succeeded")
	}
	cfg := &tls.Config{ServerName: "proxy.example"}
	name := registerTestTLS(t, cfg)
	cfg.ServerName = "changed.example" // registration took a copy
	parsed, err := ParseDSN("fluss://h:1?tls=" + name)
	if err != nil {
		t.Fatal(err)
	}
	if parsed.TLS.ServerName != "proxy.example" || parsed.TLSName != name {
		t.Fatalf("TLS = %+v, TLSName = %q", parsed.TLS, parsed.TLSName)
	}
	parsed.TLS.ServerName = "mine.example" // and parsing hands out copies
	if again, _ := ParseDSN("fluss://h:1?tls=" + name); again.TLS.ServerName != "proxy.example" {
		t.Fatal("changing a parsed config changed the registered one")
	}
	DeregisterTLSConfig(name)
	if _, err := ParseDSN("fluss://h:1?tls=" + name); err == nil || !strings.Contains(err.Error(), "tls=") {
		t.Fatalf("ParseDSN after DeregisterTLSConfig: %v, want an error naming tls", err)
	}
}

// TestNewConnectorTLSFields: a Config built in code may use the DSN-style
// fields; they must not quietly mean plaintext.
func TestNewConnectorTLSFields(t *testing.T) {
	cfg := NewConfig()
	cfg.Addrs = []string{"h:1"}
	cfg.TLSName, cfg.TLSServerName = tlsSkipVerify, "proxy.example"
	c, err := NewConnector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if tc := c.Config().TLS; tc == nil || !tc.InsecureSkipVerify || tc.ServerName != "proxy.example" {
		t.Fatalf("connector TLS = %+v", tc)
	}
	if got := c.clientConfig().Conn.TLS; got == nil || got.ServerName != "proxy.example" {
		t.Fatalf("client TLS = %+v", got)
	}
	cfg.TLSName = ""
	if _, err := NewConnector(cfg); err == nil {
		t.Fatal("NewConnector accepted tls_server_name without TLS")
	}
	cfg.TLS = &tls.Config{MinVersion: tls.VersionTLS13} // set in code: it wins
	c, err = NewConnector(cfg)
	if err != nil || c.Config().TLS.MinVersion != tls.VersionTLS13 {
		t.Fatalf("NewConnector with TLS set: %v", err)
	}
}
