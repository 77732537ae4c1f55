package schema

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func intPtr(n int) *int { return &n }

func goldenTables(t *testing.T) map[string]TableDescriptor {
	s := goldenSchemas(t)
	return map[string]TableDescriptor{
		"partitioned": {
			Schema: s["schema0"], Comment: "first table", PartitionKeys: []string{"c"},
			BucketKeys: []string{"a"}, BucketCount: intPtr(16),
			Properties:       map[string]string{"option-1": "100", "option-2": "200"},
			CustomProperties: map[string]string{"custom-1": `"value-1"`},
		},
		"formats": {
			// No bucket keys given: Normalize fills in the physical primary key.
			Schema: s["schema1"], BucketCount: intPtr(32),
			Properties: map[string]string{"option-3": "300", "option-4": "400",
				OptLogFormat: FormatIndexed, OptKvFormat: FormatIndexed},
		},
	}
}

func TestTableDescriptorJSONGolden(t *testing.T) {
	tables := goldenTables(t)
	for name, want := range readGolden(t, "tables.golden") {
		d := tables[name]
		if err := d.Normalize(); err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
		var back TableDescriptor
		if err := json.Unmarshal([]byte(want), &back); err != nil {
			t.Fatal(err)
		}
		assertSchemasEqual(t, name, back.Schema, d.Schema)
		back.Schema, d.Schema = Schema{}, Schema{}
		if d.PartitionKeys == nil {
			d.PartitionKeys = []string{}
		}
		if d.CustomProperties == nil {
			d.CustomProperties = map[string]string{}
		}
		if !reflect.DeepEqual(back, d) {
			t.Errorf("%s: round trip\n got %+v\nwant %+v", name, back, d)
		}
	}
}

