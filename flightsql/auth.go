package flightsql

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/gofluss/fluss/engine"
	"github.com/gofluss/fluss/flussrpc"
)

// authHeader is the gRPC metadata key of Flight's basic and bearer
// authentication (gRPC lower-cases keys).
const authHeader = "authorization"

// user is one credential known to the server: the Fluss user it
// authenticates as and the native client opened with it. The client is
// opened on demand and closed when idle; the password is kept (in cfg,
// which masks it when printed) to open the client again.
type user struct {
	name  string
	cfg   flussrpc.Config // the server's, with this user's credentials
	token string

	mu       sync.Mutex
	client   *flussrpc.Client
	cat      *engine.Catalog
	lastUsed time.Time
	active   int
}

// users maps credentials and bearer tokens to users.
type users struct {
	base flussrpc.Config
	log  *slog.Logger

	mu      sync.Mutex
	byCred  map[[32]byte]*user
	byToken map[string]*user
	anon    *user
}

func newUsers(base flussrpc.Config, log *slog.Logger) *users {
	return &users{
		base:    base,
		log:     log,
		byCred:  map[[32]byte]*user{},
		byToken: map[string]*user{},
		anon:    &user{name: base.Conn.Username, cfg: base},
	}
}

// credKey identifies a credential without keeping it readable as a map key.
func credKey(name, password string) [32]byte {
	return sha256.Sum256([]byte(name + "\x00" + password))
}

// login returns the user for a credential, checking it against Fluss
// (SASL/PLAIN) by opening its native client the first time.
func (us *users) login(ctx context.Context, name, password string) (*user, error) {
	if name == "" || password == "" {
		return nil, status.Error(codes.Unauthenticated, "fluss flightsql: user name and password are required")
	}
	key := credKey(name, password)
	us.mu.Lock()
	u := us.byCred[key]
	us.mu.Unlock()
	if u != nil {
		return u, nil
	}
	cfg := us.base
	cfg.Conn.Username, cfg.Conn.Password = name, password
	u = &user{name: name, cfg: cfg, token: newHandle()}
	if _, _, err := u.native(ctx); err != nil {
		us.log.Info("flightsql: authentication failed", "user", name)
		if errors.Is(err, flussrpc.ErrAuthenticate) {
			return nil, status.Errorf(codes.Unauthenticated, "fluss flightsql: authentication of user %q failed", name)
		}
		return nil, status.Errorf(codes.Unavailable, "fluss flightsql: cannot reach the cluster as user %q: %v", name, err)
	}
	us.mu.Lock()
	defer us.mu.Unlock()
	if old := us.byCred[key]; old != nil {
		// Another call logged in with the same credential meanwhile.
		go u.closeClient()
		return old, nil
	}
	us.byCred[key] = u
	us.byToken[u.token] = u
	us.log.Info("flightsql: user authenticated", "user", name)
	return u, nil
}

// byBearer returns the user a token was issued to.
func (us *users) byBearer(token string) (*user, bool) {
	us.mu.Lock()
	defer us.mu.Unlock()
	for t, u := range us.byToken {
		if subtle.ConstantTimeCompare([]byte(t), []byte(token)) == 1 {
			return u, true
		}
	}
	return nil, false
}

// all returns every user, the anonymous one included.
func (us *users) all() []*user {
	us.mu.Lock()
	defer us.mu.Unlock()
	out := make([]*user, 0, len(us.byCred)+1)
	out = append(out, us.anon)
	for _, u := range us.byCred {
		out = append(out, u)
	}
	return out
}

// closeIdle closes the clients of users unused since before and not busy.
func (us *users) closeIdle(before time.Time, busy map[*user]bool) {
	for _, u := range us.all() {
		if busy[u] {
			continue
		}
		u.mu.Lock()
		idle := u.client != nil && u.active == 0 && u.lastUsed.Before(before)
		u.mu.Unlock()
		if idle {
			u.closeClient()
		}
	}
}

// closeAll closes every client.
func (us *users) closeAll() {
	for _, u := range us.all() {
		u.closeClient()
	}
}

// native returns the user's client and catalog, opening the client when
// it is not open.
func (u *user) native(ctx context.Context) (*flussrpc.Client, *engine.Catalog, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.lastUsed = time.Now()
	if u.cat != nil {
		return u.client, u.cat, nil
	}
	// The client outlives the call that opens it.
	client, err := flussrpc.NewClient(context.WithoutCancel(ctx), u.cfg)
	if err != nil {
		return nil, nil, err
	}
	u.client, u.cat = client, engine.NewCatalog(client)
	return u.client, u.cat, nil
}

