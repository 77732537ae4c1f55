package engine

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/planner"
)

// show answers SHOW statements from the Admin API.
func (c *Session) show(ctx context.Context, p *planner.Show, b *binder) (driver.Rows, error) {
	rows, err := c.showRows(ctx, p, b)
	if err != nil {
		return nil, err
	}
	if p.Like != nil {
		rows, err = filterLike(rows, p.Like)
		if err != nil {
			return nil, err
		}
	}
	return newMemRows(p.Output, rows, c.outOptions()), nil
}

func (c *Session) showRows(ctx context.Context, p *planner.Show, b *binder) ([][]any, error) {
	adm := c.client.Admin()
	switch p.Kind {
	case planner.ShowDatabases:
		names, err := adm.ListDatabases(ctx)
		return stringRows(names), err
	case planner.ShowTables:
		return c.showTables(ctx, p)
	case planner.ShowPartitions:
		parts, err := adm.ListPartitionInfos(ctx, p.Table.Path, p.Partition)
		if err != nil {
			return nil, err
		}
		sort.Slice(parts, func(i, j int) bool { return parts[i].QualifiedName() < parts[j].QualifiedName() })
		rows := make([][]any, len(parts))
		for i, part := range parts {
			rows[i] = []any{part.QualifiedName(), part.ID}
		}
		return rows, nil
	case planner.ShowCreateTable:
		info, err := adm.GetTableInfo(ctx, p.Table.Path)
		if err != nil {
			return nil, err
		}
		return [][]any{{planner.RenderCreateTable(info)}}, nil
	case planner.ShowTableOptions:
		info, err := adm.GetTableInfo(ctx, p.Table.Path)
		if err != nil {
			return nil, err
		}
		rows := optionRows(info.Descriptor.Properties, "property")
		return append(rows, optionRows(info.Descriptor.CustomProperties, "custom")...), nil
	case planner.ShowOffsets:
		return c.showOffsets(ctx, p, b)
	case planner.ShowBuckets, planner.ShowTableStats, planner.ShowKvSnapshots:
		return c.showPerPartition(ctx, p)
	case planner.ShowLakeSnapshot:
		return c.showLakeSnapshot(ctx, p)
	case planner.ShowServers:
		return c.showServers(ctx)
	case planner.ShowProcedures:
		return stringRows(planner.Procedures()), nil
	case planner.ShowCatalogs, planner.ShowCurrentCatalog:
		return [][]any{{c.sess.Catalog}}, nil
	case planner.ShowCurrentDatabase:
		return [][]any{{c.sess.Database}}, nil
	case planner.ShowVariables:
		return optionRowsPlain(c.sess.Options), nil
	case planner.ShowViews:
		return nil, nil
	}
	return nil, fmt.Errorf("fluss: SHOW %s is not executed by this version of the driver yet", p.Kind)
}

func stringRows(names []string) [][]any {
	sort.Strings(names)
	rows := make([][]any, len(names))
	for i, n := range names {
		rows[i] = []any{n}
	}
	return rows
}

func optionRows(m map[string]string, kind string) [][]any {
	var rows [][]any
	for _, k := range slices.Sorted(maps.Keys(m)) {
		rows = append(rows, []any{k, m[k], kind})
	}
	return rows
}

func optionRowsPlain(m map[string]string) [][]any {
	var rows [][]any
	for _, k := range slices.Sorted(maps.Keys(m)) {
		rows = append(rows, []any{k, m[k]})
	}
	return rows
}

func (c *Session) showTables(ctx context.Context, p *planner.Show) ([][]any, error) {
	db := p.Database
	if db == "" {
		db = c.sess.Database
	}
	names, err := c.client.Admin().ListTables(ctx, db)
	if err != nil {
		return nil, err
	}
	rows := stringRows(names)
	if !p.Full {
		return rows, nil
	}
	for i := range rows {
		info, err := c.cat.TableInfo(ctx, flussrpc.TablePath{Database: db, Table: rows[i][0].(string)})
		if err != nil {
			return nil, err
		}
		kind := "LOG TABLE"
		if info.Descriptor.HasPrimaryKey() {
			kind = "PRIMARY KEY TABLE"
		}
		rows[i] = append(rows[i], kind)
	}
	return rows, nil
}

