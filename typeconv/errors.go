package typeconv

import (
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
)

// ErrNotNull is matched (errors.Is) by every *NullError.
var ErrNotNull = errors.New("fluss: NULL for a NOT NULL type")

// ErrOutOfRange is matched (errors.Is) by a *ConversionError whose value
// does not fit the type: integer overflow, too many DECIMAL digits, a
// string longer than CHAR(n), a date beyond the representable range.
var ErrOutOfRange = errors.New("fluss: value out of range")

// ErrFraction is matched (errors.Is) by a *ConversionError for a number
// with more fractional digits than the type keeps: a non-integer for an
// integer type or a DECIMAL value that would need rounding.
var ErrFraction = errors.New("fluss: value would lose fractional digits")

// ConversionError reports a Go value that cannot be converted to (ToValue)
// or from (FromValue) a Fluss type.
type ConversionError struct {
	// Column is the column name; ToValue leaves it empty and callers fill
	// it in with WithColumn.
	Column string
	// Path locates the value inside a nested value of the column, e.g.
	// "[2]" (ARRAY element), "[2].name" (ROW field), "{key}" / "{value}"
	// (MAP entry); empty for the top-level value.
	Path string
	// Type is the type of the value at Path.
	Type schema.DataType
	// Value is the offending Go value (after Valuer and pointer
	// unwrapping).
	Value any
	// Reason says what is wrong with it.
	Reason string
	// Err is an underlying error (a Valuer's error, ErrOutOfRange,
	// ErrFraction, a parse error), or nil.
	Err error
}

// Error formats the error as
// `fluss: column "c" [2]: cannot convert int64 300 to TINYINT: out of range -128..127`.
func (e *ConversionError) Error() string {
	var b strings.Builder
	b.WriteString("fluss: ")
	writeWhere(&b, e.Column, e.Path)
	b.WriteString("cannot convert ")
	b.WriteString(describeValue(e.Value))
	b.WriteString(" to ")
	b.WriteString(e.Type.String())
	if e.Reason != "" {
		b.WriteString(": ")
		b.WriteString(e.Reason)
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *ConversionError) Unwrap() error { return e.Err }

// NullError reports nil (SQL NULL) for a NOT NULL type: a NOT NULL column
// (Path empty) or a NOT NULL element, map key/value or ROW field (Path set).
// It matches ErrNotNull.
type NullError struct {
	// Column is the column name; ToValue leaves it empty and callers fill
	// it in with WithColumn.
	Column string
	// Path locates the NULL inside a nested value, as in ConversionError.
	Path string
	// Type is the NOT NULL type.
	Type schema.DataType
}

// Error formats the error as `fluss: column "id": NULL is not allowed for BIGINT NOT NULL`.
func (e *NullError) Error() string {
	var b strings.Builder
	b.WriteString("fluss: ")
	writeWhere(&b, e.Column, e.Path)
	b.WriteString("NULL is not allowed for ")
	b.WriteString(e.Type.String())
	return b.String()
}

// Is reports whether target is ErrNotNull.
func (e *NullError) Is(target error) bool { return target == ErrNotNull }

func writeWhere(b *strings.Builder, column, path string) {
	switch {
	case column != "" && path != "":
		fmt.Fprintf(b, "column %s%s: ", schema.QuoteIdentifier(column), path)
	case column != "":
		fmt.Fprintf(b, "column %s: ", schema.QuoteIdentifier(column))
	case path != "":
		fmt.Fprintf(b, "value at %s: ", path)
	}
}

// WithColumn returns err with the column name filled in: a copy of a
// *ConversionError or *NullError (found with errors.As) whose Column is
// set, or err wrapped with the column name otherwise. A nil err stays nil.
func WithColumn(err error, column string) error {
	if err == nil {
		return nil
	}
	var ce *ConversionError
	if errors.As(err, &ce) {
		c := *ce
		c.Column = column
		return &c
	}
	var ne *NullError
	if errors.As(err, &ne) {
		n := *ne
		n.Column = column
		return &n
	}
	return fmt.Errorf("fluss: column %s: %w", schema.QuoteIdentifier(column), err)
}

// describeValue renders a value for an error message: its Go type and a
// bounded rendering of the value.
func describeValue(v any) string {
	if v == nil {
		return "nil"
	}
	return fmt.Sprintf("%T %s", v, valueText(v))
}

// valueText renders scalars (by kind, so no user method runs) and a few
// known types; composite values are summarised by their length, so that
// huge or cyclic values cannot blow up an error message.
func valueText(v any) string {
	var s string
	switch x := v.(type) {
	case nil:
		return "nil"
	case string:
		return quoteTrunc(x)
	case []byte:
		if len(x) > 32 {
			return fmt.Sprintf("%x... (%s)", x[:32], plural.Count(len(x), "byte"))
		}
		return fmt.Sprintf("%x", x)
	case time.Time:
		return x.String()
	case codec.Decimal:
		s = x.String()
	case *big.Int:
		s = x.String() // prints "<nil>" for a nil pointer
	case *big.Rat:
		if x == nil {
			return "(*big.Rat)(nil)"
		}
		s = x.String()
	case *big.Float:
		if x == nil {
			return "(*big.Float)(nil)"
		}
		s = x.Text('g', 20)
	case codec.Date, codec.Time:
		s = fmt.Sprint(x)
	case codec.TimestampNTZ, codec.TimestampLTZ, time.Duration:
		s = fmt.Sprintf("%v", x)
	default:
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.String:
			return quoteTrunc(rv.String())
		case reflect.Bool:
			s = strconv.FormatBool(rv.Bool())
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			s = strconv.FormatInt(rv.Int(), 10)
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			s = strconv.FormatUint(rv.Uint(), 10)
		case reflect.Float32, reflect.Float64:
			s = strconv.FormatFloat(rv.Float(), 'g', -1, rv.Type().Bits())
		case reflect.Slice, reflect.Array, reflect.Map:
			s = fmt.Sprintf("(len %d)", rv.Len())
		case reflect.Pointer:
			s = "(pointer)"
		default:
			s = "(" + rv.Kind().String() + ")"
		}
	}
	const max = 80
	if utf8.RuneCountInString(s) > max {
		r := []rune(s)
		s = string(r[:max]) + "..."
	}
	return s
}

func quoteTrunc(s string) string {
	const max = 64
	if utf8.RuneCountInString(s) > max {
		r := []rune(s)
		return fmt.Sprintf("%q...", string(r[:max]))
	}
	return fmt.Sprintf("%q", s)
}
