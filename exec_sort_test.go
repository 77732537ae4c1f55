package fluss_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/gofluss/fluss/planner"
)

// TestOrderByOnBoundedReads runs ORDER BY, LIMIT and OFFSET on lookups,
// IN lists and bounded scans of both table kinds.
func TestOrderByOnBoundedReads(t *testing.T) {
	db := openDB(t, "")
	d := uniqueDB(t, db)
	mustExec(t, db, "CREATE TABLE "+d+".users (id BIGINT, name STRING, score INT, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '3')")
	mustExec(t, db, "CREATE TABLE "+d+".events (id BIGINT, kind STRING) WITH ('bucket.num' = '3')")
	mustExec(t, db, "INSERT INTO "+d+".users VALUES (1, 'ann', 30), (2, 'bob', NULL), (3, 'cid', 10), (4, 'dan', 40), (5, 'eve', 20)")
	mustExec(t, db, "INSERT INTO "+d+".events VALUES (3, 'c'), (1, 'a'), (5, 'e'), (2, 'b'), (4, 'd')")
	mustExec(t, db, "CREATE TABLE "+d+".kv (a INT, b STRING, v INT, PRIMARY KEY (a, b) NOT ENFORCED)")
	mustExec(t, db, "INSERT INTO "+d+".kv VALUES (1, 'x', 10), (2, 'y', 20), (1, 'y', 30)")
	tests := []struct {
		query string
		args  []any
		want  [][]string
	}{
		// What GORM's First sends.
		{"SELECT * FROM " + d + ".users WHERE `users`.`id` = ? ORDER BY `users`.`id` LIMIT 1", []any{4}, [][]string{{"4", "dan", "40"}}},
		{"SELECT name FROM " + d + ".users WHERE id IN (5, 1, 3, 2) ORDER BY score DESC", nil, [][]string{{"ann"}, {"eve"}, {"cid"}, {"bob"}}},
		{"SELECT id FROM " + d + ".users WHERE id IN (5, 1, 3) ORDER BY 1 LIMIT 1 OFFSET 1", nil, [][]string{{"3"}}},
		{"SELECT id, name AS n FROM " + d + ".users ORDER BY n DESC LIMIT 2", nil, [][]string{{"5", "eve"}, {"4", "dan"}}},
		{"SELECT id FROM " + d + ".users ORDER BY id LIMIT ? OFFSET ?", []any{2, 3}, [][]string{{"4"}, {"5"}}},
		{"SELECT id FROM " + d + ".users ORDER BY score", nil, [][]string{{"2"}, {"3"}, {"5"}, {"1"}, {"4"}}},
		{"SELECT * FROM " + d + ".events ORDER BY id DESC LIMIT 3", nil, [][]string{{"5", "e"}, {"4", "d"}, {"3", "c"}}},
		{"SELECT kind FROM " + d + ".events ORDER BY id", nil, [][]string{{"a"}, {"b"}, {"c"}, {"d"}, {"e"}}},
		{"SELECT id FROM " + d + ".users WHERE id IN (9, 8) ORDER BY id", nil, nil},
		// Key IN lists in any column order.
		{"SELECT v FROM " + d + ".kv WHERE (b, a) IN (('y', 1), ('x', 1), ('y', 2)) ORDER BY v DESC", nil, [][]string{{"30"}, {"20"}, {"10"}}},
		{"SELECT v FROM " + d + ".kv WHERE b = ? AND a IN (?, ?) ORDER BY a", []any{"y", 2, 1}, [][]string{{"30"}, {"20"}}},
		// A window larger than the cap of a plain sort still fits: only
		// OFFSET+LIMIT rows are held.
		{"SELECT id FROM " + d + ".events /*+ OPTIONS('fluss.scan.max-rows'='2') */ ORDER BY id DESC LIMIT 2", nil, [][]string{{"5"}, {"4"}}},
		// A window larger than the cap works on a result within it.
		{"SELECT id FROM " + d + ".users /*+ OPTIONS('fluss.scan.max-rows'='3') */ WHERE id IN (1, 2) ORDER BY id DESC LIMIT 10", nil, [][]string{{"2"}, {"1"}}},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			if got := queryStrings(t, db, tc.query, tc.args...); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	// Past the bound the sort is refused with a clear error.
	for _, q := range []string{
		"SELECT id FROM " + d + ".events /*+ OPTIONS('fluss.scan.max-rows'='3') */ ORDER BY id",
		"SELECT id FROM " + d + ".events /*+ OPTIONS('fluss.scan.max-rows'='3') */ ORDER BY id LIMIT 3 OFFSET 1",
	} {
		_, err := db.QueryContext(ctxT(t), q)
		var pe *planner.Error
		if !errors.As(err, &pe) || pe.Clause != "ORDER BY" {
			t.Errorf("%s: got %v, want an ORDER BY error", q, err)
		}
	}
	if _, err := db.ExecContext(ctxT(t), "INSERT INTO "+d+".users (id, name) VALUES (9, 'x') RETURNING id"); err == nil {
		t.Error("INSERT ... RETURNING: no error")
	}
}
