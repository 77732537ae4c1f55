package planner

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/parser"
)

func (p *planCtx) createDatabase(s *parser.CreateDatabase) (Plan, error) {
	name, err := p.dbName(s.Name, "CREATE DATABASE")
	if err != nil {
		return nil, err
	}
	if e := checkName("database", name); e != nil {
		return nil, e
	}
	d := schema.DatabaseDescriptor{}
	if s.Comment != nil {
		d.Comment = *s.Comment
	}
	for _, o := range s.Options {
		if d.CustomProperties == nil {
			d.CustomProperties = map[string]string{}
		}
		d.CustomProperties[o.Key] = o.Value
	}
	return &CreateDatabase{Name: name, Descriptor: d, IfNotExists: s.IfNotExists}, nil
}

func (p *planCtx) dropDatabase(s *parser.DropDatabase) (Plan, error) {
	name, err := p.dbName(s.Name, "DROP DATABASE")
	if err != nil {
		return nil, err
	}
	if name == p.sess.database() {
		return nil, errf("DROP DATABASE", "cannot drop the current database %q; USE another database first", name)
	}
	return &DropDatabase{Name: name, IfExists: s.IfExists, Cascade: s.Behavior == parser.DropCascade}, nil
}

func (p *planCtx) alterDatabase(s *parser.AlterDatabase) (Plan, error) {
	name, err := p.dbName(s.Name, "ALTER DATABASE")
	if err != nil {
		return nil, err
	}
	a := &AlterDatabase{Name: name}
	for _, o := range s.Set {
		a.Changes = append(a.Changes, DatabaseChange{Kind: DatabaseSetProperty, Key: o.Key, Value: o.Value})
	}
	for _, k := range s.Reset {
		a.Changes = append(a.Changes, DatabaseChange{Kind: DatabaseResetProperty, Key: k})
	}
	if s.Comment != nil {
		a.Changes = append(a.Changes, DatabaseChange{Kind: DatabaseSetComment, Value: *s.Comment})
	}
	if len(a.Changes) == 0 {
		return nil, errf("ALTER DATABASE", "ALTER DATABASE needs SET ('k' = 'v'), RESET ('k') or SET COMMENT 'c'")
	}
	return a, nil
}

func (p *planCtx) dropTable(s *parser.DropTable) (Plan, error) {
	if s.Temporary {
		return nil, errf("DROP TEMPORARY TABLE", "temporary tables live in Flink sessions; the fluss driver has none")
	}
	d := &DropTable{IfExists: s.IfExists}
	for _, n := range s.Names {
		if n.Virtual != parser.NotVirtual {
			return nil, errf("DROP TABLE", "%s is a virtual table and cannot be dropped", n)
		}
		path, err := p.path(n, "DROP TABLE")
		if err != nil {
			return nil, err
		}
		d.Paths = append(d.Paths, path)
	}
	return d, nil
}

// ---------------------------------------------------------------------------
// CREATE TABLE

func (p *planCtx) createTable(s *parser.CreateTable) (Plan, error) {
	const clause = "CREATE TABLE"
	if s.Temporary {
		return nil, errf("CREATE TEMPORARY TABLE", "temporary tables (other connectors) live in Flink sessions; create a Fluss table without TEMPORARY")
	}
	if s.Name.Virtual != parser.NotVirtual {
		return nil, errf(clause, "table name %q must not contain '$' (reserved for virtual tables such as t$changelog)", s.Name.String())
	}
	path, err := p.path(s.Name, clause)
	if err != nil {
		return nil, err
	}
	if e := checkName("database", path.Database); e != nil {
		return nil, e
	}
	if e := checkName("table", path.Table); e != nil {
		return nil, e
	}
	c := &createDef{s: s, lenient: p.sess != nil && p.sess.LenientDDL, def: &tableDef{}}
	if s.Comment != nil {
		c.def.comment = *s.Comment
	}

	// LIKE: start from the source table.
	if s.Like != nil {
		src, err := p.table(s.Like.Source, "LIKE")
		if err != nil {
			return nil, err
		}
		c.def, err = likeDef(src, s)
		if err != nil {
			return nil, err
		}
		if s.Comment != nil {
			c.def.comment = *s.Comment
		}
	}

	for _, step := range []func() error{c.columns, c.primaryKey, c.watermarks, c.layout, c.mysqlExtras} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	desc, e := buildDescriptor(c.def)
	if e != nil {
		return nil, e
	}
	return &CreateTable{Path: path, Descriptor: desc, IfNotExists: s.IfNotExists, Notices: c.notices}, nil
}

