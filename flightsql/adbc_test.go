package flightsql_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gofluss/fluss/flightsql"
	"github.com/gofluss/fluss/internal/clustertest"
	"github.com/gofluss/fluss/internal/peertest"
	"github.com/gofluss/fluss/internal/testkit"
)

// TestADBCPythonClient runs peers/adbc/check.py: Python's ADBC Flight SQL
// driver against the server, on the real cluster, including a scan whose
// compressed log batches the driver asks to get undecoded.
func TestADBCPythonClient(t *testing.T) {
	addr, srv := startServer(t, nil)
	cl, ctx := connect(t, addr, clustertest.SASLUser, clustertest.SASLPassword)
	db := newDatabase(t, ctx, cl, "adbc")
	cmd := exec.CommandContext(ctx, peertest.Python(t), peertest.Script("adbc", "check.py"),
		"grpc://"+addr, clustertest.SASLUser, clustertest.SASLPassword, db)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("ADBC checks failed: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	t.Logf("ADBC saw %s", stdout.String())
	if flightsql.PassedBatches(srv) == 0 {
		t.Error("no ZSTD log batch went out undecoded to the client that asked for them")
	}
}

// TestNotebookExample runs examples/flightsql/notebook.py, the README's
// Python session, against the server.
func TestNotebookExample(t *testing.T) {
	addr, _ := startServer(t, nil)
	ctx := testkit.Context(t)
	cmd := exec.CommandContext(ctx, peertest.Python(t), filepath.Join("..", "examples", "flightsql", "notebook.py"))
	cmd.Env = append(os.Environ(), "FLIGHTSQL_URI=grpc://"+addr, "FLIGHTSQL_USER="+clustertest.SASLUser,
		"FLIGHTSQL_PASSWORD="+clustertest.SASLPassword, "FLIGHTSQL_DB="+testkit.UniqueName("notebook"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("notebook.py failed: %v\n%s", err, out)
	}
	for _, want := range []string{"ingested 3 rows", "rows in trips: 3", "trips"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("notebook.py printed no %q:\n%s", want, out)
		}
	}
}
