package planner

import (
	"github.com/gofluss/fluss/flussrpc/schema"
)

// Plan is the result of planning one statement: plain data describing the
// native calls to make. String renders it for EXPLAIN and golden tests.
type Plan interface {
	// String renders the plan as an indented, deterministic tree.
	String() string
	planNode()
}

// QueryPlan is a plan that returns rows; Output lists the result columns.
type QueryPlan interface {
	Plan
	// OutputColumns returns the result columns in order.
	OutputColumns() []Column
}

// Column is a result column: its name and Fluss type.
type Column struct {
	Name string
	Type schema.DataType
}

// Table identifies a resolved table. SchemaID lets the executor notice a
// schema change and re-plan.
type Table struct {
	Path     schema.TablePath
	TableID  int64
	SchemaID int32
}

// ValueKind says what a Value holds.
type ValueKind int

// Value kinds.
const (
	// ValueLiteral: a constant converted to Value.Type; Literal holds it.
	ValueLiteral ValueKind = iota
	// ValueParam: a statement parameter bound at execution; Param says which.
	ValueParam
	// ValueSession: a session or driver value resolved at execution
	// (Session is "version", "database", "catalog" or "user"), or a
	// reading of the clock converted to Type ("current_timestamp",
	// "localtimestamp", "current_date" or "current_time").
	ValueSession
)

// String returns "literal", "param" or "session".
func (k ValueKind) String() string {
	switch k {
	case ValueParam:
		return "param"
	case ValueSession:
		return "session"
	}
	return "literal"
}

// Value is one value inside a plan: a typed literal or a parameter
// reference, with the Fluss type it must have.
//
// Literals are already in the codec value model of Type, as produced by
// typeconv.ToValue (int8..int64, float32/float64, bool, string, []byte,
// codec.Decimal, codec.Date, codec.Time, codec.TimestampNTZ,
// codec.TimestampLTZ, []any for ARRAY and ROW, codec.Map); NULL is nil.
// Parameters are converted by the executor with typeconv.ToValue(Type, arg).
type Value struct {
	Kind ValueKind
	// Type is the target type (the column's type where one is known).
	Type    schema.DataType
	Literal any
	// Param is set for ValueParam.
	Param *Param
	// Session names the session value for ValueSession.
	Session string
}

// IsNull reports whether v is a NULL literal.
func (v Value) IsNull() bool { return v.Kind == ValueLiteral && v.Literal == nil }

// Param is a statement parameter and the type its argument is converted
// to. Index is the 1-based argument index ('?' in order, '$n', or the
// position of a ':name' among distinct names); Name is set for ':name'.
// Column names the target column ("" when there is none, e.g. LIMIT).
type Param struct {
	Index  int
	Name   string
	Column string
	Type   schema.DataType
}

// ---------------------------------------------------------------------------
// Session, catalog and transaction plans

// NoOp is a statement accepted for compatibility that does nothing
// (CREATE CATALOG, SET NAMES, SET 'sql-client.*', ...). Reason says why.
type NoOp struct {
	Statement string
	Reason    string
}

// Use switches the session's current database (after checking it exists).
type Use struct {
	Database string
}

// UseCatalog confirms the catalog name (only this connection's catalog is
// accepted, so it changes nothing).
type UseCatalog struct {
	Catalog string
}

// SetOption stores a session option (SET 'k' = 'v').
type SetOption struct {
	Key, Value string
}

// ResetOption removes a session option; Key "" resets all of them.
type ResetOption struct {
	Key string
}

// ShowOptions lists the session options (SET with no arguments).
type ShowOptions struct {
	Output []Column
}

// TxKind is the kind of a transaction-control statement.
type TxKind int

// Transaction statement kinds.
const (
	TxBegin TxKind = iota
	TxCommit
	TxRollback
)

// String returns "BEGIN", "COMMIT" or "ROLLBACK".
func (k TxKind) String() string {
	switch k {
	case TxCommit:
		return "COMMIT"
	case TxRollback:
		return "ROLLBACK"
	}
	return "BEGIN"
}

// Transaction controls the write-batch pseudo-transaction.
type Transaction struct {
	Kind TxKind
}

