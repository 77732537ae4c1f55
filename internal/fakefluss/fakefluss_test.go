package fakefluss

import (
	"bytes"
	"encoding/binary"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/pb"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// testCluster is a two-tablet cluster with a log table and a primary-key
// table of two buckets each (bucket 0 led by node 1, bucket 1 by node 2).
func testCluster(t *testing.T) (c *Cluster, logID, kvID int64) {
	t.Helper()
	c = NewCluster(t, ClusterConfig{Tablets: 2, DefaultBuckets: 2})
	cols := []schema.Column{schema.NewColumn("k", schema.Int().NotNull()), schema.NewColumn("v", schema.String())}
	for _, pk := range [][]string{nil, {"k"}} {
		s, err := schema.NewSchema(cols, pk, nil)
		if err != nil {
			t.Fatal(err)
		}
		id, err := c.CreateTable(schema.TablePath{Database: "db", Table: map[bool]string{true: "kv", false: "log"}[pk != nil]}, schema.TableDescriptor{Schema: s})
		if err != nil {
			t.Fatal(err)
		}
		if pk == nil {
			logID = id
		} else {
			kvID = id
		}
	}
	return c, logID, kvID
}

// logRecords is one INDEXED log batch of n rows.
func logRecords(t *testing.T, n int) []byte {
	t.Helper()
	enc, err := codec.NewIndexedEncoder([]schema.DataType{schema.Int(), schema.String()})
	if err != nil {
		t.Fatal(err)
	}
	b, err := codec.NewLogBatchBuilder(codec.LogIndexed, 1, enc, true)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := b.Append(codec.AppendOnly, []any{int32(i), "x"}); err != nil {
			t.Fatal(err)
		}
	}
	return b.Build()
}

// code is the error code of a handler's answer: the request-level error,
// else the first bucket's, else 0.
func code(t *testing.T, resp proto.Message, err error) int32 {
	t.Helper()
	if err != nil {
		return asServerError(err).code
	}
	var first int32
	var find func(m proto.Message)
	find = func(m proto.Message) {
		r := m.ProtoReflect()
		if f := r.Descriptor().Fields().ByName("error_code"); f != nil && r.Has(f) && first == 0 {
			first = int32(r.Get(f).Int())
		}
		for i := 0; i < r.Descriptor().Fields().Len(); i++ {
			f := r.Descriptor().Fields().Get(i)
			if f.Message() != nil && f.IsList() {
				l := r.Get(f).List()
				for j := 0; j < l.Len(); j++ {
					find(l.Get(j).Message().Interface())
				}
			}
		}
	}
	find(resp)
	return first
}

// The model answers as the server does where a client has to react:
// wrong leader, unknown bucket or table, offsets out of range, writes of
// the wrong kind.
func TestModelErrors(t *testing.T) {
	c, logID, kvID := testCluster(t)
	produce := func(node, bucket int32) (proto.Message, error) {
		return c.produceLog(node, &pb.ProduceLogRequest{TableId: proto.Int64(logID), BucketsReq: []*pb.PbProduceLogReqForBucket{
			{BucketId: proto.Int32(bucket), Records: logRecords(t, 3)},
		}})
	}
	fetch := func(id int64, offset int64) (proto.Message, error) {
		return c.fetchLog(1, &pb.FetchLogRequest{TablesReq: []*pb.PbFetchLogReqForTable{{
			TableId: proto.Int64(id), BucketsReq: []*pb.PbFetchLogReqForBucket{{BucketId: proto.Int32(0), FetchOffset: proto.Int64(offset), MaxFetchBytes: proto.Int32(1 << 20)}},
		}}})
	}
	tests := []struct {
		name string
		call func() (proto.Message, error)
		want int32
	}{
		{"produce to the leader", func() (proto.Message, error) { return produce(1, 0) }, 0},
		{"produce to a follower", func() (proto.Message, error) { return produce(2, 0) }, codeNotLeader},
		{"produce to an unknown bucket", func() (proto.Message, error) { return produce(1, 5) }, codeUnknownBucket},
		{"fetch within the log", func() (proto.Message, error) { return fetch(logID, 3) }, 0},
		{"fetch beyond the log end", func() (proto.Message, error) { return fetch(logID, 4) }, codeLogOffsetOutOfRange},
		{"fetch of an unknown table", func() (proto.Message, error) { return fetch(99, 0) }, codeUnknownBucket},
		{"produce to a primary-key table", func() (proto.Message, error) {
			return c.produceLog(1, &pb.ProduceLogRequest{TableId: proto.Int64(kvID)})
		}, codeInvalidTable},
		{"put to a log table", func() (proto.Message, error) {
			return c.putKV(1, &pb.PutKvRequest{TableId: proto.Int64(logID)})
		}, codeNonPrimaryKeyTable},
		{"info of a missing table", func() (proto.Message, error) {
			return c.tableInfo(0, &pb.GetTableInfoRequest{TablePath: &pb.PbTablePath{DatabaseName: proto.String("db"), TableName: proto.String("nope")}})
		}, codeTableNotExist},
		{"tables of a missing database", func() (proto.Message, error) {
			return c.listTables(0, &pb.ListTablesRequest{DatabaseName: proto.String("nope")})
		}, codeDatabaseNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.mu.Lock()
			resp, err := tt.call()
			c.mu.Unlock()
			if got := code(t, resp, err); got != tt.want {
				t.Fatalf("error code %d, want %d (%v)", got, tt.want, err)
			}
		})
	}
}

