package fluss_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// allTypesDDL is a column list with every Fluss type.
const allTypesDDL = `id INT NOT NULL, b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT, f FLOAT, dbl DOUBLE,
	d1 DECIMAL(10,2), d2 DECIMAL(38,10), d3 DECIMAL(38,0), c CHAR(3), s STRING, bn BINARY(2), bs BYTES, dt DATE, tm TIME(3),
	ts TIMESTAMP(9), ts3 TIMESTAMP(3), tl TIMESTAMP_LTZ(6), tl9 TIMESTAMP_LTZ(9),
	ar ARRAY<INT>, mp MAP<STRING, BIGINT>, rw ROW<x INT, y STRING>`

func allTypesArgs() []any {
	ts := time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.UTC)
	return []any{1, true, -8, 300, 70000, int64(1) << 40, 1.5, 2.25,
		"12345678.91", "1234567890123456789012345678.0123456789", "-99999999999999999999999999999999999999", "abc", "str", []byte{1, 2}, []byte("xyz"),
		time.Date(2024, 5, 6, 0, 0, 0, 0, time.UTC), "07:08:09.123",
		ts, ts, ts, ts, []int64{1, 2}, map[string]int64{"a": 1}, map[string]any{"x": 1, "y": "z"}}
}

// allTypesWant is allTypesArgs as queryStrings renders them.
var allTypesWant = []string{"1", "true", "-8", "300", "70000", "1099511627776", "1.5", "2.25",
	"12345678.91", "1234567890123456789012345678.0123456789", "-99999999999999999999999999999999999999", "abc", "str", "\x01\x02", "xyz",
	"2024-05-06T00:00:00Z", "0000-01-01T07:08:09.123Z",
	"2024-05-06T07:08:09.123456789Z", "2024-05-06T07:08:09.123Z", "2024-05-06T07:08:09.123456Z", "2024-05-06T07:08:09.123456789Z",
	"[1,2]", `{"a":1}`, `{"x":1,"y":"z"}`}

func placeholders(n int) string { return strings.TrimSuffix(strings.Repeat("?,", n), ",") }

