package parser

import (
	"fmt"
	"strconv"
	"strings"
)

// Parse parses exactly one SQL statement. A single trailing ';' is allowed;
// several statements are an error (use ParseScript). Syntax errors are
// returned as *Error, and so is a statement that nests brackets, CASE or
// operator chains more than 1000 levels deep ("expression too deeply
// nested"), which is refused before anything walks it recursively.
func Parse(sql string) (Statement, error) {
	toks, spans, err := lexSpans(sql)
	if err != nil {
		return nil, err
	}
	switch len(spans) {
	case 0:
		return nil, errorAt(toks[len(toks)-1], "a statement", "the text contains no statement")
	case 1:
	default:
		return nil, errorAt(spans[1][0], "end of statement", "the text contains more than one statement; use ParseScript or split it first")
	}
	return parseSpan(sql, spans[0])
}

// ParseScript splits script on ';' (outside quotes and comments), drops
// empty statements and parses each one. Positions in the returned
// statements and in errors refer to the whole script.
func ParseScript(script string) ([]Statement, error) {
	_, spans, err := lexSpans(script)
	if err != nil {
		return nil, err
	}
	out := make([]Statement, 0, len(spans))
	for _, sp := range spans {
		st, err := parseSpan(script, sp)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, nil
}

// Piece is one statement of a script as found by Split.
type Piece struct {
	// Text is the statement text without the terminating ';'. It starts at
	// the statement's first token; comments before it are not included.
	Text string
	// Pos is where the statement's first token starts in the script.
	Pos Pos
}

// Split splits script into statements on ';' outside string literals,
// quoted identifiers and comments. Empty statements (only whitespace or
// comments) are dropped. Flink's EXECUTE STATEMENT SET BEGIN ...; END block
// is kept together as one piece.
func Split(script string) ([]Piece, error) {
	_, spans, err := lexSpans(script)
	if err != nil {
		return nil, err
	}
	out := make([]Piece, len(spans))
	for i, sp := range spans {
		out[i] = Piece{Text: spanText(script, sp), Pos: sp[0].Pos}
	}
	return out, nil
}

// span is the tokens of one statement followed by a TokEOF token.
type span []Token

func spanText(src string, sp span) string {
	if len(sp) < 2 {
		return ""
	}
	return src[sp[0].Pos.Offset:sp[len(sp)-2].End]
}

// lexSpans lexes src and cuts its tokens into statements.
func lexSpans(src string) ([]Token, []span, error) {
	toks, err := lexGuarded(src)
	if err != nil {
		return nil, nil, err
	}
	spans, err := splitTokens(toks)
	if err != nil {
		return nil, nil, err
	}
	return toks, spans, nil
}

// splitTokens cuts a token stream at ';' tokens.
func splitTokens(toks []Token) ([]span, error) {
	var spans []span
	start := 0
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if i == start && isStatementSetStart(toks[i:]) {
			// Find "END" directly after a ';', followed by ';' or EOF.
			j := i
			for ; j < len(toks); j++ {
				if toks[j].Kind == TokEOF {
					return nil, errorAt(toks[j], "END", "unterminated EXECUTE STATEMENT SET block")
				}
				if toks[j].is("END") && j > 0 && toks[j-1].is(";") && (toks[j+1].is(";") || toks[j+1].Kind == TokEOF) {
					break
				}
			}
			i = j
			continue
		}
		if t.Kind == TokEOF || t.is(";") {
			if i > start {
				sp := make(span, 0, i-start+1)
				sp = append(sp, toks[start:i]...)
				sp = append(sp, Token{Kind: TokEOF, Pos: t.Pos, End: t.Pos.Offset})
				spans = append(spans, sp)
			}
			start = i + 1
		}
		if t.Kind == TokEOF {
			break
		}
	}
	return spans, nil
}

func isStatementSetStart(toks []Token) bool {
	return len(toks) > 4 && toks[0].is("EXECUTE") && toks[1].is("STATEMENT") && toks[2].is("SET") && toks[3].is("BEGIN")
}

// parser is a recursive-descent parser over the tokens of one statement.
// Errors are raised with fail (a panic carrying *Error) and turned back
// into an error by recoverError at the API boundary.
type parser struct {
	src  string
	toks []Token
	i    int
	// params maps placeholder offsets to their numbering (built lazily).
	params map[int]Placeholder
	// depth guards recursion in types and expressions.
	depth int
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.fail("", tooDeep)
	}
}

func (p *parser) leave() { p.depth-- }

type bailout struct{ err *Error }

