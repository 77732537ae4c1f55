package parser_test

import (
	"fmt"

	"github.com/gofluss/fluss/parser"
)

func Example() {
	stmts, err := parser.ParseScript(`
		CREATE TABLE orders (
		  id BIGINT,
		  amount DECIMAL(10, 2),
		  PRIMARY KEY (id) NOT ENFORCED
		) WITH ('bucket.num' = '4');
		SELECT * FROM orders$changelog /*+ OPTIONS('scan.startup.mode' = 'earliest') */ WHERE id = ?;
	`)
	if err != nil {
		fmt.Println(err)
		return
	}
	ct := stmts[0].(*parser.CreateTable)
	fmt.Println(ct.Name.Name, ct.PrimaryKey.Columns, ct.Columns[1].Type)

	sel := stmts[1].(*parser.Select)
	t, _ := sel.SingleTable()
	fmt.Println(t.Name.Name, t.Name.Virtual, t.Hints[0].Options[0].Value, sel.NumParams())

	_, err = parser.Parse("SELECT * FROM orders WHERE")
	fmt.Println(err)
	// Output:
	// orders [id] DECIMAL(10, 2)
	// orders changelog earliest 1
	// syntax error at line 1, column 27 at end of input: unexpected end of statement
}
