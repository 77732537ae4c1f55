package main

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	fsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/gofluss/fluss/internal/clustertest"
	"github.com/gofluss/fluss/internal/testkit"
)

// TestServeTLS runs the command with a certificate on a free port: a TLS
// client that trusts it logs in and lists catalogs, a plaintext client
// gets nowhere, and cancelling stops the server with status 0.
func TestServeTLS(t *testing.T) {
	// Before any goroutine: without the cluster the test skips here.
	dsn := "fluss://" + clustertest.SASLBootstrap(t) + "/fluss"
	certPEM, keyPEM := testkit.LoopbackCert(t)
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	for f, b := range map[string][]byte{certFile: certPEM, keyFile: keyPEM} {
		if err := os.WriteFile(f, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(testkit.Context(t))
	defer cancel()
	addr, status := serve(t, ctx, "--dsn", dsn, "--tls-cert", certFile, "--tls-key", keyFile)

	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(certPEM)
	cl, err := fsql.NewClient(addr, nil, nil, grpc.WithTransportCredentials(credentials.NewTLS(&tls.Config{RootCAs: roots})))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	actx, err := cl.Client.AuthenticateBasicToken(ctx, clustertest.SASLUser, clustertest.SASLPassword)
	if err != nil {
		t.Fatalf("TLS login: %v", err)
	}
	if _, err := cl.GetCatalogs(actx); err != nil {
		t.Errorf("GetCatalogs over TLS: %v", err)
	}

	plain, err := fsql.NewClient(addr, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	pctx, pcancel := context.WithTimeout(ctx, 5*time.Second)
	defer pcancel()
	if _, err := plain.Client.AuthenticateBasicToken(pctx, clustertest.SASLUser, clustertest.SASLPassword); err == nil {
		t.Error("a plaintext client logged in to the TLS server")
	}

	cancel()
	stopped(t, status)
}

// serve runs the command with args on a free port until ctx ends; it
// returns the address it listens on and where its exit status arrives.
func serve(t *testing.T, ctx context.Context, args ...string) (addr string, status <-chan int) {
	t.Helper()
	out, w := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, append(args, "--addr", "127.0.0.1:0"), w, io.Discard, os.Getenv)
		_ = w.Close()
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("no listening line: %v", err)
	}
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	if !ok {
		t.Fatalf("first line %q", line)
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	return addr, done
}

// stopped waits for the command to stop, with status 0.
func stopped(t *testing.T, status <-chan int) {
	t.Helper()
	select {
	case code := <-status:
		if code != 0 {
			t.Errorf("exit status %d after cancel, want 0", code)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not stop")
	}
}

func TestFlagErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--dsn", "fluss://127.0.0.1:1/x", "--tls-cert", "c.pem"}, "go together"},
		{[]string{"--dsn", "mysql://x"}, "fluss"},
		{[]string{"extra"}, "unexpected arguments"},
		{nil, "no DSN"},
	}
	for _, tt := range tests {
		var stderr strings.Builder
		code := run(context.Background(), tt.args, io.Discard, &stderr, func(string) string { return "" })
		if code != 2 || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("run(%q) = %d, %q; want 2 and %q", tt.args, code, stderr.String(), tt.want)
		}
	}
}
