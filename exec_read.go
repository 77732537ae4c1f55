package fluss

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/planner"
	"github.com/gofluss/fluss/typeconv"
)

// executeData runs the write and read plans; done is false for others.
func (c *conn) executeData(ctx context.Context, p planner.Plan, b *binder) (rows driver.Rows, n int64, done bool, err error) {
	switch p := p.(type) {
	case *planner.Transaction:
		return nil, 0, true, c.execTransaction(ctx, p)
	case *planner.Flush:
		return nil, 0, true, c.execFlush(ctx, p)
	case *planner.Append:
		n, err = c.execAppend(ctx, p, b)
		return nil, n, true, err
	case *planner.Upsert:
		n, err = c.execUpsert(ctx, p, b)
		return nil, n, true, err
	case *planner.Delete:
		n, err = c.execDelete(ctx, p, b)
		return nil, n, true, err
	case *planner.Update:
		n, err = c.execUpdate(ctx, p, b)
		return nil, n, true, err
	case *planner.InfoSchema:
		rows, err := c.infoSchema(ctx, p, b)
		if err != nil {
			return nil, 0, true, err
		}
		return newMemRows(p.Output, rows, c.outOptions()), 0, true, nil
	case *planner.Lookup, *planner.PrefixLookup, *planner.Count, *planner.LimitScan,
		*planner.LogScan, *planner.KvScan, *planner.ChangelogScan, *planner.Sort:
		rows, err = c.query(ctx, p.(planner.QueryPlan), b)
		return rows, 0, true, err
	}
	return nil, 0, false, nil
}

// query runs a read plan. Results that are small by construction
// (lookups, COUNT, LIMIT scans) are read at once into memRows; scans
// stream through scanRows.
func (c *conn) query(ctx context.Context, p planner.QueryPlan, b *binder) (driver.Rows, error) {
	src, pl, err := c.openScan(ctx, p, b)
	if err != nil {
		return nil, err
	}
	if s, ok := src.(*sliceSource); ok {
		return newMemRows(p.OutputColumns(), s.rows, c.outOptions()), nil
	}
	return newScanRows(ctx, p.OutputColumns(), c.outOptions(), src, pl), nil
}

// openScan prepares a read plan: a source of rows plus the pipeline that
// turns them into output rows. In-memory results come back as a
// *sliceSource holding the final output rows (the pipeline is then
// already applied).
func (c *conn) openScan(ctx context.Context, p planner.QueryPlan, b *binder) (scanSource, scanPipeline, error) {
	none := scanPipeline{limit: -1}
	switch p := p.(type) {
	case *planner.Lookup:
		rows, err := c.lookup(ctx, p, b)
		return &sliceSource{rows: nonNil(rows)}, none, err
	case *planner.PrefixLookup:
		rows, err := c.prefixLookup(ctx, p, b)
		return &sliceSource{rows: nonNil(rows)}, none, err
	case *planner.Count:
		rows, err := c.count(ctx, p, b)
		return &sliceSource{rows: rows}, none, err
	case *planner.LimitScan:
		rows, err := c.limitScan(ctx, p, b)
		return &sliceSource{rows: nonNil(rows)}, none, err
	case *planner.LogScan:
		return c.logScan(ctx, logScanSpec{table: p.Table, start: p.Start, stop: p.Stop, partFilter: p.PartitionFilter,
			filter: p.Filter, maxRows: p.MaxRows, proj: p.Projection, limit: p.Limit, offset: p.Offset}, b)
	case *planner.ChangelogScan:
		filter := append(slices.Clone(p.OffsetFilter), p.Filter...)
		maxRows := p.MaxRows
		if len(p.Filter) == 0 {
			maxRows = 0
		}
		return c.logScan(ctx, logScanSpec{table: p.Table, changelog: true, binlog: p.Binlog, start: p.Start, stop: p.Stop, partFilter: p.PartitionFilter,
			filter: filter, maxRows: maxRows, proj: p.Projection, limit: p.Limit, offset: p.Offset}, b)
	case *planner.KvScan:
		return c.kvScan(ctx, p, b)
	case *planner.Sort:
		rows, err := c.sorted(ctx, p, b)
		return &sliceSource{rows: nonNil(rows)}, none, err
	}
	return nil, none, fmt.Errorf("fluss: %s statements are not executed by this version of the driver yet", planKind(p))
}

