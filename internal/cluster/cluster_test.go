package cluster

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

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
		if cfg.checkPortsFree() == nil {
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

// TestLifecycle starts a second, private cluster (other ports, other
// directory), checks that a second Up reuses it, and that Down leaves none
// of its processes running.
func TestLifecycle(t *testing.T) {
	testkit.Integration(t) // it starts JVMs
	cfg := testConfig(t, freeBasePort(t, false), false)
	ctx := context.Background()
	var out bytes.Buffer
	if err := Up(ctx, cfg, &out); err != nil {
		t.Fatal(err)
	}
	defer Down(cfg)
	if !strings.HasSuffix(out.String(), "FLUSS_BOOTSTRAP="+cfg.Bootstrap()+"\n") {
		t.Fatalf("Up output does not end with the bootstrap line:\n%s", out.String())
	}
	var pids []int
	for _, s := range cfg.servers() {
		pid, ok := cfg.pidOf(s)
		if !ok {
			t.Fatalf("%s is not running after Up", s.name)
		}
		pids = append(pids, pid)
	}
	out.Reset()
	if err := Up(ctx, cfg, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "reusing") {
		t.Fatalf("second Up did not reuse the cluster:\n%s", out.String())
	}
	for i, s := range cfg.servers() {
		if pid, _ := cfg.pidOf(s); pid != pids[i] {
			t.Fatalf("%s pid changed from %d to %d on reuse", s.name, pids[i], pid)
		}
	}
	if err := Status(ctx, cfg, &out); err != nil {
		t.Fatal(err)
	}
	if err := Down(cfg); err != nil {
		t.Fatal(err)
	}
	for _, pid := range pids {
		if cfg.isOurs(pid) {
			t.Errorf("pid %d still runs after Down", pid)
		}
	}
	if _, err := os.Stat(cfg.Dir); !os.IsNotExist(err) {
		t.Errorf("cluster directory still exists after Down: %v", err)
	}
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
	err := Up(context.Background(), cfg, io.Discard)
	if err == nil {
		Down(cfg)
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
