// Package typeconv is the one place that knows how a Fluss type looks in
// SQL, in Go and as database/sql column metadata.
//
// # Type text
//
// TypeName renders the canonical Fluss SQL text of a schema.DataType
// ("DECIMAL(10, 2) NOT NULL", "MAP<STRING, ARRAY<INT>>"). Reading type
// text is the planner's work (planner.ParseType and planner.FromParser):
// typeconv imports no SQL package, and planner.ParseType(TypeName(t))
// equals t for every valid type without ROW field descriptions.
//
// # Values in: ToValue
//
// ToValue converts a bound Go value into the codec value model (see
// package flussrpc/codec): int8/int16/int32/int64 for the integer types,
// float32/float64, string, []byte, codec.Decimal, codec.Date, codec.Time,
// codec.TimestampNTZ, codec.TimestampLTZ, []any (ARRAY, ROW) and codec.Map.
// Before conversion, driver.Valuers are called (a nil pointer to a type
// with a value-receiver Value method is NULL, as in database/sql, so
// sql.Null* and sql.Null[T] work), pointers are followed, and nil, nil
// pointers, nil slices and nil maps are NULL. Named types are accepted by
// their kind (type Celsius float64, type Status string). Accepted inputs:
//
//	BOOLEAN      bool; strings accepted by strconv.ParseBool; the integers 0 and 1
//	TINYINT ..   every Go integer type, range-checked; floats, *big.Int,
//	BIGINT       *big.Rat, *big.Float, codec.Decimal and strings ("42", "4.2e1",
//	             "42.0") when the value is an integer in range
//	FLOAT,       every float and integer type (integers only when exactly
//	DOUBLE       representable), big numbers and codec.Decimal (rounded to
//	             nearest), strings in strconv.ParseFloat syntax ("NaN", "Inf"
//	             included); float64 values beyond the FLOAT range are errors
//	CHAR(n),     string, []byte; must be valid UTF-8; CHAR(n) rejects more than
//	STRING       n characters (shorter values are kept as given)
//	BINARY(n),   []byte and [N]byte (copied, so the caller may reuse its
//	BYTES        buffer), and string, taken as its raw bytes (no hex or base64
//	             decoding: write x'..' literals or pass []byte for binary
//	             data); BINARY(n) rejects more than n bytes
//	DECIMAL      strings ("-12.30", ".5", "1.5e3"), every integer and float type
//	             (floats by their shortest decimal text, so 0.1 is 0.1),
//	             *big.Int, *big.Rat, *big.Float, codec.Decimal, json.Number and
//	             anything whose Valuer returns such text (shopspring, apd ...).
//	             Values are never rounded: more fractional digits than the scale
//	             (other than trailing zeros) is an ErrFraction error, too many
//	             integer digits an ErrOutOfRange error
//	DATE         time.Time: its calendar date in loc (the session zone; nil keeps
//	             the time's own location); codec.Date; "yyyy-mm-dd"
//	TIME(p)      time.Time: its clock reading as given (no zone conversion);
//	             time.Duration in [0, 24h); codec.Time; "hh:mm[:ss[.f]]"
//	TIMESTAMP(p) time.Time: its wall clock as given, the location is dropped
//	             (time.Date(2024, 1, 2, 10, 0, 0, 0, tokyo) stores 2024-01-02
//	             10:00); codec.TimestampNTZ; "yyyy-mm-dd[( |T)hh:mm[:ss[.f]]]"
//	             (an offset in the text is likewise dropped)
//	TIMESTAMP_   time.Time: the instant; codec.TimestampLTZ; the same text forms,
//	LTZ(p)       read in loc (nil: UTC) unless they carry Z or ±hh:mm
//	ARRAY<t>     any slice or array ([]any, []int32, [3]string ...), JSON array text
//	MAP<k, v>    any Go map (entries sorted by key so encoding is deterministic;
//	             keys must not be NULL or collide after conversion), []MapEntry,
//	             codec.Map (order kept), JSON text as produced by FromValue
//	ROW<...>     []any or any slice (positional, exact length); a struct, fields
//	             bound by `db:"name"` tags or else by Go name case-insensitively,
//	             `db:"-"` skipped, untagged embedded structs flattened, a struct
//	             field matching no ROW field an error; map[string]any (names
//	             matched exactly, then case-insensitively; unknown names are
//	             errors); JSON object text. Fields not given are NULL.
//
// JSON text may be a string (of any string type) or a json.RawMessage.
// Inside JSON text, BYTES are base64 strings and MAPs with non-CHAR/STRING
// keys are arrays of {"key": k, "value": v}, exactly as FromValue writes
// them, so ToValue(t, FromValue(t, v)) gives v back.
//
// Fractional seconds beyond the column precision are truncated, never
// rounded: a time.Time always carries nanoseconds (time.Now() on
// TIMESTAMP(3) must work), truncation is what Flink and Fluss do when
// casting to a lower precision, and rounding could carry into the next
// second, day or year. TIME keeps milliseconds only (the Fluss row format
// stores TIME as milliseconds of the day), so TIME(p) with p > 3 behaves as
// TIME(3) on input.
//
// NULL for a NOT NULL type is a *NullError (matching ErrNotNull), for the
// top-level value as for NOT NULL elements, keys and fields. ToValue does
// not know column names: callers add them with WithColumn. Other failures
// are *ConversionErrors naming the type, the value and, for nested values,
// its path ("[2].name").
//
// # Values out: FromValue
//
// FromValue turns a codec value into the driver.Value Rows.Next returns:
// integers as int64, FLOAT/DOUBLE as float64, DECIMAL as its exact string,
// []byte copies, DATE/TIME/TIMESTAMP/TIMESTAMP_LTZ as time.Time, ARRAY/MAP/
// ROW as deterministic JSON text (or Go values with OutOptions.Native).
// Time zones: TIMESTAMP (a wall clock) is returned in UTC; TIMESTAMP_LTZ
// (an instant) in OutOptions.Location; DATE as midnight in
// OutOptions.Location, so that a DATE read and bound again with the same
// session zone keeps its calendar date; TIME on 0000-01-01 UTC, the date
// time.Parse gives a clock-only layout (lib/pq does the same).
//
// # Column metadata
//
// Column and ColumnFor describe a column for the driver.RowsColumnType*
// interfaces: DatabaseTypeName is the Fluss type text ("BIGINT",
// "TIMESTAMP_LTZ(3)", "ARRAY<STRING>"), ScanType agrees with FromValue (base
// types for NOT NULL columns, sql.Null* for nullable ones, []byte for
// binary), and Nullable, PrecisionScale and Length come from the type.
package typeconv
