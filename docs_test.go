package fluss

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/gofluss/fluss/planner"
)

// readmeMaxChars keeps the README something a newcomer reads in minutes;
// reference material belongs in docs/.
const readmeMaxChars = 16000

func TestReadmeIsShort(t *testing.T) {
	n := utf8.RuneCount(readDoc(t, "README.md"))
	if n > readmeMaxChars {
		t.Errorf("README.md has %d characters, more than %d: move reference material to docs/", n, readmeMaxChars)
	}
}

// TestReadmeProgram: the quick start's program is examples/hello, which
// builds with the module and runs in its integration test; the README
// must show it as it is.
func TestReadmeProgram(t *testing.T) {
	src := string(readDoc(t, "examples/hello/main.go"))
	i := strings.Index(src, "package main")
	if i < 0 {
		t.Fatal("examples/hello/main.go has no package clause")
	}
	if !strings.Contains(string(readDoc(t, "README.md")), "```go\n"+src[i:]+"```") {
		t.Error("README.md does not show examples/hello/main.go (from its package clause on) as a go block")
	}
}

// TestDocLinks: every relative link of the README and docs/*.md names an
// existing file, and a #fragment an existing heading of the file it
// points at.
func TestDocLinks(t *testing.T) {
	files, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range append([]string{"README.md"}, files...) {
		for _, err := range brokenLinks(file, string(readDoc(t, file))) {
			t.Error(err)
		}
	}
}

// brokenLinks returns an error for each relative link of the Markdown
// text md, read from file, that names a missing file or heading.
func brokenLinks(file, md string) []error {
	var errs []error
	for _, target := range markdownLinks(md) {
		if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
			continue
		}
		path, frag, _ := strings.Cut(target, "#")
		dest := file
		if path != "" {
			dest = filepath.Join(filepath.Dir(file), filepath.FromSlash(path))
			if _, err := os.Stat(dest); err != nil {
				errs = append(errs, fmt.Errorf("%s: link %q: no file %s", file, target, dest))
				continue
			}
		}
		if frag == "" {
			continue
		}
		text, err := os.ReadFile(dest)
		if err != nil || !slices.Contains(headingAnchors(string(text)), frag) {
			errs = append(errs, fmt.Errorf("%s: link %q: %s has no heading #%s", file, target, dest, frag))
		}
	}
	return errs
}

var inlineLink = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// markdownLinks returns the targets of the inline links of md, outside
// code blocks and code spans.
func markdownLinks(md string) []string {
	var out []string
	for _, line := range proseLines(md) {
		for _, m := range inlineLink.FindAllStringSubmatch(stripCodeSpans(line), -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// headingAnchors returns the anchors GitHub gives the headings of md: the
// text lower-cased, without punctuation, spaces as '-', and "-1", "-2"
// after repeats.
func headingAnchors(md string) []string {
	var out []string
	seen := map[string]int{}
	for _, line := range proseLines(md) {
		hashes := len(line) - len(strings.TrimLeft(line, "#"))
		if hashes == 0 || hashes > 6 || !strings.HasPrefix(line[hashes:], " ") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(line[hashes:])) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteRune('-')
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			out = append(out, a+"-"+strconv.Itoa(n))
		} else {
			out = append(out, a)
		}
		seen[a]++
	}
	return out
}

// proseLines returns the lines of md outside fenced code blocks.
func proseLines(md string) []string {
	var out []string
	fence := ""
	for _, line := range strings.Split(md, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
		case strings.HasPrefix(trimmed, "```"), strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
		default:
			out = append(out, line)
		}
	}
	return out
}

// stripCodeSpans removes the code spans of a line: a run of n backticks
// up to the next run of exactly n.
func stripCodeSpans(line string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(line, '`')
		if i < 0 {
			return b.String() + line
		}
		b.WriteString(line[:i])
		n := len(line[i:]) - len(strings.TrimLeft(line[i:], "`"))
		rest, closed := line[i+n:], false
		for off := 0; off < len(rest); {
			j := strings.IndexByte(rest[off:], '`')
			if j < 0 {
				break
			}
			j += off
			m := len(rest[j:]) - len(strings.TrimLeft(rest[j:], "`"))
			if m == n {
				line, closed = rest[j+m:], true
				break
			}
			off = j + m
		}
		if !closed {
			// An unclosed run is literal text.
			return b.String() + line[i:]
		}
	}
}

// TestMarkdownParsing checks the link checker itself: links in code are
// no links, and anchors follow GitHub's rules.
func TestMarkdownParsing(t *testing.T) {
	md := "# The driver's options\n" +
		"## `fluss.*` keys, again\n" +
		"## The driver's options\n" +
		"See [a](a.md#x) and `[b](b.md)`, `` `[c](c.md)` ``, and [d](#y \"title\").\n" +
		"```go\n# not a heading\n[e](e.md)\n```\n" +
		"An unclosed ` then [f](f.md).\n"
	if got, want := markdownLinks(md), []string{"a.md#x", "#y", "f.md"}; !slices.Equal(got, want) {
		t.Errorf("links %q, want %q", got, want)
	}
	if got, want := headingAnchors(md), []string{"the-drivers-options", "fluss-keys-again", "the-drivers-options-1"}; !slices.Equal(got, want) {
		t.Errorf("anchors %q, want %q", got, want)
	}
	errs := brokenLinks("docs/sql.md", "[ok](architecture.md#tests) [file](nope.md) [anchor](cluster.md#nope) [self](#nope) [up](../README.md#analytics)")
	if len(errs) != 3 {
		t.Errorf("broken links found: %v; want nope.md, cluster.md#nope and #nope", errs)
	}
}

// optionKey is the form of the option keys the code reads: a family the
// planner accepts, then dot-separated words.
var optionKey = regexp.MustCompile(`^(fluss|scan|lookup|sink|client|execution)(\.[a-z0-9-]+)+$`)

// TestSQLDocListsEveryOption: docs/sql.md documents every key a DSN
// accepts (KnownKeys: the driver's keys and the options) and every option
// key that the planner validates or reads, the engine reads or the native
// client's writer options take, found as string literals in their code.
func TestSQLDocListsEveryOption(t *testing.T) {
	keys := append(KnownKeys(), planner.LocalTimeZone)
	for _, dir := range []string{"planner", "engine", "flussrpc"} {
		keys = append(keys, optionLiterals(t, dir)...)
	}
	doc := string(readDoc(t, "docs/sql.md"))
	slices.Sort(keys)
	for _, k := range slices.Compact(keys) {
		if !strings.Contains(doc, "`"+k+"`") {
			t.Errorf("docs/sql.md does not document `%s`", k)
		}
	}
}

// optionLiterals returns the string literals of the non-test Go files of
// dir that have the form of an option key.
func optionLiterals(t *testing.T, dir string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	fset := token.NewFileSet()
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if s, err := strconv.Unquote(lit.Value); err == nil && optionKey.MatchString(s) {
				keys = append(keys, s)
			}
			return true
		})
	}
	if len(keys) == 0 {
		t.Fatalf("no option keys found in %s: has the code moved?", dir)
	}
	return keys
}

func readDoc(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
