package analytics

import (
	"fmt"
	"strings"

	"github.com/gofluss/fluss/parser"
)

// translate renders a query for DuckDB: the first cut, plain SELECTs with
// joins, whose expressions DuckDB reads as parser.FormatExpr writes them.
func translate(stmt parser.SelectStatement) (string, error) {
	s, ok := stmt.(*parser.Select)
	if !ok {
		return "", fmt.Errorf("stub: %T", stmt)
	}
	var b strings.Builder
	b.WriteString("SELECT ")
	if s.Distinct {
		b.WriteString("DISTINCT ")
	}
	for i, e := range s.Exprs {
		if i > 0 {
			b.WriteString(", ")
		}
		switch x := e.(type) {
		case *parser.StarExpr:
			if x.Qualifier != "" {
				b.WriteString(x.Qualifier + ".")
			}
			b.WriteString("*")
		case *parser.AliasedExpr:
			b.WriteString(parser.FormatExpr(x.Expr))
			if x.Alias != "" {
				b.WriteString(" AS " + quote(x.Alias))
			}
		}
	}
	if len(s.From) > 0 {
		b.WriteString(" FROM ")
		for i, t := range s.From {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(table(t))
		}
	}
	if s.Where != nil {
		b.WriteString(" WHERE " + parser.FormatExpr(s.Where))
	}
	if len(s.GroupBy) > 0 {
		var g []string
		for _, e := range s.GroupBy {
			g = append(g, parser.FormatExpr(e))
		}
		b.WriteString(" GROUP BY " + strings.Join(g, ", "))
	}
	if s.Having != nil {
		b.WriteString(" HAVING " + parser.FormatExpr(s.Having))
	}
	if len(s.OrderBy) > 0 {
		var g []string
		for _, o := range s.OrderBy {
			t := parser.FormatExpr(o.Expr)
			if o.Desc {
				t += " DESC"
			}
			g = append(g, t)
		}
		b.WriteString(" ORDER BY " + strings.Join(g, ", "))
	}
	if s.Limit != nil {
		b.WriteString(" LIMIT " + parser.FormatExpr(s.Limit.Count))
	}
	return b.String(), nil
}

func table(t parser.TableExpr) string {
	switch x := t.(type) {
	case *parser.TableRef:
		s := quote(x.Name.Name)
		if x.Alias != "" {
			s += " AS " + quote(x.Alias)
		}
		return s
	case *parser.JoinExpr:
		s := table(x.Left) + " " + x.Kind + " " + table(x.Right)
		if x.On != nil {
			s += " ON " + parser.FormatExpr(x.On)
		}
		return s
	}
	return "?"
}

func quote(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }
