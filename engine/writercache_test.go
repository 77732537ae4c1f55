package engine

import (
	"context"
	"testing"
	"time"
)

// TestWriterCacheMatchesTheSessionsWriters: the writer a write is handed
// without a map lookup (the last one, or the remembered one of its key)
// is always the session's current writer for that key. A writer leaves
// the session's writers only retired: closed with an older schema, or
// closed with the session.
func TestWriterCacheMatchesTheSessionsWriters(t *testing.T) {
	s, _ := fakeSession(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	exec := func(sql string) {
		t.Helper()
		if _, err := run(ctx, s, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	// consistent checks that exactly the writers no longer in the
	// session's map are retired.
	consistent := func(when string) {
		t.Helper()
		for _, w := range s.writerMemo {
			if in := s.writers[w.key] == w; w.retired == in {
				t.Errorf("%s: writer of %s retired %v but in the session's writers %v", when, w.key.path, w.retired, in)
			}
		}
	}
	exec("CREATE TABLE t (id INT, v STRING)")
	exec("CREATE TABLE u (id INT, v STRING)")
	exec("INSERT INTO t VALUES (1, 'a')")
	first := s.lastWriter
	exec("INSERT INTO t VALUES (2, 'b')")
	if s.lastWriter != first {
		t.Error("a second INSERT into t got another writer")
	}
	exec("INSERT INTO u VALUES (1, 'a')")
	exec("INSERT INTO t VALUES (3, 'c')")
	if s.lastWriter != first {
		t.Error("t's writer was not found again after a write to u")
	}
	consistent("after writes to two tables")
	// A table made anew gets a new writer; the old one is closed and
	// retired.
	exec("DROP TABLE t")
	exec("CREATE TABLE t (id INT, v STRING, w STRING)")
	exec("INSERT INTO t VALUES (4, 'd', 'x')")
	if s.lastWriter == first || !first.retired {
		t.Errorf("after the table was made anew: same writer %v, old one retired %v", s.lastWriter == first, first.retired)
	}
	consistent("after the table was made anew")
	last := s.lastWriter
	if err := s.closeWriters(); err != nil {
		t.Fatal(err)
	}
	if !last.retired {
		t.Error("closing the session's writers left the last one usable")
	}
	consistent("after closing the writers")
}
