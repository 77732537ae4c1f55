package fluss_test

import (
	"database/sql"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/gofluss/fluss/internal/clustertest"
)

type sqlxUser struct {
	ID      int64          `db:"id"`
	Name    string         `db:"name"`
	Email   sql.NullString `db:"email"`
	Balance string         `db:"balance"`
	Joined  time.Time      `db:"joined"`
}

func TestSQLX(t *testing.T) {
	db, err := sqlx.Connect("fluss", "fluss://"+clustertest.Bootstrap(t)+"/")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	d := uniqueDB(t, db.DB)
	ctx := ctxT(t)
	db.MustExec("CREATE TABLE " + d + ".users (id BIGINT, name STRING, email STRING, balance DECIMAL(12,2), joined TIMESTAMP(3), PRIMARY KEY (id) NOT ENFORCED)" + withFormat())
	joined := time.Date(2024, 1, 2, 3, 4, 5, 6e6, time.UTC)
	users := []sqlxUser{
		{ID: 1, Name: "ann", Email: sql.NullString{String: "ann@example.com", Valid: true}, Balance: "10.50", Joined: joined},
		{ID: 2, Name: "bob", Balance: "0.00", Joined: joined},
		{ID: 3, Name: "cy", Balance: "-3.25", Joined: joined},
	}
	for _, u := range users {
		if _, err := db.NamedExecContext(ctx, "INSERT INTO "+d+".users (id, name, email, balance, joined) VALUES (:id, :name, :email, :balance, :joined)", u); err != nil {
			t.Fatal(err)
		}
	}
	var got sqlxUser
	if err := db.GetContext(ctx, &got, "SELECT * FROM "+d+".users WHERE id = ?", 1); err != nil {
		t.Fatal(err)
	}
	if got != users[0] {
		t.Fatalf("Get = %+v, want %+v", got, users[0])
	}
	var all []sqlxUser
	if err := db.SelectContext(ctx, &all, "SELECT * FROM "+d+".users"); err != nil {
		t.Fatal(err)
	}
	if len(all) != 3 {
		t.Fatalf("Select: %+v", all)
	}
	q, args, err := sqlx.In("SELECT id, name FROM "+d+".users WHERE id IN (?)", []int64{2, 3, 9})
	if err != nil {
		t.Fatal(err)
	}
	var some []struct {
		ID   int64  `db:"id"`
		Name string `db:"name"`
	}
	if err := db.SelectContext(ctx, &some, db.Rebind(q), args...); err != nil {
		t.Fatal(err)
	}
	if len(some) != 2 || some[0].Name != "bob" || some[1].Name != "cy" {
		t.Fatalf("In: %+v", some)
	}
	if err := db.GetContext(ctx, &got, "SELECT * FROM "+d+".users WHERE id = ?", 99); err != sql.ErrNoRows {
		t.Fatalf("Get of a missing key: %v", err)
	}
	// A batch through sqlx's Tx.
	tx := db.MustBegin()
	tx.MustExec("INSERT INTO "+d+".users (id, name, balance, joined) VALUES (?, ?, ?, ?)", 4, "di", "1", joined)
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.GetContext(ctx, &n, "SELECT id FROM "+d+".users WHERE id = 4"); err != nil || n != 4 {
		t.Fatalf("row of the committed sqlx Tx: %d, %v", n, err)
	}
}
