package flussrpc

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"strconv"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// TablePath names a table: database and table name (see schema.TablePath).
type TablePath = schema.TablePath

// pbPath is the wire form of a table path.
func pbPath(p TablePath) *pb.PbTablePath {
	return &pb.PbTablePath{DatabaseName: proto.String(p.Database), TableName: proto.String(p.Table)}
}

// PhysicalPath names the unit that owns buckets: a table, or one partition
// of a partitioned table.
type PhysicalPath struct {
	TablePath
	Partition string // partition name; "" for a non-partitioned table
}

// String renders "db.table" or "db.table$partition".
func (p PhysicalPath) String() string {
	if p.Partition == "" {
		return p.TablePath.String()
	}
	return p.TablePath.String() + "(" + p.Partition + ")"
}

// bucketKey names a bucket of a table by partition name ("" for none), as
// the writers and the log scanner key their per-bucket state.
type bucketKey struct {
	partition string
	bucket    int32
}

// ServerNode is one server of the cluster as the metadata reports it. The
// address is the one of the listener the client is connected through.
type ServerNode struct {
	ID   int32
	Host string
	Port int32
	Type ServerType
	Rack string
}

// Addr returns host:port.
func (n ServerNode) Addr() string {
	return net.JoinHostPort(n.Host, strconv.Itoa(int(n.Port)))
}

// UID is the node's identity as other Fluss clients print it: "cs-<id>"
// for the coordinator, "ts-<id>" for a tablet server.
func (n ServerNode) UID() string {
	if n.Type == ServerTypeCoordinator {
		return "cs-" + strconv.Itoa(int(n.ID))
	}
	return "ts-" + strconv.Itoa(int(n.ID))
}

func nodeFromPB(p *pb.PbServerNode, t ServerType) ServerNode {
	return ServerNode{ID: p.GetNodeId(), Host: p.GetHost(), Port: p.GetPort(), Type: t, Rack: p.GetRack()}
}

// clusterView is an immutable snapshot of the cluster's nodes.
type clusterView struct {
	coordinator ServerNode
	tablets     []ServerNode
	byID        map[int32]ServerNode
}

// route is the bucket layout of one physical path.
type route struct {
	tableID     int64
	partitionID int64             // -1 for non-partitioned tables
	leaders     map[int32]int32   // bucket -> leader node id; absent = no leader yet
	replicas    map[int32][]int32 // bucket -> replica node ids
}

// metadata caches the cluster view and the bucket routes of tables. Routes
// are dropped when a request reports stale routing and fetched again on
// the next use.
type metadata struct {
	mu      sync.RWMutex
	cluster clusterView
	routes  map[PhysicalPath]*route
}

func newMetadata() *metadata {
	return &metadata{routes: make(map[PhysicalPath]*route)}
}

func (m *metadata) view() clusterView {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.cluster
}

// setNodes replaces the node list and returns the addresses of the
// servers the new list no longer names. A reply without coordinator keeps
// the one known before: it says nothing about it.
func (m *metadata) setNodes(resp *pb.MetadataResponse) (left []string) {
	v := clusterView{byID: make(map[int32]ServerNode)}
	if cs := resp.GetCoordinatorServer(); cs != nil {
		v.coordinator = nodeFromPB(cs, ServerTypeCoordinator)
	}
	for _, ts := range resp.GetTabletServers() {
		n := nodeFromPB(ts, ServerTypeTabletServer)
		v.tablets = append(v.tablets, n)
		v.byID[n.ID] = n
	}
	m.mu.Lock()
	old := m.cluster
	if v.coordinator.Host == "" {
		v.coordinator = old.coordinator
	}
	m.cluster = v
	m.mu.Unlock()
	current := v.addrs()
	for a := range old.addrs() {
		if !current[a] {
			left = append(left, a)
		}
	}
	return left
}

// addrs is the set of the view's server addresses.
func (v clusterView) addrs() map[string]bool {
	out := make(map[string]bool, len(v.tablets)+1)
	if v.coordinator.Host != "" {
		out[v.coordinator.Addr()] = true
	}
	for _, n := range v.tablets {
		out[n.Addr()] = true
	}
	return out
}

