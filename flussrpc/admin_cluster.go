package flussrpc

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
)

// ConfigEntry is one cluster configuration value as the coordinator sees it.
type ConfigEntry struct {
	Key string
	// Value is nil when the key is known but has no value.
	Value *string
	// Source is where the value comes from: DYNAMIC_SERVER_CONFIG (set at
	// run time) or INITIAL_SERVER_CONFIG (server.yaml).
	Source string
}

// ConfigOp is what an AlterConfig does. The values are the server's codes.
type ConfigOp int32

// Configuration operations. Append and Subtract edit list-valued keys.
const (
	ConfigSet      ConfigOp = 0
	ConfigDelete   ConfigOp = 1
	ConfigAppend   ConfigOp = 2
	ConfigSubtract ConfigOp = 3
)

// AlterConfig is one change of a configuration key. Value is ignored by
// ConfigDelete.
type AlterConfig struct {
	Key   string
	Value string
	Op    ConfigOp
}

// pb encodes the change; DELETE carries no value, as the server expects.
func (c AlterConfig) pb() *pb.PbAlterConfig {
	p := &pb.PbAlterConfig{ConfigKey: proto.String(c.Key), OpType: proto.Int32(int32(c.Op))}
	if c.Op != ConfigDelete {
		p.ConfigValue = proto.String(c.Value)
	}
	return p
}

// DescribeClusterConfigs returns every cluster configuration value.
func (a *Admin) DescribeClusterConfigs(ctx context.Context) ([]ConfigEntry, error) {
	var resp pb.DescribeClusterConfigsResponse
	if err := callAnyRead(ctx, a.c, rpcDescribeClusterConfigs, &pb.DescribeClusterConfigsRequest{}, &resp); err != nil {
		return nil, err
	}
	out := make([]ConfigEntry, 0, len(resp.GetConfigs()))
	for _, c := range resp.GetConfigs() {
		out = append(out, ConfigEntry{Key: c.GetConfigKey(), Value: c.ConfigValue, Source: c.GetConfigSource()})
	}
	return out, nil
}

// AlterClusterConfigs changes dynamic cluster configuration. The
// coordinator validates every change (only keys it declares dynamic are
// accepted) and applies all of them or none.
func (a *Admin) AlterClusterConfigs(ctx context.Context, changes ...AlterConfig) error {
	if len(changes) == 0 {
		return errors.New("flussrpc: AlterClusterConfigs needs at least one change")
	}
	req := &pb.AlterClusterConfigsRequest{}
	for _, c := range changes {
		if c.Key == "" {
			return errors.New("flussrpc: a configuration change needs a key")
		}
		req.AlterConfigs = append(req.AlterConfigs, c.pb())
	}
	return callCoordinator(ctx, a.c, rpcAlterClusterConfigs, req, &pb.AlterClusterConfigsResponse{})
}

// ServerTag marks tablet servers for the rebalancer. The values are the
// server's codes.
type ServerTag int32

// Server tags: a PermanentOffline server is drained by the next
// rebalance; a TemporaryOffline one keeps its replicas but loses
// leadership.
const (
	PermanentOffline ServerTag = 0
	TemporaryOffline ServerTag = 1
)

var serverTagNames = map[ServerTag]string{PermanentOffline: "PERMANENT_OFFLINE", TemporaryOffline: "TEMPORARY_OFFLINE"}

// String returns the server's name of the tag, e.g. "PERMANENT_OFFLINE".
func (t ServerTag) String() string { return enumName(serverTagNames, t) }

// ParseServerTag parses a tag name such as "temporary_offline" (any case).
func ParseServerTag(s string) (ServerTag, error) { return parseEnum(serverTagNames, "server tag", s) }

// AddServerTag tags tablet servers (coordinator). Tagging a server twice
// fails with ErrServerTagAlreadyExist, an unknown id with ErrServerNotExist.
func (a *Admin) AddServerTag(ctx context.Context, serverIDs []int32, tag ServerTag) error {
	req := &pb.AddServerTagRequest{ServerIds: serverIDs, ServerTag: proto.Int32(int32(tag))}
	return callCoordinator(ctx, a.c, rpcAddServerTag, req, &pb.AddServerTagResponse{})
}

