package flussrpc

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
)

// Lookuper reads rows of a primary-key table by their full primary key.
// It is safe for concurrent use, and should be shared: concurrent lookups
// through one Lookuper are batched per bucket-leader server (see
// LookupOptions).
type Lookuper struct {
	t       *Table
	keyCols []int // positions in the table row of the key values, in order
	// rangeCheck refuses keys the server would insert into an ARROW
	// changelog it cannot hold (see arrowipc.RangeCheck); nil unless the
	// lookuper inserts missing keys.
	rangeCheck func(row []any) error
	lookupRouting
}

// PrefixLookuper reads all rows of a primary-key table whose primary key
// starts with a given bucket key (PREFIX_LOOKUP). Safe for concurrent use;
// share it so that concurrent lookups are batched.
type PrefixLookuper struct {
	t       *Table
	columns []string
	keyCols []int
	lookupRouting
}

// lookupRouting is what both lookupers need to turn a key into bytes, a bucket
// and a partition, and to decode answers.
type lookupRouting struct {
	keys       *codec.TableKeys
	types      []schema.DataType
	partIdx    []int
	numBuckets int
	values     *evolveReaders
	disp       *lookupDispatcher
}

// ErrNotPrimaryKeyTable is returned when a lookup is requested on a log
// table.
var ErrNotPrimaryKeyTable = errors.New("flussrpc: lookups need a primary-key table")

func newLookupRouting(t *Table, keys *codec.TableKeys, kind lookupKind, opts LookupOptions) (lookupRouting, error) {
	d := &t.info.Descriptor
	partIdx, err := d.PartitionKeyIndexes()
	if err != nil {
		return lookupRouting{}, err
	}
	kvFormat, ok := codec.ParseRowFormat(d.KvFormat())
	if !ok {
		return lookupRouting{}, fmt.Errorf("flussrpc: table %s has unsupported kv format %q", t.info.Path, d.KvFormat())
	}
	n := t.info.NumBuckets()
	if n <= 0 {
		return lookupRouting{}, fmt.Errorf("flussrpc: table %s reports no bucket count", t.info.Path)
	}
	return lookupRouting{
		keys:       keys,
		types:      d.Schema.Types(),
		partIdx:    partIdx,
		numBuckets: n,
		values:     newEvolveReaders(t, kvFormat),
		disp:       newLookupDispatcher(t.c, kind, t.info.Path, t.info.TableID, opts),
	}, nil
}

// NewLookuper returns a point lookuper for a primary-key table. Keys are
// given as the values of the primary-key columns in declaration order,
// partition columns included (see Lookuper.Lookup). opts may be omitted;
// with LookupOptions.InsertIfNotExists the lookuper inserts missing keys.
func (t *Table) NewLookuper(opts ...LookupOptions) (*Lookuper, error) {
	d := &t.info.Descriptor
	if !d.HasPrimaryKey() {
		return nil, fmt.Errorf("%w: %s is a log table", ErrNotPrimaryKeyTable, t.info.Path)
	}
	o := firstOpts(opts)
	if o.InsertIfNotExists {
		if err := validateInsertLookup(t.info.Path, d); err != nil {
			return nil, err
		}
	}
	insert, err := newInsertSettings(t.c, o)
	if err != nil {
		return nil, err
	}
	keyCols, err := d.Schema.ColumnIndexes(d.Schema.PrimaryKey)
	if err != nil {
		return nil, err
	}
	keys, err := codec.NewTableKeys(d)
	if err != nil {
		return nil, fmt.Errorf("flussrpc: lookups on %s: %w", t.info.Path, err)
	}
	r, err := newLookupRouting(t, keys, lookupPoint, o)
	if err != nil {
		return nil, err
	}
	r.disp.insert = insert
	l := &Lookuper{t: t, keyCols: keyCols, lookupRouting: r}
	if o.InsertIfNotExists && d.LogFormat() == schema.FormatArrow {
		l.rangeCheck = arrowipc.RangeCheck(d.Schema.Columns)
	}
	return l, nil
}

