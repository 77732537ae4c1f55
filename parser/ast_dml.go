package parser

// DML statement nodes and the expression tree. They are converted from the
// embedded MySQL parser's AST; nothing here refers to that library.

// SelectStatement is a query: *Select or *Union.
type SelectStatement interface {
	Statement
	selectStatement()
}

func (*Select) selectStatement() {}
func (*Union) selectStatement()  {}

// Select is a SELECT statement.
type Select struct {
	Meta
	// With holds the common table expressions of WITH ... written before
	// the SELECT.
	With []CTE
	// Hints are statement-level hints written right after SELECT.
	Hints    []Hint
	Distinct bool
	Exprs    []SelectExpr
	// From is nil for SELECT without FROM (and for FROM dual).
	From []TableExpr
	// Where is nil when there is no WHERE clause.
	Where   Expr
	GroupBy []Expr
	Having  Expr
	OrderBy []OrderItem
	Limit   *Limit
	// Lock is "FOR UPDATE" or "LOCK IN SHARE MODE" when present.
	Lock string
}

// SingleTable returns the FROM table when FROM is exactly one plain table
// reference (no join, no subquery, no comma list).
func (s *Select) SingleTable() (*TableRef, bool) { return singleTable(s.From) }

func singleTable(from []TableExpr) (*TableRef, bool) {
	if len(from) != 1 {
		return nil, false
	}
	t, ok := from[0].(*TableRef)
	return t, ok
}

// Union is SELECT ... UNION [ALL|DISTINCT] SELECT ... .
type Union struct {
	Meta
	// With holds the common table expressions of a WITH written before
	// the first SELECT; they are visible to both sides.
	With []CTE
	// Type is "UNION", "UNION ALL" or "UNION DISTINCT".
	Type        string
	Left, Right SelectStatement
	OrderBy     []OrderItem
	Limit       *Limit
	Lock        string
}

// SelectExpr is one select-list item: *StarExpr or *AliasedExpr.
type SelectExpr interface{ selectExpr() }

// StarExpr is * or qualifier.*.
type StarExpr struct {
	// Qualifier is the table or alias before ".*" ("" for a bare *).
	Qualifier string
}

// AliasedExpr is expr [AS alias].
type AliasedExpr struct {
	Expr  Expr
	Alias string
}

// CTE is one common table expression: Name [(Columns)] AS (Select). A
// CTE is visible to the CTEs after it in its WITH and to the query of its
// WITH; table references by its name (no database) read it, not a table.
type CTE struct {
	Name string
	// Columns renames the query's columns; nil keeps their names.
	Columns []string
	Select  SelectStatement
}

func (*StarExpr) selectExpr()    {}
func (*AliasedExpr) selectExpr() {}

// TableExpr is one FROM item: *TableRef, *JoinExpr, *SubqueryTable or *ParenTable.
type TableExpr interface{ tableExpr() }

// ForSystemTime is FOR SYSTEM_TIME AS OF expr after a table name.
type ForSystemTime struct {
	// Expr is the source text of the time expression.
	Expr string
}

// TableRef is a table reference with its Flink hints.
type TableRef struct {
	Name  TableName
	Alias string
	// Hints are the hints written right after the table name (Flink's
	// /*+ OPTIONS(...) */ position).
	Hints []Hint
	// ForSystemTime is set for FOR SYSTEM_TIME AS OF (lookup joins / time travel).
	ForSystemTime *ForSystemTime
	// IndexHints is the MySQL USE/IGNORE/FORCE INDEX clause as written.
	IndexHints string
}

// JoinExpr is left JOIN right [ON cond | USING (cols)].
type JoinExpr struct {
	// Kind is "JOIN", "LEFT JOIN", "RIGHT JOIN", "STRAIGHT_JOIN",
	// "NATURAL JOIN", ... (upper case).
	Kind        string
	Left, Right TableExpr
	On          Expr
	Using       []string
}

// SubqueryTable is (SELECT ...) [AS alias] in FROM.
type SubqueryTable struct {
	Select SelectStatement
	Alias  string
}

// ParenTable is a parenthesized list of table expressions.
type ParenTable struct {
	Exprs []TableExpr
}

func (*TableRef) tableExpr()      {}
func (*JoinExpr) tableExpr()      {}
func (*SubqueryTable) tableExpr() {}
func (*ParenTable) tableExpr()    {}

// OrderItem is expr [ASC|DESC] [NULLS FIRST|NULLS LAST].
type OrderItem struct {
	Expr Expr
	Desc bool
	// Nulls is NullsDefault unless NULLS FIRST or NULLS LAST is written;
	// Flink's default puts NULL first ascending and last descending.
	Nulls NullsOrder
}

