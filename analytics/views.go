package analytics

import (
	"fmt"
	"sync/atomic"

	"github.com/gofluss/fluss/parser"
	"github.com/gofluss/fluss/planner"
)

// viewSeq numbers the engine's queries. DuckDB keeps an Arrow view in the
// database's catalog, where every connection sees it: two queries running
// at once under the planner's names (fluss_src_1, ...) would replace each
// other's views and read each other's rows. Each query's views carry its
// number instead.
var viewSeq atomic.Uint64

// views is one run of an analytic plan under names of its own.
type views struct {
	// names are the views of the plan's Sources, by index.
	names []string
	// query is the plan's query reading them.
	query parser.SelectStatement
	// keys are the lookup joins' key queries, by the index of the looked-up
	// Source (nil elsewhere).
	keys []parser.SelectStatement
}

// newViews names the views of one run of p.
func newViews(p *planner.Analytic) *views {
	n := viewSeq.Add(1)
	v := &views{names: make([]string, len(p.Sources)), keys: make([]parser.SelectStatement, len(p.Sources))}
	to := make(map[string]string, len(p.Sources))
	for i, s := range p.Sources {
		v.names[i] = fmt.Sprintf("%s_q%d", s.View, n)
		to[s.View] = v.names[i]
	}
	v.query = renameViews(p.Query, to)
	for i, s := range p.Sources {
		if s.LookupJoin != nil {
			v.keys[i] = renameViews(s.LookupJoin.Keys, to)
		}
	}
	return v
}

// renameViews returns a copy of q whose references to the views named in
// to read the views they map to.
func renameViews(q parser.SelectStatement, to map[string]string) parser.SelectStatement {
	q = parser.CloneSelect(q)
	parser.Walk(q, func(n any) bool {
		if r, ok := n.(*parser.TableRef); ok && r.Name.Database == "" {
			if name, ok := to[r.Name.Name]; ok {
				r.Name.Name = name
			}
		}
		return true
	})
	return q
}
