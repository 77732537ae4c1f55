package parser

import (
	"encoding/hex"
	"regexp"
	"strconv"
	"strings"

	"github.com/xwb1989/sqlparser"
)

// SELECT, INSERT, REPLACE, UPSERT, UPDATE and DELETE go through
// github.com/xwb1989/sqlparser. A token-level pre-pass first rewrites what
// that parser cannot read (Flink hints after table names, t$changelog,
// three-part names, typed literals, ARRAY[..]/MAP[..], CAST to Fluss types,
// FOR SYSTEM_TIME AS OF, $n placeholders, MySQL keywords used as column
// names, and the query forms of dml_flink.go: WITH, OVER, NULLS FIRST,
// FLOOR(x TO unit), ...); its AST is then converted into this package's AST.

// Marker functions the pre-pass introduces; the converter turns them back.
const (
	markDate      = "__fluss_date"
	markTime      = "__fluss_time"
	markTimestamp = "__fluss_timestamp"
	markLTZ       = "__fluss_timestamp_ltz"
	markArray     = "__fluss_array"
	markMap       = "__fluss_map"
	markCast      = "__fluss_cast"
	markTryCast   = "__fluss_try_cast"
)

// keywordColumns are sqlparser keywords that cannot be bare column names
// but are ordinary names in Flink/Fluss schemas; the pre-pass quotes them.
var keywordColumns = map[string]bool{
	"add": true, "alter": true, "analyze": true, "auto_increment": true, "column": true, "constraint": true,
	"create": true, "database": true, "databases": true, "describe": true, "drop": true, "explain": true,
	"extended": true, "full": true, "index": true, "key": true, "maxvalue": true, "processlist": true,
	"rename": true, "schema": true, "show": true, "stream": true, "table": true, "tables": true, "unique": true, "to": true,
}

// tableAnn records what the pre-pass learnt about one table reference.
type tableAnn struct {
	parts []string // original name parts (catalog stripped from emitted text)
	pos   Pos
	hints []Hint
	fst   *ForSystemTime
	used  bool
}

type seg struct {
	outStart int
	tok      Token
}

type rewriter struct {
	p         *parser
	meta      Meta
	out       strings.Builder
	segs      []seg
	anns      []*tableAnn
	stmtHints []Hint
	// selectHints holds the hints written after the k-th SELECT keyword.
	selectHints [][]Hint
	action      InsertAction
	overwrite   bool
	partition   *PartitionSpec
	// frames holds the ROWS/RANGE frame of the k-th OVER clause (nil
	// without one), which the pre-pass parses itself.
	frames []*WindowFrame
	// queries holds the queries the pre-pass parsed itself (those with
	// WITH); the text handed on names the k-th as markQuery(k).
	queries []SelectStatement
}

func (rw *rewriter) emit(t Token, text string) {
	if rw.out.Len() > 0 {
		rw.out.WriteByte(' ')
	}
	rw.segs = append(rw.segs, seg{outStart: rw.out.Len(), tok: t})
	rw.out.WriteString(text)
}

