package parser

import (
	"strconv"
	"strings"
)

// TypeKind is the root of a Fluss data type.
type TypeKind int

// Type kinds. They mirror Fluss's DataTypeRoot; TypeForeign covers types
// that are not Fluss types (VARCHAR(n), TEXT, DATETIME, INTERVAL, ...) so
// the planner can name the Fluss replacement.
const (
	TypeBoolean TypeKind = iota
	TypeTinyInt
	TypeSmallInt
	TypeInt
	TypeBigInt
	TypeFloat
	TypeDouble
	TypeChar
	TypeString
	TypeBinary
	TypeBytes
	TypeDecimal
	TypeDate
	TypeTime
	TypeTimestamp
	TypeTimestampLTZ
	TypeArray
	TypeMap
	TypeRow
	TypeForeign
)

var typeKindNames = [...]string{"BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "CHAR", "STRING", "BINARY", "BYTES", "DECIMAL", "DATE", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ", "ARRAY", "MAP", "ROW", "FOREIGN"}

// String returns the canonical Fluss keyword of the kind.
func (k TypeKind) String() string {
	if int(k) < len(typeKindNames) {
		return typeKindNames[k]
	}
	return "UNKNOWN"
}

// Default parameters applied when a type is written without them (the
// values used by Fluss's DataTypeParser).
const (
	DefaultCharLength         = 1
	DefaultBinaryLength       = 1
	DefaultDecimalPrecision   = 10
	DefaultDecimalScale       = 0
	DefaultTimePrecision      = 0
	DefaultTimestampPrecision = 6
	// MaxVarLength is the length Flink uses for VARCHAR/VARBINARY that mean
	// STRING/BYTES.
	MaxVarLength = 2147483647
)

// RowField is one field of a ROW type.
type RowField struct {
	Name string
	Type *DataType
	// Description is nil when the field has no description string.
	Description *string
}

// DataType is a parsed type. Parameters hold effective values: a type
// written without parameters gets the Fluss defaults (CHAR → length 1,
// DECIMAL → (10, 0), TIME → 0, TIMESTAMP/TIMESTAMP_LTZ → 6).
type DataType struct {
	Kind TypeKind
	// NotNull is true for NOT NULL; types are nullable by default.
	NotNull bool
	// Length is the length of CHAR and BINARY.
	Length int
	// Precision is the precision of DECIMAL, TIME, TIMESTAMP, TIMESTAMP_LTZ.
	Precision int
	// Scale is the scale of DECIMAL.
	Scale int
	// Elem is the element type of ARRAY.
	Elem *DataType
	// Key and Value are the MAP key and value types.
	Key, Value *DataType
	// Fields are the ROW fields.
	Fields []RowField
	// Spelling is the type keyword(s) as written, upper-cased, e.g.
	// "INTEGER", "NUMERIC", "DOUBLE PRECISION", "VARCHAR",
	// "TIMESTAMP WITH LOCAL TIME ZONE", "ARRAY" (also for the "t ARRAY"
	// suffix form).
	Spelling string
	// ForeignName and ForeignArgs describe a TypeForeign type: the
	// upper-cased name ("VARCHAR", "DATETIME", "TIMESTAMP WITH TIME ZONE")
	// and its parenthesized arguments as written.
	ForeignName string
	ForeignArgs []string
	// Raw is the exact source text of the type (including NOT NULL).
	Raw string
}

// String renders the type in canonical Fluss syntax, e.g. DECIMAL(10, 2),
// TIMESTAMP_LTZ(3), ARRAY<INT NOT NULL>, MAP<STRING, ROW<a INT 'desc'>>.
// Foreign types render as their raw text.
func (t *DataType) String() string {
	if t == nil {
		return ""
	}
	var s string
	switch t.Kind {
	case TypeChar, TypeBinary:
		s = t.Kind.String() + "(" + strconv.Itoa(t.Length) + ")"
	case TypeDecimal:
		s = "DECIMAL(" + strconv.Itoa(t.Precision) + ", " + strconv.Itoa(t.Scale) + ")"
	case TypeTime, TypeTimestamp, TypeTimestampLTZ:
		s = t.Kind.String() + "(" + strconv.Itoa(t.Precision) + ")"
	case TypeArray:
		s = "ARRAY<" + t.Elem.String() + ">"
	case TypeMap:
		s = "MAP<" + t.Key.String() + ", " + t.Value.String() + ">"
	case TypeRow:
		var b strings.Builder
		b.WriteString("ROW<")
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(QuoteIdent(f.Name))
			b.WriteByte(' ')
			b.WriteString(f.Type.String())
			if f.Description != nil {
				b.WriteString(" " + QuoteString(*f.Description))
			}
		}
		b.WriteString(">")
		s = b.String()
	case TypeForeign:
		return t.Raw
	default:
		s = t.Kind.String()
	}
	if t.NotNull {
		s += " NOT NULL"
	}
	return s
}

