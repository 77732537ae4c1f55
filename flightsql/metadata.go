package flightsql

import (
	"context"
	"regexp"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	fsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql/schema_ref"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/gofluss/fluss/engine"
	"github.com/gofluss/fluss/flussrpc"
)

// tableType is the one table type Fluss tables are reported as: BI tools
// list "TABLE"s; whether a table has a primary key is GetPrimaryKeys'
// business.
const tableType = "TABLE"

// metaInfo is the FlightInfo of a metadata command: its ticket is the
// command itself, which DoGet routes back to the matching DoGet method.
func (s *Server) metaInfo(desc *flight.FlightDescriptor, sc *arrow.Schema) *flight.FlightInfo {
	return s.flightInfo(desc, sc, desc.Cmd)
}

// oneRecord streams a single record.
func oneRecord(rec arrow.RecordBatch) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	ch := make(chan flight.StreamChunk, 1)
	ch <- flight.StreamChunk{Data: rec}
	close(ch)
	return rec.Schema(), ch, nil
}

// admin returns the caller's admin client.
func (s *Server) admin(ctx context.Context) (*flussrpc.Admin, error) {
	u, err := userFrom(ctx)
	if err != nil {
		return nil, err
	}
	c, _, err := u.native(ctx)
	if err != nil {
		return nil, statusOf(err)
	}
	return c.Admin(), nil
}

// likePattern compiles a Flight SQL name filter (SQL LIKE syntax); nil
// matches everything.
func likePattern(p *string) (*regexp.Regexp, error) {
	if p == nil {
		return nil, nil
	}
	re, err := engine.LikeRegexp(*p)
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "fluss flightsql: filter pattern %q: %v", *p, err)
	}
	return re, nil
}

func matches(re *regexp.Regexp, s string) bool { return re == nil || re.MatchString(s) }

// ourCatalog tells whether a catalog filter admits the server's catalog
// (nil and "" mean any).
func (s *Server) ourCatalog(c *string) bool {
	return c == nil || *c == "" || *c == s.cfg.Session.Catalog
}

// GetFlightInfoCatalogs describes the list of catalogs.
func (s *Server) GetFlightInfoCatalogs(_ context.Context, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return s.metaInfo(desc, schema_ref.Catalogs), nil
}

// DoGetCatalogs lists the one catalog: the cluster.
func (s *Server) DoGetCatalogs(context.Context) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	b := array.NewRecordBuilder(s.mem, schema_ref.Catalogs)
	defer b.Release()
	b.Field(0).(*array.StringBuilder).Append(s.cfg.Session.Catalog)
	return oneRecord(b.NewRecordBatch())
}

// GetFlightInfoSchemas describes the list of schemas (Fluss databases).
func (s *Server) GetFlightInfoSchemas(_ context.Context, _ fsql.GetDBSchemas, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return s.metaInfo(desc, schema_ref.DBSchemas), nil
}

// databases lists the databases matching a filter, sorted.
func (s *Server) databases(ctx context.Context, catalog, pattern *string) ([]string, error) {
	if !s.ourCatalog(catalog) {
		return nil, nil
	}
	a, err := s.admin(ctx)
	if err != nil {
		return nil, err
	}
	all, err := a.ListDatabases(ctx)
	if err != nil {
		return nil, statusOf(err)
	}
	re, err := likePattern(pattern)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, d := range all {
		if matches(re, d) {
			out = append(out, d)
		}
	}
	sort.Strings(out)
	return out, nil
}

// DoGetDBSchemas lists the Fluss databases as schemas.
func (s *Server) DoGetDBSchemas(ctx context.Context, cmd fsql.GetDBSchemas) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	dbs, err := s.databases(ctx, cmd.GetCatalog(), cmd.GetDBSchemaFilterPattern())
	if err != nil {
		return nil, nil, err
	}
	b := array.NewRecordBuilder(s.mem, schema_ref.DBSchemas)
	defer b.Release()
	for _, d := range dbs {
		b.Field(0).(*array.StringBuilder).Append(s.cfg.Session.Catalog)
		b.Field(1).(*array.StringBuilder).Append(d)
	}
	return oneRecord(b.NewRecordBatch())
}

// GetFlightInfoTables describes the list of tables.
func (s *Server) GetFlightInfoTables(_ context.Context, cmd fsql.GetTables, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	if cmd.GetIncludeSchema() {
		return s.metaInfo(desc, schema_ref.TablesWithIncludedSchema), nil
	}
	return s.metaInfo(desc, schema_ref.Tables), nil
}

// wantsTables tells whether a table type filter admits Fluss tables.
func wantsTables(types []string) bool {
	if len(types) == 0 {
		return true
	}
	for _, t := range types {
		if strings.EqualFold(t, tableType) {
			return true
		}
	}
	return false
}

