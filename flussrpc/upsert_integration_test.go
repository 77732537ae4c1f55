package flussrpc_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/clustertest"
	"github.com/gofluss/fluss/internal/peertest"
)

// wtUpsert applies upserts (del false) and deletes with one writer and
// flushes, returning the per-row results.
func wtUpsert(t *testing.T, tbl *flussrpc.Table, opts flussrpc.UpsertOptions, rows [][]any, del []bool) ([]flussrpc.WriteResult, error) {
	t.Helper()
	ctx := testCtx(t)
	w, err := tbl.NewUpsertWriter(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close(context.Background())
	res := make([]flussrpc.WriteResult, len(rows))
	for i, r := range rows {
		if del != nil && del[i] {
			res[i], err = w.Delete(ctx, r)
		} else {
			res[i], err = w.Upsert(ctx, r)
		}
		if err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
	}
	return res, w.Flush(ctx)
}

// wtPeerLookup looks keys up with pyfluss (values as pyfluss' Python
// objects, so timestamps only to the microsecond).
func wtPeerLookup(t *testing.T, path flussrpc.TablePath, keyTypes []schema.DataType, keys [][]any) [][]json.RawMessage {
	t.Helper()
	in := make([][]any, len(keys))
	for i, k := range keys {
		in[i] = wtTagRow(keyTypes, k)
	}
	var out [][]json.RawMessage
	if perr := peertest.Run(t, clustertest.Bootstrap(t), in, &out, "lookup", path.Database, path.Table); perr != nil {
		t.Fatalf("peer lookup %s: %s (code %d)", path, perr.Message, perr.Code)
	}
	return out
}

// wtReplay applies a changelog read by pyfluss and returns the final row
// of every id, checking the change types against what was written.
func wtReplay(t *testing.T, recs []wtPeerRow) map[int64]wtPeerRow {
	t.Helper()
	state := map[int64]wtPeerRow{}
	for _, r := range recs {
		id := wtPeerID(t, r)
		_, exists := state[id]
		switch r.Change {
		case "+I":
			if exists {
				t.Fatalf("id %d: +I for an existing row", id)
			}
			state[id] = r
		case "-U":
			if !exists {
				t.Fatalf("id %d: -U without row", id)
			}
		case "+U":
			state[id] = r
		case "-D":
			if !exists {
				t.Fatalf("id %d: -D without row", id)
			}
			delete(state, id)
		default:
			t.Fatalf("id %d: change type %q in a changelog", id, r.Change)
		}
	}
	return state
}

// TestUpsertAllTypes: inserts, updates and deletes of every type, read
// back from the changelog with pyfluss, placed in pyfluss' buckets.
func TestUpsertAllTypes(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	cols, rows := wtAllTypes(t, 48)
	types := wtTypes(cols)
	base := schema.TableDescriptor{Schema: newSchema(t, cols, "id"), BucketCount: intPtr(3)}
	twin := wtTwinPlaces(t, c, db, base, rows, true)
	for _, format := range []string{schema.FormatCompacted, schema.FormatIndexed} {
		t.Run(format, func(t *testing.T) {
			desc := base.Clone()
			desc.Properties = map[string]string{schema.OptKvFormat: format}
			tbl := createTable(t, c, db, uniqueName("up_"+format), desc)
			// Inserts, then updates of every 5th row (values of another
			// variant) and deletes of every 7th, with small batches.
			ops := slices.Clone(rows)
			del := make([]bool, len(rows))
			want := map[int64][]any{}
			for _, r := range rows {
				want[r[0].(int64)] = r
			}
			for i, r := range rows {
				switch {
				case i%7 == 0:
					ops = append(ops, []any{r[0]}) // padded below
					del = append(del, true)
					delete(want, r[0].(int64))
				case i%5 == 0:
					u := append([]any{r[0]}, rows[(i+1)%len(rows)][1:]...)
					ops = append(ops, u)
					del = append(del, false)
					want[r[0].(int64)] = u
				}
			}
			for i, op := range ops {
				if len(op) == 1 {
					ops[i] = append(op, make([]any, len(cols)-1)...)
				}
			}
			opts := flussrpc.UpsertOptions{WriterOptions: flussrpc.WriterOptions{BatchSize: 4096}}
			res, err := wtUpsert(t, tbl, opts, ops, del)
			if err != nil {
				t.Fatalf("Flush: %v", err)
			}
			for i, r := range res {
				if err := r.Wait(testCtx(t)); err != nil {
					t.Fatalf("op %d: %v", i, err)
				}
			}
			scan := wtScan(t, tbl.Path())
			for _, r := range scan.Rows {
				if id := wtPeerID(t, r); wtPlaceOf(r) != twin[id] {
					t.Errorf("id %d: we wrote it to %+v, pyfluss to %+v", id, wtPlaceOf(r), twin[id])
				}
			}
			state := wtReplay(t, scan.Rows)
			if len(state) != len(want) {
				t.Fatalf("changelog leaves %d rows, want %d", len(state), len(want))
			}
			for id, w := range want {
				got, ok := state[id]
				if !ok {
					t.Fatalf("id %d missing after replay", id)
				}
				w = wtMicros(w)
				if format == schema.FormatIndexed {
					w = wtPadChars(types, w)
				}
				wtSameValues(t, fmt.Sprintf("id %d", id), types, w, got.Row)
			}
			if format == schema.FormatCompacted {
				// pyfluss looks up COMPACTED values only.
				keys := [][]any{{int64(1)}, {int64(7)}, {int64(10)}, {int64(1000)}}
				got := wtPeerLookup(t, tbl.Path(), types[:1], keys)
				for i, k := range keys {
					_, exists := want[k[0].(int64)]
					if (got[i] != nil) != exists {
						t.Errorf("peer lookup %v: found=%v, want %v", k, got[i] != nil, exists)
					}
					if exists && string(got[i][0]) != strconv.FormatInt(k[0].(int64), 10) {
						t.Errorf("peer lookup %v returned id %s", k, got[i][0])
					}
				}
				// peer.py delete takes primary-key rows.
				wtPeerWrite(t, "delete", tbl.Path(), types[:1], [][]any{{int64(1)}})
				if got := wtPeerLookup(t, tbl.Path(), types[:1], [][]any{{int64(1)}}); got[0] != nil {
					t.Errorf("id 1 still found after the peer deleted it: %s", got[0])
				}
			}
		})
	}
}

// TestUpsertPartialAndPartitioned: a partial update leaves the other
// columns alone; a partitioned PK table gets its partitions on demand.
func TestUpsertPartialAndPartitioned(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	cols := []schema.Column{
		schema.NewColumn("id", schema.BigInt().NotNull()),
		schema.NewColumn("region", schema.String().NotNull()),
		schema.NewColumn("a", schema.String()),
		schema.NewColumn("b", schema.Int()),
		schema.NewColumn("c", schema.Double()),
	}
	desc := schema.TableDescriptor{
		Schema:        newSchema(t, cols, "id", "region"),
		PartitionKeys: []string{"region"},
		BucketCount:   intPtr(3),
	}
	var rows [][]any
	for i := 0; i < 60; i++ {
		rows = append(rows, []any{int64(i), []string{"north", "south"}[i%2], "a" + strconv.Itoa(i), int32(i), float64(i) / 4})
	}
	twin := wtTwinPlaces(t, c, db, desc, rows, true)
	tbl := createTable(t, c, db, uniqueName("upp"), desc)
	if _, err := wtUpsert(t, tbl, flussrpc.UpsertOptions{}, rows, nil); err != nil {
		t.Fatal(err)
	}
	// Update b only; a and c carry junk that must not be written.
	var partial [][]any
	for _, r := range rows[:30] {
		partial = append(partial, []any{r[0], r[1], "junk", r[3].(int32) * -1, 99.0})
	}
	for _, opts := range []flussrpc.UpsertOptions{{TargetColumns: []string{"id", "region", "b"}}, {TargetColumnIndexes: []int{0, 1, 3}}} {
		if _, err := wtUpsert(t, tbl, opts, partial[:15], nil); err != nil {
			t.Fatal(err)
		}
		partial = partial[15:]
	}
	scan := wtScan(t, tbl.Path())
	state := wtReplay(t, scan.Rows)
	types := wtTypes(cols)
	for _, r := range rows {
		id := r[0].(int64)
		want := slices.Clone(r)
		if id < 30 {
			want[3] = r[3].(int32) * -1
		}
		got := state[id]
		if wtPlaceOf(got) != twin[id] {
			t.Errorf("id %d: we wrote it to %+v, pyfluss to %+v", id, wtPlaceOf(got), twin[id])
		}
		wtSameValues(t, fmt.Sprintf("id %d", id), types, want, got.Row)
	}
	parts, err := c.Admin().ListPartitionInfos(testCtx(t), tbl.Path(), nil)
	if err != nil || len(parts) != 2 {
		t.Fatalf("partitions %+v, %v", parts, err)
	}
}

// TestUpsertPerRowError: a batch the server rejects (deletes on a table
// whose deletes are disabled) fails exactly its rows, through the result
// handles and Flush; other buckets are written, and the failed bucket
// keeps working afterwards (its sequence is reused).
func TestUpsertPerRowError(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	cols := []schema.Column{schema.NewColumn("id", schema.BigInt().NotNull()), schema.NewColumn("v", schema.String())}
	desc := schema.TableDescriptor{Schema: newSchema(t, cols, "id"), BucketCount: intPtr(4),
		Properties: map[string]string{"table.delete.behavior": "DISABLE"}}
	tbl := createTable(t, c, db, uniqueName("nodel"), desc)
	keys, err := codec.NewTableKeys(&tbl.Info().Descriptor)
	if err != nil {
		t.Fatal(err)
	}
	bucketOf := func(id int64) int {
		_, bk, err := keys.EncodeKeys([]any{id, nil})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := keys.Bucketing.Bucket(bk, 4)
		return b
	}
	ctx := testCtx(t)
	w, err := tbl.NewUpsertWriter(flussrpc.UpsertOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close(ctx)
	for i := int64(0); i < 20; i++ {
		if _, err := w.Upsert(ctx, []any{i, "v"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	// One delete in the bucket of id 0, upserts of ids in other buckets.
	bad := bucketOf(0)
	delRes, err := w.Delete(ctx, []any{int64(0), nil})
	if err != nil {
		t.Fatal(err)
	}
	var okRes []flussrpc.WriteResult
	var okIDs []int64
	for i := int64(100); len(okIDs) < 10; i++ {
		if bucketOf(i) == bad {
			continue
		}
		r, err := w.Upsert(ctx, []any{i, "new"})
		if err != nil {
			t.Fatal(err)
		}
		okRes, okIDs = append(okRes, r), append(okIDs, i)
	}
	ferr := w.Flush(ctx)
	var fe *flussrpc.FlushError
	if !errors.As(ferr, &fe) || fe.FailedRecords != 1 || !errors.Is(ferr, flussrpc.ErrDeletionDisabled) {
		t.Fatalf("Flush = %v, want a FlushError with 1 DELETION_DISABLED record", ferr)
	}
	var we *flussrpc.WriteError
	if err := delRes.Wait(ctx); !errors.Is(err, flussrpc.ErrDeletionDisabled) || !errors.As(err, &we) || we.Bucket != int32(bad) {
		t.Fatalf("delete result = %v", err)
	}
	for i, r := range okRes {
		if err := r.Wait(ctx); err != nil {
			t.Fatalf("upsert of id %d in another bucket: %v", okIDs[i], err)
		}
	}
	// The bucket that failed still accepts writes.
	r, err := w.Upsert(ctx, []any{int64(0), "after"})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(ctx); err != nil {
		t.Fatalf("Flush after the failure: %v", err)
	}
	if err := r.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	got := wtPeerLookup(t, tbl.Path(), []schema.DataType{schema.BigInt()}, [][]any{{int64(0)}, {okIDs[0]}})
	if got[0] == nil || string(got[0][1]) != `"after"` || got[1] == nil || string(got[1][1]) != `"new"` {
		t.Fatalf("peer lookup = %s", got)
	}
}

// wtMicros truncates timestamps to microseconds, the precision of the
// Python values pyfluss returns for primary-key tables.
func wtMicros(row []any) []any {
	out := slices.Clone(row)
	for i, v := range out {
		switch x := v.(type) {
		case codec.TimestampNTZ:
			x.NanoOfMilli -= x.NanoOfMilli % 1000
			out[i] = x
		case codec.TimestampLTZ:
			x.NanoOfMilli -= x.NanoOfMilli % 1000
			out[i] = x
		}
	}
	return out
}

// wtPadChars pads CHAR(n) values with NUL bytes to n bytes: IndexedRow
// stores CHAR zero-padded, and the tablet server (Java) keeps the padding
// when it turns INDEXED values into the ARROW changelog.
func wtPadChars(types []schema.DataType, row []any) []any {
	out := slices.Clone(row)
	for i, v := range out {
		if s, ok := v.(string); ok && types[i].Root == schema.RootChar && len(s) < types[i].Length {
			out[i] = s + strings.Repeat("\x00", types[i].Length-len(s))
		}
	}
	return out
}

// TestUpsertMergeOverwrite: on a first_row table a second upsert of a key
// is ignored, unless the writer asks for MergeOverwrite (PUT_KV agg_mode).
func TestUpsertMergeOverwrite(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	cols := []schema.Column{schema.NewColumn("id", schema.BigInt().NotNull()), schema.NewColumn("v", schema.String())}
	tbl := createTable(t, c, db, uniqueName("fr"), schema.TableDescriptor{Schema: newSchema(t, cols, "id"),
		BucketCount: intPtr(2), Properties: map[string]string{schema.OptMergeEngine: "first_row"}})
	for _, step := range []struct {
		mode flussrpc.MergeMode
		v    string
	}{{flussrpc.MergeDefault, "first"}, {flussrpc.MergeDefault, "second"}, {flussrpc.MergeOverwrite, "third"}} {
		if _, err := wtUpsert(t, tbl, flussrpc.UpsertOptions{MergeMode: step.mode}, [][]any{{int64(1), step.v}}, nil); err != nil {
			t.Fatalf("upsert %q: %v", step.v, err)
		}
	}
	got := wtPeerLookup(t, tbl.Path(), []schema.DataType{schema.BigInt()}, [][]any{{int64(1)}})
	if got[0] == nil || string(got[0][1]) != `"third"` {
		t.Fatalf("after first_row upserts and an overwrite: %s", got)
	}
}
