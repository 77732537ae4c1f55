package examples

import (
	"context"
	"database/sql"
	"flag"
	"io"
	"log"
	"os"
	"time"

	"github.com/gofluss/fluss"
	"github.com/gofluss/fluss/internal/cluster"
)

// RunFunc is an example's body: it works in database db of the cluster at
// dsn and prints what it did to out.
type RunFunc func(ctx context.Context, dsn, db string, out io.Writer) error

// Main is every example's main: it parses the flags (with -dsn, whose
// default is FLUSS_BOOTSTRAP or the local cluster of `make cluster-up` on
// FLUSS_PORT), runs fn in database db with a timeout, and exits non-zero on
// failure. Register extra flags before calling it.
func Main(db string, timeout time.Duration, fn RunFunc) {
	def, err := defaultDSN()
	if err != nil {
		log.Fatal(err)
	}
	dsn := flag.String("dsn", def, "Fluss DSN")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := fn(ctx, *dsn, db, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// defaultDSN is the DSN of FLUSS_BOOTSTRAP, or else of the local cluster
// that `make demo` starts with the same environment (FLUSS_PORT).
func defaultDSN() (string, error) {
	addr := os.Getenv("FLUSS_BOOTSTRAP")
	if addr == "" {
		cfg, err := cluster.FromEnv()
		if err != nil {
			return "", err
		}
		addr = cfg.Bootstrap()
	}
	return "fluss://" + addr + "/", nil
}

// InDatabase returns the configuration of dsn with db as its database,
// whatever path and keys dsn has (appending the name to the DSN's text
// breaks a -dsn without the trailing slash, or with keys).
func InDatabase(dsn, db string) (*fluss.Config, error) {
	cfg, err := fluss.ParseDSN(dsn)
	if err != nil {
		return nil, err
	}
	cfg.Database = db
	return cfg, nil
}

// Recreate drops database name of the cluster at dsn, with its tables, and
// creates it empty, so that an example starts from a clean state.
func Recreate(ctx context.Context, dsn, name string) error {
	db, err := sql.Open("fluss", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	for _, q := range []string{"DROP DATABASE IF EXISTS " + name + " CASCADE", "CREATE DATABASE " + name} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}
