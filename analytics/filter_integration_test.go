//go:build duckdb_arrow

package analytics_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestFiltersOnAnyColumn checks filters the engine applies (no Fluss
// pushdown can serve them) against the generator: each predicate both
// counts and lists the matching ids, so that rows a scan handed over
// unfiltered would show. They run one after another on the same embedded
// database, as a session's queries do.
func TestFiltersOnAnyColumn(t *testing.T) {
	f := newFixture(t, 3000)
	t0 := time.Date(2026, 3, 3, 0, 0, 0, 0, time.UTC)
	t1 := t0.Add(36 * time.Hour)
	is := func(p *string, v string) bool { return p != nil && *p == v }
	cases := []struct {
		where string
		args  []any
		keep  func(s sale) bool
	}{
		{"qty > 8 AND region = 'eu'", nil, func(s sale) bool { return s.qty != nil && *s.qty > 8 && is(s.region, "eu") }},
		{"region IS NULL", nil, func(s sale) bool { return s.region == nil }},
		{"qty IS NULL OR qty = 0", nil, func(s sale) bool { return s.qty == nil || *s.qty == 0 }},
		{"region <> 'us'", nil, func(s sale) bool { return s.region != nil && *s.region != "us" }},
		{"qty BETWEEN 2 AND 4 AND product IN ('fig', 'kiwi')", nil, func(s sale) bool {
			return s.qty != nil && *s.qty >= 2 && *s.qty <= 4 && (s.product == "fig" || s.product == "kiwi")
		}},
		{"price > 7.5", nil, func(s sale) bool { return s.cents > 750 }},
		{"ts >= ? AND ts < ?", []any{t0, t1}, func(s sale) bool { return !s.ts.Before(t0) && s.ts.Before(t1) }},
		{"product LIKE 'p%' AND NOT (qty < 5)", nil, func(s sale) bool { return strings.HasPrefix(s.product, "p") && s.qty != nil && *s.qty >= 5 }},
	}
	for _, c := range cases {
		t.Run(c.where, func(t *testing.T) {
			var ids []string
			for _, s := range f.sales {
				if c.keep(s) {
					ids = append(ids, fmt.Sprint(s.id))
				}
			}
			got := f.query(t, "SELECT COUNT(*) FROM sales WHERE "+c.where, c.args...)
			if want := fmt.Sprint(len(ids)); got[0][0] != want {
				t.Errorf("COUNT(*) = %s, want %s", got[0][0], want)
			}
			rows := f.query(t, "SELECT id FROM sales WHERE "+c.where+" ORDER BY id", c.args...)
			if g, w := column(rows, 0), strings.Join(ids, ","); g != w {
				t.Errorf("ids = %.200s, want %.200s", g, w)
			}
		})
	}
	t.Run("changelog", func(t *testing.T) {
		n := 0
		for _, s := range f.sales {
			if s.qty != nil && *s.qty > 3 {
				n++
			}
		}
		got := f.query(t, "SELECT COUNT(*), MIN(_change_type), MAX(_change_type) FROM sales$changelog WHERE qty > 3")
		if want := []string{fmt.Sprint(n), "insert", "insert"}; strings.Join(got[0], " ") != strings.Join(want, " ") {
			t.Errorf("changelog = %v, want %v", got[0], want)
		}
	})
}

// column joins the values of column i of rows with commas.
func column(rows [][]string, i int) string {
	vals := make([]string, len(rows))
	for r, row := range rows {
		vals[r] = row[i]
	}
	return strings.Join(vals, ",")
}
