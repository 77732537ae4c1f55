package flightsql

import (
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	fsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql/schema_ref"
	pb "github.com/apache/arrow-go/v18/arrow/flight/gen/flight"

	"github.com/gofluss/fluss/engine"
)

// ServerName is the FLIGHT_SQL_SERVER_NAME the server reports.
const ServerName = "Apache Fluss (gofluss)"

// registerSQLInfo fills the answers of GetSqlInfo: who the server is and
// the facts of the dialect BI tools ask for before they write SQL.
func (s *Server) registerSQLInfo() error {
	tx := fsql.SqlTransactionTransaction
	if s.cfg.Session.RejectTx {
		tx = fsql.SqlTransactionNone
	}
	infos := []sqlInfo{
		{fsql.SqlInfoFlightSqlServerName, ServerName},
		{fsql.SqlInfoFlightSqlServerVersion, engine.Version},
		{fsql.SqlInfoFlightSqlServerArrowVersion, arrowVersion},
		{fsql.SqlInfoFlightSqlServerReadOnly, false},
		{fsql.SqlInfoFlightSqlServerSql, true},
		{fsql.SqlInfoFlightSqlServerSubstrait, false},
		{fsql.SqlInfoFlightSqlServerTransaction, int32(tx)},
		{fsql.SqlInfoFlightSqlServerCancel, false},
		{fsql.SqlInfoFlightSqlServerBulkIngestion, true},
		{fsql.SqlInfoFlightSqlServerIngestTransactionsSupported, false},
		{fsql.SqlInfoDDLCatalog, false},
		{fsql.SqlInfoDDLSchema, true},
		{fsql.SqlInfoDDLTable, true},
		{fsql.SqlInfoIdentifierQuoteChar, "`"},
		{fsql.SqlInfoIdentifierCase, int32(fsql.SqlCaseSensitivityCaseInsensitive)},
		{fsql.SqlInfoQuotedIdentifierCase, int32(fsql.SqlCaseSensitivityCaseInsensitive)},
		{fsql.SqlInfoAllTablesAreASelectable, true},
		{fsql.SqlInfoSearchStringEscape, "\\"},
		{fsql.SqlInfoSupportsColumnAliasing, true},
		{fsql.SqlInfoSupportsNonNullableColumns, true},
		{fsql.SqlInfoSchemaTerm, "database"},
		{fsql.SqlInfoCatalogTerm, "catalog"},
		{fsql.SqlInfoProcedureTerm, "procedure"},
		{fsql.SqlInfoCatalogAtStart, true},
		{fsql.SqlInfoTransactionsSupported, !s.cfg.Session.RejectTx},
		{fsql.SqlInfoSelectForUpdateSupported, false},
		{fsql.SqlInfoStoredProceduresSupported, true},
		{fsql.SqlInfoKeywords, []string{"PARTITIONED", "BUCKET", "WATERMARK", "CATALOG", "DATABASES", "TABLES", "SHOW", "DESCRIBE", "EXPLAIN", "CALL", "USE", "HINTS"}},
	}
	for _, in := range append(infos, querySQLInfo()...) {
		if err := s.RegisterSqlInfo(in.id, in.v); err != nil {
			return err
		}
	}
	return nil
}

// sqlInfo is one answer of GetSqlInfo.
type sqlInfo struct {
	id fsql.SqlInfo
	v  any
}

// The functions the dialect evaluates itself (in VALUES, SET of UPDATE
// and SELECT without FROM); the query engine runs them too.
var (
	dialectDateTimeFunctions = []string{"CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP", "LOCALTIME", "LOCALTIMESTAMP", "NOW"}
	dialectSystemFunctions   = []string{"CURRENT_CATALOG", "CURRENT_DATABASE", "DATABASE", "USER", "VERSION"}
)

