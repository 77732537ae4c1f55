package arrowipc

import (
	"fmt"
	"math"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
)

// RowBuilder collects rows in the codec value model ([]any per row, see
// package codec) into an Arrow record batch of a table's schema, so that an
// append writer can produce ARROW log batches. The column builders are
// reused across batches: NewRecord hands out the rows collected so far and
// leaves the builder empty and ready for the next batch. Not safe for
// concurrent use.
type RowBuilder struct {
	schema  *arrow.Schema
	cols    []schema.Column
	rb      *array.RecordBuilder
	columns []column
	layout  layout
	rows    int
	types   []schema.DataType // of cols, made by AppendCompacted
}

// NewRowBuilder returns a builder for rows of cols, allocating from mem
// (nil means memory.DefaultAllocator). Call Release when done.
func NewRowBuilder(cols []schema.Column, mem memory.Allocator) (*RowBuilder, error) {
	s, l, mem, err := tableSchema(cols, mem)
	if err != nil {
		return nil, err
	}
	b := &RowBuilder{schema: s, cols: cols, rb: array.NewRecordBuilder(mem, s), layout: l}
	for i, c := range cols {
		w, err := newWriter(c.Type, b.rb.Field(i))
		if err != nil {
			b.rb.Release()
			return nil, fmt.Errorf("arrowipc: column %q: %w", c.Name, err)
		}
		b.columns = append(b.columns, column{valueWriter: w, exact: exactTypeOf(c.Type), bld: b.rb.Field(i)})
	}
	return b, nil
}

// Schema returns the Arrow schema of the records built.
func (b *RowBuilder) Schema() *arrow.Schema { return b.schema }

// Len returns the number of rows appended since the last NewRecord.
func (b *RowBuilder) Len() int { return b.rows }

// Append adds one row. Every value is checked before anything is
// appended, so a row that fails leaves the builder unchanged.
func (b *RowBuilder) Append(row []any) error {
	if len(row) != len(b.columns) {
		return fmt.Errorf("arrowipc: row has %s, table has %s", plural.Count(len(row), "value"), plural.Count(len(b.columns), "column"))
	}
	for i := range b.columns {
		c := &b.columns[i]
		if c.isExact(row[i]) {
			continue
		}
		if err := c.check(row[i]); err != nil {
			return fmt.Errorf("arrowipc: column %q: %w", b.cols[i].Name, err)
		}
	}
	for i := range b.columns {
		if c := &b.columns[i]; c.isExact(row[i]) {
			appendExact(c.bld, row[i])
		} else {
			c.add(row[i])
		}
	}
	b.rows++
	return nil
}

// NewRecord returns the rows appended so far as a record batch (the caller
// must Release it) and resets the builder for the next batch.
func (b *RowBuilder) NewRecord() arrow.RecordBatch {
	n := b.rows
	b.rows = 0
	rec := b.rb.NewRecordBatch()
	// The record takes the builders' memory; size the next batch's buffers
	// like this one so that they do not grow by repeated doubling.
	if n > 0 {
		b.rb.Reserve(n)
	}
	return rec
}

// EstimatedSize returns an upper bound of the uncompressed Arrow message
// the current rows would encode to (metadata plus every buffer rounded up
// to 64 bytes),
// so a writer can close a batch before it exceeds a byte budget. Add
// 8 bytes per buffer (BufferCount) when the table compresses.
func (b *RowBuilder) EstimatedSize() int {
	if b.rows == 0 {
		return 0
	}
	size := estimateMetadata(b.layout, false)
	for i := range b.columns {
		size += builderSize(b.rb.Field(i))
	}
	return size
}

// BufferCount returns the number of Arrow buffers a message of this schema
// has (each gets an 8-byte length prefix when compressed).
func (b *RowBuilder) BufferCount() int { return b.layout.buffers }

// Release frees the builder's memory.
func (b *RowBuilder) Release() { b.rb.Release() }

// builderSize bounds the padded bytes the values in bld will occupy.
func builderSize(bld array.Builder) int {
	n := bld.Len()
	size := bufSize((n + 7) / 8) // validity (written only with NULLs; counted anyway)
	switch x := bld.(type) {
	case *array.BooleanBuilder:
		size += bufSize((n + 7) / 8)
	case *array.StringBuilder:
		size += bufSize(4*(n+1)) + bufSize(x.DataLen())
	case *array.BinaryBuilder:
		size += bufSize(4*(n+1)) + bufSize(x.DataLen())
	case *array.ListBuilder:
		size += bufSize(4*(n+1)) + builderSize(x.ValueBuilder())
	case *array.MapBuilder:
		size += bufSize(4*(n+1)) + builderSize(x.ValueBuilder())
	case *array.StructBuilder:
		for i := 0; i < x.NumField(); i++ {
			size += builderSize(x.FieldBuilder(i))
		}
	default:
		if fw, ok := bld.Type().(arrow.FixedWidthDataType); ok {
			size += bufSize(n * fw.BitWidth() / 8)
		}
	}
	return size
}

