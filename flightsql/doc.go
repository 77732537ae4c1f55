// Package flightsql serves the project's SQL dialect over Apache Arrow
// Flight SQL, so that ADBC (Python, R, DuckDB, Polars), the Flight SQL
// JDBC driver (DBeaver, IntelliJ, Tableau) and any other Flight SQL client
// reach Fluss without Flink. It runs on the executor layer (package engine)
// and arrow-go's Flight SQL server framework; database/sql is not involved.
//
//	srv, err := flightsql.NewServer(flightsql.Config{
//		Client:  flussrpc.Config{Bootstrap: []string{"127.0.0.1:9123"}},
//		Session: engine.Config{Database: "fluss"},
//	})
//	err = srv.Serve(listener)
//
// What it serves:
//
//   - statements (CommandStatementQuery, CommandStatementUpdate) and
//     prepared statements whose parameters are bound from Arrow record
//     batches, one execution per parameter row;
//   - transactions as the driver's client-side write batches (rows are
//     held and written at commit; Fluss itself has no transactions), or
//     refused when the session configuration rejects them;
//   - query results streamed batch by batch as the scan produces them;
//     a client that cancels the call stops the scan; the log batches of a
//     plain scan go out undecoded, as Fluss stored them, compressed ones
//     only to calls whose x-fluss-ipc-compression header names their
//     codec (Arrow Java, hence the JDBC driver, cannot read them);
//   - bulk ingest (CommandStatementIngest): log tables are appended to
//     with the native Arrow writer, primary-key tables are upserted;
//     the reply counts only rows the cluster acknowledged;
//   - catalog metadata: SqlInfo, catalogs, databases as schemas, tables
//     (with their Arrow schemas), primary keys, table types and XDBC type
//     info. Other commands answer UNIMPLEMENTED.
//
// Security: every call authenticates. Basic credentials (sent on the
// Flight handshake or on any call) are passed through to Fluss SASL/PLAIN:
// each distinct credential gets a native client of its own, so Fluss ACLs
// apply per user; the server hands back a bearer token for later calls.
// Calls without credentials are refused unless Config.AllowAnonymous is
// set, in which case they use Config.Client as given. Passwords never
// appear in errors or logs. Config.TLS serves over TLS. A user keeps at
// most Config.MaxOpenPerUser prepared statements and transactions open
// (the least recently used statement makes room for a new one), and their
// bound parameters a bounded number of values in all; a transaction
// without calls for Config.IdleTimeout is rolled back.
//
// Files by concern: server.go (setup, listener, errors), auth.go (users,
// tokens, per-user clients), statement.go (queries, updates, prepared
// statements, transactions), params.go (Arrow parameters to Go values),
// quota.go (what one user may keep open), sessionlock.go (one call at a
// time on a statement's or transaction's session),
// results.go (row streams to Arrow), doget.go and messages.go (records and
// log batches to Flight messages), ipcpass.go (the compression header),
// ingest.go, metadata.go, sqlinfo.go.
package flightsql
