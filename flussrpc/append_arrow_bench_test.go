package flussrpc_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// BenchmarkAppendArrow appends b.N rows as ready-made 8192-row Arrow
// records (the pyfluss write_arrow_batch comparison).
func BenchmarkAppendArrow(b *testing.B) {
	for _, buckets := range []int{1, 4} {
		b.Run(fmt.Sprintf("buckets=%d", buckets), func(b *testing.B) {
			s, err := schema.NewSchema(wtBenchColumns(), nil, nil)
			if err != nil {
				b.Fatal(err)
			}
			tbl := wtBenchSetup(b, schema.TableDescriptor{Schema: s, BucketCount: &buckets})
			const per = 8192
			var recs []arrow.RecordBatch
			for k := 0; k < len(wtBenchData); k += per {
				rb, err := arrowipc.NewRowBuilder(s.Columns, nil)
				if err != nil {
					b.Fatal(err)
				}
				for _, r := range wtBenchData[k:min(k+per, len(wtBenchData))] {
					if err := rb.Append(r); err != nil {
						b.Fatal(err)
					}
				}
				recs = append(recs, rb.NewRecord())
				rb.Release()
			}
			defer func() {
				for _, r := range recs {
					r.Release()
				}
			}()
			w, err := tbl.NewAppendWriter(flussrpc.AppendOptions{})
			if err != nil {
				b.Fatal(err)
			}
			defer w.Close(context.Background())
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			start := time.Now()
			for n, i := 0, 0; n < b.N; i++ {
				rec := recs[i%len(recs)]
				if left := int64(b.N - n); left < rec.NumRows() {
					rec = rec.NewSlice(0, left)
					defer rec.Release()
				}
				if _, err := w.AppendArrow(ctx, rec); err != nil {
					b.Fatal(err)
				}
				n += int(rec.NumRows())
			}
			if err := w.Flush(ctx); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "rows/s")
		})
	}
}
