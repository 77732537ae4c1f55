package flussrpc_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// Writer tests against the real cluster. Whatever pyfluss can read (ARROW
// logs, PK tables) is read back with it; INDEXED and COMPACTED logs, which
// pyfluss cannot read, are read with our LogScanner, and their bucket
// placement is compared with a twin ARROW table written by pyfluss.

// wtAllTypes returns the columns (id BIGINT first, then every type) and n
// rows: typical values, all NULL, minimum/empty and maximum values, in
// turn. Timestamps stay within what pyfluss can read (years 0001-9999
// at microsecond scale, int64 nanoseconds for TIMESTAMP(9)).
func wtAllTypes(t *testing.T, n int) ([]schema.Column, [][]any) {
	cols := append([]schema.Column{schema.NewColumn("id", schema.BigInt())}, scanAllTypeColumns()...)
	ts := func(y int, mo time.Month, d, h, mi, s, ns int) time.Time {
		return time.Date(y, mo, d, h, mi, s, ns, time.UTC)
	}
	rows := make([][]any, n)
	for i := range rows {
		v := scanAllTypeValues(t, i)
		switch i % 4 {
		case 0:
			v[17] = codec.TimestampLTZOf(ts(2024, 2, 29, 23, 59, 58, 123456000))
		case 2:
			v[15] = codec.TimestampNTZOf(ts(1, 1, 2, 0, 0, 0, 0))
			v[16] = codec.TimestampNTZOf(ts(1677, 9, 22, 0, 12, 43, 145224192))
			v[17] = codec.TimestampLTZOf(ts(1900, 1, 1, 0, 0, 0, 1000))
		case 3:
			v[15] = codec.TimestampNTZOf(ts(9999, 12, 29, 23, 59, 59, 999000000))
			v[16] = codec.TimestampNTZOf(ts(2262, 4, 11, 23, 47, 16, 854775807))
			v[17] = codec.TimestampLTZOf(ts(9999, 12, 29, 23, 59, 59, 999999000))
		}
		rows[i] = append([]any{int64(i)}, v...)
	}
	return cols, rows
}

func wtTypes(cols []schema.Column) []schema.DataType {
	out := make([]schema.DataType, len(cols))
	for i, c := range cols {
		out[i] = c.Type
	}
	return out
}

