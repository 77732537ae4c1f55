package planner

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
	"github.com/gofluss/fluss/parser"
)

// Type text: what a type written in SQL means as a Fluss type. The parser
// reads the text; this file checks it and maps foreign spellings, and
// typeconv.TypeName renders a type back as text.

// maxTypeDepth bounds the nesting of types accepted by FromParser (the
// parser itself is recursive; this keeps conversion and every later walk of
// the type bounded).
const maxTypeDepth = 64

// ParseType parses Fluss type text ("BIGINT NOT NULL", "ROW<a INT, b
// ARRAY<STRING>>", "TIMESTAMP(3) WITH LOCAL TIME ZONE", ...) strictly: a
// foreign type such as VARCHAR(255) is an *UnsupportedTypeError naming the
// Fluss replacement, parameters out of range are an *InvalidTypeError, and
// syntax errors wrap the *parser.Error.
func ParseType(text string) (schema.DataType, error) {
	pt, err := parser.ParseType(text)
	if err != nil {
		return schema.DataType{}, fmt.Errorf("fluss: invalid type %q: %w", text, err)
	}
	return FromParser(pt, false)
}

// FromParser converts a parsed type to a schema.DataType and validates its
// parameters (CHAR/BINARY length 1..2147483647, DECIMAL precision 1..38 and
// scale 0..precision, TIME/TIMESTAMP precision 0..9, unique ROW field
// names). ROW fields get descriptions from the text and unknown ids.
//
// A foreign type (parser.TypeForeign) is an *UnsupportedTypeError unless
// lenient is set and a Fluss type can stand in for it:
//
//	VARCHAR(n), CHARACTER VARYING(n), NVARCHAR(n), NCHAR(n), TEXT,
//	TINYTEXT, MEDIUMTEXT, LONGTEXT, CLOB, JSON, ENUM(...), SET(...), UUID -> STRING
//	VARBINARY(n), BLOB, TINYBLOB, MEDIUMBLOB, LONGBLOB, BYTEA  -> BYTES
//	DATETIME(p)                                                -> TIMESTAMP(p) (p defaults to 0)
//	TIMESTAMP(p) WITH TIME ZONE                                -> TIMESTAMP_LTZ(p)
//	BOOL                                                       -> BOOLEAN
//	MEDIUMINT                                                  -> INT
//	TINYINT(m), SMALLINT(m), INT(m), BIGINT(m)                 -> the same type
//	                                                              (MySQL display width dropped)
//	FLOAT(p), FLOAT(m, d), DOUBLE(m, d)                        -> FLOAT, or DOUBLE for
//	                                                              DOUBLE and FLOAT(p > 24)
//	REAL                                                       -> DOUBLE (MySQL meaning)
//	NUMBER(p, s)                                               -> DECIMAL(p, s)
//
// INTERVAL, MULTISET, RAW and other types without a counterpart are errors
// in both modes. NOT NULL carries over to the replacement.
func FromParser(t *parser.DataType, lenient bool) (schema.DataType, error) {
	return fromParser(t, lenient, 0)
}

// plainTypes are the Fluss types without parameters or children, by the
// parser kind that names them.
var plainTypes = map[parser.TypeKind]func() schema.DataType{
	parser.TypeBoolean:  schema.Boolean,
	parser.TypeTinyInt:  schema.TinyInt,
	parser.TypeSmallInt: schema.SmallInt,
	parser.TypeInt:      schema.Int,
	parser.TypeBigInt:   schema.BigInt,
	parser.TypeFloat:    schema.Float,
	parser.TypeDouble:   schema.Double,
	parser.TypeString:   schema.String,
	parser.TypeBytes:    schema.Bytes,
	parser.TypeDate:     schema.Date,
}

