package arrowipc

import (
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
)

// Names Fluss gives to the children of nested Arrow fields
// (ArrowUtils.toArrowField at v0.9.1 and Arrow Java's MapVector constants).
const (
	ListElementName = "element"
	MapEntriesName  = "entries"
	MapKeyName      = "key"
	MapValueName    = "value"
)

// ArrowType returns the Arrow type Fluss uses for t (ArrowUtils.toArrowType
// at v0.9.1). Nullability is not part of an Arrow type; see Field.
func ArrowType(t schema.DataType) (arrow.DataType, error) {
	switch t.Root {
	case schema.RootBoolean:
		return arrow.FixedWidthTypes.Boolean, nil
	case schema.RootTinyInt:
		return arrow.PrimitiveTypes.Int8, nil
	case schema.RootSmallInt:
		return arrow.PrimitiveTypes.Int16, nil
	case schema.RootInt:
		return arrow.PrimitiveTypes.Int32, nil
	case schema.RootBigInt:
		return arrow.PrimitiveTypes.Int64, nil
	case schema.RootFloat:
		return arrow.PrimitiveTypes.Float32, nil
	case schema.RootDouble:
		return arrow.PrimitiveTypes.Float64, nil
	case schema.RootChar, schema.RootString:
		return arrow.BinaryTypes.String, nil
	case schema.RootBinary:
		if t.Length < 1 {
			return nil, fmt.Errorf("arrowipc: BINARY length must be at least 1, got %d", t.Length)
		}
		return &arrow.FixedSizeBinaryType{ByteWidth: t.Length}, nil
	case schema.RootBytes:
		return arrow.BinaryTypes.Binary, nil
	case schema.RootDecimal:
		if t.Precision < 1 || t.Precision > 38 || t.Scale < 0 || t.Scale > t.Precision {
			return nil, fmt.Errorf("arrowipc: invalid DECIMAL(%d, %d)", t.Precision, t.Scale)
		}
		return &arrow.Decimal128Type{Precision: int32(t.Precision), Scale: int32(t.Scale)}, nil
	case schema.RootDate:
		return arrow.FixedWidthTypes.Date32, nil
	case schema.RootTime:
		unit, err := timeUnit(t)
		if err != nil {
			return nil, err
		}
		if unit <= arrow.Millisecond {
			return &arrow.Time32Type{Unit: unit}, nil
		}
		return &arrow.Time64Type{Unit: unit}, nil
	case schema.RootTimestamp, schema.RootTimestampLTZ:
		unit, err := timeUnit(t)
		if err != nil {
			return nil, err
		}
		// Fluss never sets a time zone, for either timestamp kind.
		return &arrow.TimestampType{Unit: unit}, nil
	case schema.RootArray:
		if t.Elem == nil {
			return nil, fmt.Errorf("arrowipc: ARRAY without element type")
		}
		elem, err := Field(ListElementName, *t.Elem)
		if err != nil {
			return nil, err
		}
		return arrow.ListOfField(elem), nil
	case schema.RootMap:
		if t.Key == nil || t.Value == nil {
			return nil, fmt.Errorf("arrowipc: MAP without key or value type")
		}
		// Java's MapType constructor forces the key to NOT NULL.
		key, err := Field(MapKeyName, t.Key.NotNull())
		if err != nil {
			return nil, err
		}
		val, err := Field(MapValueName, *t.Value)
		if err != nil {
			return nil, err
		}
		// MapOfFields names the non-null struct child "entries" and its
		// fields "key" and "value"; keysSorted stays false, as in Java.
		return arrow.MapOfFields(key, val), nil
	case schema.RootRow:
		fields, err := fieldsOf(t.Fields)
		if err != nil {
			return nil, err
		}
		return arrow.StructOf(fields...), nil
	}
	return nil, fmt.Errorf("arrowipc: unsupported Fluss type %s", t.Root)
}

// timeUnit maps a TIME/TIMESTAMP precision to the Arrow unit Fluss uses:
// 0 seconds, 1-3 milliseconds, 4-6 microseconds, 7-9 nanoseconds.
func timeUnit(t schema.DataType) (arrow.TimeUnit, error) {
	switch p := t.Precision; {
	case p == 0:
		return arrow.Second, nil
	case p >= 1 && p <= 3:
		return arrow.Millisecond, nil
	case p >= 4 && p <= 6:
		return arrow.Microsecond, nil
	case p >= 7 && p <= 9:
		return arrow.Nanosecond, nil
	}
	return 0, fmt.Errorf("arrowipc: %s precision %d outside 0..9", t.Root, t.Precision)
}

// Field returns the Arrow field for a Fluss column or nested field: the
// given name, ArrowType(t), and t's nullability.
func Field(name string, t schema.DataType) (arrow.Field, error) {
	at, err := ArrowType(t)
	if err != nil {
		return arrow.Field{}, fmt.Errorf("%w (field %q)", err, name)
	}
	return arrow.Field{Name: name, Type: at, Nullable: t.Nullable}, nil
}

func fieldsOf(fs []schema.Field) ([]arrow.Field, error) {
	out := make([]arrow.Field, len(fs))
	for i, f := range fs {
		af, err := Field(f.Name, f.Type)
		if err != nil {
			return nil, err
		}
		out[i] = af
	}
	return out, nil
}

// Schema returns the Arrow schema of a Fluss table's columns, as
// ArrowUtils.toArrowSchema builds it: one field per column, in column order,
// with no metadata.
func Schema(cols []schema.Column) (*arrow.Schema, error) {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		f, err := Field(c.Name, c.Type)
		if err != nil {
			return nil, err
		}
		fields[i] = f
	}
	return arrow.NewSchema(fields, nil), nil
}

// tableSchema is the common start of the constructors: the Arrow schema of
// cols, its message layout, and mem or, when nil, memory.DefaultAllocator.
func tableSchema(cols []schema.Column, mem memory.Allocator) (*arrow.Schema, layout, memory.Allocator, error) {
	s, err := Schema(cols)
	if err != nil {
		return nil, layout{}, nil, err
	}
	l, err := schemaLayout(s)
	if err != nil {
		return nil, layout{}, nil, err
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	return s, l, mem, nil
}

// SchemaOfRowType is Schema for a ROW type, such as schema.Schema.RowType().
func SchemaOfRowType(row schema.DataType) (*arrow.Schema, error) {
	if row.Root != schema.RootRow {
		return nil, fmt.Errorf("arrowipc: expected a ROW type, got %s", row.Root)
	}
	fields, err := fieldsOf(row.Fields)
	if err != nil {
		return nil, err
	}
	return arrow.NewSchema(fields, nil), nil
}

// Project returns the columns at the given positions in ascending position
// order, together with the sorted positions. This is the shape of ARROW
// batches a server returns for FETCH_LOG with projection push-down: the
// server requires ascending, duplicate-free positions
// (FileLogProjection.toBitSet) and emits the columns in that order, so a
// caller that wants another order must reorder after decoding. Duplicate
// or out-of-range positions are an error.
func Project(cols []schema.Column, positions []int) ([]schema.Column, []int, error) {
	sorted := slices.Clone(positions)
	slices.Sort(sorted)
	out := make([]schema.Column, len(sorted))
	for i, p := range sorted {
		if p < 0 || p >= len(cols) {
			return nil, nil, fmt.Errorf("arrowipc: projected position %d out of range for %s", p, plural.Count(len(cols), "column"))
		}
		if i > 0 && sorted[i-1] == p {
			return nil, nil, fmt.Errorf("arrowipc: projected position %d appears twice", p)
		}
		out[i] = cols[p]
	}
	return out, sorted, nil
}
