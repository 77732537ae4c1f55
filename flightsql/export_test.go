package flightsql

// ActiveCalls is the number of calls under way, for tests that check a
// cancelled stream ends on the server too.
func ActiveCalls(s *Server) int {
	n := 0
	for _, u := range s.users.all() {
		u.mu.Lock()
		n += u.active
		u.mu.Unlock()
	}
	return n
}

// PassedBatches is the number of log batches streamed undecoded.
func PassedBatches(s *Server) int64 { return s.passed.Load() }

// SetBindBudget sets the values one user's bound parameters may hold.
func SetBindBudget(s *Server, n int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bindBudget = n
}