// partitionsOf lists the partition names a per-partition SHOW covers: ""
// for a non-partitioned table, else every partition matching spec.
func (c *Session) partitionsOf(ctx context.Context, path flussrpc.TablePath, spec map[string]string) ([]string, error) {
	t, err := c.client.Table(ctx, path)
	if err != nil {
		return nil, err
	}
	return t.Partitions(ctx, spec, nil)
}

func (c *Session) showOffsets(ctx context.Context, p *planner.Show, b *binder) ([][]any, error) {
	spec, err := c.offsetSpec(p.Offset, b)
	if err != nil {
		return nil, err
	}
	parts, err := c.partitionsOf(ctx, p.Table.Path, p.Partition)
	if err != nil {
		return nil, err
	}
	var rows [][]any
	for _, part := range parts {
		offs, err := c.client.Admin().ListOffsets(ctx, p.Table.Path, part, nil, spec)
		if err != nil {
			return nil, err
		}
		for _, bk := range sortedBuckets(offs) {
			rows = append(rows, []any{nilIfEmpty(part), bk, offs[bk]})
		}
	}
	return rows, nil
}

// offsetSpec resolves the AT clause of SHOW OFFSETS (LATEST by default).
func (c *Session) offsetSpec(o *planner.OffsetSpec, b *binder) (flussrpc.OffsetSpec, error) {
	if o == nil {
		return flussrpc.OffsetLatest(), nil
	}
	if spec, ok := rpcOffset(*o); ok {
		return spec, nil
	}
	if o.Kind == planner.OffsetTimestamp {
		ms, err := c.offsetMillis(*o, b)
		if err != nil {
			return flussrpc.OffsetSpec{}, err
		}
		return flussrpc.OffsetAtTimestamp(ms), nil
	}
	return flussrpc.OffsetSpec{}, fmt.Errorf("fluss: SHOW OFFSETS cannot list %s offsets", o.Kind)
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// showPerPartition answers the SHOW forms that list each bucket of each
// (pruned) partition: BUCKETS, TABLE STATS and KV SNAPSHOTS.
func (c *Session) showPerPartition(ctx context.Context, p *planner.Show) ([][]any, error) {
	parts, err := c.partitionsOf(ctx, p.Table.Path, p.Partition)
	if err != nil {
		return nil, err
	}
	adm := c.client.Admin()
	var rows [][]any
	for _, part := range parts {
		name := nilIfEmpty(part)
		switch p.Kind {
		case planner.ShowBuckets:
			buckets, err := adm.GetBuckets(ctx, p.Table.Path, part)
			if err != nil {
				return nil, err
			}
			for _, b := range buckets {
				var leader any
				if b.Leader >= 0 {
					leader = b.Leader
				}
				replicas := make([]any, len(b.Replicas))
				for i, r := range b.Replicas {
					replicas[i] = r
				}
				rows = append(rows, []any{name, b.Bucket, leader, replicas})
			}
		case planner.ShowTableStats:
			counts, err := adm.GetTableStats(ctx, p.Table.Path, part, nil)
			if err != nil {
				return nil, err
			}
			for _, b := range sortedBuckets(counts) {
				rows = append(rows, []any{name, b, counts[b]})
			}
		case planner.ShowKvSnapshots:
			snaps, err := adm.GetLatestKVSnapshots(ctx, p.Table.Path, part)
			if err != nil {
				return nil, err
			}
			for _, s := range snaps {
				rows = append(rows, []any{name, s.Bucket, optInt64(s.SnapshotID), optInt64(s.LogOffset)})
			}
		}
	}
	return rows, nil
}

func sortedBuckets[V any](m map[int32]V) []int32 {
	out := make([]int32, 0, len(m))
	for b := range m {
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// optInt64 maps the "-1 = none" convention to NULL.
func optInt64(v int64) any {
	if v < 0 {
		return nil
	}
	return v
}

func (c *Session) showLakeSnapshot(ctx context.Context, p *planner.Show) ([][]any, error) {
	snap, err := c.client.Admin().GetLatestLakeSnapshot(ctx, p.Table.Path)
	if err != nil {
		return nil, err
	}
	var rows [][]any
	for _, b := range snap.Buckets {
		rows = append(rows, []any{snap.SnapshotID, nilIfEmpty(b.PartitionName), b.Bucket, b.LogOffset})
	}
	return rows, nil
}

func (c *Session) showServers(ctx context.Context) ([][]any, error) {
	nodes, err := c.client.Admin().GetServerNodes(ctx)
	if err != nil {
		return nil, err
	}
	rows := make([][]any, len(nodes))
	for i, n := range nodes {
		kind := "TabletServer"
		if n.Type == flussrpc.ServerTypeCoordinator {
			kind = "CoordinatorServer"
		}
		rows[i] = []any{n.ID, n.Host, n.Port, kind, n.UID(), nilIfEmpty(n.Rack)}
	}
	return rows, nil
}

// describe answers DESCRIBE t / SHOW COLUMNS and DESCRIBE DATABASE.
func (c *Session) describe(ctx context.Context, p *planner.Describe) (driver.Rows, error) {
	if p.Database != "" {
		return c.describeDatabase(ctx, p)
	}
	info, err := c.client.Admin().GetTableInfo(ctx, p.Table.Path)
	if err != nil {
		return nil, err
	}
	rows := planner.DescribeRows(&info.Descriptor)
	if p.Like != nil {
		if rows, err = filterLike(rows, p.Like); err != nil {
			return nil, err
		}
	}
	return newMemRows(p.Output, rows, c.outOptions()), nil
}

func (c *Session) describeDatabase(ctx context.Context, p *planner.Describe) (driver.Rows, error) {
	info, err := c.client.Admin().GetDatabaseInfo(ctx, p.Database)
	if err != nil {
		return nil, err
	}
	var props any
	if len(info.Descriptor.CustomProperties) > 0 {
		js, err := json.Marshal(info.Descriptor.CustomProperties)
		if err != nil {
			return nil, err
		}
		props = string(js)
	}
	row := []any{info.Name, nilIfEmpty(info.Descriptor.Comment), props,
		codec.TimestampLTZOf(info.CreatedTime), codec.TimestampLTZOf(info.ModifiedTime)}
	return newMemRows(p.Output, [][]any{row}, c.outOptions()), nil
}

// filterLike keeps the rows whose first column matches a SQL LIKE pattern.
func filterLike(rows [][]any, pat *planner.Pattern) ([][]any, error) {
	re, err := likeRegexp(pat.Pattern, pat.CaseInsensitive)
	if err != nil {
		return nil, err
	}
	var out [][]any
	for _, r := range rows {
		s, _ := r[0].(string)
		if re.MatchString(s) != pat.Not {
			out = append(out, r)
		}
	}
	return out, nil
}

// LikeRegexp compiles a SQL LIKE pattern (% any run, _ one character,
// \ escaping either) into an anchored regexp, for front doors that filter
// names the way SHOW ... LIKE does (Flight SQL's metadata filters).
func LikeRegexp(pattern string) (*regexp.Regexp, error) { return likeRegexp(pattern, false) }

// likeRegexp translates % and _ (with \ escaping them) into a regexp.
func likeRegexp(pattern string, fold bool) (*regexp.Regexp, error) {
	var b strings.Builder
	if fold {
		b.WriteString("(?i)")
	}
	b.WriteString("^")
	escaped := false
	for _, r := range pattern {
		switch {
		case escaped:
			b.WriteString(regexp.QuoteMeta(string(r)))
			escaped = false
		case r == '\\':
			escaped = true
		case r == '%':
			b.WriteString("(?s:.*)")
		case r == '_':
			b.WriteString("(?s:.)")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}