// wtAppend writes rows with a new AppendWriter and flushes.
func wtAppend(t *testing.T, tbl *flussrpc.Table, opts flussrpc.AppendOptions, rows [][]any) {
	t.Helper()
	ctx := testCtx(t)
	w, err := tbl.NewAppendWriter(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close(context.Background())
	results := make([]flussrpc.WriteResult, len(rows))
	for i, r := range rows {
		if results[i], err = w.Append(ctx, r); err != nil {
			t.Fatalf("Append row %d: %v", i, err)
		}
	}
	if err := w.Flush(ctx); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	for i, r := range results {
		select {
		case <-r.Done():
		default:
			t.Fatalf("row %d not acknowledged after Flush", i)
		}
		if err := r.Wait(ctx); err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
		if r.Offset() < 0 {
			t.Fatalf("row %d has no offset", i)
		}
	}
}

// wtTwinPlaces writes rows with pyfluss to a fresh ARROW copy of desc and
// returns where each id landed: the Java-compatible placement.
func wtTwinPlaces(t *testing.T, c *flussrpc.Client, db string, desc schema.TableDescriptor, rows [][]any, upsert bool) map[int64]wtPlace {
	t.Helper()
	desc = desc.Clone()
	delete(desc.Properties, schema.OptLogFormat)
	twin := createTable(t, c, db, uniqueName("twin"), desc)
	// pyfluss does not create partitions; make the ones the rows need.
	createRowPartitions(t, c, twin, rows)
	cmd := "append"
	if upsert {
		// Only the key decides the bucket; leave the other columns NULL
		// (pyfluss' row API is limited to microsecond timestamps).
		cmd = "upsert"
		keep := map[int]bool{}
		for _, k := range desc.Schema.PrimaryKey {
			keep[desc.Schema.ColumnIndex(k)] = true
		}
		keyRows := make([][]any, len(rows))
		for i, r := range rows {
			keyRows[i] = make([]any, len(r))
			for j := range r {
				if keep[j] {
					keyRows[i][j] = r[j]
				}
			}
		}
		rows = keyRows
	}
	wtPeerWrite(t, cmd, twin.Path(), wtTypes(desc.Schema.Columns), rows)
	places := map[int64]wtPlace{}
	for _, r := range wtScan(t, twin.Path()).Rows {
		places[wtPeerID(t, r)] = wtPlaceOf(r)
	}
	if len(places) != len(rows) {
		t.Fatalf("twin table holds %d ids, want %d", len(places), len(rows))
	}
	return places
}

// wtOurScan reads a table with our LogScanner, bounded.
func wtOurScan(t *testing.T, tbl *flussrpc.Table) []flussrpc.ScanRecord {
	t.Helper()
	s, err := tbl.NewLogScanner(flussrpc.LogScanOptions{Bounded: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.SubscribeAll(testCtx(t), flussrpc.ScanFromEarliest()); err != nil {
		t.Fatal(err)
	}
	return scanAll(t, s)
}

func TestAppendAllFormatsAndBuckets(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	cols, rows := wtAllTypes(t, 60)
	types := wtTypes(cols)
	base := schema.TableDescriptor{
		Schema:      newSchema(t, cols),
		BucketKeys:  []string{"id"},
		BucketCount: intPtr(4),
	}
	twin := wtTwinPlaces(t, c, db, base, rows, false)
	for _, format := range []string{schema.FormatArrow, schema.FormatIndexed, schema.FormatCompacted} {
		t.Run(format, func(t *testing.T) {
			desc := base.Clone()
			desc.Properties = map[string]string{schema.OptLogFormat: format}
			tbl := createTable(t, c, db, uniqueName("ap_"+format), desc)
			// Small batches: several batches, requests and sequences per bucket.
			opts := flussrpc.AppendOptions{WriterOptions: flussrpc.WriterOptions{BatchSize: 2048}}
			wtAppend(t, tbl, opts, rows)
			if format == schema.FormatArrow {
				got := wtScan(t, tbl.Path())
				if len(got.Rows) != len(rows) {
					t.Fatalf("pyfluss reads %d rows, want %d", len(got.Rows), len(rows))
				}
				for _, r := range got.Rows {
					id := wtPeerID(t, r)
					if r.Change != "+A" {
						t.Errorf("id %d: change type %s", id, r.Change)
					}
					if wtPlaceOf(r) != twin[id] {
						t.Errorf("id %d: we wrote it to %+v, pyfluss to %+v", id, wtPlaceOf(r), twin[id])
					}
					wtSameValues(t, fmt.Sprintf("id %d", id), types, rows[id], r.Row)
				}
				return
			}
			recs := wtOurScan(t, tbl)
			var got [][]any
			for _, r := range recs {
				id := r.Row[0].(int64)
				if p := (wtPlace{r.Partition, r.Bucket}); p != twin[id] {
					t.Errorf("id %d: we wrote it to %+v, pyfluss to %+v", id, p, twin[id])
				}
				if r.ChangeType != codec.AppendOnly {
					t.Errorf("id %d: change type %v", id, r.ChangeType)
				}
				got = append(got, r.Row)
			}
			sameRowSet(t, format, got, rows)
		})
	}
}

// TestAppendNoKeyAssigners: rows of a table without bucket key are spread
// by the sticky assigner (whole batches to one bucket) or round-robin.
func TestAppendNoKeyAssigners(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	cols := []schema.Column{schema.NewColumn("id", schema.BigInt()), schema.NewColumn("s", schema.String())}
	rows := make([][]any, 400)
	for i := range rows {
		rows[i] = []any{int64(i), strings.Repeat("x", 20)}
	}
	for _, assigner := range []string{flussrpc.AssignerSticky, flussrpc.AssignerRoundRobin} {
		t.Run(assigner, func(t *testing.T) {
			desc := schema.TableDescriptor{Schema: newSchema(t, cols), BucketCount: intPtr(4),
				Properties: map[string]string{schema.OptLogFormat: schema.FormatCompacted}}
			tbl := createTable(t, c, db, uniqueName("nk"), desc)
			wtAppend(t, tbl, flussrpc.AppendOptions{WriterOptions: flussrpc.WriterOptions{
				BatchSize: 1024, NoKeyAssigner: assigner, BatchTimeout: time.Hour}}, rows)
			recs := wtOurScan(t, tbl)
			if len(recs) != len(rows) {
				t.Fatalf("read %d rows, want %d", len(recs), len(rows))
			}
			perBucket := map[int32][]int64{}
			for _, r := range recs {
				perBucket[r.Bucket] = append(perBucket[r.Bucket], r.Row[0].(int64))
			}
			if len(perBucket) < 2 {
				t.Fatalf("all rows in one bucket: %v", perBucket)
			}
			for b, ids := range perBucket {
				if !slices.IsSorted(ids) {
					t.Errorf("bucket %d: rows out of order", b)
				}
				if assigner == flussrpc.AssignerRoundRobin {
					if len(ids) != len(rows)/4 {
						t.Errorf("round robin: bucket %d has %d rows, want %d", b, len(ids), len(rows)/4)
					}
					for i := 1; i < len(ids); i++ {
						if ids[i]-ids[i-1] != 4 {
							t.Fatalf("round robin: bucket %d holds ids %d then %d", b, ids[i-1], ids[i])
						}
					}
				} else {
					// Sticky: a bucket receives runs of consecutive rows, a
					// batch at a time (about 1 KiB of rows here).
					runs := 1
					for i := 1; i < len(ids); i++ {
						if ids[i] != ids[i-1]+1 {
							runs++
						}
					}
					if runs*10 > len(ids) {
						t.Errorf("sticky: bucket %d has %d runs for %d rows", b, runs, len(ids))
					}
				}
			}
		})
	}
}

// TestAppendPartitionedDynamic: partitions are created on first write and
// rows go to the partition and bucket pyfluss would choose.
func TestAppendPartitionedDynamic(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	cols := []schema.Column{
		schema.NewColumn("id", schema.BigInt()),
		schema.NewColumn("region", schema.String()),
		schema.NewColumn("day", schema.Date()),
		schema.NewColumn("v", schema.Decimal(38, 4)),
	}
	regions := []string{"eu", "us", "ap-south"}
	rows := make([][]any, 90)
	for i := range rows {
		rows[i] = []any{int64(i), regions[i%3], codec.Date(19000 + i%2), testDecimal(t, int64(i)*12345, 38, 4)}
	}
	desc := schema.TableDescriptor{
		Schema:        newSchema(t, cols),
		PartitionKeys: []string{"region", "day"},
		BucketKeys:    []string{"id"},
		BucketCount:   intPtr(3),
	}
	twin := wtTwinPlaces(t, c, db, desc, rows, false)
	desc.Properties = map[string]string{schema.OptLogFormat: schema.FormatCompacted}

	// Without dynamic creation a missing partition is an error.
	tbl := createTable(t, c, db, uniqueName("pt"), desc)
	w, err := tbl.NewAppendWriter(flussrpc.AppendOptions{WriterOptions: flussrpc.WriterOptions{DisableDynamicPartitions: true}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Append(testCtx(t), rows[0]); !errors.Is(err, flussrpc.ErrPartitionNotExists) {
		t.Fatalf("Append to a missing partition without dynamic creation: %v", err)
	}
	w.Close(testCtx(t))

	wtAppend(t, tbl, flussrpc.AppendOptions{}, rows)
	parts, err := c.Admin().ListPartitionInfos(testCtx(t), tbl.Path(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) != 6 {
		t.Fatalf("partitions = %+v, want 6", parts)
	}
	recs := wtOurScan(t, tbl)
	var got [][]any
	for _, r := range recs {
		id := r.Row[0].(int64)
		if p := (wtPlace{r.Partition, r.Bucket}); p != twin[id] {
			t.Errorf("id %d: we wrote it to %+v, pyfluss to %+v", id, p, twin[id])
		}
		got = append(got, r.Row)
	}
	sameRowSet(t, "partitioned", got, rows)
}

func TestWriterWrongTableKind(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	cols := []schema.Column{schema.NewColumn("id", schema.BigInt().NotNull()), schema.NewColumn("s", schema.String())}
	logT := createTable(t, c, db, uniqueName("log"), schema.TableDescriptor{Schema: newSchema(t, cols),
		Properties: map[string]string{schema.OptLogFormat: schema.FormatCompacted}})
	pkT := createTable(t, c, db, uniqueName("pk"), schema.TableDescriptor{Schema: newSchema(t, cols, "id")})
	if _, err := logT.NewUpsertWriter(flussrpc.UpsertOptions{}); err == nil || !strings.Contains(err.Error(), "NewAppendWriter") {
		t.Errorf("NewUpsertWriter on a log table: %v", err)
	}
	if _, err := pkT.NewAppendWriter(flussrpc.AppendOptions{}); err == nil || !strings.Contains(err.Error(), "NewUpsertWriter") {
		t.Errorf("NewAppendWriter on a PK table: %v", err)
	}
	if _, err := pkT.NewUpsertWriter(flussrpc.UpsertOptions{TargetColumns: []string{"s"}}); err == nil {
		t.Error("partial update without the primary key accepted")
	}
	if _, err := pkT.NewUpsertWriter(flussrpc.UpsertOptions{WriterOptions: flussrpc.WriterOptions{Acks: "1"}}); err == nil {
		t.Error("idempotent writer with acks=1 accepted")
	}
	// Rows the encoder refuses fail Append itself.
	w, err := logT.NewAppendWriter(flussrpc.AppendOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close(testCtx(t))
	if _, err := w.Append(testCtx(t), []any{nil, "x"}); err == nil {
		t.Error("NULL in a NOT NULL column accepted")
	}
	if _, err := w.Append(testCtx(t), []any{int64(1)}); err == nil {
		t.Error("short row accepted")
	}
	if _, err := w.Append(testCtx(t), []any{"one", "x"}); err == nil {
		t.Error("string for BIGINT accepted")
	}
	if err := w.Flush(testCtx(t)); err != nil {
		t.Fatalf("Flush after refused rows: %v", err)
	}
}

// TestAppendConcurrent: goroutines share one writer; every row arrives
// once and each goroutine's rows keep their order within a bucket.
func TestAppendConcurrent(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	cols := []schema.Column{schema.NewColumn("g", schema.Int()), schema.NewColumn("i", schema.BigInt())}
	tbl := createTable(t, c, db, uniqueName("cc"), schema.TableDescriptor{Schema: newSchema(t, cols), BucketCount: intPtr(3),
		BucketKeys: []string{"g"}, Properties: map[string]string{schema.OptLogFormat: schema.FormatCompacted}})
	ctx := testCtx(t)
	w, err := tbl.NewAppendWriter(flussrpc.AppendOptions{WriterOptions: flussrpc.WriterOptions{BatchSize: 4096, BatchTimeout: 5 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close(context.Background())
	const goroutines, per = 8, 2000
	errs := make(chan error, goroutines)
	for g := 0; g < goroutines; g++ {
		go func() {
			for i := 0; i < per; i++ {
				if _, err := w.Append(ctx, []any{int32(g), int64(i)}); err != nil {
					errs <- err
					return
				}
				if i%500 == 0 {
					if err := w.Flush(ctx); err != nil {
						errs <- err
						return
					}
				}
			}
			errs <- nil
		}()
	}
	for g := 0; g < goroutines; g++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	last := map[int32]int64{}
	n := 0
	for _, r := range wtOurScan(t, tbl) {
		g, i := r.Row[0].(int32), r.Row[1].(int64)
		if prev, ok := last[g]; ok && i != prev+1 {
			t.Fatalf("goroutine %d: row %d after %d", g, i, prev)
		}
		last[g] = i
		n++
	}
	if n != goroutines*per {
		t.Fatalf("%d rows, want %d", n, goroutines*per)
	}
}