// validateInsertLookup checks that the server can insert missing keys of
// the table. The server writes a missing key as a row of its key columns
// alone, so every other column must accept NULL, except the
// auto-increment column it fills (the rule of Java's TableLookup).
// Partitioned tables are refused: Fluss 0.9.1 decodes the sent key, which
// holds the primary key without the partition columns, as if it held all
// of them (KeyRecordBatch), so the insert fails or, for some keys, writes
// a row under a different key.
func validateInsertLookup(path TablePath, d *schema.TableDescriptor) error {
	if len(d.PartitionKeys) > 0 {
		return fmt.Errorf("%w on %s: the table is partitioned, and Fluss 0.9.1 servers cannot insert keys of partitioned tables", ErrInvalidInsertLookup, path)
	}
	s := &d.Schema
	var notNull []string
	for _, c := range s.Columns {
		if !c.Type.Nullable && !slices.Contains(s.PrimaryKey, c.Name) && !slices.Contains(s.AutoIncrementColumns, c.Name) {
			notNull = append(notNull, c.Name)
		}
	}
	if len(notNull) > 0 {
		return fmt.Errorf("%w on %s: columns %v are NOT NULL, but inserted rows hold only the primary key and the auto-increment column", ErrInvalidInsertLookup, path, notNull)
	}
	return nil
}

func firstOpts(opts []LookupOptions) LookupOptions {
	if len(opts) > 0 {
		return opts[0]
	}
	return LookupOptions{}
}

// KeyColumns returns the names of the columns whose values Lookup expects,
// in order.
func (l *Lookuper) KeyColumns() []string { return slices.Clone(l.t.info.Descriptor.Schema.PrimaryKey) }

// fullRow spreads key values over a table-width row (other columns nil),
// the shape the key encoders read.
func (r *lookupRouting) fullRow(keyCols []int, key []any) ([]any, error) {
	if len(key) != len(keyCols) {
		return nil, fmt.Errorf("flussrpc: lookup key has %s, want %d", plural.Count(len(key), "value"), len(keyCols))
	}
	row := make([]any, len(r.types))
	for i, p := range keyCols {
		if key[i] == nil {
			return nil, fmt.Errorf("flussrpc: lookup key value %d is NULL", i)
		}
		row[p] = key[i]
	}
	return row, nil
}

// route encodes the key of a full row and finds its partition and bucket.
func (r *lookupRouting) route(t *Table, row []any) (PhysicalPath, int32, []byte, error) {
	key, bucketKey, err := r.keys.EncodeKeys(row)
	if err != nil {
		return PhysicalPath{}, 0, nil, fmt.Errorf("flussrpc: lookup key for %s: %w", t.info.Path, err)
	}
	b, err := r.keys.Bucketing.Bucket(bucketKey, r.numBuckets)
	if err != nil {
		return PhysicalPath{}, 0, nil, err
	}
	partition := ""
	if len(r.partIdx) > 0 {
		if partition, err = codec.PartitionNameOf(r.types, r.partIdx, row); err != nil {
			return PhysicalPath{}, 0, nil, fmt.Errorf("flussrpc: lookup key for %s: %w", t.info.Path, err)
		}
	}
	return PhysicalPath{TablePath: t.info.Path, Partition: partition}, int32(b), key, nil
}

