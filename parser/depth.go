package parser

import "strings"

// maxDepth bounds how deeply a statement may nest. Every later stage (the
// embedded MySQL parser's converter, the planner, formatting, type
// conversion) walks the syntax tree recursively, so an unbounded chain such
// as 1+1+...+1 with a million terms would exhaust the goroutine stack and
// kill the process instead of returning an error.
const maxDepth = 1000

// tooDeep is the message of the error for input nested deeper than maxDepth.
const tooDeep = "expression too deeply nested"

// nestGuard computes, token by token, an upper bound of the depth of the
// syntax tree the tokens can produce, so that over-deep input is refused
// while it is lexed, before anything recursive sees it. Each bracket or
// CASE opens a level; every operator (or operator keyword) adds one to its
// level, because a chain of n left-associative operators is a tree n deep.
// A ',' (or WHEN/THEN/ELSE directly inside CASE) starts a sibling, so it
// resets the count of its level. The bound is deliberately coarse: it may
// count a few tokens too many (a comparison inside an AND chain counts as
// well), never too few.
type nestGuard struct {
	levels []nestLevel
	depth  int // len(levels) + the sum of their ops
}

type nestLevel struct {
	closer string // the token that ends the level: ")", "]" or "END"
	ops    int
}

// nestOpWords are the keywords that combine or wrap operands, each adding
// a node above the operand before it (UNION and JOIN chain statements and
// tables the same way; ARRAY and MULTISET wrap types in the suffix form).
var nestOpWords = map[string]bool{
	"AND": true, "OR": true, "XOR": true, "NOT": true, "IS": true, "LIKE": true, "RLIKE": true, "REGEXP": true,
	"BETWEEN": true, "IN": true, "DIV": true, "MOD": true, "COLLATE": true, "INTERVAL": true, "BINARY": true,
	"ESCAPE": true, "EXISTS": true, "UNION": true, "INTERSECT": true, "EXCEPT": true, "JOIN": true,
	"STRAIGHT_JOIN": true, "ARRAY": true, "MULTISET": true,
}

// feed accounts for t and reports whether the bound is still within maxDepth.
func (g *nestGuard) feed(t Token) bool {
	switch t.Kind {
	case TokOp:
		switch t.Text {
		case "(":
			g.push(")")
		case "[":
			g.push("]")
		case ")", "]":
			g.pop(t.Text)
		case ",":
			g.sibling()
		case ";":
			g.levels, g.depth = nil, 0
		case ".":
		default:
			g.operator()
		}
	case TokWord:
		w := strings.ToUpper(t.Text)
		switch {
		case w == "CASE":
			g.push("END")
		case w == "END":
			g.pop("END")
		case w == "WHEN" || w == "THEN" || w == "ELSE":
			if n := len(g.levels); n > 0 && g.levels[n-1].closer == "END" {
				g.sibling()
			}
		case nestOpWords[w]:
			g.operator()
		}
	}
	return g.depth <= maxDepth
}

func (g *nestGuard) push(closer string) {
	g.levels = append(g.levels, nestLevel{closer: closer})
	g.depth++
}

// pop closes the innermost level if closer ends it. A stray closer is left
// to the grammar to report; keeping the level only overestimates.
func (g *nestGuard) pop(closer string) {
	n := len(g.levels)
	if n == 0 || g.levels[n-1].closer != closer {
		return
	}
	g.depth -= 1 + g.levels[n-1].ops
	g.levels = g.levels[:n-1]
}

func (g *nestGuard) operator() {
	if len(g.levels) == 0 {
		g.levels = append(g.levels, nestLevel{})
	}
	g.levels[len(g.levels)-1].ops++
	g.depth++
}

func (g *nestGuard) sibling() {
	if n := len(g.levels); n > 0 {
		g.depth -= g.levels[n-1].ops
		g.levels[n-1].ops = 0
	}
}
