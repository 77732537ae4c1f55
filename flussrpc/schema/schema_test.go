package schema

import (
	"bufio"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// readGolden loads "name<TAB>json" lines from testdata, skipping comments.
func readGolden(t testing.TB, file string) map[string]string {
	t.Helper()
	f, err := os.Open("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, js, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("%s: bad line %q", file, line)
		}
		out[name] = js
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func withField(name string, t DataType, id int) Field {
	return Field{Name: name, Type: t, ID: id}
}

func goldenTypes() map[string]DataType {
	base := map[string]DataType{
		"boolean":     Boolean(),
		"tinyint":     TinyInt(),
		"smallint":    SmallInt(),
		"int":         Int(),
		"bigint":      BigInt(),
		"float":       Float(),
		"double":      Double(),
		"decimal10":   Decimal(10, 0),
		"decimal15_5": Decimal(15, 5),
		"char1":       Char(1),
		"char5":       Char(5),
		"string":      String(),
		"binary1":     Binary(1),
		"binary100":   Binary(100),
		"bytes":       Bytes(),
		"date":        Date(),
		"time0":       Time(0),
		"time3":       Time(3),
		"ts6":         Timestamp(6),
		"ts3":         Timestamp(3),
		"ltz6":        TimestampLTZ(6),
		"ltz3":        TimestampLTZ(3),
		"array":       ArrayOf(Int().NotNull()),
		"map":         MapOf(BigInt().NotNull(), Int().NotNull()),
		"row": RowOf(
			withField("f0", BigInt(), -1),
			withField("f1", Int().NotNull(), 1),
			withField("f2", String(), 2)),
	}
	out := map[string]DataType{}
	for k, v := range base {
		out[k] = v
		out[k+"_nn"] = v.NotNull()
	}
	return out
}

func TestDataTypeJSONGolden(t *testing.T) {
	golden := readGolden(t, "datatypes.golden")
	types := goldenTypes()
	if len(golden) != len(types) {
		t.Fatalf("golden has %d cases, test has %d", len(golden), len(types))
	}
	for name, want := range golden {
		t.Run(name, func(t *testing.T) {
			typ, ok := types[name]
			if !ok {
				t.Fatalf("no Go value for %s", name)
			}
			got, err := json.Marshal(typ)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != want {
				t.Errorf("marshal:\n got %s\nwant %s", got, want)
			}
			var back DataType
			if err := json.Unmarshal([]byte(want), &back); err != nil {
				t.Fatal(err)
			}
			if !back.EqualWithIDs(typ) {
				t.Errorf("unmarshal: got %v want %v", back, typ)
			}
		})
	}
}

func TestDataTypeJSONMissingFieldID(t *testing.T) {
	js := `{"type":"ROW","nullable":false,"fields":[{"name":"f0","field_type":{"type":"BIGINT"}},` +
		`{"name":"f1","field_type":{"type":"INTEGER","nullable":false},"field_id":1},` +
		`{"name":"f2","field_type":{"type":"STRING"},"field_id":2,"future_key":[1,2]}],"extra":true}`
	var got DataType
	if err := json.Unmarshal([]byte(js), &got); err != nil {
		t.Fatal(err)
	}
	want := RowOf(withField("f0", BigInt(), -1), withField("f1", Int().NotNull(), 1),
		withField("f2", String(), 2)).NotNull()
	if !got.EqualWithIDs(want) {
		t.Fatalf("got %v want %v", got, want)
	}
}

func TestDataTypeJSONErrors(t *testing.T) {
	for _, js := range []string{
		`null`, `[]`, `{}`, `{"type":"VARCHAR"}`, `{"type":"CHAR"}`, `{"type":"CHAR","length":0}`,
		`{"type":"DECIMAL","precision":39,"scale":0}`, `{"type":"DECIMAL","precision":5,"scale":6}`,
		`{"type":"TIMESTAMP_WITHOUT_TIME_ZONE","precision":10}`, `{"type":"ARRAY"}`,
		`{"type":"MAP","key_type":{"type":"INTEGER"}}`, `{"type":"ROW"}`,
		`{"type":"ROW","fields":[{"name":"a","field_type":{"type":"INTEGER"}},{"name":"a","field_type":{"type":"INTEGER"}}]}`,
		`{"type":"INTEGER","nullable":"no"}`, `{"type":"CHAR","length":99999999999}`,
	} {
		var d DataType
		if err := json.Unmarshal([]byte(js), &d); err == nil {
			t.Errorf("%s: expected error, got %v", js, d)
		}
	}
}

func TestDataTypeString(t *testing.T) {
	cases := []struct {
		typ  DataType
		want string
	}{
		{Boolean(), "BOOLEAN"},
		{TinyInt().NotNull(), "TINYINT NOT NULL"},
		{SmallInt(), "SMALLINT"},
		{Int().NotNull(), "INT NOT NULL"},
		{BigInt(), "BIGINT"},
		{Float(), "FLOAT"},
		{Double(), "DOUBLE"},
		{Char(5), "CHAR(5)"},
		{String(), "STRING"},
		{Binary(4), "BINARY(4)"},
		{Bytes(), "BYTES"},
		{Decimal(10, 2), "DECIMAL(10, 2)"},
		{Date(), "DATE"},
		{Time(0), "TIME(0)"},
		{Timestamp(6), "TIMESTAMP(6)"},
		{TimestampLTZ(3), "TIMESTAMP_LTZ(3)"},
		{ArrayOf(Int()), "ARRAY<INT>"},
		{ArrayOf(Int().NotNull()).NotNull(), "ARRAY<INT NOT NULL> NOT NULL"},
		{MapOf(String(), Int()), "MAP<STRING, INT>"},
		{RowOf(NewField("a", Int()), NewField("b", String())), "ROW<a INT, b STRING>"},
		{RowOf(NewField("my col", Int()), NewField("x`y", String())), "ROW<`my col` INT, `x``y` STRING>"},
	}
	for _, c := range cases {
		if got := c.typ.String(); got != c.want {
			t.Errorf("got %q want %q", got, c.want)
		}
	}
}

func TestDataTypeEqual(t *testing.T) {
	a := RowOf(withField("x", Int(), 1), withField("y", ArrayOf(String()), 2))
	b := RowOf(withField("x", Int(), 5), withField("y", ArrayOf(String()), 6))
	if !a.Equal(b) || a.EqualWithIDs(b) {
		t.Fatal("Equal must ignore ids, EqualWithIDs must not")
	}
	for _, o := range []DataType{
		a.NotNull(), RowOf(withField("x", Int(), 1)), RowOf(withField("x", BigInt(), 1), withField("y", ArrayOf(String()), 2)),
		Decimal(10, 1), Char(2), Timestamp(3),
	} {
		if a.Equal(o) {
			t.Errorf("%v should differ from %v", a, o)
		}
	}
	if Decimal(10, 1).Equal(Decimal(10, 2)) || !Decimal(10, 1).Equal(Decimal(10, 1)) {
		t.Error("decimal equality")
	}
}

func TestDataTypeValidate(t *testing.T) {
	good := []DataType{Char(1), Decimal(1, 0), Decimal(38, 38), Time(9), Timestamp(0), TimestampLTZ(9),
		MapOf(Int(), ArrayOf(RowOf(NewField("a", Int()))))}
	for _, g := range good {
		if err := g.Validate(); err != nil {
			t.Errorf("%v: %v", g, err)
		}
	}
	bad := []DataType{{}, Char(0), Binary(-1), Decimal(0, 0), Decimal(39, 0), Decimal(5, -1), Decimal(5, 6),
		Time(10), Timestamp(-1), TimestampLTZ(10), {Root: RootArray}, {Root: RootMap, Key: new(DataType)},
		RowOf(NewField("", Int())), RowOf(NewField("a", Int()), NewField("a", Int())), ArrayOf(Char(0))}
	for _, b := range bad {
		if err := b.Validate(); err == nil {
			t.Errorf("%v: expected an error", b)
		}
	}
}

func TestParseTypeRoot(t *testing.T) {
	for r := RootBoolean; r <= RootRow; r++ {
		got, ok := ParseTypeRoot(r.String())
		if !ok || got != r {
			t.Errorf("%v did not round-trip", r)
		}
	}
	if _, ok := ParseTypeRoot("INT"); ok {
		t.Error("INT is not a Fluss root name")
	}
	if TypeRoot(0).String() != "TypeRoot(0)" {
		t.Error(TypeRoot(0).String())
	}
}

func goldenColumns() map[string]Column {
	return map[string]Column{
		"plain":   NewColumn("a", String()),
		"comment": {Name: "b", Type: Int(), Comment: "hello b", ID: -1},
		"notnull": {Name: "c", Type: Int().NotNull(), Comment: "hello c", ID: -1},
		"with_id": {Name: "d", Type: Int().NotNull(), Comment: "hello c", ID: 2},
		"nested_row": {Name: "e", Type: RowOf(withField("f", String(), -1), withField("g", String(), 1)),
			Comment: "hello c", ID: 2},
	}
}

func TestColumnJSONGolden(t *testing.T) {
	cols := goldenColumns()
	for name, want := range readGolden(t, "columns.golden") {
		got, err := json.Marshal(cols[name])
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
		var back Column
		if err := json.Unmarshal([]byte(want), &back); err != nil {
			t.Fatal(err)
		}
		assertColumnsEqual(t, name, []Column{back}, []Column{cols[name]})
	}
}

func assertColumnsEqual(t *testing.T, name string, got, want []Column) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d columns, want %d", name, len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Name != w.Name || g.Comment != w.Comment || g.ID != w.ID || !g.Type.EqualWithIDs(w.Type) ||
			!reflect.DeepEqual(g.AggFunction, w.AggFunction) {
			t.Errorf("%s column %d:\n got %+v\nwant %+v", name, i, g, w)
		}
	}
}

