package planner

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gofluss/fluss/flussrpc/schema"
)

// tableDef is the Flink-DDL view of a table: what CREATE TABLE says and
// what SHOW CREATE TABLE renders. buildDescriptor turns it into a Fluss
// TableDescriptor; defFromDescriptor goes the other way.
type tableDef struct {
	cols        []colDef
	pk          []string
	partitionBy []string
	watermarks  []watermarkDef
	comment     string
	// options are the WITH options in order (bucket.*, table.*, custom,
	// auto-increment.fields, fields.*).
	options []kv
}

type colDef struct {
	name     string
	computed bool
	typ      schema.DataType // physical columns
	expr     string          // computed columns
	exprType string          // computed columns: Flink type string, "" if unknown
	comment  string
}

type watermarkDef struct {
	column   string
	expr     string
	dataType string // Flink type string of the rowtime column
}

type kv struct{ key, value string }

// Option keys handled by the WITH split.
const (
	optBucketNum     = "bucket.num"
	optBucketKey     = "bucket.key"
	optAutoIncrement = "auto-increment.fields"
	optConnector     = "connector"
	optVerColumn     = "table.merge-engine.versioned.ver-column"
)

var aggFunctions = map[string]bool{
	"sum": true, "product": true, "max": true, "min": true, "last_value": true, "last_value_ignore_nulls": true,
	"first_value": true, "first_value_ignore_nulls": true, "listagg": true, "string_agg": true,
	"bool_and": true, "bool_or": true, "rbm32": true, "rbm64": true,
}

var reservedColumns = map[string]bool{"__offset": true, "__timestamp": true, "__bucket": true}

// partitionKeyRoots are the types a partition key may have.
var partitionKeyRoots = map[schema.TypeRoot]bool{
	schema.RootChar: true, schema.RootString: true, schema.RootBoolean: true, schema.RootBinary: true, schema.RootBytes: true,
	schema.RootTinyInt: true, schema.RootSmallInt: true, schema.RootInt: true, schema.RootBigInt: true, schema.RootFloat: true,
	schema.RootDouble: true, schema.RootDate: true, schema.RootTime: true, schema.RootTimestamp: true, schema.RootTimestampLTZ: true,
}

// checkName validates a database, table or partition name.
func checkName(kind, name string) *Error {
	if err := schema.CheckNewName(kind, name); err != nil {
		return errf("name", "%s", err)
	}
	return nil
}

// buildDescriptor validates def and builds the Fluss descriptor.
// descBuilder turns a table definition into a descriptor, one section
// of CREATE TABLE at a time; each step checks what it adds.
type descBuilder struct {
	def       *tableDef
	d         schema.TableDescriptor
	cols      []schema.Column // physical columns
	seen      map[string]bool // every column name, computed ones too
	autoInc   []string
	agg       map[string]*schema.AggFunction
	aggParams map[string]string
	engine    string // table.merge-engine, lower case
}

func buildDescriptor(def *tableDef) (schema.TableDescriptor, *Error) {
	b := &descBuilder{def: def, seen: map[string]bool{}}
	steps := []func() *Error{b.physicalColumns, b.primaryKey, b.partitionKeys, b.options,
		b.aggregations, b.autoIncrement, b.bucketKeys, b.computedColumns}
	for _, step := range steps {
		if err := step(); err != nil {
			return b.d, err
		}
	}
	return b.finish()
}

// colType is the type of a physical column.
func (b *descBuilder) colType(name string) (schema.DataType, bool) {
	for _, c := range b.cols {
		if c.Name == name {
			return c.Type, true
		}
	}
	return schema.DataType{}, false
}

// isComputed reports whether name is a computed column.
func (b *descBuilder) isComputed(name string) bool {
	for _, c := range b.def.cols {
		if c.name == name {
			return c.computed
		}
	}
	return false
}

