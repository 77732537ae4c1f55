package flussrpc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/internal/plural"
)

// Defaults of LogScanOptions; the names in parentheses are the Java client
// options they mirror.
const (
	DefaultScanMaxFetchBytes       = 16 << 20               // client.scanner.log.fetch.max-bytes
	DefaultScanMaxBucketFetchBytes = 1 << 20                // client.scanner.log.fetch.max-bytes-for-bucket
	DefaultScanMaxWait             = 500 * time.Millisecond // client.scanner.log.fetch.wait-max-time
	DefaultScanMinBytes            = 1                      // client.scanner.log.fetch.min-bytes
)

// LogScanOptions configures a LogScanner. The zero value reads every
// column, unbounded, with the Java client's fetch defaults.
type LogScanOptions struct {
	// Columns projects the scan to these columns, in this order; nil reads
	// every column. For ARROW tables the projection is pushed to the
	// server (which then sends only those columns); row formats are
	// projected after decoding.
	Columns []string
	// Bounded makes the scan stop each bucket at the offset that was the
	// bucket's end (high watermark) when it was subscribed. Poll returns
	// io.EOF once every subscribed bucket reached its end.
	Bounded bool
	// Stop moves the end of a Bounded scan; the zero value is the high
	// watermark described above.
	Stop ScanStop
	// MaxFetchBytes caps the data of one fetch request (per server).
	MaxFetchBytes int32
	// MaxBucketFetchBytes caps the data per bucket in one fetch; the server
	// still returns at least one whole batch.
	MaxBucketFetchBytes int32
	// MaxWait is how long the server may hold a fetch waiting for MinBytes.
	MaxWait time.Duration
	// MinBytes is the data a fetch waits for before the server answers.
	MinBytes int32
	// MaxBufferedBytes bounds the fetched but not yet polled data; no new
	// fetch is sent while it is exceeded (default MaxFetchBytes).
	MaxBufferedBytes int
	// SkipCRC disables the CRC-32C check of fetched batches (the Java
	// client checks by default and skips it for projected batches, whose
	// bytes the server rewrote).
	SkipCRC bool
}

func (o LogScanOptions) withDefaults() LogScanOptions {
	if o.MaxFetchBytes <= 0 {
		o.MaxFetchBytes = DefaultScanMaxFetchBytes
	}
	if o.MaxBucketFetchBytes <= 0 {
		o.MaxBucketFetchBytes = DefaultScanMaxBucketFetchBytes
	}
	if o.MaxWait <= 0 {
		o.MaxWait = DefaultScanMaxWait
	}
	if o.MinBytes <= 0 {
		o.MinBytes = DefaultScanMinBytes
	}
	if o.MaxBufferedBytes <= 0 {
		o.MaxBufferedBytes = int(o.MaxFetchBytes)
	}
	return o
}

// ScanStart says where a subscription starts reading.
type ScanStart struct {
	kind  int8
	value int64
}

const (
	startEarliest int8 = iota
	startLatest
	startTimestamp
	startOffset
)

// ScanFromEarliest starts at the first record still stored (fetch offset
// -2, resolved by the server).
func ScanFromEarliest() ScanStart { return ScanStart{kind: startEarliest} }

// ScanFromLatest starts after the last record written so far, reading only
// new records.
func ScanFromLatest() ScanStart { return ScanStart{kind: startLatest} }

// ScanFromTimestamp starts at the first record committed at or after ms
// milliseconds since the epoch.
func ScanFromTimestamp(ms int64) ScanStart { return ScanStart{kind: startTimestamp, value: ms} }

// ScanFromOffset starts at an explicit log offset.
func ScanFromOffset(offset int64) ScanStart { return ScanStart{kind: startOffset, value: offset} }

// ScanStop is where a bounded scan ends each bucket. The zero value ends
// it at its high watermark as of subscription.
type ScanStop struct {
	atTime bool
	ms     int64
}

// ScanToTimestamp ends each bucket before its first record committed at or
// after ms milliseconds since the epoch, and never after the high
// watermark. Servers refuse a time later than their clock
// (ErrInvalidTimestamp) when the bucket is subscribed.
func ScanToTimestamp(ms int64) ScanStop { return ScanStop{atTime: true, ms: ms} }

