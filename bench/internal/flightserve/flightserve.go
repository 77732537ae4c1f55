// Package flightserve starts the project's Flight SQL server the way the
// benchmarks read through it: on a free loopback port, over the bench
// cluster's plaintext listener. bench/benchpeers runs one in its own
// process; bench/analytics runs one with the embedded engine linked in.
package flightserve

import (
	"net"

	"github.com/gofluss/fluss/engine"
	"github.com/gofluss/fluss/flightsql"
	"github.com/gofluss/fluss/flussrpc"
)

// Start serves the cluster at bootstrap, with database db as the default
// schema, and returns the server's URI (grpc://host:port) and its stop.
// Calls come without credentials: the bench cluster's plaintext listener
// has no users.
func Start(bootstrap, db string) (uri string, stop func(), err error) {
	srv, err := flightsql.NewServer(flightsql.Config{
		Client:         flussrpc.Config{Bootstrap: []string{bootstrap}},
		Session:        engine.Config{Database: db},
		AllowAnonymous: true,
	})
	if err != nil {
		return "", nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		_ = srv.Close()
		return "", nil, err
	}
	go func() { _ = srv.Serve(l) }()
	return "grpc://" + l.Addr().String(), func() { _ = srv.Close() }, nil
}
