package parser

import (
	"strconv"
	"strings"

	"github.com/xwb1989/sqlparser"
)

// The Flink query forms the MySQL parser cannot read, and how the
// pre-pass hands them on:
//
//	WITH a AS (q1), ... q             the queries are parsed here, each on
//	                                  its own; the text names the result as
//	                                  select markQuery(k) from dual
//	f(x) OVER (PARTITION BY p          markOver(f(x), (select markWindow(k)
//	  ORDER BY o ROWS ...)               from dual group by p order by o));
//	                                  the frame is parsed here
//	ORDER BY x DESC NULLS FIRST       ORDER BY markNullsFirst(x) DESC
//	FLOOR(x TO HOUR), CEIL(...)        markFloor(x, 'HOUR'), markCeil(...)
//	EXTRACT(YEAR FROM x)              markExtract('YEAR', x)
//	POSITION(a IN b)                  markPosition(a, b)
//	SUBSTRING(s FROM a FOR b)         `SUBSTRING`(s, a, b) (quoted, so that
//	                                  any first argument parses)
//	INTERVAL '1' DAY TO SECOND,       markInterval('1', 'DAY TO SECOND'),
//	INTERVAL '10 second'              markInterval('10 second', '')
//
// The converter turns the markers back into nodes.
const (
	markQuery      = "__fluss_query"
	markOver       = "__fluss_over"
	markWindow     = "__fluss_window"
	markNullsFirst = "__fluss_nulls_first"
	markNullsLast  = "__fluss_nulls_last"
	markFloor      = "__fluss_floor"
	markCeil       = "__fluss_ceil"
	markExtract    = "__fluss_extract"
	markPosition   = "__fluss_position"
	markInterval   = "__fluss_interval"
)

// floorUnits are the units of FLOOR(x TO unit) and CEIL(x TO unit).
var floorUnits = map[string]bool{"MILLISECOND": true, "SECOND": true, "MINUTE": true, "HOUR": true, "DAY": true, "WEEK": true, "MONTH": true, "QUARTER": true, "YEAR": true}

// intervalUnits are the units an INTERVAL literal may name.
var intervalUnits = map[string]bool{"YEAR": true, "QUARTER": true, "MONTH": true, "WEEK": true, "DAY": true, "HOUR": true, "MINUTE": true, "SECOND": true, "MILLISECOND": true, "MICROSECOND": true}

// orderStop are the words that end an ORDER BY list.
var orderStop = map[string]bool{"LIMIT": true, "OFFSET": true, "FETCH": true, "ROWS": true, "RANGE": true, "UNION": true, "INTERSECT": true, "EXCEPT": true, "FOR": true, "LOCK": true}

// tokAt returns toks[k], or the final EOF token past the end.
func tokAt(toks []Token, k int) Token {
	if k < len(toks) {
		return toks[k]
	}
	return toks[len(toks)-1]
}

// intervalUnit reads the unit of an INTERVAL literal at toks[k]: unit
// [(p)] [TO unit [(p)]]. It returns "" and k when no unit is there.
func intervalUnit(toks []Token, k int) (string, int) {
	one := func(k int) (string, int) {
		t := tokAt(toks, k)
		u := strings.ToUpper(t.Text)
		if t.Kind != TokWord || !intervalUnits[u] {
			return "", k
		}
		k++
		if tokAt(toks, k).is("(") && tokAt(toks, k+1).Kind == TokNumber && tokAt(toks, k+2).is(")") {
			k += 3 // a precision: SECOND(3), DAY(2)
		}
		return u, k
	}
	u, next := one(k)
	if u == "" {
		return "", k
	}
	if tokAt(toks, next).is("TO") {
		// Only a range of units: in FLOOR(t + INTERVAL '1' DAY TO MONTH)
		// the TO is FLOOR's.
		if u2, after := one(next + 1); intervalRanges[u+" TO "+u2] {
			return u + " TO " + u2, after
		}
	}
	return u, next
}

// intervalRanges are the unit ranges of Flink's INTERVAL literals.
var intervalRanges = map[string]bool{"YEAR TO MONTH": true, "DAY TO HOUR": true, "DAY TO MINUTE": true, "DAY TO SECOND": true,
	"HOUR TO MINUTE": true, "HOUR TO SECOND": true, "MINUTE TO SECOND": true}

