package planner

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/parser"
)

// Analytic is a query that Fluss cannot serve itself (aggregates, GROUP
// BY, joins, filters on any column, window functions, subqueries, CTEs,
// expressions in the select list), planned for an embedded query engine
// when the session has one (Session.Engine). Fluss serves what it can of
// it: each table the query reads is a Source whose Read is a native plan
// (a lookup, a LIMIT scan, a bounded log or KV scan with projection and
// partition pruning), and the engine runs Query over the Sources' rows.
//
// Query is a copy of the statement in which every Fluss table reference
// names its Source's View (with the original name or alias kept as its
// alias), without hints or FOR SYSTEM_TIME. Pushed-down predicates stay
// in Query as well: a Source may hold more rows than the query keeps,
// never fewer.
type Analytic struct {
	Query   parser.SelectStatement
	Sources []Source
	// NumParams is the number of statement arguments Query binds.
	NumParams int
	// Output is filled in by the engine, which alone knows the result
	// types (planning is pure); it is nil as the planner returns it.
	Output []Column
}

// Source is one table reference of an Analytic query.
type Source struct {
	// View is the name the engine knows the rows by.
	View string
	// Table is the Fluss table (t$changelog reads its changelog).
	Table Table
	// Ref is the reference as written, e.g. "sales AS s".
	Ref string
	// Read is the native read that produces the rows: *Lookup,
	// *PrefixLookup, *LimitScan, *LogScan, *KvScan or *ChangelogScan.
	// For a lookup join it is a *Lookup without Keys: they come from
	// the probe's rows.
	Read QueryPlan
	// LookupJoin is set when the rows are looked up by the keys another
	// Source produced instead of read by a scan.
	LookupJoin *LookupJoin
}

// LookupJoin describes a join whose condition binds every primary-key
// column of one side (the looked-up Source) to a column of the other
// (the probe): the probe is read first and its distinct key values are
// looked up in batches, Fluss's lookup join.
type LookupJoin struct {
	// Probe is the index in Analytic.Sources of the Source whose rows
	// give the keys.
	Probe int
	// ProbeColumns are the probe's columns bound to the key columns, in
	// the order of the looked-up table's primary key.
	ProbeColumns []string
	// Condition is the join condition as written, for EXPLAIN.
	Condition string
	// Keys is the engine query that gives the keys: the distinct
	// ProbeColumns of the probe's rows that pass the probe's own WHERE
	// conjuncts (those without parameters).
	Keys parser.SelectStatement
	// Scan reads the whole looked-up table instead of the lookups when
	// the probe brings more distinct keys than 1/LookupJoinScanRatio of
	// the table's rows: a scan reads a row faster than a lookup finds
	// one, so beyond that share of the table the scan wins. Nil when the
	// table keeps no row counts (the WAL changelog image) to decide by.
	Scan *KvScan
}

// LookupJoinScanRatio is where a lookup join turns to a scan: with more
// distinct probe keys than the looked-up table's rows divided by it.
// bench-peers measured a looked-up key at some ten times the cost of a
// scanned row (100k keys of a 100k-row table: 0.65 s looked up, 0.25 s
// for the join over a scan); 8 leans towards the lookups, whose cost
// does not grow with the table.
const LookupJoinScanRatio = 8

// OutputColumns returns the result columns (nil until the engine has
// described the query).
func (p *Analytic) OutputColumns() []Column { return p.Output }

func (*Analytic) planNode() {}

// String renders the native part of the plan; the engine's EXPLAIN adds
// the query it runs.
func (p *Analytic) String() string {
	var b strings.Builder
	b.WriteString("Analytic")
	if p.NumParams > 0 {
		fmt.Fprintf(&b, "\n  NumParams: %d", p.NumParams)
	}
	b.WriteString("\n  Sources:")
	for _, s := range p.Sources {
		fmt.Fprintf(&b, "\n    - %s: %s", s.View, s.Ref)
		if lj := s.LookupJoin; lj != nil {
			fmt.Fprintf(&b, "\n      LookupJoin: keys from %s (%s) ON %s", p.Sources[lj.Probe].View, strings.Join(lj.ProbeColumns, ", "), lj.Condition)
			if k, ok := lj.Keys.(*parser.Select); ok && k.Where != nil {
				b.WriteString(" WHERE " + exprText(k.Where))
			}
			if lj.Scan != nil {
				fmt.Fprintf(&b, "\n      (a scan of the table instead when the keys outnumber 1/%d of its rows)", LookupJoinScanRatio)
			}
		}
		pad := "\n        "
		b.WriteString("\n      Read:" + pad + strings.ReplaceAll(s.Read.String(), "\n", pad))
	}
	return b.String()
}

