package fakefluss

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// project returns an ARROW log batch cut down to the columns at positions
// (ascending), as a tablet server answers FETCH_LOG with projection
// push-down. Offsets, commit time and writer state stay those of raw.
func project(t *table, raw []byte, positions []int32) ([]byte, error) {
	lb, err := codec.ParseLogBatch(raw, codec.Line09)
	if err != nil || lb.Header.RecordCount == 0 {
		return raw, err
	}
	all := t.desc.Schema.Columns
	dec, err := arrowipc.NewDecoder(all, nil, arrowipc.Limits{})
	if err != nil {
		return nil, err
	}
	defer dec.Release()
	rec, changes, err := dec.DecodeLogBatch(&lb)
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	cols := make([]schema.Column, len(positions))
	arrays := make([]arrow.Array, len(positions))
	for i, p := range positions {
		cols[i], arrays[i] = all[p], rec.Column(int(p))
	}
	comp, err := arrowipc.TableCompression(&t.desc)
	if err != nil {
		return nil, err
	}
	enc, err := arrowipc.NewEncoder(cols, comp, nil)
	if err != nil {
		return nil, err
	}
	cut := array.NewRecordBatch(enc.Schema(), arrays, rec.NumRows())
	defer cut.Release()
	h := lb.Header
	out, err := enc.AppendLogBatch(nil, codec.ArrowBatch{
		SchemaID: h.SchemaID, WriterID: h.WriterID, BatchSequence: h.BatchSequence, ChangeTypes: changes,
	}, cut)
	if err != nil {
		return nil, err
	}
	// Base offset and commit time lie outside the CRC.
	copy(out[baseOffsetAt:baseOffsetAt+8], raw[baseOffsetAt:])
	copy(out[commitTimeAt:commitTimeAt+8], raw[commitTimeAt:])
	return out, nil
}
