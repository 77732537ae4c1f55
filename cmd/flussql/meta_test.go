package main

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/DATA-DOG/go-sqlmock"
)

func describeRows() *sqlmock.Rows {
	col := sqlmock.NewColumn
	return sqlmock.NewRowsWithColumnDefinition(
		col("name").OfType("STRING", ""), col("type").OfType("STRING", ""), col("null").OfType("BOOLEAN", false),
		col("key").OfType("STRING", ""), col("extras").OfType("STRING", ""), col("comment").OfType("STRING", ""),
	).
		AddRow("id", "BIGINT", false, "PRI,BUCKET", nil, "order id").
		AddRow("dt", "STRING", false, "PRI,PART", nil, nil).
		AddRow("amount", "DECIMAL(10, 2)", true, nil, nil, nil).
		AddRow("total", "AS amount * 2", true, nil, "computed", nil)
}

func TestMetaCommands(t *testing.T) {
	cases := []struct {
		name   string
		script string
		format string
		expect func(m sqlmock.Sqlmock)
	}{
		{name: "list_databases", script: `\l`, expect: func(m sqlmock.Sqlmock) {
			m.ExpectQuery("SHOW DATABASES").WillReturnRows(sqlmock.NewRows([]string{"database_name"}).AddRow("fluss").AddRow("shop"))
		}},
		{name: "list_tables", script: "\\dt\n\\dt `other db`", expect: func(m sqlmock.Sqlmock) {
			m.ExpectQuery("SHOW FULL TABLES").WillReturnRows(sqlmock.NewRows([]string{"table_name", "table_type"}).AddRow("orders", "PRIMARY KEY TABLE"))
			m.ExpectQuery("SHOW FULL TABLES FROM `other db`").WillReturnRows(sqlmock.NewRows([]string{"table_name", "table_type"}).AddRow("clicks", "LOG TABLE"))
		}},
		{name: "describe_partitioned", script: `\d shop.orders`, expect: func(m sqlmock.Sqlmock) {
			m.ExpectQuery("DESCRIBE shop.orders").WillReturnRows(describeRows())
			m.ExpectQuery("SHOW PARTITIONS shop.orders").WillReturnRows(sqlmock.NewRows([]string{"partition_name", "partition_id"}).AddRow("dt=2024-01-01", int64(7)))
			m.ExpectQuery("SHOW TABLE OPTIONS shop.orders").WillReturnRows(sqlmock.NewRows([]string{"key", "value", "kind"}).AddRow("bucket.num", "4", "property").AddRow("owner", "ops", "custom"))
		}},
		{name: "describe_csv", format: formatCSV, script: `\d t`, expect: func(m sqlmock.Sqlmock) {
			m.ExpectQuery("DESCRIBE t").WillReturnRows(sqlmock.NewRows([]string{"name", "type", "null", "key", "extras", "comment"}).AddRow("id", "INT", true, nil, nil, nil))
			m.ExpectQuery("SHOW TABLE OPTIONS t").WillReturnRows(sqlmock.NewRows([]string{"key", "value", "kind"}))
		}},
		{name: "expanded", script: "\\x\nSHOW DATABASES;\n\\x off\nSHOW DATABASES;", expect: func(m sqlmock.Sqlmock) {
			for range 2 {
				m.ExpectQuery("SHOW DATABASES").WillReturnRows(sqlmock.NewRows([]string{"database_name"}).AddRow("fluss"))
			}
		}},
		{name: "conninfo", script: `\conninfo`},
		{name: "help", script: `\?`},
		{name: "format_and_echo", script: "\\format json\n\\echo hello world\nEXPLAIN SELECT * FROM t WHERE id = 1;\n\\format", expect: func(m sqlmock.Sqlmock) {
			m.ExpectQuery("EXPLAIN SELECT * FROM t WHERE id = 1").WillReturnRows(sqlmock.NewRows([]string{"plan"}).AddRow("Lookup").AddRow("  Table: shop.t"))
		}},
		{name: "buffer", script: "SELECT 1,\n\\p\n\\r\n\\p"},
		{name: "errors", script: "\\nope\n\\d a b\n\\x maybe\n\\format xml\n\\dt a b\n\\i /nonexistent/file.sql"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, mock, out, errOut := mockShell(t)
			if c.format != "" {
				s.format = c.format
			}
			if c.expect != nil {
				c.expect(mock)
			}
			err := s.runScript(context.Background(), strings.NewReader(c.script), "", false)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "meta_"+c.name, "--- stdout\n"+out.String()+"--- stderr\n"+errOut.String())
			if err := mock.ExpectationsWereMet(); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestConninfoRedacts(t *testing.T) {
	s, _, out, _ := mockShell(t)
	if err := s.runMeta(context.Background(), `\conninfo`, nil); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "s3cret") || !strings.Contains(out.String(), "alice") {
		t.Errorf("conninfo = %q", out)
	}
}

func TestQuitStopsScript(t *testing.T) {
	s, _, _, _ := mockShell(t)
	err := s.runScript(context.Background(), strings.NewReader("\\q\nSELECT 1;\n"), "", true)
	if !errors.Is(err, errQuit) {
		t.Fatalf("err = %v, want errQuit (and no SELECT sent)", err)
	}
}

func TestIncludeStopsAtFirstError(t *testing.T) {
	s, mock, _, errOut := mockShell(t)
	dir := t.TempDir()
	inc := filepath.Join(dir, "inc.sql")
	os.WriteFile(inc, []byte("CREATE DATABASE a;\n\nCREATE DATABASE b;\nCREATE DATABASE c;\n"), 0o644)
	mock.ExpectQuery("CREATE DATABASE a").WillReturnRows(noRows())
	mock.ExpectQuery("CREATE DATABASE b").WillReturnError(errors.New("fluss: DATABASE_ALREADY_EXIST (9): database b exists"))
	err := s.runScript(context.Background(), strings.NewReader(`\i `+inc), "main.sql", true)
	if err == nil {
		t.Fatal("want the error of the included file")
	}
	if got := errOut.String(); !strings.Contains(got, inc+":3: ERROR: DATABASE_ALREADY_EXIST (9): database b exists") ||
		strings.Count(got, "ERROR") != 1 {
		t.Errorf("stderr = %q", got)
	}
	if err := mock.ExpectationsWereMet(); err != nil {
		t.Error(err)
	}
}

func TestSplitter(t *testing.T) {
	cases := []struct {
		name  string
		lines []string
		want  [][]string // statements completed after each line
		left  []string   // flush at the end
	}{
		{"one line", []string{"SELECT 1;"}, [][]string{{"SELECT 1"}}, nil},
		{"multi line", []string{"CREATE TABLE t (", "  id INT", ");"}, [][]string{nil, nil, {"CREATE TABLE t (\n  id INT\n)"}}, nil},
		{"semicolon in string", []string{"SELECT 'a;b'", ", `c;d`;"}, [][]string{nil, {"SELECT 'a;b'\n, `c;d`"}}, nil},
		{"multi-line string", []string{"SELECT 'a", "b;", "c';"}, [][]string{nil, nil, {"SELECT 'a\nb;\nc'"}}, nil},
		{"comments", []string{"SELECT 1 -- not the end;", "/* ; */ ;"}, [][]string{nil, {"SELECT 1"}}, nil},
		{"two in a line and a rest", []string{"SELECT 1; SELECT 2; SELECT"}, [][]string{{"SELECT 1", "SELECT 2"}}, []string{"SELECT"}},
		{"empty statements", []string{";;", "-- only a comment"}, [][]string{nil, nil}, nil},
		{"statement set", []string{"EXECUTE STATEMENT SET BEGIN", "INSERT INTO a VALUES (1);", "END;"},
			[][]string{nil, nil, {"EXECUTE STATEMENT SET BEGIN\nINSERT INTO a VALUES (1);\nEND"}}, nil},
		{"no semicolon at the end", []string{"SHOW TABLES"}, [][]string{nil}, []string{"SHOW TABLES"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var sp splitter
			for i, l := range c.lines {
				got := sp.add(l, i+1)
				if !reflect.DeepEqual(got, c.want[i]) {
					t.Errorf("after line %d: %q, want %q", i+1, got, c.want[i])
				}
			}
			if got := sp.flush(); !reflect.DeepEqual(got, c.left) {
				t.Errorf("flush: %q, want %q", got, c.left)
			}
		})
	}
}

func TestScriptErrorLines(t *testing.T) {
	s, mock, _, errOut := mockShell(t)
	mock.ExpectQuery("CREATE DATABASE a").WillReturnRows(noRows())
	mock.ExpectQuery("CREATE TABLE x (\n  id INT\n)").WillReturnError(errors.New("boom"))
	script := "-- setup\nCREATE DATABASE a;\nCREATE TABLE x (\n  id INT\n);\nCREATE DATABASE never;\n"
	err := s.runScript(context.Background(), strings.NewReader(script), "setup.sql", true)
	if err == nil {
		t.Fatal("want an error")
	}
	if got := errOut.String(); got != "OK\nsetup.sql:3: ERROR: boom\n" {
		t.Errorf("stderr = %q", got)
	}
	if err := mock.ExpectationsWereMet(); err != nil {
		t.Error(err)
	}
}

func TestRunExitCodes(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.sql")
	os.WriteFile(script, []byte("CREATE DATABASE a;\nCREATE DATABASE b;\n"), 0o644)
	cases := []struct {
		name     string
		args     []string
		stdin    string
		env      map[string]string
		expect   func(m sqlmock.Sqlmock)
		code     int
		stdout   string
		inStderr string
	}{
		{name: "ok -c", args: []string{"--dsn", "fluss://h:1/db", "-c", "SHOW DATABASES;\n\\echo done"}, code: 0,
			expect: func(m sqlmock.Sqlmock) {
				m.ExpectQuery("SHOW DATABASES").WillReturnRows(sqlmock.NewRows([]string{"database_name"}).AddRow("db"))
			}, stdout: "database_name\ndb\ndone\n"},
		{name: "first failure stops", args: []string{"-c", "CREATE DATABASE a; CREATE DATABASE b; CREATE DATABASE c"},
			env: map[string]string{"FLUSS_DSN": "fluss://h:1/db"}, code: 1,
			expect: func(m sqlmock.Sqlmock) {
				m.ExpectQuery("CREATE DATABASE a").WillReturnRows(noRows())
				m.ExpectQuery("CREATE DATABASE b").WillReturnError(errors.New("fluss: no"))
			}, inStderr: "ERROR: no"},
		{name: "-f file", args: []string{"-f", script, "--format", "json", "fluss://h:1/db"}, code: 1,
			expect: func(m sqlmock.Sqlmock) {
				m.ExpectQuery("CREATE DATABASE a").WillReturnRows(noRows())
				m.ExpectQuery("CREATE DATABASE b").WillReturnError(errors.New("exists"))
			}, inStderr: script + ":2: ERROR: exists"},
		{name: "stdin", args: []string{"--dsn", "fluss://h:1/db", "--format", "tsv", "-q"}, stdin: "SHOW\nDATABASES;\n", code: 0,
			expect: func(m sqlmock.Sqlmock) {
				m.ExpectQuery("SHOW\nDATABASES").WillReturnRows(sqlmock.NewRows([]string{"database_name"}).AddRow(nil))
			}, stdout: "database_name\n\\N\n"},
		{name: "no dsn", args: []string{"-c", "SELECT 1"}, code: 2, inStderr: "no DSN"},
		{name: "bad dsn", args: []string{"--dsn", "mysql://x", "-c", "SELECT 1"}, code: 2, inStderr: "flussql:"},
		{name: "bad format", args: []string{"--dsn", "fluss://h:1/", "--format", "xml"}, code: 2, inStderr: "unknown format"},
		{name: "bad flag", args: []string{"--nope"}, code: 2, inStderr: "flag provided but not defined"},
		{name: "missing file", args: []string{"--dsn", "fluss://h:1/", "-f", filepath.Join(dir, "none.sql")}, code: 1, inStderr: "no such file"},
		{name: "quit is success", args: []string{"--dsn", "fluss://h:1/", "-c", "\\q\nSELECT nothing"}, code: 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db, mock, err := sqlmock.New(sqlmock.QueryMatcherOption(sqlmock.QueryMatcherEqual))
			if err != nil {
				t.Fatal(err)
			}
			if c.expect != nil {
				c.expect(mock)
			}
			var out, errOut bytes.Buffer
			code := run(c.args, env{
				stdin: strings.NewReader(c.stdin), stdout: &out, stderr: &errOut,
				getenv: func(k string) string { return c.env[k] },
				open:   func(string) (*sql.DB, error) { return db, nil },
			})
			if code != c.code {
				t.Errorf("exit %d, want %d; stderr %q", code, c.code, errOut.String())
			}
			if c.stdout != "" && out.String() != c.stdout {
				t.Errorf("stdout %q, want %q", out.String(), c.stdout)
			}
			if !strings.Contains(errOut.String(), c.inStderr) {
				t.Errorf("stderr %q does not contain %q", errOut.String(), c.inStderr)
			}
			if err := mock.ExpectationsWereMet(); err != nil {
				t.Error(err)
			}
		})
	}
}
