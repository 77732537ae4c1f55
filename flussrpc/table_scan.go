package flussrpc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/gofluss/fluss/internal/plural"
)

// ErrRowCap is wrapped by TableScan.Next when the table holds more rows
// than the scan's cap: the rest would be silently missing otherwise.
var ErrRowCap = errors.New("flussrpc: the scan exceeds its row cap")

// TableScan reads the current state of a primary-key table, bucket by
// bucket over the given partitions: with SCAN_KV where the servers have it
// (Fluss 1.x), otherwise with LIMIT_SCAN(maxRows+1) per bucket, failing
// with ErrRowCap once the rows exceed maxRows, because a LIMIT_SCAN result
// is a sample that may be cut short. The LIMIT_SCANs of the next
// limitScanAhead buckets run ahead, each answer decoded as it comes, so
// that the buckets' servers and the decoding overlap; rows still come
// bucket by bucket, in order. Not safe for concurrent use; Close it when
// done.
type TableScan struct {
	t        *Table
	parts    []string
	next     int // index over (partition, bucket) pairs
	cur      *KVScanner
	useLimit bool
	maxRows  int64
	scanned  int64
	// pending are the LIMIT_SCANs running ahead, in bucket order; stop
	// cancels them (at Close).
	pending []chan limitScanResult
	stop    context.CancelFunc
	ahead   context.Context
}

// limitScanAhead is how many LIMIT_SCANs of a TableScan may run at once:
// enough to keep two cores decoding, few enough that at most that many
// buckets' rows wait in memory.
const limitScanAhead = 3

// limitScanResult is the answer of one bucket's LIMIT_SCAN.
type limitScanResult struct {
	rows [][]any
	err  error
}

// ScanTable returns a scan of the table's rows in the given partitions
// ("" alone for a table without partitions; see Partitions), capped at
// maxRows rows when the servers lack SCAN_KV.
func (t *Table) ScanTable(partitions []string, maxRows int64) *TableScan {
	return &TableScan{t: t, parts: partitions, maxRows: maxRows}
}

// Next returns the next rows, in the codec value model and the table's
// schema as of OpenTable; io.EOF at the end. The LIMIT_SCANs running
// ahead run under the context of the first Next call that started one.
func (s *TableScan) Next(ctx context.Context) ([][]any, error) {
	n := s.t.info.NumBuckets()
	for {
		if s.cur != nil {
			rows, err := s.cur.Next(ctx)
			if errors.Is(err, io.EOF) {
				s.cur = nil
				continue
			}
			return rows, err
		}
		if s.useLimit {
			return s.nextLimited(ctx)
		}
		if n == 0 || s.next >= len(s.parts)*n {
			return nil, io.EOF
		}
		sc, err := s.t.NewKVScanner(ctx, s.parts[s.next/n], int32(s.next%n))
		switch {
		case errors.Is(err, ErrKVScanUnsupported):
			s.useLimit = true // from this bucket on
		case err != nil:
			return nil, err
		default:
			s.next++
			s.cur = sc
		}
	}
}

// nextLimited returns the rows of the next non-empty bucket by LIMIT_SCAN.
func (s *TableScan) nextLimited(ctx context.Context) ([][]any, error) {
	for {
		s.runAhead(ctx)
		if len(s.pending) == 0 {
			return nil, io.EOF
		}
		var res limitScanResult
		select {
		case res = <-s.pending[0]:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		s.pending = s.pending[1:]
		if res.err != nil {
			return nil, res.err
		}
		s.scanned += int64(len(res.rows))
		if s.scanned > s.maxRows {
			return nil, fmt.Errorf("%w: %s holds more than %s", ErrRowCap, s.t.info.Path, plural.Count(s.maxRows, "row"))
		}
		if len(res.rows) > 0 {
			return res.rows, nil
		}
	}
}

// runAhead starts the LIMIT_SCANs of the next buckets, up to
// limitScanAhead at once.
func (s *TableScan) runAhead(ctx context.Context) {
	n := s.t.info.NumBuckets()
	if s.ahead == nil {
		s.ahead, s.stop = context.WithCancel(ctx)
	}
	for len(s.pending) < limitScanAhead && n > 0 && s.next < len(s.parts)*n {
		part, bucket := s.parts[s.next/n], int32(s.next%n)
		s.next++
		ch := make(chan limitScanResult, 1)
		go func(ctx context.Context) {
			rows, err := s.t.LimitScan(ctx, part, bucket, int(s.maxRows+1))
			ch <- limitScanResult{rows, err}
		}(s.ahead)
		s.pending = append(s.pending, ch)
	}
}

// Close ends the scan, releasing a server-side SCAN_KV cursor if one is
// open and cancelling the LIMIT_SCANs running ahead.
func (s *TableScan) Close() {
	if s.stop != nil {
		s.stop()
		s.pending = nil
	}
	if s.cur != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		s.cur.Close(ctx)
		cancel()
		s.cur = nil
	}
}
