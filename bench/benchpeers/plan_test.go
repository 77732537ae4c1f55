package main

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gofluss/fluss/bench/internal/workload"
)

func TestRoundOrder(t *testing.T) {
	cs := []bcase{
		{peers: "a"}, {peers: "a"}, {peers: "a"},
		{peers: "b"},
		{peers: "c"}, {peers: "c"},
	}
	for _, tc := range []struct {
		round int
		want  []int
	}{
		{1, []int{0, 1, 2, 3, 4, 5}},
		{2, []int{1, 2, 0, 3, 5, 4}},
		{3, []int{2, 0, 1, 3, 4, 5}},
		{4, []int{0, 1, 2, 3, 5, 4}},
	} {
		if got := roundOrder(cs, tc.round); !slices.Equal(got, tc.want) {
			t.Errorf("round %d: order %v, want %v", tc.round, got, tc.want)
		}
	}
}

// TestReportRatios: the ADBC scan through our server is ours, compared
// with the peers, and is no peer of our other lines; ADBC reading from
// memory is neither, only shown.
func TestReportRatios(t *testing.T) {
	cs := []bcase{
		{group: "g", peers: "g", mode: "scan-arrow", lang: langGo, client: "native", label: "native"},
		{group: "g", peers: "g", mode: "scan-arrow", lang: langPython, label: "pyfluss"},
		{group: "g", peers: "g", mode: "scan-adbc", lang: langPython, label: "adbc"},
		{group: "g", peers: "g", mode: "scan-adbc-decoded", lang: langPython, label: "decoded"},
		{group: "g", peers: "g", mode: "scan-adbc-memory", lang: langPython, label: "memory"},
	}
	rate := func(r float64) []run { return []run{{res: workload.Result{Ops: int64(r), Seconds: 1}}} }
	tbl := report(cs, [][]run{rate(300), rate(200), rate(100), rate(250), rate(900)})
	for _, want := range []string{"| native | 300 | 300–300 |  | 1.50× |", "| adbc | 100 | 100–100 |  | 0.50× |", "| decoded | 250 | 250–250 |  | 1.25× |", "| memory | 900 | 900–900 |  |  |  |"} {
		if !strings.Contains(tbl, want) {
			t.Errorf("report lacks %q:\n%s", want, tbl)
		}
	}
}

// TestReportPaired: the lookups timed in turns get a table of their own,
// with the time each database/sql path added, and are neither a line nor a
// peer of the main table.
func TestReportPaired(t *testing.T) {
	cs := []bcase{
		{group: "lookup c=1", peers: "lookup c=1", mode: "lookup", lang: langGo, client: "native", label: "native"},
		{group: "lookup c=1", peers: "lookup c=1", mode: "lookup", lang: langJava, label: "java"},
		{group: "lookup c=1", peers: "lookup c=1", mode: "lookup", lang: langGo, client: "paired", label: "in turns"},
	}
	pairedRuns := []run{
		{res: workload.Result{Ops: 9000, Seconds: 1, P50ms: 0.2, AddedSQLus: 5, AddedPreparedus: 7}},
		{res: workload.Result{Ops: 9000, Seconds: 1, P50ms: 0.3, AddedSQLus: 3, AddedPreparedus: 9}},
		{err: errors.New("lost")},
	}
	tbl := report(cs, [][]run{{{res: workload.Result{Ops: 100, Seconds: 1}}}, {{res: workload.Result{Ops: 50, Seconds: 1}}}, pairedRuns})
	for _, want := range []string{
		"| native | 100 | 100–100 |  | 2.00× |",
		"| lookup c=1, in turns in one process | db.QueryRow | 4 | 3–5 | 0.25 |",
		"| lookup c=1, in turns in one process | prepared stmt.QueryRow | 8 | 7–9 | 0.25 |",
	} {
		if !strings.Contains(tbl, want) {
			t.Errorf("report lacks %q:\n%s", want, tbl)
		}
	}
	if strings.Contains(tbl, "| in turns |") {
		t.Errorf("the paired case is a line of the main table:\n%s", tbl)
	}
}

