package parser

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Pos is a position in the source text. Line and Column are 1-based;
// Column counts characters (runes), not bytes. Offset is the 0-based byte
// offset into the text that was handed to the parser (for ParseScript that
// is the whole script).
type Pos struct {
	Line   int
	Column int
	Offset int
}

// String renders the position as "line:column".
func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Column) }

// TokenKind classifies a lexical token.
type TokenKind int

// Token kinds produced by Lex.
const (
	// TokEOF marks the end of input. Lex always ends its result with one.
	TokEOF TokenKind = iota
	// TokWord is an unquoted word: a keyword or a bare identifier. It may
	// contain '$' after its first character (orders$changelog) and may start
	// with '@' or '@@' (MySQL variables). Text is the word as written.
	TokWord
	// TokQuotedIdent is a backtick-quoted identifier; Value holds the name
	// with `` unescaped to `.
	TokQuotedIdent
	// TokString is a single-quoted string literal; Value holds the content
	// with '' unescaped. Backslashes are literal characters (Flink SQL rules).
	TokString
	// TokDQString is a double-quoted literal "..."; Value holds the content
	// with "" unescaped. The dialect treats it as a string literal (as
	// MySQL and sqlparser do), never as an identifier.
	TokDQString
	// TokNumber is a numeric literal: 12, 1.5, .5, 1e3, 2.5E-3, 0x1F.
	TokNumber
	// TokHexString is a hex byte literal x'0A0B'; Value holds the hex digits.
	TokHexString
	// TokParam is a placeholder: ?, $n or :name.
	TokParam
	// TokHint is a Flink hint comment /*+ ... */; Value is the text between
	// "/*+" and "*/".
	TokHint
	// TokOp is an operator or punctuation token. '<' and '>' are always
	// separate tokens (never '<<' or '>>'), so nested type brackets work.
	TokOp
)

var tokenKindNames = [...]string{"end of input", "word", "quoted identifier", "string", "double-quoted string", "number", "hex string", "placeholder", "hint", "operator"}

// String returns a human-readable name for the kind.
func (k TokenKind) String() string {
	if int(k) < len(tokenKindNames) {
		return tokenKindNames[k]
	}
	return fmt.Sprintf("TokenKind(%d)", int(k))
}

// Token is one lexical token.
type Token struct {
	Kind TokenKind
	// Text is the exact source text of the token.
	Text string
	// Value is the decoded value for quoted identifiers, strings, hex
	// strings and hints; for other kinds it equals Text.
	Value string
	// Pos is where the token starts; End is the byte offset just past it.
	Pos Pos
	End int
}

// is reports whether t is the word w (case-insensitive) or the operator w.
func (t Token) is(w string) bool {
	switch t.Kind {
	case TokWord:
		return strings.EqualFold(t.Text, w)
	case TokOp:
		return t.Text == w
	}
	return false
}

type lexer struct {
	src    string
	off    int
	line   int
	col    int
	tokens []Token
}

// Lex splits src into tokens. Comments (-- to end of line, # to end of
// line, /* ... */ including MySQL /*! ... */) are skipped; Flink hints
// /*+ ... */ are returned as TokHint. The result always ends with a TokEOF
// token. An unterminated string, identifier or comment, or a character that
// cannot start a token, yields a *Error.
func Lex(src string) ([]Token, error) {
	return lexFrom(src, Pos{Line: 1, Column: 1}, nil)
}

// lexGuarded is Lex for text that will be parsed: it stops at the first
// token that nests deeper than maxDepth, so that a huge chain is refused
// without lexing the rest of it.
func lexGuarded(src string) ([]Token, error) {
	return lexFrom(src, Pos{Line: 1, Column: 1}, &nestGuard{})
}

func lexFrom(src string, start Pos, guard *nestGuard) ([]Token, error) {
	lx := &lexer{src: src, off: start.Offset, line: start.Line, col: start.Column}
	for {
		tok, err := lx.next()
		if err != nil {
			return nil, err
		}
		if guard != nil && !guard.feed(tok) {
			return nil, errorAt(tok, "", tooDeep)
		}
		lx.tokens = append(lx.tokens, tok)
		if tok.Kind == TokEOF {
			return lx.tokens, nil
		}
	}
}

func (lx *lexer) pos() Pos { return Pos{Line: lx.line, Column: lx.col, Offset: lx.off} }

func (lx *lexer) peekByte(k int) byte {
	if lx.off+k < len(lx.src) {
		return lx.src[lx.off+k]
	}
	return 0
}