func TestAllTypesAndNullsRoundTrip(t *testing.T) {
	db := openDB(t, "")
	d := uniqueDB(t, db)
	args := allTypesArgs()
	nulls := make([]string, len(allTypesWant))
	for i := range nulls {
		nulls[i] = "NULL"
	}
	for _, pk := range []bool{true, false} {
		name := d + ".logt"
		ddl := "CREATE TABLE " + name + " (" + allTypesDDL + ")" + withFormat()
		if pk {
			name = d + ".pkt"
			ddl = "CREATE TABLE " + name + " (" + allTypesDDL + ", PRIMARY KEY (id) NOT ENFORCED)" + withFormat()
		}
		mustExec(t, db, ddl)
		mustExec(t, db, "INSERT INTO "+name+" VALUES ("+placeholders(len(args))+")", args...)
		// Every column but the key NULL: explicitly, and by leaving them out.
		nullArgs := make([]any, len(args))
		nullArgs[0] = 2
		mustExec(t, db, "INSERT INTO "+name+" VALUES ("+placeholders(len(args))+")", nullArgs...)
		mustExec(t, db, "INSERT INTO "+name+" (id) VALUES (3)")

		check := func(how string, got [][]string) {
			t.Helper()
			if len(got) != 3 {
				t.Fatalf("%s %s: %d rows: %v", name, how, len(got), got)
			}
			for _, r := range got {
				want := allTypesWant
				if r[0] != "1" {
					want = append([]string{r[0]}, nulls[1:]...)
				}
				if strings.Join(r, "|") != strings.Join(want, "|") {
					t.Fatalf("%s %s: row\n got %q\nwant %q", name, how, r, want)
				}
			}
		}
		check("scan", queryStrings(t, db, "SELECT * FROM "+name))
		// The columns in reverse: a projection the scan applies as it
		// reads (by the batch's columns for a log table of ARROW format).
		reversed := queryStrings(t, db, "SELECT rw, mp, ar, tl9, tl, ts3, ts, tm, dt, bs, bn, s, c, d3, d2, d1, dbl, f, bi, i, si, ti, b, id FROM "+name)
		for _, r := range reversed {
			slices.Reverse(r)
		}
		check("reversed scan", reversed)
		if pk {
			check("lookup", queryStrings(t, db, "SELECT * FROM "+name+" WHERE id IN (1, 2, 3, 4)"))
			var s sql.NullString
			err := db.QueryRowContext(ctxT(t), "SELECT s FROM "+name+" WHERE id = ?", 42).Scan(&s)
			if !errors.Is(err, sql.ErrNoRows) {
				t.Fatalf("lookup of a missing key: %v, want sql.ErrNoRows", err)
			}
		}
		// Column metadata agrees with the schema.
		rows, err := db.QueryContext(ctxT(t), "SELECT d2, ts, tl, c, ar FROM "+name+" LIMIT 1")
		if err != nil {
			t.Fatal(err)
		}
		cts, _ := rows.ColumnTypes()
		rows.Close()
		if p, s, ok := cts[0].DecimalSize(); !ok || p != 38 || s != 10 {
			t.Fatalf("DECIMAL(38,10) size = %d,%d,%v", p, s, ok)
		}
		if cts[1].DatabaseTypeName() != "TIMESTAMP(9)" || cts[2].DatabaseTypeName() != "TIMESTAMP_LTZ(6)" || cts[4].DatabaseTypeName() != "ARRAY<INT>" {
			t.Fatalf("type names: %s %s %s", cts[1].DatabaseTypeName(), cts[2].DatabaseTypeName(), cts[4].DatabaseTypeName())
		}
		if n, ok := cts[3].Length(); !ok || n != 3 {
			t.Fatalf("CHAR(3) length = %d,%v", n, ok)
		}
		if nullable, ok := cts[0].Nullable(); !ok || !nullable {
			t.Fatalf("nullable = %v,%v", nullable, ok)
		}
	}
}

