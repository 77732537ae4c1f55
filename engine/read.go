package engine

import (
	"context"
	"database/sql/driver"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/planner"
	"github.com/gofluss/fluss/typeconv"
)

// query runs a read plan. Results that are small by construction
// (lookups, COUNT, LIMIT scans, sorts) are read at once into memRows;
// scans stream through scanRows.
func (c *Session) query(ctx context.Context, p planner.QueryPlan, b *binder) (driver.Rows, error) {
	if rows, ok, err := c.inMemory(ctx, p, b); ok {
		if err != nil {
			return nil, err
		}
		return newMemRows(p.OutputColumns(), rows, c.outOptions()), nil
	}
	src, pl, err := c.openScan(ctx, p, b)
	if err != nil {
		return nil, err
	}
	if s, ok := src.(*sliceSource); ok {
		return newMemRows(p.OutputColumns(), s.rows, c.outOptions()), nil
	}
	return newScanRows(ctx, p.OutputColumns(), c.outOptions(), src, pl), nil
}

// inMemory runs the read plans whose result is small by construction and
// returns their final output rows (ok false for the other plans). query
// hands them to memRows directly: a point lookup is the most frequent
// statement, and it should not pay for the scan machinery.
func (c *Session) inMemory(ctx context.Context, p planner.QueryPlan, b *binder) (rows [][]any, ok bool, err error) {
	switch p := p.(type) {
	case *planner.Lookup:
		rows, err = c.lookup(ctx, p, b)
	case *planner.PrefixLookup:
		rows, err = c.prefixLookup(ctx, p, b)
	case *planner.Count:
		rows, err = c.count(ctx, p, b)
	case *planner.LimitScan:
		rows, err = c.limitScan(ctx, p, b)
	case *planner.Sort:
		rows, err = c.sorted(ctx, p, b)
	default:
		return nil, false, nil
	}
	return nonNil(rows), true, err
}