func (b *descBuilder) physicalColumns() *Error {
	const clause = "CREATE TABLE"
	def, seen := b.def, b.seen
	var cols []schema.Column
	for _, c := range def.cols {
		if seen[c.name] {
			return errf(clause, "column %q is declared twice", c.name)
		}
		seen[c.name] = true
		if c.computed {
			continue
		}
		if reservedColumns[c.name] {
			return errf(clause, "column name %q is reserved by Fluss (__offset, __timestamp and __bucket are system columns); rename the column", c.name)
		}
		col := schema.NewColumn(c.name, c.typ)
		col.Comment = c.comment
		cols = append(cols, col)
	}
	if len(cols) == 0 {
		return errf(clause, "a table needs at least one physical column")
	}
	b.cols = cols
	return nil
}

func (b *descBuilder) primaryKey() *Error {
	def, colType, isComputed := b.def, b.colType, b.isComputed
	for _, k := range def.pk {
		t, ok := colType(k)
		if !ok {
			if isComputed(k) {
				return errf("PRIMARY KEY", "primary key column %q is a computed column; only physical columns can be keys", k)
			}
			return errf("PRIMARY KEY", "primary key column %q is not a column of the table", k)
		}
		if isComplex(t) {
			return errf("PRIMARY KEY", "primary key column %q has type %s; ARRAY, MAP and ROW columns cannot be primary-key columns", k, t)
		}
	}
	for i, k := range def.pk {
		if slices.Contains(def.pk[:i], k) {
			return errf("PRIMARY KEY", "primary key column %q is listed twice", k)
		}
	}
	return nil
}

func (b *descBuilder) partitionKeys() *Error {
	def, colType := b.def, b.colType
	for _, p := range def.partitionBy {
		t, ok := colType(p)
		if !ok {
			return errf("PARTITIONED BY", "partition key %q is not a physical column of the table", p)
		}
		if !partitionKeyRoots[t.Root] {
			return errf("PARTITIONED BY", "partition key %q has type %s; partition keys must be CHAR, STRING, BOOLEAN, BINARY, BYTES, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DATE, TIME, TIMESTAMP or TIMESTAMP_LTZ", p, t)
		}
		if len(def.pk) > 0 && !slices.Contains(def.pk, p) {
			return errf("PARTITIONED BY", "partition key %q must be part of the primary key (%s) of a partitioned primary-key table", p, strings.Join(def.pk, ", "))
		}
	}
	if len(def.pk) > 0 && len(def.pk) == len(def.partitionBy) {
		return errf("PRIMARY KEY", "the primary key (%s) must contain at least one column that is not a partition key", strings.Join(def.pk, ", "))
	}
	return nil
}

// options sorts the WITH options into properties, custom properties,
// bucketing, auto-increment and aggregation settings.
func (b *descBuilder) options() *Error {
	d := &b.d
	d.Properties = map[string]string{}
	d.CustomProperties = map[string]string{}
	var autoInc []string
	agg := map[string]*schema.AggFunction{}
	aggParams := map[string]string{}
	for _, o := range b.def.options {
		k, v := o.key, o.value
		switch {
		case k == optConnector:
			if !strings.EqualFold(v, "fluss") {
				return errf("WITH", "'connector' = '%s' is not supported: tables of this catalog are Fluss tables (omit 'connector' or set it to 'fluss'; use Flink for other connectors)", v)
			}
		case k == optBucketNum:
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n <= 0 {
				return errf("WITH", "'bucket.num' = '%s' must be a positive integer", v)
			}
			d.BucketCount = &n
		case k == optBucketKey:
			d.BucketKeys = nil
			for _, b := range strings.Split(v, ",") {
				if b = strings.TrimSpace(b); b != "" {
					d.BucketKeys = append(d.BucketKeys, b)
				}
			}
		case k == optAutoIncrement:
			autoInc = nil
			for _, a := range strings.Split(v, ",") {
				if a = strings.TrimSpace(a); a != "" {
					autoInc = append(autoInc, a)
				}
			}
		case strings.HasPrefix(k, "fields.") && strings.HasSuffix(k, ".agg") && strings.Count(k, ".") >= 2:
			col := strings.TrimSuffix(strings.TrimPrefix(k, "fields."), ".agg")
			fn := strings.ToLower(strings.TrimSpace(v))
			if !aggFunctions[fn] {
				return errf("WITH", "'%s' = '%s': unknown aggregation function (use sum, product, max, min, last_value, last_value_ignore_nulls, first_value, first_value_ignore_nulls, listagg, string_agg, bool_and, bool_or, rbm32 or rbm64)", k, v)
			}
			agg[col] = &schema.AggFunction{Type: fn}
		case strings.HasPrefix(k, "fields.") && strings.Count(k, ".") >= 3:
			aggParams[k] = v
		case strings.HasPrefix(k, "table."):
			d.Properties[k] = v
		default:
			d.CustomProperties[k] = v
		}
	}
	b.autoInc, b.agg, b.aggParams = autoInc, agg, aggParams
	return nil
}

