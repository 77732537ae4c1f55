// Package fluss is a database/sql driver for Apache Fluss with a SQL
// dialect that accepts the Flink SQL Fluss users already write.
//
// Fluss runs no SQL on its servers: every statement is parsed (package
// parser), planned (package planner) and executed (package engine) in the
// client, as native Fluss calls through package flussrpc, a complete Go
// client of its own. This package is the thin database/sql adapter over
// engine: DSN and Connector, a session per pooled connection, statements,
// rows, write-batch transactions, errors, and the Raw escape hatches
// (Client, Admin, AppendArrow, UpsertArrow, QueryArrow). See
// docs/architecture.md for the layers.
//
//	db, err := sql.Open("fluss", "fluss://127.0.0.1:9123/mydb")
//
// The DSN format and its keys are described at ParseDSN and Config.
//
// # Transactions
//
// Fluss has no transactions. BeginTx opens a write batch in the client:
// the writes inside it are queued, Commit sends them and returns once the
// server acknowledged every one (or with the first failure: Commit is not
// atomic), and Rollback drops what is still queued. There is no
// isolation: reads inside the transaction (SELECT, and the lookup an
// UPDATE makes) do not see its queued writes, only what the server has
// acknowledged; read a row written in the transaction after Commit. With
// tx=reject in the DSN, BeginTx fails instead.
//
// Config.Tracer and Config.Logger, set on a parsed Config given to
// NewConnector, observe what a connector does: the hooks of packages
// flussrpc (connections, requests, writes, fetches, lookups) and engine
// (planning and running statements), and the client's log. The module
// github.com/gofluss/fluss/otel turns them into OpenTelemetry traces and
// metrics; without a tracer they cost nothing.
package fluss
