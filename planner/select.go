package planner

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/parser"
)

// Names and types of the $changelog / $binlog metadata columns.
const (
	ColChangeType      = "_change_type"
	ColLogOffset       = "_log_offset"
	ColCommitTimestamp = "_commit_timestamp"
)

var changelogMeta = []Column{
	{ColChangeType, schema.String().NotNull()},
	{ColLogOffset, schema.BigInt().NotNull()},
	{ColCommitTimestamp, schema.TimestampLTZ(3).NotNull()},
}

// BinlogColumns names the columns of a t$binlog row, given the table's
// columns: _change_type, _log_offset, _commit_timestamp, before and after
// (whole rows, NULL where the change has none), then every field of before
// and then of after as "before.<column>" and "after.<column>". SELECT *
// shows the first five; the fields are what `after`.order_id reads.
func BinlogColumns(columns []string) []string {
	out := make([]string, 0, len(changelogMeta)+2+2*len(columns))
	for _, c := range changelogMeta {
		out = append(out, c.Name)
	}
	out = append(out, "before", "after")
	for _, row := range []string{"before", "after"} {
		for _, c := range columns {
			out = append(out, row+"."+c)
		}
	}
	return out
}

// engineClauses rejects the clauses that only a query engine can run.
func engineClauses(s *parser.Select) *Error {
	if f := windowCall(s); f != nil {
		e := engineError("the window function " + strings.ToUpper(f.Name) + "(...) OVER (...)")
		e.Clause = "OVER"
		return e
	}
	switch {
	case len(s.With) > 0:
		return engineError("WITH")
	case s.Distinct:
		return engineError("DISTINCT")
	case len(s.GroupBy) > 0:
		return engineError("GROUP BY")
	case s.Having != nil:
		return engineError("HAVING")
	}
	return nil
}

func (p *planCtx) selectStmt(s *parser.Select) (Plan, error) {
	if ref, ok := isInfoSchema(s); ok {
		return p.infoSchema(s, ref)
	}
	if err := engineClauses(s); err != nil {
		return nil, err
	}
	if s.Lock != "" {
		return nil, errf(s.Lock, "%s is not supported: Fluss has no row locks or transactions", s.Lock)
	}
	if s.From == nil {
		if len(s.OrderBy) > 0 {
			return nil, errf("ORDER BY", "SELECT without FROM returns one row; drop ORDER BY")
		}
		return p.constantSelect(s)
	}
	ref, ok := s.SingleTable()
	if !ok {
		return nil, fromError(s.From)
	}
	if ref.ForSystemTime != nil {
		return nil, errf("FOR SYSTEM_TIME", "time travel on primary-key state is not supported by Fluss; read %s$changelog with scan.startup.mode='timestamp'", ref.Name.Name)
	}
	switch ref.Name.Virtual {
	case parser.VirtualLake:
		return nil, errf("FROM", "lake-only reads (%s) need the lake engine (Paimon/Iceberg); see SHOW LAKE SNAPSHOT FROM %s for the snapshot id", ref.Name, ref.Name.Name)
	case parser.VirtualUnknown:
		return nil, errf("FROM", "unknown virtual table %s; the virtual tables are t$changelog and t$binlog", ref.Name)
	}
	info, err := p.table(ref.Name, "FROM")
	if err != nil {
		return nil, err
	}
	hints := hintOptions(s.Hints, ref.Hints)
	for k := range hints {
		if e := checkSessionKey(k, "OPTIONS hint"); e != nil {
			return nil, e
		}
	}
	q := &query{p: p, s: s, ref: ref, info: info, d: &info.Descriptor, opts: p.sess.opts(hints, info.Descriptor.CustomProperties), hints: hints}
	return q.plan()
}

// windowCall returns the first window function call of the select list
// or ORDER BY of s (not of its subqueries), or nil.
func windowCall(s *parser.Select) *parser.FuncCall {
	var found *parser.FuncCall
	visit := func(n any) bool {
		switch x := n.(type) {
		case parser.SelectStatement:
			return false
		case *parser.FuncCall:
			if x.Over != nil && found == nil {
				found = x
			}
		}
		return found == nil
	}
	for _, e := range s.Exprs {
		parser.Walk(e, visit)
	}
	for i := range s.OrderBy {
		parser.Walk(&s.OrderBy[i], visit)
	}
	return found
}

