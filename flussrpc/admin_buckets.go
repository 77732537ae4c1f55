package flussrpc

import (
	"context"
	"fmt"
	"sort"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
)

// perLeader sends one request per bucket leader of a physical path. send
// gets the leader, the route and that leader's buckets, and returns the
// buckets whose answer said the routing was stale; those are retried after
// a metadata refresh, with back-off, for up to the request timeout
// (routingRetrier). A whole
// request failing with stale routing (a moved leader, a dead connection)
// retries all of its buckets.
func (c *Client) perLeader(ctx context.Context, pp PhysicalPath, buckets []int32,
	send func(n ServerNode, r *route, buckets []int32) (retry []int32, err error)) error {
	r := c.routingRetrier()
	todo := buckets
	for {
		retry, err := c.perLeaderOnce(ctx, pp, todo, send)
		if err != nil || len(retry) == 0 {
			return err
		}
		c.meta.invalidate(pp)
		if ok, err := r.again(ctx); !ok {
			if err == nil {
				err = fmt.Errorf("flussrpc: %s: buckets %v still have stale routing", pp, retry)
			}
			return err
		}
		todo = retry
	}
}

func (c *Client) perLeaderOnce(ctx context.Context, pp PhysicalPath, buckets []int32,
	send func(ServerNode, *route, []int32) ([]int32, error)) ([]int32, error) {
	byLeader := make(map[int32][]int32)
	nodes := make(map[int32]ServerNode)
	var rt *route
	for _, b := range buckets {
		n, r, err := c.leaderOf(ctx, pp, b)
		if err != nil {
			return nil, err
		}
		rt = r
		byLeader[n.ID] = append(byLeader[n.ID], b)
		nodes[n.ID] = n
	}
	var retry []int32
	for id, bs := range byLeader {
		again, err := send(nodes[id], rt, bs)
		if IsInvalidMetadata(err) {
			again, err = bs, nil
		}
		if err != nil {
			return nil, err
		}
		retry = append(retry, again...)
	}
	sort.Slice(retry, func(i, j int) bool { return retry[i] < retry[j] })
	return retry, nil
}

// bucketAnswer is a per-bucket entry of a response with error fields.
type bucketAnswer interface {
	GetBucketId() int32
	GetErrorCode() int32
	GetErrorMessage() string
}

// bucketValues files the per-bucket answers of one response: each value
// into out, and the buckets whose routing was stale into the returned list
// (to retry after a refresh). Any other bucket error fails the call.
func bucketValues[R bucketAnswer](pp PhysicalPath, answers []R, out map[int32]int64, value func(R) int64) ([]int32, error) {
	var retry []int32
	for _, br := range answers {
		berr := ErrorFromCode(br.GetErrorCode(), br.GetErrorMessage())
		switch {
		case IsInvalidMetadata(berr):
			retry = append(retry, br.GetBucketId())
		case berr != nil:
			return nil, fmt.Errorf("flussrpc: %s bucket %d: %w", pp, br.GetBucketId(), berr)
		default:
			out[br.GetBucketId()] = value(br)
		}
	}
	return retry, nil
}

// allBuckets returns 0..n-1 of a table, or the given list when non-nil.
func (a *Admin) allBuckets(ctx context.Context, path TablePath, buckets []int32) ([]int32, error) {
	if buckets != nil {
		return buckets, nil
	}
	info, err := a.GetTableInfo(ctx, path)
	if err != nil {
		return nil, err
	}
	out := make([]int32, info.NumBuckets())
	for b := range out {
		out[b] = int32(b)
	}
	return out, nil
}

// GetTableStats returns the row count of each bucket of a table (partition
// "") or of one partition; nil buckets means all. Primary-key tables need
// 'table.changelog.image' = 'FULL' (the default) for the server to count.
func (a *Admin) GetTableStats(ctx context.Context, path TablePath, partition string, buckets []int32) (map[int32]int64, error) {
	buckets, err := a.allBuckets(ctx, path, buckets)
	if err != nil {
		return nil, err
	}
	out := make(map[int32]int64, len(buckets))
	pp := PhysicalPath{TablePath: path, Partition: partition}
	err = a.c.perLeader(ctx, pp, buckets, func(n ServerNode, r *route, bs []int32) ([]int32, error) {
		req := &pb.GetTableStatsRequest{TableId: proto.Int64(r.tableID)}
		for _, b := range bs {
			br := &pb.PbTableStatsReqForBucket{BucketId: proto.Int32(b)}
			if r.partitionID >= 0 {
				br.PartitionId = proto.Int64(r.partitionID)
			}
			req.BucketsReq = append(req.BucketsReq, br)
		}
		var resp pb.GetTableStatsResponse
		if err := callNode(ctx, a.c, n, rpcGetTableStats, req, &resp); err != nil {
			return nil, err
		}
		return bucketValues(pp, resp.GetBucketsResp(), out, (*pb.PbTableStatsRespForBucket).GetRowCount)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// BucketInfo is where one bucket lives.
type BucketInfo struct {
	Bucket   int32
	Leader   int32 // -1 while no leader is elected
	Replicas []int32
}

// GetBuckets returns the leader and replicas of every bucket of a table
// (partition "") or of one partition, fresh from the cluster.
func (a *Admin) GetBuckets(ctx context.Context, path TablePath, partition string) ([]BucketInfo, error) {
	pp := PhysicalPath{TablePath: path, Partition: partition}
	a.c.meta.invalidate(pp)
	r, err := a.c.routeOf(ctx, pp)
	if err != nil {
		return nil, err
	}
	out := make([]BucketInfo, 0, len(r.replicas))
	for b, reps := range r.replicas {
		leader, ok := r.leaders[b]
		if !ok {
			leader = -1
		}
		out = append(out, BucketInfo{Bucket: b, Leader: leader, Replicas: reps})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Bucket < out[j].Bucket })
	return out, nil
}

// KVSnapshot is the latest completed KV snapshot of one bucket of a
// primary-key table; SnapshotID is -1 when the bucket has none yet.
type KVSnapshot struct {
	Bucket     int32
	SnapshotID int64
	LogOffset  int64 // the changelog offset the snapshot covers up to; -1 when none
}

// GetLatestKVSnapshots returns the latest KV snapshot of each bucket of a
// primary-key table (partition "" for non-partitioned tables).
func (a *Admin) GetLatestKVSnapshots(ctx context.Context, path TablePath, partition string) ([]KVSnapshot, error) {
	req := &pb.GetLatestKvSnapshotsRequest{TablePath: pbPath(path)}
	if partition != "" {
		req.PartitionName = proto.String(partition)
	}
	var resp pb.GetLatestKvSnapshotsResponse
	if err := callAnyRead(ctx, a.c, rpcGetLatestKVSnapshots, req, &resp); err != nil {
		return nil, err
	}
	out := make([]KVSnapshot, 0, len(resp.GetLatestSnapshots()))
	for _, s := range resp.GetLatestSnapshots() {
		snap := KVSnapshot{Bucket: s.GetBucketId(), SnapshotID: -1, LogOffset: -1}
		if s.SnapshotId != nil {
			snap.SnapshotID = s.GetSnapshotId()
		}
		if s.LogOffset != nil {
			snap.LogOffset = s.GetLogOffset()
		}
		out = append(out, snap)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Bucket < out[j].Bucket })
	return out, nil
}
