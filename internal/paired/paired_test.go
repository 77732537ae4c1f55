package paired

import (
	"errors"
	"testing"
	"time"
)

func TestRunRotatesAndTimes(t *testing.T) {
	var order []int
	fns := []func(int) error{
		func(int) error { order = append(order, 0); return nil },
		func(int) error { order = append(order, 1); time.Sleep(2 * time.Millisecond); return nil },
		func(int) error { order = append(order, 2); return nil },
	}
	lat, err := Run(func(i int) bool { return i < 3 }, fns...)
	if err != nil {
		t.Fatal(err)
	}
	want := []int{0, 1, 2, 1, 2, 0, 2, 0, 1}
	if len(order) != len(want) {
		t.Fatalf("calls %v, want %v", order, want)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("calls %v, want %v", order, want)
		}
	}
	for k := range lat {
		if len(lat[k]) != 3 {
			t.Fatalf("fns[%d] has %d times, want 3", k, len(lat[k]))
		}
	}
	if added := Added(lat[0], lat[1]); added < 2*time.Millisecond {
		t.Errorf("Added = %v, want at least the 2ms fns[1] sleeps", added)
	}
}

func TestRunStopsAtError(t *testing.T) {
	boom := errors.New("boom")
	lat, err := Run(func(int) bool { return true },
		func(int) error { return nil },
		func(i int) error {
			if i == 2 {
				return boom
			}
			return nil
		})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	for k := range lat {
		if len(lat[k]) != 2 {
			t.Errorf("fns[%d] kept %d times, want the 2 whole rounds", k, len(lat[k]))
		}
	}
}

func TestMedianAndAdded(t *testing.T) {
	ds := []time.Duration{5, 1, 3}
	if m := Median(ds); m != 3 {
		t.Errorf("Median = %v, want 3", m)
	}
	if ds[0] != 5 {
		t.Error("Median sorted its argument")
	}
	if m := Median(nil); m != 0 {
		t.Errorf("Median(nil) = %v", m)
	}
	if a := Added([]time.Duration{1, 2, 3}, []time.Duration{4, 4, 4}); a != 2 {
		t.Errorf("Added = %v, want 2", a)
	}
}

func TestWarmUp(t *testing.T) {
	calls := make([]int, 2)
	err := WarmUp(func(int) error { calls[0]++; return nil }, func(int) error { calls[1]++; return nil })
	if err != nil || calls[0] != warmRounds || calls[1] != warmRounds {
		t.Fatalf("WarmUp: %v, calls %v, want %d each", err, calls, warmRounds)
	}
}
