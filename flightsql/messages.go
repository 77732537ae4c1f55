package flightsql

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
)

// maxMessageBytes bounds the Arrow data of one Flight message: gRPC
// clients refuse messages over 4 MiB unless configured otherwise, and the
// engine's records (64K rows) of wide rows are larger.
const maxMessageBytes = 2 << 20

// gatherBytes is the size up to which small records are gathered into one
// message: each message costs its gRPC framing and IPC header, and a scan
// of a table written in small batches yields hundreds of small records.
const gatherBytes = maxMessageBytes / 2

// messages cuts a stream of records of one schema into Flight messages:
// large records are sliced, small ones gathered and concatenated.
type messages struct {
	mem   memory.Allocator
	held  []arrow.RecordBatch
	bytes int64
}

// add takes rec (the caller keeps its reference) and returns the messages
// ready to send; the caller owns them.
func (m *messages) add(rec arrow.RecordBatch) ([]arrow.RecordBatch, error) {
	if rec.NumRows() == 0 {
		return nil, nil
	}
	size := int64(arrowipc.RecordBytes(rec))
	if size < gatherBytes {
		rec.Retain()
		m.held = append(m.held, rec)
		if m.bytes += size; m.bytes < gatherBytes {
			return nil, nil
		}
		return nonNil(m.flush())
	}
	msgs, err := nonNil(m.flush())
	if err != nil {
		return msgs, err
	}
	step := max(rec.NumRows()*maxMessageBytes/size, 1)
	for lo := int64(0); lo < rec.NumRows(); lo += step {
		msgs = append(msgs, rec.NewSlice(lo, min(lo+step, rec.NumRows())))
	}
	return msgs, nil
}

// nonNil makes a list of a message that may be nil, keeping an error.
func nonNil(rec arrow.RecordBatch, err error) ([]arrow.RecordBatch, error) {
	if rec == nil {
		return nil, err
	}
	return []arrow.RecordBatch{rec}, err
}

// flush returns the gathered records as one message, nil when none.
func (m *messages) flush() (arrow.RecordBatch, error) {
	held := m.held
	m.held, m.bytes = nil, 0
	switch len(held) {
	case 0:
		return nil, nil
	case 1:
		return held[0], nil
	}
	defer func() {
		for _, r := range held {
			r.Release()
		}
	}()
	return arrowipc.ConcatRecords(held, m.mem)
}

// release drops what is still held (a stream that ended early).
func (m *messages) release() {
	for _, r := range m.held {
		r.Release()
	}
	m.held, m.bytes = nil, 0
}
