package engine

import (
	"context"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/gofluss/fluss/planner"
)

// runsNothing is a QueryEngine that runs no query.
type runsNothing struct{}

func (runsNothing) Describe(context.Context, *AnalyticQuery) ([]planner.Column, error) {
	return nil, nil
}
func (runsNothing) Query(context.Context, *AnalyticQuery) (array.RecordReader, error) {
	return nil, nil
}
func (runsNothing) Explain(*AnalyticQuery) (string, error) { return "", nil }

// listsFunctions is one that lists its functions.
type listsFunctions struct{ runsNothing }

func (listsFunctions) Functions() Functions { return Functions{Numeric: []string{"ABS"}} }

// EngineFunctions answers for the registered engine only when it lists
// its functions.
func TestEngineFunctions(t *testing.T) {
	t.Cleanup(func() { RegisterQueryEngine(nil) })
	for _, tc := range []struct {
		name   string
		engine QueryEngine
		want   []string
		ok     bool
	}{
		{"none", nil, nil, false},
		{"silent", runsNothing{}, nil, false},
		{"lister", listsFunctions{}, []string{"ABS"}, true},
	} {
		RegisterQueryEngine(tc.engine)
		got, ok := EngineFunctions()
		if ok != tc.ok || !slices.Equal(got.Numeric, tc.want) {
			t.Errorf("%s: EngineFunctions() = %v, %v; want %v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

// A lookup join scans its table once the probe's keys outnumber
// 1/planner.LookupJoinScanRatio of the table's rows.
func TestScanInstead(t *testing.T) {
	for _, tc := range []struct {
		keys int
		rows int64
		want bool
	}{
		{keys: 1000, rows: 100_000, want: false},
		{keys: 12_500, rows: 100_000, want: false},
		{keys: 12_501, rows: 100_000, want: true},
		{keys: 100_000, rows: 100_000, want: true},
		{keys: 5, rows: 0, want: false}, // empty, or no counts
	} {
		if got := scanInstead(tc.keys, tc.rows); got != tc.want {
			t.Errorf("scanInstead(%d keys, %d rows) = %v, want %v", tc.keys, tc.rows, got, tc.want)
		}
	}
}
