package main

import (
	"bufio"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Output formats accepted by --format and \format.
const (
	formatTable    = "table"
	formatCSV      = "csv"
	formatTSV      = "tsv"
	formatJSON     = "json"
	formatJSONL    = "jsonl"
	formatVertical = "vertical"
)

var formats = []string{formatTable, formatCSV, formatTSV, formatJSON, formatJSONL, formatVertical}

func validFormat(f string) bool {
	for _, x := range formats {
		if x == f {
			return true
		}
	}
	return false
}

// column is what a result writer knows about one result column.
type column struct {
	Name string
	// Type is the driver's DatabaseTypeName, e.g. "BIGINT",
	// "DECIMAL(10, 2)", "ARRAY<INT>"; "" when unknown.
	Type string
}

// kind classifies a column type for rendering.
type kind int

const (
	kindOther kind = iota
	kindNumber
	kindDecimal
	kindBool
	kindBinary
	kindDate
	kindTime
	kindTimestamp
	kindTimestampLTZ
	kindComplex // ARRAY, MAP, ROW: JSON text from the driver
)

func (c column) kind() kind {
	t := strings.ToUpper(c.Type)
	base := t
	if i := strings.IndexAny(base, "(<"); i >= 0 {
		base = base[:i]
	}
	base = strings.TrimSpace(base)
	switch base {
	case "TINYINT", "SMALLINT", "INT", "INTEGER", "BIGINT", "FLOAT", "DOUBLE", "REAL":
		return kindNumber
	case "DECIMAL", "NUMERIC":
		return kindDecimal
	case "BOOLEAN", "BOOL":
		return kindBool
	case "BYTES", "BINARY", "VARBINARY":
		return kindBinary
	case "DATE":
		return kindDate
	case "TIME":
		return kindTime
	case "TIMESTAMP_LTZ":
		return kindTimestampLTZ
	case "TIMESTAMP":
		if strings.Contains(t, "LOCAL TIME ZONE") {
			return kindTimestampLTZ
		}
		return kindTimestamp
	case "ARRAY", "MAP", "ROW", "MULTISET":
		return kindComplex
	}
	return kindOther
}

// rightAligned reports whether table mode right-aligns the column.
func (c column) rightAligned() bool {
	k := c.kind()
	return k == kindNumber || k == kindDecimal
}

// textValue renders a non-NULL value as plain text, the way every text
// format (table, vertical, csv, tsv) shows it. Binary values are hex with a
// \x prefix (as PostgreSQL's bytea), times use ISO 8601 with a space
// between date and time, TIMESTAMP_LTZ carries its offset.
func textValue(c column, v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		if c.kind() == kindBinary {
			return `\x` + hex.EncodeToString(x)
		}
		return string(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case float64:
		return formatFloat(x, 64)
	case float32:
		return formatFloat(float64(x), 32)
	case bool:
		if x {
			return "true"
		}
		return "false"
	case time.Time:
		return formatTime(c.kind(), x)
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}

func formatFloat(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return strconv.FormatFloat(f, 'g', -1, bits)
}

func formatTime(k kind, t time.Time) string {
	switch k {
	case kindDate:
		return t.Format("2006-01-02")
	case kindTime:
		return t.Format("15:04:05.999999999")
	case kindTimestamp:
		return t.Format("2006-01-02 15:04:05.999999999")
	}
	return t.Format("2006-01-02 15:04:05.999999999Z07:00")
}

// resultWriter renders one result set. Header is called once, then Row
// for each row, then Close (also after an error, to end the output).
type resultWriter interface {
	Header(cols []column) error
	Row(vals []any) error
	Close() error
}

// writerOptions are the settings a result writer takes from the shell.
type writerOptions struct {
	// Null is the NULL text of table and vertical output.
	Null string
	// Width is the terminal width table mode fits into (0: no limit).
	Width int
	// MaxCell bounds a table cell's width when Width is 0 (0: no limit).
	MaxCell int
}

func newResultWriter(format string, w io.Writer, opts writerOptions) resultWriter {
	switch format {
	case formatCSV:
		return &delimWriter{w: bufio.NewWriter(w), csv: true, sep: ','}
	case formatTSV:
		return &delimWriter{w: bufio.NewWriter(w), sep: '\t'}
	case formatJSON:
		return &jsonWriter{w: bufio.NewWriter(w), array: true}
	case formatJSONL:
		return &jsonWriter{w: bufio.NewWriter(w)}
	case formatVertical:
		return &verticalWriter{w: bufio.NewWriter(w), opts: opts}
	}
	return &tableWriter{w: bufio.NewWriter(w), opts: opts}
}

// ---------------------------------------------------------------------------
// csv and tsv

// delimWriter writes CSV (RFC 4180) or TSV (PostgreSQL text format) with a
// header line.
//
// CSV: fields containing the separator, a quote, CR or LF, leading or
// trailing space, and the empty string are quoted ("" doubles a quote);
// NULL is an empty unquoted field — the PostgreSQL COPY CSV convention, so
// NULL and ” stay distinct.
//
// TSV: NULL is \N; backslash, tab, newline and carriage return inside
// values are written as \\, \t, \n and \r.
type delimWriter struct {
	w        *bufio.Writer
	csv      bool
	sep      byte
	noHeader bool
	cols     []column
}

func (d *delimWriter) Header(cols []column) error {
	d.cols = cols
	if d.noHeader {
		return nil
	}
	names := make([]any, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	return d.write(names, true)
}

func (d *delimWriter) Row(vals []any) error { return d.write(vals, false) }

func (d *delimWriter) write(vals []any, header bool) error {
	for i, v := range vals {
		if i > 0 {
			d.w.WriteByte(d.sep)
		}
		if v == nil {
			if !d.csv {
				d.w.WriteString(`\N`)
			}
			continue
		}
		var s string
		if header {
			s = v.(string)
		} else {
			s = textValue(d.cols[i], v)
		}
		if d.csv {
			d.w.WriteString(csvQuote(s, d.sep))
		} else {
			d.w.WriteString(tsvField(s))
		}
	}
	_, err := d.w.WriteString("\n")
	return err
}

func (d *delimWriter) Close() error { return d.w.Flush() }

// csvQuote quotes s when needed; the empty string is always quoted so that
// it differs from NULL.
func csvQuote(s string, sep byte) string {
	if s == "" {
		return `""`
	}
	need := strings.ContainsAny(s, "\"\r\n") || strings.IndexByte(s, sep) >= 0
	if !need {
		r, _ := utf8.DecodeRuneInString(s)
		l, _ := utf8.DecodeLastRuneInString(s)
		need = unicode.IsSpace(r) || unicode.IsSpace(l) || s == `\.`
	}
	if !need {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

var tsvEscaper = strings.NewReplacer(`\`, `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`)

func tsvField(s string) string { return tsvEscaper.Replace(s) }

// ---------------------------------------------------------------------------
// json and jsonl

// jsonWriter writes one JSON object per row, keys in column order: a JSON
// array of them (json) or one per line (jsonl). NULL is null; BIGINT and
// the other integer and float types are numbers (NaN and infinities,
// which JSON lacks, are strings); DECIMAL is a string, to keep every
// digit; BYTES are base64 strings (as encoding/json writes []byte); dates
// and times are strings as in text output; ARRAY, MAP and ROW columns are
// embedded as JSON values.
type jsonWriter struct {
	w     *bufio.Writer
	array bool
	cols  []column
	keys  []string
	n     int
}

func (j *jsonWriter) Header(cols []column) error {
	j.cols = cols
	j.keys = make([]string, len(cols))
	seen := map[string]int{}
	for i, c := range cols {
		name := c.Name
		if n := seen[name]; n > 0 {
			// Duplicate column names would make a JSON object whose
			// later key wins silently; number them instead.
			name = fmt.Sprintf("%s_%d", name, n+1)
		}
		seen[c.Name]++
		b, _ := json.Marshal(name)
		j.keys[i] = string(b)
	}
	if j.array {
		_, err := j.w.WriteString("[")
		return err
	}
	return nil
}

func (j *jsonWriter) Row(vals []any) error {
	if j.array {
		if j.n > 0 {
			j.w.WriteString(",")
		}
		j.w.WriteString("\n")
	}
	j.n++
	j.w.WriteString("{")
	for i, v := range vals {
		if i > 0 {
			j.w.WriteString(",")
		}
		j.w.WriteString(j.keys[i])
		j.w.WriteString(":")
		j.w.WriteString(jsonValue(j.cols[i], v))
	}
	_, err := j.w.WriteString("}")
	if !j.array {
		_, err = j.w.WriteString("\n")
	}
	return err
}

func (j *jsonWriter) Close() error {
	if j.array {
		if j.n > 0 {
			j.w.WriteString("\n")
		}
		if j.keys == nil {
			// No header: still a valid (empty) document.
			j.w.WriteString("[")
		}
		j.w.WriteString("]\n")
	}
	return j.w.Flush()
}

func jsonString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		return `""`
	}
	return string(b)
}

func jsonValue(c column, v any) string {
	if v == nil {
		return "null"
	}
	switch x := v.(type) {
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case float64, float32:
		f, _ := x.(float64)
		if f32, ok := x.(float32); ok {
			f = float64(f32)
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return jsonString(formatFloat(f, 64))
		}
		return textValue(c, x)
	case bool:
		return strconv.FormatBool(x)
	case []byte:
		if c.kind() == kindBinary {
			return jsonString(base64.StdEncoding.EncodeToString(x))
		}
		return jsonString(string(x))
	case string:
		if c.kind() == kindComplex && json.Valid([]byte(x)) {
			return x
		}
		return jsonString(x)
	case time.Time:
		return jsonString(formatTime(c.kind(), x))
	case json.Marshaler:
		if b, err := x.MarshalJSON(); err == nil {
			return string(b)
		}
	}
	return jsonString(textValue(c, v))
}

// ---------------------------------------------------------------------------
// table

// maxTableBuffer is how many rows table mode holds to size its columns;
// longer results are printed in blocks of this many rows, each block with
// its own widths and header.
const maxTableBuffer = 10000

// tableWriter prints an aligned table like psql:
//
//	 id | name
//	----+------
//	  1 | a
//
// Numbers are right-aligned. NULL is shown as opts.Null. Values holding
// newlines span several lines; values wider than the column limit (the
// terminal width shared among the columns, or opts.MaxCell) are wrapped
// onto continuation lines. Only table mode wraps.
type tableWriter struct {
	w    *bufio.Writer
	opts writerOptions
	cols []column
	rows [][]string
	// printed is set once a block went out: the end of a result whose
	// rows filled whole blocks then prints no empty one.
	printed bool
}

func (t *tableWriter) Header(cols []column) error {
	t.cols = cols
	return nil
}

func (t *tableWriter) Row(vals []any) error {
	r := make([]string, len(vals))
	for i, v := range vals {
		if v == nil {
			r[i] = t.opts.Null
		} else {
			r[i] = sanitize(textValue(t.cols[i], v))
		}
	}
	t.rows = append(t.rows, r)
	if len(t.rows) >= maxTableBuffer {
		return t.flush()
	}
	return nil
}

func (t *tableWriter) Close() error {
	if err := t.flush(); err != nil {
		return err
	}
	return t.w.Flush()
}

// flush prints the buffered block (the header alone when the result has
// no rows at all).
func (t *tableWriter) flush() error {
	if t.cols == nil || t.printed && len(t.rows) == 0 {
		return nil
	}
	t.printed = true
	if len(t.cols) == 0 {
		t.rows = nil
		return nil
	}
	widths := make([]int, len(t.cols))
	for i, c := range t.cols {
		widths[i] = maxLineWidth(c.Name)
	}
	for _, r := range t.rows {
		for i, s := range r {
			widths[i] = max(widths[i], maxLineWidth(s))
		}
	}
	limits := columnLimits(widths, t.opts)
	for i := range widths {
		if limits[i] > 0 && widths[i] > limits[i] {
			widths[i] = limits[i]
		}
	}
	header := make([]string, len(t.cols))
	for i, c := range t.cols {
		header[i] = c.Name
	}
	t.printRow(header, widths, true)
	for i, w := range widths {
		if i > 0 {
			t.w.WriteString("+")
		}
		t.w.WriteString(strings.Repeat("-", w+2))
	}
	t.w.WriteString("\n")
	for _, r := range t.rows {
		t.printRow(r, widths, false)
	}
	t.rows = t.rows[:0]
	return nil
}

// columnLimits shares the available width among the columns: with a
// terminal width, the widest columns are narrowed (to no less than 10) until
// the table fits; without one, opts.MaxCell bounds each column.
func columnLimits(widths []int, opts writerOptions) []int {
	limits := make([]int, len(widths))
	if opts.Width <= 0 {
		for i := range limits {
			limits[i] = opts.MaxCell
		}
		return limits
	}
	cur := append([]int(nil), widths...)
	total := func() int {
		n := 0
		for _, w := range cur {
			n += w + 3
		}
		return n - 1
	}
	const minWidth = 10
	for total() > opts.Width {
		widest := -1
		for i, w := range cur {
			if w > minWidth && (widest < 0 || w > cur[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			break
		}
		cur[widest]--
	}
	for i := range cur {
		if cur[i] < widths[i] {
			limits[i] = cur[i]
		}
	}
	return limits
}

func (t *tableWriter) printRow(cells []string, widths []int, header bool) {
	// Each cell becomes its lines: explicit newlines, then wrapping.
	lines := make([][]string, len(cells))
	height := 1
	for i, s := range cells {
		lines[i] = wrapCell(s, widths[i])
		height = max(height, len(lines[i]))
	}
	var b strings.Builder
	for l := 0; l < height; l++ {
		b.Reset()
		for i := range cells {
			if i > 0 {
				b.WriteString("|")
			}
			s := ""
			if l < len(lines[i]) {
				s = lines[i][l]
			}
			pad := widths[i] - displayWidth(s)
			b.WriteString(" ")
			switch {
			case header:
				left := pad / 2
				b.WriteString(strings.Repeat(" ", left))
				b.WriteString(s)
				b.WriteString(strings.Repeat(" ", pad-left))
			case t.cols[i].rightAligned():
				b.WriteString(strings.Repeat(" ", pad))
				b.WriteString(s)
			default:
				b.WriteString(s)
				b.WriteString(strings.Repeat(" ", pad))
			}
			b.WriteString(" ")
		}
		// No trailing blanks.
		t.w.WriteString(strings.TrimRight(b.String(), " "))
		t.w.WriteString("\n")
	}
}

// sanitize replaces control characters other than newline by visible
// escapes so that they cannot move the cursor or break alignment.
func sanitize(s string) string {
	clean := true
	for _, r := range s {
		if r != '\n' && (r < 0x20 || r == 0x7f) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t':
			b.WriteString("    ")
		case r == '\r':
			b.WriteString(`\r`)
		case r != '\n' && (r < 0x20 || r == 0x7f):
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// wrapCell splits s into display lines no wider than width (0: no limit).
func wrapCell(s string, width int) []string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if width <= 0 || displayWidth(line) <= width {
			out = append(out, line)
			continue
		}
		cur, w := strings.Builder{}, 0
		for _, r := range line {
			rw := runeWidth(r)
			if w+rw > width && w > 0 {
				out = append(out, cur.String())
				cur.Reset()
				w = 0
			}
			cur.WriteRune(r)
			w += rw
		}
		out = append(out, cur.String())
	}
	return out
}

func maxLineWidth(s string) int {
	m := 0
	for _, line := range strings.Split(s, "\n") {
		m = max(m, displayWidth(line))
	}
	return m
}

func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		n += runeWidth(r)
	}
	return n
}

// runeWidth approximates the terminal cells a rune takes: 0 for combining
// marks, 2 for East Asian wide and full-width characters, else 1.
func runeWidth(r rune) int {
	switch {
	case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || r == 0x200b:
		return 0
	case r >= 0x1100 && (r <= 0x115f || r == 0x2329 || r == 0x232a ||
		(r >= 0x2e80 && r <= 0xa4cf && r != 0x303f) ||
		(r >= 0xac00 && r <= 0xd7a3) ||
		(r >= 0xf900 && r <= 0xfaff) ||
		(r >= 0xfe30 && r <= 0xfe6f) ||
		(r >= 0xff00 && r <= 0xff60) ||
		(r >= 0xffe0 && r <= 0xffe6) ||
		(r >= 0x1f300 && r <= 0x1f64f) ||
		(r >= 0x1f900 && r <= 0x1f9ff) ||
		(r >= 0x20000 && r <= 0x3fffd)):
		return 2
	}
	return 1
}

// ---------------------------------------------------------------------------
// vertical

// verticalWriter prints one "name | value" line per column and a record
// separator per row, like psql's \x (expanded) mode.
type verticalWriter struct {
	w     *bufio.Writer
	opts  writerOptions
	cols  []column
	width int
	n     int
}

func (v *verticalWriter) Header(cols []column) error {
	v.cols = cols
	for _, c := range cols {
		v.width = max(v.width, displayWidth(c.Name))
	}
	return nil
}

func (v *verticalWriter) Row(vals []any) error {
	v.n++
	title := fmt.Sprintf("-[ RECORD %d ]", v.n)
	line := v.width + 3 + 20
	if v.opts.Width > 0 {
		line = min(line, v.opts.Width)
	}
	v.w.WriteString(title)
	v.w.WriteString(strings.Repeat("-", max(line-len(title), 1)))
	v.w.WriteString("\n")
	for i, c := range v.cols {
		s := v.opts.Null
		if vals[i] != nil {
			s = sanitize(textValue(c, vals[i]))
		}
		for j, l := range strings.Split(s, "\n") {
			name := ""
			if j == 0 {
				name = c.Name
			}
			v.w.WriteString(name)
			v.w.WriteString(strings.Repeat(" ", v.width-displayWidth(name)))
			v.w.WriteString(strings.TrimRight(" | "+l, " "))
			v.w.WriteString("\n")
		}
	}
	return nil
}

func (v *verticalWriter) Close() error { return v.w.Flush() }
