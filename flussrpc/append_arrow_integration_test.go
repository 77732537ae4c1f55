package flussrpc_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// wtRecord builds an Arrow record of the table's Arrow schema from rows.
func wtRecord(t *testing.T, cols []schema.Column, rows [][]any) arrow.RecordBatch {
	t.Helper()
	b, err := arrowipc.NewRowBuilder(cols, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	for _, r := range rows {
		if err := b.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	return b.NewRecord()
}

func TestAppendArrowRecords(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	cols, rows := wtAllTypes(t, 60)
	types := wtTypes(cols)
	rec := wtRecord(t, cols, rows)
	defer rec.Release()
	ctx := testCtx(t)

	check := func(t *testing.T, tbl *flussrpc.Table, places map[int64]wtPlace) map[wtPlace][]int64 {
		got := wtScan(t, tbl.Path())
		if len(got.Rows) != len(rows) {
			t.Fatalf("pyfluss reads %d rows, want %d", len(got.Rows), len(rows))
		}
		per := map[wtPlace][]int64{}
		for _, r := range got.Rows {
			id := wtPeerID(t, r)
			wtSameValues(t, fmt.Sprintf("id %d", id), types, rows[id], r.Row)
			if places != nil && wtPlaceOf(r) != places[id] {
				t.Errorf("id %d: we wrote it to %+v, pyfluss to %+v", id, wtPlaceOf(r), places[id])
			}
			per[wtPlaceOf(r)] = append(per[wtPlaceOf(r)], id)
		}
		return per
	}

	t.Run("keyless-one-bucket", func(t *testing.T) {
		tbl := createTable(t, c, db, uniqueName("aa"), schema.TableDescriptor{Schema: newSchema(t, cols), BucketCount: intPtr(3)})
		w, err := tbl.NewAppendWriter(flussrpc.AppendOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close(context.Background())
		res, err := w.AppendArrow(ctx, rec)
		if err != nil {
			t.Fatal(err)
		}
		if err := res.Wait(ctx); err != nil {
			t.Fatal(err)
		}
		if per := check(t, tbl, nil); len(per) != 1 {
			t.Fatalf("one record went to %d buckets: %v", len(per), per)
		}
	})
	t.Run("keyless-split", func(t *testing.T) {
		tbl := createTable(t, c, db, uniqueName("as"), schema.TableDescriptor{Schema: newSchema(t, cols), BucketCount: intPtr(3)})
		w, err := tbl.NewAppendWriter(flussrpc.AppendOptions{WriterOptions: flussrpc.WriterOptions{BatchSize: 8 << 10}})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close(context.Background())
		if _, err := w.AppendArrow(ctx, rec); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		if per := check(t, tbl, nil); len(per) < 2 {
			t.Fatalf("a record of several batch sizes stayed in one bucket: %v", per)
		}
	})
	t.Run("keyless-joined", func(t *testing.T) {
		// Small records share one log batch, rows given to Append between
		// them start another, and pyfluss reads every value back.
		tbl := createTable(t, c, db, uniqueName("aj"), schema.TableDescriptor{Schema: newSchema(t, cols), BucketCount: intPtr(3)})
		w, err := tbl.NewAppendWriter(flussrpc.AppendOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close(context.Background())
		var joined []flussrpc.WriteResult
		for k := 0; k < 40; k += 10 {
			part := rec.NewSlice(int64(k), int64(k+10))
			res, err := w.AppendArrow(ctx, part)
			part.Release()
			if err != nil {
				t.Fatal(err)
			}
			joined = append(joined, res)
		}
		var single []flussrpc.WriteResult
		for _, r := range rows[40:50] {
			res, err := w.Append(ctx, r)
			if err != nil {
				t.Fatal(err)
			}
			single = append(single, res)
		}
		tail := rec.NewSlice(50, int64(len(rows)))
		last, err := w.AppendArrow(ctx, tail)
		tail.Release()
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		for i, res := range joined {
			if res.Offset() != 0 {
				t.Errorf("record %d: offset %d; want every joined record in the first batch, at 0", i, res.Offset())
			}
		}
		for i, res := range single {
			if res.Offset() != 40 {
				t.Errorf("row %d: offset %d; want the rows in a batch of their own at 40", 40+i, res.Offset())
			}
		}
		if last.Offset() != 50 {
			t.Errorf("last record: offset %d, want 50", last.Offset())
		}
		if per := check(t, tbl, nil); len(per) != 1 {
			t.Fatalf("records of the sticky bucket went to %d buckets: %v", len(per), per)
		}
	})
	t.Run("keyed-partitioned", func(t *testing.T) {
		pcols := append(append([]schema.Column{}, cols...), schema.NewColumn("p", schema.String()))
		prows := make([][]any, len(rows))
		for i, r := range rows {
			prows[i] = append(append([]any{}, r...), []string{"x", "y"}[i%2])
		}
		desc := schema.TableDescriptor{Schema: newSchema(t, pcols), BucketKeys: []string{"id"}, BucketCount: intPtr(4), PartitionKeys: []string{"p"}}
		twin := wtTwinPlaces(t, c, db, desc, prows, false)
		tbl := createTable(t, c, db, uniqueName("ak"), desc)
		createRowPartitions(t, c, tbl, prows)
		w, err := tbl.NewAppendWriter(flussrpc.AppendOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close(context.Background())
		prec := wtRecord(t, pcols, prows)
		defer prec.Release()
		res, err := w.AppendArrow(ctx, prec)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		if err := res.Wait(ctx); err != nil {
			t.Fatal(err)
		}
		got := wtScan(t, tbl.Path())
		if len(got.Rows) != len(prows) {
			t.Fatalf("pyfluss reads %d rows, want %d", len(got.Rows), len(prows))
		}
		for _, r := range got.Rows {
			id := wtPeerID(t, r)
			if wtPlaceOf(r) != twin[id] {
				t.Errorf("id %d: we wrote it to %+v, pyfluss to %+v", id, wtPlaceOf(r), twin[id])
			}
		}
	})
	t.Run("wrong-schema", func(t *testing.T) {
		tbl := createTable(t, c, db, uniqueName("aw"), schema.TableDescriptor{Schema: newSchema(t, cols[:2])})
		w, err := tbl.NewAppendWriter(flussrpc.AppendOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close(context.Background())
		if _, err := w.AppendArrow(ctx, rec); err == nil {
			t.Fatal("record with other columns accepted")
		}
		ib := array.NewInt64Builder(memory.DefaultAllocator)
		ib.Append(1)
		arr := ib.NewArray()
		defer arr.Release()
		bad := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil), []arrow.Array{arr}, 1)
		defer bad.Release()
		if _, err := w.AppendArrow(ctx, bad); err == nil {
			t.Fatal("record with one of two columns accepted")
		}
	})
}
