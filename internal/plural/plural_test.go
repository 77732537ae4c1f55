package plural

import "testing"

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		noun string
		want string
	}{
		{0, "row", "0 rows"},
		{1, "row", "1 row"},
		{2, "tablet server", "2 tablet servers"},
		{10_000, "argument", "10000 arguments"},
	} {
		if got := Count(tc.n, tc.noun); got != tc.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
	// Every integer type a count comes in.
	if got := Count(int32(1), "key") + ", " + Count(3, "key"); got != "1 key, 3 keys" {
		t.Errorf("got %q", got)
	}
}
