package flightsql_test

import (
	"context"
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
