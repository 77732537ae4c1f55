package cluster

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// The readiness probe speaks just enough of the Fluss protocol to ask the
// coordinator for its view of the cluster. It is kept apart from flussrpc on
// purpose: the tool that starts the cluster must not depend on the client it
// is used to test.
const (
	apiGetMetadata     = 1012
	metaFieldTablets   = 2 // MetadataResponse.tablet_servers
	maxProbeFrameBytes = 1 << 20
)

// liveTablets asks the server at addr for cluster metadata and returns how
// many tablet servers it lists. The coordinator opens its port before it has
// registered in ZooKeeper, so an open port alone does not mean ready.
func liveTablets(ctx context.Context, addr string) (int, error) {
	d := net.Dialer{Timeout: 2 * time.Second}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	deadline := time.Now().Add(5 * time.Second)
	if dl, ok := ctx.Deadline(); ok && dl.Before(deadline) {
		deadline = dl
	}
	_ = conn.SetDeadline(deadline)

	req := make([]byte, 12)
	binary.BigEndian.PutUint32(req[0:], 8) // header only: an empty MetadataRequest
	binary.BigEndian.PutUint16(req[4:], apiGetMetadata)
	binary.BigEndian.PutUint16(req[6:], 0)
	binary.BigEndian.PutUint32(req[8:], 1)
	if _, err := conn.Write(req); err != nil {
		return 0, err
	}
	body, err := readProbeResponse(conn)
	if err != nil {
		return 0, err
	}
	return countField(body, metaFieldTablets)
}

func readProbeResponse(r io.Reader) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n < 5 || n > maxProbeFrameBytes {
		return nil, fmt.Errorf("probe: implausible frame length %d", n)
	}
	frame := make([]byte, n)
	if _, err := io.ReadFull(r, frame); err != nil {
		return nil, err
	}
	if frame[0] != 0 {
		return nil, fmt.Errorf("probe: server answered with response type %d", frame[0])
	}
	return frame[5:], nil
}

// countField counts the occurrences of a length-delimited field.
func countField(msg []byte, field protowire.Number) (int, error) {
	count := 0
	for len(msg) > 0 {
		num, typ, n := protowire.ConsumeTag(msg)
		if n < 0 {
			return 0, errors.New("probe: malformed metadata response")
		}
		msg = msg[n:]
		m := protowire.ConsumeFieldValue(num, typ, msg)
		if m < 0 {
			return 0, errors.New("probe: malformed metadata response")
		}
		if num == field && typ == protowire.BytesType {
			count++
		}
		msg = msg[m:]
	}
	return count, nil
}
