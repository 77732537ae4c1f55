package flussrpc

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
	"github.com/gofluss/fluss/flussrpc/pb"
)

// LimitScan returns up to limit rows of one bucket (partition "" for
// non-partitioned tables) with one LIMIT_SCAN request: the last limit
// records of a log table's log, in offset order, or the first limit rows
// of a primary-key table's current state, in key-byte order. Rows are
// mapped to the table's schema as of OpenTable. It is a bounded sample,
// not a full scan.
func (t *Table) LimitScan(ctx context.Context, partition string, bucket int32, limit int) ([][]any, error) {
	return limitScan(ctx, t, partition, bucket, limit, func(ctx context.Context, recs []byte, node ServerNode) ([][]any, error) {
		var rows [][]any
		var err error
		if t.info.Descriptor.HasPrimaryKey() {
			rows, err = t.decodeValueBatch(ctx, recs)
		} else {
			rows, err = t.decodeLogRows(ctx, recs, node)
		}
		if len(rows) > limit {
			// Whole batches come back; keep the last limit records.
			rows = rows[len(rows)-limit:]
		}
		return rows, err
	})
}

// limitScan sends the LIMIT_SCAN of one bucket, waiting out stale
// routing, and decodes a non-empty answer's records with decode (an
// empty answer gives the zero T).
func limitScan[T any](ctx context.Context, t *Table, partition string, bucket int32, limit int,
	decode func(ctx context.Context, recs []byte, node ServerNode) (T, error)) (T, error) {
	var zero T
	if limit <= 0 {
		return zero, fmt.Errorf("flussrpc: LimitScan limit must be positive, got %d", limit)
	}
	if bucket < 0 || int(bucket) >= t.info.NumBuckets() {
		return zero, fmt.Errorf("flussrpc: bucket %d out of range for %s", bucket, t.info.Path)
	}
	path := PhysicalPath{TablePath: t.info.Path, Partition: partition}
	r := t.c.routingRetrier()
	for {
		recs, node, err := t.limitScanOnce(ctx, path, bucket, limit)
		if err == nil {
			if len(recs) == 0 {
				return zero, nil
			}
			out, err := decode(ctx, recs, node)
			if err != nil {
				return zero, fmt.Errorf("flussrpc: limit scan of bucket %d of %s: %w", bucket, path, err)
			}
			return out, nil
		}
		if !IsRetriable(err) {
			return zero, err
		}
		if IsInvalidMetadata(err) {
			t.c.meta.invalidate(path)
		}
		if ok, werr := r.again(ctx); !ok {
			if werr != nil {
				return zero, errors.Join(werr, err)
			}
			return zero, err
		}
	}
}

// limitScanOnce sends one LIMIT_SCAN and returns the answer's records and
// the server that sent them.
func (t *Table) limitScanOnce(ctx context.Context, path PhysicalPath, bucket int32, limit int) ([]byte, ServerNode, error) {
	node, rt, err := t.c.leaderOf(ctx, path, bucket)
	if err != nil {
		return nil, node, err
	}
	req := &pb.LimitScanRequest{TableId: proto.Int64(rt.tableID), BucketId: proto.Int32(bucket), Limit: proto.Int32(int32(min(limit, 1<<30)))}
	if rt.partitionID >= 0 {
		req.PartitionId = proto.Int64(rt.partitionID)
	}
	var resp pb.LimitScanResponse
	if err := callNode(ctx, t.c, node, rpcLimitScan, req, &resp); err != nil {
		return nil, node, err
	}
	if err := ErrorFromCode(resp.GetErrorCode(), resp.GetErrorMessage()); err != nil {
		return nil, node, err
	}
	return resp.GetRecords(), node, nil
}