// quoteBacktick back-quotes s, doubling inner back-quotes (the packages
// above the parser use schema.Backquote).
func quoteBacktick(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

func quoteForSQLParser(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

func isPlainSQLParserIdent(s string) bool {
	if s == "" || isDigit(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isNameStartByte(c) || isDigit(c) || c == '@' && i < 2) {
			return false
		}
	}
	return true
}

var clauseWords = map[string]bool{"SELECT": true, "WHERE": true, "GROUP": true, "ORDER": true, "HAVING": true, "LIMIT": true, "ON": true, "SET": true, "VALUES": true, "USING": true, "UNION": true}

var fstStop = map[string]bool{"AS": true, "ON": true, "WHERE": true, "JOIN": true, "LEFT": true, "RIGHT": true, "INNER": true, "CROSS": true, "FULL": true, "NATURAL": true, "STRAIGHT_JOIN": true, "GROUP": true, "ORDER": true, "LIMIT": true, "UNION": true, "HAVING": true, "USING": true}

// rewrite runs the pre-pass over the statement tokens.
func (rw *rewriter) rewrite() {
	toks := rw.p.toks
	sc := &rwScan{rewriter: rw, toks: toks, n: len(toks) - 1, stack: []rwFrame{{}}, lastNameEnd: -1, castAt: map[int]int{}, lastSelect: -1,
		match: matchParens(toks), before: map[int]string{}, replace: map[int]string{}}
	for i := 0; i < sc.n; i++ {
		i = sc.token(i)
	}
	if s, ok := sc.before[sc.n]; ok {
		rw.emit(toks[sc.n], s)
	}
}

// rwFrame is the clause of one level of parentheses.
type rwFrame struct{ clause string }

// rwScan is the state of one rewrite: a walk over the tokens that emits
// each one, rewritten where vitess-sqlparser needs it.
type rwScan struct {
	*rewriter
	toks        []Token
	n           int // tokens without the final EOF
	stack       []rwFrame
	expectTable bool
	derived     int // derived tables named by aliasDerived
	lastNameEnd int // index of the last token of the current table reference
	cur         *tableAnn
	brackets    []bool // one entry per open ARRAY[ / MAP[; closes with ')'
	castAt      map[int]int
	lastSelect  int
	// match is the index of the parenthesis matching each ( and ), -1
	// for other tokens and unbalanced ones.
	match []int
	// before holds text to emit before token i; replace the text to emit
	// instead of it ("" drops it). The Flink forms plan them ahead.
	before  map[int]string
	replace map[int]string
}

// token rewrites token i and returns the index of the last token it used.
func (rw *rwScan) token(i int) int {
	t := rw.toks[i]
	if s, ok := rw.before[i]; ok {
		rw.emit(t, s)
	}
	if s, ok := rw.replace[i]; ok {
		if s != "" {
			rw.emit(t, s)
		}
		return i
	}
	// A hint or FOR SYSTEM_TIME directly after a table name belongs to it.
	attachable := rw.cur != nil && rw.lastNameEnd == i-1
	switch t.Kind {
	case TokHint:
		rw.hint(i, attachable)
	case TokQuotedIdent, TokWord:
		return rw.word(i, attachable)
	case TokString, TokDQString:
		rw.emit(t, quoteForSQLParser(t.Value))
	case TokParam:
		switch t.Text[0] {
		case '?', '$':
			rw.emit(t, ":v"+strconv.Itoa(rw.p.paramFor(t).Index))
		default:
			rw.emit(t, t.Text)
		}
	case TokOp:
		rw.op(i)
	default:
		rw.emit(t, t.Text)
	}
	return i
}

// hint attaches a hint to its SELECT, statement or table.
func (rw *rwScan) hint(i int, attachable bool) {
	p, t := rw.p, rw.toks[i]
	hs := parseHints(p.src, t)
	switch {
	case rw.lastSelect >= 0 && rw.lastSelect == i-1:
		rw.selectHints[len(rw.selectHints)-1] = append(rw.selectHints[len(rw.selectHints)-1], hs...)
		rw.lastSelect = i
	case i == 1:
		rw.stmtHints = append(rw.stmtHints, hs...)
	case attachable:
		rw.cur.hints = append(rw.cur.hints, hs...)
		rw.lastNameEnd = i
	default:
		p.failAt(t, "", "a hint /*+ ... */ must follow SELECT, INSERT, UPDATE, DELETE or a table name")
	}
}

// word rewrites a word or quoted identifier: a table name, a special
// form, or a plain word.
func (rw *rwScan) word(i int, attachable bool) int {
	p, toks, t := rw.p, rw.toks, rw.toks[i]
	w := strings.ToUpper(t.Text)
	if rw.expectTable {
		rw.expectTable = false
		return rw.tableName(i)
	}
	if j, done := rw.flinkForm(i, w); done {
		return j
	}
	if t.Kind == TokQuotedIdent {
		rw.emit(t, quoteBacktick(t.Value))
		return i
	}
	next := toks[i+1]
	if next.Kind == TokString && next.Pos.Offset == t.End {
		switch w {
		case "N", "_UTF8", "_UTF8MB4", "_LATIN1", "_BINARY":
			// National/charset-introduced string: keep the string.
			return i
		case "B":
			p.failAt(t, "", "bit literals b'...' are not supported; use an integer or x'..' bytes")
		}
	}
	if j, done := rw.special(i, w, attachable); done {
		return j
	}
	rw.plainWord(i, w)
	return i
}

// tableName collects and emits a dotted table name starting at token i.
func (rw *rwScan) tableName(i int) int {
	p, toks, n, t := rw.p, rw.toks, rw.n, rw.toks[i]
	// Collect a dotted name.
	start := i
	parts := []string{identValue(t)}
	j := i
	for j+2 < n && toks[j+1].is(".") && toks[j+1].Kind == TokOp && (toks[j+2].Kind == TokWord || toks[j+2].Kind == TokQuotedIdent) {
		parts = append(parts, identValue(toks[j+2]))
		j += 2
	}
	if len(parts) > 3 {
		p.failAt(t, "table name", "a table name has at most three parts: catalog.database.table")
	}
	emitted := parts
	if len(parts) == 3 {
		emitted = parts[1:]
	}
	var q []string
	for _, e := range emitted {
		q = append(q, quoteBacktick(e))
	}
	rw.emit(toks[start], strings.Join(q, "."))
	rw.cur = &tableAnn{parts: parts, pos: t.Pos}
	rw.anns = append(rw.anns, rw.cur)
	rw.lastNameEnd = j
	return j
}

// special rewrites the forms vitess does not parse (FOR SYSTEM_TIME AS OF,
// INSERT ... PARTITION, typed literals, ARRAY[...]/MAP[...], CAST,
// UPSERT, INSERT OVERWRITE); done is false for other words.
func (rw *rwScan) special(i int, w string, attachable bool) (_ int, done bool) {
	p, toks, n, t := rw.p, rw.toks, rw.n, rw.toks[i]
	next := toks[i+1]
	switch {
	case w == "FOR" && next.is("SYSTEM_TIME") && toks[i+2].is("AS") && toks[i+3].is("OF"):
		if !attachable {
			p.failAt(t, "", "FOR SYSTEM_TIME AS OF must follow a table name")
		}
		k := i + 4
		depth := 0
		for k < n {
			u := toks[k]
			if depth == 0 && (u.is(",") || u.is(")") || u.Kind == TokWord && fstStop[strings.ToUpper(u.Text)]) {
				break
			}
			if u.is("(") {
				depth++
			} else if u.is(")") {
				depth--
			}
			k++
		}
		if k == i+4 {
			p.failAt(toks[k], "a time expression", "")
		}
		rw.cur.fst = &ForSystemTime{Expr: p.src[toks[i+4].Pos.Offset:toks[k-1].End]}
		i = k - 1
		rw.lastNameEnd = i
		return i, true
	case w == "PARTITION" && attachable && len(rw.anns) == 1 && isInsertVerb(toks[0]) && next.is("("):
		q := &parser{src: p.src, toks: p.toks, i: i}
		spec := q.partitionSpec(false)
		rw.partition = &spec
		i = q.i - 1
		rw.lastNameEnd = i
		return i, true
	case (w == "DATE" || w == "TIME" || w == "TIMESTAMP" || w == "TIMESTAMP_LTZ") && next.Kind == TokString:
		m := map[string]string{"DATE": markDate, "TIME": markTime, "TIMESTAMP": markTimestamp, "TIMESTAMP_LTZ": markLTZ}[w]
		rw.emit(t, m+"("+quoteForSQLParser(next.Value)+")")
		i++
		return i, true
	case (w == "ARRAY" || w == "MAP") && next.is("["):
		m := markArray
		if w == "MAP" {
			m = markMap
		}
		rw.emit(t, m+"(")
		rw.brackets = append(rw.brackets, true)
		i++
		return i, true
	case (w == "CAST" || w == "TRY_CAST") && next.is("("):
		depth, as, end := 0, -1, -1
		for k := i + 1; k < n; k++ {
			u := toks[k]
			if u.is("(") {
				depth++
			} else if u.is(")") {
				depth--
				if depth == 0 {
					end = k
					break
				}
			} else if depth == 1 && u.is("AS") && u.Kind == TokWord {
				as = k
			}
		}
		if as < 0 || end < 0 || as+1 >= end {
			return i, false
		}
		rw.castAt[as] = end
		m := markCast
		if w == "TRY_CAST" {
			m = markTryCast
		}
		rw.emit(t, m+"(")
		i++
		return i, true
	case w == "AS" && rw.castAt[i] > 0:
		end := rw.castAt[i]
		typeText := p.src[toks[i+1].Pos.Offset:toks[end-1].End]
		rw.emit(t, ", "+quoteForSQLParser(typeText)+")")
		i = end
		return i, true
	case i == 0 && w == "UPSERT":
		rw.action = ActionUpsert
		rw.emit(t, "insert")
		return i, true
	case i == 1 && w == "OVERWRITE" && toks[0].is("INSERT"):
		rw.overwrite = true
		rw.emit(t, "into")
		rw.expectTable = true
		return i, true
	}
	return i, false
}

// plainWord tracks clauses and SELECTs, and quotes words vitess would
// take for keywords.
func (rw *rwScan) plainWord(i int, w string) {
	toks, t := rw.toks, rw.toks[i]
	if w == "SELECT" {
		rw.lastSelect = i
		rw.selectHints = append(rw.selectHints, nil)
	}
	switch w {
	case "FROM", "JOIN", "INTO", "STRAIGHT_JOIN":
		rw.expectTable = true
		rw.stack[len(rw.stack)-1].clause = "FROM"
	case "UPDATE":
		if i == 0 {
			rw.expectTable = true
			rw.stack[len(rw.stack)-1].clause = "FROM"
		}
	default:
		if clauseWords[w] {
			rw.stack[len(rw.stack)-1].clause = w
		}
	}
	if i == 0 && (w == "REPLACE") {
		rw.action = ActionReplace
	}
	// vitess has no FULL JOIN: quoted as a name like any "full", it
	// would silently become the alias of the table before it.
	if w == "FULL" && i+1 < rw.n && (strings.EqualFold(toks[i+1].Text, "JOIN") || strings.EqualFold(toks[i+1].Text, "OUTER")) {
		rw.p.failAt(t, "", "FULL [OUTER] JOIN is not supported; use a LEFT JOIN, UNION ALL the right side's unmatched rows (a RIGHT JOIN ... WHERE the left key IS NULL)")
		return
	}
	low := strings.ToLower(t.Text)
	prev := ""
	if i > 0 {
		prev = strings.ToUpper(toks[i-1].Text)
	}
	if keywordColumns[low] && prev != "DUPLICATE" && prev != "USE" && prev != "FORCE" && prev != "IGNORE" && prev != "PRIMARY" || !isPlainSQLParserIdent(t.Text) {
		rw.emit(t, quoteBacktick(t.Text))
		return
	}
	rw.emit(t, t.Text)
}

// op rewrites operator i, tracking parentheses and ARRAY/MAP brackets.
func (rw *rwScan) op(i int) {
	p, t := rw.p, rw.toks[i]
	switch t.Text {
	case "||":
		// vitess reads || as OR. Flink's concatenation travels as ^,
		// which binds as Calcite's || does (tighter than + and
		// comparisons), and the converter makes it CONCAT.
		rw.emit(t, "^")
		return
	case "^":
		p.failAt(t, "", "^ is not a Flink SQL operator: write POWER(a, b) for a power, a || b to concatenate")
	case "(":
		rw.stack = append(rw.stack, rwFrame{})
	case ")":
		if len(rw.stack) > 1 {
			rw.stack = rw.stack[:len(rw.stack)-1]
		}
	case ",":
		if rw.stack[len(rw.stack)-1].clause == "FROM" {
			rw.expectTable = true
		}
	case "[":
		p.failAt(t, "", "array subscripts and [ ] brackets are only supported in ARRAY[...] and MAP[...] constructors")
	case "]":
		if len(rw.brackets) > 0 {
			rw.brackets = rw.brackets[:len(rw.brackets)-1]
			rw.emit(t, ")")
			return
		}
	}
	if t.Text == "(" && rw.expectTable {
		rw.expectTable = false
		rw.aliasDerived(i)
	}
	rw.emit(t, t.Text)
}

// aliasDerived names the derived table that the ( at i opens when it has
// no alias: Flink (Calcite) allows FROM (SELECT ...) without one, vitess
// (MySQL) does not.
func (rw *rwScan) aliasDerived(i int) {
	if !rw.isOpen(i) {
		return
	}
	if first := rw.toks[i+1]; !first.is("SELECT") && !first.is("WITH") {
		return // a parenthesised join
	}
	end := rw.match[i]
	next := tokAt(rw.toks, end+1)
	switch {
	case next.is("AS"), next.Kind == TokQuotedIdent, next.Kind == TokWord && !fstStop[strings.ToUpper(next.Text)]:
		return // an alias
	}
	rw.derived++
	rw.before[end+1] += " AS `" + derivedAliasPrefix + strconv.Itoa(rw.derived) + "` "
}

// derivedAliasPrefix starts the alias the parser gives a derived table
// written without one ("EXPR$" is Calcite's).
const derivedAliasPrefix = "EXPR$"

func isInsertVerb(t Token) bool { return t.is("INSERT") || t.is("UPSERT") || t.is("REPLACE") }

func identValue(t Token) string {
	if t.Kind == TokQuotedIdent {
		return t.Value
	}
	return t.Text
}

// parseHints parses the body of a /*+ ... */ token.
func parseHints(src string, t Token) []Hint {
	body := Pos{Line: t.Pos.Line, Column: t.Pos.Column + 3, Offset: t.Pos.Offset + 3}
	toks, err := lexFrom(src[:t.End-2], body, &nestGuard{})
	if err != nil {
		panic(bailout{err.(*Error)})
	}
	q := &parser{src: src, toks: toks}
	var hs []Hint
	for !q.atEnd() {
		h := Hint{Pos: q.peek().Pos}
		nt := q.peek()
		if nt.Kind != TokWord {
			q.fail("hint name such as OPTIONS", "")
		}
		q.next()
		h.Name = strings.ToUpper(nt.Text)
		if q.acceptOp("(") {
			for !q.peek().is(")") {
				if len(h.Options)+len(h.Args) > 0 {
					q.expectOp(",")
				}
				a := q.peek()
				if (a.Kind == TokString || a.Kind == TokDQString) && q.peekAt(1).is("=") {
					q.next()
					q.next()
					h.Options = append(h.Options, Option{Key: a.Value, Value: q.optionValue(), Pos: a.Pos})
					continue
				}
				if a.Kind == TokEOF {
					q.fail("')'", "")
				}
				q.next()
				h.Args = append(h.Args, identValue(a))
			}
			q.next()
		}
		hs = append(hs, h)
		q.acceptOp(",")
	}
	return hs
}

var sqlparserErr = regexp.MustCompile(`^(.*) at position (\d+)(?: near '(.*)')?$`)

// dml parses a query or write statement through sqlparser.
func (p *parser) dml(meta Meta) (st Statement) {
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(engineOnlyBail)
			if !ok {
				panic(r)
			}
			st = &Unsupported{Meta: meta, Feature: b.feature, Engine: true}
		}
	}()
	rw := &rewriter{p: p, meta: meta, action: ActionInsert}
	rw.rewrite()
	sql := rw.out.String()
	parsed, err := sqlparser.ParseStrictDDL(sql)
	if err != nil {
		if feature := engineOnly(p.toks); feature != "" {
			return &Unsupported{Meta: meta, Feature: feature, Engine: true}
		}
		panic(bailout{rw.mapError(err)})
	}
	c := &converter{rw: rw, meta: meta}
	switch s := parsed.(type) {
	case *sqlparser.Select, *sqlparser.Union, *sqlparser.ParenSelect:
		return c.selectStatement(s.(sqlparser.SelectStatement), meta)
	case *sqlparser.Insert:
		return c.insert(s, meta)
	case *sqlparser.Update:
		return c.update(s, meta)
	case *sqlparser.Delete:
		return c.delete(s, meta)
	}
	panic(bailout{&Error{Line: meta.Pos.Line, Column: meta.Pos.Column, Offset: meta.Pos.Offset, Near: firstWord(meta.Source),
		Msg: "internal error: statement was routed to the query parser but is not a query or write"}})
}

