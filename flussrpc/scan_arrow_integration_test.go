package flussrpc_test

import (
	"errors"
	"io"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// PollArrow returns the same records as Poll, as Arrow batches with the
// projected columns in the requested order, for every log format.
func TestScanPollArrow(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	for _, format := range scanFormats() {
		t.Run(format, func(t *testing.T) {
			tbl := scanLogTable(t, c, db, format, 2, false)
			enc := scanTestEncoder(t, tbl)
			ctx := testCtx(t)
			var rows [][]any
			for round := 0; round < 3; round++ {
				var batch [][]any
				for i := 0; i < 8; i++ {
					batch = append(batch, append([]any{int64(round*8 + i)}, scanAllTypeValues(t, i)...))
				}
				if _, _, err := flussrpc.ScanTestAppend(ctx, tbl, enc, batch); err != nil {
					t.Fatal(err)
				}
				rows = append(rows, batch...)
			}
			cols := []string{"c_row", "id", "c_ts9", "c_dec38", "c_map", "c_str"}
			sc := tbl.Info().Descriptor.Schema
			idx, _ := sc.ColumnIndexes(cols)
			var outCols []schema.Column
			for _, i := range idx {
				outCols = append(outCols, sc.Columns[i])
			}
			dec, err := arrowipc.NewDecoder(outCols, nil, arrowipc.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			defer dec.Release()
			s, err := tbl.NewLogScanner(flussrpc.LogScanOptions{Columns: cols, Bounded: true})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			// Start bucket 0 inside its first batch: rows before it are cut.
			if err := s.Subscribe(ctx, 0, flussrpc.ScanFromOffset(1)); err != nil {
				t.Fatal(err)
			}
			if err := s.Subscribe(ctx, 1, flussrpc.ScanFromEarliest()); err != nil {
				t.Fatal(err)
			}
			var got [][]any
			next := map[int32]int64{0: 1, 1: 0}
			for {
				batches, err := s.PollArrow(ctx, 5*time.Second)
				for _, b := range batches {
					if b.BaseOffset != next[b.Bucket] || b.LastOffset-b.BaseOffset+1 != b.Record.NumRows() {
						t.Fatalf("bucket %d batch %d..%d (%d rows), expected to start at %d", b.Bucket, b.BaseOffset, b.LastOffset, b.Record.NumRows(), next[b.Bucket])
					}
					next[b.Bucket] = b.LastOffset + 1
					if b.ChangeTypes != nil {
						t.Fatalf("change types %v for a log table", b.ChangeTypes)
					}
					if !b.Record.Schema().Equal(dec.Schema()) {
						t.Fatalf("record schema %v, want %v", b.Record.Schema(), dec.Schema())
					}
					if got, err = dec.AppendRows(got, b.Record); err != nil {
						t.Fatal(err)
					}
					b.Record.Release()
				}
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			// Expected: every row but rows[0] (offset 0 of bucket 0, as
			// ScanTestAppend puts row i of a call into bucket i%2), projected.
			var want [][]any
			for _, r := range rows[1:] {
				p := make([]any, len(idx))
				for j, x := range idx {
					p[j] = r[x]
				}
				want = append(want, p)
			}
			sameRowSet(t, "PollArrow rows", got, want)
		})
	}
}