// Flush flushes pending writers: of one table, or all when Table is nil.
type Flush struct {
	Table *schema.TablePath
}

// Batch is EXECUTE STATEMENT SET: the plans run in order.
type Batch struct {
	Plans []Plan
}

// Explain describes Inner without running it.
type Explain struct {
	Inner  Plan
	Output []Column
}

// CallArg is one argument of a procedure call, named after the parameter
// it fills (a variadic parameter's name repeats).
type CallArg struct {
	Name  string
	Value Value
}

// Call runs one of the catalog's sys procedures through the Admin API.
// Args are in the procedure's parameter order; absent optional arguments
// are left out.
type Call struct {
	Procedure string
	Args      []CallArg
	Params    []Param
	Output    []Column
}

// ---------------------------------------------------------------------------
// Admin plans

// CreateDatabase is Admin.CreateDatabase.
type CreateDatabase struct {
	Name        string
	Descriptor  schema.DatabaseDescriptor
	IfNotExists bool
}

// DropDatabase is Admin.DropDatabase. Cascade is false for the default
// RESTRICT behaviour.
type DropDatabase struct {
	Name     string
	IfExists bool
	Cascade  bool
}

// DatabaseChangeKind is the kind of one ALTER DATABASE change.
type DatabaseChangeKind int

// Database change kinds.
const (
	DatabaseSetProperty DatabaseChangeKind = iota
	DatabaseResetProperty
	DatabaseSetComment
)

// String returns "SET", "RESET" or "SET COMMENT".
func (k DatabaseChangeKind) String() string {
	switch k {
	case DatabaseResetProperty:
		return "RESET"
	case DatabaseSetComment:
		return "SET COMMENT"
	}
	return "SET"
}

// DatabaseChange is one change of ALTER DATABASE.
type DatabaseChange struct {
	Kind  DatabaseChangeKind
	Key   string
	Value string
}

// AlterDatabase is Admin.AlterDatabase with the listed changes.
type AlterDatabase struct {
	Name    string
	Changes []DatabaseChange
}

// CreateTable is Admin.CreateTable. Notices lists what lenient DDL
// changed or ignored.
type CreateTable struct {
	Path        schema.TablePath
	Descriptor  schema.TableDescriptor
	IfNotExists bool
	Notices     []string
}

// DropTable is Admin.DropTable for each path in order.
type DropTable struct {
	Paths    []schema.TablePath
	IfExists bool
}

// TableChangeKind is the kind of one ALTER TABLE change.
type TableChangeKind int

// Table change kinds.
const (
	ChangeSetOption TableChangeKind = iota
	ChangeResetOption
	ChangeAddColumn
	ChangeDropColumn
	ChangeRenameColumn
	ChangeModifyColumn
)

var tableChangeNames = [...]string{"SET", "RESET", "ADD COLUMN", "DROP COLUMN", "RENAME COLUMN", "MODIFY COLUMN"}

// String returns the change's SQL verb, e.g. "ADD COLUMN".
func (k TableChangeKind) String() string {
	if int(k) < len(tableChangeNames) {
		return tableChangeNames[k]
	}
	return "UNKNOWN"
}

// TableChange is one change of ALTER TABLE as data; the executor converts
// it to the client's form.
type TableChange struct {
	Kind TableChangeKind
	// Key and Value for option changes.
	Key, Value string
	// Column for ADD and MODIFY; Column.Name (and NewName) for DROP/RENAME.
	Column  schema.Column
	NewName string
}

// AlterTable is Admin.AlterTable. The server takes option changes and
// schema changes in separate requests; the executor sends OptionChanges
// and SchemaChanges as two calls when both are present.
type AlterTable struct {
	Path          schema.TablePath
	IfExists      bool
	OptionChanges []TableChange
	SchemaChanges []TableChange
}

// AddPartition is Admin.CreatePartition for each spec.
type AddPartition struct {
	Path        schema.TablePath
	Specs       []map[string]string
	IfNotExists bool
}

// DropPartition is Admin.DropPartition for each spec.
type DropPartition struct {
	Path     schema.TablePath
	Specs    []map[string]string
	IfExists bool
}