// Appends get consecutive offsets; LIST_OFFSETS reports the log's ends
// and the first batch committed at or after a timestamp.
func TestModelOffsets(t *testing.T) {
	c, logID, _ := testCluster(t)
	c.mu.Lock()
	defer c.mu.Unlock()
	var bases []int64
	for range 2 {
		time.Sleep(2 * time.Millisecond) // commit times differ
		resp, err := c.produceLog(1, &pb.ProduceLogRequest{TableId: proto.Int64(logID), BucketsReq: []*pb.PbProduceLogReqForBucket{
			{BucketId: proto.Int32(0), Records: logRecords(t, 3)},
		}})
		if err != nil {
			t.Fatal(err)
		}
		bases = append(bases, resp.(*pb.ProduceLogResponse).GetBucketsResp()[0].GetBaseOffset())
	}
	if bases[0] != 0 || bases[1] != 3 {
		t.Fatalf("base offsets %v, want [0 3]", bases)
	}
	second := c.tables[schema.TablePath{Database: "db", Table: "log"}].buckets[0].log[1].commitTime
	for _, tt := range []struct {
		typ  int32
		ts   int64
		want int64
	}{{offsetEarliest, 0, 0}, {offsetLatest, 0, 6}, {offsetTimestamp, second, 3}, {offsetTimestamp, second + 1e6, 6}} {
		resp, err := c.listOffsets(1, &pb.ListOffsetsRequest{OffsetType: proto.Int32(tt.typ), TableId: proto.Int64(logID), BucketId: []int32{0}, StartTimestamp: proto.Int64(tt.ts)})
		if err != nil {
			t.Fatal(err)
		}
		if got := resp.(*pb.ListOffsetsResponse).GetBucketsResp()[0].GetOffset(); got != tt.want {
			t.Errorf("offset type %d at %d = %d, want %d", tt.typ, tt.ts, got, tt.want)
		}
	}
}

// readRequest takes any bytes without panicking, and reads back a frame
// built as the client builds them.
func FuzzReadRequest(f *testing.F) {
	frame := func(api, version int16, id int32, body []byte) []byte {
		b := binary.BigEndian.AppendUint32(nil, uint32(8+len(body)))
		b = binary.BigEndian.AppendUint16(b, uint16(api))
		b = binary.BigEndian.AppendUint16(b, uint16(version))
		b = binary.BigEndian.AppendUint32(b, uint32(id))
		return append(b, body...)
	}
	f.Add(frame(1012, 0, 7, []byte{0x0a, 0x00}))
	f.Add(frame(1000, 0, 0, nil))
	f.Add([]byte{0, 0, 0, 3, 1, 2, 3})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Add([]byte{0x7f, 0xff, 0xff, 0xff, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		api, version, id, body, err := readRequest(bytes.NewReader(b))
		if err != nil {
			return
		}
		if again := frame(int16(api), version, id, body); !bytes.Equal(again, b[:len(again)]) {
			t.Fatalf("frame %x read back as %x", b, again)
		}
	})
}

// A partial update keeps the columns it does not target; a partial
// delete clears the targeted ones and removes the row once only the key
// is left.
func TestPartialUpdate(t *testing.T) {
	c, _, _ := testCluster(t)
	p, err := newPartialUpdate(c.tables[schema.TablePath{Database: "db", Table: "kv"}], []int32{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	row := func(v any) []byte {
		b, err := p.enc.Encode([]any{int32(1), v})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	stored := func(b []byte) []byte { return codec.AppendLookupValue(nil, 1, b) }
	tests := []struct {
		name            string
		stored, written []byte
		want            []byte
	}{
		{"insert", nil, row("a"), row("a")},
		{"update", stored(row("a")), row("b"), row("b")},
		{"delete of the only value column", stored(row("a")), nil, nil},
		{"delete of a missing row", nil, nil, nil},
	}
	for _, tt := range tests {
		got, err := p.merge(tt.stored, tt.written)
		if err != nil || !bytes.Equal(got, tt.want) {
			t.Errorf("%s: %x, %v; want %x", tt.name, got, err, tt.want)
		}
	}
	keep, err := newPartialUpdate(c.tables[schema.TablePath{Database: "db", Table: "kv"}], []int32{0})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := keep.merge(stored(row("a")), row(nil)); err != nil || !bytes.Equal(got, row("a")) {
		t.Errorf("update of the key alone: %x, %v; want the stored row", got, err)
	}
}
