package flussrpc

import (
	"context"
	"testing"
	"time"
)

// TestRoutingRetrierOutlastsAttemptCap pins that stale routing is waited
// out for the request timeout, not retryAttempts attempts: a new
// partition's leader was seen in CI answering NOT_LEADER_OR_FOLLOWER for
// longer than those attempts take.
func TestRoutingRetrierOutlastsAttemptCap(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name    string
		timeout time.Duration
		elapsed time.Duration // how far past the first failure the budget is
		want    bool
	}{
		{"within the request timeout", time.Hour, 0, true},
		{"past the request timeout", time.Minute, 2 * time.Minute, false},
		{"no request timeout: the attempt cap", -1, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Client{cfg: Config{RequestTimeout: tt.timeout}}
			r := c.routingRetrier()
			r.attempt, r.delay = retryAttempts, time.Millisecond
			if r.span > 0 {
				r.until = time.Now().Add(r.span - tt.elapsed)
			}
			ok, err := r.again(ctx)
			if err != nil || ok != tt.want {
				t.Fatalf("again after %d attempts = %v, %v; want %v", retryAttempts, ok, err, tt.want)
			}
		})
	}
}

func TestRetrierAttemptCap(t *testing.T) {
	r := newRetrier()
	r.attempt = retryAttempts
	if ok, err := r.again(context.Background()); ok || err != nil {
		t.Fatalf("again after %d attempts = %v, %v; want false", retryAttempts, ok, err)
	}
}
