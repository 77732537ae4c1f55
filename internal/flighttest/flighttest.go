// Package flighttest starts the Flight SQL server in process for tests, in
// the flightsql package and in modules that add to the server (the
// analytics engine's front-door tests).
package flighttest

import (
	"net"
	"testing"

	"github.com/gofluss/fluss/engine"
	"github.com/gofluss/fluss/flightsql"
	"github.com/gofluss/fluss/flussrpc"
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