func TestTableDescriptorJSONOptionalParts(t *testing.T) {
	js := `{"version":1,"schema":{"version":1,"columns":[{"name":"a","data_type":{"type":"INTEGER"},"id":0}],` +
		`"highest_field_id":0},"partition_key":[],"properties":{"n":5,"b":true},"new_key":{"x":1}}`
	var d TableDescriptor
	if err := json.Unmarshal([]byte(js), &d); err != nil {
		t.Fatal(err)
	}
	if d.BucketCount != nil || d.BucketKeys != nil || d.Comment != "" {
		t.Errorf("unexpected distribution %+v", d)
	}
	if d.Properties["n"] != "5" || d.Properties["b"] != "true" || d.CustomProperties == nil {
		t.Errorf("properties %v custom %v", d.Properties, d.CustomProperties)
	}
	out, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"version":1,"schema":{"version":1,"columns":[{"name":"a","data_type":{"type":"INTEGER"},"id":0}],` +
		`"highest_field_id":0},"partition_key":[],"properties":{"b":"true","n":"5"},"custom_properties":{}}`
	if string(out) != want {
		t.Errorf("got %s\nwant %s", out, want)
	}
}

func TestTableDescriptorDerivedFacts(t *testing.T) {
	cols := []Column{NewColumn("dt", String()), NewColumn("id", BigInt()), NewColumn("k2", Int()), NewColumn("v", String())}
	pk := mustSchema(t, cols, []string{"dt", "id", "k2"}, nil)
	log := mustSchema(t, cols, nil, nil)
	cases := []struct {
		name      string
		d         TableDescriptor
		phys      []string
		bucket    []string
		isDefault bool
	}{
		{"pk partitioned", TableDescriptor{Schema: pk, PartitionKeys: []string{"dt"}},
			[]string{"id", "k2"}, []string{"id", "k2"}, true},
		{"pk custom bucket", TableDescriptor{Schema: pk, PartitionKeys: []string{"dt"}, BucketKeys: []string{"id"}},
			[]string{"id", "k2"}, []string{"id"}, false},
		{"pk explicit default", TableDescriptor{Schema: pk, BucketKeys: []string{"dt", "id", "k2"}},
			[]string{"dt", "id", "k2"}, []string{"dt", "id", "k2"}, true},
		{"log no key", TableDescriptor{Schema: log}, nil, nil, true},
		{"log keyed", TableDescriptor{Schema: log, BucketKeys: []string{"v"}}, nil, []string{"v"}, false},
	}
	for _, c := range cases {
		if got := c.d.PhysicalPrimaryKey(); !slices.Equal(got, c.phys) {
			t.Errorf("%s: physical pk %v want %v", c.name, got, c.phys)
		}
		if got := c.d.EffectiveBucketKeys(); !slices.Equal(got, c.bucket) {
			t.Errorf("%s: bucket keys %v want %v", c.name, got, c.bucket)
		}
		if got := c.d.IsDefaultBucketKey(); got != c.isDefault {
			t.Errorf("%s: default %v want %v", c.name, got, c.isDefault)
		}
		if err := c.d.Validate(); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

func TestTableDescriptorValidate(t *testing.T) {
	cols := []Column{NewColumn("dt", String()), NewColumn("id", BigInt()), NewColumn("v", String())}
	pk := mustSchema(t, cols, []string{"dt", "id"}, nil)
	bad := []TableDescriptor{
		{Schema: pk, PartitionKeys: []string{"v"}},
		{Schema: pk, PartitionKeys: []string{"zz"}},
		{Schema: pk, PartitionKeys: []string{"dt"}, BucketKeys: []string{"dt"}},
		{Schema: pk, BucketKeys: []string{"v"}},
		{Schema: pk, BucketKeys: []string{"zz"}},
		{Schema: pk, BucketCount: intPtr(0)},
	}
	for i, d := range bad {
		if err := d.Validate(); err == nil {
			t.Errorf("case %d: expected an error", i)
		}
	}
	onlyPartition := mustSchema(t, cols, []string{"dt"}, nil)
	d := TableDescriptor{Schema: onlyPartition, PartitionKeys: []string{"dt"}}
	if err := d.Normalize(); err == nil {
		t.Error("PK equal to the partition keys must be rejected")
	}
}

func TestTableDescriptorOptions(t *testing.T) {
	var d TableDescriptor
	if d.LogFormat() != FormatArrow || d.KvFormat() != FormatCompacted || d.KvFormatVersion() != 1 ||
		d.DataLakeFormat() != "" || d.ArrowCompression() != CompressionZstd || d.ArrowZstdLevel() != 3 {
		t.Error("defaults")
	}
	d.Properties = map[string]string{OptLogFormat: "compacted", OptKvFormat: "indexed", OptKvFormatVersion: "2",
		OptDataLakeFormat: "Paimon", OptArrowCompressionType: "lz4_frame", OptArrowCompressionLevel: "7"}
	if d.LogFormat() != FormatCompacted || d.KvFormat() != FormatIndexed || d.KvFormatVersion() != 2 ||
		d.DataLakeFormat() != LakePaimon || d.ArrowCompression() != CompressionLZ4 || d.ArrowZstdLevel() != 7 {
		t.Error("explicit values")
	}
	if v, ok := d.Property(OptKvFormatVersion); !ok || v != "2" {
		t.Error("Property")
	}
	c := d.Clone()
	c.Properties[OptLogFormat] = "ARROW"
	if d.LogFormat() != FormatCompacted {
		t.Error("Clone shares properties")
	}
}

func TestDatabaseDescriptorJSON(t *testing.T) {
	cases := []struct {
		d    DatabaseDescriptor
		want string
	}{
		{DatabaseDescriptor{}, `{"version":1,"custom_properties":{}}`},
		{DatabaseDescriptor{Comment: "my <db>", CustomProperties: map[string]string{"k": "v", "a": "b"}},
			`{"version":1,"comment":"my <db>","custom_properties":{"a":"b","k":"v"}}`},
	}
	for _, c := range cases {
		got, err := c.d.MarshalJSON() // json.Marshal would re-escape "<" as \u003c (equivalent JSON)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != c.want {
			t.Errorf("got %s want %s", got, c.want)
		}
		var back DatabaseDescriptor
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatal(err)
		}
		if back.Comment != c.d.Comment || len(back.CustomProperties) != len(c.d.CustomProperties) {
			t.Errorf("round trip %+v", back)
		}
	}
	var d DatabaseDescriptor
	if err := json.Unmarshal([]byte(`{"version":1,"extra":[1]}`), &d); err != nil || d.CustomProperties == nil {
		t.Errorf("tolerant read: %v %+v", err, d)
	}
}

func FuzzTableDescriptorUnmarshalJSON(f *testing.F) {
	for _, file := range []string{"tables.golden", "schemas.golden", "datatypes.golden"} {
		for _, js := range readGoldenF(f, file) {
			f.Add([]byte(js))
		}
	}
	f.Add([]byte(`{"schema":{"columns":[{"name":"a","data_type":{"type":"ARRAY","element_type":{"type":"ROW","fields":[]}}}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var d TableDescriptor
		if err := json.Unmarshal(data, &d); err == nil {
			if _, err := json.Marshal(d); err != nil {
				t.Fatalf("decoded descriptor does not re-encode: %v", err)
			}
		}
		var typ DataType
		if err := json.Unmarshal(data, &typ); err == nil {
			_ = typ.String()
			if _, err := json.Marshal(typ); err != nil {
				t.Fatalf("decoded type does not re-encode: %v", err)
			}
		}
		var s Schema
		_ = json.Unmarshal(data, &s)
		var db DatabaseDescriptor
		_ = json.Unmarshal(data, &db)
	})
}

func readGoldenF(f *testing.F, file string) []string {
	m := readGolden(f, file)
	out := make([]string, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

func TestValidateIdentifier(t *testing.T) {
	for _, ok := range []string{"a", "A_b-9", strings.Repeat("x", 200)} {
		if err := ValidateIdentifier(ok, true); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", ".", "..", "a.b", "$1", "?1", "é", strings.Repeat("x", 201), "__p1"} {
		if err := ValidateIdentifier(bad, true); err == nil {
			t.Errorf("%q should be rejected", bad)
		}
	}
	if err := ValidateIdentifier("__p1", false); err != nil {
		t.Errorf("internal names may use the prefix: %v", err)
	}
	d := TableDescriptor{Schema: mustSchema(t, []Column{NewColumn("a", Int()), NewColumn("b", String())}, nil, nil),
		PartitionKeys: []string{"b"}}
	if idx, err := d.PartitionKeyIndexes(); err != nil || len(idx) != 1 || idx[0] != 1 {
		t.Errorf("%v %v", idx, err)
	}
}
