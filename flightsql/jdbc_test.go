package flightsql_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gofluss/fluss/flightsql"
	"github.com/gofluss/fluss/internal/clustertest"
	"github.com/gofluss/fluss/internal/flighttest"
)

// TestJDBCClient runs internal/jdbcpeer: Arrow's Flight SQL JDBC driver
// lists tables and columns, reads a query and a log table's batches
// passed through undecoded through a ResultSet and runs a prepared query
// with a typed parameter.
func TestJDBCClient(t *testing.T) {
	addr, srv := startServer(t, func(c *flightsql.Config) { c.ScanEndpoints = 3 })
	cl, ctx := connect(t, addr, clustertest.SASLUser, clustertest.SASLPassword)
	db := newDatabase(t, ctx, cl, "jdbc")
	update(t, ctx, cl, "CREATE TABLE "+db+".items (id BIGINT NOT NULL, name STRING, price DECIMAL(8, 2), PRIMARY KEY (id) NOT ENFORCED)")
	// Uncompressed, so that its batches pass through to JDBC undecoded;
	// in three buckets, so that its scan comes as three endpoints, which
	// JDBC reads one after the other.
	update(t, ctx, cl, "CREATE TABLE "+db+".logs (line STRING) WITH ('bucket.num' = '3', 'table.log.arrow.compression.type' = 'NONE')")
	update(t, ctx, cl, "INSERT INTO "+db+".logs VALUES ('b'), ('a'), ('e'), ('c'), ('f'), ('d')")
	update(t, ctx, cl, "INSERT INTO "+db+".items VALUES (1, 'pen', 1.50), (2, 'book', 12.00), (3, NULL, NULL)")

	cmd := flighttest.JDBC(t, ctx, "Check",
		addr, clustertest.SASLUser, clustertest.SASLPassword, db, "items")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("JDBC check failed: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	want := strings.Join([]string{
		"tables " + db + ".items:TABLE," + db + ".logs:TABLE",
		// java.sql.Types: BIGINT -5, VARCHAR/LONGVARCHAR 12 or -1, DECIMAL 3.
		"columns id:-5,name:12,price:3",
		"row 1|pen|1.50",
		"row 2|book|12.00",
		"row 3|null|null",
		"logs a,b,c,d,e,f",
		"prepared book",
		"refused without the password",
	}, "\n")
	if got := strings.TrimSpace(stdout.String()); got != want {
		t.Errorf("JDBC saw\n%s\nwant\n%s\n(stderr: %s)", got, want, stderr.String())
	}
	if flightsql.PassedBatches(srv) == 0 {
		t.Error("no log batch of the uncompressed table went out undecoded")
	}
}
