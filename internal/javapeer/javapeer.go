// Package javapeer runs the Fluss Java client (the reference client, at the
// server's version) as a witness for integration tests: rows this project
// writes must read back identically through Java, and rows Java writes must
// read back identically here.
//
// The Java side is the Maven project in this directory; `make javapeer`
// compiles it against org.apache.fluss:fluss-client at
// cluster.DefaultFlussVersion and writes target/peer.classpath. A test
// starts one JVM (Start) and sends it many commands, one JSON line each, so
// that a test group pays for one JVM start-up. A peer that is not built or
// does not run fails the test: cross-checks never skip.
package javapeer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/cluster"
	"github.com/gofluss/fluss/internal/peertest"
	"github.com/gofluss/fluss/internal/plural"
)

// callTimeout bounds one command; a scan of a few thousand rows on a busy
// 2-core machine takes seconds, so this only catches a hung peer.
const callTimeout = 3 * time.Minute

// Peer is one running Java peer process, shared by the subtests of the
// test that started it. Its methods fail the test they are given on any
// protocol or process error; errors the Java client raised are returned by
// the Try methods and fail the test in the others. Commands are served one
// at a time.
type Peer struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *tailBuffer
	mu     sync.Mutex
	dead   error
}

func dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

// classpath returns the peer's classpath, or an error saying how to build
// it when it is missing or built for another Fluss version.
func classpath() (string, error) {
	cfg, err := cluster.FromEnv()
	if err != nil {
		return "", err
	}
	deps, err := os.ReadFile(filepath.Join(dir(), "target", "peer.classpath"))
	if err != nil {
		return "", fmt.Errorf("the Java peer is not built (run `make javapeer`): %w", err)
	}
	if want := "fluss-client-" + cfg.Version + ".jar"; !strings.Contains(string(deps), want) {
		return "", fmt.Errorf("the Java peer is built against another Fluss version than %s (run `make javapeer`)", cfg.Version)
	}
	classes := filepath.Join(dir(), "target", "classes")
	if _, err := os.Stat(filepath.Join(classes, "io", "github", "gofluss", "javapeer", "Peer.class")); err != nil {
		return "", fmt.Errorf("the Java peer is not compiled (run `make javapeer`): %w", err)
	}
	return classes + string(os.PathListSeparator) + strings.TrimSpace(string(deps)), nil
}

// Start launches a Java peer connected to bootstrap ("host:port") and
// stops it when the test ends.
func Start(tb testing.TB, bootstrap string) *Peer {
	tb.Helper()
	cp, err := classpath()
	if err != nil {
		tb.Fatal(err)
	}
	cfg, err := cluster.FromEnv()
	if err != nil {
		tb.Fatal(err)
	}
	// Small heap and a single compiler thread: the machine is shared with
	// the cluster and other tests.
	cmd := exec.Command(cfg.Java, "-Xmx512m",
		// Arrow (inside the client) needs direct access to NIO buffers.
		"--add-opens=java.base/java.nio=ALL-UNNAMED", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
		"-cp", cp, "io.github.gofluss.javapeer.Peer", bootstrap)
	p := &Peer{cmd: cmd, stderr: &tailBuffer{max: 64 << 10}}
	cmd.Stderr = p.stderr
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	p.stdout = bufio.NewReaderSize(out, 1<<20)
	if err := cmd.Start(); err != nil {
		tb.Fatalf("cannot start the Java peer (%s): %v", cfg.Java, err)
	}
	tb.Cleanup(p.close)
	return p
}

func (p *Peer) close() {
	p.stdin.Close() // the peer exits at the end of its input
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		p.cmd.Process.Kill()
		<-done
	}
}

// Call sends one command and decodes the answer into out. An error the
// Java client raised is returned; anything else fails the test.
func (p *Peer) Call(tb testing.TB, req map[string]any, out any) *peertest.Error {
	tb.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dead != nil {
		tb.Fatalf("the Java peer is gone: %v", p.dead)
	}
	line, err := json.Marshal(req)
	if err != nil {
		tb.Fatal(err)
	}
	answer, err := p.roundTrip(append(line, '\n'))
	if err != nil {
		p.dead = err
		p.cmd.Process.Kill()
		tb.Fatalf("Java peer %s: %v\nstderr: %s", req["cmd"], err, p.stderr.String())
	}
	var perr peertest.Error
	if json.Unmarshal(answer, &perr) == nil && perr.Message != "" {
		return &perr
	}
	if out != nil {
		if err := json.Unmarshal(answer, out); err != nil {
			tb.Fatalf("Java peer %s answered %.500s: %v", req["cmd"], answer, err)
		}
	}
	return nil
}

