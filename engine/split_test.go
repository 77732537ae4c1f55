package engine

import (
	"slices"
	"testing"
)

// TestSplitCoversEachBucketOnce: the parts of one count hold every bucket
// of every partition once, whatever the bucket count.
func TestSplitCoversEachBucketOnce(t *testing.T) {
	for _, tc := range []struct {
		buckets, parts int
	}{{1, 4}, {3, 2}, {4, 4}, {7, 3}, {16, 4}} {
		var all []bucketRef
		for _, p := range []string{"", "2024"} {
			for b := range tc.buckets {
				all = append(all, bucketRef{p, int32(b)})
			}
		}
		seen := map[bucketRef]int{}
		for i := range tc.parts {
			for _, br := range (Split{Index: i, Of: tc.parts}).of(slices.Clone(all)) {
				seen[br]++
			}
		}
		for _, br := range all {
			if seen[br] != 1 {
				t.Errorf("%d buckets in %d parts: %+v read %d times", tc.buckets, tc.parts, br, seen[br])
			}
		}
		if got := (Split{}).of(all); len(got) != len(all) {
			t.Errorf("the whole scan reads %d of %d buckets", len(got), len(all))
		}
	}
}
