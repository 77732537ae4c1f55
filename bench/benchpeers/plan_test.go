package main

import (
	"slices"
	"testing"
)

func TestRoundOrder(t *testing.T) {
	cs := []bcase{
		{peers: "a"}, {peers: "a"}, {peers: "a"},
		{peers: "b"},
		{peers: "c"}, {peers: "c"},
	}
	for _, tc := range []struct {
		round int
		want  []int
	}{
		{1, []int{0, 1, 2, 3, 4, 5}},
		{2, []int{1, 2, 0, 3, 5, 4}},
		{3, []int{2, 0, 1, 3, 4, 5}},
		{4, []int{0, 1, 2, 3, 5, 4}},
	} {
		if got := roundOrder(cs, tc.round); !slices.Equal(got, tc.want) {
			t.Errorf("round %d: order %v, want %v", tc.round, got, tc.want)
		}
	}
}
