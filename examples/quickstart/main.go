// Command quickstart is the five-minute tour of the fluss driver, and what
// `make demo` runs: it creates a database with a primary-key table and a
// log table, writes rows, looks one up by key, scans both tables and
// prints what it did.
package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/gofluss/fluss"
	"github.com/gofluss/fluss/examples"
)

func main() { examples.Main("quickstart", 2*time.Minute, run) }

// run does the tour in database db, printing to out.
func run(ctx context.Context, dsn, db string, out io.Writer) error {
	admin, err := sql.Open("fluss", dsn)
	if err != nil {
		return err
	}
	defer admin.Close()
	for _, stmt := range []string{
		"DROP DATABASE IF EXISTS " + db + " CASCADE",
		"CREATE DATABASE " + db + " COMMENT 'fluss driver quickstart'",
	} {
		if _, err := admin.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("%s: %w", stmt, err)
		}
	}

	// The database in the DSN is the current database of every pooled
	// connection. (USE changes only the one connection that runs it.)
	cfg, err := examples.InDatabase(dsn, db)
	if err != nil {
		return err
	}
	conn, err := fluss.OpenDB(cfg)
	if err != nil {
		return err
	}
	defer conn.Close()

	// Flink DDL as Fluss users write it.
	for _, stmt := range []string{
		`CREATE TABLE users (
			id BIGINT,
			name STRING,
			balance DECIMAL(10, 2),
			PRIMARY KEY (id) NOT ENFORCED
		) WITH ('bucket.num' = '2')`,
		`CREATE TABLE events (
			user_id BIGINT,
			kind STRING,
			at TIMESTAMP(3)
		) WITH ('bucket.num' = '2')`,
	} {
		if _, err := conn.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("%s: %w", stmt, err)
		}
	}
	res, err := conn.ExecContext(ctx, "INSERT INTO users VALUES (1, 'ada', 12.50), (2, 'bob', 7.00), (3, 'cy', NULL)")
	if err != nil {
		return err
	}
	n, _ := res.RowsAffected()
	fmt.Fprintf(out, "upserted %d users\n", n)

	at := time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)
	for i, kind := range []string{"login", "purchase", "logout"} {
		if _, err := conn.ExecContext(ctx, "INSERT INTO events VALUES (?, ?, ?)", 1, kind, at.Add(time.Duration(i)*time.Minute)); err != nil {
			return err
		}
	}
	fmt.Fprintln(out, "appended 3 events")

	// An INSERT on a primary-key table is an upsert: ada's balance changes.
	if _, err := conn.ExecContext(ctx, "INSERT INTO users VALUES (1, 'ada', 20.00)"); err != nil {
		return err
	}

	// A point lookup by the full primary key.
	var name, balance string
	if err := conn.QueryRowContext(ctx, "SELECT name, balance FROM users WHERE id = ?", 1).Scan(&name, &balance); err != nil {
		return err
	}
	fmt.Fprintf(out, "lookup id=1: %s %s\n", name, balance)
	err = conn.QueryRowContext(ctx, "SELECT name FROM users WHERE id = ?", 42).Scan(&name)
	fmt.Fprintf(out, "lookup id=42: no rows = %v\n", errors.Is(err, sql.ErrNoRows))

	// A bounded scan of the log table, up to the offsets at query start.
	rows, err := conn.QueryContext(ctx, "SELECT user_id, kind, at FROM events")
	if err != nil {
		return err
	}
	defer rows.Close()
	var kinds []string
	for rows.Next() {
		var id int64
		var kind string
		var ts time.Time
		if err := rows.Scan(&id, &kind, &ts); err != nil {
			return err
		}
		kinds = append(kinds, fmt.Sprintf("%s@%s", kind, ts.Format("15:04")))
	}
	if err := rows.Err(); err != nil {
		return err
	}
	// Rows come back in log order per bucket, not across buckets.
	sort.Strings(kinds)
	fmt.Fprintf(out, "events of user 1: %v\n", kinds)

	var count int64
	if err := conn.QueryRowContext(ctx, "SELECT COUNT(*) FROM events").Scan(&count); err != nil {
		return err
	}
	fmt.Fprintf(out, "events counted: %d\n", count)
	return nil
}
