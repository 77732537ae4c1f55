// Command hello is the program of the README's quick start: it connects to
// the cluster of `make demo` (FLUSS_BOOTSTRAP, else 127.0.0.1 at FLUSS_PORT),
// creates a table, inserts, looks a row up by key and scans the table.
package main

import (
	"cmp"
	"database/sql"
	"fmt"
	"log"
	"os"

	_ "github.com/gofluss/fluss"
)

func main() {
	addr := cmp.Or(os.Getenv("FLUSS_BOOTSTRAP"), "127.0.0.1:"+cmp.Or(os.Getenv("FLUSS_PORT"), "9123"))
	db, err := sql.Open("fluss", "fluss://"+addr+"/fluss")
	check(err)
	defer db.Close()
	_, err = db.Exec("CREATE TABLE IF NOT EXISTS hello_users (id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED)")
	check(err)
	_, err = db.Exec("INSERT INTO hello_users VALUES (1, 'ada'), (2, 'bob')") // upserts: safe to rerun
	check(err)
	var name string
	check(db.QueryRow("SELECT name FROM hello_users WHERE id = ?", 1).Scan(&name)) // a point lookup
	fmt.Println("user 1 is", name)
	rows, err := db.Query("SELECT id, name FROM hello_users ORDER BY id") // a bounded scan
	check(err)
	for rows.Next() {
		var id int64
		check(rows.Scan(&id, &name))
		fmt.Println(id, name)
	}
	check(rows.Err())
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
