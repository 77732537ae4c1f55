package testkit

import (
	"math"
	"math/rand/v2"

	"github.com/gofluss/fluss/flussrpc/schema"
)

// ScalarTypes returns every scalar type with every precision (DECIMAL: all
// valid precision/scale pairs) and a spread of lengths, nullable.
func ScalarTypes() []schema.DataType {
	ts := []schema.DataType{
		schema.Boolean(), schema.TinyInt(), schema.SmallInt(), schema.Int(), schema.BigInt(),
		schema.Float(), schema.Double(), schema.String(), schema.Bytes(), schema.Date(),
	}
	for _, n := range []int{1, 2, 10, 255, 65535, math.MaxInt32} {
		ts = append(ts, schema.Char(n), schema.Binary(n))
	}
	for p := 1; p <= 38; p++ {
		for s := 0; s <= p; s++ {
			ts = append(ts, schema.Decimal(p, s))
		}
	}
	for p := 0; p <= 9; p++ {
		ts = append(ts, schema.Time(p), schema.Timestamp(p), schema.TimestampLTZ(p))
	}
	return ts
}

var fieldNames = []string{"a", "B_2", "_x", "not", "NULL", "select", "a b", "with`tick", "ümlaut", "1x", "", "ROW"}

// RandomType builds a random (possibly nested) valid type.
func RandomType(r *rand.Rand, scalars []schema.DataType, depth int) schema.DataType {
	var t schema.DataType
	switch k := r.IntN(10); {
	case depth > 3 || k < 6:
		t = scalars[r.IntN(len(scalars))]
	case k == 6 || k == 7:
		t = schema.ArrayOf(RandomType(r, scalars, depth+1))
	case k == 8:
		t = schema.MapOf(RandomType(r, scalars, depth+1), RandomType(r, scalars, depth+1))
	default:
		n := r.IntN(4)
		var fs []schema.Field
		used := map[string]bool{}
		for range n {
			name := fieldNames[r.IntN(len(fieldNames))]
			if name == "" || used[name] {
				continue
			}
			used[name] = true
			fs = append(fs, schema.NewField(name, RandomType(r, scalars, depth+1)))
		}
		t = schema.RowOf(fs...)
	}
	return t.WithNullable(r.IntN(3) != 0)
}