func fromError(from []parser.TableExpr) *Error {
	if len(from) > 1 {
		return engineError("JOIN")
	}
	switch x := from[0].(type) {
	case *parser.JoinExpr:
		return engineError(x.Kind)
	case *parser.SubqueryTable:
		return engineError("a subquery")
	case *parser.ParenTable:
		if len(x.Exprs) == 1 {
			return fromError(x.Exprs)
		}
	}
	return engineError("JOIN")
}

// query is the state of planning one single-table SELECT.
type query struct {
	p     *planCtx
	s     *parser.Select
	ref   *parser.TableRef
	info  *schema.TableInfo
	d     *schema.TableDescriptor
	opts  options
	hints map[string]string
	row   *rowType
	// count is set for SELECT COUNT(*).
	count      bool
	proj       Projection
	output     []Column
	limit      *Value
	offset     *Value
	partKeys   []int
	changelog  bool
	binlog     bool
	offsetCols []int
	// sorting is set while the read under an ORDER BY is planned: the
	// Sort node applies LIMIT and OFFSET, not the read.
	sorting bool
}

func (q *query) plan() (Plan, error) {
	sc := &q.d.Schema
	aliases := aliasesOf(q.ref)
	switch q.ref.Name.Virtual {
	case parser.VirtualChangelog:
		q.changelog = true
	case parser.VirtualBinlog:
		q.changelog, q.binlog = true, true
		if !sc.HasPrimaryKey() || strings.EqualFold(q.d.Properties[schema.OptChangelogImage], "WAL") {
			return nil, errf("FROM", "$binlog needs a primary-key table with 'table.changelog.image'='FULL'; %s is not one (read %s$changelog instead)", q.info.Path, q.info.Path.Table)
		}
	}
	switch {
	case q.binlog:
		rt := sc.RowType().WithNullable(true)
		base := schemaRow(sc)
		q.row = &rowType{aliases: aliases, names: BinlogColumns(base.names), shown: len(changelogMeta) + 2}
		for _, c := range changelogMeta {
			q.row.types = append(q.row.types, c.Type)
		}
		q.row.types = append(q.row.types, rt, rt)
		for range 2 {
			for _, t := range base.types {
				q.row.types = append(q.row.types, t.WithNullable(true))
			}
		}
		q.offsetCols = []int{1, 2}
	case q.changelog:
		q.row = &rowType{aliases: aliases}
		for _, c := range changelogMeta {
			q.row.names, q.row.types = append(q.row.names, c.Name), append(q.row.types, c.Type)
		}
		base := schemaRow(sc)
		q.row.names = append(q.row.names, base.names...)
		q.row.types = append(q.row.types, base.types...)
		q.offsetCols = []int{1, 2}
	default:
		q.row = schemaRow(sc, aliases...)
	}
	for _, k := range q.d.PartitionKeys {
		if i := q.row.index(k); i >= 0 && !q.binlog {
			q.partKeys = append(q.partKeys, i)
		}
	}
	empty := q.noRowsIfFalse()
	if err := q.selectList(); err != nil {
		return nil, err
	}
	if empty && q.count {
		return &Constant{Row: []Value{{Kind: ValueLiteral, Type: q.output[0].Type, Literal: int64(0)}}, Output: q.output}, nil
	}
	if err := q.limits(); err != nil {
		return nil, err
	}
	if len(q.s.OrderBy) > 0 {
		return q.sorted()
	}
	if q.changelog {
		return q.changelogPlan()
	}
	return q.basePlan()
}

// noRowsIfFalse plans a WHERE with a conjunct of constants that is not
// TRUE, such as the WHERE 1 = 0 that BI tools send to learn a query's
// columns, as LIMIT 0 (and COUNT(*) as 0): the result has its columns and
// no rows, and the server is not asked for any. The statement is copied,
// not changed. It reports whether it did so.
func (q *query) noRowsIfFalse() bool {
	for _, e := range splitAnd(q.s.Where, nil) {
		if truth, ok := constTruth(e); ok && !truth {
			s := *q.s
			// No rows need no order: a sort would read the table first.
			s.Where, s.OrderBy = nil, nil
			s.Limit = &parser.Limit{Count: &parser.Literal{Kind: parser.LitInt, Text: "0"}}
			q.s = &s
			return true
		}
	}
	return false
}

