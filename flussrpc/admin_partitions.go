package flussrpc

import (
	"context"
	"sort"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
)

// PartitionValue is one key of a partition spec with its string value.
type PartitionValue struct {
	Key   string
	Value string
}

// PartitionInfo describes one partition of a partitioned table.
type PartitionInfo struct {
	ID int64
	// Spec holds the partition keys and values in the table's partition-key order.
	Spec []PartitionValue
}

// Name is the partition name Fluss uses for routing: the values in
// partition-key order joined by '$' (for example "us$2024-01-01").
func (p PartitionInfo) Name() string {
	vals := make([]string, len(p.Spec))
	for i, kv := range p.Spec {
		vals[i] = kv.Value
	}
	return strings.Join(vals, "$")
}

// QualifiedName is the display form "k=v/k2=v2" that Flink prints.
func (p PartitionInfo) QualifiedName() string {
	parts := make([]string, len(p.Spec))
	for i, kv := range p.Spec {
		parts[i] = kv.Key + "=" + kv.Value
	}
	return strings.Join(parts, "/")
}

// specPB turns a key/value map into the wire form, in key order so that
// requests are deterministic (the server matches keys by name).
func specPB(spec map[string]string) *pb.PbPartitionSpec {
	keys := make([]string, 0, len(spec))
	for k := range spec {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := &pb.PbPartitionSpec{}
	for _, k := range keys {
		out.PartitionKeyValues = append(out.PartitionKeyValues, &pb.PbKeyValue{Key: proto.String(k), Value: proto.String(spec[k])})
	}
	return out
}

// ListPartitionInfos lists the partitions of a table. A non-empty partial
// spec keeps only partitions whose values match every given key.
func (a *Admin) ListPartitionInfos(ctx context.Context, path TablePath, partial map[string]string) ([]PartitionInfo, error) {
	req := &pb.ListPartitionInfosRequest{TablePath: pbPath(path)}
	if len(partial) > 0 {
		req.PartialPartitionSpec = specPB(partial)
	}
	var resp pb.ListPartitionInfosResponse
	if err := callAnyRead(ctx, a.c, rpcListPartitionInfos, req, &resp); err != nil {
		return nil, err
	}
	out := make([]PartitionInfo, 0, len(resp.GetPartitionsInfo()))
	for _, p := range resp.GetPartitionsInfo() {
		info := PartitionInfo{ID: p.GetPartitionId()}
		for _, kv := range p.GetPartitionSpec().GetPartitionKeyValues() {
			info.Spec = append(info.Spec, PartitionValue{Key: kv.GetKey(), Value: kv.GetValue()})
		}
		out = append(out, info)
	}
	return out, nil
}

// newTableGrace is how long after a table's creation CreatePartition
// waits before adding its first partitions. A Fluss 0.9.1 coordinator that
// sees a partition before it has processed the creation of its table
// (both reach it through separate ZooKeeper watches) fails with a
// NullPointerException and is then left unable to elect bucket leaders for
// ANY table until it restarts. Observed with a partition created 60 ms
// after its table; one second is ample for the watch to be processed.
const newTableGrace = time.Second

// CreatePartition creates a partition from a full spec (every partition
// key). Right after the table's creation it first waits (see newTableGrace).
// Like CreateTable it returns once every bucket of the partition has a
// leader, or fails wrapping ErrNoLeaders; NoLeaderWait skips that wait.
func (a *Admin) CreatePartition(ctx context.Context, path TablePath, spec map[string]string, ignoreIfExists bool, opts ...CreateOption) error {
	info, err := a.GetTableInfo(ctx, path)
	if err != nil {
		return err
	}
	if age := time.Since(info.CreatedTime); age < newTableGrace {
		t := time.NewTimer(newTableGrace - age)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	// Field 3 of CreatePartitionRequest is named ignore_if_not_exists
	// upstream, but the server reads it as "ignore if it already exists".
	req := &pb.CreatePartitionRequest{TablePath: pbPath(path), PartitionSpec: specPB(spec), IgnoreIfNotExists: proto.Bool(ignoreIfExists)}
	if err := callCoordinator(ctx, a.c, rpcCreatePartition, req, &pb.CreatePartitionResponse{}); err != nil {
		return err
	}
	if applyCreateOptions(opts).noLeaderWait {
		return nil
	}
	return a.waitForLeaders(ctx, PhysicalPath{TablePath: path, Partition: partitionName(info.Descriptor.PartitionKeys, spec)})
}

// DropPartition drops a partition and its data.
func (a *Admin) DropPartition(ctx context.Context, path TablePath, spec map[string]string, ignoreIfNotExists bool) error {
	req := &pb.DropPartitionRequest{TablePath: pbPath(path), PartitionSpec: specPB(spec), IgnoreIfNotExists: proto.Bool(ignoreIfNotExists)}
	err := callCoordinator(ctx, a.c, rpcDropPartition, req, &pb.DropPartitionResponse{})
	a.c.meta.invalidate(PhysicalPath{TablePath: path})
	return err
}
