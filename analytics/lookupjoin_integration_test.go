//go:build duckdb_arrow

package analytics_test

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gofluss/fluss"
	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/internal/clustertest"
	"github.com/gofluss/fluss/internal/testkit"
)

// lookupCounter counts the LOOKUP requests of a client.
type lookupCounter struct{ n atomic.Int64 }

func (c *lookupCounter) TraceRequestStart(ctx context.Context, d flussrpc.TraceRequestStartData) context.Context {
	if d.API == flussrpc.APIKeyLookup {
		c.n.Add(1)
	}
	return ctx
}

func (*lookupCounter) TraceRequestEnd(context.Context, flussrpc.TraceRequestEndData) {}

// A lookup join looks its few keys up, and scans the table instead when
// the probe brings keys for most of its rows; the answer is the same.
func TestLookupJoinOrScan(t *testing.T) {
	addr := clustertest.Bootstrap(t)
	ctx := testkit.Context(t)
	name := testkit.UniqueName("lj")
	admin, err := sql.Open("fluss", "fluss://"+addr+"/")
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	exec := func(q string) error { _, err := admin.ExecContext(ctx, q); return err }
	if err := exec("CREATE DATABASE " + name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Exec("DROP DATABASE IF EXISTS " + name + " CASCADE") })
	for _, ddl := range []string{
		"CREATE TABLE " + name + ".probe (id BIGINT, k BIGINT) WITH ('bucket.num' = '2')",
		"CREATE TABLE " + name + ".dims (id BIGINT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '2')",
	} {
		if err := clustertest.ExecWithLeaders(t, ddl, exec); err != nil {
			t.Fatal(err)
		}
	}
	const n = 800
	var probe, dims []string
	for i := range n {
		probe = append(probe, fmt.Sprintf("(%d, %d)", i, i))
		dims = append(dims, fmt.Sprintf("(%d, 'v%d')", i, i))
	}
	for _, q := range []string{
		"INSERT INTO " + name + ".probe VALUES " + strings.Join(probe, ", "),
		"INSERT INTO " + name + ".dims VALUES " + strings.Join(dims, ", "),
	} {
		if err := exec(q); err != nil {
			t.Fatal(err)
		}
	}

	counter := &lookupCounter{}
	cfg, err := fluss.ParseDSN("fluss://" + addr + "/" + name)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Tracer = counter
	db, err := fluss.OpenDB(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, tc := range []struct {
		where   string
		keys    int
		lookups bool
	}{
		{"WHERE p.id < 5", 5, true},      // 5 keys of 800 rows: looked up
		{"WHERE p.id < 50", 50, true},    // 50 * 8 < 800
		{"WHERE p.id < 150", 150, false}, // 150 * 8 > 800: scanned
		{"", n, false},                   // every key
	} {
		q := "SELECT COUNT(*), SUM(d.id), MAX(d.v) FROM probe p JOIN dims d ON p.k = d.id " + tc.where
		if plan := explain(t, db, q); !strings.Contains(plan, "LookupJoin") {
			t.Fatalf("EXPLAIN %s shows no lookup join:\n%s", q, plan)
		}
		counter.n.Store(0)
		var count, sum int64
		var maxV string
		if err := db.QueryRowContext(ctx, q).Scan(&count, &sum, &maxV); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		want := int64(tc.keys) * int64(tc.keys-1) / 2
		if count != int64(tc.keys) || sum != want {
			t.Errorf("%s: COUNT %d, SUM %d; want %d, %d", q, count, sum, tc.keys, want)
		}
		if got := counter.n.Load() > 0; got != tc.lookups {
			t.Errorf("%s: %d LOOKUP requests; want lookups %v", q, counter.n.Load(), tc.lookups)
		}
	}
}

// explain returns the lines of EXPLAIN q.
func explain(t *testing.T, db *sql.DB, q string) string {
	t.Helper()
	rows, err := db.Query("EXPLAIN " + q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, line)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n")
}
