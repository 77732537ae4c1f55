package engine

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/fakefluss"
	"github.com/gofluss/fluss/internal/testkit"
	"github.com/gofluss/fluss/parser"
)

// Unit tests of the executor on the in-memory cluster of
// internal/fakefluss: no JVM, milliseconds per script. The integration
// tests of the driver and the shell run the same paths against the real
// cluster.

// fakeSession is a session on a fresh fake cluster (two tablet servers,
// three buckets per table unless the DDL says otherwise), in database
// "fluss".
func fakeSession(t *testing.T) (*Session, *fakefluss.Cluster) {
	t.Helper()
	return fakeSessionWith(t, Config{Database: "fluss"})
}

// fakeSessionWith is fakeSession with the session's configuration.
func fakeSessionWith(t *testing.T, cfg Config) (*Session, *fakefluss.Cluster) {
	t.Helper()
	return fakeSessionTraced(t, cfg, nil)
}

// fakeSessionTraced is fakeSessionWith with a client tracer.
func fakeSessionTraced(t *testing.T, cfg Config, tracer any) (*Session, *fakefluss.Cluster) {
	t.Helper()
	fc := fakefluss.NewCluster(t, fakefluss.ClusterConfig{Tablets: 2, DefaultBuckets: 3})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	client, err := flussrpc.NewClient(ctx, flussrpc.Config{Bootstrap: []string{fc.Bootstrap()}, Tracer: tracer})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	s := NewSession(NewCatalog(client), cfg)
	t.Cleanup(func() { s.Close() })
	return s, fc
}

