// Command benchpeers measures this repository's client against the Fluss
// Java client and pyfluss on the same local cluster, and against the
// server ceiling (pre-encoded requests replayed on raw connections), and
// prints one table of the results. `make bench-peers` builds the peers and
// runs it; see the README's Performance section.
//
//	go run ./bench/benchpeers -rows 1000000 -rounds 3 -java CLASSPATH -python PYTHON
//
// Every workload runs in a process of its own, so that each reports its
// own peak RSS, on tables made fresh for each round; the rounds interleave
// the clients (round 1 runs every client once, then round 2, ...), so that
// a drift of the machine's load touches all of them alike, and rotate the
// clients of each comparison (roundOrder). The same binary
// is its Go workload process:
//
//	benchpeers child CLIENT MODE BOOTSTRAP DB TABLE ROWS CONCURRENCY SECONDS
//
// which prints one JSON result line, as bench/java and bench/pyfluss_bench.py
// do for the same arguments (without CLIENT).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"time"

	"github.com/gofluss/fluss/internal/cluster"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if len(os.Args) > 1 && os.Args[1] == "child" {
		if err := child(ctx, os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "benchpeers child:", err)
			os.Exit(1)
		}
		return
	}
	var o options
	flag.IntVar(&o.rows, "rows", 1_000_000, "rows per write and scan workload, and keys of the lookup table")
	flag.IntVar(&o.rounds, "rounds", 3, "interleaved rounds")
	flag.DurationVar(&o.lookupTime, "lookup-time", 5*time.Second, "duration of each lookup run")
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

// child runs one Go workload: CLIENT MODE BOOTSTRAP DB TABLE ROWS CONC SECONDS.
func child(ctx context.Context, args []string) error {
	if len(args) != 8 {
		return fmt.Errorf("want CLIENT MODE BOOTSTRAP DB TABLE ROWS CONCURRENCY SECONDS, got %q", args)
	}
	rows, err1 := strconv.Atoi(args[5])
	conc, err2 := strconv.Atoi(args[6])
	secs, err3 := strconv.ParseFloat(args[7], 64)
	if err1 != nil || err2 != nil || err3 != nil || rows <= 0 || conc <= 0 {
		return fmt.Errorf("bad ROWS, CONCURRENCY or SECONDS in %q", args)
	}
	j := job{Client: args[0], Mode: args[1], Bootstrap: args[2], DB: args[3], Table: args[4], Rows: rows, Conc: conc, Duration: time.Duration(secs * float64(time.Second))}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Minute)
	defer cancel()
	res, err := runOurs(ctx, j)
	if err != nil {
		return err
	}
	return res.print(os.Stdout)
}
