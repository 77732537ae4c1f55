package main

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/gofluss/fluss/internal/plural"
	"github.com/gofluss/fluss/parser"
)

// shell is one session of flussql: a single database/sql connection (so
// USE and SET stick), the output settings and the statement runner shared
// by the interactive loop, -c, -f, stdin and \i.
type shell struct {
	db   *sql.DB
	conn *sql.Conn
	dsn  string

	out    io.Writer // results
	errOut io.Writer // messages, errors, progress

	format  string
	timing  bool
	quiet   bool
	null    string
	width   int  // terminal width for table mode (0: none)
	maxCell int  // table cell limit without a terminal width
	tty     bool // stderr is a terminal: progress lines allowed
	// outTTY tells that results go to the terminal (no progress line then,
	// except while table mode buffers).
	outTTY bool

	// database is the current database, for the prompt.
	database string

	mu     sync.Mutex
	cancel context.CancelFunc // of the running statement, if any

	now func() time.Time
}

func newShell(db *sql.DB, conn *sql.Conn, dsn string, out, errOut io.Writer) *shell {
	return &shell{db: db, conn: conn, dsn: dsn, out: out, errOut: errOut, format: formatTable, null: "NULL", now: time.Now}
}

// errQuit ends a script early on \q; it is not a failure.
var errQuit = errors.New("quit")

// statementContext returns the context of one statement, cancelled by the
// next interrupt (Ctrl-C). done must be called when the statement ends.
func (s *shell) statementContext(parent context.Context) (ctx context.Context, done func()) {
	ctx, cancel := context.WithCancel(parent)
	s.mu.Lock()
	s.cancel = cancel
	s.mu.Unlock()
	return ctx, func() {
		s.mu.Lock()
		s.cancel = nil
		s.mu.Unlock()
		cancel()
	}
}

// interrupt cancels the running statement; it reports whether there was one.
func (s *shell) interrupt() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel == nil {
		return false
	}
	s.cancel()
	s.cancel = nil
	return true
}

// msg writes a status message (row counts, OK, timing) to stderr unless
// quiet; results on stdout never contain them.
func (s *shell) msg(format string, args ...any) {
	if s.quiet {
		return
	}
	fmt.Fprintf(s.errOut, format+"\n", args...)
}

// ---------------------------------------------------------------------------
// Input: lines to statements and meta commands

// splitter accumulates input lines and cuts complete statements out of them
// with parser.Split, so that ';' inside strings, quoted identifiers and
// comments does not end a statement.
type splitter struct {
	buf strings.Builder
	// startLine is the input line where the buffered text starts.
	startLine int
}

// pending reports whether an incomplete statement is buffered.
func (sp *splitter) pending() bool { return strings.TrimSpace(sp.buf.String()) != "" }

// inQuote reports whether the buffer ends inside a string, quoted
// identifier or comment.
func (sp *splitter) inQuote() bool {
	_, err := parser.Lex(sp.buf.String())
	var pe *parser.Error
	return errors.As(err, &pe) && strings.HasPrefix(pe.Msg, "unterminated")
}

func (sp *splitter) reset() { sp.buf.Reset() }

// add appends one line and returns the statements it completes.
func (sp *splitter) add(line string, lineNo int) []string {
	if !sp.pending() {
		sp.buf.Reset()
		sp.startLine = lineNo
	}
	sp.buf.WriteString(line)
	sp.buf.WriteString("\n")
	text := sp.buf.String()
	toks, err := parser.Lex(text)
	if err != nil {
		var pe *parser.Error
		if errors.As(err, &pe) && strings.HasPrefix(pe.Msg, "unterminated") {
			return nil
		}
		// Text the lexer rejects: let the driver report it once the
		// line ends the statement.
		if strings.HasSuffix(strings.TrimSpace(line), ";") {
			sp.buf.Reset()
			return []string{strings.TrimSuffix(strings.TrimSpace(text), ";")}
		}
		return nil
	}
	pieces, err := parser.Split(text)
	if err != nil {
		return nil // an unterminated EXECUTE STATEMENT SET block
	}
	var done []string
	rest := ""
	for _, p := range pieces {
		end := p.Pos.Offset + len(p.Text)
		if terminated(toks, end) {
			done = append(done, p.Text)
			continue
		}
		rest = text[p.Pos.Offset:]
		break
	}
	if rest != "" {
		// Lines before the pending statement are done.
		sp.startLine += strings.Count(text[:len(text)-len(rest)], "\n")
	}
	sp.buf.Reset()
	sp.buf.WriteString(rest)
	return done
}

