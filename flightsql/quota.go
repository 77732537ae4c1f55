package flightsql

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/array"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Prepared statements and transactions live until their client closes
// them, which a crashed notebook or a leaking connection pool never does;
// and each prepared statement keeps its last bound parameters. So every
// user may keep Config.MaxOpenPerUser of them open, and the parameters
// bound to them hold at most maxParamValues values in all.

// DefaultMaxOpenPerUser is the MaxOpenPerUser of a zero Config.
const DefaultMaxOpenPerUser = 1024

// usage is what one user holds open: prepared statements and
// transactions, and the values bound to the prepared statements.
type usage struct {
	open  int
	bound int64
}

// admitLocked counts a new prepared statement or transaction of u, or
// refuses it when u has MaxOpenPerUser open. s.mu is held.
func (s *Server) admitLocked(u *user) error {
	us := s.usage[u]
	if us == nil {
		us = &usage{}
		s.usage[u] = us
	}
	if us.open >= s.cfg.MaxOpenPerUser {
		return status.Errorf(codes.ResourceExhausted, "fluss flightsql: user %q has %d prepared statements and transactions open, the most allowed; close some first", u.name, us.open)
	}
	us.open++
	return nil
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
		return status.Errorf(codes.ResourceExhausted, "%v (the user's other prepared statements hold %d bound values)", err, held)
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
		return status.Error(codes.ResourceExhausted, fmt.Sprintf("fluss flightsql: %v: %d values to bind, the user's other prepared statements hold %d", errBindSize, n, held))
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
