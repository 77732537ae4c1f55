package fluss_test

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofluss/fluss"
	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/internal/paired"
	"github.com/gofluss/fluss/internal/testkit"
)

// Each benchmark has a SQL side (database/sql through the driver) and a
// native side (the same work with flussrpc directly), both reporting
// rows/s, so that the driver's overhead reads off as their ratio:
//
//	go test -run '^$' -bench . -benchtime 3x .

// benchDSN keeps write batches below the 1 MiB a bucket fetch returns:
// flussrpc (as of this writing) fails a scan whose bucket holds a batch
// larger than client.scanner.log.fetch.max-bytes-for-bucket.
const benchDSN = "?client.writer.batch-size=512kb"

type benchEnv struct {
	db     *sql.DB
	d      string
	client *flussrpc.Client
}

func newBenchEnv(b *testing.B) *benchEnv {
	b.Helper()
	db := openDB(&testing.T{}, benchDSN)
	b.Cleanup(func() { db.Close() })
	name := fmt.Sprintf("bench_%d", time.Now().UnixNano()%1e9)
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Exec("DROP DATABASE IF EXISTS " + name + " CASCADE") })
	c, err := db.Conn(ctx)
	if err != nil {
		b.Fatal(err)
	}
	client, err := fluss.Client(ctx, c)
	c.Close()
	if err != nil {
		b.Fatal(err)
	}
	return &benchEnv{db: db, d: name, client: client}
}

func (e *benchEnv) exec(b *testing.B, q string, args ...any) {
	b.Helper()
	mustExec(b, e.db, q, args...)
}

func (e *benchEnv) table(b *testing.B, name string) *flussrpc.Table {
	b.Helper()
	t, err := e.client.OpenTable(context.Background(), flussrpc.TablePath{Database: e.d, Table: name})
	if err != nil {
		b.Fatal(err)
	}
	return t
}

func reportRows(b *testing.B, rows int) {
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}

func (e *benchEnv) logTable(b *testing.B, name string) {
	e.exec(b, "CREATE TABLE "+e.d+"."+name+" (id BIGINT, s STRING)"+withFormat())
}

func nativeAppend(b *testing.B, t *flussrpc.Table, rows, per int) {
	ctx := context.Background()
	w, err := t.NewAppendWriter(flussrpc.AppendOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close(ctx)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := 0; j < rows; j += per {
			res := make([]flussrpc.WriteResult, 0, per)
			for k := j; k < j+per; k++ {
				r, err := w.Append(ctx, []any{int64(k), "row with some text"})
				if err != nil {
					b.Fatal(err)
				}
				res = append(res, r)
			}
			if err := w.Flush(ctx); err != nil {
				b.Fatal(err)
			}
			for _, r := range res {
				if err := r.Wait(ctx); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	reportRows(b, b.N*rows)
}

func valuesList(from, n int) string {
	var sb strings.Builder
	for i := from; i < from+n; i++ {
		if i > from {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, "(%d, 'row with some text')", i)
	}
	return sb.String()
}

// BenchmarkInsertPerRow: one acknowledged row per Exec.
func BenchmarkInsertPerRow(b *testing.B) {
	const rows = 200
	b.Run("sql", func(b *testing.B) {
		e := newBenchEnv(b)
		e.logTable(b, "t")
		st, err := e.db.Prepare("INSERT INTO " + e.d + ".t VALUES (?, ?)")
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			for j := range rows {
				if _, err := st.Exec(j, "row with some text"); err != nil {
					b.Fatal(err)
				}
			}
		}
		reportRows(b, b.N*rows)
	})
	b.Run("native", func(b *testing.B) {
		e := newBenchEnv(b)
		e.logTable(b, "t")
		nativeAppend(b, e.table(b, "t"), rows, 1)
	})
}

// BenchmarkInsertMultiRow: 1000 rows per INSERT ... VALUES.
func BenchmarkInsertMultiRow(b *testing.B) {
	const rows, per = 20000, 1000
	b.Run("sql", func(b *testing.B) {
		e := newBenchEnv(b)
		e.logTable(b, "t")
		q := "INSERT INTO " + e.d + ".t VALUES " + valuesList(0, per)
		st, err := e.db.Prepare(q)
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			for j := 0; j < rows; j += per {
				if _, err := st.Exec(); err != nil {
					b.Fatal(err)
				}
			}
		}
		reportRows(b, b.N*rows)
	})
	b.Run("native", func(b *testing.B) {
		e := newBenchEnv(b)
		e.logTable(b, "t")
		nativeAppend(b, e.table(b, "t"), rows, per)
	})
}

// BenchmarkInsertTxBatch: a prepared INSERT per row inside a write batch.
func BenchmarkInsertTxBatch(b *testing.B) {
	const rows = 50000
	b.Run("sql", func(b *testing.B) {
		e := newBenchEnv(b)
		e.logTable(b, "t")
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			tx, err := e.db.Begin()
			if err != nil {
				b.Fatal(err)
			}
			st, err := tx.Prepare("INSERT INTO " + e.d + ".t VALUES (?, ?)")
			if err != nil {
				b.Fatal(err)
			}
			for j := range rows {
				if _, err := st.Exec(j, "row with some text"); err != nil {
					b.Fatal(err)
				}
			}
			if err := tx.Commit(); err != nil {
				b.Fatal(err)
			}
		}
		reportRows(b, b.N*rows)
	})
	b.Run("native", func(b *testing.B) {
		e := newBenchEnv(b)
		e.logTable(b, "t")
		nativeAppend(b, e.table(b, "t"), rows, rows)
	})
}

