// Package flighttest starts the Flight SQL server in process for tests, in
// the flightsql package and in modules that add to the server (the
// analytics engine's front-door tests).
package flighttest

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gofluss/fluss/engine"
	"github.com/gofluss/fluss/flightsql"
	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/internal/cluster"
	"github.com/gofluss/fluss/internal/clustertest"
)

// Start serves the cluster's SASL listener on a free loopback port, with
// database as the default schema; mod, if set, changes the configuration
// first. The server stops when the test ends.
func Start(t testing.TB, database string, mod func(*flightsql.Config)) (string, *flightsql.Server) {
	t.Helper()
	cfg := flightsql.Config{
		Client:  flussrpc.Config{Bootstrap: []string{clustertest.SASLBootstrap(t)}},
		Session: engine.Config{Database: database},
	}
	if mod != nil {
		mod(&cfg)
	}
	srv, err := flightsql.NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	t.Cleanup(func() {
		_ = srv.Close()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return l.Addr().String(), srv
}

// JDBC returns the command that runs class of internal/jdbcpeer (built by
// `make jdbcpeer`; a missing build fails the test) with args, on the JVM
// the cluster scripts use.
func JDBC(t testing.TB, ctx context.Context, class string, args ...string) *exec.Cmd {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "jdbcpeer", "target")
	deps, err := os.ReadFile(filepath.Join(dir, "peer.classpath"))
	if err != nil {
		t.Fatalf("the JDBC check is not built (run `make jdbcpeer`): %v", err)
	}
	cfg, err := cluster.FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	cp := filepath.Join(dir, "classes") + string(os.PathListSeparator) + strings.TrimSpace(string(deps))
	return exec.CommandContext(ctx, cfg.Java, append([]string{"-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
		// Arrow's memory needs direct access to NIO buffers.
		"--add-opens=java.base/java.nio=ALL-UNNAMED",
		"-cp", cp, "io.github.gofluss.jdbcpeer." + class}, args...)...)
}
