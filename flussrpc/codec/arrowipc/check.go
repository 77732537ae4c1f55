package arrowipc

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gofluss/fluss/internal/plural"
)

// checkData verifies that an array loaded from untrusted bytes is
// internally consistent: buffers are long enough for its length, offsets
// are non-negative, non-decreasing and inside the data or child array, and
// children are long enough. arrow-go does not check these when loading IPC
// data, and the accessors would later index out of range.
func checkData(d arrow.ArrayData) error {
	n, off := d.Len(), d.Offset()
	if n < 0 || off < 0 {
		return corrupt("array of length %d at offset %d", n, off)
	}
	end := off + n
	bufs := d.Buffers()
	nulls := d.NullN()
	if nulls < 0 || nulls > n {
		return corrupt("array of length %d with %s", n, plural.Count(nulls, "null"))
	}
	if nulls > 0 && (len(bufs) == 0 || bufLen(bufs[0]) < (end+7)/8) {
		return corrupt("validity bitmap too short for %s", plural.Count(end, "value"))
	}
	switch t := d.DataType().(type) {
	case *arrow.BooleanType:
		return needBuf(bufs, 1, (end+7)/8, n)
	case *arrow.StringType, *arrow.BinaryType:
		if err := needBuf(bufs, 1, 4*(end+1), n); err != nil || n == 0 {
			return err
		}
		return checkOffsets(bufs[1], off, end, bufLen(bufs[2]))
	case *arrow.ListType, *arrow.MapType:
		children := d.Children()
		if len(children) != 1 {
			return corrupt("list array with %d children", len(children))
		}
		if err := checkData(children[0]); err != nil {
			return err
		}
		if err := needBuf(bufs, 1, 4*(end+1), n); err != nil || n == 0 {
			return err
		}
		return checkOffsets(bufs[1], off, end, children[0].Len())
	case *arrow.StructType:
		children := d.Children()
		if len(children) != t.NumFields() {
			return corrupt("struct array with %d children, type has %d", len(children), t.NumFields())
		}
		for _, c := range children {
			if c.Len() < end {
				return corrupt("struct child of %s under %s", plural.Count(c.Len(), "value"), plural.Count(end, "row"))
			}
			if err := checkData(c); err != nil {
				return err
			}
		}
		return nil
	case arrow.FixedWidthDataType:
		return needBuf(bufs, 1, end*(t.BitWidth()/8), n)
	}
	return corrupt("unexpected array type %s", d.DataType())
}

func bufLen(b *memory.Buffer) int {
	if b == nil {
		return 0
	}
	return b.Len()
}

// needBuf checks that buffer i has at least size bytes when the array has
// values.
func needBuf(bufs []*memory.Buffer, i, size, n int) error {
	if n == 0 {
		return nil
	}
	if len(bufs) <= i || bufLen(bufs[i]) < size {
		return corrupt("buffer %d shorter than the %s needed for %s", i, plural.Count(size, "byte"), plural.Count(n, "value"))
	}
	return nil
}

func checkOffsets(b *memory.Buffer, from, to, limit int) error {
	raw := b.Bytes()
	prev := int32(le.Uint32(raw[4*from:]))
	if prev < 0 {
		return corrupt("negative offset %d", prev)
	}
	for i := from + 1; i <= to; i++ {
		cur := int32(le.Uint32(raw[4*i:]))
		if cur < prev {
			return corrupt("offsets decrease from %d to %d", prev, cur)
		}
		prev = cur
	}
	if int(prev) > limit {
		return corrupt("offset %d beyond %s", prev, plural.Count(limit, "value"))
	}
	return nil
}
