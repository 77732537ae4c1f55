package flussrpc

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
)

// saslPlain is the mechanism name sent in AuthenticateRequest.protocol.
const saslPlain = "PLAIN"

// Back-off for RETRIABLE_AUTHENTICATE_EXCEPTION. The Java client retries
// forever; we give up after authMaxAttempts so a dial cannot hang on a
// server whose authenticator never recovers. Variables so tests can shrink
// them.
var (
	authBackoffBase = 100 * time.Millisecond
	authBackoffMax  = 5 * time.Second
	authMaxAttempts = 8
)

// checkCredentials validates SASL settings before dialing, so a bad
// configuration fails fast instead of as an authentication error.
func checkCredentials(cfg ConnConfig) error {
	if cfg.Username == "" {
		if cfg.Password != "" {
			return errors.New("flussrpc: password given without a username")
		}
		return nil
	}
	if cfg.Password == "" {
		return errors.New("flussrpc: SASL/PLAIN needs a non-empty password")
	}
	if strings.ContainsRune(cfg.Username, 0) || strings.ContainsRune(cfg.Password, 0) {
		return errors.New("flussrpc: SASL/PLAIN username and password must not contain NUL")
	}
	return nil
}

// plainToken builds the RFC 4616 PLAIN message with an empty authorization
// id: 0x00 username 0x00 password. An empty authzid makes the server use
// the username, which is what every Fluss client sends.
func plainToken(username, password string) []byte {
	tok := make([]byte, 0, 2+len(username)+len(password))
	tok = append(tok, 0)
	tok = append(tok, username...)
	tok = append(tok, 0)
	tok = append(tok, password...)
	return tok
}

// authenticate performs the single-round SASL/PLAIN exchange. The server
// answers success with a present-but-empty challenge; nothing more is sent.
// AUTHENTICATE_EXCEPTION (46) is final; RETRIABLE_AUTHENTICATE_EXCEPTION
// (51) resends the same token after an exponential, jittered back-off.
func (c *conn) authenticate(ctx context.Context, username, password string) error {
	req := &pb.AuthenticateRequest{
		Protocol: proto.String(saslPlain),
		Token:    plainToken(username, password),
	}
	delay := authBackoffBase
	for attempt := 1; ; attempt++ {
		var resp pb.AuthenticateResponse
		err := rpcAuthenticate.call(ctx, c, req, &resp)
		if err == nil {
			if len(resp.GetChallenge()) != 0 {
				return fmt.Errorf("flussrpc: SASL/PLAIN on %s: unexpected %d-byte server challenge", c.addr, len(resp.GetChallenge()))
			}
			return nil
		}
		var fe *Error
		if !errors.As(err, &fe) || fe.Code != CodeRetriableAuthenticate || attempt >= authMaxAttempts {
			return err
		}
		if err := authSleep(ctx, jitter(delay)); err != nil {
			return c.contextError(APIKeyAuthenticate, err, false)
		}
		delay = min(2*delay, authBackoffMax)
	}
}

// jitter spreads d by +/-20% so that many connections retrying together do
// not hit the server in lock-step.
func jitter(d time.Duration) time.Duration {
	f := 0.8 + 0.4*rand.Float64()
	return time.Duration(float64(d) * f)
}

// authSleep sleeps for d or until ctx ends.
func authSleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
