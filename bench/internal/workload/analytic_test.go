package workload

import (
	"strings"
	"testing"
)

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
