package parser

import (
	"encoding/hex"
	"strings"
)

// This file holds the small expression grammar used by the hand-written
// statements (CALL arguments, partition values, SHOW OFFSETS AT TIMESTAMP).
// Queries and writes use the converted MySQL parser AST instead (dml.go).

// paramMap returns the numbering of the statement's placeholders by
// offset, building it on first use. A parser of part of a statement is
// given its statement's map, since a ? is numbered among all of them.
func (p *parser) paramMap() map[int]Placeholder {
	if p.params == nil {
		_, phs, err := placeholders(p.toks)
		if err != nil {
			panic(bailout{err.(*Error)})
		}
		p.params = make(map[int]Placeholder, len(phs))
		for _, ph := range phs {
			p.params[ph.Pos.Offset] = ph
		}
	}
	return p.params
}

// paramFor returns the Param node for placeholder token t.
func (p *parser) paramFor(t Token) *Param {
	ph := p.paramMap()[t.Pos.Offset]
	return &Param{Index: ph.Index, Name: ph.Name}
}

// numberLiteral classifies a numeric token.
func numberLiteral(text string) *Literal {
	if strings.HasPrefix(text, "0x") || strings.HasPrefix(text, "0X") {
		h := text[2:]
		if len(h)%2 == 1 {
			h = "0" + h
		}
		b, _ := hex.DecodeString(h)
		return &Literal{Kind: LitBytes, Text: text, Bytes: b}
	}
	if strings.ContainsAny(text, "eE") {
		return &Literal{Kind: LitFloat, Text: text}
	}
	if strings.Contains(text, ".") {
		return &Literal{Kind: LitDecimal, Text: text}
	}
	return &Literal{Kind: LitInt, Text: text}
}

func negate(l *Literal) *Literal {
	c := *l
	if strings.HasPrefix(c.Text, "-") {
		c.Text = c.Text[1:]
	} else {
		c.Text = "-" + c.Text
	}
	return &c
}

// exprList parses e [, e ...] up to (not including) the closing token.
func (p *parser) exprList(closer string) []Expr {
	var out []Expr
	if p.peek().is(closer) {
		return out
	}
	for {
		out = append(out, p.primary())
		if !p.acceptOp(",") {
			return out
		}
	}
}

// primary parses a literal, placeholder, constructor, CAST, function call,
// column reference or parenthesized expression.
func (p *parser) primary() Expr {
	p.enter()
	defer p.leave()
	t := p.peek()
	switch t.Kind {
	case TokString, TokDQString:
		p.next()
		return &Literal{Kind: LitString, Text: t.Value}
	case TokNumber:
		p.next()
		return numberLiteral(t.Text)
	case TokHexString:
		p.next()
		b, _ := hex.DecodeString(t.Value)
		return &Literal{Kind: LitBytes, Text: t.Text, Bytes: b}
	case TokParam:
		p.next()
		return p.paramFor(t)
	case TokOp:
		switch t.Text {
		case "-", "+":
			p.next()
			x := p.primary()
			if l, ok := x.(*Literal); ok && (l.Kind == LitInt || l.Kind == LitDecimal || l.Kind == LitFloat) {
				if t.Text == "-" {
					return negate(l)
				}
				return l
			}
			return &UnaryExpr{Op: t.Text, X: x}
		case "(":
			p.next()
			list := p.exprList(")")
			p.expectOp(")")
			if len(list) == 1 {
				return list[0]
			}
			return &TupleExpr{Exprs: list}
		}
	case TokWord, TokQuotedIdent:
		if t.Kind == TokWord {
			w := strings.ToUpper(t.Text)
			n1 := p.peekAt(1)
			switch {
			case w == "TRUE" || w == "FALSE":
				p.next()
				return &Literal{Kind: LitBool, Bool: w == "TRUE", Text: w}
			case w == "NULL":
				p.next()
				return &Literal{Kind: LitNull, Text: "NULL"}
			case (w == "DATE" || w == "TIME" || w == "TIMESTAMP" || w == "TIMESTAMP_LTZ") && n1.Kind == TokString:
				p.next()
				p.next()
				kinds := map[string]LiteralKind{"DATE": LitDate, "TIME": LitTime, "TIMESTAMP": LitTimestamp, "TIMESTAMP_LTZ": LitTimestampLTZ}
				return &Literal{Kind: kinds[w], Text: n1.Value}
			case w == "INTERVAL" && (n1.Kind == TokString || n1.Kind == TokDQString || n1.Kind == TokNumber):
				p.next()
				v := p.primary()
				unit, next := intervalUnit(p.toks, p.i)
				p.i = next
				return &IntervalExpr{Value: v, Unit: unit}
			case w == "ARRAY" && (n1.is("[") || n1.is("(")):
				p.next()
				closer := "]"
				if p.next().is("(") {
					closer = ")"
				}
				a := &ArrayExpr{Elems: p.exprList(closer)}
				p.expectOp(closer)
				return a
			case w == "MAP" && (n1.is("[") || n1.is("(")):
				p.next()
				closer := "]"
				if p.next().is("(") {
					closer = ")"
				}
				list := p.exprList(closer)
				if len(list)%2 != 0 {
					p.fail("", "MAP needs an even number of arguments (key, value, ...)")
				}
				p.expectOp(closer)
				m := &MapExpr{}
				for i := 0; i < len(list); i += 2 {
					m.Keys = append(m.Keys, list[i])
					m.Values = append(m.Values, list[i+1])
				}
				return m
			case w == "ROW" && n1.is("("):
				p.next()
				p.next()
				r := &RowExpr{Fields: p.exprList(")")}
				p.expectOp(")")
				return r
			case (w == "CAST" || w == "TRY_CAST") && n1.is("("):
				p.next()
				p.next()
				x := p.primary()
				p.expectWord("AS")
				start := p.peek()
				dt := p.parseType()
				c := &CastExpr{X: x, Type: dt, TypeText: p.textFrom(start), Try: w == "TRY_CAST"}
				p.expectOp(")")
				return c
			}
			if n1.is("(") {
				p.next()
				p.next()
				f := &FuncCall{Name: t.Text}
				if p.acceptOp("*") {
					f.Star = true
				} else {
					f.Args = p.exprList(")")
				}
				p.expectOp(")")
				return f
			}
			if strings.HasPrefix(t.Text, "@") {
				p.next()
				return &Variable{Name: t.Text}
			}
		}
		parts := p.nameParts("expression")
		return &ColumnRef{Qualifier: parts[:len(parts)-1], Name: parts[len(parts)-1]}
	}
	p.fail("an expression", "")
	return nil
}
