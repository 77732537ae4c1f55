package planner

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gofluss/fluss/parser"
)

// Sort is ORDER BY on a read whose size the driver bounds: a lookup, an
// IN list, or a bounded scan. Fluss hands rows back in per-bucket order,
// so the executor reads Input in full, orders the rows in the client and
// then applies Offset and Limit. Memory is bounded by MaxRows (the
// 'fluss.scan.max-rows' cap): with a LIMIT only Offset+Limit rows are
// kept however many are read, without one a result past MaxRows is
// refused. Keys index Input's rows; NULL sorts before every value (first
// ascending, last descending), as in Flink and MySQL. Input's rows may carry sort columns the select list leaves
// out after the Output columns; they are cut off after sorting.
type Sort struct {
	Input   QueryPlan
	Keys    []SortKey
	Limit   *Value
	Offset  *Value
	MaxRows int64
	// Params are the statement's parameters: Input's and the window's.
	Params []Param
	Output []Column
}

func (*Sort) planNode() {}

// String renders the plan.
func (p *Sort) String() string { return format(p) }

// OutputColumns returns the result columns.
func (p *Sort) OutputColumns() []Column { return p.Output }

// sorted plans a SELECT with ORDER BY: the read it would be without
// ORDER BY, LIMIT and OFFSET, wrapped in a Sort that applies all three.
func (q *query) sorted() (Plan, error) {
	switch {
	case q.count:
		return nil, errf("ORDER BY", "ORDER BY with COUNT(*): the result is one row; drop ORDER BY")
	case q.streaming():
		return nil, errf("ORDER BY", "ORDER BY needs a bounded read, and a streaming read never ends; drop ORDER BY or read in batch mode")
	}
	width := len(q.output)
	keys, err := q.sortKeys()
	if err != nil {
		return nil, err
	}
	limit, offset := q.limit, q.offset
	// With the window taken out, the read below is planned as if there
	// were no LIMIT: a LIMIT scan would return some first rows, not the
	// first rows in this order.
	q.sorting, q.limit, q.offset = true, nil, nil
	var in Plan
	if q.changelog {
		in, err = q.changelogPlan()
	} else {
		in, err = q.basePlan()
	}
	if err != nil {
		return nil, err
	}
	return &Sort{Input: in.(QueryPlan), Keys: keys, Limit: limit, Offset: offset, MaxRows: q.maxRows(),
		Params: windowParams(q.p.params, limit, offset), Output: q.output[:width:width]}, nil
}

// windowParams adds the parameters of LIMIT and OFFSET to the read's,
// which planning the read without a window may have dropped.
func windowParams(params []Param, window ...*Value) []Param {
	out := slices.Clone(params)
	for _, v := range window {
		if v != nil && v.Kind == ValueParam && !slices.ContainsFunc(out, func(p Param) bool { return p.Index == v.Param.Index && p.Name == v.Param.Name }) {
			out = append(out, *v.Param)
		}
	}
	return out
}

// sortKeys resolves the ORDER BY items to positions in the projected row:
// a select-list alias, a position (ORDER BY 2), or a column of the table,
// which is projected as an extra trailing column when the select list
// does not hold it.
func (q *query) sortKeys() ([]SortKey, error) {
	keys := make([]SortKey, 0, len(q.s.OrderBy))
	for _, it := range q.s.OrderBy {
		col, err := q.sortColumn(it.Expr)
		if err != nil {
			return nil, err
		}
		if err := nativeNulls(it); err != nil {
			return nil, err
		}
		keys = append(keys, SortKey{Column: col, Name: q.output[col].Name, Desc: it.Desc})
	}
	return keys, nil
}

// nativeNulls accepts the NULLS FIRST or NULLS LAST of an ORDER BY item
// when it is where the client sorts NULL anyway (first ascending, last
// descending, Flink's order); the other order needs a query engine.
func nativeNulls(it parser.OrderItem) *Error {
	if it.Nulls == parser.NullsDefault || (it.Nulls == parser.NullsFirst) != it.Desc {
		return nil
	}
	dir := "ASC"
	if it.Desc {
		dir = "DESC"
	}
	return engineErrf("ORDER BY", "ORDER BY %s %s %s: the client sorts NULL first ascending and last descending, as Flink does; the other order needs a query engine", exprText(it.Expr), dir, it.Nulls)
}

func (q *query) sortColumn(e parser.Expr) (int, error) {
	switch x := e.(type) {
	case *parser.Literal:
		n, err := strconv.Atoi(x.Text)
		if x.Kind != parser.LitInt || err != nil || n < 1 || n > len(q.output) {
			return 0, errf("ORDER BY", "ORDER BY %s: a position must be between 1 and %d (the select list)", exprText(e), len(q.output))
		}
		return n - 1, nil
	case *parser.ColumnRef:
		if len(x.Qualifier) == 0 {
			if j := q.aliasPosition(x.Name); j >= 0 {
				return j, nil
			}
		}
		i, err := q.row.resolve(x, "ORDER BY")
		if err != nil {
			return 0, err
		}
		for j, k := range q.proj.Indexes {
			if k == i {
				return j, nil
			}
		}
		q.proj.Indexes = append(q.proj.Indexes, i)
		q.output = append(q.output, Column{q.row.names[i], q.row.types[i]})
		return len(q.output) - 1, nil
	}
	return 0, engineErrf("ORDER BY", "ORDER BY %s: the client sorts by columns, select-list aliases and positions only; an expression needs a query engine", exprText(e))
}

// aliasPosition finds a select-list alias (AS name) among the outputs.
func (q *query) aliasPosition(name string) int {
	j := 0
	for _, se := range q.s.Exprs {
		ae, ok := se.(*parser.AliasedExpr)
		if !ok {
			// SELECT * expands to every column; aliases come after it.
			j += len(q.row.names)
			continue
		}
		if ae.Alias != "" && strings.EqualFold(ae.Alias, name) {
			return j
		}
		j++
	}
	return -1
}
