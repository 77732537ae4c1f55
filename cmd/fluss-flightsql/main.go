// Command fluss-flightsql serves a Fluss cluster over Arrow Flight SQL, for
// ADBC, the Flight SQL JDBC driver and every other Flight SQL client:
//
//	fluss-flightsql --dsn fluss://127.0.0.1:9123/fluss --addr 127.0.0.1:32010
//
// It prints "listening on ADDR" once it accepts calls and runs until
// interrupted. Clients authenticate with a Fluss user and password (basic
// authentication, passed through to Fluss SASL/PLAIN); --allow-anonymous
// also admits calls without credentials, which then run as the DSN's user
// (or none). --tls-cert and --tls-key serve over TLS. The DSN's database
// is the default schema, and its settings (zone, tx=reject, options) apply
// to every statement. --otel (or OTEL_EXPORTER_OTLP_ENDPOINT in the
// environment) exports a span per statement, with its RPCs under it, and
// the client's metrics over OTLP; a call's statement spans join the trace
// its gRPC metadata names (W3C traceparent).
package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/gofluss/fluss"
	"github.com/gofluss/fluss/engine"
	"github.com/gofluss/fluss/flightsql"
	"github.com/gofluss/fluss/flussrpc"
	flussotel "github.com/gofluss/fluss/otel"
	"github.com/gofluss/fluss/otel/otlp"
)

// flushOTel sends what the exporters hold and stops them.
func flushOTel(shutdown func() error, stderr io.Writer) {
	if err := shutdown(); err != nil {
		fmt.Fprintf(stderr, "fluss-flightsql: exporting telemetry: %v\n", err)
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
}

// run serves until ctx ends; it returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("fluss-flightsql", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dsn := fs.String("dsn", "", "Fluss DSN, e.g. fluss://127.0.0.1:9123/fluss (default $FLUSS_DSN, else the cluster at $FLUSS_BOOTSTRAP)")
	addr := fs.String("addr", "127.0.0.1:32010", "`host:port` to listen on (port 0 picks a free one)")
	cert := fs.String("tls-cert", "", "PEM certificate `file`: serve over TLS (with --tls-key)")
	key := fs.String("tls-key", "", "PEM private key `file` of --tls-cert")
	anon := fs.Bool("allow-anonymous", false, "admit calls without credentials (they run as the DSN's user)")
	endpoints := fs.Int("scan-endpoints", flightsql.DefaultScanEndpoints(), "split a log scan in no particular order into at most `n` endpoints, read in parallel (1: one endpoint; the default is one per two CPUs, up to 4)")
	maxOpen := fs.Int("max-open-per-user", flightsql.DefaultMaxOpenPerUser, "how many prepared statements and transactions `n` one user may keep open (one more closes the least recently used statement)")
	idle := fs.Duration("idle-timeout", flightsql.DefaultIdleTimeout, "close a user's Fluss client, and roll back a transaction, after this long without calls")
	verbose := fs.Bool("v", false, "log connections, authentications and what the Fluss client notices (broken connections, write retries) to stderr")
	exportOTel := fs.Bool("otel", false, "export traces and metrics over OTLP as the OTEL_EXPORTER_OTLP_* variables say (on by itself when OTEL_EXPORTER_OTLP_ENDPOINT is set)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "fluss-flightsql: unexpected arguments %q\n", fs.Args())
		return 2
	}
	cfg, err := serverConfig(*dsn, getenv)
	if err != nil {
		fmt.Fprintf(stderr, "fluss-flightsql: %v\n", err)
		return 2
	}
	cfg.AllowAnonymous = *anon
	cfg.ScanEndpoints = *endpoints
	cfg.MaxOpenPerUser = *maxOpen
	cfg.IdleTimeout = *idle
	if *verbose {
		cfg.Logger = slog.New(slog.NewTextHandler(stderr, nil))
		cfg.Client.Logger = cfg.Logger
	}
	if *exportOTel || otlp.Configured(getenv) {
		shutdown, err := otlp.Start(ctx)
		if err != nil {
			fmt.Fprintf(stderr, "fluss-flightsql: %v\n", err)
			return 2
		}
		defer flushOTel(shutdown, stderr)
		cfg.Client.Tracer = flussotel.NewTracer()
		cfg.GRPCOptions = flussotel.GRPCServerOptions()
	}
	if (*cert == "") != (*key == "") {
		fmt.Fprintln(stderr, "fluss-flightsql: --tls-cert and --tls-key go together")
		return 2
	}
	if *cert != "" {
		pair, err := tls.LoadX509KeyPair(*cert, *key)
		if err != nil {
			fmt.Fprintf(stderr, "fluss-flightsql: %v\n", err)
			return 2
		}
		cfg.TLS = &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}
	}
	srv, err := flightsql.NewServer(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "fluss-flightsql: %v\n", err)
		return 2
	}
	defer srv.Close()
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "fluss-flightsql: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "listening on %s\n", l.Addr())
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.Serve(l); err != nil {
		fmt.Fprintf(stderr, "fluss-flightsql: %v\n", err)
		return 1
	}
	return 0
}

// serverConfig turns the DSN (or the environment's) into the server's
// configuration.
func serverConfig(dsn string, getenv func(string) string) (flightsql.Config, error) {
	if dsn == "" {
		dsn = getenv("FLUSS_DSN")
	}
	if dsn == "" && getenv("FLUSS_BOOTSTRAP") != "" {
		dsn = "fluss://" + getenv("FLUSS_BOOTSTRAP") + "/"
	}
	if dsn == "" {
		return flightsql.Config{}, errors.New("no DSN: pass --dsn fluss://host:port/db or set FLUSS_DSN")
	}
	parsed, err := fluss.ParseDSN(dsn)
	if err != nil {
		return flightsql.Config{}, err
	}
	// NewConnector resolves the DSN's TLS settings; its copy is used, not
	// the connector.
	conn, err := fluss.NewConnector(parsed)
	if err != nil {
		return flightsql.Config{}, err
	}
	c := conn.Config()
	return flightsql.Config{
		Client: flussrpc.Config{
			Bootstrap: c.Addrs,
			Conn: flussrpc.ConnConfig{
				ClientID:    c.ClientID,
				Username:    c.User,
				Password:    c.Password,
				DialTimeout: c.ConnectTimeout,
				TLS:         c.TLS,
			},
			RequestTimeout: c.RequestTimeout,
		},
		Session: engine.Config{
			Database:   c.Database,
			Catalog:    c.Catalog,
			Options:    c.Options,
			LenientDDL: c.LenientDDL,
			Location:   c.Location,
			RejectTx:   c.TxMode == "reject",
		},
	}, nil
}
