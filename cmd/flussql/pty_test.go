//go:build linux

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/gofluss/fluss/internal/clustertest"
)

// openPTY opens a pseudo-terminal pair through /dev/ptmx (unlockpt and
// ptsname by ioctl), with a 100x30 window.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open /dev/ptmx: %v", err)
	}
	ioctl := func(req uintptr, arg unsafe.Pointer) error {
		if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), req, uintptr(arg)); e != 0 {
			return e
		}
		return nil
	}
	unlock := int32(0)
	if err := ioctl(syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)); err != nil {
		t.Fatalf("unlockpt: %v", err)
	}
	var n uint32
	if err := ioctl(syscall.TIOCGPTN, unsafe.Pointer(&n)); err != nil {
		t.Fatalf("ptsname: %v", err)
	}
	ws := struct{ Row, Col, X, Y uint16 }{Row: 30, Col: 100}
	if err := ioctl(syscall.TIOCSWINSZ, unsafe.Pointer(&ws)); err != nil {
		t.Fatalf("set window size: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open pts: %v", err)
	}
	return m, s
}

// screen collects what the program writes to the terminal.
type screen struct {
	mu   sync.Mutex
	buf  strings.Builder
	seen int // offset up to which expect has consumed
}

func (s *screen) readFrom(f *os.File) {
	b := make([]byte, 4096)
	for {
		n, err := f.Read(b)
		s.mu.Lock()
		s.buf.Write(b[:n])
		s.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// expect waits until want appears after what earlier expects consumed.
func (s *screen) expect(t *testing.T, want string) {
	t.Helper()
	// Generous: this bounds a hang, not a speed; a shell on a busy 2-core
	// machine can take tens of seconds for one DDL round trip.
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		all := s.buf.String()
		if i := strings.Index(all[s.seen:], want); i >= 0 {
			s.seen += i + len(want)
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t.Fatalf("terminal never showed %q; after the last match it shows:\n%q", want, s.buf.String()[s.seen:])
}

// TestInteractiveSession drives the shell through a pseudo-terminal: a
// statement typed over two lines, a result, Ctrl-C during a running
// command and while typing, history in $HOME, and \q.
func TestInteractiveSession(t *testing.T) {
	addr := clustertest.Bootstrap(t)
	db := testDatabase(t, addr)
	// The log table is made here, where a table the 0.9.1 coordinator
	// missed is recreated (clustertest.CreateWithLeaders); typed into the
	// shell, such a CREATE TABLE fails after waiting for leaders.
	createTable(t, addr, db, "CREATE TABLE events (id BIGINT, msg STRING)")
	bin := flussqlBinary(t)
	home := t.TempDir()

	master, slave := openPTY(t)
	defer master.Close()
	cmd := exec.Command(bin, "--dsn", "fluss://"+addr+"/")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.Env = append(os.Environ(), "HOME="+home, "FLUSSQL_HISTORY=")
	// A session of its own with the pty as controlling terminal, so that
	// Ctrl-C becomes SIGINT for the shell when the terminal is not raw.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	defer func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
		}
	}()
	var scr screen
	go scr.readFrom(master)
	typeText := func(s string) {
		t.Helper()
		if _, err := master.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}

	scr.expect(t, "fluss=> ")
	// A statement over two lines: the prompt shows the continuation.
	typeText("SHOW DATABASES\r")
	scr.expect(t, "fluss-> ")
	typeText("LIKE '" + db + "';\r")
	scr.expect(t, " database_name")
	scr.expect(t, " "+db+"\r\n")
	scr.expect(t, "(1 row)")
	scr.expect(t, "fluss=> ")

	// Ctrl-C while a command runs cancels it, not the shell.
	typeText("\\sleep 60\r")
	time.Sleep(500 * time.Millisecond)
	start := time.Now()
	typeText("\x03")
	scr.expect(t, "ERROR: canceling statement due to user request")
	scr.expect(t, "fluss=> ")
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("cancel took %v", d)
	}

	// Ctrl-C while typing drops the buffer.
	typeText("SELECT\r")
	scr.expect(t, "fluss-> ")
	typeText("\x03")
	scr.expect(t, "^C")
	scr.expect(t, "fluss=> ")

	// USE changes the prompt; results are tables on a terminal.
	typeText("USE " + db + ";\r")
	scr.expect(t, db+"=> ")
	typeText("SELECT 1 AS one, NULL AS n;\r")
	scr.expect(t, " one |  n")
	scr.expect(t, "   1 | NULL")

	// Ctrl-C during a SQL statement: a streaming scan of a log table
	// runs until its context is cancelled.
	typeText("SET 'fluss.scan.bounded' = 'false';\r")
	scr.expect(t, "OK")
	typeText("SELECT * FROM events;\r")
	time.Sleep(time.Second)
	start = time.Now()
	typeText("\x03")
	scr.expect(t, "ERROR: canceling statement due to user request")
	scr.expect(t, db+"=> ")
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("cancel took %v", d)
	}
	// The session survives the cancel.
	typeText("SHOW TABLES;\r")
	scr.expect(t, " events")

	typeText("\\q\r")
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) || err != nil {
			t.Errorf("shell exited with %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the shell did not exit on \\q")
	}

	hist, err := os.ReadFile(filepath.Join(home, ".flussql_history"))
	if err != nil {
		t.Fatalf("no history file: %v", err)
	}
	for _, want := range []string{"SHOW DATABASES\n", "LIKE '" + db + "';\n", "\\sleep 60\n", "\\q\n"} {
		if !strings.Contains(string(hist), want) {
			t.Errorf("history lacks %q:\n%s", want, hist)
		}
	}
}
