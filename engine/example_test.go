package engine_test

import (
	"context"
	"database/sql/driver"
	"fmt"
	"log"

	"github.com/gofluss/fluss/engine"
	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/internal/fakefluss"
	"github.com/gofluss/fluss/parser"
)

// A Session runs SQL over a flussrpc.Client without database/sql. Here
// the client talks to the in-memory cluster of internal/fakefluss; point
// it at a real cluster's bootstrap address instead in a program.
func Example() {
	cluster, err := fakefluss.StartCluster(fakefluss.ClusterConfig{})
	if err != nil {
		log.Fatal(err)
	}
	defer cluster.Close()
	ctx := context.Background()
	client, err := flussrpc.NewClient(ctx, flussrpc.Config{Bootstrap: []string{cluster.Bootstrap()}})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	s := engine.NewSession(engine.NewCatalog(client), engine.Config{Database: "fluss"})
	defer s.Close()
	stmts, err := parser.ParseScript(`
		CREATE TABLE orders (id BIGINT, item STRING, PRIMARY KEY (id) NOT ENFORCED);
		INSERT INTO orders VALUES (1, 'tea'), (2, 'milk');
		SELECT item FROM orders WHERE id = ?`)
	if err != nil {
		log.Fatal(err)
	}
	for _, st := range stmts {
		var args []driver.NamedValue
		if st.NumParams() == 1 {
			args = []driver.NamedValue{{Ordinal: 1, Value: int64(2)}}
		}
		rows, affected, err := s.Prepare(st).Run(ctx, args)
		if err != nil {
			log.Fatal(err)
		}
		if rows == nil {
			fmt.Println(affected, "rows affected")
			continue
		}
		dest := make([]driver.Value, len(rows.Columns()))
		for rows.Next(dest) == nil { // io.EOF after the last row
			fmt.Println(rows.Columns()[0], "=", dest[0])
		}
		rows.Close()
	}
	// Output:
	// 0 rows affected
	// 2 rows affected
	// item = milk
}