// aggregations checks the merge engine and attaches aggregation functions
// and their parameters to their columns.
func (b *descBuilder) aggregations() *Error {
	d, def, cols, colType, agg := &b.d, b.def, b.cols, b.colType, b.agg
	engine := strings.ToLower(d.Properties[schema.OptMergeEngine])
	switch engine {
	case "", "first_row", "versioned", "aggregation":
	default:
		return errf("WITH", "'table.merge-engine' = '%s' is not a merge engine (use first_row, versioned or aggregation; leave it unset for last-row)", d.Properties[schema.OptMergeEngine])
	}
	if engine != "" && len(def.pk) == 0 {
		return errf("WITH", "'table.merge-engine' needs a primary-key table; declare PRIMARY KEY (...) NOT ENFORCED")
	}
	if engine == "versioned" {
		vc, ok := d.Properties[optVerColumn]
		if !ok {
			return errf("WITH", "the versioned merge engine needs '%s' naming an INT, BIGINT, TIMESTAMP or TIMESTAMP_LTZ column", optVerColumn)
		}
		t, ok := colType(vc)
		if !ok {
			return errf("WITH", "'%s' = '%s' is not a column of the table", optVerColumn, vc)
		}
		switch t.Root {
		case schema.RootInt, schema.RootBigInt, schema.RootTimestamp, schema.RootTimestampLTZ:
		default:
			return errf("WITH", "version column %q has type %s; it must be INT, BIGINT, TIMESTAMP or TIMESTAMP_LTZ", vc, t)
		}
	}
	if db, ok := d.Properties[schema.OptDeleteBehavior]; ok {
		switch strings.ToUpper(db) {
		case "ALLOW", "IGNORE", "DISABLE":
		default:
			return errf("WITH", "'table.delete.behavior' = '%s' must be ALLOW, IGNORE or DISABLE", db)
		}
	}
	for k, v := range b.aggParams {
		rest := strings.TrimPrefix(k, "fields.")
		parts := strings.SplitN(rest, ".", 3)
		if len(parts) == 3 {
			if f, ok := agg[parts[0]]; ok && (f.Type == parts[1] || parts[1] == "listagg" && f.Type == "string_agg" || parts[1] == "string_agg" && f.Type == "listagg") {
				if f.Params == nil {
					f.Params = map[string]string{}
				}
				f.Params[parts[2]] = v
				continue
			}
		}
		d.CustomProperties[k] = v
	}
	if len(agg) > 0 && engine != "aggregation" {
		return errf("WITH", "'fields.<column>.agg' needs 'table.merge-engine' = 'aggregation'")
	}
	aggCols := make([]string, 0, len(agg))
	for c := range agg {
		aggCols = append(aggCols, c)
	}
	sort.Strings(aggCols)
	for _, c := range aggCols {
		i := slices.IndexFunc(cols, func(x schema.Column) bool { return x.Name == c })
		if i < 0 {
			return errf("WITH", "'fields.%s.agg': %q is not a column of the table", c, c)
		}
		if slices.Contains(def.pk, c) {
			return errf("WITH", "'fields.%s.agg': primary-key column %q cannot have an aggregation function", c, c)
		}
		cols[i].AggFunction = agg[c]
	}
	b.engine = engine
	return nil
}

