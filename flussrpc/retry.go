package flussrpc

import (
	"context"
	"time"
)

// Retry pacing for requests that failed with a retriable error or stale
// routing. A bucket that was just created or moved is typically served
// again within a second or two: metadata can name the new leader before
// that server has taken over, and it answers NOT_LEADER_OR_FOLLOWER until
// then. On a loaded machine leader election after CREATE TABLE has been
// seen to take over five seconds, and a new partition's leader over
// fifteen, so a routing retrier (Client.routingRetrier) keeps trying for
// the client's request timeout after the first failure; other retriers
// stop after retryAttempts attempts with capped exponential back-off
// (about fifteen seconds). The caller's context can always end either
// sooner.
const (
	retryAttempts   = 20
	retryFirstDelay = 50 * time.Millisecond
	retryMaxDelay   = time.Second
)

// retrier counts attempts and sleeps between them.
type retrier struct {
	attempt int
	delay   time.Duration
	until   time.Time // no attempt starts after it; zero: no limit
	// span, when positive, replaces the attempt cap: until is set to the
	// first failure plus span.
	span time.Duration
}

func newRetrier() *retrier { return &retrier{attempt: 1, delay: retryFirstDelay} }

// routingRetrier is the retrier of a call that waits out stale routing:
// it retries for the request timeout from its first failure (see the
// pacing above), or retryAttempts times when the client has no request
// timeout. Its first attempt costs no clock read: lookups make one per key.
func (c *Client) routingRetrier() retrier {
	return retrier{attempt: 1, delay: retryFirstDelay, span: max(c.cfg.RequestTimeout, 0)}
}

// newRetrierWithin is newRetrier that also gives up once budget (if
// positive) has passed from now.
func newRetrierWithin(budget time.Duration) *retrier {
	r := newRetrier()
	if budget > 0 {
		r.until = time.Now().Add(budget)
	}
	return r
}

// again waits before the next attempt. It returns false when the attempts
// or the time budget are used up, and ctx.Err() when the context ends
// while waiting.
func (r *retrier) again(ctx context.Context) (bool, error) {
	if r.span > 0 && r.until.IsZero() {
		r.until = time.Now().Add(r.span)
	}
	if r.span <= 0 && r.attempt >= retryAttempts || !r.until.IsZero() && time.Now().Add(r.delay).After(r.until) {
		return false, nil
	}
	r.attempt++
	t := time.NewTimer(r.delay)
	defer t.Stop()
	r.delay = min(2*r.delay, retryMaxDelay)
	select {
	case <-ctx.Done():
		return false, ctx.Err()
	case <-t.C:
		return true, nil
	}
}
