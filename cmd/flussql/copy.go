package main

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gofluss/fluss"
	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
	"github.com/gofluss/fluss/typeconv"
)

// copySpec is a parsed \copy command.
type copySpec struct {
	// Table (with Columns) for FROM and for "\copy TABLE TO".
	Table   string
	Columns []string
	// Query is the SELECT of "\copy (SELECT ...) TO".
	Query  string
	From   bool
	File   string // "STDOUT" for TO STDOUT
	Header bool
	Delim  byte
}

// parseCopy parses the arguments of \copy:
//
//	TABLE [(COL, ...)] FROM 'FILE' [WITH] [CSV] [HEADER] [DELIMITER 'C']
//	(QUERY) TO 'FILE'|STDOUT [WITH] [CSV] [HEADER] [DELIMITER 'C']
//	TABLE TO 'FILE'|STDOUT ...
func parseCopy(arg string) (*copySpec, error) {
	spec := &copySpec{Delim: ','}
	rest := strings.TrimSpace(arg)
	if rest == "" {
		return nil, errors.New(`\copy: arguments required; see \?`)
	}
	if rest[0] == '(' {
		end, err := matchParen(rest)
		if err != nil {
			return nil, err
		}
		spec.Query = strings.TrimSpace(rest[1:end])
		rest = strings.TrimSpace(rest[end+1:])
	} else {
		i := tableNameEnd(rest)
		if i >= len(rest) {
			return nil, errors.New(`\copy: expected FROM or TO after the table name`)
		}
		spec.Table = rest[:i]
		rest = strings.TrimSpace(rest[i:])
		if strings.HasPrefix(rest, "(") {
			end, err := matchParen(rest)
			if err != nil {
				return nil, err
			}
			for _, c := range strings.Split(rest[1:end], ",") {
				if c = strings.TrimSpace(c); c != "" {
					spec.Columns = append(spec.Columns, strings.Trim(c, "`"))
				}
			}
			rest = strings.TrimSpace(rest[end+1:])
		}
	}
	words, err := copyWords(rest)
	if err != nil {
		return nil, err
	}
	if len(words) < 2 {
		return nil, errors.New(`\copy: expected FROM 'file' or TO 'file'`)
	}
	switch strings.ToUpper(words[0].text) {
	case "FROM":
		spec.From = true
		if spec.Query != "" {
			return nil, errors.New(`\copy: a query can only be copied TO a file`)
		}
	case "TO":
		if len(spec.Columns) > 0 {
			return nil, errors.New(`\copy: a column list is only allowed with FROM; use \copy (SELECT ...) TO`)
		}
	default:
		return nil, fmt.Errorf(`\copy: expected FROM or TO, got %q`, words[0].text)
	}
	spec.File = words[1].text
	if !words[1].quoted {
		switch strings.ToUpper(spec.File) {
		case "STDOUT":
			if spec.From {
				return nil, errors.New(`\copy: FROM STDOUT makes no sense; name a file`)
			}
			spec.File = "STDOUT"
		case "STDIN":
			return nil, errors.New(`\copy: FROM STDIN is not supported; name a file`)
		}
	}
	for i := 2; i < len(words); i++ {
		switch w := strings.ToUpper(words[i].text); {
		case w == "WITH" || w == "CSV" || w == "(" || w == ")":
		case w == "HEADER":
			spec.Header = true
		case w == "DELIMITER" && i+1 < len(words):
			d := words[i+1].text
			if d == `\t` {
				d = "\t"
			}
			if len(d) != 1 {
				return nil, fmt.Errorf(`\copy: DELIMITER must be one character, got %q`, d)
			}
			spec.Delim = d[0]
			i++
		default:
			return nil, fmt.Errorf(`\copy: unexpected %q (options: WITH, CSV, HEADER, DELIMITER 'c')`, words[i].text)
		}
	}
	return spec, nil
}

// tableNameEnd returns where a (possibly `quoted`) table name ends.
func tableNameEnd(s string) int {
	quoted := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '`':
			quoted = !quoted
		case !quoted && (c == ' ' || c == '\t' || c == '('):
			return i
		}
	}
	return len(s)
}

