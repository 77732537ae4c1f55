package workload

import (
	"encoding/json"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Result is what one workload process prints as its last stdout line, in
// the same shape from the Go, Java and Python programs.
type Result struct {
	Ops     int64   `json:"ops"`              // rows written or read, or lookups done
	Seconds float64 `json:"seconds"`          // wall time of the measured part
	P50ms   float64 `json:"p50_ms,omitempty"` // median latency of one lookup, ms
	P99ms   float64 `json:"p99_ms,omitempty"` // 99th percentile of the same
	// AddedSQLus and AddedPreparedus are, for the paired lookups (Go's
	// runPaired), the median time in µs a db.QueryRowContext and a
	// prepared stmt.QueryRowContext took beyond the native lookup of
	// their turn.
	AddedSQLus      float64 `json:"added_sql_us,omitempty"`
	AddedPreparedus float64 `json:"added_prepared_us,omitempty"`
	// RatioSQL and RatioPrepared are, for the paired lookups at
	// concurrency (pairedRates), the median over the turns of the
	// db.QueryRowContext and the prepared rate divided by the native rate.
	RatioSQL      float64 `json:"ratio_sql,omitempty"`
	RatioPrepared float64 `json:"ratio_prepared,omitempty"`
	// Check is, for a query, a digest of its answer (Digest), the same
	// from every client that got the same answer.
	Check string `json:"check,omitempty"`
	// VmHWMKiB is the process's peak RSS, read by the process itself from
	// /proc/self/status just before it prints the line: the rusage of a
	// child is no use here, because Linux carries the parent's peak into
	// it across the vfork and exec that start the child.
	VmHWMKiB int64 `json:"vmhwm_kib"`
}

// Rate is the result's operations per second.
func (r Result) Rate() float64 {
	if r.Seconds <= 0 {
		return 0
	}
	return float64(r.Ops) / r.Seconds
}

// Print writes r as the process's result line, with its peak RSS.
func (r Result) Print(w io.Writer) error {
	r.VmHWMKiB = vmHWM()
	return json.NewEncoder(w).Encode(r)
}

// vmHWM returns the VmHWM of /proc/self/status in KiB, or 0.
func vmHWM() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			return n
		}
	}
	return 0
}

// WithLatencies sets the percentiles of lat (sorted in place).
func (r Result) WithLatencies(lat []time.Duration) Result {
	if len(lat) == 0 {
		return r
	}
	slices.Sort(lat)
	at := func(q float64) float64 {
		return float64(lat[min(len(lat)-1, int(q*float64(len(lat))))]) / float64(time.Millisecond)
	}
	r.P50ms, r.P99ms = at(0.50), at(0.99)
	return r
}

// ClosedLoop runs one(j) for j = 0, 1, ... on conc goroutines until d has
// passed, each goroutine issuing its next call when the previous returned,
// and returns the count, the wall time and every call's latency. The first
// error stops the run.
func ClosedLoop(conc int, d time.Duration, one func(j int) error) (Result, error) {
	var next atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	var all []time.Duration
	var firstErr error
	var failed atomic.Bool
	start := time.Now()
	stop := start.Add(d)
	for g := 0; g < conc; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lat := make([]time.Duration, 0, 1024)
			var err error
			for err == nil && !failed.Load() && time.Now().Before(stop) {
				t := time.Now()
				if err = one(int(next.Add(1) - 1)); err == nil {
					lat = append(lat, time.Since(t))
				}
			}
			mu.Lock()
			defer mu.Unlock()
			all = append(all, lat...)
			if err != nil && firstErr == nil {
				firstErr = err
				failed.Store(true)
			}
		}()
	}
	wg.Wait()
	res := Result{Ops: int64(len(all)), Seconds: time.Since(start).Seconds()}
	return res.WithLatencies(all), firstErr
}

// Median is the median of xs, 0 if it is empty.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
