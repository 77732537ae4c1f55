package planner

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
	"github.com/gofluss/fluss/parser"
)

// errNotConst marks a value expression that is not a constant or parameter.
type errNotConst struct{ expr parser.Expr }

// Error describes the offending expression.
func (e errNotConst) Error() string { return exprText(e.expr) + " is not a constant or parameter" }

// value converts a constant or parameter for column col of type t.
func (p *planCtx) value(e parser.Expr, col string, t schema.DataType) (Value, error) {
	switch x := e.(type) {
	case *parser.Param:
		return p.param(x, col, t), nil
	case *parser.DefaultExpr:
		return Value{Kind: ValueLiteral, Type: t}, nil
	case *parser.CastExpr:
		if pr, ok := x.X.(*parser.Param); ok {
			return p.param(pr, col, t), nil
		}
	}
	if name, ok := sessionFunc(e); ok && (t.Root == schema.RootString || t.Root == schema.RootChar) {
		return Value{Kind: ValueSession, Session: name, Type: t}, nil
	}
	if name, gives, ok := clockFunc(e); ok {
		if !clockFits(gives, t) {
			return Value{}, fmt.Errorf("%s gives a %s, which does not fit type %s", exprText(e), gives.WithNullable(true), t)
		}
		return Value{Kind: ValueSession, Session: name, Type: t}, nil
	}
	if !isConstExpr(e) {
		return Value{}, errNotConst{e}
	}
	v, err := literal(e, t, p.sess.location())
	if err != nil {
		return Value{}, err
	}
	return Value{Kind: ValueLiteral, Type: t, Literal: v}, nil
}

// clockFunc recognises a reading of the clock, NOW() and its kin, and
// returns the session value the executor reads for it and the type Flink
// gives it. The clock is read once per execution, so all rows of one
// INSERT get the same time, as in a Flink batch query.
func clockFunc(e parser.Expr) (name string, gives schema.DataType, ok bool) {
	f, isCall := e.(*parser.FuncCall)
	if !isCall || len(f.Args) > 0 || f.Star || f.Qualifier != "" {
		return "", schema.DataType{}, false
	}
	switch strings.ToLower(f.Name) {
	case "now", "current_timestamp", "current_row_timestamp":
		return "current_timestamp", schema.TimestampLTZ(3).NotNull(), true
	case "localtimestamp":
		return "localtimestamp", schema.Timestamp(3).NotNull(), true
	case "current_date":
		return "current_date", schema.Date().NotNull(), true
	case "current_time", "localtime":
		return "current_time", schema.Time(0).NotNull(), true
	}
	return "", schema.DataType{}, false
}

// clockFits reports whether a clock reading of type gives may be stored in
// a column of type t: the time stamps in either kind of TIMESTAMP (the
// session time zone gives the wall clock), a date in a DATE, a time of
// day in a TIME.
func clockFits(gives, t schema.DataType) bool {
	stamp := func(r schema.TypeRoot) bool { return r == schema.RootTimestamp || r == schema.RootTimestampLTZ }
	if stamp(gives.Root) {
		return stamp(t.Root)
	}
	return gives.Root == t.Root
}

// isConstExpr reports whether e is built only from literals (and the
// ARRAY/MAP/ROW constructors and CAST).
func isConstExpr(e parser.Expr) bool {
	switch x := e.(type) {
	case *parser.Literal:
		return true
	case *parser.UnaryExpr:
		_, ok := x.X.(*parser.Literal)
		return ok && (x.Op == "-" || x.Op == "+")
	case *parser.CastExpr:
		return isConstExpr(x.X)
	case *parser.ArrayExpr:
		return allConst(x.Elems)
	case *parser.MapExpr:
		return allConst(x.Keys) && allConst(x.Values)
	case *parser.RowExpr:
		return allConst(x.Fields)
	case *parser.TupleExpr:
		return allConst(x.Exprs)
	case *parser.FuncCall:
		n := strings.ToLower(x.Name)
		return (n == "row" || n == "array") && allConst(x.Args)
	}
	return false
}

