package cluster

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/testkit"
)

// freeBasePort returns a base port whose cluster ports are all free now,
// for the private clusters of the tests below: a fixed port clashed with
// the cluster of FLUSS_PORT=9300. It stays below the ephemeral range that
// outgoing connections take their ports from.
func freeBasePort(t *testing.T, sasl bool) int {
	t.Helper()
	for range 100 {
		cfg := Config{Port: 20000 + rand.IntN(10000), Tablets: 1, SASL: sasl}
		if cfg.checkPortsFree(cfg.servers()) == nil {
			return cfg.Port
		}
	}
	t.Fatal("no free block of ports from 20000 to 30040")
	return 0
}

func testConfig(t *testing.T, port int, sasl bool) Config {
	t.Helper()
	cfg, err := FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Port, cfg.SASL, cfg.Tablets = port, sasl, 1
	cfg.Dir = filepath.Join(t.TempDir(), "cluster")
	return cfg
}

// TestServerConfigsGolden pins the files the servers read; a change to them
// must be deliberate. The cluster directory is replaced by a placeholder.
func TestServerConfigsGolden(t *testing.T) {
	cfg := testConfig(t, 9123, true)
	if err := cfg.writeConfigs(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"zk/zookeeper.properties", "coordinator/server.yaml", "tablet-0/server.yaml"} {
		got, err := os.ReadFile(filepath.Join(cfg.Dir, f))
		if err != nil {
			t.Fatal(err)
		}
		got = bytes.ReplaceAll(got, []byte(cfg.Dir), []byte("$DIR"))
		golden := filepath.Join("testdata", strings.ReplaceAll(f, "/", "_")+".golden")
		if _, same := testkit.Golden(t, golden, got); !same {
			t.Errorf("%s differs from %s:\n%s", f, golden, got)
		}
	}
}

func TestFromEnvRejectsBadValues(t *testing.T) {
	for _, tc := range []struct{ key, val string }{
		{"FLUSS_PORT", "abc"},
		{"FLUSS_PORT", "80"},
		{"FLUSS_TABLETS", "0"},
		{"FLUSS_TABLETS", "12"},
	} {
		t.Run(tc.key+"="+tc.val, func(t *testing.T) {
			t.Setenv(tc.key, tc.val)
			if _, err := FromEnv(); err == nil || !strings.Contains(err.Error(), tc.key) {
				t.Fatalf("FromEnv() error = %v, want one naming %s", err, tc.key)
			}
		})
	}
}

func TestWriteKVRejectsHash(t *testing.T) {
	// Fluss's YAML reader treats '#' as a comment anywhere on the line.
	err := writeKV(filepath.Join(t.TempDir(), "x.yaml"), map[string]string{"k": "a#b"}, ": ")
	if err == nil {
		t.Fatal("writeKV accepted a value with '#'")
	}
}

func TestProcessState(t *testing.T) {
	for _, tc := range []struct {
		stat string
		want byte
	}{
		{"123 (java) S 1 2 3", 'S'},
		{"123 (odd ) name) Z 1", 'Z'},
		{"garbage", 0},
		{"1 (x)", 0},
	} {
		if got := processState([]byte(tc.stat)); got != tc.want {
			t.Errorf("processState(%q) = %q, want %q", tc.stat, got, tc.want)
		}
	}
}

func TestProcessCPU(t *testing.T) {
	for _, tc := range []struct {
		stat string
		want time.Duration
		ok   bool
	}{
		{"7 (java (a) b) S 1 7 7 0 -1 4194560 900 0 3 0 250 50 0 0 20 0 40 0 99", 3 * time.Second, true},
		{"7 (cat) R 1 7 7 0 -1 0 0 0 0 0 0 0 0", 0, true},
		{"7 (cat) R 1 7 7 0 -1 0 0 0 0 0 12", 0, false}, // no stime
		{"7 (cat) R 1 7 7 0 -1 0 0 0 0 0 x 1", 0, false},
		{"no parenthesis", 0, false},
	} {
		got, ok := processCPU([]byte(tc.stat))
		if got != tc.want || ok != tc.ok {
			t.Errorf("processCPU(%q) = %v, %v; want %v, %v", tc.stat, got, ok, tc.want, tc.ok)
		}
	}
}