// NullsOrder is where an ORDER BY item puts NULL.
type NullsOrder int

// Null orders.
const (
	NullsDefault NullsOrder = iota
	NullsFirst
	NullsLast
)

// String returns "", "NULLS FIRST" or "NULLS LAST".
func (n NullsOrder) String() string {
	switch n {
	case NullsFirst:
		return "NULLS FIRST"
	case NullsLast:
		return "NULLS LAST"
	}
	return ""
}

// Limit is LIMIT count [OFFSET offset] (or LIMIT offset, count).
type Limit struct {
	Count  Expr
	Offset Expr
}

// InsertAction is INSERT, REPLACE or UPSERT.
type InsertAction int

// Insert actions.
const (
	ActionInsert InsertAction = iota
	ActionReplace
	ActionUpsert
)

var insertActionNames = [...]string{"INSERT", "REPLACE", "UPSERT"}

// String returns "INSERT", "REPLACE" or "UPSERT".
func (a InsertAction) String() string {
	if int(a) < len(insertActionNames) {
		return insertActionNames[a]
	}
	return "INSERT"
}

// Insert is INSERT|REPLACE|UPSERT [IGNORE] INTO t [PARTITION (...)] [(cols)]
// VALUES ... | SELECT ... [ON DUPLICATE KEY UPDATE ...]. Flink's
// INSERT OVERWRITE sets Overwrite.
type Insert struct {
	Meta
	Action InsertAction
	// Hints are statement-level hints written right after the verb.
	Hints     []Hint
	Overwrite bool
	Ignore    bool
	// Table carries the hints written after the table name.
	Table TableRef
	// Partition is Flink's static PARTITION (k='v', ...) clause.
	Partition *PartitionSpec
	Columns   []string
	// Rows holds the VALUES rows; nil when the source is a query.
	Rows [][]Expr
	// Select is the source query of INSERT ... SELECT.
	Select SelectStatement
	// OnDuplicate holds ON DUPLICATE KEY UPDATE assignments.
	OnDuplicate []Assignment
}

// Assignment is column = expr in UPDATE SET or ON DUPLICATE KEY UPDATE.
type Assignment struct {
	Column *ColumnRef
	Value  Expr
}

// Update is UPDATE t SET ... [WHERE ...] [ORDER BY ...] [LIMIT n].
type Update struct {
	Meta
	Hints []Hint
	// Tables is the table list; a single plain table is the normal case
	// (see SingleTable).
	Tables  []TableExpr
	Set     []Assignment
	Where   Expr
	OrderBy []OrderItem
	Limit   *Limit
}

// SingleTable returns the target when it is exactly one plain table.
func (u *Update) SingleTable() (*TableRef, bool) { return singleTable(u.Tables) }

// Delete is DELETE FROM t [WHERE ...] [ORDER BY ...] [LIMIT n].
type Delete struct {
	Meta
	Hints []Hint
	// Targets lists the MySQL multi-table DELETE targets (DELETE a, b FROM ...).
	Targets []TableName
	Tables  []TableExpr
	Where   Expr
	OrderBy []OrderItem
	Limit   *Limit
}

// SingleTable returns the target when it is exactly one plain table.
func (d *Delete) SingleTable() (*TableRef, bool) {
	if len(d.Targets) > 0 {
		return nil, false
	}
	return singleTable(d.Tables)
}

// ---------------------------------------------------------------------------
// Expressions

// Expr is an expression node. Implementations: *AndExpr, *OrExpr, *NotExpr,
// *CompareExpr, *InExpr, *BetweenExpr, *IsNullExpr, *IsBoolExpr, *LikeExpr,
// *ColumnRef, *Literal, *Param, *Variable, *ArrayExpr, *MapExpr, *RowExpr,
// *TupleExpr, *CastExpr, *FuncCall, *BinaryExpr, *UnaryExpr, *IntervalExpr,
// *FloorCeilExpr, *ExtractExpr, *CaseExpr, *SubqueryExpr, *ExistsExpr,
// *DefaultExpr, *RawExpr.
type Expr interface{ exprNode() }

// AndExpr is L AND R.
type AndExpr struct{ L, R Expr }

// OrExpr is L OR R.
type OrExpr struct{ L, R Expr }

// NotExpr is NOT X.
type NotExpr struct{ X Expr }

// CompareExpr is L op R with Op one of = <> < <= > >= <=> (!= is reported as <>).
type CompareExpr struct {
	Op   string
	L, R Expr
}

// InExpr is X [NOT] IN (list) or X [NOT] IN (subquery). X is a *TupleExpr
// for tuple IN: (a, b) IN ((1, 2), (3, 4)).
type InExpr struct {
	X        Expr
	Not      bool
	List     []Expr
	Subquery SelectStatement
}

