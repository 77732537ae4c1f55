package planner

import (
	"slices"
	"strings"

	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
	"github.com/gofluss/fluss/parser"
)

func mergeEngine(d *schema.TableDescriptor) string {
	return strings.ToLower(d.Properties[schema.OptMergeEngine])
}

func deleteBehavior(d *schema.TableDescriptor) string {
	if v, ok := d.Properties[schema.OptDeleteBehavior]; ok {
		return strings.ToUpper(v)
	}
	switch mergeEngine(d) {
	case "first_row", "versioned", "aggregation":
		return "IGNORE"
	}
	return "ALLOW"
}

// writeOptions validates write hints and returns them.
func writeOptions(hints map[string]string, clause string) (Options, *Error) {
	if len(hints) == 0 {
		return nil, nil
	}
	out := Options{}
	for k, v := range hints {
		if e := checkSessionKey(k, clause+" hint"); e != nil {
			return nil, e
		}
		if e := checkOptionValue(k, v, clause+" hint"); e != nil {
			return nil, e
		}
		out[k] = v
	}
	return out, nil
}

func (p *planCtx) writeTarget(ref *parser.TableRef, stmtHints []parser.Hint, verb string) (*schema.TableInfo, Options, map[string]string, error) {
	if ref.Name.Virtual != parser.NotVirtual {
		return nil, nil, nil, errf(verb, "%s is a read-only virtual table; %s the base table %s", ref.Name, verb, ref.Name.Name)
	}
	info, err := p.table(ref.Name, verb)
	if err != nil {
		return nil, nil, nil, err
	}
	hints := hintOptions(stmtHints, ref.Hints)
	wo, e := writeOptions(hints, verb)
	if e != nil {
		return nil, nil, nil, e
	}
	return info, wo, hints, nil
}

// ---------------------------------------------------------------------------
// INSERT / UPSERT / REPLACE

func (p *planCtx) insert(s *parser.Insert) (Plan, error) {
	verb := s.Action.String()
	if s.Select != nil {
		return nil, errf(verb+" ... SELECT", "INSERT ... SELECT needs a query engine; run it in Flink SQL or read rows and insert them from Go")
	}
	if len(s.OnDuplicate) > 0 || s.Ignore {
		return nil, errf("ON DUPLICATE KEY", "INSERT on a primary-key table is already an upsert; ON DUPLICATE KEY/IGNORE are not supported (use 'table.merge-engine'='first_row' for keep-first semantics)")
	}
	if s.Overwrite {
		return nil, errf("INSERT OVERWRITE", "INSERT OVERWRITE is not supported by Fluss (drop the partition and insert again)")
	}
	info, wo, hints, err := p.writeTarget(&s.Table, s.Hints, verb)
	if err != nil {
		return nil, err
	}
	d := &info.Descriptor
	sc := &d.Schema
	r := schemaRow(sc)
	pk := sc.HasPrimaryKey()
	if !pk && s.Action != parser.ActionInsert {
		return nil, errf(verb, "UPSERT/REPLACE needs a primary-key table; %s is a log table (use INSERT)", info.Path)
	}
	target, explicit, err := insertTarget(verb, s.Columns, r, info)
	if err != nil {
		return nil, err
	}
	static, err := staticPartition(s.Partition, r, info, explicit, target)
	if err != nil {
		return nil, err
	}
	target, autoInc, dropAuto, err := autoIncrementTarget(verb, s.Rows, r, sc, explicit, target, static)
	if err != nil {
		return nil, err
	}
	rows, err := p.insertRows(s.Rows, r, target, static, autoInc, dropAuto)
	if err != nil {
		return nil, err
	}
	full := make([]bool, len(r.names))
	for _, i := range target {
		full[i] = true
	}
	for i := range static {
		full[i] = true
	}
	if pk {
		return p.upsertPlan(info, s, r, target, static, autoInc, dropAuto, rows, wo, hints)
	}
	// Log table: every column is written; missing nullable columns are NULL.
	for i, t := range r.types {
		if !full[i] && !t.Nullable {
			return nil, errf(verb, "column %q is NOT NULL and has no value", r.names[i])
		}
	}
	return &Append{Table: tableOf(info), Columns: r.names, Rows: rows, Params: p.params, Options: wo}, nil
}

