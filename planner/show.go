package planner

import (
	"strings"

	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/parser"
)

func cols(spec ...any) []Column {
	out := make([]Column, 0, len(spec)/2)
	for i := 0; i+1 < len(spec); i += 2 {
		out = append(out, Column{Name: spec[i].(string), Type: spec[i+1].(schema.DataType)})
	}
	return out
}

var (
	tString   = schema.String().NotNull()
	tStringN  = schema.String()
	tInt      = schema.Int().NotNull()
	tBigInt   = schema.BigInt().NotNull()
	tBigIntN  = schema.BigInt()
	tBool     = schema.Boolean().NotNull()
	tTsLTZN   = schema.TimestampLTZ(3)
	tIntArray = schema.ArrayOf(schema.Int().NotNull()).NotNull()
)

// DescribeColumns are the result columns of DESCRIBE t / SHOW COLUMNS.
var DescribeColumns = cols("name", tString, "type", tString, "null", tBool, "key", tStringN, "extras", tStringN, "comment", tStringN)

func (p *planCtx) show(s *parser.Show) (Plan, error) {
	sh := &Show{Full: s.Full}
	if s.Like != nil {
		sh.Like = &Pattern{Pattern: s.Like.Pattern, Not: s.Like.Not, CaseInsensitive: s.Like.CaseInsensitive}
	}
	needTable := func() error {
		if s.Table == nil {
			return errf("SHOW", "SHOW %s needs a table", s.Kind)
		}
		if s.Table.Virtual != parser.NotVirtual {
			return errf("SHOW", "SHOW %s needs a base table, not %s", s.Kind, s.Table)
		}
		info, err := p.table(*s.Table, "SHOW "+s.Kind.String())
		if err != nil {
			return err
		}
		t := tableOf(info)
		sh.Table = &t
		if s.Partition != nil {
			m, err := partitionSpec(info, *s.Partition, false)
			if err != nil {
				return err
			}
			sh.Partition = m
		}
		return nil
	}
	switch s.Kind {
	case parser.ShowDatabases:
		sh.Kind, sh.Output = ShowDatabases, cols("database_name", tString)
	case parser.ShowTables:
		sh.Kind = ShowTables
		sh.Database = p.sess.database()
		if s.Database != nil {
			db, err := p.dbName(*s.Database, "SHOW TABLES")
			if err != nil {
				return nil, err
			}
			sh.Database = db
		}
		sh.Output = cols("table_name", tString)
		if s.Full {
			sh.Output = append(sh.Output, Column{"table_type", tString})
		}
	case parser.ShowPartitions:
		sh.Kind, sh.Output = ShowPartitions, cols("partition_name", tString, "partition_id", tBigInt)
	case parser.ShowCreateTable:
		sh.Kind, sh.Output = ShowCreateTable, cols("create_table", tString)
	case parser.ShowColumns:
		if s.Table == nil {
			return nil, errf("SHOW COLUMNS", "SHOW COLUMNS needs FROM <table>")
		}
		info, err := p.table(*s.Table, "SHOW COLUMNS")
		if err != nil {
			return nil, err
		}
		t := tableOf(info)
		return &Describe{Table: &t, Full: s.Full, Like: sh.Like, Output: DescribeColumns}, nil
	case parser.ShowTableOptions:
		sh.Kind, sh.Output = ShowTableOptions, cols("key", tString, "value", tString, "kind", tString)
	case parser.ShowBuckets:
		sh.Kind, sh.Output = ShowBuckets, cols("partition_name", tStringN, "bucket", tInt, "leader", schema.Int(), "replicas", tIntArray)
	case parser.ShowOffsets:
		sh.Kind, sh.Output = ShowOffsets, cols("partition_name", tStringN, "bucket", tInt, "offset", tBigInt)
		off := OffsetSpec{Kind: OffsetLatest}
		if s.Offsets != nil {
			switch s.Offsets.Kind {
			case parser.OffsetsEarliest:
				off.Kind = OffsetEarliest
			case parser.OffsetsTimestamp:
				o, err := p.timestampOffset(s.Offsets.Timestamp, "SHOW OFFSETS")
				if err != nil {
					return nil, err
				}
				off = o
			}
		}
		sh.Offset = &off
	case parser.ShowTableStats:
		sh.Kind, sh.Output = ShowTableStats, cols("partition_name", tStringN, "bucket", tInt, "row_count", tBigInt)
	case parser.ShowKvSnapshots:
		sh.Kind, sh.Output = ShowKvSnapshots, cols("partition_name", tStringN, "bucket", tInt, "snapshot_id", tBigIntN, "log_offset", tBigIntN)
	case parser.ShowLakeSnapshot:
		sh.Kind, sh.Output = ShowLakeSnapshot, cols("snapshot_id", tBigInt, "partition_name", tStringN, "bucket", tInt, "log_offset", tBigInt)
	case parser.ShowServers:
		sh.Kind, sh.Output = ShowServers, cols("id", tInt, "host", tString, "port", tInt, "server_type", tString, "uid", tStringN, "rack", tStringN)
	case parser.ShowProcedures:
		sh.Kind, sh.Output = ShowProcedures, cols("procedure_name", tString)
	case parser.ShowCatalogs:
		sh.Kind, sh.Output = ShowCatalogs, cols("catalog_name", tString)
	case parser.ShowCurrentDatabase:
		sh.Kind, sh.Output = ShowCurrentDatabase, cols("current_database", tString)
	case parser.ShowCurrentCatalog:
		sh.Kind, sh.Output = ShowCurrentCatalog, cols("current_catalog", tString)
	case parser.ShowVariables:
		sh.Kind, sh.Output = ShowVariables, cols("Variable_name", tString, "Value", tString)
	case parser.ShowOther:
		if len(s.Words) == 1 && s.Words[0] == "VIEWS" {
			sh.Kind, sh.Output = ShowViews, cols("view_name", tString)
			break
		}
		fallthrough
	default:
		what := strings.Join(s.Words, " ")
		if what == "" {
			what = s.Kind.String()
		}
		return nil, errf("SHOW", "SHOW %s is not supported; the fluss driver shows DATABASES, TABLES, PARTITIONS, CREATE TABLE, COLUMNS, TABLE OPTIONS, BUCKETS, OFFSETS, TABLE STATS, KV SNAPSHOTS, LAKE SNAPSHOT, SERVERS, PROCEDURES, CATALOGS, VARIABLES and VIEWS", what)
	}
	switch sh.Kind {
	case ShowPartitions, ShowCreateTable, ShowTableOptions, ShowBuckets, ShowOffsets, ShowTableStats, ShowKvSnapshots, ShowLakeSnapshot:
		if err := needTable(); err != nil {
			return nil, err
		}
	}
	sh.Params = p.params
	return sh, nil
}

