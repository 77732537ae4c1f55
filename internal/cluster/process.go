package cluster

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gofluss/fluss/internal/plural"
)

func (c Config) pidFile(s server) string { return filepath.Join(c.Dir, s.name+".pid") }

// LogFile is where the standard output and error of one server go.
func (c Config) LogFile(name string) string { return filepath.Join(c.Dir, name+".log") }

// jvmArgs are shared by every server. SerialGC keeps the JVMs from starting
// a GC thread per core on a small machine; the add-opens flag is what the
// shaded Arrow inside the server needs on JDK 17.
func (c Config) jvmArgs(s server) []string {
	tmp := filepath.Join(c.Dir, s.name, "tmp")
	return []string{
		"-Xmx" + s.heap,
		"-XX:+UseSerialGC",
		"-XX:+IgnoreUnrecognizedVMOptions",
		"--add-opens=java.base/java.nio=ALL-UNNAMED",
		"--add-opens=java.base/java.lang=ALL-UNNAMED",
		"--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
		"-Dio.netty.tryReflectionSetAccessible=true",
		"-Djava.io.tmpdir=" + tmp,
		"-Dorg.slf4j.simpleLogger.showDateTime=true",
		"-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS",
	}
}

// start launches one server in its own session, so that it outlives the
// command that started it and a Ctrl-C in the terminal does not reach it.
func (c Config) start(s server, lib string) error {
	if err := os.MkdirAll(filepath.Join(c.Dir, s.name, "tmp"), 0o755); err != nil {
		return err
	}
	logf, err := os.OpenFile(c.LogFile(s.name), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer logf.Close()
	args := append(c.jvmArgs(s), "-cp", filepath.Join(lib, "*"), s.mainClass)
	args = append(args, s.args...)
	cmd := exec.Command(c.Java, args...)
	cmd.Dir = filepath.Join(c.Dir, s.name)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("cluster: starting %s: %w", s.name, err)
	}
	pid := cmd.Process.Pid
	if err := os.WriteFile(c.pidFile(s), []byte(strconv.Itoa(pid)+"\n"), 0o644); err != nil {
		_ = cmd.Process.Kill()
		return err
	}
	// Reap the child if it dies while we are still running, so that a
	// crashed server does not linger as a zombie that looks alive.
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	if err := c.awaitExec(pid, exited, execTimeout); err != nil {
		_ = cmd.Process.Kill()
		return fmt.Errorf("cluster: %s: %w", s.name, err)
	}
	return nil
}

// execTimeout bounds awaitExec; an exec takes microseconds to milliseconds.
const execTimeout = 10 * time.Second

// awaitExec waits until the process pid shows as ours (isOurs), or has
// ended (exited is closed), which the caller's liveness checks report
// with the server's log. cmd.Start returns once the child's execve has
// closed its close-on-exec files, and the kernel sets up the new
// program's arguments only after that: for a moment /proc/<pid>/cmdline
// reads empty, and a liveness check (pidOf) right after the start took a
// starting ZooKeeper for dead.
func (c Config) awaitExec(pid int, exited <-chan struct{}, d time.Duration) error {
	deadline := time.After(d)
	for !c.isOurs(pid) {
		select {
		case <-exited:
			return nil
		case <-deadline:
			return fmt.Errorf("process %d did not show the cluster directory in its command line within %s", pid, d)
		case <-time.After(time.Millisecond):
		}
	}
	return nil
}

// pidOf returns the recorded pid of s if that process is alive and is ours:
// its command line must name the cluster directory. This is what makes Down
// safe against pids recycled by the kernel after a reboot or a crash.
func (c Config) pidOf(s server) (int, bool) {
	b, err := os.ReadFile(c.pidFile(s))
	if err != nil {
		return 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 1 {
		return 0, false
	}
	return pid, c.isOurs(pid)
}

func (c Config) isOurs(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil || processState(stat) == 'Z' {
		return false
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return false
	}
	return bytes.Contains(cmdline, []byte(c.Dir))
}

// statFields splits /proc/<pid>/stat after the parenthesised command name
// (which may itself hold spaces and parentheses): the state, field 3 of
// proc(5), comes first. nil when there is no command name.
func statFields(stat []byte) []string {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(string(stat[i+1:]))
}

// processState extracts the state letter from /proc/<pid>/stat.
func processState(stat []byte) byte {
	f := statFields(stat)
	if len(f) == 0 {
		return 0
	}
	return f[0][0]
}

// stop sends SIGTERM (Fluss servers shut down gracefully on it), waits, and
// falls back to SIGKILL. It signals only the recorded pid, and reports
// whether the server was running.
func (c Config) stop(s server, grace time.Duration) (bool, error) {
	pid, ok := c.pidOf(s)
	if !ok {
		return false, nil
	}
	_ = syscall.Kill(pid, syscall.SIGTERM)
	if c.waitGone(pid, grace) {
		return true, nil
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
	if c.waitGone(pid, 10*time.Second) {
		return true, nil
	}
	return true, fmt.Errorf("cluster: %s (pid %d) did not exit", s.name, pid)
}

func (c Config) waitGone(pid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if !c.isOurs(pid) {
			return true
		}
		time.Sleep(100 * time.Millisecond)
	}
	return !c.isOurs(pid)
}

// logTails renders the end of every server log, for failed starts.
func (c Config) logTails(lines int) string {
	var b strings.Builder
	for _, s := range c.servers() {
		data, err := os.ReadFile(c.LogFile(s.name))
		if err != nil {
			continue
		}
		fmt.Fprintf(&b, "---- %s (%s), last %s ----\n%s\n", s.name, c.LogFile(s.name), plural.Count(lines, "line"), tail(string(data), lines))
	}
	return b.String()
}

var errNotReady = errors.New("cluster: not ready")

// clockTick is the unit of the CPU times in /proc/<pid>/stat (USER_HZ,
// 100 on every Linux architecture Go runs the servers on).
const clockTick = 10 * time.Millisecond

// ServerCPU returns the CPU time (user and system) the cluster's running
// servers have used since they started, to the 10 ms of the kernel's
// accounting: the difference of two calls is what a workload between them
// cost the servers.
func (c Config) ServerCPU() (time.Duration, error) {
	var sum time.Duration
	for _, s := range c.servers() {
		pid, ok := c.pidOf(s)
		if !ok {
			return 0, fmt.Errorf("cluster: %s is not running", s.name)
		}
		d, err := ProcessCPU(pid)
		if err != nil {
			return 0, fmt.Errorf("cluster: %s: %w", s.name, err)
		}
		sum += d
	}
	return sum, nil
}

// ProcessCPU returns the CPU time (user and system) process pid has used,
// from /proc/<pid>/stat (Linux only), to the 10 ms of the kernel's
// accounting.
func ProcessCPU(pid int) (time.Duration, error) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	d, ok := processCPU(stat)
	if !ok {
		return 0, fmt.Errorf("unreadable /proc/%d/stat", pid)
	}
	return d, nil
}

// processCPU reads utime plus stime (fields 14 and 15 of proc(5)) from
// /proc/<pid>/stat.
func processCPU(stat []byte) (time.Duration, bool) {
	f := statFields(stat)
	if len(f) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil || utime < 0 || stime < 0 {
		return 0, false
	}
	return time.Duration(utime+stime) * clockTick, true
}