// insertTarget resolves the column list as written (explicit is false
// when there is none, and target empty).
func insertTarget(verb string, cols []string, r *rowType, info *schema.TableInfo) (target []int, explicit bool, err error) {
	explicit = len(cols) > 0
	if explicit {
		for _, c := range cols {
			i := r.index(c)
			if i < 0 {
				if strings.Contains(c, ".") {
					return nil, false, errf(verb, "nested-field targets (%s) are not supported; write whole columns", c)
				}
				return nil, false, errf(verb, "unknown column %q in the column list of %s (columns: %s)", c, info.Path, strings.Join(r.names, ", "))
			}
			if slices.Contains(target, i) {
				return nil, false, errf(verb, "column %q is listed twice", r.names[i])
			}
			target = append(target, i)
		}
	}
	return target, explicit, nil
}

// staticPartition resolves the static partition values of Flink's INSERT
// INTO t PARTITION (k='v'), by column position.
func staticPartition(part *parser.PartitionSpec, r *rowType, info *schema.TableInfo, explicit bool, target []int) (map[int]parser.Expr, error) {
	d := &info.Descriptor
	static := map[int]parser.Expr{}
	if part != nil {
		for _, pv := range part.Values {
			i := r.index(pv.Column)
			if i < 0 || !slices.Contains(d.PartitionKeys, r.names[i]) {
				return nil, errf("PARTITION", "%q is not a partition key of %s", pv.Column, info.Path)
			}
			if explicit && slices.Contains(target, i) {
				return nil, errf("PARTITION", "partition key %q is both in PARTITION (...) and in the column list", r.names[i])
			}
			static[i] = pv.Value
		}
	}
	return static, nil
}

// autoIncrementTarget completes the target without a column list and
// decides how VALUES treats the auto-increment column (autoInc, or -1):
// left out, or given as NULL/DEFAULT in its place (dropAuto).
func autoIncrementTarget(verb string, values [][]parser.Expr, r *rowType, sc *schema.Schema, explicit bool, target []int, static map[int]parser.Expr) (_ []int, autoInc int, dropAuto bool, err error) {
	autoInc = -1
	if len(sc.AutoIncrementColumns) > 0 {
		autoInc = sc.ColumnIndex(sc.AutoIncrementColumns[0])
	}
	if !explicit {
		for i := range r.names {
			if _, ok := static[i]; !ok {
				target = append(target, i)
			}
		}
	}
	if autoInc >= 0 {
		if explicit && slices.Contains(target, autoInc) {
			return nil, 0, false, errf(verb, "column %q is an auto-increment column; the server assigns its values, so leave it out of the column list", r.names[autoInc])
		}
		if !explicit {
			// Allow VALUES without the auto-increment column, or with NULL/DEFAULT in its place.
			if len(values) > 0 && len(values[0]) == len(target)-1 {
				target = slices.DeleteFunc(target, func(i int) bool { return i == autoInc })
			} else {
				dropAuto = true
			}
		}
	}
	return target, autoInc, dropAuto, nil
}

