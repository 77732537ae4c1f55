package engine

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/planner"
	"github.com/gofluss/fluss/typeconv"
)

var scanTestColumns = []schema.Column{
	{Name: "id", Type: schema.BigInt()},
	{Name: "s", Type: schema.String()},
}

// fakeColumnSource serves chunks of batches, then err (io.EOF when nil).
// It serves the same rows chunk by chunk through next for pipelines that
// cannot take columns.
type fakeColumnSource struct {
	chunks [][][][]any // chunk → batch → rows; a batch may be empty
	err    error
	pos    int
	byRow  int // chunks served through next
}

func (f *fakeColumnSource) columnar() bool { return true }

func (f *fakeColumnSource) end() error {
	if f.err != nil {
		return f.err
	}
	return io.EOF
}

func (f *fakeColumnSource) next(context.Context) ([][]any, error) {
	if f.pos == len(f.chunks) {
		return nil, f.end()
	}
	var rows [][]any
	for _, b := range f.chunks[f.pos] {
		rows = append(rows, b...)
	}
	f.pos++
	f.byRow++
	return rows, nil
}

func (f *fakeColumnSource) nextColumns(context.Context) ([]*arrowipc.Columns, error) {
	if f.pos == len(f.chunks) {
		return nil, f.end()
	}
	cr, err := arrowipc.NewColumnReader(scanTestColumns)
	if err != nil {
		return nil, err
	}
	var out []*arrowipc.Columns
	for _, b := range f.chunks[f.pos] {
		rb, err := arrowipc.NewRowBuilder(scanTestColumns, nil)
		if err != nil {
			return nil, err
		}
		for _, r := range b {
			if err := rb.Append(r); err != nil {
				return nil, err
			}
		}
		rec := rb.NewRecord()
		rb.Release()
		cols, err := cr.Read(rec)
		rec.Release()
		if err != nil {
			return nil, err
		}
		out = append(out, cols)
	}
	f.pos++
	return out, nil
}

func (f *fakeColumnSource) close() {}

func row(vals ...any) []any { return vals }

// readAll reads rows of two columns until Next fails, rendering each row
// as a string.
func readAll(r driver.Rows) ([]string, error) {
	var got []string
	dest := make([]driver.Value, 2)
	for {
		if err := r.Next(dest); err != nil {
			return got, err
		}
		got = append(got, fmt.Sprint(dest[0], " ", dest[1]))
	}
}

// A pipeline that only projects reads a columnSource's batches column by
// column, across chunks and past empty batches, applying the projection;
// one that filters reads the same rows as rows.
func TestScanRowsColumnar(t *testing.T) {
	chunks := [][][][]any{
		{{row(int64(1), "a"), row(int64(2), nil)}, {}, {row(int64(3), "c")}},
		{{row(nil, "d")}},
	}
	cols := []planner.Column{{Name: "s", Type: schema.String()}, {Name: "id", Type: schema.BigInt()}}
	want := []string{"a 1", "<nil> 2", "c 3", "d <nil>"}
	for _, tc := range []struct {
		name  string
		pl    scanPipeline
		byRow int
		want  []string
	}{
		{"columns", scanPipeline{proj: []int{1, 0}, limit: -1}, 0, want},
		{"rows", scanPipeline{proj: []int{1, 0}, limit: 2}, 1, want[:2]},
	} {
		src := &fakeColumnSource{chunks: chunks}
		r := newScanRows(context.Background(), cols, typeconv.OutOptions{}, src, tc.pl)
		got, err := readAll(r)
		r.Close()
		if !errors.Is(err, io.EOF) {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) || src.byRow != tc.byRow {
			t.Fatalf("%s: got %q with %d chunks of rows, want %q with %d", tc.name, got, src.byRow, tc.want, tc.byRow)
		}
	}
}

// A source failing after some batches hands out their rows, then the
// error.
func TestScanRowsColumnarError(t *testing.T) {
	boom := errors.New("boom")
	src := &fakeColumnSource{chunks: [][][][]any{{{row(int64(1), "a")}}}, err: boom}
	r := newScanRows(context.Background(), []planner.Column{{Name: "id", Type: schema.BigInt()}, {Name: "s", Type: schema.String()}}, typeconv.OutOptions{}, src, scanPipeline{limit: -1})
	defer r.Close()
	got, err := readAll(r)
	if !errors.Is(err, boom) || fmt.Sprint(got) != "[1 a]" {
		t.Fatalf("got %q, %v; want [1 a] and boom", got, err)
	}
}