// timestampOffset converts AT TIMESTAMP <expr> / 'scan.startup.timestamp'.
func (p *planCtx) timestampOffset(e parser.Expr, clause string) (OffsetSpec, error) {
	switch x := e.(type) {
	case *parser.Param:
		v := p.param(x, "", schema.TimestampLTZ(3))
		return OffsetSpec{Kind: OffsetTimestamp, TimestampValue: &v}, nil
	case *parser.Literal:
		ms, err := p.timestampMillis(x.Text)
		if err != nil {
			return OffsetSpec{}, errf(clause, "%s", err.Msg)
		}
		return OffsetSpec{Kind: OffsetTimestamp, Timestamp: ms}, nil
	}
	return OffsetSpec{}, errf(clause, "the timestamp must be a literal (epoch milliseconds or 'yyyy-MM-dd HH:mm:ss') or a parameter, got %s", exprText(e))
}

func (p *planCtx) timestampMillis(s string) (int64, *Error) {
	s = strings.TrimSpace(s)
	var n int64
	isNum := s != ""
	for _, c := range s {
		if c < '0' || c > '9' {
			isNum = false
			break
		}
		n = n*10 + int64(c-'0')
	}
	if isNum {
		return n, nil
	}
	ts, err := parseTimestamp(s, p.sess.location())
	if err != nil {
		return 0, errf("scan.startup.timestamp", "'%s' is not a timestamp: use epoch milliseconds or 'yyyy-MM-dd HH:mm:ss'", s)
	}
	return ts.UnixMilli(), nil
}

func (p *planCtx) describe(s *parser.Describe) (Plan, error) {
	if s.Database != nil {
		db, err := p.dbName(*s.Database, "DESCRIBE DATABASE")
		if err != nil {
			return nil, err
		}
		return &Describe{Database: db, Extended: s.Extended, Output: cols("name", tString, "comment", tStringN, "properties", tStringN, "created_at", tTsLTZN, "modified_at", tTsLTZN)}, nil
	}
	if s.Table == nil {
		return nil, errf("DESCRIBE", "DESCRIBE needs a table or DATABASE name")
	}
	info, err := p.table(*s.Table, "DESCRIBE")
	if err != nil {
		return nil, err
	}
	t := tableOf(info)
	return &Describe{Table: &t, Extended: s.Extended, Output: DescribeColumns}, nil
}

// DescribeRows returns the DESCRIBE rows of a table, matching
// DescribeColumns: name, type, null, key ("PRI", "PART", "BUCKET",
// comma-joined), extras ("AUTO_INCREMENT", "agg=sum"), comment (nil when
// empty). Computed columns are listed with type "AS <expr>".
func DescribeRows(d *schema.TableDescriptor) [][]any {
	def := defFromDescriptor(d)
	buckets := d.EffectiveBucketKeys()
	var rows [][]any
	str := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	for _, c := range def.cols {
		if c.computed {
			rows = append(rows, []any{c.name, "AS " + c.expr, true, nil, "computed", str(c.comment)})
			continue
		}
		var keys, extras []string
		if contains(d.Schema.PrimaryKey, c.name) {
			keys = append(keys, "PRI")
		}
		if contains(d.PartitionKeys, c.name) {
			keys = append(keys, "PART")
		}
		if contains(buckets, c.name) {
			keys = append(keys, "BUCKET")
		}
		if contains(d.Schema.AutoIncrementColumns, c.name) {
			extras = append(extras, "AUTO_INCREMENT")
		}
		if i := d.Schema.ColumnIndex(c.name); i >= 0 && d.Schema.Columns[i].AggFunction != nil {
			extras = append(extras, "agg="+d.Schema.Columns[i].AggFunction.Type)
		}
		for _, w := range def.watermarks {
			if w.column == c.name {
				extras = append(extras, "WATERMARK AS "+w.expr)
			}
		}
		t := c.typ.WithNullable(true)
		rows = append(rows, []any{c.name, renderType(t), c.typ.Nullable, str(strings.Join(keys, ",")), str(strings.Join(extras, ", ")), str(c.comment)})
	}
	return rows
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
