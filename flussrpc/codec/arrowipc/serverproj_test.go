package arrowipc

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/gofluss/fluss/flussrpc/schema"
)

// javaProject re-implements, for testing only, how the tablet server
// projects an ARROW batch for FETCH_LOG with projection push-down
// (FileLogProjection.project / projectArrowBatch at v0.9.1): it selects the
// field nodes and buffers of the chosen top-level columns by walking the
// table's Arrow schema in pre-order with Arrow Java's per-type buffer
// counts, takes each selected buffer's padded length as the next buffer's
// offset minus its own (the body length for the last buffer), and writes new
// metadata labelled with the table's compression. If our writer laid out
// buffers differently from Java, the projected batch would not decode.
func javaProject(t *testing.T, msg []byte, s *arrow.Schema, positions []int, codecID int) []byte {
	t.Helper()
	l, err := schemaLayout(s)
	if err != nil {
		t.Fatal(err)
	}
	m, err := parseMessage(msg, l, Limits{}.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	var nodeSel []bool
	var bufCount []int
	var walk func(dt arrow.DataType, sel bool)
	walk = func(dt arrow.DataType, sel bool) {
		nodeSel = append(nodeSel, sel)
		var one layout
		_ = one.add(dt)
		var children layout
		switch x := dt.(type) {
		case *arrow.ListType:
			_ = children.add(x.Elem())
			bufCount = append(bufCount, one.buffers-children.buffers)
			walk(x.Elem(), sel)
		case *arrow.MapType:
			_ = children.add(x.Elem())
			bufCount = append(bufCount, one.buffers-children.buffers)
			walk(x.Elem(), sel)
		case *arrow.StructType:
			bufCount = append(bufCount, 1)
			for _, f := range x.Fields() {
				walk(f.Type, sel)
			}
		default:
			bufCount = append(bufCount, one.buffers)
		}
	}
	for i, f := range s.Fields() {
		sel := false
		for _, p := range positions {
			sel = sel || p == i
		}
		walk(f.Type, sel)
	}
	var nodes []fieldNode
	var bufSel []bool
	for i, sel := range nodeSel {
		if sel {
			nodes = append(nodes, m.nodes[i])
		}
		for j := 0; j < bufCount[i]; j++ {
			bufSel = append(bufSel, sel)
		}
	}
	var newBufs []bufferSpec
	var body []byte
	for i, sel := range bufSel {
		if !sel {
			continue
		}
		b := m.buffers[i]
		next := int64(len(m.body))
		if i < len(m.buffers)-1 {
			next = m.buffers[i+1].offset
		}
		newBufs = append(newBufs, bufferSpec{offset: int64(len(body)), length: b.length})
		body = append(body, m.body[b.offset:next]...)
	}

	fb := flatbuffers.NewBuilder(256)
	structVec := func(start func(*flatbuffers.Builder, int) flatbuffers.UOffsetT, pairs [][2]int64) flatbuffers.UOffsetT {
		start(fb, len(pairs))
		for i := len(pairs) - 1; i >= 0; i-- {
			fb.Prep(8, 16)
			fb.PrependInt64(pairs[i][1])
			fb.PrependInt64(pairs[i][0])
		}
		return fb.EndVector(len(pairs))
	}
	vecStart := func(b *flatbuffers.Builder, n int) flatbuffers.UOffsetT { return b.StartVector(16, n, 8) }
	var np, bp [][2]int64
	for _, n := range nodes {
		np = append(np, [2]int64{n.length, n.nulls})
	}
	for _, b := range newBufs {
		bp = append(bp, [2]int64{b.offset, b.length})
	}
	nodesOff := structVec(vecStart, np)
	bufsOff := structVec(vecStart, bp)
	var compOff flatbuffers.UOffsetT
	if codecID != codecNone {
		fb.StartObject(2)
		fb.PrependInt8Slot(0, int8(codecID), 0)
		fb.PrependInt8Slot(1, methodBuffer, 0)
		compOff = fb.EndObject()
	}
	fb.StartObject(5)
	fb.PrependInt64Slot(0, m.rows, 0)
	fb.PrependUOffsetTSlot(1, nodesOff, 0)
	fb.PrependUOffsetTSlot(2, bufsOff, 0)
	if codecID != codecNone {
		fb.PrependUOffsetTSlot(3, compOff, 0)
	}
	rb := fb.EndObject()
	fb.StartObject(5)
	fb.PrependInt16Slot(0, metadataV5, 0)
	fb.PrependByteSlot(1, headerRecordBatch, 0)
	fb.PrependUOffsetTSlot(2, rb, 0)
	fb.PrependInt64Slot(3, int64(len(body)), 0)
	fb.Finish(fb.EndObject())
	meta := fb.FinishedBytes()

	padded := align8(8+len(meta)) - 8
	out := le.AppendUint32(nil, continuationMarker)
	out = le.AppendUint32(out, uint32(padded))
	out = append(out, meta...)
	out = append(out, make([]byte, padded-len(meta))...)
	return append(out, body...)
}

func TestServerProjectionOfOurBatches(t *testing.T) {
	cols := allTypeColumns()
	rows := allTypeRows(t)
	s, _ := Schema(cols)
	for _, c := range allCompressions {
		msg := encodeRows(t, cols, c, nil, rows)
		codecID := codecNone
		switch c.Type {
		case schema.CompressionLZ4:
			codecID = codecLZ4
		case schema.CompressionZstd:
			codecID = codecZstd
		}
		for _, positions := range [][]int{{0}, {3, 8}, {24, 25, 26, 27}, {9, 12, 21, 27}, {27}} {
			t.Run(fmt.Sprintf("%s-%v", c.Type, positions), func(t *testing.T) {
				projected := javaProject(t, msg, s, positions, codecID)
				pcols, _, err := Project(cols, positions)
				if err != nil {
					t.Fatal(err)
				}
				dec, err := NewDecoder(pcols, nil, Limits{})
				if err != nil {
					t.Fatal(err)
				}
				defer dec.Release()
				got, err := dec.DecodeRows(nil, projected, len(rows))
				if err != nil {
					t.Fatal(err)
				}
				for r := range rows {
					for j, p := range positions {
						if !equalValue(rows[r][p], got[r][j]) {
							t.Errorf("row %d %s: got %#v, want %#v", r, cols[p].Name, got[r][j], rows[r][p])
						}
					}
				}
			})
		}
	}
}
