package fluss_test

import (
	"database/sql"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gofluss/fluss"
)

// withFormat is the WITH clause every test table gets (see logFormat).
func withFormat() string { return " WITH ('table.log.format' = '" + logFormat + "')" }

func rowsAffected(t *testing.T, res sql.Result) int64 {
	t.Helper()
	n, err := res.RowsAffected()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestWriteStatements(t *testing.T) {
	db := openDB(t, "")
	d := uniqueDB(t, db)
	ctx := ctxT(t)

	// Log table: multi-row VALUES and columns left out (NULL).
	mustExec(t, db, "CREATE TABLE "+d+".events (id BIGINT, kind STRING, note STRING)"+withFormat())
	if n := rowsAffected(t, mustExec(t, db, "INSERT INTO "+d+".events VALUES (1, 'a', 'x'), (2, 'b', 'y'), (3, 'c', NULL)")); n != 3 {
		t.Fatalf("INSERT of 3 rows: RowsAffected = %d", n)
	}
	if n := rowsAffected(t, mustExec(t, db, "INSERT INTO "+d+".events (kind, id) VALUES (?, ?)", "d", 4)); n != 1 {
		t.Fatalf("INSERT with a column list: RowsAffected = %d", n)
	}
	got := queryStrings(t, db, "SELECT id, kind, note FROM "+d+".events")
	if len(got) != 4 || !containsRow(got, "4", "d", "NULL") || !containsRow(got, "1", "a", "x") {
		t.Fatalf("log rows = %v", got)
	}

	// Prepared INSERT reused.
	st, err := db.PrepareContext(ctx, "INSERT INTO "+d+".events VALUES (?, ?, ?)")
	if err != nil {
		t.Fatal(err)
	}
	for i := 10; i < 15; i++ {
		if _, err := st.ExecContext(ctx, i, "p", nil); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	if got := queryStrings(t, db, "SELECT COUNT(*) FROM "+d+".events"); got[0][0] != "9" {
		t.Fatalf("COUNT(*) = %v, want 9", got)
	}

	// Primary-key table: INSERT is an upsert.
	mustExec(t, db, "CREATE TABLE "+d+".users (id INT, name STRING, age INT, city STRING, PRIMARY KEY (id) NOT ENFORCED)"+withFormat())
	mustExec(t, db, "INSERT INTO "+d+".users VALUES (1, 'ann', 30, 'oslo'), (2, 'bob', 40, 'rome')")
	mustExec(t, db, "INSERT INTO "+d+".users VALUES (2, 'bob', 41, 'rome')")
	if got := queryStrings(t, db, "SELECT age FROM "+d+".users WHERE id = 2"); len(got) != 1 || got[0][0] != "41" {
		t.Fatalf("after upsert: %v", got)
	}
	// Partial INSERT keeps the other columns.
	mustExec(t, db, "INSERT INTO "+d+".users (id, age) VALUES (1, 31)")
	if got := queryStrings(t, db, "SELECT * FROM "+d+".users WHERE id = 1"); !containsRow(got, "1", "ann", "31", "oslo") {
		t.Fatalf("after partial insert: %v", got)
	}
	mustExec(t, db, "UPSERT INTO "+d+".users VALUES (3, 'cy', 50, 'nice')")

	// UPDATE by key: 1 row when found, 0 otherwise.
	if n := rowsAffected(t, mustExec(t, db, "UPDATE "+d+".users SET city = ?, age = 32 WHERE id = ?", "bergen", 1)); n != 1 {
		t.Fatalf("UPDATE of an existing key: RowsAffected = %d", n)
	}
	if n := rowsAffected(t, mustExec(t, db, "UPDATE "+d+".users SET city = 'x' WHERE id = 99")); n != 0 {
		t.Fatalf("UPDATE of a missing key: RowsAffected = %d", n)
	}
	if got := queryStrings(t, db, "SELECT name, age, city FROM "+d+".users WHERE id = 1"); !containsRow(got, "ann", "32", "bergen") {
		t.Fatalf("after UPDATE: %v", got)
	}
	// UPDATE of a NOT NULL column: the server refuses a partial update
	// of a table with one, so the row is written back whole.
	mustExec(t, db, "CREATE TABLE "+d+".counts (id INT, n INT NOT NULL, note STRING, PRIMARY KEY (id) NOT ENFORCED)"+withFormat())
	mustExec(t, db, "INSERT INTO "+d+".counts VALUES (1, 1, 'keep')")
	if n := rowsAffected(t, mustExec(t, db, "UPDATE "+d+".counts SET n = 2 WHERE id = 1")); n != 1 {
		t.Fatalf("UPDATE of a NOT NULL column: RowsAffected = %d", n)
	}
	if got := queryStrings(t, db, "SELECT n, note FROM "+d+".counts WHERE id = 1"); !containsRow(got, "2", "keep") {
		t.Fatalf("after UPDATE of a NOT NULL column: %v", got)
	}
	// UPDATE of several keys: the rows found, each once.
	if n := rowsAffected(t, mustExec(t, db, "UPDATE "+d+".users SET age = 60 WHERE id IN (1, 3, 99, 1)")); n != 2 {
		t.Fatalf("UPDATE of keys 1, 3 and a missing one: RowsAffected = %d", n)
	}
	if got := queryStrings(t, db, "SELECT id, age, city FROM "+d+".users WHERE id = 1 OR id = 3"); len(got) != 2 || !containsRow(got, "1", "60", "bergen") || !containsRow(got, "3", "60", "nice") {
		t.Fatalf("after UPDATE of two keys: %v", got)
	}

	// DELETE by key, then the lookup finds nothing.
	if n := rowsAffected(t, mustExec(t, db, "DELETE FROM "+d+".users WHERE id = ?", 2)); n != 1 {
		t.Fatalf("DELETE: RowsAffected = %d", n)
	}
	var name string
	if err := db.QueryRowContext(ctx, "SELECT name FROM "+d+".users WHERE id = 2").Scan(&name); !errors.Is(err, sql.ErrNoRows) {
		t.Fatalf("lookup of a deleted key: %v, want sql.ErrNoRows", err)
	}
	if got := queryStrings(t, db, "SELECT id FROM "+d+".users"); len(got) != 2 {
		t.Fatalf("rows after DELETE: %v", got)
	}

	// A write plan's errors reach the user as they are.
	_, err = db.ExecContext(ctx, "UPSERT INTO "+d+".events VALUES (1, 'a', 'b')")
	if err == nil || !strings.Contains(err.Error(), "primary-key table") {
		t.Fatalf("UPSERT into a log table: %v", err)
	}
	if _, err := db.ExecContext(ctx, "INSERT INTO "+d+".users VALUES (1, 'a', 1, 'b')"); err != nil {
		t.Fatal(err)
	}
	if _, err := mustExec(t, db, "INSERT INTO "+d+".users VALUES (5, 'e', 1, 'b')").LastInsertId(); !errors.Is(err, fluss.ErrLastInsertID) {
		t.Fatalf("LastInsertId: %v", err)
	}
}

func containsRow(rows [][]string, want ...string) bool {
	for _, r := range rows {
		if strings.Join(r, "\x00") == strings.Join(want, "\x00") {
			return true
		}
	}
	return false
}

func TestChangelogAfterUpsertAndDelete(t *testing.T) {
	db := openDB(t, "")
	d := uniqueDB(t, db)
	mustExec(t, db, "CREATE TABLE "+d+".kv (k INT, v STRING, PRIMARY KEY (k) NOT ENFORCED) WITH ('bucket.num' = '1', 'table.log.format' = '"+logFormat+"')")
	mustExec(t, db, "INSERT INTO "+d+".kv VALUES (1, 'a')")
	mustExec(t, db, "INSERT INTO "+d+".kv VALUES (1, 'b')")
	mustExec(t, db, "DELETE FROM "+d+".kv WHERE k = 1")
	got := queryStrings(t, db, "SELECT _change_type, _log_offset, k, v FROM "+d+".kv$changelog")
	want := [][]string{{"insert", "0", "1", "a"}, {"update_before", "1", "1", "a"}, {"update_after", "2", "1", "b"}, {"delete", "3", "1", "b"}}
	if len(got) != len(want) {
		t.Fatalf("$changelog = %v, want %v", got, want)
	}
	for i := range want {
		if strings.Join(got[i], ",") != strings.Join(want[i], ",") {
			t.Fatalf("$changelog = %v, want %v", got, want)
		}
	}
	// _commit_timestamp is a TIMESTAMP_LTZ(3).
	rows, err := db.QueryContext(ctxT(t), "SELECT _commit_timestamp FROM "+d+".kv$changelog WHERE _log_offset >= 2")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cts, _ := rows.ColumnTypes()
	if cts[0].DatabaseTypeName() != "TIMESTAMP_LTZ(3)" {
		t.Fatalf("_commit_timestamp type = %s", cts[0].DatabaseTypeName())
	}
	n := 0
	for rows.Next() {
		n++
	}
	if rows.Err() != nil || n != 2 {
		t.Fatalf("offset-filtered changelog: %d rows, %v", n, rows.Err())
	}
}

func TestWriteBatchTransaction(t *testing.T) {
	db := openDB(t, "")
	d := uniqueDB(t, db)
	ctx := ctxT(t)
	mustExec(t, db, "CREATE TABLE "+d+".t (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED)"+withFormat())

	// Commit: Exec only queues, Commit sends and waits.
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := tx.PrepareContext(ctx, "INSERT INTO "+d+".t VALUES (?, ?)")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		res, err := st.ExecContext(ctx, i, "v")
		if err != nil {
			t.Fatal(err)
		}
		if n := rowsAffected(t, res); n != 1 {
			t.Fatalf("RowsAffected inside the batch = %d, want 1 (queued)", n)
		}
	}
	// No isolation: the batch's own rows are not visible before Commit.
	var v string
	if err := db.QueryRowContext(ctx, "SELECT v FROM "+d+".t WHERE id = 5").Scan(&v); !errors.Is(err, sql.ErrNoRows) {
		t.Fatalf("a queued row is visible before Commit: %v", err)
	}
	// Not even to a lookup inside the transaction, as doc.go says.
	if err := tx.QueryRowContext(ctx, "SELECT v FROM "+d+".t WHERE id = 5").Scan(&v); !errors.Is(err, sql.ErrNoRows) {
		t.Fatalf("a queued row is visible inside its transaction: %v (doc.go says it is not)", err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := queryStrings(t, db, "SELECT id FROM "+d+".t"); len(got) != 100 {
		t.Fatalf("after Commit: %d rows", len(got))
	}

	// Rollback before anything was sent: the rows are dropped.
	tx, err = db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO "+d+".t VALUES (1000, 'gone')"); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM "+d+".t WHERE id = 1"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatalf("Rollback: %v", err)
	}
	if got := queryStrings(t, db, "SELECT id FROM "+d+".t WHERE id IN (1, 1000)"); len(got) != 1 || got[0][0] != "1" {
		t.Fatalf("after Rollback: %v", got)
	}

	// Options the driver cannot honour are refused.
	if _, err := db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable}); err == nil || !strings.Contains(err.Error(), "isolation") {
		t.Fatalf("serializable BeginTx: %v", err)
	}
	if _, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Fatalf("read-only BeginTx: %v", err)
	}
	rej := openDB(t, "?tx=reject")
	if _, err := rej.BeginTx(ctx, nil); err == nil || !strings.Contains(err.Error(), "tx=reject") {
		t.Fatalf("BeginTx with tx=reject: %v", err)
	}
}

