package pb

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// The server drops requests it cannot parse without replying, so the Go
// side must refuse to encode a message with a missing required field.
func TestMarshalEnforcesRequired(t *testing.T) {
	tests := []struct {
		name string
		msg  proto.Message
	}{
		{"empty ApiVersionsRequest", &ApiVersionsRequest{}},
		{"table path without table", &GetTableInfoRequest{TablePath: &PbTablePath{DatabaseName: proto.String("d")}}},
		{"nested bucket without records", &ProduceLogRequest{
			Acks: proto.Int32(-1), TableId: proto.Int64(1), TimeoutMs: proto.Int32(1),
			BucketsReq: []*PbProduceLogReqForBucket{{BucketId: proto.Int32(0)}},
		}},
		{"create partition without flag", &CreatePartitionRequest{
			TablePath:     &PbTablePath{DatabaseName: proto.String("d"), TableName: proto.String("t")},
			PartitionSpec: &PbPartitionSpec{},
		}},
	}
	for _, tt := range tests {
		if _, err := proto.Marshal(tt.msg); err == nil {
			t.Errorf("%s: marshalled despite a missing required field", tt.name)
		}
	}
	ok := &GetTableInfoRequest{TablePath: &PbTablePath{DatabaseName: proto.String("d"), TableName: proto.String("t")}}
	if _, err := proto.Marshal(ok); err != nil {
		t.Errorf("complete message rejected: %v", err)
	}
}

// Spot-check wire bytes that depend on field numbers and packing.
func TestWireEncoding(t *testing.T) {
	tests := []struct {
		name string
		msg  proto.Message
		want []byte
	}{
		{
			"packed partitions_id is one length-delimited field 3",
			&MetadataRequest{PartitionsId: []int64{1, 2}},
			[]byte{0x1a, 0x02, 0x01, 0x02},
		},
		{
			"GetDatabaseInfoResponse numbers start at 3",
			&GetDatabaseInfoResponse{DatabaseJson: []byte{}, CreatedTime: proto.Int64(1), ModifiedTime: proto.Int64(2)},
			[]byte{0x1a, 0x00, 0x20, 0x01, 0x28, 0x02},
		},
		{
			"LimitScanRequest has no field 1",
			&LimitScanRequest{TableId: proto.Int64(5), BucketId: proto.Int32(0), Limit: proto.Int32(3)},
			[]byte{0x10, 0x05, 0x20, 0x00, 0x28, 0x03},
		},
		{
			"PutKv pressure is a float",
			&PbPutKvRespForBucket{BucketId: proto.Int32(1), Pressure: proto.Float32(0)},
			[]byte{0x10, 0x01, 0x35, 0, 0, 0, 0},
		},
	}
	for _, tt := range tests {
		got, err := proto.MarshalOptions{Deterministic: true}.Marshal(tt.msg)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if !bytes.Equal(got, tt.want) {
			t.Errorf("%s: got % x, want % x", tt.name, got, tt.want)
		}
	}
}

// Every repeated numeric field the server declares packed must be packed
// here. Parsers accept both forms, so a mismatch would not break the wire,
// but matching the declaration keeps our bytes identical to the Java
// client's, which makes captured traffic directly comparable.
func TestPackedFields(t *testing.T) {
	want := map[string]bool{
		"fluss.MetadataRequest.partitions_id":              true,
		"fluss.PbBucketMetadata.replica_id":                true,
		"fluss.PbFetchLogReqForTable.projected_fields":     true,
		"fluss.PutKvRequest.target_columns":                true,
		"fluss.ListOffsetsRequest.bucket_id":               true,
		"fluss.GetTableStatsRequest.target_columns":        true,
		"fluss.AddServerTagRequest.server_ids":             true,
		"fluss.RemoveServerTagRequest.server_ids":          true,
		"fluss.RebalanceRequest.goals":                     true,
		"fluss.PbRebalancePlanForBucket.original_replicas": true,
		"fluss.PbRebalancePlanForBucket.new_replicas":      true,
	}
	got := map[string]bool{}
	msgs := File_fluss_api_proto.Messages()
	for i := 0; i < msgs.Len(); i++ {
		fields := msgs.Get(i).Fields()
		for j := 0; j < fields.Len(); j++ {
			f := fields.Get(j)
			if f.IsPacked() {
				got[string(f.FullName())] = true
			}
			if f.Cardinality() == protoreflect.Repeated && f.Kind() != protoreflect.MessageKind &&
				f.Kind() != protoreflect.BytesKind && f.Kind() != protoreflect.StringKind &&
				!f.IsPacked() {
				t.Errorf("%s is repeated numeric but unpacked", f.FullName())
			}
		}
	}
	for name := range want {
		if !got[name] {
			t.Errorf("%s should be packed", name)
		}
	}
	for name := range got {
		if !want[name] {
			t.Errorf("%s is unexpectedly packed", name)
		}
	}
}
