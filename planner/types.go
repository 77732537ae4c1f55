package planner

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
	"github.com/gofluss/fluss/parser"
	"github.com/gofluss/fluss/typeconv"
)

// fromParserType converts a parsed type to a Fluss type with FromParser.
// With lenient, foreign types that have an obvious
// Fluss replacement (VARCHAR(n) → STRING, DATETIME → TIMESTAMP, ...) are
// converted and a notice is returned.
func fromParserType(t *parser.DataType, lenient bool) (schema.DataType, []string, error) {
	out, err := FromParser(t, lenient)
	if err != nil {
		return out, nil, errors.New(strings.TrimPrefix(err.Error(), "fluss: "))
	}
	var notices []string
	if hasForeign(t) {
		raw := strings.TrimSpace(t.Raw)
		if raw == "" {
			raw = t.String()
		}
		notices = append(notices, fmt.Sprintf("type %s mapped to %s", raw, out))
	}
	return out, notices, nil
}

func hasForeign(t *parser.DataType) bool {
	if t == nil {
		return false
	}
	if t.Kind == parser.TypeForeign {
		return true
	}
	if hasForeign(t.Elem) || hasForeign(t.Key) || hasForeign(t.Value) {
		return true
	}
	for _, f := range t.Fields {
		if hasForeign(f.Type) {
			return true
		}
	}
	return false
}

func isComplex(t schema.DataType) bool {
	return t.Root == schema.RootArray || t.Root == schema.RootMap || t.Root == schema.RootRow
}

// ---------------------------------------------------------------------------
// Literal conversion

// convertLiteral converts a constant expression to a Go value of type t
// (see Value for the representations). It stands in for typeconv's
// literal conversion.
func convertLiteral(e parser.Expr, t schema.DataType, loc *time.Location) (any, error) {
	if l, ok := signedLiteral(e); ok {
		return convertLit(l, t, loc)
	}
	switch x := e.(type) {
	case *parser.CastExpr:
		if x.Type != nil {
			return convertCast(x, t, loc)
		}
	case *parser.ArrayExpr:
		if t.Root != schema.RootArray || t.Elem == nil {
			return nil, fmt.Errorf("an ARRAY value does not fit type %s", t)
		}
		out := make([]any, len(x.Elems))
		for i, el := range x.Elems {
			v, err := convertLiteral(el, *t.Elem, loc)
			if err != nil {
				return nil, err
			}
			if v == nil && !t.Elem.Nullable {
				return nil, fmt.Errorf("ARRAY element %d is NULL but the element type is NOT NULL", i+1)
			}
			out[i] = v
		}
		return out, nil
	case *parser.MapExpr:
		if t.Root != schema.RootMap || t.Key == nil || t.Value == nil {
			return nil, fmt.Errorf("a MAP value does not fit type %s", t)
		}
		m := codec.Map{Keys: make([]any, len(x.Keys)), Values: make([]any, len(x.Values))}
		for i := range x.Keys {
			k, err := convertLiteral(x.Keys[i], *t.Key, loc)
			if err != nil {
				return nil, err
			}
			if k == nil {
				return nil, fmt.Errorf("MAP keys must not be NULL")
			}
			v, err := convertLiteral(x.Values[i], *t.Value, loc)
			if err != nil {
				return nil, err
			}
			m.Keys[i], m.Values[i] = k, v
		}
		return m, nil
	case *parser.RowExpr:
		return convertRow(x.Fields, t, loc)
	case *parser.TupleExpr:
		if t.Root == schema.RootRow {
			return convertRow(x.Exprs, t, loc)
		}
	case *parser.FuncCall:
		switch strings.ToLower(x.Name) {
		case "row":
			return convertRow(x.Args, t, loc)
		case "array":
			return convertLiteral(&parser.ArrayExpr{Elems: x.Args}, t, loc)
		}
	}
	return nil, fmt.Errorf("%s is not a constant", exprText(e))
}

