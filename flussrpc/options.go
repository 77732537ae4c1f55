package flussrpc

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// The Java client's option keys beyond client.writer.* (WriterOptions.Set):
// what they set in the options of scans and lookups. Like the writer's,
// they take Java memory sizes and durations.

// Set applies one Java client scanner option, for example
// Set("client.scanner.log.fetch.max-bytes", "4mb"). It knows
// client.scanner.log.fetch.max-bytes, .max-bytes-for-bucket, .min-bytes
// and .wait-max-time; other keys are an error.
func (o *LogScanOptions) Set(key, value string) error {
	v := strings.TrimSpace(value)
	var err error
	switch key {
	case "client.scanner.log.fetch.max-bytes":
		o.MaxFetchBytes, err = parseInt32Size(v)
	case "client.scanner.log.fetch.max-bytes-for-bucket":
		o.MaxBucketFetchBytes, err = parseInt32Size(v)
	case "client.scanner.log.fetch.min-bytes":
		o.MinBytes, err = parseInt32Size(v)
	case "client.scanner.log.fetch.wait-max-time":
		o.MaxWait, err = ParseJavaDuration(v)
		if err == nil && (o.MaxWait <= 0 || o.MaxWait > math.MaxInt32*time.Millisecond) {
			err = fmt.Errorf("must be between 1 ms and %d ms", math.MaxInt32)
		}
	default:
		return fmt.Errorf("flussrpc: unknown scanner option %q", key)
	}
	if err != nil {
		return fmt.Errorf("flussrpc: option %s=%q: %w", key, value, err)
	}
	return nil
}

// Set applies one Java client lookup option: client.lookup.batch-size
// sets MaxBatchKeys, client.lookup.max-inflight-requests MaxInFlight
// (which this client counts per server, Java's over all servers); other
// keys are an error.
func (o *LookupOptions) Set(key, value string) error {
	v := strings.TrimSpace(value)
	n, err := strconv.Atoi(v)
	if err == nil && n <= 0 {
		err = fmt.Errorf("must be positive")
	}
	switch key {
	case "client.lookup.batch-size":
		o.MaxBatchKeys = n
	case "client.lookup.max-inflight-requests":
		o.MaxInFlight = n
	default:
		return fmt.Errorf("flussrpc: unknown lookup option %q", key)
	}
	if err != nil {
		return fmt.Errorf("flussrpc: option %s=%q: %w", key, value, err)
	}
	return nil
}

// CheckOption validates the value of a Java client option this client
// applies, without applying it: client.writer.* keys as WriterOptions.Set
// takes them, client.scanner.log.fetch.* as LogScanOptions.Set,
// client.lookup.batch-size and .max-inflight-requests as
// LookupOptions.Set. Other keys pass, so that a caller can check a whole
// configuration at once (the driver does, for SET and the DSN).
func CheckOption(key, value string) error {
	switch {
	case strings.HasPrefix(key, "client.writer."):
		var o WriterOptions
		return o.Set(key, value)
	case strings.HasPrefix(key, "client.scanner.log.fetch."):
		var o LogScanOptions
		return o.Set(key, value)
	case key == "client.lookup.batch-size", key == "client.lookup.max-inflight-requests":
		var o LookupOptions
		return o.Set(key, value)
	}
	return nil
}

// parseInt32Size is parseMemorySize for the positive int32 fields of
// fetch requests.
func parseInt32Size(s string) (int32, error) {
	n, err := parseMemorySize(s)
	if err == nil && (n <= 0 || n > math.MaxInt32) {
		err = fmt.Errorf("must be between 1 byte and 2gb-1")
	}
	return int32(n), err
}

// parseMemorySize reads Java MemorySize strings: "2mb", "64 MB", "1024".
func parseMemorySize(s string) (int64, error) {
	t := strings.ToLower(strings.ReplaceAll(s, " ", ""))
	mult := int64(1)
	for _, suf := range []struct {
		s string
		m int64
	}{{"kb", 1 << 10}, {"mb", 1 << 20}, {"gb", 1 << 30}, {"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"bytes", 1}, {"b", 1}} {
		if strings.HasSuffix(t, suf.s) {
			t, mult = strings.TrimSuffix(t, suf.s), suf.m
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("not a memory size: %q", s)
	}
	return n * mult, nil
}

// ParseJavaDuration reads a duration as the Java client's options take
// it: Go or Java style ("100ms", "100 ms", "2 s", "1 min"), or a plain
// number of milliseconds.
func ParseJavaDuration(s string) (time.Duration, error) {
	t := strings.ToLower(strings.ReplaceAll(s, " ", ""))
	if d, err := time.ParseDuration(t); err == nil {
		return d, nil
	}
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9') {
		i++
	}
	n, err := strconv.ParseInt(t[:i], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("not a duration: %q", s)
	}
	units := map[string]time.Duration{
		"": time.Millisecond, "ns": time.Nanosecond, "us": time.Microsecond, "ms": time.Millisecond,
		"milli": time.Millisecond, "millis": time.Millisecond, "s": time.Second, "sec": time.Second,
		"secs": time.Second, "second": time.Second, "seconds": time.Second, "min": time.Minute,
		"mins": time.Minute, "minute": time.Minute, "minutes": time.Minute, "h": time.Hour,
		"hour": time.Hour, "hours": time.Hour, "d": 24 * time.Hour, "day": 24 * time.Hour, "days": 24 * time.Hour,
	}
	u, ok := units[t[i:]]
	if !ok {
		return 0, fmt.Errorf("not a duration: %q", s)
	}
	return time.Duration(n) * u, nil
}