// advance consumes one rune, maintaining line and column.
func (lx *lexer) advance() {
	if lx.off >= len(lx.src) {
		return
	}
	r, size := utf8.DecodeRuneInString(lx.src[lx.off:])
	if size <= 0 {
		size = 1
	}
	lx.off += size
	if r == '\n' {
		lx.line++
		lx.col = 1
	} else {
		lx.col++
	}
}

func (lx *lexer) errAt(p Pos, near, msg string) error {
	return &Error{Line: p.Line, Column: p.Column, Offset: p.Offset, Near: near, Msg: msg}
}

func isWordStart(r rune) bool {
	return r == '_' || r == '@' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= utf8.RuneSelf && unicode.IsLetter(r)
}

func isWordPart(r rune) bool {
	return r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
		r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

func isDigit(b byte) bool    { return b >= '0' && b <= '9' }
func isHexDigit(b byte) bool { return isDigit(b) || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F' }

func (lx *lexer) skipSpaceAndComments() error {
	for lx.off < len(lx.src) {
		c := lx.src[lx.off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			lx.advance()
		case c == '-' && lx.peekByte(1) == '-', c == '#':
			for lx.off < len(lx.src) && lx.src[lx.off] != '\n' {
				lx.advance()
			}
		case c == '/' && lx.peekByte(1) == '*' && lx.peekByte(2) != '+':
			p := lx.pos()
			lx.advance()
			lx.advance()
			for {
				if lx.off >= len(lx.src) {
					return lx.errAt(p, "/*", "unterminated comment")
				}
				if lx.src[lx.off] == '*' && lx.peekByte(1) == '/' {
					lx.advance()
					lx.advance()
					break
				}
				lx.advance()
			}
		default:
			r, _ := utf8.DecodeRuneInString(lx.src[lx.off:])
			if r != utf8.RuneError && unicode.IsSpace(r) {
				lx.advance()
				continue
			}
			return nil
		}
	}
	return nil
}

// quoted scans a quoted sequence starting at the opening delimiter; a
// doubled delimiter stands for one delimiter character.
func (lx *lexer) quoted(delim byte) (string, bool) {
	lx.advance() // opening delimiter
	var b strings.Builder
	for lx.off < len(lx.src) {
		c := lx.src[lx.off]
		if c == delim {
			if lx.peekByte(1) == delim {
				b.WriteByte(delim)
				lx.advance()
				lx.advance()
				continue
			}
			lx.advance()
			return b.String(), true
		}
		start := lx.off
		lx.advance()
		b.WriteString(lx.src[start:lx.off])
	}
	return b.String(), false
}

var twoCharOps = map[string]bool{
	"<=": true, ">=": true, "<>": true, "!=": true, "=>": true, "||": true, "&&": true, "::": true, "->": true,
}

func (lx *lexer) next() (Token, error) {
	if err := lx.skipSpaceAndComments(); err != nil {
		return Token{}, err
	}
	p := lx.pos()
	mk := func(kind TokenKind, value string) Token {
		text := lx.src[p.Offset:lx.off]
		if kind != TokQuotedIdent && kind != TokString && kind != TokDQString && kind != TokHexString && kind != TokHint {
			value = text
		}
		return Token{Kind: kind, Text: text, Value: value, Pos: p, End: lx.off}
	}
	if lx.off >= len(lx.src) {
		return Token{Kind: TokEOF, Pos: p, End: lx.off}, nil
	}
	c := lx.src[lx.off]
	r, _ := utf8.DecodeRuneInString(lx.src[lx.off:])
	switch {
	case c == '/' && lx.peekByte(1) == '*' && lx.peekByte(2) == '+':
		lx.advance()
		lx.advance()
		lx.advance()
		bodyStart := lx.off
		for {
			if lx.off >= len(lx.src) {
				return Token{}, lx.errAt(p, "/*+", "unterminated hint comment")
			}
			if lx.src[lx.off] == '*' && lx.peekByte(1) == '/' {
				body := lx.src[bodyStart:lx.off]
				lx.advance()
				lx.advance()
				return mk(TokHint, body), nil
			}
			lx.advance()
		}
	case (c == 'x' || c == 'X') && lx.peekByte(1) == '\'':
		lx.advance()
		v, ok := lx.quoted('\'')
		if !ok {
			return Token{}, lx.errAt(p, lx.src[p.Offset:min(p.Offset+10, len(lx.src))], "unterminated hex string literal")
		}
		for i := 0; i < len(v); i++ {
			if !isHexDigit(v[i]) {
				return Token{}, lx.errAt(p, lx.src[p.Offset:lx.off], "invalid hex string literal: only hex digits are allowed between the quotes")
			}
		}
		if len(v)%2 != 0 {
			return Token{}, lx.errAt(p, lx.src[p.Offset:lx.off], "invalid hex string literal: odd number of hex digits")
		}
		return mk(TokHexString, v), nil
	case isWordStart(r):
		if c == '@' {
			lx.advance()
			if lx.peekByte(0) == '@' {
				lx.advance()
			}
		} else {
			lx.advance()
		}
		for lx.off < len(lx.src) {
			r2, _ := utf8.DecodeRuneInString(lx.src[lx.off:])
			if !isWordPart(r2) {
				break
			}
			lx.advance()
		}
		return mk(TokWord, ""), nil
	case isDigit(c) || c == '.' && isDigit(lx.peekByte(1)) && !lx.prevIsName():
		if c == '0' && (lx.peekByte(1) == 'x' || lx.peekByte(1) == 'X') && isHexDigit(lx.peekByte(2)) {
			lx.advance()
			lx.advance()
			for isHexDigit(lx.peekByte(0)) {
				lx.advance()
			}
			return mk(TokNumber, ""), nil
		}
		for isDigit(lx.peekByte(0)) {
			lx.advance()
		}
		if lx.peekByte(0) == '.' {
			lx.advance()
			for isDigit(lx.peekByte(0)) {
				lx.advance()
			}
		}
		if e := lx.peekByte(0); e == 'e' || e == 'E' {
			k := 1
			if s := lx.peekByte(1); s == '+' || s == '-' {
				k = 2
			}
			if isDigit(lx.peekByte(k)) {
				for ; k > 0; k-- {
					lx.advance()
				}
				for isDigit(lx.peekByte(0)) {
					lx.advance()
				}
			}
		}
		return mk(TokNumber, ""), nil
	case c == '\'':
		v, ok := lx.quoted('\'')
		if !ok {
			return Token{}, lx.errAt(p, "'", "unterminated string literal")
		}
		return mk(TokString, v), nil
	case c == '"':
		v, ok := lx.quoted('"')
		if !ok {
			return Token{}, lx.errAt(p, "\"", "unterminated double-quoted string")
		}
		return mk(TokDQString, v), nil
	case c == '`':
		v, ok := lx.quoted('`')
		if !ok {
			return Token{}, lx.errAt(p, "`", "unterminated quoted identifier")
		}
		return mk(TokQuotedIdent, v), nil
	case c == '?':
		lx.advance()
		return mk(TokParam, ""), nil
	case c == '$' && isDigit(lx.peekByte(1)):
		lx.advance()
		for isDigit(lx.peekByte(0)) {
			lx.advance()
		}
		return mk(TokParam, ""), nil
	case c == ':' && lx.peekByte(1) != ':' && lx.off+1 < len(lx.src) && isNameStartByte(lx.src[lx.off+1]):
		lx.advance()
		for lx.off < len(lx.src) {
			b := lx.src[lx.off]
			if isNameStartByte(b) || isDigit(b) {
				lx.advance()
				continue
			}
			if b == '.' && lx.off+1 < len(lx.src) && isNameStartByte(lx.src[lx.off+1]) {
				lx.advance()
				continue
			}
			break
		}
		return mk(TokParam, ""), nil
	}
	if lx.off+1 < len(lx.src) && twoCharOps[lx.src[lx.off:lx.off+2]] {
		if lx.src[lx.off:lx.off+2] == "<=" && lx.peekByte(2) == '>' {
			lx.advance()
		}
		lx.advance()
		lx.advance()
		return mk(TokOp, ""), nil
	}
	if strings.IndexByte("(),;.=<>+-*/%[]{}!~&|^:", c) >= 0 {
		lx.advance()
		return mk(TokOp, ""), nil
	}
	lx.advance()
	return Token{}, lx.errAt(p, lx.src[p.Offset:lx.off], "unexpected character")
}

func isNameStartByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// prevIsName reports whether the previous token can be followed by a
// qualifying dot (so ".5" after it is a dot and a number, not ".5").
func (lx *lexer) prevIsName() bool {
	if len(lx.tokens) == 0 {
		return false
	}
	t := lx.tokens[len(lx.tokens)-1]
	if t.End != lx.off {
		return false
	}
	return t.Kind == TokWord || t.Kind == TokQuotedIdent || t.Kind == TokOp && (t.Text == ")" || t.Text == "]")
}
