package flussrpc

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/pb"
	"github.com/gofluss/fluss/internal/plural"
)

// Reading log segments that the tablet server has already moved to remote
// storage (remote.data.dir). FETCH_LOG then answers with
// remote_log_fetch_info instead of records: the bucket's remote directory
// and the segments holding the fetch offset, plus the byte position in the
// first segment where the offset index says to start. Segment files have
// the same batch format as fetched records and are named
// <tablet dir>/<segment uuid>/<start offset, 20 digits>.log
// (FlussPaths.remoteLogSegmentFile). Only remote directories on a local or
// mounted filesystem (file: URIs and plain paths) are supported; object
// stores would need GET_FILESYSTEM_SECURITY_TOKEN credentials and their
// SDKs.

// ErrRemoteLogUnsupported is returned when a bucket's data is only in
// remote storage of a kind this client cannot read.
var ErrRemoteLogUnsupported = errors.New("flussrpc: remote log storage not readable by this client")

// remoteLocalDir turns a remote tablet directory into a local path.
func remoteLocalDir(dir string) (string, error) {
	if strings.HasPrefix(dir, "/") {
		return filepath.Clean(dir), nil
	}
	u, err := url.Parse(dir)
	if err != nil {
		return "", fmt.Errorf("%w: directory %q: %v", ErrRemoteLogUnsupported, dir, err)
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("%w: %q uses filesystem %q; only local (file:) remote.data.dir is supported", ErrRemoteLogUnsupported, dir, u.Scheme)
	}
	if u.Host != "" && u.Host != "localhost" {
		return "", fmt.Errorf("%w: %q names host %q", ErrRemoteLogUnsupported, dir, u.Host)
	}
	if u.Path == "" {
		return "", fmt.Errorf("%w: %q has no path", ErrRemoteLogUnsupported, dir)
	}
	return filepath.Clean(u.Path), nil
}

// remoteSegmentName is the file name of a segment starting at offset.
func remoteSegmentName(startOffset int64) string {
	return fmt.Sprintf("%020d.log", startOffset)
}

// parseRemoteSegmentName is the inverse of remoteSegmentName.
func parseRemoteSegmentName(name string) (int64, error) {
	digits, ok := strings.CutSuffix(name, ".log")
	if !ok || len(digits) != 20 {
		return 0, fmt.Errorf("flussrpc: %q is not a log segment file name", name)
	}
	for _, r := range digits {
		if r < '0' || r > '9' {
			return 0, fmt.Errorf("flussrpc: %q is not a log segment file name", name)
		}
	}
	off, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("flussrpc: %q: %w", name, err)
	}
	return off, nil
}

// validSegmentID checks that a segment id is a UUID, so that it cannot
// escape the tablet directory.
func validSegmentID(id string) bool {
	if len(id) != 36 {
		return false
	}
	for i, r := range id {
		switch i {
		case 8, 13, 18, 23:
			if r != '-' {
				return false
			}
		default:
			if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F') {
				return false
			}
		}
	}
	return true
}

// remoteSegmentPath returns the local file of one remote segment.
func remoteSegmentPath(tabletDir, segmentID string, startOffset int64) (string, error) {
	dir, err := remoteLocalDir(tabletDir)
	if err != nil {
		return "", err
	}
	if !validSegmentID(segmentID) {
		return "", fmt.Errorf("flussrpc: remote log segment id %q is not a UUID", segmentID)
	}
	if startOffset < 0 {
		return "", fmt.Errorf("flussrpc: remote log segment %s starts at negative offset %d", segmentID, startOffset)
	}
	return filepath.Join(dir, segmentID, remoteSegmentName(startOffset)), nil
}

// readRemote reads, from the first listed segment that still holds
// records at or after fetchOffset, about maxBytes of whole batches
// starting at the position the server gave (0 for later segments). It
// returns nil when no segment has such records.
func readRemote(info *pb.PbRemoteLogFetchInfo, fetchOffset int64, maxBytes int, line codec.ServerLine) ([]byte, error) {
	for i, seg := range info.GetRemoteLogSegments() {
		pos := int64(0)
		if i == 0 {
			pos = int64(info.GetFirstStartPos())
		}
		path, err := remoteSegmentPath(info.GetRemoteLogTabletDir(), seg.GetRemoteLogSegmentId(), seg.GetRemoteLogStartOffset())
		if err != nil {
			return nil, err
		}
		for {
			chunk, eof, err := readSegmentBatches(path, pos, maxBytes, line)
			if err != nil {
				return nil, err
			}
			useful, consumed := chunkReaches(chunk, fetchOffset, line)
			if useful {
				return chunk, nil
			}
			if eof || consumed == 0 {
				break // nothing at or after fetchOffset in this segment
			}
			pos += int64(consumed)
		}
	}
	return nil, nil
}

// chunkReaches reports whether a chunk has a batch ending at or after
// offset, and how many bytes of whole batches it holds.
func chunkReaches(chunk []byte, offset int64, line codec.ServerLine) (bool, int) {
	it := codec.NewLogBatchIterator(chunk, line)
	for {
		b, ok := it.Next()
		if !ok {
			return false, it.Offset()
		}
		if b.Header.LastOffset() >= offset {
			return true, it.Offset()
		}
	}
}

// readSegmentBatches reads whole batches from path starting at byte pos: at
// least the first batch, then as many as fit in maxBytes. eof is true when
// the file has no bytes after the chunk.
func readSegmentBatches(path string, pos int64, maxBytes int, line codec.ServerLine) ([]byte, bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	size := st.Size()
	if pos < 0 || pos > size {
		return nil, false, fmt.Errorf("flussrpc: position %d outside %s (%s)", pos, path, plural.Count(size, "byte"))
	}
	rest := size - pos
	if rest < codec.LogOverhead {
		return nil, true, nil
	}
	var hdr [codec.LogOverhead]byte
	if _, err := f.ReadAt(hdr[:], pos); err != nil {
		return nil, false, err
	}
	first := int64(int32(uint32(hdr[8])|uint32(hdr[9])<<8|uint32(hdr[10])<<16|uint32(hdr[11])<<24)) + codec.LogOverhead
	if first < codec.V0HeaderSize || first > rest {
		return nil, false, fmt.Errorf("%w: batch of %s at %d in %s (%s left)", codec.ErrCorrupt, plural.Count(first, "byte"), pos, path, plural.Count(rest, "byte"))
	}
	n := min(rest, max(first, int64(maxBytes)))
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, pos); err != nil && !errors.Is(err, io.EOF) {
		return nil, false, err
	}
	// Keep whole batches only; the iterator of the caller stops at a
	// truncated tail anyway, but the tail would count against the buffer.
	it := codec.NewLogBatchIterator(buf, line)
	for {
		if _, ok := it.Next(); !ok {
			break
		}
	}
	whole := it.Offset()
	if whole == 0 {
		whole = int(first) // an unparsable first batch: let the decoder report it
	}
	return buf[:whole], pos+int64(whole) >= size, nil
}
