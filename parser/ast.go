package parser

// This file defines the statement nodes. Every node is plain data: exported
// fields, no hidden state and no dependency on the embedded MySQL parser.

// Statement is one parsed SQL statement.
type Statement interface {
	// Text returns the statement's source text (without the trailing ';').
	Text() string
	// Position returns where the statement starts in the parsed text.
	Position() Pos
	// NumParams returns the number of arguments the statement needs: the
	// number of '?' placeholders, the highest n of the '$n' placeholders,
	// or the number of distinct ':name' placeholders.
	NumParams() int
	// Placeholders returns every placeholder occurrence in source order.
	Placeholders() []Placeholder
	statementNode()
}

// PlaceholderStyle tells which placeholder syntax a statement uses. A
// statement uses exactly one style.
type PlaceholderStyle int

// Placeholder styles.
const (
	// NoPlaceholders: the statement has no placeholders.
	NoPlaceholders PlaceholderStyle = iota
	// QuestionMark: '?' placeholders, numbered 1, 2, ... in source order.
	QuestionMark
	// DollarNumber: '$1', '$2', ... (PostgreSQL style); the number is the
	// argument index.
	DollarNumber
	// ColonName: ':name' placeholders (sqlx / sql.Named style).
	ColonName
)

// Placeholder is one placeholder occurrence.
type Placeholder struct {
	Pos   Pos
	Style PlaceholderStyle
	// Index is the 1-based argument index for QuestionMark and DollarNumber.
	// For ColonName it is the 1-based index of the name among the distinct
	// names in order of first appearance.
	Index int
	// Name is the placeholder name (without ':') for ColonName.
	Name string
}

// Meta carries the source information shared by all statements. It is
// embedded in every statement node.
type Meta struct {
	// Source is the statement text exactly as written (no trailing ';').
	Source string
	// Pos is where the statement starts.
	Pos Pos
	// Style is the placeholder style used by the statement.
	Style PlaceholderStyle
	// Params lists every placeholder occurrence in source order.
	Params []Placeholder
}

// Text returns the statement's source text.
func (m *Meta) Text() string { return m.Source }

// Position returns where the statement starts.
func (m *Meta) Position() Pos { return m.Pos }

// Placeholders returns the placeholder occurrences in source order.
func (m *Meta) Placeholders() []Placeholder { return m.Params }

// NumParams returns the number of arguments the statement needs.
func (m *Meta) NumParams() int {
	n := 0
	for _, p := range m.Params {
		if p.Index > n {
			n = p.Index
		}
	}
	return n
}

// Option is one 'key' = 'value' pair of a WITH (...) list, an OPTIONS hint,
// SET TBLPROPERTIES or a SET statement. Value is the literal's text with
// quotes removed (numbers and booleans are kept as written).
type Option struct {
	Key   string
	Value string
	Pos   Pos
}

// Hint is a Flink hint such as /*+ OPTIONS('k'='v') */. One hint comment
// may contain several hints.
type Hint struct {
	// Name is the hint name in upper case, e.g. "OPTIONS", "LOOKUP".
	Name string
	// Options holds 'k'='v' arguments in order (OPTIONS, LOOKUP).
	Options []Option
	// Args holds plain list arguments (e.g. BROADCAST(t1, t2)).
	Args []string
	Pos  Pos
}

// VirtualKind classifies the "$suffix" of a virtual (system) table name.
type VirtualKind int

// Virtual table kinds.
const (
	// NotVirtual: a plain table.
	NotVirtual VirtualKind = iota
	// VirtualChangelog: t$changelog.
	VirtualChangelog
	// VirtualBinlog: t$binlog.
	VirtualBinlog
	// VirtualLake: t$lake and lake system tables such as t$lake$snapshots.
	VirtualLake
	// VirtualUnknown: any other "$" suffix.
	VirtualUnknown
)

var virtualKindNames = [...]string{"", "changelog", "binlog", "lake", "unknown"}

// String returns "changelog", "binlog", "lake", "unknown" or "".
func (k VirtualKind) String() string {
	if int(k) < len(virtualKindNames) {
		return virtualKindNames[k]
	}
	return "unknown"
}

// TableName is a possibly qualified table name: [[catalog.]database.]name.
// Unquoted and quoted parts are kept exactly as written (case preserved).
type TableName struct {
	// Catalog is set only for three-part names; the planner checks and
	// strips it.
	Catalog  string
	Database string
	// Name is the base table name, without any "$suffix".
	Name string
	// Virtual is the kind of virtual table named by the "$suffix".
	Virtual VirtualKind
	// VirtualSuffix is the raw text after the first '$' ("changelog",
	// "lake$snapshots"); empty when Virtual is NotVirtual.
	VirtualSuffix string
	Pos           Pos
}

// String renders the name as written (unquoted), including the suffix.
func (n TableName) String() string {
	s := n.Name
	if n.VirtualSuffix != "" {
		s += "$" + n.VirtualSuffix
	}
	if n.Database != "" {
		s = n.Database + "." + s
	}
	if n.Catalog != "" {
		s = n.Catalog + "." + s
	}
	return s
}

// DatabaseName is a possibly catalog-qualified database name.
type DatabaseName struct {
	Catalog string
	Name    string
	Pos     Pos
}

// String renders the name unquoted.
func (n DatabaseName) String() string {
	if n.Catalog != "" {
		return n.Catalog + "." + n.Name
	}
	return n.Name
}

// ---------------------------------------------------------------------------
// Databases and catalogs

// CreateDatabase is CREATE DATABASE [IF NOT EXISTS] db [COMMENT 'c'] [WITH (...)].
type CreateDatabase struct {
	Meta
	IfNotExists bool
	Name        DatabaseName
	// Comment is nil when no COMMENT clause was given.
	Comment *string
	Options []Option
}

// DropBehavior is the RESTRICT/CASCADE choice of DROP DATABASE.
type DropBehavior int

// Drop behaviors.
const (
	// DropDefault: neither RESTRICT nor CASCADE was written (Flink: RESTRICT).
	DropDefault DropBehavior = iota
	DropRestrict
	DropCascade
)

// DropDatabase is DROP DATABASE [IF EXISTS] db [RESTRICT|CASCADE].
type DropDatabase struct {
	Meta
	IfExists bool
	Name     DatabaseName
	Behavior DropBehavior
}

// AlterDatabase is ALTER DATABASE db SET (...) | RESET (...) | SET COMMENT 'c'.
// Exactly one of Set, Reset and Comment is populated.
type AlterDatabase struct {
	Meta
	Name    DatabaseName
	Set     []Option
	Reset   []string
	Comment *string
}

// CreateCatalog is CREATE CATALOG [IF NOT EXISTS] c [COMMENT 'x'] WITH (...).
type CreateCatalog struct {
	Meta
	IfNotExists bool
	Name        string
	Comment     *string
	Options     []Option
}

// UseCatalog is USE CATALOG c.
type UseCatalog struct {
	Meta
	Name string
}

// Use is USE [catalog.]db.
type Use struct {
	Meta
	Database DatabaseName
}

// ---------------------------------------------------------------------------
// Tables

// ColumnKind distinguishes physical, computed and metadata columns.
type ColumnKind int

// Column kinds.
const (
	// PhysicalColumn: name type [...].
	PhysicalColumn ColumnKind = iota
	// ComputedColumn: name AS expr (Flink metadata only).
	ComputedColumn
	// MetadataColumn: name type METADATA [FROM 'key'] [VIRTUAL] (not
	// supported by Fluss; parsed so the planner can reject it by name).
	MetadataColumn
)

var columnKindNames = [...]string{"physical", "computed", "metadata"}

// String returns "physical", "computed" or "metadata".
func (k ColumnKind) String() string {
	if int(k) < len(columnKindNames) {
		return columnKindNames[k]
	}
	return "unknown"
}

// ColumnPosition is FIRST or AFTER col in ALTER TABLE ADD/MODIFY.
type ColumnPosition struct {
	First bool
	After string
}

// ColumnDef is one column of CREATE TABLE or ALTER TABLE ADD/MODIFY.
type ColumnDef struct {
	Name string
	Kind ColumnKind
	// Type is the declared type (physical and metadata columns); nil for
	// computed columns. Nullability (NOT NULL / NULL) is in Type.NotNull.
	Type *DataType
	// Expr is the source text of a computed column's expression.
	Expr string
	// MetadataKey is the FROM 'key' of a metadata column ("" if absent).
	MetadataKey string
	// MetadataVirtual is true for "METADATA VIRTUAL".
	MetadataVirtual bool
	// Comment is nil when no COMMENT was given.
	Comment *string
	// PrimaryKey is true for an inline "PRIMARY KEY [NOT ENFORCED]".
	PrimaryKey bool
	// PrimaryKeyNotEnforced is true when the inline primary key says NOT ENFORCED.
	PrimaryKeyNotEnforced bool
	// Position is FIRST/AFTER in ALTER TABLE; nil otherwise.
	Position *ColumnPosition
	// MySQL lists MySQL column attributes accepted for lenient DDL, as
	// written: "AUTO_INCREMENT", "DEFAULT 0", "UNSIGNED", "UNIQUE",
	// "CHARACTER SET utf8", "COLLATE x", "ON UPDATE CURRENT_TIMESTAMP".
	MySQL []string
	Pos   Pos
}

// PrimaryKey is a table-level [CONSTRAINT name] PRIMARY KEY (cols) [NOT ENFORCED].
type PrimaryKey struct {
	ConstraintName string
	Columns        []string
	NotEnforced    bool
	Pos            Pos
}

// Watermark is WATERMARK FOR col AS expr (Flink metadata only).
type Watermark struct {
	Column string
	// Expr is the source text of the watermark strategy expression.
	Expr string
	Pos  Pos
}

// LikeOption is one INCLUDING/EXCLUDING/OVERWRITING option of CREATE TABLE LIKE.
type LikeOption struct {
	// Mode is "INCLUDING", "EXCLUDING" or "OVERWRITING".
	Mode string
	// Feature is "ALL", "CONSTRAINTS", "PARTITIONS", "OPTIONS",
	// "WATERMARKS", "GENERATED", "METADATA" or "DISTRIBUTION".
	Feature string
}

// LikeClause is CREATE TABLE ... LIKE src [(options)].
type LikeClause struct {
	Source  TableName
	Options []LikeOption
}

// Distribution is Flink's DISTRIBUTED BY [HASH|RANGE|RANDOM](cols) [INTO n BUCKETS]
// or DISTRIBUTED INTO n BUCKETS.
type Distribution struct {
	// Kind is "HASH", "RANGE", "RANDOM" or "" (not specified).
	Kind    string
	Columns []string
	// Buckets is 0 when INTO n BUCKETS is absent.
	Buckets int
}

// CreateTable is CREATE [TEMPORARY] TABLE [IF NOT EXISTS] name (...) ... .
type CreateTable struct {
	Meta
	Temporary   bool
	IfNotExists bool
	Name        TableName
	// Columns in declaration order (physical, computed and metadata).
	Columns []*ColumnDef
	// PrimaryKey is the table-level key; nil if none. An inline column key
	// is reported on the column (ColumnDef.PrimaryKey), not here.
	PrimaryKey   *PrimaryKey
	Watermarks   []*Watermark
	Comment      *string
	PartitionBy  []string
	Distribution *Distribution
	Options      []Option
	Like         *LikeClause
	// MySQLTableOptions lists trailing MySQL table options as written
	// ("ENGINE=InnoDB", "DEFAULT CHARSET=utf8mb4"); lenient DDL only.
	MySQLTableOptions []string
	// MySQLIndexes lists MySQL KEY/INDEX/UNIQUE/FOREIGN KEY/CHECK table
	// elements as written; lenient DDL only.
	MySQLIndexes []string
}

// DropTable is DROP [TEMPORARY] TABLE [IF EXISTS] t[, t2 ...].
type DropTable struct {
	Meta
	Temporary bool
	IfExists  bool
	Names     []TableName
}

// AlterTable is ALTER TABLE [IF EXISTS] t action[, action ...]. Flink allows
// one action per statement; several comma-separated actions (MySQL style)
// are accepted and kept in order.
type AlterTable struct {
	Meta
	IfExists bool
	Name     TableName
	Actions  []AlterAction
}

// AlterAction is one action of ALTER TABLE. Implementations: *SetOptions,
// *ResetOptions, *AlterSchema, *DropColumns, *DropPrimaryKey,
// *DropWatermark, *DropConstraint, *RenameColumn, *RenameTable,
// *AddPartitions, *DropPartitions.
type AlterAction interface{ alterAction() }

// SetOptions is SET ('k'='v', ...) or Spark's SET TBLPROPERTIES (...).
type SetOptions struct {
	Options       []Option
	TblProperties bool
}

// ResetOptions is RESET ('k', ...) or Spark's UNSET TBLPROPERTIES [IF EXISTS] ('k').
type ResetOptions struct {
	Keys          []string
	TblProperties bool
	IfExists      bool
}

// AlterSchemaOp is ADD or MODIFY.
type AlterSchemaOp int

// Schema change operations.
const (
	SchemaAdd AlterSchemaOp = iota
	SchemaModify
)

// AlterSchema is ADD [COLUMN] col ..., ADD (col ..., PRIMARY KEY ..., WATERMARK ...),
// ADD WATERMARK ..., ADD PRIMARY KEY ..., and the same with MODIFY.
type AlterSchema struct {
	Op            AlterSchemaOp
	Columns       []*ColumnDef
	PrimaryKey    *PrimaryKey
	Watermark     *Watermark
	Parenthesized bool
	// ColumnKeyword is true when the COLUMN keyword was written.
	ColumnKeyword bool
}

// DropColumns is DROP [COLUMN] c or DROP (c1, c2).
type DropColumns struct {
	Columns []string
}

// DropPrimaryKey is DROP PRIMARY KEY.
type DropPrimaryKey struct{}

// DropWatermark is DROP WATERMARK.
type DropWatermark struct{}

// DropConstraint is DROP CONSTRAINT name.
type DropConstraint struct{ Name string }

// RenameColumn is RENAME [COLUMN] a TO b.
type RenameColumn struct{ From, To string }

// RenameTable is RENAME TO t2 (Fluss does not support renaming tables).
type RenameTable struct{ To TableName }

// PartitionValue is one "key = value" of a partition spec. Value is a
// *Literal or a *Param.
type PartitionValue struct {
	Column string
	Value  Expr
}

// PartitionSpec is PARTITION (k='v', ...) [WITH (...)].
type PartitionSpec struct {
	Values  []PartitionValue
	Options []Option
	Pos     Pos
}

// AddPartitions is ADD [IF NOT EXISTS] PARTITION (...) [PARTITION (...)].
type AddPartitions struct {
	IfNotExists bool
	Partitions  []PartitionSpec
}

// DropPartitions is DROP [IF EXISTS] PARTITION (...)[, PARTITION (...)].
type DropPartitions struct {
	IfExists   bool
	Partitions []PartitionSpec
}

func (*SetOptions) alterAction()     {}
func (*ResetOptions) alterAction()   {}
func (*AlterSchema) alterAction()    {}
func (*DropColumns) alterAction()    {}
func (*DropPrimaryKey) alterAction() {}
func (*DropWatermark) alterAction()  {}
func (*DropConstraint) alterAction() {}
func (*RenameColumn) alterAction()   {}
func (*RenameTable) alterAction()    {}
func (*AddPartitions) alterAction()  {}
func (*DropPartitions) alterAction() {}

// ---------------------------------------------------------------------------
// Introspection

// ShowKind says what a SHOW statement lists.
type ShowKind int

// SHOW kinds. The comment lists the fields each kind uses.
const (
	ShowDatabases       ShowKind = iota // Like
	ShowTables                          // Full, Database, Like
	ShowPartitions                      // Table, Partition
	ShowCreateTable                     // Table
	ShowColumns                         // Full, Table, Like
	ShowTableOptions                    // Table (SHOW TABLE OPTIONS / SHOW TBLPROPERTIES)
	ShowBuckets                         // Table, Partition
	ShowOffsets                         // Table, Partition, Offsets
	ShowTableStats                      // Table, Partition
	ShowKvSnapshots                     // Table, Partition
	ShowLakeSnapshot                    // Table
	ShowServers                         // -
	ShowProcedures                      // Like
	ShowCatalogs                        // Like
	ShowCurrentDatabase                 // -
	ShowCurrentCatalog                  // -
	ShowVariables                       // Like (MySQL SHOW [SESSION|GLOBAL] VARIABLES; also SET with no arguments is separate)
	ShowOther                           // Words: any other MySQL/Flink SHOW (VIEWS, FUNCTIONS, STATUS, WARNINGS, ...)
)

