package flussrpc

import "testing"

func TestNextBatchRoom(t *testing.T) {
	const batch = 2 << 20
	tests := []struct {
		name                   string
		size, records, maxRecs int
		want                   int
	}{
		{"closed by the linger time", 1 << 20, 1 << 14, 0, 1<<20 + 1<<18 + 64},
		{"closed by the linger time under a record cap", 1 << 20, 1 << 14, 1 << 15, 1<<20 + 1<<18 + 64},
		{"closed at the batch size", batch, 1 << 15, 0, batch + 64},
		{"closed at the record cap", 1 << 20, 1 << 15, 1 << 15, 1<<20 + 1<<16 + 32},
		{"a quarter more would pass the batch size", 1800 << 10, 1000, 0, batch + 1843},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := nextBatchRoom(tt.size, tt.records, batch, tt.maxRecs); got != tt.want {
				t.Errorf("nextBatchRoom(%d, %d, %d, %d) = %d, want %d", tt.size, tt.records, batch, tt.maxRecs, got, tt.want)
			}
		})
	}
}