func (p *parser) recoverError(err *error) {
	if r := recover(); r != nil {
		b, ok := r.(bailout)
		if !ok {
			panic(r)
		}
		*err = b.err
	}
}

func (p *parser) peek() Token { return p.peekAt(0) }

func (p *parser) peekAt(k int) Token {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) next() Token {
	t := p.peek()
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}

func (p *parser) fail(expected, msg string) {
	panic(bailout{errorAt(p.peek(), expected, msg)})
}

func (p *parser) failAt(t Token, expected, msg string) {
	panic(bailout{errorAt(t, expected, msg)})
}

func (p *parser) expectOp(op string) Token {
	if !p.peek().is(op) || p.peek().Kind != TokOp {
		p.fail(fmt.Sprintf("%q", op), "")
	}
	return p.next()
}

func (p *parser) expectWord(w string) Token {
	if p.peek().Kind != TokWord || !p.peek().is(w) {
		p.fail(w, "")
	}
	return p.next()
}

// acceptWords consumes the word sequence if all words are next.
func (p *parser) acceptWords(ws ...string) bool {
	for k, w := range ws {
		t := p.peekAt(k)
		if t.Kind != TokWord || !t.is(w) {
			return false
		}
	}
	for range ws {
		p.next()
	}
	return true
}

func (p *parser) acceptOp(op string) bool {
	if p.peek().Kind == TokOp && p.peek().Text == op {
		p.next()
		return true
	}
	return false
}

func (p *parser) atEnd() bool { return p.peek().Kind == TokEOF }

func (p *parser) expectEnd() {
	if !p.atEnd() {
		p.fail("end of statement", "")
	}
}

// textFrom returns the source text from token start up to the last
// consumed token.
func (p *parser) textFrom(start Token) string {
	if p.i == 0 {
		return ""
	}
	end := p.toks[p.i-1].End
	if end < start.Pos.Offset {
		return ""
	}
	return p.src[start.Pos.Offset:end]
}

// ident parses an identifier: a bare word or a backtick-quoted name.
func (p *parser) ident(what string) string {
	t := p.peek()
	switch t.Kind {
	case TokWord:
		if strings.HasPrefix(t.Text, "@") {
			p.fail(what, "")
		}
		p.next()
		return t.Text
	case TokQuotedIdent:
		p.next()
		return t.Value
	case TokDQString:
		p.fail(what, "double-quoted text is a string literal in this dialect; quote identifiers with backticks (`name`)")
	}
	p.fail(what, "")
	return ""
}

func (p *parser) isIdent() bool {
	t := p.peek()
	return t.Kind == TokWord && !strings.HasPrefix(t.Text, "@") || t.Kind == TokQuotedIdent
}

// nameParts parses ident(.ident)*.
func (p *parser) nameParts(what string) []string {
	parts := []string{p.ident(what)}
	for p.peek().is(".") && p.peek().Kind == TokOp {
		p.next()
		parts = append(parts, p.ident(what))
	}
	return parts
}

// tableName parses [[catalog.]db.]name and splits a "$suffix".
func (p *parser) tableName() TableName {
	start := p.peek()
	parts := p.nameParts("table name")
	if len(parts) > 3 {
		p.failAt(start, "table name", "a table name has at most three parts: catalog.database.table")
	}
	return makeTableName(parts, start.Pos)
}

func makeTableName(parts []string, pos Pos) TableName {
	n := TableName{Pos: pos}
	switch len(parts) {
	case 3:
		n.Catalog, n.Database, n.Name = parts[0], parts[1], parts[2]
	case 2:
		n.Database, n.Name = parts[0], parts[1]
	default:
		n.Name = parts[len(parts)-1]
	}
	if i := strings.IndexByte(n.Name, '$'); i > 0 {
		n.VirtualSuffix = n.Name[i+1:]
		n.Name = n.Name[:i]
		low := strings.ToLower(n.VirtualSuffix)
		switch {
		case low == "changelog":
			n.Virtual = VirtualChangelog
		case low == "binlog":
			n.Virtual = VirtualBinlog
		case low == "lake" || strings.HasPrefix(low, "lake$"):
			n.Virtual = VirtualLake
		default:
			n.Virtual = VirtualUnknown
		}
	}
	return n
}

func (p *parser) databaseName() DatabaseName {
	start := p.peek()
	parts := p.nameParts("database name")
	switch len(parts) {
	case 1:
		return DatabaseName{Name: parts[0], Pos: start.Pos}
	case 2:
		return DatabaseName{Catalog: parts[0], Name: parts[1], Pos: start.Pos}
	}
	p.failAt(start, "database name", "a database name has at most two parts: catalog.database")
	return DatabaseName{}
}

