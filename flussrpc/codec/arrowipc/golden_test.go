package arrowipc

import (
	"bytes"
	"flag"
	"os"
	"testing"

	"github.com/gofluss/fluss/flussrpc/schema"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// TestGoldenMatchesEncoder checks that the encoder still produces the
// golden message whose layout TestGoldenLayout explains.
func TestGoldenMatchesEncoder(t *testing.T) {
	rows := [][]any{{int32(1), "a"}, {nil, ""}, {int32(-7), "héllo"}}
	msg := encodeRows(t, goldenColumns(), Compression{Type: schema.CompressionNone}, nil, rows)

	path := goldenPath
	if *update {
		if err := os.WriteFile(path, msg, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	golden, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(msg, golden) {
		t.Fatalf("encoding changed:\n got %x\nwant %x", msg, golden)
	}
}