func (p *Peer) roundTrip(line []byte) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	ch := make(chan result, 1)
	go func() {
		if _, err := p.stdin.Write(line); err != nil {
			ch <- result{nil, err}
			return
		}
		b, err := p.stdout.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			err = errors.New("the Java peer exited")
		}
		ch <- result{b, err}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	select {
	case r := <-ch:
		return r.b, r.err
	case <-ctx.Done():
		return nil, fmt.Errorf("no answer within %v", callTimeout)
	}
}

// must fails the test when the Java client raised an error.
func (p *Peer) must(tb testing.TB, what string, perr *peertest.Error) {
	tb.Helper()
	if perr != nil {
		tb.Fatalf("Java peer %s: %s", what, perr.Message)
	}
}

// TryWrite writes rows of codec values (cmd is "append", "upsert" or
// "delete") and returns after the server acknowledged them all.
func (p *Peer) TryWrite(tb testing.TB, cmd, db, table string, cols []schema.Column, rows [][]any) *peertest.Error {
	tb.Helper()
	tagged := make([][]any, len(rows))
	for i, r := range rows {
		tagged[i] = peertest.TagRow(cols, r)
	}
	var out struct {
		Written int `json:"written"`
	}
	if perr := p.Call(tb, map[string]any{"cmd": cmd, "db": db, "table": table, "rows": tagged}, &out); perr != nil {
		return perr
	}
	if out.Written != len(rows) {
		tb.Fatalf("Java peer %s wrote %s, want %d", cmd, plural.Count(out.Written, "row"), len(rows))
	}
	return nil
}

// Write is TryWrite failing the test on a Java error.
func (p *Peer) Write(tb testing.TB, cmd, db, table string, cols []schema.Column, rows [][]any) {
	tb.Helper()
	p.must(tb, cmd+" "+db+"."+table, p.TryWrite(tb, cmd, db, table, cols, rows))
}

// Lookup looks up keys (primary-key values in primary-key order, keyCols
// their columns) and returns the rows found, decoded as cols, nil where a
// key has no row.
func (p *Peer) Lookup(tb testing.TB, db, table string, keyCols, cols []schema.Column, keys [][]any) [][]any {
	tb.Helper()
	tagged := make([][]any, len(keys))
	for i, k := range keys {
		tagged[i] = peertest.TagRow(keyCols, k)
	}
	var out struct {
		Rows []json.RawMessage `json:"rows"`
	}
	p.must(tb, "lookup "+db+"."+table, p.Call(tb, map[string]any{"cmd": "lookup", "db": db, "table": table, "keys": tagged}, &out))
	if len(out.Rows) != len(keys) {
		tb.Fatalf("Java peer answered %s for %s", plural.Count(len(out.Rows), "lookup"), plural.Count(len(keys), "key"))
	}
	rows := make([][]any, len(keys))
	for i, raw := range out.Rows {
		var vals []json.RawMessage
		if err := json.Unmarshal(raw, &vals); err != nil {
			tb.Fatal(err)
		}
		if vals == nil {
			continue
		}
		row, err := peertest.UntagRow(cols, vals)
		if err != nil {
			tb.Fatalf("lookup of key %v: %v", keys[i], err)
		}
		rows[i] = row
	}
	return rows
}

// Record is one record read by Scan, its row decoded.
type Record struct {
	Partition string // "" for non-partitioned tables
	Bucket    int32
	Offset    int64
	Change    string // +A, +I, -U, +U, -D
	Row       []any
}

// TryScan reads every bucket (and partition) of a table from the start to
// the end offsets the peer saw when it started, decoding rows as cols.
func (p *Peer) TryScan(tb testing.TB, db, table string, cols []schema.Column) ([]Record, *peertest.Error) {
	tb.Helper()
	var out peertest.ScanResult
	if perr := p.Call(tb, map[string]any{"cmd": "scan", "db": db, "table": table}, &out); perr != nil {
		return nil, perr
	}
	if len(out.Rows) == 0 {
		tb.Logf("Java scanned no rows of %s.%s; end offsets %v", db, table, out.EndOffsets)
	}
	recs := make([]Record, len(out.Rows))
	for i, r := range out.Rows {
		row, err := peertest.UntagRow(cols, r.Row)
		if err != nil {
			tb.Fatalf("scan record %d: %v", i, err)
		}
		recs[i] = Record{Bucket: r.Bucket, Offset: r.Offset, Change: r.Change, Row: row}
		if r.Partition != nil {
			recs[i].Partition = *r.Partition
		}
	}
	return recs, nil
}

// Scan is TryScan failing the test on a Java error.
func (p *Peer) Scan(tb testing.TB, db, table string, cols []schema.Column) []Record {
	tb.Helper()
	recs, perr := p.TryScan(tb, db, table, cols)
	p.must(tb, "scan "+db+"."+table, perr)
	return recs
}

// tailBuffer keeps the last max bytes written to it, for error messages.
type tailBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(b)
	if over := t.buf.Len() - t.max; over > 0 {
		t.buf.Next(over)
	}
	return len(b), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}
