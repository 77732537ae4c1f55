package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gofluss/fluss/internal/plural"
)

// Who may stop a running cluster is recorded in its directory, so that a
// target like `make test` stops only a cluster it started itself:
//
//   - ownerFile exists while the cluster is one a Run started and nobody
//     asked to keep (Keep removes it);
//   - runsDir holds one lease per Run whose command is running, named by
//     the pid of the Run's process and holding that process's start time,
//     so that a Run killed before it could clean up holds nothing.
//
// The last Run to end stops a cluster with an owner file. Both are
// forgotten whenever the cluster stops or starts as a whole.
func (c Config) ownerFile() string { return filepath.Join(c.Dir, "started-by-run") }
func (c Config) runsDir() string   { return filepath.Join(c.Dir, "runs") }

// Run runs cmd with the cluster of c up, and leaves the cluster as it found
// it: it starts the cluster when none runs (on the data of its last run, if
// any), waits for cmd, and then stops the cluster only if this Run or
// another one started it, no `fluss-cluster up` (Keep) has taken it over,
// and no other Run's command still uses it. A cluster that was running
// before stays running with its data. Run never removes data, not even of a
// cluster it started: only Down does. It reports to w and returns cmd's
// error (an *exec.ExitError for a failing exit status).
//
// Run leaves signals to cmd: an interrupt from the terminal reaches cmd
// too, and Run stops the cluster once cmd has ended.
func Run(ctx context.Context, c Config, w io.Writer, cmd *exec.Cmd) error {
	lease, err := c.begin(ctx, w)
	if err != nil {
		return err
	}
	runErr := cmd.Run()
	if err := c.end(w, lease); err != nil {
		return errors.Join(runErr, err)
	}
	return runErr
}

// begin brings the cluster up for a Run and takes the Run's lease.
func (c Config) begin(ctx context.Context, w io.Writer) (string, error) {
	unlock, err := c.lock()
	if err != nil {
		return "", err
	}
	defer unlock()
	started, err := c.up(ctx, w)
	if err != nil {
		return "", err
	}
	if started {
		if err := os.WriteFile(c.ownerFile(), nil, 0o644); err != nil {
			return "", err
		}
	}
	lease, err := c.takeLease(os.Getpid())
	if err != nil && started {
		_, _ = c.stopAll()
	}
	return lease, err
}

// end drops the Run's lease and stops the cluster if it is the last Run of
// a cluster that Runs own.
func (c Config) end(w io.Writer, lease string) error {
	unlock, err := c.lock()
	if err != nil {
		return err
	}
	defer unlock()
	if err := os.Remove(lease); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	_, err = os.Stat(c.ownerFile())
	owned := err == nil
	users, err := c.liveLeases()
	switch {
	case err != nil:
		return err
	case !owned:
		fmt.Fprintf(w, "leaving the cluster in %s running: it was running before (or fluss-cluster up keeps it)\n", c.Dir)
		return nil
	case users > 0:
		fmt.Fprintf(w, "leaving the cluster in %s running for the %s still using it\n", c.Dir, plural.Count(users, "other run"))
		return nil
	}
	n, err := c.stopAll()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "stopped the cluster started for the run (%s); its data stays in %s (fluss-cluster down removes it)\n", plural.Count(n, "server"), c.Dir)
	return nil
}

// disown makes the running cluster nobody's to stop but a person's.
func (c Config) disown() error {
	if err := os.Remove(c.ownerFile()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// forgetRuns drops the owner file and every lease.
func (c Config) forgetRuns() error {
	if err := c.disown(); err != nil {
		return err
	}
	return os.RemoveAll(c.runsDir())
}

// takeLease records that the process pid uses the cluster, and returns
// the lease's file.
func (c Config) takeLease(pid int) (string, error) {
	started, ok := processStart(pid)
	if !ok {
		return "", fmt.Errorf("cluster: no start time for process %d", pid)
	}
	if err := os.MkdirAll(c.runsDir(), 0o755); err != nil {
		return "", err
	}
	f := filepath.Join(c.runsDir(), strconv.Itoa(pid))
	return f, os.WriteFile(f, []byte(started), 0o644)
}

// liveLeases counts the leases whose process still runs.
func (c Config) liveLeases() (int, error) {
	entries, err := os.ReadDir(c.runsDir())
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join(c.runsDir(), e.Name()))
		if err != nil {
			continue
		}
		if started, ok := processStart(pid); ok && started == strings.TrimSpace(string(b)) {
			n++
		}
	}
	return n, nil
}

// processStart returns the start time of process pid (field 22 of
// /proc/<pid>/stat, in clock ticks since boot): with the pid, it tells a
// process from a later one that got the same pid.
func processStart(pid int) (string, bool) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", false
	}
	f := statFields(stat)
	if len(f) < 20 || processState(stat) == 'Z' {
		return "", false
	}
	return f[19], true
}
