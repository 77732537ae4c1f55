package schema

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Table option keys a client has to understand (values are strings in
// TableDescriptor.Properties).
const (
	OptLogFormat             = "table.log.format"                       // ARROW (default), INDEXED, COMPACTED
	OptKvFormat              = "table.kv.format"                        // COMPACTED (default), INDEXED
	OptKvFormatVersion       = "table.kv.format-version"                // absent = 1; new PK tables get 2
	OptDataLakeFormat        = "table.datalake.format"                  // paimon, iceberg, lance (hudi in 1.x)
	OptDataLakeEnabled       = "table.datalake.enabled"                 // true/false
	OptArrowCompressionType  = "table.log.arrow.compression.type"       // NONE, LZ4_FRAME, ZSTD (default)
	OptArrowCompressionLevel = "table.log.arrow.compression.zstd.level" // 1..22, default 3
	OptMergeEngine           = "table.merge-engine"
	OptDeleteBehavior        = "table.delete.behavior"
	OptChangelogImage        = "table.changelog.image"
	OptAutoPartitionEnabled  = "table.auto-partition.enabled"
	OptAutoPartitionKey      = "table.auto-partition.key"
	OptAutoPartitionTimeUnit = "table.auto-partition.time-unit"
	OptStatisticsColumns     = "table.statistics.columns" // 1.x only
)

// OptAutoPartitionPrecreate is how many future partitions the coordinator
// creates ahead for an auto-partitioned table (default 2).
const OptAutoPartitionPrecreate = "table.auto-partition.num-precreate"

// Option values.
const (
	FormatArrow     = "ARROW"
	FormatIndexed   = "INDEXED"
	FormatCompacted = "COMPACTED"

	CompressionNone = "NONE"
	CompressionLZ4  = "LZ4_FRAME"
	CompressionZstd = "ZSTD"

	DefaultZstdLevel = 3

	LakePaimon  = "paimon"
	LakeIceberg = "iceberg"
	LakeLance   = "lance"
	LakeHudi    = "hudi"
)

// TableDescriptor is the definition of a table (the "table_json" document).
type TableDescriptor struct {
	Schema        Schema
	Comment       string // empty when absent
	PartitionKeys []string
	BucketKeys    []string
	// BucketCount is nil when the server default applies.
	BucketCount      *int
	Properties       map[string]string
	CustomProperties map[string]string
}

// Normalize applies what Java's TableDescriptor constructor does before a
// CREATE_TABLE is sent: PK tables without bucket keys get the physical
// primary key as bucket key, and partition/bucket keys are checked.
func (d *TableDescriptor) Normalize() error {
	if d.Schema.HasPrimaryKey() && len(d.BucketKeys) == 0 {
		phys := d.PhysicalPrimaryKey()
		if len(phys) == 0 {
			return fmt.Errorf("schema: primary key %v must not equal the partition keys %v", d.Schema.PrimaryKey, d.PartitionKeys)
		}
		d.BucketKeys = phys
	}
	return d.Validate()
}

// Validate checks the partition and bucket keys against the schema with
// the rules of Java's TableDescriptor.
func (d *TableDescriptor) Validate() error {
	if err := d.Schema.Validate(); err != nil {
		return err
	}
	for _, p := range d.PartitionKeys {
		if d.Schema.ColumnIndex(p) < 0 {
			return fmt.Errorf("schema: partition key %q does not exist", p)
		}
		if d.Schema.HasPrimaryKey() && !slices.Contains(d.Schema.PrimaryKey, p) {
			return fmt.Errorf("schema: partition key %q must be part of the primary key %v", p, d.Schema.PrimaryKey)
		}
	}
	for _, b := range d.BucketKeys {
		if d.Schema.ColumnIndex(b) < 0 {
			return fmt.Errorf("schema: bucket key %q does not exist", b)
		}
		if slices.Contains(d.PartitionKeys, b) {
			return fmt.Errorf("schema: bucket key %q must not be a partition key", b)
		}
		if d.Schema.HasPrimaryKey() && !slices.Contains(d.Schema.PrimaryKey, b) {
			return fmt.Errorf("schema: bucket key %q must be part of the primary key %v", b, d.Schema.PrimaryKey)
		}
	}
	if d.BucketCount != nil && *d.BucketCount <= 0 {
		return fmt.Errorf("schema: bucket count must be positive, got %d", *d.BucketCount)
	}
	return nil
}

// IsPartitioned reports whether the table has partition keys.
func (d *TableDescriptor) IsPartitioned() bool { return len(d.PartitionKeys) > 0 }

// HasPrimaryKey reports whether the table is a primary-key (KV) table.
func (d *TableDescriptor) HasPrimaryKey() bool { return d.Schema.HasPrimaryKey() }

// PhysicalPrimaryKey returns the primary key without the partition columns,
// in declaration order: the columns actually encoded into KV keys.
func (d *TableDescriptor) PhysicalPrimaryKey() []string {
	var out []string
	for _, k := range d.Schema.PrimaryKey {
		if !slices.Contains(d.PartitionKeys, k) {
			out = append(out, k)
		}
	}
	return out
}

// EffectiveBucketKeys returns the explicit bucket keys, or the physical
// primary key for PK tables that declared none (the server fills that in),
// or nil for log tables without bucket keys.
func (d *TableDescriptor) EffectiveBucketKeys() []string {
	if len(d.BucketKeys) > 0 {
		return slices.Clone(d.BucketKeys)
	}
	if d.HasPrimaryKey() {
		return d.PhysicalPrimaryKey()
	}
	return nil
}

// IsDefaultBucketKey reports whether the bucket key is the default: the
// physical primary key for PK tables, or none for log tables. This decides
// whether key bytes can be reused for bucketing.
func (d *TableDescriptor) IsDefaultBucketKey() bool {
	if d.HasPrimaryKey() {
		return slices.Equal(d.EffectiveBucketKeys(), d.PhysicalPrimaryKey())
	}
	return len(d.BucketKeys) == 0
}

// Property returns a table option and whether it is set.
func (d *TableDescriptor) Property(key string) (string, bool) {
	v, ok := d.Properties[key]
	return v, ok
}

// LogFormat returns table.log.format upper-cased, defaulting to ARROW.
func (d *TableDescriptor) LogFormat() string { return d.enumOpt(OptLogFormat, FormatArrow) }

// KvFormat returns table.kv.format upper-cased, defaulting to COMPACTED.
func (d *TableDescriptor) KvFormat() string { return d.enumOpt(OptKvFormat, FormatCompacted) }

// ArrowCompression returns table.log.arrow.compression.type upper-cased,
// defaulting to ZSTD.
func (d *TableDescriptor) ArrowCompression() string {
	return d.enumOpt(OptArrowCompressionType, CompressionZstd)
}

// ArrowZstdLevel returns the ZSTD level, defaulting to 3.
func (d *TableDescriptor) ArrowZstdLevel() int {
	if n, err := strconv.Atoi(strings.TrimSpace(d.Properties[OptArrowCompressionLevel])); err == nil {
		return n
	}
	return DefaultZstdLevel
}

// KvFormatVersion returns table.kv.format-version; absent (or unparsable)
// means 1, the pre-0.8 key encoding rules.
func (d *TableDescriptor) KvFormatVersion() int {
	if n, err := strconv.Atoi(strings.TrimSpace(d.Properties[OptKvFormatVersion])); err == nil {
		return n
	}
	return 1
}

// DataLakeFormat returns table.datalake.format lower-cased ("" if unset).
func (d *TableDescriptor) DataLakeFormat() string {
	return strings.ToLower(strings.TrimSpace(d.Properties[OptDataLakeFormat]))
}

func (d *TableDescriptor) enumOpt(key, def string) string {
	if v, ok := d.Properties[key]; ok && strings.TrimSpace(v) != "" {
		return strings.ToUpper(strings.TrimSpace(v))
	}
	return def
}

// JSON keys of TableDescriptorJsonSerde and DatabaseDescriptorJsonSerde.
const (
	keySchema           = "schema"
	keyComment          = "comment"
	keyPartitionKey     = "partition_key"
	keyBucketKey        = "bucket_key"
	keyBucketCount      = "bucket_count"
	keyProperties       = "properties"
	keyCustomProperties = "custom_properties"
)

// MarshalJSON encodes the descriptor as TableDescriptorJsonSerde does.
// bucket_key is written when there are bucket keys or a bucket count (a
// Java "distribution"); properties and custom_properties are always
// written. It does not Normalize: call that first for a CREATE_TABLE.
func (d TableDescriptor) MarshalJSON() ([]byte, error) {
	if err := d.Schema.Validate(); err != nil {
		return nil, err
	}
	var w jsonWriter
	w.beginObject()
	w.numField(keyVersion, jsonVersion)
	w.key(keySchema)
	d.Schema.writeJSON(&w)
	if d.Comment != "" {
		w.strField(keyComment, d.Comment)
	}
	w.strings(keyPartitionKey, d.PartitionKeys)
	if len(d.BucketKeys) > 0 || d.BucketCount != nil {
		w.strings(keyBucketKey, d.BucketKeys)
		if d.BucketCount != nil {
			w.numField(keyBucketCount, *d.BucketCount)
		}
	}
	w.stringMap(keyProperties, d.Properties)
	w.stringMap(keyCustomProperties, d.CustomProperties)
	w.endObject()
	return w.buf.Bytes(), nil
}

// UnmarshalJSON decodes a table descriptor; unknown keys are ignored and
// missing maps decode as empty maps.
func (d *TableDescriptor) UnmarshalJSON(data []byte) error {
	o, err := decodeObject(data)
	if err != nil {
		return err
	}
	so, err := decodeObject(o[keySchema])
	if err != nil {
		return fmt.Errorf("schema: key %q: %w", keySchema, err)
	}
	var out TableDescriptor
	if out.Schema, err = schemaFromObject(so); err != nil {
		return err
	}
	if err := out.fillFromObject(o); err != nil {
		return err
	}
	*d = out
	return nil
}

func (d *TableDescriptor) fillFromObject(o jsonObject) error {
	var err error
	if d.Comment, err = o.optStr(keyComment); err != nil {
		return err
	}
	if d.PartitionKeys, err = o.strList(keyPartitionKey); err != nil {
		return err
	}
	if d.BucketKeys, err = o.strList(keyBucketKey); err != nil {
		return err
	}
	if o.has(keyBucketCount) {
		n, err := o.integer(keyBucketCount)
		if err != nil {
			return err
		}
		d.BucketCount = &n
	}
	if d.Properties, err = o.strMap(keyProperties); err != nil {
		return err
	}
	d.CustomProperties, err = o.strMap(keyCustomProperties)
	return err
}

// Clone returns a deep copy of the descriptor.
func (d *TableDescriptor) Clone() TableDescriptor {
	out := *d
	out.Schema = d.Schema.Clone()
	out.PartitionKeys = slices.Clone(d.PartitionKeys)
	out.BucketKeys = slices.Clone(d.BucketKeys)
	if d.BucketCount != nil {
		n := *d.BucketCount
		out.BucketCount = &n
	}
	out.Properties = maps.Clone(d.Properties)
	out.CustomProperties = maps.Clone(d.CustomProperties)
	return out
}

// Clone returns a deep copy of the schema.
func (s Schema) Clone() Schema {
	out := s
	out.Columns = make([]Column, len(s.Columns))
	for i, c := range s.Columns {
		c.Type = c.Type.Clone()
		if c.AggFunction != nil {
			a := *c.AggFunction
			a.Params = maps.Clone(a.Params)
			c.AggFunction = &a
		}
		out.Columns[i] = c
	}
	out.PrimaryKey = slices.Clone(s.PrimaryKey)
	out.AutoIncrementColumns = slices.Clone(s.AutoIncrementColumns)
	return out
}

// DatabaseDescriptor is the definition of a database ("database_json").
type DatabaseDescriptor struct {
	Comment          string // empty when absent
	CustomProperties map[string]string
}

// MarshalJSON encodes the descriptor as DatabaseDescriptorJsonSerde does.
func (d DatabaseDescriptor) MarshalJSON() ([]byte, error) {
	var w jsonWriter
	w.beginObject()
	w.numField(keyVersion, jsonVersion)
	if d.Comment != "" {
		w.strField(keyComment, d.Comment)
	}
	w.stringMap(keyCustomProperties, d.CustomProperties)
	w.endObject()
	return w.buf.Bytes(), nil
}

// UnmarshalJSON decodes a database descriptor; unknown keys are ignored.
func (d *DatabaseDescriptor) UnmarshalJSON(data []byte) error {
	o, err := decodeObject(data)
	if err != nil {
		return err
	}
	var out DatabaseDescriptor
	if out.Comment, err = o.optStr(keyComment); err != nil {
		return err
	}
	if out.CustomProperties, err = o.strMap(keyCustomProperties); err != nil {
		return err
	}
	*d = out
	return nil
}