// engineOnly names the Flink query-engine construct in a query the MySQL
// parser could not read, or returns "": a table function in FROM (the
// TUMBLE, HOP, CUMULATE and SESSION windows, LATERAL TABLE, UNNEST) or a
// VALUES table.
func engineOnly(toks []Token) string {
	for i := 1; i+1 < len(toks); i++ {
		prev, t, next := toks[i-1], toks[i], toks[i+1]
		if !(prev.is("FROM") || prev.is("JOIN") || prev.is(",") || prev.is("LATERAL") || prev.is("(") && i > 1 && toks[i-2].is("FROM")) {
			continue
		}
		switch {
		case t.is("TABLE") && next.is("("):
			if fn := toks[min(i+2, len(toks)-1)]; fn.Kind == TokWord && toks[min(i+3, len(toks)-1)].is("(") {
				return "the table function " + strings.ToUpper(fn.Text) + "(...)"
			}
			return "a table function in FROM"
		case t.is("UNNEST") && next.is("("):
			return "UNNEST"
		case t.is("VALUES") && prev.is("("):
			return "a VALUES table in FROM"
		}
	}
	return ""
}

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}

// mapError translates a sqlparser error position into the original text.
func (rw *rewriter) mapError(err error) *Error {
	msg := err.Error()
	m := sqlparserErr.FindStringSubmatch(msg)
	last := rw.p.toks[len(rw.p.toks)-1]
	if m == nil {
		return errorAt(last, "", msg)
	}
	pos, _ := strconv.Atoi(m[2])
	q := pos - 1
	var tok Token
	found := false
	for _, s := range rw.segs {
		if s.outStart < q {
			tok = s.tok
			found = true
		}
	}
	e := errorAt(last, "", "")
	if found && (m[3] != "" || q < rw.out.Len()) {
		e = errorAt(tok, "", "")
	}
	what := m[1]
	if what == "syntax error" {
		what = ""
		if e.Near == "" {
			e.Msg = "unexpected end of statement"
		} else if tok.is("RETURNING") {
			// ORMs with Postgres habits send it; say why it cannot work.
			e.Msg = "RETURNING is not supported: a Fluss write returns no rows (the server assigns no values to the columns a write sends); read the row back by its key"
		} else if tok.Kind == TokDQString {
			// Postgres habits (bun's pgdialect, GORM's postgres driver).
			e.Msg = "unexpected string " + tok.Text + ": double quotes make strings in this dialect, as in MySQL; quote identifiers with backticks, as Flink SQL does"
		} else if tok.Kind == TokWord {
			e.Msg = "unexpected " + strings.ToUpper(tok.Text)
		} else {
			e.Msg = "unexpected token"
		}
	} else {
		e.Msg = what
	}
	return e
}

