package planner

import (
	"strings"

	"github.com/gofluss/fluss/parser"
)

// InfoSchemaViews lists the information_schema views and their columns
// (MySQL-like names, for BI tools and ORM introspection).
var InfoSchemaViews = map[string][]Column{
	"schemata": cols("CATALOG_NAME", tString, "SCHEMA_NAME", tString, "SCHEMA_COMMENT", tStringN),
	"tables": cols("TABLE_CATALOG", tString, "TABLE_SCHEMA", tString, "TABLE_NAME", tString, "TABLE_TYPE", tString,
		"TABLE_COMMENT", tStringN),
	"columns": cols("TABLE_CATALOG", tString, "TABLE_SCHEMA", tString, "TABLE_NAME", tString, "COLUMN_NAME", tString,
		"ORDINAL_POSITION", tBigInt, "DATA_TYPE", tString, "COLUMN_TYPE", tString, "IS_NULLABLE", tString,
		"COLUMN_KEY", tStringN, "EXTRA", tStringN, "COLUMN_COMMENT", tStringN),
	"partitions": cols("TABLE_CATALOG", tString, "TABLE_SCHEMA", tString, "TABLE_NAME", tString,
		"PARTITION_NAME", tString, "PARTITION_ID", tBigInt),
}

// SortKey is one ORDER BY item: Column is an index into the sorted rows
// (an information_schema view's columns, or a Sort's input row) and Name
// that column's name.
type SortKey struct {
	Column int
	Name   string
	Desc   bool
}

// InfoSchema reads one information_schema view. The executor materializes
// the view's rows (columns in InfoSchemaViews order) from admin metadata
// (listDatabases, listTables, getTableInfo, listPartitionInfos), then
// applies Filter, OrderBy, Offset/Limit and Projection client-side; the
// views are small, so the executor filters and sorts all of a view's
// rows itself.
type InfoSchema struct {
	View       string
	Filter     []Predicate
	OrderBy    []SortKey
	Projection Projection
	Limit      *Value
	Offset     *Value
	Params     []Param
	Output     []Column
}

func (*InfoSchema) planNode() {}

// String renders the plan.
func (p *InfoSchema) String() string { return format(p) }

// OutputColumns returns the result columns.
func (p *InfoSchema) OutputColumns() []Column { return p.Output }

func isInfoSchema(s *parser.Select) (*parser.TableRef, bool) {
	ref, ok := s.SingleTable()
	if !ok || !strings.EqualFold(ref.Name.Database, "information_schema") {
		return nil, false
	}
	return ref, true
}

func (p *planCtx) infoSchema(s *parser.Select, ref *parser.TableRef) (Plan, error) {
	if err := engineClauses(s); err != nil {
		return nil, err
	}
	if err := p.checkCatalog(ref.Name.Catalog, "FROM"); err != nil {
		return nil, err
	}
	view := strings.ToLower(ref.Name.Name)
	vcols, ok := InfoSchemaViews[view]
	if !ok || ref.Name.Virtual != parser.NotVirtual {
		return nil, errf("FROM", "information_schema.%s is not available; the views are schemata, tables, columns and partitions", ref.Name.Name)
	}
	r := &rowType{aliases: []string{ref.Name.Name, ref.Alias}}
	for _, c := range vcols {
		r.names, r.types = append(r.names, c.Name), append(r.types, c.Type)
	}
	out := &InfoSchema{View: view}
	for _, se := range s.Exprs {
		switch x := se.(type) {
		case *parser.StarExpr:
			for i, c := range vcols {
				out.Projection.Indexes = append(out.Projection.Indexes, i)
				out.Output = append(out.Output, c)
			}
		case *parser.AliasedExpr:
			c, ok := x.Expr.(*parser.ColumnRef)
			if !ok {
				return nil, errf("SELECT", "%s in the select list needs a query engine; select plain columns of information_schema.%s", exprText(x.Expr), view)
			}
			i, e := r.resolve(c, "SELECT")
			if e != nil {
				return nil, e
			}
			name := r.names[i]
			if x.Alias != "" {
				name = x.Alias
			}
			out.Projection.Indexes = append(out.Projection.Indexes, i)
			out.Output = append(out.Output, Column{name, r.types[i]})
		}
	}
	for _, e := range splitAnd(s.Where, nil) {
		if _, err := columnRefs(e, r, "WHERE"); err != nil {
			return nil, err
		}
		pr, err := p.predicate(e, r, "WHERE")
		if err != nil {
			return nil, err
		}
		out.Filter = append(out.Filter, pr)
	}
	for _, o := range s.OrderBy {
		c, ok := o.Expr.(*parser.ColumnRef)
		if !ok {
			return nil, errf("ORDER BY", "ORDER BY %s: information_schema queries sort by plain columns only", exprText(o.Expr))
		}
		i, e := r.resolve(c, "ORDER BY")
		if e != nil {
			return nil, e
		}
		if e := nativeNulls(o); e != nil {
			return nil, e
		}
		out.OrderBy = append(out.OrderBy, SortKey{Column: i, Name: r.names[i], Desc: o.Desc})
	}
	q := &query{p: p, s: s}
	if err := q.limits(); err != nil {
		return nil, err
	}
	out.Limit, out.Offset = q.limit, q.offset
	out.Params = p.params
	return out, nil
}

// sessionFunc maps DATABASE() and friends used as values.
func sessionFunc(e parser.Expr) (string, bool) {
	f, ok := e.(*parser.FuncCall)
	if !ok || len(f.Args) > 0 || f.Star {
		return "", false
	}
	switch strings.ToLower(f.Name) {
	case "database", "schema", "current_database":
		return "database", true
	}
	return "", false
}
