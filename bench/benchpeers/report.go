package main

import (
	"fmt"
	"runtime"
	"slices"
	"strings"

	"github.com/gofluss/fluss/bench/internal/workload"
)

// figures summarises one case over its rounds.
type figures struct {
	median, lo, hi float64 // rate
	p50, p99       float64 // medians over the rounds, ms; 0 without latencies
	rssKiB         int64   // largest over the rounds
	// serverNs is the median over the rounds of the servers' CPU time per
	// op (options.serverCPU), in ns, when serverOK.
	serverNs   float64
	serverOK   bool
	ok, failed int
}

func summarise(rs []run) figures {
	var f figures
	var rates, p50s, p99s, server []float64
	for _, r := range rs {
		f.rssKiB = max(f.rssKiB, r.rssKiB)
		if r.err != nil {
			f.failed++
			continue
		}
		f.ok++
		rates = append(rates, r.res.Rate())
		if r.serverCPUOK && r.res.Ops > 0 {
			server = append(server, float64(r.serverCPU.Nanoseconds())/float64(r.res.Ops))
		}
		if r.res.P50ms > 0 {
			p50s = append(p50s, r.res.P50ms)
			p99s = append(p99s, r.res.P99ms)
		}
	}
	if len(rates) > 0 {
		f.median, f.lo, f.hi = workload.Median(rates), slices.Min(rates), slices.Max(rates)
	}
	f.p50, f.p99 = workload.Median(p50s), workload.Median(p99s)
	f.serverNs, f.serverOK = workload.Median(server), len(server) > 0
	return f
}

