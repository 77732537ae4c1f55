package flussrpc

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// partitionResolver maps rows of a partitioned table to their partition and its
// id, creating missing partitions when dynamic creation is on (Java
// DynamicPartitionCreator).
type partitionResolver struct {
	t       *Table
	dynamic bool
	types   []schema.DataType
	idx     []int
	keys    []string

	mu  sync.Mutex
	ids map[string]int64
}

func newPartitionResolver(t *Table, dynamic bool) (*partitionResolver, error) {
	d := &t.info.Descriptor
	if !d.IsPartitioned() {
		return nil, nil
	}
	idx, err := d.PartitionKeyIndexes()
	if err != nil {
		return nil, err
	}
	return &partitionResolver{t: t, dynamic: dynamic, types: d.Schema.Types(), idx: idx, keys: d.PartitionKeys, ids: make(map[string]int64)}, nil
}

// rowTarget returns the physical path and partition id (-1 if none) of a row.
func rowTarget(ctx context.Context, t *Table, p *partitionResolver, row []any) (PhysicalPath, int64, error) {
	if p == nil {
		return physicalPathOf(t, ""), -1, nil
	}
	return p.resolve(ctx, row)
}

func (p *partitionResolver) resolve(ctx context.Context, row []any) (PhysicalPath, int64, error) {
	name, err := codec.PartitionNameOf(p.types, p.idx, row)
	if err != nil {
		return PhysicalPath{}, 0, err
	}
	phys := physicalPathOf(p.t, name)
	p.mu.Lock()
	id, ok := p.ids[name]
	p.mu.Unlock()
	if ok {
		return phys, id, nil
	}
	id, err = p.lookup(ctx, phys, row)
	if err != nil {
		return PhysicalPath{}, 0, err
	}
	p.mu.Lock()
	p.ids[name] = id
	p.mu.Unlock()
	return phys, id, nil
}

// lookup resolves a partition id through metadata, creating the partition
// (CREATE_PARTITION, ignore if it exists) when it is missing.
func (p *partitionResolver) lookup(ctx context.Context, phys PhysicalPath, row []any) (int64, error) {
	c := p.t.c
	rt, err := c.routeOf(ctx, phys)
	if err == nil {
		return rt.partitionID, nil
	}
	if !errors.Is(err, ErrPartitionNotExists) {
		return 0, fmt.Errorf("flussrpc: resolving partition %s: %w", phys, err)
	}
	if !p.dynamic {
		return 0, fmt.Errorf("flussrpc: partition %s does not exist and dynamic partition creation is disabled: %w", phys, err)
	}
	spec := make(map[string]string, len(p.keys))
	for i, k := range p.idx {
		v, err := codec.PartitionValueString(p.types[k], row[k])
		if err != nil {
			return 0, err
		}
		spec[p.keys[i]] = v
	}
	if err := c.Admin().CreatePartition(ctx, p.t.info.Path, spec, true); err != nil {
		return 0, fmt.Errorf("flussrpc: creating partition %s: %w", phys, err)
	}
	r := c.routingRetrier()
	for {
		c.meta.invalidate(phys)
		rt, err := c.routeOf(ctx, phys)
		if err == nil {
			return rt.partitionID, nil
		}
		if ok, werr := r.again(ctx); !ok {
			return 0, fmt.Errorf("flussrpc: partition %s was created but is not in the metadata: %w", phys, errors.Join(err, werr))
		}
	}
}

// physicalPathOf is the physical path of a partition ("" for none) of t.
func physicalPathOf(t *Table, partition string) PhysicalPath {
	return PhysicalPath{TablePath: t.info.Path, Partition: partition}
}