// String describes the start position.
func (s ScanStart) String() string {
	switch s.kind {
	case startEarliest:
		return "earliest"
	case startLatest:
		return "latest"
	case startTimestamp:
		return fmt.Sprintf("timestamp(%d)", s.value)
	}
	return fmt.Sprintf("offset(%d)", s.value)
}

// ScanRecord is one record read by a LogScanner.
type ScanRecord struct {
	Partition  string // partition name; "" for non-partitioned tables
	Bucket     int32
	Offset     int64
	Timestamp  int64 // commit time of the record's batch, ms since the epoch
	ChangeType codec.ChangeType
	// Row holds the projected columns (all columns of the table's schema
	// as of OpenTable when there is no projection), in the codec value
	// model.
	Row []any
}

// scanBucket is the state of one subscribed bucket. Guarded by LogScanner.mu.
type scanBucket struct {
	id    bucketKey
	path  PhysicalPath
	pos   int64 // next offset to read, or EarliestOffset
	end   int64 // bounded scans: stop here; -1 unbounded
	epoch uint64
	// fetchPos is where the next fetch of the bucket starts: the end of
	// the last answer received, which may still wait in the buffer, so
	// that the next fetch is on the wire while Poll decodes the last one.
	fetchPos int64
	inFlight bool // a fetch of the bucket is pending
	queued   int  // answers of the bucket (data or error) in the buffer
	// stalled stops fetching until the buffer holds nothing of the bucket
	// and fetchPos is moved back to pos: the last answer ended inside a
	// batch, failed, or was not read from where the consumer stands.
	stalled bool
	done    bool
	backoff time.Time
	retry   int // consecutive retriable failures
	// fetchBytes is this bucket's max_fetch_bytes; it starts at the
	// option's value and doubles when a fetch came back holding only the
	// start of a batch (see growFetch).
	fetchBytes int32
}

// LogScanner reads the log of a table (its changelog, for primary-key
// tables) bucket by bucket. Subscribe to buckets, then call Poll (or
// PollArrow) repeatedly. Fetches run in the background: one request in
// flight per tablet server at a time, the next one sent as soon as an
// answer with data arrived (while the buffer holds less than
// MaxBufferedBytes), so that the network overlaps with decoding. A LogScanner is safe for
// concurrent use, but records of one bucket are only in order within one
// goroutine's sequence of Poll calls. Close it when done.
type LogScanner struct {
	t     *Table
	opts  LogScanOptions
	proj  projection
	dec   *scanDecoders
	ctx   context.Context // ends at Close; bounds background fetches
	stop  context.CancelFunc
	wake  chan struct{}
	fetch *fetcher

	mu        sync.Mutex
	buckets   map[bucketKey]*scanBucket
	nextEpoch uint64
	closed    bool

	// lastPollEnd is when the last poll returned (Unix nanoseconds; 0
	// before the first), kept only for a PollTracer.
	lastPollEnd atomic.Int64
}

// ErrScannerClosed is returned by a closed LogScanner.
var ErrScannerClosed = errors.New("flussrpc: log scanner is closed")

// NewLogScanner returns a scanner of the table's log. It has no
// subscriptions yet.
func (t *Table) NewLogScanner(opts LogScanOptions) (*LogScanner, error) {
	opts = opts.withDefaults()
	proj, err := newProjection(t, opts.Columns)
	if err != nil {
		return nil, err
	}
	dec, err := newScanDecoders(t, proj, opts.SkipCRC)
	if err != nil {
		return nil, err
	}
	ctx, stop := context.WithCancel(context.Background())
	s := &LogScanner{
		t: t, opts: opts, proj: proj, dec: dec, ctx: ctx, stop: stop,
		wake:    make(chan struct{}, 1),
		buckets: make(map[bucketKey]*scanBucket),
	}
	s.fetch = newFetcher(s)
	return s, nil
}

// Close stops background fetches and releases the scanner.
func (s *LogScanner) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	s.stop()
	s.fetch.close()
	s.dec.release()
	return nil
}

