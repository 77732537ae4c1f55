// Command sqlx shows the fluss driver under jmoiron/sqlx: structs with db
// tags for writes (NamedExec) and reads (Get, Select), and sqlx.In for a
// batched lookup of several keys.
package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/jmoiron/sqlx"

	_ "github.com/gofluss/fluss"
	"github.com/gofluss/fluss/examples"
)

// Product is one row of the products table.
type Product struct {
	SKU   string  `db:"sku"`
	Name  string  `db:"name"`
	Price float64 `db:"price"`
	Stock *int32  `db:"stock"` // nullable
}

func main() { examples.Main("sqlx_example", 2*time.Minute, run) }

func run(ctx context.Context, dsn, db string, out io.Writer) error {
	x, err := sqlx.ConnectContext(ctx, "fluss", dsn)
	if err != nil {
		return err
	}
	defer x.Close()
	x.MustExecContext(ctx, "DROP DATABASE IF EXISTS "+db+" CASCADE")
	x.MustExecContext(ctx, "CREATE DATABASE "+db)
	x.MustExecContext(ctx, `CREATE TABLE `+db+`.products (
		sku STRING, name STRING, price DOUBLE, stock INT,
		PRIMARY KEY (sku) NOT ENFORCED)`)

	stock := int32(5)
	for _, p := range []Product{
		{SKU: "A-1", Name: "anvil", Price: 99.5, Stock: &stock},
		{SKU: "B-2", Name: "bucket", Price: 4.25},
		{SKU: "C-3", Name: "chain", Price: 12},
	} {
		if _, err := x.NamedExecContext(ctx, "INSERT INTO "+db+".products (sku, name, price, stock) VALUES (:sku, :name, :price, :stock)", p); err != nil {
			return err
		}
	}

	var one Product
	if err := x.GetContext(ctx, &one, "SELECT * FROM "+db+".products WHERE sku = ?", "A-1"); err != nil {
		return err
	}
	fmt.Fprintf(out, "get: %s %s %.2f stock=%d\n", one.SKU, one.Name, one.Price, *one.Stock)

	query, args, err := sqlx.In("SELECT * FROM "+db+".products WHERE sku IN (?)", []string{"B-2", "C-3", "Z-9"})
	if err != nil {
		return err
	}
	var some []Product
	if err := x.SelectContext(ctx, &some, query, args...); err != nil {
		return err
	}
	sort.Slice(some, func(i, j int) bool { return some[i].SKU < some[j].SKU })
	for _, p := range some {
		fmt.Fprintf(out, "select: %s %s %.2f stock=%v\n", p.SKU, p.Name, p.Price, p.Stock)
	}
	return nil
}
