package fluss_test

import (
	"database/sql"
	"errors"
	"strings"
	"testing"

	"github.com/gofluss/fluss/planner"
)

// insertHint makes a point lookup of a dictionary table insert the keys
// it does not find.
const insertHint = " /*+ OPTIONS('lookup.insert-if-not-exists'='true') */ "

func TestLookupInsertIfNotExistsSQL(t *testing.T) {
	db := openDB(t, "")
	d := uniqueDB(t, db)
	dict := d + ".dict"
	mustExec(t, db, "CREATE TABLE "+dict+" (name STRING, uid BIGINT, note STRING, PRIMARY KEY (name) NOT ENFORCED) WITH ('bucket.num' = '3', 'auto-increment.fields' = 'uid')")

	uid := func(q string, args ...any) int64 {
		t.Helper()
		var id int64
		if err := db.QueryRowContext(ctxT(t), q, args...).Scan(&id); err != nil {
			t.Fatalf("%s %v: %v", q, args, err)
		}
		return id
	}
	x := uid("SELECT uid FROM " + dict + insertHint + "WHERE name = 'x'")
	if again := uid("SELECT uid FROM "+dict+insertHint+"WHERE name = ?", "x"); again != x {
		t.Fatalf("second lookup of x: uid %d, first %d", again, x)
	}
	if plain := uid("SELECT uid FROM "+dict+" WHERE name = ?", "x"); plain != x {
		t.Fatalf("plain lookup of x: uid %d, want %d", plain, x)
	}
	if got := queryStrings(t, db, "SELECT name, note FROM "+dict+" WHERE name = 'x'"); len(got) != 1 || got[0][1] != "NULL" {
		t.Fatalf("inserted row: %v, want x with a NULL note", got)
	}

	// Every missing key of an IN list is inserted, each with its own uid.
	rows := queryStrings(t, db, "SELECT name, uid FROM "+dict+insertHint+"WHERE name IN ('y', 'z', 'x')")
	ids := map[string]string{}
	for _, r := range rows {
		ids[r[0]] = r[1]
	}
	if len(rows) != 3 || len(ids) != 3 || ids["x"] != queryStrings(t, db, "SELECT uid FROM "+dict+" WHERE name = 'x'")[0][0] {
		t.Fatalf("IN list: %v", rows)
	}
	if ids["y"] == ids["z"] || ids["y"] == ids["x"] || ids["z"] == ids["x"] {
		t.Fatalf("IN list: uids not distinct: %v", ids)
	}

	// Without the hint a missing key is still missing.
	var id int64
	err := db.QueryRowContext(ctxT(t), "SELECT uid FROM "+dict+" WHERE name = 'never'").Scan(&id)
	if !errors.Is(err, sql.ErrNoRows) {
		t.Fatalf("plain lookup of a missing key: %v, want sql.ErrNoRows", err)
	}

	// A table without auto-increment column hands out no ids.
	mustExec(t, db, "CREATE TABLE "+d+".kv (k STRING, v STRING, PRIMARY KEY (k) NOT ENFORCED)")
	_, err = db.QueryContext(ctxT(t), "SELECT v FROM "+d+".kv"+insertHint+"WHERE k = 'a'")
	var pe *planner.Error
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "auto-increment column") {
		t.Fatalf("hint on a table without auto-increment column: %v", err)
	}
}
