package fakefluss

import (
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/pb"
)

// bucket is the data of one bucket: the current rows of a primary-key
// table, or the log of a log table.
type bucket struct {
	kv  map[string][]byte // key bytes -> stored value (schema id + row)
	log []logBatch
	end int64 // log end offset (high watermark: everything is committed)
}

// logBatch is one appended batch with its offsets assigned.
type logBatch struct {
	base, next int64
	commitTime int64
	raw        []byte
}

// Offsets of V0 header fields the server assigns on append (little
// endian, outside the range the CRC covers).
const (
	baseOffsetAt = 0
	commitTimeAt = 13
)

// bucketOf finds bucket id of t for a request served by node.
func (c *Cluster) bucketOf(t *table, partition *int64, id int32, node int32) (*bucket, error) {
	switch {
	case partition != nil:
		return nil, serverError{codePartitionNotExists, "fakefluss: partitions are not modelled"}
	case id < 0 || int(id) >= len(t.buckets):
		return nil, serverError{codeUnknownBucket, fmt.Sprintf("Unknown bucket %d of table %s", id, t.path)}
	case c.leaderless[id] || c.leader(id) != node:
		return nil, serverError{codeNotLeader, fmt.Sprintf("Server %d is not the leader of bucket %d of %s", node, id, t.path)}
	}
	return t.buckets[id], nil
}

// bucketError fills the error fields every per-bucket response has.
func bucketError(err error) (*int32, *string) {
	e := asServerError(err)
	return proto.Int32(e.code), proto.String(e.msg)
}

func (c *Cluster) initWriter(int32, *pb.InitWriterRequest) (proto.Message, error) {
	c.writerID++
	return &pb.InitWriterResponse{WriterId: proto.Int64(c.writerID)}, nil
}

func (c *Cluster) putKV(node int32, req *pb.PutKvRequest) (proto.Message, error) {
	t, err := c.tableByID(req.GetTableId())
	if err != nil {
		return nil, err
	}
	if !t.desc.HasPrimaryKey() {
		return nil, serverError{codeNonPrimaryKeyTable, fmt.Sprintf("Table %s is not a primary key table.", t.path)}
	}
	var partial *partialUpdate
	if cols := req.GetTargetColumns(); len(cols) > 0 {
		if partial, err = newPartialUpdate(t, cols); err != nil {
			return nil, err
		}
	}
	resp := &pb.PutKvResponse{}
	for _, br := range req.GetBucketsReq() {
		out := &pb.PbPutKvRespForBucket{PartitionId: br.PartitionId, BucketId: br.BucketId}
		if err := c.putBucket(t, br, partial, node); err != nil {
			out.ErrorCode, out.ErrorMessage = bucketError(err)
		}
		resp.BucketsResp = append(resp.BucketsResp, out)
	}
	return resp, nil
}

// putBucket applies the KV batch of one bucket; partial, when not nil,
// limits the writes to its target columns.
func (c *Cluster) putBucket(t *table, br *pb.PbPutKvReqForBucket, partial *partialUpdate, node int32) error {
	b, err := c.bucketOf(t, br.PartitionId, br.GetBucketId(), node)
	if err != nil {
		return err
	}
	batch, err := codec.ParseKvBatch(br.GetRecords())
	if err != nil {
		return serverError{codeCorruptRecord, err.Error()}
	}
	for _, r := range batch.Records {
		value := r.Value
		if partial != nil {
			if value, err = partial.merge(b.kv[string(r.Key)], r.Value); err != nil {
				return serverError{codeCorruptRecord, err.Error()}
			}
		}
		if value == nil {
			delete(b.kv, string(r.Key))
			continue
		}
		b.kv[string(r.Key)] = codec.AppendLookupValue(nil, batch.SchemaID, value)
	}
	return nil
}

// partialUpdate merges writes of some columns (PUT_KV target_columns)
// into the stored rows, as the server's partial updater does.
type partialUpdate struct {
	target []bool // by column position
	pk     []bool
	dec    *codec.RowDecoder
	enc    *codec.RowEncoder
}