// querySQLInfo describes the queries the server runs: with a query engine
// registered (package analytics, which the fluss-flightsql command links)
// grouping, subqueries, outer joins, unions and the engine's functions;
// without one only what Fluss serves itself, which has none of them.
func querySQLInfo() []sqlInfo {
	fns, ok := engine.EngineFunctions()
	if !ok {
		return []sqlInfo{
			{fsql.SqlInfoDateTimeFunctions, dialectDateTimeFunctions},
			{fsql.SqlInfoSystemFunctions, dialectSystemFunctions},
			{fsql.SqlInfoSupportedGroupBy, int32(0)},
			{fsql.SqlInfoSupportedSubqueries, int32(0)},
			{fsql.SqlInfoCorrelatedSubqueriesSupported, false},
			{fsql.SqlInfoOuterJoinsSupportLevel, int32(pb.SqlOuterJoinsSupportLevel_SQL_JOINS_UNSUPPORTED)},
			{fsql.SqlInfoSupportedUnions, int32(0)},
			{fsql.SqlInfoSupportsExpressionsInOrderBy, false},
			{fsql.SqlInfoSupportsOrderByUnrelated, false},
			{fsql.SqlInfoSupportsLikeEscapeClause, false},
			{fsql.SqlInfoSupportsTableCorrelationNames, false},
		}
	}
	bits := func(flags ...int32) int32 {
		var m int32
		for _, f := range flags {
			m |= 1 << f
		}
		return m
	}
	return []sqlInfo{
		{fsql.SqlInfoNumericFunctions, fns.Numeric},
		{fsql.SqlInfoStringFunctions, fns.String},
		{fsql.SqlInfoDateTimeFunctions, union(dialectDateTimeFunctions, fns.DateTime)},
		{fsql.SqlInfoSystemFunctions, union(dialectSystemFunctions, fns.System)},
		{fsql.SqlInfoSupportedGroupBy, bits(int32(pb.SqlSupportedGroupBy_SQL_GROUP_BY_UNRELATED), int32(pb.SqlSupportedGroupBy_SQL_GROUP_BY_BEYOND_SELECT))},
		// Comparisons, EXISTS and IN; not ALL / ANY.
		{fsql.SqlInfoSupportedSubqueries, bits(int32(pb.SqlSupportedSubqueries_SQL_SUBQUERIES_IN_COMPARISONS),
			int32(pb.SqlSupportedSubqueries_SQL_SUBQUERIES_IN_EXISTS), int32(pb.SqlSupportedSubqueries_SQL_SUBQUERIES_IN_INS))},
		{fsql.SqlInfoCorrelatedSubqueriesSupported, true},
		// LEFT and RIGHT; the parser refuses FULL.
		{fsql.SqlInfoOuterJoinsSupportLevel, int32(pb.SqlOuterJoinsSupportLevel_SQL_LIMITED_OUTER_JOINS)},
		{fsql.SqlInfoSupportedUnions, bits(int32(pb.SqlSupportedUnions_SQL_UNION), int32(pb.SqlSupportedUnions_SQL_UNION_ALL))},
		{fsql.SqlInfoSupportsExpressionsInOrderBy, true},
		{fsql.SqlInfoSupportsOrderByUnrelated, true},
		{fsql.SqlInfoSupportsLikeEscapeClause, true},
		{fsql.SqlInfoSupportsTableCorrelationNames, true},
	}
}

