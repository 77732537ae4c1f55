package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/gofluss/fluss/engine"
	"github.com/gofluss/fluss/flightsql"
	"github.com/gofluss/fluss/flussrpc"
)

// peerScans times the table read whole as Arrow by ADBC through the
// Flight SQL server and by pyfluss's to_arrow; it returns their seconds.
func peerScans(ctx context.Context, python, bootstrap string, path flussrpc.TablePath, n int) (adbc, pyfluss float64, err error) {
	// The bench cluster's plaintext listener: calls come anonymously.
	srv, err := flightsql.NewServer(flightsql.Config{
		Client:         flussrpc.Config{Bootstrap: []string{bootstrap}},
		Session:        engine.Config{Database: path.Database},
		AllowAnonymous: true,
	})
	if err != nil {
		return 0, 0, err
	}
	defer srv.Close()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, 0, err
	}
	go func() { _ = srv.Serve(l) }()
	query := fmt.Sprintf("SELECT * FROM %s.%s", path.Database, path.Table)
	if adbc, err = arrowRead(ctx, python, n, "adbc", "grpc://"+l.Addr().String(), query); err != nil {
		return 0, 0, fmt.Errorf("ADBC: %w", err)
	}
	if pyfluss, err = arrowRead(ctx, python, n, "pyfluss", bootstrap, path.Database, path.Table); err != nil {
		return 0, 0, fmt.Errorf("pyfluss: %w", err)
	}
	return adbc, pyfluss, nil
}

// arrowRead runs bench/arrow_read.py and checks it read n rows.
func arrowRead(ctx context.Context, python string, n int, args ...string) (float64, error) {
	_, file, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(file), "..", "arrow_read.py")
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, python, append([]string{script}, args...)...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("%v: %s", err, stderr.String())
	}
	var res struct {
		Rows    int     `json:"rows"`
		Seconds float64 `json:"seconds"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		return 0, fmt.Errorf("%v: %s", err, stdout.String())
	}
	if res.Rows != n {
		return 0, fmt.Errorf("read %d rows, want %d", res.Rows, n)
	}
	return res.Seconds, nil
}
