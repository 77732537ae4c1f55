package planner

import (
	"context"
	"fmt"
	"testing"

	"github.com/gofluss/fluss/parser"
)

// TestParamsOf: the parameters of a plan, whatever its kind, with their
// index, target column and type; none for a plan without arguments.
func TestParamsOf(t *testing.T) {
	cat := newFakeCatalog(t)
	tests := []struct {
		sql  string
		want string
	}{
		{"SELECT status FROM orders WHERE order_id = ?", "[1 order_id BIGINT NOT NULL]"},
		{"INSERT INTO orders (order_id, status) VALUES (?, ?)", "[1 order_id BIGINT NOT NULL 2 status STRING]"},
		{"SELECT * FROM orders ORDER BY order_id LIMIT ? OFFSET ?", "[1  BIGINT NOT NULL 2  BIGINT NOT NULL]"},
		{"SHOW DATABASES", "[]"},
		{"USE fluss", "[]"},
	}
	for _, tt := range tests {
		t.Run(tt.sql, func(t *testing.T) {
			st, err := parser.Parse(tt.sql)
			if err != nil {
				t.Fatal(err)
			}
			pl, err := Build(context.Background(), st, cat, newTestSession())
			if err != nil {
				t.Fatal(err)
			}
			var got []any
			for _, p := range ParamsOf(pl) {
				got = append(got, p.Index, p.Column, p.Type.String())
			}
			if s := fmt.Sprint(got); s != tt.want {
				t.Errorf("ParamsOf = %s, want %s", s, tt.want)
			}
		})
	}
	if ParamsOf(nil) != nil || ParamsOf((*Lookup)(nil)) != nil {
		t.Error("ParamsOf of a nil plan is not empty")
	}
}
