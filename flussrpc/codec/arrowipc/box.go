package arrowipc

import (
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// Rows in the codec value model are []any, and converting an int64,
// float64 or string to an interface allocates a copy of the value: three
// or four allocations per row of a three-column table, which made them
// (and the garbage collector) most of the cost of reading rows. The column
// fillers below copy a column of a batch once into a slice of its own and
// point each row's interface at its element of that slice instead.

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

// box stores vals[r] into dst[r*stride+col] for every row r that valid
// (nil: every row) accepts, leaving the others nil. The interfaces share
// vals, so it must be a slice made for them that nobody writes to
// afterwards; it stays in memory while any of them does.
func box[T boxable](dst []any, stride, col int, vals []T, valid func(int) bool) {
	var zero any = *new(T)
	typ := (*eface)(unsafe.Pointer(&zero)).typ
	for r := range vals {
		if valid != nil && !valid(r) {
			continue
		}
		*(*eface)(unsafe.Pointer(&dst[r*stride+col])) = eface{typ: typ, data: unsafe.Pointer(&vals[r])}
	}
}

// columnFiller writes the values of arr into column col of the rows held
// in dst (stride values per row, arr.Len() rows), all in one go.
type columnFiller func(arr arrow.Array, dst []any, stride, col int) bool

// validity returns the null check of arr, nil when it has no NULLs.
func validity(arr arrow.Array) func(int) bool {
	if arr.NullN() == 0 {
		return nil
	}
	return arr.IsValid
}

// fillCopy is the filler of arrays whose values are the codec values.
func fillCopy[A interface {
	arrow.Array
	Values() []T
}, T boxable]() columnFiller {
	return fillConv[A](func(v T) T { return v })
}

// fillConv is the filler of arrays whose values convert to codec values
// one by one.
func fillConv[A interface {
	arrow.Array
	Values() []T
}, T any, U boxable](conv func(T) U) columnFiller {
	return func(arr arrow.Array, dst []any, stride, col int) bool {
		a, ok := arr.(A)
		if !ok {
			return false
		}
		src := a.Values()
		vals := make([]U, len(src))
		for i, v := range src {
			vals[i] = conv(v)
		}
		box(dst, stride, col, vals, validity(arr))
		return true
	}
}

// fillString copies the string bytes of a batch's column once and hands
// out substrings of that copy.
func fillString(arr arrow.Array, dst []any, stride, col int) bool {
	a, ok := arr.(*array.String)
	if !ok {
		return false
	}
	n := a.Len()
	if n == 0 {
		return true
	}
	offs := a.ValueOffsets()
	buf := string(a.ValueBytes())
	base := offs[0]
	vals := make([]string, n)
	for i := range vals {
		vals[i] = buf[offs[i]-base : offs[i+1]-base]
	}
	box(dst, stride, col, vals, validity(arr))
	return true
}

// newFiller returns the column filler of Fluss type t, or nil for types
// read value by value (getters): bools never allocate when boxed, and the
// other types are rarer or are structs and slices.
func newFiller(t schema.DataType) columnFiller {
	switch t.Root {
	case schema.RootTinyInt:
		return fillCopy[*array.Int8]()
	case schema.RootSmallInt:
		return fillCopy[*array.Int16]()
	case schema.RootInt:
		return fillCopy[*array.Int32]()
	case schema.RootBigInt:
		return fillCopy[*array.Int64]()
	case schema.RootFloat:
		return fillCopy[*array.Float32]()
	case schema.RootDouble:
		return fillCopy[*array.Float64]()
	case schema.RootChar, schema.RootString:
		return fillString
	case schema.RootDate:
		return fillConv[*array.Date32](func(v arrow.Date32) codec.Date { return codec.Date(v) })
	case schema.RootTimestamp, schema.RootTimestampLTZ:
		unit, err := timeUnit(t)
		if err != nil {
			return nil // the getter reports it
		}
		if t.Root == schema.RootTimestampLTZ {
			return fillConv[*array.Timestamp](func(v arrow.Timestamp) codec.TimestampLTZ {
				ms, ns := splitUnits(int64(v), unit)
				return codec.TimestampLTZ{Millis: ms, NanoOfMilli: ns}
			})
		}
		return fillConv[*array.Timestamp](func(v arrow.Timestamp) codec.TimestampNTZ {
			ms, ns := splitUnits(int64(v), unit)
			return codec.TimestampNTZ{Millis: ms, NanoOfMilli: ns}
		})
	}
	return nil
}