// flush returns what is left at the end of the input: a last statement
// without ';' runs too.
func (sp *splitter) flush() []string {
	text := sp.buf.String()
	sp.buf.Reset()
	if strings.TrimSpace(text) == "" {
		return nil
	}
	pieces, err := parser.Split(text)
	if err != nil {
		return []string{strings.TrimSpace(text)}
	}
	out := make([]string, len(pieces))
	for i, p := range pieces {
		out[i] = p.Text
	}
	return out
}

// terminated reports whether the first token at or after offset end is ';'.
func terminated(toks []parser.Token, end int) bool {
	for _, t := range toks {
		if t.Pos.Offset >= end {
			return t.Kind == parser.TokOp && t.Text == ";"
		}
	}
	return false
}

// isMeta reports whether a line is a meta command (starts with a backslash).
func isMeta(line string) bool { return strings.HasPrefix(strings.TrimSpace(line), `\`) }

// runScript runs every statement and meta command of r. With stopOnError
// it returns the first error (after printing it); otherwise errors are
// printed and the script goes on. name is used in error messages.
func (s *shell) runScript(ctx context.Context, r io.Reader, name string, stopOnError bool) error {
	br := bufio.NewReader(r)
	var sp splitter
	lineNo := 0
	run := func(stmts []string, line int) error {
		for _, st := range stmts {
			start := s.now()
			err := s.runStatement(ctx, st)
			s.finish(err, start, true, name, line)
			if err != nil {
				if stopOnError {
					return err
				}
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
		}
		return nil
	}
	for {
		line, rerr := br.ReadString('\n')
		if rerr != nil && rerr != io.EOF {
			return rerr
		}
		if line == "" && rerr == io.EOF {
			break
		}
		lineNo++
		line = strings.TrimRight(line, "\r\n")
		if isMeta(line) && !sp.inQuote() {
			start := s.now()
			err := s.runMeta(ctx, line, &sp)
			if errors.Is(err, errQuit) {
				return errQuit
			}
			s.finish(err, start, isCopy(line), name, lineNo)
			if err != nil && stopOnError {
				return err
			}
			if rerr == io.EOF {
				break
			}
			continue
		}
		start := sp.startLine
		if !sp.pending() {
			start = lineNo
		}
		if err := run(sp.add(line, lineNo), start); err != nil {
			return err
		}
		if rerr == io.EOF {
			break
		}
	}
	return run(sp.flush(), sp.startLine)
}

// finish reports err, if any, and then, with \timing on and timed set (a
// statement or \copy), the time since start: as in psql, the time comes
// after the statement's output and error.
func (s *shell) finish(err error, start time.Time, timed bool, name string, line int) {
	if err != nil {
		s.reportError(err, name, line)
	}
	if timed && s.timing {
		s.msg("Time: %.3f ms", float64(s.now().Sub(start).Microseconds())/1000)
	}
}

// isCopy reports whether a meta command line is \copy, which \timing times.
func isCopy(line string) bool {
	cmd, _, _ := strings.Cut(strings.TrimSpace(line), " ")
	return cmd == `\copy`
}

// reportError prints err on stderr, with the script name and line.
func (s *shell) reportError(err error, name string, line int) {
	var rep *reportedError
	if errors.As(err, &rep) {
		return
	}
	text := errorText(err)
	if name != "" && line > 0 {
		fmt.Fprintf(s.errOut, "%s:%d: ERROR: %s\n", name, line, text)
		return
	}
	fmt.Fprintf(s.errOut, "ERROR: %s\n", text)
}

func errorText(err error) string {
	if errors.Is(err, context.Canceled) {
		return "canceling statement due to user request"
	}
	return strings.TrimPrefix(err.Error(), "fluss: ")
}

// ---------------------------------------------------------------------------
// Statements

// statementKind says how a statement is run: queries through QueryContext
// (their rows are printed), writes through ExecContext (their row count is
// printed), the rest through QueryContext too, printing rows when the
// statement returns some (CALL sys.get_cluster_configs()) and OK when not.
type statementKind int

const (
	kindExec statementKind = iota
	kindQuery
	kindDML // Exec whose RowsAffected is reported
)

// classify parses the statement to choose Query or Exec. A statement the
// parser rejects goes to the driver as Exec, which reports the same error.
func classify(text string) (statementKind, parser.Statement) {
	st, err := parser.Parse(text)
	if err != nil {
		return kindExec, nil
	}
	switch x := st.(type) {
	case parser.SelectStatement, *parser.Show, *parser.Describe, *parser.Explain:
		return kindQuery, st
	case *parser.Set:
		if x.Key == "" {
			return kindQuery, st
		}
	case *parser.Insert, *parser.Update, *parser.Delete, *parser.StatementSet:
		return kindDML, st
	}
	return kindExec, st
}

// runStatement runs one SQL statement and prints its result.
func (s *shell) runStatement(parent context.Context, text string) error {
	ctx, done := s.statementContext(parent)
	defer done()
	k, st := classify(text)
	var err error
	switch k {
	case kindQuery:
		var n int64
		n, err = s.query(ctx, text, s.out, s.format)
		if err == nil {
			s.msg("(%s)", plural.Count(n, "row"))
		}
	case kindDML:
		var res sql.Result
		res, err = s.conn.ExecContext(ctx, text)
		if err == nil {
			n, _ := res.RowsAffected()
			s.msg("OK, %s affected", plural.Count(n, "row"))
		}
	default:
		var n int64
		var hasRows bool
		n, hasRows, err = s.run(ctx, text)
		switch {
		case err != nil:
		case hasRows:
			s.msg("(%s)", plural.Count(n, "row"))
		default:
			s.msg("OK")
		}
		if u, ok := st.(*parser.Use); ok && err == nil {
			s.database = useTarget(u)
		}
	}
	return err
}

func useTarget(u *parser.Use) string { return u.Database.Name }

// query runs a query and writes its rows in format to w; it returns the
// number of rows.
func (s *shell) query(ctx context.Context, text string, w io.Writer, format string, args ...any) (int64, error) {
	rows, err := s.conn.QueryContext(ctx, text, args...)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	return s.printRows(rows, w, format)
}

// run runs a statement that is neither a query nor a write and prints the
// rows it returns, if any (a statement without rows has no columns).
func (s *shell) run(ctx context.Context, text string) (n int64, hasRows bool, err error) {
	rows, err := s.conn.QueryContext(ctx, text)
	if err != nil {
		return 0, false, err
	}
	defer rows.Close()
	if cols, err := rows.Columns(); err != nil || len(cols) == 0 {
		if err == nil {
			err = rows.Close()
		}
		return 0, false, err
	}
	n, err = s.printRows(rows, s.out, s.format)
	return n, true, err
}

// printRows writes rows in format to w and returns their number.
func (s *shell) printRows(rows *sql.Rows, w io.Writer, format string) (int64, error) {
	// Progress only when the terminal shows nothing else meanwhile.
	showProgress := s.tty && (!s.outTTY || format == formatTable || w != s.out)
	return s.writeRows(rows, newResultWriter(format, w, s.writerOptions()), showProgress, time.Second)
}

func (s *shell) writerOptions() writerOptions {
	return writerOptions{Null: s.null, Width: s.width, MaxCell: s.maxCell}
}

// writeRows streams rows into rw.
func (s *shell) writeRows(rows *sql.Rows, rw resultWriter, showProgress bool, progressAfter time.Duration) (n int64, err error) {
	cols, err := resultColumns(rows)
	if err != nil {
		return 0, err
	}
	var prog *progress
	if showProgress {
		prog = newProgress(s.errOut, progressAfter, s.now)
	}
	defer func() {
		prog.finish()
		if cerr := rw.Close(); err == nil {
			err = cerr
		}
	}()
	if err := rw.Header(cols); err != nil {
		return 0, err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return n, err
		}
		if err := rw.Row(vals); err != nil {
			return n, err
		}
		n++
		prog.update(n)
	}
	return n, rows.Err()
}

func resultColumns(rows *sql.Rows) ([]column, error) {
	names, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	cols := make([]column, len(names))
	types, _ := rows.ColumnTypes()
	for i, n := range names {
		cols[i].Name = n
		if i < len(types) && types[i] != nil {
			cols[i].Type = types[i].DatabaseTypeName()
		}
	}
	return cols, nil
}

// ---------------------------------------------------------------------------
// Progress

// progress draws "N rows (R rows/s)" on one terminal line of stderr, at
// most five times a second, starting after a delay.
type progress struct {
	w     io.Writer
	start time.Time
	after time.Duration
	last  time.Time
	drawn bool
	n     int64
	now   func() time.Time
}

func newProgress(w io.Writer, after time.Duration, now func() time.Time) *progress {
	t := now()
	return &progress{w: w, start: t, after: after, now: now}
}

func (p *progress) update(n int64) {
	if p == nil {
		return
	}
	p.n = n
	t := p.now()
	if t.Sub(p.start) < p.after || t.Sub(p.last) < 200*time.Millisecond {
		return
	}
	p.last = t
	p.draw(t)
}

func (p *progress) draw(t time.Time) {
	secs := t.Sub(p.start).Seconds()
	rate := 0.0
	if secs > 0 {
		rate = float64(p.n) / secs
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s (%.0f rows/s)", plural.Count(p.n, "row"), rate)
	p.drawn = true
}

// finish erases the progress line.
func (p *progress) finish() {
	if p == nil || !p.drawn {
		return
	}
	fmt.Fprint(p.w, "\r\x1b[K")
}
