package fluss_test

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gofluss/fluss"
)

// arrowRecord builds n rows (id, "name <id>") of the given schema.
func arrowRecord(sch *arrow.Schema, from, n int) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, sch)
	defer b.Release()
	for i := from; i < from+n; i++ {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.StringBuilder).Append(fmt.Sprint("name ", i))
	}
	return b.NewRecordBatch()
}

func TestRawClientAndAdmin(t *testing.T) {
	db := openDB(t, "")
	ctx := ctxT(t)
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	client, err := fluss.Client(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if err := client.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	adm, err := fluss.Admin(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := adm.ListDatabases(ctx); err != nil {
		t.Fatal(err)
	}
}

// rawEnv opens a database/sql pool, a scratch database and one
// connection of the pool, closed at the end of the test.
func rawEnv(t *testing.T) (*sql.DB, string, *sql.Conn) {
	t.Helper()
	db := openDB(t, "")
	d := uniqueDB(t, db)
	c, err := db.Conn(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return db, d, c
}

func TestRawArrow(t *testing.T) {
	db, d, c := rawEnv(t)
	ctx := ctxT(t)
	mustExec(t, db, "CREATE TABLE "+d+".logt (id BIGINT, name STRING)"+withFormat())
	mustExec(t, db, "CREATE TABLE "+d+".pkt (id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED)"+withFormat())

	// The Arrow schema of a table: the result schema of SELECT *.
	r, err := fluss.QueryArrow(ctx, c, "SELECT * FROM "+d+".logt LIMIT 0")
	if err != nil {
		t.Fatal(err)
	}
	sch := r.Schema()
	if r.Next() {
		t.Fatal("LIMIT 0 returned a record")
	}
	r.Release()

	rec := arrowRecord(sch, 0, 1000)
	defer rec.Release()
	n, err := fluss.AppendArrow(ctx, c, d+".logt", rec)
	if err != nil || n != 1000 {
		t.Fatalf("AppendArrow: %d, %v", n, err)
	}
	if got := queryStrings(t, db, "SELECT * FROM "+d+".logt"); len(got) != 1000 {
		t.Fatalf("SELECT after the append: %d rows", len(got))
	}

	n, err = fluss.UpsertArrow(ctx, c, d+".pkt", rec)
	if err != nil || n != 1000 {
		t.Fatalf("UpsertArrow: %d, %v", n, err)
	}
	if got := queryStrings(t, db, "SELECT name FROM "+d+".pkt WHERE id = 999"); len(got) != 1 || got[0][0] != "name 999" {
		t.Fatalf("lookup after UpsertArrow: %v", got)
	}

	// QueryArrow streams scans as records.
	r, err = fluss.QueryArrow(ctx, c, "SELECT name, id FROM "+d+".pkt")
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for r.Next() {
		rec := r.RecordBatch()
		if rec.NumCols() != 2 || rec.Schema().Field(0).Name != "name" {
			t.Fatalf("record schema %s", rec.Schema())
		}
		rows += int(rec.NumRows())
	}
	if r.Err() != nil || rows != 1000 {
		t.Fatalf("QueryArrow: %d rows, %v", rows, r.Err())
	}
	r.Release()
	r, err = fluss.QueryArrow(ctx, c, "SELECT id FROM "+d+".pkt WHERE id IN (?, ?)", 3, 4)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Next() || r.RecordBatch().NumRows() != 2 {
		t.Fatalf("QueryArrow of a lookup: %v", r.Err())
	}
	r.Release()
	if _, err := fluss.QueryArrow(ctx, c, "INSERT INTO "+d+".pkt VALUES (1, 'a')"); err == nil {
		t.Fatal("QueryArrow of an INSERT succeeded")
	}
	// The arguments must match the placeholders here too.
	if _, err := fluss.QueryArrow(ctx, c, "SELECT id FROM "+d+".pkt WHERE id IN (?, ?)", 3, 4, 5); err == nil || !strings.Contains(err.Error(), "2 placeholders, got 3 arguments") {
		t.Fatalf("QueryArrow with an extra argument: %v", err)
	}
}

// TestQueryArrowScans: QueryArrow of a log or primary-key table scan
// gives the rows and columns database/sql gives, whether the scanned
// batches are handed out as they are (log SELECT *, projections,
// aliases), the primary-key rows are decoded straight into records, or
// rows are rebuilt one by one (filters, LIMIT).
func TestQueryArrowScans(t *testing.T) {
	db, d, c := rawEnv(t)
	for _, pk := range []bool{false, true} {
		tbl, ddl, load := d+".logt", "", fluss.AppendArrow
		if pk {
			tbl, ddl, load = d+".pkt", ", PRIMARY KEY (id) NOT ENFORCED", fluss.UpsertArrow
		}
		mustExec(t, db, "CREATE TABLE "+tbl+" (id BIGINT, name STRING"+ddl+") WITH ('bucket.num' = '3', 'table.log.format' = '"+logFormat+"')")
		queryArrowScans(t, db, c, tbl, load)
	}
}

func queryArrowScans(t *testing.T, db *sql.DB, c *sql.Conn, tbl string, load func(context.Context, *sql.Conn, string, arrow.RecordBatch) (int64, error)) {
	ctx := ctxT(t)
	r, err := fluss.QueryArrow(ctx, c, "SELECT * FROM "+tbl+" LIMIT 0")
	if err != nil {
		t.Fatal(err)
	}
	sch := r.Schema()
	r.Release()
	for from := 0; from < 3000; from += 1000 {
		rec := arrowRecord(sch, from, 1000)
		_, err := load(ctx, c, tbl, rec)
		rec.Release()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{
		"SELECT * FROM " + tbl,
		"SELECT name AS n, id FROM " + tbl,
		"SELECT id FROM " + tbl,
		"SELECT id, name FROM " + tbl + " /*+ OPTIONS('fluss.client-filter'='true') */ WHERE name = 'name 7'",
		"SELECT name FROM " + tbl + " LIMIT 5",
	} {
		want := queryStrings(t, db, q)
		r, err := fluss.QueryArrow(ctx, c, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		var got [][]string
		for r.Next() {
			rec := r.RecordBatch()
			if !rec.Schema().Equal(r.Schema()) {
				t.Fatalf("%s: record schema %s, reader schema %s", q, rec.Schema(), r.Schema())
			}
			for i := range int(rec.NumRows()) {
				row := make([]string, rec.NumCols())
				for j, col := range rec.Columns() {
					row[j] = col.ValueStr(i)
				}
				got = append(got, row)
			}
		}
		if err := r.Err(); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		r.Release()
		if strings.HasSuffix(q, "LIMIT 5") {
			// Which rows LIMIT picks is not defined; their number is.
			if len(got) != 5 || len(want) != 5 {
				t.Fatalf("%s: %d rows in Arrow, %d through database/sql", q, len(got), len(want))
			}
			continue
		}
		slices.SortFunc(got, slices.Compare)
		slices.SortFunc(want, slices.Compare)
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("%s: Arrow gave %d rows (%v...), database/sql %d (%v...)", q, len(got), got[:min(3, len(got))], len(want), want[:min(3, len(want))])
		}
	}
}
