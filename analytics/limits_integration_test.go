//go:build duckdb_arrow

package analytics_test

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gofluss/fluss/internal/clustertest"
)

// TestCancelMidQuery cancels an engine query that would run for hours (a
// three-way cross join): it ends with the context's error at once, and the
// next query on the same pool runs.
func TestCancelMidQuery(t *testing.T) {
	f := newFixture(t, 3000)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	var n int64
	err := f.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM sales a, sales b, sales c WHERE a.id + b.id + c.id = -1").Scan(&n)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled query: %v (after %v), want context.Canceled", err, time.Since(start))
	}
	if got := f.query(t, "SELECT COUNT(*) FROM sales WHERE qty IS NULL"); len(got) != 1 {
		t.Fatalf("the query after the cancelled one: %v", got)
	}
}

// TestMemoryCap runs a query whose hash table outgrows a small engine
// (fluss.engine.memory-limit as a DSN default). At 64 MB the engine spills
// to its temporary directory and answers right; at 16 MB it fails saying
// which option to raise. Neither grows past its cap.
func TestMemoryCap(t *testing.T) {
	f := newFixture(t, 3000)
	const q = "SELECT COUNT(*) FROM (SELECT DISTINCT a.id * 10000 + b.id AS k, CONCAT(a.product, b.product) AS p FROM sales a, sales b) AS d"
	for _, limit := range []string{"64MB", "16MB"} {
		t.Run(limit, func(t *testing.T) {
			db, err := sql.Open("fluss", "fluss://"+clustertest.Bootstrap(t)+"/"+f.name+
				"?fluss.engine.memory-limit="+limit+"&fluss.engine.threads=1&fluss.engine.temp-directory="+t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			var n int64
			err = db.QueryRow(q).Scan(&n)
			switch {
			case limit == "64MB" && (err != nil || n != 9_000_000):
				t.Fatalf("COUNT = %d, %v; want 9000000, spilled", n, err)
			case limit == "16MB" && (err == nil || !strings.Contains(err.Error(), "Out of Memory") ||
				!strings.Contains(err.Error(), "raise 'fluss.engine.memory-limit'")):
				t.Fatalf("over the cap: %v, want an out-of-memory error naming the option", err)
			}
		})
	}
}

// TestRowCapNotApplied: fluss.scan.max-rows bounds what the client holds
// (an ORDER BY it sorts itself), not what streams into the engine.
func TestRowCapNotApplied(t *testing.T) {
	f := newFixture(t, 3000)
	db, err := sql.Open("fluss", "fluss://"+clustertest.Bootstrap(t)+"/"+f.name+"?fluss.scan.max-rows=100")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n, sum int64
	if err := db.QueryRow("SELECT COUNT(*), SUM(id) FROM sales WHERE id >= 0").Scan(&n, &sum); err != nil || n != 3000 || sum != 2999*3000/2 {
		t.Fatalf("engine COUNT(*), SUM(id) under a 100-row cap = %d, %d, %v; want 3000, %d", n, sum, err, 2999*3000/2)
	}
	rows, err := db.Query("SELECT id FROM sales ORDER BY id")
	if err == nil {
		for rows.Next() {
		}
		err = rows.Err()
		rows.Close()
	}
	if err == nil || !strings.Contains(err.Error(), "fluss.scan.max-rows") {
		t.Fatalf("a client-sorted scan of 3000 rows under a 100-row cap: %v, want the cap's error", err)
	}
}
