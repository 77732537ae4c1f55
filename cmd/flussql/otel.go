package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"

	"github.com/gofluss/fluss"
	flussotel "github.com/gofluss/fluss/otel"
	"github.com/gofluss/fluss/otel/otlp"
)

// startOTel starts exporting over OTLP, as the OTEL_* variables say, and
// returns how to open a database whose statements and RPCs are traced
// there, and what to call before exiting (it flushes).
func startOTel(ctx context.Context, stderr io.Writer) (open func(dsn string) (*sql.DB, error), stop func(), err error) {
	shutdown, err := otlp.Start(ctx)
	if err != nil {
		return nil, nil, err
	}
	tracer := flussotel.NewTracer()
	open = func(dsn string) (*sql.DB, error) {
		cfg, err := fluss.ParseDSN(dsn)
		if err != nil {
			return nil, err
		}
		cfg.Tracer = tracer
		return fluss.OpenDB(cfg)
	}
	stop = func() {
		if err := shutdown(); err != nil {
			fmt.Fprintf(stderr, "flussql: exporting telemetry: %v\n", err)
		}
	}
	return open, stop, nil
}
