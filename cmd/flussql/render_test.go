package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/DATA-DOG/go-sqlmock"

	"github.com/gofluss/fluss/internal/testkit"
)

// golden compares got with testdata/name.golden (or writes it with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if want, same := testkit.Golden(t, path, []byte(got)); !same {
		t.Errorf("%s differs from the golden file (go test -update rewrites it)\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// mockShell returns a shell over a sqlmock connection with exact SQL
// matching, and buffers for stdout and stderr.
func mockShell(t *testing.T) (*shell, sqlmock.Sqlmock, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	db, mock, err := sqlmock.New(sqlmock.QueryMatcherOption(sqlmock.QueryMatcherEqual))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	s := newShell(db, conn, "fluss://alice:s3cret@127.0.0.1:9123/shop", &out, &errOut)
	s.database = "shop"
	return s, mock, &out, &errOut
}

var (
	day = time.Date(2024, 3, 9, 0, 0, 0, 0, time.UTC)
	ts  = time.Date(2024, 3, 9, 10, 30, 0, 123000000, time.UTC)
	ltz = time.Date(2024, 3, 9, 10, 30, 0, 0, time.FixedZone("", 2*3600))
)

// sampleRows is a result with every kind of value the driver returns.
func sampleRows() *sqlmock.Rows {
	col := sqlmock.NewColumn
	rows := sqlmock.NewRowsWithColumnDefinition(
		col("id").OfType("BIGINT", int64(0)).Nullable(false),
		col("name").OfType("STRING", ""),
		col("price").OfType("DECIMAL(10, 2)", ""),
		col("ok").OfType("BOOLEAN", false),
		col("data").OfType("BYTES", []byte(nil)),
		col("day").OfType("DATE", time.Time{}),
		col("ts").OfType("TIMESTAMP(3)", time.Time{}),
		col("ltz").OfType("TIMESTAMP_LTZ(3)", time.Time{}),
		col("tags").OfType("ARRAY<INT>", ""),
		col("score").OfType("DOUBLE", float64(0)),
	)
	rows.AddRow(int64(1), "plain", "12.50", true, []byte{0xde, 0xad}, day, ts, ltz, "[1,2]", 1.5)
	rows.AddRow(int64(2), "comma, \"quote\"\nsecond line\ttab", nil, false, nil, nil, nil, nil, nil, math.NaN())
	rows.AddRow(int64(3), "", "-0.01", nil, []byte{}, day, ts, ltz, "[]", nil)
	rows.AddRow(int64(4), "NULL", "1000000.00", true, []byte("x"), day, ts, ltz, "[null]", math.Inf(1))
	return rows
}

const sampleQuery = "SELECT * FROM items"

func TestFormats(t *testing.T) {
	for _, f := range formats {
		t.Run(f, func(t *testing.T) {
			s, mock, out, errOut := mockShell(t)
			s.format = f
			mock.ExpectQuery(sampleQuery).WillReturnRows(sampleRows())
			if err := s.runStatement(context.Background(), sampleQuery); err != nil {
				t.Fatal(err)
			}
			if got := errOut.String(); got != "(4 rows)\n" {
				t.Errorf("stderr = %q, want the row count only", got)
			}
			golden(t, "format_"+f, out.String())
			checkParses(t, f, out.Bytes())
			if err := mock.ExpectationsWereMet(); err != nil {
				t.Error(err)
			}
		})
	}
}

// checkParses reads machine formats back and checks NULL and quoting.
func checkParses(t *testing.T, format string, out []byte) {
	t.Helper()
	switch format {
	case formatCSV:
		recs, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatalf("csv does not parse: %v", err)
		}
		if len(recs) != 5 || recs[0][0] != "id" || recs[2][1] != "comma, \"quote\"\nsecond line\ttab" {
			t.Errorf("csv records = %q", recs)
		}
		// NULL is an empty unquoted field, '' a quoted one.
		if !strings.Contains(string(out), "\n3,\"\",-0.01,,") {
			t.Errorf("csv does not tell NULL from '': %s", out)
		}
	case formatTSV:
		lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if len(lines) != 5 {
			t.Fatalf("tsv has %d lines, want 5: %q", len(lines), out)
		}
		f := strings.Split(lines[2], "\t")
		if len(f) != 10 || f[2] != `\N` || f[1] != `comma, "quote"\nsecond line\ttab` {
			t.Errorf("tsv row 2 = %q", f)
		}
	case formatJSON:
		var v []map[string]any
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("json does not parse: %v\n%s", err, out)
		}
		if len(v) != 4 || v[0]["id"] != 1.0 || v[1]["price"] != nil || v[0]["price"] != "12.50" ||
			v[0]["data"] != "3q0=" || v[1]["score"] != "NaN" {
			t.Errorf("json = %v", v)
		}
		if tags, ok := v[0]["tags"].([]any); !ok || len(tags) != 2 {
			t.Errorf("ARRAY column not embedded as JSON: %#v", v[0]["tags"])
		}
	case formatJSONL:
		lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if len(lines) != 4 {
			t.Fatalf("jsonl has %d lines, want 4", len(lines))
		}
		for _, l := range lines {
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Errorf("jsonl line %q: %v", l, err)
			}
		}
	}
}

