package flussrpc_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/clustertest"
	"github.com/gofluss/fluss/internal/testkit"
)

// These tests run against the real cluster of internal/clustertest.

func newClient(t *testing.T, cfg flussrpc.Config) *flussrpc.Client {
	t.Helper()
	if len(cfg.Bootstrap) == 0 {
		cfg.Bootstrap = []string{clustertest.Bootstrap(t)}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := flussrpc.NewClient(ctx, cfg)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func testCtx(t testing.TB) context.Context { return testkit.Context(t) }

func uniqueName(prefix string) string { return testkit.UniqueName(prefix) }

// newDatabase creates a database dropped (with its tables) at cleanup.
func newDatabase(t *testing.T, adm *flussrpc.Admin) string {
	t.Helper()
	db := uniqueName("it")
	if err := adm.CreateDatabase(testCtx(t), db, schema.DatabaseDescriptor{}, false); err != nil {
		t.Fatalf("CreateDatabase(%s): %v", db, err)
	}
	t.Cleanup(func() { _ = adm.DropDatabase(context.Background(), db, true, true) })
	return db
}

func wantCode(t *testing.T, what string, err error, target *flussrpc.Error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("%s: error = %v, want %s", what, err, target.Code.Name())
	}
}

func TestServerNodes(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	nodes, err := c.Admin().GetServerNodes(testCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	var coords, tablets int
	for _, n := range nodes {
		switch n.Type {
		case flussrpc.ServerTypeCoordinator:
			coords++
		case flussrpc.ServerTypeTabletServer:
			tablets++
		}
		if n.Host == "" || n.Port == 0 {
			t.Errorf("node %+v has no address", n)
		}
	}
	if coords != 1 || tablets < 1 {
		t.Fatalf("GetServerNodes = %+v, want 1 coordinator and tablet servers", nodes)
	}
}

func TestDatabaseLifecycle(t *testing.T) {
	adm := newClient(t, flussrpc.Config{}).Admin()
	ctx := testCtx(t)
	db := uniqueName("dbl")
	desc := schema.DatabaseDescriptor{Comment: "a comment", CustomProperties: map[string]string{"owner": "go"}}
	if err := adm.CreateDatabase(ctx, db, desc, false); err != nil {
		t.Fatal(err)
	}
	defer adm.DropDatabase(context.Background(), db, true, true)

	wantCode(t, "second CreateDatabase", adm.CreateDatabase(ctx, db, desc, false), flussrpc.ErrDatabaseAlreadyExist)
	if err := adm.CreateDatabase(ctx, db, desc, true); err != nil {
		t.Fatalf("CreateDatabase(ignoreIfExists): %v", err)
	}
	if ok, err := adm.DatabaseExists(ctx, db); err != nil || !ok {
		t.Fatalf("DatabaseExists = %v, %v", ok, err)
	}
	if ok, err := adm.DatabaseExists(ctx, db+"_missing"); err != nil || ok {
		t.Fatalf("DatabaseExists(missing) = %v, %v", ok, err)
	}
	info, err := adm.GetDatabaseInfo(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if info.Descriptor.Comment != desc.Comment || info.Descriptor.CustomProperties["owner"] != "go" {
		t.Fatalf("GetDatabaseInfo descriptor = %+v, want %+v", info.Descriptor, desc)
	}
	if time.Since(info.CreatedTime) > time.Hour || info.ModifiedTime.Before(info.CreatedTime) {
		t.Fatalf("implausible times %v / %v", info.CreatedTime, info.ModifiedTime)
	}
	dbs, err := adm.ListDatabases(ctx)
	if err != nil || !slices.Contains(dbs, db) || !slices.Contains(dbs, "fluss") {
		t.Fatalf("ListDatabases = %v, %v; want %s and fluss", dbs, err, db)
	}
	_, err = adm.GetDatabaseInfo(ctx, db+"_missing")
	wantCode(t, "GetDatabaseInfo(missing)", err, flussrpc.ErrDatabaseNotExist)

	// A database with a table is only dropped with cascade.
	tbl := flussrpc.TablePath{Database: db, Table: "t"}
	mustCreate(t, adm, tbl, logTableDescriptor(t))
	wantCode(t, "DropDatabase(non-empty)", adm.DropDatabase(ctx, db, false, false), flussrpc.ErrDatabaseNotEmpty)
	if err := adm.DropDatabase(ctx, db, false, true); err != nil {
		t.Fatalf("DropDatabase(cascade): %v", err)
	}
	wantCode(t, "DropDatabase(missing)", adm.DropDatabase(ctx, db, false, false), flussrpc.ErrDatabaseNotExist)
	if err := adm.DropDatabase(ctx, db, true, false); err != nil {
		t.Fatalf("DropDatabase(ignoreIfNotExists): %v", err)
	}
}

func TestDatabaseBadNames(t *testing.T) {
	adm := newClient(t, flussrpc.Config{}).Admin()
	for _, name := range []string{"has space", "dot.name", "__reserved", ""} {
		err := adm.CreateDatabase(testCtx(t), name, schema.DatabaseDescriptor{}, false)
		wantCode(t, fmt.Sprintf("CreateDatabase(%q)", name), err, flussrpc.ErrInvalidDatabase)
	}
}

func logTableDescriptor(t *testing.T) schema.TableDescriptor {
	t.Helper()
	s, err := schema.NewSchema([]schema.Column{
		schema.NewColumn("id", schema.BigInt()),
		schema.NewColumn("msg", schema.String()),
	}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return schema.TableDescriptor{Schema: s}
}

// allTypesColumns has one column of every Fluss type, nested ones included.
func allTypesColumns() []schema.Column {
	row := schema.RowOf(
		schema.Field{Name: "x", Type: schema.Int()},
		schema.Field{Name: "y", Type: schema.String(), Description: "nested"},
	)
	cols := []schema.Column{
		schema.NewColumn("k", schema.Int().NotNull()),
		schema.NewColumn("c_bool", schema.Boolean()),
		schema.NewColumn("c_tinyint", schema.TinyInt()),
		schema.NewColumn("c_smallint", schema.SmallInt()),
		schema.NewColumn("c_bigint", schema.BigInt()),
		schema.NewColumn("c_float", schema.Float()),
		schema.NewColumn("c_double", schema.Double()),
		schema.NewColumn("c_char", schema.Char(5)),
		schema.NewColumn("c_string", schema.String()),
		schema.NewColumn("c_binary", schema.Binary(4)),
		schema.NewColumn("c_bytes", schema.Bytes()),
		schema.NewColumn("c_dec_compact", schema.Decimal(10, 2)),
		schema.NewColumn("c_dec_wide", schema.Decimal(38, 10)),
		schema.NewColumn("c_date", schema.Date()),
		schema.NewColumn("c_time", schema.Time(3)),
		schema.NewColumn("c_ts0", schema.Timestamp(0)),
		schema.NewColumn("c_ts9", schema.Timestamp(9)),
		schema.NewColumn("c_ltz3", schema.TimestampLTZ(3)),
		schema.NewColumn("c_ltz6", schema.TimestampLTZ(6)),
		schema.NewColumn("c_array", schema.ArrayOf(schema.Int())),
		schema.NewColumn("c_map", schema.MapOf(schema.String().NotNull(), schema.BigInt())),
		schema.NewColumn("c_row", row),
	}
	cols[1].Comment = "a boolean"
	return cols
}

func TestTableLifecycle(t *testing.T) {
	adm := newClient(t, flussrpc.Config{}).Admin()
	ctx := testCtx(t)
	db := newDatabase(t, adm)

	s, err := schema.NewSchema(allTypesColumns(), []string{"k"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	buckets := 3
	desc := schema.TableDescriptor{
		Schema:           s,
		Comment:          "all types",
		BucketCount:      &buckets,
		BucketKeys:       []string{"k"},
		Properties:       map[string]string{"table.log.ttl": "2d"},
		CustomProperties: map[string]string{"app": "fluss-go"},
	}
	path := flussrpc.TablePath{Database: db, Table: "all_types"}
	mustCreate(t, adm, path, desc)
	wantCode(t, "CreateTable(existing)", adm.CreateTable(ctx, path, desc, false), flussrpc.ErrTableAlreadyExist)
	if err := adm.CreateTable(ctx, path, desc, true); err != nil {
		t.Fatalf("CreateTable(ignoreIfExists): %v", err)
	}

	info, err := adm.GetTableInfo(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	got := info.Descriptor
	if len(got.Schema.Columns) != len(s.Columns) {
		t.Fatalf("got %d columns, want %d", len(got.Schema.Columns), len(s.Columns))
	}
	for i, c := range s.Columns {
		g := got.Schema.Columns[i]
		if g.Name != c.Name || !g.Type.Equal(c.Type) || g.Comment != c.Comment {
			t.Errorf("column %d = %s %s %q, want %s %s %q", i, g.Name, g.Type, g.Comment, c.Name, c.Type, c.Comment)
		}
	}
	if !slices.Equal(got.Schema.PrimaryKey, []string{"k"}) || !slices.Equal(got.BucketKeys, []string{"k"}) ||
		info.NumBuckets() != 3 || got.Comment != "all types" || got.CustomProperties["app"] != "fluss-go" ||
		got.Properties["table.log.ttl"] != "2d" {
		t.Fatalf("descriptor round trip: got %+v", got)
	}
	if info.TableID < 0 || info.SchemaID < 1 {
		t.Fatalf("TableID %d, SchemaID %d", info.TableID, info.SchemaID)
	}

	names, err := adm.ListTables(ctx, db)
	if err != nil || !slices.Equal(names, []string{"all_types"}) {
		t.Fatalf("ListTables = %v, %v", names, err)
	}
	if ok, err := adm.TableExists(ctx, path); err != nil || !ok {
		t.Fatalf("TableExists = %v, %v", ok, err)
	}
	missing := flussrpc.TablePath{Database: db, Table: "nope"}
	_, err = adm.GetTableInfo(ctx, missing)
	wantCode(t, "GetTableInfo(missing)", err, flussrpc.ErrTableNotExist)
	noDB := flussrpc.TablePath{Database: db + "_missing", Table: "t"}
	wantCode(t, "CreateTable(missing db)", adm.CreateTable(ctx, noDB, logTableDescriptor(t), false), flussrpc.ErrDatabaseNotExist)
	bad := flussrpc.TablePath{Database: db, Table: "bad name"}
	wantCode(t, "CreateTable(bad name)", adm.CreateTable(ctx, bad, logTableDescriptor(t), false), flussrpc.ErrInvalidTable)

	if err := adm.DropTable(ctx, path, false); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "DropTable(missing)", adm.DropTable(ctx, path, false), flussrpc.ErrTableNotExist)
	if err := adm.DropTable(ctx, path, true); err != nil {
		t.Fatalf("DropTable(ignoreIfNotExists): %v", err)
	}
}

func TestAlterTable(t *testing.T) {
	adm := newClient(t, flussrpc.Config{}).Admin()
	ctx := testCtx(t)
	db := newDatabase(t, adm)
	path := flussrpc.TablePath{Database: db, Table: "alter_me"}
	mustCreate(t, adm, path, logTableDescriptor(t))
	before, err := adm.GetTableInfo(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	added := schema.NewColumn("extra", schema.Decimal(20, 4))
	added.Comment = "added later"
	// The server takes option changes and schema changes in separate requests.
	mixed := adm.AlterTable(ctx, path, false, flussrpc.SetOption("table.datalake.freshness", "5min"), flussrpc.AddColumn(added))
	wantCode(t, "AlterTable(options and columns at once)", mixed, flussrpc.ErrInvalidAlterTable)
	if err := adm.AlterTable(ctx, path, false, flussrpc.SetOption("table.datalake.freshness", "5min"), flussrpc.SetOption("my.custom", "x")); err != nil {
		t.Fatalf("AlterTable(options): %v", err)
	}
	if err := adm.AlterTable(ctx, path, false, flussrpc.AddColumn(added)); err != nil {
		t.Fatalf("AlterTable(add column): %v", err)
	}
	after, err := adm.GetTableInfo(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	cols := after.Descriptor.Schema.Columns
	if len(cols) != 3 || cols[2].Name != "extra" || !cols[2].Type.Equal(added.Type) || cols[2].Comment != "added later" {
		t.Fatalf("columns after ADD COLUMN: %+v", cols)
	}
	if after.SchemaID != before.SchemaID+1 {
		t.Fatalf("schema id %d -> %d, want +1", before.SchemaID, after.SchemaID)
	}
	if after.Descriptor.Properties["table.datalake.freshness"] != "5min" || after.Descriptor.CustomProperties["my.custom"] != "x" {
		t.Fatalf("options after SET: %v / %v", after.Descriptor.Properties, after.Descriptor.CustomProperties)
	}
	old, err := adm.GetTableSchema(ctx, path, before.SchemaID)
	if err != nil || old.ID != before.SchemaID || len(old.Schema.Columns) != 2 {
		t.Fatalf("GetTableSchema(old) = %+v, %v", old, err)
	}
	latest, err := adm.GetTableSchema(ctx, path, -1)
	if err != nil || latest.ID != after.SchemaID {
		t.Fatalf("GetTableSchema(latest) = %+v, %v", latest, err)
	}

	if err := adm.AlterTable(ctx, path, false, flussrpc.ResetOption("table.datalake.freshness"), flussrpc.ResetOption("my.custom")); err != nil {
		t.Fatalf("AlterTable(reset): %v", err)
	}
	reset, err := adm.GetTableInfo(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := reset.Descriptor.Properties["table.datalake.freshness"]; ok {
		t.Errorf("table.datalake.freshness still set after RESET: %v", reset.Descriptor.Properties)
	}
	if _, ok := reset.Descriptor.CustomProperties["my.custom"]; ok {
		t.Errorf("my.custom still set after RESET: %v", reset.Descriptor.CustomProperties)
	}

	notNull := schema.NewColumn("nn", schema.Int().NotNull())
	if err := adm.AlterTable(ctx, path, false, flussrpc.AddColumn(notNull)); err == nil {
		t.Fatal("adding a NOT NULL column succeeded; the server should refuse it")
	}
	missing := flussrpc.TablePath{Database: db, Table: "missing"}
	wantCode(t, "AlterTable(missing)", adm.AlterTable(ctx, missing, false, flussrpc.SetOption("a", "b")), flussrpc.ErrTableNotExist)
	if err := adm.AlterTable(ctx, missing, true, flussrpc.SetOption("a", "b")); err != nil {
		t.Fatalf("AlterTable(missing, ignore): %v", err)
	}
}

func partitionedDescriptor(t *testing.T) schema.TableDescriptor {
	t.Helper()
	s, err := schema.NewSchema([]schema.Column{
		schema.NewColumn("id", schema.BigInt()),
		schema.NewColumn("region", schema.String()),
		schema.NewColumn("dt", schema.String()),
	}, []string{"id", "region", "dt"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	two := 2
	return schema.TableDescriptor{Schema: s, PartitionKeys: []string{"region", "dt"}, BucketCount: &two}
}

func TestPartitions(t *testing.T) {
	adm := newClient(t, flussrpc.Config{}).Admin()
	ctx := testCtx(t)
	db := newDatabase(t, adm)
	path := flussrpc.TablePath{Database: db, Table: "parted"}
	mustCreate(t, adm, path, partitionedDescriptor(t))
	specs := []map[string]string{
		{"region": "us", "dt": "2024-01-01"},
		{"region": "us", "dt": "2024-01-02"},
		{"region": "eu", "dt": "2024-01-01"},
	}
	for _, s := range specs {
		if err := adm.CreatePartition(ctx, path, s, false); err != nil {
			t.Fatalf("CreatePartition(%v): %v", s, err)
		}
	}
	wantCode(t, "CreatePartition(existing)", adm.CreatePartition(ctx, path, specs[0], false), flussrpc.ErrPartitionAlreadyExists)
	if err := adm.CreatePartition(ctx, path, specs[0], true); err != nil {
		t.Fatalf("CreatePartition(ignoreIfExists): %v", err)
	}
	wantCode(t, "CreatePartition(partial spec)", adm.CreatePartition(ctx, path, map[string]string{"region": "x"}, false), flussrpc.ErrPartitionSpecInvalid)

	all, err := adm.ListPartitionInfos(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range all {
		names = append(names, p.Name())
	}
	slices.Sort(names)
	if want := []string{"eu$2024-01-01", "us$2024-01-01", "us$2024-01-02"}; !slices.Equal(names, want) {
		t.Fatalf("partition names = %v, want %v", names, want)
	}
	us, err := adm.ListPartitionInfos(ctx, path, map[string]string{"region": "us"})
	if err != nil || len(us) != 2 {
		t.Fatalf("ListPartitionInfos(region=us) = %v, %v", us, err)
	}
	if q := us[0].QualifiedName(); q != "region=us/dt=2024-01-01" && q != "region=us/dt=2024-01-02" {
		t.Fatalf("QualifiedName = %q", q)
	}

	offsets, err := adm.ListOffsets(ctx, path, "us$2024-01-01", nil, flussrpc.OffsetLatest())
	if err != nil || len(offsets) != 2 || offsets[0] != 0 || offsets[1] != 0 {
		t.Fatalf("ListOffsets(partition) = %v, %v; want two buckets at 0", offsets, err)
	}

	if err := adm.DropPartition(ctx, path, specs[1], false); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "DropPartition(missing)", adm.DropPartition(ctx, path, specs[1], false), flussrpc.ErrPartitionNotExists)
	if err := adm.DropPartition(ctx, path, specs[1], true); err != nil {
		t.Fatalf("DropPartition(ignoreIfNotExists): %v", err)
	}

	plain := flussrpc.TablePath{Database: db, Table: "plain"}
	mustCreate(t, adm, plain, logTableDescriptor(t))
	wantCode(t, "CreatePartition(non-partitioned)", adm.CreatePartition(ctx, plain, specs[0], false), flussrpc.ErrTableNotPartitioned)
}

func TestListOffsetsAndLakeSnapshot(t *testing.T) {
	adm := newClient(t, flussrpc.Config{}).Admin()
	ctx := testCtx(t)
	db := newDatabase(t, adm)
	path := flussrpc.TablePath{Database: db, Table: "offsets"}
	desc := logTableDescriptor(t)
	three := 3
	desc.BucketCount = &three
	mustCreate(t, adm, path, desc)
	for _, spec := range []flussrpc.OffsetSpec{flussrpc.OffsetEarliest(), flussrpc.OffsetLatest(), flussrpc.OffsetAtTimestamp(time.Now().UnixMilli())} {
		got, err := adm.ListOffsets(ctx, path, "", nil, spec)
		if err != nil {
			t.Fatalf("ListOffsets(%s): %v", spec, err)
		}
		if len(got) != 3 {
			t.Fatalf("ListOffsets(%s) = %v, want 3 buckets", spec, got)
		}
		for b, off := range got {
			if off != 0 {
				t.Errorf("ListOffsets(%s) bucket %d = %d on an empty table", spec, b, off)
			}
		}
	}
	one, err := adm.ListOffsets(ctx, path, "", []int32{1}, flussrpc.OffsetLatest())
	if err != nil || len(one) != 1 {
		t.Fatalf("ListOffsets(bucket 1) = %v, %v", one, err)
	}
	missing := flussrpc.TablePath{Database: db, Table: "missing"}
	_, err = adm.ListOffsets(ctx, missing, "", nil, flussrpc.OffsetLatest())
	wantCode(t, "ListOffsets(missing table)", err, flussrpc.ErrTableNotExist)
	// With explicit buckets the route is looked up directly; 0.9 servers
	// answer that lookup with UNKNOWN_SERVER_ERROR for a missing table.
	_, err = adm.ListOffsets(ctx, missing, "", []int32{0}, flussrpc.OffsetLatest())
	wantCode(t, "ListOffsets(missing table, bucket 0)", err, flussrpc.ErrTableNotExist)

	_, err = adm.GetLatestLakeSnapshot(ctx, path)
	wantCode(t, "GetLatestLakeSnapshot(no lake)", err, flussrpc.ErrLakeSnapshotNotExist)
}

func TestBucketsStatsAndSnapshots(t *testing.T) {
	adm := newClient(t, flussrpc.Config{}).Admin()
	ctx := testCtx(t)
	db := newDatabase(t, adm)
	path := flussrpc.TablePath{Database: db, Table: "pk"}
	s, err := schema.NewSchema([]schema.Column{
		schema.NewColumn("k", schema.Int()), schema.NewColumn("v", schema.String()),
	}, []string{"k"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	two := 2
	mustCreate(t, adm, path, schema.TableDescriptor{Schema: s, BucketCount: &two})
	// GetTableStats waits for the new table's leaders; GetBuckets then sees them.
	stats, err := adm.GetTableStats(ctx, path, "", nil)
	if err != nil || len(stats) != 2 || stats[0] != 0 || stats[1] != 0 {
		t.Fatalf("GetTableStats(empty) = %v, %v", stats, err)
	}
	buckets, err := adm.GetBuckets(ctx, path, "")
	if err != nil || len(buckets) != 2 {
		t.Fatalf("GetBuckets = %+v, %v", buckets, err)
	}
	for i, b := range buckets {
		if b.Bucket != int32(i) || b.Leader < 0 || len(b.Replicas) == 0 {
			t.Errorf("bucket %d = %+v", i, b)
		}
	}
	snaps, err := adm.GetLatestKVSnapshots(ctx, path, "")
	if err != nil || len(snaps) != 2 {
		t.Fatalf("GetLatestKVSnapshots = %+v, %v", snaps, err)
	}
	_, err = adm.GetTableStats(ctx, flussrpc.TablePath{Database: db, Table: "missing"}, "", nil)
	wantCode(t, "GetTableStats(missing)", err, flussrpc.ErrTableNotExist)
}
