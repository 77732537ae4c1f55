package flussrpc

import (
	"context"
	"errors"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/fakefluss"
)

// newFakeServer starts a scripted fake server (internal/fakefluss)
// advertising apis; it hands every request but API_VERSIONS to the test.
func newFakeServer(t *testing.T, apis ...APIKey) *fakefluss.Server {
	t.Helper()
	return newFakeServerWith(t, fakefluss.Config{}, apis...)
}

// newFakeServerWith is newFakeServer with more settings in cfg.
func newFakeServerWith(t *testing.T, cfg fakefluss.Config, apis ...APIKey) *fakefluss.Server {
	t.Helper()
	cfg.APIs = fakeAPIs(apis)
	return fakefluss.New(t, cfg)
}

// The fake numbers the APIs as this client does.
func TestFakeAPIKeysMatch(t *testing.T) {
	for _, k := range fakefluss.APIs() {
		if got, want := APIKey(k).String(), k.String(); got != want {
			t.Errorf("api key %d is %s here, %s in fakefluss", int16(k), got, want)
		}
	}
}

func fakeAPIs(apis []APIKey) []fakefluss.APIKey {
	out := make([]fakefluss.APIKey, len(apis))
	for i, k := range apis {
		out[i] = fakefluss.APIKey(k)
	}
	return out
}

// dialTest connects to the fake server with cfg.
func dialTest(t *testing.T, s *fakefluss.Server, cfg ConnConfig) *conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := dialConn(ctx, s.Addr(), cfg, nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(c.close)
	return c
}

// fakeCluster is a fake cluster (a coordinator and one tablet server
// leading every bucket) holding one table db.t; requests of the APIs it
// was made with are handed to the test, the rest the model answers.
type fakeCluster struct {
	*fakefluss.Cluster
	t       *testing.T
	c       *Client
	path    TablePath
	tableID int64
}

func newFakeCluster(t *testing.T, buckets int, apis ...APIKey) *fakeCluster {
	t.Helper()
	fc := fakefluss.NewCluster(t, fakefluss.ClusterConfig{Forward: fakeAPIs(apis)})
	f := &fakeCluster{Cluster: fc, t: t, path: TablePath{Database: "db", Table: "t"}}
	s, err := schema.NewSchema([]schema.Column{schema.NewColumn("k", schema.Int()), schema.NewColumn("v", schema.Int())}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.tableID, err = fc.CreateTable(f.path, schema.TableDescriptor{Schema: s, BucketCount: &buckets}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := NewClient(ctx, Config{Bootstrap: []string{fc.Bootstrap()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	f.c = c
	return f
}

// metadataRequests counts the GET_METADATA requests so far.
func (f *fakeCluster) metadataRequests() int { return f.Requests(fakefluss.GetMetadata) }

// table returns a Table handle for the fake table with the given schema.
func (f *fakeCluster) table(desc schema.TableDescriptor) *Table {
	info := &TableInfo{Path: f.path, TableID: f.tableID, SchemaID: 1, Descriptor: desc}
	return &Table{c: f.c, info: info, schemas: map[int32]schema.Schema{1: desc.Schema}}
}

// tableInfoReq is a small valid request used throughout the tests.
func tableInfoReq(table string) *pb.GetTableInfoRequest {
	return &pb.GetTableInfoRequest{TablePath: &pb.PbTablePath{
		DatabaseName: proto.String("db"), TableName: proto.String(table),
	}}
}

// tableInfoResp answers a tableInfoReq with table_id = id.
func tableInfoResp(id int64) *pb.GetTableInfoResponse {
	return &pb.GetTableInfoResponse{
		TableId: proto.Int64(id), SchemaId: proto.Int32(1), TableJson: []byte("{}"),
		CreatedTime: proto.Int64(1), ModifiedTime: proto.Int64(2),
	}
}

// tableName decodes the table name of a forwarded GET_TABLE_INFO request.
func tableName(t *testing.T, r fakefluss.Request) string {
	t.Helper()
	var req pb.GetTableInfoRequest
	if err := r.Decode(&req); err != nil {
		t.Fatalf("decode request: %v", err)
	}
	return req.GetTablePath().GetTableName()
}

// waitErr waits for an asynchronous call result.
func waitErr(t *testing.T, ch <-chan error) error {
	t.Helper()
	select {
	case err := <-ch:
		return err
	case <-time.After(5 * time.Second):
		t.Fatal("call did not return")
		return errors.New("unreachable")
	}
}