// RemoveServerTag removes a tag from tablet servers (coordinator).
func (a *Admin) RemoveServerTag(ctx context.Context, serverIDs []int32, tag ServerTag) error {
	req := &pb.RemoveServerTagRequest{ServerIds: serverIDs, ServerTag: proto.Int32(int32(tag))}
	return callCoordinator(ctx, a.c, rpcRemoveServerTag, req, &pb.RemoveServerTagResponse{})
}

// RebalanceGoal is an objective of a rebalance. The values are the
// server's codes.
type RebalanceGoal int32

// Rebalance goals.
const (
	GoalReplicaDistribution RebalanceGoal = 0
	GoalLeaderDistribution  RebalanceGoal = 1
	GoalRackAware           RebalanceGoal = 2
)

var goalNames = map[RebalanceGoal]string{GoalReplicaDistribution: "REPLICA_DISTRIBUTION", GoalLeaderDistribution: "LEADER_DISTRIBUTION", GoalRackAware: "RACK_AWARE"}

// String returns the server's name of the goal.
func (g RebalanceGoal) String() string { return enumName(goalNames, g) }

// ParseRebalanceGoal parses a goal name such as "leader_distribution".
func ParseRebalanceGoal(s string) (RebalanceGoal, error) {
	return parseEnum(goalNames, "rebalance goal", s)
}

// RebalanceStatus is the state of a rebalance or of one bucket's move.
type RebalanceStatus int32

// Rebalance states.
const (
	RebalanceNotStarted  RebalanceStatus = 0
	RebalanceRebalancing RebalanceStatus = 1
	RebalanceFailed      RebalanceStatus = 2
	RebalanceCompleted   RebalanceStatus = 3
	RebalanceCanceled    RebalanceStatus = 4
)

var rebalanceStatusNames = map[RebalanceStatus]string{RebalanceNotStarted: "NOT_STARTED", RebalanceRebalancing: "REBALANCING", RebalanceFailed: "FAILED", RebalanceCompleted: "COMPLETED", RebalanceCanceled: "CANCELED"}

// String returns the server's name of the status.
func (s RebalanceStatus) String() string { return enumName(rebalanceStatusNames, s) }

// Done reports whether the status is final.
func (s RebalanceStatus) Done() bool { return s >= RebalanceFailed }

// BucketMove is the plan and state of one bucket in a rebalance.
type BucketMove struct {
	TableID          int64
	PartitionID      *int64
	Bucket           int32
	OriginalLeader   *int32
	NewLeader        *int32
	OriginalReplicas []int32
	NewReplicas      []int32
	Status           RebalanceStatus
}

// RebalanceProgress is the state of a rebalance.
type RebalanceProgress struct {
	ID     string
	Status RebalanceStatus
	Moves  []BucketMove
}

// Fraction is the share of bucket moves in a final state, 1 when there is
// nothing to move.
func (p *RebalanceProgress) Fraction() float64 {
	if len(p.Moves) == 0 {
		return 1
	}
	done := 0
	for _, m := range p.Moves {
		if m.Status.Done() {
			done++
		}
	}
	return float64(done) / float64(len(p.Moves))
}

// Rebalance starts a rebalance with the goals in priority order and
// returns its id (coordinator).
func (a *Admin) Rebalance(ctx context.Context, goals ...RebalanceGoal) (string, error) {
	if len(goals) == 0 {
		return "", errors.New("flussrpc: Rebalance needs at least one goal")
	}
	req := &pb.RebalanceRequest{}
	for _, g := range goals {
		req.Goals = append(req.Goals, int32(g))
	}
	var resp pb.RebalanceResponse
	if err := callCoordinator(ctx, a.c, rpcRebalance, req, &resp); err != nil {
		return "", err
	}
	return resp.GetRebalanceId(), nil
}