// begin and end bracket a call, so that an idle check never closes the
// client under it.
func (u *user) begin() {
	u.mu.Lock()
	u.active++
	u.lastUsed = time.Now()
	u.mu.Unlock()
}

func (u *user) end() {
	u.mu.Lock()
	u.active--
	u.lastUsed = time.Now()
	u.mu.Unlock()
}

func (u *user) closeClient() {
	u.mu.Lock()
	c := u.client
	u.client, u.cat = nil, nil
	u.mu.Unlock()
	if c != nil {
		_ = c.Close()
	}
}

// userKey carries the authenticated user of a call.
type userKey struct{}

// userFrom returns the user of an authenticated call.
func userFrom(ctx context.Context) (*user, error) {
	if u, ok := ctx.Value(userKey{}).(*user); ok {
		return u, nil
	}
	return nil, status.Error(codes.Unauthenticated, "fluss flightsql: the call is not authenticated")
}

// authenticate finds the caller of a call from its authorization header:
// Basic credentials are checked against Fluss and answered with a bearer
// token (in the response header, as Flight clients expect after the
// handshake); a Bearer token must be one this server issued; no header
// is the anonymous user when allowed.
func (s *Server) authenticate(ctx context.Context, setHeader func(metadata.MD) error) (context.Context, *user, error) {
	var auth string
	if md, ok := metadata.FromIncomingContext(ctx); ok {
		if v := md.Get(authHeader); len(v) > 0 {
			auth = strings.TrimSpace(v[0])
		}
	}
	scheme, cred, _ := strings.Cut(auth, " ")
	cred = strings.TrimSpace(cred)
	var u *user
	switch {
	case auth == "":
		if !s.cfg.AllowAnonymous {
			return nil, nil, status.Error(codes.Unauthenticated, "fluss flightsql: credentials required (basic authentication with a Fluss user)")
		}
		u = s.users.anon
	case strings.EqualFold(scheme, "basic"):
		name, password, err := decodeBasic(cred)
		if err != nil {
			return nil, nil, err
		}
		if u, err = s.users.login(ctx, name, password); err != nil {
			return nil, nil, err
		}
		if err := setHeader(metadata.Pairs(authHeader, "Bearer "+u.token)); err != nil {
			s.log.Debug("flightsql: cannot send the bearer token", "err", err)
		}
	case strings.EqualFold(scheme, "bearer"):
		var ok bool
		if u, ok = s.users.byBearer(cred); !ok {
			return nil, nil, status.Error(codes.Unauthenticated, "fluss flightsql: unknown bearer token; authenticate again")
		}
	default:
		return nil, nil, status.Errorf(codes.Unauthenticated, "fluss flightsql: authorization scheme %q is not supported (use Basic)", scheme)
	}
	return context.WithValue(ctx, userKey{}, u), u, nil
}

// decodeBasic decodes "user:password" in base64 (padded or not).
func decodeBasic(cred string) (name, password string, err error) {
	raw, err := base64.StdEncoding.DecodeString(cred)
	if err != nil {
		raw, err = base64.RawStdEncoding.DecodeString(cred)
	}
	if err != nil {
		return "", "", status.Error(codes.Unauthenticated, "fluss flightsql: basic credentials are not valid base64")
	}
	name, password, ok := strings.Cut(string(raw), ":")
	if !ok {
		return "", "", status.Error(codes.Unauthenticated, "fluss flightsql: basic credentials lack the ':' between user and password")
	}
	return name, password, nil
}

func (s *Server) unaryAuth(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	ctx, u, err := s.authenticate(ctx, func(md metadata.MD) error { return grpc.SetHeader(ctx, md) })
	if err != nil {
		return nil, err
	}
	u.begin()
	defer u.end()
	return handler(ctx, req)
}

func (s *Server) streamAuth(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	ctx, u, err := s.authenticate(ss.Context(), ss.SetHeader)
	if err != nil {
		return err
	}
	u.begin()
	defer u.end()
	return handler(srv, &authedStream{ServerStream: ss, ctx: ctx})
}

// authedStream is a server stream whose context carries the user.
type authedStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (a *authedStream) Context() context.Context { return a.ctx }

// newHandle returns a random opaque handle (tokens, statement handles).
func newHandle() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
