package fluss_test

import (
	"database/sql"
	"errors"
	"testing"

	_ "github.com/gofluss/fluss"
	"github.com/gofluss/fluss/internal/fakefluss"
	"github.com/gofluss/fluss/internal/testkit"
)

// The database/sql adapter over the in-memory cluster of
// internal/fakefluss: placeholders, Scan, prepared statements and a write
// batch through BeginTx, with no JVM. The integration tests cover the
// same against the real cluster.
func TestDriverOnFake(t *testing.T) {
	fc := fakefluss.NewCluster(t, fakefluss.ClusterConfig{})
	db, err := sql.Open("fluss", "fluss://"+fc.Bootstrap()+"/fluss")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := testkit.Context(t)
	if _, err := db.ExecContext(ctx, "CREATE TABLE users (id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED)"); err != nil {
		t.Fatal(err)
	}
	res, err := db.ExecContext(ctx, "INSERT INTO users VALUES (?, ?), (?, ?)", 1, "ada", 2, "bob")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 2 {
		t.Fatalf("RowsAffected = %d, %v; want 2", n, err)
	}

	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO users VALUES (?, ?)", 3, "cy"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}

	stmt, err := db.PrepareContext(ctx, "SELECT name FROM users WHERE id = ?")
	if err != nil {
		t.Fatal(err)
	}
	defer stmt.Close()
	for _, tc := range []struct {
		id   int64
		want string
		err  error
	}{{1, "ada", nil}, {3, "cy", nil}, {4, "", sql.ErrNoRows}} {
		var name string
		if err := stmt.QueryRowContext(ctx, tc.id).Scan(&name); !errors.Is(err, tc.err) || name != tc.want {
			t.Errorf("id %d: %q, %v; want %q, %v", tc.id, name, err, tc.want, tc.err)
		}
	}
}
