package flussrpc_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// lookupAllTypesTable creates a PK table (id BIGINT, every type) with the
// given kv format and buckets and writes n rows through raw PUT_KV.
func lookupAllTypesTable(t *testing.T, c *flussrpc.Client, db, kvFormat string, buckets, n int) (*flussrpc.Table, [][]any) {
	t.Helper()
	cols := append([]schema.Column{schema.NewColumn("id", schema.BigInt())}, scanAllTypeColumns()...)
	desc := schema.TableDescriptor{
		Schema:      newSchema(t, cols, "id"),
		BucketCount: intPtr(buckets),
		Properties:  map[string]string{schema.OptKvFormat: kvFormat},
	}
	tbl := createTable(t, c, db, uniqueName("lk_"+kvFormat), desc)
	rows := make([][]any, n)
	for i := range rows {
		rows[i] = append([]any{int64(i)}, scanAllTypeValues(t, i)...)
	}
	if _, err := flussrpc.ScanTestUpsert(testCtx(t), tbl, rows, nil); err != nil {
		t.Fatalf("upsert: %v", err)
	}
	return tbl, rows
}

func TestLookupAllTypes(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	for _, format := range []string{schema.FormatCompacted, schema.FormatIndexed} {
		t.Run(format, func(t *testing.T) {
			tbl, rows := lookupAllTypesTable(t, c, db, format, 3, 12)
			lk, err := tbl.NewLookuper()
			if err != nil {
				t.Fatal(err)
			}
			ctx := testCtx(t)
			for _, want := range rows {
				got, found, err := lk.Lookup(ctx, []any{want[0]})
				if err != nil || !found {
					t.Fatalf("Lookup(%v) = %v, %v", want[0], found, err)
				}
				sameRows(t, fmt.Sprintf("key %v", want[0]), [][]any{got}, [][]any{want})
			}
			if _, found, err := lk.Lookup(ctx, []any{int64(1 << 40)}); err != nil || found {
				t.Fatalf("missing key: found=%v err=%v", found, err)
			}
			if _, _, err := lk.Lookup(ctx, []any{nil}); err == nil {
				t.Fatal("NULL key accepted")
			}
			if _, _, err := lk.Lookup(ctx, []any{int64(1), int64(2)}); err == nil {
				t.Fatal("two-value key accepted for a one-column key")
			}
		})
	}
}

