package flussrpc

import (
	"context"
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
	"github.com/gofluss/fluss/flussrpc/pb"
)

// Test-only writers for the read-path tests: they build batches with
// package codec and send raw PRODUCE_LOG / PUT_KV requests, so that the
// readers are checked against data written independently of them (and of
// the writer package code being developed alongside).

// ScanTestBucket is where ScanTestWrite put one row.
type ScanTestBucket struct {
	Partition string
	Bucket    int32
}

// ScanTestLogEncoder turns rows of one table schema into the records of a
// log batch; ARROW tables need one from the arrow test helpers.
type ScanTestLogEncoder func(rows [][]any, cts []codec.ChangeType) ([]byte, error)

// ScanTestRowLogEncoder returns a log-batch encoder for INDEXED and
// COMPACTED log tables.
func ScanTestRowLogEncoder(t *Table) (ScanTestLogEncoder, error) {
	d := &t.info.Descriptor
	lf, err := codec.ParseLogFormat(d.LogFormat())
	if err != nil {
		return nil, err
	}
	rf, ok := lf.RowFormat()
	if !ok {
		return nil, fmt.Errorf("log format %s is not a row format", d.LogFormat())
	}
	enc, err := codec.NewRowEncoder(rf, d.Schema.Types())
	if err != nil {
		return nil, err
	}
	return func(rows [][]any, cts []codec.ChangeType) ([]byte, error) {
		b, err := codec.NewLogBatchBuilder(lf, int16(t.info.SchemaID), enc, cts == nil)
		if err != nil {
			return nil, err
		}
		for i, r := range rows {
			ct := codec.AppendOnly
			if cts != nil {
				ct = cts[i]
			}
			if err := b.Append(ct, r); err != nil {
				return nil, err
			}
		}
		return append([]byte(nil), b.Build()...), nil
	}, nil
}

// scanTestPlace computes partition and bucket of a full row; rows of log
// tables without bucket key go to bucket i % numBuckets.
func scanTestPlace(t *Table, keys *codec.TableKeys, row []any, i int) (ScanTestBucket, []byte, error) {
	d := &t.info.Descriptor
	var out ScanTestBucket
	idx, err := d.PartitionKeyIndexes()
	if err != nil {
		return out, nil, err
	}
	if len(idx) > 0 {
		if out.Partition, err = codec.PartitionNameOf(d.Schema.Types(), idx, row); err != nil {
			return out, nil, err
		}
	}
	key, bk, err := keys.EncodeKeys(row)
	if err != nil {
		return out, nil, err
	}
	n := t.info.NumBuckets()
	if bk == nil {
		out.Bucket = int32(i % n)
		return out, key, nil
	}
	b, err := keys.Bucketing.Bucket(bk, n)
	out.Bucket = int32(b)
	return out, key, err
}

// ScanTestAppend writes rows to a log table, one PRODUCE_LOG per
// (partition, bucket) in row order, and returns where each row went plus
// the base offset per bucket.
func ScanTestAppend(ctx context.Context, t *Table, enc ScanTestLogEncoder, rows [][]any) ([]ScanTestBucket, map[ScanTestBucket]int64, error) {
	keys, err := codec.NewTableKeys(&t.info.Descriptor)
	if err != nil {
		return nil, nil, err
	}
	where := make([]ScanTestBucket, len(rows))
	groups := map[ScanTestBucket][][]any{}
	var order []ScanTestBucket
	for i, r := range rows {
		p, _, err := scanTestPlace(t, keys, r, i)
		if err != nil {
			return nil, nil, err
		}
		where[i] = p
		if _, ok := groups[p]; !ok {
			order = append(order, p)
		}
		groups[p] = append(groups[p], r)
	}
	base := map[ScanTestBucket]int64{}
	for _, p := range order {
		recs, err := enc(groups[p], nil)
		if err != nil {
			return nil, nil, err
		}
		off, err := ScanTestProduce(ctx, t, p, recs)
		if err != nil {
			return nil, nil, err
		}
		base[p] = off
	}
	return where, base, nil
}

// ScanTestProduce sends one PRODUCE_LOG (acks=-1) with records to a bucket
// and returns the base offset the server assigned.
func ScanTestProduce(ctx context.Context, t *Table, p ScanTestBucket, records []byte) (int64, error) {
	path := PhysicalPath{TablePath: t.info.Path, Partition: p.Partition}
	r := t.c.routingRetrier()
	for {
		n, rt, err := t.c.leaderOf(ctx, path, p.Bucket)
		if err != nil {
			return 0, err
		}
		b := &pb.PbProduceLogReqForBucket{BucketId: proto.Int32(p.Bucket), Records: records}
		if rt.partitionID >= 0 {
			b.PartitionId = proto.Int64(rt.partitionID)
		}
		req := &pb.ProduceLogRequest{Acks: proto.Int32(-1), TableId: proto.Int64(rt.tableID), TimeoutMs: proto.Int32(30000), BucketsReq: []*pb.PbProduceLogReqForBucket{b}}
		var resp pb.ProduceLogResponse
		err = callNode(ctx, t.c, n, rpcProduceLog, req, &resp)
		if err == nil && len(resp.GetBucketsResp()) == 1 {
			br := resp.GetBucketsResp()[0]
			err = ErrorFromCode(br.GetErrorCode(), br.GetErrorMessage())
			if err == nil {
				return br.GetBaseOffset(), nil
			}
		}
		if err == nil {
			err = fmt.Errorf("produce answered %d buckets", len(resp.GetBucketsResp()))
		}
		if !IsRetriable(err) {
			return 0, err
		}
		t.c.meta.invalidate(path)
		if ok, werr := r.again(ctx); !ok {
			if werr != nil {
				return 0, werr
			}
			return 0, err
		}
	}
}

