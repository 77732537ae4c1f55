package flussrpc

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// Schema evolution on the read path. Every log batch and every stored KV
// value carries the id of the schema it was written with, which may be
// older than the schema the Table was opened with (or, after a concurrent
// ALTER TABLE, newer). Readers decode with the writer's schema and then map
// the values onto the table's schema by column id: a column the writer's
// schema lacks reads as NULL, a column the table's schema lacks is dropped.
// Fluss 0.9 only allows adding nullable columns at the end, so positions
// and ids agree there, but ids are what Fluss guarantees to be stable.

// evolveMap maps rows of a source schema onto a target schema.
type evolveMap struct {
	identity bool
	from     []int // per target column: position in the source row, or -1
}

// newEvolveMap matches the columns of src and dst by column id.
func newEvolveMap(src, dst *schema.Schema) *evolveMap {
	m := &evolveMap{from: make([]int, len(dst.Columns))}
	m.identity = len(src.Columns) == len(dst.Columns)
	for i, c := range dst.Columns {
		m.from[i] = src.ColumnByID(c.ID)
		if m.from[i] != i {
			m.identity = false
		}
	}
	return m
}

// apply returns row rearranged to the target schema; the identity mapping
// returns row itself.
func (m *evolveMap) apply(row []any) []any {
	if m == nil || m.identity {
		return row
	}
	out := make([]any, len(m.from))
	for i, f := range m.from {
		if f >= 0 && f < len(row) {
			out[i] = row[f]
		}
	}
	return out
}

// evolveReader decodes binary rows written with one schema id into rows of
// the table's schema.
type evolveReader struct {
	schemaID int16
	source   schema.Schema
	dec      *codec.RowDecoder
	m        *evolveMap
}

// decode decodes one row and maps it to the table's schema.
func (r *evolveReader) decode(b []byte) ([]any, error) {
	row, err := r.dec.Decode(b)
	if err != nil {
		return nil, err
	}
	return r.m.apply(row), nil
}

// evolveReaders caches one evolveReader per schema id for one row format.
// Reads are lock-free (copy-on-write map); misses fetch the schema through
// Table.Schema.
type evolveReaders struct {
	t      *Table
	format codec.RowFormat

	mu      sync.Mutex
	readers atomic.Pointer[map[int16]*evolveReader]
}

func newEvolveReaders(t *Table, format codec.RowFormat) *evolveReaders {
	e := &evolveReaders{t: t, format: format}
	m := map[int16]*evolveReader{}
	e.readers.Store(&m)
	return e
}

// decodeValue decodes a value record with the reader of its schema, into
// a row of the current schema.
func (e *evolveReaders) decodeValue(ctx context.Context, v codec.ValueRecord) ([]any, error) {
	r, err := e.get(ctx, v.SchemaID)
	if err != nil {
		return nil, err
	}
	return r.decode(v.Row)
}

// get returns the reader for rows written with schema id.
func (e *evolveReaders) get(ctx context.Context, id int16) (*evolveReader, error) {
	if r, ok := (*e.readers.Load())[id]; ok {
		return r, nil
	}
	src, err := e.t.Schema(ctx, int32(id))
	if err != nil {
		return nil, err
	}
	dec, err := codec.NewRowDecoder(e.format, src.Types())
	if err != nil {
		return nil, fmt.Errorf("flussrpc: schema %d of %s: %w", id, e.t.info.Path, err)
	}
	r := &evolveReader{schemaID: id, source: src, dec: dec, m: newEvolveMap(&src, &e.t.info.Descriptor.Schema)}
	e.mu.Lock()
	defer e.mu.Unlock()
	old := *e.readers.Load()
	if have, ok := old[id]; ok {
		return have, nil
	}
	next := make(map[int16]*evolveReader, len(old)+1)
	for k, v := range old {
		next[k] = v
	}
	next[id] = r
	e.readers.Store(&next)
	return r, nil
}
