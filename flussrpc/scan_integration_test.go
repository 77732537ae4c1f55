package flussrpc_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// scanAll polls a bounded scanner to its end.
func scanAll(t *testing.T, s *flussrpc.LogScanner) []flussrpc.ScanRecord {
	t.Helper()
	ctx := testCtx(t)
	var out []flussrpc.ScanRecord
	for {
		recs, err := s.Poll(ctx, 5*time.Second)
		out = append(out, recs...)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("Poll: %v", err)
		}
		if len(recs) == 0 && ctx.Err() != nil {
			t.Fatal("bounded scan did not finish")
		}
	}
}

// byBucket splits records per (partition, bucket), checking offset order.
func byBucket(t *testing.T, recs []flussrpc.ScanRecord) map[flussrpc.ScanTestBucket][]flussrpc.ScanRecord {
	t.Helper()
	out := map[flussrpc.ScanTestBucket][]flussrpc.ScanRecord{}
	for _, r := range recs {
		k := flussrpc.ScanTestBucket{Partition: r.Partition, Bucket: r.Bucket}
		if prev := out[k]; len(prev) > 0 && prev[len(prev)-1].Offset >= r.Offset {
			t.Fatalf("bucket %v: offset %d after %d", k, r.Offset, prev[len(prev)-1].Offset)
		}
		out[k] = append(out[k], r)
	}
	return out
}

// scanLogTable creates a log table of id + every type.
func scanLogTable(t *testing.T, c *flussrpc.Client, db, format string, buckets int, partitioned bool) *flussrpc.Table {
	t.Helper()
	cols := append([]schema.Column{schema.NewColumn("id", schema.BigInt())}, scanAllTypeColumns()...)
	desc := schema.TableDescriptor{
		BucketCount: intPtr(buckets),
		Properties:  map[string]string{schema.OptLogFormat: format},
	}
	if partitioned {
		cols = append(cols, schema.NewColumn("p", schema.String()))
		desc.PartitionKeys = []string{"p"}
	}
	desc.Schema = newSchema(t, cols)
	return createTable(t, c, db, uniqueName("sc_"+format), desc)
}

func scanTestEncoder(t *testing.T, tbl *flussrpc.Table) flussrpc.ScanTestLogEncoder {
	t.Helper()
	enc, err := scanEncoderFor(tbl)
	if err != nil {
		t.Fatal(err)
	}
	return enc
}

func TestScanAllTypesBounded(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	for _, format := range scanFormats() {
		for _, partitioned := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/partitioned=%v", format, partitioned), func(t *testing.T) {
				tbl := scanLogTable(t, c, db, format, 3, partitioned)
				ctx := testCtx(t)
				if partitioned {
					for _, p := range []string{"a", "b"} {
						createPartition(t, c, tbl.Path(), map[string]string{"p": p})
					}
				}
				enc := scanTestEncoder(t, tbl)
				var rows [][]any
				for round := 0; round < 3; round++ { // several batches per bucket
					var batch [][]any
					for i := 0; i < 20; i++ {
						id := int64(round*100 + i)
						r := append([]any{id}, scanAllTypeValues(t, i)...)
						if partitioned {
							r = append(r, []string{"a", "b"}[i%2])
						}
						batch = append(batch, r)
					}
					if _, _, err := flussrpc.ScanTestAppend(ctx, tbl, enc, batch); err != nil {
						t.Fatal(err)
					}
					rows = append(rows, batch...)
				}
				s, err := tbl.NewLogScanner(flussrpc.LogScanOptions{Bounded: true})
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
				if err := s.SubscribeAll(ctx, flussrpc.ScanFromEarliest()); err != nil {
					t.Fatal(err)
				}
				recs := scanAll(t, s)
				if !s.Done() {
					t.Fatal("Done() is false after io.EOF")
				}
				per := byBucket(t, recs)
				wantBuckets := 3
				if partitioned {
					wantBuckets = 6
				}
				if len(per) != wantBuckets {
					t.Errorf("records from %d buckets, want %d", len(per), wantBuckets)
				}
				var got [][]any
				for k, rs := range per {
					for i, r := range rs {
						if r.Offset != int64(i) {
							t.Fatalf("bucket %v record %d has offset %d", k, i, r.Offset)
						}
						if r.ChangeType != codec.AppendOnly {
							t.Fatalf("change type %v in a log table", r.ChangeType)
						}
						if r.Timestamp < time.Now().Add(-time.Hour).UnixMilli() {
							t.Fatalf("implausible timestamp %d", r.Timestamp)
						}
						got = append(got, r.Row)
					}
				}
				sameRowSet(t, "bounded scan", got, rows)
				// Data written after the scan started is not included.
				if _, err := s.Poll(ctx, 10*time.Millisecond); !errors.Is(err, io.EOF) {
					t.Fatalf("Poll after end = %v", err)
				}
			})
		}
	}
}

