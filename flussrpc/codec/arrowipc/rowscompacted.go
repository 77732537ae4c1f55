package arrowipc

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// AppendCompacted adds one row given in the compacted row format of the
// builder's column types (a primary-key table's value row), reading its
// fields straight into the column builders: no row of values is made, and
// the integers, floats and strings that fill wide scans are never boxed.
// It appends what Append(codec decoding of row) would. Unlike Append, a
// row that fails (a corrupt one) may leave part of itself behind: the
// builder must then be released, not used further.
func (b *RowBuilder) AppendCompacted(row []byte) error {
	if b.types == nil {
		b.types = (&schema.Schema{Columns: b.cols}).Types()
	}
	v := compactedSink{b: b}
	if err := codec.DecodeCompactedFields(&v, b.types, row); err != nil {
		return fmt.Errorf("arrowipc: compacted row: %w", err)
	}
	if v.err != nil {
		return v.err
	}
	b.rows++
	return nil
}

// compactedSink appends the fields of one compacted row to the columns
// of b; err is the first value a column refused.
type compactedSink struct {
	b   *RowBuilder
	err error
}

func (s *compactedSink) Null(col int) { s.Value(col, nil) }

func (s *compactedSink) Bool(col int, v bool) {
	s.b.columns[col].bld.(*array.BooleanBuilder).Append(v)
}

func (s *compactedSink) Int(col int, v int64) {
	switch bld := s.b.columns[col].bld.(type) {
	case *array.Int8Builder:
		bld.Append(int8(v))
	case *array.Int16Builder:
		bld.Append(int16(v))
	case *array.Int32Builder:
		bld.Append(int32(v))
	case *array.Int64Builder:
		bld.Append(v)
	default:
		s.Value(col, v)
	}
}

func (s *compactedSink) Float(col int, v float64) {
	switch bld := s.b.columns[col].bld.(type) {
	case *array.Float32Builder:
		// A FLOAT read as float32 and widened: narrowing is exact.
		bld.Append(float32(v))
	case *array.Float64Builder:
		bld.Append(v)
	default:
		s.Value(col, v)
	}
}

func (s *compactedSink) Bytes(col int, v []byte) {
	switch bld := s.b.columns[col].bld.(type) {
	case *array.StringBuilder:
		bld.BinaryBuilder.Append(v)
	case *array.BinaryBuilder:
		bld.Append(v)
	default:
		s.Value(col, append([]byte{}, v...))
	}
}

// Value checks and appends v as Append does.
func (s *compactedSink) Value(col int, v any) {
	c := &s.b.columns[col]
	if err := c.check(v); err != nil {
		if s.err == nil {
			s.err = fmt.Errorf("arrowipc: column %q: %w", s.b.cols[col].Name, err)
		}
		// Keep the columns of equal length until the caller gives up.
		c.bld.AppendNull()
		return
	}
	c.add(v)
}