// ViewPrefix starts the names of the engine's views of Fluss tables.
const ViewPrefix = "fluss_src_"

// engineReadMaxRows caps a primary-key table read that feeds the engine
// where only LIMIT_SCAN serves it (Fluss 0.9): the engine streams, so no
// driver cap applies, only the server's.
const engineReadMaxRows = math.MaxInt32 - 1

// needsEngine reports whether err is a planning error that an embedded
// query engine would lift.
func needsEngine(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.engine
}

// analyticSource is a Source being planned.
type analyticSource struct {
	ref  *parser.TableRef
	info *schema.TableInfo
	row  *rowType
	// pushed are the WHERE conjuncts that only read this source.
	pushed []parser.Expr
	limit  *parser.Limit
	star   bool
	cols   map[string]bool
}

// analytic plans stmt for the engine.
func (p *planCtx) analytic(stmt parser.SelectStatement) (Plan, error) {
	q := parser.CloneSelect(stmt)
	nameExprs(q)
	ctes := cteRefs(q)
	var srcs []*analyticSource
	byRef := map[*parser.TableRef]int{}
	var walkErr error
	parser.Walk(q, func(n any) bool {
		ref, ok := n.(*parser.TableRef)
		if !ok || walkErr != nil {
			return walkErr == nil
		}
		if ctes[ref] {
			return true
		}
		s, err := p.analyticTable(ref)
		if err != nil {
			walkErr = err
			return false
		}
		byRef[ref] = len(srcs)
		srcs = append(srcs, s)
		return true
	})
	if walkErr != nil {
		return nil, walkErr
	}
	usedColumns(q, srcs, byRef)
	pushWhere(q, srcs, byRef)
	pushLimit(q, srcs)
	joins := lookupJoins(q, srcs, byRef)

	plan := &Analytic{Query: q, NumParams: maxParam(q)}
	for i, s := range srcs {
		src, err := p.analyticRead(i, s, joins[i])
		if err != nil {
			return nil, err
		}
		plan.Sources = append(plan.Sources, src)
	}
	for i, s := range srcs {
		// The engine sees the view under the name the query used.
		if s.ref.Alias == "" {
			s.ref.Alias = s.ref.Name.Name
		}
		s.ref.Name = parser.TableName{Name: plan.Sources[i].View}
		s.ref.Hints, s.ref.ForSystemTime, s.ref.IndexHints = nil, nil, ""
	}
	for _, src := range plan.Sources {
		if lj := src.LookupJoin; lj != nil {
			lj.Keys = keyQuery(srcs[lj.Probe], lj.ProbeColumns)
		}
	}
	return plan, nil
}

// keyQuery selects the distinct key values of a probe (after its table
// reference was renamed to its view).
func keyQuery(probe *analyticSource, cols []string) parser.SelectStatement {
	sel := &parser.Select{Distinct: true, From: []parser.TableExpr{&parser.TableRef{Name: probe.ref.Name, Alias: probe.ref.Alias}}}
	for _, c := range cols {
		sel.Exprs = append(sel.Exprs, &parser.AliasedExpr{Expr: &parser.ColumnRef{Qualifier: []string{probe.ref.Alias}, Name: c}})
	}
	for _, c := range probe.pushed {
		if maxParam(c) > 0 {
			continue
		}
		if c = parser.CloneExpr(c); sel.Where == nil {
			sel.Where = c
		} else {
			sel.Where = &parser.AndExpr{L: sel.Where, R: c}
		}
	}
	return sel
}