// BetweenExpr is X [NOT] BETWEEN From AND To.
type BetweenExpr struct {
	X        Expr
	Not      bool
	From, To Expr
}

// IsNullExpr is X IS [NOT] NULL.
type IsNullExpr struct {
	X   Expr
	Not bool
}

// IsBoolExpr is X IS [NOT] TRUE|FALSE.
type IsBoolExpr struct {
	X     Expr
	Not   bool
	Value bool
}

// LikeExpr is X [NOT] LIKE pattern [ESCAPE e], or X [NOT] REGEXP pattern.
type LikeExpr struct {
	X       Expr
	Not     bool
	Pattern Expr
	Escape  Expr
	Regexp  bool
}

// ColumnRef is a column reference [[db.]table.]name. Qualifier holds the
// parts before the name ("after" for `after`.order_id).
type ColumnRef struct {
	Qualifier []string
	Name      string
}

// LiteralKind is the type of a literal.
type LiteralKind int

// Literal kinds.
const (
	// LitNull is NULL.
	LitNull LiteralKind = iota
	// LitBool is TRUE or FALSE; see Literal.Bool.
	LitBool
	// LitInt is an integer; Text holds the digits (with a leading '-' when negative).
	LitInt
	// LitDecimal is an exact decimal such as 1.50; Text holds it as written.
	LitDecimal
	// LitFloat is an approximate number with an exponent, e.g. 1.5e3.
	LitFloat
	// LitString is a string; Text holds the decoded content.
	LitString
	// LitBytes is x'..' or 0x..; Bytes holds the decoded bytes.
	LitBytes
	// LitDate is DATE '...'; Text holds the quoted content.
	LitDate
	// LitTime is TIME '...'.
	LitTime
	// LitTimestamp is TIMESTAMP '...'.
	LitTimestamp
	// LitTimestampLTZ is TIMESTAMP_LTZ '...'.
	LitTimestampLTZ
)

