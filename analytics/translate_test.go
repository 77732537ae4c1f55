package analytics

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gofluss/fluss/internal/testkit"
	"github.com/gofluss/fluss/parser"
)

// translateCase is one query of testdata/translate/*.sql.
type translateCase struct {
	file, sql string
}

// translateCases reads the queries of testdata/translate: blocks
// separated by blank lines, "--" lines being comments.
func translateCases(t testing.TB) []translateCase {
	files, err := filepath.Glob(filepath.Join("testdata", "translate", "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no translation inputs: %v", err)
	}
	var out []translateCase
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, block := range strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n\n") {
			var lines []string
			for _, l := range strings.Split(block, "\n") {
				if !strings.HasPrefix(strings.TrimSpace(l), "--") {
					lines = append(lines, l)
				}
			}
			if sql := strings.TrimSpace(strings.Join(lines, "\n")); sql != "" {
				out = append(out, translateCase{file: f, sql: sql})
			}
		}
	}
	return out
}

// translateSQL parses and translates one Flink query.
func translateSQL(sql string) (string, error) {
	st, err := parser.Parse(sql)
	if err != nil {
		return "", err
	}
	q, ok := st.(parser.SelectStatement)
	if !ok {
		return "", &parser.Error{Msg: "not a query"}
	}
	return translate(q)
}

// TestTranslateGolden translates every query of testdata/translate/*.sql
// and compares with the .golden files (go test -run TestTranslateGolden
// -update rewrites them).
func TestTranslateGolden(t *testing.T) {
	got := map[string]*strings.Builder{}
	for _, c := range translateCases(t) {
		b := got[c.file]
		if b == nil {
			b = &strings.Builder{}
			got[c.file] = b
		}
		b.WriteString("==== " + c.sql + "\n")
		if text, err := translateSQL(c.sql); err != nil {
			b.WriteString("ERROR: " + err.Error() + "\n\n")
		} else {
			b.WriteString(text + "\n\n")
		}
	}
	for f, b := range got {
		gf := strings.TrimSuffix(f, ".sql") + ".golden"
		if _, same := testkit.Golden(t, gf, []byte(b.String())); !same {
			t.Errorf("translations differ from %s (run with -update and review the diff)", gf)
		}
	}
}

func TestJavaPattern(t *testing.T) {
	for _, c := range []struct {
		java, format, parse, err string
	}{
		{java: "yyyy-MM-dd HH:mm:ss", format: "%Y-%m-%d %H:%M:%S", parse: "%Y-%m-%d %H:%M:%S"},
		{java: "yy/M/d H:m:s", format: "%y/%-m/%-d %-H:%-M:%-S", parse: "%y/%m/%d %H:%M:%S"},
		{java: "hh a, EEE EEEE MMM MMMM", format: "%I %p, %a %A %b %B", parse: "%I %p, %a %A %b %B"},
		{java: "ss.SSS ss.SSSSSS ss.SSSSSSSSS", format: "%S.%g %S.%f %S.%n", parse: "%S.%g %S.%f %S.%n"},
		{java: "D DDD Z z", format: "%-j %j %z %Z", parse: "%j %j %z %Z"},
		{java: "'T'HH'h''s' '' 100%", format: "T%Hh's ' 100%%", parse: "T%Hh's ' 100%%"},
		{java: "yyyy-ww", err: "the field ww is not supported"},
		{java: "S", err: "the field S is not supported"},
		{java: "ddd", err: "ddd is not a date format field"},
		{java: "'open", err: "unterminated quote"},
	} {
		for _, parse := range []bool{false, true} {
			got, err := javaPattern(c.java, parse)
			want := c.format
			if parse {
				want = c.parse
			}
			switch {
			case c.err != "":
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Errorf("javaPattern(%q, %v) = %q, %v; want error %q", c.java, parse, got, err, c.err)
				}
			case err != nil || got != want:
				t.Errorf("javaPattern(%q, %v) = %q, %v; want %q", c.java, parse, got, err, want)
			}
		}
	}
}