// Subscribe starts reading a bucket of a non-partitioned table at start,
// replacing any earlier subscription of the bucket.
func (s *LogScanner) Subscribe(ctx context.Context, bucket int32, start ScanStart) error {
	if s.t.info.Descriptor.IsPartitioned() {
		return fmt.Errorf("flussrpc: %s is partitioned; use SubscribePartition", s.t.info.Path)
	}
	return s.subscribe(ctx, "", []int32{bucket}, start)
}

// SubscribePartition starts reading a bucket of one partition (by its
// name, see PartitionInfo.Name) of a partitioned table.
func (s *LogScanner) SubscribePartition(ctx context.Context, partition string, bucket int32, start ScanStart) error {
	if !s.t.info.Descriptor.IsPartitioned() {
		return fmt.Errorf("flussrpc: %s is not partitioned; use Subscribe", s.t.info.Path)
	}
	if partition == "" {
		return errors.New("flussrpc: SubscribePartition needs a partition name")
	}
	return s.subscribe(ctx, partition, []int32{bucket}, start)
}

// SubscribeAll subscribes every bucket of the table or, for a partitioned
// table, every bucket of every partition existing now.
func (s *LogScanner) SubscribeAll(ctx context.Context, start ScanStart) error {
	parts := []string{""}
	if s.t.info.Descriptor.IsPartitioned() {
		infos, err := s.t.c.Admin().ListPartitionInfos(ctx, s.t.info.Path, nil)
		if err != nil {
			return err
		}
		parts = parts[:0]
		for _, p := range infos {
			parts = append(parts, p.Name())
		}
	}
	buckets := make([]int32, s.t.info.NumBuckets())
	for b := range buckets {
		buckets[b] = int32(b)
	}
	for _, p := range parts {
		if err := s.subscribe(ctx, p, buckets, start); err != nil {
			return err
		}
	}
	return nil
}

// subscribe subscribes buckets of one partition ("" if none) at start,
// resolving the positions of all of them together.
func (s *LogScanner) subscribe(ctx context.Context, partition string, buckets []int32, start ScanStart) error {
	for _, bucket := range buckets {
		if bucket < 0 || int(bucket) >= s.t.info.NumBuckets() {
			return fmt.Errorf("flussrpc: bucket %d out of range for %s (%s)", bucket, s.t.info.Path, plural.Count(s.t.info.NumBuckets(), "bucket"))
		}
	}
	path := PhysicalPath{TablePath: s.t.info.Path, Partition: partition}
	pos, end, err := s.resolveStart(ctx, path, buckets, start)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrScannerClosed
	}
	for i, bucket := range buckets {
		id := bucketKey{partition, bucket}
		s.nextEpoch++
		b := &scanBucket{id: id, path: path, pos: pos[i], fetchPos: pos[i], end: end[i], epoch: s.nextEpoch}
		b.done = end[i] >= 0 && pos[i] >= end[i]
		s.buckets[id] = b
	}
	s.signal()
	return nil
}

// resolveStart turns a start position into fetch offsets of buckets, and
// for bounded scans also takes the buckets' current ends: one ListOffsets
// request per kind of offset for all of them.
func (s *LogScanner) resolveStart(ctx context.Context, path PhysicalPath, buckets []int32, start ScanStart) (pos, end []int64, err error) {
	list := func(spec OffsetSpec) ([]int64, error) {
		m, err := s.t.c.Admin().ListOffsets(ctx, path.TablePath, path.Partition, buckets, spec)
		if err != nil {
			return nil, err
		}
		out := make([]int64, len(buckets))
		for i, b := range buckets {
			off, ok := m[b]
			if !ok {
				return nil, fmt.Errorf("flussrpc: no %s offset reported for bucket %d of %s", spec, b, path)
			}
			out[i] = off
		}
		return out, nil
	}
	fill := func(v int64) []int64 {
		out := make([]int64, len(buckets))
		for i := range out {
			out[i] = v
		}
		return out
	}
	end = fill(-1)
	if s.opts.Bounded {
		if end, err = list(OffsetLatest()); err != nil {
			return nil, nil, err
		}
		if s.opts.Stop.atTime {
			at, err := list(OffsetAtTimestamp(s.opts.Stop.ms))
			if err != nil {
				return nil, nil, err
			}
			for i := range end {
				if at[i] >= 0 && at[i] < end[i] {
					end[i] = at[i]
				}
			}
		}
	}
	switch start.kind {
	case startEarliest:
		if !s.opts.Bounded {
			return fill(EarliestOffset), end, nil
		}
		// A bounded scan needs a concrete start to know it is at the end.
		pos, err = list(OffsetEarliest())
	case startLatest:
		if s.opts.Bounded {
			return slices.Clone(end), end, nil
		}
		pos, err = list(OffsetLatest())
	case startTimestamp:
		pos, err = list(OffsetAtTimestamp(start.value))
	default:
		if start.value < 0 {
			return nil, nil, fmt.Errorf("flussrpc: negative start offset %d", start.value)
		}
		pos = fill(start.value)
	}
	return pos, end, err
}

