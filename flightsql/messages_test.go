package flightsql

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// idRecord is a record of n rows (id BIGINT, s STRING) from first on, with
// strings of width bytes.
func idRecord(mem memory.Allocator, first, n, width int) arrow.RecordBatch {
	sc := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "s", Type: arrow.BinaryTypes.String}}, nil)
	b := array.NewRecordBuilder(mem, sc)
	defer b.Release()
	pad := strings.Repeat("x", width)
	for i := range n {
		b.Field(0).(*array.Int64Builder).Append(int64(first + i))
		b.Field(1).(*array.StringBuilder).Append(pad)
	}
	return b.NewRecordBatch()
}

func TestMessagesGatherSmallAndSliceLarge(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	tests := []struct {
		name          string
		records, rows int // per record
		width         int
		maxMessages   int
	}{
		{"small records are gathered", 200, 500, 10, 4},
		{"a large record is sliced", 1, 200_000, 40, 6},
		{"one small record goes as it is", 1, 3, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &messages{mem: mem}
			var msgs []arrow.RecordBatch
			for r := range tt.records {
				rec := idRecord(mem, r*tt.rows, tt.rows, tt.width)
				out, err := m.add(rec)
				rec.Release()
				if err != nil {
					t.Fatal(err)
				}
				msgs = append(msgs, out...)
			}
			last, err := nonNil(m.flush())
			if err != nil {
				t.Fatal(err)
			}
			msgs = append(msgs, last...)
			if len(msgs) > tt.maxMessages {
				t.Errorf("%d messages, want at most %d", len(msgs), tt.maxMessages)
			}
			next := int64(0)
			for _, msg := range msgs {
				// A slice shares its record's buffers, so estimate its
				// size by its rows: 8 bytes of id, 4 of offset, the text.
				if size := msg.NumRows() * int64(12+tt.width); msg.NumRows() > 1 && size > maxMessageBytes {
					t.Errorf("a message of about %d bytes", size)
				}
				ids := msg.Column(0).(*array.Int64)
				for i := range ids.Len() {
					if ids.Value(i) != next {
						t.Fatalf("row %d is id %d", next, ids.Value(i))
					}
					next++
				}
				msg.Release()
			}
			if next != int64(tt.records*tt.rows) {
				t.Errorf("%d rows came out, want %d", next, tt.records*tt.rows)
			}
		})
	}
}
