package planner_test

import (
	"context"
	"fmt"

	"github.com/gofluss/fluss/parser"
	"github.com/gofluss/fluss/planner"
)

func ExampleBuild() {
	st, err := parser.Parse("SELECT VERSION(), 1 AS one")
	if err != nil {
		panic(err)
	}
	pl, err := planner.Build(context.Background(), st, nil, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(pl)
	// Output:
	// Constant
	//   Row: [session version :: STRING NOT NULL, 1 :: INT NOT NULL]
	//   Output: [`VERSION()` STRING NOT NULL, one INT NOT NULL]
}
