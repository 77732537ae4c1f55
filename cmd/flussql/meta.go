package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gofluss/fluss"
	"github.com/gofluss/fluss/internal/plural"
)

// reportedError is an error already printed (with its script and line) by
// a nested script; callers only pass it on.
type reportedError struct{ err error }

func (r *reportedError) Error() string { return r.err.Error() }
func (r *reportedError) Unwrap() error { return r.err }

const helpText = `General
  \q                     quit (Ctrl-D too)
  \? | \help             this help
  \conninfo              the connection (DSN with the password hidden)
  \i FILE                run the statements and meta commands of FILE
  \echo TEXT             print TEXT
  \sleep SECONDS         wait (Ctrl-C cancels)

Informational (arguments are identifiers as written in SQL)
  \l                     list databases                (SHOW DATABASES)
  \dt [DB]               list tables, with their kind  (SHOW FULL TABLES [FROM DB])
  \d [TABLE]             describe a table: columns, keys, partitions, options
                         (DESCRIBE, SHOW PARTITIONS, SHOW TABLE OPTIONS); no TABLE: \dt

Output
  \x [on|off]            expanded (vertical) display
  \format [FORMAT]       show or set the output format: table csv tsv json jsonl vertical
  \timing [on|off]       show the time each statement and \copy takes

Query buffer
  \p                     show the statement being typed
  \r                     discard it

Copy (client side)
  \copy TABLE [(COL, ...)] FROM 'FILE' [WITH HEADER]
                         load a CSV file (NULL: empty unquoted field)
  \copy (SELECT ...) TO 'FILE' [WITH HEADER]
  \copy TABLE TO 'FILE' [WITH HEADER]
                         write a result as CSV; 'FILE' may be STDOUT

SQL statements end with ';' and may span lines. EXPLAIN shows the plan of a statement.
Ctrl-C cancels the running statement (or the line being typed).
`

// runMeta runs one meta command line.
func (s *shell) runMeta(ctx context.Context, line string, sp *splitter) error {
	line = strings.TrimSpace(line)
	cmd, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	args := strings.Fields(rest)
	switch cmd {
	case `\q`, `\quit`:
		return errQuit
	case `\?`, `\help`, `\h`:
		_, err := io.WriteString(s.out, helpText)
		return err
	case `\l`, `\list`:
		return s.metaQuery(ctx, "SHOW DATABASES")
	case `\dt`:
		if len(args) > 1 && !strings.HasPrefix(rest, "`") {
			return errors.New(`\dt takes at most one database name`)
		}
		q := "SHOW FULL TABLES"
		if rest != "" {
			q += " FROM " + rest
		}
		return s.metaQuery(ctx, q)
	case `\d`:
		switch {
		case rest == "":
			return s.metaQuery(ctx, "SHOW FULL TABLES")
		case len(args) == 1 || strings.ContainsRune(rest, '`'):
			return s.describeTable(ctx, rest)
		}
		return errors.New(`\d takes one table name`)
	case `\x`:
		on, err := toggle(args, s.format == formatVertical)
		if err != nil {
			return err
		}
		if on {
			s.format = formatVertical
		} else if s.format == formatVertical {
			s.format = formatTable
		}
		s.msg("Expanded display is %s.", onOff(on))
		return nil
	case `\timing`:
		on, err := toggle(args, s.timing)
		if err != nil {
			return err
		}
		s.timing = on
		s.msg("Timing is %s.", onOff(on))
		return nil
	case `\format`, `\pset`:
		if cmd == `\pset` {
			// \pset format csv, as in psql.
			if len(args) == 0 || args[0] != "format" {
				return errors.New(`only \pset format [FORMAT] is supported`)
			}
			args = args[1:]
		}
		if len(args) == 0 {
			s.msg("Output format is %s.", s.format)
			return nil
		}
		if !validFormat(args[0]) {
			return fmt.Errorf("unknown format %q (want one of %s)", args[0], strings.Join(formats, ", "))
		}
		s.format = args[0]
		s.msg("Output format is %s.", s.format)
		return nil
	case `\conninfo`:
		return s.connInfo()
	case `\i`, `\include`:
		if len(args) != 1 {
			return errors.New(`\i needs a file name`)
		}
		return s.include(ctx, args[0])
	case `\echo`:
		_, err := fmt.Fprintln(s.out, rest)
		return err
	case `\sleep`:
		return s.sleep(ctx, rest)
	case `\p`, `\print`:
		if sp == nil || !sp.pending() {
			s.msg("Query buffer is empty.")
			return nil
		}
		_, err := io.WriteString(s.out, sp.buf.String())
		return err
	case `\r`, `\reset`:
		if sp != nil {
			sp.reset()
		}
		s.msg("Query buffer reset (cleared).")
		return nil
	case `\copy`:
		return s.copyCommand(ctx, rest)
	}
	return fmt.Errorf("invalid command %s; try \\? for help", cmd)
}

