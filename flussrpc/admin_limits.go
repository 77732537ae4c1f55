package flussrpc

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/gofluss/fluss/internal/plural"
)

// MaxStoredMetadataBytes bounds the JSON of a table or database descriptor,
// and the option changes of one AlterTable call. The coordinator stores a
// descriptor's options in one ZooKeeper node and its schema in another, and
// checks no size itself; ZooKeeper's server refuses a request larger than
// its jute.maxbuffer (1 MiB by default, kept by the ZooKeeper the Fluss
// distribution runs): with Fluss 0.9.1 a descriptor of 1,040,191 bytes is
// stored, one of 1,050,191 bytes fails after seconds of ZooKeeper retries
// with a Java stack trace, can leave a table node without registration
// behind and then stop the next coordinator from starting. The bound
// leaves room for the fields the coordinator adds (ids, timestamps).
const MaxStoredMetadataBytes = 1000 << 10

// ErrMetadataTooLarge is wrapped by the error of a create or alter call
// whose descriptor or options are larger than MaxStoredMetadataBytes. The
// request is not sent.
var ErrMetadataTooLarge = errors.New("larger than the server can store")

// checkStoredSize refuses a descriptor of size bytes for what (for example
// "table db.t") when it exceeds MaxStoredMetadataBytes, naming the largest
// entry of options (key and value) as the likely culprit.
func checkStoredSize(what string, size int, options ...map[string]string) error {
	if size <= MaxStoredMetadataBytes {
		return nil
	}
	largest, largestSize := "", 0
	for _, m := range options {
		for k, v := range m {
			if n := len(k) + len(v); n > largestSize {
				largest, largestSize = k, n
			}
		}
	}
	var culprit string
	if largestSize > 0 {
		culprit = fmt.Sprintf("; its largest option is %s with %s", quoteShort(largest), plural.Count(largestSize, "byte"))
	}
	return fmt.Errorf("flussrpc: %s takes %s, %w (at most %d, one ZooKeeper node)%s", what, plural.Count(size, "byte"), ErrMetadataTooLarge, MaxStoredMetadataBytes, culprit)
}

// quoteShort quotes s, cut to 64 bytes: an option key may itself be huge.
func quoteShort(s string) string {
	const limit = 64
	if len(s) <= limit {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:limit]) + "..."
}
