// Package parser parses the SQL dialect of the fluss database/sql driver:
// Flink SQL as Apache Fluss users write it (DDL, DML, hints, virtual tables
// such as orders$changelog), plus a few MySQL spellings that Go tooling
// emits (? placeholders, REPLACE INTO, SHOW FULL TABLES, SET NAMES, ...).
//
// # Pipeline
//
// Text is first split into tokens by this package's own lexer (Lex), which
// knows Flink's quoting rules: single-quoted strings with ” escapes and
// literal backslashes, backtick identifiers with “ escapes, comments (--,
// #, /* */), Flink hints /*+ ... */ and the placeholders ?, $n and :name. A
// double-quoted "..." token is a string literal (as in MySQL and the
// embedded MySQL parser); where an identifier is expected it is rejected
// with a hint to use backticks. Every token carries a line:column position.
//
// Scripts are split on ';' tokens (Split, ParseScript). Each statement is
// then routed on its leading keyword:
//
//   - DDL, SHOW, DESCRIBE, EXPLAIN, USE, SET, RESET, CALL, FLUSH and the
//     transaction statements are parsed by a hand-written recursive-descent
//     grammar, including the complete Fluss type grammar (ParseType).
//   - SELECT, WITH, INSERT, REPLACE, UPSERT, UPDATE and DELETE are
//     rewritten by a token-level pre-pass (hints after table names are
//     lifted out, t$changelog and three-part names are quoted/stripped,
//     typed literals, ARRAY[..], MAP[..], CAST to Fluss types, OVER
//     windows, NULLS FIRST/LAST, FLOOR/CEIL(x TO unit), EXTRACT, POSITION
//     and INTERVAL literals become marker calls, the queries of WITH are
//     parsed on their own, $n becomes :vN, MySQL keywords used as column
//     names are quoted), parsed by github.com/xwb1989/sqlparser, and
//     converted into this package's AST. That library is never given DDL,
//     so it never logs.
//
// The resulting AST (Statement and the node types in ast.go and
// ast_dml.go) is plain data with no reference to the MySQL parser. It
// records constructs the driver cannot execute (joins, subqueries, GROUP
// BY, window functions, WITH, metadata columns, MySQL-only types, ...)
// instead of dropping them, so
// that the planner can reject them with a precise message.
//
// # Errors
//
// Every syntax error is a *Error whose Line and Column point into the
// original text (also for errors found by the MySQL parser), formatted as
//
//	syntax error at line 3, column 12 near "FOO": expected ")"
//
// # Placeholders
//
// A statement uses one placeholder style: ? (numbered in order), $n, or
// :name. Placeholders inside strings, identifiers, comments and hints are
// not counted, and t$changelog is an identifier, not a placeholder.
// Statement.NumParams reports how many arguments the statement needs.
package parser
