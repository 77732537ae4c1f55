package flussgorm

import (
	"fmt"
	"strings"

	"gorm.io/gorm/schema"
)

// defaultTimePrecision is the fractional-second digits of a time.Time
// column without a precision tag: microseconds, which every Go time
// formatter and most peers keep.
const defaultTimePrecision = 6

// DataTypeOf maps a model field to its Fluss type:
//
//	bool                       BOOLEAN
//	int8, int16, int32, int64  TINYINT, SMALLINT, INT, BIGINT (int: BIGINT)
//	uint8, uint16, uint32      SMALLINT, INT, BIGINT (the next wider signed type)
//	uint, uint64               BIGINT (values above math.MaxInt64 are refused on write)
//	float32, float64           FLOAT, DOUBLE; DECIMAL(p, s) with precision and scale tags
//	string                     STRING; CHAR(n) with `gorm:"size:n;fixed"`
//	[]byte                     BYTES
//	time.Time                  TIMESTAMP_LTZ(6); TIMESTAMP(6) with `gorm:"ntz"`; precision tag
//
// Pointers and sql.Null* types map like their value type and are nullable.
// A `gorm:"type:..."` tag is passed through as the Fluss type, for
// DECIMAL(p, s), DATE, TIME, ARRAY<...> and the like.
func (d *Dialector) DataTypeOf(f *schema.Field) string {
	switch f.DataType {
	case schema.Bool:
		return "BOOLEAN"
	case schema.Int:
		return intType(f.Size)
	case schema.Uint:
		// No unsigned types in Fluss: take the next wider signed one.
		if f.Size < 64 {
			return intType(f.Size * 2)
		}
		return "BIGINT"
	case schema.Float:
		if f.Precision > 0 {
			return fmt.Sprintf("DECIMAL(%d, %d)", f.Precision, f.Scale)
		}
		if f.Size == 32 {
			return "FLOAT"
		}
		return "DOUBLE"
	case schema.String:
		if _, fixed := f.TagSettings["FIXED"]; fixed && f.Size > 0 {
			return fmt.Sprintf("CHAR(%d)", f.Size)
		}
		return "STRING"
	case schema.Bytes:
		return "BYTES"
	case schema.Time:
		p := defaultTimePrecision
		if f.Precision > 0 {
			p = f.Precision
		}
		if _, ntz := f.TagSettings["NTZ"]; ntz {
			return fmt.Sprintf("TIMESTAMP(%d)", p)
		}
		return fmt.Sprintf("TIMESTAMP_LTZ(%d)", p)
	}
	// A type tag (or a type's GormDataType) names the Fluss type itself.
	return strings.ToUpper(string(f.DataType))
}

func intType(bits int) string {
	switch {
	case bits <= 8 && bits > 0:
		return "TINYINT"
	case bits <= 16 && bits > 0:
		return "SMALLINT"
	case bits <= 32 && bits > 0:
		return "INT"
	}
	return "BIGINT"
}