func toggle(args []string, cur bool) (bool, error) {
	if len(args) == 0 {
		return !cur, nil
	}
	switch strings.ToLower(args[0]) {
	case "on", "true", "1":
		return true, nil
	case "off", "false", "0":
		return false, nil
	}
	return false, fmt.Errorf("unrecognized value %q: expected on or off", args[0])
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// metaQuery runs an informational query in the current format, with a row
// count.
func (s *shell) metaQuery(ctx context.Context, q string) error {
	ctx, done := s.statementContext(ctx)
	defer done()
	n, err := s.query(ctx, q, s.out, s.format)
	if err != nil {
		return err
	}
	s.msg("(%s)", plural.Count(n, "row"))
	return nil
}

// result is a small result set held in memory.
type result struct {
	cols []column
	rows [][]any
}

func (s *shell) fetch(ctx context.Context, q string) (*result, error) {
	rows, err := s.conn.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := resultColumns(rows)
	if err != nil {
		return nil, err
	}
	res := &result{cols: cols}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		res.rows = append(res.rows, vals)
	}
	return res, rows.Err()
}

func (s *shell) render(r *result) error {
	w := newResultWriter(s.format, s.out, s.writerOptions())
	if err := w.Header(r.cols); err != nil {
		return err
	}
	for _, row := range r.rows {
		if err := w.Row(row); err != nil {
			return err
		}
	}
	return w.Close()
}

// describeTable is \d TABLE: the columns (DESCRIBE), the partitions of a
// partitioned table (SHOW PARTITIONS) and the options (SHOW TABLE OPTIONS).
// Table and vertical output carry section titles; the other formats print
// each section as its own block, separated by an empty line.
func (s *shell) describeTable(ctx context.Context, table string) error {
	ctx, done := s.statementContext(ctx)
	defer done()
	cols, err := s.fetch(ctx, "DESCRIBE "+table)
	if err != nil {
		return err
	}
	partitioned := false
	keyCol := -1
	for i, c := range cols.cols {
		if c.Name == "key" {
			keyCol = i
		}
	}
	if keyCol >= 0 {
		for _, r := range cols.rows {
			if k, ok := r[keyCol].(string); ok && strings.Contains(k, "PART") {
				partitioned = true
			}
		}
	}
	var parts *result
	if partitioned {
		if parts, err = s.fetch(ctx, "SHOW PARTITIONS "+table); err != nil {
			return err
		}
	}
	opts, err := s.fetch(ctx, "SHOW TABLE OPTIONS "+table)
	if err != nil {
		return err
	}
	titled := s.format == formatTable || s.format == formatVertical
	section := func(title string, r *result, first bool) error {
		if titled {
			if !first {
				fmt.Fprintln(s.out)
			}
			fmt.Fprintln(s.out, title)
		} else if !first {
			fmt.Fprintln(s.out)
		}
		return s.render(r)
	}
	if err := section(fmt.Sprintf("Table %s", table), cols, true); err != nil {
		return err
	}
	if parts != nil {
		if err := section("Partitions:", parts, false); err != nil {
			return err
		}
	}
	return section("Options:", opts, false)
}

func (s *shell) connInfo() error {
	cfg, err := fluss.ParseDSN(s.dsn)
	if err != nil {
		return err
	}
	db := s.database
	if db == "" {
		db = cfg.Database
	}
	user := cfg.User
	if user == "" {
		user = "(none)"
	}
	_, err = fmt.Fprintf(s.out, "Connected to %s as user %s, database %q (servers %s).\n",
		cfg.Redacted(), user, db, strings.Join(cfg.Addrs, ", "))
	return err
}

func (s *shell) include(ctx context.Context, name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	err = s.runScript(ctx, f, name, true)
	if err != nil && !errors.Is(err, errQuit) {
		return &reportedError{err}
	}
	return err
}

func (s *shell) sleep(ctx context.Context, arg string) error {
	secs, err := strconv.ParseFloat(strings.TrimSpace(arg), 64)
	if err != nil || secs < 0 {
		return fmt.Errorf(`\sleep needs a number of seconds, got %q`, arg)
	}
	ctx, done := s.statementContext(ctx)
	defer done()
	t := time.NewTimer(time.Duration(secs * float64(time.Second)))
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