// do routes keys (one value per column of keyCols each), submits them
// together so that the keys of one server leave in one request (per
// MaxBatchKeys), and waits for every answer. A key whose partition does
// not exist gets a nil call.
func (r *lookupRouting) do(ctx context.Context, t *Table, keyCols []int, keys [][]any, check func(full []any) error) ([]*lookupCall, error) {
	// Retries (a leaderless bucket, a refused connection) go on until ctx
	// ends: without a deadline of its own it gets the request timeout.
	if err := ctx.Err(); err != nil {
		// Sent anyway, a fast answer could win the race with ctx.Done in
		// wait, and a lookup under an ended context would succeed.
		return nil, err
	}
	ctx, cancel := r.disp.c.withTimeout(ctx)
	defer cancel()
	calls := make([]*lookupCall, len(keys))
	for i, key := range keys {
		full, err := r.fullRow(keyCols, key)
		if err != nil {
			return nil, err
		}
		if check != nil {
			if err := check(full); err != nil {
				return nil, err
			}
		}
		path, bucket, kb, err := r.route(t, full)
		if err != nil {
			return nil, err
		}
		calls[i] = &lookupCall{ctx: ctx, path: path, bucket: bucket, key: kb, retry: r.disp.c.routingRetrier(), done: make(chan struct{})}
	}
	r.disp.submitOwn(ctx, calls)
	for i, call := range calls {
		if err := call.wait(ctx); err != nil {
			if call.path.Partition != "" && isMissingPartition(err) {
				calls[i] = nil
				continue
			}
			return nil, err
		}
	}
	return calls, nil
}

// isMissingPartition reports whether err says the partition of a lookup
// key does not exist; such lookups find nothing rather than fail.
func isMissingPartition(err error) bool {
	return errors.Is(err, ErrPartitionNotExists)
}

// Lookup returns the row with the given primary key, mapped to the
// table's schema as of OpenTable (columns added later are dropped, values
// written before a column was added read NULL there). key holds one value
// per primary-key column in declaration order (KeyColumns), in the Go
// types of the codec value model; partition columns are part of it. found
// is false when no row has the key, including when its partition does not
// exist. Concurrent calls are batched; ctx (or, when it has no deadline,
// the client's request timeout) bounds the wait and the retries of
// retriable errors. An insert-if-not-exists lookuper (see
// LookupOptions.InsertIfNotExists) inserts a missing key first, so it
// finds every key.
func (l *Lookuper) Lookup(ctx context.Context, key []any) (row []any, found bool, err error) {
	rows, err := l.LookupMany(ctx, [][]any{key})
	if err != nil || rows[0] == nil {
		return nil, false, err
	}
	return rows[0], true, nil
}