// DoGetTables lists the tables matching the filters, with their Arrow
// schemas when asked.
func (s *Server) DoGetTables(ctx context.Context, cmd fsql.GetTables) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	sc := schema_ref.Tables
	if cmd.GetIncludeSchema() {
		sc = schema_ref.TablesWithIncludedSchema
	}
	b := array.NewRecordBuilder(s.mem, sc)
	defer b.Release()
	if !wantsTables(cmd.GetTableTypes()) {
		return oneRecord(b.NewRecordBatch())
	}
	dbs, err := s.databases(ctx, cmd.GetCatalog(), cmd.GetDBSchemaFilterPattern())
	if err != nil {
		return nil, nil, err
	}
	a, err := s.admin(ctx)
	if err != nil {
		return nil, nil, err
	}
	re, err := likePattern(cmd.GetTableNameFilterPattern())
	if err != nil {
		return nil, nil, err
	}
	for _, d := range dbs {
		tables, err := a.ListTables(ctx, d)
		if err != nil {
			return nil, nil, statusOf(err)
		}
		sort.Strings(tables)
		for _, t := range tables {
			if !matches(re, t) {
				continue
			}
			var raw []byte
			if cmd.GetIncludeSchema() {
				if raw, err = s.tableSchema(ctx, a, flussrpc.TablePath{Database: d, Table: t}); err != nil {
					return nil, nil, err
				}
			}
			b.Field(0).(*array.StringBuilder).Append(s.cfg.Session.Catalog)
			b.Field(1).(*array.StringBuilder).Append(d)
			b.Field(2).(*array.StringBuilder).Append(t)
			b.Field(3).(*array.StringBuilder).Append(tableType)
			if cmd.GetIncludeSchema() {
				b.Field(4).(*array.BinaryBuilder).Append(raw)
			}
		}
	}
	return oneRecord(b.NewRecordBatch())
}

// tableSchema is a table's Arrow schema in IPC form, as GetTables carries it.
func (s *Server) tableSchema(ctx context.Context, a *flussrpc.Admin, path flussrpc.TablePath) ([]byte, error) {
	info, err := a.GetTableInfo(ctx, path)
	if err != nil {
		return nil, statusOf(err)
	}
	sc, err := clientSchema(info.Descriptor.Schema.Columns)
	if err != nil {
		return nil, statusOf(err)
	}
	return flight.SerializeSchema(sc, s.mem), nil
}

// GetFlightInfoTableTypes describes the list of table types.
func (s *Server) GetFlightInfoTableTypes(_ context.Context, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return s.metaInfo(desc, schema_ref.TableTypes), nil
}

// DoGetTableTypes lists the one table type.
func (s *Server) DoGetTableTypes(context.Context) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	b := array.NewRecordBuilder(s.mem, schema_ref.TableTypes)
	defer b.Release()
	b.Field(0).(*array.StringBuilder).Append(tableType)
	return oneRecord(b.NewRecordBatch())
}

// GetFlightInfoPrimaryKeys describes a table's primary key.
func (s *Server) GetFlightInfoPrimaryKeys(_ context.Context, _ fsql.TableRef, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return s.metaInfo(desc, schema_ref.PrimaryKeys), nil
}

// DoGetPrimaryKeys lists the primary key columns of a table (none for a
// log table). Without a schema, the session's database is meant.
func (s *Server) DoGetPrimaryKeys(ctx context.Context, ref fsql.TableRef) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	b := array.NewRecordBuilder(s.mem, schema_ref.PrimaryKeys)
	defer b.Release()
	if !s.ourCatalog(ref.Catalog) {
		return oneRecord(b.NewRecordBatch())
	}
	db := s.cfg.Session.Database
	if ref.DBSchema != nil && *ref.DBSchema != "" {
		db = *ref.DBSchema
	}
	a, err := s.admin(ctx)
	if err != nil {
		return nil, nil, err
	}
	info, err := a.GetTableInfo(ctx, flussrpc.TablePath{Database: db, Table: ref.Table})
	if err != nil {
		return nil, nil, statusOf(err)
	}
	for i, col := range info.Descriptor.Schema.PrimaryKey {
		b.Field(0).(*array.StringBuilder).Append(s.cfg.Session.Catalog)
		b.Field(1).(*array.StringBuilder).Append(db)
		b.Field(2).(*array.StringBuilder).Append(ref.Table)
		b.Field(3).(*array.StringBuilder).Append(col)
		b.Field(4).(*array.Int32Builder).Append(int32(i + 1))
		b.Field(5).(*array.StringBuilder).AppendNull()
	}
	return oneRecord(b.NewRecordBatch())
}
