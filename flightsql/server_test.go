package flightsql_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	fsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/gofluss/fluss/flightsql"
	"github.com/gofluss/fluss/internal/clustertest"
	"github.com/gofluss/fluss/internal/flighttest"
	"github.com/gofluss/fluss/internal/testkit"
)

// startServer serves the cluster's SASL listener on a free loopback port.
func startServer(t testing.TB, mod func(*flightsql.Config)) (string, *flightsql.Server) {
	t.Helper()
	return flighttest.Start(t, "fluss", mod)
}

// connect returns a Flight SQL client and a context carrying its bearer
// token, authenticated as user.
func connect(t testing.TB, addr, user, password string) (*fsql.Client, context.Context) {
	t.Helper()
	cl, err := fsql.NewClient(addr, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.Close() })
	ctx, err := cl.Client.AuthenticateBasicToken(testkit.Context(t), user, password)
	if err != nil {
		t.Fatalf("authenticate %s: %v", user, err)
	}
	return cl, ctx
}

// fetch reads every record of a FlightInfo's endpoints into one table.
func fetch(t *testing.T, ctx context.Context, cl *fsql.Client, info *flight.FlightInfo) arrow.Table {
	t.Helper()
	var recs []arrow.RecordBatch
	var sc *arrow.Schema
	for _, ep := range info.Endpoint {
		rdr, err := cl.DoGet(ctx, ep.Ticket)
		if err != nil {
			t.Fatal(err)
		}
		sc = rdr.Schema()
		for rdr.Next() {
			rec := rdr.RecordBatch()
			rec.Retain()
			recs = append(recs, rec)
		}
		if err := rdr.Err(); err != nil {
			t.Fatal(err)
		}
		rdr.Release()
	}
	if sc == nil {
		var err error
		if sc, err = flight.DeserializeSchema(info.Schema, memory.DefaultAllocator); err != nil {
			t.Fatal(err)
		}
	}
	tbl := array.NewTableFromRecords(sc, recs)
	for _, r := range recs {
		r.Release()
	}
	t.Cleanup(tbl.Release)
	return tbl
}

