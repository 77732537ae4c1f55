// Package schema models Fluss table metadata: data types, columns, schemas,
// table and database descriptors.
//
// The JSON produced and accepted here is the format the Fluss servers store
// and exchange in GET_TABLE_INFO, GET_TABLE_SCHEMA, CREATE_TABLE and
// CREATE_DATABASE ("table_json", "schema_json", "database_json"). Output
// follows the key order and omission rules of the Java serialisers so that a
// descriptor created by this package is the same document the Java client
// would send; input tolerates unknown keys so newer servers keep working.
//
// Column ids: Fluss gives every column (and every nested ROW field) a stable
// integer id used for schema evolution and predicate push-down. NewSchema
// assigns them the way the Java Schema.Builder does when a client declares a
// new table: top-level columns and nested fields share one counter, walked in
// pre-order (column, then its nested fields), starting at 0.
//
// DataType is a plain value; nested types hang off pointers (Elem, Key,
// Value) or the Fields slice. Values are never mutated by this package after
// construction, so sharing them between goroutines is safe.
package schema
