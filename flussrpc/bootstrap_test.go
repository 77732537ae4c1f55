package flussrpc

import (
	"context"
	"errors"
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/gofluss/fluss/internal/fakefluss"
)

// closedPort returns a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// A bootstrap list whose every server refuses the connection fails at
// once, not after the dial timeout; one that answers among refusing ones
// still connects.
func TestBootstrapRefused(t *testing.T) {
	const dialTimeout = time.Minute
	cfg := Config{Conn: ConnConfig{DialTimeout: dialTimeout}}
	for _, n := range []int{1, 3} {
		cfg.Bootstrap = nil
		for range n {
			cfg.Bootstrap = append(cfg.Bootstrap, closedPort(t))
		}
		ctx, cancel := context.WithTimeout(context.Background(), dialTimeout/2)
		_, err := NewClient(ctx, cfg)
		late := ctx.Err()
		cancel()
		if !errors.Is(err, syscall.ECONNREFUSED) || !SafeToRetry(err) || late != nil {
			t.Fatalf("%d refusing servers: %v (context: %v), want a safe-to-retry connection refused before the deadline", n, err, late)
		}
	}
	fc := fakefluss.NewCluster(t, fakefluss.ClusterConfig{})
	cfg.Bootstrap = []string{closedPort(t), fc.Bootstrap()}
	c, err := NewClient(context.Background(), cfg)
	if err != nil {
		t.Fatalf("one answering server among refusing ones: %v", err)
	}
	c.Close()
}
