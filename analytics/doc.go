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
// The package needs cgo and the build tag duckdb_arrow (DuckDB's Arrow
// interface sits behind it); it lives in a module of its own so that the
// driver module links no DuckDB and builds with CGO_ENABLED=0.
package analytics
