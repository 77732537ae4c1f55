// Package flussrpc is the native Go client for Apache Fluss.
//
// It speaks the Fluss RPC protocol directly over TCP: length-prefixed
// frames carrying protocol-buffer messages (package pb), many requests
// multiplexed on one connection per server, API-version negotiation and
// SASL/PLAIN authentication on connect. On top of the transport it offers
// metadata routing, administration, writers, lookups and scans; the
// database/sql driver in the module root is built on it, and advanced users
// can reach it through sql.Conn.Raw. The files are grouped by concern
// (transport, metadata, admin, tables, writers, lookups, scans); the
// repository's docs/architecture.md maps them.
//
// Errors reported by servers are *Error values whose codes can be tested
// with errors.Is against the Err* sentinels (for example ErrTableNotExist).
// Connection failures are *TransportError values; SafeToRetry tells
// whether a failed request certainly never reached the server.
package flussrpc
