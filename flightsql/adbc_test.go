package flightsql_test

import (
	"bytes"
	"os/exec"
	"testing"

	"github.com/gofluss/fluss/internal/clustertest"
	"github.com/gofluss/fluss/internal/peertest"
)

// TestADBCPythonClient runs peers/adbc/check.py: Python's ADBC Flight SQL
// driver against the server, on the real cluster.
func TestADBCPythonClient(t *testing.T) {
	addr, _ := startServer(t, nil)
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
}
