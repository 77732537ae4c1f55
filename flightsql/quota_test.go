package flightsql

import (
	"context"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	pb "github.com/apache/arrow-go/v18/arrow/flight/gen/flight"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/gofluss/fluss/flussrpc"
)

// TestBindOfAClosedStatementIsNotFound: a bind racing the statement's
// close (which may drop its user's usage) answers NotFound, before and
// after reading the parameters, and never counts its values.
func TestBindOfAClosedStatementIsNotFound(t *testing.T) {
	s := newOfflineServer(t, 0)
	u := &user{name: "u"}
	closeP := func(p *prepared) {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.prepared, p.handle)
		s.releaseLocked(u, p.bound)
	}
	params := func(onRead func()) array.RecordReader {
		sc := arrow.NewSchema([]arrow.Field{{Name: "p1", Type: arrow.PrimitiveTypes.Int64}}, nil)
		return &hookReader{RecordReader: jsonReader(t, sc, `[{"p1": 1}]`), onNext: onRead}
	}

	p := openPrepared(t, s, u, 1)
	closeP(p)
	if err := s.bind(p, params(nil), true); status.Code(err) != codes.NotFound {
		t.Errorf("bind after close: %v, want NotFound", err)
	}
	p = openPrepared(t, s, u, 1)
	if err := s.bind(p, params(func() { closeP(p) }), true); status.Code(err) != codes.NotFound {
		t.Errorf("bind closed while reading: %v, want NotFound", err)
	}
	if len(s.usage) != 0 {
		t.Errorf("usage left behind: %+v", s.usage[u])
	}
}

// hookReader calls onNext once, when the first batch is read.
type hookReader struct {
	array.RecordReader
	onNext func()
}

func (r *hookReader) Next() bool {
	if r.onNext != nil {
		r.onNext()
		r.onNext = nil
	}
	return r.RecordReader.Next()
}

// TestAdmitEvictsTheLeastRecentlyUsedStatement: at MaxOpenPerUser, a new
// handle evicts the user's least recently used prepared statement (also
// when the limit is 1), never a transaction, and is refused when only
// transactions are open; other users are counted apart.
func TestAdmitEvictsTheLeastRecentlyUsedStatement(t *testing.T) {
	s := newOfflineServer(t, 2)
	s.mu.Lock()
	defer s.mu.Unlock()
	start := time.Now()
	// admit admits a prepared statement (used at start+age) or, with
	// age < 0, a transaction, and returns what it evicted.
	admit := func(u *user, age time.Duration) (*prepared, error) {
		evicted, err := s.admitLocked(u)
		if err == nil && age >= 0 {
			p := &prepared{u: u, handle: newHandle(), used: start.Add(age)}
			s.prepared[p.handle] = p
		}
		return evicted, err
	}
	a, b := &user{name: "a"}, &user{name: "b"}
	mustAdmit := func(u *user, age time.Duration) *prepared {
		t.Helper()
		evicted, err := admit(u, age)
		if err != nil {
			t.Fatal(err)
		}
		return evicted
	}
	mustAdmit(a, 2*time.Second)
	mustAdmit(a, time.Second)
	mustAdmit(b, -1)
	mustAdmit(b, -1)
	if ev := mustAdmit(a, 3*time.Second); ev == nil || !ev.used.Equal(start.Add(time.Second)) {
		t.Fatalf("evicted %+v, want the statement used at +1s", ev)
	}
	if ev := mustAdmit(a, -1); ev == nil || !ev.used.Equal(start.Add(2*time.Second)) {
		t.Fatalf("a transaction evicted %+v, want the statement used at +2s", ev)
	}
	if _, err := admit(b, -1); status.Code(err) != codes.ResourceExhausted {
		t.Fatalf("a third transaction: %v, want ResourceExhausted", err)
	}
	if got := s.usage[a].open; got != 2 {
		t.Errorf("user a has %d open, want 2", got)
	}
	s.cfg.MaxOpenPerUser = 1
	c := &user{name: "c"}
	mustAdmit(c, 0)
	if ev := mustAdmit(c, time.Second); ev == nil || s.usage[c].open != 1 {
		t.Fatalf("with a limit of 1: evicted %+v, usage %+v", ev, s.usage[c])
	}
}

// TestEvictionDoesNotWaitForARunningStream: the evicted statement is
// closed once its running stream lets go of it; the call that evicted it
// returns at once.
func TestEvictionDoesNotWaitForARunningStream(t *testing.T) {
	s := newOfflineServer(t, 1)
	u := &user{name: "u"}
	streaming := openPrepared(t, s, u, 0)
	holdSession(t, &streaming.session)
	returnsAtOnce(t, "admitting a new handle", func() error { return s.admit(u, nil) })
	streaming.session.unlock()
}

// TestCloseDoesNotWaitForARunningStream: ClosePreparedStatement returns
// at once while a stream of the statement runs; the statement's session
// is closed when the stream lets go.
func TestCloseDoesNotWaitForARunningStream(t *testing.T) {
	s := newOfflineServer(t, 0)
	u := &user{name: "u"}
	p := openPrepared(t, s, u, 0)
	holdSession(t, &p.session)
	defer p.session.unlock()
	ctx := context.WithValue(context.Background(), userKey{}, u)
	returnsAtOnce(t, "ClosePreparedStatement", func() error {
		return s.ClosePreparedStatement(ctx, &pb.ActionClosePreparedStatementRequest{PreparedStatementHandle: []byte(p.handle)})
	})
}