func newPartialUpdate(t *table, cols []int32) (*partialUpdate, error) {
	s := t.desc.Schema
	format, ok := codec.ParseRowFormat(t.desc.KvFormat())
	if !ok {
		return nil, serverError{codeInvalidTable, "fakefluss: unknown kv format " + t.desc.KvFormat()}
	}
	dec, err := codec.NewRowDecoder(format, s.Types())
	if err != nil {
		return nil, err
	}
	enc, err := codec.NewRowEncoder(format, s.Types())
	if err != nil {
		return nil, err
	}
	p := &partialUpdate{target: make([]bool, len(s.Columns)), pk: make([]bool, len(s.Columns)), dec: dec, enc: enc}
	for _, c := range cols {
		if c < 0 || int(c) >= len(s.Columns) {
			return nil, serverError{codeInvalidTable, fmt.Sprintf("fakefluss: target column %d out of range", c)}
		}
		p.target[c] = true
	}
	for _, name := range s.PrimaryKey {
		p.pk[s.ColumnIndex(name)] = true
	}
	return p, nil
}

// merge returns the row to store (nil: none) given the stored value
// (schema id + row, nil when absent) and the written row (nil: a delete of
// the target columns).
func (p *partialUpdate) merge(stored, written []byte) ([]byte, error) {
	var old []any
	if stored != nil {
		v, err := codec.ParseLookupValue(stored)
		if err != nil {
			return nil, err
		}
		if old, err = p.dec.Decode(v.Row); err != nil {
			return nil, err
		}
	}
	if written == nil {
		if old == nil {
			return nil, nil
		}
		left := false
		for i := range old {
			if p.target[i] && !p.pk[i] {
				old[i] = nil
			}
			left = left || (!p.pk[i] && old[i] != nil)
		}
		if !left {
			return nil, nil // nothing but the key is left: the row goes
		}
		return p.enc.Encode(old)
	}
	row, err := p.dec.Decode(written)
	if err != nil || old == nil {
		return written, err
	}
	for i := range row {
		if !p.target[i] {
			row[i] = old[i]
		}
	}
	return p.enc.Encode(row)
}

func (c *Cluster) lookup(node int32, req *pb.LookupRequest) (proto.Message, error) {
	t, err := c.tableByID(req.GetTableId())
	if err != nil {
		return nil, err
	}
	resp := &pb.LookupResponse{}
	for _, br := range req.GetBucketsReq() {
		out := &pb.PbLookupRespForBucket{PartitionId: br.PartitionId, BucketId: br.BucketId}
		b, err := c.bucketOf(t, br.PartitionId, br.GetBucketId(), node)
		if err != nil {
			out.ErrorCode, out.ErrorMessage = bucketError(err)
		} else {
			for _, k := range br.GetKeys() {
				out.Values = append(out.Values, &pb.PbValue{Values: b.kv[string(k)]})
			}
		}
		resp.BucketsResp = append(resp.BucketsResp, out)
	}
	return resp, nil
}

func (c *Cluster) produceLog(node int32, req *pb.ProduceLogRequest) (proto.Message, error) {
	t, err := c.tableByID(req.GetTableId())
	if err != nil {
		return nil, err
	}
	if t.desc.HasPrimaryKey() {
		return nil, serverError{codeInvalidTable, fmt.Sprintf("Table %s is a primary key table: write it with PUT_KV.", t.path)}
	}
	resp := &pb.ProduceLogResponse{}
	for _, br := range req.GetBucketsReq() {
		out := &pb.PbProduceLogRespForBucket{PartitionId: br.PartitionId, BucketId: br.BucketId}
		base, err := c.appendBucket(t, br, node)
		if err != nil {
			out.ErrorCode, out.ErrorMessage = bucketError(err)
		} else {
			out.BaseOffset = proto.Int64(base)
		}
		resp.BucketsResp = append(resp.BucketsResp, out)
	}
	return resp, nil
}