// selectList resolves the projection (or COUNT(*)).
func (q *query) selectList() error {
	for _, se := range q.s.Exprs {
		switch x := se.(type) {
		case *parser.StarExpr:
			for i, n := range q.row.visible() {
				q.proj.Indexes = append(q.proj.Indexes, i)
				q.output = append(q.output, Column{n, q.row.types[i]})
			}
		case *parser.AliasedExpr:
			switch e := x.Expr.(type) {
			case *parser.ColumnRef:
				i, err := q.row.resolve(e, "SELECT")
				if err != nil {
					return err
				}
				name := q.row.names[i]
				if i >= len(q.row.visible()) {
					_, name, _ = strings.Cut(name, ".") // after.order_id is called order_id
				}
				if x.Alias != "" {
					name = x.Alias
				}
				q.proj.Indexes = append(q.proj.Indexes, i)
				q.output = append(q.output, Column{name, q.row.types[i]})
			case *parser.FuncCall:
				if isCountStar(e) && len(q.s.Exprs) == 1 && !q.changelog {
					q.count = true
					name := x.Alias
					if name == "" {
						name = exprName(0)
					}
					q.output = []Column{{name, schema.BigInt().NotNull()}}
					continue
				}
				if isAggregate(e.Name) {
					return engineError("aggregate " + strings.ToUpper(e.Name) + "(...)")
				}
				if err := engineFunc(e, "SELECT"); err != nil {
					return err
				}
				return engineErrf("SELECT", "%s in the select list needs a query engine; select plain columns (or COUNT(*) alone) and compute in Go", exprText(e))
			default:
				return engineErrf("SELECT", "%s in the select list needs a query engine; select plain columns (or COUNT(*) alone) and compute in Go", exprText(x.Expr))
			}
		}
	}
	return nil
}

func isCountStar(f *parser.FuncCall) bool {
	if !strings.EqualFold(f.Name, "count") || f.Distinct {
		return false
	}
	if f.Star {
		return true
	}
	if len(f.Args) == 1 {
		if l, ok := f.Args[0].(*parser.Literal); ok && l.Kind == parser.LitInt && l.Text == "1" {
			return true
		}
	}
	return false
}

// engineFunc rejects the roaring-bitmap functions of Fluss's Flink
// integration (rb_cardinality, rb_or_agg, ...) as the query-engine
// features they are; nil for any other function.
func engineFunc(f *parser.FuncCall, clause string) *Error {
	if !strings.HasPrefix(strings.ToLower(f.Name), "rb_") {
		return nil
	}
	e := engineError("the roaring-bitmap function " + strings.ToUpper(f.Name) + "(...)")
	e.Clause = clause
	return e
}

func isAggregate(name string) bool {
	switch strings.ToLower(name) {
	case "count", "sum", "avg", "min", "max", "group_concat", "listagg", "string_agg", "stddev", "variance", "first_value", "last_value", "collect", "array_agg", "bool_and", "bool_or":
		return true
	}
	return false
}

func (q *query) limits() error {
	l := q.s.Limit
	if l == nil || q.sorting {
		return nil
	}
	conv := func(e parser.Expr, what string) (*Value, error) {
		if e == nil {
			return nil, nil
		}
		v, err := q.p.value(e, "", schema.BigInt().NotNull())
		if err != nil {
			return nil, errf("LIMIT", "%s must be a non-negative integer constant or a parameter, got %s", what, exprText(e))
		}
		if v.Kind == ValueLiteral {
			if n, ok := v.Literal.(int64); !ok || n < 0 {
				return nil, errf("LIMIT", "%s must be a non-negative integer, got %s", what, exprText(e))
			}
		}
		return &v, nil
	}
	var err error
	if q.limit, err = conv(l.Count, "LIMIT"); err != nil {
		return err
	}
	q.offset, err = conv(l.Offset, "OFFSET")
	return err
}