func allConst(list []parser.Expr) bool {
	for _, e := range list {
		if !isConstExpr(e) {
			return false
		}
	}
	return true
}

func isValueExpr(e parser.Expr) bool {
	if _, ok := sessionFunc(e); ok {
		return true
	}
	if _, _, ok := clockFunc(e); ok {
		return true
	}
	switch x := e.(type) {
	case *parser.Param:
		return true
	case *parser.CastExpr:
		if _, ok := x.X.(*parser.Param); ok {
			return true
		}
	}
	return isConstExpr(e)
}

// ---------------------------------------------------------------------------
// Column resolution

// rowType is the set of columns a statement can refer to.
type rowType struct {
	names []string
	types []schema.DataType
	// aliases are the table names/aliases a qualifier may use.
	aliases []string
	// shown is how many leading columns SELECT * and bare names see (0:
	// all). The columns after them are fields of ROW columns, named
	// "row.field", which only row.field reaches ($binlog's before/after).
	shown int
}

// visible returns the names SELECT * and bare names see.
func (r *rowType) visible() []string {
	if r.shown > 0 {
		return r.names[:r.shown]
	}
	return r.names
}

func (r *rowType) isAlias(name string) bool {
	for _, a := range r.aliases {
		if strings.EqualFold(a, name) {
			return true
		}
	}
	return false
}

func schemaRow(s *schema.Schema, aliases ...string) *rowType {
	r := &rowType{aliases: aliases}
	for _, c := range s.Columns {
		r.names = append(r.names, c.Name)
		r.types = append(r.types, c.Type)
	}
	return r
}

