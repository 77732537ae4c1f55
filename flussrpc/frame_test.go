package flussrpc

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
	"github.com/gofluss/fluss/internal/fakefluss"
)

// readHexFixture decodes a testdata file of hex digits; '#' starts a
// comment and whitespace is ignored.
func readHexFixture(t *testing.T, name string) []byte {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var digits strings.Builder
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		digits.WriteString(strings.Join(strings.Fields(line), ""))
	}
	b, err := hex.DecodeString(digits.String())
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return b
}

func TestEncodeRequestGolden(t *testing.T) {
	req := &pb.ApiVersionsRequest{
		ClientSoftwareName:    proto.String("fluss-go-sql"),
		ClientSoftwareVersion: proto.String("0.1.0"),
	}
	frame, err := encodeRequest(APIKeyAPIVersions, 0, req, DefaultMaxRequestSize)
	if err != nil {
		t.Fatal(err)
	}
	setRequestID(frame, 7)
	if want := readHexFixture(t, "api_versions_request.hex"); !bytes.Equal(joined(frame), want) {
		t.Fatalf("frame\n got %x\nwant %x", frame, want)
	}
}

func TestEncodeRequestHeader(t *testing.T) {
	parts, err := encodeRequest(APIKeyPutKV, 1, &pb.GetTableSchemaRequest{TablePath: &pb.PbTablePath{
		DatabaseName: proto.String("d"), TableName: proto.String("t")}}, DefaultMaxRequestSize)
	if err != nil {
		t.Fatal(err)
	}
	setRequestID(parts, -2)
	frame := joined(parts)
	if got := int(binary.BigEndian.Uint32(frame)); got != len(frame)-4 {
		t.Errorf("length %d, want %d", got, len(frame)-4)
	}
	if got := binary.BigEndian.Uint16(frame[4:]); got != 1016 {
		t.Errorf("api key %d", got)
	}
	if got := binary.BigEndian.Uint16(frame[6:]); got != 1 {
		t.Errorf("version %d", got)
	}
	if got := int32(binary.BigEndian.Uint32(frame[8:])); got != -2 {
		t.Errorf("request id %d", got)
	}
}

func TestEncodeRequestRejectsMissingRequired(t *testing.T) {
	_, err := encodeRequest(APIKeyGetTableInfo, 0, &pb.GetTableInfoRequest{}, DefaultMaxRequestSize)
	if err == nil {
		t.Fatal("missing required table_path was encoded")
	}
}

func TestParseResponseGolden(t *testing.T) {
	tests := []struct {
		file     string
		typ      responseType
		id       int32
		wantCode ErrorCode
	}{
		{"error_response.hex", respError, 7, CodeTableNotExist},
		{"server_failure.hex", respServerFailure, 0, CodeUnknownServerError},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			raw := readHexFixture(t, tt.file)
			p, err := readFrame(bytes.NewReader(raw), serverFailureHdrSize, DefaultMaxFrameSize)
			if err != nil {
				t.Fatal(err)
			}
			f, err := parseResponse(p)
			if err != nil {
				t.Fatal(err)
			}
			if f.typ != tt.typ || f.requestID != tt.id {
				t.Fatalf("type %d id %d, want %d %d", f.typ, f.requestID, tt.typ, tt.id)
			}
			e := decodeServerError(f.body, 0, f.typ == respServerFailure)
			if e.Code != tt.wantCode {
				t.Errorf("code %v, want %v", e.Code, tt.wantCode)
			}
		})
	}
}

func TestReadFrameBounds(t *testing.T) {
	frame := func(n int32, payload int) []byte {
		b := make([]byte, 4+payload)
		binary.BigEndian.PutUint32(b, uint32(n))
		return b
	}
	tests := []struct {
		name    string
		in      []byte
		wantErr error
	}{
		{"ok", frame(5, 5), nil},
		{"below minimum", frame(0, 0), errFrame},
		{"negative", frame(-1, 0), errFrame},
		{"over cap", frame(1025, 1025), errFrame},
		{"huge", frame(1<<31-1, 0), errFrame},
		{"truncated", frame(10, 4), io.ErrUnexpectedEOF},
		{"truncated length", []byte{0, 0}, io.ErrUnexpectedEOF},
		{"empty", nil, io.EOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readFrame(bytes.NewReader(tt.in), 1, 1024)
			if tt.wantErr == nil && err != nil || tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
		})
	}
}

func TestReadFrameGrowsWithData(t *testing.T) {
	// A peer announcing 60 MiB but sending less must not make us allocate
	// 60 MiB: at most a chunk, or frameGrowth times what arrived.
	for _, tt := range []struct {
		sent, maxAlloc uint64
	}{
		{10, 4 << 20},
		{1 << 20, 12 << 20},
	} {
		in := make([]byte, 4+tt.sent)
		binary.BigEndian.PutUint32(in, 60<<20)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := readFrame(bytes.NewReader(in), 1, DefaultMaxFrameSize)
		runtime.ReadMemStats(&after)
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("sent %d: err = %v", tt.sent, err)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > tt.maxAlloc {
			t.Fatalf("allocated %d bytes for a frame body of %d", grew, tt.sent)
		}
	}
}

func TestReadPayloadLarge(t *testing.T) {
	want := bytes.Repeat([]byte{1, 2, 3, 4, 5}, 100_000) // crosses many chunks
	got, err := readPayload(bytes.NewReader(want), len(want))
	if err != nil || !bytes.Equal(got, want) || cap(got) != len(want) {
		t.Fatalf("err %v, len %d cap %d", err, len(got), cap(got))
	}
}

