package flussrpc_test

import (
	"testing"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// After ALTER TABLE ADD COLUMN, rows written with the old schema read NULL
// in the new column (lookups, changelog and log scans, ARROW and row
// formats), and a Table opened before the change drops the new column of
// newer rows.
func TestScanAndLookupSchemaEvolution(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	for _, format := range scanFormats() {
		for _, pk := range []bool{false, true} {
			if pk && format == schema.FormatIndexed {
				continue // see TestScanChangelog
			}
			name := format + "/log"
			if pk {
				name = format + "/pk"
			}
			t.Run(name, func(t *testing.T) {
				cols := []schema.Column{schema.NewColumn("k", schema.Int()), schema.NewColumn("v", schema.String())}
				var keys []string
				if pk {
					keys = []string{"k"}
				}
				desc := schema.TableDescriptor{Schema: newSchema(t, cols, keys...), BucketCount: intPtr(1), Properties: map[string]string{schema.OptLogFormat: format}}
				old := createTable(t, c, db, uniqueName("evo"), desc)
				ctx := testCtx(t)
				write := func(tbl *flussrpc.Table, rows [][]any) {
					if pk {
						if _, err := flussrpc.ScanTestUpsert(ctx, tbl, rows, nil); err != nil {
							t.Fatal(err)
						}
						return
					}
					if _, _, err := flussrpc.ScanTestAppend(ctx, tbl, scanTestEncoder(t, tbl), rows); err != nil {
						t.Fatal(err)
					}
				}
				write(old, [][]any{{int32(1), "one"}, {int32(2), "two"}})
				if err := c.Admin().AlterTable(ctx, old.Path(), false, flussrpc.AddColumn(schema.NewColumn("extra", schema.BigInt()))); err != nil {
					t.Fatal(err)
				}
				cur, err := c.OpenTable(ctx, old.Path())
				if err != nil {
					t.Fatal(err)
				}
				if cur.Info().SchemaID == old.Info().SchemaID {
					t.Fatalf("schema id did not change: %d", cur.Info().SchemaID)
				}
				// PUT_KV right after ALTER may see SCHEMA_NOT_EXIST until the
				// tablet learns the schema; the test writer retries it.
				write(cur, [][]any{{int32(3), "three", int64(33)}})

				read := func(tbl *flussrpc.Table) [][]any {
					s, err := tbl.NewLogScanner(flussrpc.LogScanOptions{Bounded: true})
					if err != nil {
						t.Fatal(err)
					}
					defer s.Close()
					if err := s.SubscribeAll(ctx, flussrpc.ScanFromEarliest()); err != nil {
						t.Fatal(err)
					}
					var out [][]any
					for _, r := range scanAll(t, s) {
						out = append(out, r.Row)
					}
					return out
				}
				sameRows(t, "new handle", read(cur), [][]any{{int32(1), "one", nil}, {int32(2), "two", nil}, {int32(3), "three", int64(33)}})
				sameRows(t, "old handle", read(old), [][]any{{int32(1), "one"}, {int32(2), "two"}, {int32(3), "three"}})
				if pk {
					lk, err := cur.NewLookuper()
					if err != nil {
						t.Fatal(err)
					}
					for k, want := range map[int32][]any{1: {int32(1), "one", nil}, 3: {int32(3), "three", int64(33)}} {
						got, found, err := lk.Lookup(ctx, []any{k})
						if err != nil || !found {
							t.Fatalf("lookup %d: %v, %v", k, found, err)
						}
						sameRows(t, "lookup after ALTER", [][]any{got}, [][]any{want})
					}
					all, err := cur.LimitScan(ctx, "", 0, 10)
					if err != nil {
						t.Fatal(err)
					}
					sameRowSet(t, "limit scan after ALTER", all, [][]any{{int32(1), "one", nil}, {int32(2), "two", nil}, {int32(3), "three", int64(33)}})
					// Rows of both schemas, as records.
					recs, err := scanTableArrow(t, ctx, cur, 10)
					if err != nil {
						t.Fatal(err)
					}
					sameRowSet(t, "NextArrow after ALTER", recs, all)
				}
			})
		}
	}
}