// openScan prepares a read plan: a source of rows plus the pipeline that
// turns them into output rows. In-memory results come back as a
// *sliceSource holding the final output rows (the pipeline is then
// already applied).
func (c *Session) openScan(ctx context.Context, p planner.QueryPlan, b *binder) (scanSource, scanPipeline, error) {
	none := scanPipeline{limit: -1}
	if rows, ok, err := c.inMemory(ctx, p, b); ok {
		return &sliceSource{rows: rows}, none, err
	}
	switch p := p.(type) {
	case *planner.LogScan:
		return c.logScan(ctx, logScanSpecOf(p), b)
	case *planner.ChangelogScan:
		filter := append(slices.Clone(p.OffsetFilter), p.Filter...)
		maxRows := p.MaxRows
		if len(p.Filter) == 0 {
			maxRows = 0
		}
		return c.logScan(ctx, logScanSpec{table: p.Table, changelog: true, binlog: p.Binlog, start: p.Start, stop: p.Stop, partFilter: p.PartitionFilter,
			filter: filter, maxRows: maxRows, proj: p.Projection, limit: p.Limit, offset: p.Offset, fetch: p.Fetch}, b)
	case *planner.KvScan:
		return c.kvScan(ctx, p, b)
	}
	// The other queries (SHOW, DESCRIBE, EXPLAIN, constants ...) are
	// answered in memory by execute; QueryArrow reads them as their rows.
	rows, _, err := c.execute(ctx, p, b)
	if err != nil {
		return nil, none, err
	}
	if mr, ok := rows.(*memRows); ok {
		return &sliceSource{rows: nonNil(mr.rows)}, none, nil
	}
	if rows != nil {
		_ = rows.Close()
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
// Partitions and buckets

// bucketRef is one bucket of one partition ("" when not partitioned).
type bucketRef struct {
	partition string
	bucket    int32
}

// partitions lists the partitions of the table whose values satisfy the
// partition filter (names is the row shape the filter was planned on):
// [""] for a non-partitioned table.
func (c *Session) partitions(ctx context.Context, h *tableHandle, pf []planner.Predicate, names []string, b *binder) ([]string, error) {
	filter, err := compileFilter(pf, names, b)
	if err != nil {
		return nil, err
	}
	if filter == nil {
		return h.t.Partitions(ctx, nil, nil)
	}
	sch := &h.t.Info().Descriptor.Schema
	return h.t.Partitions(ctx, nil, func(info flussrpc.PartitionInfo) (bool, error) {
		row := make([]any, len(names))
		for _, pv := range info.Spec {
			i := slices.Index(names, pv.Key)
			ci := sch.ColumnIndex(pv.Key)
			if i < 0 || ci < 0 {
				continue
			}
			v, err := typeconv.ToValue(sch.Columns[ci].Type.WithNullable(true), pv.Value, c.sess.Location)
			if err != nil {
				return false, fmt.Errorf("fluss: partition %s: %w", info.Name(), err)
			}
			row[i] = v
		}
		return filter.match(row)
	})
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

// count answers COUNT(*) from flussrpc's row counts (Table.RowCount; the
// planner already refused primary-key tables with the WAL changelog image,
// which keep none).
func (c *Session) count(ctx context.Context, p *planner.Count, b *binder) ([][]any, error) {
	h, err := c.handle(ctx, p.Table)
	if err != nil {
		return nil, err
	}
	total, err := c.rowCount(ctx, h, p.PartitionFilter, b)
	if err != nil {
		return nil, err
	}
	return [][]any{{total}}, nil
}

// rowCount sums the row counts of the partitions of h that filter keeps.
func (c *Session) rowCount(ctx context.Context, h *tableHandle, filter []planner.Predicate, b *binder) (int64, error) {
	parts, err := c.partitions(ctx, h, filter, schemaNames(h), b)
	if err != nil {
		return 0, err
	}
	var total int64
	for _, part := range parts {
		n, err := h.t.RowCount(ctx, part)
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

// ---------------------------------------------------------------------------
// P4: LIMIT scans

func (c *Session) limitScan(ctx context.Context, p *planner.LimitScan, b *binder) ([][]any, error) {
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
	split      Split // the buckets to read; zero: all
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
	fetch      planner.Options // client.scanner.log.fetch.* options
}

// defaultPollWait is how long one poll waits for data when
// 'fluss.scan.poll-timeout' is not set. Polls return as soon as data
// arrives; the wait only bounds an idle poll, and the query context can
// always end it sooner.
const defaultPollWait = time.Second

func (c *Session) pollWait() time.Duration {
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

func (c *Session) logScan(ctx context.Context, spec logScanSpec, b *binder) (scanSource, scanPipeline, error) {
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
	brs := spec.split.of(buckets(h, parts))
	if len(brs) == 0 {
		return &sliceSource{rows: [][]any{}}, pl, nil
	}
	startOf, err := c.scanStart(spec.start, b)
	if err != nil {
		return nil, pl, err
	}
	opts := flussrpc.LogScanOptions{Columns: request, Bounded: spec.stop.Kind != planner.OffsetNone}
	for _, k := range slices.Sorted(maps.Keys(spec.fetch)) {
		if err := opts.Set(k, spec.fetch[k]); err != nil {
			return nil, pl, fmt.Errorf("fluss: %w", err)
		}
	}
	if spec.stop.Kind == planner.OffsetTimestamp {
		// scan.stop.timestamp: each bucket ends at its offset for that time.
		ms, err := c.offsetMillis(spec.stop, b)
		if err != nil {
			return nil, pl, err
		}
		opts.Stop = flussrpc.ScanToTimestamp(ms)
	}
	sc, err := h.t.NewLogScanner(opts)
	if err != nil {
		return nil, pl, err
	}
	src := &logSource{sc: sc, changelog: spec.changelog, wait: c.pollWait()}
	if !spec.changelog && !spec.binlog && h.t.Info().Descriptor.LogFormat() == schema.FormatArrow {
		// Rows of a row-format table would only be converted to Arrow
		// and back.
		if src.reader, err = arrowipc.NewColumnReader(sc.Columns()); err != nil {
			sc.Close()
			return nil, pl, err
		}
	}
	if spec.binlog {
		src.before, src.width = map[bucketRef][]any{}, len(tnames)
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
	}
	return src, pl, nil
}

// scanStart resolves the start position of each bucket.
func (c *Session) scanStart(o planner.OffsetSpec, b *binder) (func(bucket int32) flussrpc.ScanStart, error) {
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

// offsetMillis is the epoch-millisecond time of a TIMESTAMP offset spec:
// the one conversion of scan positions and SHOW OFFSETS ... AT TIMESTAMP,
// for TIMESTAMP_LTZ and TIMESTAMP values alike (a TIMESTAMP's wall clock
// read as UTC).
func (c *Session) offsetMillis(o planner.OffsetSpec, b *binder) (int64, error) {
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
	return 0, fmt.Errorf("fluss: an offset position needs a timestamp, got %T", v)
}

// logSource reads a LogScanner. Rows are the scanner's projected columns,
// preceded for $changelog by _change_type, _log_offset and
// _commit_timestamp.
type logSource struct {
	sc        *flussrpc.LogScanner
	changelog bool
	wait      time.Duration
	// reader reads the scanner's records column by column when the scan
	// may be columnar (see columnSource): a plain scan of an ARROW table.
	reader *arrowipc.ColumnReader
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
		recs, err := s.sc.Poll(ctx, s.wait)
		if err != nil {
			return nil, err
		}
		rows := make([][]any, 0, len(recs))
		for i := range recs {
			r := &recs[i]
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
		if len(rows) > 0 {
			return rows, nil
		}
	}
}

func (s *logSource) close() { s.sc.Close() }

func (s *logSource) columnar() bool { return s.reader != nil }

func (s *logSource) nextColumns(ctx context.Context) ([]*arrowipc.Columns, error) {
	for {
		bs, err := s.sc.PollArrow(ctx, s.wait)
		out := make([]*arrowipc.Columns, 0, len(bs))
		for _, b := range bs {
			if err == nil {
				var cols *arrowipc.Columns
				if cols, err = s.reader.Read(b.Record); err == nil {
					out = append(out, cols)
				}
			}
			// The columns hold copies: the record's memory goes back to
			// the scanner's allocator at once.
			b.Record.Release()
		}
		if err != nil {
			return nil, err
		}
		if len(out) > 0 {
			return out, nil
		}
	}
}
