package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gofluss/fluss/internal/clustertest"
)

// TestClusterAnalytics runs, in the shell, queries only the embedded
// engine serves: a GROUP BY with HAVING, a filter on a non-key column,
// and a join whose plan shows the lookup join.
func TestClusterAnalytics(t *testing.T) {
	addr := clustertest.Bootstrap(t)
	db := testDatabase(t, addr)
	dsn := "fluss://" + addr + "/" + db
	createTable(t, addr, db, "CREATE TABLE sales (id BIGINT, region STRING, qty INT) WITH ('bucket.num' = '2')")
	createTable(t, addr, db, "CREATE TABLE regions (region STRING, name STRING, PRIMARY KEY (region) NOT ENFORCED)")
	var values []string
	want := map[string][2]int{} // region -> count, sum(qty)
	for i := range 300 {
		region := []string{"eu", "us", "apac"}[i%3]
		qty := i % 10
		values = append(values, fmt.Sprintf("(%d, '%s', %d)", i, region, qty))
		w := want[region]
		want[region] = [2]int{w[0] + 1, w[1] + qty}
	}
	r := runFlussql(t, "", "--dsn", dsn, "-c", "INSERT INTO sales VALUES "+strings.Join(values, ", ")+
		"; INSERT INTO regions VALUES ('eu', 'Europe'), ('us', 'Americas')")
	if r.code != 0 {
		t.Fatalf("insert: exit %d\n%s", r.code, r.stderr)
	}
	cases := []struct{ query, want string }{
		{"SELECT region, COUNT(*), SUM(qty) FROM sales GROUP BY region HAVING COUNT(*) > 0 ORDER BY region",
			fmt.Sprintf("[[region EXPR$1 EXPR$2] [apac %d %d] [eu %d %d] [us %d %d]]",
				want["apac"][0], want["apac"][1], want["eu"][0], want["eu"][1], want["us"][0], want["us"][1])},
		{"SELECT COUNT(*) FROM sales WHERE qty > 7 AND region = 'eu'", "[[EXPR$0] [20]]"},
		{"SELECT g.name, COUNT(*) FROM sales s JOIN regions g ON s.region = g.region GROUP BY g.name ORDER BY g.name",
			"[[name EXPR$1] [Americas 100] [Europe 100]]"},
	}
	for _, c := range cases {
		r := runFlussql(t, "", "--dsn", dsn, "--format", "csv", "-c", c.query)
		if got := fmt.Sprint(parseCSV(t, r.stdout)); r.code != 0 || got != c.want {
			t.Errorf("%s: exit %d, got %s, want %s\n%s", c.query, r.code, got, c.want, r.stderr)
		}
	}
	r = runFlussql(t, "", "--dsn", dsn, "-c", "EXPLAIN "+cases[2].query)
	if !strings.Contains(r.stdout, "LookupJoin") || !strings.Contains(r.stdout, "Engine: DuckDB") {
		t.Errorf("EXPLAIN of the join shows no lookup join:\n%s%s", r.stdout, r.stderr)
	}
}
