//go:build duckdb_arrow

package analytics_test

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"

	"github.com/gofluss/fluss"
	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/internal/clustertest"
	"github.com/gofluss/fluss/internal/testkit"
)

// A lookup join looks its few keys up, and scans the table instead when
// the probe brings keys for most of its rows; the answer is the same.
func TestLookupJoinOrScan(t *testing.T) {
	addr := clustertest.Bootstrap(t)
	ctx := testkit.Context(t)
	name, admin := scratchDatabase(t, "lj",
		"CREATE TABLE {db}.probe (id BIGINT, k BIGINT) WITH ('bucket.num' = '2')",
		"CREATE TABLE {db}.dims (id BIGINT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '2')")
	exec := func(q string) error { _, err := admin.ExecContext(ctx, q); return err }
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

	counter := &clustertest.RequestCounter{}
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
		counter.Reset()
		var count, sum int64
		var maxV string
		if err := db.QueryRowContext(ctx, q).Scan(&count, &sum, &maxV); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		want := int64(tc.keys) * int64(tc.keys-1) / 2
		if count != int64(tc.keys) || sum != want {
			t.Errorf("%s: COUNT %d, SUM %d; want %d, %d", q, count, sum, tc.keys, want)
		}
		if got := counter.Count(flussrpc.APIKeyLookup) > 0; got != tc.lookups {
			t.Errorf("%s: %d LOOKUP requests; want lookups %v", q, counter.Count(flussrpc.APIKeyLookup), tc.lookups)
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