// ---------------------------------------------------------------------------
// Introspection plans

// ShowKind says what a Show plan lists.
type ShowKind int

// Show kinds.
const (
	ShowDatabases ShowKind = iota
	ShowTables
	ShowPartitions
	ShowCreateTable
	ShowColumns
	ShowTableOptions
	ShowBuckets
	ShowOffsets
	ShowTableStats
	ShowKvSnapshots
	ShowLakeSnapshot
	ShowServers
	ShowProcedures
	ShowCatalogs
	ShowCurrentDatabase
	ShowCurrentCatalog
	ShowVariables
	// ShowViews lists no views: Fluss has none, and its Flink catalog
	// answers SHOW VIEWS with an empty list, which scripts expect.
	ShowViews
)

var showKindNames = [...]string{"DATABASES", "TABLES", "PARTITIONS", "CREATE TABLE", "COLUMNS", "TABLE OPTIONS", "BUCKETS", "OFFSETS", "TABLE STATS", "KV SNAPSHOTS", "LAKE SNAPSHOT", "SERVERS", "PROCEDURES", "CATALOGS", "CURRENT DATABASE", "CURRENT CATALOG", "VARIABLES", "VIEWS"}

// String returns the SHOW keywords, e.g. "TABLE STATS".
func (k ShowKind) String() string {
	if int(k) < len(showKindNames) {
		return showKindNames[k]
	}
	return "UNKNOWN"
}

// OffsetKind is a position in a bucket's log.
type OffsetKind int

// Offset kinds.
const (
	OffsetEarliest OffsetKind = iota
	OffsetLatest
	OffsetTimestamp
	// OffsetExplicit: per-bucket offsets given by 'fluss.scan.start-offsets'.
	OffsetExplicit
	// OffsetNone: unbounded (streaming reads have no stop offset).
	OffsetNone
)

var offsetKindNames = [...]string{"EARLIEST", "LATEST", "TIMESTAMP", "EXPLICIT", "NONE"}

// String returns "EARLIEST", "LATEST", "TIMESTAMP", "EXPLICIT" or "NONE".
func (k OffsetKind) String() string {
	if int(k) < len(offsetKindNames) {
		return offsetKindNames[k]
	}
	return "UNKNOWN"
}

// OffsetSpec is a start or stop position. For OffsetTimestamp, Timestamp
// is epoch milliseconds (or TimestampValue holds a parameter or literal
// to resolve); for OffsetExplicit, Offsets maps bucket → offset.
type OffsetSpec struct {
	Kind           OffsetKind
	Timestamp      int64
	TimestampValue *Value
	Offsets        map[int32]int64
}

// Pattern is a SHOW ... LIKE pattern (SQL LIKE syntax, % and _).
type Pattern struct {
	Pattern         string
	Not             bool
	CaseInsensitive bool
}

// Show lists metadata. The fields used depend on Kind: Database for
// TABLES; Table for the per-table kinds; Partition (possibly partial) for
// PARTITIONS, BUCKETS, OFFSETS, TABLE STATS, KV SNAPSHOTS; Offset for
// OFFSETS. Full is SHOW FULL TABLES / COLUMNS.
type Show struct {
	Kind      ShowKind
	Full      bool
	Database  string
	Table     *Table
	Like      *Pattern
	Partition map[string]string
	Offset    *OffsetSpec
	Params    []Param
	Output    []Column
}

// Describe describes a table (DESCRIBE t, SHOW COLUMNS) or a database
// (DESCRIBE DATABASE db); exactly one of Table and Database is set.
type Describe struct {
	Table    *Table
	Database string
	Extended bool
	// Full and Like come from SHOW [FULL] COLUMNS FROM t [LIKE 'p'].
	Full   bool
	Like   *Pattern
	Output []Column
}

// Constant returns one row of constants or session values (SELECT 1,
// SELECT VERSION(), SELECT DATABASE()).
type Constant struct {
	Row    []Value
	Params []Param
	Output []Column
}

// ---------------------------------------------------------------------------
// Write plans

// Options are the validated OPTIONS hint values of a statement (writer
// options of writes, 'lookup.insert-if-not-exists' of lookups). Session
// options are not copied; the executor applies the precedence hint > SET >
// table custom property > DSN.
type Options map[string]string