// createDef gathers the definition of CREATE TABLE, one part of the
// statement at a time, before buildDescriptor checks the whole.
type createDef struct {
	s       *parser.CreateTable
	lenient bool
	def     *tableDef
	notices []string
	// From the column list, for primaryKey and mysqlExtras.
	inlinePK          []string
	inlineNotEnforced bool
	autoIncFromMySQL  []string
}

// physType is the type of a physical column defined so far.
func (c *createDef) physType(name string) (schema.DataType, bool) {
	for _, cd := range c.def.cols {
		if cd.name == name && !cd.computed {
			return cd.typ, true
		}
	}
	return schema.DataType{}, false
}

// columns adds the column list.
func (c *createDef) columns() error {
	const clause = "CREATE TABLE"
	s, def, lenient := c.s, c.def, c.lenient
	notices := c.notices
	inlinePK, autoIncFromMySQL, inlineNotEnforced := []string(nil), []string(nil), true
	for _, col := range s.Columns {
		switch col.Kind {
		case parser.MetadataColumn:
			return errf(clause, "metadata column %q is not supported: Fluss tables have no METADATA columns (read t$changelog for _change_type, _log_offset and _commit_timestamp)", col.Name)
		case parser.ComputedColumn:
			cd := colDef{name: col.Name, computed: true, expr: col.Expr}
			if col.Comment != nil {
				cd.comment = *col.Comment
			}
			def.cols = append(def.cols, cd)
			continue
		}
		t, n, err := fromParserType(col.Type, lenient)
		if err != nil {
			msg := err.Error()
			if !lenient && col.Type != nil && col.Type.Kind == parser.TypeForeign && col.Type.Suggestion() != "" {
				msg += " (or connect with ddl=lenient to map MySQL types)"
			}
			return errf(clause, "column %q: %s", col.Name, msg)
		}
		for _, x := range n {
			notices = append(notices, "column "+col.Name+": "+x)
		}
		cd := colDef{name: col.Name, typ: t}
		if col.Comment != nil {
			cd.comment = *col.Comment
		}
		if col.PrimaryKey {
			inlinePK = append(inlinePK, col.Name)
			if !col.PrimaryKeyNotEnforced {
				inlineNotEnforced = false
			}
		}
		for _, attr := range col.MySQL {
			up := strings.ToUpper(attr)
			if !lenient {
				return errf(clause, "column %q: %s is MySQL syntax that Fluss does not support (remove it, or connect with ddl=lenient to ignore MySQL attributes)", col.Name, attr)
			}
			if up == "AUTO_INCREMENT" {
				autoIncFromMySQL = append(autoIncFromMySQL, col.Name)
				continue
			}
			notices = append(notices, "column "+col.Name+": "+attr+" ignored")
		}
		def.cols = append(def.cols, cd)
	}
	c.notices, c.inlinePK, c.inlineNotEnforced, c.autoIncFromMySQL = notices, inlinePK, inlineNotEnforced, autoIncFromMySQL
	return nil
}

