package parser

import "reflect"

// Walk traverses a DML tree in depth-first order, in the style of
// go/ast.Inspect: visit is called for node, and when it returns true Walk
// descends into the node's children, in source order. A nil node, and nil
// children, are not visited.
//
// The nodes Walk hands to visit are always pointers into the tree, so a
// visitor may change them in place (rename a *TableRef, rewrite a
// *ColumnRef, ...). Besides the Expr, TableExpr, SelectExpr and
// SelectStatement implementations, visit sees *CTE (WITH queries, before
// the query that uses them), *OrderItem, *Limit, *When, *Assignment,
// *WindowSpec, *WindowFrame, *FrameBound and, for INSERT, *TableRef of the
// target table. Walk accepts
// every DML statement (*Select, *Union, *Insert, *Update, *Delete) and any
// of the node types above as its root; other values are ignored.
//
// Walk does not look inside strings that the AST keeps as source text
// (ForSystemTime.Expr, RawExpr.Text, hints).
func Walk(node any, visit func(node any) bool) {
	if isNilNode(node) || !visit(node) {
		return
	}
	w := func(n any) {
		if !isNilNode(n) {
			Walk(n, visit)
		}
	}
	exprs := func(list []Expr) {
		for _, e := range list {
			w(e)
		}
	}
	tables := func(list []TableExpr) {
		for _, t := range list {
			w(t)
		}
	}
	order := func(list []OrderItem) {
		for i := range list {
			w(&list[i])
		}
	}
	with := func(list []CTE) {
		for i := range list {
			w(&list[i])
		}
	}
	switch n := node.(type) {
	// Statements.
	case *Select:
		with(n.With)
		for _, e := range n.Exprs {
			w(e)
		}
		tables(n.From)
		w(n.Where)
		exprs(n.GroupBy)
		w(n.Having)
		order(n.OrderBy)
		w(n.Limit)
	case *Union:
		with(n.With)
		w(n.Left)
		w(n.Right)
		order(n.OrderBy)
		w(n.Limit)
	case *Insert:
		w(&n.Table)
		for _, row := range n.Rows {
			exprs(row)
		}
		w(n.Select)
		for i := range n.OnDuplicate {
			w(&n.OnDuplicate[i])
		}
	case *Update:
		tables(n.Tables)
		for i := range n.Set {
			w(&n.Set[i])
		}
		w(n.Where)
		order(n.OrderBy)
		w(n.Limit)
	case *Delete:
		tables(n.Tables)
		w(n.Where)
		order(n.OrderBy)
		w(n.Limit)

	// WITH queries, select list, FROM items and clauses.
	case *CTE:
		w(n.Select)
	case *StarExpr:
	case *AliasedExpr:
		w(n.Expr)
	case *TableRef:
	case *JoinExpr:
		w(n.Left)
		w(n.Right)
		w(n.On)
	case *SubqueryTable:
		w(n.Select)
	case *ParenTable:
		tables(n.Exprs)
	case *OrderItem:
		w(n.Expr)
	case *Limit:
		w(n.Count)
		w(n.Offset)
	case *Assignment:
		w(n.Column)
		w(n.Value)
	case *When:
		w(n.Cond)
		w(n.Value)
	case *WindowSpec:
		exprs(n.PartitionBy)
		order(n.OrderBy)
		w(n.Frame)
	case *WindowFrame:
		w(&n.Start)
		w(&n.End)
	case *FrameBound:
		w(n.Offset)

	// Expressions.
	case *AndExpr:
		w(n.L)
		w(n.R)
	case *OrExpr:
		w(n.L)
		w(n.R)
	case *NotExpr:
		w(n.X)
	case *CompareExpr:
		w(n.L)
		w(n.R)
	case *InExpr:
		w(n.X)
		exprs(n.List)
		w(n.Subquery)
	case *BetweenExpr:
		w(n.X)
		w(n.From)
		w(n.To)
	case *IsNullExpr:
		w(n.X)
	case *IsBoolExpr:
		w(n.X)
	case *LikeExpr:
		w(n.X)
		w(n.Pattern)
		w(n.Escape)
	case *ColumnRef, *Literal, *Param, *Variable, *DefaultExpr, *RawExpr:
	case *ArrayExpr:
		exprs(n.Elems)
	case *MapExpr:
		for i := range n.Keys {
			w(n.Keys[i])
			if i < len(n.Values) {
				w(n.Values[i])
			}
		}
	case *RowExpr:
		exprs(n.Fields)
	case *TupleExpr:
		exprs(n.Exprs)
	case *CastExpr:
		w(n.X)
	case *FuncCall:
		exprs(n.Args)
		w(n.Over)
	case *BinaryExpr:
		w(n.L)
		w(n.R)
	case *UnaryExpr:
		w(n.X)
	case *IntervalExpr:
		w(n.Value)
	case *FloorCeilExpr:
		w(n.X)
	case *ExtractExpr:
		w(n.X)
	case *CaseExpr:
		w(n.Operand)
		for i := range n.Whens {
			w(&n.Whens[i])
		}
		w(n.Else)
	case *SubqueryExpr:
		w(n.Select)
	case *ExistsExpr:
		w(n.Select)
	}
}

// isNilNode reports whether n is nil or a typed nil pointer (an unset
// *Limit, or an Expr field holding (*ColumnRef)(nil), and the like).
func isNilNode(n any) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