// report renders the table: one line per case, our lines with their ratio
// to the best peer of their comparison group and to its server ceiling.
func report(cs []bcase, runs [][]run) string {
	fs := make([]figures, len(cs))
	bestPeer := map[string]float64{}
	ceiling := map[string]float64{}
	for i, c := range cs {
		fs[i] = summarise(runs[i])
		switch {
		case c.paired(), c.reference():
		case c.ceiling():
			ceiling[c.group] = fs[i].median
		case !c.ours():
			bestPeer[c.group] = max(bestPeer[c.group], fs[i].median)
		}
	}
	var b strings.Builder
	b.WriteString("| Workload | Client | median /s | min–max /s | p50 / p99 ms | ÷ best peer | ÷ ceiling | server CPU / op | peak RSS |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	for i, c := range cs {
		if c.paired() {
			continue
		}
		f := fs[i]
		rate, spread := "failed", ""
		if f.ok > 0 {
			rate, spread = humanCount(f.median), humanCount(f.lo)+"–"+humanCount(f.hi)
		}
		if f.failed > 0 && f.ok > 0 {
			rate += fmt.Sprintf(" (%d failed)", f.failed)
		}
		lat := ""
		if f.p50 > 0 {
			lat = fmt.Sprintf("%.3g / %.3g", f.p50, f.p99)
		}
		peer, ceil := "", ""
		if c.ours() && f.ok > 0 {
			peer = ratio(f.median, bestPeer[c.peers])
			ceil = ratio(f.median, ceiling[c.peers])
		}
		server := ""
		if f.serverOK {
			server = humanNs(f.serverNs)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %d MiB |\n", c.group, c.label, rate, spread, lat, peer, ceil, server, f.rssKiB>>10)
	}
	b.WriteString(pairedTable(cs, runs))
	return b.String()
}

// pairedTable renders the paired lookups (runPaired), timed in turns with
// native lookups in one process: at c=1 what database/sql and the driver
// add to a lookup, in µs, with the native lookups' p50; at concurrency
// each database/sql path's rate over the native one's. Each figure is the
// median over the rounds with its min–max. Empty without such cases.
func pairedTable(cs []bcase, runs [][]run) string {
	var added, rates strings.Builder
	for i, c := range cs {
		if !c.paired() {
			continue
		}
		b, unit, header := &added, "%.3g", "| Workload | Added to a native lookup by | median µs | min–max µs | native p50 ms |\n|---|---|---|---|---|\n"
		if c.conc > 1 {
			b, unit, header = &rates, "%.2f×", "| Workload | Lookups/s of | ÷ native, median | min–max | |\n|---|---|---|---|---|\n"
		}
		var viaSQL, prepared, p50 []float64
		for _, r := range runs[i] {
			switch {
			case r.err != nil:
			case c.conc > 1:
				viaSQL, prepared = append(viaSQL, r.res.RatioSQL), append(prepared, r.res.RatioPrepared)
			default:
				viaSQL, prepared, p50 = append(viaSQL, r.res.AddedSQLus), append(prepared, r.res.AddedPreparedus), append(p50, r.res.P50ms)
			}
		}
		if b.Len() == 0 {
			b.WriteString("\n" + header)
		}
		last := ""
		if len(p50) > 0 {
			last = fmt.Sprintf("%.3g", workload.Median(p50))
		}
		for _, a := range []struct {
			by string
			xs []float64
		}{{"db.QueryRow", viaSQL}, {"prepared stmt.QueryRow", prepared}} {
			if len(a.xs) == 0 {
				fmt.Fprintf(b, "| %s, in turns in one process | %s | failed |  |  |\n", c.group, a.by)
				continue
			}
			fmt.Fprintf(b, "| %s, in turns in one process | %s | "+unit+" | "+unit+"–"+unit+" | %s |\n", c.group, a.by, workload.Median(a.xs), slices.Min(a.xs), slices.Max(a.xs), last)
		}
	}
	return added.String() + rates.String()
}

func ratio(x, of float64) string {
	if of <= 0 {
		return ""
	}
	return fmt.Sprintf("%.2f×", x/of)
}

// humanNs writes a time in ns with the unit that fits: 850 ns, 12.3 µs,
// 1.5 ms.
func humanNs(ns float64) string {
	switch {
	case ns >= 1e6:
		return trimZeros(fmt.Sprintf("%.3g", ns/1e6)) + " ms"
	case ns >= 1e3:
		return trimZeros(fmt.Sprintf("%.3g", ns/1e3)) + " µs"
	}
	return trimZeros(fmt.Sprintf("%.3g", ns)) + " ns"
}

// humanCount writes 1234567 as 1.23M.
func humanCount(x float64) string {
	switch {
	case x >= 1e6:
		return trimZeros(fmt.Sprintf("%.3g", x/1e6)) + "M"
	case x >= 1e3:
		return trimZeros(fmt.Sprintf("%.3g", x/1e3)) + "k"
	}
	return fmt.Sprintf("%.3g", x)
}

func trimZeros(s string) string {
	if strings.Contains(s, ".") && !strings.ContainsAny(s, "e") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

func numCPU() int { return runtime.NumCPU() }

// ratioLines renders, for each of our cases in a comparison that has a
// target, its rate over the best peer's (the peer with the best median),
// round by round and as the median, and whether the case reaches its
// target. Empty without targets.
func ratioLines(cs []bcase, runs [][]run) string {
	targeted := map[string]bool{}
	best := map[string]int{}
	medians := make([]float64, len(cs))
	for i, c := range cs {
		medians[i] = summarise(runs[i]).median
		targeted[c.peers] = targeted[c.peers] || c.target > 0
		if j, ok := best[c.peers]; !c.ours() && !c.ceiling() && !c.reference() && (!ok || medians[i] > medians[j]) {
			best[c.peers] = i
		}
	}
	var b strings.Builder
	for i, c := range cs {
		j, ok := best[c.peers]
		if !c.ours() || !targeted[c.peers] || !ok {
			continue
		}
		var rounds []float64
		var shown []string
		for r := range min(len(runs[i]), len(runs[j])) {
			ours, peer := runs[i][r], runs[j][r]
			if ours.err != nil || peer.err != nil || peer.res.Rate() <= 0 {
				shown = append(shown, "failed")
				continue
			}
			x := ours.res.Rate() / peer.res.Rate()
			rounds = append(rounds, x)
			shown = append(shown, fmt.Sprintf("%.2f×", x))
		}
		if b.Len() == 0 {
			b.WriteString("\nRatios to the best peer, round by round:\n\n")
		}
		verdict := ""
		if c.target > 0 {
			verdict = fmt.Sprintf("; target ≥%.3g× in the median: ", c.target)
			got := workload.Median(rounds)
			if c.everyRound {
				verdict = fmt.Sprintf("; target ≥%.3g× in every round: ", c.target)
				got = 0
				if len(rounds) == len(runs[i]) && len(rounds) > 0 {
					got = slices.Min(rounds)
				}
			}
			if got >= c.target {
				verdict += "met"
			} else {
				verdict += "MISSED"
			}
		}
		fmt.Fprintf(&b, "ratio: %s: %s ÷ %s = %.2f× median (rounds %s)%s\n", c.group, c.label, cs[j].label, workload.Median(rounds), strings.Join(shown, ", "), verdict)
	}
	return b.String()
}