func query(t *testing.T, ctx context.Context, cl *fsql.Client, sql string) arrow.Table {
	t.Helper()
	info, err := cl.Execute(ctx, sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return fetch(t, ctx, cl, info)
}

// newDatabase creates a database for one test, dropped at its end.
func newDatabase(t testing.TB, ctx context.Context, cl *fsql.Client, prefix string) string {
	t.Helper()
	db := testkit.UniqueName(prefix)
	update(t, ctx, cl, "CREATE DATABASE "+db)
	t.Cleanup(func() { _, _ = cl.ExecuteUpdate(context.Background(), "DROP DATABASE "+db+" CASCADE") })
	return db
}

// newKVTable makes a new database holding the primary-key table kv (id
// INT, name STRING) and returns the database.
func newKVTable(t testing.TB, ctx context.Context, cl *fsql.Client, prefix string) string {
	t.Helper()
	db := newDatabase(t, ctx, cl, prefix)
	update(t, ctx, cl, "CREATE TABLE "+db+".kv (id INT NOT NULL, name STRING, PRIMARY KEY (id) NOT ENFORCED)")
	return db
}

func update(t testing.TB, ctx context.Context, cl *fsql.Client, sql string) int64 {
	t.Helper()
	var n int64
	err := clustertest.ExecWithLeaders(t, sql, func(q string) (err error) {
		n, err = cl.ExecuteUpdate(ctx, q)
		return err
	})
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}

// column returns a table column's values as text.
func column(tbl arrow.Table, i int) []string {
	var out []string
	for _, chunk := range tbl.Column(i).Data().Chunks() {
		for j := range chunk.Len() {
			out = append(out, chunk.ValueStr(j))
		}
	}
	return out
}

func TestStatementsQueryUpdateAndTypes(t *testing.T) {
	addr, _ := startServer(t, nil)
	cl, ctx := connect(t, addr, clustertest.SASLUser, clustertest.SASLPassword)
	db := newDatabase(t, ctx, cl, "fsql")
	update(t, ctx, cl, "CREATE TABLE "+db+".kv (id INT NOT NULL, amount DECIMAL(10, 2), at TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), tags ARRAY<STRING>, PRIMARY KEY (id) NOT ENFORCED)")
	n := update(t, ctx, cl, "INSERT INTO "+db+".kv VALUES (1, 12.30, TIMESTAMP '2024-01-02 03:04:05.678', TIMESTAMP '2024-01-02 03:04:05.678', ARRAY['a', 'b']), (2, NULL, NULL, NULL, NULL)")
	if n != 2 {
		t.Fatalf("INSERT acknowledged %d rows, want 2", n)
	}
	tbl := query(t, ctx, cl, "SELECT * FROM "+db+".kv ORDER BY id")
	if tbl.NumRows() != 2 {
		t.Fatalf("%d rows, want 2", tbl.NumRows())
	}
	want := []struct {
		name string
		typ  arrow.DataType
	}{
		{"id", arrow.PrimitiveTypes.Int32},
		{"amount", &arrow.Decimal128Type{Precision: 10, Scale: 2}},
		{"at", &arrow.TimestampType{Unit: arrow.Millisecond}},
		{"ltz", &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}},
		{"tags", arrow.ListOf(arrow.BinaryTypes.String)},
	}
	// TIMESTAMP_LTZ is an instant: marked UTC, unlike the wall clock "at",
	// in the schema of the stream and in the one GetExecuteSchema gives.
	sameType := func(got, want arrow.DataType) bool {
		if _, ts := want.(*arrow.TimestampType); ts {
			return arrow.TypeEqual(got, want)
		}
		return got.ID() == want.ID()
	}
	for i, w := range want {
		f := tbl.Schema().Field(i)
		if f.Name != w.name || !sameType(f.Type, w.typ) {
			t.Errorf("column %d is %s %s, want %s %s", i, f.Name, f.Type, w.name, w.typ)
		}
	}
	planned, err := cl.GetExecuteSchema(ctx, "SELECT * FROM "+db+".kv")
	if err != nil {
		t.Fatal(err)
	}
	if sc, err := flight.DeserializeSchema(planned.Schema, memory.DefaultAllocator); err != nil || !sc.Equal(tbl.Schema()) {
		t.Errorf("GetExecuteSchema = %v, %v; the stream's schema is %v", sc, err, tbl.Schema())
	}
	if at := tbl.Column(3).Data().Chunk(0).(*array.Timestamp); at.Value(0).ToTime(arrow.Millisecond) != time.Date(2024, 1, 2, 3, 4, 5, 678e6, time.UTC) {
		t.Errorf("ltz = %v, want 2024-01-02 03:04:05.678 UTC", at.Value(0).ToTime(arrow.Millisecond))
	}
	update(t, ctx, cl, "CREATE TABLE "+db+".nested (ltzs ARRAY<TIMESTAMP_LTZ(6)>, r ROW<n INT, at TIMESTAMP(3)>)")
	nested := query(t, ctx, cl, "SELECT * FROM "+db+".nested")
	if got := nested.Schema().Field(0).Type.(*arrow.ListType).Elem(); !arrow.TypeEqual(got, &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}) {
		t.Errorf("ARRAY<TIMESTAMP_LTZ> elements are %s, want UTC-marked", got)
	}
	if got := nested.Schema().Field(1).Type.(*arrow.StructType).Field(1).Type; !arrow.TypeEqual(got, &arrow.TimestampType{Unit: arrow.Millisecond}) {
		t.Errorf("a ROW's TIMESTAMP is %s, want unmarked", got)
	}
	amount := tbl.Column(1).Data().Chunk(0).(*array.Decimal128)
	if got := amount.Value(0).ToString(2); got != "12.30" || !amount.IsNull(1) {
		t.Errorf("amount = %s, NULL %v", got, amount.IsNull(1))
	}
	// Statements that are not queries work through the query path too
	// (ADBC's cursor.execute runs everything that way).
	show := query(t, ctx, cl, "SHOW TABLES FROM "+db)
	if got := column(show, 0); len(got) != 2 || got[0] != "kv" || got[1] != "nested" {
		t.Errorf("SHOW TABLES = %q", got)
	}
	schema, err := cl.GetExecuteSchema(ctx, "SELECT id FROM "+db+".kv")
	if err != nil {
		t.Fatal(err)
	}
	if sc, err := flight.DeserializeSchema(schema.Schema, memory.DefaultAllocator); err != nil || sc.NumFields() != 1 {
		t.Errorf("GetExecuteSchema = %v, %v", sc, err)
	}
	_, err = cl.Execute(ctx, "SELEC nonsense")
	if status.Code(err) != codes.InvalidArgument {
		t.Errorf("a syntax error gives %v, want InvalidArgument", err)
	}
}