// Suggestion returns the Fluss type to use instead of a foreign type
// ("STRING" for VARCHAR(n) or TEXT, "TIMESTAMP(3)" for DATETIME(3), ...),
// or "" when there is no obvious replacement or t is a Fluss type.
func (t *DataType) Suggestion() string {
	if t == nil || t.Kind != TypeForeign {
		return ""
	}
	arg := func(def string) string {
		if len(t.ForeignArgs) > 0 {
			return t.ForeignArgs[0]
		}
		return def
	}
	switch t.ForeignName {
	case "VARCHAR", "CHARACTER VARYING", "NVARCHAR", "NCHAR", "TEXT", "TINYTEXT", "MEDIUMTEXT", "LONGTEXT", "JSON", "ENUM", "SET", "UUID", "CLOB":
		return "STRING"
	case "VARBINARY", "BLOB", "TINYBLOB", "MEDIUMBLOB", "LONGBLOB", "BYTEA":
		return "BYTES"
	case "DATETIME":
		return "TIMESTAMP(" + arg("0") + ")"
	case "TIMESTAMP WITH TIME ZONE":
		return "TIMESTAMP_LTZ"
	case "BOOL":
		return "BOOLEAN"
	case "REAL":
		return "DOUBLE"
	case "MEDIUMINT", "INT", "INTEGER":
		return "INT"
	case "TINYINT", "SMALLINT", "BIGINT", "FLOAT", "DOUBLE":
		return t.ForeignName
	case "NUMBER":
		return "DECIMAL"
	}
	return ""
}

// QuoteIdent returns name unchanged when it is a plain identifier
// ([A-Za-z_][A-Za-z0-9_]*) and backtick-quoted otherwise.
func QuoteIdent(name string) string {
	plain := name != ""
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(isNameStartByte(c) || i > 0 && isDigit(c)) {
			plain = false
			break
		}
	}
	if plain {
		return name
	}
	return quoteBacktick(name)
}

// QuoteString returns s as a single-quoted SQL string literal.
func QuoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// ParseType parses a Fluss/Flink type string such as
// "MAP<STRING, ARRAY<INT>> NOT NULL" or "ROW(a INT, b STRING 'desc')". It
// accepts the full grammar of Fluss's DataTypeParser plus the Flink DDL
// spellings VARCHAR and VARBINARY (meaning STRING and BYTES) and reports
// other non-Fluss types as TypeForeign.
func ParseType(s string) (t *DataType, err error) {
	toks, err := lexGuarded(s)
	if err != nil {
		return nil, err
	}
	p := &parser{src: s, toks: toks}
	defer p.recoverError(&err)
	t = p.parseType()
	if p.peek().Kind != TokEOF {
		p.fail("end of type", "")
	}
	return t, nil
}

// typeStartWords are words that begin a Fluss/Flink type (used to tell a
// column definition from a MySQL index definition).
var typeStartWords = map[string]bool{
	"CHAR": true, "CHARACTER": true, "VARCHAR": true, "STRING": true, "BOOLEAN": true, "BOOL": true, "BINARY": true, "VARBINARY": true, "BYTES": true,
	"DECIMAL": true, "NUMERIC": true, "DEC": true, "TINYINT": true, "SMALLINT": true, "INT": true, "INTEGER": true, "BIGINT": true,
	"FLOAT": true, "DOUBLE": true, "DATE": true, "TIME": true, "TIMESTAMP": true, "TIMESTAMP_LTZ": true, "ARRAY": true, "MAP": true, "ROW": true,
	"TEXT": true, "DATETIME": true, "MULTISET": true, "INTERVAL": true, "RAW": true, "JSON": true, "BLOB": true, "REAL": true,
}

