package testkit

import (
	"os"
	"testing"
)

// IntegrationEnv is the variable `make test` sets to run the integration
// tests. Without it (and without FLUSS_BOOTSTRAP naming a cluster) they
// skip, so that `go test ./...` runs the unit tests alone, in seconds and
// without a JVM; with it, a cluster that cannot start fails them.
const IntegrationEnv = "FLUSS_INTEGRATION"

// Integration skips the calling test unless integration tests were asked
// for. internal/clustertest calls it for every test that asks for the
// cluster; a test that starts servers of its own calls it directly.
func Integration(tb testing.TB) {
	tb.Helper()
	if os.Getenv(IntegrationEnv) == "" && os.Getenv("FLUSS_BOOTSTRAP") == "" {
		tb.Skip("integration test: needs the local Fluss cluster; run make test (or set " + IntegrationEnv + "=1)")
	}
}
