package arrowipc_test

import (
	"fmt"

	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// A ColumnReader reads a record's values column by column, in the codec
// value model, without making a row of each record; the record may be
// released as soon as Read returns.
func ExampleColumnReader() {
	cols := []schema.Column{
		schema.NewColumn("id", schema.BigInt()),
		schema.NewColumn("name", schema.String()),
	}
	rb, err := arrowipc.NewRowBuilder(cols, nil)
	if err != nil {
		panic(err)
	}
	defer rb.Release()
	for _, row := range [][]any{{int64(1), "a"}, {int64(2), nil}} {
		if err := rb.Append(row); err != nil {
			panic(err)
		}
	}
	rec := rb.NewRecord()

	cr, err := arrowipc.NewColumnReader(cols)
	if err != nil {
		panic(err)
	}
	vals, err := cr.Read(rec)
	rec.Release()
	if err != nil {
		panic(err)
	}
	for r := 0; r < vals.NumRows(); r++ {
		fmt.Println(vals.Value(0, r), vals.Value(1, r))
	}
	// Output:
	// 1 a
	// 2 <nil>
}
