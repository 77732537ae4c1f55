package main

// End-to-end tests: the flussql binary, built once per test run, against
// the real Fluss cluster (internal/clustertest: they skip unless make test
// asks for them, and then fail, never skip, when there is none).

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofluss/fluss"
	"github.com/gofluss/fluss/internal/clustertest"
	"github.com/gofluss/fluss/internal/testkit"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	binDir    string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// flussqlBinary builds ./cmd/flussql once into a temporary directory,
// with the analytics engine's Arrow interface, as the Makefile builds it.
func flussqlBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "flussql-test-")
		if buildErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "flussql")
		out, err := exec.Command("go", "build", "-tags", "duckdb_arrow", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

type runResult struct {
	stdout, stderr string
	code           int
}

// runFlussql runs the binary with stdin piped (so it is not a terminal).
func runFlussql(t *testing.T, stdin string, args ...string) runResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, flussqlBinary(t), args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "FLUSS_DSN=")
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running flussql: %v", err)
	}
	return runResult{out.String(), errOut.String(), code}
}

// testDatabase creates a uniquely named database through the driver and
// drops it when the test ends.
func testDatabase(t *testing.T, addr string) string {
	t.Helper()
	name := testkit.UniqueName("flussql")
	db, err := sql.Open(fluss.DriverName, "fluss://"+addr+"/")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create database: %v", err)
	}
	t.Cleanup(func() {
		defer db.Close()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := db.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" CASCADE"); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
	return name
}

// createTable runs a CREATE TABLE statement in database db, recreating a
// table that got no leaders (see clustertest.CreateWithLeaders).
func createTable(t *testing.T, addr, db, stmt string) {
	t.Helper()
	sdb, err := sql.Open(fluss.DriverName, "fluss://"+addr+"/"+db)
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	exec := func(q string) error {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		_, err := sdb.ExecContext(ctx, q)
		return err
	}
	name := strings.Fields(stmt)[2]
	if err := clustertest.CreateWithLeaders(t, func() error { return exec(stmt) }, func() error { return exec("DROP TABLE IF EXISTS " + name) }); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
}

func parseCSV(t *testing.T, s string) [][]string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(s)).ReadAll()
	if err != nil {
		t.Fatalf("csv output does not parse: %v\n%s", err, s)
	}
	return recs
}

