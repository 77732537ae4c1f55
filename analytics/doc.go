// Package analytics runs the SQL that Fluss cannot serve itself
// (aggregates, GROUP BY, joins, filters on any column, window functions,
// subqueries) on an embedded DuckDB, fed with bounded Fluss reads as
// Arrow record streams.
//
// Importing the package registers the engine with package engine, so that
// every front door built on it (the database/sql driver, the shell, the
// Flight SQL server) plans such queries instead of refusing them:
//
//	import _ "github.com/gofluss/fluss/analytics"
//
// Queries are written in Flink SQL and keep Flink's meaning: the
// translation to DuckDB's dialect (translate.go and its siblings) quotes
// identifiers, spells out Flink's NULL order in ORDER BY, divides
// integers as integers, and writes Flink's functions (CONCAT, DATE_FORMAT,
// FLOOR(t TO unit), REGEXP_REPLACE, ...) as DuckDB expressions that
// compute the same; a function it does not know is refused by name.
// Time-zone dependent functions are evaluated in the session's zone
// (SET 'table.local-time-zone', or the DSN's loc).
//
// The package needs cgo and the build tag duckdb_arrow (DuckDB's Arrow
// interface sits behind it); it lives in a module of its own so that the
// driver module links no DuckDB and builds with CGO_ENABLED=0.
package analytics