// newOfflineServer is a server whose cluster is never dialed, for tests
// of its bookkeeping; maxOpen 0 is the default.
func newOfflineServer(t *testing.T, maxOpen int) *Server {
	t.Helper()
	s, err := NewServer(Config{Client: flussrpc.Config{Bootstrap: []string{"127.0.0.1:1"}}, MaxOpenPerUser: maxOpen})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// openPrepared admits and registers a prepared statement of u with
// nparams placeholders.
func openPrepared(t *testing.T, s *Server, u *user, nparams int) *prepared {
	t.Helper()
	p := &prepared{u: u, handle: newHandle(), nparams: nparams}
	if err := s.admit(u, func() { s.prepared[p.handle] = p }); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBindWhileAStreamHoldsTheStatement: binding new parameters to a
// statement whose rows are being streamed neither waits for the stream
// nor holds up the server (bind takes the server's mutex).
func TestBindWhileAStreamHoldsTheStatement(t *testing.T) {
	s := newOfflineServer(t, 0)
	p := openPrepared(t, s, &user{name: "u"}, 1)
	holdSession(t, &p.session)
	defer p.session.unlock()
	sc := arrow.NewSchema([]arrow.Field{{Name: "p1", Type: arrow.PrimitiveTypes.Int64}}, nil)
	rdr := jsonReader(t, sc, `[{"p1": 7}]`)
	returnsAtOnce(t, "bind", func() error { return s.bind(p, rdr, true) })
	if runs := p.runs(); len(runs) != 1 || runs[0][0].Value != int64(7) {
		t.Errorf("bound %v, want one run of 7", runs)
	}
}

// TestLeaseGivesUpWithItsContext: a call waiting for a session that a
// stream holds ends with its own context, for a statement and for a
// transaction.
func TestLeaseGivesUpWithItsContext(t *testing.T) {
	p := &prepared{}
	tx := &transaction{}
	for _, l := range []*sessionLock{&p.session, &tx.session} {
		holdSession(t, l)
		defer l.unlock()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := p.lease(ctx); status.Code(err) != codes.DeadlineExceeded {
		t.Errorf("statement: %v, want DeadlineExceeded", err)
	}
	if _, err := tx.lock(ctx); status.Code(err) != codes.DeadlineExceeded {
		t.Errorf("transaction: %v, want DeadlineExceeded", err)
	}
}

// holdSession takes l, as the lease of a stream of rows holds it.
func holdSession(t *testing.T, l *sessionLock) {
	t.Helper()
	if err := l.lock(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// returnsAtOnce runs call, which must succeed without waiting for a
// stream that holds a session: within 5 s.
func returnsAtOnce(t *testing.T, what string, call func() error) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- call() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("%s waited for the stream holding the session", what)
	}
}

// TestCloseWhileAStreamFinishes: Server.Close waits for a stream holding
// a statement's session without holding the server's mutex, which the
// stream may need to finish once its call is cancelled.
func TestCloseWhileAStreamFinishes(t *testing.T) {
	s := newOfflineServer(t, 0)
	p := openPrepared(t, s, &user{name: "u"}, 0)
	holdSession(t, &p.session)
	go func() {
		<-s.done // the call is cancelled: the stream winds up
		s.mu.Lock()
		_ = len(s.results) // as keepResult does
		s.mu.Unlock()
		p.session.unlock()
	}()
	returnsAtOnce(t, "Close", s.Close)
}

// TestUnfetchedResultsAreBoundedPerUser: one result more than
// MaxOpenPerUser drops the user's oldest unfetched one; fetching or
// dropping a result gives its room back; other users are counted apart.
func TestUnfetchedResultsAreBoundedPerUser(t *testing.T) {
	s := newOfflineServer(t, 2)
	a, b := &user{name: "a"}, &user{name: "b"}
	fetch := func(u *user, h string) error {
		_, err := s.takeResult(context.WithValue(context.Background(), userKey{}, u), h)
		return err
	}
	a1, a2 := s.keepResult(&result{u: a}), s.keepResult(&result{u: a})
	b1 := s.keepResult(&result{u: b})
	a3 := s.keepResult(&result{u: a})
	if err := fetch(a, a1); status.Code(err) != codes.NotFound {
		t.Errorf("the oldest result of a: %v, want NotFound (dropped)", err)
	}
	for _, h := range []string{a2, a3} {
		if err := fetch(a, h); err != nil {
			t.Errorf("a newer result of a: %v", err)
		}
	}
	if err := fetch(b, b1); err != nil {
		t.Errorf("b's result: %v", err)
	}
	s.keepResult(&result{u: a})
	s.dropStaleResults(time.Now().Add(time.Hour))
	if len(s.results) != 0 || len(s.pending) != 0 {
		t.Errorf("left behind: %d results, pending %v", len(s.results), s.pending)
	}
}

// TestATransactionInUseIsNotRolledBack: the idle rollback spares a
// transaction while a call holds its session (a stream of rows may last
// longer than the idle timeout), however long ago it began.
func TestATransactionInUseIsNotRolledBack(t *testing.T) {
	s := newOfflineServer(t, 0)
	u := &user{name: "u"}
	tx := &transaction{u: u}
	if err := s.admit(u, func() { s.txs["tx"] = tx }); err != nil {
		t.Fatal(err)
	}
	l, err := tx.lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer l.release()
	s.rollBackIdleTransactions(time.Now().Add(time.Hour))
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.txs["tx"] != tx || s.usage[u].open != 1 {
		t.Error("a transaction in use was rolled back")
	}
	// It has no session for Close to roll back.
	delete(s.txs, "tx")
}
