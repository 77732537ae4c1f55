// Command fluss-cluster starts, stops and inspects the local Apache Fluss
// cluster used by `make demo` and `make test`.
//
//	fluss-cluster up             start the cluster (on the data of its last run, if any) or
//	                             reuse the running one, and keep it running; last line FLUSS_BOOTSTRAP=...
//	fluss-cluster run -- CMD...  run CMD with the cluster up; stop the cluster afterwards only if
//	                             it was started for a run, never remove data; exit with CMD's status
//	fluss-cluster stop           stop the cluster's processes, keep its data
//	fluss-cluster down           stop the cluster's processes and remove its directory, data and all
//	fluss-cluster status         show each server and whether the cluster is ready
//
// Settings come from the environment: FLUSS_PORT, FLUSS_TABLETS, FLUSS_SASL,
// FLUSS_VERSION, FLUSS_CLUSTER_DIR, FLUSS_JAR_CACHE, JAVA_HOME.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"

	"github.com/gofluss/fluss/internal/cluster"
)

const usage = "usage: fluss-cluster up|stop|down|status, or fluss-cluster run -- command [argument...]"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run carries out one command line and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || len(args) > 1 && args[0] != "run" {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	cfg, err := cluster.FromEnv()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	switch args[0] {
	case "up":
		err = cluster.Keep(ctx, cfg, stdout)
	case "run":
		if len(args) < 3 || args[1] != "--" {
			fmt.Fprintln(stderr, usage)
			return 2
		}
		cmd := exec.Command(args[2], args[3:]...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
		// The cluster's messages go to stderr: stdout is the command's.
		err = cluster.Run(ctx, cfg, stderr, cmd)
		var exit *exec.ExitError
		if errors.As(err, &exit) && exit.ExitCode() > 0 {
			if err != error(exit) {
				fmt.Fprintln(stderr, "fluss-cluster:", err)
			}
			return exit.ExitCode() // the command itself said why it failed
		}
	case "stop":
		err = cluster.Stop(cfg, stdout)
	case "down":
		err = cluster.Down(cfg, stdout)
	case "status":
		err = cluster.Status(ctx, cfg, stdout)
	default:
		fmt.Fprintf(stderr, "fluss-cluster: unknown command %q\n%s\n", args[0], usage)
		return 2
	}
	if err != nil {
		fmt.Fprintln(stderr, "fluss-cluster:", err)
		return 1
	}
	return 0
}
