// Package examples holds runnable programs that show the fluss driver in
// use. Each subdirectory is a main package with a run function that its
// test calls against the local cluster (make test runs them all):
//
//	hello       the README's program: connect, create, insert, look up, scan
//	quickstart  create a database and tables, insert, look up, scan (make demo)
//	sqlx        the same through jmoiron/sqlx: structs with db tags, NamedExec, In
//	bulk-arrow  millions of rows through sql.Conn.Raw as Arrow record batches
//	changelog   upserts and deletes, then the table's changes from t$changelog
//	gorm        users and an event log through GORM and the flussgorm dialector
//	bun         a table through uptrace/bun with its MySQL dialect
//	flightsql   a Python notebook session over ADBC and the Flight SQL
//	            server (notebook.py, run by flightsql's TestNotebookExample)
//
// gorm and bun are Go modules of their own, so that the driver module does
// not depend on GORM or bun; run them from their directories (go run .).
//
// Every program but hello takes -dsn (default: FLUSS_BOOTSTRAP, or else
// 127.0.0.1 at FLUSS_PORT, 9123 when unset: the cluster `make demo`
// starts); hello reads the same two variables itself.
package examples
