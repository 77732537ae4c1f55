package flightsql_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/flight"

	"github.com/gofluss/fluss/flightsql"
	"github.com/gofluss/fluss/internal/clustertest"
)

// TestLogScanEndpoints checks that a log scan in no particular order comes
// as several endpoints, each reading some buckets, that together hold
// every row once, and that the queries whose order or size the client
// fixes (ORDER BY, LIMIT, OFFSET, aggregates, a row cap) keep one
// endpoint.
func TestLogScanEndpoints(t *testing.T) {
	addr, _ := startServer(t, func(c *flightsql.Config) { c.ScanEndpoints = 3 })
	cl, ctx := connect(t, addr, clustertest.SASLUser, clustertest.SASLPassword)
	db := newDatabase(t, ctx, cl, "fsqls")
	update(t, ctx, cl, "CREATE TABLE "+db+".ev (id INT NOT NULL, name STRING) WITH ('bucket.num' = '4')")
	update(t, ctx, cl, "CREATE TABLE "+db+".one (id INT NOT NULL) WITH ('bucket.num' = '1')")
	var rows []string
	for i := range 40 {
		rows = append(rows, fmt.Sprintf("(%d, 'n%d')", i, i))
	}
	update(t, ctx, cl, "INSERT INTO "+db+".ev VALUES "+strings.Join(rows, ", "))
	update(t, ctx, cl, "INSERT INTO "+db+".one VALUES (1), (2)")
	// How a client runs the query: ad hoc, prepared, in a transaction.
	adhoc := func(q string) (*flight.FlightInfo, error) { return cl.Execute(ctx, q) }
	prepared := func(q string) (*flight.FlightInfo, error) {
		st, err := cl.Prepare(ctx, q)
		if err != nil {
			return nil, err
		}
		t.Cleanup(func() { _ = st.Close(context.Background()) })
		return st.Execute(ctx)
	}
	inTx := func(q string) (*flight.FlightInfo, error) {
		tx, err := cl.BeginTransaction(ctx)
		if err != nil {
			return nil, err
		}
		t.Cleanup(func() { _ = tx.Rollback(context.Background()) })
		return tx.Execute(ctx, q)
	}
	for _, tc := range []struct {
		query     string
		endpoints int
		rows      int
		run       func(string) (*flight.FlightInfo, error)
	}{
		{"SELECT * FROM " + db + ".ev", 3, 40, adhoc},
		{"SELECT * FROM " + db + ".ev", 3, 40, prepared},
		// A transaction's session serves one stream at a time.
		{"SELECT * FROM " + db + ".ev", 1, 40, inTx},
		{"SELECT id FROM " + db + ".ev", 3, 40, adhoc},
		{"SELECT id FROM " + db + ".ev /*+ OPTIONS('fluss.client-filter'='true') */ WHERE id >= 0", 1, 40, adhoc}, // fluss.scan.max-rows counts the whole result
		{"SELECT * FROM " + db + ".one", 1, 2, adhoc},
		{"SELECT * FROM " + db + ".ev ORDER BY id", 1, 40, adhoc},
		{"SELECT * FROM " + db + ".ev LIMIT 5", 1, 5, adhoc},
		{"SELECT * FROM " + db + ".ev LIMIT 100 OFFSET 35", 1, 5, adhoc},
		{"SELECT COUNT(*) FROM " + db + ".ev", 1, 1, adhoc},
	} {
		t.Run(fmt.Sprintf("%s/%d", tc.query, tc.endpoints), func(t *testing.T) {
			info, err := tc.run(tc.query)
			if err != nil {
				t.Fatal(err)
			}
			if len(info.Endpoint) != tc.endpoints {
				t.Errorf("%d endpoints, want %d", len(info.Endpoint), tc.endpoints)
			}
			tbl := fetch(t, ctx, cl, info)
			if tbl.NumRows() != int64(tc.rows) {
				t.Fatalf("%d rows, want %d", tbl.NumRows(), tc.rows)
			}
			if tc.rows == 40 {
				var got []int
				for _, id := range column(tbl, 0) {
					n, _ := strconv.Atoi(id)
					got = append(got, n)
				}
				slices.Sort(got)
				for i, id := range got {
					if id != i {
						t.Fatalf("ids %v, want each of 0..39 once", got)
					}
				}
			}
		})
	}
}
