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
	"github.com/gofluss/fluss/internal/testkit"
)

// narrowBenchColumns and narrowBenchRows are the row of make bench-peers:
// (id, "name-<id>", id*0.5), some 30 bytes as Arrow.
func narrowBenchColumns() []schema.Column {
	return []schema.Column{
		schema.NewColumn("id", schema.BigInt().NotNull()),
		schema.NewColumn("name", schema.String()),
		schema.NewColumn("v", schema.Double()),
	}
}

func narrowBenchRows(n int) [][]any {
	rows := make([][]any, n)
	for i := range rows {
		rows[i] = []any{int64(i), fmt.Sprintf("name-%d", i), float64(i) * 0.5}
	}
	return rows
}

// BenchmarkAppendArrow appends b.N rows as ready-made 8192-row Arrow
// records (the pyfluss write_arrow_batch comparison), for the 10-column
// row of the writer benchmarks (cols=10) and the 3-column row of make
// bench-peers (cols=3).
//
//	go test -run '^$' -bench 'AppendArrow' -benchtime 1000000x ./flussrpc/
func BenchmarkAppendArrow(b *testing.B) {
	shapes := []struct {
		cols []schema.Column
		rows [][]any
	}{
		{wtBenchColumns(), wtBenchData()},
		{narrowBenchColumns(), narrowBenchRows(1 << 17)},
	}
	for _, shape := range shapes {
		for _, buckets := range []int{1, 4} {
			b.Run(fmt.Sprintf("cols=%d/buckets=%d", len(shape.cols), buckets), func(b *testing.B) {
				benchAppendArrow(b, shape.cols, shape.rows, buckets)
			})
		}
	}
}

func benchAppendArrow(b *testing.B, cols []schema.Column, data [][]any, buckets int) {
	s, err := schema.NewSchema(cols, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	tbl := wtBenchSetup(b, schema.TableDescriptor{Schema: s, BucketCount: &buckets})
	const per = 8192
	var recs []arrow.RecordBatch
	for k := 0; k < len(data); k += per {
		rb, err := arrowipc.NewRowBuilder(s.Columns, nil)
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range data[k:min(k+per, len(data))] {
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
	start, cpu := time.Now(), testkit.ProcessCPU()
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
	reportWriteRate(b, start, cpu)
}
