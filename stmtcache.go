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
type stmtCache map[string]*stmt

// cachedStmt returns the statement of query from the cache, parsing and keeping it when
// there is none.
func (c *session) cachedStmt(query string) (*stmt, error) {
	if st := c.stmts[query]; st != nil {
		return st, nil
	}
	st, err := c.prepare(query)
	if err != nil || len(query) > stmtCacheMaxText {
		return st, err
	}
	if len(c.stmts) >= stmtCacheSize {
		// Forget an arbitrary entry: map order is random enough that a
		// working set smaller than the cache stays in it.
		for k := range c.stmts {
			delete(c.stmts, k)
			break
		}
	}
	if c.stmts == nil {
		c.stmts = make(stmtCache, 16)
	}
	c.stmts[query] = st
	return st, nil
}