// matchParens pairs the parentheses of toks.
func matchParens(toks []Token) []int {
	match := make([]int, len(toks))
	var open []int
	for i, t := range toks {
		match[i] = -1
		if t.Kind != TokOp {
			continue
		}
		switch t.Text {
		case "(":
			open = append(open, i)
		case ")":
			if len(open) > 0 {
				o := open[len(open)-1]
				open = open[:len(open)-1]
				match[o], match[i] = i, o
			}
		}
	}
	return match
}

// isOpen reports whether token k is a ( with a matching ).
func (rw *rwScan) isOpen(k int) bool {
	return k < rw.n && rw.toks[k].Kind == TokOp && rw.toks[k].Text == "(" && rw.match[k] > k
}

// wordIn returns the index of the first word w directly inside the
// parentheses opened at token open (not nested deeper), or -1.
func (rw *rwScan) wordIn(open int, w string) int {
	for k := open + 1; k < rw.match[open]; k++ {
		t := rw.toks[k]
		switch {
		case rw.isOpen(k):
			k = rw.match[k]
		case t.Kind == TokWord && t.is(w):
			return k
		}
	}
	return -1
}

// flinkForm rewrites the Flink forms starting with word i (see the table
// above); done is false when the word is left to the other rules, which
// is also the case for a window function's name and ORDER BY, whose
// later tokens are planned here.
func (rw *rwScan) flinkForm(i int, w string) (_ int, done bool) {
	p, toks, t := rw.p, rw.toks, rw.toks[i]
	if rw.isOpen(i+1) && tokAt(toks, rw.match[i+1]+1).Kind == TokWord && tokAt(toks, rw.match[i+1]+1).is("OVER") {
		rw.emit(t, markOver+"(")
		rw.over(rw.match[i+1] + 1)
	}
	if t.Kind != TokWord {
		return i, false
	}
	next := tokAt(toks, i+1)
	switch {
	case w == "WITH" && (i == 0 || toks[i-1].is("(") && rw.match[i-1] > i):
		return rw.with(i), true
	case w == "ORDER" && next.is("BY"):
		rw.nullsOrder(i + 2)
	case (w == "FLOOR" || w == "CEIL" || w == "CEILING") && rw.isOpen(i+1):
		to := rw.wordIn(i+1, "TO")
		if to < 0 {
			return i, false // the numeric function
		}
		unit := toks[to+1]
		u := strings.ToUpper(unit.Text)
		if unit.Kind != TokWord || !floorUnits[u] || to+2 != rw.match[i+1] {
			p.failAt(unit, "a time unit (MILLISECOND, SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER or YEAR) and ')'", "")
		}
		rw.replace[to], rw.replace[to+1] = ",", quoteForSQLParser(u)
		m := markFloor
		if w != "FLOOR" {
			m = markCeil
		}
		rw.emit(t, m)
		return i, true
	case w == "EXTRACT" && rw.isOpen(i+1) && tokAt(toks, i+2).Kind == TokWord && tokAt(toks, i+3).is("FROM"):
		rw.replace[i+2], rw.replace[i+3] = quoteForSQLParser(strings.ToUpper(toks[i+2].Text)), ","
		rw.emit(t, markExtract)
		return i, true
	case w == "POSITION" && rw.isOpen(i+1):
		in := rw.wordIn(i+1, "IN")
		if in < 0 {
			return i, false
		}
		rw.replace[in] = ","
		rw.emit(t, markPosition)
		return i, true
	case w == "REGEXP" && rw.isOpen(i+1) && (i == 0 || !endsOperand(toks[i-1])):
		// Flink's REGEXP(s, pattern) function, not MySQL's operator.
		rw.emit(t, quoteBacktick(t.Text))
		return i, true
	case (w == "SUBSTRING" || w == "SUBSTR") && rw.isOpen(i+1):
		if from := rw.wordIn(i+1, "FROM"); from >= 0 {
			rw.replace[from] = ","
			if f := rw.wordIn(i+1, "FOR"); f > from {
				rw.replace[f] = ","
			}
		}
		rw.emit(t, quoteBacktick(t.Text))
		return i, true
	case w == "INTERVAL" && (next.Kind == TokString || next.Kind == TokDQString || next.Kind == TokNumber):
		v := next.Text
		if next.Kind != TokNumber {
			v = quoteForSQLParser(next.Value)
		}
		unit, end := intervalUnit(toks, i+2)
		rw.emit(t, markInterval+"("+v+", "+quoteForSQLParser(unit)+")")
		return end - 1, true
	}
	return i, false
}