// converter turns sqlparser nodes into this package's AST.
type converter struct {
	rw   *rewriter
	meta Meta
	// selects counts converted SELECT nodes; the k-th one (in source
	// order) receives rw.selectHints[k].
	selects int
}

func (c *converter) fail(msg string) {
	m := c.meta
	panic(bailout{&Error{Line: m.Pos.Line, Column: m.Pos.Column, Offset: m.Pos.Offset, Near: firstWord(m.Source), Msg: msg}})
}

func (c *converter) selectStatement(s sqlparser.SelectStatement, meta Meta) SelectStatement {
	switch s := s.(type) {
	case *sqlparser.Select:
		if q, ok := c.query(s); ok {
			return q
		}
		return c.selectStmt(s, meta)
	case *sqlparser.Union:
		return &Union{Meta: meta, Type: strings.ToUpper(s.Type), Left: c.selectStatement(s.Left, meta), Right: c.selectStatement(s.Right, meta),
			OrderBy: c.orderBy(s.OrderBy), Limit: c.limit(s.Limit), Lock: strings.ToUpper(strings.TrimSpace(s.Lock))}
	case *sqlparser.ParenSelect:
		return c.selectStatement(s.Select, meta)
	}
	c.fail("internal error: unknown query node")
	return nil
}

func (c *converter) selectStmt(s *sqlparser.Select, meta Meta) *Select {
	out := &Select{Meta: meta, Distinct: strings.Contains(s.Distinct, "distinct"), Lock: strings.ToUpper(strings.TrimSpace(s.Lock))}
	if c.selects < len(c.rw.selectHints) {
		out.Hints = c.rw.selectHints[c.selects]
	}
	c.selects++
	for _, e := range s.SelectExprs {
		switch e := e.(type) {
		case *sqlparser.StarExpr:
			out.Exprs = append(out.Exprs, &StarExpr{Qualifier: tableNameText(e.TableName)})
		case *sqlparser.AliasedExpr:
			out.Exprs = append(out.Exprs, &AliasedExpr{Expr: c.expr(e.Expr), Alias: e.As.String()})
		default:
			out.Exprs = append(out.Exprs, &AliasedExpr{Expr: &RawExpr{Kind: "NEXT VALUE", Text: sqlparser.String(e)}})
		}
	}
	out.From = c.from(s.From)
	if len(out.From) == 1 {
		if t, ok := out.From[0].(*TableRef); ok && t.Name.Database == "" && t.Name.Name == "dual" && len(t.Hints) == 0 {
			out.From = nil
		}
	}
	if s.Where != nil {
		out.Where = c.expr(s.Where.Expr)
	}
	for _, g := range s.GroupBy {
		out.GroupBy = append(out.GroupBy, c.expr(g))
	}
	if s.Having != nil {
		out.Having = c.expr(s.Having.Expr)
	}
	out.OrderBy = c.orderBy(s.OrderBy)
	out.Limit = c.limit(s.Limit)
	return out
}

