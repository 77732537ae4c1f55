package main

import (
	"net"

	"github.com/gofluss/fluss/engine"
	"github.com/gofluss/fluss/flightsql"
	"github.com/gofluss/fluss/flussrpc"
)

// startFlightSQL serves the bench cluster over Flight SQL on a free
// loopback port, for the scan-adbc case (Python's ADBC driver reading
// through it). Calls come without credentials: the bench cluster's
// plaintext listener has no users. It sets o.flightURI and returns the
// server's stop.
func (o *options) startFlightSQL() (func(), error) {
	srv, err := flightsql.NewServer(flightsql.Config{
		Client:         flussrpc.Config{Bootstrap: []string{o.bootstrap}},
		Session:        engine.Config{Database: "fluss"},
		AllowAnonymous: true,
	})
	if err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		_ = srv.Close()
		return nil, err
	}
	go func() { _ = srv.Serve(l) }()
	o.flightURI = "grpc://" + l.Addr().String()
	return func() { _ = srv.Close() }, nil
}