// analyticTable resolves one table reference of an engine query.
func (p *planCtx) analyticTable(ref *parser.TableRef) (*analyticSource, error) {
	switch ref.Name.Virtual {
	case parser.VirtualLake:
		return nil, errf("FROM", "lake-only reads (%s) need the lake engine (Paimon/Iceberg)", ref.Name)
	case parser.VirtualUnknown:
		return nil, errf("FROM", "unknown virtual table %s; the virtual tables are t$changelog and t$binlog", ref.Name)
	case parser.VirtualBinlog:
		return nil, errf("FROM", "%s: the engine reads t$changelog, not t$binlog (whose before/after rows it cannot take)", ref.Name)
	}
	info, err := p.table(ref.Name, "FROM")
	if err != nil {
		return nil, err
	}
	row := schemaRow(&info.Descriptor.Schema, aliasesOf(ref)...)
	if ref.Name.Virtual == parser.VirtualChangelog {
		meta := &rowType{aliases: row.aliases}
		for _, c := range changelogMeta {
			meta.names, meta.types = append(meta.names, c.Name), append(meta.types, c.Type)
		}
		meta.names, meta.types = append(meta.names, row.names...), append(meta.types, row.types...)
		row = meta
	}
	return &analyticSource{ref: ref, info: info, row: row, cols: map[string]bool{}}, nil
}

// nameExprs names the unaliased select-list expressions of q's result as
// Flink does, EXPR$ and their position, rather than as the engine would
// (count_star() and the like); a plain column keeps its name.
func nameExprs(q parser.SelectStatement) {
	for {
		u, ok := q.(*parser.Union)
		if !ok {
			break
		}
		q = u.Left
	}
	s, ok := q.(*parser.Select)
	if !ok {
		return
	}
	for i, e := range s.Exprs {
		if a, ok := e.(*parser.AliasedExpr); ok && a.Alias == "" {
			if _, col := a.Expr.(*parser.ColumnRef); !col {
				a.Alias = exprName(i)
			}
		}
	}
}

// exprName is Flink's name of the unaliased expression at position i of a
// select list.
func exprName(i int) string { return fmt.Sprintf("EXPR$%d", i) }

// cteRefs returns the table references of q that read a WITH query, not a
// table: those with the name (and no database) of a WITH query in scope.
// The queries of a WITH are in scope in the query of their WITH (its
// subqueries included) and in the WITH queries after them; a nearer WITH
// query hides a farther one, and both hide a table of the same name.
func cteRefs(q parser.SelectStatement) map[*parser.TableRef]bool {
	refs := map[*parser.TableRef]bool{}
	var scan func(root parser.SelectStatement, scope map[string]bool)
	scan = func(root parser.SelectStatement, scope map[string]bool) {
		var with []parser.CTE
		switch s := root.(type) {
		case *parser.Select:
			with = s.With
		case *parser.Union:
			with = s.With
		}
		if len(with) > 0 {
			inner := make(map[string]bool, len(scope)+len(with))
			for n := range scope {
				inner[n] = true
			}
			for _, c := range with {
				scan(c.Select, inner)
				inner[strings.ToLower(c.Name)] = true
			}
			scope = inner
		}
		parser.Walk(root, func(n any) bool {
			switch x := n.(type) {
			case *parser.CTE:
				return false // scanned above, with the scope of its place
			case parser.SelectStatement:
				if x != root {
					scan(x, scope)
					return false
				}
			case *parser.TableRef:
				if x.Name.Database == "" && x.Name.Virtual == parser.NotVirtual && scope[strings.ToLower(x.Name.Name)] {
					refs[x] = true
				}
			}
			return true
		})
	}
	scan(q, nil)
	return refs
}

