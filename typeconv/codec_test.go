package typeconv

import (
	"math/rand/v2"
	"testing"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// TestCodecAcceptsToValue checks that what ToValue produces is exactly the
// codec value model: the row encoders accept it and the decoders give the
// same values back.
func TestCodecAcceptsToValue(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	// IndexedRow pads CHAR(n)/BINARY(n) to n bytes: keep n small here.
	var scalars []schema.DataType
	for _, st := range scalarTypes() {
		if st.Length <= 255 {
			scalars = append(scalars, st)
		}
	}
	for range 500 {
		types := make([]schema.DataType, 1+r.IntN(4))
		row := make([]any, len(types))
		for i := range types {
			types[i] = randomType(r, scalars, 0)
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
			if !canonDeepEqual(got, row) {
				t.Fatalf("%v: codec round trip of %s:\n in  %#v\n out %#v", format, types, row, got)
			}
		}
	}
}