func TestPreparedStatementsWithArrowParameters(t *testing.T) {
	addr, _ := startServer(t, nil)
	cl, ctx := connect(t, addr, clustertest.SASLUser, clustertest.SASLPassword)
	db := newKVTable(t, ctx, cl, "fsqlp")

	ins, err := cl.Prepare(ctx, "INSERT INTO "+db+".kv VALUES (?, ?)")
	if err != nil {
		t.Fatal(err)
	}
	defer ins.Close(ctx)
	// The parameter schema types each placeholder as its column, which
	// clients that bind typed values (JDBC's setInt, setString) need.
	if got := fmt.Sprint(ins.ParameterSchema()); !strings.Contains(got, "id: type=int32") || !strings.Contains(got, "name: type=utf8") {
		t.Errorf("INSERT parameter schema = %s, want id int32 and name utf8", got)
	}
	params := paramRecord(t, []int32{1, 2, 3}, []string{"one", "two", "three"})
	defer params.Release()
	ins.SetParameters(params)
	n, err := ins.ExecuteUpdate(ctx)
	if err != nil || n != 3 {
		t.Fatalf("prepared INSERT = %d, %v; want 3 rows", n, err)
	}

	sel, err := cl.Prepare(ctx, "SELECT name FROM "+db+".kv WHERE id = ?")
	if err != nil {
		t.Fatal(err)
	}
	defer sel.Close(ctx)
	if sel.DatasetSchema() == nil || sel.DatasetSchema().Field(0).Name != "name" {
		t.Errorf("dataset schema = %v", sel.DatasetSchema())
	}
	if ps := sel.ParameterSchema(); ps == nil || ps.NumFields() != 1 || ps.Field(0).Name != "id" || ps.Field(0).Type.ID() != arrow.INT32 {
		t.Errorf("SELECT parameter schema = %v, want id int32", ps)
	}
	one := paramRecord(t, []int32{2}, nil)
	defer one.Release()
	sel.SetParameters(one)
	info, err := sel.Execute(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := column(fetch(t, ctx, cl, info), 0); len(got) != 1 || got[0] != "two" {
		t.Errorf("prepared SELECT = %q, want [two]", got)
	}
}

// paramRecord builds a parameter batch of ints (and strings when given).
func paramRecord(t *testing.T, ids []int32, names []string) arrow.RecordBatch {
	t.Helper()
	fields := []arrow.Field{{Name: "p1", Type: arrow.PrimitiveTypes.Int32}}
	if names != nil {
		fields = append(fields, arrow.Field{Name: "p2", Type: arrow.BinaryTypes.String})
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(fields, nil))
	defer b.Release()
	b.Field(0).(*array.Int32Builder).AppendValues(ids, nil)
	if names != nil {
		b.Field(1).(*array.StringBuilder).AppendValues(names, nil)
	}
	return b.NewRecordBatch()
}

func TestTransactionsAreWriteBatches(t *testing.T) {
	addr, _ := startServer(t, nil)
	cl, ctx := connect(t, addr, clustertest.SASLUser, clustertest.SASLPassword)
	db := newDatabase(t, ctx, cl, "fsqlt")
	update(t, ctx, cl, "CREATE TABLE "+db+".kv (id INT NOT NULL, PRIMARY KEY (id) NOT ENFORCED)")

	tx := beginWith(t, ctx, cl, "INSERT INTO "+db+".kv VALUES (1)")
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if got := query(t, ctx, cl, "SELECT * FROM "+db+".kv"); got.NumRows() != 0 {
		t.Errorf("rolled back INSERT left %d rows", got.NumRows())
	}
	tx = beginWith(t, ctx, cl, "INSERT INTO "+db+".kv VALUES (2)")
	stale, err := tx.Prepare(ctx, "INSERT INTO "+db+".kv VALUES (3)")
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	// A statement prepared in the ended transaction must not write
	// outside any batch.
	if _, err := stale.ExecuteUpdate(ctx); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("a statement of a committed transaction ran: %v", err)
	}
	if got := column(query(t, ctx, cl, "SELECT * FROM "+db+".kv"), 0); len(got) != 1 || got[0] != "2" {
		t.Errorf("committed INSERT reads back %q", got)
	}

	refusing, _ := startServer(t, func(c *flightsql.Config) { c.Session.RejectTx = true })
	cl2, ctx2 := connect(t, refusing, clustertest.SASLUser, clustertest.SASLPassword)
	if _, err := cl2.BeginTransaction(ctx2); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("BeginTransaction with tx=reject: %v, want FailedPrecondition", err)
	}
}