// primaryKey takes the inline or table-level primary key.
func (c *createDef) primaryKey() error {
	s, def, lenient, inlinePK := c.s, c.def, c.lenient, c.inlinePK
	if len(inlinePK) > 1 {
		return errf("PRIMARY KEY", "several columns are declared PRIMARY KEY (%s); use one table-level PRIMARY KEY (%s) NOT ENFORCED", strings.Join(inlinePK, ", "), strings.Join(inlinePK, ", "))
	}
	pk := inlinePK
	notEnforced := c.inlineNotEnforced
	if s.PrimaryKey != nil {
		if len(inlinePK) > 0 {
			return errf("PRIMARY KEY", "the primary key is declared twice (on column %s and as PRIMARY KEY (...)); keep one", inlinePK[0])
		}
		pk = s.PrimaryKey.Columns
		notEnforced = s.PrimaryKey.NotEnforced
	}
	if len(pk) > 0 {
		if !notEnforced {
			if !lenient {
				return errf("PRIMARY KEY", "PRIMARY KEY must be declared NOT ENFORCED (Flink syntax): PRIMARY KEY (%s) NOT ENFORCED; or connect with ddl=lenient", strings.Join(pk, ", "))
			}
			c.notices = append(c.notices, "PRIMARY KEY without NOT ENFORCED accepted")
		}
		if len(def.pk) > 0 {
			return errf("PRIMARY KEY", "the LIKE source already has a primary key (%s); add EXCLUDING CONSTRAINTS to replace it", strings.Join(def.pk, ", "))
		}
		def.pk = slices.Clone(pk)
	}
	return nil
}

// watermarks adds the watermarks and the types of computed columns that
// can be told without an expression engine.
func (c *createDef) watermarks() error {
	s, def, physType := c.s, c.def, c.physType
	for _, w := range s.Watermarks {
		wd := watermarkDef{column: w.Column, expr: w.Expr}
		if t, ok := physType(w.Column); ok {
			wd.dataType = flinkType(t)
		}
		def.watermarks = append(def.watermarks[:0:0], append(withoutWatermark(def.watermarks, w.Column), wd)...)
	}
	// Computed column types we can tell without an expression engine.
	for i := range def.cols {
		c := &def.cols[i]
		if c.computed && c.exprType == "" {
			c.exprType = computedType(c.expr, physType)
		}
	}
	return nil
}

// layout adds partitioning, options (later ones overriding, LIKE source
// options first) and the distribution.
func (c *createDef) layout() error {
	s, def := c.s, c.def
	if len(s.PartitionBy) > 0 {
		if len(def.partitionBy) > 0 {
			return errf("PARTITIONED BY", "the LIKE source is already partitioned by (%s); add EXCLUDING PARTITIONS to replace it", strings.Join(def.partitionBy, ", "))
		}
		def.partitionBy = slices.Clone(s.PartitionBy)
	}
	// Options, later ones overriding (LIKE source options first).
	for _, o := range s.Options {
		def.options = setKV(def.options, o.Key, o.Value)
	}
	if s.Distribution != nil {
		if len(s.Distribution.Columns) > 0 {
			if hasKV(s.Options, optBucketKey) {
				return errf("DISTRIBUTED BY", "the bucket key is given twice (DISTRIBUTED BY and 'bucket.key'); keep one")
			}
			if s.Distribution.Kind != "" && s.Distribution.Kind != "HASH" {
				return errf("DISTRIBUTED BY", "Fluss distributes rows by hash only; %s distribution is not supported", s.Distribution.Kind)
			}
			def.options = setKV(def.options, optBucketKey, strings.Join(s.Distribution.Columns, ","))
		}
		if s.Distribution.Buckets > 0 {
			if hasKV(s.Options, optBucketNum) {
				return errf("DISTRIBUTED BY", "the bucket count is given twice (INTO n BUCKETS and 'bucket.num'); keep one")
			}
			def.options = setKV(def.options, optBucketNum, itoa(s.Distribution.Buckets))
		}
	}
	return nil
}

// mysqlExtras applies or refuses (without ddl=lenient) the MySQL parts:
// AUTO_INCREMENT, table options, indexes.
func (c *createDef) mysqlExtras() error {
	const clause = "CREATE TABLE"
	s, def, lenient := c.s, c.def, c.lenient
	notices := c.notices
	var autoInc []string
	for _, a := range c.autoIncFromMySQL {
		if slices.Contains(def.pk, a) {
			notices = append(notices, "column "+a+": AUTO_INCREMENT on a primary-key column ignored (Fluss auto-increment columns cannot be keys)")
			continue
		}
		autoInc = append(autoInc, a)
	}
	if len(autoInc) > 0 {
		def.options = setKV(def.options, optAutoIncrement, strings.Join(autoInc, ","))
	}
	for _, o := range s.MySQLTableOptions {
		if !lenient {
			return errf(clause, "table option %s is MySQL syntax; use WITH ('key' = 'value') (or connect with ddl=lenient to ignore it)", o)
		}
		notices = append(notices, "table option "+o+" ignored")
	}
	for _, ix := range s.MySQLIndexes {
		if !lenient {
			return errf(clause, "%s: Fluss tables have no secondary indexes or foreign keys (remove it, or connect with ddl=lenient to ignore it)", ix)
		}
		notices = append(notices, ix+" ignored")
	}
	c.notices = notices
	return nil
}

