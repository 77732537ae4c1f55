//go:build duckdb_arrow

package analytics

import (
	"maps"
	"slices"

	"github.com/gofluss/fluss/engine"
)

// Functions lists the Flink functions the engine runs, sorted, by the
// categories of JDBC's DatabaseMetaData (conditions such as COALESCE and
// IFNULL are its system functions).
func (e *Engine) Functions() engine.Functions {
	var f engine.Functions
	for _, g := range funcGroups {
		names := slices.Sorted(maps.Keys(g.funcs))
		switch g.category {
		case "numeric":
			f.Numeric = append(f.Numeric, names...)
		case "string":
			f.String = append(f.String, names...)
		case "datetime":
			f.DateTime = append(f.DateTime, names...)
		case "system":
			f.System = append(f.System, names...)
		}
	}
	return f
}
