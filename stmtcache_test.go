package fluss_test

import (
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"

	"github.com/gofluss/fluss"
)

// queryOn runs query on conn, or the prepared statement st when it is
// set, and returns its rows as strings.
func queryOn(t *testing.T, conn *sql.Conn, st *sql.Stmt, query string, args ...any) [][]string {
	t.Helper()
	var rows *sql.Rows
	var err error
	if st != nil {
		rows, err = st.QueryContext(ctxT(t), args...)
	} else {
		rows, err = conn.QueryContext(ctxT(t), query, args...)
	}
	if err != nil {
		t.Fatalf("Query(%s): %v", query, err)
	}
	return readStrings(t, rows)
}

// keptPlanEnv makes table d.t (id INT, v STRING, key id) holding (1, 'a')
// and opens a connection to read it with.
func keptPlanEnv(t *testing.T) (*sql.DB, string, *sql.Conn) {
	t.Helper()
	db := openDB(t, "")
	d := uniqueDB(t, db)
	mustExec(t, db, "CREATE TABLE "+d+".t (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED)"+withFormat())
	mustExec(t, db, "INSERT INTO "+d+".t VALUES (1, 'a')")
	reader, err := db.Conn(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reader.Close() })
	return db, d, reader
}

// TestKeptPlanSeesOtherSessionsAlter: a statement run before (the
// statement cache of unprepared calls, or a prepared statement) is planned
// again when another session of the same sql.DB altered its table. Before,
// a prepared statement kept its plan, and so the old columns, for as long
// as the session lived.
func TestKeptPlanSeesOtherSessionsAlter(t *testing.T) {
	db, d, reader := keptPlanEnv(t)
	ctx := context.Background()
	query := "SELECT * FROM " + d + ".t WHERE id = ?"
	st, err := reader.PrepareContext(ctx, query)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, prepared := range []*sql.Stmt{nil, st} {
		if got := queryOn(t, reader, prepared, query, 1); len(got) != 1 || len(got[0]) != 2 {
			t.Fatalf("before ALTER (prepared %v): %v", prepared != nil, got)
		}
	}
	alterer, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer alterer.Close()
	if _, err := alterer.ExecContext(ctx, "ALTER TABLE "+d+".t ADD c STRING"); err != nil {
		t.Fatal(err)
	}
	for _, prepared := range []*sql.Stmt{nil, st} {
		if got := queryOn(t, reader, prepared, query, 1); !containsRow(got, "1", "a", "NULL") {
			t.Fatalf("after another session's ALTER (prepared %v): %v, want [[1 a NULL]]", prepared != nil, got)
		}
	}
}

// TestStatementCacheFollowsUse: the same text run again after USE reads
// the table of the new current database, as a fresh statement would.
func TestStatementCacheFollowsUse(t *testing.T) {
	db := openDB(t, "")
	d1, d2 := uniqueDB(t, db), uniqueDB(t, db)
	for i, d := range []string{d1, d2} {
		mustExec(t, db, "CREATE TABLE "+d+".t (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED)"+withFormat())
		mustExec(t, db, "INSERT INTO "+d+".t VALUES (1, ?)", d+string(rune('0'+i)))
	}
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for i, d := range []string{d1, d2, d1} {
		if _, err := conn.ExecContext(ctx, "USE "+d); err != nil {
			t.Fatal(err)
		}
		var v string
		if err := conn.QueryRowContext(ctx, "SELECT v FROM t WHERE id = 1").Scan(&v); err != nil {
			t.Fatal(err)
		}
		want := d + string(rune('0'+i%2))
		if v != want {
			t.Fatalf("after USE %s: v = %q, want %q", d, v, want)
		}
	}
}

// TestKeptPlanAfterOtherSessionsDrop: a statement run before fails with
// ErrTableNotExist once another session dropped its table, as a fresh
// statement does.
func TestKeptPlanAfterOtherSessionsDrop(t *testing.T) {
	db, d, reader := keptPlanEnv(t)
	ctx := context.Background()
	query := "SELECT v FROM " + d + ".t WHERE id = ?"
	var v string
	if err := reader.QueryRowContext(ctx, query, 1).Scan(&v); err != nil {
		t.Fatal(err)
	}
	mustExec(t, db, "DROP TABLE "+d+".t")
	qctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := reader.QueryRowContext(qctx, query, 1).Scan(&v); !errors.Is(err, fluss.ErrTableNotExist) {
		t.Fatalf("after another session's DROP TABLE: %v, want ErrTableNotExist", err)
	}
}
