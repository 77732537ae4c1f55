package analytics

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gofluss/fluss/parser"
)

// Precedence levels of the DuckDB text the writer emits; an operand whose
// level is below its place's is parenthesized. DuckDB, like PostgreSQL,
// binds IS below the comparisons.
const (
	precOr = iota + 1
	precAnd
	precNot
	precIs
	precCompare
	precAdd
	precMul
	precUnary
	precPrimary
)

// prec is the level of e as the writer renders it.
func prec(e parser.Expr) int {
	switch x := e.(type) {
	case *parser.OrExpr:
		return precOr
	case *parser.AndExpr:
		return precAnd
	case *parser.NotExpr:
		return precNot
	case *parser.IsNullExpr, *parser.IsBoolExpr:
		return precIs
	case *parser.CompareExpr, *parser.InExpr, *parser.BetweenExpr:
		return precCompare
	case *parser.LikeExpr:
		if x.Regexp {
			return precPrimary // regexp_matches(...)
		}
		return precCompare
	case *parser.BinaryExpr:
		switch x.Op {
		case "+", "-":
			return precAdd
		case "*", "/", "%", "DIV":
			return precMul
		}
	case *parser.UnaryExpr:
		if x.Op == "!" {
			return precNot
		}
		return precUnary
	case *parser.Literal:
		if strings.HasPrefix(x.Text, "-") && x.Kind != parser.LitString {
			return precUnary
		}
	}
	return precPrimary
}

// operand writes e, parenthesized when its level is below min.
func (w *writer) operand(e parser.Expr, min int) {
	if prec(e) < min {
		w.str("(")
		w.expr(e)
		w.str(")")
		return
	}
	w.expr(e)
}

func (w *writer) exprList(list []parser.Expr) {
	for i, e := range list {
		if i > 0 {
			w.str(", ")
		}
		w.expr(e)
	}
}

func not(n bool) string {
	if n {
		return "NOT "
	}
	return ""
}

func (w *writer) expr(e parser.Expr) {
	switch x := e.(type) {
	case *parser.AndExpr:
		w.operand(x.L, precAnd)
		w.str(" AND ")
		w.operand(x.R, precAnd)
	case *parser.OrExpr:
		w.operand(x.L, precOr)
		w.str(" OR ")
		w.operand(x.R, precOr)
	case *parser.NotExpr:
		w.str("NOT ")
		w.operand(x.X, precNot)
	case *parser.CompareExpr:
		w.operand(x.L, precAdd)
		if x.Op == "<=>" {
			w.str(" IS NOT DISTINCT FROM ")
		} else {
			w.str(" ", x.Op, " ")
		}
		w.operand(x.R, precAdd)
	case *parser.InExpr:
		w.operand(x.X, precAdd)
		w.str(" ", not(x.Not), "IN (")
		if x.Subquery != nil {
			w.query(x.Subquery)
		} else {
			w.exprList(x.List)
		}
		w.str(")")
	case *parser.BetweenExpr:
		w.operand(x.X, precAdd)
		w.str(" ", not(x.Not), "BETWEEN ")
		w.operand(x.From, precAdd)
		w.str(" AND ")
		w.operand(x.To, precAdd)
	case *parser.IsNullExpr:
		w.operand(x.X, precAdd)
		w.str(" IS ", not(x.Not), "NULL")
	case *parser.IsBoolExpr:
		w.operand(x.X, precAdd)
		w.str(" IS ", not(x.Not), strings.ToUpper(strconv.FormatBool(x.Value)))
	case *parser.LikeExpr:
		w.like(x)
	case *parser.ColumnRef:
		for _, q := range x.Qualifier {
			w.str(quote(q), ".")
		}
		w.str(quote(x.Name))
	case *parser.Literal:
		w.literal(x)
	case *parser.Param:
		w.param(x)
	case *parser.ArrayExpr:
		w.str("[")
		w.exprList(x.Elems)
		w.str("]")
	case *parser.MapExpr:
		w.str("MAP {")
		for i := range x.Keys {
			if i > 0 {
				w.str(", ")
			}
			w.expr(x.Keys[i])
			w.str(": ")
			w.expr(x.Values[i])
		}
		w.str("}")
	case *parser.RowExpr:
		// Flink names the fields of ROW(...) EXPR$0, EXPR$1, ...
		w.str("{")
		for i, f := range x.Fields {
			if i > 0 {
				w.str(", ")
			}
			w.str(sqlString(fmt.Sprintf("EXPR$%d", i)), ": ")
			w.expr(f)
		}
		w.str("}")
	case *parser.TupleExpr:
		w.str("(")
		w.exprList(x.Exprs)
		w.str(")")
	case *parser.CastExpr:
		w.cast(x)
	case *parser.FuncCall:
		w.call(x)
	case *parser.BinaryExpr:
		w.binary(x)
	case *parser.UnaryExpr:
		switch x.Op {
		case "-", "+", "~":
			w.str(x.Op)
			w.operand(x.X, precPrimary)
		case "!":
			w.str("NOT ")
			w.operand(x.X, precNot)
		default:
			w.fail("the operator %s is not supported", x.Op)
		}
	case *parser.IntervalExpr:
		w.interval(x)
	case *parser.FloorCeilExpr:
		w.floorCeil(x)
	case *parser.ExtractExpr:
		w.extract(x)
	case *parser.CaseExpr:
		w.str("CASE")
		if x.Operand != nil {
			w.str(" ")
			w.expr(x.Operand)
		}
		for _, wh := range x.Whens {
			w.str(" WHEN ")
			w.expr(wh.Cond)
			w.str(" THEN ")
			w.expr(wh.Value)
		}
		if x.Else != nil {
			w.str(" ELSE ")
			w.expr(x.Else)
		}
		w.str(" END")
	case *parser.SubqueryExpr:
		w.str("(")
		w.query(x.Select)
		w.str(")")
	case *parser.ExistsExpr:
		w.str("EXISTS (")
		w.query(x.Select)
		w.str(")")
	case *parser.Variable:
		w.fail("the variable %s is not known", x.Name)
	case *parser.DefaultExpr:
		w.fail("DEFAULT is only a value in INSERT")
	case *parser.RawExpr:
		w.fail("%s (%s) is not Flink SQL the query engine runs", x.Text, x.Kind)
	case nil:
		w.fail("an expression is missing")
	default:
		w.fail("the expression %s is not supported", parser.FormatExpr(e))
	}
}

