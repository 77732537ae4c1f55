package flussrpc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
	"github.com/gofluss/fluss/internal/plural"
)

// Frame layout (all header integers big-endian):
//
//	request:  [length int32][api key int16][api version int16][request id int32][body]
//	response: [length int32][type int8][request id int32][body]   (types 0 and 1)
//	          [length int32][type int8][body]                     (type 2, no request id)
//
// The length counts the bytes after itself.
const (
	lengthFieldSize      = 4
	requestHeaderSize    = 8 // api key + version + request id
	responseHeaderSize   = 5 // type + request id
	serverFailureHdrSize = 1 // type only

	// DefaultMaxFrameSize bounds the size of a response frame the client
	// accepts when ConnConfig.MaxFrameSize is zero.
	DefaultMaxFrameSize = 64 << 20

	// DefaultMaxRequestSize bounds the size of a request frame when
	// ConnConfig.MaxRequestSize is zero. It equals the server's default
	// netty.server.max-request-size; larger frames would make the server
	// fail the whole connection.
	DefaultMaxRequestSize = 100 << 20

	// frameReadChunk is how much of a frame is allocated up front. Larger
	// frames grow as their bytes arrive, so a peer announcing a huge length
	// without sending data cannot make us reserve the whole cap.
	frameReadChunk = 64 << 10

	// frameGrowth is the factor by which a frame's buffer grows once full.
	// Each growth copies what arrived so far: doubling copied as many bytes
	// as a multi-megabyte fetch response carries, and allocated twice as
	// many, about 5% of a bounded scan's CPU; growing eightfold copies a
	// seventh of them, while a peer that stops sending still makes us
	// allocate at most eight times what it sent.
	frameGrowth = 8
)

// responseType is the first byte of every response frame.
type responseType byte

const (
	respSuccess       responseType = 0
	respError         responseType = 1
	respServerFailure responseType = 2
)

// errFrame is the cause of every framing violation; the connection cannot
// be trusted after one, because frame boundaries are lost.
var errFrame = errors.New("flussrpc: malformed frame")

// requestFrame is an encoded request frame. head starts with the frame
// header; a write request's frame goes on with the record batches it
// references (encodeRecordsRequest), and then parts holds all its parts,
// head first. A frame of one part, as every other request's, has no parts
// slice to allocate.
type requestFrame struct {
	head  []byte
	parts [][]byte
}

// size is the frame's length in bytes, its length field included.
func (f requestFrame) size() int {
	if f.parts == nil {
		return len(f.head)
	}
	n := 0
	for _, p := range f.parts {
		n += len(p)
	}
	return n
}

// encodeRequest encodes req into a complete request frame. proto.Marshal
// enforces proto2 required fields, which is essential: the server drops an
// unparsable request without answering, so a missing field would otherwise
// surface as a hang. The request id is patched in later by setRequestID,
// because it is only assigned once the write lock is held.
func encodeRequest(api APIKey, version int16, req proto.Message, maxSize int) (requestFrame, error) {
	if frame, ok, err := encodeRecordsRequest(api, version, req, maxSize); ok {
		return frame, err
	}
	opts := proto.MarshalOptions{}
	size := opts.Size(req)
	total := lengthFieldSize + requestHeaderSize + size
	if size < 0 || total > maxSize || total-lengthFieldSize > math.MaxInt32 {
		return requestFrame{}, requestTooLarge(api, total, maxSize)
	}
	buf := make([]byte, lengthFieldSize+requestHeaderSize, total)
	binary.BigEndian.PutUint16(buf[4:], uint16(api))
	binary.BigEndian.PutUint16(buf[6:], uint16(version))
	buf, err := opts.MarshalAppend(buf, req)
	if err != nil {
		return requestFrame{}, fmt.Errorf("flussrpc: encode %s request: %w", api, err)
	}
	binary.BigEndian.PutUint32(buf[0:], uint32(len(buf)-lengthFieldSize))
	return requestFrame{head: buf}, nil
}

func requestTooLarge(api APIKey, total, maxSize int) error {
	return fmt.Errorf("flussrpc: %s request of %s exceeds the %d byte limit", api, plural.Count(total, "byte"), maxSize)
}

// setRequestID writes the request id into an encoded request frame.
func setRequestID(frame requestFrame, id int32) {
	binary.BigEndian.PutUint32(frame.head[8:], uint32(id))
}

// readFrame reads one length-prefixed frame and returns the bytes after the
// length. The length is checked against [minSize, maxSize] before anything
// is allocated; within the cap, memory grows only as bytes actually arrive.
func readFrame(r io.Reader, minSize, maxSize int) ([]byte, error) {
	var lenBuf [lengthFieldSize]byte
	if _, err := io.ReadFull(r, lenBuf[:]); err != nil {
		return nil, err
	}
	n := int64(int32(binary.BigEndian.Uint32(lenBuf[:])))
	if n < int64(minSize) || n > int64(maxSize) {
		return nil, fmt.Errorf("%w: length %d outside [%d, %d]", errFrame, n, minSize, maxSize)
	}
	return readPayload(r, int(n))
}

// readPayload reads exactly n bytes, allocating one chunk, then at most
// frameGrowth times the data received so far.
func readPayload(r io.Reader, n int) ([]byte, error) {
	buf := make([]byte, 0, min(n, frameReadChunk))
	for len(buf) < n {
		if len(buf) == cap(buf) {
			grown := make([]byte, len(buf), min(frameGrowth*cap(buf), n))
			copy(grown, buf)
			buf = grown
		}
		m, err := io.ReadFull(r, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF // the length promised more
			}
			return nil, err
		}
	}
	return buf, nil
}

// responseFrame is a parsed response frame. body aliases the frame buffer.
type responseFrame struct {
	typ       responseType
	requestID int32 // meaningless for respServerFailure
	body      []byte
}

// parseResponse splits a response payload (the bytes after the length) into
// its header and body.
func parseResponse(p []byte) (responseFrame, error) {
	if len(p) < serverFailureHdrSize {
		return responseFrame{}, fmt.Errorf("%w: empty response", errFrame)
	}
	switch typ := responseType(p[0]); typ {
	case respSuccess, respError:
		if len(p) < responseHeaderSize {
			return responseFrame{}, fmt.Errorf("%w: response header of %s", errFrame, plural.Count(len(p), "byte"))
		}
		id := int32(binary.BigEndian.Uint32(p[1:5]))
		return responseFrame{typ: typ, requestID: id, body: p[responseHeaderSize:]}, nil
	case respServerFailure:
		return responseFrame{typ: typ, body: p[serverFailureHdrSize:]}, nil
	default:
		return responseFrame{}, fmt.Errorf("%w: unknown response type %d", errFrame, typ)
	}
}

// decodeServerError turns the ErrorResponse body of an ERROR_RESPONSE or
// SERVER_FAILURE frame into an *Error. A body that does not decode still
// yields an error (UNKNOWN_SERVER_ERROR) rather than a success.
func decodeServerError(body []byte, api APIKey, serverFailure bool) *Error {
	var er pb.ErrorResponse
	if err := proto.Unmarshal(body, &er); err != nil {
		return &Error{
			Code:          CodeUnknownServerError,
			Message:       "undecodable error response: " + err.Error(),
			API:           api,
			ServerFailure: serverFailure,
		}
	}
	code := ErrorCode(er.GetErrorCode())
	if code == CodeNone {
		// An error frame must not read as success.
		code = CodeUnknownServerError
	}
	return &Error{
		Code:          code,
		Message:       er.GetErrorMessage(),
		API:           api,
		ServerFailure: serverFailure,
	}
}