// startup resolves scan.startup.* into the start position.
func (q *query) startup(pkBase bool) (OffsetSpec, bool, error) {
	mode, ok := q.opts.get("scan.startup.mode")
	explicit := q.opts.fromHint("scan.startup.mode")
	if _, s := q.opts.session["scan.startup.mode"]; s {
		explicit = true
	}
	mode = strings.ToLower(strings.TrimSpace(mode))
	if so, has := q.opts.get("fluss.scan.start-offsets"); has {
		offs, err := parseOffsets(so)
		if err != nil {
			return OffsetSpec{}, false, err
		}
		if pkBase {
			return OffsetSpec{}, false, errf("OPTIONS", "'fluss.scan.start-offsets' applies to log tables and t$changelog, not to the primary-key table %s", q.info.Path)
		}
		return OffsetSpec{Kind: OffsetExplicit, Offsets: offs}, true, nil
	}
	if !ok || mode == "" {
		return OffsetSpec{Kind: OffsetEarliest}, false, nil
	}
	if pkBase && mode != "full" && !explicit {
		// A stored table default (meant for streaming consumers) does not
		// apply to batch reads of the primary-key state.
		return OffsetSpec{Kind: OffsetEarliest}, false, nil
	}
	if pkBase && mode != "full" {
		return OffsetSpec{}, false, errf("scan.startup.mode", "Fluss batch scan on primary-key tables only supports full startup mode; read %s$changelog with 'scan.startup.mode'='%s' instead", q.info.Path.Table, mode)
	}
	switch mode {
	case "full", "earliest":
		return OffsetSpec{Kind: OffsetEarliest}, explicit, nil
	case "latest":
		return OffsetSpec{Kind: OffsetLatest}, explicit, nil
	case "timestamp":
		ts, has := q.opts.get("scan.startup.timestamp")
		if !has {
			return OffsetSpec{}, false, errf("scan.startup.mode", "'scan.startup.mode'='timestamp' needs 'scan.startup.timestamp' (epoch milliseconds or 'yyyy-MM-dd HH:mm:ss')")
		}
		ms, err := q.p.timestampMillis(ts)
		if err != nil {
			return OffsetSpec{}, false, err
		}
		return OffsetSpec{Kind: OffsetTimestamp, Timestamp: ms}, true, nil
	}
	return OffsetSpec{}, false, errf("scan.startup.mode", "'scan.startup.mode'='%s' is not supported; use full, earliest, latest or timestamp", mode)
}

func parseOffsets(s string) (map[int32]int64, error) {
	out := map[int32]int64{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		b, o, ok := strings.Cut(part, ":")
		bn, err1 := strconv.ParseInt(strings.TrimSpace(b), 10, 32)
		on, err2 := strconv.ParseInt(strings.TrimSpace(o), 10, 64)
		if !ok || err1 != nil || err2 != nil || bn < 0 || on < 0 {
			return nil, errf("fluss.scan.start-offsets", "'fluss.scan.start-offsets' must look like 'bucket:offset,bucket:offset', got '%s'", s)
		}
		out[int32(bn)] = on
	}
	return out, nil
}

// stop resolves the stop position: the latest offsets at query start,
// 'scan.stop.timestamp' (driver extension), or none when streaming.
func (q *query) stop() (OffsetSpec, error) {
	if q.streaming() {
		return OffsetSpec{Kind: OffsetNone}, nil
	}
	if v, ok := q.opts.get("scan.stop.timestamp"); ok {
		ms, err := q.p.timestampMillis(v)
		if err != nil {
			return OffsetSpec{}, errf("scan.stop.timestamp", "'scan.stop.timestamp' = '%s' is not a timestamp: use epoch milliseconds or 'yyyy-MM-dd HH:mm:ss'", v)
		}
		return OffsetSpec{Kind: OffsetTimestamp, Timestamp: ms}, nil
	}
	return OffsetSpec{Kind: OffsetLatest}, nil
}

func (q *query) streaming() bool {
	if v, ok := q.opts.get("fluss.scan.bounded"); ok && strings.EqualFold(v, "false") {
		return true
	}
	v, _ := q.opts.get("execution.runtime-mode")
	return strings.EqualFold(v, "streaming")
}