// stringLit parses a string literal ('...' or "...").
func (p *parser) stringLit(what string) string {
	t := p.peek()
	if t.Kind != TokString && t.Kind != TokDQString {
		p.fail(what, "")
	}
	p.next()
	return t.Value
}

// optionKey parses an option key: a string literal or a dotted identifier.
func (p *parser) optionKey() string {
	t := p.peek()
	if t.Kind == TokString || t.Kind == TokDQString {
		p.next()
		return t.Value
	}
	if p.isIdent() {
		start := p.peek()
		p.next()
		for (p.peek().is(".") || p.peek().is("-")) && p.peek().Kind == TokOp && p.peek().Pos.Offset == p.toks[p.i-1].End {
			p.next()
			if p.peek().Kind != TokWord && p.peek().Kind != TokNumber {
				p.fail("option key", "")
			}
			p.next()
		}
		return p.textFrom(start)
	}
	p.fail("option key (a string literal such as 'bucket.num')", "")
	return ""
}

// optionValue parses a string, number, boolean or bare word value.
func (p *parser) optionValue() string {
	t := p.peek()
	switch t.Kind {
	case TokString, TokDQString:
		p.next()
		return t.Value
	case TokNumber, TokWord:
		p.next()
		return t.Text
	case TokOp:
		if t.Text == "-" && p.peekAt(1).Kind == TokNumber {
			p.next()
			return "-" + p.next().Text
		}
	}
	p.fail("option value (a string literal)", "")
	return ""
}

// optionList parses ( key = value [, ...] ).
func (p *parser) optionList() []Option {
	p.expectOp("(")
	var opts []Option
	for {
		pos := p.peek().Pos
		k := p.optionKey()
		p.expectOp("=")
		v := p.optionValue()
		opts = append(opts, Option{Key: k, Value: v, Pos: pos})
		if p.acceptOp(",") {
			continue
		}
		p.expectOp(")")
		return opts
	}
}

// keyList parses ( 'k' [, ...] ).
func (p *parser) keyList() []string {
	p.expectOp("(")
	var keys []string
	for {
		keys = append(keys, p.optionKey())
		if p.acceptOp(",") {
			continue
		}
		p.expectOp(")")
		return keys
	}
}

// identList parses ( a [, ...] ).
func (p *parser) identList(what string) []string {
	p.expectOp("(")
	var out []string
	for {
		out = append(out, p.ident(what))
		if p.acceptOp(",") {
			continue
		}
		p.expectOp(")")
		return out
	}
}

// placeholders validates and numbers the placeholders of a statement.
func placeholders(toks []Token) (PlaceholderStyle, []Placeholder, error) {
	style := NoPlaceholders
	var out []Placeholder
	names := map[string]int{}
	q := 0
	for _, t := range toks {
		if t.Kind != TokParam {
			continue
		}
		ph := Placeholder{Pos: t.Pos}
		switch t.Text[0] {
		case '?':
			ph.Style = QuestionMark
			q++
			ph.Index = q
		case '$':
			ph.Style = DollarNumber
			n, err := strconv.Atoi(t.Text[1:])
			if err != nil || n < 1 || n > 65535 {
				return 0, nil, errorAt(t, "", "placeholder numbers must be between $1 and $65535")
			}
			ph.Index = n
		default:
			ph.Style = ColonName
			ph.Name = t.Text[1:]
			if _, ok := names[ph.Name]; !ok {
				names[ph.Name] = len(names) + 1
			}
			ph.Index = names[ph.Name]
		}
		if style != NoPlaceholders && style != ph.Style {
			return 0, nil, errorAt(t, "", "a statement cannot mix placeholder styles (?, $n and :name)")
		}
		style = ph.Style
		out = append(out, ph)
	}
	return style, out, nil
}

// parseSpan parses one statement's tokens.
func parseSpan(src string, sp span) (st Statement, err error) {
	meta, err := spanMeta(src, sp)
	if err != nil {
		return nil, err
	}
	p := &parser{src: src, toks: sp}
	defer p.recoverError(&err)
	st = p.statement(meta)
	return st, nil
}