// ListRebalanceProgress returns the progress of a rebalance; id "" means
// the latest one. It returns nil and no error when there is none.
func (a *Admin) ListRebalanceProgress(ctx context.Context, id string) (*RebalanceProgress, error) {
	var resp pb.ListRebalanceProgressResponse
	if err := callCoordinator(ctx, a.c, rpcListRebalanceProgress, &pb.ListRebalanceProgressRequest{RebalanceId: optString(id)}, &resp); err != nil {
		return nil, err
	}
	if resp.RebalanceId == nil {
		return nil, nil
	}
	p := &RebalanceProgress{ID: resp.GetRebalanceId(), Status: RebalanceStatus(resp.GetRebalanceStatus())}
	for _, t := range resp.GetTableProgress() {
		for _, b := range t.GetBucketsProgress() {
			plan := b.GetRebalancePlan()
			p.Moves = append(p.Moves, BucketMove{
				TableID: t.GetTableId(), PartitionID: plan.PartitionId, Bucket: plan.GetBucketId(),
				OriginalLeader: plan.OriginalLeader, NewLeader: plan.NewLeader,
				OriginalReplicas: plan.GetOriginalReplicas(), NewReplicas: plan.GetNewReplicas(),
				Status: RebalanceStatus(b.GetRebalanceStatus()),
			})
		}
	}
	return p, nil
}

// CancelRebalance cancels a rebalance; id "" means the current one.
func (a *Admin) CancelRebalance(ctx context.Context, id string) error {
	return callCoordinator(ctx, a.c, rpcCancelRebalance, &pb.CancelRebalanceRequest{RebalanceId: optString(id)}, &pb.CancelRebalanceResponse{})
}

// SnapshotLease names one bucket's KV snapshot to pin.
type SnapshotLease struct {
	TableID     int64
	PartitionID *int64
	Bucket      int32
	SnapshotID  int64
}

// AcquireKVSnapshotLease pins KV snapshots under a lease id for a while, so
// that a reader of their files does not lose them to clean-up; acquiring
// again with the same id renews it. It returns the snapshots the server
// could not pin (no longer kept).
func (a *Admin) AcquireKVSnapshotLease(ctx context.Context, leaseID string, durationMillis int64, snapshots []SnapshotLease) ([]SnapshotLease, error) {
	if leaseID == "" || durationMillis <= 0 {
		return nil, fmt.Errorf("flussrpc: a KV snapshot lease needs an id and a positive duration (got %q, %d ms)", leaseID, durationMillis)
	}
	req := &pb.AcquireKvSnapshotLeaseRequest{LeaseId: proto.String(leaseID), LeaseDurationMs: proto.Int64(durationMillis)}
	byTable := map[int64]*pb.PbKvSnapshotLeaseForTable{}
	for _, s := range snapshots {
		t := byTable[s.TableID]
		if t == nil {
			t = &pb.PbKvSnapshotLeaseForTable{TableId: proto.Int64(s.TableID)}
			byTable[s.TableID] = t
			req.SnapshotsToLease = append(req.SnapshotsToLease, t)
		}
		t.BucketSnapshots = append(t.BucketSnapshots, &pb.PbKvSnapshotLeaseForBucket{
			PartitionId: s.PartitionID, BucketId: proto.Int32(s.Bucket), SnapshotId: proto.Int64(s.SnapshotID)})
	}
	var resp pb.AcquireKvSnapshotLeaseResponse
	if err := callCoordinator(ctx, a.c, rpcAcquireKVSnapshotLease, req, &resp); err != nil {
		return nil, err
	}
	var missing []SnapshotLease
	for _, t := range resp.GetUnavailableSnapshots() {
		for _, b := range t.GetBucketSnapshots() {
			missing = append(missing, SnapshotLease{TableID: t.GetTableId(), PartitionID: b.PartitionId, Bucket: b.GetBucketId(), SnapshotID: b.GetSnapshotId()})
		}
	}
	return missing, nil
}

// DropKVSnapshotLease ends a lease and unpins all its snapshots.
func (a *Admin) DropKVSnapshotLease(ctx context.Context, leaseID string) error {
	return callCoordinator(ctx, a.c, rpcDropKVSnapshotLease, &pb.DropKvSnapshotLeaseRequest{LeaseId: proto.String(leaseID)}, &pb.DropKvSnapshotLeaseResponse{})
}
