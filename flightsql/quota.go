package flightsql

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/array"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/gofluss/fluss/internal/plural"
)

// Prepared statements and transactions live until their client closes
// them, which a crashed notebook or a leaking connection pool never does;
// and each prepared statement keeps its last bound parameters. So every
// user may keep Config.MaxOpenPerUser of them open: one more evicts the
// user's least recently used prepared statement (a later call with its
// handle gets NotFound), so that leaked statements never lock a user out;
// transactions, which hold writes, are never evicted, and one more than
// that many is refused (a transaction without calls for
// Config.IdleTimeout is rolled back, so leaked ones end too). The
// parameters bound to one user's statements hold at most maxParamValues
// values in all.

// DefaultMaxOpenPerUser is the MaxOpenPerUser of a zero Config.
const DefaultMaxOpenPerUser = 1024

// usage is what one user holds open: prepared statements and
// transactions, and the values bound to the prepared statements.
type usage struct {
	open  int
	bound int64
}

// admit counts a new prepared statement or transaction of u and, if it
// is admitted, runs register (when not nil) under s.mu.
func (s *Server) admit(u *user, register func()) error {
	s.mu.Lock()
	evicted, err := s.admitLocked(u)
	if err == nil && register != nil {
		register()
	}
	s.mu.Unlock()
	if evicted != nil {
		// Closing waits for the statement's lock, which a stream of its
		// rows holds until it ends: this call must not wait for that.
		go evicted.close()
	}
	return err
}

// admitLocked counts a new prepared statement or transaction of u. When u
// has MaxOpenPerUser open, it forgets u's least recently used prepared
// statement and returns it to be closed; with none to evict it refuses.
// s.mu is held.
func (s *Server) admitLocked(u *user) (evicted *prepared, err error) {
	if us := s.usage[u]; us != nil && us.open >= s.cfg.MaxOpenPerUser {
		if evicted = s.leastRecentlyUsedLocked(u); evicted == nil {
			return nil, status.Errorf(codes.ResourceExhausted, "fluss flightsql: user %q has %s open, the most allowed; end some first", u.name, plural.Count(us.open, "transaction"))
		}
		delete(s.prepared, evicted.handle)
		s.releaseLocked(u, evicted.bound)
	}
	us := s.usage[u] // releaseLocked drops a usage that reaches nothing
	if us == nil {
		us = &usage{}
		s.usage[u] = us
	}
	us.open++
	return evicted, nil
}

// leastRecentlyUsedLocked returns u's prepared statement used least
// recently, or nil when u has none. s.mu is held.
func (s *Server) leastRecentlyUsedLocked(u *user) *prepared {
	var lru *prepared
	for _, p := range s.prepared {
		if p.u == u && (lru == nil || p.used.Before(lru.used)) {
			lru = p
		}
	}
	return lru
}

// releaseLocked uncounts a prepared statement (holding bound values) or a
// transaction (bound 0) of u. s.mu is held.
func (s *Server) releaseLocked(u *user, bound int64) {
	us := s.usage[u]
	us.open--
	us.bound -= bound
	if us.open == 0 {
		delete(s.usage, u)
	}
}

// bind reads parameter rows for p within what its user may still bind,
// and keeps them as p's parameters unless there are none and keepEmpty is
// false (an update without parameters runs with those bound before).
func (s *Server) bind(p *prepared, rdr array.RecordReader, keepEmpty bool) error {
	s.mu.Lock()
	held, err := s.heldByOthersLocked(p)
	room := s.bindBudget - held
	s.mu.Unlock()
	if err != nil {
		return err
	}
	params, err := paramRows(rdr, p.nparams, min(maxParamValues, room))
	if errors.Is(err, errBindSize) {
		return status.Errorf(codes.ResourceExhausted, "%v (the user's other prepared statements hold %s)", err, plural.Count(held, "bound value"))
	}
	if err != nil {
		return status.Error(codes.InvalidArgument, err.Error())
	}
	if len(params) == 0 && !keepEmpty {
		return nil
	}
	n := int64(len(params)) * int64(p.nparams)
	s.mu.Lock()
	defer s.mu.Unlock()
	if held, err = s.heldByOthersLocked(p); err != nil {
		return err
	}
	if held+n > s.bindBudget {
		// Another bind of the user's took the room meanwhile.
		return status.Error(codes.ResourceExhausted, fmt.Sprintf("fluss flightsql: %v: %s to bind, the user's other prepared statements hold %d", errBindSize, plural.Count(n, "value"), held))
	}
	s.usage[p.u].bound += n - p.bound
	p.bound = n
	p.mu.Lock()
	p.params = params
	p.mu.Unlock()
	return nil
}

// heldByOthersLocked returns the values bound to the other prepared
// statements of p's user, or NotFound once p is closed (its user's usage
// may be gone with it). s.mu is held.
func (s *Server) heldByOthersLocked(p *prepared) (int64, error) {
	if s.prepared[p.handle] != p {
		return 0, status.Error(codes.NotFound, "fluss flightsql: the prepared statement was closed")
	}
	return s.usage[p.u].bound - p.bound, nil
}
