package parser

import (
	"fmt"
	"strings"
)

// FormatExpr renders an expression as SQL text in a canonical form (upper
// case keywords, identifiers quoted only when needed), e.g.
// "k1 > 5 AND name LIKE 'a%'". It is meant for error messages such as
// "predicate k1 > 5 would need a scan". Nested AND/OR/NOT operands are
// parenthesized where needed.
func FormatExpr(e Expr) string {
	var b strings.Builder
	formatExpr(&b, e, 0)
	return b.String()
}

// Precedence levels used for parenthesization.
const (
	precOr = iota + 1
	precAnd
	precNot
	precCompare
	precAdd
	precMul
	precUnary
	precPrimary
)

func exprPrec(e Expr) int {
	switch e := e.(type) {
	case *OrExpr:
		return precOr
	case *AndExpr:
		return precAnd
	case *NotExpr:
		return precNot
	case *CompareExpr, *InExpr, *BetweenExpr, *IsNullExpr, *IsBoolExpr, *LikeExpr:
		return precCompare
	case *BinaryExpr:
		switch e.Op {
		case "*", "/", "%", "DIV":
			return precMul
		}
		return precAdd
	case *UnaryExpr:
		return precUnary
	}
	return precPrimary
}

func formatOperand(b *strings.Builder, e Expr, min int) {
	if exprPrec(e) < min {
		b.WriteByte('(')
		formatExpr(b, e, 0)
		b.WriteByte(')')
		return
	}
	formatExpr(b, e, min)
}

func formatList(b *strings.Builder, list []Expr) {
	for i, e := range list {
		if i > 0 {
			b.WriteString(", ")
		}
		formatExpr(b, e, 0)
	}
}

func formatExpr(b *strings.Builder, e Expr, _ int) {
	not := func(n bool) string {
		if n {
			return "NOT "
		}
		return ""
	}
	switch e := e.(type) {
	case nil:
		b.WriteString("NULL")
	case *AndExpr:
		formatOperand(b, e.L, precAnd)
		b.WriteString(" AND ")
		formatOperand(b, e.R, precAnd)
	case *OrExpr:
		formatOperand(b, e.L, precOr)
		b.WriteString(" OR ")
		formatOperand(b, e.R, precOr)
	case *NotExpr:
		b.WriteString("NOT ")
		formatOperand(b, e.X, precNot)
	case *CompareExpr:
		formatOperand(b, e.L, precCompare+1)
		b.WriteString(" " + e.Op + " ")
		formatOperand(b, e.R, precCompare+1)
	case *InExpr:
		formatOperand(b, e.X, precCompare+1)
		b.WriteString(" " + not(e.Not) + "IN (")
		if e.Subquery != nil {
			b.WriteString(e.Subquery.Text())
		} else {
			formatList(b, e.List)
		}
		b.WriteString(")")
	case *BetweenExpr:
		formatOperand(b, e.X, precCompare+1)
		b.WriteString(" " + not(e.Not) + "BETWEEN ")
		formatOperand(b, e.From, precCompare+1)
		b.WriteString(" AND ")
		formatOperand(b, e.To, precCompare+1)
	case *IsNullExpr:
		formatOperand(b, e.X, precCompare+1)
		b.WriteString(" IS " + not(e.Not) + "NULL")
	case *IsBoolExpr:
		formatOperand(b, e.X, precCompare+1)
		b.WriteString(" IS " + not(e.Not) + strings.ToUpper(fmt.Sprint(e.Value)))
	case *LikeExpr:
		formatOperand(b, e.X, precCompare+1)
		op := "LIKE"
		if e.Regexp {
			op = "REGEXP"
		}
		b.WriteString(" " + not(e.Not) + op + " ")
		formatOperand(b, e.Pattern, precCompare+1)
		if e.Escape != nil {
			b.WriteString(" ESCAPE ")
			formatExpr(b, e.Escape, 0)
		}
	case *ColumnRef:
		for _, q := range e.Qualifier {
			b.WriteString(QuoteIdent(q) + ".")
		}
		b.WriteString(QuoteIdent(e.Name))
	case *Literal:
		b.WriteString(formatLiteral(e))
	case *Param:
		switch {
		case e.Name != "":
			b.WriteString(":" + e.Name)
		default:
			fmt.Fprintf(b, "?%d", e.Index)
		}
	case *Variable:
		b.WriteString(e.Name)
	case *ArrayExpr:
		b.WriteString("ARRAY[")
		formatList(b, e.Elems)
		b.WriteString("]")
	case *MapExpr:
		b.WriteString("MAP[")
		for i := range e.Keys {
			if i > 0 {
				b.WriteString(", ")
			}
			formatExpr(b, e.Keys[i], 0)
			b.WriteString(", ")
			formatExpr(b, e.Values[i], 0)
		}
		b.WriteString("]")
	case *RowExpr:
		b.WriteString("ROW(")
		formatList(b, e.Fields)
		b.WriteString(")")
	case *TupleExpr:
		b.WriteString("(")
		formatList(b, e.Exprs)
		b.WriteString(")")
	case *CastExpr:
		if e.Try {
			b.WriteString("TRY_")
		}
		b.WriteString("CAST(")
		formatExpr(b, e.X, 0)
		b.WriteString(" AS ")
		if e.Type != nil {
			b.WriteString(e.Type.String())
		} else {
			b.WriteString(e.TypeText)
		}
		b.WriteString(")")
	case *FuncCall:
		if e.Qualifier != "" {
			b.WriteString(QuoteIdent(e.Qualifier) + ".")
		}
		b.WriteString(e.Name + "(")
		if e.Distinct {
			b.WriteString("DISTINCT ")
		}
		if e.Star {
			b.WriteString("*")
		}
		if strings.EqualFold(e.Name, "POSITION") && e.Qualifier == "" && len(e.Args) == 2 {
			formatExpr(b, e.Args[0], 0)
			b.WriteString(" IN ")
			formatExpr(b, e.Args[1], 0)
		} else {
			formatList(b, e.Args)
		}
		b.WriteString(")")
		if e.Over != nil {
			b.WriteString(" OVER (")
			formatWindow(b, e.Over)
			b.WriteString(")")
		}
	case *BinaryExpr:
		p := exprPrec(e)
		formatOperand(b, e.L, p)
		b.WriteString(" " + e.Op + " ")
		formatOperand(b, e.R, p+1)
	case *UnaryExpr:
		b.WriteString(e.Op)
		formatOperand(b, e.X, precUnary)
	case *IntervalExpr:
		b.WriteString("INTERVAL ")
		formatExpr(b, e.Value, 0)
		if e.Unit != "" {
			b.WriteString(" " + e.Unit)
		}
	case *FloorCeilExpr:
		if e.Ceil {
			b.WriteString("CEIL(")
		} else {
			b.WriteString("FLOOR(")
		}
		formatExpr(b, e.X, 0)
		b.WriteString(" TO " + e.Unit + ")")
	case *ExtractExpr:
		b.WriteString("EXTRACT(" + e.Unit + " FROM ")
		formatExpr(b, e.X, 0)
		b.WriteString(")")
	case *CaseExpr:
		b.WriteString("CASE")
		if e.Operand != nil {
			b.WriteString(" ")
			formatExpr(b, e.Operand, 0)
		}
		for _, w := range e.Whens {
			b.WriteString(" WHEN ")
			formatExpr(b, w.Cond, 0)
			b.WriteString(" THEN ")
			formatExpr(b, w.Value, 0)
		}
		if e.Else != nil {
			b.WriteString(" ELSE ")
			formatExpr(b, e.Else, 0)
		}
		b.WriteString(" END")
	case *SubqueryExpr:
		b.WriteString("(" + e.Select.Text() + ")")
	case *ExistsExpr:
		b.WriteString("EXISTS (" + e.Select.Text() + ")")
	case *DefaultExpr:
		b.WriteString("DEFAULT")
	case *RawExpr:
		b.WriteString(e.Text)
	default:
		fmt.Fprintf(b, "%T", e)
	}
}

