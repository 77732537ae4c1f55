package cluster

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// startShell runs script under sh with the cluster directory in $DIR: the
// process's command line holds the script, not the directory, until the
// script execs a command that names it.
func startShell(t *testing.T, cfg Config, script string) (int, <-chan struct{}) {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.Env = append(os.Environ(), "DIR="+cfg.Dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	return cmd.Process.Pid, exited
}

// A process that is not yet ours, as a server is between its fork and the
// end of its exec, is waited for rather than taken for dead.
func TestAwaitExecWaitsUntilTheProcessIsOurs(t *testing.T) {
	cfg := Config{Dir: t.TempDir()}
	pid, exited := startShell(t, cfg, `sleep 0.3; exec sh -c 'sleep 30' "$DIR"`)
	if cfg.isOurs(pid) {
		t.Fatal("the process was ours before its exec")
	}
	if err := cfg.awaitExec(pid, exited, time.Minute); err != nil {
		t.Fatal(err)
	}
	if !cfg.isOurs(pid) {
		t.Fatal("awaitExec returned before the process was ours")
	}
}

func TestAwaitExecLeavesAnEndedProcessToTheLivenessChecks(t *testing.T) {
	cfg := Config{Dir: t.TempDir()}
	pid, exited := startShell(t, cfg, `exit 3`)
	if err := cfg.awaitExec(pid, exited, time.Minute); err != nil {
		t.Fatalf("a process that ended: %v", err)
	}
}

func TestAwaitExecGivesUp(t *testing.T) {
	cfg := Config{Dir: t.TempDir()}
	pid, exited := startShell(t, cfg, `sleep 30`)
	err := cfg.awaitExec(pid, exited, 50*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "command line") {
		t.Fatalf("err = %v", err)
	}
}