func fromParser(t *parser.DataType, lenient bool, depth int) (schema.DataType, error) {
	if t == nil {
		return schema.DataType{}, &InvalidTypeError{Text: "<nil>", Err: errors.New("missing type")}
	}
	if depth > maxTypeDepth {
		return schema.DataType{}, &InvalidTypeError{Text: typeText(t), Err: fmt.Errorf("types nest deeper than %s", plural.Count(maxTypeDepth, "level"))}
	}
	var dt schema.DataType
	switch t.Kind {
	case parser.TypeChar:
		dt = schema.Char(t.Length)
	case parser.TypeBinary:
		dt = schema.Binary(t.Length)
	case parser.TypeDecimal:
		dt = schema.Decimal(t.Precision, t.Scale)
	case parser.TypeTime:
		dt = schema.Time(t.Precision)
	case parser.TypeTimestamp:
		dt = schema.Timestamp(t.Precision)
	case parser.TypeTimestampLTZ:
		dt = schema.TimestampLTZ(t.Precision)
	case parser.TypeArray:
		e, err := fromParser(t.Elem, lenient, depth+1)
		if err != nil {
			return schema.DataType{}, err
		}
		dt = schema.ArrayOf(e)
	case parser.TypeMap:
		k, err := fromParser(t.Key, lenient, depth+1)
		if err != nil {
			return schema.DataType{}, err
		}
		v, err := fromParser(t.Value, lenient, depth+1)
		if err != nil {
			return schema.DataType{}, err
		}
		dt = schema.MapOf(k, v)
	case parser.TypeRow:
		fields := make([]schema.Field, 0, len(t.Fields))
		for _, f := range t.Fields {
			ft, err := fromParser(f.Type, lenient, depth+1)
			if err != nil {
				return schema.DataType{}, err
			}
			sf := schema.NewField(f.Name, ft)
			if f.Description != nil {
				sf.Description = *f.Description
			}
			fields = append(fields, sf)
		}
		dt = schema.RowOf(fields...)
	case parser.TypeForeign:
		rep, known, ok := replacement(t)
		if !ok || !lenient {
			e := &UnsupportedTypeError{Text: typeText(t)}
			if ok {
				e.Replacement = rep.String()
			} else if s := t.Suggestion(); s != "" && !known {
				e.Replacement = s
				if t.NotNull {
					e.Replacement += " NOT NULL"
				}
			}
			return schema.DataType{}, e
		}
		return rep, nil
	default:
		mk, ok := plainTypes[t.Kind]
		if !ok {
			return schema.DataType{}, &InvalidTypeError{Text: typeText(t), Err: fmt.Errorf("unknown type kind %d", int(t.Kind))}
		}
		dt = mk()
	}
	dt.Nullable = !t.NotNull
	if err := validateType(dt); err != nil {
		return schema.DataType{}, &InvalidTypeError{Text: typeText(t), Err: err}
	}
	return dt, nil
}

// validateType is schema's Validate plus the length limit Java enforces for
// CHAR/BINARY (the parser accepts any int), without descending into nested
// types (they were validated on the way up).
func validateType(dt schema.DataType) error {
	switch dt.Root {
	case schema.RootChar, schema.RootBinary:
		if dt.Length > math.MaxInt32 {
			return fmt.Errorf("%s length must be at most %d, got %d", dt.Root, math.MaxInt32, dt.Length)
		}
	case schema.RootRow:
		seen := make(map[string]struct{}, len(dt.Fields))
		for _, f := range dt.Fields {
			if f.Name == "" {
				return errors.New("ROW field name must not be empty")
			}
			if _, dup := seen[f.Name]; dup {
				return fmt.Errorf("duplicate ROW field name %q", f.Name)
			}
			seen[f.Name] = struct{}{}
		}
		return nil
	case schema.RootArray, schema.RootMap:
		return nil
	}
	return dt.Validate()
}

// typeText is the type as written, for error messages.
func typeText(t *parser.DataType) string {
	if t.Raw != "" {
		return t.Raw
	}
	if t.Kind == parser.TypeForeign {
		if len(t.ForeignArgs) == 0 {
			return t.ForeignName
		}
		return t.ForeignName + "(" + strings.Join(t.ForeignArgs, ", ") + ")"
	}
	return t.String()
}