func (q *query) maxRows() int64 {
	if v, ok := q.opts.get("fluss.scan.max-rows"); ok {
		if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil && n > 0 {
			return n
		}
	}
	return DefaultScanMaxRows
}

// predicates converts the given conjuncts.
func (q *query) predicates(cs []conj) ([]Predicate, error) {
	return q.p.predicates(cs, q.row)
}

func onlyCols(c conj, allowed []int) bool {
	for _, r := range c.refs {
		if !slices.Contains(allowed, r) {
			return false
		}
	}
	return true
}

func (q *query) basePlan() (Plan, error) {
	sc := &q.d.Schema
	pk := sc.HasPrimaryKey()
	tbl := tableOf(q.info)
	cs, e := analyze(q.s.Where, q.row, "WHERE")
	if e != nil {
		return nil, e
	}
	// P3: COUNT(*).
	if q.count {
		for _, c := range cs {
			if !onlyCols(c, q.partKeys) {
				keys := strings.Join(q.d.PartitionKeys, ", ")
				if keys == "" {
					keys = "none: the table is not partitioned"
				}
				return nil, engineErrf("WHERE", "COUNT(*) is served from table statistics, so WHERE may only restrict partition keys (%s); %s needs a query engine (or enable 'fluss.client-filter' and count the rows of a filtered scan in Go)", keys, exprText(c.expr))
			}
		}
		if pk && strings.EqualFold(q.d.Properties[schema.OptChangelogImage], "WAL") {
			return nil, errf("COUNT(*)", "COUNT(*) on primary-key table %s needs 'table.changelog.image'='FULL' (the table uses WAL, which keeps no row counts)", q.info.Path)
		}
		pf, err := q.predicates(cs)
		if err != nil {
			return nil, err
		}
		return &Count{Table: tbl, PrimaryKey: pk, PartitionFilter: pf, Params: q.p.params, Output: q.output}, nil
	}
	if pk {
		keyIdx := indexes(q.row, sc.PrimaryKey)
		// P1: point lookup by the full primary key.
		keys, res, ok, err := q.keyLookup(cs, keyIdx)
		if err != nil {
			return nil, err
		}
		if ok {
			var lo Options
			if v, ok := q.hints["lookup.insert-if-not-exists"]; ok {
				if err := q.checkInsertIfNotExists(v); err != nil {
					return nil, err
				}
				lo = Options{"lookup.insert-if-not-exists": v}
			}
			return &Lookup{Table: tbl, KeyColumns: sc.PrimaryKey, Keys: keys, Residual: res, Projection: q.proj, Limit: q.limit, Offset: q.offset, Options: lo, Params: q.p.params, Output: q.output}, nil
		}
		// P2: prefix lookup by partition keys + bucket key.
		if isPrefixBucketKey(q.d) {
			prefix := append(slices.Clone(q.d.PartitionKeys), q.d.BucketKeys...)
			pidx := indexes(q.row, prefix)
			if err := q.relimit(); err != nil {
				return nil, err
			}
			prefixes, res, ok, err := q.keyLookup(cs, pidx)
			if err != nil {
				return nil, err
			}
			if ok {
				return &PrefixLookup{Table: tbl, PrefixColumns: prefix, Prefixes: prefixes, Residual: res, Projection: q.proj, Limit: q.limit, Offset: q.offset, Params: q.p.params, Output: q.output}, nil
			}
		}
		if err := q.relimit(); err != nil {
			return nil, err
		}
	}
	// Scans: only partition-key predicates are served (P4–P6) unless
	// client-side filtering is on (P9).
	var partConj, otherConj []conj
	for _, c := range cs {
		if len(c.refs) > 0 && onlyCols(c, q.partKeys) {
			partConj = append(partConj, c)
		} else {
			otherConj = append(otherConj, c)
		}
	}
	clientFilter := q.opts.bool("fluss.client-filter")
	if len(otherConj) > 0 && !clientFilter {
		return nil, q.scanWhereError(otherConj[0])
	}
	pf, err := q.predicates(partConj)
	if err != nil {
		return nil, err
	}
	filter, err := q.predicates(otherConj)
	if err != nil {
		return nil, err
	}
	start, explicitStart, err := q.startup(pk)
	if err != nil {
		return nil, err
	}
	// P4: LIMIT scan.
	_, stopGiven := q.opts.get("scan.stop.timestamp")
	if q.limit != nil && !explicitStart && !stopGiven && len(filter) == 0 && !q.streaming() {
		return &LimitScan{Table: tbl, PrimaryKey: pk, Limit: *q.limit, Offset: q.offset, PartitionFilter: pf, Projection: q.proj, Params: q.p.params, Output: q.output}, nil
	}
	var maxRows int64
	if len(filter) > 0 {
		maxRows = q.maxRows()
	}
	if pk {
		// P6: primary-key table scan.
		if e := q.noStreaming("a primary-key table read"); e != nil {
			return nil, errf("FROM", "streaming a primary-key table needs a snapshot reader; read %s$changelog with scan.startup.mode='earliest' instead", q.info.Path.Table)
		}
		return &KvScan{Table: tbl, PartitionFilter: pf, Filter: filter, MaxRows: q.maxRows(), Projection: q.proj, Limit: q.limit, Offset: q.offset, Params: q.p.params, Output: q.output}, nil
	}
	// P5: bounded log scan.
	stop, err := q.stop()
	if err != nil {
		return nil, err
	}
	return &LogScan{Table: tbl, Start: start, Stop: stop, PartitionFilter: pf, Filter: filter, MaxRows: maxRows, Projection: q.proj, Limit: q.limit, Offset: q.offset, Params: q.p.params, Output: q.output, Fetch: q.fetchOptions()}, nil
}