func tableNameText(n sqlparser.TableName) string {
	if n.Qualifier.IsEmpty() {
		return n.Name.String()
	}
	return n.Qualifier.String() + "." + n.Name.String()
}

func (c *converter) orderBy(o sqlparser.OrderBy) []OrderItem {
	var out []OrderItem
	for _, it := range o {
		e, nulls := nullsOrder(it.Expr)
		out = append(out, OrderItem{Expr: c.expr(e), Desc: it.Direction == sqlparser.DescScr, Nulls: nulls})
	}
	return out
}

func (c *converter) limit(l *sqlparser.Limit) *Limit {
	if l == nil {
		return nil
	}
	out := &Limit{Count: c.expr(l.Rowcount)}
	if l.Offset != nil {
		out.Offset = c.expr(l.Offset)
	}
	return out
}

// tableRef resolves a sqlparser table name against the pre-pass annotations.
func (c *converter) tableRef(n sqlparser.TableName) TableRef {
	q, name := n.Qualifier.String(), n.Name.String()
	for _, a := range c.rw.anns {
		if a.used {
			continue
		}
		parts := a.parts
		if len(parts) == 3 {
			parts = parts[1:]
		}
		aq := ""
		if len(parts) == 2 {
			aq = parts[0]
		}
		if parts[len(parts)-1] == name && aq == q {
			a.used = true
			return TableRef{Name: makeTableName(a.parts, a.pos), Hints: a.hints, ForSystemTime: a.fst}
		}
	}
	var parts []string
	if q != "" {
		parts = append(parts, q)
	}
	return TableRef{Name: makeTableName(append(parts, name), c.meta.Pos)}
}

