package flightsql

import (
	"context"
	"sync"

	"google.golang.org/grpc/status"
)

// sessionLock serializes the calls that use one engine session: a
// prepared statement's or a transaction's. A stream of rows holds it until
// the stream ends, which is when its client has read the last batch or
// cancelled; so a call that waits for it gives up with its own context
// rather than hang on another call's client. The zero value is unlocked.
type sessionLock struct {
	once sync.Once
	c    chan struct{} // holds a token while locked
}

func (l *sessionLock) ch() chan struct{} {
	l.once.Do(func() { l.c = make(chan struct{}, 1) })
	return l.c
}

// lock waits for the session, or fails with ctx's status when ctx ends
// first.
func (l *sessionLock) lock(ctx context.Context) error {
	select {
	case l.ch() <- struct{}{}:
		return nil
	case <-ctx.Done():
		st := status.FromContextError(ctx.Err())
		return status.Errorf(st.Code(), "fluss flightsql: %v while waiting for another call of this statement or transaction to end (a stream of its rows ends when its client reads it to the end or cancels it)", ctx.Err())
	}
}

func (l *sessionLock) unlock() { <-l.ch() }