var literalKindNames = [...]string{"NULL", "BOOLEAN", "INT", "DECIMAL", "FLOAT", "STRING", "BYTES", "DATE", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ"}

// String returns the kind's SQL-ish name.
func (k LiteralKind) String() string {
	if int(k) < len(literalKindNames) {
		return literalKindNames[k]
	}
	return "UNKNOWN"
}

// Literal is a constant.
type Literal struct {
	Kind  LiteralKind
	Text  string
	Bool  bool
	Bytes []byte
}

// Param is a placeholder. Index is the 1-based argument index (for ':name'
// the index of the name among distinct names); Name is set for ':name'.
type Param struct {
	Index int
	Name  string
}

// Variable is a MySQL variable reference such as @@version or @x.
type Variable struct{ Name string }

// ArrayExpr is ARRAY[e, ...] (or array(e, ...)).
type ArrayExpr struct{ Elems []Expr }

// MapExpr is MAP[k1, v1, k2, v2, ...]; Keys and Values have equal length.
type MapExpr struct{ Keys, Values []Expr }

// RowExpr is ROW(e, ...).
type RowExpr struct{ Fields []Expr }

// TupleExpr is a parenthesized list (a, b).
type TupleExpr struct{ Exprs []Expr }

// CastExpr is CAST(X AS type) or TRY_CAST(X AS type).
type CastExpr struct {
	X Expr
	// Type is the parsed Fluss type; TypeText is its source text.
	Type     *DataType
	TypeText string
	Try      bool
}

// FuncCall is a function call. Name is as written with Qualifier parts
// before it. Star is set for COUNT(*). POSITION(a IN b) is the call
// POSITION(a, b), SUBSTRING(s FROM a FOR b) the call SUBSTRING(s, a, b).
type FuncCall struct {
	Qualifier string
	Name      string
	Distinct  bool
	Star      bool
	Args      []Expr
	// Over is set for a window function call: f(...) OVER (...).
	Over *WindowSpec
}

// WindowSpec is the window of a window function call:
// OVER ([PARTITION BY ...] [ORDER BY ...] [ROWS|RANGE frame]).
type WindowSpec struct {
	PartitionBy []Expr
	OrderBy     []OrderItem
	// Frame is nil when no ROWS or RANGE clause is written.
	Frame *WindowFrame
}

// WindowFrame is ROWS|RANGE BETWEEN Start AND End; the short form
// ROWS|RANGE Start has End CURRENT ROW.
type WindowFrame struct {
	// Range is set for RANGE, clear for ROWS.
	Range      bool
	Start, End FrameBound
}

// FrameBound is one end of a window frame.
type FrameBound struct {
	Kind BoundKind
	// Offset is the n of n PRECEDING and n FOLLOWING (an integer, a
	// parameter or an INTERVAL for RANGE); nil for the other kinds.
	Offset Expr
}

// BoundKind is the kind of a window frame bound.
type BoundKind int

// Frame bound kinds.
const (
	BoundCurrentRow BoundKind = iota
	BoundUnboundedPreceding
	BoundPreceding
	BoundFollowing
	BoundUnboundedFollowing
)

var boundKindNames = [...]string{"CURRENT ROW", "UNBOUNDED PRECEDING", "PRECEDING", "FOLLOWING", "UNBOUNDED FOLLOWING"}

// String returns the bound's SQL words ("PRECEDING" for n PRECEDING).
func (k BoundKind) String() string {
	if int(k) < len(boundKindNames) {
		return boundKindNames[k]
	}
	return "UNKNOWN"
}

// BinaryExpr is arithmetic or bitwise L op R (+ - * / % DIV & | << >>).
// Flink's a || b is a FuncCall: CONCAT(a, b).
type BinaryExpr struct {
	Op   string
	L, R Expr
}

// UnaryExpr is op X (- + ~ !).
type UnaryExpr struct {
	Op string
	X  Expr
}

// IntervalExpr is INTERVAL value [unit], e.g. INTERVAL '5' SECOND,
// INTERVAL '1 02:00:00' DAY TO SECOND or INTERVAL '10 second' (the
// unit-less form Grafana's $__interval and $__dateBin macros write).
type IntervalExpr struct {
	Value Expr
	// Unit is upper case, e.g. "SECOND" or "DAY TO SECOND"; "" when the
	// value string names its units. Precisions such as SECOND(3) are
	// not kept.
	Unit string
}

// FloorCeilExpr is Flink's FLOOR(X TO unit) or CEIL(X TO unit): a time
// point rounded down (up) to a multiple of a time unit.
type FloorCeilExpr struct {
	Ceil bool
	X    Expr
	// Unit is upper case: SECOND, MINUTE, HOUR, DAY, WEEK, MONTH,
	// QUARTER or YEAR.
	Unit string
}

// ExtractExpr is EXTRACT(unit FROM X).
type ExtractExpr struct {
	// Unit is upper case, e.g. "YEAR".
	Unit string
	X    Expr
}

// When is one WHEN cond THEN value of a CASE expression.
type When struct{ Cond, Value Expr }

// CaseExpr is CASE [operand] WHEN ... THEN ... [ELSE ...] END.
type CaseExpr struct {
	Operand Expr
	Whens   []When
	Else    Expr
}

// SubqueryExpr is a scalar subquery (SELECT ...).
type SubqueryExpr struct{ Select SelectStatement }

// ExistsExpr is EXISTS (SELECT ...).
type ExistsExpr struct{ Select SelectStatement }

// DefaultExpr is DEFAULT in INSERT VALUES.
type DefaultExpr struct{}

// RawExpr is an expression form the dialect does not model (MATCH,
// GROUP_CONCAT, CONVERT ... USING, COLLATE, VALUES(col),
// JSON -> operators, ...). Kind names it and Text is a rendering of it so
// the planner can report it.
type RawExpr struct {
	Kind string
	Text string
}

func (*AndExpr) exprNode()       {}
func (*OrExpr) exprNode()        {}
func (*NotExpr) exprNode()       {}
func (*CompareExpr) exprNode()   {}
func (*InExpr) exprNode()        {}
func (*BetweenExpr) exprNode()   {}
func (*IsNullExpr) exprNode()    {}
func (*IsBoolExpr) exprNode()    {}
func (*LikeExpr) exprNode()      {}
func (*ColumnRef) exprNode()     {}
func (*Literal) exprNode()       {}
func (*Param) exprNode()         {}
func (*Variable) exprNode()      {}
func (*ArrayExpr) exprNode()     {}
func (*MapExpr) exprNode()       {}
func (*RowExpr) exprNode()       {}
func (*TupleExpr) exprNode()     {}
func (*CastExpr) exprNode()      {}
func (*FuncCall) exprNode()      {}
func (*BinaryExpr) exprNode()    {}
func (*UnaryExpr) exprNode()     {}
func (*IntervalExpr) exprNode()  {}
func (*FloorCeilExpr) exprNode() {}
func (*ExtractExpr) exprNode()   {}
func (*CaseExpr) exprNode()      {}
func (*SubqueryExpr) exprNode()  {}
func (*ExistsExpr) exprNode()    {}
func (*DefaultExpr) exprNode()   {}
func (*RawExpr) exprNode()       {}
