package flussrpc

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// A Fluss 0.9.1 coordinator under load sometimes misses a new table or
// partition and never elects leaders for its buckets; every write to it
// then fails with LEADER_NOT_AVAILABLE. So CreateTable and CreatePartition
// return only once every bucket has a leader, and otherwise say so while
// the caller can still do something about it.

// CreateOption adjusts CreateTable and CreatePartition.
type CreateOption func(*createOptions)

type createOptions struct {
	noLeaderWait bool
}

// NoLeaderWait makes CreateTable and CreatePartition return as soon as the
// coordinator accepted the request, without waiting for the buckets'
// leaders; the first reads and writes then wait for them instead.
func NoLeaderWait() CreateOption {
	return func(o *createOptions) { o.noLeaderWait = true }
}

func applyCreateOptions(opts []CreateOption) createOptions {
	var o createOptions
	for _, f := range opts {
		if f != nil {
			f(&o)
		}
	}
	return o
}

// ErrNoLeaders is wrapped by the error of CreateTable or CreatePartition
// when the table or partition was created but some bucket still had no
// leader when the context (or the client's request timeout) ended.
var ErrNoLeaders = errors.New("exists without bucket leaders")

// Pacing of the leader wait: quick at first (leaders are usually elected
// within a few hundred milliseconds), then at most twice a second.
const (
	leaderWaitFirst = 50 * time.Millisecond
	leaderWaitMax   = 500 * time.Millisecond
)

// waitForLeaders polls the metadata until every bucket of p has a leader
// the client knows, or until ctx (bounded by the request timeout) ends.
func (a *Admin) waitForLeaders(ctx context.Context, p PhysicalPath) error {
	ctx, cancel := a.c.withTimeout(ctx)
	defer cancel()
	start := time.Now()
	delay := leaderWaitFirst
	for {
		missing := a.bucketWithoutLeader(ctx, p)
		if missing == "" {
			return nil
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("flussrpc: %s %w: %s after %s (%w); the coordinator may have missed its creation: drop and create it again, or restart the coordinator",
				describePhys(p), ErrNoLeaders, missing, time.Since(start).Round(time.Millisecond), ctx.Err())
		case <-t.C:
		}
		delay = min(2*delay, leaderWaitMax)
	}
}

// bucketWithoutLeader returns "" when every bucket of p has a known
// leader, or else what is missing.
func (a *Admin) bucketWithoutLeader(ctx context.Context, p PhysicalPath) string {
	a.c.meta.invalidate(p)
	rt, err := a.c.routeOf(ctx, p)
	if err != nil {
		return "its metadata is not available: " + err.Error()
	}
	if len(rt.replicas) == 0 {
		return "the metadata lists no buckets yet"
	}
	view := a.c.meta.view()
	for b := range int32(len(rt.replicas)) {
		id, ok := rt.leaders[b]
		if !ok {
			return fmt.Sprintf("bucket %d of %d has no leader (LEADER_NOT_AVAILABLE)", b, len(rt.replicas))
		}
		if _, ok := view.byID[id]; !ok {
			if err := a.c.refreshCluster(ctx); err != nil {
				return fmt.Sprintf("the leader %d of bucket %d is not a known server: %v", id, b, err)
			}
			return fmt.Sprintf("the leader %d of bucket %d was not a known server", id, b)
		}
	}
	return ""
}

// describePhys names a table or partition for messages.
func describePhys(p PhysicalPath) string {
	if p.Partition == "" {
		return "table " + p.TablePath.String()
	}
	return "partition " + p.Partition + " of table " + p.TablePath.String()
}

// waitForTableLeaders waits for the buckets of a new table: those of the
// table itself, or of each partition it already has (auto-partitioned
// tables get theirs from the coordinator right after creation).
func (a *Admin) waitForTableLeaders(ctx context.Context, path TablePath, partitioned bool) error {
	if !partitioned {
		return a.waitForLeaders(ctx, PhysicalPath{TablePath: path})
	}
	parts, err := a.ListPartitionInfos(ctx, path, nil)
	if err != nil {
		return fmt.Errorf("flussrpc: table %s was created, listing its partitions: %w", path, err)
	}
	for _, pi := range parts {
		if err := a.waitForLeaders(ctx, PhysicalPath{TablePath: path, Partition: pi.Name()}); err != nil {
			return err
		}
	}
	return nil
}

// partitionName is the routing name of a full spec: its values in the
// table's partition-key order, joined by '$' (see PartitionInfo.Name).
func partitionName(keys []string, spec map[string]string) string {
	var pi PartitionInfo
	for _, k := range keys {
		pi.Spec = append(pi.Spec, PartitionValue{Key: k, Value: spec[k]})
	}
	return pi.Name()
}
