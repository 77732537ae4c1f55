package flussrpc

import (
	"encoding/binary"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
)

// The two write requests, PRODUCE_LOG and PUT_KV, are almost all record
// batches, carried as the bytes of a nested message per bucket.
// proto.Marshal copies each batch into the frame: a second copy of every
// byte written, kept while the frame waits for the socket and garbage right
// after, which a writer that outpaces the server pays for in peak heap.
// These requests are therefore encoded here, field by field in the order
// proto.Marshal writes them, with each batch a part of the frame of its
// own, referenced rather than copied. TestRecordsFrameMatchesProtoMarshal
// keeps the two encodings byte for byte the same.

// inlineRecords is the size up to which a batch is copied into the frame
// part before it: a small batch is cheaper to copy than to send as a part
// of its own, which over TLS becomes a record of its own.
const inlineRecords = 4 << 10

// Field numbers of the write requests (fluss_api.proto).
const (
	fieldAcks            protowire.Number = 1
	fieldTableID         protowire.Number = 2
	fieldTimeoutMs       protowire.Number = 3
	fieldProduceBuckets  protowire.Number = 4
	fieldTargetColumns   protowire.Number = 4
	fieldPutKvBuckets    protowire.Number = 5
	fieldAggMode         protowire.Number = 6
	fieldBucketPartition protowire.Number = 1
	fieldBucketID        protowire.Number = 2
	fieldBucketRecords   protowire.Number = 3
)

// encodeRecordsRequest encodes a PRODUCE_LOG or PUT_KV request with its
// batches referenced. ok is false for any other message, and for one that
// proto.Marshal must judge (encodable).
func encodeRecordsRequest(api APIKey, version int16, req proto.Message, maxSize int) (frame requestFrame, ok bool, err error) {
	var w recordsWriter
	switch r := req.(type) {
	case *pb.ProduceLogRequest:
		if !encodable(r, r.BucketsReq) {
			return requestFrame{}, false, nil
		}
		w.begin(api, version, *r.Acks, *r.TableId, *r.TimeoutMs)
		for _, b := range r.BucketsReq {
			w.bucket(fieldProduceBuckets, b.PartitionId, *b.BucketId, b.Records)
		}
	case *pb.PutKvRequest:
		if !encodable(r, r.BucketsReq) {
			return requestFrame{}, false, nil
		}
		w.begin(api, version, *r.Acks, *r.TableId, *r.TimeoutMs)
		w.packedInt32s(fieldTargetColumns, r.TargetColumns)
		for _, b := range r.BucketsReq {
			w.bucket(fieldPutKvBuckets, b.PartitionId, *b.BucketId, b.Records)
		}
		if r.AggMode != nil {
			w.int32Field(fieldAggMode, *r.AggMode)
		}
	default:
		return requestFrame{}, false, nil
	}
	frame, err = w.finish(api, maxSize)
	return frame, true, err
}

// encodable reports whether a write request with these bucket entries can
// be encoded here: every required field set (a nil entry has none) and no
// unknown fields, which only a decoded message has. Anything else is left
// to proto.Marshal, which rejects it or keeps the unknown fields.
func encodable[B proto.Message](req proto.Message, buckets []B) bool {
	if proto.CheckInitialized(req) != nil || len(req.ProtoReflect().GetUnknown()) > 0 {
		return false
	}
	for _, b := range buckets {
		if len(b.ProtoReflect().GetUnknown()) > 0 {
			return false
		}
	}
	return true
}

// recordsWriter appends a write request to a frame: cur is the part being
// written, parts the parts before it.
type recordsWriter struct {
	parts [][]byte
	cur   []byte
}

// begin writes the frame header and the three required scalars.
func (w *recordsWriter) begin(api APIKey, version int16, acks int32, tableID int64, timeoutMs int32) {
	w.cur = make([]byte, lengthFieldSize+requestHeaderSize, 128)
	binary.BigEndian.PutUint16(w.cur[4:], uint16(api))
	binary.BigEndian.PutUint16(w.cur[6:], uint16(version))
	w.int32Field(fieldAcks, acks)
	w.cur = protowire.AppendTag(w.cur, fieldTableID, protowire.VarintType)
	w.cur = protowire.AppendVarint(w.cur, uint64(tableID))
	w.int32Field(fieldTimeoutMs, timeoutMs)
}

// int32Field appends an int32 field; negative values take ten bytes, as
// protobuf sign-extends int32 to 64 bits.
func (w *recordsWriter) int32Field(n protowire.Number, v int32) {
	w.cur = protowire.AppendTag(w.cur, n, protowire.VarintType)
	w.cur = protowire.AppendVarint(w.cur, uint64(int64(v)))
}

// packedInt32s appends a packed repeated int32 field, nothing if empty.
func (w *recordsWriter) packedInt32s(n protowire.Number, vs []int32) {
	if len(vs) == 0 {
		return
	}
	size := 0
	for _, v := range vs {
		size += protowire.SizeVarint(uint64(int64(v)))
	}
	w.cur = protowire.AppendTag(w.cur, n, protowire.BytesType)
	w.cur = protowire.AppendVarint(w.cur, uint64(size))
	for _, v := range vs {
		w.cur = protowire.AppendVarint(w.cur, uint64(int64(v)))
	}
}

// bucket appends one bucket entry: the nested message's header and
// scalars into cur, its records as a part of their own unless small.
func (w *recordsWriter) bucket(n protowire.Number, partitionID *int64, bucketID int32, records []byte) {
	size := 1 + protowire.SizeVarint(uint64(int64(bucketID))) + 1 + protowire.SizeBytes(len(records))
	if partitionID != nil {
		size += 1 + protowire.SizeVarint(uint64(*partitionID))
	}
	w.cur = protowire.AppendTag(w.cur, n, protowire.BytesType)
	w.cur = protowire.AppendVarint(w.cur, uint64(size))
	if partitionID != nil {
		w.cur = protowire.AppendTag(w.cur, fieldBucketPartition, protowire.VarintType)
		w.cur = protowire.AppendVarint(w.cur, uint64(*partitionID))
	}
	w.int32Field(fieldBucketID, bucketID)
	w.cur = protowire.AppendTag(w.cur, fieldBucketRecords, protowire.BytesType)
	w.cur = protowire.AppendVarint(w.cur, uint64(len(records)))
	if len(records) <= inlineRecords {
		w.cur = append(w.cur, records...)
		return
	}
	w.parts = append(w.parts, w.cur, records)
	w.cur = make([]byte, 0, 64)
}

// finish closes the frame, checks its size and writes its length.
func (w *recordsWriter) finish(api APIKey, maxSize int) (requestFrame, error) {
	if len(w.cur) > 0 {
		w.parts = append(w.parts, w.cur)
	}
	f := requestFrame{head: w.parts[0]}
	if len(w.parts) > 1 {
		f.parts = w.parts
	}
	total := f.size()
	if total > maxSize || total-lengthFieldSize > math.MaxInt32 {
		return requestFrame{}, requestTooLarge(api, total, maxSize)
	}
	binary.BigEndian.PutUint32(f.head, uint32(total-lengthFieldSize))
	return f, nil
}
