package schema

import (
	"errors"
	"fmt"
	"strings"
)

// TypeRoot identifies the kind of a DataType. The zero value is invalid so
// that an uninitialised DataType is caught by Validate.
type TypeRoot uint8

// Type roots supported by Fluss. Constructors with the bare names (Int(),
// Decimal(p, s), ...) build DataType values of these roots.
const (
	RootBoolean TypeRoot = iota + 1
	RootTinyInt
	RootSmallInt
	RootInt
	RootBigInt
	RootFloat
	RootDouble
	RootChar
	RootString
	RootBinary
	RootBytes
	RootDecimal
	RootDate
	RootTime
	RootTimestamp
	RootTimestampLTZ
	RootArray
	RootMap
	RootRow
)

// rootNames are the Java DataTypeRoot enum names, which are also the "type"
// values of the data type JSON.
var rootNames = [...]string{
	RootBoolean:      "BOOLEAN",
	RootTinyInt:      "TINYINT",
	RootSmallInt:     "SMALLINT",
	RootInt:          "INTEGER",
	RootBigInt:       "BIGINT",
	RootFloat:        "FLOAT",
	RootDouble:       "DOUBLE",
	RootChar:         "CHAR",
	RootString:       "STRING",
	RootBinary:       "BINARY",
	RootBytes:        "BYTES",
	RootDecimal:      "DECIMAL",
	RootDate:         "DATE",
	RootTime:         "TIME_WITHOUT_TIME_ZONE",
	RootTimestamp:    "TIMESTAMP_WITHOUT_TIME_ZONE",
	RootTimestampLTZ: "TIMESTAMP_WITH_LOCAL_TIME_ZONE",
	RootArray:        "ARRAY",
	RootMap:          "MAP",
	RootRow:          "ROW",
}

// String returns the Fluss enum name of the root (e.g. "INTEGER",
// "TIMESTAMP_WITHOUT_TIME_ZONE"), as used in the JSON "type" key.
func (r TypeRoot) String() string {
	if r.valid() {
		return rootNames[r]
	}
	return fmt.Sprintf("TypeRoot(%d)", uint8(r))
}

func (r TypeRoot) valid() bool { return r >= RootBoolean && r <= RootRow }

// ParseTypeRoot maps a Fluss enum name (the JSON "type" value) to a TypeRoot.
func ParseTypeRoot(name string) (TypeRoot, bool) {
	for r := RootBoolean; r <= RootRow; r++ {
		if rootNames[r] == name {
			return r, true
		}
	}
	return 0, false
}

// Precision and length limits, identical to the Java type classes.
const (
	MinDecimalPrecision   = 1
	MaxDecimalPrecision   = 38
	MaxCompactDecimalPrec = 18 // DECIMAL with precision <= 18 is stored as an int64
	MaxTimePrecision      = 9  // TIME, TIMESTAMP and TIMESTAMP_LTZ
	MaxCompactTimestamp   = 3  // TIMESTAMP(p<=3) stores only epoch millis
	DefaultTimestampPrec  = 6
	DefaultDecimalPrec    = 10
)

// DataType describes a Fluss column type. Only the fields relevant to Root
// are meaningful; constructors set them, and Validate checks them.
type DataType struct {
	Root      TypeRoot
	Nullable  bool
	Length    int       // CHAR, BINARY
	Precision int       // DECIMAL, TIME, TIMESTAMP, TIMESTAMP_LTZ
	Scale     int       // DECIMAL
	Elem      *DataType // ARRAY element
	Key       *DataType // MAP key
	Value     *DataType // MAP value
	Fields    []Field   // ROW fields
}

// Field is one field of a ROW type. ID is the stable field id (-1 when
// unknown); Description is empty when absent.
type Field struct {
	Name        string
	Type        DataType
	Description string
	ID          int
}

// UnknownID marks a column or field that has not been given an id yet.
const UnknownID = -1

func simple(r TypeRoot) DataType { return DataType{Root: r, Nullable: true} }

// Boolean returns a nullable BOOLEAN.
func Boolean() DataType { return simple(RootBoolean) }

// TinyInt returns a nullable TINYINT.
func TinyInt() DataType { return simple(RootTinyInt) }

// SmallInt returns a nullable SMALLINT.
func SmallInt() DataType { return simple(RootSmallInt) }

// Int returns a nullable INT.
func Int() DataType { return simple(RootInt) }

// BigInt returns a nullable BIGINT.
func BigInt() DataType { return simple(RootBigInt) }

// Float returns a nullable FLOAT.
func Float() DataType { return simple(RootFloat) }

// Double returns a nullable DOUBLE.
func Double() DataType { return simple(RootDouble) }

// String returns a nullable STRING.
func String() DataType { return simple(RootString) }

// Bytes returns a nullable BYTES.
func Bytes() DataType { return simple(RootBytes) }

// Date returns a nullable DATE.
func Date() DataType { return simple(RootDate) }