func TestClusterScripts(t *testing.T) {
	addr := clustertest.Bootstrap(t)
	db := testDatabase(t, addr)
	dsn := "fluss://" + addr + "/" + db

	// -c with several DDL statements; csv is the default when piped.
	r := runFlussql(t, "", "--dsn", dsn, "-c", `
CREATE TABLE orders (
  id BIGINT,
  dt STRING,
  amount DECIMAL(10, 2) COMMENT 'the amount; in EUR',
  PRIMARY KEY (id, dt) NOT ENFORCED
) PARTITIONED BY (dt) WITH ('bucket.num' = '2');
CREATE TABLE clicks (ts TIMESTAMP(3), url STRING);
CREATE TABLE pages (id BIGINT, ts TIMESTAMP(3), url STRING, PRIMARY KEY (id) NOT ENFORCED);
SHOW TABLES`)
	if r.code != 0 {
		t.Fatalf("DDL: exit %d\n%s", r.code, r.stderr)
	}
	if r.stderr != "OK\nOK\nOK\n(3 rows)\n" {
		t.Errorf("DDL stderr = %q", r.stderr)
	}
	if got := parseCSV(t, r.stdout); fmt.Sprint(got) != "[[table_name] [clicks] [orders] [pages]]" {
		t.Errorf("SHOW TABLES csv = %q", got)
	}

	t.Run("formats", func(t *testing.T) {
		q := "DESCRIBE orders"
		csvOut := runFlussql(t, "", "--dsn", dsn, "--format", "csv", "-c", q)
		recs := parseCSV(t, csvOut.stdout)
		if len(recs) != 4 || strings.Join(recs[0], ",") != "name,type,null,key,extras,comment" ||
			recs[3][0] != "amount" || recs[3][1] != "DECIMAL(10, 2)" || recs[3][5] != "the amount; in EUR" {
			t.Errorf("csv = %q", recs)
		}
		if !strings.Contains(csvOut.stdout, "\namount,\"DECIMAL(10, 2)\",true,,,the amount; in EUR\n") {
			t.Errorf("csv NULLs should be empty unquoted fields:\n%s", csvOut.stdout)
		}

		js := runFlussql(t, "", "--dsn", dsn, "--format", "json", "-c", q)
		var objs []map[string]any
		if err := json.Unmarshal([]byte(js.stdout), &objs); err != nil {
			t.Fatalf("json: %v\n%s", err, js.stdout)
		}
		if len(objs) != 3 || objs[0]["name"] != "id" || objs[0]["null"] != false || objs[2]["key"] != nil ||
			!strings.Contains(fmt.Sprint(objs[1]["key"]), "PART") {
			t.Errorf("json = %v", objs)
		}

		jl := runFlussql(t, "", "--dsn", dsn, "--format", "jsonl", "-c", q)
		lines := strings.Split(strings.TrimSpace(jl.stdout), "\n")
		if len(lines) != 3 {
			t.Fatalf("jsonl has %d lines:\n%s", len(lines), jl.stdout)
		}
		for i, l := range lines {
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Errorf("jsonl line %d: %v", i, err)
			} else if m["name"] != objs[i]["name"] {
				t.Errorf("jsonl line %d = %v, json said %v", i, m, objs[i])
			}
		}

		tsv := runFlussql(t, "", "--dsn", dsn, "--format", "tsv", "-c", q)
		tl := strings.Split(strings.TrimSuffix(tsv.stdout, "\n"), "\n")
		if len(tl) != 4 || tl[3] != "amount\tDECIMAL(10, 2)\ttrue\t\\N\t\\N\tthe amount; in EUR" {
			t.Errorf("tsv = %q", tl)
		}

		tab := runFlussql(t, "", "--dsn", dsn, "--format", "table", "-c", q)
		if !strings.Contains(tab.stdout, "  name  |      type      | null  |") || !strings.Contains(tab.stdout, "| NULL ") {
			t.Errorf("table =\n%s", tab.stdout)
		}
		vert := runFlussql(t, "", "--dsn", dsn, "--format", "vertical", "-c", q)
		if strings.Count(vert.stdout, "-[ RECORD ") != 3 || !strings.Contains(vert.stdout, "\nname    | amount\n") {
			t.Errorf("vertical =\n%s", vert.stdout)
		}
		for _, out := range []runResult{csvOut, js, jl, tsv, tab, vert} {
			if out.code != 0 || out.stderr != "(3 rows)\n" {
				t.Errorf("exit %d, stderr %q", out.code, out.stderr)
			}
		}
	})

	t.Run("constants", func(t *testing.T) {
		r := runFlussql(t, "", "--dsn", dsn, "-c", "SELECT 1 AS one, NULL AS nothing, 'a,b' AS s")
		if r.code != 0 || r.stdout != "one,nothing,s\n1,,\"a,b\"\n" {
			t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
		}
		r = runFlussql(t, "", "--dsn", dsn, "--format", "json", "-c", "SELECT 1 AS one, NULL AS nothing")
		var v []map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &v); err != nil || len(v) != 1 || v[0]["one"] != 1.0 || v[0]["nothing"] != nil {
			t.Errorf("json %q: %v", r.stdout, err)
		}
	})

	t.Run("describe meta", func(t *testing.T) {
		r := runFlussql(t, "", "--dsn", dsn, "--format", "table", "-c", `\d orders`, "-c", `\dt`, "-c", `\l`)
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		for _, want := range []string{"Table orders", "PRI,PART", "Partitions:", "partition_name", "Options:", "table.replication.factor", "PRIMARY KEY TABLE", "LOG TABLE", " " + db} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("output lacks %q:\n%s", want, r.stdout)
			}
		}
	})

	t.Run("explain", func(t *testing.T) {
		r := runFlussql(t, "", "--dsn", dsn, "-c", "EXPLAIN SELECT * FROM orders WHERE id = 1 AND dt = '2024'")
		recs := parseCSV(t, r.stdout)
		if r.code != 0 || len(recs) < 2 || recs[0][0] != "plan" || !strings.Contains(r.stdout, "Lookup") {
			t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
		}
	})

	t.Run("file stops at the first error", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "script.sql")
		os.WriteFile(file, []byte("-- a script\nSHOW TABLES;\nDESCRIBE nope;\nCREATE TABLE never (a INT);\n"), 0o644)
		r := runFlussql(t, "", "--dsn", dsn, "-f", file)
		if r.code != 1 {
			t.Errorf("exit %d, want 1", r.code)
		}
		if !strings.Contains(r.stderr, file+":3: ERROR: TABLE_NOT_EXIST") {
			t.Errorf("stderr = %q", r.stderr)
		}
		tables := runFlussql(t, "", "--dsn", dsn, "-c", "SHOW TABLES LIKE 'never'")
		if tables.stdout != "table_name\n" {
			t.Errorf("the statement after the failure ran: %q", tables.stdout)
		}
	})

	t.Run("stdin", func(t *testing.T) {
		r := runFlussql(t, "USE "+db+";\nSHOW\n  TABLES;\n\\dt\nSHOW DATABASES LIKE '"+db+"'\n", "--dsn", "fluss://"+addr+"/", "-q")
		if r.code != 0 || r.stderr != "" {
			t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
		}
		want := "table_name\nclicks\norders\npages\ntable_name,table_type\nclicks,LOG TABLE\norders,PRIMARY KEY TABLE\npages,PRIMARY KEY TABLE\ndatabase_name\n" + db + "\n"
		if r.stdout != want {
			t.Errorf("stdout = %q, want %q", r.stdout, want)
		}
		r = runFlussql(t, "SHOW TABLES;\nSELEC 1;\nSHOW DATABASES;\n", "--dsn", dsn)
		if r.code != 1 || !strings.Contains(r.stderr, "<stdin>:2: ERROR: ") || !strings.Contains(r.stderr, "syntax error") ||
			strings.Contains(r.stdout, "database_name") {
			t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
		}
	})

	t.Run("sigint cancels and exits 130", func(t *testing.T) {
		cmd := exec.Command(flussqlBinary(t), "--dsn", dsn, "-c", "SET 'fluss.scan.bounded' = 'false'; SELECT * FROM clicks")
		var errOut bytes.Buffer
		cmd.Stderr = &errOut
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(1500 * time.Millisecond) // the streaming scan runs until cancelled
		cmd.Process.Signal(os.Interrupt)
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
			t.Errorf("wait: %v, want exit %d; stderr %q", err, exitInterrupted, errOut.String())
		}
		if !strings.Contains(errOut.String(), "ERROR: canceling statement due to user request") {
			t.Errorf("stderr = %q", errOut.String())
		}
	})

	t.Run("connection errors", func(t *testing.T) {
		r := runFlussql(t, "", "--dsn", "fluss://127.0.0.1:1/?connect_timeout=2s", "-c", "SHOW DATABASES")
		if r.code != 2 || !strings.Contains(r.stderr, "cannot connect") {
			t.Errorf("exit %d, stderr %q", r.code, r.stderr)
		}
		// A missing database fails the connection (Ping checks it), naming it.
		r = runFlussql(t, "", "--dsn", "fluss://"+addr+"/no_such_db_"+db, "-c", "SHOW TABLES")
		if r.code != 2 || !strings.Contains(r.stderr, "cannot connect") || !strings.Contains(r.stderr, "no_such_db_"+db) {
			t.Errorf("exit %d, stderr %q", r.code, r.stderr)
		}
	})

	t.Run("copy", func(t *testing.T) {
		dir := t.TempDir()
		in := filepath.Join(dir, "in.csv")
		os.WriteFile(in, []byte("id,ts,url\n1,2024-01-02 03:04:05.006,/a\n2,2024-01-02 03:04:06,\"/b,c\"\n3,,\n"), 0o644)
		r := runFlussql(t, "", "--dsn", dsn, "-c", `\copy pages FROM '`+in+`' WITH HEADER`)
		if r.code != 0 || r.stderr != "COPY 3\n" {
			t.Fatalf("copy from: exit %d, stderr %q", r.code, r.stderr)
		}
		out := filepath.Join(dir, "out.csv")
		r = runFlussql(t, "", "--dsn", dsn, "-c", `\copy (SELECT id, ts, url FROM pages) TO '`+out+`' WITH HEADER`)
		if r.code != 0 {
			t.Fatalf("copy to: exit %d, stderr %q", r.code, r.stderr)
		}
		got, _ := os.ReadFile(out)
		lines := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
		slices.Sort(lines[1:]) // rows come in bucket order
		want := "id,ts,url\n1,2024-01-02 03:04:05.006,/a\n2,2024-01-02 03:04:06,\"/b,c\"\n3,,"
		if strings.Join(lines, "\n") != want {
			t.Errorf("copied out:\n%s\nwant:\n%s", got, want)
		}
	})
}

