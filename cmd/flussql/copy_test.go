package main

import (
	"context"
	"database/sql/driver"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/DATA-DOG/go-sqlmock"
)

func TestParseCopy(t *testing.T) {
	cases := []struct {
		in   string
		want copySpec
		err  string
	}{
		{in: `orders FROM 'in.csv' WITH HEADER`, want: copySpec{Table: "orders", From: true, File: "in.csv", Header: true, Delim: ','}},
		{in: "shop.`my t` (id, `name`) FROM 'it''s.csv' CSV DELIMITER ';'",
			want: copySpec{Table: "shop.`my t`", Columns: []string{"id", "name"}, From: true, File: "it's.csv", Delim: ';'}},
		{in: `(SELECT a, ')' FROM t WHERE b = '(') TO 'out.csv' WITH (HEADER)`,
			want: copySpec{Query: `SELECT a, ')' FROM t WHERE b = '('`, File: "out.csv", Header: true, Delim: ','}},
		{in: `t TO STDOUT DELIMITER '\t'`, want: copySpec{Table: "t", File: "STDOUT", Delim: '\t'}},
		{in: ``, err: "arguments required"},
		{in: `t`, err: "expected FROM or TO"},
		{in: `t INTO 'x'`, err: `expected FROM or TO, got "INTO"`},
		{in: `(SELECT 1) FROM 'x'`, err: "only be copied TO"},
		{in: `t FROM STDIN`, err: "not supported"},
		{in: `t FROM 'x' WITH NONSENSE`, err: `unexpected "NONSENSE"`},
		{in: `(SELECT 1 TO 'x'`, err: "unbalanced"},
		{in: `t FROM 'x`, err: "unterminated"},
	}
	for _, c := range cases {
		got, err := parseCopy(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("parseCopy(%q): err %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("parseCopy(%q): %v", c.in, err)
			continue
		}
		if !reflect.DeepEqual(*got, c.want) {
			t.Errorf("parseCopy(%q) = %+v, want %+v", c.in, *got, c.want)
		}
	}
}

func TestCSVReader(t *testing.T) {
	in := "a,\"b \"\"q\"\"\",,\"\"\r\n\n\"multi\nline\",x,\"\",\n"
	r := newCSVReader(strings.NewReader(in), ',')
	rec1, err := r.read()
	if err != nil {
		t.Fatal(err)
	}
	want1 := []csvField{{"a", false}, {`b "q"`, true}, {"", false}, {"", true}}
	if !reflect.DeepEqual(rec1, want1) {
		t.Errorf("record 1 = %#v", rec1)
	}
	rec2, err := r.read()
	if err != nil {
		t.Fatal(err)
	}
	want2 := []csvField{{"multi\nline", true}, {"x", false}, {"", true}, {"", false}}
	if !reflect.DeepEqual(rec2, want2) || r.line != 3 {
		t.Errorf("record 2 = %#v (line %d)", rec2, r.line)
	}
	if _, err := r.read(); err == nil {
		t.Error("want io.EOF")
	}
	for _, bad := range []string{"a\"b,c\n", "\"open\n", "\"x\"y\n"} {
		if _, err := newCSVReader(strings.NewReader(bad), ',').read(); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}

func TestCopyFromBatches(t *testing.T) {
	s, mock, _, errOut := mockShell(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "in.csv")
	var b strings.Builder
	b.WriteString("id,name,data\n")
	// 1000 params / 2 columns... 3 columns: batch of 500 rows (1500 params).
	for i := 0; i < 1203; i++ {
		switch i {
		case 1:
			b.WriteString("1,,\n") // NULL name and data
		case 2:
			b.WriteString("2,\"\",\\x00ff\n") // '' and two bytes
		default:
			b.WriteString("7,x,\\x\n")
		}
	}
	os.WriteFile(file, []byte(b.String()), 0o644)
	mock.ExpectQuery("DESCRIBE t").WillReturnRows(sqlmock.NewRows([]string{"name", "type", "null", "key", "extras", "comment"}).
		AddRow("id", "BIGINT", false, "PRI", nil, nil).AddRow("name", "STRING", true, nil, nil, nil).
		AddRow("data", "BYTES", true, nil, nil, nil).AddRow("c", "AS id + 1", true, nil, "computed", nil))
	full := insertSQL("t", []string{"id", "name", "data"}, 500)
	prep := mock.ExpectPrepare(full)
	args := func(from int) []driver.Value {
		var out []driver.Value
		for i := from; i < from+500; i++ {
			switch i {
			case 1:
				out = append(out, "1", nil, nil)
			case 2:
				out = append(out, "2", "", []byte{0, 255})
			default:
				out = append(out, "7", "x", []byte{})
			}
		}
		return out
	}
	prep.ExpectExec().WithArgs(args(0)...).WillReturnResult(sqlmock.NewResult(0, 500))
	prep.ExpectExec().WithArgs(args(500)...).WillReturnResult(sqlmock.NewResult(0, 500))
	tail := make([]driver.Value, 0, 3*203)
	for range 203 {
		tail = append(tail, "7", "x", []byte{})
	}
	mock.ExpectExec(insertSQL("t", []string{"id", "name", "data"}, 203)).WithArgs(tail...).WillReturnResult(sqlmock.NewResult(0, 203))
	prep.WillBeClosed()
	if err := s.runMeta(context.Background(), `\copy t FROM '`+file+`' WITH HEADER`, nil); err != nil {
		t.Fatal(err)
	}
	if got := errOut.String(); got != "COPY 1203\n" {
		t.Errorf("stderr = %q", got)
	}
	if err := mock.ExpectationsWereMet(); err != nil {
		t.Error(err)
	}
	if got := insertSQL("db.t", []string{"a", "we`ird"}, 2); got != "INSERT INTO db.t (`a`, `we``ird`) VALUES (?, ?), (?, ?)" {
		t.Errorf("insertSQL = %s", got)
	}
}

func TestCopyFromErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "in.csv")
	os.WriteFile(file, []byte("1,a\n2\n"), 0o644)
	desc := func(m sqlmock.Sqlmock) {
		m.ExpectQuery("DESCRIBE t").WillReturnRows(sqlmock.NewRows([]string{"name", "type", "null", "key", "extras", "comment"}).
			AddRow("id", "INT", true, nil, nil, nil).AddRow("v", "STRING", true, nil, nil, nil))
	}
	t.Run("short record", func(t *testing.T) {
		s, mock, _, _ := mockShell(t)
		desc(mock)
		err := s.runMeta(context.Background(), `\copy t FROM '`+file+`'`, nil)
		if err == nil || !strings.Contains(err.Error(), "in.csv:2: 1 field, expected 2 (id, v)") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("unknown column", func(t *testing.T) {
		s, mock, _, _ := mockShell(t)
		desc(mock)
		err := s.runMeta(context.Background(), `\copy t (id, nope) FROM '`+file+`'`, nil)
		if err == nil || !strings.Contains(err.Error(), `no column "nope"`) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("insert fails", func(t *testing.T) {
		s, mock, _, _ := mockShell(t)
		desc(mock)
		os.WriteFile(file, []byte("1,a\n"), 0o644)
		mock.ExpectExec(insertSQL("t", []string{"id", "v"}, 1)).WillReturnError(errors.New("fluss: INSERT statements are not executed by this version of the driver yet"))
		err := s.runMeta(context.Background(), `\copy t FROM '`+file+`'`, nil)
		if err == nil || !strings.Contains(err.Error(), "0 rows loaded before the failure") {
			t.Errorf("err = %v", err)
		}
	})
}

func TestCopyTo(t *testing.T) {
	s, mock, out, errOut := mockShell(t)
	file := filepath.Join(t.TempDir(), "out.csv")
	mock.ExpectQuery("SELECT id, name FROM t").WillReturnRows(sampleRows())
	if err := s.runMeta(context.Background(), `\copy (SELECT id, name FROM t) TO '`+file+`' WITH HEADER`, nil); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(file)
	want, _ := os.ReadFile(filepath.Join("testdata", "format_csv.golden"))
	if string(got) != string(want) {
		t.Errorf("copy file:\n%s\nwant (as csv output):\n%s", got, want)
	}
	mock.ExpectQuery("SELECT * FROM t").WillReturnRows(sqlmock.NewRows([]string{"a", "b"}).AddRow("x", nil))
	if err := s.runMeta(context.Background(), `\copy t TO STDOUT`, nil); err != nil {
		t.Fatal(err)
	}
	if out.String() != "x,\n" || errOut.String() != "COPY 4\nCOPY 1\n" {
		t.Errorf("stdout %q, stderr %q", out, errOut)
	}
}

func TestHistoryBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hist")
	h := loadHistory(path, 3)
	for _, l := range []string{"a", "b", "b", "", "c", "d"} {
		h.Add(l)
	}
	if h.Len() != 3 || h.At(0) != "d" || h.At(2) != "b" {
		t.Errorf("entries %q", h.entries)
	}
	// The file keeps growing until it is twice the limit, then is compacted on load.
	for _, l := range []string{"e", "f", "g"} {
		h.Add(l)
	}
	h2 := loadHistory(path, 3)
	if !reflect.DeepEqual(h2.entries, []string{"e", "f", "g"}) {
		t.Errorf("reloaded %q", h2.entries)
	}
	data, _ := os.ReadFile(path)
	if string(data) != "e\nf\ng\n" {
		t.Errorf("file not compacted: %q", data)
	}
}

func TestTTYReaderInterrupt(t *testing.T) {
	r := &ttyReader{r: strings.NewReader("ab\x03cd")}
	p := make([]byte, 10)
	n, err := r.Read(p)
	if string(p[:n]) != "ab" || !errors.Is(err, errInterrupt) {
		t.Errorf("first read %q, %v", p[:n], err)
	}
	n, err = r.Read(p)
	if string(p[:n]) != "cd" || err != nil {
		t.Errorf("second read %q, %v", p[:n], err)
	}
}

func TestProgressLine(t *testing.T) {
	var b strings.Builder
	clock := time.Unix(0, 0)
	now := func() time.Time { return clock }
	p := newProgress(&b, time.Second, now)
	p.update(100) // before the delay: nothing
	clock = clock.Add(2 * time.Second)
	p.update(5000)
	clock = clock.Add(100 * time.Millisecond)
	p.update(5100) // under 200ms since the last draw: nothing
	p.finish()
	if got := b.String(); got != "\r\x1b[K5000 rows (2500 rows/s)\r\x1b[K" {
		t.Errorf("progress output %q", got)
	}
	var nilProgress *progress
	nilProgress.update(1) // a nil progress (not a terminal) draws nothing
	nilProgress.finish()
}