// TestReportPairedRates: at concurrency the lookups in turns report each
// database/sql path's rate over the native one, in a table after the c=1
// one.
func TestReportPairedRates(t *testing.T) {
	cs := []bcase{
		{group: "lookup c=64", peers: "lookup c=64", mode: "lookup", lang: langGo, client: "paired", label: "in turns", conc: 64},
		{group: "lookup c=1", peers: "lookup c=1", mode: "lookup", lang: langGo, client: "paired", label: "in turns", conc: 1},
	}
	rates := []run{
		{res: workload.Result{Ops: 9000, Seconds: 15, RatioSQL: 0.9, RatioPrepared: 0.8}},
		{res: workload.Result{Ops: 9000, Seconds: 15, RatioSQL: 0.86, RatioPrepared: 0.84}},
		{res: workload.Result{Ops: 9000, Seconds: 15, RatioSQL: 0.88, RatioPrepared: 0.7}},
	}
	added := []run{{res: workload.Result{Ops: 9000, Seconds: 5, P50ms: 0.2, AddedSQLus: 5, AddedPreparedus: 7}}}
	tbl := report(cs, [][]run{rates, added})
	for _, want := range []string{
		"| lookup c=64, in turns in one process | db.QueryRow | 0.88× | 0.86×–0.90× |  |",
		"| lookup c=64, in turns in one process | prepared stmt.QueryRow | 0.80× | 0.70×–0.84× |  |",
		"| lookup c=1, in turns in one process | db.QueryRow | 5 | 5–5 | 0.2 |",
	} {
		if !strings.Contains(tbl, want) {
			t.Errorf("report lacks %q:\n%s", want, tbl)
		}
	}
	if strings.Index(tbl, "Added to a native lookup") > strings.Index(tbl, "÷ native, median") {
		t.Errorf("the c=1 table should come first:\n%s", tbl)
	}
}

// TestReportServerCPU: the servers' CPU per op is the median over the
// rounds that measured it, and blank when none did.
func TestReportServerCPU(t *testing.T) {
	cs := []bcase{
		{group: "g", peers: "g", mode: "lookup", lang: langGo, client: "native", label: "measured"},
		{group: "g", peers: "g", mode: "lookup", lang: langJava, label: "unknown"},
	}
	measured := []run{
		{res: workload.Result{Ops: 1000, Seconds: 1}, serverCPU: 3 * time.Millisecond, serverCPUOK: true},
		{res: workload.Result{Ops: 1000, Seconds: 1}, serverCPU: 5 * time.Millisecond, serverCPUOK: true},
		{res: workload.Result{Ops: 1000, Seconds: 1}}, // /proc could not tell
	}
	tbl := report(cs, [][]run{measured, {{res: workload.Result{Ops: 10, Seconds: 1}}}})
	for _, want := range []string{"| measured | 1k | 1k–1k |  | 100.00× |  | 4 µs | 0 MiB |", "| unknown | 10 | 10–10 |  |  |  |  | 0 MiB |"} {
		if !strings.Contains(tbl, want) {
			t.Errorf("report lacks %q:\n%s", want, tbl)
		}
	}
	for ns, want := range map[float64]string{0: "0 ns", 850: "850 ns", 12_340: "12.3 µs", 1_500_000: "1.5 ms"} {
		if got := humanNs(ns); got != want {
			t.Errorf("humanNs(%v) = %q, want %q", ns, got, want)
		}
	}
}

func TestParseCPUTimes(t *testing.T) {
	for _, tc := range []struct {
		stat   string
		want   cpuTimes
		wantOK bool
	}{
		{"cpu  10 1 5 100 2 0 1 7 3 0\ncpu0 5 0 2 50 1 0 0 3 0 0\n", cpuTimes{total: 126, steal: 7}, true},
		{"cpu  10 1 5 100 2 0 1 7\n", cpuTimes{total: 126, steal: 7}, true},
		{"cpu  10 1 5 100 2 0 1\n", cpuTimes{}, false}, // no steal column
		{"cpu0 10 1 5 100 2 0 1 7\n", cpuTimes{}, false},
		{"cpu  10 x 5 100 2 0 1 7\n", cpuTimes{}, false},
		{"", cpuTimes{}, false},
	} {
		if got, ok := parseCPUTimes(tc.stat); got != tc.want || ok != tc.wantOK {
			t.Errorf("parseCPUTimes(%q) = %+v, %v; want %+v, %v", tc.stat, got, ok, tc.want, tc.wantOK)
		}
	}
}