var showKindNames = [...]string{"DATABASES", "TABLES", "PARTITIONS", "CREATE TABLE", "COLUMNS", "TABLE OPTIONS", "BUCKETS", "OFFSETS", "TABLE STATS", "KV SNAPSHOTS", "LAKE SNAPSHOT", "SERVERS", "PROCEDURES", "CATALOGS", "CURRENT DATABASE", "CURRENT CATALOG", "VARIABLES", "OTHER"}

// String returns the SHOW keyword(s), e.g. "TABLE OPTIONS".
func (k ShowKind) String() string {
	if int(k) < len(showKindNames) {
		return showKindNames[k]
	}
	return "OTHER"
}

// LikePattern is [NOT] LIKE|ILIKE 'pattern' of SHOW statements.
type LikePattern struct {
	Pattern         string
	Not             bool
	CaseInsensitive bool
}

// OffsetSpecKind is the AT clause of SHOW OFFSETS.
type OffsetSpecKind int

// Offset spec kinds.
const (
	// OffsetsLatest is the default when AT is absent.
	OffsetsLatest OffsetSpecKind = iota
	OffsetsEarliest
	OffsetsTimestamp
)

// OffsetSpec is AT EARLIEST | AT LATEST | AT TIMESTAMP <expr>.
type OffsetSpec struct {
	Kind OffsetSpecKind
	// Explicit is true when an AT clause was written.
	Explicit bool
	// Timestamp is the literal or parameter after AT TIMESTAMP.
	Timestamp Expr
}

// Show is any SHOW statement; see ShowKind for the fields each kind uses.
type Show struct {
	Meta
	Kind ShowKind
	// Full is SHOW FULL TABLES / SHOW FULL COLUMNS.
	Full bool
	// Database is the FROM/IN database of SHOW TABLES / SHOW PROCEDURES
	// (nil if absent).
	Database *DatabaseName
	Table    *TableName
	Like     *LikePattern
	// Partition is the optional PARTITION (...) filter.
	Partition *PartitionSpec
	// Offsets is the AT clause of SHOW OFFSETS.
	Offsets *OffsetSpec
	// Words holds the upper-cased words after SHOW for ShowOther.
	Words []string
}

// Describe is DESCRIBE|DESC [EXTENDED] [TABLE] t, DESCRIBE DATABASE db, or
// MySQL's EXPLAIN t.
type Describe struct {
	Meta
	Extended bool
	// Exactly one of Table and Database is set.
	Table    *TableName
	Database *DatabaseName
}

// Explain is EXPLAIN [PLAN FOR] [detail, ...] stmt.
type Explain struct {
	Meta
	// Details are upper-cased explain details (ESTIMATED_COST,
	// CHANGELOG_MODE, JSON_EXECUTION_PLAN, FORMAT=JSON, ...).
	Details   []string
	Statement Statement
}

// ---------------------------------------------------------------------------
// Session

// Set is Flink's SET 'k' = 'v', SET k = v, or SET with no arguments
// (Key == "": list the session options).
type Set struct {
	Meta
	Key   string
	Value string
	// KeyQuoted / ValueQuoted tell whether the key / value were string literals.
	KeyQuoted   bool
	ValueQuoted bool
}

// MySQLSet is MySQL client noise such as SET NAMES utf8, SET autocommit=1,
// SET @@session.x = 1, SET SESSION TRANSACTION ... . The planner treats it
// as a no-op.
type MySQLSet struct {
	Meta
	// Variable is the first variable name as written ("NAMES",
	// "autocommit", "@@session.sql_mode", "TRANSACTION", ...).
	Variable string
	// Value is the source text after '=' (or after NAMES), trimmed.
	Value string
}

// Reset is RESET or RESET 'k' (Key == "" resets all).
type Reset struct {
	Meta
	Key string
}

