package arrowipc

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// AppendCompacted builds what Append builds of the decoded rows, for
// every type, NULLs included.
func TestAppendCompactedSameAsAppend(t *testing.T) {
	cols := allTypeColumns()
	rows := allTypeRows(t)
	types := (&schema.Schema{Columns: cols}).Types()
	enc, err := codec.NewCompactedEncoder(types)
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	want := appendRows(t, cols, mem, rows)
	defer want.Release()
	got, err := NewRowBuilder(cols, mem)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	for _, r := range rows {
		b, err := enc.Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		if err := got.AppendCompacted(b); err != nil {
			t.Fatal(err)
		}
	}
	if got.Len() != len(rows) {
		t.Fatalf("Len = %d, want %d", got.Len(), len(rows))
	}
	g, w := got.NewRecord(), want.NewRecord()
	defer g.Release()
	defer w.Release()
	if !array.RecordApproxEqual(g, w, array.WithNaNsEqual(true), array.WithAbsTolerance(0)) {
		t.Fatalf("AppendCompacted built\n%v\nAppend built\n%v", g, w)
	}
}

func TestAppendCompactedRefusesBadRows(t *testing.T) {
	cols := []schema.Column{col("id", schema.Int().NotNull()), col("s", schema.String())}
	bld, err := NewRowBuilder(cols, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer bld.Release()
	for _, tc := range []struct {
		name string
		row  []byte
		want string
	}{
		{"truncated", []byte{0}, "compacted row"},
		{"NULL in a NOT NULL column", []byte{1, 0}, `column "id"`},
	} {
		if err := bld.AppendCompacted(tc.row); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}

// BenchmarkCompactedToArrow builds a record of compacted value rows (a
// primary-key table's LIMIT_SCAN answer) field by field, against decoding
// each row into values and appending those.
func BenchmarkCompactedToArrow(b *testing.B) {
	cols := benchColumns()
	types := (&schema.Schema{Columns: cols}).Types()
	enc, err := codec.NewCompactedEncoder(types)
	if err != nil {
		b.Fatal(err)
	}
	dec, err := codec.NewCompactedDecoder(types)
	if err != nil {
		b.Fatal(err)
	}
	var encoded [][]byte
	for _, r := range benchData() {
		e, err := enc.Encode(r)
		if err != nil {
			b.Fatal(err)
		}
		encoded = append(encoded, append([]byte(nil), e...))
	}
	for _, mode := range []string{"AppendCompacted", "Decode+Append"} {
		b.Run(mode, func(b *testing.B) {
			bld, err := NewRowBuilder(cols, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer bld.Release()
			b.ReportAllocs()
			for b.Loop() {
				for _, e := range encoded {
					if mode == "AppendCompacted" {
						err = bld.AppendCompacted(e)
					} else {
						var row []any
						if row, err = dec.Decode(e); err == nil {
							err = bld.Append(row)
						}
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				bld.NewRecord().Release()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(encoded)), "ns/row")
		})
	}
}