func TestUnitRange(t *testing.T) {
	for _, c := range []struct {
		value, unit, want, err string
	}{
		{value: "1 02:30:00.5", unit: "DAY TO SECOND", want: "1 days 02 hours 30 minutes 00.5 seconds"},
		{value: "-1-6", unit: "YEAR TO MONTH", want: "-1 years -6 months"},
		{value: "2 03", unit: "DAY TO HOUR", want: "2 days 03 hours"},
		{value: "10:20", unit: "MINUTE TO SECOND", want: "10 minutes 20 seconds"},
		{value: "1 02", unit: "DAY TO SECOND", err: "must have 4 fields"},
		{value: "1 x", unit: "DAY TO HOUR", err: `"x" is not a number of hours`},
		{value: "1.5 02", unit: "DAY TO HOUR", err: `"1.5" is not a number of days`},
		{value: "1 02", unit: "HOUR TO DAY", err: "not a range"},
	} {
		got, err := unitRange(c.value, c.unit)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("unitRange(%q, %q) = %q, %v; want error %q", c.value, c.unit, got, err, c.err)
			}
		} else if err != nil || got != c.want {
			t.Errorf("unitRange(%q, %q) = %q, %v; want %q", c.value, c.unit, got, err, c.want)
		}
	}
}

// TestTranslateEveryNode translates a query holding every expression
// kind the parser makes; each is written or refused, never dropped.
func TestTranslateEveryNode(t *testing.T) {
	for _, c := range []struct{ expr, want string }{
		{"a XOR b", ""}, // not Flink: the parser's RawExpr
		{"a || b || 'c'", "((\"a\" || \"b\") || 'c')"}, // Flink's concatenation: CONCAT
		{"a || b = 'x' AND n + m || 'y' = z", "(\"a\" || \"b\") = 'x' AND \"n\" + (\"m\" || 'y') = \"z\""},
		{"a & b | c", "((\"a\" & \"b\") | \"c\")"},
		{"!a", "NOT \"a\""},
		{"- (a - 1)", "-(\"a\" - 1)"},
		{"-(-a)", "-(-\"a\")"},
		{"(a, b) IN ((1, 2))", "(\"a\", \"b\") IN ((1, 2))"},
		{"a = 1 IS NULL", "(\"a\" = 1) IS NULL"},
		{"(a OR b) AND c", "(\"a\" OR \"b\") AND \"c\""},
		{"NOT a = 1", "NOT \"a\" = 1"},
		{"a - (b + c) - d", "\"a\" - (\"b\" + \"c\") - \"d\""},
		{"a / (b * c)", "\"a\" / (\"b\" * \"c\")"},
	} {
		got, err := translateSQL("SELECT " + c.expr + " AS x FROM t")
		want := "SELECT " + c.want + " AS \"x\" FROM \"t\""
		if c.want == "" {
			if err == nil {
				t.Errorf("%s: translated to %s, want an error", c.expr, got)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("%s: got %q, %v\n want %q", c.expr, got, err, want)
		}
	}
}

// FuzzTranslate checks that translating any query the parser accepts
// returns text or an error, never panics.
func FuzzTranslate(f *testing.F) {
	for _, c := range translateCases(f) {
		f.Add(c.sql)
	}
	corpus, _ := filepath.Glob(filepath.Join("..", "parser", "testdata", "corpus", "*.sql"))
	for _, name := range corpus {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		pieces, err := parser.Split(string(b))
		if err != nil {
			f.Fatal(err)
		}
		for _, p := range pieces {
			f.Add(p.Text)
		}
	}
	f.Fuzz(func(t *testing.T, sql string) {
		st, err := parser.Parse(sql)
		if err != nil {
			return
		}
		if q, ok := st.(parser.SelectStatement); ok {
			text, err := translate(q)
			if err == nil && text == "" {
				t.Fatalf("%q: empty translation", sql)
			}
		}
	})
}
