//go:build duckdb_arrow

package analytics_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gofluss/fluss/internal/clustertest"
	"github.com/gofluss/fluss/internal/flighttest"
	"github.com/gofluss/fluss/internal/peertest"
	"github.com/gofluss/fluss/internal/testkit"
)

// frontDoorCase is a query only the engine serves, with its rows computed
// from the generator (as text, NULL for SQL NULL, in any order).
type frontDoorCase struct {
	query string
	want  [][]string
}

// frontDoorCases are the queries a BI tool sends through the Flight SQL
// server: grouped aggregates, filters on any column, HAVING, a lookup
// join, time bucketing, distinct counts, expressions, a probe.
func frontDoorCases(f *fixture) []frontDoorCase {
	type agg struct{ n, qty int }
	byRegion := map[string]*agg{}
	byDay := map[string]int{}
	byCategory := map[string]int{}
	type price struct{ n, cents int }
	byProduct := map[string]*price{}
	distinct := map[string]bool{}
	euOver5 := 0
	var exprs [][]string
	for _, s := range f.sales {
		region := "NULL"
		if s.region != nil {
			region = *s.region
		}
		a := byRegion[region]
		if a == nil {
			a = &agg{}
			byRegion[region] = a
		}
		a.n++
		if s.qty != nil {
			a.qty += int(*s.qty)
			if *s.qty > 5 && region == "eu" {
				euOver5++
			}
			if c, ok := category[s.product]; ok {
				byCategory[c] += int(*s.qty)
			}
		}
		byDay[s.ts.Format("2006-01-02")]++
		p := byProduct[s.product]
		if p == nil {
			p = &price{}
			byProduct[s.product] = p
		}
		p.n++
		p.cents += int(s.cents)
		distinct[s.product] = true
		if s.id < 20 {
			q, up := "NULL", "NULL"
			if s.qty != nil {
				q = fmt.Sprint(*s.qty*2 + 1)
			}
			if s.region != nil {
				up = strings.ToUpper(*s.region)
			}
			exprs = append(exprs, []string{fmt.Sprint(s.id), q, up})
		}
	}
	var regions, days, categories, products [][]string
	for r, a := range byRegion {
		regions = append(regions, []string{r, fmt.Sprint(a.n), fmt.Sprint(a.qty)})
	}
	for d, n := range byDay {
		days = append(days, []string{d, fmt.Sprint(n)})
	}
	for c, q := range byCategory {
		categories = append(categories, []string{c, fmt.Sprint(q)})
	}
	for p, a := range byProduct {
		if a.cents > 550*a.n { // AVG(price) > 5.5
			products = append(products, []string{p, fmt.Sprint(a.n)})
		}
	}
	// Grafana's Flight SQL data source: $__timeFilter(ts) is a range of
	// RFC 3339 texts, $__dateBin(ts) a date_bin from the epoch, and its
	// SQL macros' $__timeGroup(ts, '1h') datepart calls.
	const timeFilter = "ts >= '2026-03-01T01:00:00Z' AND ts <= '2026-03-01T05:00:00Z'"
	from, to := time.Date(2026, 3, 1, 1, 0, 0, 0, time.UTC), time.Date(2026, 3, 1, 5, 0, 0, 0, time.UTC)
	hourly := map[string]int{}
	for _, s := range f.sales {
		if !s.ts.Before(from) && !s.ts.After(to) {
			hourly[s.ts.Truncate(time.Hour).Format("2006-01-02 15")]++
		}
	}
	var bins, hours [][]string
	for h, n := range hourly {
		bins = append(bins, []string{h + ":00", fmt.Sprint(n)})
		hours = append(hours, []string{strings.TrimPrefix(strings.Fields(h)[1], "0"), fmt.Sprint(n)})
	}
	return []frontDoorCase{
		{"SELECT 1", [][]string{{"1"}}},
		{"SELECT DATE_FORMAT(date_bin(interval '3600 second', ts, timestamp '1970-01-01T00:00:00Z'), 'yyyy-MM-dd HH:mm') AS ts_binned, COUNT(*) FROM sales WHERE " +
			timeFilter + " GROUP BY date_bin(interval '3600 second', ts, timestamp '1970-01-01T00:00:00Z') ORDER BY 1", bins},
		{"SELECT datepart('hour', ts) AS h, COUNT(*) FROM sales WHERE " + timeFilter + " GROUP BY datepart('hour', ts) ORDER BY h LIMIT 100", hours},
		{"SELECT region, COUNT(*), SUM(qty) FROM sales GROUP BY region", regions},
		{"SELECT COUNT(*) FROM sales WHERE qty > 5 AND region = 'eu'", [][]string{{fmt.Sprint(euOver5)}}},
		{"SELECT product, COUNT(*) FROM sales GROUP BY product HAVING AVG(price) > 5.5", products},
		{"SELECT p.category, SUM(s.qty) FROM sales s JOIN products p ON s.product = p.product GROUP BY p.category", categories},
		{"SELECT CAST(ts AS DATE), COUNT(*) FROM sales GROUP BY CAST(ts AS DATE)", days},
		{"SELECT COUNT(DISTINCT product) FROM sales", [][]string{{fmt.Sprint(len(distinct))}}},
		{"SELECT id, qty * 2 + 1, UPPER(region) FROM sales WHERE id < 20", exprs},
	}
}