// ScanTestUpsert writes rows to a primary-key table (a nil value in
// deletes[i] == true deletes the row's key), one PUT_KV per bucket in row
// order, and returns where each row went.
func ScanTestUpsert(ctx context.Context, t *Table, rows [][]any, deletes []bool) ([]ScanTestBucket, error) {
	d := &t.info.Descriptor
	keys, err := codec.NewTableKeys(d)
	if err != nil {
		return nil, err
	}
	rf, ok := codec.ParseRowFormat(d.KvFormat())
	if !ok {
		return nil, fmt.Errorf("kv format %q", d.KvFormat())
	}
	enc, err := codec.NewRowEncoder(rf, d.Schema.Types())
	if err != nil {
		return nil, err
	}
	where := make([]ScanTestBucket, len(rows))
	builders := map[ScanTestBucket]*codec.KvBatchBuilder{}
	var order []ScanTestBucket
	for i, r := range rows {
		p, key, err := scanTestPlace(t, keys, r, i)
		if err != nil {
			return nil, err
		}
		where[i] = p
		b := builders[p]
		if b == nil {
			b = codec.NewKvBatchBuilder(int16(t.info.SchemaID))
			builders[p] = b
			order = append(order, p)
		}
		var val []byte
		if deletes == nil || !deletes[i] {
			if val, err = enc.Encode(r); err != nil {
				return nil, err
			}
		}
		if err := b.Append(key, val); err != nil {
			return nil, err
		}
	}
	for _, p := range order {
		if err := scanTestPut(ctx, t, p, builders[p].Build()); err != nil {
			return nil, err
		}
	}
	return where, nil
}

func scanTestPut(ctx context.Context, t *Table, p ScanTestBucket, records []byte) error {
	path := PhysicalPath{TablePath: t.info.Path, Partition: p.Partition}
	r := t.c.routingRetrier()
	for {
		n, rt, err := t.c.leaderOf(ctx, path, p.Bucket)
		if err != nil {
			return err
		}
		b := &pb.PbPutKvReqForBucket{BucketId: proto.Int32(p.Bucket), Records: records}
		if rt.partitionID >= 0 {
			b.PartitionId = proto.Int64(rt.partitionID)
		}
		req := &pb.PutKvRequest{Acks: proto.Int32(-1), TableId: proto.Int64(rt.tableID), TimeoutMs: proto.Int32(30000), BucketsReq: []*pb.PbPutKvReqForBucket{b}}
		var resp pb.PutKvResponse
		err = callNode(ctx, t.c, n, rpcPutKV, req, &resp)
		if err == nil && len(resp.GetBucketsResp()) == 1 {
			br := resp.GetBucketsResp()[0]
			if err = ErrorFromCode(br.GetErrorCode(), br.GetErrorMessage()); err == nil {
				return nil
			}
		}
		if err == nil {
			err = fmt.Errorf("put answered %d buckets", len(resp.GetBucketsResp()))
		}
		if !IsRetriable(err) {
			return err
		}
		t.c.meta.invalidate(path)
		if ok, werr := r.again(ctx); !ok {
			if werr != nil {
				return werr
			}
			return err
		}
	}
}

// ScanTestRemoteReads reports how many fetch answers of s were served from
// remote (tiered) log segments.
func ScanTestRemoteReads(s *LogScanner) int64 { return s.fetch.remoteReads.Load() }

// ScanTestLogEncoderFor returns a log-batch encoder for any log format:
// ARROW batches are built with package arrowipc in the table's own
// compression.
func ScanTestLogEncoderFor(t *Table) (ScanTestLogEncoder, error) {
	d := &t.info.Descriptor
	if d.LogFormat() != "ARROW" {
		return ScanTestRowLogEncoder(t)
	}
	enc, err := arrowipc.NewTableEncoder(d, nil)
	if err != nil {
		return nil, err
	}
	return func(rows [][]any, cts []codec.ChangeType) ([]byte, error) {
		b, err := arrowipc.NewRowBuilder(d.Schema.Columns, nil)
		if err != nil {
			return nil, err
		}
		defer b.Release()
		for _, r := range rows {
			if err := b.Append(r); err != nil {
				return nil, err
			}
		}
		rec := b.NewRecord()
		defer rec.Release()
		return enc.AppendLogBatch(nil, codec.ArrowBatch{SchemaID: int16(t.info.SchemaID), WriterID: codec.NoWriterID, BatchSequence: codec.NoBatchSequence, ChangeTypes: cts}, rec)
	}, nil
}