func TestTableWraps(t *testing.T) {
	s, mock, out, _ := mockShell(t)
	s.width = 50
	rows := sqlmock.NewRowsWithColumnDefinition(
		sqlmock.NewColumn("k").OfType("INT", int64(0)),
		sqlmock.NewColumn("v").OfType("STRING", ""),
		sqlmock.NewColumn("w").OfType("STRING", ""),
	).AddRow(int64(1), strings.Repeat("abcdefghij", 5), "short").
		AddRow(int64(22), "宽字符宽字符宽字符宽字符宽字符宽字符宽字符", nil)
	mock.ExpectQuery("SELECT k, v, w FROM t").WillReturnRows(rows)
	if err := s.runStatement(context.Background(), "SELECT k, v, w FROM t"); err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		if w := displayWidth(l); w > 50 {
			t.Errorf("line %q is %d wide, over the terminal's 50", l, w)
		}
	}
	golden(t, "table_wrapped", out.String())
}

func TestEmptyResults(t *testing.T) {
	for _, f := range formats {
		t.Run(f, func(t *testing.T) {
			s, mock, out, _ := mockShell(t)
			s.format = f
			mock.ExpectQuery("SHOW TABLES").WillReturnRows(sqlmock.NewRows([]string{"table_name"}))
			if err := s.runStatement(context.Background(), "SHOW TABLES"); err != nil {
				t.Fatal(err)
			}
			want := map[string]string{
				formatTable:    " table_name\n------------\n",
				formatCSV:      "table_name\n",
				formatTSV:      "table_name\n",
				formatJSON:     "[]\n",
				formatJSONL:    "",
				formatVertical: "",
			}[f]
			if out.String() != want {
				t.Errorf("got %q, want %q", out.String(), want)
			}
		})
	}
}