func (c *converter) from(te sqlparser.TableExprs) []TableExpr {
	var out []TableExpr
	for _, t := range te {
		out = append(out, c.tableExpr(t))
	}
	return out
}

func (c *converter) tableExpr(t sqlparser.TableExpr) TableExpr {
	switch t := t.(type) {
	case *sqlparser.AliasedTableExpr:
		switch e := t.Expr.(type) {
		case sqlparser.TableName:
			r := c.tableRef(e)
			r.Alias = t.As.String()
			if t.Hints != nil {
				r.IndexHints = strings.TrimSpace(sqlparser.String(t.Hints))
			}
			return &r
		case *sqlparser.Subquery:
			return &SubqueryTable{Select: c.selectStatement(e.Select, c.meta), Alias: t.As.String()}
		}
	case *sqlparser.JoinTableExpr:
		j := &JoinExpr{Kind: strings.ToUpper(t.Join), Left: c.tableExpr(t.LeftExpr), Right: c.tableExpr(t.RightExpr)}
		if t.Condition.On != nil {
			j.On = c.expr(t.Condition.On)
		}
		for _, u := range t.Condition.Using {
			j.Using = append(j.Using, u.String())
		}
		return j
	case *sqlparser.ParenTableExpr:
		return &ParenTable{Exprs: c.from(t.Exprs)}
	}
	c.fail("internal error: unknown table expression")
	return nil
}

func (c *converter) insert(s *sqlparser.Insert, meta Meta) *Insert {
	out := &Insert{Meta: meta, Action: c.rw.action, Hints: c.rw.stmtHints, Overwrite: c.rw.overwrite, Ignore: s.Ignore != "", Partition: c.rw.partition}
	if s.Action == sqlparser.ReplaceStr {
		out.Action = ActionReplace
	}
	out.Table = c.tableRef(s.Table)
	for _, col := range s.Columns {
		out.Columns = append(out.Columns, col.String())
	}
	switch r := s.Rows.(type) {
	case sqlparser.Values:
		out.Rows = [][]Expr{}
		for _, row := range r {
			var vals []Expr
			for _, v := range row {
				vals = append(vals, c.expr(v))
			}
			out.Rows = append(out.Rows, vals)
		}
	case sqlparser.SelectStatement:
		out.Select = c.selectStatement(r, meta)
	}
	for _, u := range s.OnDup {
		out.OnDuplicate = append(out.OnDuplicate, Assignment{Column: colRef(u.Name), Value: c.expr(u.Expr)})
	}
	return out
}

func (c *converter) update(s *sqlparser.Update, meta Meta) *Update {
	out := &Update{Meta: meta, Hints: c.rw.stmtHints, Tables: c.from(s.TableExprs)}
	for _, u := range s.Exprs {
		out.Set = append(out.Set, Assignment{Column: colRef(u.Name), Value: c.expr(u.Expr)})
	}
	if s.Where != nil {
		out.Where = c.expr(s.Where.Expr)
	}
	out.OrderBy = c.orderBy(s.OrderBy)
	out.Limit = c.limit(s.Limit)
	return out
}

func (c *converter) delete(s *sqlparser.Delete, meta Meta) *Delete {
	out := &Delete{Meta: meta, Hints: c.rw.stmtHints}
	for _, t := range s.Targets {
		r := c.tableRef(t)
		out.Targets = append(out.Targets, r.Name)
	}
	out.Tables = c.from(s.TableExprs)
	if s.Where != nil {
		out.Where = c.expr(s.Where.Expr)
	}
	out.OrderBy = c.orderBy(s.OrderBy)
	out.Limit = c.limit(s.Limit)
	return out
}