// valueWriter checks and appends values of one column (or nested field).
type valueWriter struct {
	check func(v any) error
	add   func(v any) // only called after check succeeded
}

func typeErr(t schema.DataType, v any, msg string) error {
	return &codec.TypeError{Type: t, Value: v, Msg: msg}
}

// withNulls makes a writer from check and add, which only see non-NULL
// values: NULL is rejected in a NOT NULL column and otherwise appended as a
// null slot.
func withNulls(t schema.DataType, bld array.Builder, check func(v any) error, add func(v any)) valueWriter {
	return valueWriter{
		check: func(v any) error {
			if v == nil {
				if !t.Nullable {
					return typeErr(t, v, "NULL in a NOT NULL column")
				}
				return nil
			}
			return check(v)
		},
		add: func(v any) {
			if v == nil {
				bld.AppendNull()
				return
			}
			add(v)
		},
	}
}

// simpleWriter builds a writer from a conversion shared by check and add.
// It is withNulls written out, which saves the scalar columns a call per
// value.
func simpleWriter[T any](t schema.DataType, bld array.Builder, conv func(v any) (T, error), put func(T)) valueWriter {
	return valueWriter{
		check: func(v any) error {
			if v == nil {
				if !t.Nullable {
					return typeErr(t, v, "NULL in a NOT NULL column")
				}
				return nil
			}
			_, err := conv(v)
			return err
		},
		add: func(v any) {
			if v == nil {
				bld.AppendNull()
				return
			}
			x, _ := conv(v)
			put(x)
		},
	}
}

// typeConv is the conversion of values that must have Go type T, named want
// in the error.
func typeConv[T any](t schema.DataType, want string) func(v any) (T, error) {
	return func(v any) (T, error) {
		x, ok := v.(T)
		if !ok {
			var zero T
			return zero, typeErr(t, v, "want "+want)
		}
		return x, nil
	}
}

func newWriter(t schema.DataType, bld array.Builder) (valueWriter, error) {
	switch t.Root {
	case schema.RootBoolean:
		b := bld.(*array.BooleanBuilder)
		return simpleWriter(t, bld, typeConv[bool](t, "bool"), b.Append), nil
	case schema.RootTinyInt:
		b := bld.(*array.Int8Builder)
		return simpleWriter(t, bld, intConv[int8](t, math.MinInt8, math.MaxInt8), b.Append), nil
	case schema.RootSmallInt:
		b := bld.(*array.Int16Builder)
		return simpleWriter(t, bld, intConv[int16](t, math.MinInt16, math.MaxInt16), b.Append), nil
	case schema.RootInt:
		b := bld.(*array.Int32Builder)
		return simpleWriter(t, bld, intConv[int32](t, math.MinInt32, math.MaxInt32), b.Append), nil
	case schema.RootBigInt:
		b := bld.(*array.Int64Builder)
		return simpleWriter(t, bld, intConv[int64](t, math.MinInt64, math.MaxInt64), b.Append), nil
	case schema.RootFloat:
		b := bld.(*array.Float32Builder)
		return simpleWriter(t, bld, typeConv[float32](t, "float32"), b.Append), nil
	case schema.RootDouble:
		b := bld.(*array.Float64Builder)
		return simpleWriter(t, bld, func(v any) (float64, error) {
			switch x := v.(type) {
			case float64:
				return x, nil
			case float32:
				return float64(x), nil
			}
			return 0, typeErr(t, v, "want float64")
		}, b.Append), nil
	case schema.RootChar, schema.RootString:
		b := bld.(*array.StringBuilder)
		return simpleWriter(t, bld, typeConv[string](t, "string"), b.Append), nil
	case schema.RootBytes:
		b := bld.(*array.BinaryBuilder)
		return simpleWriter(t, bld, typeConv[[]byte](t, "[]byte"), b.Append), nil
	case schema.RootBinary:
		b := bld.(*array.FixedSizeBinaryBuilder)
		n := t.Length
		pad := make([]byte, n)
		bytesConv := typeConv[[]byte](t, "[]byte")
		return simpleWriter(t, bld, func(v any) ([]byte, error) {
			x, err := bytesConv(v)
			if err != nil {
				return nil, err
			}
			if len(x) > n {
				return nil, typeErr(t, v, fmt.Sprintf("%s exceed BINARY(%d)", plural.Count(len(x), "byte"), n))
			}
			return x, nil
		}, func(x []byte) {
			if len(x) == n {
				b.Append(x)
				return
			}
			// Shorter values are zero padded, as IndexedRow does.
			copy(pad, x)
			clear(pad[len(x):])
			b.Append(pad)
		}), nil
	case schema.RootDecimal:
		b := bld.(*array.Decimal128Builder)
		return simpleWriter(t, bld, decimalConv(t), b.Append), nil
	case schema.RootDate:
		b := bld.(*array.Date32Builder)
		return simpleWriter(t, bld, func(v any) (arrow.Date32, error) {
			switch x := v.(type) {
			case codec.Date:
				return arrow.Date32(x), nil
			case int32:
				return arrow.Date32(x), nil
			}
			return 0, typeErr(t, v, "want codec.Date")
		}, b.Append), nil
	case schema.RootTime:
		return timeWriter(t, bld)
	case schema.RootTimestamp, schema.RootTimestampLTZ:
		return timestampWriter(t, bld)
	case schema.RootArray:
		return listWriter(t, bld.(*array.ListBuilder))
	case schema.RootMap:
		return mapWriter(t, bld.(*array.MapBuilder))
	case schema.RootRow:
		return rowWriter(t, bld.(*array.StructBuilder))
	}
	return valueWriter{}, fmt.Errorf("unsupported Fluss type %s", t.Root)
}