// Unsubscribe stops reading a bucket ("" partition for non-partitioned
// tables). Data already fetched for it is dropped.
func (s *LogScanner) Unsubscribe(partition string, bucket int32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.buckets, bucketKey{partition, bucket})
}

// Position returns the next offset the scanner will read from a bucket
// (EarliestOffset before the first batch when started at earliest), and
// false when the bucket is not subscribed.
func (s *LogScanner) Position(partition string, bucket int32) (int64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.buckets[bucketKey{partition, bucket}]
	if !ok {
		return 0, false
	}
	return b.pos, true
}

// Done reports whether a bounded scan has read every subscribed bucket to
// its end. It is false for unbounded scans and without subscriptions.
func (s *LogScanner) Done() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.doneLocked()
}

func (s *LogScanner) doneLocked() bool {
	if !s.opts.Bounded || len(s.buckets) == 0 {
		return false
	}
	for _, b := range s.buckets {
		if !b.done {
			return false
		}
	}
	return true
}

// signal wakes a waiting Poll.
func (s *LogScanner) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Poll returns the records of the oldest buffered fetch answer that has
// any (one bucket's answer, of about MaxBucketFetchBytes of log data, so
// that the records a caller holds at a time stay bounded), waiting up to
// maxWait for one to arrive (not at all when maxWait <= 0). It returns an empty slice and
// no error when none came in time, io.EOF once a bounded scan is done, and
// ctx's error promptly when ctx ends. Records of a bucket come in offset
// order; buckets interleave. When decoding a bucket's data fails, the
// records decoded before are returned together with the error; the bucket
// is fetched again (and fails again) on the next Poll unless unsubscribed.
func (s *LogScanner) Poll(ctx context.Context, maxWait time.Duration) ([]ScanRecord, error) {
	s.dec.decodeAhead.Store(true)
	var out []ScanRecord
	err := s.poll(ctx, maxWait, func(c *completedFetch, cur readWindow) (bool, int64, error) {
		n := len(out)
		var next int64
		var err error
		out, next, err = s.dec.rows(ctx, out, c, cur)
		return len(out) > n, next, err
	})
	return out, err
}

// poll runs the fetch/wait loop, handing buffered fetches to take until it
// reports it produced output.
func (s *LogScanner) poll(ctx context.Context, maxWait time.Duration, take takeFunc) error {
	t := s.t.c.hooks.poll
	if t == nil {
		return s.pollLoop(ctx, maxWait, take)
	}
	start := time.Now()
	err := s.pollLoop(ctx, maxWait, take)
	end := time.Now()
	data := TracePollData{Table: s.t.info.Path, Wait: end.Sub(start)}
	if last := s.lastPollEnd.Swap(end.UnixNano()); last != 0 {
		data.Between = max(start.Sub(time.Unix(0, last)), 0)
	}
	t.TracePoll(ctx, data)
	return err
}

// pollLoop is poll without its tracing.
func (s *LogScanner) pollLoop(ctx context.Context, maxWait time.Duration, take takeFunc) error {
	var timeout <-chan time.Time
	if maxWait > 0 {
		tm := time.NewTimer(maxWait)
		defer tm.Stop()
		timeout = tm.C
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return ErrScannerClosed
		}
		s.mu.Unlock()
		s.fetch.sendReady(ctx)
		got, err := s.drain(take)
		if got || err != nil {
			// Prefetch: the drained buckets can be fetched again while
			// the caller processes these records.
			s.fetch.sendReady(ctx)
			return err
		}
		if s.Done() && s.fetch.bufferedCount() == 0 {
			return io.EOF
		}
		if maxWait <= 0 {
			return nil // Poll(ctx, 0) takes what is there without waiting
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timeout:
			return nil
		case <-s.wake:
		}
	}
}

