package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	fsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// TestMemFlightSQL: a query of the loaded table gets one endpoint per
// bucket holding that bucket's records, and any other query the schema
// and no endpoint, as the ADBC reference run needs.
func TestMemFlightSQL(t *testing.T) {
	m, uri, stop, err := startMemFlightSQL()
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	sc := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil)
	rec := func(ids ...int64) arrow.RecordBatch {
		b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
		defer b.Release()
		b.Field(0).(*array.Int64Builder).AppendValues(ids, nil)
		return b.NewRecordBatch()
	}
	m.load(sc, "db.t", [][]arrow.RecordBatch{{rec(0, 2), rec(4)}, {rec(1, 3)}})

	cl, err := fsql.NewClient(strings.TrimPrefix(uri, "grpc://"), nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	info, err := cl.Execute(ctx, "SELECT * FROM db.t")
	if err != nil {
		t.Fatal(err)
	}
	var perEndpoint []int64
	for _, ep := range info.Endpoint {
		rd, err := cl.DoGet(ctx, ep.Ticket)
		if err != nil {
			t.Fatal(err)
		}
		var n int64
		for rd.Next() {
			n += rd.RecordBatch().NumRows()
		}
		if err := rd.Err(); err != nil {
			t.Fatal(err)
		}
		rd.Release()
		perEndpoint = append(perEndpoint, n)
	}
	if len(perEndpoint) != 2 || perEndpoint[0] != 3 || perEndpoint[1] != 2 {
		t.Errorf("rows per endpoint %v, want [3 2]", perEndpoint)
	}

	other, err := cl.Execute(ctx, "SELECT 0")
	if err != nil {
		t.Fatal(err)
	}
	got, err := flight.DeserializeSchema(other.Schema, memory.DefaultAllocator)
	if err != nil || !got.Equal(sc) || len(other.Endpoint) != 0 {
		t.Errorf("SELECT 0: schema %v (%v), %d endpoints; want the table's schema and none", got, err, len(other.Endpoint))
	}
}
