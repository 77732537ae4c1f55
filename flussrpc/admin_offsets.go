package flussrpc

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
)

// EarliestOffset is the fetch offset that means "from the start of the
// log"; servers resolve it themselves.
const EarliestOffset int64 = -2

// OffsetSpec selects which offset ListOffsets reports per bucket.
type OffsetSpec struct {
	kind      int32
	timestamp int64
}

// ListOffsetsRequest.offset_type values.
const (
	offsetEarliest  = 0
	offsetLatest    = 1
	offsetTimestamp = 2
)

// OffsetEarliest asks for the first offset still stored.
func OffsetEarliest() OffsetSpec { return OffsetSpec{kind: offsetEarliest} }

// OffsetLatest asks for the offset after the last committed record (the
// high watermark): a bounded read up to it sees everything written so far.
func OffsetLatest() OffsetSpec { return OffsetSpec{kind: offsetLatest} }

// OffsetAtTimestamp asks for the first offset whose commit time is at or
// after ms milliseconds since the epoch.
func OffsetAtTimestamp(ms int64) OffsetSpec { return OffsetSpec{kind: offsetTimestamp, timestamp: ms} }

// String names the spec: "earliest", "latest" or "timestamp(ms)".
func (s OffsetSpec) String() string {
	switch s.kind {
	case offsetEarliest:
		return "earliest"
	case offsetLatest:
		return "latest"
	default:
		return fmt.Sprintf("timestamp(%d)", s.timestamp)
	}
}

// ListOffsets returns the offset selected by spec for each bucket of a
// table (partition "" ) or of one partition (its name, see
// PartitionInfo.Name). A nil bucket list means every bucket. Requests go to
// each bucket's leader; stale routing is refreshed and retried.
func (a *Admin) ListOffsets(ctx context.Context, path TablePath, partition string, buckets []int32, spec OffsetSpec) (map[int32]int64, error) {
	if buckets == nil {
		info, err := a.GetTableInfo(ctx, path)
		if err != nil {
			return nil, err
		}
		for b := 0; b < info.NumBuckets(); b++ {
			buckets = append(buckets, int32(b))
		}
	}
	out := make(map[int32]int64, len(buckets))
	pp := PhysicalPath{TablePath: path, Partition: partition}
	err := a.c.perLeader(ctx, pp, buckets, func(n ServerNode, r *route, bs []int32) ([]int32, error) {
		req := &pb.ListOffsetsRequest{
			FollowerServerId: proto.Int32(-1),
			OffsetType:       proto.Int32(spec.kind),
			TableId:          proto.Int64(r.tableID),
			BucketId:         bs,
		}
		if r.partitionID >= 0 {
			req.PartitionId = proto.Int64(r.partitionID)
		}
		if spec.kind == offsetTimestamp {
			req.StartTimestamp = proto.Int64(spec.timestamp)
		}
		var resp pb.ListOffsetsResponse
		if err := callNode(ctx, a.c, n, rpcListOffsets, req, &resp); err != nil {
			return nil, err
		}
		return bucketValues(pp, resp.GetBucketsResp(), out, (*pb.PbListOffsetsRespForBucket).GetOffset)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// LakeSnapshot is the latest snapshot tiered to the data lake, with the log
// offset each bucket had reached in it.
type LakeSnapshot struct {
	SnapshotID int64
	Buckets    []LakeBucketOffset
}

// LakeBucketOffset is one bucket's position in a lake snapshot.
type LakeBucketOffset struct {
	PartitionID   int64 // -1 for non-partitioned tables
	PartitionName string
	Bucket        int32
	LogOffset     int64
}

// GetLatestLakeSnapshot returns the newest lake snapshot of a table. A table
// without one (lake disabled, or nothing tiered yet) gives an error for
// which errors.Is(err, ErrLakeSnapshotNotExist) holds.
func (a *Admin) GetLatestLakeSnapshot(ctx context.Context, path TablePath) (*LakeSnapshot, error) {
	var resp pb.GetLakeSnapshotResponse
	err := callAnyRead(ctx, a.c, rpcGetLakeSnapshot, &pb.GetLakeSnapshotRequest{TablePath: pbPath(path)}, &resp)
	if err != nil {
		var fe *Error
		if errors.As(err, &fe) && fe.Code == CodeLakeSnapshotNotExist {
			return nil, fmt.Errorf("flussrpc: table %s has no lake snapshot: %w", path, err)
		}
		return nil, err
	}
	snap := &LakeSnapshot{SnapshotID: resp.GetSnapshotId()}
	for _, b := range resp.GetBucketSnapshots() {
		pid := int64(-1)
		if b.PartitionId != nil {
			pid = b.GetPartitionId()
		}
		snap.Buckets = append(snap.Buckets, LakeBucketOffset{
			PartitionID: pid, PartitionName: b.GetPartitionName(), Bucket: b.GetBucketId(), LogOffset: b.GetLogOffset(),
		})
	}
	return snap, nil
}
