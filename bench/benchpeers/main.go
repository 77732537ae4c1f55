// Command benchpeers measures this repository's client against the Fluss
// Java client and pyfluss on the same local cluster, and against the
// server ceiling (pre-encoded requests replayed on raw connections), and
// prints one table of the results. `make bench-peers` builds the peers and
// runs it; see the README's Performance section.
//
//	go build -o /tmp/ours ./bench/ours
//	go run ./bench/benchpeers -ours /tmp/ours -rows 1000000 -rounds 3 -java CLASSPATH -python PYTHON
//
// Every workload runs in a process of its own, so that each reports its
// own peak RSS, on tables made fresh for each round; the rounds interleave
// the clients (round 1 runs every client once, then round 2, ...), so that
// a drift of the machine's load touches all of them alike, and rotate the
// clients of each comparison (roundOrder). Our client's workloads run in
// the bench/ours binary, given by -ours, which links only the client, as
// an application would; the server ceiling runs in this binary:
//
//	ours CLIENT MODE BOOTSTRAP DB TABLE ROWS CONCURRENCY SECONDS
//	analytics engine QUERY BOOTSTRAP DB TABLES ROWS CONCURRENCY SECONDS
//	analytics serve BOOTSTRAP DB
//	benchpeers ceiling ceiling MODE BOOTSTRAP DB TABLE ROWS CONCURRENCY SECONDS
//
// Each prints one JSON result line, as bench/java and bench/pyfluss_bench.py
// do for the same arguments (without CLIENT). The analytic workloads
// (analyticCases) run in bench/analytics, a module of its own that links
// the DuckDB engine, which this module may not; its serve mode is the
// Flight SQL server with the engine. They, and the large scan, read
// tables kept across runs in the database benchpeers_data (openDataset),
// not the round's.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/gofluss/fluss/bench/internal/workload"
	"github.com/gofluss/fluss/internal/cluster"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if len(os.Args) > 1 && os.Args[1] == "ceiling" {
		if err := workload.RunChild(ctx, os.Args[2:], runCeiling); err != nil {
			fmt.Fprintln(os.Stderr, "benchpeers ceiling:", err)
			os.Exit(1)
		}
		return
	}
	var o options
	flag.IntVar(&o.rows, "rows", 1_000_000, "rows per write and scan workload, keys of the lookup table, and events of the analytic workloads (a tenth as many keys to join with)")
	flag.IntVar(&o.largeRows, "large-rows", 10_000_000, "rows of the large scan")
	flag.IntVar(&o.rounds, "rounds", 3, "interleaved rounds")
	flag.DurationVar(&o.lookupTime, "lookup-time", 5*time.Second, "duration of each lookup run")
	flag.StringVar(&o.ours, "ours", "", "the bench/ours binary, which runs our client's workloads (make bench-peers builds it)")
	flag.StringVar(&o.analytics, "analytics", "", "the bench/analytics binary, which runs our analytic workloads with the engine and serves Flight SQL with it; empty skips them")
	flag.StringVar(&o.javaCP, "java", "", "classpath of the Java peer (bench/java); empty skips it")
	flag.StringVar(&o.python, "python", "", "Python with pyfluss; empty skips it")
	flag.StringVar(&o.out, "out", "bench/results", "directory for the result table")
	flag.StringVar(&o.only, "only", "", "run only the workloads whose group matches this regular expression")
	flag.Parse()
	bootstrap := os.Getenv("FLUSS_BOOTSTRAP")
	if bootstrap == "" {
		cfg, err := cluster.FromEnv()
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchpeers:", err)
			os.Exit(2)
		}
		bootstrap = cfg.Bootstrap()
		o.cluster = &cfg
	}
	o.bootstrap = bootstrap
	if err := orchestrate(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "benchpeers:", err)
		os.Exit(1)
	}
}
