// Command ours runs one workload of bench/benchpeers with this repository's
// client and prints its result line:
//
//	ours CLIENT MODE BOOTSTRAP DB TABLE ROWS CONCURRENCY SECONDS
//
// It is a binary of its own so that the peak RSS it reports is that of a
// program linking the client alone, not the benchmark's orchestrator with
// its Flight SQL servers and request replayer.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/gofluss/fluss/bench/internal/workload"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := workload.RunChild(ctx, os.Args[1:], workload.Run); err != nil {
		fmt.Fprintln(os.Stderr, "ours:", err)
		os.Exit(1)
	}
}
