// Package workload is what bench/benchpeers measures of this repository's
// client: the rows and tables every client of the comparison writes and
// reads, the result line each workload process prints, and the Go
// workloads themselves, which bench/ours runs one per process, so that
// each process links only the client it measures.
package workload

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/gofluss/fluss"
	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/internal/paired"
	"github.com/gofluss/fluss/internal/plural"
)

// Job is one workload run, as the orchestrator hands it to a process.
type Job struct {
	Mode      string        // append, upsert, lookup, scan-arrow, scan-rows, scan-sql
	Client    string        // native, arrow (appends), sql, prepared, paired (lookups)
	Bootstrap string        // host:port of the cluster
	DB, Table string        // the table the run writes or reads
	Rows      int           // rows written, scanned, or in the lookup table
	Conc      int           // lookups in flight
	Duration  time.Duration // of a lookup run
}

// RunChild is a workload process: it parses its arguments, CLIENT MODE
// BOOTSTRAP DB TABLE ROWS CONCURRENCY SECONDS, runs them through run and
// prints the result line on stdout.
func RunChild(ctx context.Context, args []string, run func(context.Context, Job) (Result, error)) error {
	if len(args) != 8 {
		return fmt.Errorf("want CLIENT MODE BOOTSTRAP DB TABLE ROWS CONCURRENCY SECONDS, got %q", args)
	}
	rows, err1 := strconv.Atoi(args[5])
	conc, err2 := strconv.Atoi(args[6])
	secs, err3 := strconv.ParseFloat(args[7], 64)
	if err1 != nil || err2 != nil || err3 != nil || rows <= 0 || conc <= 0 {
		return fmt.Errorf("bad ROWS, CONCURRENCY or SECONDS in %q", args)
	}
	j := Job{Client: args[0], Mode: args[1], Bootstrap: args[2], DB: args[3], Table: args[4], Rows: rows, Conc: conc, Duration: time.Duration(secs * float64(time.Second))}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Minute)
	defer cancel()
	res, err := run(ctx, j)
	if err != nil {
		return err
	}
	return res.Print(os.Stdout)
}

// Run runs j with this repository's client and returns its figures.
func Run(ctx context.Context, j Job) (Result, error) {
	if j.Client == "sql" || j.Client == "prepared" {
		return runSQL(ctx, j)
	}
	c, err := flussrpc.NewClient(ctx, flussrpc.Config{Bootstrap: []string{j.Bootstrap}})
	if err != nil {
		return Result{}, err
	}
	defer c.Close()
	t, err := c.OpenTable(ctx, flussrpc.TablePath{Database: j.DB, Table: j.Table})
	if err != nil {
		return Result{}, err
	}
	if j.Client == "paired" {
		return runPaired(ctx, t, j)
	}
	switch j.Mode {
	case "append", "upsert":
		if j.Client == "arrow" {
			return appendArrow(ctx, t, j.Rows)
		}
		return WriteRows(ctx, t, j.Mode == "upsert", j.Rows)
	case "lookup":
		lk, err := t.NewLookuper()
		if err != nil {
			return Result{}, err
		}
		return ClosedLoop(j.Conc, j.Duration, nativeLookup(ctx, lk, j.Rows))
	case "scan-arrow", "scan-rows":
		return TimeScan(ctx, t, j)
	}
	return Result{}, fmt.Errorf("mode %q has no native run", j.Mode)
}

// WriteRows writes rows 0..n-1 into t with the native append or upsert
// writer and times it (timeWrites).
func WriteRows(ctx context.Context, t *flussrpc.Table, upsert bool, n int) (Result, error) {
	var write func([]any) error
	var flush, closeW func(context.Context) error
	if upsert {
		w, err := t.NewUpsertWriter(flussrpc.UpsertOptions{})
		if err != nil {
			return Result{}, err
		}
		write = func(r []any) error { _, err := w.Upsert(ctx, r); return err }
		flush, closeW = w.Flush, w.Close
	} else {
		w, err := t.NewAppendWriter(flussrpc.AppendOptions{})
		if err != nil {
			return Result{}, err
		}
		write = func(r []any) error { _, err := w.Append(ctx, r); return err }
		flush, closeW = w.Flush, w.Close
	}
	defer closeW(ctx)
	return timeWrites(ctx, n, write, flush)
}

