package flussrpc_test

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/schema"
)

func TestLimitScanLogTable(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	for _, format := range scanFormats() {
		t.Run(format, func(t *testing.T) {
			tbl := scanLogTable(t, c, db, format, 1, false)
			enc := scanTestEncoder(t, tbl)
			ctx := testCtx(t)
			var rows [][]any
			for b := 0; b < 4; b++ {
				var batch [][]any
				for i := 0; i < 5; i++ {
					batch = append(batch, append([]any{int64(b*5 + i)}, scanAllTypeValues(t, i)...))
				}
				if _, _, err := flussrpc.ScanTestAppend(ctx, tbl, enc, batch); err != nil {
					t.Fatal(err)
				}
				rows = append(rows, batch...)
			}
			got, err := tbl.LimitScan(ctx, "", 0, 7)
			if err != nil {
				t.Fatal(err)
			}
			sameRows(t, "last 7 rows", got, rows[len(rows)-7:])
			got, err = tbl.LimitScan(ctx, "", 0, 100)
			if err != nil {
				t.Fatal(err)
			}
			sameRows(t, "all rows", got, rows)
			if _, err := tbl.LimitScan(ctx, "", 0, 0); err == nil {
				t.Fatal("limit 0 accepted")
			}
		})
	}
}

func TestLimitScanPKTableAndKVScan(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	for _, kv := range []string{schema.FormatCompacted, schema.FormatIndexed} {
		t.Run(kv, func(t *testing.T) {
			tbl, rows := lookupAllTypesTable(t, c, db, kv, 1, 12)
			ctx := testCtx(t)
			got, err := tbl.LimitScan(ctx, "", 0, 5)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 5 {
				t.Fatalf("limit 5 returned %d rows", len(got))
			}
			all, err := tbl.LimitScan(ctx, "", 0, 1000)
			if err != nil {
				t.Fatal(err)
			}
			sameRowSet(t, "PK limit scan", all, rows)
			// SCAN_KV is a 1.x API: 0.9.1 does not advertise it.
			_, err = tbl.NewKVScanner(ctx, "", 0)
			if !errors.Is(err, flussrpc.ErrKVScanUnsupported) {
				t.Fatalf("NewKVScanner on 0.9.1: %v", err)
			}
			// ScanTable falls back to LIMIT_SCAN and enforces its cap.
			scanTable := func(maxRows int64) ([][]any, error) {
				sc := tbl.ScanTable([]string{""}, maxRows)
				defer sc.Close()
				var out [][]any
				for {
					got, err := sc.Next(ctx)
					if errors.Is(err, io.EOF) {
						return out, nil
					}
					if err != nil {
						return out, err
					}
					out = append(out, got...)
				}
			}
			full, err := scanTable(12)
			if err != nil {
				t.Fatalf("ScanTable(cap 12): %v", err)
			}
			sameRowSet(t, "ScanTable", full, rows)
			if _, err := scanTable(11); !errors.Is(err, flussrpc.ErrRowCap) {
				t.Fatalf("ScanTable(cap 11) of 12 rows: %v, want ErrRowCap", err)
			}
			// NextArrow reads the same rows as records, under the cap too.
			recs, err := scanTableArrow(t, ctx, tbl, 12)
			if err != nil {
				t.Fatalf("NextArrow: %v", err)
			}
			sameRowSet(t, "NextArrow", recs, rows)
			if _, err := scanTableArrow(t, ctx, tbl, 11); !errors.Is(err, flussrpc.ErrRowCap) {
				t.Fatalf("NextArrow (cap 11) of 12 rows: %v, want ErrRowCap", err)
			}
		})
	}
}

func TestLimitScanPartitioned(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	cols := []schema.Column{schema.NewColumn("p", schema.String()), schema.NewColumn("k", schema.Int()), schema.NewColumn("v", schema.String())}
	desc := schema.TableDescriptor{Schema: newSchema(t, cols, "p", "k"), PartitionKeys: []string{"p"}, BucketCount: intPtr(1)}
	tbl := createTable(t, c, db, uniqueName("lsp"), desc)
	ctx := testCtx(t)
	createPartition(t, c, tbl.Path(), map[string]string{"p": "x"})
	var rows [][]any
	for i := 0; i < 3; i++ {
		rows = append(rows, []any{"x", int32(i), fmt.Sprint(i)})
	}
	if _, err := flussrpc.ScanTestUpsert(ctx, tbl, rows, nil); err != nil {
		t.Fatal(err)
	}
	got, err := tbl.LimitScan(ctx, "x", 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	sameRowSet(t, "partition x", got, rows)
	if _, err := tbl.LimitScan(ctx, "nope", 0, 10); !errors.Is(err, flussrpc.ErrPartitionNotExists) {
		t.Fatalf("missing partition: %v", err)
	}
}