func (b *descBuilder) autoIncrement() *Error {
	def, colType, autoInc := b.def, b.colType, b.autoInc
	if len(autoInc) > 0 {
		if len(def.pk) == 0 {
			return errf("WITH", "'auto-increment.fields' needs a primary-key table")
		}
		if len(autoInc) > 1 {
			return errf("WITH", "'auto-increment.fields' = '%s': a table can have at most one auto-increment column", strings.Join(autoInc, ","))
		}
		t, ok := colType(autoInc[0])
		if !ok {
			return errf("WITH", "'auto-increment.fields': %q is not a column of the table", autoInc[0])
		}
		if t.Root != schema.RootInt && t.Root != schema.RootBigInt {
			return errf("WITH", "auto-increment column %q has type %s; it must be INT or BIGINT", autoInc[0], t)
		}
		if slices.Contains(def.pk, autoInc[0]) {
			return errf("WITH", "auto-increment column %q cannot be part of the primary key", autoInc[0])
		}
	}
	return nil
}

func (b *descBuilder) bucketKeys() *Error {
	d, def, colType := &b.d, b.def, b.colType
	for _, b := range d.BucketKeys {
		t, ok := colType(b)
		if !ok {
			return errf("WITH", "'bucket.key' column %q is not a physical column of the table", b)
		}
		if isComplex(t) {
			return errf("WITH", "'bucket.key' column %q has type %s; ARRAY, MAP and ROW columns cannot be bucket keys", b, t)
		}
		if slices.Contains(def.partitionBy, b) {
			return errf("WITH", "'bucket.key' column %q is a partition key; bucket keys must not include partition keys", b)
		}
		if len(def.pk) > 0 && !slices.Contains(def.pk, b) {
			phys := []string{}
			for _, k := range def.pk {
				if !slices.Contains(def.partitionBy, k) {
					phys = append(phys, k)
				}
			}
			return errf("WITH", "'bucket.key' = '%s' must be a subset of the primary key without partition keys (%s); %q is not", strings.Join(d.BucketKeys, ","), strings.Join(phys, ", "), b)
		}
	}
	return nil
}

// computedColumns stores computed columns and watermarks as custom
// properties, in Flink's encoding.
func (b *descBuilder) computedColumns() *Error {
	d, def, seen := &b.d, b.def, b.seen
	for i, c := range def.cols {
		if !c.computed {
			continue
		}
		p := "schema." + strconv.Itoa(i) + "."
		d.CustomProperties[p+"name"] = c.name
		d.CustomProperties[p+"expr"] = c.expr
		if c.exprType != "" {
			d.CustomProperties[p+"data-type"] = c.exprType
		}
	}
	for i, w := range def.watermarks {
		if !seen[w.column] {
			return errf("WATERMARK", "watermark column %q is not a column of the table", w.column)
		}
		p := "schema.watermark." + strconv.Itoa(i) + "."
		d.CustomProperties[p+"rowtime"] = w.column
		d.CustomProperties[p+"strategy.expr"] = w.expr
		if w.dataType != "" {
			d.CustomProperties[p+"strategy.data-type"] = w.dataType
		}
	}
	return nil
}

// finish builds the schema and normalizes the descriptor.
func (b *descBuilder) finish() (schema.TableDescriptor, *Error) {
	const clause = "CREATE TABLE"
	d, def, cols, autoInc := &b.d, b.def, b.cols, b.autoInc
	if len(d.Properties) == 0 {
		d.Properties = nil
	}
	if len(d.CustomProperties) == 0 {
		d.CustomProperties = nil
	}
	s, err := schema.NewSchema(cols, def.pk, autoInc)
	if err != nil {
		return *d, errf(clause, "%s", strings.TrimPrefix(err.Error(), "schema: "))
	}
	d.Schema = s
	d.Comment = def.comment
	d.PartitionKeys = slices.Clone(def.partitionBy)
	if err := d.Normalize(); err != nil {
		return *d, errf(clause, "%s", strings.TrimPrefix(err.Error(), "schema: "))
	}
	return *d, nil
}

// flinkType renders a Fluss type the way Flink serializes logical types
// in catalog properties (STRING is VARCHAR(2147483647), and so on).
func flinkType(t schema.DataType) string {
	return nestedType(t, func(t schema.DataType) (string, bool) {
		switch t.Root {
		case schema.RootString:
			return "VARCHAR(2147483647)", true
		case schema.RootBytes:
			return "VARBINARY(2147483647)", true
		case schema.RootTimestampLTZ:
			return fmt.Sprintf("TIMESTAMP(%d) WITH LOCAL TIME ZONE", t.Precision), true
		}
		return "", false
	}, func(f schema.Field, typ string) string { return schema.Backquote(f.Name) + " " + typ })
}

