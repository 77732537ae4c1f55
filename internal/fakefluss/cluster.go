package fakefluss

import (
	"fmt"
	"net"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// ClusterConfig describes a Cluster. The zero value is a coordinator and
// one tablet server that answer everything they model themselves.
type ClusterConfig struct {
	// Tablets is the number of tablet servers (default 1). Bucket b of
	// every table is led by tablet b mod Tablets.
	Tablets int
	// DefaultBuckets is the bucket count of a table created without one
	// (default 1, as the server's default.bucket.number).
	DefaultBuckets int
	// Forward lists APIs handed to the test (Cluster.Next) instead of
	// being answered by the model; they are advertised too.
	Forward []APIKey
}

// Cluster is an in-memory Fluss cluster: a coordinator and tablet servers
// on loopback ports sharing one model.
type Cluster struct {
	tb      testing.TB
	cfg     ClusterConfig
	coord   *Server
	tablets []*Server
	fwd     chan Request

	mu         sync.Mutex
	dbs        map[string]int64 // name -> created time
	tables     map[schema.TablePath]*table
	nextID     int64
	writerID   int64
	counts     map[APIKey]int
	leaderless map[int32]bool
}

// coordinatorAPIs are answered by the coordinator only, dataAPIs by the
// tablet servers only (bucket leaders), the rest by every server.
var (
	coordinatorAPIs = []APIKey{CreateDatabase, DropDatabase, CreateTable, DropTable}
	dataAPIs        = []APIKey{ProduceLog, FetchLog, PutKV, Lookup, ListOffsets, InitWriter, LimitScan, GetTableStats}
	sharedAPIs      = []APIKey{ListDatabases, DatabaseExists, GetDatabaseInfo, GetTableInfo, ListTables, TableExists, GetTableSchema, GetMetadata}
)

// StartCluster starts a cluster; Close stops it.
func StartCluster(cfg ClusterConfig) (*Cluster, error) {
	if cfg.Tablets <= 0 {
		cfg.Tablets = 1
	}
	if cfg.DefaultBuckets <= 0 {
		cfg.DefaultBuckets = 1
	}
	c := &Cluster{
		cfg: cfg, fwd: make(chan Request, 128), dbs: map[string]int64{"fluss": 1},
		tables: map[schema.TablePath]*table{}, nextID: 1, counts: map[APIKey]int{},
	}
	var err error
	c.coord, err = Start(Config{ServerType: Coordinator, APIs: c.advertised(coordinatorAPIs), Handle: c.handler(-1)})
	for i := 0; err == nil && i < cfg.Tablets; i++ {
		var s *Server
		s, err = Start(Config{ServerType: TabletServer, APIs: c.advertised(dataAPIs), Handle: c.handler(int32(i + 1))})
		if s != nil {
			c.tablets = append(c.tablets, s)
		}
	}
	if err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// NewCluster starts a cluster that is stopped when the test ends; Next
// and ExpectNone fail tb.
func NewCluster(tb testing.TB, cfg ClusterConfig) *Cluster {
	tb.Helper()
	c, err := StartCluster(cfg)
	if err != nil {
		tb.Fatalf("fakefluss: %v", err)
	}
	c.tb = tb
	tb.Cleanup(c.Close)
	return c
}

func (c *Cluster) advertised(own []APIKey) []APIKey {
	apis := slices.Concat(own, sharedAPIs, c.cfg.Forward)
	slices.Sort(apis)
	return slices.Compact(apis)
}

// Close stops every server of the cluster.
func (c *Cluster) Close() {
	for _, s := range append([]*Server{c.coord}, c.tablets...) {
		if s != nil {
			s.Close()
		}
	}
}

// Bootstrap is the coordinator's address, the client's bootstrap server.
func (c *Cluster) Bootstrap() string { return c.coord.Addr() }

// Requests reports how many requests of api the cluster received
// (answered or forwarded), API_VERSIONS not counted.
func (c *Cluster) Requests(api APIKey) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.counts[api]
}

// SetLeaderless makes the metadata list the given buckets of every table
// without a leader from now on (and every other bucket with one).
func (c *Cluster) SetLeaderless(buckets ...int32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.leaderless = map[int32]bool{}
	for _, b := range buckets {
		c.leaderless[b] = true
	}
}

// Next returns the next forwarded request, failing the test after Wait.
func (c *Cluster) Next() Request {
	mustTB(c.tb).Helper()
	return next(c.tb, c.fwd)
}

// ExpectNone fails the test if a request is forwarded within d.
func (c *Cluster) ExpectNone(d time.Duration) {
	mustTB(c.tb).Helper()
	expectNone(c.tb, c.fwd, d)
}

// Forwarded is the channel of forwarded requests, for tests that select
// on it together with other events.
func (c *Cluster) Forwarded() <-chan Request { return c.fwd }

// CreateTable creates a table as a CREATE_TABLE request would (creating
// its database if needed) and returns its table id.
func (c *Cluster) CreateTable(path schema.TablePath, desc schema.TableDescriptor) (int64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.dbs[path.Database]; !ok {
		c.dbs[path.Database] = now()
	}
	t, err := c.createTable(path, desc, false)
	if err != nil {
		return 0, err
	}
	return t.id, nil
}

// handler returns the request handler of the server with node id node
// (-1 for the coordinator).
func (c *Cluster) handler(node int32) func(Request) bool {
	return func(r Request) bool {
		c.mu.Lock()
		c.counts[r.API]++
		c.mu.Unlock()
		if slices.Contains(c.cfg.Forward, r.API) {
			c.fwd <- r
			return true
		}
		h, ok := handlers[r.API]
		if !ok || (node < 0 && slices.Contains(dataAPIs, r.API)) || (node >= 0 && slices.Contains(coordinatorAPIs, r.API)) {
			r.ReplyError(codeUnsupportedVersion, fmt.Sprintf("fakefluss: %s is not served here", r.API))
			return true
		}
		resp, err := h(c, node, r)
		if err != nil {
			e := asServerError(err)
			r.ReplyError(e.code, e.msg)
			return true
		}
		r.Reply(resp)
		return true
	}
}

// handlerFunc answers one decoded request under the model's lock.
type handlerFunc func(c *Cluster, node int32, r Request) (proto.Message, error)

// on adapts a typed handler: it decodes the request and takes the lock.
func on[M any, PM interface {
	*M
	proto.Message
}](fn func(c *Cluster, node int32, req PM) (proto.Message, error)) handlerFunc {
	return func(c *Cluster, node int32, r Request) (proto.Message, error) {
		req := PM(new(M))
		if err := r.Decode(req); err != nil {
			return nil, serverError{codeCorruptMessage, "fakefluss: bad " + r.API.String() + " request: " + err.Error()}
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		return fn(c, node, req)
	}
}

// handlers maps every API the model answers to its handler.
var handlers = map[APIKey]handlerFunc{
	GetMetadata:     on((*Cluster).metadata),
	CreateDatabase:  on((*Cluster).createDatabase),
	DropDatabase:    on((*Cluster).dropDatabase),
	ListDatabases:   on((*Cluster).listDatabases),
	DatabaseExists:  on((*Cluster).databaseExists),
	GetDatabaseInfo: on((*Cluster).databaseInfo),
	CreateTable:     on((*Cluster).createTableReq),
	DropTable:       on((*Cluster).dropTable),
	GetTableInfo:    on((*Cluster).tableInfo),
	ListTables:      on((*Cluster).listTables),
	TableExists:     on((*Cluster).tableExists),
	GetTableSchema:  on((*Cluster).tableSchema),
	InitWriter:      on((*Cluster).initWriter),
	PutKV:           on((*Cluster).putKV),
	Lookup:          on((*Cluster).lookup),
	ProduceLog:      on((*Cluster).produceLog),
	FetchLog:        on((*Cluster).fetchLog),
	ListOffsets:     on((*Cluster).listOffsets),
	LimitScan:       on((*Cluster).limitScan),
	GetTableStats:   on((*Cluster).tableStats),
}

func now() int64 { return time.Now().UnixMilli() }

func (c *Cluster) node(id int32, s *Server) *pb.PbServerNode {
	host, port, _ := net.SplitHostPort(s.Addr())
	p, _ := strconv.Atoi(port)
	return &pb.PbServerNode{NodeId: proto.Int32(id), Host: proto.String(host), Port: proto.Int32(int32(p))}
}

// leader is the node id of the tablet server leading bucket b.
func (c *Cluster) leader(b int32) int32 { return b%int32(len(c.tablets)) + 1 }

func (c *Cluster) metadata(_ int32, req *pb.MetadataRequest) (proto.Message, error) {
	resp := &pb.MetadataResponse{CoordinatorServer: c.node(0, c.coord)}
	for i, s := range c.tablets {
		resp.TabletServers = append(resp.TabletServers, c.node(int32(i+1), s))
	}
	for _, p := range req.GetTablePath() {
		t, err := c.table(p)
		if err != nil {
			return nil, err
		}
		tm := &pb.PbTableMetadata{
			TablePath: p, TableId: proto.Int64(t.id), SchemaId: proto.Int32(1), TableJson: t.json,
			CreatedTime: proto.Int64(t.created), ModifiedTime: proto.Int64(t.created),
		}
		for b := range int32(len(t.buckets)) {
			bm := &pb.PbBucketMetadata{BucketId: proto.Int32(b)}
			if !c.leaderless[b] {
				bm.LeaderId = proto.Int32(c.leader(b))
			}
			tm.BucketMetadata = append(tm.BucketMetadata, bm)
		}
		resp.TableMetadata = append(resp.TableMetadata, tm)
	}
	if len(req.GetPartitionsPath()) > 0 || len(req.GetPartitionsId()) > 0 {
		return nil, serverError{codePartitionNotExists, "fakefluss: partitions are not modelled"}
	}
	return resp, nil
}