// CallArg is one CALL argument, positional (Name == "") or named (name => value).
type CallArg struct {
	Name  string
	Value Expr
}

// Call is CALL [catalog.]db.proc(args).
type Call struct {
	Meta
	// Procedure holds the name parts as written, e.g. ["sys", "add_acl"].
	Procedure []string
	Args      []CallArg
}

// Flush is FLUSH [TABLE t] (driver extension).
type Flush struct {
	Meta
	Table *TableName
}

// TxKind is the kind of a transaction-control statement.
type TxKind int

// Transaction statement kinds.
const (
	TxBegin TxKind = iota
	TxCommit
	TxRollback
)

// Transaction is BEGIN [WORK], START TRANSACTION [...], COMMIT [WORK] or ROLLBACK [WORK].
type Transaction struct {
	Meta
	Kind TxKind
	// Characteristics are START TRANSACTION modifiers as written
	// ("READ ONLY", "WITH CONSISTENT SNAPSHOT").
	Characteristics []string
}

// StatementSet is Flink's EXECUTE STATEMENT SET BEGIN stmt; ... END.
type StatementSet struct {
	Meta
	Statements []Statement
}

// Unsupported is a statement the dialect recognises but does not support
// (TRUNCATE, RENAME TABLE, CREATE VIEW/FUNCTION/MATERIALIZED TABLE, ...).
// Feature names it and Msg explains what to do instead.
type Unsupported struct {
	Meta
	Feature string
	Msg     string
	// Engine marks a query only a query engine such as Flink SQL can run
	// (window table functions, a VALUES table); Msg is empty then, and
	// the planner answers as it does every such query.
	Engine bool
}

func (*CreateDatabase) statementNode() {}
func (*DropDatabase) statementNode()   {}
func (*AlterDatabase) statementNode()  {}
func (*CreateCatalog) statementNode()  {}
func (*UseCatalog) statementNode()     {}
func (*Use) statementNode()            {}
func (*CreateTable) statementNode()    {}
func (*DropTable) statementNode()      {}
func (*AlterTable) statementNode()     {}
func (*Show) statementNode()           {}
func (*Describe) statementNode()       {}
func (*Explain) statementNode()        {}
func (*Set) statementNode()            {}
func (*MySQLSet) statementNode()       {}
func (*Reset) statementNode()          {}
func (*Call) statementNode()           {}
func (*Flush) statementNode()          {}
func (*Transaction) statementNode()    {}
func (*StatementSet) statementNode()   {}
func (*Unsupported) statementNode()    {}
func (*Select) statementNode()         {}
func (*Union) statementNode()          {}
func (*Insert) statementNode()         {}
func (*Update) statementNode()         {}
func (*Delete) statementNode()         {}

var dropBehaviorNames = [...]string{"DEFAULT", "RESTRICT", "CASCADE"}

// String returns "DEFAULT", "RESTRICT" or "CASCADE".
func (b DropBehavior) String() string {
	if int(b) < len(dropBehaviorNames) {
		return dropBehaviorNames[b]
	}
	return "DEFAULT"
}

// String returns "ADD" or "MODIFY".
func (o AlterSchemaOp) String() string {
	if o == SchemaModify {
		return "MODIFY"
	}
	return "ADD"
}

var offsetSpecNames = [...]string{"LATEST", "EARLIEST", "TIMESTAMP"}

// String returns "LATEST", "EARLIEST" or "TIMESTAMP".
func (k OffsetSpecKind) String() string {
	if int(k) < len(offsetSpecNames) {
		return offsetSpecNames[k]
	}
	return "LATEST"
}

var txKindNames = [...]string{"BEGIN", "COMMIT", "ROLLBACK"}

// String returns "BEGIN", "COMMIT" or "ROLLBACK".
func (k TxKind) String() string {
	if int(k) < len(txKindNames) {
		return txKindNames[k]
	}
	return "BEGIN"
}

var placeholderStyleNames = [...]string{"none", "?", "$n", ":name"}

// String returns "none", "?", "$n" or ":name".
func (s PlaceholderStyle) String() string {
	if int(s) < len(placeholderStyleNames) {
		return placeholderStyleNames[s]
	}
	return "none"
}
