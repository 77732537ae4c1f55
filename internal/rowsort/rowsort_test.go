package rowsort

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// intCompare orders ints with nil first, and fails on anything else.
func intCompare(a, b any) (int, error) {
	switch {
	case a == nil && b == nil:
		return 0, nil
	case a == nil:
		return -1, nil
	case b == nil:
		return 1, nil
	}
	x, ok1 := a.(int)
	y, ok2 := b.(int)
	if !ok1 || !ok2 {
		return 0, fmt.Errorf("cannot compare %T with %T", a, b)
	}
	return cmp.Compare(x, y), nil
}

func rows(vals ...[2]any) [][]any {
	out := make([][]any, len(vals))
	for i, v := range vals {
		out[i] = []any{v[0], v[1]}
	}
	return out
}

func TestSorter(t *testing.T) {
	in := rows([2]any{3, "a"}, [2]any{1, "b"}, [2]any{nil, "c"}, [2]any{1, "d"}, [2]any{2, "e"})
	tests := []struct {
		name string
		keys []Key
		keep int
		want []string
	}{
		{"asc, nulls first, stable", []Key{{Index: 0}}, -1, []string{"c", "b", "d", "e", "a"}},
		{"desc, stable ties", []Key{{Index: 0, Desc: true}}, -1, []string{"a", "e", "b", "d", "c"}},
		{"top 2", []Key{{Index: 0}}, 2, []string{"c", "b"}},
		{"top 3 desc", []Key{{Index: 0, Desc: true}}, 3, []string{"a", "e", "b"}},
		{"keep 0", []Key{{Index: 0}}, 0, []string{}},
		{"second key breaks ties", []Key{{Index: 0}, {Index: 1, Desc: true}}, -1, []string{"c", "d", "b", "e", "a"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := New(tc.keys, mixedCompare, tc.keep, 100)
			for _, r := range in {
				if err := s.Add(r); err != nil {
					t.Fatal(err)
				}
			}
			got, err := s.Sorted()
			if err != nil {
				t.Fatal(err)
			}
			names := []string{}
			for _, r := range got {
				names = append(names, r[1].(string))
			}
			if !reflect.DeepEqual(names, tc.want) {
				t.Errorf("got %v, want %v", names, tc.want)
			}
		})
	}
}

// mixedCompare compares the ints of column 0 and the strings of column 1.
func mixedCompare(a, b any) (int, error) {
	if x, ok := a.(string); ok {
		return cmp.Compare(x, b.(string)), nil
	}
	return intCompare(a, b)
}

// TestTopNMatchesFullSort checks the heap against a plain stable sort.
func TestTopNMatchesFullSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		n, keep := r.IntN(50), r.IntN(20)
		var in [][]any
		for i := 0; i < n; i++ {
			in = append(in, []any{r.IntN(10), i})
		}
		want := slices.Clone(in)
		slices.SortStableFunc(want, func(a, b []any) int { return cmp.Compare(b[0].(int), a[0].(int)) })
		want = want[:min(keep, len(want))]
		s := New([]Key{{Index: 0, Desc: true}}, intCompare, keep, 1000)
		for _, row := range in {
			if err := s.Add(row); err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.Sorted()
		if err != nil {
			t.Fatal(err)
		}
		if len(want) == 0 && len(got) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("n=%d keep=%d:\n got %v\nwant %v", n, keep, got, want)
		}
	}
}

func TestSorterBound(t *testing.T) {
	s := New([]Key{{Index: 0}}, intCompare, -1, 2)
	for i := 0; i < 2; i++ {
		if err := s.Add([]any{i}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Add([]any{9}); !errors.Is(err, ErrTooManyRows) {
		t.Fatalf("third row: got %v, want ErrTooManyRows", err)
	}
	// A window keeps only its rows, however many are offered.
	s = New([]Key{{Index: 0}}, intCompare, 2, 2)
	for i := 0; i < 1000; i++ {
		if err := s.Add([]any{1000 - i}); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := s.Sorted()
	if !reflect.DeepEqual(got, [][]any{{1}, {2}}) {
		t.Fatalf("got %v", got)
	}
	// A window beyond the bound keeps every row up to the bound, and no
	// more: never a silently shortened window.
	s = New([]Key{{Index: 0}}, intCompare, 5, 2)
	_, _ = s.Add([]any{2}), s.Add([]any{1})
	if err := s.Add([]any{0}); !errors.Is(err, ErrTooManyRows) {
		t.Fatalf("window over the bound, third row: %v", err)
	}
}

func TestSorterCompareError(t *testing.T) {
	s := New([]Key{{Index: 0}}, intCompare, -1, 10)
	_ = s.Add([]any{1})
	_ = s.Add([]any{"x"})
	if _, err := s.Sorted(); err == nil {
		t.Fatal("sorting unrelated kinds: no error")
	}
	s = New([]Key{{Index: 0}}, intCompare, 1, 10)
	_ = s.Add([]any{1})
	if err := s.Add([]any{"x"}); err == nil {
		t.Fatal("heap with unrelated kinds: no error")
	}
}

func ExampleSorter() {
	s := New([]Key{{Index: 1, Desc: true}}, intCompare, 2, 100)
	for _, r := range [][]any{{"a", 1}, {"b", 3}, {"c", 2}} {
		_ = s.Add(r)
	}
	top, _ := s.Sorted()
	fmt.Println(top)
	// Output: [[b 3] [c 2]]
}

// BenchmarkSorter compares keeping the first 10 of 100000 rows (a heap of
// 10) with sorting all of them.
func BenchmarkSorter(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	in := make([][]any, 100000)
	for i := range in {
		in[i] = []any{r.IntN(1 << 30)}
	}
	for _, keep := range []int{10, -1} {
		b.Run(fmt.Sprintf("keep=%d", keep), func(b *testing.B) {
			for b.Loop() {
				s := New([]Key{{Index: 0}}, intCompare, keep, len(in))
				for _, row := range in {
					if err := s.Add(row); err != nil {
						b.Fatal(err)
					}
				}
				if _, err := s.Sorted(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
