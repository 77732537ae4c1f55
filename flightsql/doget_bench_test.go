package flightsql_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/flight"
	fsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"google.golang.org/grpc/metadata"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/internal/clustertest"
)

// BenchmarkDoGetScan reads a bounded scan of a log table whole through
// DoGet, as the ADBC client of `make bench-peers` does, against the real
// cluster (server and client in this process):
//
//	FLUSS_SASL=1 FLUSS_INTEGRATION=1 go test ./flightsql -run '^$' -bench DoGetScan -benchtime 3x
//
// The table is written row by row with the native append writer, so that
// its log batches have the writer's default size, as in bench-peers. The
// client reads the batches decoded by the server, and as Fluss stored them
// (ZSTD), decompressing them itself.
func BenchmarkDoGetScan(b *testing.B) {
	const rows = 1_000_000
	addr, _ := startServer(b, nil)
	cl, ctx := connect(b, addr, clustertest.SASLUser, clustertest.SASLPassword)
	db := newDatabase(b, ctx, cl, "fsqlbench")
	update(b, ctx, cl, "CREATE TABLE "+db+".scan (id BIGINT NOT NULL, name STRING, v DOUBLE) WITH ('bucket.num' = '4')")
	fillLog(b, ctx, flussrpc.TablePath{Database: db, Table: "scan"}, rows)

	for _, bc := range []struct{ name, header string }{
		{"decoded", ""},
		{"passthrough", "zstd"}, // the ZSTD batches as Fluss stored them
	} {
		b.Run(bc.name, func(b *testing.B) {
			ctx := ctx
			if bc.header != "" {
				ctx = metadata.AppendToOutgoingContext(ctx, "x-fluss-ipc-compression", bc.header)
			}
			b.ReportAllocs()
			for b.Loop() {
				info, err := cl.Execute(ctx, "SELECT * FROM "+db+".scan")
				if err != nil {
					b.Fatal(err)
				}
				// The endpoints at once, as ADBC reads them.
				var (
					n    atomic.Int64
					wg   sync.WaitGroup
					errs = make([]error, len(info.Endpoint))
				)
				for i, ep := range info.Endpoint {
					wg.Go(func() { errs[i] = readCount(ctx, cl, ep.Ticket, &n) })
				}
				wg.Wait()
				if err := errors.Join(errs...); err != nil {
					b.Fatal(err)
				}
				if n := n.Load(); n != rows {
					b.Fatalf("read %d rows, want %d", n, rows)
				}
			}
			b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// readCount reads the records of a ticket and adds up their rows in n.
func readCount(ctx context.Context, cl *fsql.Client, t *flight.Ticket, n *atomic.Int64) error {
	rdr, err := cl.DoGet(ctx, t)
	if err != nil {
		return err
	}
	defer rdr.Release()
	for rdr.Next() {
		n.Add(rdr.RecordBatch().NumRows())
	}
	return rdr.Err()
}

// fillLog appends rows (i, "name-<i>", i*0.5) to a log table with the
// native append writer.
func fillLog(b *testing.B, ctx context.Context, path flussrpc.TablePath, rows int) {
	b.Helper()
	c, err := flussrpc.NewClient(ctx, flussrpc.Config{Bootstrap: []string{clustertest.Bootstrap(b)}})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	t, err := c.OpenTable(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	w, err := t.NewAppendWriter(flussrpc.AppendOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = w.Close(ctx) }()
	for i := range rows {
		if _, err := w.Append(ctx, []any{int64(i), fmt.Sprintf("name-%d", i), float64(i) * 0.5}); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Flush(ctx); err != nil {
		b.Fatal(err)
	}
}