// BenchmarkAppendArrow: 50k-row Arrow records.
func BenchmarkAppendArrow(b *testing.B) {
	const rows = 50000
	b.Run("sql-raw", func(b *testing.B) {
		e := newBenchEnv(b)
		e.logTable(b, "t")
		ctx := context.Background()
		c, err := e.db.Conn(ctx)
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		r, err := fluss.QueryArrow(ctx, c, "SELECT * FROM "+e.d+".t LIMIT 0")
		if err != nil {
			b.Fatal(err)
		}
		rec := arrowRecord(r.Schema(), 0, rows)
		r.Release()
		defer rec.Release()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := fluss.AppendArrow(ctx, c, e.d+".t", rec); err != nil {
				b.Fatal(err)
			}
		}
		reportRows(b, b.N*rows)
	})
	b.Run("native", func(b *testing.B) {
		e := newBenchEnv(b)
		e.logTable(b, "t")
		ctx := context.Background()
		c, _ := e.db.Conn(ctx)
		r, err := fluss.QueryArrow(ctx, c, "SELECT * FROM "+e.d+".t LIMIT 0")
		if err != nil {
			b.Fatal(err)
		}
		rec := arrowRecord(r.Schema(), 0, rows)
		r.Release()
		c.Close()
		defer rec.Release()
		w, err := e.table(b, "t").NewAppendWriter(flussrpc.AppendOptions{})
		if err != nil {
			b.Fatal(err)
		}
		defer w.Close(ctx)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			res, err := w.AppendArrow(ctx, rec)
			if err != nil {
				b.Fatal(err)
			}
			if err := w.Flush(ctx); err != nil {
				b.Fatal(err)
			}
			if err := res.Wait(ctx); err != nil {
				b.Fatal(err)
			}
		}
		reportRows(b, b.N*rows)
	})
}

// lookupKeys is how many rows the lookup benchmarks' table holds.
const lookupKeys = 1000

// newLookupEnv creates the table kv of lookupKeys rows (id, s) and returns
// the query looking one up by id.
func newLookupEnv(b *testing.B) (*benchEnv, string) {
	e := newBenchEnv(b)
	e.exec(b, "CREATE TABLE "+e.d+".kv (id BIGINT, s STRING, PRIMARY KEY (id) NOT ENFORCED)"+withFormat())
	e.exec(b, "INSERT INTO "+e.d+".kv VALUES "+valuesList(0, lookupKeys))
	return e, "SELECT s FROM " + e.d + ".kv WHERE id = ?"
}

// BenchmarkLookup: a point lookup by primary key, one row per call, from 1
// and from 64 goroutines: unprepared db.QueryRow, a prepared statement and
// the native Lookuper, so that the driver's overhead reads off as the ratio
// of their lookups/s (at c=1, BenchmarkLookupOverhead measures it better).
//
//	go test -run '^$' -bench 'Lookup$' -benchtime 20000x -count 3 .
func BenchmarkLookup(b *testing.B) {
	e, query := newLookupEnv(b)
	e.db.SetMaxIdleConns(64)
	for _, conc := range []int{1, 64} {
		b.Run(fmt.Sprintf("sql-c%d", conc), func(b *testing.B) {
			runLookups(b, conc, func(i int) error {
				var s string
				return e.db.QueryRow(query, i%lookupKeys).Scan(&s)
			})
		})
		b.Run(fmt.Sprintf("prepared-c%d", conc), func(b *testing.B) {
			st, err := e.db.Prepare(query)
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			runLookups(b, conc, func(i int) error {
				var s string
				return st.QueryRow(i % lookupKeys).Scan(&s)
			})
		})
		b.Run(fmt.Sprintf("native-c%d", conc), func(b *testing.B) {
			lk, err := e.table(b, "kv").NewLookuper()
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			runLookups(b, conc, func(i int) error {
				if _, ok, err := lk.Lookup(ctx, []any{int64(i % lookupKeys)}); err != nil || !ok {
					return fmt.Errorf("key %d: found %v, %v", i%lookupKeys, ok, err)
				}
				return nil
			})
		})
	}
}

