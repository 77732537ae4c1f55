package fluss_test

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"

	"github.com/gofluss/fluss"
	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/internal/clustertest"
)

// countingDB opens the driver on the cluster with a DSN suffix and a
// request counter as its tracer.
func countingDB(t *testing.T, dsnSuffix string) (*sql.DB, *clustertest.RequestCounter) {
	t.Helper()
	cfg, err := fluss.ParseDSN("fluss://" + clustertest.Bootstrap(t) + "/" + dsnSuffix)
	if err != nil {
		t.Fatal(err)
	}
	counter := &clustertest.RequestCounter{}
	cfg.Tracer = counter
	db, err := fluss.OpenDB(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, counter
}

// The Java client's fetch and lookup options reach the requests they
// tune, from a hint or the DSN; a bad value is an error, not ignored.
func TestJavaClientOptionsApplied(t *testing.T) {
	admin := openDB(t, "")
	name := uniqueDB(t, admin)
	mustExec(t, admin, "CREATE TABLE "+name+".events (id INT) WITH ('bucket.num' = '1')")
	mustExec(t, admin, "CREATE TABLE "+name+".dims (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '1')")
	const batches = 20
	var keys []string
	for i := range batches {
		// One statement, one log batch.
		mustExec(t, admin, fmt.Sprintf("INSERT INTO %s.events VALUES (%d)", name, i))
		keys = append(keys, fmt.Sprint(i))
	}
	mustExec(t, admin, "INSERT INTO "+name+".dims VALUES "+values(keys))

	t.Run("fetch", func(t *testing.T) {
		db, counter := countingDB(t, name)
		fetches := func(q string) int {
			t.Helper()
			counter.Reset()
			if got := queryStrings(t, db, q); len(got) != batches {
				t.Fatalf("%s: %d rows, want %d", q, len(got), batches)
			}
			return counter.Count(flussrpc.APIKeyFetchLog)
		}
		plain := fetches("SELECT id FROM events")
		// A bucket's answer holds at least one batch, and here at most one.
		small := fetches("SELECT id FROM events /*+ OPTIONS('client.scanner.log.fetch.max-bytes-for-bucket' = '1b') */")
		if small < batches || plain >= batches {
			t.Fatalf("FETCH_LOG requests: %d with a 1-byte bucket cap, %d without; want >= %d and fewer", small, plain, batches)
		}
		_, err := db.QueryContext(ctxT(t), "SELECT id FROM events /*+ OPTIONS('client.scanner.log.fetch.max-bytes' = 'lots') */")
		if err == nil || !strings.Contains(err.Error(), "client.scanner.log.fetch.max-bytes") {
			t.Fatalf("a bad fetch size: %v", err)
		}
	})

	t.Run("lookup", func(t *testing.T) {
		in := "SELECT v FROM dims WHERE id IN (" + strings.Join(keys, ", ") + ")"
		lookups := func(db *sql.DB, counter *clustertest.RequestCounter) int {
			t.Helper()
			counter.Reset()
			if got := queryStrings(t, db, in); len(got) != batches {
				t.Fatalf("%s: %d rows, want %d", in, len(got), batches)
			}
			return counter.Count(flussrpc.APIKeyLookup)
		}
		db, counter := countingDB(t, name)
		plain := lookups(db, counter)
		one := lookups(countingDB(t, name+"?client.lookup.batch-size=1"))
		if one < batches || plain >= batches {
			t.Fatalf("LOOKUP requests: %d with batch size 1, %d without; want >= %d and fewer", one, plain, batches)
		}
		// A bad value fails when it is given, not at the first lookup.
		if _, err := fluss.ParseDSN("fluss://h:1/?client.lookup.batch-size=0"); err == nil || !strings.Contains(err.Error(), "client.lookup.batch-size") {
			t.Fatalf("DSN batch size 0: %v", err)
		}
		conn, err := db.Conn(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := conn.ExecContext(ctxT(t), "SET 'client.lookup.batch-size' = '0'"); err == nil || !strings.Contains(err.Error(), "client.lookup.batch-size") {
			t.Fatalf("SET batch size 0: %v", err)
		}
		if _, err := conn.ExecContext(ctxT(t), "SET 'client.lookup.batch-size' = '1'"); err != nil {
			t.Fatal(err)
		}
		// SET applies as the DSN does.
		counter.Reset()
		rows, err := conn.QueryContext(ctxT(t), in)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(readStrings(t, rows)); got != batches {
			t.Fatalf("%s: %d rows, want %d", in, got, batches)
		}
		if n := counter.Count(flussrpc.APIKeyLookup); n < batches {
			t.Fatalf("LOOKUP requests after SET batch size 1: %d, want >= %d", n, batches)
		}
	})
}

// values renders ids as the rows (id, 'v<id>').
func values(ids []string) string {
	rows := make([]string, len(ids))
	for i, id := range ids {
		rows[i] = "(" + id + ", 'v" + id + "')"
	}
	return strings.Join(rows, ", ")
}
