package engine

import (
	"database/sql/driver"
	"io"
	"reflect"

	"github.com/gofluss/fluss/planner"
	"github.com/gofluss/fluss/typeconv"
)

// memRows are rows already in memory (metadata listings, constants),
// holding codec values that are converted to database/sql values as they
// are read, exactly like streamed rows.
type memRows struct {
	cols []planner.Column
	// types describe cols for the ColumnType methods; made on first use,
	// as most callers (a QueryRow) never ask.
	types []typeconv.ColumnType
	rows  [][]any
	next  int
	opts  typeconv.OutOptions
}

var (
	_ driver.Rows                           = (*memRows)(nil)
	_ driver.RowsColumnTypeScanType         = (*memRows)(nil)
	_ driver.RowsColumnTypeDatabaseTypeName = (*memRows)(nil)
	_ driver.RowsColumnTypeNullable         = (*memRows)(nil)
	_ driver.RowsColumnTypePrecisionScale   = (*memRows)(nil)
	_ driver.RowsColumnTypeLength           = (*memRows)(nil)
)

func newMemRows(cols []planner.Column, rows [][]any, opts typeconv.OutOptions) *memRows {
	return &memRows{cols: cols, rows: rows, opts: opts}
}

// typeOf describes column i.
func (r *memRows) typeOf(i int) typeconv.ColumnType {
	if r.types == nil {
		r.types = columnTypes(r.cols, r.opts)
	}
	return r.types[i]
}

func columnTypes(cols []planner.Column, opts typeconv.OutOptions) []typeconv.ColumnType {
	out := make([]typeconv.ColumnType, len(cols))
	for i, c := range cols {
		out[i] = typeconv.ColumnFor(c.Type, opts)
	}
	return out
}

// Columns returns the column names.
func (r *memRows) Columns() []string {
	names := make([]string, len(r.cols))
	for i, c := range r.cols {
		names[i] = c.Name
	}
	return names
}

// Close releases the rows.
func (r *memRows) Close() error {
	r.rows, r.next = nil, 0
	return nil
}

// Next converts the next row into dest.
func (r *memRows) Next(dest []driver.Value) error {
	if r.next >= len(r.rows) {
		return io.EOF
	}
	row := r.rows[r.next]
	r.next++
	return r.convert(row, dest)
}

// convert turns one row of codec values into database/sql values.
func (r *memRows) convert(row []any, dest []driver.Value) error {
	for i := range dest {
		if err := r.set(dest, i, row[i]); err != nil {
			return err
		}
	}
	return nil
}

// set converts v, a codec value of column i, into dest[i].
func (r *memRows) set(dest []driver.Value, i int, v any) error {
	d, err := typeconv.FromValue(r.cols[i].Type, v, r.opts)
	if err != nil {
		return typeconv.WithColumn(err, r.cols[i].Name)
	}
	dest[i] = d
	return nil
}

// ColumnTypeScanType is the Go type Next returns for the column.
func (r *memRows) ColumnTypeScanType(i int) reflect.Type { return r.typeOf(i).ScanType() }

// ColumnTypeDatabaseTypeName is the Fluss type name, e.g. "BIGINT".
func (r *memRows) ColumnTypeDatabaseTypeName(i int) string { return r.typeOf(i).DatabaseTypeName() }

// ColumnTypeNullable reports whether the column may hold NULL.
func (r *memRows) ColumnTypeNullable(i int) (nullable, ok bool) { return r.typeOf(i).Nullable() }

// ColumnTypePrecisionScale reports DECIMAL and time precision.
func (r *memRows) ColumnTypePrecisionScale(i int) (precision, scale int64, ok bool) {
	return r.typeOf(i).PrecisionScale()
}

// ColumnTypeLength reports the length of CHAR/BINARY and variable types.
func (r *memRows) ColumnTypeLength(i int) (length int64, ok bool) { return r.typeOf(i).Length() }