var intervalWords = map[string]bool{"YEAR": true, "MONTH": true, "DAY": true, "HOUR": true, "MINUTE": true, "SECOND": true, "TO": true}

// parseType parses a type with nullability and the ARRAY suffix notation.
func (p *parser) parseType() *DataType {
	p.enter()
	defer p.leave()
	start := p.peek()
	t := p.parseTypeByKeyword()
	p.parseNullability(t)
	for p.peek().is("ARRAY") {
		p.next()
		t.Raw = p.textFrom(start)
		t = &DataType{Kind: TypeArray, Elem: t, Spelling: "ARRAY"}
		p.parseNullability(t)
	}
	t.Raw = p.textFrom(start)
	return t
}

func (p *parser) parseNullability(t *DataType) {
	if p.peek().is("NOT") && p.peekAt(1).is("NULL") {
		p.next()
		p.next()
		t.NotNull = true
	} else if p.peek().is("NULL") {
		p.next()
	}
}

// optInt parses an optional "(n)" and returns n or def.
func (p *parser) optInt(def int) int {
	if !p.peek().is("(") {
		return def
	}
	p.next()
	n := p.intLiteral()
	p.expectOp(")")
	return n
}

func (p *parser) intLiteral() int {
	t := p.peek()
	if t.Kind != TokNumber {
		p.fail("integer", "")
	}
	n, err := strconv.Atoi(t.Text)
	if err != nil || n < 0 {
		p.fail("integer", "invalid integer value")
	}
	p.next()
	return n
}

// plainKeywords are the type keywords that take no parameters or children
// and need no look-ahead.
var plainKeywords = map[string]TypeKind{
	"STRING":   TypeString,
	"BOOLEAN":  TypeBoolean,
	"BYTES":    TypeBytes,
	"TINYINT":  TypeTinyInt,
	"SMALLINT": TypeSmallInt,
	"INT":      TypeInt,
	"INTEGER":  TypeInt,
	"BIGINT":   TypeBigInt,
	"FLOAT":    TypeFloat,
	"DATE":     TypeDate,
}

