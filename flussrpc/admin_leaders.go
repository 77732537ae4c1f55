package flussrpc

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
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
// leader (or an auto-partitioned table lacked its pre-created partitions)
// when the client's request timeout, or the context if sooner, ended.
var ErrNoLeaders = errors.New("exists without bucket leaders")

// Pacing of the leader wait: quick at first (leaders are usually elected
// within a few hundred milliseconds), then at most twice a second.
const (
	leaderWaitFirst = 50 * time.Millisecond
	leaderWaitMax   = 500 * time.Millisecond
)

// boundLeaderWait bounds a wait for leaders or pre-created partitions by
// the request timeout, even under a later deadline: they come within a
// second or, the coordinator having missed the table, never; and a caller
// across a network (a Flight SQL client) must get ErrNoLeaders before its
// own deadline cuts the call short without one. One bound covers the
// whole wait of a table, its partitions included.
func (a *Admin) boundLeaderWait(ctx context.Context) (context.Context, context.CancelFunc) {
	if t := a.c.cfg.RequestTimeout; t > 0 {
		return context.WithTimeout(ctx, t)
	}
	return ctx, func() {}
}

// waitForLeaders waits, within boundLeaderWait, until every bucket of p
// has a leader the client knows.
func (a *Admin) waitForLeaders(ctx context.Context, p PhysicalPath) error {
	ctx, cancel := a.boundLeaderWait(ctx)
	defer cancel()
	return a.pollLeaders(ctx, p)
}

// pollLeaders polls the metadata until every bucket of p has a leader the
// client knows, or fails wrapping ErrNoLeaders when ctx ends first.
func (a *Admin) pollLeaders(ctx context.Context, p PhysicalPath) error {
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
// table itself, or of each partition it has. An auto-partitioned table
// gets its pre-created partitions from the coordinator right after its
// creation, so the wait first lets them appear (a coordinator that missed
// the table creates none). The whole wait ends within boundLeaderWait.
func (a *Admin) waitForTableLeaders(ctx context.Context, path TablePath, desc schema.TableDescriptor) error {
	ctx, cancel := a.boundLeaderWait(ctx)
	defer cancel()
	if !desc.IsPartitioned() {
		return a.pollLeaders(ctx, PhysicalPath{TablePath: path})
	}
	parts, err := a.pollPartitions(ctx, path, precreatedPartitions(desc))
	if err != nil {
		return err
	}
	for _, pi := range parts {
		if err := a.pollLeaders(ctx, PhysicalPath{TablePath: path, Partition: pi.Name()}); err != nil {
			return err
		}
	}
	return nil
}

// precreatedPartitions is how many partitions the coordinator creates
// with a new table: table.auto-partition.num-precreate (default 2) for an
// auto-partitioned table with one partition key, none otherwise (a 0.9.1
// coordinator pre-creates nothing for several keys; seen on the real
// server).
func precreatedPartitions(desc schema.TableDescriptor) int {
	if !strings.EqualFold(strings.TrimSpace(desc.Properties[schema.OptAutoPartitionEnabled]), "true") || len(desc.PartitionKeys) != 1 {
		return 0
	}
	n, err := strconv.Atoi(strings.TrimSpace(desc.Properties[schema.OptAutoPartitionPrecreate]))
	if err != nil {
		return defaultPrecreatedPartitions
	}
	return max(n, 0)
}

// defaultPrecreatedPartitions is the server's default of
// schema.OptAutoPartitionPrecreate.
const defaultPrecreatedPartitions = 2

// pollPartitions lists the partitions of a new table until there are at
// least want of them, or fails wrapping ErrNoLeaders when ctx ends first.
func (a *Admin) pollPartitions(ctx context.Context, path TablePath, want int) ([]PartitionInfo, error) {
	start := time.Now()
	delay := leaderWaitFirst
	for {
		parts, err := a.ListPartitionInfos(ctx, path, nil)
		if err != nil && ctx.Err() == nil {
			return nil, fmt.Errorf("flussrpc: table %s was created, listing its partitions: %w", path, err)
		}
		if err == nil && len(parts) >= want {
			return parts, nil
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("flussrpc: table %s %w: %d of its %s after %s (%w); the coordinator may have missed its creation: drop and create it again, or restart the coordinator",
				path, ErrNoLeaders, len(parts), plural.Count(want, "pre-created partition"), time.Since(start).Round(time.Millisecond), ctx.Err())
		case <-t.C:
		}
		delay = min(2*delay, leaderWaitMax)
	}
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
