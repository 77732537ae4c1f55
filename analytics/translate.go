package analytics

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gofluss/fluss/parser"
)

// translate renders a query, written in Flink SQL, in DuckDB's dialect
// with Flink's meaning: identifiers in double quotes, parameters as $n
// (the engine binds argument n-1 to $n), ORDER BY with Flink's NULL order
// spelled out, and Flink's functions as the DuckDB expressions that
// compute the same (translate_func.go). What DuckDB cannot compute as
// Flink does is an error that names it, never a query that answers
// differently. Time-zone dependent functions (DATE_FORMAT of a
// TIMESTAMP_LTZ, FROM_UNIXTIME, ...) are evaluated in the engine's time
// zone, which a query sets to the session's.
func translate(stmt parser.SelectStatement) (string, error) {
	w := &writer{}
	w.query(stmt)
	if w.err != nil {
		return "", w.err
	}
	return w.b.String(), nil
}

// writer accumulates the DuckDB text of one query; the first error stops
// the translation (what is written after it is thrown away).
type writer struct {
	b   strings.Builder
	err error
}

func (w *writer) str(parts ...string) {
	for _, s := range parts {
		w.b.WriteString(s)
	}
}

// fail records the first error.
func (w *writer) fail(format string, args ...any) {
	if w.err == nil {
		w.err = fmt.Errorf("fluss: query engine: "+format, args...)
	}
}