// usedColumns marks, for every source, the columns whose names the query
// mentions anywhere (a superset of what it reads: a name of another
// table's column costs one column more, never a wrong result), and
// whether a * reaches the source: one in the select list of a SELECT
// whose FROM holds the source itself (a * over a subquery or a WITH query
// reads what their own select lists name).
func usedColumns(q parser.SelectStatement, srcs []*analyticSource, byRef map[*parser.TableRef]int) {
	parser.Walk(q, func(n any) bool {
		switch x := n.(type) {
		case *parser.ColumnRef:
			name := strings.ToLower(x.Name)
			if len(x.Qualifier) > 0 {
				// `after`.id style nested references name the column first.
				name = strings.ToLower(x.Qualifier[len(x.Qualifier)-1])
			}
			for _, s := range srcs {
				s.cols[strings.ToLower(x.Name)] = true
				s.cols[name] = true
			}
		case *parser.Select:
			refs, _ := fromRefs(x.From)
			for _, e := range x.Exprs {
				star, ok := e.(*parser.StarExpr)
				if !ok {
					continue
				}
				for _, r := range refs {
					if i, ok := byRef[r]; ok && (star.Qualifier == "" || srcs[i].row.isAlias(star.Qualifier)) {
						srcs[i].star = true
					}
				}
			}
		case *parser.JoinExpr:
			for _, u := range x.Using {
				for _, s := range srcs {
					s.cols[strings.ToLower(u)] = true
				}
			}
		}
		return true
	})
}