func TestReadPlans(t *testing.T) {
	db := openDB(t, "")
	d := uniqueDB(t, db)
	mustExec(t, db, "CREATE TABLE "+d+".ev (id BIGINT, dt STRING, v INT) PARTITIONED BY (dt) WITH ('bucket.num' = '3', 'table.log.format' = '"+logFormat+"')")
	// The partitions are added here, not by the INSERT, so that one the
	// coordinator misses is added again (clustertest.ExecWithLeaders).
	dts := []string{"a", "b", "c"}
	for _, dt := range dts {
		mustExec(t, db, "ALTER TABLE "+d+".ev ADD PARTITION (dt = '"+dt+"')")
	}
	var sb strings.Builder
	for i := range 90 {
		if i > 0 {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, "(%d, '%s', %d)", i, dts[i%3], i%10)
	}
	mustExec(t, db, "INSERT INTO "+d+".ev VALUES "+sb.String())

	count := func(q string, args ...any) string { return queryStrings(t, db, q, args...)[0][0] }
	if got := count("SELECT COUNT(*) FROM " + d + ".ev"); got != "90" {
		t.Fatalf("COUNT(*) = %s", got)
	}
	if got := count("SELECT COUNT(*) FROM "+d+".ev WHERE dt = ?", "b"); got != "30" {
		t.Fatalf("COUNT(*) of one partition = %s", got)
	}
	if got := queryStrings(t, db, "SELECT * FROM "+d+".ev"); len(got) != 90 {
		t.Fatalf("full scan: %d rows", len(got))
	}
	if got := queryStrings(t, db, "SELECT id FROM "+d+".ev WHERE dt IN ('a', 'c')"); len(got) != 60 {
		t.Fatalf("partition-pruned scan: %d rows", len(got))
	}
	if got := queryStrings(t, db, "SELECT id, v FROM "+d+".ev LIMIT 7"); len(got) != 7 {
		t.Fatalf("LIMIT 7: %d rows", len(got))
	}
	if got := queryStrings(t, db, "SELECT id FROM "+d+".ev WHERE dt = 'a' LIMIT 5 OFFSET 27"); len(got) != 3 {
		t.Fatalf("LIMIT 5 OFFSET 27 of 30: %d rows", len(got))
	}
	if got := queryStrings(t, db, "SELECT /*+ OPTIONS('fluss.client-filter'='true') */ id FROM "+d+".ev WHERE v = 3 AND id < 50"); len(got) != 5 {
		t.Fatalf("client-filtered scan: %v", got)
	}
	if got := queryStrings(t, db, "SELECT id FROM "+d+".ev /*+ OPTIONS('scan.startup.mode'='latest') */"); len(got) != 0 {
		t.Fatalf("scan from latest: %v", got)
	}
	got := queryStrings(t, db, "SELECT _change_type, id FROM "+d+".ev$changelog WHERE dt = 'c'")
	if len(got) != 30 || got[0][0] != "insert" {
		t.Fatalf("log table $changelog: %v", got)
	}

	// Primary-key table: lookups, prefix lookups, LIMIT and full scans.
	mustExec(t, db, "CREATE TABLE "+d+".kv (a INT, b INT, v STRING, PRIMARY KEY (a, b) NOT ENFORCED) WITH ('bucket.key' = 'a', 'bucket.num' = '2', 'table.log.format' = '"+logFormat+"')")
	mustExec(t, db, "INSERT INTO "+d+".kv VALUES (1, 1, 'x'), (1, 2, 'y'), (2, 1, 'z'), (3, 3, NULL)")
	if got := queryStrings(t, db, "SELECT v FROM "+d+".kv WHERE a = 1 AND b = 2"); len(got) != 1 || got[0][0] != "y" {
		t.Fatalf("lookup: %v", got)
	}
	if got := queryStrings(t, db, "SELECT v FROM "+d+".kv WHERE (a = 1 AND b = 2) OR (b = 1 AND a = 2) OR (a = 9 AND b = 9)"); len(got) != 2 || !containsRow(got, "y") || !containsRow(got, "z") {
		t.Fatalf("OR of full keys (two point lookups): %v", got)
	}
	// Conditions on constants: BI tools learn a query's columns with
	// WHERE 1 = 0, query builders start with 1 = 1.
	probe, err := db.QueryContext(ctxT(t), "SELECT v, a FROM "+d+".kv WHERE 1 = 0")
	if err != nil {
		t.Fatal(err)
	}
	if cols, _ := probe.Columns(); len(cols) != 2 || cols[0] != "v" || probe.Next() {
		t.Fatalf("WHERE 1 = 0: columns %v, or a row", cols)
	}
	probe.Close()
	if got := queryStrings(t, db, "SELECT v FROM "+d+".kv WHERE 1 = 1 AND a = 2 AND b = 1"); len(got) != 1 || got[0][0] != "z" {
		t.Fatalf("WHERE 1 = 1 AND <key>: %v", got)
	}
	if got := queryStrings(t, db, "SELECT b, v FROM "+d+".kv WHERE a = 1"); len(got) != 2 {
		t.Fatalf("prefix lookup: %v", got)
	}
	if got := queryStrings(t, db, "SELECT b FROM "+d+".kv WHERE a = 1 AND v = 'x'"); len(got) != 1 || got[0][0] != "1" {
		t.Fatalf("prefix lookup with a residual predicate: %v", got)
	}
	if got := queryStrings(t, db, "SELECT * FROM "+d+".kv"); len(got) != 4 {
		t.Fatalf("PK scan: %v", got)
	}
	if got := queryStrings(t, db, "SELECT * FROM "+d+".kv LIMIT 3"); len(got) != 3 {
		t.Fatalf("PK LIMIT scan: %v", got)
	}
	if got := queryStrings(t, db, "SELECT /*+ OPTIONS('fluss.client-filter'='true') */ a FROM "+d+".kv WHERE v IS NULL"); len(got) != 1 || got[0][0] != "3" {
		t.Fatalf("PK client-filtered scan: %v", got)
	}
	// The cap may surface from Query or from Next.
	err = func() error {
		rows, err := db.QueryContext(ctxT(t), "SELECT /*+ OPTIONS('fluss.scan.max-rows'='2') */ * FROM "+d+".kv")
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
		}
		return rows.Err()
	}()
	if err == nil || !strings.Contains(err.Error(), "fluss.scan.max-rows=2") {
		t.Fatalf("PK scan over the cap: %v", err)
	}
	if got := count("SELECT COUNT(*) FROM " + d + ".kv"); got != "4" {
		t.Fatalf("COUNT(*) of a PK table = %s, want 4", got)
	}
	mustExec(t, db, "DELETE FROM "+d+".kv WHERE a = 3 AND b = 3")
	if got := count("SELECT COUNT(*) FROM " + d + ".kv"); got != "3" {
		t.Fatalf("COUNT(*) of a PK table after DELETE = %s, want 3", got)
	}
}