// fetchOptions resolves the FetchOptionKeys of a scan; nil when none is set.
func (q *query) fetchOptions() Options {
	var o Options
	for _, k := range FetchOptionKeys {
		if v, ok := q.opts.get(k); ok {
			if o == nil {
				o = Options{}
			}
			o[k] = v
		}
	}
	return o
}

// isPrefixBucketKey reports whether the table's explicit bucket key is a
// proper prefix of its physical primary key (what prefix lookups need).
func isPrefixBucketKey(d *schema.TableDescriptor) bool {
	phys := d.PhysicalPrimaryKey()
	bk := d.BucketKeys
	return len(bk) > 0 && len(bk) < len(phys) && slices.Equal(bk, phys[:len(bk)])
}

// relimit resets the parameter list, which a key match that did not serve
// the query has filled, and re-records the LIMIT parameters.
func (q *query) relimit() error {
	q.p.params = q.p.params[:0]
	q.limit, q.offset = nil, nil
	return q.limits()
}

// keyLookup matches the WHERE conjuncts against the key columns at idx.
// When every key column is bound, ok is set, the startup options have been
// checked, and residual holds the predicates the keys leave over.
func (q *query) keyLookup(cs []conj, idx []int) (keys [][]Value, residual []Predicate, ok bool, err error) {
	keys, used, missing, err := q.p.keyValues(cs, idx, q.row, "WHERE")
	if err != nil || len(missing) > 0 {
		return nil, nil, false, err
	}
	if _, _, err := q.startup(true); err != nil {
		return nil, nil, false, err
	}
	if residual, err = q.predicates(unused(cs, used)); err != nil {
		return nil, nil, false, err
	}
	return keys, residual, true, nil
}

func (q *query) noStreaming(what string) *Error {
	if q.streaming() {
		return errf("execution.runtime-mode", "%s is bounded; streaming mode applies to log tables and t$changelog", what)
	}
	return nil
}

func unused(cs []conj, used []bool) []conj {
	var out []conj
	for i, c := range cs {
		if !used[i] {
			out = append(out, c)
		}
	}
	return out
}