// LookupMany looks up several keys at once, as Lookup does each: rows[i]
// is the row of keys[i], nil when there is none. The keys are grouped by
// server and bucket before anything is sent, so n keys cost one request
// per server (per MaxBatchKeys) and no goroutine per key. The first error
// fails the call.
func (l *Lookuper) LookupMany(ctx context.Context, keys [][]any) ([][]any, error) {
	calls, err := l.do(ctx, l.t, l.keyCols, keys, l.rangeCheck)
	if err != nil {
		return nil, err
	}
	rows := make([][]any, len(keys))
	for i, call := range calls {
		if call == nil || call.value == nil {
			continue
		}
		if rows[i], err = l.decodeValue(ctx, call.value); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// decodeValue decodes a stored value ([int16 schema id][row]).
func (r *lookupRouting) decodeValue(ctx context.Context, b []byte) ([]any, error) {
	v, err := codec.ParseLookupValue(b)
	if err != nil {
		return nil, err
	}
	return r.values.decodeValue(ctx, v)
}

// NewPrefixLookuper returns a lookuper by bucket-key prefix. columns must
// be the table's partition columns (for a partitioned table, in any
// position) plus its bucket key columns in bucket-key order, and the
// bucket key must be a strict prefix of the physical primary key (primary
// key without partition columns); a table whose bucket key is the whole
// physical primary key needs NewLookuper instead.
func (t *Table) NewPrefixLookuper(columns []string, opts ...LookupOptions) (*PrefixLookuper, error) {
	d := &t.info.Descriptor
	o := firstOpts(opts)
	if o.InsertIfNotExists {
		// PREFIX_LOOKUP has no insert mode: a prefix does not name a row.
		return nil, fmt.Errorf("%w on %s: prefix lookups cannot insert missing keys; use NewLookuper with the full primary key", ErrInvalidInsertLookup, t.info.Path)
	}
	if err := validatePrefixLookup(t.info.Path, d, columns); err != nil {
		return nil, err
	}
	keyCols, err := d.Schema.ColumnIndexes(columns)
	if err != nil {
		return nil, err
	}
	keys, err := codec.NewPrefixLookupKeys(d)
	if err != nil {
		return nil, fmt.Errorf("flussrpc: prefix lookups on %s: %w", t.info.Path, err)
	}
	r, err := newLookupRouting(t, keys, lookupPrefix, o)
	if err != nil {
		return nil, err
	}
	return &PrefixLookuper{t: t, columns: slices.Clone(columns), keyCols: keyCols, lookupRouting: r}, nil
}

// ErrInvalidPrefixLookup is wrapped by NewPrefixLookuper errors about
// lookup columns that do not form a valid prefix key.
var ErrInvalidPrefixLookup = errors.New("flussrpc: invalid prefix lookup")

// validatePrefixLookup applies the rules of Java's PrefixKeyLookuper.
func validatePrefixLookup(path TablePath, d *schema.TableDescriptor, columns []string) error {
	if !d.HasPrimaryKey() {
		return fmt.Errorf("%w: %s is a log table", ErrNotPrimaryKeyTable, path)
	}
	phys := d.PhysicalPrimaryKey()
	bucket := d.EffectiveBucketKeys()
	if len(bucket) > len(phys) || !slices.Equal(bucket, phys[:len(bucket)]) {
		return fmt.Errorf("%w on %s: bucket key %v is not a prefix of the physical primary key %v", ErrInvalidPrefixLookup, path, bucket, phys)
	}
	for _, p := range d.PartitionKeys {
		if !slices.Contains(columns, p) {
			return fmt.Errorf("%w on %s: lookup columns %v must contain every partition column %v", ErrInvalidPrefixLookup, path, columns, d.PartitionKeys)
		}
	}
	var rest []string
	for _, c := range columns {
		if !slices.Contains(d.PartitionKeys, c) {
			rest = append(rest, c)
		}
	}
	if !slices.Equal(rest, bucket) {
		return fmt.Errorf("%w on %s: lookup columns %v must be the partition columns plus the bucket key %v in order", ErrInvalidPrefixLookup, path, columns, bucket)
	}
	if slices.Equal(bucket, phys) {
		return fmt.Errorf("%w on %s: the bucket key %v is the whole physical primary key; use NewLookuper", ErrInvalidPrefixLookup, path, bucket)
	}
	return nil
}

// Columns returns the lookup columns, in the order Lookup expects values.
func (p *PrefixLookuper) Columns() []string { return slices.Clone(p.columns) }

// Lookup returns every row whose lookup columns equal key (one value per
// column of Columns), mapped to the table's schema like Lookuper.Lookup
// does. A missing partition gives no rows and no error.
func (p *PrefixLookuper) Lookup(ctx context.Context, key []any) ([][]any, error) {
	found, err := p.LookupMany(ctx, [][]any{key})
	if err != nil {
		return nil, err
	}
	return found[0], nil
}

// LookupMany looks up several prefixes at once, grouped by server and
// bucket like Lookuper.LookupMany: rows[i] holds the rows of keys[i].
func (p *PrefixLookuper) LookupMany(ctx context.Context, keys [][]any) ([][][]any, error) {
	calls, err := p.do(ctx, p.t, p.keyCols, keys, nil)
	if err != nil {
		return nil, err
	}
	out := make([][][]any, len(keys))
	for i, call := range calls {
		if call == nil {
			continue
		}
		rows := make([][]any, 0, len(call.values))
		for _, v := range call.values {
			row, err := p.decodeValue(ctx, v)
			if err != nil {
				return nil, err
			}
			rows = append(rows, row)
		}
		out[i] = rows
	}
	return out, nil
}