func TestScanStartsAndProjection(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	for _, format := range scanFormats() {
		t.Run(format, func(t *testing.T) {
			cols := []schema.Column{
				schema.NewColumn("a", schema.Int()),
				schema.NewColumn("b", schema.String()),
				schema.NewColumn("c", schema.BigInt()),
				schema.NewColumn("d", schema.Double()),
			}
			desc := schema.TableDescriptor{Schema: newSchema(t, cols), BucketCount: intPtr(1), Properties: map[string]string{schema.OptLogFormat: format}}
			tbl := createTable(t, c, db, uniqueName("scs"), desc)
			enc := scanTestEncoder(t, tbl)
			ctx := testCtx(t)
			write := func(from, n int) {
				var rows [][]any
				for i := from; i < from+n; i++ {
					rows = append(rows, []any{int32(i), fmt.Sprint("s", i), int64(i) * 10, float64(i) / 2})
				}
				if _, _, err := flussrpc.ScanTestAppend(ctx, tbl, enc, rows); err != nil {
					t.Fatal(err)
				}
			}
			for i := 0; i < 5; i++ {
				write(i*10, 10) // five batches of ten
			}
			time.Sleep(20 * time.Millisecond)
			tsMid := time.Now().UnixMilli()
			time.Sleep(20 * time.Millisecond)
			write(50, 10)

			read := func(opts flussrpc.LogScanOptions, start flussrpc.ScanStart) []flussrpc.ScanRecord {
				opts.Bounded = true
				s, err := tbl.NewLogScanner(opts)
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
				if err := s.Subscribe(ctx, 0, start); err != nil {
					t.Fatal(err)
				}
				return scanAll(t, s)
			}
			// Explicit offset in the middle of a batch: records below it are skipped.
			recs := read(flussrpc.LogScanOptions{Columns: []string{"c", "a"}}, flussrpc.ScanFromOffset(25))
			if len(recs) != 35 || recs[0].Offset != 25 {
				t.Fatalf("from offset 25: %d records, first %v", len(recs), recs[0])
			}
			for _, r := range recs {
				if want := []any{r.Offset * 10, int32(r.Offset)}; canon(r.Row) != canon(want) {
					t.Fatalf("projected row %v, want %v", r.Row, want)
				}
			}
			if recs := read(flussrpc.LogScanOptions{Columns: []string{"d"}}, flussrpc.ScanFromTimestamp(tsMid)); len(recs) != 10 || recs[0].Offset != 50 {
				t.Fatalf("from timestamp: %d records (first %+v)", len(recs), recs)
			}
			if recs := read(flussrpc.LogScanOptions{}, flussrpc.ScanFromLatest()); len(recs) != 0 {
				t.Fatalf("bounded from latest: %d records", len(recs))
			}
			if recs := read(flussrpc.LogScanOptions{Stop: flussrpc.ScanToTimestamp(tsMid)}, flussrpc.ScanFromEarliest()); len(recs) != 50 || recs[49].Offset != 49 {
				t.Fatalf("to timestamp: %d records", len(recs))
			}
			if n, err := tbl.RowCount(ctx, ""); err != nil || n != 60 {
				t.Fatalf("RowCount = %d, %v; want 60", n, err)
			}
			if parts, err := tbl.Partitions(ctx, nil, nil); err != nil || len(parts) != 1 || parts[0] != "" {
				t.Fatalf("Partitions of a table without partitions = %q, %v", parts, err)
			}
			if _, err := tbl.NewLogScanner(flussrpc.LogScanOptions{Columns: []string{"a", "a"}}); err == nil {
				t.Fatal("duplicate projection accepted")
			}
			if _, err := tbl.NewLogScanner(flussrpc.LogScanOptions{Columns: []string{"nope"}}); err == nil {
				t.Fatal("unknown column accepted")
			}

			// Unbounded from latest sees only new records.
			s, err := tbl.NewLogScanner(flussrpc.LogScanOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if err := s.Subscribe(ctx, 0, flussrpc.ScanFromLatest()); err != nil {
				t.Fatal(err)
			}
			if recs, err := s.Poll(ctx, 200*time.Millisecond); err != nil || len(recs) != 0 {
				t.Fatalf("idle poll: %v, %v", recs, err)
			}
			write(60, 3)
			var got []flussrpc.ScanRecord
			for len(got) < 3 {
				recs, err := s.Poll(ctx, 5*time.Second)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, recs...)
			}
			if got[0].Offset != 60 || len(got) != 3 {
				t.Fatalf("new records: %+v", got)
			}
			// ctx cancel during a long poll returns promptly.
			cctx, cancel := context.WithCancel(ctx)
			time.AfterFunc(100*time.Millisecond, cancel)
			start := time.Now()
			if _, err := s.Poll(cctx, time.Minute); !errors.Is(err, context.Canceled) {
				t.Fatalf("cancelled poll: %v", err)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Fatalf("cancelled poll took %v", d)
			}
			s.Unsubscribe("", 0)
			if subs := s.Subscriptions(); len(subs) != 0 {
				t.Fatalf("subscriptions after unsubscribe: %v", subs)
			}
		})
	}
}