func intConv[T int8 | int16 | int32 | int64](t schema.DataType, lo, hi int64) func(v any) (T, error) {
	return func(v any) (T, error) {
		var n int64
		switch x := v.(type) {
		case int8:
			n = int64(x)
		case int16:
			n = int64(x)
		case int32:
			n = int64(x)
		case int64:
			n = x
		case int:
			n = int64(x)
		case uint8:
			n = int64(x)
		case uint16:
			n = int64(x)
		case uint32:
			n = int64(x)
		case uint:
			if uint64(x) > math.MaxInt64 {
				return 0, typeErr(t, v, "out of range")
			}
			n = int64(x)
		case uint64:
			if x > math.MaxInt64 {
				return 0, typeErr(t, v, "out of range")
			}
			n = int64(x)
		default:
			return 0, typeErr(t, v, "want an integer")
		}
		if n < lo || n > hi {
			return 0, typeErr(t, v, "out of range")
		}
		return T(n), nil
	}
}

var bigPow10 = func() (p [39]*big.Int) {
	for i := range p {
		p[i] = new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(i)), nil)
	}
	return p
}()

func decimalConv(t schema.DataType) func(v any) (decimal128.Num, error) {
	return func(v any) (decimal128.Num, error) {
		d, ok := v.(codec.Decimal)
		if !ok {
			return decimal128.Num{}, typeErr(t, v, "want codec.Decimal")
		}
		if d.Scale() != t.Scale {
			return decimal128.Num{}, typeErr(t, v, fmt.Sprintf("scale %d, column needs %d", d.Scale(), t.Scale))
		}
		if u, ok := d.UnscaledInt64(); ok {
			if t.Precision < 19 && (u >= bigPow10[t.Precision].Int64() || u <= -bigPow10[t.Precision].Int64()) {
				return decimal128.Num{}, typeErr(t, v, fmt.Sprintf("more than %s", plural.Count(t.Precision, "digit")))
			}
			return decimal128.FromI64(u), nil
		}
		u := d.Unscaled()
		if new(big.Int).Abs(u).Cmp(bigPow10[t.Precision]) >= 0 {
			return decimal128.Num{}, typeErr(t, v, fmt.Sprintf("more than %s", plural.Count(t.Precision, "digit")))
		}
		return decimal128.FromBigInt(u), nil
	}
}