// scanWhereError explains why a predicate cannot be served.
func (q *query) scanWhereError(c conj) *Error {
	sc := &q.d.Schema
	hint := "/*+ OPTIONS('fluss.client-filter'='true') */"
	parts := strings.Join(q.d.PartitionKeys, ", ")
	if parts == "" {
		parts = "none"
	}
	if !sc.HasPrimaryKey() {
		return engineErrf("WHERE", "log table %q has no key to look up; only partition-key predicates (%s) and LIMIT are served. Enable 'fluss.client-filter' to filter a bounded scan client-side (%s), or use Flink SQL", q.info.Path.Table, parts, hint)
	}
	keyIdx := indexes(q.row, sc.PrimaryKey)
	for _, r := range c.refs {
		if slices.Contains(keyIdx, r) && !slices.Contains(q.partKeys, r) {
			return engineErrf("WHERE", "primary-key predicates must be equality (or IN) on every key column (%s); %q would need a scan", strings.Join(sc.PrimaryKey, ", "), exprText(c.expr))
		}
	}
	col := exprText(c.expr)
	for _, r := range c.refs {
		if !slices.Contains(keyIdx, r) {
			col = q.row.names[r]
			break
		}
	}
	prefix := ""
	if isPrefixBucketKey(q.d) {
		prefix = ", prefix lookups (bucket key " + strings.Join(q.d.BucketKeys, ",") + ")"
	}
	return engineErrf("WHERE", "WHERE on non-key column %q: Fluss serves point lookups (all of %s)%s and bounded scans; add LIMIT with no WHERE, or enable client-side filtering with %s", col, strings.Join(sc.PrimaryKey, ","), prefix, hint)
}

func (q *query) changelogPlan() (Plan, error) {
	cs, e := analyze(q.s.Where, q.row, "WHERE")
	if e != nil {
		return nil, e
	}
	var partConj, offConj, otherConj []conj
	for _, c := range cs {
		switch {
		case len(c.refs) > 0 && onlyCols(c, q.partKeys):
			partConj = append(partConj, c)
		case len(c.refs) > 0 && onlyCols(c, q.offsetCols):
			offConj = append(offConj, c)
		default:
			otherConj = append(otherConj, c)
		}
	}
	if len(otherConj) > 0 && !q.opts.bool("fluss.client-filter") {
		return nil, errf("WHERE", "%s$%s reads filter only on partition keys, %s and %s; %q needs 'fluss.client-filter'='true' (or Flink SQL)", q.info.Path.Table, q.ref.Name.VirtualSuffix, ColLogOffset, ColCommitTimestamp, exprText(otherConj[0].expr))
	}
	pf, err := q.predicates(partConj)
	if err != nil {
		return nil, err
	}
	of, err := q.predicates(offConj)
	if err != nil {
		return nil, err
	}
	filter, err := q.predicates(otherConj)
	if err != nil {
		return nil, err
	}
	start, _, err := q.startup(false)
	if err != nil {
		return nil, err
	}
	stop, err := q.stop()
	if err != nil {
		return nil, err
	}
	var maxRows int64
	if len(filter) > 0 {
		maxRows = q.maxRows()
	}
	return &ChangelogScan{Table: tableOf(q.info), Binlog: q.binlog, PrimaryKey: q.d.HasPrimaryKey(), Start: start, Stop: stop,
		PartitionFilter: pf, OffsetFilter: of, Filter: filter, MaxRows: maxRows, Projection: q.proj, Limit: q.limit, Offset: q.offset,
		Params: q.p.params, Output: q.output, Fetch: q.fetchOptions()}, nil
}

// ---------------------------------------------------------------------------
// SELECT without FROM

func (p *planCtx) constantSelect(s *parser.Select) (Plan, error) {
	if s.Where != nil {
		return nil, errf("WHERE", "SELECT without FROM cannot have WHERE")
	}
	c := &Constant{}
	for _, se := range s.Exprs {
		ae, ok := se.(*parser.AliasedExpr)
		if !ok {
			return nil, errf("SELECT", "SELECT * needs FROM")
		}
		v, err := p.constItem(ae.Expr)
		if err != nil {
			return nil, err
		}
		name := ae.Alias
		if name == "" {
			name = exprText(ae.Expr)
		}
		c.Row = append(c.Row, v)
		c.Output = append(c.Output, Column{name, v.Type})
	}
	c.Params = p.params
	return c, nil
}