// columns returns the source's columns the query may read, in table order.
func (s *analyticSource) columns() []string {
	var out []string
	for _, n := range s.row.names {
		if s.star || s.cols[strings.ToLower(n)] {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		// COUNT(*) alone: one column still carries the row count.
		out = []string{s.row.names[len(s.row.names)-len(s.info.Descriptor.Schema.Columns)]}
	}
	return out
}

// fromRefs returns the table references directly in a FROM list (through
// joins and parentheses, not into subqueries); ok is false when the list
// holds anything else, whose columns the planner cannot tell.
func fromRefs(from []parser.TableExpr) (refs []*parser.TableRef, ok bool) {
	ok = true
	var visit func(t parser.TableExpr)
	visit = func(t parser.TableExpr) {
		switch x := t.(type) {
		case *parser.TableRef:
			refs = append(refs, x)
		case *parser.JoinExpr:
			visit(x.Left)
			visit(x.Right)
		case *parser.ParenTable:
			for _, e := range x.Exprs {
				visit(e)
			}
		default:
			ok = false
		}
	}
	for _, t := range from {
		visit(t)
	}
	return refs, ok
}

// owner returns the index of the one source among local that every
// column of e belongs to, or -1.
func owner(e parser.Expr, local []int, srcs []*analyticSource) int {
	found := -1
	ok := true
	parser.Walk(e, func(n any) bool {
		switch x := n.(type) {
		case *parser.SubqueryExpr, *parser.ExistsExpr:
			ok = false
		case *parser.ColumnRef:
			o := -1
			for _, i := range local {
				r := srcs[i].row
				if len(x.Qualifier) > 0 {
					if len(x.Qualifier) == 1 && r.isAlias(x.Qualifier[0]) && r.index(x.Name) >= 0 {
						o = i
					}
					continue
				}
				if r.index(x.Name) >= 0 {
					if o >= 0 {
						ok = false // ambiguous: the engine will say so
					}
					o = i
				}
			}
			if o < 0 || found >= 0 && found != o {
				ok = false
			}
			found = o
		}
		return ok
	})
	if !ok {
		return -1
	}
	return found
}

// pushable reports whether a conjunct is one the native read may apply:
// a comparison, IN list or BETWEEN, which no row with NULL in its column
// passes, so that applying it before a join (even on the outer side of
// one) keeps the result the same.
func pushable(e parser.Expr) bool {
	switch x := e.(type) {
	case *parser.CompareExpr:
		return x.Op != "<=>"
	case *parser.InExpr:
		return !x.Not
	case *parser.BetweenExpr:
		return !x.Not
	}
	return false
}

// pushWhere gives each source the WHERE conjuncts of the SELECT that
// reads it which only read it.
func pushWhere(q parser.SelectStatement, srcs []*analyticSource, byRef map[*parser.TableRef]int) {
	parser.Walk(q, func(n any) bool {
		s, ok := n.(*parser.Select)
		if !ok || s.Where == nil {
			return true
		}
		refs, ok := fromRefs(s.From)
		if !ok {
			return true
		}
		var local []int
		for _, r := range refs {
			i, ok := byRef[r]
			if !ok {
				return true // a CTE: its columns are unknown here
			}
			local = append(local, i)
		}
		for _, c := range splitAnd(s.Where, nil) {
			if !pushable(c) {
				continue
			}
			if o := owner(c, local, srcs); o >= 0 {
				srcs[o].pushed = append(srcs[o].pushed, c)
			}
		}
		return true
	})
}

// pushLimit passes LIMIT to the read when the query is a plain projection
// of one table: no WHERE, grouping, DISTINCT, ordering, aggregate or
// window function stands between the rows and the limit.
func pushLimit(q parser.SelectStatement, srcs []*analyticSource) {
	s, ok := q.(*parser.Select)
	if !ok || len(srcs) != 1 || s.Limit == nil || s.Limit.Offset != nil || s.Where != nil || s.Distinct ||
		len(s.GroupBy) > 0 || s.Having != nil || len(s.OrderBy) > 0 || len(s.From) != 1 {
		return
	}
	if ref, ok := s.From[0].(*parser.TableRef); !ok || ref != srcs[0].ref {
		return
	}
	for _, e := range s.Exprs {
		if a, ok := e.(*parser.AliasedExpr); ok && aggregates(a.Expr) {
			return
		}
	}
	srcs[0].limit = &parser.Limit{Count: s.Limit.Count}
}

// aggregates reports whether e calls an aggregate or window function
// (whose result depends on other rows, so that LIMIT may not cut the
// rows below it).
func aggregates(e parser.Expr) bool {
	found := false
	parser.Walk(e, func(n any) bool {
		if f, ok := n.(*parser.FuncCall); ok && (isAggregate(f.Name) || f.Over != nil) {
			found = true
		}
		return !found
	})
	return found
}

// lookupJoins finds the joins whose ON condition binds every primary-key
// column of a table on the inner side to columns of one probe table.
func lookupJoins(q parser.SelectStatement, srcs []*analyticSource, byRef map[*parser.TableRef]int) map[int]*LookupJoin {
	out := map[int]*LookupJoin{}
	parser.Walk(q, func(n any) bool {
		j, ok := n.(*parser.JoinExpr)
		if !ok || j.On == nil {
			return true
		}
		kind := strings.ToUpper(j.Kind)
		sides := []parser.TableExpr{}
		switch {
		case kind == "JOIN" || kind == "INNER JOIN" || kind == "CROSS JOIN":
			sides = append(sides, j.Right, j.Left)
		case strings.HasPrefix(kind, "LEFT"):
			sides = append(sides, j.Right)
		case strings.HasPrefix(kind, "RIGHT"):
			sides = append(sides, j.Left)
		}
		for _, side := range sides {
			ref, ok := side.(*parser.TableRef)
			if !ok {
				continue
			}
			i, ok := byRef[ref]
			if !ok || out[i] != nil {
				continue
			}
			if lj := keyJoin(j.On, i, srcs, out); lj != nil {
				out[i] = lj
				break
			}
		}
		return true
	})
	return out
}

// keyJoin matches an ON condition against the primary key of source i.
func keyJoin(on parser.Expr, i int, srcs []*analyticSource, taken map[int]*LookupJoin) *LookupJoin {
	s := srcs[i]
	pk := s.info.Descriptor.Schema.PrimaryKey
	if len(pk) == 0 || s.ref.Name.Virtual != parser.NotVirtual || len(s.pushed) > 0 && s.keyed() {
		return nil
	}
	all := make([]int, len(srcs))
	for k := range all {
		all[k] = k
	}
	bound := make([]string, len(pk))
	probe := -1
	for _, c := range splitAnd(on, nil) {
		eq, ok := c.(*parser.CompareExpr)
		if !ok || eq.Op != "=" {
			continue
		}
		for _, pair := range [][2]parser.Expr{{eq.L, eq.R}, {eq.R, eq.L}} {
			key, ok1 := pair[0].(*parser.ColumnRef)
			other, ok2 := pair[1].(*parser.ColumnRef)
			if !ok1 || !ok2 || owner(key, []int{i}, srcs) != i {
				continue
			}
			o := owner(other, all, srcs)
			if o < 0 || o == i || taken[o] != nil || probe >= 0 && o != probe {
				continue
			}
			k := slices.IndexFunc(pk, func(n string) bool { return strings.EqualFold(n, key.Name) })
			oi := srcs[o].row.index(other.Name)
			if k < 0 || bound[k] != "" || !sameKeyType(srcs[o].row.types[oi], s.row.types[s.row.index(key.Name)]) {
				continue
			}
			probe, bound[k] = o, srcs[o].row.names[oi]
		}
	}
	if probe < 0 || slices.Contains(bound, "") {
		return nil
	}
	return &LookupJoin{Probe: probe, ProbeColumns: bound, Condition: exprText(on)}
}

// sameKeyType reports whether the values of a probe column of type a can
// be looked up as key values of type b: the same type, or both integers
// (which the engine converts between, failing on an overflow).
func sameKeyType(a, b schema.DataType) bool {
	ints := []schema.TypeRoot{schema.RootTinyInt, schema.RootSmallInt, schema.RootInt, schema.RootBigInt}
	if slices.Contains(ints, a.Root) && slices.Contains(ints, b.Root) {
		return true
	}
	return a.WithNullable(true).Equal(b.WithNullable(true))
}

// keyed reports whether the pushed conjuncts may bind the whole primary
// key (then a lookup by them beats a lookup join).
func (s *analyticSource) keyed() bool {
	for _, k := range s.info.Descriptor.Schema.PrimaryKey {
		found := false
		for _, c := range s.pushed {
			if cmp, ok := c.(*parser.CompareExpr); ok && cmp.Op == "=" {
				for _, e := range []parser.Expr{cmp.L, cmp.R} {
					if col, ok := e.(*parser.ColumnRef); ok && strings.EqualFold(col.Name, k) {
						found = true
					}
				}
			}
			if in, ok := c.(*parser.InExpr); ok {
				if col, ok := in.X.(*parser.ColumnRef); ok && strings.EqualFold(col.Name, k) {
					found = true
				}
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// maxParam returns the highest parameter index in q.
func maxParam(q any) int {
	n := 0
	parser.Walk(q, func(x any) bool {
		if pr, ok := x.(*parser.Param); ok && pr.Index > n {
			n = pr.Index
		}
		return true
	})
	return n
}

// analyticRead plans the native read of source i: the pushed conjuncts
// that Fluss serves (a full primary key as lookups, partition keys as
// pruning), falling back to fewer of them, and the columns the query uses.
func (p *planCtx) analyticRead(i int, s *analyticSource, lj *LookupJoin) (Source, error) {
	src := Source{View: fmt.Sprintf("%s%d", ViewPrefix, i+1), Table: tableOf(s.info), Ref: tableRefText(s.ref), LookupJoin: lj}
	cols := s.columns()
	if lj != nil {
		// The probe's keys are bound at execution: plan the projection
		// as a scan and look up instead.
		scan, err := p.subRead(s, cols, nil, nil)
		if err != nil {
			return Source{}, err
		}
		kv, ok := scan.(*KvScan)
		if !ok {
			return Source{}, errf("JOIN", "lookup join on %s: expected a primary-key table read, planned %T", src.Ref, scan)
		}
		src.Read = &Lookup{Table: kv.Table, KeyColumns: s.info.Descriptor.Schema.PrimaryKey, Projection: kv.Projection, Output: kv.Output}
		if !strings.EqualFold(s.info.Descriptor.Properties[schema.OptChangelogImage], "WAL") {
			lj.Scan = kv
		}
		return src, nil
	}
	var keyConj, partConj []parser.Expr
	d := &s.info.Descriptor
	for _, c := range s.pushed {
		refs := columnNames(c)
		if subset(refs, d.PartitionKeys) {
			partConj = append(partConj, c)
		}
		if subset(refs, append(slices.Clone(d.Schema.PrimaryKey), d.PartitionKeys...)) {
			keyConj = append(keyConj, c)
		}
	}
	var attempts [][]parser.Expr
	if d.Schema.HasPrimaryKey() && len(keyConj) > len(partConj) {
		attempts = append(attempts, keyConj)
	}
	attempts = append(attempts, partConj, nil)
	var firstErr error
	for _, conj := range attempts {
		read, err := p.subRead(s, cols, conj, s.limit)
		if err == nil {
			switch read.(type) {
			case *Lookup, *PrefixLookup:
			default:
				if len(conj) == len(keyConj) && len(keyConj) > len(partConj) {
					continue // the key conjuncts did not make a lookup
				}
			}
			if bounded(read) {
				src.Read = read
				return src, nil
			}
			return Source{}, errf("FROM", "%s is read as a stream (unbounded), which a query engine cannot aggregate or join; bound it (drop 'execution.runtime-mode'='streaming' or 'fluss.scan.bounded'='false') or read it without the engine", src.Ref)
		}
		if firstErr == nil {
			firstErr = err
		}
		if !needsEngine(err) && len(conj) == 0 {
			return Source{}, err
		}
	}
	return Source{}, firstErr
}

// subRead plans SELECT cols FROM ref WHERE conj [LIMIT] as the native
// planner would, with the engine's read settings: no client-side filter
// and no row cap (the engine filters and streams).
func (p *planCtx) subRead(s *analyticSource, cols []string, conj []parser.Expr, limit *parser.Limit) (QueryPlan, error) {
	sel := &parser.Select{From: []parser.TableExpr{&parser.TableRef{Name: s.ref.Name, Alias: s.ref.Alias, Hints: s.ref.Hints}}, Limit: limit}
	for _, c := range cols {
		sel.Exprs = append(sel.Exprs, &parser.AliasedExpr{Expr: &parser.ColumnRef{Name: c}})
	}
	for _, c := range conj {
		if sel.Where == nil {
			sel.Where = c
		} else {
			sel.Where = &parser.AndExpr{L: sel.Where, R: c}
		}
	}
	sess := *p.sess
	sess.Options = map[string]string{}
	for k, v := range p.sess.Options {
		sess.Options[k] = v
	}
	sess.Options["fluss.client-filter"] = "false"
	sess.Engine = false
	sub := &planCtx{ctx: p.ctx, cat: p.cat, sess: &sess}
	pl, err := sub.selectStmt(sel)
	if err != nil {
		return nil, err
	}
	switch r := pl.(type) {
	case *KvScan:
		r.MaxRows = engineReadMaxRows
	case *LogScan:
		r.MaxRows = 0
	case *ChangelogScan:
		r.MaxRows = 0
	case *Constant:
		// WHERE FALSE: no rows to read, but the columns still count.
		return nil, errf("WHERE", "a constant WHERE is left to the engine")
	}
	qp, ok := pl.(QueryPlan)
	if !ok {
		return nil, errf("FROM", "%s is not a table read", tableRefText(s.ref))
	}
	return qp, nil
}

// bounded reports whether a read ends on its own.
func bounded(p QueryPlan) bool {
	switch r := p.(type) {
	case *LogScan:
		return r.Stop.Kind != OffsetNone
	case *ChangelogScan:
		return r.Stop.Kind != OffsetNone
	}
	return true
}

// columnNames returns the lower-cased names of the columns e reads.
func columnNames(e parser.Expr) []string {
	var out []string
	parser.Walk(e, func(n any) bool {
		if c, ok := n.(*parser.ColumnRef); ok {
			out = append(out, strings.ToLower(c.Name))
		}
		return true
	})
	return out
}

// subset reports whether every name is one of set (case-insensitive);
// no names is not a subset (a constant conjunct stays with the engine).
func subset(names, set []string) bool {
	if len(names) == 0 {
		return false
	}
	for _, n := range names {
		if !slices.ContainsFunc(set, func(s string) bool { return strings.EqualFold(s, n) }) {
			return false
		}
	}
	return true
}

// tableRefText renders a table reference as written, e.g. "sales AS s".
func tableRefText(r *parser.TableRef) string {
	s := r.Name.String()
	if r.Alias != "" {
		s += " AS " + r.Alias
	}
	return s
}
