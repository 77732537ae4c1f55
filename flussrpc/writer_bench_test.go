package flussrpc_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/testkit"
)

// End-to-end writer benchmarks against the cluster: rows/s from the first
// Append to the return of Flush (every row acknowledged, acks=all), on the
// 10-column row of the benchmarks (~128 B as Arrow).
//
//	go test -run '^$' -bench 'AppendRows|UpsertRows|AppendArrow' -benchtime 1000000x ./flussrpc/

func wtBenchColumns() []schema.Column {
	return []schema.Column{
		schema.NewColumn("id", schema.BigInt().NotNull()),
		schema.NewColumn("user_id", schema.BigInt()),
		schema.NewColumn("ts", schema.Timestamp(3)),
		schema.NewColumn("d1", schema.Double()),
		schema.NewColumn("d2", schema.Double()),
		schema.NewColumn("n", schema.Int()),
		schema.NewColumn("flag", schema.Boolean()),
		schema.NewColumn("s8", schema.String()),
		schema.NewColumn("s16", schema.String()),
		schema.NewColumn("s48", schema.String()),
	}
}

func wtBenchString(r *rand.Rand, n int) string {
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[r.IntN(len(letters))]
	}
	return string(b)
}

// wtBenchRows pre-generates n rows (ids 0..n-1); the benchmark loops over them.
func wtBenchRows(n int) [][]any {
	r := rand.New(rand.NewPCG(1, 2))
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rows := make([][]any, n)
	for i := range rows {
		rows[i] = []any{
			int64(i), r.Int64N(1 << 20), codec.TimestampNTZOf(base.Add(time.Duration(i) * time.Millisecond)),
			r.Float64() * 1000, r.NormFloat64(), int32(r.IntN(1 << 16)), r.IntN(2) == 0,
			wtBenchString(r, 8), wtBenchString(r, 16), wtBenchString(r, 48),
		}
	}
	return rows
}

// wtBenchSetup creates the benchmark's table in a scratch database.
func wtBenchSetup(b *testing.B, desc schema.TableDescriptor) *flussrpc.Table {
	b.Helper()
	c, db := benchEnv(b)
	return createTable(b, c, db, "t", desc)
}

// wtBenchData is the writer benchmarks' 64Ki rows, built on first use: as
// a package variable it would be 24 MB of pointers live in every test and
// benchmark of the package, which each GC cycle marks (a fifth of the CPU
// of BenchmarkScan went to that).
var wtBenchData = sync.OnceValue(func() [][]any { return wtBenchRows(1 << 16) })

// wtBenchWrite times writing b.N rows of data (with ids 0..b.N-1) with
// write and flushing.
func wtBenchWrite(b *testing.B, data [][]any, write func(ctx context.Context, row []any) error, flush func(ctx context.Context) error) {
	ctx := context.Background()
	// Warm up: writer id, leaders, connections.
	if err := write(ctx, data[0]); err != nil {
		b.Fatal(err)
	}
	if err := flush(ctx); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	start, cpu := time.Now(), testkit.ProcessCPU()
	row := make([]any, len(data[0]))
	for i := 0; i < b.N; i++ {
		copy(row, data[i%len(data)])
		row[0] = int64(i)
		if err := write(ctx, row); err != nil {
			b.Fatal(err)
		}
	}
	if err := flush(ctx); err != nil {
		b.Fatal(err)
	}
	reportWriteRate(b, start, cpu)
}

// reportWriteRate reports the rows/s since start and the client's CPU
// time per row since the process had used cpu, which the load of a shared
// machine disturbs less.
func reportWriteRate(b *testing.B, start time.Time, cpu time.Duration) {
	el, used := time.Since(start), testkit.ProcessCPU()-cpu
	b.StopTimer()
	b.ReportMetric(float64(b.N)/el.Seconds(), "rows/s")
	b.ReportMetric(float64(used.Nanoseconds())/float64(b.N), "cpu-ns/row")
}

// BenchmarkAppendRows appends b.N rows one by one in each log format, for
// the 10-column row (cols=10) and, in ARROW, the 3-column row of make
// bench-peers (cols=3).
func BenchmarkAppendRows(b *testing.B) {
	narrow := narrowBenchRows(1 << 16)
	for _, format := range []string{schema.FormatArrow, schema.FormatCompacted, schema.FormatIndexed} {
		for _, buckets := range []int{1, 4} {
			b.Run(fmt.Sprintf("cols=10/%s/buckets=%d", format, buckets), func(b *testing.B) {
				benchAppendRows(b, wtBenchColumns(), wtBenchData(), format, buckets)
			})
			if format == schema.FormatArrow {
				b.Run(fmt.Sprintf("cols=3/%s/buckets=%d", format, buckets), func(b *testing.B) {
					benchAppendRows(b, narrowBenchColumns(), narrow, format, buckets)
				})
			}
		}
	}
}

func benchAppendRows(b *testing.B, cols []schema.Column, data [][]any, format string, buckets int) {
	s, err := schema.NewSchema(cols, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	tbl := wtBenchSetup(b, schema.TableDescriptor{Schema: s, BucketCount: &buckets,
		Properties: map[string]string{schema.OptLogFormat: format}})
	w, err := tbl.NewAppendWriter(flussrpc.AppendOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close(context.Background())
	wtBenchWrite(b, data, func(ctx context.Context, row []any) error {
		_, err := w.Append(ctx, row)
		return err
	}, w.Flush)
}

func BenchmarkUpsertRows(b *testing.B) {
	for _, buckets := range []int{1, 4} {
		b.Run(fmt.Sprintf("buckets=%d", buckets), func(b *testing.B) {
			s, err := schema.NewSchema(wtBenchColumns(), []string{"id"}, nil)
			if err != nil {
				b.Fatal(err)
			}
			tbl := wtBenchSetup(b, schema.TableDescriptor{Schema: s, BucketCount: &buckets})
			w, err := tbl.NewUpsertWriter(flussrpc.UpsertOptions{})
			if err != nil {
				b.Fatal(err)
			}
			defer w.Close(context.Background())
			wtBenchWrite(b, wtBenchData(), func(ctx context.Context, row []any) error {
				_, err := w.Upsert(ctx, row)
				return err
			}, w.Flush)
		})
	}
}