// readWindow is the read window of one bucket when its fetch is decoded:
// records below from were read already, records at or above end (when
// end >= 0) are beyond a bounded scan.
type readWindow struct {
	partition string
	bucket    int32
	from, end int64
}

// takeFunc consumes one buffered fetch and returns whether it produced
// output and the offset to continue from.
type takeFunc func(c *completedFetch, cur readWindow) (got bool, next int64, err error)

// drain hands the buffered fetches to take, in arrival order, until one
// produced output.
func (s *LogScanner) drain(take takeFunc) (bool, error) {
	got := false
	for {
		c := s.fetch.next()
		if c == nil {
			return got, nil
		}
		s.mu.Lock()
		b := s.buckets[c.id]
		live := b != nil && b.epoch == c.epoch && (b.pos == c.fetchOffset)
		var cur readWindow
		if live {
			cur = readWindow{partition: c.id.partition, bucket: c.id.bucket, from: b.pos, end: b.end}
		}
		s.mu.Unlock()
		if !live {
			s.fetch.release(c, b, false)
			continue
		}
		if c.err != nil {
			s.fetch.release(c, b, false)
			return got, fmt.Errorf("flussrpc: scanning bucket %d of %s: %w", c.id.bucket, b.path, c.err)
		}
		ok, next, err := take(c, cur)
		consumed := err == nil
		if errors.Is(err, errTruncatedBatch) {
			err = s.growFetch(b, len(c.records))
		} else if err == nil {
			s.advance(b, next)
		}
		s.fetch.release(c, b, consumed)
		got = got || ok
		if got || err != nil {
			return got, err
		}
	}
}

// maxFetchGrowth caps how far growFetch raises one bucket's fetch size.
const maxFetchGrowth = 256 << 20

// growFetch handles a fetch that held only the beginning of a batch. A
// Fluss 0.9 tablet server applies the at-least-one-batch rule only to the
// first bucket of a response and cuts the others at max_fetch_bytes even
// in the middle of a batch, so a bucket whose next batch is larger than
// the per-bucket limit (writers send batches of up to 2 MiB; the default
// limit is 1 MiB) would never make progress. Ask for twice as much next
// time instead of failing the scan.
func (s *LogScanner) growFetch(b *scanBucket, got int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := b.fetchBytes
	if cur <= 0 {
		cur = s.opts.MaxBucketFetchBytes
	}
	if int64(cur) >= maxFetchGrowth {
		return fmt.Errorf("flussrpc: a batch of bucket %d of %s is larger than %s (got %s of it)", b.id.bucket, b.path, plural.Count(cur, "byte"), plural.Count(got, "byte"))
	}
	b.fetchBytes = int32(min(2*int64(cur), maxFetchGrowth))
	return nil
}

// advance moves a bucket's position after a batch, checking that the
// bucket is still the same subscription. Bounded buckets are done at end.
func (s *LogScanner) advance(b *scanBucket, next int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if next > b.pos || b.pos == EarliestOffset {
		b.pos = next
	}
	if b.end >= 0 && b.pos >= b.end {
		b.done = true
	}
}

// Subscriptions lists the subscribed buckets, sorted by partition and
// bucket.
func (s *LogScanner) Subscriptions() []ScanSubscription {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]ScanSubscription, 0, len(s.buckets))
	for id, b := range s.buckets {
		out = append(out, ScanSubscription{Partition: id.partition, Bucket: id.bucket, Offset: b.pos, EndOffset: b.end, Done: b.done})
	}
	slices.SortFunc(out, func(a, b ScanSubscription) int {
		if a.Partition != b.Partition {
			if a.Partition < b.Partition {
				return -1
			}
			return 1
		}
		return int(a.Bucket - b.Bucket)
	})
	return out
}

// ScanSubscription is the state of one subscribed bucket.
type ScanSubscription struct {
	Partition string
	Bucket    int32
	Offset    int64 // next offset to read
	EndOffset int64 // bounded scans: where the bucket stops; -1 otherwise
	Done      bool  // bounded scans: the end was reached
}
