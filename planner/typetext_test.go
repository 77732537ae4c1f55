package planner

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/testkit"
	"github.com/gofluss/fluss/parser"
	"github.com/gofluss/fluss/typeconv"
)

func TestRoundTripEveryScalar(t *testing.T) {
	for _, base := range testkit.ScalarTypes() {
		for _, nullable := range []bool{true, false} {
			typ := base.WithNullable(nullable)
			checkRoundTrip(t, typ)
			// The same type as an element, key, value and field.
			checkRoundTrip(t, schema.ArrayOf(typ))
			checkRoundTrip(t, schema.ArrayOf(typ).NotNull())
			checkRoundTrip(t, schema.MapOf(typ, typ))
			checkRoundTrip(t, schema.RowOf(schema.NewField("f", typ), schema.NewField("g h", typ)))
		}
	}
}

func TestRoundTripRandomNested(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	scalars := testkit.ScalarTypes()
	for range 3000 {
		checkRoundTrip(t, testkit.RandomType(r, scalars, 0))
	}
	checkRoundTrip(t, schema.RowOf())
	checkRoundTrip(t, schema.RowOf().NotNull())
	checkRoundTrip(t, schema.ArrayOf(schema.ArrayOf(schema.ArrayOf(schema.Int().NotNull()))))
	checkRoundTrip(t, schema.MapOf(schema.String().NotNull(), schema.MapOf(schema.Int(), schema.ArrayOf(schema.Bytes()))))
}

func checkRoundTrip(t *testing.T, typ schema.DataType) {
	t.Helper()
	if err := typ.Validate(); err != nil {
		t.Fatalf("test bug: invalid type %s: %v", typ, err)
	}
	text := typeconv.TypeName(typ)
	got, err := ParseType(text)
	if err != nil {
		t.Fatalf("ParseType(%q): %v", text, err)
	}
	if !got.Equal(typ) {
		t.Fatalf("ParseType(TypeName(t)) = %s, want %s", got, typ)
	}
	if typeconv.TypeName(got) != text {
		t.Fatalf("TypeName not stable: %q vs %q", typeconv.TypeName(got), text)
	}
}

