//go:build duckdb_arrow

package analytics_test

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The engine's window functions, WITH queries and Flink time functions
// over the sales fixture; every expected result is computed here from the
// generated rows, with Flink's rules (NULL first ascending and last
// descending, integer sums, Sunday weeks), never taken from DuckDB.

// windowFixtureRows is the size of the fixture: a week of rows.
const windowFixtureRows = 1500

func TestWindowAndTimeQueries(t *testing.T) {
	f := newFixture(t, windowFixtureRows)
	t.Run("TopNSubquery", func(t *testing.T) {
		got := f.query(t, `SELECT region, id, qty, rn FROM (
			SELECT region, id, qty, ROW_NUMBER() OVER (PARTITION BY region ORDER BY qty DESC, id) AS rn FROM sales
		) t WHERE rn <= 3 ORDER BY region, rn`)
		checkRows(t, got, topN(f.sales, 3))
	})
	t.Run("TopNWith", func(t *testing.T) {
		got := f.query(t, `WITH ranked AS (
			SELECT region, id, qty, ROW_NUMBER() OVER (PARTITION BY region ORDER BY qty DESC, id) AS rn FROM sales
		), top3 AS (SELECT * FROM ranked WHERE rn <= ?)
		SELECT region, id, qty, rn FROM top3 ORDER BY region, rn`, 3)
		checkRows(t, got, topN(f.sales, 3))
	})
	t.Run("WithAggregate", func(t *testing.T) {
		got := f.query(t, `WITH totals (product, total) AS (SELECT product, SUM(qty) FROM sales GROUP BY product)
			SELECT product, total FROM totals WHERE total > ? ORDER BY total DESC, product`, 10)
		sums := map[string]int64{}
		for _, s := range f.sales {
			if s.qty != nil {
				sums[s.product] += int64(*s.qty)
			}
		}
		var want [][]string
		for p, n := range sums {
			if n > 10 {
				want = append(want, []string{p, strconv.FormatInt(n, 10)})
			}
		}
		slices.SortFunc(want, func(a, b []string) int {
			x, _ := strconv.Atoi(a[1])
			y, _ := strconv.Atoi(b[1])
			return cmp.Or(cmp.Compare(y, x), cmp.Compare(a[0], b[0]))
		})
		checkRows(t, got, want)
	})
	t.Run("MovingSum", func(t *testing.T) {
		got := f.query(t, `SELECT id, SUM(qty) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW),
			LAG(qty) OVER (ORDER BY id) FROM sales WHERE id < 40 ORDER BY id`)
		var want [][]string
		for i := 0; i < 40; i++ {
			var sum int64
			seen := false
			for j := max(0, i-2); j <= i; j++ {
				if q := f.sales[j].qty; q != nil {
					sum, seen = sum+int64(*q), true
				}
			}
			row := []string{strconv.Itoa(i), "NULL", "NULL"}
			if seen {
				row[1] = strconv.FormatInt(sum, 10)
			}
			if i > 0 {
				row[2] = intOrNull(f.sales[i-1].qty)
			}
			want = append(want, row)
		}
		checkRows(t, got, want)
	})
	t.Run("FloorToHour", func(t *testing.T) {
		got := f.query(t, `SELECT FLOOR(ts TO HOUR) AS h, COUNT(*), SUM(qty) FROM sales GROUP BY FLOOR(ts TO HOUR) ORDER BY h`)
		checkRows(t, got, buckets(f.sales, func(ts time.Time) time.Time { return ts.Truncate(time.Hour) }, timeText))
	})
	t.Run("FloorToWeek", func(t *testing.T) {
		// Flink's weeks start on Sunday; 2026-03-01 is one.
		got := f.query(t, `SELECT DATE_FORMAT(FLOOR(ts TO WEEK), 'yyyy-MM-dd') AS w, COUNT(*), SUM(qty) FROM sales GROUP BY FLOOR(ts TO WEEK) ORDER BY w`)
		sunday := func(ts time.Time) time.Time {
			d := time.Date(ts.Year(), ts.Month(), ts.Day(), 0, 0, 0, 0, time.UTC)
			return d.AddDate(0, 0, -int(d.Weekday()))
		}
		checkRows(t, got, buckets(f.sales, sunday, func(ts time.Time) string { return ts.Format("2006-01-02") }))
	})
	t.Run("DateBin", func(t *testing.T) {
		// What Grafana's $__dateBin(ts) and $__timeFilter(ts) expand to.
		got := f.query(t, `select date_bin(interval '600 second', ts, timestamp '1970-01-01T00:00:00Z') as ts_binned, count(*), sum(qty)
			from sales where ts >= '2026-03-01T01:00:00Z' AND ts <= '2026-03-01T05:00:00Z' group by 1 order by 1`)
		from, to := time.Date(2026, 3, 1, 1, 0, 0, 0, time.UTC), time.Date(2026, 3, 1, 5, 0, 0, 0, time.UTC)
		var in []sale
		for _, s := range f.sales {
			if !s.ts.Before(from) && !s.ts.After(to) {
				in = append(in, s)
			}
		}
		bin := func(ts time.Time) time.Time { return time.Unix(ts.Unix()-ts.Unix()%600, 0).UTC() }
		checkRows(t, got, buckets(in, bin, timeText))
	})
	t.Run("DateFormat", func(t *testing.T) {
		got := f.query(t, `SELECT id, DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm:ss'), DATE_FORMAT(ts, 'EEE d/M H''h''') FROM sales WHERE id < 30 ORDER BY id`)
		var want [][]string
		for _, s := range f.sales[:30] {
			want = append(want, []string{strconv.FormatInt(s.id, 10), s.ts.Format("2006-01-02 15:04:05"), s.ts.Format("Mon 2/1 ") + strconv.Itoa(s.ts.Hour()) + "h"})
		}
		checkRows(t, got, want)
	})
}

