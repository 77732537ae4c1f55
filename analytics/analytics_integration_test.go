//go:build duckdb_arrow

package analytics_test

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	_ "github.com/gofluss/fluss"
	_ "github.com/gofluss/fluss/analytics"
	"github.com/gofluss/fluss/internal/clustertest"
	"github.com/gofluss/fluss/internal/testkit"
)

// sale is one generated row of the sales log table.
type sale struct {
	id      int64
	region  *string
	product string
	qty     *int32
	cents   int64 // price in cents (DECIMAL(10,2))
	ts      time.Time
}

var (
	regions  = []string{"eu", "us", "apac"}
	products = []string{"apple", "pear", "plum", "fig", "kiwi"}
	category = map[string]string{"apple": "pome", "pear": "pome", "plum": "drupe", "fig": "other"} // kiwi has none
)

// genSales makes n rows deterministically: every 7th region and every 11th
// qty is NULL.
func genSales(n int) []sale {
	r := rand.New(rand.NewPCG(1, 2))
	base := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	out := make([]sale, n)
	for i := range out {
		s := sale{id: int64(i), product: products[r.IntN(len(products))], cents: int64(100 + r.IntN(900)),
			ts: base.Add(time.Duration(i) * 7 * time.Minute).Truncate(time.Millisecond)}
		if i%7 != 3 {
			reg := regions[r.IntN(len(regions))]
			s.region = &reg
		}
		if i%11 != 5 {
			q := int32(r.IntN(10))
			s.qty = &q
		}
		out[i] = s
	}
	return out
}

// fixture is a database with the sales and products tables.
type fixture struct {
	db    *sql.DB
	name  string
	sales []sale
}

func newFixture(t *testing.T, n int) *fixture {
	t.Helper()
	name, _ := scratchDatabase(t, "an",
		"CREATE TABLE {db}.sales (id BIGINT, region STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)) WITH ('bucket.num' = '2')",
		"CREATE TABLE {db}.products (product STRING, category STRING, PRIMARY KEY (product) NOT ENFORCED) WITH ('bucket.num' = '2')")
	db, err := sql.Open("fluss", "fluss://"+clustertest.Bootstrap(t)+"/"+name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f := &fixture{db: db, name: name, sales: genSales(n)}
	const chunk = 500
	for lo := 0; lo < n; lo += chunk {
		q := "INSERT INTO sales VALUES "
		var args []any
		for i := lo; i < min(lo+chunk, n); i++ {
			s := f.sales[i]
			if i > lo {
				q += ", "
			}
			q += "(?, ?, ?, ?, ?, ?)"
			var reg, qty any
			if s.region != nil {
				reg = *s.region
			}
			if s.qty != nil {
				qty = *s.qty
			}
			args = append(args, s.id, reg, s.product, qty, fmt.Sprintf("%d.%02d", s.cents/100, s.cents%100), s.ts)
		}
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatal(err)
		}
	}
	for p, c := range category {
		if _, err := db.Exec("INSERT INTO products VALUES (?, ?)", p, c); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// scratchDatabase creates a database that is dropped when the test ends,
// and in it the tables of ddl, where {db} stands for its name. It returns
// the name and a handle on the cluster that the test closes.
func scratchDatabase(t *testing.T, prefix string, ddl ...string) (string, *sql.DB) {
	t.Helper()
	ctx := testkit.Context(t)
	name := testkit.UniqueName(prefix)
	admin, err := sql.Open("fluss", "fluss://"+clustertest.Bootstrap(t)+"/")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	exec := func(q string) error { _, err := admin.ExecContext(ctx, q); return err }
	if err := exec("CREATE DATABASE " + name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Exec("DROP DATABASE IF EXISTS " + name + " CASCADE") })
	for _, q := range ddl {
		if err := clustertest.ExecWithLeaders(t, strings.ReplaceAll(q, "{db}", name), exec); err != nil {
			t.Fatal(err)
		}
	}
	return name, admin
}

// query returns the rows of q as strings.
func (f *fixture) query(t *testing.T, q string, args ...any) [][]string {
	t.Helper()
	rows, err := f.db.QueryContext(context.Background(), q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out [][]string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatalf("%s: scan: %v", q, err)
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = "NULL"
			if v.Valid {
				row[i] = v.String
			}
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return out
}

func TestSmoke(t *testing.T) {
	f := newFixture(t, 2000)
	t.Log(f.query(t, "SELECT region, COUNT(*), SUM(qty) FROM sales GROUP BY region ORDER BY region"))
	t.Log(f.query(t, "EXPLAIN SELECT p.category, SUM(s.qty) FROM sales s JOIN products p ON s.product = p.product GROUP BY p.category"))
	t.Log(f.query(t, "SELECT p.category, SUM(s.qty) FROM sales s JOIN products p ON s.product = p.product GROUP BY p.category ORDER BY 1"))
}
