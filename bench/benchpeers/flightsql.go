package main

import "github.com/gofluss/fluss/bench/internal/flightserve"

// startFlightSQL serves the bench cluster over Flight SQL, for the
// scan-adbc cases (Python's ADBC driver reading through it). It sets
// o.flightURI and returns the server's stop.
func (o *options) startFlightSQL() (func(), error) {
	uri, stop, err := flightserve.Start(o.bootstrap, "fluss")
	if err != nil {
		return nil, err
	}
	o.flightURI = uri
	return stop, nil
}
