package flussrpc_test

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/clustertest"
	"github.com/gofluss/fluss/internal/peertest"
)

// peerTable is the table description printed by peers/pyfluss/peer.py.
type peerTable struct {
	TableID          int64             `json:"table_id"`
	SchemaID         int32             `json:"schema_id"`
	Columns          [][2]string       `json:"columns"`
	PrimaryKeys      []string          `json:"primary_keys"`
	BucketKeys       []string          `json:"bucket_keys"`
	PartitionKeys    []string          `json:"partition_keys"`
	NumBuckets       int               `json:"num_buckets"`
	Comment          *string           `json:"comment"`
	Properties       map[string]string `json:"properties"`
	CustomProperties map[string]string `json:"custom_properties"`
}

// peerTypeName renders a type the way pyfluss prints it (the Rust core's
// lower-case display). It is the only place that knows that spelling.
func peerTypeName(t schema.DataType) string {
	var s string
	switch t.Root {
	case schema.RootBoolean:
		s = "boolean"
	case schema.RootTinyInt:
		s = "tinyint"
	case schema.RootSmallInt:
		s = "smallint"
	case schema.RootInt:
		s = "int"
	case schema.RootBigInt:
		s = "bigint"
	case schema.RootFloat:
		s = "float"
	case schema.RootDouble:
		s = "double"
	case schema.RootString:
		s = "string"
	case schema.RootBytes:
		s = "bytes"
	case schema.RootDate:
		s = "date"
	case schema.RootDecimal:
		s = "decimal(" + strconv.Itoa(t.Precision) + "," + strconv.Itoa(t.Scale) + ")"
	case schema.RootArray:
		s = "array<" + peerTypeName(*t.Elem) + ">"
	default:
		return strings.ToLower(t.String())
	}
	if !t.Nullable {
		s += " NOT NULL"
	}
	return s
}

func checkSameTable(t *testing.T, ours *flussrpc.TableInfo, peer peerTable) {
	t.Helper()
	d := ours.Descriptor
	if peer.TableID != ours.TableID || peer.SchemaID != ours.SchemaID {
		t.Errorf("ids: peer %d/%d, ours %d/%d", peer.TableID, peer.SchemaID, ours.TableID, ours.SchemaID)
	}
	if len(peer.Columns) != len(d.Schema.Columns) {
		t.Fatalf("peer sees %d columns, we see %d", len(peer.Columns), len(d.Schema.Columns))
	}
	for i, c := range d.Schema.Columns {
		if want := [2]string{c.Name, peerTypeName(c.Type)}; peer.Columns[i] != want {
			t.Errorf("column %d: peer %v, ours %v", i, peer.Columns[i], want)
		}
	}
	eq := func(what string, a, b []string) {
		if !slices.Equal(a, b) && !(len(a) == 0 && len(b) == 0) {
			t.Errorf("%s: peer %v, ours %v", what, a, b)
		}
	}
	eq("primary key", peer.PrimaryKeys, d.Schema.PrimaryKey)
	eq("bucket keys", peer.BucketKeys, d.BucketKeys)
	eq("partition keys", peer.PartitionKeys, d.PartitionKeys)
	if peer.NumBuckets != ours.NumBuckets() {
		t.Errorf("buckets: peer %d, ours %d", peer.NumBuckets, ours.NumBuckets())
	}
	if peer.Comment == nil && d.Comment != "" || peer.Comment != nil && *peer.Comment != d.Comment {
		t.Errorf("comment: peer %v, ours %q", peer.Comment, d.Comment)
	}
	if !maps.Equal(peer.Properties, d.Properties) {
		t.Errorf("properties: peer %v, ours %v", peer.Properties, d.Properties)
	}
	if !maps.Equal(peer.CustomProperties, d.CustomProperties) && len(peer.CustomProperties)+len(d.CustomProperties) > 0 {
		t.Errorf("custom properties: peer %v, ours %v", peer.CustomProperties, d.CustomProperties)
	}
}

