package typeconv

import (
	"database/sql"
	"math"
	"reflect"
	"time"

	"github.com/gofluss/fluss/flussrpc/schema"
)

// ColumnType is the database/sql column metadata of a Fluss type. Its
// methods have the shapes of the driver.RowsColumnType* interfaces, so a
// driver.Rows can delegate to them directly.
type ColumnType struct {
	t        schema.DataType
	name     string
	scanType reflect.Type
}

// Column returns the metadata of a column of type t with FromValue's
// default options (complex types as JSON text).
func Column(t schema.DataType) ColumnType { return ColumnFor(t, OutOptions{}) }

// ColumnFor returns the metadata of a column of type t whose values are
// produced by FromValue with opts (opts.Native changes the ScanType of
// ARRAY, MAP and ROW columns).
func ColumnFor(t schema.DataType, opts OutOptions) ColumnType {
	return ColumnType{t: t, name: t.WithNullable(true).String(), scanType: scanType(t, opts.Native)}
}

// Type returns the column's Fluss type.
func (c ColumnType) Type() schema.DataType { return c.t }

// DatabaseTypeName returns the upper-case Fluss type text without the
// column's own NOT NULL (reported by Nullable), e.g. "BIGINT",
// "DECIMAL(10, 2)", "TIMESTAMP_LTZ(3)", "ARRAY<STRING NOT NULL>".
func (c ColumnType) DatabaseTypeName() string { return c.name }

// ScanType returns the Go type FromValue's values have, for allocating scan
// destinations: for NOT NULL columns bool, int64, float64, string (CHAR,
// STRING, DECIMAL, JSON text), []byte or time.Time; for nullable ones
// sql.NullBool, sql.NullInt64, sql.NullFloat64, sql.NullString,
// sql.NullTime, and []byte (nil for NULL). Native complex columns report
// []any, map[string]any, map[any]any or []MapEntry.
func (c ColumnType) ScanType() reflect.Type { return c.scanType }

// Nullable reports whether the column may hold NULL; ok is always true.
func (c ColumnType) Nullable() (nullable, ok bool) { return c.t.Nullable, true }

// PrecisionScale returns the precision and scale of a DECIMAL and the
// fractional-second precision (scale 0) of TIME, TIMESTAMP and
// TIMESTAMP_LTZ; ok is false for other types.
func (c ColumnType) PrecisionScale() (precision, scale int64, ok bool) {
	switch c.t.Root {
	case schema.RootDecimal:
		return int64(c.t.Precision), int64(c.t.Scale), true
	case schema.RootTime, schema.RootTimestamp, schema.RootTimestampLTZ:
		return int64(c.t.Precision), 0, true
	}
	return 0, 0, false
}

// Length returns the length of CHAR(n) (characters) and BINARY(n) (bytes),
// and math.MaxInt64 for the unbounded STRING and BYTES; ok is false for
// other types.
func (c ColumnType) Length() (length int64, ok bool) {
	switch c.t.Root {
	case schema.RootChar, schema.RootBinary:
		return int64(c.t.Length), true
	case schema.RootString, schema.RootBytes:
		return math.MaxInt64, true
	}
	return 0, false
}

var (
	typeBool        = reflect.TypeFor[bool]()
	typeInt64       = reflect.TypeFor[int64]()
	typeFloat64     = reflect.TypeFor[float64]()
	typeString      = reflect.TypeFor[string]()
	typeBytes       = reflect.TypeFor[[]byte]()
	typeTime        = reflect.TypeFor[time.Time]()
	typeNullBool    = reflect.TypeFor[sql.NullBool]()
	typeNullInt64   = reflect.TypeFor[sql.NullInt64]()
	typeNullFloat64 = reflect.TypeFor[sql.NullFloat64]()
	typeNullString  = reflect.TypeFor[sql.NullString]()
	typeNullTime    = reflect.TypeFor[sql.NullTime]()
)

func scanType(t schema.DataType, native bool) reflect.Type {
	pick := func(base, null reflect.Type) reflect.Type {
		if t.Nullable {
			return null
		}
		return base
	}
	switch t.Root {
	case schema.RootBoolean:
		return pick(typeBool, typeNullBool)
	case schema.RootTinyInt, schema.RootSmallInt, schema.RootInt, schema.RootBigInt:
		return pick(typeInt64, typeNullInt64)
	case schema.RootFloat, schema.RootDouble:
		return pick(typeFloat64, typeNullFloat64)
	case schema.RootChar, schema.RootString, schema.RootDecimal:
		return pick(typeString, typeNullString)
	case schema.RootBinary, schema.RootBytes:
		return typeBytes
	case schema.RootDate, schema.RootTime, schema.RootTimestamp, schema.RootTimestampLTZ:
		return pick(typeTime, typeNullTime)
	case schema.RootArray, schema.RootMap, schema.RootRow:
		if !native {
			return pick(typeString, typeNullString)
		}
		switch {
		case t.Root == schema.RootArray:
			return typeAnySlice
		case t.Root == schema.RootRow:
			return typeStringMap
		case t.Key != nil && isStringType(t.Key):
			return typeStringMap
		case t.Key != nil && hashableKey(t.Key):
			return typeAnyMap
		}
		return typeEntries
	}
	return typeAny
}