// quote makes name a DuckDB identifier.
func quote(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

func (w *writer) query(q parser.SelectStatement) {
	switch s := q.(type) {
	case *parser.Select:
		if s != nil {
			w.selectStmt(s)
			return
		}
	case *parser.Union:
		if s != nil {
			w.union(s)
			return
		}
	}
	w.fail("a query is missing")
}

// with writes WITH name [(columns)] AS (query), ... .
func (w *writer) with(ctes []parser.CTE) {
	if len(ctes) == 0 {
		return
	}
	w.str("WITH ")
	for i, c := range ctes {
		if i > 0 {
			w.str(", ")
		}
		w.str(quote(c.Name))
		if len(c.Columns) > 0 {
			w.str(" ")
			w.names(c.Columns)
		}
		w.str(" AS (")
		w.query(c.Select)
		w.str(")")
	}
	w.str(" ")
}

// names writes ("a", "b", ...).
func (w *writer) names(list []string) {
	w.str("(")
	for i, n := range list {
		if i > 0 {
			w.str(", ")
		}
		w.str(quote(n))
	}
	w.str(")")
}

func (w *writer) selectStmt(s *parser.Select) {
	if s.Lock != "" {
		w.fail("%s is not supported: Fluss has no row locks", s.Lock)
	}
	w.with(s.With)
	w.str("SELECT ")
	if s.Distinct {
		w.str("DISTINCT ")
	}
	for i, e := range s.Exprs {
		if i > 0 {
			w.str(", ")
		}
		w.selectExpr(e)
	}
	if len(s.From) > 0 {
		w.str(" FROM ")
		for i, t := range s.From {
			if i > 0 {
				w.str(", ")
			}
			w.table(t)
		}
	}
	if s.Where != nil {
		w.str(" WHERE ")
		w.expr(s.Where)
	}
	if len(s.GroupBy) > 0 {
		w.str(" GROUP BY ")
		w.exprList(s.GroupBy)
	}
	if s.Having != nil {
		w.str(" HAVING ")
		w.expr(s.Having)
	}
	w.orderBy(s.OrderBy)
	w.limit(s.Limit)
}

// selectExpr writes one select-list item. An expression without an
// alias is named by its Flink text (as the query wrote it), not by the
// DuckDB text it becomes.
func (w *writer) selectExpr(e parser.SelectExpr) {
	switch x := e.(type) {
	case *parser.StarExpr:
		if x.Qualifier != "" {
			w.str(quote(x.Qualifier), ".")
		}
		w.str("*")
	case *parser.AliasedExpr:
		w.expr(x.Expr)
		switch {
		case x.Alias != "":
			w.str(" AS ", quote(x.Alias))
		case namedByText(x.Expr):
			w.str(" AS ", quote(parser.FormatExpr(x.Expr)))
		}
	default:
		w.fail("select-list item %T is not supported", e)
	}
}

// namedByText reports whether a select-list expression without an alias
// is named by its text: everything but a column, which keeps its name,
// and an expression holding a subquery, whose text is not kept.
func namedByText(e parser.Expr) bool {
	if _, ok := e.(*parser.ColumnRef); ok {
		return false
	}
	named := true
	parser.Walk(e, func(n any) bool {
		if _, ok := n.(parser.SelectStatement); ok {
			named = false
		}
		return named
	})
	return named
}

// union writes left UNION [ALL] right; sides that are unions or carry
// WITH, ORDER BY or LIMIT are parenthesized.
func (w *writer) union(u *parser.Union) {
	w.with(u.With)
	side := func(q parser.SelectStatement) {
		s, plain := q.(*parser.Select)
		plain = plain && s != nil && len(s.With) == 0 && len(s.OrderBy) == 0 && s.Limit == nil
		if plain {
			w.query(q)
			return
		}
		w.str("(")
		w.query(q)
		w.str(")")
	}
	side(u.Left)
	switch strings.ToUpper(u.Type) {
	case "UNION ALL":
		w.str(" UNION ALL ")
	case "UNION", "UNION DISTINCT":
		w.str(" UNION ")
	default:
		w.fail("%s is not supported", u.Type)
	}
	side(u.Right)
	w.orderBy(u.OrderBy)
	w.limit(u.Limit)
}

func (w *writer) table(t parser.TableExpr) {
	switch x := t.(type) {
	case *parser.TableRef:
		if x.ForSystemTime != nil {
			w.fail("FOR SYSTEM_TIME AS OF %s is not supported in an engine query", x.ForSystemTime.Expr)
		}
		if x.Name.Virtual != parser.NotVirtual {
			w.fail("the virtual table %s cannot be read here", x.Name)
		}
		if x.Name.Database != "" {
			w.str(quote(x.Name.Database), ".")
		}
		w.str(quote(x.Name.Name))
		if x.Alias != "" {
			w.str(" AS ", quote(x.Alias))
		}
	case *parser.JoinExpr:
		w.table(x.Left)
		w.str(" ", joinKind(x.Kind), " ")
		w.table(x.Right)
		if x.On != nil {
			w.str(" ON ")
			w.expr(x.On)
		}
		if len(x.Using) > 0 {
			w.str(" USING ")
			w.names(x.Using)
		}
	case *parser.SubqueryTable:
		w.str("(")
		w.query(x.Select)
		w.str(")")
		if x.Alias != "" {
			w.str(" AS ", quote(x.Alias))
		}
	case *parser.ParenTable:
		w.str("(")
		for i, e := range x.Exprs {
			if i > 0 {
				w.str(" CROSS JOIN ")
			}
			w.table(e)
		}
		w.str(")")
	default:
		w.fail("FROM item %T is not supported", t)
	}
}

// joinKind maps the MySQL spellings the parser keeps to DuckDB's.
func joinKind(kind string) string {
	switch k := strings.ToUpper(kind); k {
	case "STRAIGHT_JOIN":
		return "JOIN"
	default:
		return k
	}
}

// orderBy writes ORDER BY with each item's NULL order spelled out:
// Flink sorts NULL first ascending and last descending, DuckDB last
// either way.
func (w *writer) orderBy(items []parser.OrderItem) {
	if len(items) == 0 {
		return
	}
	w.str(" ORDER BY ")
	w.orderItems(items)
}

func (w *writer) orderItems(items []parser.OrderItem) {
	for i, o := range items {
		if i > 0 {
			w.str(", ")
		}
		w.expr(o.Expr)
		nulls := o.Nulls
		if nulls == parser.NullsDefault {
			nulls = parser.NullsFirst
			if o.Desc {
				nulls = parser.NullsLast
			}
		}
		if o.Desc {
			w.str(" DESC")
		} else {
			w.str(" ASC")
		}
		w.str(" ", nulls.String())
	}
}

func (w *writer) limit(l *parser.Limit) {
	if l == nil {
		return
	}
	if l.Count != nil {
		w.str(" LIMIT ")
		w.expr(l.Count)
	}
	if l.Offset != nil {
		w.str(" OFFSET ")
		w.expr(l.Offset)
	}
}

// param writes placeholder p as $n: the engine passes the statement's
// arguments by index.
func (w *writer) param(p *parser.Param) {
	if p.Index < 1 {
		w.fail("parameter :%s has no position", p.Name)
		return
	}
	w.str("$", strconv.Itoa(p.Index))
}
