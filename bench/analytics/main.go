// Command analytics runs the analytic workloads of bench/benchpeers with
// this repository's driver and the embedded DuckDB engine (module
// analytics) linked in, as an application that imports
// github.com/gofluss/fluss/analytics would:
//
//	analytics engine QUERY BOOTSTRAP DB TABLES ROWS CONCURRENCY SECONDS
//	analytics serve BOOTSTRAP DB
//
// The first runs the named query (workload.Query) once through
// database/sql over TABLES (the events table, and for a join the key
// table after a comma), after checking that EXPLAIN plans it as a lookup
// join exactly when the query is meant to be one, and prints its result
// line with a digest of the answer; ROWS is the events table's row count.
// The second serves Flight SQL with the engine on a free loopback port,
// prints "listening on ADDR" and runs until interrupted.
//
// It is a module of its own, so that the driver module and bench/ours,
// which links the client alone, stay free of DuckDB and cgo. Build it
// with -tags duckdb_arrow.
package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/gofluss/fluss"
	_ "github.com/gofluss/fluss/analytics"
	"github.com/gofluss/fluss/bench/internal/flightserve"
	"github.com/gofluss/fluss/bench/internal/workload"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var err error
	if len(os.Args) == 4 && os.Args[1] == "serve" {
		err = serve(ctx, os.Args[2], os.Args[3])
	} else {
		err = workload.RunChild(ctx, os.Args[1:], runQuery)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "analytics:", err)
		os.Exit(1)
	}
}

func serve(ctx context.Context, bootstrap, db string) error {
	uri, stop, err := flightserve.Start(bootstrap, db)
	if err != nil {
		return err
	}
	defer stop()
	fmt.Println("listening on", strings.TrimPrefix(uri, "grpc://"))
	<-ctx.Done()
	return nil
}

// runQuery runs j's query (j.Mode names it) through database/sql and
// times it from the QueryContext to the last row read.
func runQuery(ctx context.Context, j workload.Job) (workload.Result, error) {
	if j.Client != "engine" {
		return workload.Result{}, fmt.Errorf("client %q: this binary runs the engine's workloads only", j.Client)
	}
	text, lookupJoin, err := workload.Query(j.Mode, j.Table)
	if err != nil {
		return workload.Result{}, err
	}
	db, err := sql.Open(fluss.DriverName, "fluss://"+j.Bootstrap+"/"+j.DB)
	if err != nil {
		return workload.Result{}, err
	}
	defer db.Close()
	// Untimed, as the peers' table resolution is: the plan also fetches
	// the tables' metadata.
	if err := checkPlan(ctx, db, text, lookupJoin); err != nil {
		return workload.Result{}, err
	}
	start := time.Now()
	rows, err := db.QueryContext(ctx, text)
	if err != nil {
		return workload.Result{}, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return workload.Result{}, err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	n, sum := 0, int64(0)
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return workload.Result{}, err
		}
		n++
		for _, v := range vals {
			if x, ok := v.(int64); ok {
				sum += x
			}
		}
	}
	if err := rows.Err(); err != nil {
		return workload.Result{}, err
	}
	return workload.Result{Ops: int64(j.Rows), Seconds: time.Since(start).Seconds(), Check: workload.Digest(n, sum)}, nil
}

// checkPlan fails unless EXPLAIN shows a lookup join exactly when want.
func checkPlan(ctx context.Context, db *sql.DB, text string, want bool) error {
	rows, err := db.QueryContext(ctx, "EXPLAIN "+text)
	if err != nil {
		return err
	}
	defer rows.Close()
	var plan strings.Builder
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return err
		}
		plan.WriteString(line + "\n")
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if got := strings.Contains(plan.String(), "LookupJoin"); got != want {
		return fmt.Errorf("EXPLAIN shows a lookup join: %v, want %v:\n%s", got, want, plan.String())
	}
	return nil
}
