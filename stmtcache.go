package fluss

// The statements of unprepared calls (db.Exec, db.Query, db.QueryRow) are
// kept per session by their SQL text, so that running the same text again
// skips parsing and, while the session and the tables stay the same,
// planning: an ORM or a service repeats a handful of texts with different
// arguments, and parse plus plan cost more than a point lookup itself.
// A cached statement is a prepared one, so it is planned again exactly when
// a prepared statement would be (USE, SET, RESET, DDL, a table changed).

const (
	// stmtCacheSize bounds the statements a session keeps.
	stmtCacheSize = 256
	// stmtCacheMaxText is the longest SQL text kept: longer texts are
	// mostly literal rows of bulk INSERTs, which are rarely repeated.
	stmtCacheMaxText = 4 << 10
)

// stmtCache maps SQL text to its statement. The zero value is ready; a
// session uses it from one goroutine at a time.
type stmtCache struct {
	byText map[string]*stmt
	// last is the statement of the session's last call, found without
	// hashing its text when the next call repeats it (a service's hot
	// loop; the same string constant compares by pointer).
	lastText string
	last     *stmt
}

// cachedStmt returns the statement of query from the cache, parsing and keeping it when
// there is none.
func (c *session) cachedStmt(query string) (*stmt, error) {
	sc := &c.stmts
	if sc.last != nil && query == sc.lastText {
		return sc.last, nil
	}
	st := sc.byText[query]
	if st == nil {
		var err error
		if st, err = c.prepare(query); err != nil || len(query) > stmtCacheMaxText {
			return st, err
		}
		sc.add(query, st)
	}
	sc.lastText, sc.last = query, st
	return st, nil
}

// add keeps st under query, forgetting another statement when the cache
// is full.
func (sc *stmtCache) add(query string, st *stmt) {
	if len(sc.byText) >= stmtCacheSize {
		// Forget an arbitrary entry: map order is random enough that a
		// working set smaller than the cache stays in it.
		for k := range sc.byText {
			delete(sc.byText, k)
			break
		}
	}
	if sc.byText == nil {
		sc.byText = make(map[string]*stmt, 16)
	}
	sc.byText[query] = st
}
