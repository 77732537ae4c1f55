package flightsql_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gofluss/fluss/flightsql"
	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/internal/clustertest"
	"github.com/gofluss/fluss/internal/peertest"
	"github.com/gofluss/fluss/internal/testkit"
)

// TestADBCPythonClient runs peers/adbc/check.py: Python's ADBC Flight SQL
// driver against the server, on the real cluster, including a scan whose
// compressed log batches the driver asks to get undecoded.
func TestADBCPythonClient(t *testing.T) {
	addr, srv := startServer(t, func(c *flightsql.Config) { c.ScanEndpoints = 3 })
	cl, ctx := connect(t, addr, clustertest.SASLUser, clustertest.SASLPassword)
	out, err := runPeer(t, func() *exec.Cmd {
		return exec.CommandContext(ctx, peertest.Python(t), peertest.Script("adbc", "check.py"),
			"grpc://"+addr, clustertest.SASLUser, clustertest.SASLPassword, newDatabase(t, ctx, cl, "adbc"))
	})
	if err != nil {
		t.Fatalf("ADBC checks failed: %v\n%s", err, out)
	}
	t.Logf("ADBC saw %s", out)
	if flightsql.PassedBatches(srv) == 0 {
		t.Error("no ZSTD log batch went out undecoded to the client that asked for them")
	}
}

// TestNotebookExample runs examples/flightsql/notebook.py, the README's
// Python session, against the server.
func TestNotebookExample(t *testing.T) {
	addr, _ := startServer(t, nil)
	ctx := testkit.Context(t)
	out, err := runPeer(t, func() *exec.Cmd {
		cmd := exec.CommandContext(ctx, peertest.Python(t), filepath.Join("..", "examples", "flightsql", "notebook.py"))
		cmd.Env = append(os.Environ(), "FLIGHTSQL_URI=grpc://"+addr, "FLIGHTSQL_USER="+clustertest.SASLUser,
			"FLIGHTSQL_PASSWORD="+clustertest.SASLPassword, "FLIGHTSQL_DB="+testkit.UniqueName("notebook"))
		return cmd
	})
	if err != nil {
		t.Fatalf("notebook.py failed: %v\n%s", err, out)
	}
	for _, want := range []string{"ingested 3 rows", "rows in trips: 3", "trips"} {
		if !strings.Contains(out, want) {
			t.Errorf("notebook.py printed no %q:\n%s", want, out)
		}
	}
}

// runPeer runs the peer client command made by cmd and returns its output
// (stdout, then stderr). The peers create their own tables, which a loaded
// 0.9.1 coordinator may create without bucket leaders; then, as for the
// tables the tests create (clustertest.CreateWithLeaders), the coordinator
// is restarted and a new command, on a new database, runs again.
func runPeer(t *testing.T, cmd func() *exec.Cmd) (string, error) {
	t.Helper()
	var out string
	err := clustertest.CreateWithLeaders(t, func() error {
		c := cmd()
		var stdout, stderr bytes.Buffer
		c.Stdout, c.Stderr = &stdout, &stderr
		err := c.Run()
		out = stdout.String() + stderr.String()
		if err != nil && strings.Contains(out, flussrpc.ErrNoLeaders.Error()) {
			return fmt.Errorf("%w: %v", flussrpc.ErrNoLeaders, err)
		}
		return err
	}, func() error { return nil })
	return out, err
}