// TestPeerDescribesOurTable: a table created by this client is described
// identically by pyfluss.
func TestPeerDescribesOurTable(t *testing.T) {
	bootstrap := clustertest.Bootstrap(t)
	adm := newClient(t, flussrpc.Config{}).Admin()
	ctx := testCtx(t)
	db := newDatabase(t, adm)

	s, err := schema.NewSchema([]schema.Column{
		schema.NewColumn("id", schema.BigInt()),
		schema.NewColumn("region", schema.String()),
		schema.NewColumn("amount", schema.Decimal(12, 3)),
		schema.NewColumn("flag", schema.Boolean()),
		schema.NewColumn("tags", schema.ArrayOf(schema.String())),
		schema.NewColumn("day", schema.Date()),
		schema.NewColumn("raw", schema.Bytes()),
	}, []string{"id", "region"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	four := 4
	desc := schema.TableDescriptor{
		Schema: s, Comment: "made in Go", PartitionKeys: []string{"region"}, BucketKeys: []string{"id"},
		BucketCount: &four, Properties: map[string]string{"table.log.ttl": "5d"},
		CustomProperties: map[string]string{"origin": "go"},
	}
	path := flussrpc.TablePath{Database: db, Table: "from_go"}
	mustCreate(t, adm, path, desc)
	ours, err := adm.GetTableInfo(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	var peer peerTable
	if perr := peertest.Run(t, bootstrap, nil, &peer, "describe", db, "from_go"); perr != nil {
		t.Fatalf("peer describe: %+v", perr)
	}
	checkSameTable(t, ours, peer)

	// The peer sees our error codes too: a missing table is code 7 for both.
	perr := peertest.Run(t, bootstrap, nil, nil, "describe", db, "missing")
	if perr == nil || perr.Code != int(flussrpc.CodeTableNotExist) {
		t.Fatalf("peer describe(missing) = %+v, want code %d", perr, flussrpc.CodeTableNotExist)
	}
}

// TestWeDescribePeerTable: a table created by pyfluss is described by this
// client as pyfluss itself describes it.
func TestWeDescribePeerTable(t *testing.T) {
	bootstrap := clustertest.Bootstrap(t)
	adm := newClient(t, flussrpc.Config{}).Admin()
	ctx := testCtx(t)
	db := newDatabase(t, adm)
	spec := map[string]any{
		"columns": [][2]string{
			{"k", "int32"}, {"name", "string"}, {"score", "float64"}, {"big", "int64"},
			{"price", "decimal128(20,4)"}, {"nums", "list<int64>"},
		},
		"primary_keys":      []string{"k"},
		"bucket_count":      2,
		"comment":           "made in Python",
		"properties":        map[string]string{"table.log.ttl": "1d"},
		"custom_properties": map[string]string{"origin": "python"},
	}
	var peer peerTable
	if perr := peertest.Run(t, bootstrap, spec, &peer, "create-table", db, "from_py"); perr != nil {
		t.Fatalf("peer create-table: %+v", perr)
	}
	ours, err := adm.GetTableInfo(ctx, flussrpc.TablePath{Database: db, Table: "from_py"})
	if err != nil {
		t.Fatal(err)
	}
	checkSameTable(t, ours, peer)
	want := []schema.DataType{
		schema.Int().NotNull(), schema.String(), schema.Double(), schema.BigInt(),
		schema.Decimal(20, 4), schema.ArrayOf(schema.BigInt()),
	}
	for i, w := range want {
		if got := ours.Descriptor.Schema.Columns[i].Type; !got.Equal(w) {
			t.Errorf("column %d type = %s, want %s", i, got, w)
		}
	}
	var dbs []string
	peertest.Run(t, bootstrap, nil, &dbs, "databases")
	if !slices.Contains(dbs, db) {
		t.Fatalf("peer lists databases %v without %s", dbs, db)
	}
}
