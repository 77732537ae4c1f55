package flussrpc_test

import (
	"context"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// TestWaitWithoutFlush: every batch leaves within the batch timeout of its
// first row, so a caller that awaits each write in turn (append, then
// Wait) never needs Flush — not only for the writer's first batch.
func TestWaitWithoutFlush(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	cols := []schema.Column{
		schema.NewColumn("id", schema.BigInt().NotNull()),
		schema.NewColumn("region", schema.String().NotNull()),
	}
	const rows = 4
	// Each Wait gets far more than the 100 ms batch timeout; before the
	// fix, only row 1 was acknowledged and row 2 waited for ever.
	const wait = 20 * time.Second
	for _, tc := range []struct {
		name   string
		pk     []string
		parts  []string
		delete bool
	}{
		{name: "append"},
		{name: "append partitioned", parts: []string{"region"}},
		{name: "upsert", pk: []string{"id"}},
		{name: "upsert partitioned", pk: []string{"id", "region"}, parts: []string{"region"}},
		{name: "delete", pk: []string{"id"}, delete: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			desc := schema.TableDescriptor{Schema: newSchema(t, cols, tc.pk...), PartitionKeys: tc.parts, BucketCount: intPtr(2)}
			tbl := createTable(t, c, db, uniqueName("wait"), desc)
			data := make([][]any, rows)
			for i := range data {
				data[i] = []any{int64(i), []string{"eu", "us"}[i%2]}
			}
			createRowPartitions(t, c, tbl, data)
			write := wtWaitWriter(t, tbl, len(tc.pk) > 0, tc.delete)
			for i, row := range data {
				ctx, cancel := context.WithTimeout(context.Background(), wait)
				res, err := write(ctx, row)
				if err == nil {
					err = res.Wait(ctx)
				}
				cancel()
				if err != nil {
					t.Fatalf("row %d (no Flush): %v", i+1, err)
				}
			}
		})
	}
}

// wtWaitWriter returns a function writing one row with a new writer of
// tbl (closed at cleanup): Append for log tables, Upsert or Delete for
// primary-key tables.
func wtWaitWriter(t *testing.T, tbl *flussrpc.Table, pk, del bool) func(context.Context, []any) (flussrpc.WriteResult, error) {
	t.Helper()
	if !pk {
		w, err := tbl.NewAppendWriter(flussrpc.AppendOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = w.Close(context.Background()) })
		return w.Append
	}
	w, err := tbl.NewUpsertWriter(flussrpc.UpsertOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Close(context.Background()) })
	if del {
		return w.Delete
	}
	return w.Upsert
}