// like writes LIKE, and MySQL's REGEXP as Flink's REGEXP function: true
// when a part of the string matches.
func (w *writer) like(x *parser.LikeExpr) {
	if x.Regexp {
		w.str(not(x.Not), "regexp_matches(")
		w.expr(x.X)
		w.str(", ")
		w.expr(x.Pattern)
		w.str(")")
		return
	}
	w.operand(x.X, precAdd)
	w.str(" ", not(x.Not), "LIKE ")
	w.operand(x.Pattern, precAdd)
	if x.Escape != nil {
		w.str(" ESCAPE ")
		w.operand(x.Escape, precAdd)
	}
}

func (w *writer) binary(x *parser.BinaryExpr) {
	switch x.Op {
	case "+", "-", "*", "/", "%", "DIV":
		// '/' divides integers as integers in Flink; the engine runs with
		// DuckDB's integer_division, so '/' does the same there.
		p := prec(x)
		w.operand(x.L, p)
		op := x.Op
		if op == "DIV" {
			op = "//"
		}
		w.str(" ", op, " ")
		w.operand(x.R, p+1)
	case "&", "|", "<<", ">>":
		w.str("(")
		w.operand(x.L, precPrimary)
		w.str(" ", x.Op, " ")
		w.operand(x.R, precPrimary)
		w.str(")")
	default:
		w.fail("the operator %s is not supported", x.Op)
	}
}

// sqlString quotes s as a DuckDB string literal.
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func (w *writer) literal(l *parser.Literal) {
	switch l.Kind {
	case parser.LitNull:
		w.str("NULL")
	case parser.LitBool:
		w.str(strings.ToUpper(strconv.FormatBool(l.Bool)))
	case parser.LitInt, parser.LitDecimal, parser.LitFloat:
		w.str(l.Text)
	case parser.LitString:
		w.str(sqlString(l.Text))
	case parser.LitBytes:
		var b strings.Builder
		for _, c := range l.Bytes {
			fmt.Fprintf(&b, `\x%02X`, c)
		}
		w.str("CAST(", sqlString(b.String()), " AS BLOB)")
	case parser.LitDate:
		w.str("DATE ", sqlString(l.Text))
	case parser.LitTime:
		w.str("TIME ", sqlString(l.Text))
	case parser.LitTimestamp:
		w.str("TIMESTAMP ", sqlString(l.Text))
	case parser.LitTimestampLTZ:
		w.str("TIMESTAMPTZ ", sqlString(l.Text))
	default:
		w.fail("the literal %s is not supported", l.Text)
	}
}

