package parser

import (
	"fmt"
	"strings"
)

// Error is a syntax (or other parse-time) error. Line and Column are
// 1-based and always refer to the original text given to Parse or
// ParseScript, also for errors reported by the embedded MySQL parser.
type Error struct {
	Line   int
	Column int
	// Offset is the 0-based byte offset of the error in the original text.
	Offset int
	// Near is the source text of the offending token; empty at end of input.
	Near string
	// Expected describes what the grammar expected, e.g. "TABLE or DATABASE".
	Expected string
	// Msg is an additional explanation or hint.
	Msg string
}

// Error formats the error as
//
//	syntax error at line 3, column 12 near "FOO": expected ...
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "syntax error at line %d, column %d", e.Line, e.Column)
	if e.Near != "" {
		fmt.Fprintf(&b, " near %q", truncateNear(e.Near))
	} else {
		b.WriteString(" at end of input")
	}
	if e.Expected != "" || e.Msg != "" {
		b.WriteString(": ")
	}
	if e.Expected != "" {
		b.WriteString("expected ")
		b.WriteString(e.Expected)
		if e.Msg != "" {
			b.WriteString("; ")
		}
	}
	b.WriteString(e.Msg)
	return b.String()
}

func truncateNear(s string) string {
	const max = 40
	if len([]rune(s)) > max {
		return string([]rune(s)[:max]) + "..."
	}
	return s
}

// errorAt builds an Error located at token t.
func errorAt(t Token, expected, msg string) *Error {
	e := &Error{Line: t.Pos.Line, Column: t.Pos.Column, Offset: t.Pos.Offset, Expected: expected, Msg: msg}
	if t.Kind != TokEOF {
		e.Near = t.Text
	}
	return e
}