// appendArrow appends rows 0..n-1 as Arrow records of 8192 rows built
// before the clock starts, as the pyfluss write_arrow_batch run does.
func appendArrow(ctx context.Context, t *flussrpc.Table, n int) (Result, error) {
	var recs []arrow.RecordBatch
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	err := arrowRecords(t.Info().Descriptor.Schema.Columns, n, Row, func(rec arrow.RecordBatch) error {
		recs = append(recs, rec)
		return nil
	})
	if err != nil {
		return Result{}, err
	}
	w, err := t.NewAppendWriter(flussrpc.AppendOptions{})
	if err != nil {
		return Result{}, err
	}
	defer w.Close(ctx)
	start := time.Now()
	for _, r := range recs {
		if _, err := w.AppendArrow(ctx, r); err != nil {
			return Result{}, err
		}
	}
	if err := w.Flush(ctx); err != nil {
		return Result{}, err
	}
	return Result{Ops: int64(n), Seconds: time.Since(start).Seconds()}, nil
}

// timeWrites writes rows 0..n-1 and flushes; the clock stops when every
// row is acknowledged. Rows are made inside the loop, as an application
// producing them would.
func timeWrites(ctx context.Context, n int, write func([]any) error, flush func(context.Context) error) (Result, error) {
	start := time.Now()
	for i := 0; i < n; i++ {
		if err := write(Row(i)); err != nil {
			return Result{}, err
		}
	}
	if err := flush(ctx); err != nil {
		return Result{}, err
	}
	return Result{Ops: int64(n), Seconds: time.Since(start).Seconds()}, nil
}

// TimeScan reads the whole table once with a bounded log scanner, as Arrow
// record batches or as rows.
func TimeScan(ctx context.Context, t *flussrpc.Table, j Job) (Result, error) {
	start := time.Now()
	sc, err := OpenBoundedScan(ctx, t)
	if err != nil {
		return Result{}, err
	}
	defer sc.Close()
	got, sum := 0, int64(0)
	for {
		if j.Mode == "scan-arrow" {
			var bs []flussrpc.ArrowScanBatch
			bs, err = sc.PollArrow(ctx, time.Second)
			for _, b := range bs {
				got += int(b.Record.NumRows())
				b.Record.Release()
			}
		} else {
			var rs []flussrpc.ScanRecord
			rs, err = sc.Poll(ctx, time.Second)
			for _, r := range rs {
				// Reads a field of every row, as the Java poll loop does.
				id, _ := r.Row[0].(int64)
				sum += id
			}
			got += len(rs)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Result{}, err
		}
	}
	if sum < 0 {
		return Result{}, fmt.Errorf("ids sum to %d", sum)
	}
	return scanResult(got, j.Rows, start)
}

// OpenBoundedScan opens a bounded log scanner over every bucket of t from
// the earliest offset.
func OpenBoundedScan(ctx context.Context, t *flussrpc.Table) (*flussrpc.LogScanner, error) {
	sc, err := t.NewLogScanner(flussrpc.LogScanOptions{Bounded: true})
	if err != nil {
		return nil, err
	}
	if err := sc.SubscribeAll(ctx, flussrpc.ScanFromEarliest()); err != nil {
		sc.Close()
		return nil, err
	}
	return sc, nil
}

func scanResult(got, want int, start time.Time) (Result, error) {
	if got != want {
		return Result{}, fmt.Errorf("scanned %s, want %d", plural.Count(got, "row"), want)
	}
	return Result{Ops: int64(got), Seconds: time.Since(start).Seconds()}, nil
}

// nativeLookup is one lookup of the run by the native Lookuper: the n-th
// key, checked.
func nativeLookup(ctx context.Context, lk *flussrpc.Lookuper, rows int) func(n int) error {
	return func(n int) error {
		k := LookupKey(n, rows)
		r, found, err := lk.Lookup(ctx, []any{k})
		if err == nil && (!found || r[0] != k) {
			err = fmt.Errorf("lookup %d: found=%v row=%v", k, found, r)
		}
		return err
	}
}