// beginWith begins a transaction and runs updates in it.
func beginWith(t *testing.T, ctx context.Context, cl *fsql.Client, updates ...string) *fsql.Txn {
	t.Helper()
	tx, err := cl.BeginTransaction(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range updates {
		if _, err := tx.ExecuteUpdate(ctx, u); err != nil {
			t.Fatalf("%s: %v", u, err)
		}
	}
	return tx
}

// TestIdleTransactionsAreRolledBack: a transaction without calls for the
// idle timeout is rolled back (its writes dropped, its handle unknown),
// while one in use stays open however long it lives.
func TestIdleTransactionsAreRolledBack(t *testing.T) {
	const idle = time.Second
	addr, _ := startServer(t, func(c *flightsql.Config) { c.IdleTimeout = idle })
	cl, ctx := connect(t, addr, clustertest.SASLUser, clustertest.SASLPassword)
	db := newDatabase(t, ctx, cl, "fsqlidle")
	update(t, ctx, cl, "CREATE TABLE "+db+".kv (id INT NOT NULL, PRIMARY KEY (id) NOT ENFORCED)")

	forgotten := beginWith(t, ctx, cl, "INSERT INTO "+db+".kv VALUES (1)")
	stmt, err := forgotten.Prepare(ctx, "INSERT INTO "+db+".kv VALUES (2)")
	if err != nil {
		t.Fatal(err)
	}
	busy := beginWith(t, ctx, cl)
	// busy is used every tenth of the timeout for three timeouts.
	for i := range 30 {
		if _, err := busy.ExecuteUpdate(ctx, fmt.Sprintf("INSERT INTO %s.kv VALUES (%d)", db, 10+i)); err != nil {
			t.Fatalf("insert %d into the busy transaction: %v", i, err)
		}
		time.Sleep(idle / 10)
	}
	if err := busy.Commit(ctx); err != nil {
		t.Fatalf("commit of the busy transaction: %v", err)
	}
	if _, err := stmt.ExecuteUpdate(ctx); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("a statement of the rolled back transaction: %v, want FailedPrecondition", err)
	}
	err = forgotten.Commit(ctx)
	if status.Code(err) != codes.NotFound || !strings.Contains(err.Error(), "rolled back after 1s without calls") {
		t.Errorf("commit of the idle transaction: %v, want NotFound saying it was rolled back", err)
	}
	got := column(query(t, ctx, cl, "SELECT * FROM "+db+".kv ORDER BY id"), 0)
	if len(got) != 30 || got[0] != "10" {
		t.Errorf("the table holds %q, want the 30 rows of the busy transaction only", got)
	}
}