func colRef(n *sqlparser.ColName) *ColumnRef {
	r := &ColumnRef{Name: n.Name.String()}
	if !n.Qualifier.Qualifier.IsEmpty() {
		r.Qualifier = append(r.Qualifier, n.Qualifier.Qualifier.String())
	}
	if !n.Qualifier.Name.IsEmpty() {
		r.Qualifier = append(r.Qualifier, n.Qualifier.Name.String())
	}
	return r
}

func (c *converter) exprs(list sqlparser.Exprs) []Expr {
	var out []Expr
	for _, e := range list {
		out = append(out, c.expr(e))
	}
	return out
}

func (c *converter) param(v []byte) *Param {
	name := strings.TrimPrefix(string(v), ":")
	if c.meta.Style == ColonName {
		for _, ph := range c.meta.Params {
			if ph.Name == name {
				return &Param{Index: ph.Index, Name: name}
			}
		}
		return &Param{Name: name}
	}
	if strings.HasPrefix(name, "v") {
		if n, err := strconv.Atoi(name[1:]); err == nil {
			return &Param{Index: n}
		}
	}
	return &Param{Name: name}
}

func (c *converter) expr(e sqlparser.Expr) Expr {
	switch e := e.(type) {
	case nil:
		return nil
	case *sqlparser.AndExpr:
		return &AndExpr{L: c.expr(e.Left), R: c.expr(e.Right)}
	case *sqlparser.OrExpr:
		return &OrExpr{L: c.expr(e.Left), R: c.expr(e.Right)}
	case *sqlparser.NotExpr:
		return &NotExpr{X: c.expr(e.Expr)}
	case *sqlparser.ParenExpr:
		return c.expr(e.Expr)
	case *sqlparser.ComparisonExpr:
		switch e.Operator {
		case sqlparser.InStr, sqlparser.NotInStr:
			in := &InExpr{X: c.expr(e.Left), Not: e.Operator == sqlparser.NotInStr}
			switch r := e.Right.(type) {
			case sqlparser.ValTuple:
				in.List = c.exprs(sqlparser.Exprs(r))
			case *sqlparser.Subquery:
				in.Subquery = c.selectStatement(r.Select, c.meta)
			default:
				in.List = []Expr{c.expr(r)}
			}
			return in
		case sqlparser.LikeStr, sqlparser.NotLikeStr, sqlparser.RegexpStr, sqlparser.NotRegexpStr:
			l := &LikeExpr{X: c.expr(e.Left), Pattern: c.expr(e.Right), Not: strings.HasPrefix(e.Operator, "not"), Regexp: strings.HasSuffix(e.Operator, "regexp")}
			if e.Escape != nil {
				l.Escape = c.expr(e.Escape)
			}
			return l
		case sqlparser.JSONExtractOp, sqlparser.JSONUnquoteExtractOp:
			return &RawExpr{Kind: "JSON " + e.Operator, Text: sqlparser.String(e)}
		}
		op := e.Operator
		if op == "!=" {
			op = "<>"
		}
		return &CompareExpr{Op: op, L: c.expr(e.Left), R: c.expr(e.Right)}
	case *sqlparser.RangeCond:
		return &BetweenExpr{X: c.expr(e.Left), Not: e.Operator == sqlparser.NotBetweenStr, From: c.expr(e.From), To: c.expr(e.To)}
	case *sqlparser.IsExpr:
		switch e.Operator {
		case sqlparser.IsNullStr, sqlparser.IsNotNullStr:
			return &IsNullExpr{X: c.expr(e.Expr), Not: e.Operator == sqlparser.IsNotNullStr}
		default:
			return &IsBoolExpr{X: c.expr(e.Expr), Not: strings.Contains(e.Operator, "not"), Value: strings.HasSuffix(e.Operator, "true")}
		}
	case *sqlparser.ExistsExpr:
		return &ExistsExpr{Select: c.selectStatement(e.Subquery.Select, c.meta)}
	case *sqlparser.SQLVal:
		switch e.Type {
		case sqlparser.StrVal:
			return &Literal{Kind: LitString, Text: string(e.Val)}
		case sqlparser.IntVal, sqlparser.FloatVal, sqlparser.HexNum:
			return numberLiteral(string(e.Val))
		case sqlparser.HexVal:
			b, _ := hex.DecodeString(string(e.Val))
			return &Literal{Kind: LitBytes, Text: "x'" + string(e.Val) + "'", Bytes: b}
		case sqlparser.ValArg:
			return c.param(e.Val)
		case sqlparser.BitVal:
			return &RawExpr{Kind: "BIT LITERAL", Text: sqlparser.String(e)}
		}
	case *sqlparser.NullVal:
		return &Literal{Kind: LitNull, Text: "NULL"}
	case sqlparser.BoolVal:
		if e {
			return &Literal{Kind: LitBool, Bool: true, Text: "TRUE"}
		}
		return &Literal{Kind: LitBool, Text: "FALSE"}
	case *sqlparser.ColName:
		if strings.HasPrefix(e.Name.String(), "@") && e.Qualifier.IsEmpty() {
			return &Variable{Name: e.Name.String()}
		}
		return colRef(e)
	case sqlparser.ValTuple:
		return &TupleExpr{Exprs: c.exprs(sqlparser.Exprs(e))}
	case *sqlparser.Subquery:
		return &SubqueryExpr{Select: c.selectStatement(e.Select, c.meta)}
	case sqlparser.ListArg:
		return &RawExpr{Kind: "LIST ARG", Text: string(e)}
	case *sqlparser.BinaryExpr:
		if e.Operator == sqlparser.BitXorStr { // Flink's ||, see rwScan.op
			return &FuncCall{Name: "CONCAT", Args: []Expr{c.expr(e.Left), c.expr(e.Right)}}
		}
		return &BinaryExpr{Op: strings.ToUpper(e.Operator), L: c.expr(e.Left), R: c.expr(e.Right)}
	case *sqlparser.UnaryExpr:
		x := c.expr(e.Expr)
		if l, ok := x.(*Literal); ok && (l.Kind == LitInt || l.Kind == LitDecimal || l.Kind == LitFloat) {
			if e.Operator == sqlparser.UMinusStr {
				return negate(l)
			}
			if e.Operator == sqlparser.UPlusStr {
				return l
			}
		}
		return &UnaryExpr{Op: strings.ToUpper(strings.TrimSpace(e.Operator)), X: x}
	case *sqlparser.IntervalExpr:
		return &IntervalExpr{Value: c.expr(e.Expr), Unit: strings.ToUpper(e.Unit)}
	case *sqlparser.FuncExpr:
		return c.funcExpr(e)
	case *sqlparser.CaseExpr:
		ce := &CaseExpr{Operand: c.expr(e.Expr), Else: c.expr(e.Else)}
		for _, w := range e.Whens {
			ce.Whens = append(ce.Whens, When{Cond: c.expr(w.Cond), Value: c.expr(w.Val)})
		}
		return ce
	case *sqlparser.ConvertExpr:
		tt := sqlparser.String(e.Type)
		ce := &CastExpr{X: c.expr(e.Expr), TypeText: tt}
		if dt, err := ParseType(tt); err == nil {
			ce.Type = dt
		}
		return ce
	case *sqlparser.Default:
		return &DefaultExpr{}
	}
	return &RawExpr{Kind: rawKind(e), Text: sqlparser.String(e)}
}