func TestWriteBatchRollbackAfterSpill(t *testing.T) {
	db := openDB(t, "")
	d := uniqueDB(t, db)
	ctx := ctxT(t)
	mustExec(t, db, "CREATE TABLE "+d+".t (id INT, v STRING)"+withFormat())
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	// More rows than the batch keeps in the client (1<<16).
	var sb strings.Builder
	sb.WriteString("INSERT INTO " + d + ".t VALUES ")
	for i := range 2000 {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString("(1, 'x')")
	}
	for range 40 {
		if _, err := tx.ExecContext(ctx, sb.String()); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Rollback(); !errors.Is(err, fluss.ErrRollbackSent) {
		t.Fatalf("Rollback after rows left the client: %v, want ErrRollbackSent", err)
	}
}

func TestSQLTransactionStatements(t *testing.T) {
	db := openDB(t, "")
	d := uniqueDB(t, db)
	ctx := ctxT(t)
	mustExec(t, db, "CREATE TABLE "+d+".t (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED)"+withFormat())
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, q := range []string{"BEGIN", "INSERT INTO " + d + ".t VALUES (1, 'a')", "INSERT INTO " + d + ".t VALUES (2, 'b')", "COMMIT"} {
		if _, err := c.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if got := queryStrings(t, db, "SELECT id FROM "+d+".t"); len(got) != 2 {
		t.Fatalf("after SQL COMMIT: %v", got)
	}
	if _, err := c.ExecContext(ctx, "COMMIT"); err == nil {
		t.Fatal("COMMIT without BEGIN succeeded")
	}
}

func TestWriteOptionsAndMoreForms(t *testing.T) {
	db := openDB(t, "?client.writer.batch-timeout=50ms")
	d := uniqueDB(t, db)
	ctx := ctxT(t)
	mustExec(t, db, "CREATE TABLE "+d+".t (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED)"+withFormat())
	// Statement hint, SET and DSN options configure the writer.
	mustExec(t, db, "INSERT INTO "+d+".t /*+ OPTIONS('client.writer.acks'='all') */ VALUES (1, 'a'), (2, 'b'), (3, 'c')")
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.ExecContext(ctx, "SET 'client.writer.batch-size' = '64kb'"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ExecContext(ctx, "REPLACE INTO "+d+".t VALUES (4, 'd')"); err != nil {
		t.Fatal(err)
	}
	// A bad value fails SET at once, and a write under a bad hint.
	if _, err := c.ExecContext(ctx, "SET 'client.writer.acks' = 'most'"); err == nil || !strings.Contains(err.Error(), "client.writer.acks") {
		t.Fatalf("SET of an invalid writer option: %v", err)
	}
	if _, err := c.ExecContext(ctx, "INSERT INTO "+d+".t /*+ OPTIONS('client.writer.acks'='most') */ VALUES (5, 'e')"); err == nil || !strings.Contains(err.Error(), "client.writer.acks") {
		t.Fatalf("INSERT with an invalid writer option: %v", err)
	}
	// DELETE of several keys, FLUSH.
	res, err := c.ExecContext(ctx, "DELETE FROM "+d+".t WHERE id IN (1, 2)")
	if err != nil {
		t.Fatal(err)
	}
	if n := rowsAffected(t, res); n != 2 {
		t.Fatalf("DELETE ... IN: RowsAffected = %d", n)
	}
	res, err = c.ExecContext(ctx, "DELETE /*+ OPTIONS('fluss.exact-rows-affected'='true') */ FROM "+d+".t WHERE id IN (1, 3)")
	if err != nil {
		t.Fatal(err)
	}
	if n := rowsAffected(t, res); n != 1 {
		t.Fatalf("DELETE with exact rows affected: RowsAffected = %d, want 1", n)
	}
	mustExec(t, db, "INSERT INTO "+d+".t VALUES (3, 'c')")
	if _, err := c.ExecContext(ctx, "FLUSH TABLE "+d+".t"); err != nil {
		t.Fatal(err)
	}
	if got := queryStrings(t, db, "SELECT id FROM "+d+".t"); len(got) != 2 || !containsRow(got, "3") || !containsRow(got, "4") {
		t.Fatalf("after REPLACE and DELETE ... IN: %v", got)
	}
	// Overwrite merge mode on a table with a merge engine.
	mustExec(t, db, "CREATE TABLE "+d+".fr (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('table.merge-engine' = 'first_row', 'table.log.format' = '"+logFormat+"')")
	mustExec(t, db, "INSERT INTO "+d+".fr VALUES (1, 'first')")
	mustExec(t, db, "INSERT INTO "+d+".fr VALUES (1, 'second')")
	if got := queryStrings(t, db, "SELECT v FROM "+d+".fr WHERE id = 1"); got[0][0] != "first" {
		t.Fatalf("first_row merge engine: %v", got)
	}
	mustExec(t, db, "INSERT INTO "+d+".fr /*+ OPTIONS('fluss.merge-mode'='overwrite') */ VALUES (1, 'third')")
	if got := queryStrings(t, db, "SELECT v FROM "+d+".fr WHERE id = 1"); got[0][0] != "third" {
		t.Fatalf("merge mode overwrite: %v", got)
	}
}

// TestClockAndCastInValues: Flink SQL's NOW() and its kin, and CAST of a
// constant, in VALUES, UPDATE ... SET and SELECT without FROM, written to
// the real cluster and read back. One statement reads the clock once.
func TestClockAndCastInValues(t *testing.T) {
	db := openDB(t, "")
	d := uniqueDB(t, db)
	ctx := ctxT(t)
	mustExec(t, db, "CREATE TABLE "+d+".clock (id INT, ts TIMESTAMP(3), lts TIMESTAMP_LTZ(3), d DATE, s STRING, n INT, PRIMARY KEY (id) NOT ENFORCED)"+withFormat())
	before := time.Now().Truncate(time.Millisecond)
	mustExec(t, db, "INSERT INTO "+d+".clock VALUES (1, NOW(), CURRENT_TIMESTAMP, CURRENT_DATE, CAST(42 AS STRING), CAST('7' AS INT)), (2, LOCALTIMESTAMP, NOW(), CURRENT_DATE, CAST(TRUE AS VARCHAR), CAST(-1.5 AS INT))")
	after := time.Now()
	type row struct {
		ts, lts, d time.Time
		s          string
		n          int
	}
	read := func(id int) row {
		var r row
		if err := db.QueryRowContext(ctx, "SELECT ts, lts, d, s, n FROM "+d+".clock WHERE id = ?", id).Scan(&r.ts, &r.lts, &r.d, &r.s, &r.n); err != nil {
			t.Fatal(err)
		}
		return r
	}
	one, two := read(1), read(2)
	if one.lts.Before(before) || one.lts.After(after) || !two.lts.Equal(one.lts) {
		t.Fatalf("CURRENT_TIMESTAMP, NOW() = %v, %v: want one instant within [%v, %v]", one.lts, two.lts, before, after)
	}
	wall := one.lts.UTC().Format("2006-01-02 15:04:05.000")
	for _, r := range []row{one, two} {
		if r.ts.Format("2006-01-02 15:04:05.000") != wall || r.d.Format(time.DateOnly) != one.lts.UTC().Format(time.DateOnly) {
			t.Errorf("TIMESTAMP %v, DATE %v: want the statement's instant in UTC, %s", r.ts, r.d, wall)
		}
	}
	if one.s != "42" || one.n != 7 || two.s != "TRUE" || two.n != -1 {
		t.Errorf("CASTs read back as %q %d, %q %d; want \"42\" 7, \"TRUE\" -1", one.s, one.n, two.s, two.n)
	}

	mustExec(t, db, "UPDATE "+d+".clock SET lts = NOW() WHERE id = 1")
	if r := read(1); !r.lts.After(one.lts) || r.lts.After(time.Now()) {
		t.Errorf("UPDATE ... SET lts = NOW(): %v, want a time after %v", r.lts, one.lts)
	}
	var now time.Time
	if err := db.QueryRowContext(ctx, "SELECT NOW()").Scan(&now); err != nil || now.Before(one.lts) {
		t.Errorf("SELECT NOW() = %v, %v", now, err)
	}
}

// TestSessionTimeZone: SET 'table.local-time-zone' on one connection
// reads TIMESTAMP_LTZ text and returns TIMESTAMP_LTZ values in that zone,
// against the real cluster; RESET returns to the DSN's loc (UTC).
func TestSessionTimeZone(t *testing.T) {
	db := openDB(t, "")
	d := uniqueDB(t, db)
	ctx := ctxT(t)
	mustExec(t, db, "CREATE TABLE "+d+".zoned (id INT, at TIMESTAMP_LTZ(3), PRIMARY KEY (id) NOT ENFORCED)"+withFormat())
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, q := range []string{
		"SET 'table.local-time-zone' = 'GMT+08:00'",
		"INSERT INTO " + d + ".zoned VALUES (1, TIMESTAMP '2024-01-01 08:00:00')",
	} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	read := func() time.Time {
		var at time.Time
		if err := conn.QueryRowContext(ctx, "SELECT at FROM "+d+".zoned WHERE id = 1").Scan(&at); err != nil {
			t.Fatal(err)
		}
		return at
	}
	at := read()
	if _, off := at.Zone(); !at.Equal(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)) || off != 8*3600 {
		t.Errorf("TIMESTAMP_LTZ '2024-01-01 08:00:00' in GMT+08:00 read back as %v, want midnight UTC shown at +08:00", at)
	}
	if _, err := conn.ExecContext(ctx, "RESET 'table.local-time-zone'"); err != nil {
		t.Fatal(err)
	}
	if at := read(); at.Location() != time.UTC {
		t.Errorf("after RESET: %v, want it in UTC", at)
	}
	if _, err := conn.ExecContext(ctx, "SET 'table.local-time-zone' = 'Nowhere/Special'"); err == nil || !strings.Contains(err.Error(), "not a time zone") {
		t.Errorf("an unknown zone: %v", err)
	}
}