// Append writes rows to a log table (AppendWriter.append per row, then
// flush). Columns is every table column in schema order; each row has one
// Value per column (NULL for columns left out).
type Append struct {
	Table   Table
	Columns []string
	Rows    [][]Value
	Params  []Param
	Options Options
}

// Upsert writes rows to a primary-key table. Columns are the target
// columns in schema order and each row has one Value per target column.
// Partial means a partial update of those columns (they include the whole
// primary key); otherwise Columns is the full schema.
type Upsert struct {
	Table     Table
	Columns   []string
	Partial   bool
	Rows      [][]Value
	Params    []Param
	MergeMode string
	Options   Options
}

// Delete deletes rows of a primary-key table by key (UpsertWriter.delete
// per key, then flush). KeyColumns is the primary key in schema order;
// each key has one Value per key column. With Residual (the WHERE
// conditions beyond the key), each key is looked up first and deleted only
// when its row matches them. Ignored is true when the table's delete
// behavior is IGNORE or 'sink.ignore-delete' is set: nothing is sent and 0
// rows are affected.
type Delete struct {
	Table      Table
	KeyColumns []string
	Keys       [][]Value
	Residual   []Predicate
	Ignored    bool
	Params     []Param
	Options    Options
}

// Update is read-modify-write of the rows of Keys (one key, or an IN
// list or OR of keys): each is looked up; when found and the row matches
// Residual (the WHERE conditions beyond the key), it is written back with
// the Set values. With Partial, that is a partial upsert of Columns
// (primary key + SET columns, schema order); without it (some other
// column is NOT NULL, which partial updates do not allow), a full upsert
// of the looked-up row merged with Set, and Columns is every column. The
// rows found and matched are affected, each once.
type Update struct {
	Table      Table
	KeyColumns []string
	Keys       [][]Value
	Residual   []Predicate
	Set        []Assignment
	Partial    bool
	Columns    []string
	Params     []Param
	Options    Options
}

// Assignment is one column = value of UPDATE SET.
type Assignment struct {
	Column string
	Value  Value
}

// ---------------------------------------------------------------------------
// Read plans

// Predicate is a condition the executor evaluates on rows (residual
// predicates of lookups, partition filters, client-side filters). Op is
// one of "=", "<>", "<", "<=", ">", ">=", "IN", "NOT IN", "IS NULL",
// "IS NOT NULL", "LIKE", "NOT LIKE", "BETWEEN", "NOT BETWEEN" (with Column
// and Values) or "AND", "OR", "NOT" (with Args).
type Predicate struct {
	Op     string
	Column string
	Values []Value
	Args   []Predicate
}

// Projection is the select list resolved against the scanned row type:
// Indexes into the scanned columns, in output order.
type Projection struct {
	Indexes []int
}

// Lookup is a point lookup by the full primary key (P1): one
// Lookuper.lookup per key (batched), then Residual is evaluated on each
// found row and Projection applied. Limit/Offset, when set, apply to the
// combined result.
type Lookup struct {
	Table      Table
	KeyColumns []string
	Keys       [][]Value
	Residual   []Predicate
	Projection Projection
	Limit      *Value
	Offset     *Value
	Options    Options
	Params     []Param
	Output     []Column
}

// PrefixLookup is a prefix lookup by partition keys + bucket key (P2):
// lookupBy(PrefixColumns) then lookup(prefix) per prefix.
type PrefixLookup struct {
	Table         Table
	PrefixColumns []string
	Prefixes      [][]Value
	Residual      []Predicate
	Projection    Projection
	Limit         *Value
	Offset        *Value
	Params        []Param
	Output        []Column
}

// Count is SELECT COUNT(*) (P3): Admin.getTableStats row counts (PK
// tables need the FULL changelog image), or Σ(latest−earliest) offsets
// for log tables, over the partitions matching PartitionFilter.
type Count struct {
	Table           Table
	PrimaryKey      bool
	PartitionFilter []Predicate
	Params          []Param
	Output          []Column
}

