// Package plural writes counts of things in messages: "1 row", "2 rows".
// It imports nothing of this module, so that every layer, down to the
// codecs and the cluster tool, can use it.
package plural

import "strconv"

// Count renders n followed by noun, with an s added unless n is 1:
// Count(1, "row") is "1 row", Count(0, "row") "0 rows". noun must be one
// whose plural takes a plain s ("tablet server", "argument").
func Count[N ~int | ~int32 | ~int64](n N, noun string) string {
	s := strconv.FormatInt(int64(n), 10) + " " + noun
	if n == 1 {
		return s
	}
	return s + "s"
}