func TestExecMessages(t *testing.T) {
	s, mock, out, errOut := mockShell(t)
	mock.ExpectQuery("CREATE TABLE t (id INT)").WillReturnRows(noRows())
	mock.ExpectExec("INSERT INTO t VALUES (1), (2)").WillReturnResult(sqlmock.NewResult(0, 2))
	mock.ExpectQuery("USE other").WillReturnRows(noRows())
	ctx := context.Background()
	for _, q := range []string{"CREATE TABLE t (id INT)", "INSERT INTO t VALUES (1), (2)", "USE other"} {
		if err := s.runStatement(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if out.Len() != 0 {
		t.Errorf("stdout = %q, want nothing", out)
	}
	if got, want := errOut.String(), "OK\nOK, 2 rows affected\nOK\n"; got != want {
		t.Errorf("stderr = %q, want %q", got, want)
	}
	if s.database != "other" {
		t.Errorf("database after USE = %q", s.database)
	}
	s.quiet = true
	errOut.Reset()
	mock.ExpectQuery("DROP TABLE t").WillReturnRows(noRows())
	if err := s.runStatement(ctx, "DROP TABLE t"); err != nil || errOut.Len() != 0 {
		t.Errorf("quiet: err %v, stderr %q", err, errOut)
	}
}

// noRows is the result of a statement that returns no rows: no columns.
func noRows() *sqlmock.Rows { return sqlmock.NewRows(nil) }

// TestStatementRowsArePrinted: a statement that is neither a query nor a
// write prints the rows it returns (it printed only OK before).
func TestStatementRowsArePrinted(t *testing.T) {
	s, mock, out, errOut := mockShell(t)
	s.format = formatCSV
	mock.ExpectQuery("CALL sys.get_cluster_configs()").WillReturnRows(
		sqlmock.NewRows([]string{"config_key", "config_value"}).AddRow("a", "1").AddRow("b", "2"))
	if err := s.runStatement(context.Background(), "CALL sys.get_cluster_configs()"); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "config_key,config_value\na,1\nb,2\n"; got != want {
		t.Errorf("stdout = %q, want %q", got, want)
	}
	if got := errOut.String(); got != "(2 rows)\n" {
		t.Errorf("stderr = %q", got)
	}
}

// TestTiming: with \timing on, a statement's time follows its output and
// its error, as in psql, and \copy is timed too.
func TestTiming(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		expect       func(sqlmock.Sqlmock)
		want         string
	}{
		{"ok", "CREATE DATABASE d;", func(m sqlmock.Sqlmock) { m.ExpectQuery("CREATE DATABASE d").WillReturnRows(noRows()) },
			"OK\nTime: 1.500 ms\n"},
		{"error", "CREATE DATABASE d;", func(m sqlmock.Sqlmock) {
			m.ExpectQuery("CREATE DATABASE d").WillReturnError(errors.New("it exists"))
		}, "<script>:1: ERROR: it exists\nTime: 1.500 ms\n"},
		{"copy", "\\copy nonsense\n", func(sqlmock.Sqlmock) {}, ""},
		{"copy that copies", "\\copy t TO STDOUT\n", func(m sqlmock.Sqlmock) {
			m.ExpectQuery("SELECT * FROM t").WillReturnRows(sqlmock.NewRows([]string{"a"}).AddRow("x"))
		}, "COPY 1\nTime: 1.500 ms\n"},
		// Other meta commands run no statement and are not timed.
		{"meta command", "\\timing on\n", func(sqlmock.Sqlmock) {}, "Timing is on.\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, mock, _, errOut := mockShell(t)
			clock := time.Unix(0, 0)
			s.now = func() time.Time { clock = clock.Add(1500 * time.Microsecond); return clock }
			s.timing = true
			tc.expect(mock)
			_ = s.runScript(context.Background(), strings.NewReader(tc.script), "<script>", false)
			got := errOut.String()
			if tc.want != "" && got != tc.want || tc.want == "" && !strings.HasSuffix(got, "Time: 1.500 ms\n") {
				t.Errorf("stderr = %q, want %q (or a Time line last)", got, tc.want)
			}
		})
	}
}

// TestInterruptCancelsStatement: Ctrl-C cancels the running statement's
// context, the shell reports it and goes on.
func TestInterruptCancelsStatement(t *testing.T) {
	s, mock, out, errOut := mockShell(t)
	mock.ExpectQuery("SELECT * FROM big").WillDelayFor(time.Minute).WillReturnRows(sqlmock.NewRows([]string{"x"}))
	mock.ExpectQuery("SELECT 1").WillReturnRows(sqlmock.NewRows([]string{"1"}).AddRow(int64(1)))
	go func() {
		for !s.interrupt() {
			time.Sleep(10 * time.Millisecond)
		}
	}()
	start := time.Now()
	err := s.runScript(context.Background(), strings.NewReader("SELECT * FROM big;\nSELECT 1;\n"), "", false)
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 30*time.Second {
		t.Fatal("the statement was not cancelled")
	}
	// sqlmock reports its own cancel error; the driver returns
	// context.Canceled, which the shell words the same way.
	if !strings.Contains(errOut.String(), "ERROR: canceling") {
		t.Errorf("stderr = %q", errOut)
	}
	s.format = formatCSV
	if !strings.Contains(out.String(), "1") {
		t.Errorf("the statement after the cancelled one did not run: %q", out)
	}
	if s.interrupt() {
		t.Error("interrupt reported a running statement when none runs")
	}
}

