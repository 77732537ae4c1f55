package parser

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusSeeds returns every corpus statement and every corpus file.
func corpusSeeds(f *testing.F) []string {
	files, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*.sql"))
	var seeds []string
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, string(b))
		pieces, err := Split(string(b))
		if err != nil {
			f.Fatal(err)
		}
		for _, p := range pieces {
			seeds = append(seeds, p.Text)
		}
	}
	return seeds
}

func FuzzLex(f *testing.F) {
	for _, s := range corpusSeeds(f) {
		f.Add(s)
	}
	f.Add("x'0A' `a``b` 'c''d' $1 :n ? /*+ OPTIONS('k'='v') */ -- c\n/* d */ 1.5e-3")
	f.Fuzz(func(t *testing.T, s string) {
		toks, err := Lex(s)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error %T is not *Error", err)
			}
			return
		}
		if len(toks) == 0 || toks[len(toks)-1].Kind != TokEOF {
			t.Fatal("missing EOF token")
		}
		prev := -1
		for _, tk := range toks[:len(toks)-1] {
			if tk.Pos.Offset <= prev || tk.End <= tk.Pos.Offset || tk.End > len(s) || s[tk.Pos.Offset:tk.End] != tk.Text {
				t.Fatalf("bad token %+v", tk)
			}
			prev = tk.Pos.Offset
		}
	})
}

func FuzzSplit(f *testing.F) {
	for _, s := range corpusSeeds(f) {
		f.Add(s)
	}
	f.Add("a;;b; 'c;d' ; /* ; */ e -- ;\n")
	f.Fuzz(func(t *testing.T, s string) {
		pieces, err := Split(s)
		if err != nil {
			return
		}
		for _, p := range pieces {
			if strings.TrimSpace(p.Text) == "" {
				t.Fatalf("empty piece in %q", s)
			}
			if !strings.HasPrefix(s[p.Pos.Offset:], p.Text) {
				t.Fatalf("piece %q not at offset %d", p.Text, p.Pos.Offset)
			}
		}
	})
}

func FuzzParse(f *testing.F) {
	for _, s := range corpusSeeds(f) {
		f.Add(s)
	}
	for _, s := range deepChains(5000) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		stmts, err := ParseScript(s)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error %T is not *Error: %v", err, err)
			}
			return
		}
		for _, st := range stmts {
			_ = Dump(st)
			if st.NumParams() < 0 {
				t.Fatal("negative NumParams")
			}
			// Every node of a query can be copied, walked and formatted.
			if q, ok := st.(SelectStatement); ok {
				Walk(CloneSelect(q), func(n any) bool {
					if e, ok := n.(Expr); ok {
						_ = FormatExpr(e)
					}
					return true
				})
			}
		}
	})
}

func FuzzParseType(f *testing.F) {
	for _, s := range []string{"INT", "MAP<STRING, ARRAY<INT>>", "ROW<a INT 'd', b ROW(c STRING)>", "TIMESTAMP(3) WITH LOCAL TIME ZONE",
		"DECIMAL(10, 2) NOT NULL", "INT ARRAY", "VARCHAR(10)", "INTERVAL DAY TO SECOND(3)", "MULTISET<INT>", "DOUBLE PRECISION",
		"INT" + strings.Repeat(" ARRAY", 5000), strings.Repeat("ARRAY<", 5000) + "INT" + strings.Repeat(">", 5000)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		dt, err := ParseType(s)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error %T is not *Error", err)
			}
			return
		}
		// The canonical rendering of a Fluss type must parse to the same rendering.
		if !hasForeign(dt) {
			again, err := ParseType(dt.String())
			if err != nil {
				t.Fatalf("re-parse of %q (from %q): %v", dt.String(), s, err)
			}
			if again.String() != dt.String() {
				t.Fatalf("round trip %q -> %q", dt.String(), again.String())
			}
		}
	})
}

func hasForeign(t *DataType) bool {
	if t == nil {
		return false
	}
	if t.Kind == TypeForeign {
		return true
	}
	for _, f := range t.Fields {
		if hasForeign(f.Type) {
			return true
		}
	}
	return hasForeign(t.Elem) || hasForeign(t.Key) || hasForeign(t.Value)
}
