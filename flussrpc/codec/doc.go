// Package codec holds the byte-exact Fluss record formats: CompactedRow and
// IndexedRow (with nested BinaryArray/BinaryMap), key encoders, bucketing
// hashes, partition-name formatting, log record batches, KV record batches
// and value (lookup/scan) records. Everything inside these formats is
// little-endian, except big-endian decimal magnitudes.
//
// # Value model
//
// A row is a []any with one element per column; nil is SQL NULL. Encoders
// accept, and decoders produce, these Go types:
//
//	BOOLEAN                 bool
//	TINYINT                 int8    (encoders accept any Go integer in range)
//	SMALLINT                int16   (ditto)
//	INT                     int32   (ditto)
//	BIGINT                  int64   (ditto)
//	FLOAT                   float32
//	DOUBLE                  float64 (float32 accepted on encode)
//	CHAR(n), STRING         string  (UTF-8)
//	BINARY(n), BYTES        []byte
//	DECIMAL(p, s)           codec.Decimal (scale must equal s; digits <= p)
//	DATE                    codec.Date  (days since 1970-01-01; int32 accepted)
//	TIME(p)                 codec.Time  (millis of day; int32 accepted)
//	TIMESTAMP(p)            codec.TimestampNTZ{Millis, NanoOfMilli}
//	TIMESTAMP_LTZ(p)        codec.TimestampLTZ{Millis, NanoOfMilli}
//	ARRAY<t>                []any       (elements per this table, nil = NULL)
//	MAP<k, v>               codec.Map{Keys, Values []any}
//	ROW<...>                []any       (one value per field)
//
// TIMESTAMP values are wall-clock date-times expressed as if in UTC;
// TIMESTAMP_LTZ values are instants. Both carry nanoseconds within the
// millisecond, stored only when the precision is above 3. TIME keeps
// milliseconds only, like Fluss rows. CHAR/BINARY values in IndexedRow are
// zero-padded to their length and trimmed on read, as in Java.
//
// Decoded strings and byte slices never alias the input.
//
// # Formats not covered
//
// ARROW log payloads are produced and read by another package; LogFormat
// and BuildArrowBatch / LogBatch.ArrowPayload are the seam. The Hudi (1.x)
// bucket-key encoder is not implemented: BucketingFor("hudi") fails.
//
// # Safety
//
// Every decoder validates lengths against the bytes actually present before
// slicing or allocating, so corrupt input produces an error wrapping
// ErrCorrupt, never a panic or an oversized allocation.
package codec