func convertRow(fields []parser.Expr, t schema.DataType, loc *time.Location) (any, error) {
	if t.Root != schema.RootRow {
		return nil, fmt.Errorf("a ROW value does not fit type %s", t)
	}
	if len(fields) != len(t.Fields) {
		return nil, fmt.Errorf("ROW value has %s, type %s has %d", plural.Count(len(fields), "field"), t, len(t.Fields))
	}
	out := make([]any, len(fields))
	for i, f := range fields {
		v, err := convertLiteral(f, t.Fields[i].Type, loc)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// isNumberLit reports whether k is a kind of numeric literal.
func isNumberLit(k parser.LiteralKind) bool {
	return k == parser.LitInt || k == parser.LitDecimal || k == parser.LitFloat
}

// signedLiteral returns e as one literal: e itself, or a number with its
// sign folded into the text.
func signedLiteral(e parser.Expr) (*parser.Literal, bool) {
	switch x := e.(type) {
	case *parser.Literal:
		return x, true
	case *parser.UnaryExpr:
		l, ok := x.X.(*parser.Literal)
		if !ok || (x.Op != "-" && x.Op != "+") || !isNumberLit(l.Kind) {
			return nil, false
		}
		n := *l
		if x.Op == "-" {
			if strings.HasPrefix(n.Text, "-") {
				n.Text = n.Text[1:]
			} else {
				n.Text = "-" + n.Text
			}
		}
		return &n, true
	}
	return nil, false
}

// convertCast converts CAST(constant AS T) for a column of type t. As in
// Flink, the constant first becomes a value of T (castLiteral: a number
// cast to STRING is its text, a numeric string cast to a number is that
// number), which must fit T, and that value is then stored in t.
func convertCast(x *parser.CastExpr, t schema.DataType, loc *time.Location) (any, error) {
	to, _, err := fromParserType(x.Type, true)
	if err != nil {
		return nil, err
	}
	inner := x.X
	if l, ok := signedLiteral(inner); ok {
		inner = castLiteral(l, to)
	}
	if _, err := literal(inner, to, loc); err != nil {
		return nil, fmt.Errorf("CAST(%s AS %s): %w", exprText(x.X), x.TypeText, err)
	}
	return convertLiteral(inner, t, loc)
}

// castLiteral returns the literal that CAST(l AS to) is, for the casts
// that change a literal's kind: a number, BOOLEAN or date-time to a
// character type; a string to a number or BOOLEAN; an exact decimal to
// an integer type, truncated toward zero. Any other literal is returned
// as it is, and converting it to to decides.
func castLiteral(l *parser.Literal, to schema.DataType) *parser.Literal {
	switch to.Root {
	case schema.RootString, schema.RootChar:
		switch l.Kind {
		case parser.LitInt, parser.LitDecimal, parser.LitDate, parser.LitTime, parser.LitTimestamp, parser.LitTimestampLTZ:
			return &parser.Literal{Kind: parser.LitString, Text: l.Text}
		case parser.LitBool:
			return &parser.Literal{Kind: parser.LitString, Text: strings.ToUpper(strconv.FormatBool(l.Bool))}
		}
	case schema.RootBoolean:
		if b, err := strconv.ParseBool(strings.TrimSpace(l.Text)); l.Kind == parser.LitString && err == nil {
			return &parser.Literal{Kind: parser.LitBool, Bool: b}
		}
	case schema.RootTinyInt, schema.RootSmallInt, schema.RootInt, schema.RootBigInt, schema.RootFloat, schema.RootDouble, schema.RootDecimal:
		n := l
		if l.Kind == parser.LitString {
			n = numberLiteral(strings.TrimSpace(l.Text))
		}
		if n.Kind == parser.LitDecimal && to.Root != schema.RootFloat && to.Root != schema.RootDouble && to.Root != schema.RootDecimal {
			whole, _, _ := strings.Cut(n.Text, ".")
			if whole == "" || whole == "-" {
				whole += "0"
			}
			return &parser.Literal{Kind: parser.LitInt, Text: whole}
		}
		return n
	}
	return l
}

// numberText is the syntax of a number in a string cast to a numeric
// type: digits with an optional sign, point and exponent.
var numberText = regexp.MustCompile(`^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$`)

// numberLiteral reads s as a numeric literal: an integer, an exact
// decimal or an approximate number. Text that is no number stays a
// string literal, which no numeric type accepts.
func numberLiteral(s string) *parser.Literal {
	m := numberText.FindStringSubmatch(s)
	if m == nil {
		return &parser.Literal{Kind: parser.LitString, Text: s}
	}
	text := strings.TrimPrefix(s, "+")
	switch {
	case m[2] != "":
		return &parser.Literal{Kind: parser.LitFloat, Text: text}
	case strings.Contains(m[1], "."):
		return &parser.Literal{Kind: parser.LitDecimal, Text: text}
	}
	return &parser.Literal{Kind: parser.LitInt, Text: text}
}

func convertLit(l *parser.Literal, t schema.DataType, loc *time.Location) (any, error) {
	if l.Kind == parser.LitNull {
		return nil, nil
	}
	bad := func() error {
		return fmt.Errorf("%s literal %s does not fit type %s", l.Kind, litText(l), t)
	}
	switch t.Root {
	case schema.RootBoolean:
		if l.Kind == parser.LitBool {
			return l.Bool, nil
		}
	case schema.RootTinyInt, schema.RootSmallInt, schema.RootInt, schema.RootBigInt:
		if l.Kind != parser.LitInt {
			return nil, bad()
		}
		n, err := strconv.ParseInt(l.Text, 10, 64)
		bits := map[schema.TypeRoot]uint{schema.RootTinyInt: 8, schema.RootSmallInt: 16, schema.RootInt: 32, schema.RootBigInt: 64}[t.Root]
		lim := int64(1) << (bits - 1)
		if err != nil || bits < 64 && (n < -lim || n >= lim) {
			return nil, fmt.Errorf("%s is out of range for %s", l.Text, t)
		}
		switch t.Root {
		case schema.RootTinyInt:
			return int8(n), nil
		case schema.RootSmallInt:
			return int16(n), nil
		case schema.RootInt:
			return int32(n), nil
		}
		return n, nil
	case schema.RootFloat, schema.RootDouble:
		if !isNumberLit(l.Kind) {
			return nil, bad()
		}
		f, err := strconv.ParseFloat(l.Text, 64)
		if err != nil {
			return nil, bad()
		}
		if t.Root == schema.RootFloat {
			if math.Abs(f) > math.MaxFloat32 {
				return nil, fmt.Errorf("%s is out of range for FLOAT", l.Text)
			}
			return float32(f), nil
		}
		return f, nil
	case schema.RootDecimal:
		if !isNumberLit(l.Kind) && l.Kind != parser.LitString {
			return nil, bad()
		}
		if _, ok := new(big.Rat).SetString(strings.TrimSpace(l.Text)); !ok {
			return nil, bad()
		}
		// typeconv.ToValue checks precision and scale (it never rounds).
		return strings.TrimSpace(l.Text), nil
	case schema.RootChar, schema.RootString:
		if l.Kind != parser.LitString {
			return nil, bad()
		}
		if t.Root == schema.RootChar && len([]rune(l.Text)) > t.Length {
			return nil, fmt.Errorf("'%s' is longer than %s", l.Text, t)
		}
		return l.Text, nil
	case schema.RootBinary, schema.RootBytes:
		var b []byte
		switch l.Kind {
		case parser.LitBytes:
			b = l.Bytes
		case parser.LitString:
			b = []byte(l.Text)
		default:
			return nil, bad()
		}
		if t.Root == schema.RootBinary && len(b) > t.Length {
			return nil, fmt.Errorf("%s do not fit %s", plural.Count(len(b), "byte"), t)
		}
		return b, nil
	case schema.RootDate:
		if l.Kind != parser.LitDate && l.Kind != parser.LitString {
			return nil, bad()
		}
		d, err := time.ParseInLocation("2006-01-02", strings.TrimSpace(l.Text), time.UTC)
		if err != nil {
			return nil, fmt.Errorf("'%s' is not a DATE (yyyy-MM-dd)", l.Text)
		}
		return codec.DateOf(d), nil
	case schema.RootTime:
		if l.Kind != parser.LitTime && l.Kind != parser.LitString {
			return nil, bad()
		}
		d, err := time.ParseInLocation("15:04:05.999999999", strings.TrimSpace(l.Text), time.UTC)
		if err != nil {
			return nil, fmt.Errorf("'%s' is not a TIME (HH:mm:ss[.fff])", l.Text)
		}
		return d, nil
	case schema.RootTimestamp, schema.RootTimestampLTZ:
		if l.Kind != parser.LitTimestamp && l.Kind != parser.LitTimestampLTZ && l.Kind != parser.LitString && l.Kind != parser.LitDate {
			return nil, bad()
		}
		zone := time.UTC
		if t.Root == schema.RootTimestampLTZ {
			zone = loc
		}
		ts, err := parseTimestamp(l.Text, zone)
		if err != nil {
			return nil, err
		}
		if t.Root == schema.RootTimestamp {
			return codec.TimestampNTZOf(ts), nil
		}
		return ts, nil
	case schema.RootArray, schema.RootMap, schema.RootRow:
		return nil, fmt.Errorf("%s literal does not fit type %s (use ARRAY[..], MAP[..] or ROW(..))", l.Kind, t)
	}
	return nil, bad()
}

func parseTimestamp(s string, zone *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999", "2006-01-02 15:04", "2006-01-02"} {
		if ts, err := time.ParseInLocation(layout, s, zone); err == nil {
			return ts, nil
		}
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999Z07:00"} {
		if ts, err := time.Parse(layout, s); err == nil {
			return ts, nil
		}
	}
	return time.Time{}, fmt.Errorf("'%s' is not a TIMESTAMP (yyyy-MM-dd HH:mm:ss[.fff])", s)
}

func litText(l *parser.Literal) string {
	switch l.Kind {
	case parser.LitNull:
		return "NULL"
	case parser.LitBool:
		if l.Bool {
			return "TRUE"
		}
		return "FALSE"
	case parser.LitString:
		return parser.QuoteString(l.Text)
	case parser.LitBytes:
		return fmt.Sprintf("x'%x'", l.Bytes)
	case parser.LitDate, parser.LitTime, parser.LitTimestamp, parser.LitTimestampLTZ:
		return l.Kind.String() + " " + parser.QuoteString(l.Text)
	}
	return l.Text
}

// literalType infers the type of a constant with no target column
// (SELECT 1, SELECT 'x').
func literalType(l *parser.Literal) schema.DataType {
	switch l.Kind {
	case parser.LitBool:
		return schema.Boolean().NotNull()
	case parser.LitInt:
		if n, err := strconv.ParseInt(l.Text, 10, 64); err == nil && n >= math.MinInt32 && n <= math.MaxInt32 {
			return schema.Int().NotNull()
		}
		return schema.BigInt().NotNull()
	case parser.LitDecimal:
		_, ok := new(big.Rat).SetString(l.Text)
		scale := 0
		if i := strings.IndexByte(l.Text, '.'); i >= 0 {
			scale = len(l.Text) - i - 1
		}
		prec := len(strings.TrimLeft(strings.NewReplacer("-", "", ".", "").Replace(l.Text), "0"))
		if !ok || prec > schema.MaxDecimalPrecision {
			return schema.Double().NotNull()
		}
		prec = max(prec, scale, 1)
		return schema.Decimal(prec, scale).NotNull()
	case parser.LitFloat:
		return schema.Double().NotNull()
	case parser.LitString:
		return schema.String().NotNull()
	case parser.LitBytes:
		return schema.Bytes().NotNull()
	case parser.LitDate:
		return schema.Date().NotNull()
	case parser.LitTime:
		return schema.Time(0).NotNull()
	case parser.LitTimestamp:
		return schema.Timestamp(6).NotNull()
	case parser.LitTimestampLTZ:
		return schema.TimestampLTZ(6).NotNull()
	}
	return schema.String()
}

// exprText renders an expression for error messages.
func exprText(e parser.Expr) string {
	switch x := e.(type) {
	case nil:
		return ""
	case *parser.ColumnRef:
		return strings.Join(append(append([]string{}, x.Qualifier...), x.Name), ".")
	case *parser.Literal:
		return litText(x)
	case *parser.Param:
		if x.Name != "" {
			return ":" + x.Name
		}
		return "?"
	case *parser.CompareExpr:
		return exprText(x.L) + " " + x.Op + " " + exprText(x.R)
	case *parser.AndExpr:
		return exprText(x.L) + " AND " + exprText(x.R)
	case *parser.OrExpr:
		return exprText(x.L) + " OR " + exprText(x.R)
	case *parser.NotExpr:
		return "NOT " + exprText(x.X)
	case *parser.BinaryExpr:
		return exprText(x.L) + " " + x.Op + " " + exprText(x.R)
	case *parser.UnaryExpr:
		return x.Op + exprText(x.X)
	case *parser.BetweenExpr:
		not := ""
		if x.Not {
			not = "NOT "
		}
		return exprText(x.X) + " " + not + "BETWEEN " + exprText(x.From) + " AND " + exprText(x.To)
	case *parser.IsNullExpr:
		if x.Not {
			return exprText(x.X) + " IS NOT NULL"
		}
		return exprText(x.X) + " IS NULL"
	case *parser.InExpr:
		parts := make([]string, len(x.List))
		for i, v := range x.List {
			parts[i] = exprText(v)
		}
		op := " IN ("
		if x.Not {
			op = " NOT IN ("
		}
		if x.Subquery != nil {
			return exprText(x.X) + op + "SELECT ...)"
		}
		return exprText(x.X) + op + strings.Join(parts, ", ") + ")"
	case *parser.TupleExpr:
		parts := make([]string, len(x.Exprs))
		for i, v := range x.Exprs {
			parts[i] = exprText(v)
		}
		return "(" + strings.Join(parts, ", ") + ")"
	case *parser.LikeExpr:
		op := " LIKE "
		if x.Not {
			op = " NOT LIKE "
		}
		return exprText(x.X) + op + exprText(x.Pattern)
	case *parser.FuncCall:
		if x.Star {
			return x.Name + "(*)"
		}
		parts := make([]string, len(x.Args))
		for i, v := range x.Args {
			parts[i] = exprText(v)
		}
		return x.Name + "(" + strings.Join(parts, ", ") + ")"
	case *parser.CastExpr:
		return "CAST(" + exprText(x.X) + " AS " + x.TypeText + ")"
	case *parser.RawExpr:
		return x.Text
	case *parser.Variable:
		return x.Name
	case *parser.SubqueryExpr, *parser.ExistsExpr:
		return "(SELECT ...)"
	case *parser.DefaultExpr:
		return "DEFAULT"
	case *parser.ArrayExpr:
		return "ARRAY[...]"
	case *parser.MapExpr:
		return "MAP[...]"
	case *parser.RowExpr:
		return "ROW(...)"
	case *parser.IntervalExpr:
		return "INTERVAL " + exprText(x.Value) + " " + x.Unit
	case *parser.CaseExpr:
		return "CASE ... END"
	case *parser.IsBoolExpr:
		return exprText(x.X) + " IS [NOT] TRUE/FALSE"
	}
	return parser.FormatExpr(e)
}

// literal converts a constant expression to the codec value model of type
// t (typeconv.ToValue applied to the SQL literal's Go value). NULL is nil.
func literal(e parser.Expr, t schema.DataType, loc *time.Location) (any, error) {
	v, err := convertLiteral(e, t, loc)
	if err != nil || v == nil {
		return v, err
	}
	out, err := typeconv.ToValue(t, v, loc)
	if err != nil {
		return nil, errors.New(strings.TrimPrefix(err.Error(), "fluss: "))
	}
	return out, nil
}
