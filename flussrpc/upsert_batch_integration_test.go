package flussrpc_test

import (
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// TestUpsertManySmallRowsInOneBatch: 2 MiB of rows this small is over 131,072
// records, which a 0.9.1 tablet server cannot put into the ARROW changelog
// of one batch (IndexOutOfBoundsException, every record of the batch
// failed). An update takes two changelog records (-U, +U), so a batch of
// 65,534 updates fails the same way. The writer caps such batches by
// records too; with a linger long enough for batches to fill, every row
// must be acknowledged, inserted first and then updated.
func TestUpsertManySmallRowsInOneBatch(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	cols := []schema.Column{schema.NewColumn("id", schema.Int()), schema.NewColumn("v", schema.Int())}
	desc := schema.TableDescriptor{Schema: newSchema(t, cols, "id"), BucketCount: intPtr(1)}
	desc.Properties = map[string]string{schema.OptLogFormat: schema.FormatArrow}
	tbl := createTable(t, c, db, uniqueName("small_rows"), desc)
	const n = 300_000
	rows := make([][]any, n)
	ctx := testCtx(t)
	for pass, v := range []int32{0, 1000} {
		for i := range rows {
			rows[i] = []any{int32(i), v + int32(i%100)}
		}
		res, err := wtUpsert(t, tbl, flussrpc.UpsertOptions{WriterOptions: flussrpc.WriterOptions{BatchTimeout: time.Minute}}, rows, nil)
		if err != nil {
			t.Fatalf("pass %d: flush: %v", pass, err)
		}
		for i, r := range res {
			if err := r.Wait(ctx); err != nil {
				t.Fatalf("pass %d: row %d: %v", pass, i, err)
			}
		}
	}
	lk, err := tbl.NewLookuper()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []int32{0, n / 2, n - 1} {
		row, ok, err := lk.Lookup(ctx, []any{id})
		if err != nil || !ok || row[1] != 1000+id%100 {
			t.Errorf("lookup %d: %v %v %v", id, row, ok, err)
		}
	}
}
