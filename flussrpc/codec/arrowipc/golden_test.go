package arrowipc

import (
	"testing"

	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/testkit"
)

// TestGoldenMatchesEncoder checks that the encoder still produces the
// golden message whose layout TestGoldenLayout explains.
func TestGoldenMatchesEncoder(t *testing.T) {
	rows := [][]any{{int32(1), "a"}, {nil, ""}, {int32(-7), "héllo"}}
	msg := encodeRows(t, goldenColumns(), Compression{Type: schema.CompressionNone}, nil, rows)

	if golden, same := testkit.Golden(t, goldenPath, msg); !same {
		t.Fatalf("encoding changed:\n got %x\nwant %x", msg, golden)
	}
}