// splitIndexed splits a property key suffix "<i>.<field>".
func splitIndexed(s string) (i int, field string, ok bool) {
	parts := strings.SplitN(s, ".", 2)
	i, err := strconv.Atoi(parts[0])
	if err != nil || len(parts) < 2 {
		return 0, "", false
	}
	return i, parts[1], true
}

// defFromDescriptor rebuilds the Flink DDL view of a stored table.
func defFromDescriptor(d *schema.TableDescriptor) *tableDef {
	def := &tableDef{comment: d.Comment, pk: slices.Clone(d.Schema.PrimaryKey), partitionBy: slices.Clone(d.PartitionKeys)}
	// Computed columns stored as schema.<i>.* at their original positions.
	computed := map[int]colDef{}
	wms := map[int]watermarkDef{}
	for k, v := range d.CustomProperties {
		if !strings.HasPrefix(k, "schema.") {
			continue
		}
		rest := strings.TrimPrefix(k, "schema.")
		if strings.HasPrefix(rest, "watermark.") {
			i, field, ok := splitIndexed(strings.TrimPrefix(rest, "watermark."))
			if !ok {
				continue
			}
			w := wms[i]
			switch field {
			case "rowtime":
				w.column = v
			case "strategy.expr":
				w.expr = v
			case "strategy.data-type":
				w.dataType = v
			}
			wms[i] = w
			continue
		}
		i, field, ok := splitIndexed(rest)
		if !ok {
			continue
		}
		c := computed[i]
		c.computed = true
		switch field {
		case "name":
			c.name = v
		case "expr":
			c.expr = v
		case "data-type":
			c.exprType = v
		}
		computed[i] = c
	}
	phys := 0
	total := len(d.Schema.Columns) + len(computed)
	for i := 0; i < total; i++ {
		if c, ok := computed[i]; ok && c.name != "" {
			def.cols = append(def.cols, c)
			continue
		}
		if phys < len(d.Schema.Columns) {
			c := d.Schema.Columns[phys]
			phys++
			def.cols = append(def.cols, colDef{name: c.Name, typ: c.Type, comment: c.Comment})
		}
	}
	for phys < len(d.Schema.Columns) {
		c := d.Schema.Columns[phys]
		phys++
		def.cols = append(def.cols, colDef{name: c.Name, typ: c.Type, comment: c.Comment})
	}
	wmIdx := make([]int, 0, len(wms))
	for i := range wms {
		wmIdx = append(wmIdx, i)
	}
	sort.Ints(wmIdx)
	for _, i := range wmIdx {
		if w := wms[i]; w.column != "" {
			def.watermarks = append(def.watermarks, w)
		}
	}
	// Options: bucket.*, then table.* and custom properties sorted, then
	// the schema-level options.
	if d.BucketCount != nil {
		def.options = append(def.options, kv{optBucketNum, strconv.Itoa(*d.BucketCount)})
	}
	if len(d.BucketKeys) > 0 && !d.IsDefaultBucketKey() {
		def.options = append(def.options, kv{optBucketKey, strings.Join(d.BucketKeys, ",")})
	}
	var rest []kv
	for k, v := range d.Properties {
		rest = append(rest, kv{k, v})
	}
	for k, v := range d.CustomProperties {
		if !strings.HasPrefix(k, "schema.") {
			rest = append(rest, kv{k, v})
		}
	}
	if len(d.Schema.AutoIncrementColumns) > 0 {
		rest = append(rest, kv{optAutoIncrement, strings.Join(d.Schema.AutoIncrementColumns, ",")})
	}
	for _, c := range d.Schema.Columns {
		if c.AggFunction == nil {
			continue
		}
		rest = append(rest, kv{"fields." + c.Name + ".agg", c.AggFunction.Type})
		for pk, pv := range c.AggFunction.Params {
			rest = append(rest, kv{"fields." + c.Name + "." + c.AggFunction.Type + "." + pk, pv})
		}
	}
	sort.Slice(rest, func(i, j int) bool { return rest[i].key < rest[j].key })
	def.options = append(def.options, rest...)
	return def
}