// appendBucket appends the batches of one bucket, assigning offsets and
// commit timestamps as the server does, and returns the first offset.
func (c *Cluster) appendBucket(t *table, br *pb.PbProduceLogReqForBucket, node int32) (int64, error) {
	b, err := c.bucketOf(t, br.PartitionId, br.GetBucketId(), node)
	if err != nil {
		return 0, err
	}
	var batches []logBatch
	end := b.end
	it := codec.NewLogBatchIterator(br.GetRecords(), codec.Line09)
	for lb, ok := it.Next(); ok; lb, ok = it.Next() {
		if err := lb.VerifyCRC(); err != nil {
			return 0, serverError{codeCorruptRecord, err.Error()}
		}
		raw := slices.Clone(lb.Raw)
		at := now()
		binary.LittleEndian.PutUint64(raw[baseOffsetAt:], uint64(end))
		binary.LittleEndian.PutUint64(raw[commitTimeAt:], uint64(at))
		next := end + int64(lb.Header.LastOffsetDelta) + 1
		batches = append(batches, logBatch{base: end, next: next, commitTime: at, raw: raw})
		end = next
	}
	if it.Err() != nil || it.Truncated() {
		return 0, serverError{codeCorruptRecord, fmt.Sprintf("fakefluss: bad log records (truncated %v): %v", it.Truncated(), it.Err())}
	}
	base := b.end
	b.log = append(b.log, batches...)
	b.end = end
	return base, nil
}

// fetchWait bounds how long an empty fetch waits for data (the request's
// max_wait_ms, capped so that tests stay fast).
const fetchWait = 20 * time.Millisecond

func (c *Cluster) fetchLog(node int32, req *pb.FetchLogRequest) (proto.Message, error) {
	resp, any := c.fetchOnce(node, req)
	if !any && req.GetMaxWaitMs() > 0 {
		c.mu.Unlock() // let writers in while waiting
		time.Sleep(min(fetchWait, time.Duration(req.GetMaxWaitMs())*time.Millisecond))
		c.mu.Lock()
		resp, _ = c.fetchOnce(node, req)
	}
	return resp, nil
}

// fetchOnce answers a fetch from what is there; any reports whether some
// bucket returned records.
func (c *Cluster) fetchOnce(node int32, req *pb.FetchLogRequest) (resp *pb.FetchLogResponse, any bool) {
	resp = &pb.FetchLogResponse{}
	for _, tr := range req.GetTablesReq() {
		out := &pb.PbFetchLogRespForTable{TableId: tr.TableId}
		t, terr := c.tableByID(tr.GetTableId())
		var proj []int32
		if tr.GetProjectionPushdownEnabled() {
			proj = tr.GetProjectedFields()
		}
		for _, br := range tr.GetBucketsReq() {
			bo := &pb.PbFetchLogRespForBucket{PartitionId: br.PartitionId, BucketId: br.BucketId}
			if terr != nil {
				bo.ErrorCode, bo.ErrorMessage = bucketError(terr)
			} else if err := c.fetchBucket(t, br, proj, node, bo); err != nil {
				bo.ErrorCode, bo.ErrorMessage = bucketError(err)
			}
			any = any || len(bo.Records) > 0
			out.BucketsResp = append(out.BucketsResp, bo)
		}
		resp.TablesResp = append(resp.TablesResp, out)
	}
	return resp, any
}

// fetchBucket returns whole batches from the one holding the fetch offset
// on, at least one and then up to max_fetch_bytes; proj, when not nil,
// are the columns to keep (projection push-down, ARROW tables).
func (c *Cluster) fetchBucket(t *table, br *pb.PbFetchLogReqForBucket, proj []int32, node int32, out *pb.PbFetchLogRespForBucket) error {
	b, err := c.bucketOf(t, br.PartitionId, br.GetBucketId(), node)
	if err != nil {
		return err
	}
	from := br.GetFetchOffset()
	if from < 0 || from > b.end {
		return serverError{codeLogOffsetOutOfRange, fmt.Sprintf("Fetch offset %d is out of range [0, %d] of bucket %d of %s", from, b.end, br.GetBucketId(), t.path)}
	}
	out.HighWatermark = proto.Int64(b.end)
	out.LogStartOffset = proto.Int64(0)
	var records []byte
	for _, lb := range b.log {
		if lb.next <= from {
			continue
		}
		raw := lb.raw
		if proj != nil {
			if raw, err = project(t, raw, proj); err != nil {
				return serverError{codeCorruptRecord, "fakefluss: projecting: " + err.Error()}
			}
		}
		if len(records) > 0 && len(records)+len(raw) > int(br.GetMaxFetchBytes()) {
			break
		}
		records = append(records, raw...)
	}
	out.Records = records
	return nil
}

