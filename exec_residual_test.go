package fluss_test

import (
	"reflect"
	"testing"
)

// TestWriteResiduals: UPDATE and DELETE by key with further conditions
// (what ORMs send for soft deletes) check them on the stored row.
func TestWriteResiduals(t *testing.T) {
	db := openDB(t, "")
	d := uniqueDB(t, db)
	tbl := d + ".items"
	mustExec(t, db, "CREATE TABLE "+tbl+" (id BIGINT, name STRING, deleted_at TIMESTAMP_LTZ(3), PRIMARY KEY (id) NOT ENFORCED)")
	mustExec(t, db, "INSERT INTO "+tbl+" VALUES (1, 'a', NULL), (2, 'b', NULL), (3, 'c', TIMESTAMP '2024-01-01 00:00:00')")
	steps := []struct {
		query string
		args  []any
		rows  int64
	}{
		// GORM's soft delete: the key twice and deleted_at IS NULL.
		{"UPDATE " + tbl + " SET deleted_at = ? WHERE `items`.`id` = ? AND `items`.`id` = ? AND `items`.`deleted_at` IS NULL", []any{"2024-02-02 00:00:00", 1, 1}, 1},
		{"UPDATE " + tbl + " SET name = 'x' WHERE id = 3 AND deleted_at IS NULL", nil, 0},
		{"UPDATE " + tbl + " SET name = 'bb' WHERE id = 2 AND name = 'b'", nil, 1},
		{"DELETE FROM " + tbl + " WHERE id IN (1, 2, 3) AND deleted_at IS NOT NULL", nil, 2},
		{"DELETE FROM " + tbl + " WHERE id = 2 AND id = 3", nil, 0},
	}
	for _, s := range steps {
		if got := rowsAffected(t, mustExec(t, db, s.query, s.args...)); got != s.rows {
			t.Errorf("%s: %d rows affected, want %d", s.query, got, s.rows)
		}
	}
	got := queryStrings(t, db, "SELECT id, name, deleted_at FROM "+tbl+" WHERE id IN (1, 2, 3) ORDER BY id")
	if want := [][]string{{"2", "bb", "NULL"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("rows left: %v, want %v", got, want)
	}
}
