package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/term"
)

// errInterrupt is returned by ttyReader.Read when the user pressed Ctrl-C
// while a line was being edited (the terminal is raw then, so Ctrl-C is a
// byte, not a signal).
var errInterrupt = errors.New("interrupt")

// ttyReader feeds the line editor and turns the Ctrl-C byte into
// errInterrupt (x/term would report it as io.EOF, like Ctrl-D).
type ttyReader struct {
	r       io.Reader
	pending []byte
	buf     [256]byte
}

func (t *ttyReader) Read(p []byte) (int, error) {
	var data []byte
	if len(t.pending) > 0 {
		data, t.pending = t.pending, nil
	} else {
		n, err := t.r.Read(t.buf[:])
		if n == 0 {
			return 0, err
		}
		data = t.buf[:n]
	}
	if i := indexByte(data, 3); i >= 0 {
		t.pending = append([]byte(nil), data[i+1:]...)
		return copy(p, data[:i]), errInterrupt
	}
	n := copy(p, data)
	if n < len(data) {
		t.pending = append(t.pending[:0], data[n:]...)
	}
	return n, nil
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// history is the line history of the editor, kept in a file (one line per
// entry, appended as lines are entered, at most max entries).
type history struct {
	mu      sync.Mutex
	entries []string // oldest first
	max     int
	path    string
}

// historyLimit bounds the history file.
const historyLimit = 1000

// historyPath is $FLUSSQL_HISTORY, else ~/.flussql_history ("" when there
// is no home directory).
func historyPath(getenv func(string) string) string {
	if p := getenv("FLUSSQL_HISTORY"); p != "" {
		return p
	}
	home := getenv("HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return ""
		}
	}
	return filepath.Join(home, ".flussql_history")
}

func loadHistory(path string, limit int) *history {
	h := &history{max: limit, path: path}
	if path == "" {
		return h
	}
	f, err := os.Open(path)
	if err != nil {
		return h
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	total := 0
	for sc.Scan() {
		if line := sc.Text(); strings.TrimSpace(line) != "" {
			h.entries = append(h.entries, line)
			total++
		}
	}
	f.Close()
	if len(h.entries) > limit {
		h.entries = h.entries[len(h.entries)-limit:]
	}
	if total > 2*limit {
		// Compact a file that grew past twice the limit.
		h.rewrite()
	}
	return h
}

func (h *history) rewrite() {
	tmp := h.path + ".tmp"
	if err := os.WriteFile(tmp, []byte(strings.Join(h.entries, "\n")+"\n"), 0o600); err == nil {
		os.Rename(tmp, h.path)
	}
}

// Add records a line (blank lines and repeats of the last line are not).
func (h *history) Add(entry string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if strings.TrimSpace(entry) == "" || strings.ContainsAny(entry, "\r\n") {
		return
	}
	if n := len(h.entries); n > 0 && h.entries[n-1] == entry {
		return
	}
	h.entries = append(h.entries, entry)
	if len(h.entries) > h.max {
		h.entries = h.entries[len(h.entries)-h.max:]
	}
	if h.path == "" {
		return
	}
	f, err := os.OpenFile(h.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	fmt.Fprintln(f, entry)
	f.Close()
}

// Len is the number of entries.
func (h *history) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.entries)
}

// At returns entry idx, 0 being the most recent.
func (h *history) At(idx int) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.entries[len(h.entries)-1-idx]
}

// interactive runs the read-eval-print loop on a terminal: in is the
// terminal (raw while a line is edited, normal while a statement runs, so
// that Ctrl-C then is SIGINT and cancels the statement), echo is where the
// editor draws.
func (s *shell) interactive(ctx context.Context, in *os.File, echo io.Writer, outFd int, hist *history) error {
	fd := int(in.Fd())
	rd := &ttyReader{r: in}
	rw := struct {
		io.Reader
		io.Writer
	}{rd, echo}
	var sp splitter
	var t *term.Terminal
	lineNo := 0
	fmt.Fprintf(s.errOut, "flussql %s; type \\? for help, \\q to quit.\n", version)
	for {
		if t == nil {
			t = term.NewTerminal(rw, "")
			t.History = hist
		}
		if w, h, err := term.GetSize(outFd); err == nil {
			t.SetSize(w, h)
			s.width = w
		}
		prompt := s.database + "=> "
		if sp.pending() {
			prompt = s.database + "-> "
		}
		t.SetPrompt(prompt)
		old, err := term.MakeRaw(fd)
		if err != nil {
			return err
		}
		line, err := t.ReadLine()
		term.Restore(fd, old)
		switch {
		case errors.Is(err, errInterrupt):
			// Ctrl-C while typing: drop the line and the buffer.
			fmt.Fprint(echo, "^C\n")
			sp.reset()
			t = nil
			continue
		case errors.Is(err, io.EOF):
			fmt.Fprintln(echo)
			return nil
		case err != nil && !errors.Is(err, term.ErrPasteIndicator):
			return err
		}
		lineNo++
		if isMeta(line) && !sp.inQuote() {
			start := s.now()
			err := s.runMeta(ctx, line, &sp)
			if errors.Is(err, errQuit) {
				return nil
			}
			s.finish(err, start, isCopy(line), "", 0)
			continue
		}
		for _, st := range sp.add(line, lineNo) {
			start := s.now()
			s.finish(s.runStatement(ctx, st), start, true, "", 0)
		}
	}
}
