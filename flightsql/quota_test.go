package flightsql

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/gofluss/fluss/flussrpc"
)

// TestBindOfAClosedStatementIsNotFound: a bind racing the statement's
// close (which may drop its user's usage) answers NotFound, before and
// after reading the parameters, and never counts its values.
func TestBindOfAClosedStatementIsNotFound(t *testing.T) {
	s, err := NewServer(Config{Client: flussrpc.Config{Bootstrap: []string{"127.0.0.1:1"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	u := &user{name: "u"}
	open := func() *prepared {
		p := &prepared{u: u, handle: newHandle(), nparams: 1}
		s.mu.Lock()
		defer s.mu.Unlock()
		if err := s.admitLocked(u); err != nil {
			t.Fatal(err)
		}
		s.prepared[p.handle] = p
		return p
	}
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

	p := open()
	closeP(p)
	if err := s.bind(p, params(nil), true); status.Code(err) != codes.NotFound {
		t.Errorf("bind after close: %v, want NotFound", err)
	}
	p = open()
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