func TestCountField(t *testing.T) {
	var msg []byte
	msg = protowire.AppendTag(msg, 1, protowire.BytesType)
	msg = protowire.AppendBytes(msg, []byte("coord"))
	for i := 0; i < 3; i++ {
		msg = protowire.AppendTag(msg, 2, protowire.BytesType)
		msg = protowire.AppendBytes(msg, []byte("ts"))
	}
	if n, err := countField(msg, 2); err != nil || n != 3 {
		t.Fatalf("countField = %d, %v; want 3", n, err)
	}
	if _, err := countField([]byte{0xff}, 2); err == nil {
		t.Fatal("countField accepted a malformed message")
	}
}

// TestLifecycle drives a second, private cluster (other ports, other
// directory) through what the make targets do, as issue 30 found them
// wanting: `make demo` starts it (Keep), `make test` runs its suite on it
// (Run) and must leave it running with its data, a plain Stop keeps the
// data, a Run on the stopped cluster starts it again on that data and
// stops it after, and only Down removes the data.
func TestLifecycle(t *testing.T) {
	testkit.Integration(t) // it starts JVMs
	cfg := testConfig(t, freeBasePort(t, false), false)
	ctx := context.Background()
	var out bytes.Buffer

	// make demo
	if err := Keep(ctx, cfg, &out); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = Down(cfg, io.Discard) })
	if !strings.HasPrefix(out.String(), "started Fluss "+cfg.Version+" (1 coordinator, 1 tablet server) in ") ||
		!strings.HasSuffix(out.String(), "FLUSS_BOOTSTRAP="+cfg.Bootstrap()+"\n") {
		t.Fatalf("Keep output:\n%s", out.String())
	}
	pids := runningPids(t, cfg)
	if len(pids) != 3 {
		t.Fatalf("%d servers run after Keep, want 3", len(pids))
	}
	db := "lifecycle_" + strconv.Itoa(rand.IntN(1_000_000))
	admin(t, cfg, func(ctx context.Context, a *flussrpc.Admin) error {
		return a.CreateDatabase(ctx, db, schema.DatabaseDescriptor{}, false)
	})

	// make test on the demo's cluster: the command's status comes back,
	// and the cluster still runs, the same processes on the same data.
	out.Reset()
	err := Run(ctx, cfg, &out, exec.Command("sh", "-c", "exit 3"))
	if exit := (*exec.ExitError)(nil); !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Fatalf("Run of a command that exits 3: %v", err)
	}
	if !strings.Contains(out.String(), "reusing the running") || !strings.Contains(out.String(), "leaving the cluster in "+cfg.Dir+" running") {
		t.Fatalf("Run output:\n%s", out.String())
	}
	if got := runningPids(t, cfg); !slices.Equal(got, pids) {
		t.Fatalf("servers after Run: %v, before: %v", got, pids)
	}
	assertDatabase(t, cfg, db)

	// make cluster-stop
	out.Reset()
	if err := Stop(cfg, &out); err != nil {
		t.Fatal(err)
	}
	if want := "stopped 3 servers; the data stays in " + cfg.Dir; !strings.HasPrefix(out.String(), want) {
		t.Fatalf("Stop output %q, want %q...", out.String(), want)
	}
	assertStopped(t, cfg, pids, true)

	// make test on the stopped cluster: started for the run and stopped
	// after it, its data kept.
	out.Reset()
	if err := Run(ctx, cfg, &out, exec.Command("true")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "again in ") || !strings.Contains(out.String(), "stopped the cluster started for the run (3 servers)") {
		t.Fatalf("Run output:\n%s", out.String())
	}
	assertStopped(t, cfg, pids, true)

	// The data of every earlier run is still there.
	out.Reset()
	if started, err := Up(ctx, cfg, &out); err != nil || !started {
		t.Fatalf("Up on the stopped cluster = %v, %v; want it started", started, err)
	}
	assertDatabase(t, cfg, db)
	if started, err := Up(ctx, cfg, io.Discard); err != nil || started {
		t.Fatalf("Up on the running cluster = %v, %v; want it reused", started, err)
	}
	pids = runningPids(t, cfg)

	// make cluster-down, twice.
	out.Reset()
	if err := Down(cfg, &out); err != nil {
		t.Fatal(err)
	}
	if want := "stopped 3 servers; removed " + cfg.Dir + "\n"; out.String() != want {
		t.Fatalf("Down output %q, want %q", out.String(), want)
	}
	assertStopped(t, cfg, pids, false)
}