func TestValueText(t *testing.T) {
	cases := []struct {
		typ  string
		v    any
		want string
	}{
		{"BIGINT", int64(-5), "-5"},
		{"FLOAT", float64(float32(0.1)), "0.10000000149011612"},
		{"DOUBLE", math.Inf(-1), "-Infinity"},
		{"BYTES", []byte{1, 255}, `\x01ff`},
		{"STRING", []byte("text"), "text"},
		{"TIME(3)", time.Date(0, 1, 1, 13, 5, 7, 250000000, time.UTC), "13:05:07.25"},
		{"TIMESTAMP(6) WITH LOCAL TIME ZONE", ltz, "2024-03-09 10:30:00+02:00"},
	}
	for _, c := range cases {
		if got := textValue(column{Type: c.typ}, c.v); got != c.want {
			t.Errorf("textValue(%s, %v) = %q, want %q", c.typ, c.v, got, c.want)
		}
	}
}

func TestQueryErrorMidway(t *testing.T) {
	s, mock, _, _ := mockShell(t)
	s.format = formatJSON
	rows := sqlmock.NewRows([]string{"a"}).AddRow(int64(1)).AddRow(int64(2)).RowError(1, sql.ErrConnDone)
	mock.ExpectQuery("SELECT a FROM t").WillReturnRows(rows)
	if err := s.runStatement(context.Background(), "SELECT a FROM t"); err == nil {
		t.Fatal("want the row error")
	}
}

// TestTableBlocks: table mode prints a header per block of maxTableBuffer
// rows, and none after a last full block (it once printed an empty header
// when the row count was a multiple of the block).
func TestTableBlocks(t *testing.T) {
	for _, n := range []int{0, 1, maxTableBuffer - 1, maxTableBuffer, maxTableBuffer + 1, 2 * maxTableBuffer} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var out strings.Builder
			w := newResultWriter(formatTable, &out, writerOptions{})
			if err := w.Header([]column{{Name: "id"}}); err != nil {
				t.Fatal(err)
			}
			for i := range n {
				if err := w.Row([]any{int64(i)}); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			headers := strings.Count("\n"+out.String(), "\n--") // the line under each header
			if want := max(1, (n+maxTableBuffer-1)/maxTableBuffer); headers != want {
				t.Errorf("%d rows: %d headers, want %d", n, headers, want)
			}
		})
	}
}

// TestTableBlocksGolden: what the shell prints for results of exactly one
// and two blocks of maxTableBuffer rows, row count included: each block
// with its own header and widths, and no empty block after the last. The
// golden files show each run of row lines by its first and last line.
func TestTableBlocksGolden(t *testing.T) {
	for _, n := range []int{maxTableBuffer, 2 * maxTableBuffer} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			s, mock, out, errOut := mockShell(t)
			rows := sqlmock.NewRowsWithColumnDefinition(sqlmock.NewColumn("n").OfType("INT", int64(0)))
			for i := 1; i <= n; i++ {
				rows.AddRow(int64(i))
			}
			mock.ExpectQuery("SELECT n FROM t").WillReturnRows(rows)
			if err := s.runStatement(context.Background(), "SELECT n FROM t"); err != nil {
				t.Fatal(err)
			}
			if want := fmt.Sprintf("(%d rows)\n", n); errOut.String() != want {
				t.Errorf("stderr = %q, want %q", errOut, want)
			}
			golden(t, fmt.Sprintf("table_blocks_%d", n), elideRows(out.String()))
		})
	}
}

// elideRows replaces each run of more than two lines that hold only a
// number by its first line, a count of the lines left out, and its last.
func elideRows(s string) string {
	isRow := regexp.MustCompile(`^ *\d+$`).MatchString
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	var b strings.Builder
	for i := 0; i < len(lines); {
		j := i
		for j < len(lines) && isRow(lines[j]) {
			j++
		}
		if j-i > 2 {
			fmt.Fprintf(&b, "%s\n... %d rows ...\n%s\n", lines[i], j-i-2, lines[j-1])
			i = j
			continue
		}
		if j == i {
			j++
		}
		for ; i < j; i++ {
			b.WriteString(lines[i] + "\n")
		}
	}
	return b.String()
}