// LimitScan is LIMIT_SCAN(n) per (partition, bucket) (P4), stopping when
// Limit rows are collected; Offset rows are skipped client-side.
type LimitScan struct {
	Table           Table
	PrimaryKey      bool
	Limit           Value
	Offset          *Value
	PartitionFilter []Predicate
	Projection      Projection
	Params          []Param
	Output          []Column
}

// LogScan is a bounded (or, when Stop is OffsetNone, streaming) read of a
// log table (P5): subscribe every pruned (partition, bucket) at Start and
// poll until each bucket reaches Stop: the latest offsets captured when
// the query starts (OffsetLatest), or the offsets at 'scan.stop.timestamp'
// (OffsetTimestamp). Filter, when set, is evaluated client-side and the
// result capped at MaxRows ('fluss.client-filter', P9).
type LogScan struct {
	Table           Table
	Start           OffsetSpec
	Stop            OffsetSpec
	PartitionFilter []Predicate
	Filter          []Predicate
	MaxRows         int64
	Projection      Projection
	Limit           *Value
	Offset          *Value
	Params          []Param
	Output          []Column
	// Fetch are the scan's FetchOptionKeys options, resolved with the
	// precedence hint > SET > table custom property > DSN.
	Fetch Options
}

// FetchOptionKeys are the Java client's options of log fetches that a
// log or changelog scan applies (see LogScan.Fetch).
var FetchOptionKeys = []string{
	"client.scanner.log.fetch.max-bytes",
	"client.scanner.log.fetch.max-bytes-for-bucket",
	"client.scanner.log.fetch.min-bytes",
	"client.scanner.log.fetch.wait-max-time",
}

// LookupOptionKeys are the Java client's options of lookups, which the
// session's lookups apply from SET or else the DSN. They tune how lookups
// batch, and the sessions of a table share a lookuper per setting so that
// their lookups batch together: a hint or a table property would split
// that sharing per statement, so neither may give them.
var LookupOptionKeys = []string{"client.lookup.batch-size", "client.lookup.max-inflight-requests"}

// KvScan is a full scan of a primary-key table's current state (P6):
// SCAN_KV per bucket where available, otherwise LIMIT_SCAN(MaxRows+1)
// per bucket with an error when the cap is hit.
type KvScan struct {
	Table           Table
	PartitionFilter []Predicate
	Filter          []Predicate
	MaxRows         int64
	Projection      Projection
	Limit           *Value
	Offset          *Value
	Params          []Param
	Output          []Column
}

// ChangelogScan reads t$changelog (P7) or t$binlog (P8, Binlog true) from
// the log: like LogScan, over the table's (change)log. The scanned row is
// _change_type, _log_offset, _commit_timestamp, then the table columns
// (binlog: _change_type, _log_offset, _commit_timestamp, before, after).
// OffsetFilter holds _log_offset / _commit_timestamp predicates.
type ChangelogScan struct {
	Table           Table
	Binlog          bool
	PrimaryKey      bool
	Start           OffsetSpec
	Stop            OffsetSpec
	PartitionFilter []Predicate
	OffsetFilter    []Predicate
	Filter          []Predicate
	MaxRows         int64
	Projection      Projection
	Limit           *Value
	Offset          *Value
	Params          []Param
	Output          []Column
	Fetch           Options // as LogScan.Fetch
}

func (*NoOp) planNode()           {}
func (*Use) planNode()            {}
func (*UseCatalog) planNode()     {}
func (*SetOption) planNode()      {}
func (*ResetOption) planNode()    {}
func (*ShowOptions) planNode()    {}
func (*Transaction) planNode()    {}
func (*Flush) planNode()          {}
func (*Batch) planNode()          {}
func (*Explain) planNode()        {}
func (*Call) planNode()           {}
func (*CreateDatabase) planNode() {}
func (*DropDatabase) planNode()   {}
func (*AlterDatabase) planNode()  {}
func (*CreateTable) planNode()    {}
func (*DropTable) planNode()      {}
func (*AlterTable) planNode()     {}
func (*AddPartition) planNode()   {}
func (*DropPartition) planNode()  {}
func (*Show) planNode()           {}
func (*Describe) planNode()       {}
func (*Constant) planNode()       {}
func (*Append) planNode()         {}
func (*Upsert) planNode()         {}
func (*Delete) planNode()         {}
func (*Update) planNode()         {}
func (*Lookup) planNode()         {}
func (*PrefixLookup) planNode()   {}
func (*Count) planNode()          {}
func (*LimitScan) planNode()      {}
func (*LogScan) planNode()        {}
func (*KvScan) planNode()         {}
func (*ChangelogScan) planNode()  {}

