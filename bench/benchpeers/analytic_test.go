package main

import (
	"strings"
	"testing"

	"github.com/gofluss/fluss/bench/internal/workload"
)

// rounds makes one run per rate, each of one second.
func rounds(rates ...float64) []run {
	var rs []run
	for _, r := range rates {
		rs = append(rs, run{res: workload.Result{Ops: int64(r), Seconds: 1}})
	}
	return rs
}

// TestRatioLines: our lines of a comparison with a target get their
// ratio to the best peer round by round, met or missed by the median or
// by every round; ADBC through our server counts as ours, and lines of
// comparisons without a target get none.
func TestRatioLines(t *testing.T) {
	cs := []bcase{
		{group: "q", peers: "q", mode: "query", lang: langGo, client: "engine", label: "sql", target: 1.5},
		{group: "q", peers: "q", mode: "query-adbc", lang: langPython, label: "adbc", target: 1.5},
		{group: "q", peers: "q", mode: "query-duckdb", lang: langPython, label: "duckdb"},
		{group: "s", peers: "s", mode: "scan-arrow", lang: langGo, client: "native", label: "ours", target: 1.2, everyRound: true},
		{group: "s", peers: "s", mode: "scan-arrow", lang: langPython, label: "pyfluss"},
		{group: "u", peers: "u", mode: "append", lang: langGo, client: "native", label: "untargeted"},
		{group: "u", peers: "u", mode: "append", lang: langPython, label: "peer"},
	}
	got := ratioLines(cs, [][]run{
		rounds(200, 300, 200), rounds(100, 120, 130), rounds(100, 100, 100),
		rounds(130, 110, 150), rounds(100, 100, 100),
		rounds(1), rounds(1),
	})
	for _, want := range []string{
		"ratio: q: sql ÷ duckdb = 2.00× median (rounds 2.00×, 3.00×, 2.00×); target ≥1.5× in the median: met",
		"ratio: q: adbc ÷ duckdb = 1.20× median (rounds 1.00×, 1.20×, 1.30×); target ≥1.5× in the median: MISSED",
		"ratio: s: ours ÷ pyfluss = 1.30× median (rounds 1.30×, 1.10×, 1.50×); target ≥1.2× in every round: MISSED",
	} {
		if !strings.Contains(got, want+"\n") {
			t.Errorf("ratio lines lack %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "untargeted") {
		t.Errorf("a comparison without a target got a ratio line:\n%s", got)
	}
	if got := ratioLines(cs[5:], [][]run{rounds(1), rounds(1)}); got != "" {
		t.Errorf("no targets, yet %q", got)
	}
}

func TestSameAnswer(t *testing.T) {
	q := bcase{peers: "q", query: "group-by"}
	answers := map[string]string{}
	for _, tc := range []struct {
		bc      bcase
		check   string
		wantErr string
	}{
		{q, "3 rows, integers sum to 9", ""},
		{q, "3 rows, integers sum to 9", ""},
		{q, "3 rows, integers sum to 8", "another client 3 rows, integers sum to 9"},
		{q, "", "no digest"},
		{bcase{peers: "scan"}, "", ""}, // not a query: nothing to compare
	} {
		err := sameAnswer(answers, tc.bc, run{res: workload.Result{Ops: 1, Check: tc.check}})
		if (err == nil) != (tc.wantErr == "") || err != nil && !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("answer %q: error %v, want %q", tc.check, err, tc.wantErr)
		}
	}
}

// TestAnalyticCases: each query comparison has our two lines with its
// target and the pyfluss peer, the join also ours with both tables read
// whole; our engine lines are left out without the analytics binary.
func TestAnalyticCases(t *testing.T) {
	o := options{rows: 1_000_000, largeRows: 10_000_000, analytics: "a", python: "p", ours: "o"}
	var labels []string
	for _, c := range analyticCases(o) {
		labels = append(labels, c.group+" / "+c.mode+" / "+c.query+" / "+c.data)
	}
	got := strings.Join(labels, "\n")
	for _, want := range []string{
		"GROUP BY over 1M rows (SUM, COUNT, 1000 groups) / query / group-by / events",
		"filter + aggregate over 1M rows / query-duckdb / filter-aggregate / events",
		"join 1M log rows with 100k primary keys / query / scan-join / events+dims",
		"join 1M log rows with 100k primary keys / query-adbc / lookup-join / events+dims",
		"join 1M log rows with 100k primary keys, WHERE keeps 0.1% of the log / query / scan-join-selective / events+dims",
		"bounded scan 10M rows to Arrow (kept table) / scan-arrow /  / large",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("cases lack %q:\n%s", want, got)
		}
	}
	o.analytics, o.only = "", "GROUP BY"
	for _, c := range cases(o) {
		if c.engine() {
			t.Errorf("without -analytics, case %q / %q is kept", c.group, c.label)
		}
	}
}