func TestParseResponseRejects(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
	}{
		{"empty", nil},
		{"success without id", []byte{0, 1, 2}},
		{"error without id", []byte{1}},
		{"unknown type", []byte{3, 0, 0, 0, 1}},
		{"type 255", []byte{255}},
	}
	for _, tt := range tests {
		if _, err := parseResponse(tt.in); !errors.Is(err, errFrame) {
			t.Errorf("%s: err = %v, want errFrame", tt.name, err)
		}
	}
}

func TestDecodeServerErrorHostile(t *testing.T) {
	tests := []struct {
		name string
		body []byte
		code ErrorCode
	}{
		{"empty body lacks required code", nil, CodeUnknownServerError},
		{"garbage", []byte{0xff, 0xff}, CodeUnknownServerError},
		{"code zero is not success", []byte{0x08, 0x00}, CodeUnknownServerError},
		{"unknown code kept raw", []byte{0x08, 0xe7, 0x07}, 999},
	}
	for _, tt := range tests {
		e := decodeServerError(tt.body, APIKeyGetMetadata, false)
		if e.Code != tt.code {
			t.Errorf("%s: code %d, want %d", tt.name, e.Code, tt.code)
		}
		if !errors.Is(e, ErrUnknownServerError) {
			t.Errorf("%s: should behave as UNKNOWN_SERVER_ERROR", tt.name)
		}
	}
}

// fuzzFrameSeeds are shared by the frame fuzz targets.
func fuzzFrameSeeds(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 0, 0, 0})
	f.Add([]byte{0x7f, 0xff, 0xff, 0xff})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Add([]byte{0, 0, 0, 5, 0, 0, 0, 0, 1})
	f.Add([]byte{0, 0, 0, 1, 2})
	f.Add([]byte{0, 0, 0, 5, 7, 0, 0, 0, 1})
	f.Add(fakefluss.ResponseFrame(fakefluss.Success, 1, []byte{0x0a, 0x03, 0x08, 0x01}))
	f.Add(fakefluss.ResponseFrame(fakefluss.ErrorResponse, 3, []byte{0x08, 0x07, 0x12, 0x01, 'x'}))
	f.Add(fakefluss.ServerFailureFrame(-1, "boom"))
	f.Add(fakefluss.ResponseFrame(fakefluss.Success, 1, []byte{0xff, 0xff, 0xff, 0xff, 0x0f}))
}

// FuzzReadResponseFrame feeds arbitrary bytes through the whole response
// path: bounded read, header parse, and body decoding. It must never
// panic, and a body it accepts must have come from a well-formed frame.
func FuzzReadResponseFrame(f *testing.F) {
	fuzzFrameSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bytes.NewReader(data)
		for {
			p, err := readFrame(r, serverFailureHdrSize, 1<<16)
			if err != nil {
				return
			}
			if len(p) > 1<<16 {
				t.Fatalf("payload of %d bytes exceeds the cap", len(p))
			}
			fr, err := parseResponse(p)
			if err != nil {
				return
			}
			switch fr.typ {
			case respSuccess:
				var m pb.MetadataResponse
				_ = proto.UnmarshalOptions{AllowPartial: true}.Unmarshal(fr.body, &m)
			default:
				if e := decodeServerError(fr.body, APIKeyGetMetadata, fr.typ == respServerFailure); e == nil || e.Code == CodeNone {
					t.Fatal("error frame decoded as success")
				}
			}
		}
	})
}

// FuzzParseResponse targets the header parser alone.
func FuzzParseResponse(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 1})
	f.Add([]byte{1, 0, 0, 0, 1, 8, 7})
	f.Add([]byte{2, 8, 1})
	f.Add([]byte{9})
	f.Fuzz(func(t *testing.T, p []byte) {
		fr, err := parseResponse(p)
		if err != nil {
			return
		}
		if len(fr.body) > len(p) {
			t.Fatal("body longer than payload")
		}
		if fr.typ > respServerFailure {
			t.Fatalf("accepted response type %d", fr.typ)
		}
	})
}

// socketReader hands out at most 64 KiB per Read, as a socket does.
type socketReader struct{ r *bytes.Reader }

func (s socketReader) Read(p []byte) (int, error) {
	return s.r.Read(p[:min(len(p), 64<<10)])
}

// BenchmarkReadPayload reads a 4 MiB response frame, the size of a fetch
// response, through a bufio.Reader as the connection's read loop does.
//
//	go test -run '^$' -bench ReadPayload ./flussrpc
func BenchmarkReadPayload(b *testing.B) {
	payload := bytes.Repeat([]byte("fluss"), (4<<20)/5)
	b.SetBytes(int64(len(payload)))
	b.ReportAllocs()
	for b.Loop() {
		r := bufio.NewReaderSize(socketReader{bytes.NewReader(payload)}, 32<<10)
		got, err := readPayload(r, len(payload))
		if err != nil || len(got) != len(payload) {
			b.Fatalf("read %d bytes, err %v", len(got), err)
		}
	}
}

// A request that references no batches costs one allocation, its frame:
// lookups are sent one request at a time.
func TestEncodeRequestAllocatesOnlyTheFrame(t *testing.T) {
	req := &pb.LookupRequest{TableId: proto.Int64(1), BucketsReq: []*pb.PbLookupReqForBucket{{BucketId: proto.Int32(0), Keys: [][]byte{[]byte("key")}}}}
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := encodeRequest(APIKeyLookup, 0, req, DefaultMaxRequestSize); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 1 {
		t.Errorf("%v allocations, want 1", allocs)
	}
}
