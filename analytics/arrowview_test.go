//go:build duckdb_arrow

package analytics

import (
	"context"
	"database/sql/driver"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/duckdb/duckdb-go/v2"
)

// TestRegisteredViewFiltersAndProjects checks that queries over a
// registered Arrow stream see only the rows their filters keep and the
// columns they name: DuckDB's C API scan applies neither of the
// pushdowns DuckDB hands it (the query got every row, read the wrong
// column, or crashed).
func TestRegisteredViewFiltersAndProjects(t *testing.T) {
	db, err := (&Engine{}).db(map[string]string{})
	if err != nil {
		t.Fatal(err)
	}
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "v", Type: arrow.BinaryTypes.String},
		{Name: "w", Type: arrow.PrimitiveTypes.Float64},
	}, nil)
	for _, c := range []struct{ query, want string }{
		{"SELECT count(*) FROM t WHERE id < 30", "30"},
		{"SELECT min(v) || max(v) FROM t", "az"},
		{"SELECT sum(w) FROM t WHERE id < 30", "217.5"},
		{"SELECT max(w) FROM t WHERE v = 'c'", "14"},
		{"SELECT count(*) FROM t a JOIN t2 b ON a.id = b.id + 1 WHERE a.v = 'b'", "2"},
	} {
		t.Run(c.query, func(t *testing.T) {
			conn, err := db.Conn(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			s := &session{conn: conn}
			defer s.close()
			if err := conn.Raw(func(dc any) error {
				s.arrow, err = duckdb.NewArrowFromConn(dc.(driver.Conn))
				return err
			}); err != nil {
				t.Fatal(err)
			}
			b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
			defer b.Release()
			for i := 0; i < 50; i++ {
				b.Field(0).(*array.Int64Builder).Append(int64(i))
				b.Field(1).(*array.StringBuilder).Append(string(rune('a' + i%26)))
				b.Field(2).(*array.Float64Builder).Append(float64(i) / 2)
			}
			rec := b.NewRecordBatch()
			defer rec.Release()
			// A stream is read once: the join reads a second one.
			for _, name := range []string{"t", "t2"} {
				rr, err := array.NewRecordReader(sc, []arrow.RecordBatch{rec})
				if err != nil {
					t.Fatal(err)
				}
				if err := s.register(rr, name); err != nil {
					t.Fatal(err)
				}
			}
			var got any
			if err := conn.QueryRowContext(context.Background(), c.query).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != c.want {
				t.Errorf("%s = %v, want %s", c.query, got, c.want)
			}
		})
	}
}