func (t *Table) decodeValueBatch(ctx context.Context, b []byte) ([][]any, error) {
	vals, _, rd, err := t.parseValueBatch(b)
	if err != nil {
		return nil, err
	}
	rows := make([][]any, 0, len(vals))
	for _, v := range vals {
		row, err := rd.decodeValue(ctx, v)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// valueBatchRecord decodes the last limit rows of a primary-key table's
// value batch b into an Arrow record of the table's columns. Rows in the
// compacted format of the table's current schema go into the record
// field by field (RowBuilder.AppendCompacted); others are decoded into
// values and mapped to the current schema first, as decodeValueBatch does.
func (t *Table) valueBatchRecord(ctx context.Context, b []byte, limit int) (arrow.RecordBatch, error) {
	vals, rf, rd, err := t.parseValueBatch(b)
	if err != nil {
		return nil, err
	}
	if len(vals) > limit {
		vals = vals[len(vals)-limit:]
	}
	bld, err := arrowipc.NewRowBuilder(t.info.Descriptor.Schema.Columns, nil)
	if err != nil {
		return nil, err
	}
	defer bld.Release()
	current := int16(t.info.SchemaID)
	for _, v := range vals {
		if rf == codec.FormatCompacted && v.SchemaID == current {
			err = bld.AppendCompacted(v.Row)
		} else {
			var row []any
			if row, err = rd.decodeValue(ctx, v); err == nil {
				err = bld.Append(row)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return bld.NewRecord(), nil
}

// parseValueBatch splits a primary-key table's value batch into its
// records and gives the table's row format and the readers of its schemas.
func (t *Table) parseValueBatch(b []byte) ([]codec.ValueRecord, codec.RowFormat, *evolveReaders, error) {
	vals, err := codec.ParseValueBatch(b)
	if err != nil {
		return nil, 0, nil, err
	}
	rf, ok := codec.ParseRowFormat(t.info.Descriptor.KvFormat())
	if !ok {
		return nil, 0, nil, fmt.Errorf("unsupported kv format %q", t.info.Descriptor.KvFormat())
	}
	return vals, rf, newEvolveReaders(t, rf), nil
}

// decodeLogRows decodes concatenated log batches into table rows.
func (t *Table) decodeLogRows(ctx context.Context, b []byte, node ServerNode) ([][]any, error) {
	proj, err := newProjection(t, nil)
	if err != nil {
		return nil, err
	}
	dec, err := newScanDecoders(t, proj, false)
	if err != nil {
		return nil, err
	}
	defer dec.release()
	c := &completedFetch{records: b, line: serverLineOf(ctx, t.c, node)}
	recs, _, err := dec.rows(ctx, nil, c, readWindow{from: EarliestOffset, end: -1})
	if err != nil {
		return nil, err
	}
	rows := make([][]any, len(recs))
	for i, r := range recs {
		rows[i] = r.Row
	}
	return rows, nil
}

// serverLineOf tells how a server writes magic-1 batches: 1.x servers
// advertise SCAN_KV, 0.9 servers do not.
func serverLineOf(ctx context.Context, c *Client, node ServerNode) codec.ServerLine {
	if cn, err := c.connTo(ctx, node.Addr()); err == nil {
		if _, has := cn.advertised[APIKeyScanKV]; has {
			return codec.Line1x
		}
	}
	return codec.Line09
}

// ErrKVScanUnsupported is returned by NewKVScanner when the bucket's
// tablet server does not serve SCAN_KV (API 1061). Full scans of a
// primary-key table's current state need Fluss 1.0 or newer; 0.9 servers
// only offer LIMIT_SCAN and KV snapshots (RocksDB files).
var ErrKVScanUnsupported = errors.New("flussrpc: full KV scan (SCAN_KV, API 1061) requires a Fluss 1.0+ tablet server")

// KVScanner reads the whole current state of one bucket of a primary-key
// table with SCAN_KV (Fluss 1.x), batch by batch. Not safe for concurrent
// use. Close it when abandoning the scan early.
type KVScanner struct {
	t       *Table
	node    ServerNode
	req     *pb.PbScanReqForBucket
	id      []byte
	seq     int32
	done    bool
	started bool
}

// NewKVScanner prepares a full scan of one bucket (partition "" for
// non-partitioned tables). It fails with ErrKVScanUnsupported when the
// bucket's leader does not advertise SCAN_KV.
func (t *Table) NewKVScanner(ctx context.Context, partition string, bucket int32) (*KVScanner, error) {
	if !t.info.Descriptor.HasPrimaryKey() {
		return nil, fmt.Errorf("%w: %s is a log table", ErrNotPrimaryKeyTable, t.info.Path)
	}
	path := PhysicalPath{TablePath: t.info.Path, Partition: partition}
	node, rt, err := t.c.leaderOf(ctx, path, bucket)
	if err != nil {
		return nil, err
	}
	cn, err := t.c.connTo(ctx, node.Addr())
	if err != nil {
		return nil, err
	}
	if _, ok := cn.apiVersion(APIKeyScanKV); !ok {
		return nil, fmt.Errorf("%w: %s (%s) does not advertise it", ErrKVScanUnsupported, node.UID(), node.Addr())
	}
	req := &pb.PbScanReqForBucket{TableId: proto.Int64(rt.tableID), BucketId: proto.Int32(bucket)}
	if rt.partitionID >= 0 {
		req.PartitionId = proto.Int64(rt.partitionID)
	}
	return &KVScanner{t: t, node: node, req: req}, nil
}

// Next returns the next batch of rows, or io.EOF after the last one.
func (s *KVScanner) Next(ctx context.Context) ([][]any, error) {
	if s.done {
		return nil, io.EOF
	}
	req := &pb.ScanKvRequest{CallSeqId: proto.Int32(s.seq)}
	if !s.started {
		req.BucketScanReq = s.req
	} else {
		req.ScannerId = s.id
	}
	var resp pb.ScanKvResponse
	if err := callNode(ctx, s.t.c, s.node, rpcScanKV, req, &resp); err != nil {
		return nil, err
	}
	if err := ErrorFromCode(resp.GetErrorCode(), resp.GetErrorMessage()); err != nil {
		s.done = true
		return nil, err
	}
	s.started = true
	s.seq++
	if id := resp.GetScannerId(); len(id) > 0 {
		s.id = id
	}
	s.done = !resp.GetHasMoreResults()
	var rows [][]any
	if recs := resp.GetRecords(); len(recs) > 0 {
		var err error
		if rows, err = s.t.decodeValueBatch(ctx, recs); err != nil {
			return nil, err
		}
	}
	if len(rows) == 0 && s.done {
		return nil, io.EOF
	}
	return rows, nil
}

// Close abandons an unfinished scan, releasing the server-side scanner.
func (s *KVScanner) Close(ctx context.Context) error {
	if s.done || !s.started {
		s.done = true
		return nil
	}
	s.done = true
	req := &pb.ScanKvRequest{ScannerId: s.id, CallSeqId: proto.Int32(s.seq), CloseScanner: proto.Bool(true)}
	return callNode(ctx, s.t.c, s.node, rpcScanKV, req, &pb.ScanKvResponse{})
}
