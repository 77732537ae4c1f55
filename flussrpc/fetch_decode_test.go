package flussrpc

import (
	"testing"
	"unsafe"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
)

// fetchLogSeeds are FetchLog responses as a server sends them, and some it
// does not: every field set, an empty and an absent records field, a
// remote log reference, two tables, and an unknown field.
func fetchLogSeeds(t testing.TB) [][]byte {
	full := &pb.FetchLogResponse{TablesResp: []*pb.PbFetchLogRespForTable{{
		TableId: proto.Int64(7),
		BucketsResp: []*pb.PbFetchLogRespForBucket{
			{PartitionId: proto.Int64(3), BucketId: proto.Int32(1), HighWatermark: proto.Int64(100), LogStartOffset: proto.Int64(-1), Records: []byte("batches"), FilteredEndOffset: proto.Int64(99)},
			{BucketId: proto.Int32(2), ErrorCode: proto.Int32(15), ErrorMessage: proto.String("not leader \xff")},
			{BucketId: proto.Int32(-3), Records: []byte{}},
			{BucketId: proto.Int32(4), RemoteLogFetchInfo: &pb.PbRemoteLogFetchInfo{RemoteLogTabletDir: proto.String("/r"), FirstStartPos: proto.Int32(12)}},
		},
	}, {TableId: proto.Int64(8)}}}
	var seeds [][]byte
	for _, m := range []proto.Message{full, &pb.FetchLogResponse{}} {
		b, err := proto.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	unknown := protowire.AppendVarint(protowire.AppendTag(nil, 5, protowire.VarintType), 1)
	twice := protowire.AppendBytes(protowire.AppendTag(nil, 7, protowire.BytesType), []byte{0x20, 1}) // first_start_pos 1
	twice = protowire.AppendBytes(protowire.AppendTag(twice, 7, protowire.BytesType), []byte{0x0a, 1, 'x'})
	table := protowire.AppendBytes(protowire.AppendTag(nil, 2, protowire.BytesType), twice)
	return append(seeds,
		append(seeds[0][:len(seeds[0]):len(seeds[0])], unknown...),
		protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), table),
		seeds[0][:len(seeds[0])-3],
	)
}

// checkFetchLogDecode decodes b both ways: whenever decodeFetchLog
// accepts b, proto.Unmarshal must too, to an equal message.
func checkFetchLogDecode(t *testing.T, b []byte) (fast bool) {
	var got pb.FetchLogResponse
	if !decodeFetchLog(b, &got) {
		if !proto.Equal(&got, &pb.FetchLogResponse{}) {
			t.Fatalf("declined but left %v", &got)
		}
		return false
	}
	var want pb.FetchLogResponse
	if err := (proto.UnmarshalOptions{AllowPartial: true}).Unmarshal(b, &want); err != nil {
		t.Fatalf("decoded what proto.Unmarshal refuses (%v): %v", err, &got)
	}
	if !proto.Equal(&got, &want) {
		t.Fatalf("decoded\n%v\nproto.Unmarshal\n%v", &got, &want)
	}
	return true
}

func TestDecodeFetchLogMatchesProto(t *testing.T) {
	seeds := fetchLogSeeds(t)
	wantFast := []bool{true, true, false, true, false}
	for i, b := range seeds {
		if fast := checkFetchLogDecode(t, b); fast != wantFast[i] {
			t.Errorf("seed %d: decoded by decodeFetchLog %v, want %v", i, fast, wantFast[i])
		}
	}
}

// TestDecodeFetchLogAliasesRecords: the records are the frame's bytes, not
// a copy, and appending to them cannot overwrite the frame.
func TestDecodeFetchLogAliasesRecords(t *testing.T) {
	b := fetchLogSeeds(t)[0]
	var resp pb.FetchLogResponse
	if !decodeFetchLog(b, &resp) {
		t.Fatal("declined a well-formed response")
	}
	rec := resp.TablesResp[0].BucketsResp[0].Records
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	at := uintptr(unsafe.Pointer(unsafe.SliceData(rec)))
	if at < start || at >= start+uintptr(len(b)) {
		t.Fatal("records were copied out of the frame")
	}
	if cap(rec) != len(rec) {
		t.Fatalf("records have cap %d beyond their %d bytes", cap(rec), len(rec))
	}
}

func FuzzDecodeFetchLog(f *testing.F) {
	for _, b := range fetchLogSeeds(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkFetchLogDecode(t, b)
	})
}
