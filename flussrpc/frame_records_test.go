package flussrpc

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
	"unsafe"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
)

// marshalFrame is the reference encoding of a request frame: the whole
// body through proto.Marshal.
func marshalFrame(t testing.TB, api APIKey, version int16, req proto.Message) []byte {
	t.Helper()
	body, err := proto.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	frame := make([]byte, lengthFieldSize+requestHeaderSize, lengthFieldSize+requestHeaderSize+len(body))
	binary.BigEndian.PutUint32(frame, uint32(requestHeaderSize+len(body)))
	binary.BigEndian.PutUint16(frame[4:], uint16(api))
	binary.BigEndian.PutUint16(frame[6:], uint16(version))
	return append(frame, body...)
}

// joined is the bytes of f, its parts concatenated.
func joined(f requestFrame) []byte {
	if f.parts == nil {
		return f.head
	}
	return bytes.Join(f.parts, nil)
}

// records returns n bytes of a recognisable pattern.
func records(n int, seed byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = seed + byte(i)
	}
	return b
}

func TestRecordsFrameMatchesProtoMarshal(t *testing.T) {
	large := records(inlineRecords+1, 1)
	tests := []struct {
		name string
		api  APIKey
		req  proto.Message
	}{
		{"produce without buckets", APIKeyProduceLog, &pb.ProduceLogRequest{Acks: proto.Int32(-1), TableId: proto.Int64(7), TimeoutMs: proto.Int32(30000)}},
		{"produce small batch", APIKeyProduceLog, &pb.ProduceLogRequest{Acks: proto.Int32(1), TableId: proto.Int64(1 << 40), TimeoutMs: proto.Int32(1),
			BucketsReq: []*pb.PbProduceLogReqForBucket{{BucketId: proto.Int32(3), Records: records(100, 9)}}}},
		{"produce empty batch", APIKeyProduceLog, &pb.ProduceLogRequest{Acks: proto.Int32(0), TableId: proto.Int64(0), TimeoutMs: proto.Int32(0),
			BucketsReq: []*pb.PbProduceLogReqForBucket{{BucketId: proto.Int32(0), Records: []byte{}}}}},
		{"produce mixed partitions", APIKeyProduceLog, &pb.ProduceLogRequest{Acks: proto.Int32(-1), TableId: proto.Int64(-5), TimeoutMs: proto.Int32(-1),
			BucketsReq: []*pb.PbProduceLogReqForBucket{
				{PartitionId: proto.Int64(12), BucketId: proto.Int32(0), Records: large},
				{BucketId: proto.Int32(-1), Records: records(inlineRecords, 2)},
				{PartitionId: proto.Int64(-3), BucketId: proto.Int32(1 << 30), Records: records(3<<20, 3)},
			}}},
		{"put kv whole rows", APIKeyPutKV, &pb.PutKvRequest{Acks: proto.Int32(-1), TableId: proto.Int64(42), TimeoutMs: proto.Int32(30000),
			BucketsReq: []*pb.PbPutKvReqForBucket{{BucketId: proto.Int32(2), Records: large}, {BucketId: proto.Int32(3), Records: records(10, 4)}}}},
		{"put kv partial update", APIKeyPutKV, &pb.PutKvRequest{Acks: proto.Int32(1), TableId: proto.Int64(42), TimeoutMs: proto.Int32(10),
			TargetColumns: []int32{0, 2, 300, -1}, AggMode: proto.Int32(1),
			BucketsReq: []*pb.PbPutKvReqForBucket{{PartitionId: proto.Int64(8), BucketId: proto.Int32(0), Records: large}}}},
		{"put kv aggregate mode, no buckets", APIKeyPutKV, &pb.PutKvRequest{Acks: proto.Int32(1), TableId: proto.Int64(1), TimeoutMs: proto.Int32(1), AggMode: proto.Int32(0)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			frame, ok, err := encodeRecordsRequest(tt.api, 3, tt.req, DefaultMaxRequestSize)
			if !ok || err != nil {
				t.Fatalf("ok %v, err %v", ok, err)
			}
			if got, want := joined(frame), marshalFrame(t, tt.api, 3, tt.req); !bytes.Equal(got, want) {
				t.Fatalf("frame differs from proto.Marshal's:\n got %x\nwant %x", head(got), head(want))
			}
		})
	}
}

// head shortens a frame for a failure message.
func head(b []byte) []byte { return b[:min(len(b), 64)] }

func TestRecordsFrameReferencesLargeBatches(t *testing.T) {
	large, small := records(inlineRecords+1, 1), records(inlineRecords, 2)
	req := &pb.PutKvRequest{Acks: proto.Int32(-1), TableId: proto.Int64(1), TimeoutMs: proto.Int32(1),
		BucketsReq: []*pb.PbPutKvReqForBucket{{BucketId: proto.Int32(0), Records: small}, {BucketId: proto.Int32(1), Records: large}}}
	frame, err := encodeRequest(APIKeyPutKV, 0, req, DefaultMaxRequestSize)
	if err != nil {
		t.Fatal(err)
	}
	// header and the small batch, the large batch itself, nothing after it
	if len(frame.parts) != 2 {
		t.Fatalf("%d parts, want 2", len(frame.parts))
	}
	if unsafe.SliceData(frame.parts[1]) != unsafe.SliceData(large) || len(frame.parts[1]) != len(large) {
		t.Error("the large batch was copied into the frame")
	}
	setRequestID(frame, 99)
	if id := int32(binary.BigEndian.Uint32(frame.head[8:])); id != 99 {
		t.Errorf("request id %d", id)
	}
}