func (p *parser) parseTypeByKeyword() *DataType {
	t := p.peek()
	if t.Kind != TokWord {
		p.fail("data type", "")
	}
	kw := strings.ToUpper(t.Text)
	p.next()
	dt := &DataType{Spelling: kw}
	switch kw {
	case "TINYINT", "SMALLINT", "INT", "INTEGER", "BIGINT", "FLOAT", "DOUBLE":
		if p.peek().is("(") {
			// MySQL display width / precision, e.g. INT(11), DOUBLE(10, 2).
			return p.foreign(dt, kw)
		}
	}
	switch kw {
	case "DOUBLE":
		dt.Kind = TypeDouble
		if p.peek().is("PRECISION") {
			p.next()
			dt.Spelling = "DOUBLE PRECISION"
		}
	case "CHAR", "CHARACTER":
		if p.peek().is("VARYING") {
			p.next()
			return p.foreign(dt, "CHARACTER VARYING")
		}
		dt.Kind = TypeChar
		dt.Length = p.optInt(DefaultCharLength)
	case "BINARY":
		dt.Kind = TypeBinary
		dt.Length = p.optInt(DefaultBinaryLength)
	case "VARCHAR", "VARBINARY":
		// Flink DDL: bare VARCHAR/VARBINARY (or the maximum length) mean
		// STRING/BYTES. Any other length is not a Fluss type.
		if p.peek().is("(") && !(p.peekAt(1).Text == strconv.Itoa(MaxVarLength) && p.peekAt(2).is(")")) {
			return p.foreign(dt, kw)
		}
		p.optInt(MaxVarLength)
		dt.Kind = TypeString
		if kw == "VARBINARY" {
			dt.Kind = TypeBytes
		}
	case "DECIMAL", "NUMERIC", "DEC":
		dt.Kind = TypeDecimal
		dt.Precision, dt.Scale = DefaultDecimalPrecision, DefaultDecimalScale
		if p.peek().is("(") {
			p.next()
			dt.Precision = p.intLiteral()
			if p.peek().is(",") {
				p.next()
				dt.Scale = p.intLiteral()
			}
			p.expectOp(")")
		}
	case "TIME":
		dt.Kind = TypeTime
		dt.Precision = p.optInt(DefaultTimePrecision)
		if p.peek().is("WITHOUT") {
			p.next()
			p.expectWord("TIME")
			p.expectWord("ZONE")
			dt.Spelling = "TIME WITHOUT TIME ZONE"
		}
	case "TIMESTAMP":
		dt.Kind = TypeTimestamp
		dt.Precision = p.optInt(DefaultTimestampPrecision)
		switch {
		case p.peek().is("WITHOUT"):
			p.next()
			p.expectWord("TIME")
			p.expectWord("ZONE")
			dt.Spelling = "TIMESTAMP WITHOUT TIME ZONE"
		case p.peek().is("WITH") && p.peekAt(1).is("LOCAL"):
			p.next()
			p.next()
			p.expectWord("TIME")
			p.expectWord("ZONE")
			dt.Kind = TypeTimestampLTZ
			dt.Spelling = "TIMESTAMP WITH LOCAL TIME ZONE"
		case p.peek().is("WITH") && p.peekAt(1).is("TIME"):
			p.next()
			p.next()
			p.expectWord("ZONE")
			dt.Kind = TypeForeign
			dt.ForeignName = "TIMESTAMP WITH TIME ZONE"
			if dt.Precision != DefaultTimestampPrecision {
				dt.ForeignArgs = []string{strconv.Itoa(dt.Precision)}
			}
			dt.Precision = 0
		}
	case "TIMESTAMP_LTZ":
		dt.Kind = TypeTimestampLTZ
		dt.Precision = p.optInt(DefaultTimestampPrecision)
	case "ARRAY":
		dt.Kind = TypeArray
		p.expectOp("<")
		dt.Elem = p.parseType()
		p.expectOp(">")
	case "MAP":
		dt.Kind = TypeMap
		p.expectOp("<")
		dt.Key = p.parseType()
		p.expectOp(",")
		dt.Value = p.parseType()
		p.expectOp(">")
	case "ROW":
		dt.Kind = TypeRow
		end := ">"
		if p.peek().is("<>") {
			p.next()
			break
		}
		if p.peek().is("(") {
			end = ")"
			p.next()
		} else {
			p.expectOp("<")
		}
		for !p.peek().is(end) {
			if len(dt.Fields) > 0 {
				p.expectOp(",")
			}
			f := RowField{Name: p.ident("field name")}
			f.Type = p.parseType()
			if p.peek().Kind == TokString {
				d := p.next().Value
				f.Description = &d
			}
			dt.Fields = append(dt.Fields, f)
		}
		p.next()
	case "INTERVAL":
		for intervalWords[strings.ToUpper(p.peek().Text)] && p.peek().Kind == TokWord || p.peek().is("(") {
			if p.peek().is("(") {
				p.skipParenArgs()
				continue
			}
			p.next()
		}
		dt.Kind = TypeForeign
		dt.ForeignName = "INTERVAL"
	default:
		k, ok := plainKeywords[kw]
		if !ok {
			return p.foreign(dt, kw)
		}
		dt.Kind = k
	}
	return dt
}

// foreign parses the arguments of a non-Fluss type name.
func (p *parser) foreign(dt *DataType, name string) *DataType {
	dt.Kind = TypeForeign
	dt.ForeignName = name
	if p.peek().is("(") {
		dt.ForeignArgs = p.skipParenArgs()
	}
	if p.peek().is("<") {
		// MULTISET<T> and similar: parse the element types to stay in sync.
		p.next()
		for {
			dt.ForeignArgs = append(dt.ForeignArgs, p.parseType().Raw)
			if !p.peek().is(",") {
				break
			}
			p.next()
		}
		p.expectOp(">")
	}
	return dt
}

// skipParenArgs consumes "( arg, ... )" where each argument is a run of
// tokens without commas or parentheses, and returns the arguments' text.
func (p *parser) skipParenArgs() []string {
	p.expectOp("(")
	var args []string
	for !p.peek().is(")") {
		if len(args) > 0 {
			p.expectOp(",")
		}
		start := p.peek()
		for !p.peek().is(",") && !p.peek().is(")") {
			if p.peek().Kind == TokEOF || p.peek().is("(") {
				p.fail("')'", "")
			}
			p.next()
		}
		if p.peek() == start {
			p.fail("type argument", "")
		}
		args = append(args, p.textFrom(start))
	}
	p.next()
	return args
}