func withoutWatermark(ws []watermarkDef, col string) []watermarkDef {
	var out []watermarkDef
	for _, w := range ws {
		if w.column != col {
			out = append(out, w)
		}
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

func setKV(list []kv, k, v string) []kv {
	for i := range list {
		if list[i].key == k {
			list[i].value = v
			return list
		}
	}
	return append(list, kv{k, v})
}

func hasKV(opts []parser.Option, k string) bool {
	for _, o := range opts {
		if o.Key == k {
			return true
		}
	}
	return false
}

// computedType infers the Flink type string of simple computed-column
// expressions: CAST(x AS T), a plain column reference, PROCTIME().
func computedType(expr string, physType func(string) (schema.DataType, bool)) string {
	e := strings.TrimSpace(expr)
	up := strings.ToUpper(e)
	if strings.HasPrefix(up, "PROCTIME()") && len(strings.TrimSpace(up)) == len("PROCTIME()") {
		return "TIMESTAMP_LTZ(3) NOT NULL"
	}
	if strings.HasPrefix(up, "CAST(") && strings.HasSuffix(up, ")") {
		inner := e[5 : len(e)-1]
		if i := strings.LastIndex(strings.ToUpper(inner), " AS "); i >= 0 {
			if t, err := parser.ParseType(strings.TrimSpace(inner[i+4:])); err == nil {
				if st, _, err := fromParserType(t, false); err == nil {
					return flinkType(st)
				}
			}
		}
	}
	name := strings.Trim(e, "`")
	if t, ok := physType(name); ok {
		return flinkType(t)
	}
	return ""
}

// likeDef builds the starting definition of CREATE TABLE ... LIKE src.
// Flink's default is INCLUDING ALL with OVERWRITING OPTIONS.
func likeDef(src *schema.TableInfo, s *parser.CreateTable) (*tableDef, error) {
	include := map[string]bool{"CONSTRAINTS": true, "PARTITIONS": true, "OPTIONS": true, "WATERMARKS": true, "GENERATED": true, "DISTRIBUTION": true, "METADATA": true}
	for _, o := range s.Like.Options {
		on := o.Mode != "EXCLUDING"
		if o.Feature == "ALL" {
			for k := range include {
				include[k] = on
			}
			continue
		}
		include[o.Feature] = on
	}
	full := defFromDescriptor(&src.Descriptor)
	def := &tableDef{comment: full.comment}
	for _, c := range full.cols {
		if c.computed && !include["GENERATED"] {
			continue
		}
		def.cols = append(def.cols, c)
	}
	if include["CONSTRAINTS"] {
		def.pk = full.pk
	}
	if include["PARTITIONS"] {
		def.partitionBy = full.partitionBy
	}
	if include["WATERMARKS"] {
		def.watermarks = full.watermarks
	}
	for _, o := range full.options {
		isDist := o.key == optBucketNum || o.key == optBucketKey
		if isDist && (!include["DISTRIBUTION"] || !include["OPTIONS"]) {
			continue
		}
		schemaOpt := o.key == optAutoIncrement || strings.HasPrefix(o.key, "fields.")
		if !isDist && !schemaOpt && !include["OPTIONS"] {
			continue
		}
		if o.key == optBucketKey && !include["CONSTRAINTS"] {
			continue
		}
		def.options = append(def.options, o)
	}
	return def, nil
}

// ---------------------------------------------------------------------------
// ALTER TABLE

// alterableOptions are the table.* options a server accepts in ALTER TABLE.
var alterableOptions = []string{
	"table.datalake.enabled", "table.datalake.historical-partition.enabled", "table.datalake.freshness",
	"table.datalake.auto-compaction", "table.log.ttl", "table.log.local-ttl", "table.log.tiered.local-segments",
	"table.auto-partition.enabled", "table.auto-partition.num-retention", "table.auto-partition.num-precreate",
	"table.statistics.columns", "table.kv.standby-replica.enabled",
}

func checkAlterableKey(key string) *Error {
	switch {
	case key == optBucketNum || key == optBucketKey:
		return errf("ALTER TABLE", "option %q cannot be changed after creation (the bucket layout is fixed; create a new table)", key)
	case key == optAutoIncrement || strings.HasPrefix(key, "fields.") && strings.HasSuffix(key, ".agg"):
		return errf("ALTER TABLE", "option %q is part of the schema and cannot be changed after creation", key)
	case key == optConnector:
		return errf("ALTER TABLE", "option 'connector' cannot be changed")
	case strings.HasPrefix(key, "table.") && !slices.Contains(alterableOptions, key):
		return errf("ALTER TABLE", "option %q cannot be changed after creation (alterable: %s)", key, strings.Join(alterableOptions, ", "))
	}
	return nil
}

func (p *planCtx) alterTable(s *parser.AlterTable) (Plan, error) {
	const clause = "ALTER TABLE"
	if s.Name.Virtual != parser.NotVirtual {
		return nil, errf(clause, "%s is a virtual table and cannot be altered", s.Name)
	}
	path, err := p.path(s.Name, clause)
	if err != nil {
		return nil, err
	}
	at := &AlterTable{Path: path, IfExists: s.IfExists}
	a := &alterer{p: p, name: s.Name, path: path, lenient: p.sess != nil && p.sess.LenientDDL, at: at}
	var parts []Plan
	for _, act := range s.Actions {
		switch x := act.(type) {
		case *parser.SetOptions:
			for _, o := range x.Options {
				if e := checkAlterableKey(o.Key); e != nil {
					return nil, e
				}
				at.OptionChanges = append(at.OptionChanges, TableChange{Kind: ChangeSetOption, Key: o.Key, Value: o.Value})
			}
		case *parser.ResetOptions:
			for _, k := range x.Keys {
				if e := checkAlterableKey(k); e != nil {
					return nil, e
				}
				at.OptionChanges = append(at.OptionChanges, TableChange{Kind: ChangeResetOption, Key: k})
			}
		case *parser.AlterSchema:
			if x.PrimaryKey != nil {
				return nil, errf(clause, "the primary key of a Fluss table cannot be changed after creation")
			}
			if x.Watermark != nil {
				if err := a.watermark(x); err != nil {
					return nil, err
				}
			}
			for _, c := range x.Columns {
				if err := a.column(c, x.Op); err != nil {
					return nil, err
				}
			}
		case *parser.DropColumns:
			for _, c := range x.Columns {
				at.SchemaChanges = append(at.SchemaChanges, TableChange{Kind: ChangeDropColumn, Column: schema.Column{Name: c}})
			}
		case *parser.RenameColumn:
			at.SchemaChanges = append(at.SchemaChanges, TableChange{Kind: ChangeRenameColumn, Column: schema.Column{Name: x.From}, NewName: x.To})
		case *parser.DropWatermark:
			if err := a.dropWatermark(); err != nil {
				return nil, err
			}
		case *parser.DropPrimaryKey, *parser.DropConstraint:
			return nil, errf(clause, "the primary key of a Fluss table cannot be dropped")
		case *parser.RenameTable:
			return nil, errf("RENAME", "renaming tables is not supported by Fluss (create a new table and copy the rows)")
		case *parser.AddPartitions:
			specs, err := p.partitionSpecs(s.Name, x.Partitions, true)
			if err != nil {
				return nil, err
			}
			parts = append(parts, &AddPartition{Path: path, Specs: specs, IfNotExists: x.IfNotExists})
		case *parser.DropPartitions:
			specs, err := p.partitionSpecs(s.Name, x.Partitions, true)
			if err != nil {
				return nil, err
			}
			parts = append(parts, &DropPartition{Path: path, Specs: specs, IfExists: x.IfExists})
		default:
			return nil, errf(clause, "ALTER TABLE action %T is not supported", act)
		}
	}
	if len(parts) > 0 {
		if len(at.OptionChanges)+len(at.SchemaChanges) > 0 || len(parts) > 1 {
			return nil, errf(clause, "partition changes cannot be combined with other ALTER TABLE actions; use one statement per change")
		}
		return parts[0], nil
	}
	if len(at.OptionChanges)+len(at.SchemaChanges) == 0 {
		return nil, errf(clause, "ALTER TABLE needs an action")
	}
	return at, nil
}

// alterer plans the schema actions of one ALTER TABLE into its
// AlterTable, reading the table's metadata only when an action needs it.
type alterer struct {
	p       *planCtx
	name    parser.TableName
	path    schema.TablePath
	lenient bool
	at      *AlterTable
	info    *schema.TableInfo
}

// table returns the table's metadata, fetched on first use.
func (a *alterer) table() (*schema.TableInfo, error) {
	if a.info == nil {
		info, err := a.p.table(a.name, "ALTER TABLE")
		if err != nil {
			return nil, err
		}
		a.info = info
	}
	return a.info, nil
}

// watermark adds or modifies the watermark, stored as custom properties.
func (a *alterer) watermark(x *parser.AlterSchema) error {
	at, path := a.at, a.path
	info, err := a.table()
	if err != nil {
		return err
	}
	col := info.Descriptor.Schema.ColumnIndex(x.Watermark.Column)
	if col < 0 && !hasComputed(info, x.Watermark.Column) {
		return errf("WATERMARK", "watermark column %q is not a column of %s", x.Watermark.Column, path)
	}
	if x.Op == parser.SchemaAdd && hasWatermark(info) {
		return errf("WATERMARK", "%s already has a watermark; use ALTER TABLE %s MODIFY WATERMARK ...", path, path.Table)
	}
	at.OptionChanges = append(at.OptionChanges,
		TableChange{Kind: ChangeSetOption, Key: "schema.watermark.0.rowtime", Value: x.Watermark.Column},
		TableChange{Kind: ChangeSetOption, Key: "schema.watermark.0.strategy.expr", Value: x.Watermark.Expr})
	if col >= 0 {
		at.OptionChanges = append(at.OptionChanges, TableChange{Kind: ChangeSetOption, Key: "schema.watermark.0.strategy.data-type", Value: flinkType(info.Descriptor.Schema.Columns[col].Type)})
	}
	return nil
}

// column adds or modifies one physical column.
func (a *alterer) column(c *parser.ColumnDef, op parser.AlterSchemaOp) error {
	const clause = "ALTER TABLE"
	at, lenient := a.at, a.lenient
	if c.Kind != parser.PhysicalColumn {
		return errf(clause, "column %q: only physical columns can be added or modified (computed and metadata columns are Flink metadata)", c.Name)
	}
	if reservedColumns[c.Name] {
		return errf(clause, "column name %q is reserved by Fluss (__offset, __timestamp and __bucket are system columns)", c.Name)
	}
	t, _, err := fromParserType(c.Type, lenient)
	if err != nil {
		return errf(clause, "column %q: %v", c.Name, err)
	}
	col := schema.NewColumn(c.Name, t)
	if c.Comment != nil {
		col.Comment = *c.Comment
	}
	if len(c.MySQL) > 0 {
		return errf(clause, "column %q: %s is not supported in ALTER TABLE (auto-increment and defaults cannot be added)", c.Name, c.MySQL[0])
	}
	if op == parser.SchemaModify {
		at.SchemaChanges = append(at.SchemaChanges, TableChange{Kind: ChangeModifyColumn, Column: col})
		return nil
	}
	if c.Position != nil {
		return errf(clause, "column %q: only appending at the end is supported (remove FIRST/AFTER)", c.Name)
	}
	if !t.Nullable {
		return errf(clause, "column %q: added columns must be nullable (remove NOT NULL)", c.Name)
	}
	if c.PrimaryKey {
		return errf(clause, "column %q: the primary key cannot be changed after creation", c.Name)
	}
	at.SchemaChanges = append(at.SchemaChanges, TableChange{Kind: ChangeAddColumn, Column: col})
	return nil
}

// dropWatermark resets every watermark property.
func (a *alterer) dropWatermark() error {
	at, path := a.at, a.path
	info, err := a.table()
	if err != nil {
		return err
	}
	if !hasWatermark(info) {
		return errf("WATERMARK", "%s has no watermark to drop", path)
	}
	for _, k := range slices.Sorted(maps.Keys(info.Descriptor.CustomProperties)) {
		if strings.HasPrefix(k, "schema.watermark.") {
			at.OptionChanges = append(at.OptionChanges, TableChange{Kind: ChangeResetOption, Key: k})
		}
	}
	return nil
}

func hasWatermark(info *schema.TableInfo) bool {
	for k := range info.Descriptor.CustomProperties {
		if strings.HasPrefix(k, "schema.watermark.") {
			return true
		}
	}
	return false
}

func hasComputed(info *schema.TableInfo, name string) bool {
	for k, v := range info.Descriptor.CustomProperties {
		if strings.HasPrefix(k, "schema.") && strings.HasSuffix(k, ".name") && v == name {
			return true
		}
	}
	return false
}

// partitionSpecs converts PARTITION (k='v', ...) clauses; full requires
// every partition key.
func (p *planCtx) partitionSpecs(name parser.TableName, specs []parser.PartitionSpec, full bool) ([]map[string]string, error) {
	info, err := p.table(name, "PARTITION")
	if err != nil {
		return nil, err
	}
	var out []map[string]string
	for _, sp := range specs {
		m, err := partitionSpec(info, sp, full)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

func partitionSpec(info *schema.TableInfo, sp parser.PartitionSpec, full bool) (map[string]string, error) {
	keys := info.Descriptor.PartitionKeys
	if len(keys) == 0 {
		return nil, errf("PARTITION", "table %s is not partitioned", info.Path)
	}
	m := map[string]string{}
	for _, v := range sp.Values {
		if !slices.Contains(keys, v.Column) {
			return nil, errf("PARTITION", "%q is not a partition key of %s (partition keys: %s)", v.Column, info.Path, strings.Join(keys, ", "))
		}
		s, ok := partitionValueText(v.Value)
		if !ok {
			return nil, errf("PARTITION", "partition value of %q must be a literal, got %s", v.Column, exprText(v.Value))
		}
		ct := info.Descriptor.Schema.Columns[info.Descriptor.Schema.ColumnIndex(v.Column)].Type
		if ct.Root != schema.RootString && ct.Root != schema.RootChar {
			m[v.Column] = s
			continue
		}
		if e := checkName("partition value", s); e != nil {
			return nil, errf("PARTITION", "partition value %q of %q is invalid: partition values are 1 to 200 characters of A-Z, a-z, 0-9, '_' and '-', and must not start with '__'", s, v.Column)
		}
		m[v.Column] = s
	}
	if full && len(m) != len(keys) {
		var missing []string
		for _, k := range keys {
			if _, ok := m[k]; !ok {
				missing = append(missing, k)
			}
		}
		return nil, errf("PARTITION", "the partition spec must name every partition key of %s (%s); missing %s", info.Path, strings.Join(keys, ", "), strings.Join(missing, ", "))
	}
	return m, nil
}

func partitionValueText(e parser.Expr) (string, bool) {
	l, ok := e.(*parser.Literal)
	if !ok {
		if u, ok := e.(*parser.UnaryExpr); ok && u.Op == "-" {
			if l, ok := u.X.(*parser.Literal); ok && l.Kind == parser.LitInt {
				return "-" + l.Text, true
			}
		}
		return "", false
	}
	switch l.Kind {
	case parser.LitNull, parser.LitBytes:
		return "", false
	case parser.LitBool:
		if l.Bool {
			return "true", true
		}
		return "false", true
	}
	return l.Text, true
}
