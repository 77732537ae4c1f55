package workload

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	tests := []struct {
		xs   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{3}, 3},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
	}
	for _, tt := range tests {
		in := append([]float64(nil), tt.xs...)
		if got := Median(tt.xs); got != tt.want {
			t.Errorf("Median(%v) = %v, want %v", in, got, tt.want)
		}
		for i := range in {
			if in[i] != tt.xs[i] {
				t.Errorf("Median reordered its input %v to %v", in, tt.xs)
			}
		}
	}
}

func TestWithLatencies(t *testing.T) {
	var lat []time.Duration
	for i := 100; i >= 1; i-- {
		lat = append(lat, time.Duration(i)*time.Millisecond)
	}
	r := Result{Ops: 100, Seconds: 2}.WithLatencies(lat)
	if r.P50ms != 51 || r.P99ms != 100 {
		t.Errorf("p50 %v ms, p99 %v ms; want 51 and 100", r.P50ms, r.P99ms)
	}
	if r.Rate() != 50 {
		t.Errorf("rate %v, want 50", r.Rate())
	}
	if got := (Result{}).WithLatencies(nil); got != (Result{}) {
		t.Errorf("no latencies gave %+v", got)
	}
}

func TestPrintIsOneJSONLine(t *testing.T) {
	var buf bytes.Buffer
	if err := (Result{Ops: 7, Seconds: 0.5, RatioSQL: 0.9}).Print(&buf); err != nil {
		t.Fatal(err)
	}
	if bytes.Count(buf.Bytes(), []byte("\n")) != 1 {
		t.Fatalf("not one line: %q", buf.String())
	}
	var back Result
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || back.Ops != 7 || back.RatioSQL != 0.9 || back.VmHWMKiB <= 0 {
		t.Errorf("read back %+v, %v", back, err)
	}
}