// nonNil keeps an empty result distinguishable from "no source".
func nonNil(rows [][]any) [][]any {
	if rows == nil {
		return [][]any{}
	}
	return rows
}

// schemaNames are the table's column names, the row the planner resolves
// base-table predicates and projections against.
func schemaNames(h *tableHandle) []string {
	cols := h.t.Info().Descriptor.Schema.Columns
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	return names
}

// changelogMeta are the leading columns of t$changelog rows.
var changelogMeta = []string{planner.ColChangeType, planner.ColLogOffset, planner.ColCommitTimestamp}

// changeTypeName spells a change type as Flink's $changelog does.
func changeTypeName(ct codec.ChangeType) string {
	switch ct {
	case codec.UpdateBefore:
		return "update_before"
	case codec.UpdateAfter:
		return "update_after"
	case codec.Delete:
		return "delete"
	}
	// +I and the +A of log tables are both inserts.
	return "insert"
}

// bindCount binds a LIMIT or OFFSET value; def is returned when it is absent.
func bindCount(v *planner.Value, b *binder, def int64, what string) (int64, error) {
	if v == nil {
		return def, nil
	}
	x, err := b.value(*v)
	if err != nil {
		return 0, err
	}
	n, ok := x.(int64)
	if !ok || n < 0 {
		return 0, fmt.Errorf("fluss: %s must be a non-negative integer, got %v", what, x)
	}
	return n, nil
}

// window applies OFFSET and LIMIT to in-memory rows.
func window(rows [][]any, limit, offset *planner.Value, b *binder) ([][]any, error) {
	lim, err := bindCount(limit, b, -1, "LIMIT")
	if err != nil {
		return nil, err
	}
	off, err := bindCount(offset, b, 0, "OFFSET")
	if err != nil {
		return nil, err
	}
	if off >= int64(len(rows)) {
		return nil, nil
	}
	rows = rows[off:]
	if lim >= 0 && lim < int64(len(rows)) {
		rows = rows[:lim]
	}
	return rows, nil
}

// ---------------------------------------------------------------------------
// P1, P2: lookups

// lookupParallelism bounds the lookups of one IN list in flight at once;
// the lookuper batches concurrent calls per server, so a few dozen
// goroutines turn a long IN list into a handful of requests.
const lookupParallelism = 64