func TestParseTypeSpellings(t *testing.T) {
	tests := []struct {
		in   string
		want schema.DataType
	}{
		{"INTEGER", schema.Int()},
		{"int not null", schema.Int().NotNull()},
		{"INT NULL", schema.Int()},
		{"DOUBLE PRECISION", schema.Double()},
		{"NUMERIC", schema.Decimal(10, 0)},
		{"DEC(5)", schema.Decimal(5, 0)},
		{"decimal(38,38)", schema.Decimal(38, 38)},
		{"CHAR", schema.Char(1)},
		{"BINARY", schema.Binary(1)},
		{"VARCHAR", schema.String()},
		{"VARCHAR(2147483647)", schema.String()},
		{"VARBINARY", schema.Bytes()},
		{"TIME", schema.Time(0)},
		{"TIME(3) WITHOUT TIME ZONE", schema.Time(3)},
		{"TIMESTAMP", schema.Timestamp(6)},
		{"TIMESTAMP(9) WITHOUT TIME ZONE", schema.Timestamp(9)},
		{"TIMESTAMP(3) WITH LOCAL TIME ZONE", schema.TimestampLTZ(3)},
		{"TIMESTAMP_LTZ", schema.TimestampLTZ(6)},
		{"INT ARRAY", schema.ArrayOf(schema.Int())},
		{"INT NOT NULL ARRAY NOT NULL", schema.ArrayOf(schema.Int().NotNull()).NotNull()},
		{"MAP<STRING, ARRAY<INT>>", schema.MapOf(schema.String(), schema.ArrayOf(schema.Int()))},
		{"ROW(a INT, b STRING)", schema.RowOf(schema.NewField("a", schema.Int()), schema.NewField("b", schema.String()))},
		{"ROW<`a b` INT>", schema.RowOf(schema.NewField("a b", schema.Int()))},
		{"ROW<>", schema.RowOf()},
	}
	for _, tt := range tests {
		got, err := ParseType(tt.in)
		if err != nil {
			t.Errorf("ParseType(%q): %v", tt.in, err)
			continue
		}
		if !got.Equal(tt.want) {
			t.Errorf("ParseType(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestParseTypeDescriptions(t *testing.T) {
	got, err := ParseType("ROW<a INT 'the a', b STRING>")
	if err != nil {
		t.Fatal(err)
	}
	if got.Fields[0].Description != "the a" || got.Fields[1].Description != "" {
		t.Errorf("descriptions = %q, %q", got.Fields[0].Description, got.Fields[1].Description)
	}
	if got.Fields[0].ID != schema.UnknownID {
		t.Errorf("field id = %d, want UnknownID", got.Fields[0].ID)
	}
}

func TestParseTypeErrors(t *testing.T) {
	tests := []struct {
		in      string
		msg     string
		foreign bool
		invalid bool
	}{
		{in: "VARCHAR(255)", msg: "fluss: type VARCHAR(255) is not a Fluss type; use STRING", foreign: true},
		{in: "TEXT NOT NULL", msg: "fluss: type TEXT NOT NULL is not a Fluss type; use STRING NOT NULL", foreign: true},
		{in: "DATETIME(3)", msg: "use TIMESTAMP(3)", foreign: true},
		{in: "DATETIME", msg: "use TIMESTAMP(0)", foreign: true},
		{in: "BLOB", msg: "use BYTES", foreign: true},
		{in: "BOOL", msg: "use BOOLEAN", foreign: true},
		{in: "NUMBER(12,4)", msg: "use DECIMAL(12, 4)", foreign: true},
		{in: "INT(11)", msg: "fluss: type INT(11) is not a Fluss type; use INT", foreign: true},
		{in: "TIMESTAMP(3) WITH TIME ZONE", msg: "use TIMESTAMP_LTZ(3)", foreign: true},
		{in: "ARRAY<VARCHAR(10)>", msg: "type VARCHAR(10) is not a Fluss type; use STRING", foreign: true},
		{in: "INTERVAL DAY", msg: "is not a Fluss type", foreign: true},
		{in: "MULTISET<INT>", msg: "is not a Fluss type", foreign: true},
		{in: "DECIMAL(39, 2)", msg: "fluss: invalid type DECIMAL(39, 2): DECIMAL precision must be between 1 and 38, got 39", invalid: true},
		{in: "DECIMAL(0)", msg: "precision", invalid: true},
		{in: "DECIMAL(5, 6)", msg: "scale", invalid: true},
		{in: "TIMESTAMP(10)", msg: "precision", invalid: true},
		{in: "TIME(12)", msg: "precision", invalid: true},
		{in: "TIMESTAMP_LTZ(10)", msg: "precision", invalid: true},
		{in: "CHAR(0)", msg: "length", invalid: true},
		{in: "BINARY(0)", msg: "length", invalid: true},
		{in: "CHAR(2147483648)", msg: "length", invalid: true},
		{in: "ROW<a INT, a STRING>", msg: "duplicate ROW field name", invalid: true},
		{in: "ARRAY<DECIMAL(40)>", msg: "invalid type DECIMAL(40): DECIMAL precision", invalid: true},
		{in: "INT INT", msg: "syntax error"},
		{in: "", msg: "syntax error"},
		{in: "MAP<INT>", msg: "syntax error"},
	}
	for _, tt := range tests {
		_, err := ParseType(tt.in)
		if err == nil {
			t.Errorf("ParseType(%q): no error", tt.in)
			continue
		}
		if !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("ParseType(%q) error %q does not contain %q", tt.in, err, tt.msg)
		}
		var ue *UnsupportedTypeError
		if errors.As(err, &ue) != tt.foreign {
			t.Errorf("ParseType(%q): UnsupportedTypeError = %v, want %v (%v)", tt.in, !tt.foreign, tt.foreign, err)
		}
		var ie *InvalidTypeError
		if errors.As(err, &ie) != tt.invalid {
			t.Errorf("ParseType(%q): InvalidTypeError = %v, want %v (%v)", tt.in, !tt.invalid, tt.invalid, err)
		}
		if !tt.foreign && !tt.invalid {
			var pe *parser.Error
			if !errors.As(err, &pe) {
				t.Errorf("ParseType(%q): error %v does not wrap *parser.Error", tt.in, err)
			}
		}
	}
}

func TestFromParserLenient(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" means still an error
	}{
		{"VARCHAR(255)", "STRING"},
		{"varchar(20) NOT NULL", "STRING NOT NULL"},
		{"CHARACTER VARYING(3)", "STRING"},
		{"NVARCHAR(10)", "STRING"},
		{"TEXT", "STRING"},
		{"LONGTEXT", "STRING"},
		{"JSON", "STRING"},
		{"VARBINARY(16)", "BYTES"},
		{"BLOB NOT NULL", "BYTES NOT NULL"},
		{"BYTEA", "BYTES"},
		{"DATETIME", "TIMESTAMP(0)"},
		{"DATETIME(6)", "TIMESTAMP(6)"},
		{"TIMESTAMP WITH TIME ZONE", "TIMESTAMP_LTZ(6)"},
		{"TIMESTAMP(3) WITH TIME ZONE", "TIMESTAMP_LTZ(3)"},
		{"BOOL", "BOOLEAN"},
		{"MEDIUMINT", "INT"},
		{"REAL", "DOUBLE"},
		{"NUMBER", "DECIMAL(10, 0)"},
		{"NUMBER(20,4)", "DECIMAL(20, 4)"},
		{"INT(11) NOT NULL", "INT NOT NULL"},
		{"TINYINT(1)", "TINYINT"},
		{"BIGINT(20)", "BIGINT"},
		{"SMALLINT(6)", "SMALLINT"},
		{"FLOAT(10)", "FLOAT"},
		{"FLOAT(30)", "DOUBLE"},
		{"FLOAT(7,2)", "FLOAT"},
		{"DOUBLE(10, 2)", "DOUBLE"},
		{"ARRAY<VARCHAR(5)>", "ARRAY<STRING>"},
		{"MAP<TEXT NOT NULL, BLOB>", "MAP<STRING NOT NULL, BYTES>"},
		{"ROW<a DATETIME(3), b BOOL>", "ROW<a TIMESTAMP(3), b BOOLEAN>"},
		{"DATETIME(12)", ""},
		{"NUMBER(50)", ""},
		{"INTERVAL DAY TO SECOND", ""},
		{"MULTISET<INT>", ""},
		{"RAW('a', 'b')", ""},
		{"INT", "INT"},
	}
	for _, tt := range tests {
		pt, err := parser.ParseType(tt.in)
		if err != nil {
			t.Errorf("parser.ParseType(%q): %v", tt.in, err)
			continue
		}
		got, err := FromParser(pt, true)
		if tt.want == "" {
			var ue *UnsupportedTypeError
			if !errors.As(err, &ue) {
				t.Errorf("FromParser(%q, lenient) = %v, %v; want an UnsupportedTypeError", tt.in, got, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("FromParser(%q, lenient): %v", tt.in, err)
			continue
		}
		if got.String() != tt.want {
			t.Errorf("FromParser(%q, lenient) = %s, want %s", tt.in, got, tt.want)
		}
		// Strict mode names the same replacement.
		if pt.Kind == parser.TypeForeign {
			_, err := FromParser(pt, false)
			var ue *UnsupportedTypeError
			if !errors.As(err, &ue) || ue.Replacement != tt.want {
				t.Errorf("FromParser(%q, strict) = %v; want replacement %s", tt.in, err, tt.want)
			}
		}
	}
}

func TestFromParserMalformed(t *testing.T) {
	if _, err := FromParser(nil, false); err == nil {
		t.Error("nil type: no error")
	}
	if _, err := FromParser(&parser.DataType{Kind: parser.TypeArray}, false); err == nil {
		t.Error("ARRAY without element: no error")
	}
	if _, err := FromParser(&parser.DataType{Kind: parser.TypeKind(99)}, false); err == nil {
		t.Error("unknown kind: no error")
	}
	deep := &parser.DataType{Kind: parser.TypeInt}
	for range maxTypeDepth + 2 {
		deep = &parser.DataType{Kind: parser.TypeArray, Elem: deep}
	}
	if _, err := FromParser(deep, false); err == nil {
		t.Error("too deep: no error")
	}
}

// goldenTypes are the rows of testdata/typenames.golden.
var goldenTypes = []string{
	"BOOLEAN", "BOOLEAN NOT NULL", "TINYINT", "SMALLINT NOT NULL", "INTEGER", "INT NOT NULL",
	"BIGINT", "BIGINT NOT NULL", "FLOAT", "DOUBLE PRECISION NOT NULL",
	"CHAR", "CHAR(10) NOT NULL", "STRING", "STRING NOT NULL", "VARCHAR",
	"BINARY(16)", "BYTES", "BYTES NOT NULL", "VARBINARY",
	"DECIMAL", "DECIMAL(10, 2)", "NUMERIC(38, 10) NOT NULL", "DEC(5)",
	"DATE", "DATE NOT NULL", "TIME", "TIME(3) NOT NULL", "TIME(9)",
	"TIMESTAMP", "TIMESTAMP(0)", "TIMESTAMP(3) NOT NULL", "TIMESTAMP(9) WITHOUT TIME ZONE",
	"TIMESTAMP_LTZ", "TIMESTAMP_LTZ(3)", "TIMESTAMP(3) WITH LOCAL TIME ZONE NOT NULL",
	"ARRAY<STRING>", "ARRAY<INT NOT NULL> NOT NULL", "INT ARRAY",
	"MAP<STRING, INT>", "MAP<INT NOT NULL, ARRAY<BYTES>>", "MAP<BYTES, STRING> NOT NULL",
	"ROW<a INT, b STRING>", "ROW(`a b` DECIMAL(5, 2) NOT NULL, c ARRAY<DATE>) NOT NULL",
	"ROW<>",
}

func TestGoldenTypeNames(t *testing.T) {
	var b strings.Builder
	b.WriteString("# input | TypeName | DatabaseTypeName | ScanType | Nullable | PrecisionScale | Length | native ScanType\n")
	for _, in := range goldenTypes {
		typ, err := ParseType(in)
		if err != nil {
			t.Fatalf("ParseType(%q): %v", in, err)
		}
		c := typeconv.Column(typ)
		nc := typeconv.ColumnFor(typ, typeconv.OutOptions{Native: true})
		nullable, _ := c.Nullable()
		ps := "-"
		if p, s, ok := c.PrecisionScale(); ok {
			ps = fmt.Sprintf("%d,%d", p, s)
		}
		length := "-"
		if n, ok := c.Length(); ok {
			length = fmt.Sprint(n)
		}
		fmt.Fprintf(&b, "%s | %s | %s | %s | %v | %s | %s | %s\n",
			in, typeconv.TypeName(typ), c.DatabaseTypeName(), c.ScanType(), nullable, ps, length, nc.ScanType())
	}
	golden := filepath.Join("testdata", "typenames.golden")
	want, _ := testkit.Golden(t, golden, []byte(b.String()))
	if got := b.String(); got != string(want) {
		t.Errorf("type-name table differs from %s (rerun with -update after checking):\n%s", golden, firstDiff(string(want), got))
	}
}

// stripDescriptions removes ROW field descriptions, which TypeName does not
// render.
func stripDescriptions(t schema.DataType) schema.DataType {
	t = t.Clone()
	var walk func(*schema.DataType)
	walk = func(d *schema.DataType) {
		for _, c := range []*schema.DataType{d.Elem, d.Key, d.Value} {
			if c != nil {
				walk(c)
			}
		}
		for i := range d.Fields {
			d.Fields[i].Description = ""
			walk(&d.Fields[i].Type)
		}
	}
	walk(&t)
	return t
}

func FuzzParseType(f *testing.F) {
	for _, s := range goldenTypes {
		f.Add(s)
	}
	for _, s := range []string{
		"VARCHAR(255)", "DATETIME(3) NOT NULL", "ROW<a INT 'desc', `b``c` MAP<STRING, ARRAY<BYTES>>>",
		"MAP<ROW<>, INT ARRAY ARRAY>", "TIMESTAMP(3) WITH TIME ZONE", "INTERVAL DAY(2) TO SECOND(3)",
		"DECIMAL(99999999999999999999)", "CHAR(2147483648)", "ROW(", "ARRAY<", "`", "'", "MULTISET<INT>",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		typ, err := ParseType(text)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		if err := typ.Validate(); err != nil {
			t.Fatalf("ParseType(%q) returned an invalid type %s: %v", text, typ, err)
		}
		name := typeconv.TypeName(typ)
		again, err := ParseType(name)
		if err != nil {
			t.Fatalf("ParseType(TypeName(ParseType(%q))) = ParseType(%q): %v", text, name, err)
		}
		if want := stripDescriptions(typ); !again.Equal(want) {
			t.Fatalf("round trip of %q: %s != %s", text, again, want)
		}
		c := typeconv.Column(typ)
		_ = c.DatabaseTypeName()
		_ = c.ScanType()
	})
}
