// Package pb holds the protocol-buffer messages exchanged with Fluss servers.
//
// The messages are generated from fluss_api.proto, this module's own proto2
// description of the client-facing part of the Fluss RPC protocol. Field
// numbers and labels follow the Fluss server so that the encoded bytes are
// what the server expects; proto2 "required" fields are enforced by
// proto.Marshal, which matters because the server silently drops requests
// with missing required fields instead of answering them.
//
// Regenerate with `go generate ./flussrpc/pb` (needs protoc and
// protoc-gen-go on PATH).
package pb
