package flightsql_test

import (
	"context"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	fsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gofluss/fluss/flightsql"
	"github.com/gofluss/fluss/internal/clustertest"
)

// TestResultsStreamAndStopOnCancel reads the first record of a large
// scan, which arrives before the scan ends (the result is not
// materialised), then cancels: the server's call ends too.
func TestResultsStreamAndStopOnCancel(t *testing.T) {
	addr, srv := startServer(t, nil)
	cl, ctx := connect(t, addr, clustertest.SASLUser, clustertest.SASLPassword)
	db := newDatabase(t, ctx, cl, "fsqls")
	update(t, ctx, cl, "CREATE TABLE "+db+".big (id BIGINT NOT NULL, pad STRING)")

	const batches, perBatch = 4, 50_000
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "pad", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	var recs []arrow.RecordBatch
	for b := range batches {
		rb := array.NewRecordBuilder(memory.DefaultAllocator, sc)
		for i := range perBatch {
			rb.Field(0).(*array.Int64Builder).Append(int64(b*perBatch + i))
			rb.Field(1).(*array.StringBuilder).Append("some padding to make the rows wider")
		}
		recs = append(recs, rb.NewRecordBatch())
		rb.Release()
	}
	rdr, err := array.NewRecordReader(sc, recs)
	if err != nil {
		t.Fatal(err)
	}
	n, err := cl.ExecuteIngest(ctx, rdr, &fsql.ExecuteIngestOpts{Table: "big", Schema: &db,
		TableDefinitionOptions: &fsql.TableDefinitionOptions{IfExists: fsql.TableDefinitionOptionsTableExistsOptionAppend}})
	rdr.Release()
	for _, r := range recs {
		r.Release()
	}
	if err != nil || n != batches*perBatch {
		t.Fatalf("ingest = %d, %v", n, err)
	}

	info, err := cl.Execute(ctx, "SELECT * FROM "+db+".big")
	if err != nil {
		t.Fatal(err)
	}
	sctx, cancel := context.WithCancel(ctx)
	stream, err := cl.DoGet(sctx, info.Endpoint[0].Ticket)
	if err != nil {
		t.Fatal(err)
	}
	if !stream.Next() {
		t.Fatalf("no first record: %v", stream.Err())
	}
	if got := stream.RecordBatch().NumRows(); got >= batches*perBatch {
		t.Errorf("the first record holds all %d rows: the result was materialised", got)
	}
	cancel()
	stream.Release()
	deadline := time.Now().Add(20 * time.Second)
	for flightsql.ActiveCalls(srv) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d calls still run on the server after the client cancelled", flightsql.ActiveCalls(srv))
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The server still serves after the cancelled stream.
	if got := query(t, ctx, cl, "SELECT COUNT(*) FROM "+db+".big"); got.NumRows() != 1 {
		t.Errorf("COUNT(*) after a cancelled scan returned %d rows", got.NumRows())
	}
}

// TestLogScanArrowMatchesRows: a plain scan of a log table hands on the
// scanner's Arrow batches; it must give what the row path (taken when a
// filter is present) gives, names, types and values, projection and
// aliases included.
func TestLogScanArrowMatchesRows(t *testing.T) {
	addr, _ := startServer(t, nil)
	cl, ctx := connect(t, addr, clustertest.SASLUser, clustertest.SASLPassword)
	db := newDatabase(t, ctx, cl, "fsqlr")
	update(t, ctx, cl, "CREATE TABLE "+db+".ev (id INT NOT NULL, amount DECIMAL(10, 2), at TIMESTAMP(3), ltz TIMESTAMP_LTZ(6), tags ARRAY<STRING>, name STRING, raw BYTES, d DATE)")
	update(t, ctx, cl, "INSERT INTO "+db+".ev VALUES "+
		"(1, 12.30, TIMESTAMP '2024-01-02 03:04:05.678', TIMESTAMP '2024-01-02 03:04:05.678901', ARRAY['a', 'b'], 'one', x'0102', DATE '2024-02-29'), "+
		"(2, NULL, NULL, NULL, NULL, NULL, NULL, NULL), "+
		"(3, -0.01, TIMESTAMP '1969-12-31 23:59:59.999', TIMESTAMP '1970-01-01 00:00:00', ARRAY[CAST(NULL AS STRING)], '', x'', DATE '1970-01-01')")
	for _, sel := range []string{"*", "name AS n, id, tags"} {
		direct := query(t, ctx, cl, "SELECT "+sel+" FROM "+db+".ev")
		rows := query(t, ctx, cl, "SELECT "+sel+" FROM "+db+".ev /*+ OPTIONS('fluss.client-filter'='true') */ WHERE id > 0")
		if !direct.Schema().Equal(rows.Schema()) {
			t.Errorf("SELECT %s: schema\n%s\nwant (row path)\n%s", sel, direct.Schema(), rows.Schema())
			continue
		}
		if got, want := sortedRows(direct), sortedRows(rows); got != want {
			t.Errorf("SELECT %s:\n%s\nwant (row path)\n%s", sel, got, want)
		}
	}
}

// sortedRows renders a table's rows as sorted lines of text.
func sortedRows(tbl arrow.Table) string {
	cols := make([][]string, tbl.NumCols())
	for i := range cols {
		cols[i] = column(tbl, i)
	}
	lines := make([]string, tbl.NumRows())
	for r := range lines {
		var b strings.Builder
		for _, c := range cols {
			b.WriteString(c[r] + "|")
		}
		lines[r] = b.String()
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