// operandStart are the keywords after which an operand starts.
var operandStart = map[string]bool{"SELECT": true, "WHERE": true, "AND": true, "OR": true, "NOT": true, "ON": true, "WHEN": true,
	"THEN": true, "ELSE": true, "HAVING": true, "BY": true, "DISTINCT": true, "CASE": true, "ALL": true, "XOR": true}

// endsOperand reports whether an expression may end with token t, so
// that a word after it is an operator (x REGEXP 'a') rather than the
// start of an operand (REGEXP(x, 'a')).
func endsOperand(t Token) bool {
	switch t.Kind {
	case TokOp:
		return t.Text == ")" || t.Text == "]"
	case TokWord:
		return !operandStart[strings.ToUpper(t.Text)]
	}
	return true
}

// over plans the window of the OVER at token o: it becomes a subquery
// whose GROUP BY is the PARTITION BY and whose ORDER BY is the window's;
// the frame is parsed here.
func (rw *rwScan) over(o int) {
	toks := rw.toks
	open := o + 1
	if !rw.isOpen(open) {
		rw.p.failAt(tokAt(toks, open), "'(' and a window specification", "named windows are not supported: write the window in OVER (...)")
	}
	closing := rw.match[open]
	k := len(rw.frames)
	rw.frames = append(rw.frames, nil)
	rw.replace[o] = ","
	rw.before[open+1] += "select " + markWindow + "(" + strconv.Itoa(k) + ") from dual"
	rw.before[closing+1] += ")"
	if toks[open+1].is("PARTITION") && toks[open+2].is("BY") {
		rw.replace[open+1] = "group"
	}
	for j := open + 1; j < closing; j++ {
		switch t := toks[j]; {
		case rw.isOpen(j):
			j = rw.match[j]
		case t.Kind == TokWord && (t.is("ROWS") || t.is("RANGE")):
			rw.frames[k] = rw.frame(j, closing)
			for ; j < closing; j++ {
				rw.replace[j] = ""
			}
		}
	}
}

// frame parses ROWS|RANGE [BETWEEN] ... from token k to the window's
// closing parenthesis.
func (rw *rwScan) frame(k, closing int) *WindowFrame {
	q := &parser{src: rw.p.src, toks: rw.toks, i: k, params: rw.p.paramMap()}
	f := &WindowFrame{Range: q.next().is("RANGE")}
	if q.acceptWords("BETWEEN") {
		f.Start = q.frameBound()
		q.expectWord("AND")
		f.End = q.frameBound()
	} else {
		f.Start = q.frameBound()
	}
	if q.i != closing {
		q.fail("')'", "")
	}
	return f
}

func (p *parser) frameBound() FrameBound {
	switch {
	case p.acceptWords("UNBOUNDED", "PRECEDING"):
		return FrameBound{Kind: BoundUnboundedPreceding}
	case p.acceptWords("UNBOUNDED", "FOLLOWING"):
		return FrameBound{Kind: BoundUnboundedFollowing}
	case p.acceptWords("CURRENT", "ROW"):
		return FrameBound{Kind: BoundCurrentRow}
	}
	off := p.primary()
	switch {
	case p.acceptWords("PRECEDING"):
		return FrameBound{Kind: BoundPreceding, Offset: off}
	case p.acceptWords("FOLLOWING"):
		return FrameBound{Kind: BoundFollowing, Offset: off}
	}
	p.fail("PRECEDING or FOLLOWING", "")
	return FrameBound{}
}

