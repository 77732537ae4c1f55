package fluss_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gofluss/fluss"
	"github.com/gofluss/fluss/internal/clustertest"
	"github.com/gofluss/fluss/internal/testkit"
	"github.com/gofluss/fluss/planner"
)

// These tests use database/sql against the real cluster of clustertest.

func openDB(t *testing.T, dsnSuffix string) *sql.DB {
	t.Helper()
	db, err := sql.Open("fluss", "fluss://"+clustertest.Bootstrap(t)+"/"+dsnSuffix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func ctxT(t testing.TB) context.Context { return testkit.Context(t) }

func uniqueDB(t *testing.T, db *sql.DB) string {
	t.Helper()
	name := testkit.UniqueName("sql")
	mustExec(t, db, "CREATE DATABASE "+name+" COMMENT 'driver test' WITH ('owner' = 'go')")
	t.Cleanup(func() { db.Exec("DROP DATABASE IF EXISTS " + name + " CASCADE") })
	return name
}

func mustExec(t testing.TB, db *sql.DB, query string, args ...any) sql.Result {
	t.Helper()
	var res sql.Result
	err := clustertest.ExecWithLeaders(t, query, func(q string) (err error) {
		if q != query { // the DROP between attempts
			_, err = db.ExecContext(ctxT(t), q)
			return err
		}
		res, err = db.ExecContext(ctxT(t), q, args...)
		return err
	})
	if err != nil {
		t.Fatalf("Exec(%s): %v", query, err)
	}
	return res
}

func queryStrings(t *testing.T, db *sql.DB, query string, args ...any) [][]string {
	t.Helper()
	rows, err := db.QueryContext(ctxT(t), query, args...)
	if err != nil {
		t.Fatalf("Query(%s): %v", query, err)
	}
	return readStrings(t, rows)
}

// readStrings reads and closes rows, each value as a string ("NULL" for NULL).
func readStrings(t *testing.T, rows *sql.Rows) [][]string {
	t.Helper()
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = v.String
			if !v.Valid {
				row[i] = "NULL"
			}
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestPing(t *testing.T) {
	db := openDB(t, "")
	if err := db.PingContext(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	name := uniqueDB(t, db)
	if err := openDB(t, name).PingContext(ctxT(t)); err != nil {
		t.Fatalf("Ping with the existing database %s: %v", name, err)
	}
	err := openDB(t, name+"_missing").PingContext(ctxT(t))
	if !errors.Is(err, fluss.ErrDatabaseNotExist) || !strings.Contains(err.Error(), name+"_missing") {
		t.Fatalf("Ping with a missing database: %v, want ErrDatabaseNotExist naming it", err)
	}
}

func TestOpenWithBadDSN(t *testing.T) {
	db, err := sql.Open("fluss", "fluss://u:hunter22@h:1?bogus=1")
	if err == nil {
		db.Close()
		t.Fatal("sql.Open accepted a DSN with an unknown key")
	}
	if strings.Contains(err.Error(), "hunter22") {
		t.Fatalf("the error shows the password: %v", err)
	}
}

func TestDatabaseStatements(t *testing.T) {
	db := openDB(t, "")
	name := uniqueDB(t, db)
	got := queryStrings(t, db, "SHOW DATABASES")
	if !slices.ContainsFunc(got, func(r []string) bool { return r[0] == name }) {
		t.Fatalf("SHOW DATABASES = %v, want %s", got, name)
	}
	like := queryStrings(t, db, "SHOW DATABASES LIKE '"+name[:8]+"%'")
	if !slices.ContainsFunc(like, func(r []string) bool { return r[0] == name }) {
		t.Fatalf("SHOW DATABASES LIKE = %v", like)
	}
	desc := queryStrings(t, db, "DESCRIBE DATABASE "+name)
	if len(desc) != 1 || desc[0][0] != name || desc[0][1] != "driver test" || desc[0][2] != `{"owner":"go"}` {
		t.Fatalf("DESCRIBE DATABASE = %v", desc)
	}
	_, err := db.ExecContext(ctxT(t), "CREATE DATABASE "+name)
	if !errors.Is(err, fluss.ErrDatabaseAlreadyExist) {
		t.Fatalf("second CREATE DATABASE: %v, want ErrDatabaseAlreadyExist", err)
	}
	var fe *fluss.Error
	if !errors.As(err, &fe) || fe.Name != "DATABASE_ALREADY_EXIST" || fe.Retriable {
		t.Fatalf("error = %#v, want a *fluss.Error named DATABASE_ALREADY_EXIST", err)
	}
	mustExec(t, db, "CREATE DATABASE IF NOT EXISTS "+name)
	mustExec(t, db, "CREATE TABLE "+name+".t (a INT)")
	_, err = db.ExecContext(ctxT(t), "DROP DATABASE "+name)
	if !errors.Is(err, fluss.ErrDatabaseNotEmpty) || !strings.Contains(err.Error(), "CASCADE") {
		t.Fatalf("DROP DATABASE of a non-empty database: %v", err)
	}
	mustExec(t, db, "DROP DATABASE "+name+" CASCADE")
	mustExec(t, db, "DROP DATABASE IF EXISTS "+name)
}

// flinkDDL is a table definition as a Fluss user writes it in Flink SQL.
const flinkDDL = `CREATE TABLE %s.orders (
    order_id BIGINT COMMENT 'the key',
    region STRING NOT NULL,
    amount DECIMAL(12, 2),
    tags ARRAY<STRING>,
    attrs MAP<STRING, INT>,
    created_at TIMESTAMP(3),
    PRIMARY KEY (order_id, region) NOT ENFORCED
) COMMENT 'orders by region'
PARTITIONED BY (region)
WITH (
    'bucket.num' = '3',
    'table.log.ttl' = '2d',
    'my.app' = 'x'
)`

func TestTableStatements(t *testing.T) {
	db := openDB(t, "")
	name := uniqueDB(t, db)
	mustExec(t, db, fmt.Sprintf(flinkDDL, name))
	mustExec(t, db, "CREATE TABLE "+name+".events (id BIGINT, msg STRING) WITH ('bucket.num' = '2')")

	tables := queryStrings(t, db, "SHOW FULL TABLES FROM "+name)
	want := [][]string{{"events", "LOG TABLE"}, {"orders", "PRIMARY KEY TABLE"}}
	if !slices.EqualFunc(tables, want, slices.Equal[[]string]) {
		t.Fatalf("SHOW FULL TABLES = %v, want %v", tables, want)
	}
	desc := queryStrings(t, db, "DESCRIBE "+name+".orders")
	if len(desc) != 6 || desc[0][0] != "order_id" || desc[0][3] != "PRI,BUCKET" || desc[1][3] != "PRI,PART" || desc[0][5] != "the key" {
		t.Fatalf("DESCRIBE = %v", desc)
	}

	// SHOW CREATE TABLE renders DDL that creates the same table again.
	var ddl string
	if err := db.QueryRowContext(ctxT(t), "SHOW CREATE TABLE "+name+".orders").Scan(&ddl); err != nil {
		t.Fatal(err)
	}
	copyDDL := strings.Replace(ddl, "orders", "orders_copy", 1)
	mustExec(t, db, copyDDL)
	a := queryStrings(t, db, "DESCRIBE "+name+".orders")
	b := queryStrings(t, db, "DESCRIBE "+name+".orders_copy")
	if !slices.EqualFunc(a, b, slices.Equal[[]string]) {
		t.Fatalf("table from SHOW CREATE TABLE differs:\n%v\n%v\nDDL:\n%s", a, b, ddl)
	}

	mustExec(t, db, "ALTER TABLE "+name+".orders ADD PARTITION (region = 'us')")
	mustExec(t, db, "ALTER TABLE "+name+".orders ADD IF NOT EXISTS PARTITION (region = 'us')")
	mustExec(t, db, "ALTER TABLE "+name+".orders ADD PARTITION (region = 'eu')")
	parts := queryStrings(t, db, "SHOW PARTITIONS "+name+".orders")
	if len(parts) != 2 || parts[0][0] != "region=eu" || parts[1][0] != "region=us" {
		t.Fatalf("SHOW PARTITIONS = %v", parts)
	}
	offsets := queryStrings(t, db, "SHOW OFFSETS FROM "+name+".orders PARTITION (region = 'us') AT EARLIEST")
	if len(offsets) != 3 || offsets[0][0] != "us" || offsets[2][1] != "2" || offsets[2][2] != "0" {
		t.Fatalf("SHOW OFFSETS = %v", offsets)
	}
	for _, q := range []string{"SHOW BUCKETS ", "SHOW TABLE STATS ", "SHOW KV SNAPSHOTS FROM "} {
		got := queryStrings(t, db, q+name+".orders")
		if len(got) != 6 || got[0][0] != "eu" || got[5][0] != "us" || got[5][1] != "2" {
			t.Fatalf("%s = %v, want 3 buckets for each of 2 partitions", q, got)
		}
	}
	mustExec(t, db, "ALTER TABLE "+name+".orders DROP PARTITION (region = 'eu')")
	mustExec(t, db, "ALTER TABLE "+name+".events ADD note STRING COMMENT 'added'")
	mustExec(t, db, "ALTER TABLE "+name+".events SET ('my.key' = 'v1')")
	opts := queryStrings(t, db, "SHOW TABLE OPTIONS "+name+".events")
	if !slices.ContainsFunc(opts, func(r []string) bool { return r[0] == "my.key" && r[1] == "v1" && r[2] == "custom" }) {
		t.Fatalf("SHOW TABLE OPTIONS = %v", opts)
	}
	if got := queryStrings(t, db, "DESCRIBE "+name+".events"); len(got) != 3 || got[2][0] != "note" {
		t.Fatalf("DESCRIBE after ADD = %v", got)
	}
	mustExec(t, db, "DROP TABLE "+name+".events")
	_, err := db.ExecContext(ctxT(t), "DROP TABLE "+name+".events")
	if !errors.Is(err, fluss.ErrTableNotExist) {
		t.Fatalf("DROP TABLE of a dropped table: %v", err)
	}
	mustExec(t, db, "DROP TABLE IF EXISTS "+name+".events")
}

func TestPlannerErrorsReachTheUser(t *testing.T) {
	db := openDB(t, "")
	name := uniqueDB(t, db)
	_, err := db.ExecContext(ctxT(t), "CREATE TABLE "+name+".t (a VARCHAR(20))")
	if err == nil || !strings.Contains(err.Error(), "use STRING") {
		t.Fatalf("VARCHAR(20) in strict mode: %v", err)
	}
	_, err = db.ExecContext(ctxT(t), "SELEC 1")
	if err == nil || !strings.Contains(err.Error(), "line 1, column 1") {
		t.Fatalf("syntax error: %v", err)
	}
	mustExec(t, db, "CREATE TABLE "+name+".pk (k INT, v STRING, PRIMARY KEY (k) NOT ENFORCED)")
	_, err = db.QueryContext(ctxT(t), "SELECT * FROM "+name+".pk WHERE v = 'x'")
	var pe *planner.Error
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), `"v"`) {
		t.Fatalf("non-key WHERE: %v", err)
	}
}

func TestLenientDDL(t *testing.T) {
	db := openDB(t, "?ddl=lenient")
	name := uniqueDB(t, db)
	mustExec(t, db, "CREATE TABLE "+name+".m (id BIGINT, name VARCHAR(64), PRIMARY KEY (id) NOT ENFORCED)")
	desc := queryStrings(t, db, "DESCRIBE "+name+".m")
	if desc[1][1] != "STRING" {
		t.Fatalf("lenient VARCHAR(64) became %v", desc[1])
	}
}

// TestUseIsResetForThePool pins that a USE on one connection does not leak
// to the next user of that pooled connection.
func TestUseIsResetForThePool(t *testing.T) {
	db := openDB(t, "")
	db.SetMaxOpenConns(1)
	name := uniqueDB(t, db)
	mustExec(t, db, "CREATE TABLE "+name+".only_here (a INT)")
	ctx := ctxT(t)
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "USE "+name); err != nil {
		t.Fatal(err)
	}
	var current string
	if err := conn.QueryRowContext(ctx, "SHOW CURRENT DATABASE").Scan(&current); err != nil || current != name {
		t.Fatalf("after USE: %q, %v", current, err)
	}
	if _, err := conn.ExecContext(ctx, "SET 'scan.startup.mode' = 'earliest'"); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	if err := db.QueryRowContext(ctx, "SHOW CURRENT DATABASE").Scan(&current); err != nil || current != "fluss" {
		t.Fatalf("pooled connection kept USE: %q, %v", current, err)
	}
	if got := queryStrings(t, db, "SET"); len(got) != 0 {
		t.Fatalf("pooled connection kept SET options: %v", got)
	}
	_, err = db.ExecContext(ctx, "USE no_such_database_here")
	if !errors.Is(err, fluss.ErrDatabaseNotExist) {
		t.Fatalf("USE of a missing database: %v", err)
	}
}

func TestConcurrentSessions(t *testing.T) {
	db := openDB(t, "")
	db.SetMaxOpenConns(16)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := 0; i < 64; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rows, err := db.QueryContext(context.Background(), "SHOW DATABASES")
			if err != nil {
				errs <- err
				return
			}
			for rows.Next() {
			}
			errs <- rows.Close()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestServersAndConstants(t *testing.T) {
	db := openDB(t, "")
	servers := queryStrings(t, db, "SHOW SERVERS")
	if len(servers) < 2 || servers[0][3] != "CoordinatorServer" || servers[0][4] != "cs-0" {
		t.Fatalf("SHOW SERVERS = %v", servers)
	}
	var one int64
	if err := db.QueryRowContext(ctxT(t), "SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("SELECT 1 = %d, %v", one, err)
	}
	var plan string
	if err := db.QueryRowContext(ctxT(t), "EXPLAIN SHOW DATABASES").Scan(&plan); err != nil || plan == "" {
		t.Fatalf("EXPLAIN = %q, %v", plan, err)
	}
	res := mustExec(t, db, "CREATE CATALOG fluss_catalog WITH ('type' = 'fluss')")
	if _, err := res.LastInsertId(); !errors.Is(err, fluss.ErrLastInsertID) {
		t.Fatalf("LastInsertId: %v", err)
	}
}

func TestSASLDSN(t *testing.T) {
	addr := clustertest.SASLBootstrap(t)
	good := "fluss://" + url.PathEscape(clustertest.SASLUser) + ":" + url.PathEscape(clustertest.SASLPassword) + "@" + addr + "/"
	db, err := sql.Open("fluss", good)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.PingContext(ctxT(t)); err != nil {
		t.Fatalf("Ping over SASL: %v", err)
	}
	bad, err := sql.Open("fluss", "fluss://admin:wrong-password-123@"+addr+"/")
	if err != nil {
		t.Fatal(err)
	}
	defer bad.Close()
	err = bad.PingContext(ctxT(t))
	if !errors.Is(err, fluss.ErrAuthenticate) || strings.Contains(err.Error(), "wrong-password-123") {
		t.Fatalf("Ping with a wrong password: %v", err)
	}
}

func TestConnectorLifecycle(t *testing.T) {
	cfg, err := fluss.ParseDSN("fluss://" + clustertest.Bootstrap(t) + "/")
	if err != nil {
		t.Fatal(err)
	}
	db, err := fluss.OpenDB(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.PingContext(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.PingContext(ctxT(t)); err == nil {
		t.Fatal("Ping after Close succeeded")
	}
}

func TestInformationSchema(t *testing.T) {
	db := openDB(t, "")
	name := uniqueDB(t, db)
	mustExec(t, db, fmt.Sprintf(flinkDDL, name))
	mustExec(t, db, "CREATE TABLE "+name+".events (id BIGINT, msg STRING)")
	mustExec(t, db, "ALTER TABLE "+name+".orders ADD PARTITION (region = 'us')")
	got := queryStrings(t, db, "SELECT TABLE_NAME, TABLE_TYPE FROM information_schema.tables WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME DESC", name)
	want := [][]string{{"orders", "PRIMARY KEY TABLE"}, {"events", "LOG TABLE"}}
	if !slices.EqualFunc(got, want, slices.Equal[[]string]) {
		t.Fatalf("information_schema.tables = %v, want %v", got, want)
	}
	cols := queryStrings(t, db, "SELECT COLUMN_NAME, ORDINAL_POSITION, DATA_TYPE, IS_NULLABLE, COLUMN_KEY FROM information_schema.columns WHERE TABLE_SCHEMA = ? AND TABLE_NAME = 'orders' LIMIT 2", name)
	if len(cols) != 2 || cols[0][0] != "order_id" || cols[0][1] != "1" || cols[0][2] != "BIGINT" || cols[1][3] != "NO" || cols[1][4] != "PRI,PART" {
		t.Fatalf("information_schema.columns = %v", cols)
	}
	parts := queryStrings(t, db, "SELECT PARTITION_NAME FROM information_schema.partitions WHERE TABLE_SCHEMA = ?", name)
	if len(parts) != 1 || parts[0][0] != "region=us" {
		t.Fatalf("information_schema.partitions = %v", parts)
	}
	schemas := queryStrings(t, db, "SELECT SCHEMA_NAME, SCHEMA_COMMENT FROM information_schema.schemata WHERE SCHEMA_NAME = ?", name)
	if len(schemas) != 1 || schemas[0][1] != "driver test" {
		t.Fatalf("information_schema.schemata = %v", schemas)
	}
}
