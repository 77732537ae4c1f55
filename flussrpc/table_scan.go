package flussrpc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
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
	// records is set by NextArrow: the LIMIT_SCANs build records.
	records bool
	bld     *arrowipc.RowBuilder // for rows of SCAN_KV, by NextArrow
}

// limitScanAhead is how many LIMIT_SCANs of a TableScan may run at once:
// enough to keep two cores decoding, few enough that at most that many
// buckets' rows wait in memory.
const limitScanAhead = 3

// limitScanResult is the answer of one bucket's LIMIT_SCAN: its rows, or
// for NextArrow its record (nil when empty).
type limitScanResult struct {
	rows [][]any
	rec  arrow.RecordBatch
	err  error
}

// len is the number of rows of the answer.
func (r limitScanResult) len() int64 {
	if r.rec != nil {
		return r.rec.NumRows()
	}
	return int64(len(r.rows))
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
	if s.records {
		return nil, errors.New("flussrpc: Next on a TableScan read with NextArrow")
	}
	for {
		if rows, ok, err := s.kvRows(ctx); ok {
			return rows, err
		}
		if s.useLimit {
			res, err := s.nextAnswer(ctx)
			return res.rows, err
		}
		if err := s.openNext(ctx); err != nil {
			return nil, err
		}
	}
}

// NextArrow is Next returning the rows as an Arrow record batch of the
// table's columns (the Arrow schema arrowipc gives them), which the caller
// releases; io.EOF at the end. The rows of a LIMIT_SCAN answer in the
// compacted format go into the record field by field, with no row of
// values made in between. A scan is read with Next or with NextArrow,
// not both.
func (s *TableScan) NextArrow(ctx context.Context) (arrow.RecordBatch, error) {
	if !s.records {
		if s.next > 0 || s.cur != nil {
			return nil, errors.New("flussrpc: NextArrow on a TableScan read with Next")
		}
		s.records = true
	}
	for {
		if rows, ok, err := s.kvRows(ctx); ok {
			if err != nil {
				return nil, err
			}
			return s.recordOf(rows)
		}
		if s.useLimit {
			res, err := s.nextAnswer(ctx)
			return res.rec, err
		}
		if err := s.openNext(ctx); err != nil {
			return nil, err
		}
	}
}

// kvRows returns the next rows of the open SCAN_KV scanner; ok is false
// when none is open, or the open one just ended.
func (s *TableScan) kvRows(ctx context.Context) (rows [][]any, ok bool, err error) {
	if s.cur == nil {
		return nil, false, nil
	}
	rows, err = s.cur.Next(ctx)
	if errors.Is(err, io.EOF) {
		s.cur = nil
		return nil, false, nil
	}
	return rows, true, err
}

// openNext opens the SCAN_KV scanner of the next bucket, or turns the
// scan to LIMIT_SCAN where the servers lack SCAN_KV; io.EOF after the
// last bucket.
func (s *TableScan) openNext(ctx context.Context) error {
	n := s.t.info.NumBuckets()
	if n == 0 || s.next >= len(s.parts)*n {
		return io.EOF
	}
	sc, err := s.t.NewKVScanner(ctx, s.parts[s.next/n], int32(s.next%n))
	switch {
	case errors.Is(err, ErrKVScanUnsupported):
		s.useLimit = true // from this bucket on
		return nil
	case err != nil:
		return err
	}
	s.next++
	s.cur = sc
	return nil
}

// recordOf builds rows of SCAN_KV into a record for NextArrow.
func (s *TableScan) recordOf(rows [][]any) (arrow.RecordBatch, error) {
	if s.bld == nil {
		var err error
		if s.bld, err = arrowipc.NewRowBuilder(s.t.info.Descriptor.Schema.Columns, nil); err != nil {
			return nil, err
		}
	}
	for _, r := range rows {
		if err := s.bld.Append(r); err != nil {
			return nil, err
		}
	}
	return s.bld.NewRecord(), nil
}

// nextAnswer returns the next non-empty LIMIT_SCAN answer, checking the
// row cap; io.EOF after the last bucket's.
func (s *TableScan) nextAnswer(ctx context.Context) (limitScanResult, error) {
	for {
		s.runAhead(ctx)
		if len(s.pending) == 0 {
			return limitScanResult{}, io.EOF
		}
		var res limitScanResult
		select {
		case res = <-s.pending[0]:
		case <-ctx.Done():
			return limitScanResult{}, ctx.Err()
		}
		s.pending = s.pending[1:]
		if res.err != nil {
			return limitScanResult{}, res.err
		}
		s.scanned += res.len()
		if s.scanned > s.maxRows {
			if res.rec != nil {
				res.rec.Release()
			}
			return limitScanResult{}, fmt.Errorf("%w: %s holds more than %s", ErrRowCap, s.t.info.Path, plural.Count(s.maxRows, "row"))
		}
		if res.len() > 0 {
			return res, nil
		}
		if res.rec != nil {
			res.rec.Release()
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
		limit := int(s.maxRows + 1)
		go func(ctx context.Context) {
			var res limitScanResult
			if s.records {
				res.rec, res.err = limitScan(ctx, s.t, part, bucket, limit, func(ctx context.Context, recs []byte, _ ServerNode) (arrow.RecordBatch, error) {
					return s.t.valueBatchRecord(ctx, recs, limit)
				})
			} else {
				res.rows, res.err = s.t.LimitScan(ctx, part, bucket, limit)
			}
			ch <- res
		}(s.ahead)
		s.pending = append(s.pending, ch)
	}
}

// Close ends the scan, releasing a server-side SCAN_KV cursor if one is
// open and cancelling the LIMIT_SCANs running ahead.
func (s *TableScan) Close() {
	if s.bld != nil {
		s.bld.Release()
		s.bld = nil
	}
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
