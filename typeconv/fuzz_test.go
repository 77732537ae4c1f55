package typeconv

import (
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc/schema"
)

// fuzzTypes are the types FuzzToValueString feeds every string into: each
// scalar root (with several precisions) plus the complex types, which
// accept JSON text.
var fuzzTypes = []schema.DataType{
	schema.Boolean(), schema.TinyInt(), schema.SmallInt(), schema.Int(), schema.BigInt(),
	schema.Float(), schema.Double(), schema.Char(3), schema.String(), schema.Binary(4), schema.Bytes(),
	schema.Decimal(1, 0), schema.Decimal(5, 2), schema.Decimal(18, 18), schema.Decimal(38, 10),
	schema.Date(), schema.Time(0), schema.Time(3), schema.Time(9),
	schema.Timestamp(0), schema.Timestamp(3), schema.Timestamp(9),
	schema.TimestampLTZ(0), schema.TimestampLTZ(6), schema.TimestampLTZ(9),
	schema.ArrayOf(schema.Int().NotNull()),
	schema.ArrayOf(schema.ArrayOf(schema.Double())),
	schema.MapOf(schema.String().NotNull(), schema.Decimal(10, 2)),
	schema.MapOf(schema.Date(), schema.Bytes()),
	schema.RowOf(schema.NewField("a", schema.BigInt()), schema.NewField("b", schema.ArrayOf(schema.TimestampLTZ(3)))),
}

func FuzzToValueString(f *testing.F) {
	for _, s := range []string{
		"", " ", "0", "-1", "127", "128", "1e3", "1.5", ".5", "-.5e-3", "1e999999999", "NaN", "-Inf", "Infinity",
		"true", "f", "x", "\xff", "äöü", "2024-02-29", "2024-02-30", "23:59:59.999999999", "24:00",
		"2024-03-01 02:30:15.123456789", "2024-03-01T02:30:15+09:00", "0000-01-01T00:00:00Z", "9999-12-31 23:59:59.999999999",
		"[1,2,null]", "[[1.5],[]]", `{"a":"1.25"}`, `[{"key":"2024-01-01","value":"AQI="}]`, `{"a":1,"b":["2024-01-01T00:00:00Z"]}`,
		"null", "[", `{"a":`, "99999999999999999999999999999999999999", "0.000000000000000001",
	} {
		f.Add(s)
	}
	loc := time.FixedZone("", 5*3600+30*60)
	f.Fuzz(func(t *testing.T, s string) {
		for _, typ := range fuzzTypes {
			for _, l := range []*time.Location{nil, loc} {
				v, err := ToValue(typ, s, l)
				if err != nil {
					if err.Error() == "" {
						t.Fatalf("%s: empty error message", typ)
					}
					continue
				}
				// Whatever converted must render and convert back to itself.
				for _, native := range []bool{false, true} {
					opts := OutOptions{Location: l, Native: native}
					out, err := FromValue(typ, v, opts)
					if err != nil {
						t.Fatalf("FromValue(%s, ToValue(%q) = %#v): %v", typ, s, v, err)
					}
					back, err := ToValue(typ, out, l)
					if err != nil {
						t.Fatalf("ToValue(%s, FromValue(ToValue(%q))) = ToValue(%#v): %v", typ, s, out, err)
					}
					if !canonDeepEqual(back, v) {
						t.Fatalf("%s: %q -> %#v -> %#v -> %#v", typ, s, v, out, back)
					}
				}
			}
		}
	})
}