// index resolves a column name: exact match first, then a unique
// case-insensitive match.
func (r *rowType) index(name string) int {
	for i, n := range r.names {
		if n == name {
			return i
		}
	}
	found := -1
	for i, n := range r.names {
		if strings.EqualFold(n, name) {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

func (r *rowType) resolve(c *parser.ColumnRef, clause string) (int, *Error) {
	if n := len(c.Qualifier); n > 0 && !r.isAlias(c.Qualifier[n-1]) {
		// row.field, or alias.row.field.
		q := c.Qualifier[n-1]
		if i := r.index(q + "." + c.Name); i >= len(r.visible()) && (n == 1 || r.isAlias(c.Qualifier[n-2])) {
			return i, nil
		}
		return -1, errf(clause, "unknown table %q in column reference %s (nested fields of ROW columns cannot be addressed here)", q, exprText(c))
	}
	i := r.index(c.Name)
	if i < 0 || i >= len(r.visible()) {
		return -1, errf(clause, "unknown column %q (columns: %s)", c.Name, strings.Join(r.visible(), ", "))
	}
	return i, nil
}

// ---------------------------------------------------------------------------
// WHERE analysis

type conjKind int

const (
	conjEq conjKind = iota
	conjIn
	conjTupleIn
	conjOther
)

// conj is one AND-ed term of a WHERE clause.
type conj struct {
	kind conjKind
	// col is the column index for conjEq / conjIn.
	col  int
	vals []parser.Expr
	// tupleCols / tupleRows for conjTupleIn.
	tupleCols []int
	tupleRows [][]parser.Expr
	expr      parser.Expr
	// refs are the columns the term references.
	refs []int
}

func splitAnd(e parser.Expr, out []parser.Expr) []parser.Expr {
	if a, ok := e.(*parser.AndExpr); ok {
		return splitAnd(a.R, splitAnd(a.L, out))
	}
	if e == nil {
		return out
	}
	return append(out, e)
}

// analyze splits where into classified conjuncts. Conjuncts of constants
// that are TRUE, such as the 1 = 1 query builders start with, are left
// out.
func analyze(where parser.Expr, r *rowType, clause string) ([]conj, *Error) {
	var out []conj
	for _, e := range splitAnd(where, nil) {
		if truth, ok := constTruth(e); ok && truth {
			continue
		}
		c, err := classify(e, r, clause)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func classify(e parser.Expr, r *rowType, clause string) (conj, *Error) {
	c := conj{kind: conjOther, expr: e}
	refs, err := columnRefs(e, r, clause)
	if err != nil {
		return c, err
	}
	c.refs = refs
	switch x := e.(type) {
	case *parser.CompareExpr:
		if x.Op != "=" {
			break
		}
		if col, ok := x.L.(*parser.ColumnRef); ok && isValueExpr(x.R) {
			i, _ := r.resolve(col, clause)
			c.kind, c.col, c.vals = conjEq, i, []parser.Expr{x.R}
		} else if col, ok := x.R.(*parser.ColumnRef); ok && isValueExpr(x.L) {
			i, _ := r.resolve(col, clause)
			c.kind, c.col, c.vals = conjEq, i, []parser.Expr{x.L}
		}
	case *parser.InExpr:
		if x.Not || x.Subquery != nil || !allValues(x.List) {
			break
		}
		if col, ok := x.X.(*parser.ColumnRef); ok {
			i, _ := r.resolve(col, clause)
			c.kind, c.col, c.vals = conjIn, i, x.List
		} else if tup, ok := x.X.(*parser.TupleExpr); ok {
			var idx []int
			for _, te := range tup.Exprs {
				col, ok := te.(*parser.ColumnRef)
				if !ok {
					return c, nil
				}
				i, _ := r.resolve(col, clause)
				idx = append(idx, i)
			}
			var rows [][]parser.Expr
			for _, item := range x.List {
				t, ok := item.(*parser.TupleExpr)
				if !ok || len(t.Exprs) != len(idx) {
					return c, errf(clause, "tuple IN needs rows of %s: %s", plural.Count(len(idx), "value"), exprText(e))
				}
				rows = append(rows, t.Exprs)
			}
			c.kind, c.tupleCols, c.tupleRows = conjTupleIn, idx, rows
		}
	case *parser.OrExpr:
		cols, rows, ok := orOfEqualities(x, r, clause)
		switch {
		case !ok:
		case len(cols) == 1:
			c.kind, c.col = conjIn, cols[0]
			for _, row := range rows {
				c.vals = append(c.vals, row[0])
			}
		default:
			c.kind, c.tupleCols, c.tupleRows = conjTupleIn, cols, rows
		}
	}
	return c, nil
}

// orOfEqualities reads "a = 1 OR a = 2", or "(a = 1 AND b = 'x') OR
// (a = 2 AND b = 'y')", as the IN list or tuple IN it means: every
// disjunct equates the same columns, each once, with constants or
// parameters. It returns the columns in the first disjunct's order and
// one row of values per disjunct; ok is false for any other OR.
func orOfEqualities(e *parser.OrExpr, r *rowType, clause string) (cols []int, rows [][]parser.Expr, ok bool) {
	for _, d := range splitOr(e, nil) {
		row := make([]parser.Expr, len(cols))
		seen := 0
		for _, term := range splitAnd(d, nil) {
			cmp, isCmp := term.(*parser.CompareExpr)
			if !isCmp || cmp.Op != "=" {
				return nil, nil, false
			}
			col, val := cmp.L, cmp.R
			if _, isCol := col.(*parser.ColumnRef); !isCol {
				col, val = val, col
			}
			ref, isCol := col.(*parser.ColumnRef)
			if !isCol || !isValueExpr(val) {
				return nil, nil, false
			}
			i, err := r.resolve(ref, clause)
			if err != nil {
				return nil, nil, false
			}
			j := slices.Index(cols, i)
			if rows == nil && j < 0 {
				cols, row, j = append(cols, i), append(row, nil), len(cols)
			}
			if j < 0 || row[j] != nil {
				return nil, nil, false
			}
			row[j] = val
			seen++
		}
		if seen != len(cols) {
			return nil, nil, false
		}
		rows = append(rows, row)
	}
	return cols, rows, true
}

// constTruth evaluates a condition on constants alone: TRUE, FALSE, NULL
// or a comparison of two numbers or two strings (1 = 0, 'a' <> 'b').
// NULL, and a comparison with NULL, are not TRUE. ok is false for any
// other condition.
func constTruth(e parser.Expr) (truth, ok bool) {
	switch x := e.(type) {
	case *parser.Literal:
		switch x.Kind {
		case parser.LitBool:
			return x.Bool, true
		case parser.LitNull:
			return false, true
		}
	case *parser.CompareExpr:
		l, lok := signedLiteral(x.L)
		r, rok := signedLiteral(x.R)
		if !lok || !rok {
			return false, false
		}
		if l.Kind == parser.LitNull || r.Kind == parser.LitNull {
			return false, true
		}
		cmp, ok := compareLiterals(l, r)
		if !ok {
			return false, false
		}
		return CompareHolds(x.Op, cmp)
	}
	return false, false
}

// CompareHolds reports whether comparison operator op ("=", "<>" or
// "!=", "<", "<=", ">", ">=") holds between two values that order as cmp
// (negative, zero or positive, as from strings.Compare); ok is false for
// any other operator. The planner folds constant comparisons with it and
// the executor evaluates predicates with it.
func CompareHolds(op string, cmp int) (holds, ok bool) {
	switch op {
	case "=":
		return cmp == 0, true
	case "<>", "!=":
		return cmp != 0, true
	case "<":
		return cmp < 0, true
	case "<=":
		return cmp <= 0, true
	case ">":
		return cmp > 0, true
	case ">=":
		return cmp >= 0, true
	}
	return false, false
}

// compareLiterals orders two numeric or two string literals.
func compareLiterals(l, r *parser.Literal) (int, bool) {
	switch {
	case isNumberLit(l.Kind) && isNumberLit(r.Kind):
		a, aok := new(big.Rat).SetString(l.Text)
		b, bok := new(big.Rat).SetString(r.Text)
		if !aok || !bok {
			return 0, false
		}
		return a.Cmp(b), true
	case l.Kind == parser.LitString && r.Kind == parser.LitString:
		return strings.Compare(l.Text, r.Text), true
	}
	return 0, false
}

func splitOr(e parser.Expr, out []parser.Expr) []parser.Expr {
	if o, ok := e.(*parser.OrExpr); ok {
		return splitOr(o.R, splitOr(o.L, out))
	}
	return append(out, e)
}

func allValues(list []parser.Expr) bool {
	for _, e := range list {
		if t, ok := e.(*parser.TupleExpr); ok {
			if !allValues(t.Exprs) {
				return false
			}
			continue
		}
		if !isValueExpr(e) {
			return false
		}
	}
	return true
}

// columnRefs returns the columns referenced in e, rejecting subqueries.
func columnRefs(e parser.Expr, r *rowType, clause string) ([]int, *Error) {
	var out []int
	var walk func(parser.Expr) *Error
	walkAll := func(es ...parser.Expr) *Error {
		for _, e := range es {
			if err := walk(e); err != nil {
				return err
			}
		}
		return nil
	}
	walk = func(e parser.Expr) *Error {
		switch x := e.(type) {
		case nil:
		case *parser.ColumnRef:
			i, err := r.resolve(x, clause)
			if err != nil {
				return err
			}
			out = append(out, i)
		case *parser.SubqueryExpr, *parser.ExistsExpr:
			return engineError("a subquery")
		case *parser.InExpr:
			if x.Subquery != nil {
				return engineError("a subquery")
			}
			return walkAll(append([]parser.Expr{x.X}, x.List...)...)
		case *parser.AndExpr:
			return walkAll(x.L, x.R)
		case *parser.OrExpr:
			return walkAll(x.L, x.R)
		case *parser.NotExpr:
			return walk(x.X)
		case *parser.CompareExpr:
			return walkAll(x.L, x.R)
		case *parser.BetweenExpr:
			return walkAll(x.X, x.From, x.To)
		case *parser.IsNullExpr:
			return walk(x.X)
		case *parser.IsBoolExpr:
			return walk(x.X)
		case *parser.LikeExpr:
			return walkAll(x.X, x.Pattern)
		case *parser.BinaryExpr:
			return walkAll(x.L, x.R)
		case *parser.UnaryExpr:
			return walk(x.X)
		case *parser.TupleExpr:
			return walkAll(x.Exprs...)
		case *parser.FuncCall:
			if err := engineFunc(x, clause); err != nil {
				return err
			}
			return walkAll(x.Args...)
		case *parser.CastExpr:
			return walk(x.X)
		}
		return nil
	}
	if err := walk(e); err != nil {
		return nil, err
	}
	return out, nil
}

// keyValues extracts the key tuples for keyCols from the conjuncts (one
// = or IN per key column, or a tuple IN covering them). used marks the
// conjuncts consumed. ok is false when some key column has no equality.
func (p *planCtx) keyValues(cs []conj, keyCols []int, r *rowType, clause string) (keys [][]Value, used []bool, missing []string, err error) {
	used = make([]bool, len(cs))
	perCol := make([][]Value, len(keyCols))
	have := make([]bool, len(keyCols))
	pos := map[int]int{}
	for i, k := range keyCols {
		pos[k] = i
	}
	var tuples [][]Value
	var tupleCols []int
	for ci, c := range cs {
		switch c.kind {
		case conjEq, conjIn:
			ki, ok := pos[c.col]
			if !ok || have[ki] {
				continue
			}
			for _, v := range c.vals {
				val, verr := p.value(v, r.names[c.col], r.types[c.col])
				if verr != nil {
					return nil, nil, nil, errf(clause, "column %q: %v", r.names[c.col], verr)
				}
				if val.IsNull() {
					return nil, nil, nil, errf(clause, "%s compares key column %q with NULL, which matches no row", exprText(c.expr), r.names[c.col])
				}
				perCol[ki] = append(perCol[ki], val)
			}
			have[ki] = true
			used[ci] = true
		case conjTupleIn:
			if tuples != nil {
				continue
			}
			all := true
			for _, tc := range c.tupleCols {
				if ki, ok := pos[tc]; !ok || have[ki] {
					all = false
				}
			}
			if !all {
				continue
			}
			for _, row := range c.tupleRows {
				var tv []Value
				for j, v := range row {
					col := c.tupleCols[j]
					val, verr := p.value(v, r.names[col], r.types[col])
					if verr != nil {
						return nil, nil, nil, errf(clause, "column %q: %v", r.names[col], verr)
					}
					tv = append(tv, val)
				}
				tuples = append(tuples, tv)
			}
			tupleCols = c.tupleCols
			for _, tc := range c.tupleCols {
				have[pos[tc]] = true
			}
			used[ci] = true
		}
	}
	for i, h := range have {
		if !h {
			missing = append(missing, r.names[keyCols[i]])
		}
	}
	if len(missing) > 0 {
		return nil, used, missing, nil
	}
	// Cartesian product of the per-column lists and the tuple list.
	keys = [][]Value{make([]Value, len(keyCols))}
	for ki := range keyCols {
		if perCol[ki] == nil {
			continue
		}
		var next [][]Value
		for _, k := range keys {
			for _, v := range perCol[ki] {
				nk := append([]Value(nil), k...)
				nk[ki] = v
				next = append(next, nk)
			}
		}
		keys = next
		if len(keys) > maxKeys {
			return nil, nil, nil, errf(clause, "the WHERE clause expands to more than %s; split the statement", plural.Count(maxKeys, "key"))
		}
	}
	if tuples != nil {
		var next [][]Value
		for _, k := range keys {
			for _, t := range tuples {
				nk := append([]Value(nil), k...)
				for j, tc := range tupleCols {
					nk[pos[tc]] = t[j]
				}
				next = append(next, nk)
			}
		}
		keys = next
		if len(keys) > maxKeys {
			return nil, nil, nil, errf(clause, "the WHERE clause expands to more than %s; split the statement", plural.Count(maxKeys, "key"))
		}
	}
	return keys, used, nil, nil
}

const maxKeys = 10000

// predicate converts a WHERE term into an executor predicate.
func (p *planCtx) predicate(e parser.Expr, r *rowType, clause string) (Predicate, error) {
	colOf := func(x parser.Expr) (int, bool) {
		c, ok := x.(*parser.ColumnRef)
		if !ok {
			return -1, false
		}
		i, err := r.resolve(c, clause)
		return i, err == nil
	}
	val := func(i int, x parser.Expr) (Value, error) {
		v, err := p.value(x, r.names[i], r.types[i].WithNullable(true))
		if err != nil {
			if _, nc := err.(errNotConst); nc {
				return Value{}, errf(clause, "%s is not supported: predicates compare a column with constants or parameters", exprText(e))
			}
			return Value{}, errf(clause, "column %q: %v", r.names[i], err)
		}
		return v, nil
	}
	switch x := e.(type) {
	case *parser.AndExpr, *parser.OrExpr:
		op := "AND"
		var l, rr parser.Expr
		if a, ok := x.(*parser.AndExpr); ok {
			l, rr = a.L, a.R
		} else {
			o := x.(*parser.OrExpr)
			op, l, rr = "OR", o.L, o.R
		}
		pl, err := p.predicate(l, r, clause)
		if err != nil {
			return Predicate{}, err
		}
		pr, err := p.predicate(rr, r, clause)
		if err != nil {
			return Predicate{}, err
		}
		return Predicate{Op: op, Args: []Predicate{pl, pr}}, nil
	case *parser.NotExpr:
		inner, err := p.predicate(x.X, r, clause)
		if err != nil {
			return Predicate{}, err
		}
		return Predicate{Op: "NOT", Args: []Predicate{inner}}, nil
	case *parser.CompareExpr:
		op := x.Op
		if op == "<=>" {
			break
		}
		lhs, rhs := x.L, x.R
		i, ok := colOf(lhs)
		if !ok {
			if i, ok = colOf(rhs); ok {
				lhs, rhs = rhs, lhs
				op = map[string]string{"<": ">", ">": "<", "<=": ">=", ">=": "<="}[op] + map[bool]string{true: op}[op == "=" || op == "<>"]
			}
		}
		if !ok {
			break
		}
		v, err := val(i, rhs)
		if err != nil {
			return Predicate{}, err
		}
		return Predicate{Op: op, Column: r.names[i], Values: []Value{v}}, nil
	case *parser.InExpr:
		i, ok := colOf(x.X)
		if !ok || x.Subquery != nil {
			break
		}
		pr := Predicate{Op: "IN", Column: r.names[i]}
		if x.Not {
			pr.Op = "NOT IN"
		}
		for _, it := range x.List {
			v, err := val(i, it)
			if err != nil {
				return Predicate{}, err
			}
			pr.Values = append(pr.Values, v)
		}
		return pr, nil
	case *parser.BetweenExpr:
		i, ok := colOf(x.X)
		if !ok {
			break
		}
		from, err := val(i, x.From)
		if err != nil {
			return Predicate{}, err
		}
		to, err := val(i, x.To)
		if err != nil {
			return Predicate{}, err
		}
		op := "BETWEEN"
		if x.Not {
			op = "NOT BETWEEN"
		}
		return Predicate{Op: op, Column: r.names[i], Values: []Value{from, to}}, nil
	case *parser.IsNullExpr:
		i, ok := colOf(x.X)
		if !ok {
			break
		}
		op := "IS NULL"
		if x.Not {
			op = "IS NOT NULL"
		}
		return Predicate{Op: op, Column: r.names[i]}, nil
	case *parser.LikeExpr:
		i, ok := colOf(x.X)
		if !ok || x.Regexp || x.Escape != nil {
			break
		}
		v, err := p.value(x.Pattern, r.names[i], schema.String())
		if err != nil {
			return Predicate{}, errf(clause, "LIKE needs a string pattern: %s", exprText(e))
		}
		op := "LIKE"
		if x.Not {
			op = "NOT LIKE"
		}
		return Predicate{Op: op, Column: r.names[i], Values: []Value{v}}, nil
	}
	return Predicate{}, errf(clause, "%s is not supported: predicates compare a column with constants or parameters (=, <>, <, <=, >, >=, IN, BETWEEN, IS NULL, LIKE, AND, OR, NOT)", exprText(e))
}

func fmtCols(r *rowType, idx []int) string {
	var s []string
	for _, i := range idx {
		s = append(s, r.names[i])
	}
	return strings.Join(s, ", ")
}
