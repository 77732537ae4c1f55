//go:build duckdb_arrow

package analytics

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gofluss/fluss/engine"
	"github.com/gofluss/fluss/parser"
	"github.com/gofluss/fluss/planner"
)

// TestViewsReadTheColumnsNamed runs queries that read only some columns
// of a view, not the first ones: DuckDB's Arrow views take the column
// projection and then read the stream's columns by position, so without
// the fix SELECT b returned column a (and a join on c read a string as
// an integer).
func TestViewsReadTheColumnsNamed(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "c", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	}, nil)
	open := func(context.Context, int, array.RecordReader) (array.RecordReader, error) {
		bld := array.NewRecordBuilder(memory.DefaultAllocator, sc)
		defer bld.Release()
		bld.Field(0).(*array.StringBuilder).AppendValues([]string{"a1", "a2"}, nil)
		bld.Field(1).(*array.StringBuilder).AppendValues([]string{"b1", "b2"}, nil)
		bld.Field(2).(*array.Int64Builder).AppendValues([]int64{1, 2}, nil)
		rec := bld.NewRecordBatch()
		defer rec.Release()
		return array.NewRecordReader(sc, []arrow.RecordBatch{rec})
	}
	cases := []struct{ query, want string }{
		{"SELECT b FROM fluss_src_1 ORDER BY b", "b1 b2"},
		{"SELECT c, b FROM fluss_src_1 ORDER BY c", "1 b1 2 b2"},
		{"SELECT y.b FROM fluss_src_1 x JOIN fluss_src_2 y ON x.c = y.c ORDER BY y.b", "b1 b2"},
		{"SELECT x.a, y.c FROM fluss_src_1 x JOIN fluss_src_2 y ON x.b = y.b ORDER BY x.a", "a1 1 a2 2"},
	}
	e := &Engine{}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			stmt, err := parser.Parse(c.query)
			if err != nil {
				t.Fatal(err)
			}
			plan := &planner.Analytic{Query: stmt.(*parser.Select)}
			q := &engine.AnalyticQuery{Plan: plan, Open: open}
			for i := range strings.Count(c.query, "fluss_src_") {
				plan.Sources = append(plan.Sources, planner.Source{View: fmt.Sprintf("fluss_src_%d", i+1)})
				q.Schemas = append(q.Schemas, sc)
			}
			rr, err := e.Query(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			defer rr.Release()
			var got []string
			for rr.Next() {
				rec := rr.RecordBatch()
				for r := range int(rec.NumRows()) {
					for _, col := range rec.Columns() {
						// The engine's strings live in its buffers,
						// freed with the record.
						got = append(got, strings.Clone(col.ValueStr(r)))
					}
				}
			}
			if err := rr.Err(); err != nil {
				t.Fatal(err)
			}
			if g := strings.Join(got, " "); g != c.want {
				t.Errorf("got %q, want %q", g, c.want)
			}
		})
	}
}

func TestEngineZone(t *testing.T) {
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		loc  *time.Location
		want string // "" for an error
	}{
		{nil, "UTC"},
		{time.UTC, "UTC"},
		{shanghai, "Asia/Shanghai"},
		{time.FixedZone("GMT+08:00", 8*3600), "Etc/GMT-8"},
		{time.FixedZone("-05", -5*3600), "Etc/GMT+5"},
		{time.FixedZone("GMT+00:00", 0), "UTC"},
		{time.FixedZone("+05:30", 5*3600+1800), ""},
	} {
		got, err := engineZone(tc.loc)
		if got != tc.want || (err == nil) != (tc.want != "") {
			t.Errorf("engineZone(%v) = %q, %v; want %q", tc.loc, got, err, tc.want)
		}
	}
}