// cast writes CAST and TRY_CAST. CHAR(n) pads to n characters and
// VARCHAR(n) cuts there, as Flink's casts do.
func (w *writer) cast(c *parser.CastExpr) {
	if c.Type == nil {
		w.fail("CAST to %s: not a Flink type", c.TypeText)
		return
	}
	plain := func(t string) {
		if c.Try {
			w.str("TRY_")
		}
		w.str("CAST(")
		w.expr(c.X)
		w.str(" AS ", t, ")")
	}
	switch dt := c.Type; {
	case dt.Kind == parser.TypeRow:
		w.rowCast(c)
	case dt.Kind == parser.TypeTimestamp && dt.Precision <= 3:
		w.truncated(dt.Precision, func() { plain("TIMESTAMP") })
	case dt.Kind == parser.TypeChar:
		w.str("rpad(")
		plain("VARCHAR")
		w.str(", ", strconv.Itoa(dt.Length), ", ' ')")
	case dt.Kind == parser.TypeForeign && dt.ForeignName == "VARCHAR" && len(dt.ForeignArgs) == 1:
		w.str("left(")
		plain("VARCHAR")
		w.str(", ", dt.ForeignArgs[0], ")")
	default:
		t, err := duckType(dt)
		if err != nil {
			w.fail("CAST(%s AS %s): %v", parser.FormatExpr(c.X), c.TypeText, err)
			return
		}
		plain(t)
	}
}

// rowCast writes CAST(ROW(...) AS ROW<...>), which Flink casts field by
// field in order, as the row of the target's field names; DuckDB casts
// rows by field name, so the cast of any other row value is refused.
func (w *writer) rowCast(c *parser.CastExpr) {
	r, ok := c.X.(*parser.RowExpr)
	if !ok || len(r.Fields) != len(c.Type.Fields) {
		w.fail("CAST(%s AS %s): only a ROW(...) of as many fields can be cast to a ROW type here", parser.FormatExpr(c.X), c.TypeText)
		return
	}
	w.str("{")
	for i, f := range c.Type.Fields {
		if i > 0 {
			w.str(", ")
		}
		w.str(sqlString(f.Name), ": ")
		w.cast(&parser.CastExpr{X: r.Fields[i], Type: f.Type, TypeText: f.Type.String(), Try: c.Try})
	}
	w.str("}")
}

// truncated writes the TIMESTAMP that value writes cut to precision p
// (0 or 3) as a TIMESTAMP_S or TIMESTAMP_MS: DuckDB's casts between its
// timestamp types round (and some are missing), Flink's truncate.
func (w *writer) truncated(p int, value func()) {
	unit, t := "millisecond", "TIMESTAMP_MS"
	if p == 0 {
		unit, t = "second", "TIMESTAMP_S"
	}
	w.str("CAST(date_trunc('", unit, "', ")
	value()
	w.str(") AS ", t, ")")
}