func TestRecordsFrameLeavesIncompleteRequestsToProto(t *testing.T) {
	tests := []struct {
		name string
		req  proto.Message
	}{
		{"no acks", &pb.ProduceLogRequest{TableId: proto.Int64(1), TimeoutMs: proto.Int32(1)}},
		{"no table", &pb.PutKvRequest{Acks: proto.Int32(1), TimeoutMs: proto.Int32(1)}},
		{"bucket without id", &pb.ProduceLogRequest{Acks: proto.Int32(1), TableId: proto.Int64(1), TimeoutMs: proto.Int32(1),
			BucketsReq: []*pb.PbProduceLogReqForBucket{{Records: []byte{1}}}}},
		{"nil bucket", &pb.ProduceLogRequest{Acks: proto.Int32(1), TableId: proto.Int64(1), TimeoutMs: proto.Int32(1),
			BucketsReq: []*pb.PbProduceLogReqForBucket{nil}}},
		{"bucket without records", &pb.PutKvRequest{Acks: proto.Int32(1), TableId: proto.Int64(1), TimeoutMs: proto.Int32(1),
			BucketsReq: []*pb.PbPutKvReqForBucket{{BucketId: proto.Int32(1)}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, ok, _ := encodeRecordsRequest(APIKeyPutKV, 0, tt.req, DefaultMaxRequestSize); ok {
				t.Fatal("encoded here instead of by proto.Marshal")
			}
			if _, err := encodeRequest(APIKeyPutKV, 0, tt.req, DefaultMaxRequestSize); err == nil {
				t.Fatal("a request missing a required field was encoded")
			}
		})
	}
}

func TestRecordsFrameSizeLimit(t *testing.T) {
	req := &pb.ProduceLogRequest{Acks: proto.Int32(1), TableId: proto.Int64(1), TimeoutMs: proto.Int32(1),
		BucketsReq: []*pb.PbProduceLogReqForBucket{{BucketId: proto.Int32(0), Records: records(1<<20, 0)}}}
	limit := len(marshalFrame(t, APIKeyProduceLog, 0, req))
	if _, err := encodeRequest(APIKeyProduceLog, 0, req, limit); err != nil {
		t.Fatalf("a frame of exactly the limit: %v", err)
	}
	_, err := encodeRequest(APIKeyProduceLog, 0, req, limit-1)
	if err == nil || !strings.Contains(err.Error(), "exceeds the") {
		t.Fatalf("a frame one byte over the limit: %v", err)
	}
}

func FuzzRecordsFrame(f *testing.F) {
	f.Add(false, int32(-1), int64(1), int32(30000), true, int64(5), int32(2), uint16(10), []byte{0, 2}, int32(1))
	f.Add(true, int32(1), int64(-1), int32(0), false, int64(0), int32(-7), uint16(inlineRecords+1), []byte{}, int32(-1))
	f.Fuzz(func(t *testing.T, kv bool, acks int32, table int64, timeout int32, hasPartition bool, partition int64, bucket int32, n uint16, cols []byte, agg int32) {
		var pid *int64
		if hasPartition {
			pid = proto.Int64(partition)
		}
		recs := [][]byte{records(int(n), byte(bucket)), records(int(n)/3, 1)}
		var req proto.Message
		api := APIKeyProduceLog
		if kv {
			api = APIKeyPutKV
			r := &pb.PutKvRequest{Acks: proto.Int32(acks), TableId: proto.Int64(table), TimeoutMs: proto.Int32(timeout)}
			for _, c := range cols {
				r.TargetColumns = append(r.TargetColumns, int32(int8(c)))
			}
			if agg >= 0 {
				r.AggMode = proto.Int32(agg)
			}
			for i, rec := range recs {
				r.BucketsReq = append(r.BucketsReq, &pb.PbPutKvReqForBucket{PartitionId: pid, BucketId: proto.Int32(bucket + int32(i)), Records: rec})
			}
			req = r
		} else {
			r := &pb.ProduceLogRequest{Acks: proto.Int32(acks), TableId: proto.Int64(table), TimeoutMs: proto.Int32(timeout)}
			for i, rec := range recs {
				r.BucketsReq = append(r.BucketsReq, &pb.PbProduceLogReqForBucket{PartitionId: pid, BucketId: proto.Int32(bucket + int32(i)), Records: rec})
			}
			req = r
		}
		frame, err := encodeRequest(api, 1, req, DefaultMaxRequestSize)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := joined(frame), marshalFrame(t, api, 1, req); !bytes.Equal(got, want) {
			t.Fatalf("frame differs from proto.Marshal's:\n got %x\nwant %x", head(got), head(want))
		}
	})
}
