// Command fluss-cluster starts, stops and inspects the local Apache Fluss
// cluster used by `make demo` and `make test`.
//
//	fluss-cluster up       start (or reuse) the cluster; last line FLUSS_BOOTSTRAP=...
//	fluss-cluster down     stop exactly the processes it started and remove the data
//	fluss-cluster status   show each server and whether the cluster is ready
//
// Settings come from the environment: FLUSS_PORT, FLUSS_TABLETS, FLUSS_SASL,
// FLUSS_VERSION, FLUSS_CLUSTER_DIR, FLUSS_JAR_CACHE, JAVA_HOME.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/gofluss/fluss/internal/cluster"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: fluss-cluster up|down|status")
		os.Exit(2)
	}
	cfg, err := cluster.FromEnv()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	switch os.Args[1] {
	case "up":
		err = cluster.Up(ctx, cfg, os.Stdout)
	case "down":
		err = cluster.Down(cfg)
		if err == nil {
			fmt.Println("stopped; removed", cfg.Dir)
		}
	case "status":
		err = cluster.Status(ctx, cfg, os.Stdout)
	default:
		err = fmt.Errorf("unknown command %q (want up, down or status)", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fluss-cluster:", err)
		os.Exit(1)
	}
}