// nullsOrder plans the NULLS FIRST and NULLS LAST of the ORDER BY items
// starting at token k: the item is wrapped in a marker and the words
// dropped.
func (rw *rwScan) nullsOrder(k int) {
	toks := rw.toks
	start := k
	for j := k; ; j++ {
		t := tokAt(toks, j)
		if rw.isOpen(j) {
			j = rw.match[j]
			continue
		}
		last := t.Kind == TokEOF || t.is(")") && t.Kind == TokOp || t.Kind == TokWord && orderStop[strings.ToUpper(t.Text)]
		if !last && !(t.is(",") && t.Kind == TokOp) {
			continue
		}
		if n := j - 2; n > start && toks[n].is("NULLS") && (toks[j-1].is("FIRST") || toks[j-1].is("LAST")) {
			m := markNullsFirst
			if toks[j-1].is("LAST") {
				m = markNullsLast
			}
			end := n
			if d := toks[n-1]; n-1 > start && (d.is("ASC") || d.is("DESC")) {
				end = n - 1
			}
			rw.before[start] += m + "("
			rw.before[end] += ")"
			rw.replace[n], rw.replace[j-1] = "", ""
		}
		if last {
			return
		}
		start = j + 1
	}
}

// with parses WITH name [(columns)] AS (query), ... query starting at
// token i, up to the end of the statement or of the parentheses around
// it, and returns the index of its last token.
func (rw *rwScan) with(i int) int {
	p, toks := rw.p, rw.toks
	end := rw.n
	if i > 0 {
		end = rw.match[i-1]
	}
	k := i + 1
	if toks[k].is("RECURSIVE") {
		p.failAt(toks[k], "", "WITH RECURSIVE is not supported (Flink SQL has no recursive queries)")
	}
	var ctes []CTE
	for {
		name := toks[k]
		if name.Kind != TokWord && name.Kind != TokQuotedIdent {
			p.failAt(name, "the name of a WITH query", "")
		}
		cte := CTE{Name: identValue(name)}
		k++
		if rw.isOpen(k) {
			q := &parser{src: p.src, toks: toks[:rw.match[k]+1], i: k + 1}
			for {
				cte.Columns = append(cte.Columns, q.ident("a column name"))
				if !q.acceptOp(",") {
					break
				}
			}
			if q.i != rw.match[k] {
				q.fail("')'", "")
			}
			k = rw.match[k] + 1
		}
		if !toks[k].is("AS") {
			p.failAt(toks[k], "AS", "")
		}
		k++
		if !rw.isOpen(k) {
			p.failAt(toks[k], "'(' and the query of "+cte.Name, "")
		}
		cte.Select = rw.subquery(k+1, rw.match[k])
		ctes = append(ctes, cte)
		k = rw.match[k] + 1
		if !toks[k].is(",") {
			break
		}
		k++
	}
	if k >= end {
		p.failAt(toks[k], "the query that uses the WITH queries", "")
	}
	q := rw.subquery(k, end)
	var with *[]CTE
	switch s := q.(type) {
	case *Select:
		with = &s.With
	case *Union:
		with = &s.With
	}
	if *with != nil {
		p.failAt(toks[k], "", "a query has one WITH; list all its queries there, separated by commas")
	}
	*with = ctes
	rw.emit(toks[i], "select "+markQuery+"("+strconv.Itoa(len(rw.queries))+") from dual")
	rw.queries = append(rw.queries, q)
	return end - 1
}

// subquery parses tokens [from, to) as a query of their own.
func (rw *rwScan) subquery(from, to int) SelectStatement {
	p := rw.p
	toks := make([]Token, 0, to-from+1)
	toks = append(toks, rw.toks[from:to]...)
	end := rw.toks[to]
	toks = append(toks, Token{Kind: TokEOF, Pos: end.Pos, End: end.Pos.Offset})
	if from == to {
		p.failAt(end, "a query", "")
	}
	q := &parser{src: p.src, toks: toks, params: p.paramMap(), depth: p.depth}
	switch st := q.dml(rw.meta).(type) {
	case SelectStatement:
		return st
	case *Unsupported:
		panic(engineOnlyBail{st.Feature})
	}
	p.failAt(rw.toks[from], "a query (SELECT ...)", "")
	return nil
}

// engineOnlyBail carries the Flink query-engine construct a part of a
// statement holds up to the statement (see engineOnly).
type engineOnlyBail struct{ feature string }

// query returns the query the pre-pass parsed for s = select
// markQuery(k) from dual.
func (c *converter) query(s *sqlparser.Select) (SelectStatement, bool) {
	if len(s.SelectExprs) != 1 {
		return nil, false
	}
	a, ok := s.SelectExprs[0].(*sqlparser.AliasedExpr)
	if !ok {
		return nil, false
	}
	k, ok := markerIndex(a.Expr, markQuery)
	if !ok || k >= len(c.rw.queries) {
		return nil, false
	}
	return c.rw.queries[k], true
}