// TestClusterCopyLogTableArrow loads a log table through the Arrow path
// (every column given) and reads it back.
func TestClusterCopyLogTableArrow(t *testing.T) {
	addr := clustertest.Bootstrap(t)
	db := fmt.Sprintf("flussql_arrow_%d", time.Now().UnixNano()%1000000)
	dsn := "fluss://" + addr + "/"
	if r := runFlussql(t, "", "--dsn", dsn, "-c", "CREATE DATABASE "+db+"; CREATE TABLE "+db+".hits (id BIGINT, ts TIMESTAMP(3), url STRING, raw BYTES) WITH ('bucket.num' = '3')"); r.code != 0 {
		t.Fatalf("DDL: %s", r.stderr)
	}
	defer runFlussql(t, "", "--dsn", dsn, "-c", "DROP DATABASE "+db+" CASCADE")
	dir := t.TempDir()
	in := filepath.Join(dir, "hits.csv")
	var b strings.Builder
	b.WriteString("id,ts,url,raw\n")
	const n = 70000 // more than one Arrow record batch
	for i := 0; i < n; i++ {
		// Millis without trailing zeros: the output trims them.
		fmt.Fprintf(&b, "%d,2024-01-02 03:04:05.%03d,/p/%d,\\x%02x\n", i, 1+(i%9)*111, i, i%256)
	}
	os.WriteFile(in, []byte(b.String()), 0o644)
	r := runFlussql(t, "", "--dsn", dsn, "-c", `\copy `+db+`.hits FROM '`+in+`' WITH HEADER`)
	if r.code != 0 || r.stderr != fmt.Sprintf("COPY %d\n", n) {
		t.Fatalf("copy from: exit %d, stderr %q", r.code, r.stderr)
	}
	r = runFlussql(t, "", "--dsn", dsn, "--format", "csv", "-c", "SELECT COUNT(*) FROM "+db+".hits")
	if r.code != 0 || r.stdout != fmt.Sprintf("EXPR$0\n%d\n", n) {
		t.Fatalf("COUNT(*) after copy: exit %d, %q, %q", r.code, r.stdout, r.stderr)
	}
	out := filepath.Join(dir, "back.csv")
	if r = runFlussql(t, "", "--dsn", dsn, "-c", `\copy `+db+`.hits TO '`+out+`' WITH HEADER`); r.code != 0 {
		t.Fatalf("copy to: %s", r.stderr)
	}
	back, _ := os.ReadFile(out)
	lines := strings.Split(strings.TrimSuffix(string(back), "\n"), "\n")
	want := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	slices.Sort(lines[1:])
	slices.Sort(want[1:])
	if !slices.Equal(lines, want) {
		t.Fatalf("copied back %d lines, want %d; first %q vs %q", len(lines), len(want), lines[1], want[1])
	}
}