// timeWriter stores TIME millis of day in the unit Fluss uses for the
// precision (ArrowTimeWriter: seconds = millis / 1000, micros = millis ×
// 1000, nanos = millis × 1 000 000).
func timeWriter(t schema.DataType, bld array.Builder) (valueWriter, error) {
	unit, err := timeUnit(t)
	if err != nil {
		return valueWriter{}, err
	}
	conv := func(v any) (int32, error) { return codec.AsTime(t, v) }
	switch unit {
	case arrow.Second:
		b := bld.(*array.Time32Builder)
		return simpleWriter(t, bld, conv, func(ms int32) { b.Append(arrow.Time32(ms / 1000)) }), nil
	case arrow.Millisecond:
		b := bld.(*array.Time32Builder)
		return simpleWriter(t, bld, conv, func(ms int32) { b.Append(arrow.Time32(ms)) }), nil
	case arrow.Microsecond:
		b := bld.(*array.Time64Builder)
		return simpleWriter(t, bld, conv, func(ms int32) { b.Append(arrow.Time64(int64(ms) * 1000)) }), nil
	}
	b := bld.(*array.Time64Builder)
	return simpleWriter(t, bld, conv, func(ms int32) { b.Append(arrow.Time64(int64(ms) * 1000000)) }), nil
}

type millisNanos struct {
	ms int64
	ns int32
}

// timestampWriter stores timestamps as ArrowTimestampNtzWriter /
// ArrowTimestampLtzWriter do: seconds = millis / 1000 (truncating, as
// Java), millis, micros = millis × 1000 + nanoOfMilli / 1000, nanos =
// millis × 1 000 000 + nanoOfMilli.
func timestampWriter(t schema.DataType, bld array.Builder) (valueWriter, error) {
	unit, err := timeUnit(t)
	if err != nil {
		return valueWriter{}, err
	}
	conv := timestampConv(t, unitRange(unit))
	b := bld.(*array.TimestampBuilder)
	return simpleWriter(t, bld, conv, func(x millisNanos) {
		var v int64
		switch unit {
		case arrow.Second:
			v = x.ms / 1000
		case arrow.Millisecond:
			v = x.ms
		case arrow.Microsecond:
			v = x.ms*1000 + int64(x.ns)/1000
		default:
			v = x.ms*1000000 + int64(x.ns)
		}
		b.Append(arrow.Timestamp(v))
	}), nil
}

func listWriter(t schema.DataType, b *array.ListBuilder) (valueWriter, error) {
	elem, err := newWriter(*t.Elem, b.ValueBuilder())
	if err != nil {
		return valueWriter{}, err
	}
	return withNulls(t, b, func(v any) error {
		xs, ok := v.([]any)
		if !ok {
			return typeErr(t, v, "want []any")
		}
		for _, x := range xs {
			if err := elem.check(x); err != nil {
				return err
			}
		}
		return nil
	}, func(v any) {
		b.Append(true)
		for _, x := range v.([]any) {
			elem.add(x)
		}
	}), nil
}

func mapWriter(t schema.DataType, b *array.MapBuilder) (valueWriter, error) {
	key, err := newWriter(t.Key.NotNull(), b.KeyBuilder())
	if err != nil {
		return valueWriter{}, err
	}
	val, err := newWriter(*t.Value, b.ItemBuilder())
	if err != nil {
		return valueWriter{}, err
	}
	return withNulls(t, b, func(v any) error {
		m, ok := v.(codec.Map)
		if !ok {
			return typeErr(t, v, "want codec.Map")
		}
		if len(m.Keys) != len(m.Values) {
			return typeErr(t, v, fmt.Sprintf("%s but %s", plural.Count(len(m.Keys), "key"), plural.Count(len(m.Values), "value")))
		}
		for i := range m.Keys {
			if err := key.check(m.Keys[i]); err != nil {
				return err
			}
			if err := val.check(m.Values[i]); err != nil {
				return err
			}
		}
		return nil
	}, func(v any) {
		m := v.(codec.Map)
		b.Append(true)
		for i := range m.Keys {
			key.add(m.Keys[i])
			val.add(m.Values[i])
		}
	}), nil
}

// rowWriter relies on StructBuilder.AppendNull (called by withNulls) giving
// a NULL struct one (null) slot in every child.
func rowWriter(t schema.DataType, b *array.StructBuilder) (valueWriter, error) {
	fields := make([]valueWriter, len(t.Fields))
	for i, f := range t.Fields {
		w, err := newWriter(f.Type, b.FieldBuilder(i))
		if err != nil {
			return valueWriter{}, err
		}
		fields[i] = w
	}
	return withNulls(t, b, func(v any) error {
		xs, ok := v.([]any)
		if !ok || len(xs) != len(fields) {
			return typeErr(t, v, fmt.Sprintf("want []any of %s", plural.Count(len(fields), "value")))
		}
		for i, f := range fields {
			if err := f.check(xs[i]); err != nil {
				return err
			}
		}
		return nil
	}, func(v any) {
		xs := v.([]any)
		b.Append(true)
		for i, f := range fields {
			f.add(xs[i])
		}
	}), nil
}