func rawKind(e sqlparser.Expr) string {
	switch e.(type) {
	case *sqlparser.GroupConcatExpr:
		return "GROUP_CONCAT"
	case *sqlparser.MatchExpr:
		return "MATCH"
	case *sqlparser.CollateExpr:
		return "COLLATE"
	case *sqlparser.ConvertUsingExpr:
		return "CONVERT USING"
	case *sqlparser.ValuesFuncExpr:
		return "VALUES()"
	}
	return "EXPR"
}

func (c *converter) funcExpr(e *sqlparser.FuncExpr) Expr {
	name := e.Name.String()
	if e.Qualifier.IsEmpty() && strings.EqualFold(name, markOver) {
		return c.over(e)
	}
	var args []Expr
	star := false
	for _, a := range e.Exprs {
		switch a := a.(type) {
		case *sqlparser.StarExpr:
			star = true
		case *sqlparser.AliasedExpr:
			args = append(args, c.expr(a.Expr))
		default:
			args = append(args, &RawExpr{Kind: "NEXT VALUE", Text: sqlparser.String(a)})
		}
	}
	if e.Qualifier.IsEmpty() {
		str := func() (string, bool) {
			if len(args) == 1 {
				if l, ok := args[0].(*Literal); ok && l.Kind == LitString {
					return l.Text, true
				}
			}
			return "", false
		}
		switch strings.ToLower(name) {
		case markDate, markTime, markTimestamp, markLTZ:
			s, _ := str()
			k := map[string]LiteralKind{markDate: LitDate, markTime: LitTime, markTimestamp: LitTimestamp, markLTZ: LitTimestampLTZ}[strings.ToLower(name)]
			return &Literal{Kind: k, Text: s}
		case markArray:
			return &ArrayExpr{Elems: args}
		case markMap:
			if len(args)%2 != 0 {
				c.fail("MAP[...] needs an even number of elements (key, value, ...)")
			}
			m := &MapExpr{}
			for i := 0; i+1 < len(args); i += 2 {
				m.Keys = append(m.Keys, args[i])
				m.Values = append(m.Values, args[i+1])
			}
			return m
		case markCast, markTryCast:
			if len(args) != 2 {
				c.fail("internal error: malformed CAST")
			}
			l, _ := args[1].(*Literal)
			ce := &CastExpr{X: args[0], Try: strings.ToLower(name) == markTryCast}
			if l != nil {
				ce.TypeText = l.Text
				dt, err := ParseType(l.Text)
				if err != nil {
					c.fail("invalid type in CAST: " + err.Error())
				}
				ce.Type = dt
			}
			return ce
		case "row":
			return &RowExpr{Fields: args}
		case "array":
			return &ArrayExpr{Elems: args}
		}
		if x, ok := c.flinkFunc(strings.ToLower(name), args); ok {
			return x
		}
	}
	return &FuncCall{Qualifier: e.Qualifier.String(), Name: name, Distinct: e.Distinct, Star: star, Args: args}
}
