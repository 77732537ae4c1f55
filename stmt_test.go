package fluss_test

import (
	"database/sql"
	"errors"
	"strings"
	"testing"

	"github.com/gofluss/fluss/parser"
)

// TestArgumentCount: an argument that no placeholder takes, or a
// placeholder without an argument, is an error naming both counts; before,
// Exec dropped the extra argument and wrote the row.
func TestArgumentCount(t *testing.T) {
	db := openDB(t, "")
	d := uniqueDB(t, db)
	ctx := ctxT(t)
	tbl := d + ".t"
	mustExec(t, db, "CREATE TABLE "+tbl+" (id INT, i INT, PRIMARY KEY (id) NOT ENFORCED)")
	insert := "INSERT INTO " + tbl + " (id, i) VALUES (?, ?)"
	insertNamed := "INSERT INTO " + tbl + " (id, i) VALUES (:id, :i)"
	query := "SELECT i FROM " + tbl + " WHERE id = ?"

	direct := func(q string, args ...any) func() error {
		return func() error {
			if strings.HasPrefix(q, "SELECT") {
				rows, err := db.QueryContext(ctx, q, args...)
				if err == nil {
					rows.Close()
				}
				return err
			}
			_, err := db.ExecContext(ctx, q, args...)
			return err
		}
	}
	prepared := func(q string, args ...any) func() error {
		return func() error {
			st, err := db.PrepareContext(ctx, q)
			if err != nil {
				return err
			}
			defer st.Close()
			if strings.HasPrefix(q, "SELECT") {
				rows, err := st.QueryContext(ctx, args...)
				if err == nil {
					rows.Close()
				}
				return err
			}
			_, err = st.ExecContext(ctx, args...)
			return err
		}
	}
	cases := []struct {
		name string
		call func() error
		want []string // the error names both counts, or the stray name
	}{
		{"exec one too many", direct(insert, 40, 1, 2), []string{"2", "3"}},
		{"exec one too few", direct(insert, 40), []string{"2", "1"}},
		{"exec none for no placeholders", direct("INSERT INTO "+tbl+" VALUES (41, 1)", 7), []string{"0", "1"}},
		{"query one too many", direct(query, 40, 1), []string{"1", "2"}},
		{"query none given", direct(query), []string{"1", "0"}},
		{"prepared exec too many", prepared(insert, 40, 1, 2), []string{"2", "3"}},
		{"prepared query too many", prepared(query, 40, 1), []string{"1", "2"}},
		{"named one too many", direct(insertNamed, sql.Named("id", 40), sql.Named("i", 1), sql.Named("x", 2)), []string{"2", "3"}},
		{"named one too few", direct(insertNamed, sql.Named("id", 40)), []string{"2", "1"}},
		{"named unknown name", direct(insertNamed, sql.Named("id", 40), sql.Named("j", 1)), []string{`"j"`}},
		{"prepared named too many", prepared(insertNamed, sql.Named("id", 40), sql.Named("i", 1), sql.Named("x", 2)), []string{"2", "3"}},
		{"named for positional", direct(insert, sql.Named("id", 40), sql.Named("i", 1)), []string{`"id"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.call()
			if err == nil {
				t.Fatal("call succeeded")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %s", err, w)
				}
			}
		})
	}
	if got := queryStrings(t, db, "SELECT COUNT(*) FROM "+tbl); got[0][0] != "0" {
		t.Fatalf("a refused call wrote rows: COUNT(*) = %v", got)
	}
	// The right count still works, positional and named.
	mustExec(t, db, insert, 40, 1)
	mustExec(t, db, insertNamed, sql.Named("i", 2), sql.Named("id", 41))
	if got := queryStrings(t, db, query, 41); len(got) != 1 || got[0][0] != "2" {
		t.Fatalf("row 41 = %v", got)
	}
}

// TestHugeExpressionIsRefused: a million-term chain is a parse error with
// its position, quickly, through database/sql; it used to overflow the
// goroutine stack and kill the process.
func TestHugeExpressionIsRefused(t *testing.T) {
	db := openDB(t, "")
	_, err := db.ExecContext(ctxT(t), "SELECT * FROM t WHERE id = 1"+strings.Repeat("+1", 1_000_000))
	var pe *parser.Error
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "expression too deeply nested") || pe.Line != 1 {
		t.Fatalf("got %v, want a parse error saying the expression is too deeply nested", err)
	}
}
