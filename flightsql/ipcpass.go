package flightsql

import (
	"context"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// ipcCompressionHeader is the call header by which a client says which
// Arrow IPC body compressions it decompresses itself: a comma-separated
// list of "zstd" and "lz4_frame" (case does not matter). Log batches
// compressed so are then streamed as Fluss stored them. Without it only
// uncompressed batches pass as they are: Arrow Java's Flight client (the
// JDBC driver) cannot read compressed bodies.
const ipcCompressionHeader = "x-fluss-ipc-compression"

// ipcOptions returns what a call's query stream may pass through
// undecoded (see engine.ArrowReader.PassIPC).
func ipcOptions(ctx context.Context) (flussrpc.ArrowIPCOptions, error) {
	opts := flussrpc.ArrowIPCOptions{MaxBytes: maxMessageBytes}
	md, _ := metadata.FromIncomingContext(ctx)
	for _, v := range md.Get(ipcCompressionHeader) {
		for name := range strings.SplitSeq(v, ",") {
			switch strings.ToUpper(strings.TrimSpace(name)) {
			case schema.CompressionZstd:
				opts.Compressions = append(opts.Compressions, schema.CompressionZstd)
			case schema.CompressionLZ4:
				opts.Compressions = append(opts.Compressions, schema.CompressionLZ4)
			case "":
			default:
				return opts, status.Errorf(codes.InvalidArgument, "fluss flightsql: %s: unknown compression %q (use zstd, lz4_frame or both, comma-separated)", ipcCompressionHeader, strings.TrimSpace(name))
			}
		}
	}
	return opts, nil
}