// replacement returns the Fluss type standing in for a foreign type; known
// reports whether the name has a counterpart at all (ok is false then only
// when the arguments are unusable, e.g. DATETIME(12)).
func replacement(t *parser.DataType) (dt schema.DataType, known, ok bool) {
	args := t.ForeignArgs
	intArg := func(i, def int) (int, bool) {
		if i >= len(args) {
			return def, true
		}
		n, err := strconv.Atoi(strings.TrimSpace(args[i]))
		return n, err == nil && n >= 0
	}
	switch t.ForeignName {
	case "VARCHAR", "CHARACTER VARYING", "NVARCHAR", "NCHAR", "TEXT", "TINYTEXT", "MEDIUMTEXT",
		"LONGTEXT", "CLOB", "JSON", "ENUM", "SET", "UUID":
		dt = schema.String()
	case "VARBINARY", "BLOB", "TINYBLOB", "MEDIUMBLOB", "LONGBLOB", "BYTEA":
		dt = schema.Bytes()
	case "DATETIME":
		p, ok := intArg(0, 0)
		if !ok || len(args) > 1 {
			return dt, true, false
		}
		dt = schema.Timestamp(p)
	case "TIMESTAMP WITH TIME ZONE":
		p, ok := intArg(0, schema.DefaultTimestampPrec)
		if !ok || len(args) > 1 {
			return dt, true, false
		}
		dt = schema.TimestampLTZ(p)
	case "BOOL":
		dt = schema.Boolean()
	case "TINYINT": // MySQL display widths: TINYINT(1), INT(11), BIGINT(20)
		dt = schema.TinyInt()
	case "SMALLINT":
		dt = schema.SmallInt()
	case "MEDIUMINT", "INT", "INTEGER":
		dt = schema.Int()
	case "BIGINT":
		dt = schema.BigInt()
	case "FLOAT": // MySQL FLOAT(p): p > 24 means double precision
		if p, ok := intArg(0, 0); ok && len(args) == 1 && p > 24 {
			dt = schema.Double()
		} else {
			dt = schema.Float()
		}
	case "DOUBLE": // MySQL DOUBLE(m, d)
		dt = schema.Double()
	case "REAL":
		dt = schema.Double()
	case "NUMBER":
		p, ok1 := intArg(0, schema.DefaultDecimalPrec)
		s, ok2 := intArg(1, 0)
		if !ok1 || !ok2 || len(args) > 2 {
			return dt, true, false
		}
		dt = schema.Decimal(p, s)
	default:
		return dt, false, false
	}
	if dt.Validate() != nil {
		return schema.DataType{}, true, false
	}
	dt.Nullable = !t.NotNull
	return dt, true, true
}

// UnsupportedTypeError reports type text that parses but is not a Fluss
// type (VARCHAR(255), DATETIME, INTERVAL ...), in strict mode or when no
// Fluss type can stand in for it.
type UnsupportedTypeError struct {
	// Text is the type as written.
	Text string
	// Replacement is the Fluss type to use instead, "" when there is none.
	Replacement string
}

// Error formats the error as
// "fluss: type VARCHAR(255) is not a Fluss type; use STRING".
func (e *UnsupportedTypeError) Error() string {
	if e.Replacement == "" {
		return "fluss: type " + e.Text + " is not a Fluss type"
	}
	return "fluss: type " + e.Text + " is not a Fluss type; use " + e.Replacement
}

// InvalidTypeError reports a Fluss type with parameters out of range, such
// as DECIMAL(50, 2) or TIMESTAMP(12), or a malformed parsed type.
type InvalidTypeError struct {
	// Text is the type as written.
	Text string
	// Err is the underlying reason.
	Err error
}

// Error formats the error as "fluss: invalid type DECIMAL(50, 2): ...".
func (e *InvalidTypeError) Error() string {
	msg := ""
	if e.Err != nil {
		msg = strings.TrimPrefix(e.Err.Error(), "schema: ")
	}
	return "fluss: invalid type " + e.Text + ": " + msg
}

// Unwrap returns the underlying reason.
func (e *InvalidTypeError) Unwrap() error { return e.Err }