func TestLookupConcurrentBatched(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	cols := []schema.Column{schema.NewColumn("k", schema.Int()), schema.NewColumn("v", schema.String())}
	tbl := createTable(t, c, db, uniqueName("lkc"), schema.TableDescriptor{Schema: newSchema(t, cols, "k"), BucketCount: intPtr(4)})
	const n = 2000
	rows := make([][]any, n)
	for i := range rows {
		rows[i] = []any{int32(i), fmt.Sprintf("value-%d", i)}
	}
	if _, err := flussrpc.ScanTestUpsert(testCtx(t), tbl, rows, nil); err != nil {
		t.Fatal(err)
	}
	lk, err := tbl.NewLookuper()
	if err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := 0; g < 64; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := g; i < n+200; i += 64 {
				got, found, err := lk.Lookup(ctx, []any{int32(i)})
				switch {
				case err != nil:
					errs <- err
					return
				case i >= n && found:
					errs <- fmt.Errorf("key %d found: %v", i, got)
					return
				case i < n && (!found || got[1] != rows[i][1]):
					errs <- fmt.Errorf("key %d: found=%v row=%v", i, found, got)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

func TestLookupPartitioned(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	cols := []schema.Column{
		schema.NewColumn("region", schema.String()),
		schema.NewColumn("id", schema.BigInt()),
		schema.NewColumn("name", schema.String()),
	}
	desc := schema.TableDescriptor{
		Schema:        newSchema(t, cols, "region", "id"),
		PartitionKeys: []string{"region"},
		BucketCount:   intPtr(2),
	}
	tbl := createTable(t, c, db, uniqueName("lkp"), desc)
	ctx := testCtx(t)
	for _, r := range []string{"eu", "us"} {
		createPartition(t, c, tbl.Path(), map[string]string{"region": r})
	}
	var rows [][]any
	for i := 0; i < 20; i++ {
		region := []string{"eu", "us"}[i%2]
		rows = append(rows, []any{region, int64(i / 2), fmt.Sprintf("%s-%d", region, i/2)})
	}
	if _, err := flussrpc.ScanTestUpsert(ctx, tbl, rows, nil); err != nil {
		t.Fatal(err)
	}
	lk, err := tbl.NewLookuper()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range rows {
		got, found, err := lk.Lookup(ctx, []any{want[0], want[1]})
		if err != nil || !found {
			t.Fatalf("Lookup(%v) = %v, %v", want[:2], found, err)
		}
		sameRows(t, "partitioned", [][]any{got}, [][]any{want})
	}
	// Same id in a partition that does not exist: not found, no error.
	if _, found, err := lk.Lookup(ctx, []any{"asia", int64(1)}); err != nil || found {
		t.Fatalf("missing partition: found=%v err=%v", found, err)
	}
	if _, found, err := lk.Lookup(ctx, []any{"eu", int64(999)}); err != nil || found {
		t.Fatalf("missing key: found=%v err=%v", found, err)
	}
}

func TestPrefixLookup(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	cols := []schema.Column{
		schema.NewColumn("dt", schema.String()),
		schema.NewColumn("user", schema.BigInt()),
		schema.NewColumn("seq", schema.Int()),
		schema.NewColumn("payload", schema.String()),
	}
	desc := schema.TableDescriptor{
		Schema:        newSchema(t, cols, "dt", "user", "seq"),
		PartitionKeys: []string{"dt"},
		BucketKeys:    []string{"user"},
		BucketCount:   intPtr(3),
	}
	tbl := createTable(t, c, db, uniqueName("plk"), desc)
	ctx := testCtx(t)
	createPartition(t, c, tbl.Path(), map[string]string{"dt": "2024"})
	var rows [][]any
	want := map[int64][][]any{}
	for u := int64(0); u < 10; u++ {
		for s := int32(0); s < int32(u%4); s++ {
			r := []any{"2024", u, s, fmt.Sprintf("u%d-s%d", u, s)}
			rows = append(rows, r)
			want[u] = append(want[u], r)
		}
	}
	if _, err := flussrpc.ScanTestUpsert(ctx, tbl, rows, nil); err != nil {
		t.Fatal(err)
	}
	pl, err := tbl.NewPrefixLookuper([]string{"dt", "user"})
	if err != nil {
		t.Fatal(err)
	}
	for u := int64(0); u < 10; u++ {
		got, err := pl.Lookup(ctx, []any{"2024", u})
		if err != nil {
			t.Fatal(err)
		}
		sameRowSet(t, fmt.Sprintf("user %d", u), got, want[u])
	}
	// Point lookups work on the same table (bucket key != primary key).
	lk, err := tbl.NewLookuper()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		got, found, err := lk.Lookup(ctx, r[:3])
		if err != nil || !found {
			t.Fatalf("point lookup %v: %v, %v", r[:3], found, err)
		}
		sameRows(t, "point lookup", [][]any{got}, [][]any{r})
	}
	if got, err := pl.Lookup(ctx, []any{"1999", int64(1)}); err != nil || len(got) != 0 {
		t.Fatalf("missing partition: %v, %v", got, err)
	}
	// Columns in another order are fine as long as the bucket key keeps its order.
	if _, err := tbl.NewPrefixLookuper([]string{"user", "dt"}); err != nil {
		t.Fatalf("partition column after the bucket key: %v", err)
	}
	for _, bad := range [][]string{{"user"}, {"dt", "seq"}, {"dt", "user", "seq"}, {"dt"}} {
		if _, err := tbl.NewPrefixLookuper(bad); !errors.Is(err, flussrpc.ErrInvalidPrefixLookup) {
			t.Errorf("NewPrefixLookuper(%v) = %v, want ErrInvalidPrefixLookup", bad, err)
		}
	}
}

func TestPrefixLookupRejectsDefaultBucketKey(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	cols := []schema.Column{schema.NewColumn("a", schema.Int()), schema.NewColumn("b", schema.Int())}
	tbl := createTable(t, c, db, uniqueName("plkd"), schema.TableDescriptor{Schema: newSchema(t, cols, "a")})
	if _, err := tbl.NewPrefixLookuper([]string{"a"}); !errors.Is(err, flussrpc.ErrInvalidPrefixLookup) {
		t.Fatalf("prefix lookup by the whole key: %v", err)
	}
	logTbl := createTable(t, c, db, uniqueName("plkl"), schema.TableDescriptor{Schema: newSchema(t, cols)})
	if _, err := logTbl.NewLookuper(); !errors.Is(err, flussrpc.ErrNotPrimaryKeyTable) {
		t.Fatalf("lookup on a log table: %v", err)
	}
}

func TestLookupContextCancel(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	cols := []schema.Column{schema.NewColumn("k", schema.Int()), schema.NewColumn("v", schema.Int())}
	tbl := createTable(t, c, db, uniqueName("lkx"), schema.TableDescriptor{Schema: newSchema(t, cols, "k")})
	lk, err := tbl.NewLookuper()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// Many times: a cancelled lookup that was sent anyway succeeded
	// whenever its answer beat the cancellation (seen under load).
	for range 200 {
		start := time.Now()
		if _, _, err := lk.Lookup(ctx, []any{int32(1)}); !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled lookup: %v", err)
		}
		if time.Since(start) > time.Second {
			t.Fatal("cancelled lookup was slow")
		}
	}
}