// fillLog appends n rows to a log table (id BIGINT, s STRING) with a write
// batch of multi-row INSERTs.
func fillLog(t testing.TB, db *sql.DB, table string, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	const per = 1000
	for base := 0; base < n; base += per {
		var sb strings.Builder
		sb.WriteString("INSERT INTO " + table + " VALUES ")
		for i := base; i < min(base+per, n); i++ {
			if i > base {
				sb.WriteString(",")
			}
			fmt.Fprintf(&sb, "(%d, 'row %d with some text')", i, i)
		}
		if _, err := tx.ExecContext(ctx, sb.String()); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func TestScanCancellation(t *testing.T) {
	db := openDB(t, "")
	d := uniqueDB(t, db)
	// Several buckets: the server truncates all but the first bucket of a
	// fetch at the per-bucket byte limit.
	mustExec(t, db, "CREATE TABLE "+d+".big (id BIGINT, s STRING) WITH ('bucket.num' = '4', 'table.log.format' = '"+logFormat+"')")
	fillLog(t, db, d+".big", 200000)

	base := ctxT(t) // bounds every step, so that a hang fails the test
	c, err := db.Conn(base)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithCancel(base)
	rows, err := c.QueryContext(ctx, "SELECT * FROM "+d+".big")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for n < 1000 && rows.Next() {
		n++
	}
	if n != 1000 {
		t.Fatalf("read %d rows before cancelling: %v", n, rows.Err())
	}
	cancel()
	start := time.Now()
	for rows.Next() {
		n++
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Fatalf("Next took %v to notice the cancellation", el)
	}
	if !errors.Is(rows.Err(), context.Canceled) {
		t.Fatalf("rows.Err() = %v after %d rows, want context.Canceled", rows.Err(), n)
	}
	rows.Close()
	// The connection is still good.
	var cnt int64
	if err := c.QueryRowContext(base, "SELECT COUNT(*) FROM "+d+".big").Scan(&cnt); err != nil || cnt != 200000 {
		t.Fatalf("the connection after a cancelled scan: %d, %v", cnt, err)
	}
	// Closing in the middle of a scan from another goroutine is safe.
	rows, err = c.QueryContext(base, "SELECT id FROM "+d+".big")
	if err != nil {
		t.Fatal(err)
	}
	rows.Next()
	done := make(chan struct{})
	go func() { rows.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close of a running scan hangs")
	}
	// A full scan reads everything, in offset order within the bucket.
	got := 0
	rows, err = c.QueryContext(base, "SELECT id FROM "+d+".big")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		got++
	}
	if rows.Err() != nil || got != 200000 {
		t.Fatalf("full scan: %d rows, %v", got, rows.Err())
	}
	rows.Close()
}

func TestConcurrentWritesAndLookups(t *testing.T) {
	db := openDB(t, "")
	d := uniqueDB(t, db)
	mustExec(t, db, "CREATE TABLE "+d+".t (id INT, g INT, v STRING, PRIMARY KEY (id) NOT ENFORCED)"+withFormat())
	ctx := ctxT(t)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 10 {
				id := g*100 + i
				if _, err := db.ExecContext(ctx, "INSERT INTO "+d+".t VALUES (?, ?, ?)", id, g, fmt.Sprint("v", id)); err != nil {
					errs <- err
					return
				}
				var v string
				if err := db.QueryRowContext(ctx, "SELECT v FROM "+d+".t WHERE id = ?", id).Scan(&v); err != nil || v != fmt.Sprint("v", id) {
					errs <- fmt.Errorf("lookup %d: %q, %v", id, v, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if got := queryStrings(t, db, "SELECT id FROM "+d+".t"); len(got) != 640 {
		t.Fatalf("%d rows after the concurrent inserts", len(got))
	}
}

func TestBinlog(t *testing.T) {
	db := openDB(t, "")
	d := uniqueDB(t, db)
	mustExec(t, db, "CREATE TABLE "+d+".kv (k INT, v STRING, PRIMARY KEY (k) NOT ENFORCED) WITH ('bucket.num' = '1', 'table.log.format' = '"+logFormat+"')")
	mustExec(t, db, "INSERT INTO "+d+".kv VALUES (1, 'a')")
	mustExec(t, db, "INSERT INTO "+d+".kv VALUES (1, 'b')")
	mustExec(t, db, "DELETE FROM "+d+".kv WHERE k = 1")
	got := queryStrings(t, db, "SELECT _change_type, _log_offset, before, after FROM "+d+".kv$binlog")
	want := [][]string{
		{"insert", "0", "NULL", `{"k":1,"v":"a"}`},
		{"update", "2", `{"k":1,"v":"a"}`, `{"k":1,"v":"b"}`},
		{"delete", "3", `{"k":1,"v":"b"}`, "NULL"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("$binlog = %v, want %v", got, want)
	}

	// Nested fields as the Fluss docs write them: `after`.k, alias.`before`.v.
	ctx := ctxT(t)
	rows, err := db.QueryContext(ctx, "SELECT `after`.k, b.`before`.v, `after`.v AS new_v FROM "+d+".kv$binlog b")
	if err != nil {
		t.Fatal(err)
	}
	cols, _ := rows.Columns()
	rows.Close()
	if fmt.Sprint(cols) != "[k v new_v]" {
		t.Errorf("columns of the nested fields = %v", cols)
	}
	got = queryStrings(t, db, "SELECT `after`.k, b.`before`.v, `after`.v AS new_v FROM "+d+".kv$binlog b")
	if want := "[[1 NULL a] [1 a b] [NULL b NULL]]"; fmt.Sprint(got) != want {
		t.Fatalf("nested fields = %v, want %v", got, want)
	}
	if got := queryStrings(t, db, "SELECT * FROM "+d+".kv$binlog"); len(got[0]) != 5 {
		t.Fatalf("SELECT * of $binlog has %d columns, want 5", len(got[0]))
	}
	where := "SELECT _change_type, `before`.v FROM " + d + ".kv$binlog%s WHERE `after`.k = 1"
	got = queryStrings(t, db, fmt.Sprintf(where, " /*+ OPTIONS('fluss.client-filter'='true') */"))
	if want := "[[insert NULL] [update a]]"; fmt.Sprint(got) != want {
		t.Fatalf("WHERE `after`.k = 1: %v, want %v", got, want)
	}
	if _, err := db.QueryContext(ctx, fmt.Sprintf(where, "")); err == nil || !strings.Contains(err.Error(), "fluss.client-filter") {
		t.Fatalf("WHERE on a nested field without client filtering: %v", err)
	}
	if _, err := db.QueryContext(ctx, "SELECT v FROM "+d+".kv$binlog"); err == nil || !strings.Contains(err.Error(), `unknown column "v"`) {
		t.Fatalf("a bare field name of $binlog: %v", err)
	}
}

func TestScanStartAndStop(t *testing.T) {
	db := openDB(t, "")
	d := uniqueDB(t, db)
	mustExec(t, db, "CREATE TABLE "+d+".ev (id INT)"+withFormat())
	mustExec(t, db, "INSERT INTO "+d+".ev VALUES (1), (2)")
	time.Sleep(50 * time.Millisecond)
	mid := time.Now().UnixMilli()
	time.Sleep(50 * time.Millisecond)
	mustExec(t, db, "INSERT INTO "+d+".ev VALUES (3)")
	from := fmt.Sprintf("SELECT id FROM %s.ev /*+ OPTIONS('scan.startup.mode'='timestamp', 'scan.startup.timestamp'='%d') */", d, mid)
	if got := queryStrings(t, db, from); len(got) != 1 || got[0][0] != "3" {
		t.Fatalf("scan from a timestamp: %v", got)
	}
	until := fmt.Sprintf("SELECT id FROM %s.ev /*+ OPTIONS('scan.stop.timestamp'='%d') */", d, mid)
	if got := queryStrings(t, db, until); len(got) != 2 {
		t.Fatalf("scan until a timestamp: %v", got)
	}
	offs := fmt.Sprintf("SELECT id FROM %s.ev /*+ OPTIONS('fluss.scan.start-offsets'='0:1') */", d)
	if got := queryStrings(t, db, offs); len(got) != 2 || got[0][0] != "2" {
		t.Fatalf("scan from explicit offsets: %v", got)
	}
}

func TestStreamingScan(t *testing.T) {
	db := openDB(t, "")
	d := uniqueDB(t, db)
	mustExec(t, db, "CREATE TABLE "+d+".ev (id INT)"+withFormat())
	mustExec(t, db, "INSERT INTO "+d+".ev VALUES (1), (2)")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	rows, err := db.QueryContext(ctx, "SELECT id FROM "+d+".ev /*+ OPTIONS('fluss.scan.bounded'='false') */")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	go func() {
		time.Sleep(500 * time.Millisecond)
		db.Exec("INSERT INTO " + d + ".ev VALUES (3)")
	}()
	for rows.Next() {
		n++
	}
	if n != 3 || !errors.Is(rows.Err(), context.DeadlineExceeded) {
		t.Fatalf("streaming scan: %d rows, %v (want 3 rows, then the deadline)", n, rows.Err())
	}
}

func TestWriteAfterAlterTable(t *testing.T) {
	db := openDB(t, "")
	d := uniqueDB(t, db)
	other := openDB(t, "")
	mustExec(t, db, "CREATE TABLE "+d+".t (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED)"+withFormat())
	mustExec(t, db, "INSERT INTO "+d+".t VALUES (1, 'a')")
	if got := queryStrings(t, db, "SELECT * FROM "+d+".t WHERE id = 1"); len(got) != 1 {
		t.Fatal(got)
	}
	// Altered through another sql.DB: this one learns it from the server.
	mustExec(t, other, "ALTER TABLE "+d+".t ADD c STRING")
	st, err := db.Prepare("INSERT INTO " + d + ".t (id, v) VALUES (?, ?)")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Exec(2, "b"); err != nil {
		t.Fatal(err)
	}
	// The table cache keeps info up to 30 s; new statements planned
	// against the new schema must also work.
	mustExec(t, other, "INSERT INTO "+d+".t VALUES (3, 'c', 'x')")
	if got := queryStrings(t, other, "SELECT * FROM "+d+".t WHERE id IN (1, 2, 3)"); len(got) != 3 || !containsRow(got, "3", "c", "x") || !containsRow(got, "2", "b", "NULL") {
		t.Fatalf("after ALTER TABLE: %v", got)
	}
}
