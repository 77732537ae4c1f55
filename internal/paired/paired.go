// Package paired times several ways of doing one thing in turns, so that
// what one adds to another is measured apart from the drift of the
// machine and the server, which moves runs timed one after the other by
// more than a driver adds to a lookup.
package paired

import (
	"slices"
	"time"
)

// Run calls each of fns once per round, rotating which goes first, while
// more(round) holds, and returns the duration of every call: lat[k][i] is
// that of fns[k] in round i. The first error ends it, with the rounds
// done until then.
func Run(more func(round int) bool, fns ...func(round int) error) (lat [][]time.Duration, err error) {
	lat = make([][]time.Duration, len(fns))
	for i := 0; more(i); i++ {
		for j := range fns {
			k := (i + j) % len(fns)
			t0 := time.Now()
			if err := fns[k](i); err != nil {
				for k := range lat {
					lat[k] = lat[k][:min(len(lat[k]), i)]
				}
				return lat, err
			}
			d := time.Since(t0)
			lat[k] = append(lat[k], d)
		}
	}
	return lat, nil
}

// warmRounds is how many untimed rounds WarmUp runs.
const warmRounds = 100

// WarmUp runs fns in turns for a hundred rounds, untimed, so that none of
// them pays alone for first calls (connections, plans, caches).
func WarmUp(fns ...func(round int) error) error {
	_, err := Run(func(i int) bool { return i < warmRounds }, fns...)
	return err
}

// Added returns the median over the rounds of other's time less base's,
// or 0 when there are none.
func Added(base, other []time.Duration) time.Duration {
	n := min(len(base), len(other))
	diffs := make([]time.Duration, n)
	for i := range n {
		diffs[i] = other[i] - base[i]
	}
	return Median(diffs)
}

// Median returns the median of ds (0 when empty), leaving ds as it was.
func Median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
