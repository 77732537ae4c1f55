//go:build duckdb_arrow

package analytics_test

import (
	"fmt"
	"sync"
	"testing"
)

// TestConcurrentQueries runs engine queries from several goroutines at once,
// as a Flight SQL server's clients do: each query has a connection and views
// of its own, so none sees another's rows.
func TestConcurrentQueries(t *testing.T) {
	f := newFixture(t, 2000)
	want := map[string]int{}
	for _, s := range f.sales {
		if s.region != nil && s.qty != nil && *s.qty > 4 {
			want[*s.region]++
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 6 {
				region := regions[(g+i)%len(regions)]
				var n int
				err := f.db.QueryRow("SELECT COUNT(*) FROM sales WHERE qty > 4 AND region = ?", region).Scan(&n)
				if err == nil && n != want[region] {
					err = fmt.Errorf("%s: COUNT(*) = %d, want %d", region, n, want[region])
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