// BenchmarkLookupOverhead measures what database/sql and the driver add
// to a native lookup at c=1. Timed apart, the two paths drift with the
// machine by more than they differ; here each iteration times one of
// each, in alternating order, and the median of the paired differences
// is the figure ("added-µs").
//
//	go test -run '^$' -bench 'LookupOverhead' -benchtime 20000x -count 3 .
func BenchmarkLookupOverhead(b *testing.B) {
	e, query := newLookupEnv(b)
	lk, err := e.table(b, "kv").NewLookuper()
	if err != nil {
		b.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	defer cancel()
	// With a context that can end, database/sql itself starts a goroutine
	// per query to watch it; a background one shows the driver alone.
	for _, c := range []struct {
		name string
		ctx  context.Context
	}{{"background", context.Background()}, {"cancellable", cancelled}} {
		b.Run(c.name, func(b *testing.B) {
			native := func(i int) error {
				_, _, err := lk.Lookup(c.ctx, []any{int64(i % lookupKeys)})
				return err
			}
			viaSQL := func(i int) error {
				var s string
				return e.db.QueryRowContext(c.ctx, query, i%lookupKeys).Scan(&s)
			}
			pairedLatency(b, native, viaSQL)
		})
	}
}

// pairedLatency times base and other once each per iteration, in
// alternating order, and reports the median of other's time less base's
// ("added-µs") and base's median.
func pairedLatency(b *testing.B, base, other func(i int) error) {
	if err := paired.WarmUp(base, other); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	lat, err := paired.Run(func(i int) bool { return i < b.N }, base, other)
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(paired.Added(lat[0], lat[1]).Nanoseconds())/1e3, "added-µs")
	b.ReportMetric(float64(paired.Median(lat[0]).Nanoseconds())/1e3, "base-p50-µs")
}

// runLookups calls lookup b.N times from conc goroutines and reports
// lookups/s, the median latency of a call and the CPU time of the whole
// process per call.
func runLookups(b *testing.B, conc int, lookup func(i int) error) {
	// Warm up: plans, lookupers, connections of the pool.
	for i := range conc {
		if err := lookup(i); err != nil {
			b.Fatal(err)
		}
	}
	lat := make([]time.Duration, b.N)
	b.ReportAllocs()
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, conc)
	cpu0 := testkit.ProcessCPU()
	b.ResetTimer()
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= b.N {
					return
				}
				t0 := time.Now()
				if err := lookup(i); err != nil {
					errs <- err
					return
				}
				lat[i] = time.Since(t0)
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	cpu := testkit.ProcessCPU() - cpu0
	close(errs)
	if err := <-errs; err != nil {
		b.Fatal(err)
	}
	slices.Sort(lat)
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "lookups/s")
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds())/1e3, "p50-µs")
	b.ReportMetric(float64(cpu.Nanoseconds())/1e3/float64(b.N), "cpu-µs/op")
}

// BenchmarkScan: a bounded full scan of a log table.
func BenchmarkScan(b *testing.B) {
	const rows = 200000
	setup := func(b *testing.B) *benchEnv {
		e := newBenchEnv(b)
		e.exec(b, "CREATE TABLE "+e.d+".t (id BIGINT, s STRING) WITH ('bucket.num' = '4', 'table.log.format' = '"+logFormat+"')")
		fillLog(b, e.db, e.d+".t", rows)
		return e
	}
	b.Run("sql-rows", func(b *testing.B) {
		e := setup(b)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			r, err := e.db.Query("SELECT * FROM " + e.d + ".t")
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			var id int64
			var s string
			for r.Next() {
				if err := r.Scan(&id, &s); err != nil {
					b.Fatal(err)
				}
				n++
			}
			if r.Err() != nil || n != rows {
				b.Fatal(n, r.Err())
			}
			r.Close()
		}
		reportRows(b, b.N*rows)
	})
	b.Run("sql-arrow", func(b *testing.B) {
		e := setup(b)
		ctx := context.Background()
		c, err := e.db.Conn(ctx)
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			r, err := fluss.QueryArrow(ctx, c, "SELECT * FROM "+e.d+".t")
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			for r.Next() {
				n += int(r.RecordBatch().NumRows())
			}
			if r.Err() != nil || n != rows {
				b.Fatal(n, r.Err())
			}
			r.Release()
		}
		reportRows(b, b.N*rows)
	})
	b.Run("native", func(b *testing.B) {
		e := setup(b)
		t := e.table(b, "t")
		ctx := context.Background()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			// The engine's scans use the default fetch sizes too.
			sc, err := t.NewLogScanner(flussrpc.LogScanOptions{Bounded: true})
			if err != nil {
				b.Fatal(err)
			}
			if err := sc.SubscribeAll(ctx, flussrpc.ScanFromEarliest()); err != nil {
				b.Fatal(err)
			}
			n := 0
			for {
				recs, err := sc.Poll(ctx, time.Second)
				if err == io.EOF {
					break
				}
				if err != nil {
					b.Fatal(err)
				}
				n += len(recs)
			}
			sc.Close()
			if n != rows {
				b.Fatal(n)
			}
		}
		reportRows(b, b.N*rows)
	})
}
