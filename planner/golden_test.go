package planner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gofluss/fluss/internal/testkit"
	"github.com/gofluss/fluss/parser"
)

// TestGoldenPlans plans every statement of testdata/plans/*.sql and
// compares the rendered plans (or errors) with the .golden files.
// Statements are separated by blank lines; lines starting with "-- @"
// set session state for the following statements of the file:
// "-- @set k=v", "-- @lenient", "-- @db name", "-- @engine" (an embedded
// query engine is available), "-- @reset".
func TestGoldenPlans(t *testing.T) {
	files, err := filepath.Glob("testdata/plans/*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	cat := newFakeCatalog(t)
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".sql"), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got := runGolden(t, cat, string(src))
			gf := strings.TrimSuffix(f, ".sql") + ".golden"
			if want, same := testkit.Golden(t, gf, []byte(got)); !same {
				t.Errorf("plans differ from %s (run with -update and review the diff)\n%s", gf, firstDiff(string(want), got))
			}
		})
	}
}

func newTestSession() *Session {
	loc := time.FixedZone("UTC+2", 2*3600)
	return &Session{Location: loc}
}

func runGolden(t *testing.T, cat Catalog, src string) string {
	var out strings.Builder
	sess := newTestSession()
	for _, block := range strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n\n") {
		var sqlLines []string
		for _, line := range strings.Split(block, "\n") {
			trim := strings.TrimSpace(line)
			switch {
			case strings.HasPrefix(trim, "-- @set "):
				k, v, _ := strings.Cut(strings.TrimPrefix(trim, "-- @set "), "=")
				if sess.Options == nil {
					sess.Options = map[string]string{}
				}
				sess.Options[k] = v
			case trim == "-- @lenient":
				sess.LenientDDL = true
			case trim == "-- @engine":
				sess.Engine = true
			case strings.HasPrefix(trim, "-- @db "):
				sess.Database = strings.TrimPrefix(trim, "-- @db ")
			case trim == "-- @reset":
				sess = newTestSession()
			case trim == "" || strings.HasPrefix(trim, "--"):
			default:
				sqlLines = append(sqlLines, line)
			}
		}
		sql := strings.TrimSpace(strings.Join(sqlLines, "\n"))
		if sql == "" {
			continue
		}
		out.WriteString("==== " + sql + "\n")
		st, err := parser.Parse(sql)
		if err != nil {
			out.WriteString("PARSE ERROR: " + err.Error() + "\n\n")
			continue
		}
		pl, err := Build(context.Background(), st, cat, sess)
		if err != nil {
			if pe, ok := err.(*Error); ok {
				out.WriteString("ERROR [" + pe.Clause + "]: " + pe.Error() + "\n\n")
			} else {
				out.WriteString("ERROR: " + err.Error() + "\n\n")
			}
			continue
		}
		out.WriteString(pl.String() + "\n\n")
	}
	return out.String()
}

func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + itoa(i+1) + ":\n  want: " + w + "\n  got:  " + g
		}
	}
	return ""
}
