// Package clustertest gives integration tests the address of a real Fluss
// cluster: the one named by FLUSS_BOOTSTRAP, or else the local cluster,
// started on first use (and left running for the next test binary; stop it
// with `make cluster-down`).
//
// Every integration test gets its cluster here, so this is where they are
// gated (testkit.Integration): without FLUSS_INTEGRATION=1 (set by `make
// test`) or FLUSS_BOOTSTRAP they skip, saying so, and `go test ./...` runs
// the unit tests alone. Once asked for, a test that needs the cluster
// fails, it never skips, when no cluster can be had: an integration suite
// that silently skips proves nothing. RequestCounter tells a test which
// requests a statement sent.
package clustertest

import (
	"context"
	"errors"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/internal/cluster"
	"github.com/gofluss/fluss/internal/testkit"
)

var (
	once    sync.Once
	addrs   Addrs
	upError error
)

// Addrs are the bootstrap addresses of the cluster under test.
type Addrs struct {
	Plain string // plaintext listener
	SASL  string // SASL/PLAIN listener; "" when the cluster has none
}

// SASLUser and SASLPassword are credentials accepted by the SASL listener
// of the local cluster; SASLUser is a super user.
const SASLUser = cluster.SuperUser

// SASLPassword is the password of SASLUser.
var SASLPassword = cluster.SASLUsers[cluster.SuperUser]

// LimitedUser is a SASL user of the local cluster without any rights of
// its own: it can do only what ACLs grant it.
const LimitedUser = cluster.LimitedUser

// LimitedPassword is the password of LimitedUser.
var LimitedPassword = cluster.SASLUsers[cluster.LimitedUser]

// Cluster returns the addresses of the cluster, starting the local one if
// needed. It skips the test when integration tests were not asked for
// (testkit.Integration) and calls tb.Fatal when no cluster is available.
func Cluster(tb testing.TB) Addrs {
	tb.Helper()
	testkit.Integration(tb)
	once.Do(func() { addrs, upError = resolve() })
	if upError != nil {
		tb.Fatalf("no Fluss cluster for integration tests: %v", upError)
	}
	return addrs
}

// Bootstrap is Cluster(tb).Plain.
func Bootstrap(tb testing.TB) string {
	tb.Helper()
	return Cluster(tb).Plain
}

// SASLBootstrap returns the SASL listener or fails the test: `make test`
// always starts the cluster with one. With an external FLUSS_BOOTSTRAP
// cluster, set FLUSS_SASL_BOOTSTRAP too.
func SASLBootstrap(tb testing.TB) string {
	tb.Helper()
	a := Cluster(tb)
	if a.SASL == "" {
		tb.Fatal("the cluster under test has no SASL listener: run with FLUSS_SASL=1 (make test does) or set FLUSS_SASL_BOOTSTRAP")
	}
	return a.SASL
}

func resolve() (Addrs, error) {
	if b := os.Getenv("FLUSS_BOOTSTRAP"); b != "" {
		return Addrs{Plain: b, SASL: os.Getenv("FLUSS_SASL_BOOTSTRAP")}, nil
	}
	cfg, err := cluster.FromEnv()
	if err != nil {
		return Addrs{}, err
	}
	// The suite needs the SASL listener, and a cluster started without it
	// would stand in the way of the next `make test` (Up does not reuse a
	// cluster set up with other settings).
	cfg.SASL = os.Getenv("FLUSS_SASL") != "0"
	if _, err := cluster.Up(context.Background(), cfg, io.Discard); err != nil {
		return Addrs{}, err
	}
	return Addrs{Plain: cfg.Bootstrap(), SASL: cfg.SASLBootstrap()}, nil
}

// CreateWithLeaders runs create, and while it fails with
// flussrpc.ErrNoLeaders drops what was created and runs create again,
// three times in all. It returns the last error.
//
// A Fluss 0.9.1 coordinator under load can miss a new table for good, and
// once a partition of such a table is added its request batch to the
// tablet servers is left half-built: from then on it elects no leader for
// any new table until it restarts. So before creating again, the local
// cluster's coordinator is restarted (an external FLUSS_BOOTSTRAP cluster
// is left alone).
func CreateWithLeaders(tb testing.TB, create, drop func() error) error {
	tb.Helper()
	err := create()
	for attempt := 1; attempt < 3 && noLeaders(err); attempt++ {
		tb.Logf("created without bucket leaders, restarting the coordinator and creating again: %v", err)
		if herr := restartCoordinator(); herr != nil {
			return errors.Join(err, herr)
		}
		if derr := drop(); derr != nil {
			return errors.Join(err, derr)
		}
		err = create()
	}
	return err
}

// noLeaders reports whether err is flussrpc.ErrNoLeaders, or carries only
// its text: an error that crossed gRPC or came from a peer process.
func noLeaders(err error) bool {
	return err != nil && (errors.Is(err, flussrpc.ErrNoLeaders) || strings.Contains(err.Error(), flussrpc.ErrNoLeaders.Error()))
}

// ExecWithLeaders runs the SQL statement query with exec. A CREATE TABLE,
// or an ALTER TABLE ... ADD PARTITION, runs as create does in
// CreateWithLeaders, with the matching DROP run by exec in between.
func ExecWithLeaders(tb testing.TB, query string, exec func(query string) error) error {
	tb.Helper()
	drop := ""
	if m := createdTable.FindStringSubmatch(query); m != nil {
		drop = "DROP TABLE IF EXISTS " + m[1]
	} else if m := addedPartition.FindStringSubmatch(query); m != nil {
		drop = "ALTER TABLE " + m[1] + " DROP IF EXISTS PARTITION " + m[2]
	}
	if drop == "" {
		return exec(query)
	}
	return CreateWithLeaders(tb, func() error { return exec(query) }, func() error { return exec(drop) })
}

// createdTable matches CREATE TABLE statements and captures the table.
var createdTable = regexp.MustCompile(`(?is)^\s*CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?([^\s(]+)`)

// addedPartition matches ALTER TABLE ... ADD PARTITION statements and
// captures the table and the partition spec.
var addedPartition = regexp.MustCompile(`(?is)^\s*ALTER\s+TABLE\s+(\S+)\s+ADD\s+(?:IF\s+NOT\s+EXISTS\s+)?PARTITION\s*(\(.*\))\s*$`)

// restartCoordinator kills and restarts the coordinator of the local
// cluster, which rebuilds its state from ZooKeeper; it does nothing for an
// external cluster.
func restartCoordinator() error {
	if os.Getenv("FLUSS_BOOTSTRAP") != "" {
		return nil
	}
	cfg, err := cluster.FromEnv()
	if err != nil {
		return err
	}
	cfg.SASL = os.Getenv("FLUSS_SASL") != "0"
	if err := cfg.Kill("coordinator"); err != nil {
		return err
	}
	return cfg.Restart(context.Background(), "coordinator")
}
