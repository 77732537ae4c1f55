package main

// The shell runs what Fluss cannot serve (aggregates, joins, filters on any
// column) on the embedded engine. Built without the tag duckdb_arrow (the
// Makefile sets it), such queries say how to build it.
import _ "github.com/gofluss/fluss/analytics"