// markerIndex returns k of marker(k).
func markerIndex(e sqlparser.Expr, marker string) (int, bool) {
	f, ok := e.(*sqlparser.FuncExpr)
	if !ok || !strings.EqualFold(f.Name.String(), marker) || len(f.Exprs) != 1 {
		return 0, false
	}
	a, ok := f.Exprs[0].(*sqlparser.AliasedExpr)
	if !ok {
		return 0, false
	}
	v, ok := a.Expr.(*sqlparser.SQLVal)
	if !ok || v.Type != sqlparser.IntVal {
		return 0, false
	}
	k, err := strconv.Atoi(string(v.Val))
	return k, err == nil
}

// nullsOrder unwraps an ORDER BY item the pre-pass marked with NULLS
// FIRST or NULLS LAST.
func nullsOrder(e sqlparser.Expr) (sqlparser.Expr, NullsOrder) {
	f, ok := e.(*sqlparser.FuncExpr)
	if !ok || !f.Qualifier.IsEmpty() || len(f.Exprs) != 1 {
		return e, NullsDefault
	}
	a, ok := f.Exprs[0].(*sqlparser.AliasedExpr)
	if !ok {
		return e, NullsDefault
	}
	switch strings.ToLower(f.Name.String()) {
	case markNullsFirst:
		return a.Expr, NullsFirst
	case markNullsLast:
		return a.Expr, NullsLast
	}
	return e, NullsDefault
}

// over converts markOver(f(...), (select markWindow(k) from dual group by
// ... order by ...)).
func (c *converter) over(e *sqlparser.FuncExpr) Expr {
	if len(e.Exprs) == 2 {
		fa, ok1 := e.Exprs[0].(*sqlparser.AliasedExpr)
		wa, ok2 := e.Exprs[1].(*sqlparser.AliasedExpr)
		if ok1 && ok2 {
			sub, _ := wa.Expr.(*sqlparser.Subquery)
			var w *sqlparser.Select
			if sub != nil {
				w, _ = sub.Select.(*sqlparser.Select)
			}
			k, isWindow := -1, false
			if w != nil && len(w.SelectExprs) == 1 {
				if a, ok := w.SelectExprs[0].(*sqlparser.AliasedExpr); ok {
					k, isWindow = markerIndex(a.Expr, markWindow)
				}
			}
			f, isCall := c.expr(fa.Expr).(*FuncCall)
			if !isCall {
				c.fail("OVER (...) must follow a function call, such as ROW_NUMBER() or SUM(x)")
			}
			if isWindow && k < len(c.rw.frames) {
				f.Over = &WindowSpec{Frame: c.rw.frames[k]}
				for _, g := range w.GroupBy {
					f.Over.PartitionBy = append(f.Over.PartitionBy, c.expr(g))
				}
				f.Over.OrderBy = c.orderBy(w.OrderBy)
				return f
			}
		}
	}
	c.fail("internal error: malformed OVER")
	return nil
}

// flinkFunc converts the other markers of the pre-pass; ok is false for
// any other function name.
func (c *converter) flinkFunc(name string, args []Expr) (_ Expr, ok bool) {
	text := func(e Expr) string {
		if l, ok := e.(*Literal); ok && l.Kind == LitString {
			return l.Text
		}
		c.fail("internal error: malformed " + name)
		return ""
	}
	switch name {
	case markFloor, markCeil:
		if len(args) != 2 {
			c.fail("FLOOR(x TO unit) and CEIL(x TO unit) take one time value")
		}
		return &FloorCeilExpr{Ceil: name == markCeil, X: args[0], Unit: text(args[1])}, true
	case markExtract:
		if len(args) != 2 {
			c.fail("EXTRACT(unit FROM x) takes one time value")
		}
		return &ExtractExpr{Unit: text(args[0]), X: args[1]}, true
	case markPosition:
		return &FuncCall{Name: "POSITION", Args: args}, true
	case markInterval:
		if len(args) != 2 {
			c.fail("internal error: malformed INTERVAL")
		}
		return &IntervalExpr{Value: args[0], Unit: text(args[1])}, true
	}
	return nil, false
}