func TestClusterConninfoSASL(t *testing.T) {
	addr := clustertest.SASLBootstrap(t)
	dsn := fmt.Sprintf("fluss://%s:%s@%s/", clustertest.SASLUser, clustertest.SASLPassword, addr)
	r := runFlussql(t, "", "--dsn", dsn, "-c", `\conninfo`, "-c", "SHOW DATABASES LIKE 'fluss'")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if strings.Contains(r.stdout, clustertest.SASLPassword) || !strings.Contains(r.stdout, "xxxxx") ||
		!strings.Contains(r.stdout, "as user "+clustertest.SASLUser) || !strings.HasSuffix(r.stdout, "database_name\nfluss\n") {
		t.Errorf("stdout = %q", r.stdout)
	}
	bad := fmt.Sprintf("fluss://%s:wrong@%s/", clustertest.SASLUser, addr)
	r = runFlussql(t, "", "--dsn", bad, "-c", "SHOW DATABASES")
	if r.code != 2 || strings.Contains(r.stderr, "wrong") {
		t.Errorf("bad password: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestClusterCallPrintsRows: a statement that is neither a query nor a
// write prints the rows it returns, in every format, instead of only "OK";
// statements without rows still print OK.
func TestClusterCallPrintsRows(t *testing.T) {
	addr := clustertest.Bootstrap(t)
	dsn := "fluss://" + addr + "/"
	const call = "CALL sys.get_cluster_configs()"
	db, err := sql.Open(fluss.DriverName, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.QueryContext(context.Background(), call)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for rows.Next() {
		want++
	}
	rows.Close()
	if want == 0 {
		t.Fatal("database/sql: the call returned no rows")
	}
	for _, format := range []string{"csv", "tsv", "json", "jsonl", "table", "vertical"} {
		r := runFlussql(t, "", "--dsn", dsn, "--format", format, "-c", call)
		if r.code != 0 || r.stderr != fmt.Sprintf("(%d rows)\n", want) || strings.TrimSpace(r.stdout) == "" {
			t.Errorf("--format %s: exit %d, stderr %q, stdout:\n%s", format, r.code, r.stderr, r.stdout)
		}
	}
	r := runFlussql(t, "", "--dsn", dsn, "--format", "csv", "-c", call)
	if recs := parseCSV(t, r.stdout); len(recs) != want+1 {
		t.Errorf("csv has %d records, want a header and %d rows", len(recs), want)
	}
	if r := runFlussql(t, "", "--dsn", dsn, "-c", "USE fluss"); r.code != 0 || r.stderr != "OK\n" || r.stdout != "" {
		t.Errorf("USE: exit %d, stderr %q, stdout %q", r.code, r.stderr, r.stdout)
	}
}