// union is a followed by the names of b it lacks.
func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, n := range b {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// arrowVersion is the arrow-go release the server is built with.
const arrowVersion = "18.9.0"

// xdbcType is one row of GetXdbcTypeInfo.
type xdbcType struct {
	name      string
	code      pb.XdbcDataType
	size      int32 // column size (precision, length); 0 for none
	prefix    string
	params    []string
	minScale  int32
	maxScale  int32
	subcode   pb.XdbcDatetimeSubcode
	radix     int32
	unsigned  bool
	caseSens  bool
	fixedPrec bool
}

// xdbcTypes are the Fluss types, as JDBC's DatabaseMetaData.getTypeInfo
// lists them (sorted by code, as JDBC wants).
var xdbcTypes = []xdbcType{
	{name: "BYTES", code: pb.XdbcDataType_XDBC_LONGVARBINARY, size: 1<<31 - 1, prefix: "x'"},
	{name: "BINARY", code: pb.XdbcDataType_XDBC_BINARY, size: 1<<31 - 1, prefix: "x'", params: []string{"length"}},
	{name: "STRING", code: pb.XdbcDataType_XDBC_LONGVARCHAR, size: 1<<31 - 1, prefix: "'", caseSens: true},
	{name: "BIGINT", code: pb.XdbcDataType_XDBC_BIGINT, size: 19, radix: 10, fixedPrec: true},
	{name: "TINYINT", code: pb.XdbcDataType_XDBC_TINYINT, size: 3, radix: 10, fixedPrec: true},
	{name: "CHAR", code: pb.XdbcDataType_XDBC_CHAR, size: 1<<31 - 1, prefix: "'", params: []string{"length"}, caseSens: true},
	{name: "DECIMAL", code: pb.XdbcDataType_XDBC_DECIMAL, size: 38, params: []string{"precision", "scale"}, maxScale: 38, radix: 10, fixedPrec: true},
	{name: "INT", code: pb.XdbcDataType_XDBC_INTEGER, size: 10, radix: 10, fixedPrec: true},
	{name: "SMALLINT", code: pb.XdbcDataType_XDBC_SMALLINT, size: 5, radix: 10, fixedPrec: true},
	{name: "FLOAT", code: pb.XdbcDataType_XDBC_FLOAT, size: 7, radix: 2},
	{name: "DOUBLE", code: pb.XdbcDataType_XDBC_DOUBLE, size: 15, radix: 2},
	{name: "BOOLEAN", code: pb.XdbcDataType_XDBC_BIT, size: 1},
	{name: "DATE", code: pb.XdbcDataType_XDBC_DATE, size: 10, prefix: "DATE '", subcode: pb.XdbcDatetimeSubcode_XDBC_SUBCODE_DATE},
	{name: "TIME", code: pb.XdbcDataType_XDBC_TIME, size: 12, prefix: "TIME '", params: []string{"precision"}, maxScale: 3, subcode: pb.XdbcDatetimeSubcode_XDBC_SUBCODE_TIME},
	{name: "TIMESTAMP", code: pb.XdbcDataType_XDBC_TIMESTAMP, size: 29, prefix: "TIMESTAMP '", params: []string{"precision"}, maxScale: 9, subcode: pb.XdbcDatetimeSubcode_XDBC_SUBCODE_TIMESTAMP},
	{name: "TIMESTAMP_LTZ", code: pb.XdbcDataType_XDBC_TIMESTAMP, size: 29, prefix: "TIMESTAMP '", params: []string{"precision"}, maxScale: 9, subcode: pb.XdbcDatetimeSubcode_XDBC_SUBCODE_TIMESTAMP_WITH_TIMEZONE},
}

// GetFlightInfoXdbcTypeInfo describes the type list.
func (s *Server) GetFlightInfoXdbcTypeInfo(_ context.Context, _ fsql.GetXdbcTypeInfo, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return s.metaInfo(desc, schema_ref.XdbcTypeInfo), nil
}

// DoGetXdbcTypeInfo lists the Fluss types (or those of one XDBC code).
func (s *Server) DoGetXdbcTypeInfo(_ context.Context, cmd fsql.GetXdbcTypeInfo) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	b := array.NewRecordBuilder(s.mem, schema_ref.XdbcTypeInfo)
	defer b.Release()
	str := func(i int, v string) {
		if v == "" {
			b.Field(i).AppendNull()
			return
		}
		b.Field(i).(*array.StringBuilder).Append(v)
	}
	i32 := func(i int, v int32, null bool) {
		if null {
			b.Field(i).AppendNull()
			return
		}
		b.Field(i).(*array.Int32Builder).Append(v)
	}
	for _, t := range xdbcTypes {
		if cmd.GetDataType() != nil && *cmd.GetDataType() != int32(t.code) {
			continue
		}
		suffix := ""
		if t.prefix != "" {
			suffix = "'"
		}
		str(0, t.name)
		i32(1, int32(t.code), false)
		i32(2, t.size, t.size == 0)
		str(3, t.prefix)
		str(4, suffix)
		lb := b.Field(5).(*array.ListBuilder)
		lb.Append(true)
		for _, p := range t.params {
			lb.ValueBuilder().(*array.StringBuilder).Append(p)
		}
		i32(6, int32(pb.Nullable_NULLABILITY_NULLABLE), false)
		b.Field(7).(*array.BooleanBuilder).Append(t.caseSens)
		i32(8, int32(pb.Searchable_SEARCHABLE_FULL), false)
		b.Field(9).(*array.BooleanBuilder).Append(t.unsigned)
		b.Field(10).(*array.BooleanBuilder).Append(t.fixedPrec)
		b.Field(11).(*array.BooleanBuilder).Append(false)
		str(12, t.name)
		i32(13, t.minScale, t.maxScale == 0)
		i32(14, t.maxScale, t.maxScale == 0)
		i32(15, int32(t.code), false)
		i32(16, int32(t.subcode), t.subcode == 0)
		i32(17, t.radix, t.radix == 0)
		i32(18, 0, true)
	}
	return oneRecord(b.NewRecordBatch())
}
