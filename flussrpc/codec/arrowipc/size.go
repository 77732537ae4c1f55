package arrowipc

import "github.com/apache/arrow-go/v18/arrow"

// RecordBytes is the size of the buffers rec's columns hold, children
// included: the memory the record keeps alive (a slice counts its parent's
// buffers whole).
func RecordBytes(rec arrow.RecordBatch) int {
	n := 0
	for _, col := range rec.Columns() {
		n += bufferBytes(col.Data())
	}
	return n
}

func bufferBytes(d arrow.ArrayData) int {
	n := 0
	for _, b := range d.Buffers() {
		if b != nil {
			n += b.Len()
		}
	}
	for _, c := range d.Children() {
		n += bufferBytes(c)
	}
	return n
}
