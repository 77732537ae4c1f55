package schema

import "time"

// TablePath names a table: database and table name.
type TablePath struct {
	Database string
	Table    string
}

// String renders the path as "db.table".
func (p TablePath) String() string { return p.Database + "." + p.Table }

// TableInfo is a table as the cluster describes it. It lives here rather
// than in the client so that code planning statements against a table
// (which needs its descriptor, not a connection) depends on no network
// package.
type TableInfo struct {
	Path          TablePath
	TableID       int64
	SchemaID      int32 // latest schema id
	Descriptor    TableDescriptor
	CreatedTime   time.Time
	ModifiedTime  time.Time
	RemoteDataDir string // Fluss 1.x; "" otherwise
}

// NumBuckets is the bucket count of the table (of each partition).
func (t *TableInfo) NumBuckets() int {
	if t.Descriptor.BucketCount == nil {
		return 0
	}
	return *t.Descriptor.BucketCount
}