// insertRows turns VALUES into full rows of plan values: written columns,
// static partition values, NULL literals for the rest.
func (p *planCtx) insertRows(values [][]parser.Expr, r *rowType, target []int, static map[int]parser.Expr, autoInc int, dropAuto bool) ([][]Value, error) {
	var rows [][]Value
	for ri, row := range values {
		if len(row) != len(target) {
			return nil, errf("VALUES", "row %d has %s for %s (%s)", ri+1, plural.Count(len(row), "value"), plural.Count(len(target), "column"), fmtCols(r, target))
		}
		vals := make([]Value, len(r.names))
		set := make([]bool, len(r.names))
		for j, e := range row {
			i := target[j]
			if i == autoInc && dropAuto {
				if l, ok := e.(*parser.Literal); (ok && l.Kind == parser.LitNull) || isDefault(e) {
					continue
				}
				return nil, errf("VALUES", "column %q is an auto-increment column; the server assigns its values (write NULL or DEFAULT, or leave it out with a column list)", r.names[i])
			}
			v, err := p.value(e, r.names[i], r.types[i])
			if err != nil {
				return nil, valueErr("VALUES", "VALUES supports only constants or parameters", r.names[i], err)
			}
			if v.IsNull() && !r.types[i].Nullable {
				return nil, errf("VALUES", "column %q is NOT NULL and has no value", r.names[i])
			}
			vals[i], set[i] = v, true
		}
		for i, e := range static {
			v, err := p.value(e, r.names[i], r.types[i])
			if err != nil {
				return nil, valueErr("PARTITION", "partition values must be constants or parameters", r.names[i], err)
			}
			vals[i], set[i] = v, true
		}
		for i := range vals {
			if !set[i] {
				vals[i] = Value{Kind: ValueLiteral, Type: r.types[i]}
			}
		}
		rows = append(rows, vals)
	}
	return rows, nil
}

func isDefault(e parser.Expr) bool {
	_, ok := e.(*parser.DefaultExpr)
	return ok
}

func valueErr(clause, notConst, col string, err error) *Error {
	if _, ok := err.(errNotConst); ok {
		return errf(clause, "%s; column %q gets %s", notConst, col, strings.TrimSuffix(err.Error(), " is not a constant or parameter"))
	}
	return errf(clause, "column %q: %v", col, err)
}

func (p *planCtx) upsertPlan(info *schema.TableInfo, s *parser.Insert, r *rowType, target []int, static map[int]parser.Expr, autoInc int, dropAuto bool, rows [][]Value, wo Options, hints map[string]string) (Plan, error) {
	verb := s.Action.String()
	d := &info.Descriptor
	sc := &d.Schema
	written := make([]bool, len(r.names))
	for _, i := range target {
		written[i] = true
	}
	for i := range static {
		written[i] = true
	}
	if dropAuto {
		written[autoInc] = false
	}
	var cols []int
	for i := range r.names {
		if written[i] {
			cols = append(cols, i)
		}
	}
	partial := len(cols) < len(r.names)
	if partial {
		var missing []string
		for _, k := range sc.PrimaryKey {
			if !written[sc.ColumnIndex(k)] {
				missing = append(missing, k)
			}
		}
		if len(missing) > 0 {
			return nil, errf(verb, "partial updates without fully specifying the primary key columns are not supported: the column list of %s %s must include every primary-key column (%s); missing %s", verb, info.Path, strings.Join(sc.PrimaryKey, ", "), strings.Join(missing, ", "))
		}
		// The auto-increment column alone being left out is not a partial update of user columns.
		onlyAuto := autoInc >= 0 && len(cols) == len(r.names)-1 && !written[autoInc]
		if me := mergeEngine(d); (me == "first_row" || me == "versioned") && !onlyAuto {
			return nil, errf(verb, "table %s uses the '%s' merge engine which does not support partial updates (write every column)", info.Path, me)
		}
		for i, t := range r.types {
			if !written[i] && i != autoInc && !t.Nullable {
				return nil, errf(verb, "column %q is NOT NULL and has no value", r.names[i])
			}
		}
	}
	up := &Upsert{Table: tableOf(info), Partial: partial, Params: p.params, Options: wo}
	for _, i := range cols {
		up.Columns = append(up.Columns, r.names[i])
	}
	for _, row := range rows {
		nr := make([]Value, 0, len(cols))
		for _, i := range cols {
			nr = append(nr, row[i])
		}
		up.Rows = append(up.Rows, nr)
	}
	mm, _ := p.sess.opts(hints, d.CustomProperties).get("fluss.merge-mode")
	if strings.EqualFold(mm, "overwrite") {
		up.MergeMode = "overwrite"
	}
	return up, nil
}

