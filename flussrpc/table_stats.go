package flussrpc

import (
	"context"
	"slices"
)

// Partitions lists the partitions a read of the table covers, sorted by
// name: those matching the partial spec (nil: all) that keep accepts (nil:
// every one). A table without partitions has the one partition "", which
// the other calls take for "the whole table".
func (t *Table) Partitions(ctx context.Context, spec map[string]string, keep func(PartitionInfo) (bool, error)) ([]string, error) {
	if !t.info.Descriptor.IsPartitioned() {
		return []string{""}, nil
	}
	infos, err := t.c.Admin().ListPartitionInfos(ctx, t.info.Path, spec)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(infos))
	for _, info := range infos {
		if keep != nil {
			ok, err := keep(info)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
		}
		names = append(names, info.Name())
	}
	slices.Sort(names)
	return names, nil
}

// RowCount counts the rows of one partition ("" for a table without
// partitions) without reading them: a primary-key table from the servers'
// row counts (GET_TABLE_STATS; tables with the WAL changelog image keep
// none), a log table as the records between the earliest and the latest
// offset of every bucket.
func (t *Table) RowCount(ctx context.Context, partition string) (int64, error) {
	adm := t.c.Admin()
	path := t.info.Path
	var total int64
	if t.info.Descriptor.HasPrimaryKey() {
		counts, err := adm.GetTableStats(ctx, path, partition, nil)
		if err != nil {
			return 0, err
		}
		for _, n := range counts {
			total += n
		}
		return total, nil
	}
	early, err := adm.ListOffsets(ctx, path, partition, nil, OffsetEarliest())
	if err != nil {
		return 0, err
	}
	late, err := adm.ListOffsets(ctx, path, partition, nil, OffsetLatest())
	if err != nil {
		return 0, err
	}
	for b, l := range late {
		if n := l - early[b]; n > 0 {
			total += n
		}
	}
	return total, nil
}