// String implementations share one formatter.

// String renders the plan.
func (p *NoOp) String() string { return format(p) }

// String renders the plan.
func (p *Use) String() string { return format(p) }

// String renders the plan.
func (p *UseCatalog) String() string { return format(p) }

// String renders the plan.
func (p *SetOption) String() string { return format(p) }

// String renders the plan.
func (p *ResetOption) String() string { return format(p) }

// String renders the plan.
func (p *ShowOptions) String() string { return format(p) }

// String renders the plan.
func (p *Transaction) String() string { return format(p) }

// String renders the plan.
func (p *Flush) String() string { return format(p) }

// String renders the plan.
func (p *Batch) String() string { return format(p) }

// String renders the plan.
func (p *Explain) String() string { return format(p) }

// String renders the plan.
func (p *Call) String() string { return format(p) }

// String renders the plan.
func (p *CreateDatabase) String() string { return format(p) }

// String renders the plan.
func (p *DropDatabase) String() string { return format(p) }

// String renders the plan.
func (p *AlterDatabase) String() string { return format(p) }

// String renders the plan.
func (p *CreateTable) String() string { return format(p) }

// String renders the plan.
func (p *DropTable) String() string { return format(p) }

// String renders the plan.
func (p *AlterTable) String() string { return format(p) }

// String renders the plan.
func (p *AddPartition) String() string { return format(p) }

// String renders the plan.
func (p *DropPartition) String() string { return format(p) }

// String renders the plan.
func (p *Show) String() string { return format(p) }

// String renders the plan.
func (p *Describe) String() string { return format(p) }

// String renders the plan.
func (p *Constant) String() string { return format(p) }

// String renders the plan.
func (p *Append) String() string { return format(p) }

// String renders the plan.
func (p *Upsert) String() string { return format(p) }

// String renders the plan.
func (p *Delete) String() string { return format(p) }

// String renders the plan.
func (p *Update) String() string { return format(p) }

// String renders the plan.
func (p *Lookup) String() string { return format(p) }

// String renders the plan.
func (p *PrefixLookup) String() string { return format(p) }

// String renders the plan.
func (p *Count) String() string { return format(p) }

// String renders the plan.
func (p *LimitScan) String() string { return format(p) }

// String renders the plan.
func (p *LogScan) String() string { return format(p) }

// String renders the plan.
func (p *KvScan) String() string { return format(p) }

// String renders the plan.
func (p *ChangelogScan) String() string { return format(p) }

// OutputColumns returns the result columns.
func (p *ShowOptions) OutputColumns() []Column { return p.Output }

// OutputColumns returns the result columns.
func (p *Explain) OutputColumns() []Column { return p.Output }

// OutputColumns returns the result columns.
func (p *Show) OutputColumns() []Column { return p.Output }

// OutputColumns returns the result columns.
func (p *Describe) OutputColumns() []Column { return p.Output }

// OutputColumns returns the result columns.
func (p *Constant) OutputColumns() []Column { return p.Output }

// OutputColumns returns the result columns.
func (p *Lookup) OutputColumns() []Column { return p.Output }

// OutputColumns returns the result columns.
func (p *PrefixLookup) OutputColumns() []Column { return p.Output }

// OutputColumns returns the result columns.
func (p *Count) OutputColumns() []Column { return p.Output }

// OutputColumns returns the result columns.
func (p *LimitScan) OutputColumns() []Column { return p.Output }

// OutputColumns returns the result columns.
func (p *LogScan) OutputColumns() []Column { return p.Output }

// OutputColumns returns the result columns.
func (p *KvScan) OutputColumns() []Column { return p.Output }

// OutputColumns returns the result columns.
func (p *ChangelogScan) OutputColumns() []Column { return p.Output }