// Char returns a nullable CHAR(n).
func Char(n int) DataType { return DataType{Root: RootChar, Nullable: true, Length: n} }

// Binary returns a nullable BINARY(n).
func Binary(n int) DataType { return DataType{Root: RootBinary, Nullable: true, Length: n} }

// Decimal returns a nullable DECIMAL(p, s).
func Decimal(p, s int) DataType {
	return DataType{Root: RootDecimal, Nullable: true, Precision: p, Scale: s}
}

// Time returns a nullable TIME(p).
func Time(p int) DataType { return DataType{Root: RootTime, Nullable: true, Precision: p} }

// Timestamp returns a nullable TIMESTAMP(p) (without time zone).
func Timestamp(p int) DataType {
	return DataType{Root: RootTimestamp, Nullable: true, Precision: p}
}

// TimestampLTZ returns a nullable TIMESTAMP_LTZ(p) (with local time zone).
func TimestampLTZ(p int) DataType {
	return DataType{Root: RootTimestampLTZ, Nullable: true, Precision: p}
}

// ArrayOf returns a nullable ARRAY<elem>.
func ArrayOf(elem DataType) DataType {
	return DataType{Root: RootArray, Nullable: true, Elem: &elem}
}

// MapOf returns a nullable MAP<key, value>.
func MapOf(key, value DataType) DataType {
	return DataType{Root: RootMap, Nullable: true, Key: &key, Value: &value}
}

// RowOf returns a nullable ROW with the given fields (copied).
func RowOf(fields ...Field) DataType {
	return DataType{Root: RootRow, Nullable: true, Fields: append([]Field(nil), fields...)}
}

// NewField returns a ROW field with no description and an unknown id.
func NewField(name string, t DataType) Field {
	return Field{Name: name, Type: t, ID: UnknownID}
}

// NotNull returns a copy of t that is NOT NULL.
func (t DataType) NotNull() DataType { return t.WithNullable(false) }

// WithNullable returns a copy of t with the given nullability.
func (t DataType) WithNullable(nullable bool) DataType {
	t.Nullable = nullable
	return t
}

// String renders the type in Fluss SQL spelling, e.g. "INT NOT NULL",
// "DECIMAL(10, 2)", "TIMESTAMP_LTZ(3)", "MAP<STRING, INT>",
// "ROW<a INT, b STRING>". Field descriptions are not included; field names
// that are not plain identifiers are back-quoted.
func (t DataType) String() string {
	var b strings.Builder
	t.writeSQL(&b)
	return b.String()
}

func (t DataType) writeSQL(b *strings.Builder) {
	switch t.Root {
	case RootInt:
		b.WriteString("INT")
	case RootChar, RootBinary:
		fmt.Fprintf(b, "%s(%d)", rootNames[t.Root], t.Length)
	case RootDecimal:
		fmt.Fprintf(b, "DECIMAL(%d, %d)", t.Precision, t.Scale)
	case RootTime:
		fmt.Fprintf(b, "TIME(%d)", t.Precision)
	case RootTimestamp:
		fmt.Fprintf(b, "TIMESTAMP(%d)", t.Precision)
	case RootTimestampLTZ:
		fmt.Fprintf(b, "TIMESTAMP_LTZ(%d)", t.Precision)
	case RootArray:
		b.WriteString("ARRAY<")
		writeChild(b, t.Elem)
		b.WriteByte('>')
	case RootMap:
		b.WriteString("MAP<")
		writeChild(b, t.Key)
		b.WriteString(", ")
		writeChild(b, t.Value)
		b.WriteByte('>')
	case RootRow:
		b.WriteString("ROW<")
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(QuoteIdentifier(f.Name))
			b.WriteByte(' ')
			f.Type.writeSQL(b)
		}
		b.WriteByte('>')
	default:
		if t.Root.valid() {
			b.WriteString(rootNames[t.Root])
		} else {
			b.WriteString(t.Root.String())
		}
	}
	if !t.Nullable {
		b.WriteString(" NOT NULL")
	}
}

func writeChild(b *strings.Builder, c *DataType) {
	if c == nil {
		b.WriteString("?")
		return
	}
	c.writeSQL(b)
}

// QuoteIdentifier returns name unchanged when it is a plain identifier
// ([A-Za-z_][A-Za-z0-9_]*), otherwise back-quoted with inner back-quotes
// doubled.
func QuoteIdentifier(name string) string {
	plain := name != ""
	for i, c := range name {
		letter := c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		if !letter && (i == 0 || c < '0' || c > '9') {
			plain = false
			break
		}
	}
	if plain {
		return name
	}
	return Backquote(name)
}

// Backquote returns name back-quoted with inner back-quotes doubled,
// whatever it holds: the quoting of every identifier the module renders.
// (Package parser, which sits below this one, has its own copy.)
func Backquote(name string) string { return "`" + strings.ReplaceAll(name, "`", "``") + "`" }

