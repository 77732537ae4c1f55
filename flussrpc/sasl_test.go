package flussrpc

import (
	"bytes"
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc/pb"
	"github.com/gofluss/fluss/internal/fakefluss"
)

func TestPlainToken(t *testing.T) {
	tests := []struct {
		user, pass string
		want       []byte
	}{
		{"admin", "secret", []byte("\x00admin\x00secret")},
		{"u", "p", []byte{0, 'u', 0, 'p'}},
		{"ünï", "pä$$", append(append([]byte{0}, "ünï"...), append([]byte{0}, "pä$$"...)...)},
	}
	for _, tt := range tests {
		if got := plainToken(tt.user, tt.pass); !bytes.Equal(got, tt.want) {
			t.Errorf("plainToken(%q, %q) = %q, want %q", tt.user, tt.pass, got, tt.want)
		}
	}
}

func TestCheckCredentials(t *testing.T) {
	tests := []struct {
		user, pass string
		ok         bool
	}{
		{"", "", true},
		{"u", "p", true},
		{"u", "", false},
		{"", "p", false},
		{"u\x00x", "p", false},
		{"u", "p\x00", false},
	}
	for _, tt := range tests {
		err := checkCredentials(ConnConfig{Username: tt.user, Password: tt.pass})
		if (err == nil) != tt.ok {
			t.Errorf("checkCredentials(%q, %q) = %v", tt.user, tt.pass, err)
		}
	}
}

// saslServer starts a fake server whose AUTHENTICATE handler answers with
// the codes in script, one per attempt (0 = success), recording tokens.
func saslServer(t *testing.T, script ...int32) (*fakefluss.Server, *atomic.Int32, chan []byte) {
	t.Helper()
	var attempts atomic.Int32
	tokens := make(chan []byte, 16)
	s := newFakeServerWith(t, fakefluss.Config{
		Auth: func(r fakefluss.Request) {
			var req pb.AuthenticateRequest
			if err := r.Decode(&req); err != nil || req.GetProtocol() != "PLAIN" {
				t.Errorf("bad AUTHENTICATE request: %v %q", err, req.GetProtocol())
			}
			tokens <- req.GetToken()
			n := int(attempts.Add(1)) - 1
			code := int32(0)
			if n < len(script) {
				code = script[n]
			}
			if code != 0 {
				r.ReplyError(code, "auth says no")
				return
			}
			// Success carries a present but empty challenge.
			r.Reply(&pb.AuthenticateResponse{Challenge: []byte{}})
		},
	}, APIKeyAuthenticate, APIKeyGetTableInfo)
	return s, &attempts, tokens
}

func TestSASLPlainSuccess(t *testing.T) {
	s, attempts, tokens := saslServer(t)
	c := dialTest(t, s, ConnConfig{Username: "alice", Password: "pw"})
	if got := <-tokens; !bytes.Equal(got, []byte("\x00alice\x00pw")) {
		t.Errorf("token = %q", got)
	}
	if attempts.Load() != 1 {
		t.Errorf("%d AUTHENTICATE requests, want exactly 1", attempts.Load())
	}
	// The connection is usable afterwards.
	done := make(chan error, 1)
	go func() {
		var resp pb.GetTableInfoResponse
		done <- c.call(context.Background(), APIKeyGetTableInfo, tableInfoReq("t"), &resp)
	}()
	r := s.Next()
	r.Reply(tableInfoResp(1))
	if err := waitErr(t, done); err != nil {
		t.Fatal(err)
	}
}

func shrinkAuthBackoff(t *testing.T, attempts int) {
	oldBase, oldMax, oldAttempts := authBackoffBase, authBackoffMax, authMaxAttempts
	authBackoffBase, authBackoffMax, authMaxAttempts = time.Millisecond, 4*time.Millisecond, attempts
	t.Cleanup(func() { authBackoffBase, authBackoffMax, authMaxAttempts = oldBase, oldMax, oldAttempts })
}

func TestSASLRetriableThenSuccess(t *testing.T) {
	shrinkAuthBackoff(t, 5)
	s, attempts, _ := saslServer(t, 51, 51)
	dialTest(t, s, ConnConfig{Username: "alice", Password: "pw"})
	if attempts.Load() != 3 {
		t.Errorf("%d attempts, want 3", attempts.Load())
	}
}

func TestSASLRetriableGivesUp(t *testing.T) {
	shrinkAuthBackoff(t, 3)
	s, attempts, _ := saslServer(t, 51, 51, 51, 51, 51)
	_, err := dialConn(context.Background(), s.Addr(), ConnConfig{Username: "a", Password: "b"}, nil)
	if !errors.Is(err, ErrRetriableAuthenticate) {
		t.Fatalf("err = %v, want RETRIABLE_AUTHENTICATE_EXCEPTION", err)
	}
	if attempts.Load() != 3 {
		t.Errorf("%d attempts, want 3", attempts.Load())
	}
}

func TestSASLFatal(t *testing.T) {
	shrinkAuthBackoff(t, 5)
	s, attempts, _ := saslServer(t, 46)
	_, err := dialConn(context.Background(), s.Addr(), ConnConfig{Username: "a", Password: "wrong"}, nil)
	if !errors.Is(err, ErrAuthenticate) {
		t.Fatalf("err = %v, want AUTHENTICATE_EXCEPTION", err)
	}
	if SafeToRetry(err) {
		t.Error("bad credentials must not look retryable")
	}
	if attempts.Load() != 1 {
		t.Errorf("%d attempts, want 1 (46 is fatal)", attempts.Load())
	}
}

func TestSASLNotAdvertised(t *testing.T) {
	s := newFakeServer(t, APIKeyGetTableInfo) // no AUTHENTICATE listed
	_, err := dialConn(context.Background(), s.Addr(), ConnConfig{Username: "a", Password: "b"}, nil)
	if !errors.Is(err, ErrAPINotAdvertised) {
		t.Fatalf("err = %v, want ErrAPINotAdvertised", err)
	}
}

func TestSASLUnexpectedChallenge(t *testing.T) {
	s := newFakeServerWith(t, fakefluss.Config{
		Auth: func(r fakefluss.Request) {
			r.Reply(&pb.AuthenticateResponse{Challenge: []byte("more?")})
		},
	}, APIKeyAuthenticate)
	if _, err := dialConn(context.Background(), s.Addr(), ConnConfig{Username: "a", Password: "b"}, nil); err == nil {
		t.Fatal("a non-empty PLAIN challenge was accepted")
	}
}