// topN ranks the rows of each region by qty, highest first with NULL
// last (Flink's DESC), then by id, and keeps the first n of each; regions
// come NULL first, then in order.
func topN(sales []sale, n int) [][]string {
	groups := map[string][]sale{}
	for _, s := range sales {
		groups[regionOf(s)] = append(groups[regionOf(s)], s)
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		switch {
		case a == "NULL":
			return -1
		case b == "NULL":
			return 1
		}
		return cmp.Compare(a, b)
	})
	var out [][]string
	for _, k := range keys {
		g := groups[k]
		slices.SortFunc(g, func(a, b sale) int {
			switch {
			case a.qty == nil && b.qty == nil:
			case a.qty == nil:
				return 1
			case b.qty == nil:
				return -1
			case *a.qty != *b.qty:
				return cmp.Compare(*b.qty, *a.qty)
			}
			return cmp.Compare(a.id, b.id)
		})
		for i, s := range g[:min(n, len(g))] {
			out = append(out, []string{k, strconv.FormatInt(s.id, 10), intOrNull(s.qty), strconv.Itoa(i + 1)})
		}
	}
	return out
}

// buckets groups rows by key(ts): each bucket's key (as text renders it),
// row count and qty sum (NULL when every qty is NULL), in key order.
func buckets(sales []sale, key func(time.Time) time.Time, text func(time.Time) string) [][]string {
	type agg struct {
		n   int
		sum *int64
	}
	by := map[time.Time]*agg{}
	for _, s := range sales {
		k := key(s.ts)
		a := by[k]
		if a == nil {
			a = &agg{}
			by[k] = a
		}
		a.n++
		if s.qty != nil {
			v := int64(*s.qty)
			if a.sum != nil {
				v += *a.sum
			}
			a.sum = &v
		}
	}
	keys := make([]time.Time, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b time.Time) int { return a.Compare(b) })
	var out [][]string
	for _, k := range keys {
		a := by[k]
		sum := "NULL"
		if a.sum != nil {
			sum = strconv.FormatInt(*a.sum, 10)
		}
		out = append(out, []string{text(k), strconv.Itoa(a.n), sum})
	}
	return out
}

// timeText is how database/sql renders a TIMESTAMP result as a string.
func timeText(ts time.Time) string { return ts.Format(time.RFC3339Nano) }

func regionOf(s sale) string {
	if s.region == nil {
		return "NULL"
	}
	return *s.region
}

func intOrNull(q *int32) string {
	if q == nil {
		return "NULL"
	}
	return strconv.Itoa(int(*q))
}

// checkRows compares result rows, reporting the first difference.
func checkRows(t *testing.T, got, want [][]string) {
	t.Helper()
	for i := 0; i < max(len(got), len(want)); i++ {
		var g, w string
		if i < len(got) {
			g = strings.Join(got[i], " | ")
		}
		if i < len(want) {
			w = strings.Join(want[i], " | ")
		}
		if g != w {
			t.Fatalf("row %d of %d (want %d):\n  got  %s\n  want %s", i+1, len(got), len(want), g, w)
		}
	}
	if len(want) == 0 {
		t.Fatal("the expected result is empty: the test checks nothing")
	}
	t.Logf("%d rows as expected", len(got))
}
