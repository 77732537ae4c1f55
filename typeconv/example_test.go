package typeconv_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/gofluss/fluss/planner"
	"github.com/gofluss/fluss/typeconv"
)

func Example() {
	// Type text in, canonical text and column metadata out.
	typ, err := planner.ParseType("ROW(id BIGINT NOT NULL, tags STRING ARRAY, price DECIMAL(10, 2))")
	if err != nil {
		panic(err)
	}
	fmt.Println(typeconv.TypeName(typ))
	col := typeconv.Column(typ)
	fmt.Println(col.DatabaseTypeName(), col.ScanType())

	// Foreign spellings name their Fluss replacement.
	_, err = planner.ParseType("VARCHAR(255)")
	fmt.Println(err)

	// A Go value in: a struct bound by db tags.
	type item struct {
		ID    int64    `db:"id"`
		Tags  []string `db:"tags"`
		Price string   `db:"price"`
	}
	v, err := typeconv.ToValue(typ, item{ID: 7, Tags: []string{"new"}, Price: "19.90"}, time.UTC)
	if err != nil {
		panic(err)
	}

	// ... and the value out, as Rows.Next would return it.
	out, err := typeconv.FromValue(typ, v, typeconv.OutOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(out)

	// DECIMAL values are never rounded.
	price := typ.Fields[2].Type
	_, err = typeconv.ToValue(price, "19.999", time.UTC)
	fmt.Println(typeconv.WithColumn(err, "price"), errors.Is(err, typeconv.ErrFraction))

	// Output:
	// ROW<id BIGINT NOT NULL, tags ARRAY<STRING>, price DECIMAL(10, 2)>
	// ROW<id BIGINT NOT NULL, tags ARRAY<STRING>, price DECIMAL(10, 2)> sql.NullString
	// fluss: type VARCHAR(255) is not a Fluss type; use STRING
	// {"id":7,"tags":["new"],"price":19.90}
	// fluss: column price: cannot convert string "19.999" to DECIMAL(10, 2): has more than 2 fractional digits (values are never rounded) true
}
