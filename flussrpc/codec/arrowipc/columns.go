package arrowipc

import (
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
)

// ColumnReader reads record batches of a list of Fluss columns (such as
// the records of a log scan) in the codec value model, with the same
// conversions as Decoder.AppendRows. It is safe for concurrent use.
type ColumnReader struct {
	names   []string
	getters []getterFactory
	copiers []columnCopier // per column, nil where the getter is used
}

// NewColumnReader returns the reader of records whose columns are cols,
// in order, with the Fluss→Arrow type mapping of this package.
func NewColumnReader(cols []schema.Column) (*ColumnReader, error) {
	cr := &ColumnReader{}
	for _, c := range cols {
		g, err := newGetter(c.Type)
		if err != nil {
			return nil, err
		}
		cr.names = append(cr.names, c.Name)
		cr.getters = append(cr.getters, g)
		cr.copiers = append(cr.copiers, newCopier(c.Type))
	}
	return cr, nil
}

func (cr *ColumnReader) checkWidth(rec arrow.RecordBatch) error {
	if int(rec.NumCols()) != len(cr.getters) {
		return fmt.Errorf("arrowipc: record has %s, reader expects %d", plural.Count(rec.NumCols(), "column"), len(cr.getters))
	}
	return nil
}

// appendRows converts rec to rows and appends them to dst; see
// Decoder.AppendRows.
func (cr *ColumnReader) appendRows(dst [][]any, rec arrow.RecordBatch) ([][]any, error) {
	if err := cr.checkWidth(rec); err != nil {
		return dst, err
	}
	n, nc := int(rec.NumRows()), len(cr.getters)
	flat := make([]any, n*nc)
	start := len(dst)
	dst = slices.Grow(dst, n)
	for r := 0; r < n; r++ {
		dst = append(dst, flat[r*nc:(r+1)*nc:(r+1)*nc])
	}
	for c := range cr.getters {
		col, err := cr.column(rec, c)
		if err != nil {
			return dst[:start], err
		}
		col.fill(flat, nc, c)
	}
	return dst, nil
}

// column copies column c of rec out of its buffers: with the column's
// copier when it has one, else value by value with its getter.
func (cr *ColumnReader) column(rec arrow.RecordBatch, c int) (copiedColumn, error) {
	if cp := cr.copiers[c]; cp != nil {
		if col, ok := cp(rec.Column(c)); ok {
			return col, nil
		}
	}
	get, err := cr.getters[c](rec.Column(c))
	if err != nil {
		return nil, err
	}
	vals := make(anyColumn, rec.NumRows())
	for r := range vals {
		if vals[r], err = get(r); err != nil {
			return nil, fmt.Errorf("arrowipc: column %q row %d: %w", cr.names[c], r, err)
		}
	}
	return vals, nil
}

// Read copies the values of rec out of its buffers, column by column,
// without making a row of each record: Columns.Value hands each value out
// as an interface that allocates nothing for the fixed-width and string
// columns. The result references none of rec's memory, so rec may be
// released as soon as Read returns.
func (cr *ColumnReader) Read(rec arrow.RecordBatch) (*Columns, error) {
	if err := cr.checkWidth(rec); err != nil {
		return nil, err
	}
	out := &Columns{rows: int(rec.NumRows()), cols: make([]copiedColumn, len(cr.getters))}
	for c := range cr.getters {
		col, err := cr.column(rec, c)
		if err != nil {
			return nil, err
		}
		out.cols[c] = col
	}
	return out, nil
}

// Columns are the values of one record batch held column by column, as
// ColumnReader.Read returns them.
type Columns struct {
	rows int
	cols []copiedColumn
}

// NumRows is the number of rows.
func (c *Columns) NumRows() int { return c.rows }

// Value is the codec value of column col in row row (nil for NULL).
func (c *Columns) Value(col, row int) any { return c.cols[col].at(row) }

// anyColumn is a column read value by value with its getter.
type anyColumn []any

func (a anyColumn) fill(dst []any, stride, col int) {
	for r, v := range a {
		dst[r*stride+col] = v
	}
}

func (a anyColumn) at(r int) any { return a[r] }