// Equal reports whether t and o describe the same type, including
// nullability, parameters, nested types, ROW field names and descriptions.
// Field ids are ignored, as in Java's DataType.equals.
func (t DataType) Equal(o DataType) bool { return t.equal(o, false) }

// EqualWithIDs is Equal that also compares ROW field ids.
func (t DataType) EqualWithIDs(o DataType) bool { return t.equal(o, true) }

func (t DataType) equal(o DataType, ids bool) bool {
	if t.Root != o.Root || t.Nullable != o.Nullable {
		return false
	}
	switch t.Root {
	case RootChar, RootBinary:
		return t.Length == o.Length
	case RootDecimal:
		return t.Precision == o.Precision && t.Scale == o.Scale
	case RootTime, RootTimestamp, RootTimestampLTZ:
		return t.Precision == o.Precision
	case RootArray:
		return childEqual(t.Elem, o.Elem, ids)
	case RootMap:
		return childEqual(t.Key, o.Key, ids) && childEqual(t.Value, o.Value, ids)
	case RootRow:
		return fieldsEqual(t.Fields, o.Fields, ids)
	}
	return true
}

func childEqual(a, b *DataType, ids bool) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.equal(*b, ids)
}

func fieldsEqual(a, b []Field, ids bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Description != b[i].Description {
			return false
		}
		if ids && a[i].ID != b[i].ID {
			return false
		}
		if !a[i].Type.equal(b[i].Type, ids) {
			return false
		}
	}
	return true
}

// Validate checks the parameters against the ranges Java enforces: CHAR and
// BINARY length >= 1, DECIMAL precision 1..38 and scale 0..precision,
// TIME/TIMESTAMP/TIMESTAMP_LTZ precision 0..9, complete nested types and
// unique ROW field names.
func (t DataType) Validate() error {
	switch t.Root {
	case RootChar, RootBinary:
		if t.Length < 1 {
			return fmt.Errorf("schema: %s length must be at least 1, got %d", rootNames[t.Root], t.Length)
		}
	case RootDecimal:
		if t.Precision < MinDecimalPrecision || t.Precision > MaxDecimalPrecision {
			return fmt.Errorf("schema: DECIMAL precision must be between %d and %d, got %d",
				MinDecimalPrecision, MaxDecimalPrecision, t.Precision)
		}
		if t.Scale < 0 || t.Scale > t.Precision {
			return fmt.Errorf("schema: DECIMAL scale must be between 0 and %d, got %d", t.Precision, t.Scale)
		}
	case RootTime, RootTimestamp, RootTimestampLTZ:
		if t.Precision < 0 || t.Precision > MaxTimePrecision {
			return fmt.Errorf("schema: %s precision must be between 0 and %d, got %d",
				rootNames[t.Root], MaxTimePrecision, t.Precision)
		}
	case RootArray:
		return validateChild("ARRAY element", t.Elem)
	case RootMap:
		if err := validateChild("MAP key", t.Key); err != nil {
			return err
		}
		return validateChild("MAP value", t.Value)
	case RootRow:
		return validateFields(t.Fields)
	default:
		if !t.Root.valid() {
			return fmt.Errorf("schema: invalid type root %d", uint8(t.Root))
		}
	}
	return nil
}

func validateChild(what string, c *DataType) error {
	if c == nil {
		return errors.New("schema: " + what + " type is missing")
	}
	return c.Validate()
}

func validateFields(fields []Field) error {
	seen := make(map[string]struct{}, len(fields))
	for _, f := range fields {
		if f.Name == "" {
			return errors.New("schema: ROW field name must not be empty")
		}
		if _, dup := seen[f.Name]; dup {
			return fmt.Errorf("schema: duplicate ROW field name %q", f.Name)
		}
		seen[f.Name] = struct{}{}
		if err := f.Type.Validate(); err != nil {
			return err
		}
	}
	return nil
}

// IsCompactDecimal reports whether a DECIMAL of this type is stored as an
// unscaled int64 (precision <= 18) in every row format.
func (t DataType) IsCompactDecimal() bool { return t.Precision <= MaxCompactDecimalPrec }

// IsCompactTimestamp reports whether a TIMESTAMP/TIMESTAMP_LTZ of this type
// stores only epoch millis (precision <= 3), without a nano-of-milli part.
func (t DataType) IsCompactTimestamp() bool { return t.Precision <= MaxCompactTimestamp }

// Clone returns a deep copy of t, so callers may modify nested parts freely.
func (t DataType) Clone() DataType {
	if t.Elem != nil {
		e := t.Elem.Clone()
		t.Elem = &e
	}
	if t.Key != nil {
		k := t.Key.Clone()
		t.Key = &k
	}
	if t.Value != nil {
		v := t.Value.Clone()
		t.Value = &v
	}
	if t.Fields != nil {
		fs := make([]Field, len(t.Fields))
		for i, f := range t.Fields {
			f.Type = f.Type.Clone()
			fs[i] = f
		}
		t.Fields = fs
	}
	return t
}
