package typeconv

import (
	"math/rand/v2"
	"testing"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/testkit"
)

// TestCodecAcceptsToValue checks that what ToValue produces is exactly the
// codec value model: the row encoders accept it and the decoders give the
// same values back.
func TestCodecAcceptsToValue(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	// IndexedRow pads CHAR(n)/BINARY(n) to n bytes: keep n small here.
	var scalars []schema.DataType
	for _, st := range testkit.ScalarTypes() {
		if st.Length <= 255 {
			scalars = append(scalars, st)
		}
	}
	for range 500 {
		types := make([]schema.DataType, 1+r.IntN(4))
		row := make([]any, len(types))
		for i := range types {
			types[i] = testkit.RandomType(r, scalars, 0)
			// Produce the value the way the driver will: from a Go value
			// (here the JSON or native rendering) through ToValue.
			out, err := FromValue(types[i], randomValue(r, types[i], 0), OutOptions{Native: r.IntN(2) == 0})
			if err != nil {
				t.Fatal(err)
			}
			if row[i], err = ToValue(types[i], out, nil); err != nil {
				t.Fatalf("ToValue(%s, %#v): %v", types[i], out, err)
			}
		}
		for _, format := range []codec.RowFormat{codec.FormatCompacted, codec.FormatIndexed} {
			enc, err := codec.NewRowEncoder(format, types)
			if err != nil {
				t.Fatalf("NewRowEncoder(%v): %v", types, err)
			}
			b, err := enc.Encode(row)
			if err != nil {
				t.Fatalf("%v: Encode(%s, %#v): %v", format, types, row, err)
			}
			dec, err := codec.NewRowDecoder(format, types)
			if err != nil {
				t.Fatal(err)
			}
			got, err := dec.Decode(b)
			if err != nil {
				t.Fatalf("%v: Decode(%s): %v", format, types, err)
			}
			want := row
			if format == codec.FormatIndexed {
				want = make([]any, len(row))
				for i := range row {
					want[i] = padBinary(types[i], row[i])
				}
			}
			if !canonDeepEqual(got, want) {
				t.Fatalf("%v: codec round trip of %s:\n in  %#v\n out %#v", format, types, row, got)
			}
		}
	}
}

// padBinary returns v with every BINARY(n) value in it zero padded to n
// bytes: IndexedRow stores BINARY(n) in n bytes and reads all of them back.
func padBinary(t schema.DataType, v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case []byte:
		if t.Root == schema.RootBinary {
			return append(append([]byte{}, x...), make([]byte, t.Length-len(x))...)
		}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			if t.Root == schema.RootRow {
				out[i] = padBinary(t.Fields[i].Type, e)
			} else {
				out[i] = padBinary(*t.Elem, e)
			}
		}
		return out
	case codec.Map:
		m := codec.Map{Keys: make([]any, len(x.Keys)), Values: make([]any, len(x.Values))}
		for i := range x.Keys {
			m.Keys[i], m.Values[i] = padBinary(*t.Key, x.Keys[i]), padBinary(*t.Value, x.Values[i])
		}
		return m
	}
	return v
}
