package parser

// CloneSelect returns a deep copy of s: no pointer, slice or map of the
// copy is shared with s, so the copy can be rewritten in place (for
// instance with Walk) while s, typically a cached statement, stays as
// parsed. A nil s gives nil.
func CloneSelect(s SelectStatement) SelectStatement {
	switch n := s.(type) {
	case *Select:
		if n == nil {
			return (*Select)(nil)
		}
		c := *n
		c.Meta = cloneMeta(n.Meta)
		c.With = cloneWith(n.With)
		c.Hints = cloneHints(n.Hints)
		c.Exprs = cloneSlice(n.Exprs, cloneSelectExpr)
		c.From = cloneTables(n.From)
		c.Where = CloneExpr(n.Where)
		c.GroupBy = cloneExprs(n.GroupBy)
		c.Having = CloneExpr(n.Having)
		c.OrderBy = cloneOrder(n.OrderBy)
		c.Limit = cloneLimit(n.Limit)
		return &c
	case *Union:
		if n == nil {
			return (*Union)(nil)
		}
		c := *n
		c.Meta = cloneMeta(n.Meta)
		c.With = cloneWith(n.With)
		c.Left = CloneSelect(n.Left)
		c.Right = CloneSelect(n.Right)
		c.OrderBy = cloneOrder(n.OrderBy)
		c.Limit = cloneLimit(n.Limit)
		return &c
	}
	return s
}

// CloneExpr returns a deep copy of e (nil for nil).
func CloneExpr(e Expr) Expr {
	switch n := e.(type) {
	case nil:
		return nil
	case *AndExpr:
		return &AndExpr{L: CloneExpr(n.L), R: CloneExpr(n.R)}
	case *OrExpr:
		return &OrExpr{L: CloneExpr(n.L), R: CloneExpr(n.R)}
	case *NotExpr:
		return &NotExpr{X: CloneExpr(n.X)}
	case *CompareExpr:
		return &CompareExpr{Op: n.Op, L: CloneExpr(n.L), R: CloneExpr(n.R)}
	case *InExpr:
		return &InExpr{X: CloneExpr(n.X), Not: n.Not, List: cloneExprs(n.List), Subquery: CloneSelect(n.Subquery)}
	case *BetweenExpr:
		return &BetweenExpr{X: CloneExpr(n.X), Not: n.Not, From: CloneExpr(n.From), To: CloneExpr(n.To)}
	case *IsNullExpr:
		return &IsNullExpr{X: CloneExpr(n.X), Not: n.Not}
	case *IsBoolExpr:
		return &IsBoolExpr{X: CloneExpr(n.X), Not: n.Not, Value: n.Value}
	case *LikeExpr:
		return &LikeExpr{X: CloneExpr(n.X), Not: n.Not, Pattern: CloneExpr(n.Pattern), Escape: CloneExpr(n.Escape), Regexp: n.Regexp}
	case *ColumnRef:
		if n == nil {
			return n
		}
		return &ColumnRef{Qualifier: cloneStrings(n.Qualifier), Name: n.Name}
	case *Literal:
		c := *n
		c.Bytes = cloneBytes(n.Bytes)
		return &c
	case *Param:
		c := *n
		return &c
	case *Variable:
		c := *n
		return &c
	case *ArrayExpr:
		return &ArrayExpr{Elems: cloneExprs(n.Elems)}
	case *MapExpr:
		return &MapExpr{Keys: cloneExprs(n.Keys), Values: cloneExprs(n.Values)}
	case *RowExpr:
		return &RowExpr{Fields: cloneExprs(n.Fields)}
	case *TupleExpr:
		return &TupleExpr{Exprs: cloneExprs(n.Exprs)}
	case *CastExpr:
		return &CastExpr{X: CloneExpr(n.X), Type: cloneType(n.Type), TypeText: n.TypeText, Try: n.Try}
	case *FuncCall:
		c := *n
		c.Args = cloneExprs(n.Args)
		c.Over = cloneWindow(n.Over)
		return &c
	case *BinaryExpr:
		return &BinaryExpr{Op: n.Op, L: CloneExpr(n.L), R: CloneExpr(n.R)}
	case *UnaryExpr:
		return &UnaryExpr{Op: n.Op, X: CloneExpr(n.X)}
	case *IntervalExpr:
		return &IntervalExpr{Value: CloneExpr(n.Value), Unit: n.Unit}
	case *FloorCeilExpr:
		return &FloorCeilExpr{Ceil: n.Ceil, X: CloneExpr(n.X), Unit: n.Unit}
	case *ExtractExpr:
		return &ExtractExpr{Unit: n.Unit, X: CloneExpr(n.X)}
	case *CaseExpr:
		whens := cloneSlice(n.Whens, func(w When) When { return When{Cond: CloneExpr(w.Cond), Value: CloneExpr(w.Value)} })
		return &CaseExpr{Operand: CloneExpr(n.Operand), Whens: whens, Else: CloneExpr(n.Else)}
	case *SubqueryExpr:
		return &SubqueryExpr{Select: CloneSelect(n.Select)}
	case *ExistsExpr:
		return &ExistsExpr{Select: CloneSelect(n.Select)}
	case *DefaultExpr:
		return &DefaultExpr{}
	case *RawExpr:
		c := *n
		return &c
	}
	panic("parser.CloneExpr: unknown expression type")
}

