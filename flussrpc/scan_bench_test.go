package flussrpc_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/clustertest"
)

// Benchmarks against the real cluster:
//
//	FLUSS_SASL=1 go test ./flussrpc -run '^$' -bench 'Lookup|Scan' -benchtime 5s

// benchEnv is a client and a scratch database for one benchmark.
func benchEnv(b *testing.B) (*flussrpc.Client, string) {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := flussrpc.NewClient(ctx, flussrpc.Config{Bootstrap: []string{clustertest.Bootstrap(b)}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	db := uniqueName("bench")
	if err := c.Admin().CreateDatabase(ctx, db, schema.DatabaseDescriptor{}, false); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = c.Admin().DropDatabase(context.Background(), db, true, true) })
	return c, db
}

func BenchmarkLookup(b *testing.B) {
	c, db := benchEnv(b)
	s, err := schema.NewSchema([]schema.Column{schema.NewColumn("k", schema.Int()), schema.NewColumn("v", schema.String()), schema.NewColumn("n", schema.BigInt())}, []string{"k"}, nil)
	if err != nil {
		b.Fatal(err)
	}
	tbl := createTable(b, c, db, uniqueName("t"), schema.TableDescriptor{Schema: s, BucketCount: intPtr(4)})
	const keys = 20000
	ctx := context.Background()
	for from := 0; from < keys; from += 5000 {
		var rows [][]any
		for i := from; i < from+5000; i++ {
			rows = append(rows, []any{int32(i), fmt.Sprintf("value-%08d", i), int64(i)})
		}
		if _, err := flussrpc.ScanTestUpsert(ctx, tbl, rows, nil); err != nil {
			b.Fatal(err)
		}
	}
	lk, err := tbl.NewLookuper()
	if err != nil {
		b.Fatal(err)
	}
	for _, conc := range []int{1, 64} {
		b.Run(fmt.Sprintf("concurrency=%d", conc), func(b *testing.B) {
			runLookups(b, conc, func(i int64) error {
				k := int32(i * 7919 % keys)
				row, found, err := lk.Lookup(ctx, []any{k})
				if err != nil || !found || row[2].(int64) != int64(k) {
					return fmt.Errorf("lookup %d: found=%v err=%v row=%v", k, found, err, row)
				}
				return nil
			})
		})
	}
}

// runLookups runs b.N calls of one over conc goroutines (i is the call's
// number) and reports lookups/s.
func runLookups(b *testing.B, conc int, one func(i int64) error) {
	var next atomic.Int64
	var wg sync.WaitGroup
	var failed atomic.Value
	b.ResetTimer()
	start := time.Now()
	for g := 0; g < conc; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(b.N) {
					return
				}
				if err := one(i); err != nil {
					failed.Store(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	el := time.Since(start)
	b.StopTimer()
	if err, ok := failed.Load().(error); ok {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/el.Seconds(), "lookups/s")
}

// BenchmarkLookupInsertIfNotExists measures a dictionary table: "new"
// looks up keys never seen (each call inserts and waits for the acks),
// "existing" looks the same keys up again (plain hits in insert mode).
func BenchmarkLookupInsertIfNotExists(b *testing.B) {
	c, db := benchEnv(b)
	s, err := schema.NewSchema([]schema.Column{schema.NewColumn("name", schema.String()), schema.NewColumn("uid", schema.BigInt())}, []string{"name"}, []string{"uid"})
	if err != nil {
		b.Fatal(err)
	}
	tbl := createTable(b, c, db, uniqueName("t"), schema.TableDescriptor{Schema: s, BucketCount: intPtr(4)})
	lk, err := tbl.NewLookuper(flussrpc.LookupOptions{InsertIfNotExists: true})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var seen atomic.Int64 // keys inserted so far, for "existing"
	for _, mode := range []string{"new", "existing"} {
		for _, conc := range []int{1, 64} {
			b.Run(fmt.Sprintf("%s/concurrency=%d", mode, conc), func(b *testing.B) {
				base := seen.Load()
				runLookups(b, conc, func(i int64) error {
					k := i
					if mode == "new" {
						k += base
					} else {
						k %= max(base, 1)
					}
					row, found, err := lk.Lookup(ctx, []any{fmt.Sprintf("name-%09d", k)})
					if err != nil || !found || row[1] == nil {
						return fmt.Errorf("lookup %d: found=%v err=%v row=%v", k, found, err, row)
					}
					return nil
				})
				if mode == "new" {
					seen.Add(int64(b.N))
				}
			})
		}
	}
}

func BenchmarkScan(b *testing.B) {
	c, db := benchEnv(b)
	const rowsPerBucket, buckets = 50000, 4
	for _, format := range []string{schema.FormatArrow, schema.FormatCompacted} {
		cols := []schema.Column{
			schema.NewColumn("id", schema.BigInt()),
			schema.NewColumn("user_id", schema.BigInt()),
			schema.NewColumn("ts", schema.TimestampLTZ(3)),
			schema.NewColumn("amount", schema.Double()),
			schema.NewColumn("qty", schema.Int()),
			schema.NewColumn("ok", schema.Boolean()),
			schema.NewColumn("name", schema.String()),
			schema.NewColumn("tag", schema.String()),
		}
		s, err := schema.NewSchema(cols, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		tbl := createTable(b, c, db, uniqueName("t"), schema.TableDescriptor{Schema: s, BucketCount: intPtr(buckets), Properties: map[string]string{schema.OptLogFormat: format}})
		enc, err := scanEncoderFor(tbl)
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		const chunk = 4 * 2000 // 2000 rows per bucket and batch
		for from := 0; from < rowsPerBucket*buckets; from += chunk {
			var rows [][]any
			for i := from; i < from+chunk; i++ {
				rows = append(rows, []any{int64(i), int64(i % 1000), codec.TimestampLTZ{Millis: 1700000000000 + int64(i)}, float64(i) * 0.5, int32(i % 100), i%2 == 0, fmt.Sprintf("user-%d", i%1000), "t"})
			}
			if _, _, err := flussrpc.ScanTestAppend(ctx, tbl, enc, rows); err != nil {
				b.Fatal(err)
			}
		}
		total := rowsPerBucket * buckets
		run := func(b *testing.B, opts flussrpc.LogScanOptions, arrow bool) {
			opts.Bounded = true
			b.ResetTimer()
			start := time.Now()
			for n := 0; n < b.N; n++ {
				sc, err := tbl.NewLogScanner(opts)
				if err != nil {
					b.Fatal(err)
				}
				if err := sc.SubscribeAll(ctx, flussrpc.ScanFromEarliest()); err != nil {
					b.Fatal(err)
				}
				got, err := countScan(ctx, sc, arrow)
				if err != nil {
					b.Fatal(err)
				}
				sc.Close()
				if got != total {
					b.Fatalf("scanned %d rows, want %d", got, total)
				}
			}
			b.ReportMetric(float64(total*b.N)/time.Since(start).Seconds(), "rows/s")
		}
		b.Run(format+"/rows", func(b *testing.B) { run(b, flussrpc.LogScanOptions{}, false) })
		b.Run(format+"/arrow", func(b *testing.B) { run(b, flussrpc.LogScanOptions{}, true) })
		b.Run(format+"/rows-projected-3", func(b *testing.B) {
			run(b, flussrpc.LogScanOptions{Columns: []string{"amount", "id", "name"}}, false)
		})
	}
}