// openSQL opens the run's database through the driver. The pool keeps
// one idle connection per goroutine, so that a run measures the driver,
// not the pool's reconnects.
func openSQL(ctx context.Context, j Job) (*sql.DB, error) {
	db, err := sql.Open(fluss.DriverName, "fluss://"+j.Bootstrap+"/"+j.DB)
	if err != nil {
		return nil, err
	}
	db.SetMaxIdleConns(max(j.Conc, 2))
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// lookupQuery is the query of a lookup through database/sql.
func lookupQuery(table string) string { return "SELECT id, name, v FROM " + table + " WHERE id = ?" }

// sqlLookup is one lookup of the run by a database/sql query (ad hoc, or
// prepared when st is not nil): the n-th key, checked.
func sqlLookup(ctx context.Context, db *sql.DB, st *sql.Stmt, j Job) func(n int) error {
	q := lookupQuery(j.Table)
	return func(n int) error {
		k := LookupKey(n, j.Rows)
		var row *sql.Row
		if st != nil {
			row = st.QueryRowContext(ctx, k)
		} else {
			row = db.QueryRowContext(ctx, q, k)
		}
		var id int64
		var name string
		var v float64
		if err := row.Scan(&id, &name, &v); err != nil {
			return fmt.Errorf("lookup %d: %w", k, err)
		}
		if id != k {
			return fmt.Errorf("lookup %d returned id %d", k, id)
		}
		return nil
	}
}

// runSQL runs the lookup and scan workloads through database/sql.
func runSQL(ctx context.Context, j Job) (Result, error) {
	db, err := openSQL(ctx, j)
	if err != nil {
		return Result{}, err
	}
	defer db.Close()
	switch j.Mode {
	case "lookup":
		var st *sql.Stmt
		if j.Client == "prepared" {
			if st, err = db.PrepareContext(ctx, lookupQuery(j.Table)); err != nil {
				return Result{}, err
			}
			defer st.Close()
		}
		return ClosedLoop(j.Conc, j.Duration, sqlLookup(ctx, db, st, j))
	case "scan-sql":
		start := time.Now()
		rs, err := db.QueryContext(ctx, "SELECT id, name, v FROM "+j.Table)
		if err != nil {
			return Result{}, err
		}
		defer rs.Close()
		got := 0
		var id int64
		var name string
		var v float64
		for rs.Next() {
			if err := rs.Scan(&id, &name, &v); err != nil {
				return Result{}, err
			}
			got++
		}
		if err := rs.Err(); err != nil {
			return Result{}, err
		}
		return scanResult(got, j.Rows, start)
	}
	return Result{}, fmt.Errorf("mode %q has no database/sql run", j.Mode)
}

// runPaired runs, one at a time, a native lookup, a db.QueryRowContext
// and a prepared stmt.QueryRowContext of the same key in turns (each
// first in turn) for the run's duration, and returns the median of what
// each database/sql lookup took beyond the native one of its turn, with
// the native lookups' latencies. Runs of each alone, minutes apart, drift
// with the server by more than the driver adds. At concurrency it compares
// rates instead (pairedRates).
func runPaired(ctx context.Context, t *flussrpc.Table, j Job) (Result, error) {
	lk, err := t.NewLookuper()
	if err != nil {
		return Result{}, err
	}
	db, err := openSQL(ctx, j)
	if err != nil {
		return Result{}, err
	}
	defer db.Close()
	st, err := db.PrepareContext(ctx, lookupQuery(j.Table))
	if err != nil {
		return Result{}, err
	}
	defer st.Close()
	fns := []func(int) error{nativeLookup(ctx, lk, j.Rows), sqlLookup(ctx, db, nil, j), sqlLookup(ctx, db, st, j)}
	if err := paired.WarmUp(fns...); err != nil {
		return Result{}, err
	}
	if j.Conc > 1 {
		return pairedRates(fns, j)
	}
	start := time.Now()
	stop := start.Add(j.Duration)
	lat, err := paired.Run(func(int) bool { return time.Now().Before(stop) }, fns...)
	if err != nil {
		return Result{}, err
	}
	us := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
	res := Result{
		Ops: int64(len(lat[0])), Seconds: time.Since(start).Seconds(),
		AddedSQLus: us(paired.Added(lat[0], lat[1])), AddedPreparedus: us(paired.Added(lat[0], lat[2])),
	}
	return res.WithLatencies(lat[0]), nil
}

// pairedRates is runPaired at concurrency, where the figure is the rate:
// each path in turn (each first in turn) runs j.Conc goroutines for a
// tenth of the run's duration, until each has had about the duration, and
// each database/sql path's rate is divided by the native rate of its
// round. The result holds the medians of those ratios.
func pairedRates(fns []func(int) error, j Job) (Result, error) {
	slice := max(j.Duration/10, 100*time.Millisecond)
	rates := make([][]float64, len(fns))
	var nativeOps int64
	loops := make([]func(int) error, len(fns))
	for k, f := range fns {
		loops[k] = func(int) error {
			r, err := ClosedLoop(j.Conc, slice, f)
			rates[k] = append(rates[k], r.Rate())
			if k == 0 {
				nativeOps += r.Ops
			}
			return err
		}
	}
	start := time.Now()
	stop := start.Add(time.Duration(len(fns)) * j.Duration)
	if _, err := paired.Run(func(int) bool { return time.Now().Before(stop) }, loops...); err != nil {
		return Result{}, err
	}
	ratio := func(k int) float64 {
		rs := make([]float64, len(rates[k]))
		for i, r := range rates[k] {
			rs[i] = r / rates[0][i]
		}
		return Median(rs)
	}
	return Result{Ops: nativeOps, Seconds: time.Since(start).Seconds(), RatioSQL: ratio(1), RatioPrepared: ratio(2)}, nil
}