// ---------------------------------------------------------------------------
// UPDATE and DELETE

func (p *planCtx) changeTarget(ref *parser.TableRef, hints []parser.Hint, verb string) (*schema.TableInfo, Options, map[string]string, error) {
	info, wo, h, err := p.writeTarget(ref, hints, verb)
	if err != nil {
		return nil, nil, nil, err
	}
	d := &info.Descriptor
	if !d.HasPrimaryKey() {
		return nil, nil, nil, errf(verb, "table %s is a log table; log tables do not support DELETE and UPDATE statements (only primary-key tables can be changed by key)", info.Path)
	}
	if me := mergeEngine(d); me != "" {
		return nil, nil, nil, errf(verb, "table %s uses the '%s' merge engine which does not support DELETE or UPDATE statements", info.Path, me)
	}
	return info, wo, h, nil
}

func (p *planCtx) update(s *parser.Update) (Plan, error) {
	ref, ok := s.SingleTable()
	if !ok {
		return nil, engineError("a multi-table UPDATE")
	}
	if len(s.OrderBy) > 0 || s.Limit != nil {
		return nil, errf("UPDATE", "UPDATE ... ORDER BY/LIMIT is not supported; UPDATE changes the one row whose full primary key is given in WHERE")
	}
	info, wo, _, err := p.changeTarget(ref, s.Hints, "UPDATE")
	if err != nil {
		return nil, err
	}
	sc := &info.Descriptor.Schema
	r := schemaRow(sc, aliasesOf(ref)...)
	up := &Update{Table: tableOf(info), KeyColumns: sc.PrimaryKey, Options: wo}
	setCols := map[int]bool{}
	for _, a := range s.Set {
		i, e := r.resolve(a.Column, "SET")
		if e != nil {
			return nil, e
		}
		name := r.names[i]
		if slices.Contains(sc.PrimaryKey, name) {
			return nil, errf("SET", "updates to primary keys are not supported: %q is a primary-key column (DELETE the row and INSERT it with the new key)", name)
		}
		if slices.Contains(sc.AutoIncrementColumns, name) {
			return nil, errf("SET", "column %q is an auto-increment column; the server assigns its values", name)
		}
		if setCols[i] {
			return nil, errf("SET", "column %q is assigned twice", name)
		}
		setCols[i] = true
		v, verr := p.value(a.Value, name, r.types[i])
		if verr != nil {
			if _, nc := verr.(errNotConst); nc {
				return nil, errf("SET", "UPDATE supports only constants or parameters in SET (no read-modify-write expressions); got %s = %s", name, exprText(a.Value))
			}
			return nil, errf("SET", "column %q: %v", name, verr)
		}
		if v.IsNull() && !r.types[i].Nullable {
			return nil, errf("SET", "column %q is NOT NULL and cannot be set to NULL", name)
		}
		up.Set = append(up.Set, Assignment{Column: name, Value: v})
	}
	keyIdx := indexes(r, sc.PrimaryKey)
	needMsg := func(got []string) error {
		g := "no key column"
		if len(got) > 0 {
			g = strings.Join(got, ", ")
		}
		return errf("WHERE", "UPDATE needs equality (or IN) on every primary-key column (%s); got %s", strings.Join(sc.PrimaryKey, ", "), g)
	}
	if s.Where == nil {
		return nil, needMsg(nil)
	}
	cs, e := analyze(s.Where, r, "WHERE")
	if e != nil {
		return nil, e
	}
	var got []string
	for _, c := range cs {
		cols := c.tupleCols
		if c.kind == conjEq || c.kind == conjIn {
			cols = []int{c.col}
		}
		for _, i := range cols {
			if slices.Contains(keyIdx, i) && !slices.Contains(got, r.names[i]) {
				got = append(got, r.names[i])
			}
		}
	}
	keys, used, missing, err := p.keyValues(cs, keyIdx, r, "WHERE")
	if err != nil {
		return nil, err
	}
	if len(missing) > 0 {
		return nil, needMsg(got)
	}
	up.Keys = keys
	if up.Residual, err = p.residual(cs, used, r); err != nil {
		return nil, err
	}
	// A partial update needs every column outside the primary key
	// nullable, the SET columns included (the server refuses it
	// otherwise); else the looked-up row is written back whole.
	up.Partial = true
	for i, n := range r.names {
		if !slices.Contains(sc.PrimaryKey, n) && !r.types[i].Nullable {
			up.Partial = false
		}
	}
	for i, n := range r.names {
		if !up.Partial || setCols[i] || slices.Contains(sc.PrimaryKey, n) {
			up.Columns = append(up.Columns, n)
		}
	}
	up.Params = p.params
	return up, nil
}

