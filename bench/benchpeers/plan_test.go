package main

import (
	"slices"
	"strings"
	"testing"
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
// with the peers, and is no peer of our other lines.
func TestReportRatios(t *testing.T) {
	cs := []bcase{
		{group: "g", peers: "g", mode: "scan-arrow", lang: langGo, client: "native", label: "native"},
		{group: "g", peers: "g", mode: "scan-arrow", lang: langPython, label: "pyfluss"},
		{group: "g", peers: "g", mode: "scan-adbc", lang: langPython, label: "adbc"},
		{group: "g", peers: "g", mode: "scan-adbc-decoded", lang: langPython, label: "decoded"},
	}
	rate := func(r float64) []run { return []run{{res: result{Ops: int64(r), Seconds: 1}}} }
	tbl := report(cs, [][]run{rate(300), rate(200), rate(100), rate(250)})
	for _, want := range []string{"| native | 300 | 300–300 |  | 1.50× |", "| adbc | 100 | 100–100 |  | 0.50× |", "| decoded | 250 | 250–250 |  | 1.25× |"} {
		if !strings.Contains(tbl, want) {
			t.Errorf("report lacks %q:\n%s", want, tbl)
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
