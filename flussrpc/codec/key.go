package codec

import (
	"errors"
	"fmt"

	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
)

// KeyEncoder turns the key columns of a full row into key bytes.
type KeyEncoder interface {
	// AppendKey appends the key bytes of row (a full table row) to dst.
	AppendKey(dst []byte, row []any) ([]byte, error)
}

// CompactedKeyEncoder encodes key columns like CompactedRow fields, with no
// null bitset; NULL key values are rejected. It is Fluss's default key
// encoding (no lake format, lance, and non-default bucket keys of
// kv-format-version 2 tables).
type CompactedKeyEncoder struct {
	idx   []int
	types []schema.DataType
}

// NewCompactedKeyEncoder returns an encoder for the columns at keyIdx of a
// row with rowTypes.
func NewCompactedKeyEncoder(rowTypes []schema.DataType, keyIdx []int) (*CompactedKeyEncoder, error) {
	types, err := keyTypes(rowTypes, keyIdx, schema.DataType.Validate)
	if err != nil {
		return nil, err
	}
	return &CompactedKeyEncoder{idx: append([]int(nil), keyIdx...), types: types}, nil
}

// keyTypes returns the types of the key columns at keyIdx of a row with
// rowTypes, each accepted by check.
func keyTypes(rowTypes []schema.DataType, keyIdx []int, check func(schema.DataType) error) ([]schema.DataType, error) {
	types := make([]schema.DataType, len(keyIdx))
	for i, k := range keyIdx {
		if k < 0 || k >= len(rowTypes) {
			return nil, fmt.Errorf("codec: key column index %d out of range", k)
		}
		if err := check(rowTypes[k]); err != nil {
			return nil, err
		}
		types[i] = rowTypes[k]
	}
	return types, nil
}

// AppendKey implements KeyEncoder.
func (e *CompactedKeyEncoder) AppendKey(dst []byte, row []any) ([]byte, error) {
	var err error
	for i, k := range e.idx {
		if k >= len(row) {
			return nil, fmt.Errorf("codec: row has %s, key needs column %d", plural.Count(len(row), "value"), k)
		}
		if row[k] == nil {
			return nil, fmt.Errorf("codec: key column %d is NULL", k)
		}
		if dst, err = appendCompactedValue(dst, e.types[i], row[k]); err != nil {
			return nil, fmt.Errorf("codec: key column %d: %w", k, err)
		}
	}
	return dst, nil
}

// DecodeCompactedKey decodes key bytes produced by CompactedKeyEncoder.
func DecodeCompactedKey(keyTypes []schema.DataType, b []byte) ([]any, error) {
	r := reader{b: b}
	out := make([]any, len(keyTypes))
	for i, t := range keyTypes {
		v, err := readCompactedValue(&r, t)
		if err != nil {
			return nil, colErr(i, err)
		}
		out[i] = v
	}
	if r.remaining() != 0 {
		return nil, corrupt("%s after key", plural.Count(r.remaining(), "trailing byte"))
	}
	return out, nil
}

// KeyEncoding names a key byte layout.
type KeyEncoding uint8

// Key encodings.
const (
	KeyCompacted KeyEncoding = iota + 1
	KeyPaimon                // Paimon BinaryRow (lake format paimon)
	KeyIceberg               // Iceberg single-column encoding (lake format iceberg)
)

// String returns a readable name.
func (k KeyEncoding) String() string {
	switch k {
	case KeyCompacted:
		return "compacted"
	case KeyPaimon:
		return "paimon"
	case KeyIceberg:
		return "iceberg"
	}
	return fmt.Sprintf("KeyEncoding(%d)", uint8(k))
}

// LakeKeyEncoding returns the key encoding a lake format implies: Paimon and
// Iceberg have their own, everything else (none, lance) uses Compacted.
func LakeKeyEncoding(lake string) (KeyEncoding, error) {
	switch lake {
	case "", schema.LakeLance:
		return KeyCompacted, nil
	case schema.LakePaimon:
		return KeyPaimon, nil
	case schema.LakeIceberg:
		return KeyIceberg, nil
	case schema.LakeHudi:
		// Hudi (1.x) keys are always Compacted; its 4-byte bucket key is not
		// implemented here.
		return KeyCompacted, nil
	}
	return 0, fmt.Errorf("codec: unsupported datalake format %q", lake)
}

// PrimaryKeyEncoding applies Java's KeyEncoder.ofPrimaryKeyEncoder rule:
// kv format version 1 uses the lake encoding; version 2 uses it only when
// the bucket key is the default one and Compacted otherwise (so the bucket
// key bytes are a prefix of the key bytes, enabling prefix lookups).
func PrimaryKeyEncoding(lake string, kvFormatVersion int, defaultBucketKey bool) (KeyEncoding, error) {
	if lake == schema.LakeHudi {
		return KeyCompacted, nil
	}
	lakeEnc, err := LakeKeyEncoding(lake)
	if err != nil {
		return 0, err
	}
	switch kvFormatVersion {
	case 1:
		return lakeEnc, nil
	case 2:
		if defaultBucketKey {
			return lakeEnc, nil
		}
		return KeyCompacted, nil
	}
	return 0, fmt.Errorf("codec: unsupported kv format version %d", kvFormatVersion)
}

