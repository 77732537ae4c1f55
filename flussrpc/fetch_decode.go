package flussrpc

import (
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
)

// A FetchLog response is mostly its buckets' records, megabytes of log
// batches. proto.Unmarshal copies every bytes field out of the frame, a
// copy and an allocation the size of the response for data that is then
// only read; decodeFetchLog leaves the records where they are, in the
// frame (which nothing else holds or reuses). It reads the fields this
// client knows; anything else (an unknown field, an unexpected wire type)
// makes it give up, and the caller decodes the frame with
// proto.Unmarshal, so the result never depends on which decoder ran.

// decodeFetchLog decodes b into resp, the records of each bucket aliasing
// b. It reports false, leaving resp reset, when b holds something it does
// not read.
func decodeFetchLog(b []byte, resp *pb.FetchLogResponse) bool {
	resp.Reset()
	ok := eachField(b, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) bool {
		if num != 1 || typ != protowire.BytesType {
			return false
		}
		tr := &pb.PbFetchLogRespForTable{}
		resp.TablesResp = append(resp.TablesResp, tr)
		return decodeFetchLogTable(v, tr)
	})
	if !ok {
		resp.Reset()
	}
	return ok
}

func decodeFetchLogTable(b []byte, tr *pb.PbFetchLogRespForTable) bool {
	return eachField(b, func(num protowire.Number, typ protowire.Type, v []byte, n uint64) bool {
		switch {
		case num == 1 && typ == protowire.VarintType:
			tr.TableId = proto.Int64(int64(n))
		case num == 2 && typ == protowire.BytesType:
			br := &pb.PbFetchLogRespForBucket{}
			tr.BucketsResp = append(tr.BucketsResp, br)
			return decodeFetchLogBucket(v, br)
		default:
			return false
		}
		return true
	})
}

func decodeFetchLogBucket(b []byte, br *pb.PbFetchLogRespForBucket) bool {
	return eachField(b, func(num protowire.Number, typ protowire.Type, v []byte, n uint64) bool {
		if typ == protowire.VarintType {
			switch num {
			case 1:
				br.PartitionId = proto.Int64(int64(n))
			case 2:
				br.BucketId = proto.Int32(int32(n))
			case 3:
				br.ErrorCode = proto.Int32(int32(n))
			case 5:
				br.HighWatermark = proto.Int64(int64(n))
			case 6:
				br.LogStartOffset = proto.Int64(int64(n))
			case 9:
				br.FilteredEndOffset = proto.Int64(int64(n))
			default:
				return false
			}
			return true
		}
		if typ != protowire.BytesType {
			return false
		}
		switch num {
		case 4:
			br.ErrorMessage = proto.String(string(v))
		case 7:
			// A message field seen twice is merged, as proto.Unmarshal does.
			if br.RemoteLogFetchInfo == nil {
				br.RemoteLogFetchInfo = &pb.PbRemoteLogFetchInfo{}
			}
			return (proto.UnmarshalOptions{Merge: true, AllowPartial: true}).Unmarshal(v, br.RemoteLogFetchInfo) == nil
		case 8:
			// Full slice expression: appending to the records must never
			// write into the bytes after them in the frame.
			br.Records = v[:len(v):len(v)]
		default:
			return false
		}
		return true
	})
}

// eachField calls f with each field of the message b: its number, its wire
// type, and its value (v for length-delimited fields, n for varints). It
// returns false at the first field f refuses, at a wire type other than
// varint and length-delimited, or at malformed bytes.
func eachField(b []byte, f func(num protowire.Number, typ protowire.Type, v []byte, n uint64) bool) bool {
	for len(b) > 0 {
		num, typ, m := protowire.ConsumeTag(b)
		if m < 0 {
			return false
		}
		b = b[m:]
		var (
			v []byte
			n uint64
		)
		switch typ {
		case protowire.VarintType:
			n, m = protowire.ConsumeVarint(b)
		case protowire.BytesType:
			v, m = protowire.ConsumeBytes(b)
		default:
			return false
		}
		if m < 0 || !f(num, typ, v, n) {
			return false
		}
		b = b[m:]
	}
	return true
}