// setNodes stores a reply's node list and closes the connections to the
// servers that left the cluster, so that they are not kept open for ever.
func (c *Client) setNodes(resp *pb.MetadataResponse) {
	for _, a := range c.meta.setNodes(resp) {
		c.pool.discard(a)
	}
}

func (m *metadata) cachedRoute(p PhysicalPath) *route {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.routes[p]
}

func (m *metadata) storeRoutes(resp *pb.MetadataResponse) {
	m.mu.Lock()
	defer m.mu.Unlock()
	names := make(map[int64]TablePath)
	for _, t := range resp.GetTableMetadata() {
		path := TablePath{Database: t.GetTablePath().GetDatabaseName(), Table: t.GetTablePath().GetTableName()}
		names[t.GetTableId()] = path
		m.routes[PhysicalPath{TablePath: path}] = newRoute(t.GetTableId(), -1, t.GetBucketMetadata())
	}
	for _, p := range resp.GetPartitionMetadata() {
		path, ok := names[p.GetTableId()]
		if !ok {
			continue
		}
		pp := PhysicalPath{TablePath: path, Partition: p.GetPartitionName()}
		m.routes[pp] = newRoute(p.GetTableId(), p.GetPartitionId(), p.GetBucketMetadata())
	}
}

func newRoute(tableID, partitionID int64, buckets []*pb.PbBucketMetadata) *route {
	r := &route{tableID: tableID, partitionID: partitionID,
		leaders: make(map[int32]int32, len(buckets)), replicas: make(map[int32][]int32, len(buckets))}
	for _, b := range buckets {
		r.replicas[b.GetBucketId()] = b.GetReplicaId()
		if b.LeaderId != nil {
			r.leaders[b.GetBucketId()] = b.GetLeaderId()
		}
	}
	return r
}

// invalidate forgets the routes of a table (all partitions when the
// partition name is empty and the table is partitioned).
func (m *metadata) invalidate(p PhysicalPath) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for k := range m.routes {
		if k.TablePath == p.TablePath && (p.Partition == "" || k.Partition == p.Partition) {
			delete(m.routes, k)
		}
	}
}

// refreshCluster fetches the node list from a live tablet server, the
// coordinator, or else the bootstrap addresses, in that order. A reply
// without tablet servers counts as stale (a starting cluster gives one);
// it and transport failures are retried with back-off (see retrier).
func (c *Client) refreshCluster(ctx context.Context) error {
	return c.refreshClusterWithin(ctx, 0, nil)
}

// refreshClusterWithin is refreshCluster that stops retrying once budget
// (if positive) has passed, returning the last failure.
// A final error (if final is set and says so) ends it too.
func (c *Client) refreshClusterWithin(ctx context.Context, budget time.Duration, final func(error) bool) error {
	r := newRetrierWithin(budget)
	for {
		err := c.fetchNodes(ctx)
		if err == nil || !IsRetriable(err) && !errors.Is(err, errNoTablets) || final != nil && final(err) {
			return err
		}
		ok, werr := r.again(ctx)
		if werr != nil {
			return errors.Join(werr, err)
		}
		if !ok {
			return err
		}
	}
}

var errNoTablets = errors.New("flussrpc: the cluster lists no tablet servers yet")

func (c *Client) fetchNodes(ctx context.Context) error {
	var errs []error
	for _, addr := range c.refreshCandidates() {
		var resp pb.MetadataResponse
		err := callAddr(ctx, c, addr, rpcGetMetadata, &pb.MetadataRequest{}, &resp)
		if err == nil && len(resp.GetTabletServers()) == 0 {
			err = errNoTablets
		}
		if err == nil {
			c.setNodes(&resp)
			return nil
		}
		if ctx.Err() != nil {
			return err
		}
		errs = append(errs, err)
	}
	if len(errs) == 1 {
		return errs[0]
	}
	return fmt.Errorf("flussrpc: no server answered a metadata request: %w", errors.Join(errs...))
}

// refreshCandidates lists the addresses to ask for metadata: live tablet
// servers in random order, then the coordinator, then the bootstrap list.
func (c *Client) refreshCandidates() []string {
	v := c.meta.view()
	var out []string
	for _, i := range rand.Perm(len(v.tablets)) {
		out = append(out, v.tablets[i].Addr())
	}
	if v.coordinator.Host != "" {
		out = append(out, v.coordinator.Addr())
	}
	seen := make(map[string]bool, len(out))
	for _, a := range out {
		seen[a] = true
	}
	for _, a := range c.cfg.Bootstrap {
		if !seen[a] {
			out = append(out, a)
		}
	}
	return out
}

