package cluster

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// fakeServer starts a process that passes for the server name of cfg (its
// command line names the cluster directory) and records its pid file.
func fakeServer(t *testing.T, cfg Config, name string) int {
	t.Helper()
	pid, exited := startShell(t, cfg, `exec sh -c 'trap "exit 0" TERM; while :; do sleep 0.05; done' "$DIR"`)
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg.pidFile(server{name: name}), []byte(strconv.Itoa(pid)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := cfg.awaitExec(pid, exited, execTimeout); err != nil {
		t.Fatal(err)
	}
	return pid
}

// laidOut returns a Config whose directory holds a cluster's settings and
// configuration, as Up leaves it, without starting anything.
func laidOut(t *testing.T) Config {
	t.Helper()
	cfg := testConfig(t, freeBasePort(t, false), false)
	if err := cfg.layout(); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// Issue 30: `make cluster-down` said "stopped" when nothing ran.
func TestStopAndDownSayWhatTheyDid(t *testing.T) {
	for _, tc := range []struct {
		name    string
		layout  bool
		servers []string
		down    bool
		want    string
	}{
		{"down, no directory", false, nil, true, "nothing was running, and there is no $DIR to remove\n"},
		{"down, stopped cluster", true, nil, true, "nothing was running; removed $DIR\n"},
		{"down, one server", true, []string{"zk"}, true, "stopped 1 server; removed $DIR\n"},
		// tablet-4 belongs to a cluster set up with more tablet servers.
		{"down, two servers", true, []string{"zk", "tablet-4"}, true, "stopped 2 servers; removed $DIR\n"},
		{"stop, no directory", false, nil, false, "nothing was running in $DIR\n"},
		{"stop, stopped cluster", true, nil, false, "nothing was running in $DIR\n"},
		{"stop, one server", true, []string{"coordinator"}, false, "stopped 1 server; the data stays in $DIR (fluss-cluster down removes it)\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(t, 9123, false)
			if tc.layout {
				cfg = laidOut(t)
			}
			var pids []int
			for _, name := range tc.servers {
				pids = append(pids, fakeServer(t, cfg, name))
			}
			var out bytes.Buffer
			op := Stop
			if tc.down {
				op = Down
			}
			if err := op(cfg, &out); err != nil {
				t.Fatal(err)
			}
			if want := strings.ReplaceAll(tc.want, "$DIR", cfg.Dir); out.String() != want {
				t.Errorf("output %q, want %q", out.String(), want)
			}
			for _, pid := range pids {
				if cfg.isOurs(pid) {
					t.Errorf("pid %d still runs", pid)
				}
			}
			_, err := os.Stat(cfg.fingerprintFile())
			if kept := err == nil; kept != (tc.layout && !tc.down) {
				t.Errorf("settings file kept = %v", kept)
			}
		})
	}
}

// A cluster directory is never removed or reused unless it is one: a
// FLUSS_CLUSTER_DIR pointing at someone's files, or at a cluster set up
// with other settings, is an error that names the way out.
func TestForeignDirectoriesAreLeftAlone(t *testing.T) {
	foreign := testConfig(t, freeBasePort(t, false), false)
	keep := filepath.Join(foreign.Dir, "thesis.tex")
	if err := os.MkdirAll(foreign.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keep, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := laidOut(t)
	other.Tablets = 3
	for _, tc := range []struct {
		name string
		cfg  Config
		op   func(Config) error
		want string
	}{
		{"up, foreign", foreign, func(c Config) error { _, err := Up(context.Background(), c, io.Discard); return err }, "holds files but no Fluss cluster"},
		{"down, foreign", foreign, func(c Config) error { return Down(c, io.Discard) }, "not removing"},
		{"up, other settings", other, func(c Config) error { _, err := Up(context.Background(), c, io.Discard); return err },
			"other settings (tablets=1, now tablets=3): stop it and remove its data with fluss-cluster down"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.op(tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one with %q", err, tc.want)
			}
		})
	}
	if b, err := os.ReadFile(keep); err != nil || string(b) != "precious" {
		t.Errorf("the foreign file: %q, %v", b, err)
	}
	if _, err := os.Stat(other.fingerprintFile()); err != nil {
		t.Errorf("the other cluster's directory: %v", err)
	}
}

// The end of a Run stops the cluster only when Runs own it and no other
// Run uses it (issue 30: `make test` stopped, and wiped, the cluster `make
// demo` had started).
func TestRunStopsOnlyWhatRunsStarted(t *testing.T) {
	other := func(t *testing.T, cfg Config) {
		pid, _ := startShell(t, cfg, `sleep 30`)
		if _, err := cfg.takeLease(pid); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name    string
		owned   bool
		leases  func(t *testing.T, cfg Config)
		stopped bool
		want    string
	}{
		{"started by someone else", false, nil, false, "leaving the cluster in $DIR running: it was running before"},
		{"started for a run", true, nil, true, "stopped the cluster started for the run (1 server); its data stays in $DIR"},
		{"another run uses it", true, other, false, "leaving the cluster in $DIR running for the 1 other run still using it"},
		{"the other runs were killed", true, func(t *testing.T, cfg Config) {
			// A lease of a process that is gone, and one whose pid now
			// names another process than the one that took it.
			gone, exited := startShell(t, cfg, `exit 0`)
			<-exited
			recycled, _ := startShell(t, cfg, `sleep 30`)
			if err := os.MkdirAll(cfg.runsDir(), 0o755); err != nil {
				t.Fatal(err)
			}
			for _, pid := range []int{gone, recycled} {
				if err := os.WriteFile(filepath.Join(cfg.runsDir(), strconv.Itoa(pid)), []byte("1"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}, true, "stopped the cluster started for the run (1 server)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := laidOut(t)
			pid := fakeServer(t, cfg, "zk")
			if tc.owned {
				if err := os.WriteFile(cfg.ownerFile(), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.leases != nil {
				tc.leases(t, cfg)
			}
			lease, err := cfg.takeLease(os.Getpid())
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := cfg.end(&out, lease); err != nil {
				t.Fatal(err)
			}
			if want := strings.ReplaceAll(tc.want, "$DIR", cfg.Dir); !strings.HasPrefix(out.String(), want) {
				t.Errorf("output %q, want %q...", out.String(), want)
			}
			if running := cfg.isOurs(pid); running == tc.stopped {
				t.Errorf("server running = %v", running)
			}
			if _, err := os.Stat(cfg.fingerprintFile()); err != nil {
				t.Errorf("the data is gone: %v", err)
			}
		})
	}
}
