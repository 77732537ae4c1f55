package flussrpc

import (
	"strings"
	"testing"
	"time"
)

// setCase is one Set call on options of type T: what it should set, or
// the error it should give.
type setCase[T any] struct {
	key, value string
	want       T
	err        string
}

func checkSet[T any](t *testing.T, cases []setCase[T], set func(*T, string, string) error, same func(a, b T) bool) {
	t.Helper()
	for _, tc := range cases {
		var got T
		err := set(&got, tc.key, tc.value)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("Set(%s, %q) = %v, want an error with %q", tc.key, tc.value, err, tc.err)
		case tc.err == "" && (err != nil || !same(got, tc.want)):
			t.Errorf("Set(%s, %q) = %+v, %v; want %+v", tc.key, tc.value, got, err, tc.want)
		}
	}
}

func TestLogScanOptionsSet(t *testing.T) {
	checkSet(t, []setCase[LogScanOptions]{
		{"client.scanner.log.fetch.max-bytes", "4mb", LogScanOptions{MaxFetchBytes: 4 << 20}, ""},
		{"client.scanner.log.fetch.max-bytes-for-bucket", "512 kb", LogScanOptions{MaxBucketFetchBytes: 512 << 10}, ""},
		{"client.scanner.log.fetch.min-bytes", "1", LogScanOptions{MinBytes: 1}, ""},
		{"client.scanner.log.fetch.wait-max-time", "2 s", LogScanOptions{MaxWait: 2 * time.Second}, ""},
		{"client.scanner.log.fetch.max-bytes", "0", LogScanOptions{}, "between 1 byte"},
		{"client.scanner.log.fetch.max-bytes", "2gb", LogScanOptions{}, "between 1 byte"},
		{"client.scanner.log.fetch.min-bytes", "many", LogScanOptions{}, "not a memory size"},
		{"client.scanner.log.fetch.wait-max-time", "0 ms", LogScanOptions{}, "between 1 ms"},
		{"client.scanner.log.max-poll-records", "10", LogScanOptions{}, "unknown scanner option"},
	}, (*LogScanOptions).Set, func(a, b LogScanOptions) bool {
		return a.MaxFetchBytes == b.MaxFetchBytes && a.MaxBucketFetchBytes == b.MaxBucketFetchBytes &&
			a.MinBytes == b.MinBytes && a.MaxWait == b.MaxWait
	})
}

func TestLookupOptionsSet(t *testing.T) {
	checkSet(t, []setCase[LookupOptions]{
		{"client.lookup.batch-size", "128", LookupOptions{MaxBatchKeys: 128}, ""},
		{"client.lookup.max-inflight-requests", " 4 ", LookupOptions{MaxInFlight: 4}, ""},
		{"client.lookup.batch-size", "0", LookupOptions{}, "must be positive"},
		{"client.lookup.max-inflight-requests", "x", LookupOptions{}, "invalid syntax"},
		{"client.lookup.max-retries", "3", LookupOptions{}, "unknown lookup option"},
	}, (*LookupOptions).Set, func(a, b LookupOptions) bool { return a == b })
}

func TestCheckOption(t *testing.T) {
	for _, tc := range []struct {
		key, value string
		ok         bool
	}{
		{"client.writer.batch-size", "4mb", true},
		{"client.writer.batch-size", "big", false},
		{"client.writer.nonsense", "1", false},
		{"client.scanner.log.fetch.min-bytes", "1kb", true},
		{"client.scanner.log.fetch.wait-max-time", "forever", false},
		{"client.lookup.batch-size", "0", false},
		{"client.lookup.max-inflight-requests", "8", true},
		// Accepted for a Java configuration's sake, and not applied.
		{"client.lookup.max-retries", "anything", true},
		{"scan.startup.mode", "earliest", true},
	} {
		if err := CheckOption(tc.key, tc.value); (err == nil) != tc.ok {
			t.Errorf("CheckOption(%s, %q) = %v, want ok %v", tc.key, tc.value, err, tc.ok)
		}
	}
}
