// Command scan1m is the Go side of bench/pyfluss_read.py --mode scan: it
// appends N rows of (id BIGINT, v STRING) to a fresh 4-bucket ARROW log
// table through the native AppendWriter and times a bounded scan of all of
// them, as Arrow batches (PollArrow) and as rows (Poll). Prints JSON.
//
//	go run ./bench/scan1m -bootstrap 127.0.0.1:9123 -rows 1000000
//
// With -python (the peer venv's interpreter; `make bench-flightsql`) it
// also times the same table read whole as Arrow by two other clients,
// side by side: Python's ADBC Flight SQL driver through the Flight SQL
// server (package flightsql, started here on a free loopback port), and
// pyfluss's to_arrow (bench/arrow_read.py runs both).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/schema"
)

func main() {
	bootstrap := flag.String("bootstrap", "127.0.0.1:9123", "Fluss bootstrap address")
	rows := flag.Int("rows", 1_000_000, "rows to write and scan")
	python := flag.String("python", "", "Python with adbc-driver-flightsql and pyfluss: also time those clients")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	out, err := run(ctx, *bootstrap, *rows, *python)
	if err != nil {
		log.Fatal(err)
	}
	json.NewEncoder(os.Stdout).Encode(out)
}

func run(ctx context.Context, bootstrap string, n int, python string) (map[string]any, error) {
	c, err := flussrpc.NewClient(ctx, flussrpc.Config{Bootstrap: []string{bootstrap}})
	if err != nil {
		return nil, err
	}
	defer c.Close()
	adm := c.Admin()
	db := fmt.Sprintf("bench_scan_%d", time.Now().UnixNano()%1000000000)
	if err := adm.CreateDatabase(ctx, db, schema.DatabaseDescriptor{}, false); err != nil {
		return nil, err
	}
	defer adm.DropDatabase(context.Background(), db, true, true)
	s, err := schema.NewSchema([]schema.Column{schema.NewColumn("id", schema.BigInt()), schema.NewColumn("v", schema.String())}, nil, nil)
	if err != nil {
		return nil, err
	}
	four := 4
	path := flussrpc.TablePath{Database: db, Table: "t"}
	if err := adm.CreateTable(ctx, path, schema.TableDescriptor{Schema: s, BucketCount: &four, BucketKeys: []string{"id"}}, false); err != nil {
		return nil, err
	}
	t, err := c.OpenTable(ctx, path)
	if err != nil {
		return nil, err
	}
	w, err := t.NewAppendWriter(flussrpc.AppendOptions{})
	if err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		if _, err := w.Append(ctx, []any{int64(i), fmt.Sprintf("value-%d", i)}); err != nil {
			return nil, err
		}
	}
	if err := w.Flush(ctx); err != nil {
		return nil, err
	}
	w.Close(ctx)
	arrowSecs, err := timeScan(ctx, t, n, true)
	if err != nil {
		return nil, err
	}
	rowSecs, err := timeScan(ctx, t, n, false)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"rows": n, "arrow_rows_per_s": int(float64(n) / arrowSecs), "row_rows_per_s": int(float64(n) / rowSecs)}
	if python == "" {
		return out, nil
	}
	adbcSecs, pyflussSecs, err := peerScans(ctx, python, bootstrap, path, n)
	if err != nil {
		return nil, err
	}
	out["adbc_flightsql_rows_per_s"] = int(float64(n) / adbcSecs)
	out["pyfluss_to_arrow_rows_per_s"] = int(float64(n) / pyflussSecs)
	out["adbc_vs_native_arrow"] = round2(arrowSecs / adbcSecs)
	out["adbc_vs_pyfluss_to_arrow"] = round2(pyflussSecs / adbcSecs)
	return out, nil
}

func round2(x float64) float64 { return float64(int(x*100+0.5)) / 100 }

func timeScan(ctx context.Context, t *flussrpc.Table, n int, arrow bool) (float64, error) {
	sc, err := t.NewLogScanner(flussrpc.LogScanOptions{Bounded: true})
	if err != nil {
		return 0, err
	}
	defer sc.Close()
	if err := sc.SubscribeAll(ctx, flussrpc.ScanFromEarliest()); err != nil {
		return 0, err
	}
	start := time.Now()
	got := 0
	for {
		var err error
		if arrow {
			var bs []flussrpc.ArrowScanBatch
			bs, err = sc.PollArrow(ctx, time.Second)
			for _, b := range bs {
				got += int(b.Record.NumRows())
				b.Record.Release()
			}
		} else {
			var rs []flussrpc.ScanRecord
			rs, err = sc.Poll(ctx, time.Second)
			got += len(rs)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return 0, err
		}
	}
	if got != n {
		return 0, fmt.Errorf("scanned %d rows, want %d", got, n)
	}
	return time.Since(start).Seconds(), nil
}