// routeOf returns the bucket routes of a physical path, from the cache or
// fetched from the cluster.
func (c *Client) routeOf(ctx context.Context, p PhysicalPath) (*route, error) {
	if r := c.meta.cachedRoute(p); r != nil {
		return r, nil
	}
	return c.fetchRoute(ctx, p)
}

// fetchRoute asks the cluster for the bucket routes of a physical path
// and caches them.
func (c *Client) fetchRoute(ctx context.Context, p PhysicalPath) (*route, error) {
	req := &pb.MetadataRequest{TablePath: []*pb.PbTablePath{pbPath(p.TablePath)}}
	if p.Partition != "" {
		req.PartitionsPath = []*pb.PbPhysicalTablePath{{
			DatabaseName:  proto.String(p.Database),
			TableName:     proto.String(p.Table),
			PartitionName: proto.String(p.Partition),
		}}
	}
	var resp pb.MetadataResponse
	if err := callAnyRead(ctx, c, rpcGetMetadata, req, &resp); err != nil {
		return nil, c.explainMetadataError(ctx, p, err)
	}
	c.setNodes(&resp)
	c.meta.storeRoutes(&resp)
	if r := c.meta.cachedRoute(p); r != nil {
		return r, nil
	}
	return nil, fmt.Errorf("flussrpc: metadata for %s is missing from the server's answer", p)
}

// explainMetadataError improves on what 0.9 servers say when a metadata
// request names a missing table: UNKNOWN_SERVER_ERROR wrapping a Java stack
// trace. If the table indeed does not exist, report TABLE_NOT_EXIST.
func (c *Client) explainMetadataError(ctx context.Context, p PhysicalPath, err error) error {
	if !errors.Is(err, ErrUnknownServerError) {
		return err
	}
	var resp pb.TableExistsResponse
	if callAnyRead(ctx, c, rpcTableExists, &pb.TableExistsRequest{TablePath: pbPath(p.TablePath)}, &resp) == nil && !resp.GetExists() {
		return &Error{Code: CodeTableNotExist, Message: fmt.Sprintf("table %s does not exist", p.TablePath), API: APIKeyGetMetadata}
	}
	return err
}

// leaderOf returns the leader of one bucket, refreshing the route while
// none is elected yet (a table just created has no leaders for a moment).
// Its errors name the bucket and the cause.
func (c *Client) leaderOf(ctx context.Context, p PhysicalPath, bucket int32) (ServerNode, *route, error) {
	r := c.routingRetrier()
	for {
		rt, err := c.routeOf(ctx, p)
		if err != nil {
			return ServerNode{}, nil, fmt.Errorf("flussrpc: finding the leader of bucket %d of %s: %w", bucket, p, err)
		}
		if n, ok := c.leaderIn(rt, bucket); ok {
			return n, rt, nil
		}
		if _, ok := rt.leaders[bucket]; ok {
			// A leader we do not know: the node list is older than the route.
			if err := c.refreshCluster(ctx); err != nil {
				return ServerNode{}, nil, noLeaderError(p, bucket, err)
			}
		}
		c.meta.invalidate(p)
		if ok, err := r.again(ctx); !ok {
			return ServerNode{}, nil, noLeaderError(p, bucket, err)
		}
	}
}

// leaderIn returns the leader of a bucket of rt when it is elected and
// in the node list.
func (c *Client) leaderIn(rt *route, bucket int32) (ServerNode, bool) {
	id, ok := rt.leaders[bucket]
	if !ok {
		return ServerNode{}, false
	}
	n, ok := c.meta.view().byID[id]
	return n, ok
}

// noLeaderError is LEADER_NOT_AVAILABLE for one bucket, wrapping why the
// wait for it ended (nil: the attempts were used up).
func noLeaderError(p PhysicalPath, bucket int32, cause error) error {
	err := &Error{Code: CodeLeaderNotAvailable, Message: fmt.Sprintf("no leader for bucket %d of %s", bucket, p)}
	if cause == nil {
		return err
	}
	return fmt.Errorf("%w: %w", err, cause)
}