// sameRows compares rows in any order.
func sameRows(got, want [][]string) bool {
	key := func(rows [][]string) []string {
		out := make([]string, len(rows))
		for i, r := range rows {
			out[i] = strings.Join(r, "|")
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(key(got), key(want))
}

// TestFlightSQLAnalytics runs the engine's queries through the Flight SQL
// server with two clients nobody here wrote: Python's ADBC driver and the
// Flight SQL JDBC driver.
func TestFlightSQLAnalytics(t *testing.T) {
	f := newFixture(t, 2000)
	cases := frontDoorCases(f)
	addr, _ := flighttest.Start(t, f.name, nil)
	ctx := testkit.Context(t)
	queries := make([]string, len(cases))
	for i, c := range cases {
		queries[i] = c.query
	}

	t.Run("ADBC", func(t *testing.T) {
		in, err := json.Marshal(queries)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.CommandContext(ctx, peertest.Python(t), peertest.Script("adbc", "query.py"),
			"grpc://"+addr, clustertest.SASLUser, clustertest.SASLPassword, f.name)
		cmd.Stdin = bytes.NewReader(in)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("query.py: %v\n%s", err, stderr.String())
		}
		var results []struct {
			Error   string
			Columns []string
			Types   []string
			Rows    [][]*string
		}
		if err := json.Unmarshal(out, &results); err != nil || len(results) != len(cases) {
			t.Fatalf("query.py printed %d results (%v):\n%s", len(results), err, out)
		}
		for i, c := range cases {
			r := results[i]
			var got [][]string
			for _, row := range r.Rows {
				vals := make([]string, len(row))
				for j, v := range row {
					vals[j] = "NULL"
					if v != nil {
						vals[j] = *v
					}
				}
				got = append(got, vals)
			}
			if r.Error != "" || !sameRows(got, c.want) {
				t.Errorf("%s: error %q, got %v, want %v", c.query, r.Error, got, c.want)
			}
		}
		// The engine's results keep Flink's types over Arrow.
		if got := strings.Join(results[3].Types, ","); got != "string,int64,int64" {
			t.Errorf("GROUP BY region types = %s, want string,int64,int64 (STRING, BIGINT, BIGINT)", got)
		}
		if got := strings.Join(results[7].Types, ","); got != "date32[day],int64" {
			t.Errorf("GROUP BY CAST(ts AS DATE) types = %s, want date32[day],int64", got)
		}
	})

	t.Run("JDBC", func(t *testing.T) {
		cmd := flighttest.JDBC(t, ctx, "Query", addr, clustertest.SASLUser, clustertest.SASLPassword, f.name)
		cmd.Stdin = strings.NewReader(strings.Join(queries, "\n") + "\n")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("JDBC Query: %v\n%s%s", err, out, stderr.String())
		}
		blocks := strings.Split(string(out), "query ")[1:]
		if len(blocks) != len(cases) {
			t.Fatalf("JDBC ran %d of %d queries:\n%s", len(blocks), len(cases), out)
		}
		for i, c := range cases {
			var got [][]string
			for _, line := range strings.Split(blocks[i], "\n")[1:] {
				if v, ok := strings.CutPrefix(line, "row "); ok {
					got = append(got, strings.Split(v, "|"))
				} else if e, ok := strings.CutPrefix(line, "error "); ok {
					t.Errorf("%s: %s", c.query, e)
				}
			}
			if !sameRows(got, c.want) {
				t.Errorf("%s: got %v, want %v", c.query, got, c.want)
			}
		}
	})

	t.Run("JDBCMetadata", func(t *testing.T) {
		cmd := flighttest.JDBC(t, ctx, "Query", addr, clustertest.SASLUser, clustertest.SASLPassword, f.name)
		cmd.Stdin = strings.NewReader("\\meta\n")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("JDBC Query: %v\n%s%s", err, out, stderr.String())
		}
		meta := map[string]string{}
		// A line holds flags, "k=v k=v", or one function list, "k=F, G".
		for _, line := range strings.Split(string(out), "\n") {
			line = strings.TrimPrefix(line, "meta ")
			if k, v, ok := strings.Cut(line, "="); ok && strings.Contains(v, ",") {
				meta[k] = v
				continue
			}
			for _, kv := range strings.Fields(line) {
				if k, v, ok := strings.Cut(kv, "="); ok {
					meta[k] = v
				}
			}
		}
		// What DatabaseMetaData read from SqlInfo is what the engine runs.
		for k, want := range map[string]string{
			"groupBy": "true", "groupByUnrelated": "true", "correlated": "true", "inSubqueries": "true",
			"outerJoins": "true", "fullOuterJoins": "false", "unionAll": "true", "likeEscape": "true",
		} {
			if meta[k] != want {
				t.Errorf("DatabaseMetaData %s = %q, want %s\n%s", k, meta[k], want, out)
			}
		}
		for k, fns := range map[string][]string{
			"numeric": {"ABS", "ROUND", "POWER"}, "string": {"UPPER", "CONCAT", "REGEXP_EXTRACT"},
			"datetime": {"DATE_FORMAT", "DATE_BIN", "CURRENT_TIMESTAMP"}, "system": {"COALESCE", "DATABASE"},
		} {
			list := strings.Split(meta[k], ",")
			for i := range list {
				list[i] = strings.TrimSpace(list[i])
			}
			for _, fn := range fns {
				if !slices.Contains(list, fn) {
					t.Errorf("DatabaseMetaData %s functions %q lack %s", k, meta[k], fn)
				}
			}
		}
	})
}