// matchParen returns the index of the ')' that closes s[0], skipping
// quoted text.
func matchParen(s string) (int, error) {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '`' || c == '"':
			quote = c
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return i, nil
			}
		}
	}
	return 0, errors.New(`\copy: unbalanced parentheses`)
}

type copyWord struct {
	text   string
	quoted bool
}

// copyWords splits on blanks and commas; '...' is one word (” is a quote).
func copyWords(s string) ([]copyWord, error) {
	var out []copyWord
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == ',':
			i++
		case c == '\'':
			var b strings.Builder
			j := i + 1
			for ; ; j++ {
				if j >= len(s) {
					return nil, errors.New(`\copy: unterminated quoted string`)
				}
				if s[j] == '\'' {
					if j+1 < len(s) && s[j+1] == '\'' {
						b.WriteByte('\'')
						j++
						continue
					}
					break
				}
				b.WriteByte(s[j])
			}
			out = append(out, copyWord{text: b.String(), quoted: true})
			i = j + 1
		case c == '(' || c == ')':
			out = append(out, copyWord{text: string(c)})
			i++
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t,()'", rune(s[j])) {
				j++
			}
			out = append(out, copyWord{text: s[i:j]})
			i = j
		}
	}
	return out, nil
}

func (s *shell) copyCommand(ctx context.Context, arg string) error {
	spec, err := parseCopy(arg)
	if err != nil {
		return err
	}
	ctx, done := s.statementContext(ctx)
	defer done()
	if spec.From {
		return s.copyFrom(ctx, spec)
	}
	return s.copyTo(ctx, spec)
}

