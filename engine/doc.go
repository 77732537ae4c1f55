// Package engine runs planned SQL statements against a Fluss cluster: it
// is the executor layer between package planner (pure plans) and the
// front doors (the database/sql driver in the root package, the flussql
// shell, Arrow helpers).
//
// A Catalog holds what every session of one flussrpc.Client shares: the
// planner's cached table metadata and the open tables with their batching
// lookupers. A Session holds one user's state (current database, SET
// options, cached writers, the open write batch) and runs statements:
//
//	cat := engine.NewCatalog(client)
//	s := engine.NewSession(cat, engine.Config{Database: "fluss"})
//	stmts, _ := parser.ParseScript("SELECT * FROM orders WHERE id = ?")
//	rows, _, err := s.Prepare(stmts[0]).Run(ctx, args)
//
// Rows and arguments use the value vocabulary of database/sql/driver
// (driver.Rows, driver.NamedValue), the Go standard for a row stream, but
// nothing here depends on database/sql's pool. QueryArrow returns the rows
// of a query as Arrow record batches instead.
//
// Files by concern: exec.go (the one dispatch from plan to code), session.go,
// catalog.go (shared tables), write.go and tx.go (writers, write batches),
// lookup.go, read.go (counts, LIMIT and log scans), kvscan.go, filter.go
// (row predicates), ddl.go, show.go, infoschema.go, call.go (procedures),
// rows.go and rows_scan.go (result streams), arrow.go.
package engine
