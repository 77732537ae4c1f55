// Command bulk-arrow loads rows through the native Arrow path that
// sql.Conn.Raw opens: the driver hands whole Arrow record batches to its
// AppendWriter, with no per-row database/sql overhead, and reads them back
// as Arrow with fluss.QueryArrow.
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gofluss/fluss"
	"github.com/gofluss/fluss/examples"
)

// rows is how many rows main loads; the test passes its own count.
var rows = flag.Int("rows", 2_000_000, "rows to load")

func main() {
	examples.Main("bulk_arrow", 10*time.Minute, func(ctx context.Context, dsn, db string, out io.Writer) error {
		return run(ctx, dsn, db, *rows, out)
	})
}

// batchRows is the size of each Arrow record batch handed to the writer.
const batchRows = 65536

func run(ctx context.Context, dsn, db string, total int, out io.Writer) error {
	sdb, err := sql.Open("fluss", dsn)
	if err != nil {
		return err
	}
	defer sdb.Close()
	for _, stmt := range []string{
		"DROP DATABASE IF EXISTS " + db + " CASCADE",
		"CREATE DATABASE " + db,
		"CREATE TABLE " + db + ".metrics (id BIGINT, host STRING, value DOUBLE) WITH ('bucket.num' = '4', 'bucket.key' = 'id')",
	} {
		if _, err := sdb.ExecContext(ctx, stmt); err != nil {
			return err
		}
	}
	conn, err := sdb.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()

	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "host", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "value", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	start := time.Now()
	var loaded int64
	for from := 0; from < total; from += batchRows {
		n := min(batchRows, total-from)
		for i := from; i < from+n; i++ {
			b.Field(0).(*array.Int64Builder).Append(int64(i))
			b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("host-%d", i%16))
			b.Field(2).(*array.Float64Builder).Append(float64(i) / 10)
		}
		rec := b.NewRecordBatch()
		got, err := fluss.AppendArrow(ctx, conn, db+".metrics", rec)
		rec.Release()
		if err != nil {
			return err
		}
		loaded += got
	}
	elapsed := time.Since(start)
	fmt.Fprintf(out, "loaded %d rows\n", loaded)
	fmt.Fprintf(os.Stderr, "load: %.0f rows/s\n", float64(loaded)/elapsed.Seconds())

	r, err := fluss.QueryArrow(ctx, conn, "SELECT id, value FROM "+db+".metrics")
	if err != nil {
		return err
	}
	defer r.Release()
	var read int64
	var sum float64
	for r.Next() {
		rec := r.RecordBatch()
		vals := rec.Column(1).(*array.Float64)
		for i := 0; i < vals.Len(); i++ {
			sum += vals.Value(i)
		}
		read += rec.NumRows()
	}
	if err := r.Err(); err != nil {
		return err
	}
	fmt.Fprintf(out, "read back %d rows, sum(value) = %.1f\n", read, sum)
	return nil
}