// formatWindow writes the inside of OVER (...).
func formatWindow(b *strings.Builder, w *WindowSpec) {
	sep := ""
	if len(w.PartitionBy) > 0 {
		b.WriteString("PARTITION BY ")
		formatList(b, w.PartitionBy)
		sep = " "
	}
	if len(w.OrderBy) > 0 {
		b.WriteString(sep + "ORDER BY ")
		for i, o := range w.OrderBy {
			if i > 0 {
				b.WriteString(", ")
			}
			formatExpr(b, o.Expr, 0)
			if o.Desc {
				b.WriteString(" DESC")
			}
			if o.Nulls != NullsDefault {
				b.WriteString(" " + o.Nulls.String())
			}
		}
		sep = " "
	}
	if f := w.Frame; f != nil {
		b.WriteString(sep)
		if f.Range {
			b.WriteString("RANGE BETWEEN ")
		} else {
			b.WriteString("ROWS BETWEEN ")
		}
		formatBound(b, f.Start)
		b.WriteString(" AND ")
		formatBound(b, f.End)
	}
}

func formatBound(b *strings.Builder, fb FrameBound) {
	if fb.Offset != nil {
		formatExpr(b, fb.Offset, 0)
		b.WriteString(" ")
	}
	b.WriteString(fb.Kind.String())
}

func formatLiteral(l *Literal) string {
	switch l.Kind {
	case LitNull:
		return "NULL"
	case LitBool:
		if l.Bool {
			return "TRUE"
		}
		return "FALSE"
	case LitString:
		return QuoteString(l.Text)
	case LitBytes:
		return fmt.Sprintf("x'%X'", l.Bytes)
	case LitDate, LitTime, LitTimestamp, LitTimestampLTZ:
		return l.Kind.String() + " " + QuoteString(l.Text)
	}
	return l.Text
}
