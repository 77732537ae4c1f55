// Package fluss is a database/sql driver for Apache Fluss with a SQL
// dialect that accepts the Flink SQL Fluss users already write.
//
// Fluss runs no SQL on its servers: every statement is parsed (package
// parser) and planned (package planner) in the client, and executed as
// native Fluss calls through package flussrpc, a complete Go client of its
// own.
//
//	db, err := sql.Open("fluss", "fluss://127.0.0.1:9123/mydb")
//
// The DSN format and its keys are described at ParseDSN and Config.
package fluss