// run runs one statement and returns its rows rendered as text, one line
// per row with values separated by "|", or its affected-row count.
func run(ctx context.Context, s *Session, sql string, args ...any) (string, error) {
	stmts, err := parser.ParseScript(sql)
	if err != nil {
		return "", err
	}
	if len(stmts) != 1 {
		return "", fmt.Errorf("%d statements", len(stmts))
	}
	named := make([]driver.NamedValue, len(args))
	for i, a := range args {
		named[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
	}
	rows, n, err := s.Prepare(stmts[0]).Run(ctx, named)
	if err != nil {
		return "", err
	}
	if rows == nil {
		return fmt.Sprintf("%d rows affected", n), nil
	}
	defer rows.Close()
	var b strings.Builder
	dest := make([]driver.Value, len(rows.Columns()))
	for {
		err := rows.Next(dest)
		if errors.Is(err, io.EOF) {
			return b.String(), nil
		}
		if err != nil {
			return b.String(), err
		}
		for i, v := range dest {
			if i > 0 {
				b.WriteByte('|')
			}
			fmt.Fprint(&b, v)
		}
		b.WriteByte('\n')
	}
}

// step is one statement of a script and what it must give: its rows as
// run renders them, or an error containing wantErr.
type step struct {
	sql     string
	args    []any
	want    string
	wantErr string
}

// TestEngineOnFake runs the executor against the in-memory cluster of
// internal/fakefluss: every script runs in order on a fresh cluster.
func TestEngineOnFake(t *testing.T) {
	scripts := []struct {
		name  string
		steps []step
	}{
		{"ddl and show", []step{
			{sql: "CREATE DATABASE shop", want: "0 rows affected"},
			{sql: "CREATE DATABASE shop", wantErr: "already exists"},
			{sql: "CREATE DATABASE IF NOT EXISTS shop", want: "0 rows affected"},
			{sql: "USE shop", want: "0 rows affected"},
			{sql: "CREATE TABLE orders (id BIGINT, item STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '4')", want: "0 rows affected"},
			{sql: "CREATE TABLE clicks (user_id INT, url STRING)", want: "0 rows affected"},
			{sql: "SHOW TABLES", want: "clicks\norders\n"},
			{sql: "SHOW DATABASES", want: "fluss\nshop\n"},
			{sql: "SHOW VIEWS", want: ""},
			{sql: "DROP TABLE clicks", want: "0 rows affected"},
			{sql: "SHOW TABLES", want: "orders\n"},
			{sql: "DROP TABLE clicks", wantErr: "does not exist"},
			{sql: "DROP TABLE IF EXISTS clicks", want: "0 rows affected"},
		}},
		{"primary key table", []step{
			{sql: "CREATE TABLE kv (id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '3')", want: "0 rows affected"},
			{sql: "INSERT INTO kv VALUES (1, 'a'), (2, 'b'), (3, 'c')", want: "3 rows affected"},
			{sql: "SELECT * FROM kv WHERE id = 2", want: "2|b\n"},
			{sql: "SELECT name FROM kv WHERE id = ?", args: []any{int64(3)}, want: "c\n"},
			{sql: "SELECT * FROM kv WHERE id = 9", want: ""},
			{sql: "SELECT * FROM kv WHERE id IN (1, 3, 4)", want: "1|a\n3|c\n"},
			{sql: "UPSERT INTO kv VALUES (2, 'B')", want: "1 rows affected"},
			{sql: "INSERT INTO kv VALUES (4, 'd')", want: "1 rows affected"},
			{sql: "SELECT * FROM kv WHERE id IN (2, 4)", want: "2|B\n4|d\n"},
			{sql: "DELETE FROM kv WHERE id = 1", want: "1 rows affected"},
			{sql: "SELECT * FROM kv WHERE id IN (1, 2)", want: "2|B\n"},
			{sql: "SELECT COUNT(*) FROM kv", want: "3\n"},
			// An OR of key equalities is the IN list it means.
			{sql: "SELECT * FROM kv WHERE id = 2 OR id = 4 OR id = 9", want: "2|B\n4|d\n"},
			{sql: "DELETE FROM kv WHERE id = 3 OR id = ?", args: []any{4}, want: "2 rows affected"},
			{sql: "SELECT COUNT(*) FROM kv", want: "1\n"},
		}},
		{"lookup projections and result options", []step{
			// A point lookup projects its own row in place when the SELECT
			// list keeps table order, and into a new row otherwise; the
			// result options follow SET on a kept plan.
			{sql: "CREATE TABLE c (id INT, tags ARRAY<STRING>, name STRING, PRIMARY KEY (id) NOT ENFORCED)", want: "0 rows affected"},
			{sql: "INSERT INTO c VALUES (?, ?, ?), (?, ?, ?)", args: []any{1, []any{"a", "b"}, "n", 2, nil, "m"}, want: "2 rows affected"},
			{sql: "SELECT id, name FROM c WHERE id = 1", want: "1|n\n"},
			{sql: "SELECT name, id FROM c WHERE id = 1", want: "n|1\n"},
			{sql: "SELECT name, name, id, id FROM c WHERE id = 1", want: "n|n|1|1\n"},
			{sql: "SELECT id, id, name FROM c WHERE id IN (2, 1, 2)", want: "2|2|m\n1|1|n\n"},
			{sql: "SELECT tags FROM c WHERE id = 1", want: "[\"a\",\"b\"]\n"},
			{sql: "SET 'fluss.complex-types' = 'native'", want: "0 rows affected"},
			{sql: "SELECT tags FROM c WHERE id = 1", want: "[a b]\n"},
			{sql: "RESET 'fluss.complex-types'", want: "0 rows affected"},
			{sql: "SELECT tags FROM c WHERE id = 1", want: "[\"a\",\"b\"]\n"},
		}},
		{"update", []step{
			{sql: "CREATE TABLE p (id INT, a STRING, b STRING, PRIMARY KEY (id) NOT ENFORCED)", want: "0 rows affected"},
			{sql: "UPDATE p SET a = 'x' WHERE id = 1", want: "0 rows affected"}, // no such key
			{sql: "INSERT INTO p VALUES (1, 'a', 'b')", want: "1 rows affected"},
			{sql: "UPDATE p SET a = 'x' WHERE id = 1", want: "1 rows affected"},
			{sql: "SELECT * FROM p WHERE id = 1", want: "1|x|b\n"},
			// Several keys: the rows found are updated, each once.
			{sql: "INSERT INTO p VALUES (2, 'c', 'd')", want: "1 rows affected"},
			{sql: "UPDATE p SET b = ? WHERE id IN (1, 2, 3, 2)", args: []any{"e"}, want: "2 rows affected"},
			{sql: "UPDATE p SET a = 'y' WHERE (id = 1 OR id = 2) AND a = 'c'", want: "1 rows affected"},
			{sql: "SELECT * FROM p WHERE id IN (1, 2, 3)", want: "1|x|e\n2|y|e\n"},
		}},
		{"describe and session state", []step{
			{sql: "CREATE TABLE kv (id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED)", want: "0 rows affected"},
			{sql: "DESCRIBE kv", want: "id|INT|false|PRI,BUCKET|<nil>|<nil>\nname|STRING|true|<nil>|<nil>|<nil>\n"},
			{sql: "SHOW CREATE TABLE kv", want: "CREATE TABLE `fluss`.`kv` (\n  `id` INT NOT NULL,\n  `name` STRING,\n  PRIMARY KEY (`id`) NOT ENFORCED\n)\nWITH (\n  'bucket.num' = '3'\n)\n"},
			{sql: "SELECT table_name FROM information_schema.tables WHERE table_schema = 'fluss'", want: "kv\n"},
			{sql: "CREATE DATABASE other", want: "0 rows affected"},
			{sql: "USE other", want: "0 rows affected"},
			{sql: "SELECT CURRENT_DATABASE()", want: "other\n"},
			{sql: "SELECT * FROM kv WHERE id = 1", wantErr: "kv"},
			{sql: "SELECT * FROM fluss.kv WHERE id = 1", want: ""},
		}},
		{"log table", []step{
			{sql: "CREATE TABLE events (seq INT, what STRING) WITH ('bucket.num' = '1')", want: "0 rows affected"},
			{sql: "INSERT INTO events VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')", want: "4 rows affected"},
			{sql: "SELECT COUNT(*) FROM events", want: "4\n"},
			{sql: "SELECT * FROM events LIMIT 2", want: "3|c\n4|d\n"},
			{sql: "SELECT * FROM events LIMIT 10", want: "1|a\n2|b\n3|c\n4|d\n"},
			{sql: "SELECT * FROM events", want: "1|a\n2|b\n3|c\n4|d\n"},
			{sql: "SELECT what FROM events", want: "a\nb\nc\nd\n"},
			{sql: "SELECT what FROM events WHERE 1 = 0", want: ""},
			{sql: "SELECT COUNT(*) FROM events WHERE 1 = 0", want: "0\n"},
			{sql: "SELECT what FROM events WHERE 1 = 1 LIMIT 1", want: "d\n"},
			{sql: "DELETE FROM events WHERE seq = 1", wantErr: "log table"},
		}},
		{"errors", []step{
			{sql: "SELECT * FROM missing WHERE id = 1", wantErr: "missing"},
			{sql: "INSERT INTO missing VALUES (1)", wantErr: "missing"},
			{sql: "CREATE TABLE kv (id INT, PRIMARY KEY (id) NOT ENFORCED)", want: "0 rows affected"},
			{sql: "SELECT * FROM kv WHERE id = ?", wantErr: "argument"},
			{sql: "SELECT * FROM kv WHERE id = ?", args: []any{int64(1), int64(2)}, wantErr: "argument"},
			{sql: "INSERT INTO kv VALUES (1, 2)", wantErr: "column"},
			{sql: "USE nowhere", wantErr: "nowhere"},
		}},
		{"write batch", []step{
			{sql: "CREATE TABLE kv (id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED)", want: "0 rows affected"},
			{sql: "BEGIN", want: "0 rows affected"},
			{sql: "INSERT INTO kv VALUES (1, 'a')", want: "1 rows affected"},
			{sql: "INSERT INTO kv VALUES (2, 'b')", want: "1 rows affected"},
			{sql: "SELECT * FROM kv WHERE id IN (1, 2)", want: ""}, // the batch is not sent yet
			{sql: "COMMIT", want: "0 rows affected"},
			{sql: "SELECT * FROM kv WHERE id IN (1, 2)", want: "1|a\n2|b\n"},
			{sql: "BEGIN", want: "0 rows affected"},
			{sql: "DELETE FROM kv WHERE id = 1", want: "1 rows affected"},
			{sql: "ROLLBACK", want: "0 rows affected"},
			{sql: "SELECT * FROM kv WHERE id IN (1, 2)", want: "1|a\n2|b\n"},
		}},
	}
	for _, sc := range scripts {
		t.Run(sc.name, func(t *testing.T) {
			s, _ := fakeSession(t)
			ctx := testkit.Context(t)
			for _, st := range sc.steps {
				got, err := run(ctx, s, st.sql, st.args...)
				switch {
				case st.wantErr != "":
					if err == nil || !strings.Contains(err.Error(), st.wantErr) {
						t.Fatalf("%s: error %v, want one containing %q", st.sql, err, st.wantErr)
					}
				case err != nil:
					t.Fatalf("%s: %v", st.sql, err)
				case got != st.want:
					t.Fatalf("%s:\ngot  %q\nwant %q", st.sql, got, st.want)
				}
			}
		})
	}
}

// A cold single-row INSERT and a cold point lookup each fetch the table's
// info once: the planner's catalog and the writer or lookuper share one
// table handle.
func TestColdStatementFetchesTableInfoOnce(t *testing.T) {
	for _, sql := range []string{
		"INSERT INTO kv VALUES (1, 'a')",
		"SELECT * FROM kv WHERE id = 1",
	} {
		t.Run(sql, func(t *testing.T) {
			s, fc := fakeSession(t)
			cols := []schema.Column{schema.NewColumn("id", schema.Int().NotNull()), schema.NewColumn("name", schema.String())}
			sch, err := schema.NewSchema(cols, []string{"id"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := fc.CreateTable(schema.TablePath{Database: "fluss", Table: "kv"}, schema.TableDescriptor{Schema: sch}); err != nil {
				t.Fatal(err)
			}
			if _, err := run(testkit.Context(t), s, sql); err != nil {
				t.Fatal(err)
			}
			if n := fc.Requests(fakefluss.GetTableInfo); n != 1 {
				t.Fatalf("%d GET_TABLE_INFO requests, want 1", n)
			}
		})
	}
}

// USE, SET and RESET mark the session changed until Reset, which the
// driver calls before the pool hands the connection on; queries do not.
func TestSessionChanged(t *testing.T) {
	s, _ := fakeSession(t)
	ctx := testkit.Context(t)
	if _, err := run(ctx, s, "CREATE DATABASE other"); err != nil {
		t.Fatal(err)
	}
	s.Reset()
	for _, stmt := range []string{"USE other", "SET 'fluss.scan.max-rows' = '5'", "RESET"} {
		if s.Changed() {
			t.Fatalf("changed before %s", stmt)
		}
		if _, err := run(ctx, s, "SHOW DATABASES"); err != nil || s.Changed() {
			t.Fatalf("a query changed the session (%v)", err)
		}
		if _, err := run(ctx, s, stmt); err != nil {
			t.Fatal(err)
		}
		if !s.Changed() {
			t.Fatalf("%s did not change the session", stmt)
		}
		s.Reset()
	}
}
