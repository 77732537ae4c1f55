package arrowipc

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/gofluss/fluss/flussrpc/schema"
)

// TestArrowTypeMapping checks every case of ArrowUtils.toArrowType /
// toArrowField at v0.9.1.
func TestArrowTypeMapping(t *testing.T) {
	cases := []struct {
		in   schema.DataType
		want string
	}{
		{schema.Boolean(), "bool"},
		{schema.TinyInt(), "int8"},
		{schema.SmallInt(), "int16"},
		{schema.Int(), "int32"},
		{schema.BigInt(), "int64"},
		{schema.Float(), "float32"},
		{schema.Double(), "float64"},
		{schema.Char(3), "utf8"},
		{schema.String(), "utf8"},
		{schema.Binary(5), "fixed_size_binary[5]"},
		{schema.Bytes(), "binary"},
		{schema.Decimal(38, 10), "decimal(38, 10)"},
		{schema.Decimal(5, 0), "decimal(5, 0)"},
		{schema.Date(), "date32"},
		{schema.Time(0), "time32[s]"},
		{schema.Time(1), "time32[ms]"},
		{schema.Time(3), "time32[ms]"},
		{schema.Time(4), "time64[us]"},
		{schema.Time(6), "time64[us]"},
		{schema.Time(7), "time64[ns]"},
		{schema.Time(9), "time64[ns]"},
		{schema.Timestamp(0), "timestamp[s]"},
		{schema.Timestamp(3), "timestamp[ms]"},
		{schema.Timestamp(6), "timestamp[us]"},
		{schema.Timestamp(9), "timestamp[ns]"},
		{schema.TimestampLTZ(0), "timestamp[s]"},
		{schema.TimestampLTZ(2), "timestamp[ms]"},
		{schema.TimestampLTZ(5), "timestamp[us]"},
		{schema.TimestampLTZ(8), "timestamp[ns]"},
		{schema.ArrayOf(schema.Int().NotNull()), "list<element: int32>"},
		{schema.ArrayOf(schema.String()), "list<element: utf8, nullable>"},
		{schema.MapOf(schema.String(), schema.Int()), "map<utf8, int32, items_nullable>"},
		{schema.MapOf(schema.String(), schema.Int().NotNull()), "map<utf8, int32, items_non_nullable>"},
		{schema.RowOf(schema.NewField("a", schema.Int()), schema.NewField("b", schema.String().NotNull())),
			"struct<a: int32 nullable, b: utf8>"},
	}
	for _, c := range cases {
		got, err := ArrowType(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if got.String() != c.want {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
		}
		if ts, ok := got.(*arrow.TimestampType); ok && ts.TimeZone != "" {
			t.Errorf("%s: time zone %q, Fluss sets none", c.in, ts.TimeZone)
		}
	}
}

func TestNestedFieldNamesAndNullability(t *testing.T) {
	m := schema.MapOf(schema.String(), schema.ArrayOf(schema.Int())).NotNull()
	s, err := Schema([]schema.Column{schema.NewColumn("m", m), schema.NewColumn("n", schema.Int())})
	if err != nil {
		t.Fatal(err)
	}
	f := s.Field(0)
	if f.Name != "m" || f.Nullable {
		t.Fatalf("column field %v", f)
	}
	mt := f.Type.(*arrow.MapType)
	if mt.KeysSorted {
		t.Error("keysSorted must be false")
	}
	entries := mt.ElemField()
	if entries.Name != MapEntriesName || entries.Nullable {
		t.Errorf("entries field %v, want non-null %q", entries, MapEntriesName)
	}
	if k := mt.KeyField(); k.Name != MapKeyName || k.Nullable {
		t.Errorf("key field %v", k)
	}
	v := mt.ItemField()
	if v.Name != MapValueName || !v.Nullable {
		t.Errorf("value field %v", v)
	}
	if el := v.Type.(*arrow.ListType).ElemField(); el.Name != ListElementName || !el.Nullable {
		t.Errorf("list element field %v", el)
	}
	if !s.Field(1).Nullable {
		t.Error("nullable column became NOT NULL")
	}
	// A nullable map key is forced to NOT NULL, as Java's MapType does.
	nk := schema.MapOf(schema.String(), schema.Int())
	at, _ := ArrowType(nk)
	if at.(*arrow.MapType).KeyField().Nullable {
		t.Error("map key nullable")
	}
}

func TestSchemaOfRowTypeMatchesSchema(t *testing.T) {
	sc, err := schema.NewSchema([]schema.Column{
		schema.NewColumn("id", schema.BigInt()),
		schema.NewColumn("r", schema.RowOf(schema.NewField("x", schema.Double()))),
	}, []string{"id"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := Schema(sc.Columns)
	if err != nil {
		t.Fatal(err)
	}
	b, err := SchemaOfRowType(sc.RowType())
	if err != nil {
		t.Fatal(err)
	}
	if !a.Equal(b) || a.Field(0).Nullable {
		t.Fatalf("%v vs %v", a, b)
	}
	if _, err := SchemaOfRowType(schema.Int()); err == nil {
		t.Error("non-ROW accepted")
	}
}

func TestArrowTypeRejectsInvalid(t *testing.T) {
	for _, in := range []schema.DataType{
		{Root: 0}, schema.Time(10), schema.Timestamp(-1), schema.Decimal(39, 0), schema.Binary(0),
		{Root: schema.RootArray, Nullable: true},
	} {
		if _, err := ArrowType(in); err == nil || !strings.HasPrefix(err.Error(), "arrowipc:") {
			t.Errorf("%v: %v", in, err)
		}
	}
}

func TestLayoutCounts(t *testing.T) {
	// Nodes and buffers per Arrow Java TypeLayout, which the tablet server
	// uses to pick buffers when projecting (FileLogProjection).
	cases := []struct {
		t              schema.DataType
		nodes, buffers int
	}{
		{schema.Int(), 1, 2},
		{schema.Boolean(), 1, 2},
		{schema.String(), 1, 3},
		{schema.Bytes(), 1, 3},
		{schema.Binary(4), 1, 2},
		{schema.Decimal(20, 2), 1, 2},
		{schema.Timestamp(9), 1, 2},
		{schema.ArrayOf(schema.String()), 2, 5},
		{schema.MapOf(schema.String(), schema.Int()), 4, 8},
		{schema.RowOf(schema.NewField("a", schema.Int()), schema.NewField("b", schema.String())), 3, 6},
	}
	for _, c := range cases {
		at, err := ArrowType(c.t)
		if err != nil {
			t.Fatal(err)
		}
		var l layout
		if err := l.add(at); err != nil {
			t.Fatal(err)
		}
		if l.nodes != c.nodes || l.buffers != c.buffers {
			t.Errorf("%s: %d nodes %d buffers, want %d/%d", c.t, l.nodes, l.buffers, c.nodes, c.buffers)
		}
	}
}

// TestFitsType: an Arrow type fits a column when its bytes are the
// column's; a time zone fits TIMESTAMP_LTZ at any depth, never TIMESTAMP.
func TestFitsType(t *testing.T) {
	ms := &arrow.TimestampType{Unit: arrow.Millisecond}
	utc := &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}
	berlin := &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "Europe/Berlin"}
	ltz, ntz := schema.TimestampLTZ(3), schema.Timestamp(3)
	row := func(ft schema.DataType) schema.DataType {
		return schema.RowOf(schema.NewField("a", schema.Int()), schema.NewField("t", ft))
	}
	strct := func(dt arrow.DataType) arrow.DataType {
		return arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true}, arrow.Field{Name: "y", Type: dt})
	}
	tests := []struct {
		name string
		got  arrow.DataType
		t    schema.DataType
		want bool
	}{
		{"LTZ, no zone", ms, ltz, true},
		{"LTZ, UTC", utc, ltz, true},
		{"LTZ, another zone", berlin, ltz, true},
		{"LTZ, another unit", &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, ltz, false},
		{"TIMESTAMP, no zone", ms, ntz, true},
		{"TIMESTAMP, UTC", utc, ntz, false},
		{"ARRAY<LTZ>, UTC", arrow.ListOf(utc), schema.ArrayOf(ltz), true},
		{"ARRAY<TIMESTAMP>, UTC", arrow.ListOf(utc), schema.ArrayOf(ntz), false},
		{"MAP<STRING, LTZ>, UTC", arrow.MapOf(arrow.BinaryTypes.String, utc), schema.MapOf(schema.String(), ltz), true},
		{"MAP<STRING, TIMESTAMP>, UTC", arrow.MapOf(arrow.BinaryTypes.String, utc), schema.MapOf(schema.String(), ntz), false},
		{"ROW<a INT, t LTZ>, UTC, other names", strct(utc), row(ltz), true},
		{"ROW<a INT, t TIMESTAMP>, UTC", strct(utc), row(ntz), false},
		{"ROW, a field short", arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32}), row(ltz), false},
		{"STRING as large_string", arrow.BinaryTypes.LargeString, schema.String(), false},
		{"INT", arrow.PrimitiveTypes.Int32, schema.Int(), true},
	}
	for _, tc := range tests {
		if got := FitsType(tc.got, tc.t); got != tc.want {
			t.Errorf("%s: FitsType(%s, %s) = %v, want %v", tc.name, tc.got, tc.t, got, tc.want)
		}
	}
}
