// Package fakefluss is an in-process stand-in for a Fluss 0.9.1 cluster,
// for unit tests that must run in seconds and without a JVM.
//
// It works at two levels:
//
//   - Server is one listener speaking the real frame format. It answers
//     API_VERSIONS (and AUTHENTICATE when given a handler) itself and hands
//     every other request to the test (Next), which replies, replies with
//     an error, writes raw bytes or drops connections by hand. Tests of the
//     client's transport script the server this way.
//   - Cluster is a small in-memory model behind a coordinator and tablet
//     servers: metadata, databases, tables, PUT_KV/LOOKUP/LIMIT_SCAN on
//     primary-key tables, PRODUCE_LOG/FETCH_LOG/LIST_OFFSETS/LIMIT_SCAN on
//     log tables and GET_TABLE_STATS on both, enough for the executor to
//     run DDL, writes, point lookups, counts and log scans. Chosen APIs can
//     still be forwarded to the test.
//
// The model keeps record bytes as the client wrote them: it splits KV
// batches into keys and values, assigns offsets and commit times to log
// batches, cuts ARROW batches down to the projected columns when a fetch
// asks for it, and decodes rows only to merge partial updates. It does not
// model partitions, replication, ACLs, snapshots, ALTER TABLE, the
// changelog of primary-key tables or failures; the integration suite
// against the real cluster (make test) covers those.
//
// The package must not import flussrpc: flussrpc's own tests use it.
package fakefluss
