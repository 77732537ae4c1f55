// Command flussql is the SQL shell of the fluss database/sql driver: an
// interactive prompt for people, and a script runner for shell scripts, CI
// jobs and tools that want CSV or JSON out of a Fluss cluster.
//
// Usage:
//
//	flussql [--dsn DSN] [-c SQL]... [-f FILE]... [--format FORMAT] [-q] [--null TEXT] [--otel] [DSN]
//
// The DSN is --dsn, else a last positional argument, else $FLUSS_DSN, e.g.
// fluss://127.0.0.1:9123/mydb or fluss://user:password@host:9123/mydb
// (see the fluss package for every DSN key).
//
//	-c SQL         run SQL (statements separated by ';', and meta commands on
//	               lines of their own); repeatable
//	-f FILE        run a script file ("-" is stdin); repeatable; -c and -f
//	               run in the order given
//	--format F     table, csv, tsv, json, jsonl or vertical; the default is
//	               table when stdout is a terminal and csv otherwise
//	-q             no row counts, "OK" or timing messages on stderr
//	--null TEXT    how table and vertical output show NULL (default NULL)
//	--otel         export traces and metrics of every statement over OTLP,
//	               configured by the standard OTEL_EXPORTER_OTLP_* variables
//	               (on by itself when OTEL_EXPORTER_OTLP_ENDPOINT is set)
//	--version      print the version
//
// With neither -c nor -f, statements are read from stdin when it is not a
// terminal, and an interactive session starts when it is.
//
// # Non-interactive runs
//
// Statements run one by one on one connection (so USE and SET carry over);
// the first failing statement or meta command stops the run. Errors go to
// stderr as "FILE:LINE: ERROR: message" ("<stdin>" for stdin, no location
// for -c). Exit status: 0 success (also after \q), 1 a statement, meta
// command or file failed, 2 bad usage or no connection, 130 interrupted by
// Ctrl-C (SIGINT, which cancels the running statement).
//
// Results go to stdout. Everything else — "(3 rows)", "OK", "OK, 2 rows
// affected", "COPY 10", "Time: 1.234 ms", progress lines — goes to stderr,
// so csv and json output on stdout stays clean.
//
// # Interactive sessions
//
// The prompt shows the current database ("fluss=> "; "fluss-> " while a
// statement continues). A statement ends with ';' outside strings, quoted
// identifiers and comments, and may span lines. Lines are edited with the
// usual keys (arrows, Home/End, Ctrl-A/E/K/U/W); Up and Down walk the
// history, kept in ~/.flussql_history (or $FLUSSQL_HISTORY; at most 1000
// lines). Ctrl-C cancels the running statement (its context) or discards
// the statement being typed; Ctrl-D or \q quits.
//
// # Meta commands
//
// A line starting with a backslash is a meta command:
//
//	\q                  quit
//	\? | \help          help
//	\l                  databases (SHOW DATABASES)
//	\dt [DB]            tables and their kind (SHOW FULL TABLES [FROM DB])
//	\d [TABLE]          a table: columns, types, keys (DESCRIBE), partitions
//	                    (SHOW PARTITIONS, for partitioned tables) and options
//	                    (SHOW TABLE OPTIONS); without TABLE, like \dt
//	\x [on|off]         vertical (expanded) output
//	\format [FORMAT]    show or change the output format (\pset format too)
//	\timing [on|off]    print the time of each statement and \copy, after its output or error
//	\conninfo           the connection, password redacted
//	\i FILE             run a script; it stops at its first error
//	\echo TEXT          print TEXT
//	\sleep SECONDS      wait; Ctrl-C cancels
//	\p, \r              print or discard the statement being typed
//	\copy ...           client-side CSV import and export, see below
//
// EXPLAIN statement passes through to the driver, which prints the plan:
// which Fluss RPC (lookup, prefix lookup, limit scan, KV scan, log scan,
// append, upsert) the statement becomes.
//
// # Output formats
//
//   - table: aligned columns, numbers right-aligned, NULL shown as NULL
//     (--null changes it); values with newlines span lines, and on a terminal
//     the widest columns are narrowed to fit its width, their values wrapped.
//     Only table mode wraps; no format ever cuts a value.
//   - vertical: one "column | value" line per column per row, like psql's \x.
//   - csv: RFC 4180 with a header line; fields with the separator, quotes,
//     CR/LF or leading/trailing blanks are quoted and quotes doubled. NULL is
//     an empty unquoted field and the empty string is "" (as PostgreSQL's
//     COPY ... CSV), so the two stay distinct.
//   - tsv: a header line, tab-separated; NULL is \N; backslash, tab, newline
//     and CR in values are written \\, \t, \n and \r (PostgreSQL text format).
//   - json: an array of objects, keys in column order; jsonl: one object per
//     line. NULL is null; integers and floats are numbers (NaN and
//     infinities, which JSON lacks, are the strings "NaN", "Infinity",
//     "-Infinity"); DECIMAL is a string to keep every digit; BYTES are base64;
//     ARRAY, MAP and ROW values are embedded as JSON.
//
// In every text format BYTES are \x followed by hex, DATE is 2006-01-02,
// TIME 15:04:05.999, TIMESTAMP 2006-01-02 15:04:05.999 and TIMESTAMP_LTZ
// adds the offset of the session zone (the DSN's loc).
//
// # \copy
//
//	\copy TABLE [(COL, ...)] FROM 'FILE' [WITH] [CSV] [HEADER] [DELIMITER 'C']
//	\copy (SELECT ...) TO 'FILE'|STDOUT [WITH] [CSV] [HEADER] [DELIMITER 'C']
//	\copy TABLE TO 'FILE'|STDOUT [...]
//
// FROM reads CSV as the csv format writes it: an empty unquoted field is
// NULL, "" an empty string, \x<hex> a BYTES value; the other values are
// passed as text and converted by the driver to the column's type. The
// columns are the list given, else the header line's names (with HEADER),
// else every physical column of the table in order. Rows are written with
// prepared multi-row INSERT ... VALUES statements, 500 rows (at most 2000
// parameters) each, without a transaction: when a batch fails, the rows of
// the batches before it stay written, and the error says how many. TO
// writes the query's rows as CSV (a header line with HEADER). On a terminal
// a progress line (rows, rows/s) is drawn on stderr; when stderr is not a
// terminal nothing is.
package main