func TestScanChangelog(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	for _, format := range scanFormats() {
		if format == schema.FormatIndexed {
			// 0.9.1 accepts an INDEXED changelog only with INDEXED values,
			// and then fails upserts itself ("IndexWalBuilder requires the
			// log row to be IndexedRow"), so there is nothing to read.
			continue
		}
		t.Run(format, func(t *testing.T) {
			cols := []schema.Column{schema.NewColumn("k", schema.Int()), schema.NewColumn("v", schema.String())}
			desc := schema.TableDescriptor{Schema: newSchema(t, cols, "k"), BucketCount: intPtr(2), Properties: map[string]string{schema.OptLogFormat: format}}
			tbl := createTable(t, c, db, uniqueName("scl"), desc)
			ctx := testCtx(t)
			steps := []struct {
				rows    [][]any
				deletes []bool
			}{
				{rows: [][]any{{int32(1), "a"}, {int32(2), "b"}, {int32(3), "c"}}},
				{rows: [][]any{{int32(1), "a2"}, {int32(2), "b2"}}},
				{rows: [][]any{{int32(3), nil}, {int32(9), nil}}, deletes: []bool{true, true}}, // 9 never existed
				{rows: [][]any{{int32(1), "a2"}}},                                              // same value again
			}
			for _, st := range steps {
				if _, err := flussrpc.ScanTestUpsert(ctx, tbl, st.rows, st.deletes); err != nil {
					t.Fatal(err)
				}
			}
			s, err := tbl.NewLogScanner(flussrpc.LogScanOptions{Bounded: true})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if err := s.SubscribeAll(ctx, flussrpc.ScanFromEarliest()); err != nil {
				t.Fatal(err)
			}
			recs := scanAll(t, s)
			perKey := map[int32][]string{}
			for _, r := range byBucket(t, recs) {
				for _, rec := range r {
					k := rec.Row[0].(int32)
					perKey[k] = append(perKey[k], rec.ChangeType.String()+canon(rec.Row[1]))
				}
			}
			want := map[int32][]string{
				1: {`+I"a"`, `-U"a"`, `+U"a2"`, `-U"a2"`, `+U"a2"`},
				2: {`+I"b"`, `-U"b"`, `+U"b2"`},
				3: {`+I"c"`, `-D"c"`},
			}
			keys := []int32{1, 2, 3}
			sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
			for _, k := range keys {
				if fmt.Sprint(perKey[k]) != fmt.Sprint(want[k]) {
					t.Errorf("key %d: changelog %v, want %v", k, perKey[k], want[k])
				}
			}
			if len(perKey) != 3 {
				t.Errorf("changelog has keys %v", perKey)
			}
		})
	}
}

// TestScanBatchesLargerThanBucketFetchSize pins a bug found by the driver
// tests: a 0.9 tablet server cuts every bucket but the first of a fetch
// response at max_fetch_bytes, mid-batch, so with several buckets and
// batches above the 1 MiB per-bucket default the scan failed with "no
// complete batch". The scanner must grow the bucket's fetch size instead.
func TestScanBatchesLargerThanBucketFetchSize(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	cols := []schema.Column{schema.NewColumn("id", schema.BigInt()), schema.NewColumn("pad", schema.String())}
	desc := schema.TableDescriptor{Schema: newSchema(t, cols), BucketCount: intPtr(4), BucketKeys: []string{"id"},
		Properties: map[string]string{"table.log.arrow.compression.type": "NONE"}}
	tbl := createTable(t, c, db, uniqueName("big"), desc)
	w, err := tbl.NewAppendWriter(flussrpc.AppendOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t)
	pad := strings.Repeat("x", 1000)
	const rows = 12000 // ~3 MB per bucket: batches close to the 2 MiB batch size
	for i := 0; i < rows; i++ {
		if _, err := w.Append(ctx, []any{int64(i), pad}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	w.Close(ctx)
	s, err := tbl.NewLogScanner(flussrpc.LogScanOptions{Bounded: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.SubscribeAll(ctx, flussrpc.ScanFromEarliest()); err != nil {
		t.Fatal(err)
	}
	if got := len(scanAll(t, s)); got != rows {
		t.Fatalf("scanned %d rows, want %d", got, rows)
	}
}