// TableKeys bundles what a writer or lookuper needs to turn a full row
// into key bytes, bucket-key bytes and a bucket.
type TableKeys struct {
	// Primary encodes the physical primary key; nil for log tables.
	Primary KeyEncoder
	// Bucket encodes the bucket key; nil when the bucket bytes are the
	// primary-key bytes (default bucket key) or when a log table has no
	// bucket key (rows are then spread by the writer).
	Bucket KeyEncoder
	// Bucketing maps bucket-key bytes to a bucket.
	Bucketing BucketingFunction
}

// ErrKeyEncodingUnsupported is returned for lake encodings not implemented
// by this package.
var ErrKeyEncodingUnsupported = errors.New("codec: key encoding not implemented")

// NewTableKeys derives the key and bucket encoders for a table from its
// descriptor: physical primary key, effective bucket keys, lake format and
// kv format version.
func NewTableKeys(d *schema.TableDescriptor) (*TableKeys, error) {
	lake := d.DataLakeFormat()
	bucketing, err := BucketingFor(lake)
	if err != nil {
		return nil, err
	}
	tk := &TableKeys{Bucketing: bucketing}
	types := d.Schema.Types()
	bucketKeys := d.EffectiveBucketKeys()
	if d.HasPrimaryKey() {
		enc, err := PrimaryKeyEncoding(lake, d.KvFormatVersion(), d.IsDefaultBucketKey())
		if err != nil {
			return nil, err
		}
		if tk.Primary, err = newKeyEncoder(enc, &d.Schema, types, d.PhysicalPrimaryKey()); err != nil {
			return nil, err
		}
		if d.IsDefaultBucketKey() && lake != schema.LakeHudi {
			return tk, nil
		}
	}
	if len(bucketKeys) == 0 {
		return tk, nil
	}
	enc, err := LakeKeyEncoding(lake)
	if err != nil {
		return nil, err
	}
	tk.Bucket, err = newKeyEncoder(enc, &d.Schema, types, bucketKeys)
	return tk, err
}

func newKeyEncoder(enc KeyEncoding, s *schema.Schema, types []schema.DataType, cols []string) (KeyEncoder, error) {
	idx, err := s.ColumnIndexes(cols)
	if err != nil {
		return nil, err
	}
	switch enc {
	case KeyCompacted:
		return NewCompactedKeyEncoder(types, idx)
	case KeyPaimon:
		return NewPaimonKeyEncoder(types, idx)
	case KeyIceberg:
		return NewIcebergKeyEncoder(types, idx)
	}
	return nil, fmt.Errorf("%w: %v", ErrKeyEncodingUnsupported, enc)
}

// EncodeKeys returns the primary-key bytes (nil for log tables) and the
// bucket-key bytes (nil when the table has no bucket key) of row. When the
// bucket key is the default one both results share the same bytes.
func (tk *TableKeys) EncodeKeys(row []any) (key, bucketKey []byte, err error) {
	return tk.AppendKeys(nil, row)
}

// AppendKeys is EncodeKeys writing into dst (from its length on), so that
// a caller encoding many rows can reuse one buffer: both results alias it.
func (tk *TableKeys) AppendKeys(dst []byte, row []any) (key, bucketKey []byte, err error) {
	start := len(dst)
	if tk.Primary != nil {
		if dst, err = tk.Primary.AppendKey(dst, row); err != nil {
			return nil, nil, err
		}
		key = dst[start:]
		bucketKey = key
	}
	if tk.Bucket != nil {
		mid := len(dst)
		if dst, err = tk.Bucket.AppendKey(dst, row); err != nil {
			return nil, nil, err
		}
		bucketKey = dst[mid:]
	}
	return key, bucketKey, nil
}

// NewPrefixLookupKeys derives the encoders of a PREFIX_LOOKUP (Java
// PrefixKeyLookuper): the lookup key is the bucket key encoded with the
// primary-key rule, and its bytes are reused for bucketing unless the table
// has a lake format, which then encodes the bucket key its own way. The
// encoders read full rows; columns outside the bucket key may be nil.
func NewPrefixLookupKeys(d *schema.TableDescriptor) (*TableKeys, error) {
	if !d.HasPrimaryKey() {
		return nil, errors.New("codec: prefix lookups need a primary-key table")
	}
	lake := d.DataLakeFormat()
	bucketing, err := BucketingFor(lake)
	if err != nil {
		return nil, err
	}
	types := d.Schema.Types()
	bucketKeys := d.EffectiveBucketKeys()
	enc, err := PrimaryKeyEncoding(lake, d.KvFormatVersion(), d.IsDefaultBucketKey())
	if err != nil {
		return nil, err
	}
	tk := &TableKeys{Bucketing: bucketing}
	if tk.Primary, err = newKeyEncoder(enc, &d.Schema, types, bucketKeys); err != nil {
		return nil, err
	}
	if lake == "" {
		return tk, nil
	}
	lakeEnc, err := LakeKeyEncoding(lake)
	if err != nil {
		return nil, err
	}
	tk.Bucket, err = newKeyEncoder(lakeEnc, &d.Schema, types, bucketKeys)
	return tk, err
}
