package workload

import (
	"os"
	"strings"
	"testing"
)

// The Python peer's digest is written as Digest writes it, also of a
// one-row answer: the bench compares the two texts.
func TestDigestMatchesPython(t *testing.T) {
	py, err := os.ReadFile("../../pyfluss_bench.py")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(py), `"`+digestFormat+`" % (t.num_rows, total)`) {
		t.Errorf("pyfluss_bench.py's digest is not written as %q", digestFormat)
	}
	if got := Digest(1, 5); got != "1 rows, integers sum to 5" {
		t.Errorf("Digest(1, 5) = %q", got)
	}
}

func TestQuery(t *testing.T) {
	for _, tc := range []struct {
		name, tables string
		want         string // a part of the text
		lookupJoin   bool
		wantErr      bool
	}{
		{name: "group-by", tables: "events_9", want: "FROM events_9 GROUP BY cat"},
		{name: "lookup-join", tables: "events_9,dims_1", want: "FROM events_9 e JOIN dims_1 d ON e.k = d.id GROUP", lookupJoin: true},
		{name: "scan-join", tables: "events_9,dims_1", want: "ON e.k = d.id + 0"},
		{name: "lookup-join", tables: "events_9", wantErr: true},
		{name: "nothing", tables: "events_9", wantErr: true},
	} {
		sql, lj, err := Query(tc.name, tc.tables)
		if (err != nil) != tc.wantErr || !strings.Contains(sql, tc.want) || lj != tc.lookupJoin {
			t.Errorf("Query(%q, %q) = %q, %v, %v", tc.name, tc.tables, sql, lj, err)
		}
	}
}

// TestEventsNameEveryKey: each key of the key table is named by the
// events, dimsPerKey times over (the stride is prime to the key count).
func TestEventsNameEveryKey(t *testing.T) {
	const keys = 1000
	seen := map[int64]int{}
	for i := range 10 * keys {
		seen[EventRow(i, keys)[1].(int64)]++
	}
	if len(seen) != keys {
		t.Fatalf("%d keys named, want %d", len(seen), keys)
	}
	for k, n := range seen {
		if n != 10 {
			t.Fatalf("key %d named %d times", k, n)
		}
	}
}