func TestMetadata(t *testing.T) {
	addr, _ := startServer(t, nil)
	cl, ctx := connect(t, addr, clustertest.SASLUser, clustertest.SASLPassword)
	db := newDatabase(t, ctx, cl, "fsqlm")
	update(t, ctx, cl, "CREATE TABLE "+db+".orders (id BIGINT NOT NULL, region STRING NOT NULL, total DOUBLE, PRIMARY KEY (region, id) NOT ENFORCED)")
	update(t, ctx, cl, "CREATE TABLE "+db+".events (msg STRING)")

	info, err := cl.GetCatalogs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := column(fetch(t, ctx, cl, info), 0); len(got) != 1 || got[0] != flightsql.DefaultCatalog {
		t.Errorf("catalogs = %q", got)
	}
	info, err = cl.GetDBSchemas(ctx, &fsql.GetDBSchemasOpts{DbSchemaFilterPattern: &db})
	if err != nil {
		t.Fatal(err)
	}
	if got := column(fetch(t, ctx, cl, info), 1); len(got) != 1 || got[0] != db {
		t.Errorf("schemas like %s = %q", db, got)
	}
	pattern := "ord%"
	info, err = cl.GetTables(ctx, &fsql.GetTablesOpts{DbSchemaFilterPattern: &db, TableNameFilterPattern: &pattern, IncludeSchema: true})
	if err != nil {
		t.Fatal(err)
	}
	tables := fetch(t, ctx, cl, info)
	if got := column(tables, 2); len(got) != 1 || got[0] != "orders" {
		t.Fatalf("tables like ord%% = %q", got)
	}
	raw := tables.Column(4).Data().Chunk(0).(*array.Binary).Value(0)
	sc, err := flight.DeserializeSchema(raw, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	if sc.NumFields() != 3 || sc.Field(2).Name != "total" || sc.Field(2).Type.ID() != arrow.FLOAT64 {
		t.Errorf("orders schema = %v", sc)
	}
	info, err = cl.GetPrimaryKeys(ctx, fsql.TableRef{DBSchema: &db, Table: "orders"})
	if err != nil {
		t.Fatal(err)
	}
	if got := column(fetch(t, ctx, cl, info), 3); strings.Join(got, ",") != "region,id" {
		t.Errorf("primary key = %q", got)
	}
	info, err = cl.GetTableTypes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := column(fetch(t, ctx, cl, info), 0); len(got) != 1 || got[0] != "TABLE" {
		t.Errorf("table types = %q", got)
	}
	info, err = cl.GetXdbcTypeInfo(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := column(fetch(t, ctx, cl, info), 0); !contains(got, "DECIMAL") || !contains(got, "TIMESTAMP_LTZ") {
		t.Errorf("type info = %q", got)
	}
	info, err = cl.GetSqlInfo(ctx, []fsql.SqlInfo{fsql.SqlInfoFlightSqlServerName, fsql.SqlInfoIdentifierQuoteChar})
	if err != nil {
		t.Fatal(err)
	}
	if got := fetch(t, ctx, cl, info); got.NumRows() != 2 {
		t.Errorf("sql info has %d rows, want 2", got.NumRows())
	}
	info, err = cl.GetSqlInfo(ctx, []fsql.SqlInfo{fsql.SqlInfoDateTimeFunctions})
	if err != nil {
		t.Fatal(err)
	}
	if got := sqlInfoStrings(fetch(t, ctx, cl, info)); !contains(got, "NOW") || !contains(got, "CURRENT_DATE") {
		t.Errorf("date-time functions = %q", got)
	}
	if _, err := cl.GetExportedKeys(ctx, fsql.TableRef{Table: "orders"}); status.Code(err) != codes.Unimplemented {
		t.Errorf("GetExportedKeys: %v, want Unimplemented", err)
	}
}

// sqlInfoStrings is the string list value of the first row of a
// GetSqlInfo result (its value column is a dense union).
func sqlInfoStrings(tbl arrow.Table) []string {
	u := tbl.Column(1).Data().Chunk(0).(*array.DenseUnion)
	list, ok := u.Field(u.ChildID(0)).(*array.List)
	if !ok {
		return nil
	}
	start, end := list.ValueOffsets(int(u.ValueOffset(0)))
	vals := list.ListValues().(*array.String)
	var out []string
	for i := start; i < end; i++ {
		out = append(out, vals.Value(int(i)))
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestIngest(t *testing.T) {
	addr, _ := startServer(t, nil)
	cl, ctx := connect(t, addr, clustertest.SASLUser, clustertest.SASLPassword)
	db := newKVTable(t, ctx, cl, "fsqli")

	rec := paramRecord(t, []int32{1, 2, 1}, []string{"a", "b", "c"})
	defer rec.Release()
	ingest := func(table string, mode fsql.TableDefinitionOptionsTableNotExistOption) (int64, error) {
		rdr, err := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
		if err != nil {
			t.Fatal(err)
		}
		defer rdr.Release()
		return cl.ExecuteIngest(ctx, rdr, &fsql.ExecuteIngestOpts{
			Table:  table,
			Schema: &db,
			TableDefinitionOptions: &fsql.TableDefinitionOptions{
				IfNotExist: mode,
				IfExists:   fsql.TableDefinitionOptionsTableExistsOptionAppend,
			},
		})
	}
	// An upsert into the primary-key table: three rows acknowledged, two keys.
	if n, err := ingest("kv", fsql.TableDefinitionOptionsTableNotExistOptionFail); err != nil || n != 3 {
		t.Fatalf("ingest into kv = %d, %v", n, err)
	}
	if got := column(query(t, ctx, cl, "SELECT name FROM "+db+".kv ORDER BY id"), 0); strings.Join(got, ",") != "c,b" {
		t.Errorf("kv after ingest = %q", got)
	}
	// A new log table created from the batch's schema, appended to. The
	// table is new, so a loaded coordinator may miss it (see
	// clustertest.CreateWithLeaders).
	var n int64
	err := clustertest.CreateWithLeaders(t, func() (err error) {
		n, err = ingest("log", fsql.TableDefinitionOptionsTableNotExistOptionCreate)
		return err
	}, func() error {
		_, err := cl.ExecuteUpdate(ctx, "DROP TABLE IF EXISTS "+db+".log")
		return err
	})
	if err != nil || n != 3 {
		t.Fatalf("ingest creating log = %d, %v", n, err)
	}
	if got := query(t, ctx, cl, "SELECT * FROM "+db+".log"); got.NumRows() != 3 {
		t.Errorf("log has %d rows after ingest, want 3", got.NumRows())
	}
	if _, err := ingest("missing", fsql.TableDefinitionOptionsTableNotExistOptionFail); status.Code(err) != codes.NotFound {
		t.Errorf("ingest into a missing table: %v, want NotFound", err)
	}
}

// lockedBuffer is a log sink safe for the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestAuthentication(t *testing.T) {
	var logs lockedBuffer
	addr, _ := startServer(t, func(c *flightsql.Config) {
		c.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	cl, err := fsql.NewClient(addr, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx := testkit.Context(t)
	const wrong = "not-the-password"
	_, err = cl.Client.AuthenticateBasicToken(ctx, clustertest.SASLUser, wrong)
	if status.Code(err) != codes.Unauthenticated {
		t.Fatalf("a wrong password: %v, want Unauthenticated", err)
	}
	if strings.Contains(err.Error(), wrong) {
		t.Errorf("the error shows the password: %v", err)
	}
	if !strings.Contains(logs.String(), "authentication failed") || strings.Contains(logs.String(), wrong) {
		t.Errorf("the log does not record the failure or shows the password:\n%s", logs.String())
	}
	if _, err := cl.Execute(ctx, "SELECT 1"); status.Code(err) != codes.Unauthenticated {
		t.Errorf("a call without credentials: %v, want Unauthenticated", err)
	}

	// A user without rights reaches the cluster but Fluss's ACLs apply.
	lcl, lctx := connect(t, addr, clustertest.LimitedUser, clustertest.LimitedPassword)
	_, err = lcl.ExecuteUpdate(lctx, "CREATE DATABASE "+testkit.UniqueName("denied"))
	if status.Code(err) != codes.PermissionDenied {
		t.Errorf("CREATE DATABASE as %s: %v, want PermissionDenied", clustertest.LimitedUser, err)
	}

	anon, _ := startServer(t, func(c *flightsql.Config) {
		c.AllowAnonymous = true
		c.Client.Conn.Username, c.Client.Conn.Password = clustertest.SASLUser, clustertest.SASLPassword
	})
	acl, err := fsql.NewClient(anon, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer acl.Close()
	if _, err := acl.GetCatalogs(ctx); err != nil {
		t.Errorf("anonymous call with AllowAnonymous: %v", err)
	}
}

// TestOpenHandlesAreBoundedPerUser: a user keeps at most MaxOpenPerUser
// prepared statements and transactions open. One more evicts the user's
// least recently used prepared statement, never a transaction; with only
// transactions open it is refused. Other users are not affected.
func TestOpenHandlesAreBoundedPerUser(t *testing.T) {
	addr, _ := startServer(t, func(c *flightsql.Config) { c.MaxOpenPerUser = 3 })
	cl, ctx := connect(t, addr, clustertest.SASLUser, clustertest.SASLPassword)
	prepare := func(cl *fsql.Client, ctx context.Context) *fsql.PreparedStatement {
		t.Helper()
		p, err := cl.Prepare(ctx, "SHOW DATABASES")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = p.Close(context.Background()) })
		return p
	}
	run := func(p *fsql.PreparedStatement) error {
		_, err := p.Execute(ctx)
		return err
	}
	begin := func() (*fsql.Txn, error) {
		tx, err := cl.BeginTransaction(ctx)
		if err == nil {
			t.Cleanup(func() { _ = tx.Rollback(context.Background()) })
		}
		return tx, err
	}
	p1, p2 := prepare(cl, ctx), prepare(cl, ctx)
	tx1, err := begin()
	if err != nil {
		t.Fatal(err)
	}
	if err := run(p1); err != nil { // p2 is now the least recently used
		t.Fatal(err)
	}
	p3 := prepare(cl, ctx)
	if err := run(p2); status.Code(err) != codes.NotFound {
		t.Fatalf("the evicted statement: %v, want NotFound", err)
	}
	if err := run(p1); err != nil {
		t.Fatalf("a statement used since: %v", err)
	}
	// Two transactions more evict p3, then p1; a third finds only
	// transactions.
	for range 2 {
		if _, err := begin(); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []*fsql.PreparedStatement{p1, p3} {
		if err := run(p); status.Code(err) != codes.NotFound {
			t.Fatalf("a statement evicted by a transaction: %v, want NotFound", err)
		}
	}
	if _, err := begin(); status.Code(err) != codes.ResourceExhausted {
		t.Fatalf("a fourth transaction: %v, want ResourceExhausted", err)
	}
	other, octx := connect(t, addr, clustertest.LimitedUser, clustertest.LimitedPassword)
	prepare(other, octx)
	if err := tx1.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if err := run(prepare(cl, ctx)); err != nil {
		t.Fatalf("a statement once a transaction ended: %v", err)
	}
}

// TestBindsAreBoundedPerUser: the parameters bound to one user's prepared
// statements hold a bounded number of values in all; closing a statement
// gives its values back.
func TestBindsAreBoundedPerUser(t *testing.T) {
	addr, srv := startServer(t, nil)
	flightsql.SetBindBudget(srv, 10)
	cl, ctx := connect(t, addr, clustertest.SASLUser, clustertest.SASLPassword)
	db := newKVTable(t, ctx, cl, "fsqlq")
	ins, err := cl.Prepare(ctx, "INSERT INTO "+db+".kv VALUES (?, ?)")
	if err != nil {
		t.Fatal(err)
	}
	sel, err := cl.Prepare(ctx, "SELECT name FROM "+db+".kv WHERE id = ?")
	if err != nil {
		t.Fatal(err)
	}
	defer sel.Close(ctx)
	// 4 rows of 2 values hold 8 of the user's 10.
	four := paramRecord(t, []int32{1, 2, 3, 4}, []string{"a", "b", "c", "d"})
	defer four.Release()
	ins.SetParameters(four)
	if n, err := ins.ExecuteUpdate(ctx); err != nil || n != 4 {
		t.Fatalf("INSERT of 4 rows = %d, %v", n, err)
	}
	keys := func(ids ...int32) error {
		rec := paramRecord(t, ids, nil)
		defer rec.Release()
		sel.SetParameters(rec)
		_, err := sel.Execute(ctx)
		return err
	}
	if err := keys(1, 2, 3); status.Code(err) != codes.ResourceExhausted || !strings.Contains(err.Error(), "hold 8 bound values") {
		t.Fatalf("binding 3 more values: %v, want ResourceExhausted saying 8 are held", err)
	}
	if err := keys(1, 2); err != nil {
		t.Fatalf("binding the last 2 values: %v", err)
	}
	if err := ins.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if err := keys(1, 2, 3); err != nil {
		t.Fatalf("binding 3 values once the INSERT's are released: %v", err)
	}
}
