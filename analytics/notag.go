//go:build !duckdb_arrow

package analytics

import (
	"context"
	"errors"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/gofluss/fluss/engine"
	"github.com/gofluss/fluss/planner"
)

// Without the build tag duckdb_arrow, DuckDB's Arrow interface is not
// compiled, and the engine cannot be fed. The package still registers
// an engine so that queries which need it say what is missing instead of
// being refused as if the import were absent.
func init() { engine.RegisterQueryEngine(untagged{}) }

var errUntagged = errors.New("fluss: the analytics engine was built without the build tag duckdb_arrow: build with -tags duckdb_arrow (and cgo)")

type untagged struct{}

func (untagged) Describe(context.Context, *engine.AnalyticQuery) ([]planner.Column, error) {
	return nil, errUntagged
}

func (untagged) Query(context.Context, *engine.AnalyticQuery) (array.RecordReader, error) {
	return nil, errUntagged
}

func (untagged) Explain(*engine.AnalyticQuery) (string, error) { return "", errUntagged }
