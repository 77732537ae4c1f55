package engine

import (
	"database/sql/driver"
	"strings"
	"testing"

	"github.com/gofluss/fluss/parser"
)

// TestCheckArgsCounts: the argument-count error counts in words that fit
// the numbers ("1 placeholder", "got 1 argument"), as it once did not.
func TestCheckArgsCounts(t *testing.T) {
	for _, tc := range []struct {
		query string
		args  int
		want  string
	}{
		{"SELECT * FROM t WHERE a = ?", 2, "the statement has 1 placeholder, got 2 arguments"},
		{"SELECT * FROM t WHERE a = ? AND b = ?", 1, "the statement has 2 placeholders, got 1 argument"},
		{"SELECT * FROM t", 1, "the statement has 0 placeholders, got 1 argument"},
	} {
		st, err := parser.Parse(tc.query)
		if err != nil {
			t.Fatal(err)
		}
		args := make([]driver.NamedValue, tc.args)
		for i := range args {
			args[i] = driver.NamedValue{Ordinal: i + 1, Value: int64(i)}
		}
		if err := checkArgs(st, args); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s with %d args: %v, want %q", tc.query, tc.args, err, tc.want)
		}
	}
}
