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
// is a sample that may be cut short. Not safe for concurrent use; Close it
// when done.
type TableScan struct {
	t        *Table
	parts    []string
	next     int // index over (partition, bucket) pairs
	cur      *KVScanner
	useLimit bool
	maxRows  int64
	scanned  int64
}

// ScanTable returns a scan of the table's rows in the given partitions
// ("" alone for a table without partitions; see Partitions), capped at
// maxRows rows when the servers lack SCAN_KV.
func (t *Table) ScanTable(partitions []string, maxRows int64) *TableScan {
	return &TableScan{t: t, parts: partitions, maxRows: maxRows}
}

// Next returns the next rows, in the codec value model and the table's
// schema as of OpenTable; io.EOF at the end.
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
		if n == 0 || s.next >= len(s.parts)*n {
			return nil, io.EOF
		}
		part, bucket := s.parts[s.next/n], int32(s.next%n)
		s.next++
		if !s.useLimit {
			sc, err := s.t.NewKVScanner(ctx, part, bucket)
			switch {
			case errors.Is(err, ErrKVScanUnsupported):
				s.useLimit = true
			case err != nil:
				return nil, err
			default:
				s.cur = sc
				continue
			}
		}
		rows, err := s.t.LimitScan(ctx, part, bucket, int(s.maxRows+1))
		if err != nil {
			return nil, err
		}
		s.scanned += int64(len(rows))
		if s.scanned > s.maxRows {
			return nil, fmt.Errorf("%w: %s holds more than %s", ErrRowCap, s.t.info.Path, plural.Count(s.maxRows, "row"))
		}
		if len(rows) > 0 {
			return rows, nil
		}
	}
}

// Close ends the scan, releasing a server-side SCAN_KV cursor if one is
// open.
func (s *TableScan) Close() {
	if s.cur != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		s.cur.Close(ctx)
		cancel()
		s.cur = nil
	}
}