// copyTo writes the result of the query (or the whole table) as CSV.
func (s *shell) copyTo(ctx context.Context, spec *copySpec) error {
	q := spec.Query
	if q == "" {
		q = "SELECT * FROM " + spec.Table
	}
	var w io.Writer = s.out
	var f *os.File
	if spec.File != "STDOUT" {
		var err error
		if f, err = os.Create(spec.File); err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	rows, err := s.conn.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	defer rows.Close()
	rw := &delimWriter{w: bufio.NewWriter(w), csv: true, sep: spec.Delim, noHeader: !spec.Header}
	n, err := s.writeRows(rows, rw, s.tty && f != nil, time.Second)
	if err != nil {
		return err
	}
	if f != nil {
		if err := f.Close(); err != nil {
			return err
		}
	}
	s.msg("COPY %d", n)
	return nil
}

// copyFrom loads a CSV file into a table.
func (s *shell) copyFrom(ctx context.Context, spec *copySpec) error {
	f, err := os.Open(spec.File)
	if err != nil {
		return err
	}
	defer f.Close()
	desc, err := s.fetch(ctx, "DESCRIBE "+spec.Table)
	if err != nil {
		return err
	}
	types, order := describeTypes(desc)
	cr := newCSVReader(f, spec.Delim)
	cols := spec.Columns
	if spec.Header {
		hdr, err := cr.read()
		if err != nil {
			if err == io.EOF {
				return fmt.Errorf(`\copy: %s is empty; expected a header line`, spec.File)
			}
			return err
		}
		if cols == nil {
			for _, h := range hdr {
				cols = append(cols, strings.TrimSpace(h.text))
			}
		}
	}
	if cols == nil {
		cols = order
	}
	for _, c := range cols {
		if _, ok := types[c]; !ok {
			return fmt.Errorf(`\copy: table %s has no column %q`, spec.Table, c)
		}
	}
	ld, err := s.newLoader(ctx, spec.Table, cols)
	if err != nil {
		return err
	}
	var prog *progress
	if s.tty {
		prog = newProgress(s.errOut, 0, s.now)
	}
	var n int64
	line := 0
	loadErr := func() error {
		for {
			rec, err := cr.read()
			if err == io.EOF {
				return nil
			}
			line = cr.line
			if err != nil {
				return fmt.Errorf("%s:%d: %w", spec.File, line, err)
			}
			if len(rec) != len(cols) {
				return fmt.Errorf("%s:%d: %s, expected %d (%s)", spec.File, line, plural.Count(len(rec), "field"), len(cols), strings.Join(cols, ", "))
			}
			row := make([]any, len(rec))
			for i, fl := range rec {
				v, err := csvValue(fl, types[cols[i]])
				if err != nil {
					return fmt.Errorf("%s:%d: column %s: %w", spec.File, line, cols[i], err)
				}
				row[i] = v
			}
			if err := ld.Append(ctx, row); err != nil {
				return fmt.Errorf("%s:%d: %w", spec.File, line, err)
			}
			n++
			prog.update(n)
		}
	}()
	if loadErr == nil {
		loadErr = ld.Flush(ctx)
	}
	cerr := ld.Close()
	prog.finish()
	if loadErr != nil {
		return fmt.Errorf("%w (%s loaded before the failure)", loadErr, plural.Count(ld.Loaded(), "row"))
	}
	if cerr != nil {
		return cerr
	}
	s.msg("COPY %d", n)
	return nil
}

// describeTypes maps column names to types from DESCRIBE rows, and lists
// the physical (non-computed) columns in table order.
func describeTypes(r *result) (map[string]column, []string) {
	types := map[string]column{}
	var order []string
	idx := func(name string) int {
		for i, c := range r.cols {
			if c.Name == name {
				return i
			}
		}
		return -1
	}
	ni, ti, ei := idx("name"), idx("type"), idx("extras")
	if ni < 0 || ti < 0 {
		return types, nil
	}
	for _, row := range r.rows {
		name := fmt.Sprint(row[ni])
		typ := fmt.Sprint(row[ti])
		if ei >= 0 {
			if e, ok := row[ei].(string); ok && e == "computed" {
				continue
			}
		}
		types[name] = column{Name: name, Type: typ}
		order = append(order, name)
	}
	return types, order
}

// csvValue turns a CSV field into an argument: an empty unquoted field is
// NULL; BYTES/BINARY fields written as \x<hex> (as \copy TO writes them)
// are decoded; everything else is passed as text, which the driver
// converts to the column's type.
func csvValue(f csvField, c column) (any, error) {
	if f.text == "" && !f.quoted {
		return nil, nil
	}
	if c.kind() == kindBinary && strings.HasPrefix(f.text, `\x`) {
		b, err := hex.DecodeString(f.text[2:])
		if err != nil {
			return nil, fmt.Errorf(`invalid \x hex bytes: %w`, err)
		}
		return b, nil
	}
	return f.text, nil
}

// ---------------------------------------------------------------------------
// Loaders

// loader writes rows into one table. Append queues a row (nil for NULL,
// strings or []byte otherwise); Flush writes what is queued; Loaded counts
// the rows written so far.
type loader interface {
	Append(ctx context.Context, row []any) error
	Flush(ctx context.Context) error
	Close() error
	Loaded() int64
}

// newLoader picks the fastest path: log tables whose every column the
// file provides are loaded as Arrow record batches through the driver's
// native AppendWriter (sql.Conn.Raw, fluss.AppendArrow); anything else
// (primary-key tables, where an INSERT with a column list is a partial
// update, and partial column lists) goes through multi-row INSERT
// ... VALUES batches, which the driver also writes with its native writers.
func (s *shell) newLoader(ctx context.Context, table string, cols []string) (loader, error) {
	if ld, err := newArrowLoader(ctx, s.conn, table, cols); err != nil || ld != nil {
		return ld, err
	}
	return newInsertLoader(s.conn, table, cols), nil
}

// arrowBatchRows is how many rows one Arrow record batch carries.
const arrowBatchRows = 65536

// arrowLoader converts CSV fields to the table's types and appends them
// as Arrow record batches.
type arrowLoader struct {
	conn   *sql.Conn
	table  string
	cols   []schema.Column // table columns, schema order
	pos    []int           // file column i goes to table column pos[i]
	rb     *arrowipc.RowBuilder
	row    []any
	loaded int64
}

// newArrowLoader returns nil (and no error) when the Arrow path does not
// apply to the table and columns.
func newArrowLoader(ctx context.Context, conn *sql.Conn, table string, fileCols []string) (loader, error) {
	client, err := fluss.Client(ctx, conn)
	if err != nil {
		// Not a fluss connection (tests run the shell over go-sqlmock):
		// the INSERT path works over any driver.
		return nil, nil
	}
	path, err := tablePath(ctx, conn, table)
	if err != nil {
		return nil, err
	}
	t, err := client.OpenTable(ctx, path)
	if err != nil {
		return nil, err
	}
	desc := t.Info().Descriptor
	if desc.HasPrimaryKey() || len(fileCols) != len(desc.Schema.Columns) {
		return nil, nil
	}
	pos := make([]int, len(fileCols))
	for i, c := range fileCols {
		if pos[i] = desc.Schema.ColumnIndex(c); pos[i] < 0 {
			return nil, fmt.Errorf("table %s has no column %q", path, c)
		}
	}
	rb, err := arrowipc.NewRowBuilder(desc.Schema.Columns, memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	return &arrowLoader{conn: conn, table: path.String(), cols: desc.Schema.Columns, pos: pos, rb: rb,
		row: make([]any, len(desc.Schema.Columns))}, nil
}

// tablePath resolves "t" against the session's current database.
func tablePath(ctx context.Context, conn *sql.Conn, table string) (flussrpc.TablePath, error) {
	name := strings.ReplaceAll(table, "`", "")
	if db, t, ok := strings.Cut(name, "."); ok {
		return flussrpc.TablePath{Database: db, Table: t}, nil
	}
	var db string
	if err := conn.QueryRowContext(ctx, "SHOW CURRENT DATABASE").Scan(&db); err != nil {
		return flussrpc.TablePath{}, err
	}
	return flussrpc.TablePath{Database: db, Table: name}, nil
}

func (l *arrowLoader) Append(ctx context.Context, fields []any) error {
	for i, v := range fields {
		c := l.cols[l.pos[i]]
		val, err := typeconv.ToValue(c.Type, v, time.UTC)
		if err != nil {
			return typeconv.WithColumn(err, c.Name)
		}
		l.row[l.pos[i]] = val
	}
	if err := l.rb.Append(l.row); err != nil {
		return err
	}
	if l.rb.Len() >= arrowBatchRows {
		return l.Flush(ctx)
	}
	return nil
}

func (l *arrowLoader) Flush(ctx context.Context) error {
	if l.rb.Len() == 0 {
		return nil
	}
	rec := l.rb.NewRecord()
	defer rec.Release()
	n, err := fluss.AppendArrow(ctx, l.conn, l.table, rec)
	l.loaded += n
	return err
}

func (l *arrowLoader) Close() error {
	l.rb.Release()
	return nil
}

func (l *arrowLoader) Loaded() int64 { return l.loaded }

// maxBatchParams bounds the placeholders of one INSERT statement.
const maxBatchParams = 2000

// insertLoader loads through one prepared multi-row INSERT ... VALUES
// statement per full batch, without a transaction (each batch is
// acknowledged by the server when Exec returns).
type insertLoader struct {
	conn   *sql.Conn
	table  string
	cols   []string
	batch  int
	stmt   *sql.Stmt
	rows   []any
	n      int
	loaded int64
}

func newInsertLoader(conn *sql.Conn, table string, cols []string) *insertLoader {
	batch := max(1, min(500, maxBatchParams/max(1, len(cols))))
	return &insertLoader{conn: conn, table: table, cols: cols, batch: batch}
}

// insertSQL is INSERT INTO table (`c1`, ...) VALUES (?, ...), ... for n rows.
func insertSQL(table string, cols []string, n int) string {
	var b strings.Builder
	b.WriteString("INSERT INTO ")
	b.WriteString(table)
	b.WriteString(" (")
	for i, c := range cols {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(schema.Backquote(c))
	}
	b.WriteString(") VALUES ")
	tuple := "(" + strings.Repeat("?, ", len(cols)-1) + "?)"
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(tuple)
	}
	return b.String()
}

func (l *insertLoader) Append(ctx context.Context, row []any) error {
	l.rows = append(l.rows, row...)
	l.n++
	if l.n < l.batch {
		return nil
	}
	if l.stmt == nil {
		st, err := l.conn.PrepareContext(ctx, insertSQL(l.table, l.cols, l.batch))
		if err != nil {
			return err
		}
		l.stmt = st
	}
	if _, err := l.stmt.ExecContext(ctx, l.rows...); err != nil {
		return err
	}
	l.loaded += int64(l.n)
	l.rows, l.n = l.rows[:0], 0
	return nil
}

func (l *insertLoader) Flush(ctx context.Context) error {
	if l.n == 0 {
		return nil
	}
	if _, err := l.conn.ExecContext(ctx, insertSQL(l.table, l.cols, l.n), l.rows...); err != nil {
		return err
	}
	l.loaded += int64(l.n)
	l.rows, l.n = l.rows[:0], 0
	return nil
}

func (l *insertLoader) Close() error {
	if l.stmt != nil {
		return l.stmt.Close()
	}
	return nil
}

func (l *insertLoader) Loaded() int64 { return l.loaded }

// ---------------------------------------------------------------------------
// CSV reading

// csvField is one field of a CSV record; quoted tells an empty string ("")
// from NULL (an empty unquoted field).
type csvField struct {
	text   string
	quoted bool
}

// csvReader reads RFC 4180 records (quoted fields may span lines; CRLF or
// LF line ends), keeping whether each field was quoted, which
// encoding/csv does not report.
type csvReader struct {
	r    *bufio.Reader
	sep  byte
	line int // line of the last record's start
	next int // next line number
}

func newCSVReader(r io.Reader, sep byte) *csvReader {
	return &csvReader{r: bufio.NewReader(r), sep: sep, next: 1}
}

func (c *csvReader) readLine() (string, error) {
	s, err := c.r.ReadString('\n')
	if err == io.EOF && s != "" {
		err = nil
	}
	if err != nil {
		return "", err
	}
	c.next++
	return s, nil
}

// read returns the next record; blank lines are skipped.
func (c *csvReader) read() ([]csvField, error) {
	var line string
	for {
		var err error
		c.line = c.next
		if line, err = c.readLine(); err != nil {
			return nil, err
		}
		if strings.TrimRight(line, "\r\n") != "" {
			break
		}
	}
	var out []csvField
	i := 0
	for {
		if i < len(line) && line[i] == '"' {
			var b strings.Builder
			i++
			for {
				if i >= len(line) {
					more, err := c.readLine()
					if err != nil {
						return nil, fmt.Errorf("unterminated quoted field starting on line %d", c.line)
					}
					line, i = more, 0
					continue
				}
				if line[i] == '"' {
					if i+1 < len(line) && line[i+1] == '"' {
						b.WriteByte('"')
						i += 2
						continue
					}
					i++
					break
				}
				b.WriteByte(line[i])
				i++
			}
			out = append(out, csvField{text: b.String(), quoted: true})
			rest := strings.TrimRight(line[i:], "\r\n")
			if rest == "" {
				return out, nil
			}
			if rest[0] != c.sep {
				return nil, fmt.Errorf("unexpected %q after a quoted field", rest[0])
			}
			i++
			continue
		}
		body := strings.TrimRight(line[i:], "\r\n")
		j := strings.IndexByte(body, c.sep)
		if j < 0 {
			if strings.ContainsRune(body, '"') {
				return nil, errors.New(`a quote (") inside an unquoted field; quote the field and double the quote`)
			}
			out = append(out, csvField{text: body})
			return out, nil
		}
		if strings.ContainsRune(body[:j], '"') {
			return nil, errors.New(`a quote (") inside an unquoted field; quote the field and double the quote`)
		}
		out = append(out, csvField{text: body[:j]})
		i += j + 1
	}
}
