// Package arrowipc reads and writes the Arrow part of Fluss ARROW log
// batches (table.log.format = ARROW, the default).
//
// # Format
//
// After the log batch header (and, unless the batch is append-only, the
// change-type vector; see codec.LogBatch.ArrowPayload and
// codec.BuildArrowBatch) an ARROW batch holds exactly one encapsulated
// Arrow IPC RecordBatch message and nothing else: no Schema message, no
// dictionaries, no end-of-stream marker. A batch with RecordCount 0 has no
// Arrow bytes at all. The message is
//
//	0xFFFFFFFF                  continuation marker (int32 -1, little-endian)
//	int32 metadata length       flatbuffer length plus padding, so that
//	                            8 + length is a multiple of 8
//	flatbuffer Message          version V5, header RecordBatch, bodyLength
//	zero padding
//	body                        buffers in Arrow Java TypeLayout order, each
//	                            at an 8-byte aligned offset, zero padded
//
// With compression (table.log.arrow.compression.type LZ4_FRAME or ZSTD,
// default ZSTD level 3) the RecordBatch carries BodyCompression{codec
// LZ4_FRAME=0 | ZSTD=1, method BUFFER} and every non-empty buffer is an
// int64 little-endian uncompressed length followed by the compressed bytes,
// or by the raw bytes when the length is -1. Empty buffers stay empty.
// Readers take the schema from the table: the Fluss row type of the
// batch's schema id, or the projected columns (Project) when FETCH_LOG used
// projection push-down, converted with Schema (ArrowUtils.toArrowSchema).
//
// # Writing
//
// RowBuilder turns rows in the codec value model ([]any per row) into an
// arrow.RecordBatch, reusing its column builders batch after batch;
// EstimatedSize lets a writer close a batch at a byte budget. Encoder
// checks a record against the table schema (a user-built record gets an
// error naming the first column that does not fit) and appends the IPC
// message, or a whole V0 log batch with AppendLogBatch. Always encode with
// the table's configured compression (TableCompression): the tablet server
// labels projected batches with the table's codec, not the batch's.
//
// # Reading
//
// Decoder.Decode returns an arrow.RecordBatch; Decoder.DecodeRows returns
// rows in the codec value model for the row-based SQL path. Input is
// validated before arrow-go touches it (metadata bounds, node and buffer
// counts against the schema, buffer ranges, plausible decompressed sizes
// capped by Limits) and the loaded arrays are checked again, so hostile
// bytes produce an error wrapping ErrCorrupt. ZSTD buffers are
// decompressed by the decoder itself, without verifying the frames'
// optional checksums (the log batch's CRC covers the compressed bytes);
// LZ4 buffers are left to arrow-go.
//
// # Memory
//
// Every constructor takes a memory.Allocator (nil means
// memory.DefaultAllocator). Records returned by Decode and
// RowBuilder.NewRecord belong to the caller, who must Release them. An
// uncompressed record aliases the payload passed to Decode, which must not
// change until the record is released; decompressed buffers come from the
// allocator (one allocation per ZSTD message) and are freed by Release. Rows from DecodeRows never alias
// the payload. RowBuilder and Decoder hold memory until their own Release.
// Encoder holds none between calls and is safe for concurrent use;
// RowBuilder and Decoder are not.
package arrowipc
