package fakefluss

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
)

// The server side of the frame format (big-endian headers; the length
// counts the bytes after itself):
//
//	request:  [length int32][api key int16][api version int16][request id int32][body]
//	response: [length int32][type int8][request id int32][body]   (SUCCESS, ERROR)
//	          [length int32][type int8][body]                     (SERVER_FAILURE)
const (
	requestHeaderSize = 8
	maxRequestSize    = 16 << 20
)

// ResponseType is the first byte of a response frame.
type ResponseType byte

// Response types.
const (
	Success       ResponseType = 0
	ErrorResponse ResponseType = 1
	ServerFailure ResponseType = 2
)

// readRequest reads one request frame.
func readRequest(r io.Reader) (api APIKey, version int16, id int32, body []byte, err error) {
	var n [4]byte
	if _, err = io.ReadFull(r, n[:]); err != nil {
		return
	}
	size := int32(binary.BigEndian.Uint32(n[:]))
	if size < requestHeaderSize || size > maxRequestSize {
		return 0, 0, 0, nil, fmt.Errorf("fakefluss: request frame length %d", size)
	}
	p := make([]byte, size)
	if _, err = io.ReadFull(r, p); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return
	}
	api = APIKey(binary.BigEndian.Uint16(p[0:]))
	version = int16(binary.BigEndian.Uint16(p[2:]))
	id = int32(binary.BigEndian.Uint32(p[4:]))
	return api, version, id, p[requestHeaderSize:], nil
}

// ResponseFrame builds a SUCCESS or ERROR response frame with any body
// (also a malformed one, or with an unknown type, for the client's tests).
func ResponseFrame(typ ResponseType, id int32, body []byte) []byte {
	b := make([]byte, 9, 9+len(body))
	binary.BigEndian.PutUint32(b, uint32(5+len(body)))
	b[4] = byte(typ)
	binary.BigEndian.PutUint32(b[5:], uint32(id))
	return append(b, body...)
}

// ServerFailureFrame builds a SERVER_FAILURE frame, which carries no
// request id: the server sends it when it cannot parse a request.
func ServerFailureFrame(code int32, msg string) []byte {
	body := errorBody(code, msg)
	b := make([]byte, 5, 5+len(body))
	binary.BigEndian.PutUint32(b, uint32(1+len(body)))
	b[4] = byte(ServerFailure)
	return append(b, body...)
}

func errorBody(code int32, msg string) []byte {
	body, err := proto.Marshal(&pb.ErrorResponse{ErrorCode: proto.Int32(code), ErrorMessage: proto.String(msg)})
	if err != nil {
		panic(err) // cannot happen: both required fields are set
	}
	return body
}