// statement routes on the leading keyword.
func (p *parser) statement(meta Meta) Statement {
	t := p.peek()
	if t.Kind == TokOp && t.Text == "(" {
		return p.dml(meta)
	}
	if t.Kind != TokWord {
		p.fail("a statement keyword (SELECT, INSERT, CREATE, ...)", "")
	}
	switch strings.ToUpper(t.Text) {
	case "SELECT", "INSERT", "REPLACE", "UPDATE", "DELETE", "UPSERT", "WITH":
		return p.dml(meta)
	case "CREATE":
		return p.create(meta)
	case "DROP":
		return p.drop(meta)
	case "ALTER":
		return p.alter(meta)
	case "SHOW":
		return p.show(meta)
	case "DESCRIBE", "DESC":
		return p.describe(meta)
	case "EXPLAIN":
		return p.explain(meta)
	case "USE":
		return p.use(meta)
	case "SET":
		return p.set(meta)
	case "RESET":
		return p.reset(meta)
	case "CALL":
		return p.call(meta)
	case "FLUSH":
		return p.flush(meta)
	case "BEGIN", "START", "COMMIT", "ROLLBACK":
		return p.transaction(meta)
	case "EXECUTE":
		return p.execute(meta)
	case "VALUES":
		return unsupported(meta, "VALUES", "a standalone VALUES query is not supported; use SELECT or INSERT ... VALUES")
	case "TRUNCATE":
		return unsupported(meta, "TRUNCATE", "TRUNCATE is not supported by Fluss (drop and recreate the table, drop partitions, or DELETE by key)")
	case "RENAME":
		return unsupported(meta, "RENAME TABLE", "renaming tables is not supported by Fluss")
	case "END":
		return unsupported(meta, "END", "END without EXECUTE STATEMENT SET BEGIN")
	case "LOAD", "UNLOAD", "ADD", "REMOVE", "ANALYZE", "GRANT", "REVOKE", "LOCK", "UNLOCK", "KILL", "OPTIMIZE", "HELP", "QUIT", "EXIT", "CLEAR", "STOP", "MERGE", "COMPILE", "OPTIMIZE_TABLE", "REFRESH", "CACHE", "UNCACHE", "MSCK":
		w := strings.ToUpper(t.Text)
		if w == "ADD" && p.peekAt(1).is("JAR") {
			w = "ADD JAR"
		}
		return unsupported(meta, w, w+" is not supported by the fluss driver")
	}
	p.fail("a statement keyword (SELECT, INSERT, CREATE, ...)", "")
	return nil
}

func unsupported(meta Meta, feature, msg string) *Unsupported {
	return &Unsupported{Meta: meta, Feature: feature, Msg: msg}
}

// subMeta builds the Meta of a nested statement that starts at token i.
func (p *parser) subMeta(outer Meta) (Meta, span) {
	sub := span(p.toks[p.i:])
	meta, _ := spanMeta(p.src, sub)
	return meta, sub
}

// spanMeta is the Meta of the statement made of the tokens sp; the error is
// that of its placeholders.
func spanMeta(src string, sp span) (Meta, error) {
	style, params, err := placeholders(sp)
	return Meta{Source: spanText(src, sp), Pos: sp[0].Pos, Style: style, Params: params}, err
}

// nested parses the rest of the tokens as a complete statement.
func (p *parser) nested(outer Meta) Statement {
	if p.atEnd() {
		p.fail("a statement", "")
	}
	meta, sub := p.subMeta(outer)
	q := &parser{src: p.src, toks: sub}
	st := q.statement(meta)
	p.i = len(p.toks) - 1
	return st
}

func (p *parser) execute(meta Meta) Statement {
	if !isStatementSetStart(p.toks) {
		return unsupported(meta, "EXECUTE", "EXECUTE is only supported as EXECUTE STATEMENT SET BEGIN ... END")
	}
	for i := 0; i < 4; i++ {
		p.next()
	}
	set := &StatementSet{Meta: meta}
	// Inner statements end at ';'; the block ends with END.
	for {
		if p.acceptOp(";") {
			continue
		}
		if p.peek().is("END") && (p.peekAt(1).Kind == TokEOF) {
			p.next()
			return set
		}
		if p.atEnd() {
			p.fail("END", "")
		}
		start := p.i
		for !p.peek().is(";") && !p.atEnd() {
			p.next()
		}
		sub := make(span, 0, p.i-start+1)
		sub = append(sub, p.toks[start:p.i]...)
		sub = append(sub, Token{Kind: TokEOF, Pos: p.peek().Pos, End: p.peek().Pos.Offset})
		style, params, err := placeholders(sub)
		if err != nil {
			panic(bailout{err.(*Error)})
		}
		q := &parser{src: p.src, toks: sub}
		st := q.statement(Meta{Source: spanText(p.src, sub), Pos: sub[0].Pos, Style: style, Params: params})
		set.Statements = append(set.Statements, st)
	}
}