func (p *planCtx) constItem(e parser.Expr) (Value, error) {
	sess := func(name string) Value {
		return Value{Kind: ValueSession, Session: name, Type: schema.String().NotNull()}
	}
	switch x := e.(type) {
	case *parser.Literal:
		t := literalType(x)
		if x.Kind == parser.LitNull {
			t = schema.String()
		}
		v, err := literal(x, t, p.sess.location())
		if err != nil {
			return Value{}, errf("SELECT", "%v", err)
		}
		return Value{Kind: ValueLiteral, Type: t, Literal: v}, nil
	case *parser.UnaryExpr:
		if l, ok := x.X.(*parser.Literal); ok && x.Op == "-" {
			t := literalType(l)
			v, err := literal(x, t, p.sess.location())
			if err != nil {
				return Value{}, errf("SELECT", "%v", err)
			}
			return Value{Kind: ValueLiteral, Type: t, Literal: v}, nil
		}
	case *parser.CastExpr:
		if x.Type == nil {
			break
		}
		t, _, err := fromParserType(x.Type, true)
		if err != nil {
			return Value{}, errf("SELECT", "%v", err)
		}
		v, err := p.value(x, "", t)
		if err != nil {
			return Value{}, errf("SELECT", "%v", err)
		}
		return v, nil
	case *parser.Param:
		return Value{}, errf("SELECT", "SELECT ? has no type to convert the argument to; write CAST(? AS <type>)")
	case *parser.FuncCall:
		if err := engineFunc(x, "SELECT"); err != nil {
			return Value{}, err
		}
		if len(x.Args) > 0 {
			break
		}
		if name, gives, ok := clockFunc(x); ok {
			return Value{Kind: ValueSession, Session: name, Type: gives}, nil
		}
		switch strings.ToLower(x.Name) {
		case "database", "schema", "current_database":
			return sess("database"), nil
		case "version":
			return sess("version"), nil
		case "current_catalog":
			return Value{Kind: ValueLiteral, Type: schema.String().NotNull(), Literal: p.sess.catalog()}, nil
		case "user", "current_user", "session_user":
			return sess("user"), nil
		}
	case *parser.ColumnRef:
		switch strings.ToLower(x.Name) {
		case "current_catalog":
			return Value{Kind: ValueLiteral, Type: schema.String().NotNull(), Literal: p.sess.catalog()}, nil
		case "current_database":
			return sess("database"), nil
		case "current_user":
			return sess("user"), nil
		}
		return Value{}, errf("SELECT", "column %s needs FROM", exprText(e))
	case *parser.Variable:
		n := strings.ToLower(strings.TrimPrefix(strings.TrimPrefix(x.Name, "@@"), "session."))
		switch n {
		case "version", "version_comment":
			return sess("version"), nil
		}
		return Value{}, errf("SELECT", "variable %s is not known; the driver answers @@version and @@version_comment", x.Name)
	}
	return Value{}, engineErrf("SELECT", "%s needs a query engine; SELECT without FROM supports constants, CAST(? AS T), VERSION(), DATABASE(), CURRENT_CATALOG, USER() and the clock (NOW(), CURRENT_DATE, ...)", exprText(e))
}

// checkInsertIfNotExists validates the lookup.insert-if-not-exists hint
// against the table: the server fills only the auto-increment column of a
// new row, and a 0.9.1 server decodes the key of a partitioned table with
// the partition columns it was sent without, inserting garbage or failing.
func (q *query) checkInsertIfNotExists(v string) *Error {
	switch {
	case !strings.EqualFold(v, "true") && !strings.EqualFold(v, "false"):
		return errf("OPTIONS", "'lookup.insert-if-not-exists' must be 'true' or 'false', got '%s'", v)
	case !strings.EqualFold(v, "true"):
		return nil
	case len(q.d.Schema.AutoIncrementColumns) == 0:
		return errf("OPTIONS", "'lookup.insert-if-not-exists' needs a table with an auto-increment column; %s has none", q.info.Path)
	case len(q.d.PartitionKeys) > 0:
		return errf("OPTIONS", "'lookup.insert-if-not-exists' does not work on partitioned tables such as %s (Fluss 0.9 servers decode their keys wrongly)", q.info.Path)
	}
	return nil
}
