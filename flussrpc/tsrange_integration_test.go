package flussrpc_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// TestNativeNanoTimestampRange: a primary-key table keeps its rows in a
// row format, but with table.log.format ARROW the server also writes each
// change to an ARROW changelog, where TIMESTAMP(9) is int64 nanoseconds and
// the server wraps what does not fit. Native upserts and inserting lookups
// refuse such keys and values there; with a COMPACTED changelog they are
// stored and read back exactly.
func TestNativeNanoTimestampRange(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	cols := []schema.Column{schema.NewColumn("k", schema.Timestamp(9).NotNull()), schema.NewColumn("v", schema.TimestampLTZ(9))}
	end := time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)
	far := codec.TimestampNTZOf(end)
	near := codec.TimestampNTZOf(time.Date(2262, 4, 11, 23, 47, 16, 854775807, time.UTC))
	for _, format := range []string{schema.FormatArrow, schema.FormatCompacted} {
		t.Run(format, func(t *testing.T) {
			refused := format == schema.FormatArrow
			tbl := createTable(t, c, db, "ts_"+strings.ToLower(format), schema.TableDescriptor{
				Schema: newSchema(t, cols, "k"), BucketCount: intPtr(1),
				Properties: map[string]string{schema.OptLogFormat: format},
			})
			ctx := testCtx(t)
			w, err := tbl.NewUpsertWriter(flussrpc.UpsertOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close(ctx)
			for _, row := range [][]any{{far, nil}, {near, codec.TimestampLTZOf(end)}} {
				_, err := w.Upsert(ctx, row)
				wantRefused := refused && (row[0] == far || row[1] != nil)
				if wantRefused != (err != nil) {
					t.Fatalf("upsert %v: error %v, want refused=%v", row, err, wantRefused)
				}
				if err != nil && !strings.Contains(err.Error(), "9999-12-31 23:59:59.999999999") {
					t.Errorf("error %q does not name the value", err)
				}
			}
			if err := w.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			l, err := tbl.NewLookuper(flussrpc.LookupOptions{InsertIfNotExists: true})
			if err != nil {
				t.Fatal(err)
			}
			far2 := codec.TimestampNTZ{Millis: far.Millis - 1, NanoOfMilli: far.NanoOfMilli}
			_, found, err := l.Lookup(ctx, []any{far2})
			if refused != (err != nil) || !refused && !found {
				t.Fatalf("inserting lookup of %v: found %v, error %v, want refused=%v", far2, found, err, refused)
			}
			if _, found, err := l.Lookup(ctx, []any{near}); err != nil || !found {
				t.Fatalf("lookup of %v: found %v, %v", near, found, err)
			}
		})
	}
}
