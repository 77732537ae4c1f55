package arrowipc

import (
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// Rows in the codec value model are []any, and converting an int64,
// float64 or string to an interface allocates a copy of the value: three
// or four allocations per row of a three-column table, which made them
// (and the garbage collector) most of the cost of reading rows. The column
// copiers below copy a column of a batch once into a slice of its own and
// point each value's interface at its element of that slice instead.

// eface is the layout of an interface value without methods (any): its
// dynamic type and, for the types boxable allows, a pointer to the value.
type eface struct {
	typ  unsafe.Pointer
	data unsafe.Pointer
}

// boxable are the types whose interface values hold a pointer to the
// value (none of them is pointer-shaped), so that the pointer may point
// into a slice.
type boxable interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~float32 | ~float64 | ~string | codec.TimestampLTZ | codec.TimestampNTZ
}

// copiedColumn is one column of a batch copied out of the batch's memory:
// its values are boxed without allocating, and none of them aliases the
// batch, which may be released once the column is copied.
type copiedColumn interface {
	// fill stores the value of every row r into dst[r*stride+col],
	// leaving NULLs nil.
	fill(dst []any, stride, col int)
	// at is the value of row r, nil for NULL.
	at(r int) any
}

// copied is a copiedColumn of codec values of type T. The interfaces it
// hands out share vals, which nobody writes to after the copy; it stays
// in memory while any of them does.
type copied[T boxable] struct {
	typ  unsafe.Pointer // T's type word
	vals []T
	// valid is the column's validity bitmap from bit off on, nil when the
	// column has no NULLs.
	valid []byte
	off   int
}

func newCopied[T boxable](arr arrow.Array, vals []T) *copied[T] {
	var zero any = *new(T)
	c := &copied[T]{typ: (*eface)(unsafe.Pointer(&zero)).typ, vals: vals}
	if arr.NullN() > 0 {
		// Only the bytes of the rows held, so that the copy stays small
		// and independent of the batch's buffers.
		off := arr.Data().Offset()
		bm := arr.NullBitmapBytes()
		c.valid = append([]byte(nil), bm[off/8:bitutil.BytesForBits(int64(off+arr.Len()))]...)
		c.off = off % 8
	}
	return c
}

func (c *copied[T]) isNull(r int) bool {
	return c.valid != nil && !bitutil.BitIsSet(c.valid, c.off+r)
}

func (c *copied[T]) box(r int, dst *any) {
	*(*eface)(unsafe.Pointer(dst)) = eface{typ: c.typ, data: unsafe.Pointer(&c.vals[r])}
}

func (c *copied[T]) fill(dst []any, stride, col int) {
	for r := range c.vals {
		if !c.isNull(r) {
			c.box(r, &dst[r*stride+col])
		}
	}
}

func (c *copied[T]) at(r int) any {
	var v any
	if !c.isNull(r) {
		c.box(r, &v)
	}
	return v
}

// columnCopier copies a column of a batch, reporting false when arr is
// not the array type of the column's Arrow type.
type columnCopier func(arr arrow.Array) (copiedColumn, bool)

// copyValues is the copier of arrays whose values are the codec values.
func copyValues[A interface {
	arrow.Array
	Values() []T
}, T boxable]() columnCopier {
	return copyConv[A](func(v T) T { return v })
}

// copyConv is the copier of arrays whose values convert to codec values
// one by one.
func copyConv[A interface {
	arrow.Array
	Values() []T
}, T any, U boxable](conv func(T) U) columnCopier {
	return func(arr arrow.Array) (copiedColumn, bool) {
		a, ok := arr.(A)
		if !ok {
			return nil, false
		}
		src := a.Values()
		vals := make([]U, len(src))
		for i, v := range src {
			vals[i] = conv(v)
		}
		return newCopied(arr, vals), true
	}
}

// copyStrings copies the string bytes of a batch's column once and hands
// out substrings of that copy.
func copyStrings(arr arrow.Array) (copiedColumn, bool) {
	a, ok := arr.(*array.String)
	if !ok {
		return nil, false
	}
	n := a.Len()
	vals := make([]string, n)
	if n > 0 {
		offs := a.ValueOffsets()
		buf := string(a.ValueBytes())
		base := offs[0]
		for i := range vals {
			vals[i] = buf[offs[i]-base : offs[i+1]-base]
		}
	}
	return newCopied(arr, vals), true
}

// newCopier returns the column copier of Fluss type t, or nil for types
// read value by value (getters): bools never allocate when boxed, and the
// other types are rarer or are structs and slices.
func newCopier(t schema.DataType) columnCopier {
	switch t.Root {
	case schema.RootTinyInt:
		return copyValues[*array.Int8]()
	case schema.RootSmallInt:
		return copyValues[*array.Int16]()
	case schema.RootInt:
		return copyValues[*array.Int32]()
	case schema.RootBigInt:
		return copyValues[*array.Int64]()
	case schema.RootFloat:
		return copyValues[*array.Float32]()
	case schema.RootDouble:
		return copyValues[*array.Float64]()
	case schema.RootChar, schema.RootString:
		return copyStrings
	case schema.RootDate:
		return copyConv[*array.Date32](func(v arrow.Date32) codec.Date { return codec.Date(v) })
	case schema.RootTimestamp, schema.RootTimestampLTZ:
		unit, err := timeUnit(t)
		if err != nil {
			return nil // the getter reports it
		}
		if t.Root == schema.RootTimestampLTZ {
			return copyConv[*array.Timestamp](func(v arrow.Timestamp) codec.TimestampLTZ {
				ms, ns := splitUnits(int64(v), unit)
				return codec.TimestampLTZ{Millis: ms, NanoOfMilli: ns}
			})
		}
		return copyConv[*array.Timestamp](func(v arrow.Timestamp) codec.TimestampNTZ {
			ms, ns := splitUnits(int64(v), unit)
			return codec.TimestampNTZ{Millis: ms, NanoOfMilli: ns}
		})
	}
	return nil
}