// ListOffsetsRequest.offset_type values.
const (
	offsetEarliest  = 0
	offsetLatest    = 1
	offsetTimestamp = 2
)

func (c *Cluster) listOffsets(node int32, req *pb.ListOffsetsRequest) (proto.Message, error) {
	t, err := c.tableByID(req.GetTableId())
	if err != nil {
		return nil, err
	}
	resp := &pb.ListOffsetsResponse{}
	for _, id := range req.GetBucketId() {
		out := &pb.PbListOffsetsRespForBucket{BucketId: proto.Int32(id)}
		off, err := c.offset(t, req, id, node)
		if err != nil {
			out.ErrorCode, out.ErrorMessage = bucketError(err)
		} else {
			out.Offset = proto.Int64(off)
		}
		resp.BucketsResp = append(resp.BucketsResp, out)
	}
	return resp, nil
}

func (c *Cluster) offset(t *table, req *pb.ListOffsetsRequest, id int32, node int32) (int64, error) {
	b, err := c.bucketOf(t, req.PartitionId, id, node)
	if err != nil {
		return 0, err
	}
	switch req.GetOffsetType() {
	case offsetEarliest:
		return 0, nil
	case offsetLatest:
		return b.end, nil
	case offsetTimestamp:
		for _, lb := range b.log {
			if lb.commitTime >= req.GetStartTimestamp() {
				return lb.base, nil
			}
		}
		return b.end, nil
	}
	return 0, serverError{codeInvalidTable, fmt.Sprintf("fakefluss: unknown offset type %d", req.GetOffsetType())}
}

func (c *Cluster) limitScan(node int32, req *pb.LimitScanRequest) (proto.Message, error) {
	t, err := c.tableByID(req.GetTableId())
	if err != nil {
		return nil, err
	}
	b, err := c.bucketOf(t, req.PartitionId, req.GetBucketId(), node)
	if err != nil {
		return nil, err
	}
	limit := int(req.GetLimit())
	if !t.desc.HasPrimaryKey() {
		return &pb.LimitScanResponse{IsLogTable: proto.Bool(true), Records: b.tail(int64(limit))}, nil
	}
	keys := make([]string, 0, len(b.kv))
	for k := range b.kv {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var recs []codec.ValueRecord
	for _, k := range keys[:min(limit, len(keys))] {
		v, err := codec.ParseLookupValue(b.kv[k])
		if err != nil {
			return nil, err
		}
		recs = append(recs, v)
	}
	return &pb.LimitScanResponse{IsLogTable: proto.Bool(false), Records: codec.BuildValueBatch(nil, recs)}, nil
}

// tail returns the batches holding the last n records of the log.
func (b *bucket) tail(n int64) []byte {
	var out []byte
	for _, lb := range b.log {
		if lb.next > b.end-n {
			out = append(out, lb.raw...)
		}
	}
	return out
}

func (c *Cluster) tableStats(node int32, req *pb.GetTableStatsRequest) (proto.Message, error) {
	t, err := c.tableByID(req.GetTableId())
	if err != nil {
		return nil, err
	}
	resp := &pb.GetTableStatsResponse{}
	for _, br := range req.GetBucketsReq() {
		out := &pb.PbTableStatsRespForBucket{PartitionId: br.PartitionId, BucketId: br.BucketId}
		if b, err := c.bucketOf(t, br.PartitionId, br.GetBucketId(), node); err != nil {
			out.ErrorCode, out.ErrorMessage = bucketError(err)
		} else if t.desc.HasPrimaryKey() {
			out.RowCount = proto.Int64(int64(len(b.kv)))
		} else {
			out.RowCount = proto.Int64(b.end)
		}
		resp.BucketsResp = append(resp.BucketsResp, out)
	}
	return resp, nil
}