// duckType names a Flink type in DuckDB. TIMESTAMP(p) picks the DuckDB
// timestamp of the nearest precision that is not finer (seconds,
// milliseconds, microseconds, nanoseconds), so that the result keeps its
// precision (casts to the first two truncate with truncated).
func duckType(t *parser.DataType) (string, error) {
	switch t.Kind {
	case parser.TypeBoolean:
		return "BOOLEAN", nil
	case parser.TypeTinyInt:
		return "TINYINT", nil
	case parser.TypeSmallInt:
		return "SMALLINT", nil
	case parser.TypeInt:
		return "INTEGER", nil
	case parser.TypeBigInt:
		return "BIGINT", nil
	case parser.TypeFloat:
		return "FLOAT", nil
	case parser.TypeDouble:
		return "DOUBLE", nil
	case parser.TypeChar, parser.TypeString:
		return "VARCHAR", nil
	case parser.TypeBytes:
		return "BLOB", nil
	case parser.TypeDecimal:
		return fmt.Sprintf("DECIMAL(%d, %d)", t.Precision, t.Scale), nil
	case parser.TypeDate:
		return "DATE", nil
	case parser.TypeTime:
		return "TIME", nil
	case parser.TypeTimestamp:
		switch p := t.Precision; {
		case p == 0:
			return "TIMESTAMP_S", nil
		case p <= 3:
			return "TIMESTAMP_MS", nil
		case p <= 6:
			return "TIMESTAMP", nil
		default:
			return "TIMESTAMP_NS", nil
		}
	case parser.TypeTimestampLTZ:
		return "TIMESTAMPTZ", nil
	case parser.TypeArray:
		e, err := duckType(t.Elem)
		return e + "[]", err
	case parser.TypeMap:
		k, err := duckType(t.Key)
		if err != nil {
			return "", err
		}
		v, err := duckType(t.Value)
		return "MAP(" + k + ", " + v + ")", err
	case parser.TypeRow:
		parts := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			ft, err := duckType(f.Type)
			if err != nil {
				return "", err
			}
			parts[i] = quote(f.Name) + " " + ft
		}
		return "STRUCT(" + strings.Join(parts, ", ") + ")", nil
	}
	if s := t.Suggestion(); s != "" {
		return "", fmt.Errorf("%s is not a Flink type; use %s", t, s)
	}
	return "", fmt.Errorf("%s is not a type the engine has", t)
}

// interval writes an INTERVAL literal. DuckDB reads a unit-less value
// ('10 second') and a single unit as Flink writes them; a range of units
// (DAY TO SECOND, YEAR TO MONTH) becomes a value that names every unit.
func (w *writer) interval(iv *parser.IntervalExpr) {
	l, ok := iv.Value.(*parser.Literal)
	if !ok || l.Kind != parser.LitString && l.Kind != parser.LitInt && l.Kind != parser.LitDecimal {
		w.fail("INTERVAL %s: the value must be a literal", parser.FormatExpr(iv.Value))
		return
	}
	switch {
	case iv.Unit == "":
		w.str("INTERVAL ", sqlString(l.Text))
	case !strings.Contains(iv.Unit, " TO "):
		w.str("INTERVAL ", sqlString(l.Text), " ", iv.Unit)
	default:
		v, err := unitRange(l.Text, iv.Unit)
		if err != nil {
			w.fail("INTERVAL '%s' %s: %v", l.Text, iv.Unit, err)
			return
		}
		w.str("INTERVAL ", sqlString(v))
	}
}

// unitRange spells a Flink interval value of a unit range out unit by
// unit: '1 02:30' DAY TO MINUTE is '1 days 2 hours 30 minutes'.
func unitRange(value, unit string) (string, error) {
	from, to, _ := strings.Cut(unit, " TO ")
	units := []string{"DAY", "HOUR", "MINUTE", "SECOND"}
	seps := " :"
	if from == "YEAR" {
		units, seps = []string{"YEAR", "MONTH"}, "-"
	}
	i, j := slices.Index(units, from), slices.Index(units, to)
	if i < 0 || j <= i {
		return "", fmt.Errorf("not a range of interval units")
	}
	sign := ""
	if v, ok := strings.CutPrefix(strings.TrimSpace(value), "-"); ok {
		sign, value = "-", v
	}
	fields := strings.FieldsFunc(strings.TrimPrefix(value, "+"), func(r rune) bool { return strings.ContainsRune(seps, r) })
	if len(fields) != j-i+1 {
		return "", fmt.Errorf("the value must have %d fields", j-i+1)
	}
	parts := make([]string, len(fields))
	for k, f := range fields {
		u := units[i+k]
		if _, err := strconv.ParseFloat(f, 64); err != nil || u != "SECOND" && strings.Contains(f, ".") {
			return "", fmt.Errorf("%q is not a number of %s", f, strings.ToLower(u)+"s")
		}
		parts[k] = sign + f + " " + strings.ToLower(u) + "s"
	}
	return strings.Join(parts, " "), nil
}
