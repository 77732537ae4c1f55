// Command bun shows the fluss driver under uptrace/bun with its MySQL
// dialect, the one that fits Fluss best: backtick quoting and ? binds,
// as the driver's dialect expects. It creates a table through bun (with
// ddl=lenient in the DSN, so bun's MySQL column types are accepted),
// inserts, counts, reads by key and by an IN list in order, updates and
// deletes.
//
// It is a module of its own, so the driver module does not depend on bun.
package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/mysqldialect"

	"github.com/gofluss/fluss"
	"github.com/gofluss/fluss/examples"
)

// Book is one row of a primary-key table.
type Book struct {
	bun.BaseModel `bun:"table:books,alias:b"`

	ISBN  string  `bun:"isbn,pk"`
	Title string  `bun:"title"`
	Pages int32   `bun:"pages"`
	Price float64 `bun:"price"`
}

func main() { examples.Main("bun_example", 2*time.Minute, run) }

func run(ctx context.Context, dsn, dbName string, out io.Writer) error {
	if err := examples.Recreate(ctx, dsn, dbName); err != nil {
		return err
	}
	cfg, err := examples.InDatabase(dsn, dbName)
	if err != nil {
		return err
	}
	cfg.LenientDDL = true // ddl=lenient
	sqldb, err := fluss.OpenDB(cfg)
	if err != nil {
		return err
	}
	db := bun.NewDB(sqldb, mysqldialect.New())
	defer db.Close()

	if _, err := db.NewCreateTable().Model((*Book)(nil)).Exec(ctx); err != nil {
		return err
	}
	books := []Book{
		{ISBN: "978-0", Title: "Dune", Pages: 412, Price: 9.5},
		{ISBN: "978-1", Title: "Emma", Pages: 474, Price: 7.25},
		{ISBN: "978-2", Title: "Ulysses", Pages: 730, Price: 12},
	}
	if _, err := db.NewInsert().Model(&books).Exec(ctx); err != nil {
		return err
	}

	n, err := db.NewSelect().Model((*Book)(nil)).Count(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "count: %d\n", n)

	b := Book{ISBN: "978-1"}
	if err := db.NewSelect().Model(&b).WherePK().Scan(ctx); err != nil {
		return err
	}
	fmt.Fprintf(out, "by key: %s %q %d pages\n", b.ISBN, b.Title, b.Pages)

	var some []Book
	if err := db.NewSelect().Model(&some).Where("isbn IN (?)", bun.List([]string{"978-2", "978-0"})).Order("pages DESC").Scan(ctx); err != nil {
		return err
	}
	for _, b := range some {
		fmt.Fprintf(out, "in list: %s %d\n", b.Title, b.Pages)
	}

	b.Price = 8
	if _, err := db.NewUpdate().Model(&b).Column("price").WherePK().Exec(ctx); err != nil {
		return err
	}
	if _, err := db.NewDelete().Model(&Book{ISBN: "978-0"}).WherePK().Exec(ctx); err != nil {
		return err
	}
	var left []Book
	if err := db.NewSelect().Model(&left).Order("isbn").Scan(ctx); err != nil {
		return err
	}
	for _, b := range left {
		fmt.Fprintf(out, "left: %s %s %.2f\n", b.ISBN, b.Title, b.Price)
	}
	return nil
}
