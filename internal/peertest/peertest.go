// Package peertest runs pyfluss, the independent Python client of Fluss, so
// that integration tests can check that what this project writes is read
// identically by another client, and the other way round. It also holds
// the tagged JSON both peers (pyfluss and internal/javapeer) exchange rows
// in (Tag, Untag).
//
// The interpreter is FLUSS_PEER_PYTHON (the Makefile points it at the venv
// that `make peers` creates), else .venv/bin/python at the repository root.
// A missing interpreter fails the test: cross-checks never skip silently.
package peertest

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// Error is what the peer reports when pyfluss raised a FlussError.
type Error struct {
	Message string `json:"error"`
	Code    int    `json:"code"`
}

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

func python(tb testing.TB) string {
	tb.Helper()
	py := os.Getenv("FLUSS_PEER_PYTHON")
	if py == "" {
		py = filepath.Join(repoRoot(), ".venv", "bin", "python")
	}
	if _, err := os.Stat(py); err != nil {
		tb.Fatalf("peer client interpreter %s is missing (run `make peers`): %v", py, err)
	}
	return py
}

// Run executes one peer.py sub-command against bootstrap, feeding stdin,
// and decodes its JSON answer into out. A FlussError raised by pyfluss is
// returned as *Error; any other failure fails the test.
func Run(tb testing.TB, bootstrap string, stdin any, out any, args ...string) *Error {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	script := filepath.Join(repoRoot(), "peers", "pyfluss", "peer.py")
	cmd := exec.CommandContext(ctx, python(tb), append([]string{script, bootstrap}, args...)...)
	if stdin != nil {
		in, err := json.Marshal(stdin)
		if err != nil {
			tb.Fatal(err)
		}
		cmd.Stdin = bytes.NewReader(in)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	if runErr != nil {
		var perr Error
		if json.Unmarshal(stdout.Bytes(), &perr) == nil && perr.Message != "" {
			return &perr
		}
		tb.Fatalf("peer %v failed: %v\nstdout: %s\nstderr: %s", args, runErr, stdout.String(), stderr.String())
	}
	if out != nil {
		if err := json.Unmarshal(stdout.Bytes(), out); err != nil {
			tb.Fatalf("peer %v printed no JSON (%v): %s", args, err, stdout.String())
		}
	}
	return nil
}

// ScanRow is one record printed by `peer.py scan`: where it was read, its
// change type ("+A", "+I", "-U", "+U", "-D") and its values in the tagged
// JSON documented in peer.py, one raw value per column.
type ScanRow struct {
	Partition *string           `json:"partition"` // nil for non-partitioned tables
	Bucket    int32             `json:"bucket"`
	Offset    int64             `json:"offset"`
	Change    string            `json:"change"`
	Row       []json.RawMessage `json:"row"`
}

// ScanResult is what `peer.py scan` prints: every record up to the end
// offsets the peer saw when it started (keyed "partition/bucket").
type ScanResult struct {
	Rows       []ScanRow        `json:"rows"`
	EndOffsets map[string]int64 `json:"end_offsets"`
}

// Scan reads every bucket (and partition) of a table with pyfluss up to
// its current end. ARROW log tables are read through pyarrow, exact to the
// nanosecond; primary-key tables (their changelog) only record by record,
// so their timestamps are exact to the microsecond. pyfluss 1.0.0 cannot
// read INDEXED or COMPACTED log tables.
func Scan(tb testing.TB, bootstrap, database, table string) ScanResult {
	tb.Helper()
	var out ScanResult
	if perr := Run(tb, bootstrap, nil, &out, "scan", database, table); perr != nil {
		tb.Fatalf("peer scan %s.%s: %s (code %d)", database, table, perr.Message, perr.Code)
	}
	return out
}

// Python returns the peer interpreter, for tests that run peer scripts of
// their own (the ADBC checks of the Flight SQL server).
func Python(tb testing.TB) string {
	tb.Helper()
	return python(tb)
}

// Script returns the path of a file under peers/ of the repository.
func Script(elem ...string) string {
	return filepath.Join(append([]string{repoRoot(), "peers"}, elem...)...)
}