func assertSchemasEqual(t *testing.T, name string, got, want Schema) {
	t.Helper()
	assertColumnsEqual(t, name, got.Columns, want.Columns)
	if !reflect.DeepEqual(got.PrimaryKey, want.PrimaryKey) ||
		!reflect.DeepEqual(got.AutoIncrementColumns, want.AutoIncrementColumns) ||
		got.HighestFieldID != want.HighestFieldID {
		t.Errorf("%s: got pk=%v auto=%v hi=%d, want pk=%v auto=%v hi=%d", name,
			got.PrimaryKey, got.AutoIncrementColumns, got.HighestFieldID,
			want.PrimaryKey, want.AutoIncrementColumns, want.HighestFieldID)
	}
}

func commented(name string, t DataType, comment string) Column {
	c := NewColumn(name, t)
	c.Comment = comment
	return c
}

func mustSchema(t *testing.T, cols []Column, pk, auto []string) Schema {
	t.Helper()
	s, err := NewSchema(cols, pk, auto)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// goldenSchemas rebuilds the Java test schemas through NewSchema, so the
// golden JSON also checks id assignment and PK NOT NULL normalisation.
func goldenSchemas(t *testing.T) map[string]Schema {
	agg := func(name string, typ DataType, fn string, params map[string]string) Column {
		c := NewColumn(name, typ)
		c.AggFunction = &AggFunction{Type: fn, Params: params}
		return c
	}
	return map[string]Schema{
		"schema0": mustSchema(t, []Column{
			commented("a", Int(), "a is first column"),
			commented("b", String(), "b is second column"),
			commented("c", Char(10), "c is third column"),
		}, []string{"a", "c"}, nil),
		"schema1": mustSchema(t, []Column{
			NewColumn("a", Int()),
			commented("b", String(), "b is second column"),
			commented("c", Timestamp(6), "c is third column"),
		}, []string{"a"}, nil),
		"schema3": mustSchema(t, []Column{
			commented("a", BigInt(), "a is first column"),
			commented("b", String(), "b is second column"),
			commented("c", Timestamp(6), "c is third column"),
		}, nil, nil),
		"schema4": mustSchema(t, []Column{
			commented("a", Int(), "a is first column"),
			commented("b", Int(), "b is second column"),
			commented("c", Char(10), "c is third column"),
		}, []string{"a", "c"}, []string{"b"}),
		"schema5": mustSchema(t, []Column{
			commented("a", Int(), "a is first column"),
			commented("b", RowOf(
				Field{Name: "c", Type: Int(), Description: "a is first column", ID: 0},
				Field{Name: "d", Type: Int(), Description: "a is first column", ID: 1},
			), "b is second column"),
		}, nil, nil),
		"agg": mustSchema(t, []Column{
			NewColumn("product_id", BigInt().NotNull()),
			agg("total_sales", BigInt(), "sum", nil),
			agg("max_price", Decimal(10, 2), "max", nil),
			agg("last_update_time", Timestamp(6), "last_value_ignore_nulls", nil),
			agg("tags", String(), "listagg", map[string]string{"delimiter": ";"}),
			agg("categories", String(), "string_agg", map[string]string{"delimiter": "|"}),
			agg("labels", String(), "listagg", nil),
		}, []string{"product_id"}, nil),
	}
}

func TestSchemaJSONGolden(t *testing.T) {
	schemas := goldenSchemas(t)
	for name, want := range readGolden(t, "schemas.golden") {
		s, ok := schemas[name]
		if !ok {
			t.Fatalf("no Go value for %s", name)
		}
		got, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
		var back Schema
		if err := json.Unmarshal([]byte(want), &back); err != nil {
			t.Fatal(err)
		}
		assertSchemasEqual(t, name, back, s)
	}
}

func TestSchemaJSONLegacyWithoutIDs(t *testing.T) {
	schemas := goldenSchemas(t)
	for name, js := range readGolden(t, "schemas_legacy.golden") {
		var got Schema
		if err := json.Unmarshal([]byte(js), &got); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		assertSchemasEqual(t, name, got, schemas[name])
	}
}

func TestSchemaJSONErrors(t *testing.T) {
	for _, js := range []string{
		`{}`, `{"columns":{}}`,
		`{"columns":[{"name":"a","data_type":{"type":"INTEGER"},"id":0},{"name":"b","data_type":{"type":"INTEGER"}}]}`,
		`{"columns":[{"name":"a","data_type":{"type":"INTEGER"},"id":0},{"name":"b","data_type":{"type":"INTEGER"},"id":0}]}`,
		`{"columns":[{"name":"a","data_type":{"type":"INTEGER"}}],"primary_key":["z"]}`,
		`{"columns":[{"name":"a","data_type":{"type":"INTEGER"},"id":4}],"highest_field_id":2}`,
		`{"columns":[{"name":"a","data_type":{"type":"INTEGER"}},{"name":"a","data_type":{"type":"INTEGER"}}]}`,
		`{"columns":[{"name":"a","data_type":{"type":"INTEGER"}}],"auto_increment_column":["a"]}`,
	} {
		var s Schema
		if err := json.Unmarshal([]byte(js), &s); err == nil {
			t.Errorf("%s: expected error", js)
		}
	}
}

func TestNewSchemaIDsAndKeys(t *testing.T) {
	s := mustSchema(t, []Column{
		NewColumn("id", BigInt()),
		NewColumn("m", MapOf(String(), RowOf(NewField("x", Int()), NewField("y", ArrayOf(RowOf(NewField("z", Int()))))))),
		NewColumn("v", String()),
	}, []string{"id"}, nil)
	if s.Columns[0].Type.Nullable {
		t.Error("primary key column must become NOT NULL")
	}
	row := s.Columns[1].Type.Value
	ids := []int{s.Columns[0].ID, s.Columns[1].ID, row.Fields[0].ID, row.Fields[1].ID,
		row.Fields[1].Type.Elem.Fields[0].ID, s.Columns[2].ID}
	if !reflect.DeepEqual(ids, []int{0, 1, 2, 3, 4, 5}) || s.HighestFieldID != 5 {
		t.Fatalf("ids %v highest %d", ids, s.HighestFieldID)
	}
	if s.ColumnIndex("v") != 2 || s.ColumnIndex("nope") != -1 || s.ColumnByID(5) != 2 {
		t.Error("ColumnIndex/ColumnByID")
	}
	if _, err := s.ColumnIndexes([]string{"v", "nope"}); err == nil {
		t.Error("ColumnIndexes must fail on unknown names")
	}
	if rt := s.RowType(); len(rt.Fields) != 3 || rt.Nullable || rt.Fields[2].ID != 5 {
		t.Errorf("RowType %v", rt)
	}
	for _, bad := range [][]string{{"nope"}, {"id", "id"}} {
		if _, err := NewSchema([]Column{NewColumn("id", Int())}, bad, nil); err == nil {
			t.Errorf("pk %v should fail", bad)
		}
	}
	if _, err := NewSchema([]Column{NewColumn("id", Int()), NewColumn("s", String())}, []string{"id"}, []string{"s"}); err == nil {
		t.Error("auto increment on STRING should fail")
	}
}

func TestSchemaCloneIsDeep(t *testing.T) {
	s := mustSchema(t, []Column{NewColumn("r", RowOf(NewField("a", Int())))}, nil, nil)
	c := s.Clone()
	c.Columns[0].Type.Fields[0].Name = "changed"
	if s.Columns[0].Type.Fields[0].Name != "a" {
		t.Fatal("Clone shares nested fields")
	}
}

func TestSchemaWithoutIDsIsRejected(t *testing.T) {
	s := Schema{Columns: []Column{NewColumn("a", Int()), NewColumn("b", Int())}, HighestFieldID: 1}
	if _, err := json.Marshal(s); err == nil || !strings.Contains(err.Error(), "NewSchema") {
		t.Fatalf("want a hint to NewSchema, got %v", err)
	}
	// Unnumbered nested fields of old documents are tolerated.
	js := `{"columns":[{"name":"r","data_type":{"type":"ROW","fields":[` +
		`{"name":"x","field_type":{"type":"INTEGER"}},{"name":"y","field_type":{"type":"INTEGER"}}]}}]}`
	var back Schema
	if err := json.Unmarshal([]byte(js), &back); err != nil || back.Columns[0].ID != 0 || back.HighestFieldID != 0 {
		t.Fatalf("%+v %v", back, err)
	}
}

func TestDataTypeJSONDepthLimit(t *testing.T) {
	nest := func(n int) string {
		return strings.Repeat(`{"type":"ARRAY","element_type":`, n) + `{"type":"INTEGER"}` + strings.Repeat("}", n)
	}
	var d DataType
	if err := json.Unmarshal([]byte(nest(10)), &d); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(nest(100)), &d); err == nil {
		t.Fatal("100 levels must be refused")
	}
}
