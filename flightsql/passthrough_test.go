package flightsql_test

import (
	"context"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/gofluss/fluss/flightsql"
	"github.com/gofluss/fluss/internal/clustertest"
)

// TestLogScanPassThrough checks that the log batches of a plain scan go
// out as Fluss stored them (ZSTD ones only to a call that asks with
// x-fluss-ipc-compression), that the client reads them as the rows the
// row path gives, names, types and values, and that plans which change
// the rows decode them.
func TestLogScanPassThrough(t *testing.T) {
	addr, srv := startServer(t, nil)
	cl, ctx := connect(t, addr, clustertest.SASLUser, clustertest.SASLPassword)
	db := newDatabase(t, ctx, cl, "fsqlp")
	for table, comp := range map[string]string{"evz": "ZSTD", "evn": "NONE"} {
		update(t, ctx, cl, "CREATE TABLE "+db+"."+table+" (id INT NOT NULL, amount DECIMAL(10, 2), at TIMESTAMP(3), ltz TIMESTAMP_LTZ(6), tags ARRAY<STRING>, name STRING) "+
			"WITH ('bucket.num' = '2', 'table.log.arrow.compression.type' = '"+comp+"')")
		// Two statements: two batches per bucket.
		update(t, ctx, cl, "INSERT INTO "+db+"."+table+" VALUES "+
			"(1, 12.30, TIMESTAMP '2024-01-02 03:04:05.678', TIMESTAMP '2024-01-02 03:04:05.678901', ARRAY['a', 'b'], 'one'), "+
			"(2, NULL, NULL, NULL, NULL, NULL)")
		update(t, ctx, cl, "INSERT INTO "+db+"."+table+" VALUES "+
			"(3, -0.01, TIMESTAMP '1969-12-31 23:59:59.999', TIMESTAMP '1970-01-01 00:00:00', ARRAY[CAST(NULL AS STRING)], ''), "+
			"(4, 1.00, NULL, NULL, ARRAY['c'], 'four')")
	}
	zstd := metadata.AppendToOutgoingContext(ctx, "x-fluss-ipc-compression", "lz4_frame, ZSTD")
	rowPath := " /*+ OPTIONS('fluss.client-filter'='true') */ WHERE id > 0"
	for _, tc := range []struct {
		name       string
		ctx        context.Context
		table, sel string
		rest       string // after FROM table
		pass       bool
	}{
		{"zstd, asked", zstd, "evz", "*", "", true},
		{"zstd, not asked", ctx, "evz", "*", "", false},
		{"uncompressed, not asked", ctx, "evn", "*", "", true},
		{"columns in table order", zstd, "evz", "id, amount AS a, tags", "", true},
		{"reordered columns", zstd, "evz", "name AS n, id, tags", "", false},
		{"filtered", zstd, "evz", "*", rowPath, false},
		{"limited", zstd, "evz", "*", " LIMIT 10", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := flightsql.PassedBatches(srv)
			got := query(t, tc.ctx, cl, "SELECT "+tc.sel+" FROM "+db+"."+tc.table+tc.rest)
			if passed := flightsql.PassedBatches(srv) - before; (passed > 0) != tc.pass {
				t.Errorf("%d batches went out undecoded, want some: %v", passed, tc.pass)
			}
			want := query(t, ctx, cl, "SELECT "+tc.sel+" FROM "+db+"."+tc.table+rowPath)
			if !got.Schema().Equal(want.Schema()) {
				t.Fatalf("schema\n%s\nwant (row path)\n%s", got.Schema(), want.Schema())
			}
			if g, w := sortedRows(got), sortedRows(want); g != w {
				t.Errorf("rows\n%s\nwant (row path)\n%s", g, w)
			}
		})
	}
	bad := metadata.AppendToOutgoingContext(ctx, "x-fluss-ipc-compression", "snappy")
	info, err := cl.Execute(bad, "SELECT * FROM "+db+".evz")
	if err != nil {
		t.Fatal(err)
	}
	rdr, err := cl.DoGet(bad, info.Endpoint[0].Ticket)
	if err == nil {
		for rdr.Next() {
		}
		err = rdr.Err()
		rdr.Release()
	}
	if status.Code(err) != codes.InvalidArgument {
		t.Errorf("an unknown compression in the header: %v, want InvalidArgument", err)
	}
}
