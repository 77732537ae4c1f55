package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/internal/rowsort"
	"github.com/gofluss/fluss/planner"
)

// infoSchema answers SELECT ... FROM information_schema.<view>: the view's
// rows are built from admin metadata, then filtered, sorted, windowed and
// projected here. The views are small, so this is the one place where the
// driver filters and sorts rows itself (BI tools and ORMs introspect this way).
func (c *Session) infoSchema(ctx context.Context, p *planner.InfoSchema, b *binder) ([][]any, error) {
	cols := planner.InfoSchemaViews[p.View]
	names := make([]string, len(cols))
	for i, col := range cols {
		names[i] = col.Name
	}
	filter, err := compileFilter(p.Filter, names, b)
	if err != nil {
		return nil, err
	}
	all, err := c.infoSchemaRows(ctx, p.View)
	if err != nil {
		return nil, err
	}
	var rows [][]any
	for _, r := range all {
		ok, err := filter.match(r)
		if err != nil {
			return nil, err
		}
		if ok {
			rows = append(rows, r)
		}
	}
	if err := sortRows(rows, p.OrderBy); err != nil {
		return nil, err
	}
	if rows, err = window(rows, p.Limit, p.Offset, b); err != nil {
		return nil, err
	}
	for i, r := range rows {
		rows[i] = project(r, p.Projection.Indexes)
	}
	return rows, nil
}

// sortRows sorts by the ORDER BY keys; NULLs sort first, as in MySQL.
func sortRows(rows [][]any, keys []planner.SortKey) error {
	s := rowsort.New(sortKeys(keys), compareNullable, -1, len(rows))
	for _, r := range rows {
		if err := s.Add(r); err != nil {
			return err
		}
	}
	sorted, err := s.Sorted()
	copy(rows, sorted)
	return err
}

// infoSchemaRows builds every row of a view, columns in InfoSchemaViews order.
func (c *Session) infoSchemaRows(ctx context.Context, view string) ([][]any, error) {
	adm := c.client.Admin()
	dbs, err := adm.ListDatabases(ctx)
	if err != nil {
		return nil, err
	}
	sort.Strings(dbs)
	cat := c.sess.Catalog
	var rows [][]any
	for _, db := range dbs {
		if view == "schemata" {
			info, err := adm.GetDatabaseInfo(ctx, db)
			if err != nil {
				return nil, err
			}
			rows = append(rows, []any{cat, db, nilIfEmpty(info.Descriptor.Comment)})
			continue
		}
		tables, err := adm.ListTables(ctx, db)
		if err != nil {
			return nil, err
		}
		sort.Strings(tables)
		for _, t := range tables {
			path := flussrpc.TablePath{Database: db, Table: t}
			more, err := c.infoSchemaTable(ctx, view, cat, path)
			if err != nil {
				return nil, err
			}
			rows = append(rows, more...)
		}
	}
	return rows, nil
}

func (c *Session) infoSchemaTable(ctx context.Context, view, cat string, path flussrpc.TablePath) ([][]any, error) {
	info, err := c.cat.TableInfo(ctx, path)
	if err != nil {
		return nil, err
	}
	d := &info.Descriptor
	switch view {
	case "tables":
		kind := "LOG TABLE"
		if d.HasPrimaryKey() {
			kind = "PRIMARY KEY TABLE"
		}
		return [][]any{{cat, path.Database, path.Table, kind, nilIfEmpty(d.Comment)}}, nil
	case "columns":
		var rows [][]any
		for i, r := range planner.DescribeRows(d) {
			// DESCRIBE rows: name, type, null, key, extras, comment.
			typ := r[1].(string)
			dataType, _, _ := strings.Cut(typ, "(")
			nullable := "NO"
			if r[2].(bool) {
				nullable = "YES"
			}
			rows = append(rows, []any{cat, path.Database, path.Table, r[0], int64(i + 1), dataType, typ, nullable, r[3], r[4], r[5]})
		}
		return rows, nil
	case "partitions":
		if !d.IsPartitioned() {
			return nil, nil
		}
		parts, err := c.client.Admin().ListPartitionInfos(ctx, path, nil)
		if err != nil {
			return nil, err
		}
		rows := make([][]any, len(parts))
		for i, p := range parts {
			rows[i] = []any{cat, path.Database, path.Table, p.QualifiedName(), p.ID}
		}
		return rows, nil
	}
	return nil, fmt.Errorf("fluss: unknown view information_schema.%s", view)
}