// parallel runs f(0..n-1) with at most lookupParallelism at a time and
// returns the first error.
func parallel(ctx context.Context, n int, f func(ctx context.Context, i int) error) error {
	if n == 1 {
		return f(ctx, 0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sem := make(chan struct{}, lookupParallelism)
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	for i := 0; i < n; i++ {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := f(ctx, i); err != nil {
				once.Do(func() { first = err; cancel() })
			}
		}()
	}
	wg.Wait()
	if first == nil {
		first = ctx.Err()
	}
	return first
}

// distinctKeys binds keys and drops repeated ones (k IN (1, 1) returns the
// row once, as in SQL).
func distinctKeys(want, planCols []string, keys [][]planner.Value, b *binder) ([][]any, error) {
	out := make([][]any, 0, len(keys))
	seen := make(map[string]bool, len(keys))
	for _, k := range keys {
		key, err := lookupKey(want, planCols, k, b)
		if err != nil {
			return nil, err
		}
		if len(keys) > 1 {
			id := fmt.Sprintf("%#v", key)
			if seen[id] {
				continue
			}
			seen[id] = true
		}
		out = append(out, key)
	}
	return out, nil
}

func (c *conn) lookup(ctx context.Context, p *planner.Lookup, b *binder) ([][]any, error) {
	h, err := c.handle(ctx, p.Table)
	if err != nil {
		return nil, err
	}
	lk, err := c.lookuperFor(h, p.Options)
	if err != nil {
		return nil, err
	}
	keys, err := distinctKeys(lk.KeyColumns(), p.KeyColumns, p.Keys, b)
	if err != nil {
		return nil, err
	}
	filter, err := compileFilter(p.Residual, schemaNames(h), b)
	if err != nil {
		return nil, err
	}
	found := make([][]any, len(keys))
	err = parallel(ctx, len(keys), func(ctx context.Context, i int) error {
		row, ok, err := lk.Lookup(ctx, keys[i])
		if ok {
			found[i] = row
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return c.finishLookup(found, filter, p.Projection, p.Limit, p.Offset, b)
}

// lookuperFor picks the lookuper of a point lookup. The hint
// 'lookup.insert-if-not-exists'='true' selects one that inserts the keys
// it does not find; that makes the SELECT a write, acknowledged by every
// in-sync replica (see flussrpc.LookupOptions.InsertIfNotExists). The key
// exists only as a hint (SET and the DSN refuse it): the planner checked
// that this table hands out ids, whereas a session-wide value would turn
// lookups of any table into writes.
func (c *conn) lookuperFor(h *tableHandle, hints planner.Options) (*flussrpc.Lookuper, error) {
	if !strings.EqualFold(strings.TrimSpace(hints["lookup.insert-if-not-exists"]), "true") {
		return h.pointLookuper()
	}
	return h.insertLookuper()
}

// finishLookup filters, projects and windows looked-up rows (nil = not
// found), keeping the order of the keys.
func (c *conn) finishLookup(found [][]any, filter *rowFilter, proj planner.Projection, limit, offset *planner.Value, b *binder) ([][]any, error) {
	var out [][]any
	for _, row := range found {
		if row == nil {
			continue
		}
		ok, err := filter.match(row)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, project(row, proj.Indexes))
		}
	}
	return window(out, limit, offset, b)
}

func (c *conn) prefixLookup(ctx context.Context, p *planner.PrefixLookup, b *binder) ([][]any, error) {
	h, err := c.handle(ctx, p.Table)
	if err != nil {
		return nil, err
	}
	lk, err := h.prefixLookuper(p.PrefixColumns)
	if err != nil {
		return nil, err
	}
	keys, err := distinctKeys(p.PrefixColumns, p.PrefixColumns, p.Prefixes, b)
	if err != nil {
		return nil, err
	}
	filter, err := compileFilter(p.Residual, schemaNames(h), b)
	if err != nil {
		return nil, err
	}
	found := make([][][]any, len(keys))
	err = parallel(ctx, len(keys), func(ctx context.Context, i int) error {
		rows, err := lk.Lookup(ctx, keys[i])
		found[i] = rows
		return err
	})
	if err != nil {
		return nil, err
	}
	var all [][]any
	for _, rows := range found {
		all = append(all, rows...)
	}
	return c.finishLookup(all, filter, p.Projection, p.Limit, p.Offset, b)
}

// ---------------------------------------------------------------------------
// Partitions and buckets

// bucketRef is one bucket of one partition ("" when not partitioned).
type bucketRef struct {
	partition string
	bucket    int32
}

// partitions lists the partitions of the table whose values satisfy the
// partition filter (names is the row shape the filter was planned on):
// [""] for a non-partitioned table.
func (c *conn) partitions(ctx context.Context, h *tableHandle, pf []planner.Predicate, names []string, b *binder) ([]string, error) {
	d := &h.t.Info().Descriptor
	if !d.IsPartitioned() {
		return []string{""}, nil
	}
	filter, err := compileFilter(pf, names, b)
	if err != nil {
		return nil, err
	}
	infos, err := c.client.Admin().ListPartitionInfos(ctx, h.t.Path(), nil)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, info := range infos {
		if filter != nil {
			row := make([]any, len(names))
			for _, pv := range info.Spec {
				i := slices.Index(names, pv.Key)
				ci := d.Schema.ColumnIndex(pv.Key)
				if i < 0 || ci < 0 {
					continue
				}
				v, err := typeconv.ToValue(d.Schema.Columns[ci].Type.WithNullable(true), pv.Value, c.c.cfg.Location)
				if err != nil {
					return nil, fmt.Errorf("fluss: partition %s: %w", info.Name(), err)
				}
				row[i] = v
			}
			ok, err := filter.match(row)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
		}
		out = append(out, info.Name())
	}
	slices.Sort(out)
	return out, nil
}

// buckets lists every bucket of the given partitions.
func buckets(h *tableHandle, parts []string) []bucketRef {
	n := h.t.Info().NumBuckets()
	out := make([]bucketRef, 0, len(parts)*n)
	for _, p := range parts {
		for i := 0; i < n; i++ {
			out = append(out, bucketRef{p, int32(i)})
		}
	}
	return out
}

// ---------------------------------------------------------------------------
// P3: COUNT(*)

// count answers COUNT(*): primary-key tables from the servers' row counts
// (GET_TABLE_STATS; the planner already refused tables with the WAL
// changelog image, which keep none), log tables as the number of records
// between the earliest and the latest offset of every bucket.
func (c *conn) count(ctx context.Context, p *planner.Count, b *binder) ([][]any, error) {
	h, err := c.handle(ctx, p.Table)
	if err != nil {
		return nil, err
	}
	parts, err := c.partitions(ctx, h, p.PartitionFilter, schemaNames(h), b)
	if err != nil {
		return nil, err
	}
	adm := c.client.Admin()
	var total int64
	for _, part := range parts {
		if p.PrimaryKey {
			counts, err := adm.GetTableStats(ctx, p.Table.Path, part, nil)
			if err != nil {
				return nil, err
			}
			for _, n := range counts {
				total += n
			}
			continue
		}
		early, err := adm.ListOffsets(ctx, p.Table.Path, part, nil, flussrpc.OffsetEarliest())
		if err != nil {
			return nil, err
		}
		late, err := adm.ListOffsets(ctx, p.Table.Path, part, nil, flussrpc.OffsetLatest())
		if err != nil {
			return nil, err
		}
		for bk, l := range late {
			if n := l - early[bk]; n > 0 {
				total += n
			}
		}
	}
	return [][]any{{total}}, nil
}

// ---------------------------------------------------------------------------
// P4: LIMIT scans

func (c *conn) limitScan(ctx context.Context, p *planner.LimitScan, b *binder) ([][]any, error) {
	h, err := c.handle(ctx, p.Table)
	if err != nil {
		return nil, err
	}
	lim, err := bindCount(&p.Limit, b, -1, "LIMIT")
	if err != nil {
		return nil, err
	}
	off, err := bindCount(p.Offset, b, 0, "OFFSET")
	if err != nil {
		return nil, err
	}
	want := lim + off
	if lim == 0 {
		return nil, nil
	}
	parts, err := c.partitions(ctx, h, p.PartitionFilter, schemaNames(h), b)
	if err != nil {
		return nil, err
	}
	var rows [][]any
	for _, br := range buckets(h, parts) {
		got, err := h.t.LimitScan(ctx, br.partition, br.bucket, int(min(want-int64(len(rows)), 1<<30)))
		if err != nil {
			return nil, err
		}
		rows = append(rows, got...)
		if int64(len(rows)) >= want {
			rows = rows[:want]
			break
		}
	}
	if off >= int64(len(rows)) {
		return nil, nil
	}
	rows = rows[off:]
	for i, r := range rows {
		rows[i] = project(r, p.Projection.Indexes)
	}
	return rows, nil
}

// ---------------------------------------------------------------------------
// P5, P7, P9: log scans

// logScanSpec is what LogScan and ChangelogScan plans share.
type logScanSpec struct {
	table      planner.Table
	changelog  bool
	binlog     bool
	start      planner.OffsetSpec
	stop       planner.OffsetSpec
	partFilter []planner.Predicate
	filter     []planner.Predicate
	maxRows    int64
	proj       planner.Projection
	limit      *planner.Value
	offset     *planner.Value
}

// defaultPollWait is how long one poll waits for data when
// 'fluss.scan.poll-timeout' is not set. Polls return as soon as data
// arrives; the wait only bounds an idle poll, and the query context can
// always end it sooner.
const defaultPollWait = time.Second

func (c *conn) pollWait() time.Duration {
	v := strings.TrimSpace(c.option("fluss.scan.poll-timeout"))
	if v == "" {
		return defaultPollWait
	}
	if ms, err := strconv.ParseInt(v, 10, 64); err == nil && ms > 0 {
		return time.Duration(ms) * time.Millisecond
	}
	if d, err := time.ParseDuration(strings.ReplaceAll(v, " ", "")); err == nil && d > 0 {
		return d
	}
	return defaultPollWait
}

// rowColumns returns the columns a filter and a projection use, as
// positions in a row of the given names, sorted.
func rowColumns(names []string, proj []int, preds []planner.Predicate) []int {
	used := map[int]bool{}
	for _, i := range proj {
		used[i] = true
	}
	var walk func(ps []planner.Predicate)
	walk = func(ps []planner.Predicate) {
		for _, p := range ps {
			if p.Column != "" {
				for i, n := range names {
					if strings.EqualFold(n, p.Column) {
						used[i] = true
					}
				}
			}
			walk(p.Args)
		}
	}
	walk(preds)
	out := make([]int, 0, len(used))
	for i := range used {
		out = append(out, i)
	}
	slices.Sort(out)
	return out
}

// scanShape decides which table columns a scan reads: only those the
// projection and the filter need (pushed to the server for ARROW tables).
// It returns the columns to request (nil: all), the names of the source
// rows, and the projection as positions in those rows.
func scanShape(tableNames []string, meta []string, proj []int, preds []planner.Predicate) (request []string, srcNames []string, srcProj []int) {
	names := append(slices.Clone(meta), tableNames...)
	used := rowColumns(names, proj, preds)
	var tableUsed []int
	for _, i := range used {
		if i >= len(meta) {
			tableUsed = append(tableUsed, i-len(meta))
		}
	}
	pos := make(map[int]int, len(names)) // row index -> source position
	for i := range meta {
		pos[i] = i
	}
	if len(tableUsed) == len(tableNames) {
		for i := range tableNames {
			pos[len(meta)+i] = len(meta) + i
		}
		srcNames = names
	} else {
		srcNames = slices.Clone(meta)
		request = []string{}
		for k, ti := range tableUsed {
			request = append(request, tableNames[ti])
			srcNames = append(srcNames, tableNames[ti])
			pos[len(meta)+ti] = len(meta) + k
		}
		if len(request) == 0 {
			// Nothing of the table is needed (SELECT _log_offset FROM
			// t$changelog): read one column, the cheapest to ask for.
			request = append(request, tableNames[0])
			srcNames = append(srcNames, tableNames[0])
		}
	}
	srcProj = make([]int, len(proj))
	identity := len(proj) == len(srcNames)
	for k, i := range proj {
		srcProj[k] = pos[i]
		identity = identity && pos[i] == k
	}
	if identity {
		srcProj = nil
	}
	return request, srcNames, srcProj
}

func (c *conn) logScan(ctx context.Context, spec logScanSpec, b *binder) (scanSource, scanPipeline, error) {
	pl := scanPipeline{limit: -1}
	h, err := c.handle(ctx, spec.table)
	if err != nil {
		return nil, pl, err
	}
	var meta []string
	if spec.changelog {
		meta = changelogMeta
	}
	tnames := schemaNames(h)
	var request, srcNames []string
	var srcProj []int
	if spec.binlog {
		// before and after are whole rows: read every column.
		srcNames, srcProj = planner.BinlogColumns(tnames), spec.proj.Indexes
	} else {
		request, srcNames, srcProj = scanShape(tnames, meta, spec.proj.Indexes, spec.filter)
	}
	if pl.filter, err = compileFilter(spec.filter, srcNames, b); err != nil {
		return nil, pl, err
	}
	pl.proj = srcProj
	if pl.limit, err = bindCount(spec.limit, b, -1, "LIMIT"); err != nil {
		return nil, pl, err
	}
	if pl.offset, err = bindCount(spec.offset, b, 0, "OFFSET"); err != nil {
		return nil, pl, err
	}
	if pl.limit == 0 {
		return &sliceSource{rows: [][]any{}}, pl, nil
	}
	if spec.maxRows > 0 {
		pl.maxRows = spec.maxRows
		pl.capErr = func() error {
			return &planner.Error{Clause: "fluss.scan.max-rows", Msg: fmt.Sprintf("result exceeds fluss.scan.max-rows=%d for a client-filtered scan of %s; narrow the filter, add LIMIT, or raise the limit", spec.maxRows, spec.table.Path)}
		}
	}
	parts, err := c.partitions(ctx, h, spec.partFilter, append(slices.Clone(meta), tnames...), b)
	if err != nil {
		return nil, pl, err
	}
	brs := buckets(h, parts)
	if len(brs) == 0 {
		return &sliceSource{rows: [][]any{}}, pl, nil
	}
	startOf, err := c.scanStart(spec.start, b)
	if err != nil {
		return nil, pl, err
	}
	bounded := spec.stop.Kind != planner.OffsetNone
	sc, err := h.t.NewLogScanner(flussrpc.LogScanOptions{Columns: request, Bounded: bounded})
	if err != nil {
		return nil, pl, err
	}
	src := &logSource{sc: sc, changelog: spec.changelog, wait: c.pollWait()}
	if spec.binlog {
		src.before, src.width = map[bucketRef][]any{}, len(tnames)
	}
	var stopAt map[bucketRef]int64
	if spec.stop.Kind == planner.OffsetTimestamp {
		// scan.stop.timestamp: each bucket ends at its offset for that
		// time; the scanner itself stops at the latest offsets.
		if stopAt, err = c.stopOffsets(ctx, spec.table.Path, parts, spec.stop, b); err != nil {
			sc.Close()
			return nil, pl, err
		}
		src.stops = map[bucketRef]int64{}
	}
	partitioned := h.t.Info().Descriptor.IsPartitioned()
	for _, br := range brs {
		start := startOf(br.bucket)
		if partitioned {
			err = sc.SubscribePartition(ctx, br.partition, br.bucket, start)
		} else {
			err = sc.Subscribe(ctx, br.bucket, start)
		}
		if err != nil {
			sc.Close()
			return nil, pl, err
		}
		if stopAt != nil {
			stop, ok := stopAt[br]
			if pos, _ := sc.Position(br.partition, br.bucket); !ok || pos >= stop {
				sc.Unsubscribe(br.partition, br.bucket)
				continue
			}
			src.stops[br] = stop
		}
	}
	if stopAt != nil && len(src.stops) == 0 {
		sc.Close()
		return &sliceSource{rows: [][]any{}}, pl, nil
	}
	return src, pl, nil
}

// scanStart resolves the start position of each bucket.
func (c *conn) scanStart(o planner.OffsetSpec, b *binder) (func(bucket int32) flussrpc.ScanStart, error) {
	switch o.Kind {
	case planner.OffsetLatest:
		return func(int32) flussrpc.ScanStart { return flussrpc.ScanFromLatest() }, nil
	case planner.OffsetTimestamp:
		ms, err := c.offsetMillis(o, b)
		if err != nil {
			return nil, err
		}
		return func(int32) flussrpc.ScanStart { return flussrpc.ScanFromTimestamp(ms) }, nil
	case planner.OffsetExplicit:
		return func(bk int32) flussrpc.ScanStart {
			if off, ok := o.Offsets[bk]; ok {
				return flussrpc.ScanFromOffset(off)
			}
			return flussrpc.ScanFromEarliest()
		}, nil
	}
	return func(int32) flussrpc.ScanStart { return flussrpc.ScanFromEarliest() }, nil
}

// offsetMillis is the epoch-millisecond time of a TIMESTAMP offset spec.
func (c *conn) offsetMillis(o planner.OffsetSpec, b *binder) (int64, error) {
	if o.TimestampValue == nil {
		return o.Timestamp, nil
	}
	v, err := b.value(*o.TimestampValue)
	if err != nil {
		return 0, err
	}
	switch ts := v.(type) {
	case codec.TimestampLTZ:
		return ts.Millis, nil
	case codec.TimestampNTZ:
		return ts.Millis, nil
	case int64:
		return ts, nil
	}
	return 0, fmt.Errorf("fluss: a scan position needs a timestamp, got %T", v)
}

// stopOffsets lists, per bucket, the offset a scan stopping at a time ends at.
func (c *conn) stopOffsets(ctx context.Context, path flussrpc.TablePath, parts []string, o planner.OffsetSpec, b *binder) (map[bucketRef]int64, error) {
	ms, err := c.offsetMillis(o, b)
	if err != nil {
		return nil, err
	}
	out := map[bucketRef]int64{}
	for _, part := range parts {
		offs, err := c.client.Admin().ListOffsets(ctx, path, part, nil, flussrpc.OffsetAtTimestamp(ms))
		if err != nil {
			return nil, err
		}
		for bk, off := range offs {
			out[bucketRef{part, bk}] = off
		}
	}
	return out, nil
}

// logSource reads a LogScanner. Rows are the scanner's projected columns,
// preceded for $changelog by _change_type, _log_offset and
// _commit_timestamp.
type logSource struct {
	sc        *flussrpc.LogScanner
	changelog bool
	wait      time.Duration
	// stops holds the end offsets of a scan with scan.stop.timestamp, for
	// the buckets not yet there (nil otherwise).
	stops map[bucketRef]int64
	// before is set for $binlog: the update_before row of each bucket
	// waiting for its update_after. width is the table's column count.
	before map[bucketRef][]any
	width  int
}

// binlogRow turns a changelog record into a $binlog row in the shape of
// planner.BinlogColumns (_change_type, _log_offset, _commit_timestamp,
// before, after, then the fields of before and of after), pairing
// update_before with the update_after that follows it in the same bucket
// into one "update" row, as Flink's $binlog does. It returns nil while a
// pair is incomplete.
func (s *logSource) binlogRow(r *flussrpc.ScanRecord) []any {
	br := bucketRef{r.Partition, r.Bucket}
	var kind string
	var before, after []any
	switch r.ChangeType {
	case codec.UpdateBefore:
		s.before[br] = r.Row
		return nil
	case codec.UpdateAfter:
		kind, before, after = "update", s.before[br], r.Row
		delete(s.before, br)
	case codec.Delete:
		kind, before = "delete", r.Row
	default:
		kind, after = "insert", r.Row
	}
	row := make([]any, 5, 5+2*s.width)
	row[0], row[1], row[2] = kind, r.Offset, codec.TimestampLTZ{Millis: r.Timestamp}
	if before != nil {
		row[3] = before
	}
	if after != nil {
		row[4] = after
	}
	return append(append(row, fieldsOf(before, s.width)...), fieldsOf(after, s.width)...)
}

// fieldsOf is the fields of a $binlog before/after row, all NULL when the
// change has no such row.
func fieldsOf(row []any, width int) []any {
	if row == nil {
		return make([]any, width)
	}
	return row
}

func (s *logSource) next(ctx context.Context) ([][]any, error) {
	for {
		if s.stops != nil && len(s.stops) == 0 {
			return nil, io.EOF
		}
		recs, err := s.sc.Poll(ctx, s.wait)
		if err != nil {
			return nil, err
		}
		rows := make([][]any, 0, len(recs))
		for i := range recs {
			r := &recs[i]
			if s.stops != nil {
				stop, ok := s.stops[bucketRef{r.Partition, r.Bucket}]
				if !ok || r.Offset >= stop {
					continue
				}
			}
			if s.before != nil {
				if row := s.binlogRow(r); row != nil {
					rows = append(rows, row)
				}
			} else if s.changelog {
				row := make([]any, 0, 3+len(r.Row))
				row = append(row, changeTypeName(r.ChangeType), r.Offset, codec.TimestampLTZ{Millis: r.Timestamp})
				rows = append(rows, append(row, r.Row...))
			} else {
				rows = append(rows, r.Row)
			}
		}
		for br, stop := range s.stops {
			if pos, ok := s.sc.Position(br.partition, br.bucket); !ok || pos >= stop {
				s.sc.Unsubscribe(br.partition, br.bucket)
				delete(s.stops, br)
			}
		}
		if len(rows) > 0 {
			return rows, nil
		}
	}
}

func (s *logSource) close() { s.sc.Close() }

// ---------------------------------------------------------------------------
// P6: primary-key table scans

func (c *conn) kvScan(ctx context.Context, p *planner.KvScan, b *binder) (scanSource, scanPipeline, error) {
	pl := scanPipeline{limit: -1}
	h, err := c.handle(ctx, p.Table)
	if err != nil {
		return nil, pl, err
	}
	names := schemaNames(h)
	if pl.filter, err = compileFilter(p.Filter, names, b); err != nil {
		return nil, pl, err
	}
	pl.proj = p.Projection.Indexes
	if len(pl.proj) == len(names) {
		identity := true
		for i, j := range pl.proj {
			identity = identity && i == j
		}
		if identity {
			pl.proj = nil
		}
	}
	if pl.limit, err = bindCount(p.Limit, b, -1, "LIMIT"); err != nil {
		return nil, pl, err
	}
	if pl.offset, err = bindCount(p.Offset, b, 0, "OFFSET"); err != nil {
		return nil, pl, err
	}
	if pl.limit == 0 {
		return &sliceSource{rows: [][]any{}}, pl, nil
	}
	parts, err := c.partitions(ctx, h, p.PartitionFilter, names, b)
	if err != nil {
		return nil, pl, err
	}
	maxRows := p.MaxRows
	if maxRows <= 0 {
		maxRows = planner.DefaultScanMaxRows
	}
	capErr := func() error {
		return &planner.Error{Clause: "fluss.scan.max-rows", Msg: fmt.Sprintf("result exceeds fluss.scan.max-rows=%d for a primary-key table scan; add LIMIT, narrow by partition, or raise the limit", maxRows)}
	}
	return &kvSource{t: h.t, buckets: buckets(h, parts), maxRows: maxRows, capErr: capErr}, pl, nil
}

// kvSource reads the current state of a primary-key table bucket by
// bucket: with SCAN_KV where the server has it (Fluss 1.x), otherwise with
// LIMIT_SCAN(maxRows+1), failing when a bucket or the total exceeds
// maxRows, because then the result would silently be incomplete.
type kvSource struct {
	t        *flussrpc.Table
	buckets  []bucketRef
	pos      int
	cur      *flussrpc.KVScanner
	useLimit bool
	maxRows  int64
	scanned  int64
	capErr   func() error
}

func (s *kvSource) next(ctx context.Context) ([][]any, error) {
	for {
		if s.cur != nil {
			rows, err := s.cur.Next(ctx)
			if errors.Is(err, io.EOF) {
				s.cur = nil
				continue
			}
			return rows, err
		}
		if s.pos >= len(s.buckets) {
			return nil, io.EOF
		}
		br := s.buckets[s.pos]
		s.pos++
		if !s.useLimit {
			sc, err := s.t.NewKVScanner(ctx, br.partition, br.bucket)
			switch {
			case errors.Is(err, flussrpc.ErrKVScanUnsupported):
				s.useLimit = true
			case err != nil:
				return nil, err
			default:
				s.cur = sc
				continue
			}
		}
		rows, err := s.t.LimitScan(ctx, br.partition, br.bucket, int(s.maxRows+1))
		if err != nil {
			return nil, err
		}
		s.scanned += int64(len(rows))
		if s.scanned > s.maxRows {
			return nil, s.capErr()
		}
		if len(rows) > 0 {
			return rows, nil
		}
	}
}

func (s *kvSource) close() {
	if s.cur != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		s.cur.Close(ctx)
		cancel()
	}
}