func cloneSelectExpr(e SelectExpr) SelectExpr {
	switch n := e.(type) {
	case *StarExpr:
		c := *n
		return &c
	case *AliasedExpr:
		return &AliasedExpr{Expr: CloneExpr(n.Expr), Alias: n.Alias}
	case nil:
		return nil
	}
	panic("parser.CloneSelect: unknown select expression type")
}

// CloneTable returns a deep copy of t (nil for nil).
func CloneTable(t TableExpr) TableExpr {
	switch n := t.(type) {
	case nil:
		return nil
	case *TableRef:
		return cloneTableRef(n)
	case *JoinExpr:
		return &JoinExpr{Kind: n.Kind, Left: CloneTable(n.Left), Right: CloneTable(n.Right), On: CloneExpr(n.On), Using: cloneStrings(n.Using)}
	case *SubqueryTable:
		return &SubqueryTable{Select: CloneSelect(n.Select), Alias: n.Alias}
	case *ParenTable:
		return &ParenTable{Exprs: cloneTables(n.Exprs)}
	}
	panic("parser.CloneTable: unknown table expression type")
}

func cloneTableRef(n *TableRef) *TableRef {
	c := *n
	c.Hints = cloneHints(n.Hints)
	if n.ForSystemTime != nil {
		f := *n.ForSystemTime
		c.ForSystemTime = &f
	}
	return &c
}

// cloneSlice copies list element by element with f; nil stays nil.
func cloneSlice[T any](list []T, f func(T) T) []T {
	if list == nil {
		return nil
	}
	out := make([]T, len(list))
	for i, x := range list {
		out[i] = f(x)
	}
	return out
}

func cloneTables(list []TableExpr) []TableExpr { return cloneSlice(list, CloneTable) }

func cloneExprs(list []Expr) []Expr { return cloneSlice(list, CloneExpr) }

func cloneOrder(list []OrderItem) []OrderItem {
	return cloneSlice(list, func(o OrderItem) OrderItem {
		o.Expr = CloneExpr(o.Expr)
		return o
	})
}

func cloneWith(list []CTE) []CTE {
	return cloneSlice(list, func(c CTE) CTE {
		c.Columns = cloneStrings(c.Columns)
		c.Select = CloneSelect(c.Select)
		return c
	})
}

func cloneWindow(w *WindowSpec) *WindowSpec {
	if w == nil {
		return nil
	}
	c := &WindowSpec{PartitionBy: cloneExprs(w.PartitionBy), OrderBy: cloneOrder(w.OrderBy)}
	if f := w.Frame; f != nil {
		bound := func(b FrameBound) FrameBound { return FrameBound{Kind: b.Kind, Offset: CloneExpr(b.Offset)} }
		c.Frame = &WindowFrame{Range: f.Range, Start: bound(f.Start), End: bound(f.End)}
	}
	return c
}

func cloneLimit(l *Limit) *Limit {
	if l == nil {
		return nil
	}
	return &Limit{Count: CloneExpr(l.Count), Offset: CloneExpr(l.Offset)}
}

func cloneMeta(m Meta) Meta {
	if m.Params != nil {
		m.Params = append([]Placeholder(nil), m.Params...)
	}
	return m
}

func cloneHints(list []Hint) []Hint {
	return cloneSlice(list, func(h Hint) Hint {
		if h.Options != nil {
			h.Options = append([]Option(nil), h.Options...)
		}
		h.Args = cloneStrings(h.Args)
		return h
	})
}

func cloneStrings(s []string) []string {
	if s == nil {
		return nil
	}
	return append([]string(nil), s...)
}

func cloneBytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte(nil), b...)
}

func cloneType(t *DataType) *DataType {
	if t == nil {
		return nil
	}
	c := *t
	c.Elem = cloneType(t.Elem)
	c.Key = cloneType(t.Key)
	c.Value = cloneType(t.Value)
	c.Fields = cloneSlice(t.Fields, func(f RowField) RowField {
		f.Type = cloneType(f.Type)
		if f.Description != nil {
			d := *f.Description
			f.Description = &d
		}
		return f
	})
	c.ForeignArgs = cloneStrings(t.ForeignArgs)
	return &c
}