// residual converts the WHERE conjuncts that the key values did not use
// (other columns, a repeated key column, soft-delete conditions such as
// deleted_at IS NULL that ORMs add) into predicates that UPDATE and
// DELETE check on the looked-up row.
func (p *planCtx) residual(cs []conj, used []bool, r *rowType) ([]Predicate, error) {
	return p.predicates(unused(cs, used), r)
}

// predicates converts WHERE conjuncts over the row r.
func (p *planCtx) predicates(cs []conj, r *rowType) ([]Predicate, error) {
	var out []Predicate
	for _, c := range cs {
		pr, err := p.predicate(c.expr, r, "WHERE")
		if err != nil {
			return nil, err
		}
		out = append(out, pr)
	}
	return out, nil
}

func indexes(r *rowType, names []string) []int {
	out := make([]int, len(names))
	for i, n := range names {
		out[i] = r.index(n)
	}
	return out
}

func aliasesOf(ref *parser.TableRef) []string {
	a := []string{ref.Name.Name, ref.Name.Name + "$" + ref.Name.VirtualSuffix}
	if ref.Alias != "" {
		a = append(a, ref.Alias)
	}
	return a
}

func (p *planCtx) delete(s *parser.Delete) (Plan, error) {
	ref, ok := s.SingleTable()
	if !ok {
		return nil, engineError("a multi-table DELETE")
	}
	if len(s.OrderBy) > 0 || s.Limit != nil {
		return nil, errf("DELETE", "DELETE ... ORDER BY/LIMIT is not supported; DELETE removes rows by their full primary key")
	}
	info, wo, hints, err := p.changeTarget(ref, s.Hints, "DELETE")
	if err != nil {
		return nil, err
	}
	d := &info.Descriptor
	sc := &d.Schema
	if deleteBehavior(d) == "DISABLE" {
		return nil, errf("DELETE", "table %s has delete behavior set to 'disable' which does not support DELETE statements", info.Path)
	}
	r := schemaRow(sc, aliasesOf(ref)...)
	keyIdx := indexes(r, sc.PrimaryKey)
	bulk := errf("WHERE", "DELETE needs equality on every primary-key column (%s); bulk/range deletes are not supported (drop a partition instead)", strings.Join(sc.PrimaryKey, ", "))
	if s.Where == nil {
		return nil, bulk
	}
	cs, e := analyze(s.Where, r, "WHERE")
	if e != nil {
		return nil, e
	}
	keys, used, missing, err := p.keyValues(cs, keyIdx, r, "WHERE")
	if err != nil {
		return nil, err
	}
	if len(missing) > 0 {
		return nil, bulk
	}
	residual, err := p.residual(cs, used, r)
	if err != nil {
		return nil, err
	}
	o := p.sess.opts(hints, d.CustomProperties)
	del := &Delete{Table: tableOf(info), KeyColumns: sc.PrimaryKey, Keys: keys, Residual: residual, Params: p.params, Options: wo}
	del.Ignored = deleteBehavior(d) == "IGNORE" || o.bool("sink.ignore-delete")
	return del, nil
}
