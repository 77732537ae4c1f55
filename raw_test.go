package fluss_test

import (
	"fmt"
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

func TestRawArrow(t *testing.T) {
	db := openDB(t, "")
	d := uniqueDB(t, db)
	ctx := ctxT(t)
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
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