// runningPids returns the pids of the running servers of cfg.
func runningPids(t *testing.T, cfg Config) []int {
	t.Helper()
	var pids []int
	for _, s := range cfg.servers() {
		if pid, ok := cfg.pidOf(s); ok {
			pids = append(pids, pid)
		}
	}
	return pids
}

// assertStopped checks that none of pids runs, and that the cluster's data
// is there, or that its whole directory is gone.
func assertStopped(t *testing.T, cfg Config, pids []int, data bool) {
	t.Helper()
	for _, pid := range pids {
		if cfg.isOurs(pid) {
			t.Errorf("pid %d still runs", pid)
		}
	}
	if got := runningPids(t, cfg); len(got) != 0 {
		t.Errorf("servers %v run", got)
	}
	if data {
		if _, err := os.Stat(filepath.Join(cfg.Dir, "zk", "data")); err != nil {
			t.Errorf("the cluster's data is gone: %v", err)
		}
	} else if _, err := os.Stat(cfg.Dir); !os.IsNotExist(err) {
		t.Errorf("the cluster directory is still there: %v", err)
	}
}

func admin(t *testing.T, cfg Config, f func(context.Context, *flussrpc.Admin) error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := flussrpc.NewClient(ctx, flussrpc.Config{Bootstrap: []string{cfg.Bootstrap()}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := f(ctx, c.Admin()); err != nil {
		t.Fatal(err)
	}
}

func assertDatabase(t *testing.T, cfg Config, db string) {
	t.Helper()
	admin(t, cfg, func(ctx context.Context, a *flussrpc.Admin) error {
		ok, err := a.DatabaseExists(ctx, db)
		if err == nil && !ok {
			err = errors.New("database " + db + " is gone")
		}
		return err
	})
}

// TestFailedStartShowsLogs: when a server dies during start-up, Up fails
// quickly, names the server, includes the tail of its log and leaves no
// process behind. A stand-in "java" that prints and exits plays the JVM.
func TestFailedStartShowsLogs(t *testing.T) {
	cfg := testConfig(t, freeBasePort(t, false), false)
	fake := filepath.Join(t.TempDir(), "java")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho 'Error: could not start the fake JVM'\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg.Java = fake
	jars := filepath.Join(t.TempDir(), "jars")
	cfg.JarCache = jars
	lib := cfg.LibDir()
	if err := os.MkdirAll(lib, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"fluss-server-" + cfg.Version + ".jar", "slf4j-simple-1.7.36.jar"} {
		if err := os.WriteFile(filepath.Join(lib, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	_, err := Up(context.Background(), cfg, io.Discard)
	if err == nil {
		_ = Down(cfg, io.Discard)
		t.Fatal("Up succeeded with a JVM that exits at once")
	}
	for _, want := range []string{"ZooKeeper exited", "---- zk", "could not start the fake JVM"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("failing took %s", d)
	}
	if _, err := os.Stat(cfg.Dir); !os.IsNotExist(err) {
		t.Errorf("cluster directory left behind: %v", err)
	}
}

// Issue 30: "started Fluss ... (1 coordinator, 1 tablet servers)".
func TestShape(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Tablets: 1}, "1 coordinator, 1 tablet server"},
		{Config{Tablets: 3, SASL: true}, "1 coordinator, 3 tablet servers, SASL"},
	} {
		if got := tc.cfg.shape(); got != tc.want {
			t.Errorf("shape() = %q, want %q", got, tc.want)
		}
	}
}
