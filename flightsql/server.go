package flightsql

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow/flight"
	fsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"

	"github.com/gofluss/fluss/engine"
	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/parser"
	"github.com/gofluss/fluss/planner"
)

// DefaultCatalog is the catalog name reported when Config.Session.Catalog
// is empty (the name Flink's Fluss catalog has in the quickstart).
const DefaultCatalog = "fluss_catalog"

// DefaultIdleTimeout is how long a user's native client stays open without
// calls before it is closed (a later call opens it again), and how long a
// transaction may go without calls before it is rolled back.
const DefaultIdleTimeout = 10 * time.Minute

// writeBufferBytes is the size of a connection's gRPC write buffer (32
// KiB by default), which batches the frames of a message into one socket
// write.
const writeBufferBytes = 256 << 10

// Config configures a Server.
type Config struct {
	// Client is the native client configuration: bootstrap servers,
	// timeouts, TLS to the cluster. Its Username and Password are used
	// only for anonymous calls; authenticated calls replace them with the
	// caller's credentials.
	Client flussrpc.Config
	// Session is what every statement's session starts from: the current
	// database, options, the zone of timestamps. RejectTx refuses
	// BeginTransaction.
	Session engine.Config
	// AllowAnonymous lets calls without credentials through, running with
	// Client's own credentials (if any). Off by default.
	AllowAnonymous bool
	// TLS, when set, serves over TLS with this configuration.
	TLS *tls.Config
	// Logger receives connection and authentication events (never a
	// password); nil discards them.
	Logger *slog.Logger
	// IdleTimeout closes a user's native client after that long without
	// calls, forgets unfetched results that old and rolls back a
	// transaction without calls for that long; 0 means
	// DefaultIdleTimeout.
	IdleTimeout time.Duration
	// ScanEndpoints is how many endpoints, at most, the result of a log
	// scan in no particular order (no ORDER BY, LIMIT, OFFSET or
	// aggregate) is split into, each reading some of the table's buckets:
	// clients such as ADBC read the endpoints at once, decoding on several
	// cores. 0 means DefaultScanEndpoints(); 1 keeps one endpoint.
	ScanEndpoints int
	// MaxOpenPerUser is how many prepared statements and transactions
	// one user may keep open at once; one more closes the user's least
	// recently used prepared statement, or is refused with
	// RESOURCE_EXHAUSTED when all are transactions. It also bounds the
	// user's unfetched results (of statements run by GetFlightInfo): one
	// more drops the oldest. 0 means DefaultMaxOpenPerUser.
	MaxOpenPerUser int
	// GRPCOptions are more options of the gRPC server, applied after its
	// own: interceptors run after its authentication, for example those
	// of the otel module's GRPCServerOptions, which continue the callers'
	// traces.
	GRPCOptions []grpc.ServerOption
}

// DefaultScanEndpoints is the ScanEndpoints of a zero Config: one per two
// CPUs of this machine, from 1 to 4. On two cores one endpoint already
// keeps both busy (the server decoding, the client reading), and a split
// only adds the setup of each part; measured with make bench-peers, it
// cost the decoded ADBC scan about 10% there.
func DefaultScanEndpoints() int {
	return min(4, max(1, runtime.NumCPU()/2))
}

// Server is a Flight SQL server over a Fluss cluster. Create it with
// NewServer, run it with Serve and stop it with Close.
type Server struct {
	fsql.BaseServer

	cfg   Config
	log   *slog.Logger
	mem   memory.Allocator
	users *users
	grpc  *grpc.Server

	mu       sync.Mutex
	prepared map[string]*prepared
	txs      map[string]*transaction
	results  map[string]*result
	usage    map[*user]*usage
	pending  map[*user]int // unfetched results of each user
	// bindBudget is the values one user's bound parameters may hold in
	// all: maxParamValues, smaller in tests.
	bindBudget int64
	closeOnce  sync.Once
	done       chan struct{}

	// passed counts the log batches streamed undecoded, as Fluss stored
	// them, so that tests see the pass-through happen.
	passed atomic.Int64
}

// NewServer returns a server for cfg. Nothing is dialed until the first
// call; a wrong bootstrap address shows up as an error of that call.
func NewServer(cfg Config) (*Server, error) {
	if len(cfg.Client.Bootstrap) == 0 {
		return nil, errors.New("flightsql: the configuration has no bootstrap server")
	}
	if cfg.Session.Catalog == "" {
		cfg.Session.Catalog = DefaultCatalog
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = DefaultIdleTimeout
	}
	if cfg.MaxOpenPerUser <= 0 {
		cfg.MaxOpenPerUser = DefaultMaxOpenPerUser
	}
	if cfg.ScanEndpoints <= 0 {
		cfg.ScanEndpoints = DefaultScanEndpoints()
	}
	cfg.ScanEndpoints = min(cfg.ScanEndpoints, maxParts)
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{
		cfg:      cfg,
		log:      log,
		mem:      memory.DefaultAllocator,
		prepared: map[string]*prepared{},
		txs:      map[string]*transaction{},
		results:  map[string]*result{},
		usage:    map[*user]*usage{},
		pending:  map[*user]int{},
		done:     make(chan struct{}),

		bindBudget: maxParamValues,
	}
	s.BaseServer.Alloc = s.mem
	s.users = newUsers(cfg.Client, log)
	if err := s.registerSQLInfo(); err != nil {
		return nil, err
	}
	opts := []grpc.ServerOption{
		grpc.ChainUnaryInterceptor(s.unaryAuth),
		grpc.ChainStreamInterceptor(s.streamAuth),
		grpc.MaxRecvMsgSize(64 << 20),
		grpc.ForceServerCodecV2(newFlightCodec()),
		// Query results are megabytes: fewer, larger socket writes.
		grpc.WriteBufferSize(writeBufferBytes),
	}
	if cfg.TLS != nil {
		opts = append(opts, grpc.Creds(credentials.NewTLS(cfg.TLS)))
	}
	s.grpc = grpc.NewServer(append(opts, cfg.GRPCOptions...)...)
	flight.RegisterFlightServiceServer(s.grpc, flightService{FlightServer: fsql.NewFlightServerWithAllocator(s, s.mem), s: s})
	go s.janitor()
	return s, nil
}

// Serve accepts Flight SQL calls on l until Close; it returns nil after
// Close.
func (s *Server) Serve(l net.Listener) error {
	err := s.grpc.Serve(l)
	if errors.Is(err, grpc.ErrServerStopped) {
		return nil
	}
	return err
}

// Close stops the server: open calls are cancelled, prepared statements
// and open transactions are dropped, and every native client is closed.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		close(s.done)
		s.grpc.Stop()
		// Stop does not wait for the handlers: a stream may still hold a
		// session (and take s.mu) until it sees its call cancelled, so the
		// sessions are closed after s.mu is let go.
		s.mu.Lock()
		stmts, txs, results := s.prepared, s.txs, s.results
		s.prepared, s.txs, s.results = map[string]*prepared{}, map[string]*transaction{}, map[string]*result{}
		s.usage, s.pending = map[*user]*usage{}, map[*user]int{}
		s.mu.Unlock()
		for _, p := range stmts {
			p.close()
		}
		for _, t := range txs {
			t.abort()
		}
		for _, r := range results {
			r.release()
		}
		s.users.closeAll()
	})
	return nil
}

// janitor closes idle native clients, forgets stale results and rolls
// back idle transactions.
func (s *Server) janitor() {
	t := time.NewTicker(s.cfg.IdleTimeout / 4)
	defer t.Stop()
	for {
		select {
		case <-s.done:
			return
		case now := <-t.C:
			s.users.closeIdle(now.Add(-s.cfg.IdleTimeout), s.busyUsers())
			s.dropStaleResults(now.Add(-s.cfg.IdleTimeout))
			s.rollBackIdleTransactions(now.Add(-s.cfg.IdleTimeout))
		}
	}
}

// busyUsers are the users with open prepared statements or transactions,
// whose clients must stay open.
func (s *Server) busyUsers() map[*user]bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	busy := map[*user]bool{}
	for _, p := range s.prepared {
		busy[p.u] = true
	}
	for _, t := range s.txs {
		busy[t.u] = true
	}
	return busy
}

// newSession opens a statement session for the caller.
func (s *Server) newSession(ctx context.Context) (*user, *engine.Session, error) {
	u, err := userFrom(ctx)
	if err != nil {
		return nil, nil, err
	}
	_, cat, err := u.native(ctx)
	if err != nil {
		return nil, nil, statusOf(err)
	}
	cfg := s.cfg.Session
	cfg.User = u.name
	return u, engine.NewSession(cat, cfg), nil
}

// statusOf turns an error of the engine into a gRPC status with the code
// a client can act on. The message is the error's own text, which never
// carries a password.
func statusOf(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := status.FromError(err); ok {
		return err
	}
	var (
		perr *parser.Error
		plan *planner.Error
		ferr *engine.Error
	)
	switch {
	case errors.Is(err, context.Canceled):
		return status.Error(codes.Canceled, err.Error())
	case errors.Is(err, context.DeadlineExceeded):
		return status.Error(codes.DeadlineExceeded, err.Error())
	case errors.As(err, &perr), errors.As(err, &plan):
		return status.Error(codes.InvalidArgument, err.Error())
	case errors.Is(err, flussrpc.ErrAuthenticate):
		return status.Error(codes.Unauthenticated, err.Error())
	case errors.Is(err, flussrpc.ErrAuthorization):
		return status.Error(codes.PermissionDenied, err.Error())
	case errors.Is(err, flussrpc.ErrTableNotExist), errors.Is(err, flussrpc.ErrDatabaseNotExist):
		return status.Error(codes.NotFound, err.Error())
	case errors.Is(err, flussrpc.ErrTableAlreadyExist), errors.Is(err, flussrpc.ErrDatabaseAlreadyExist):
		return status.Error(codes.AlreadyExists, err.Error())
	case errors.As(err, &ferr):
		if ferr.Retriable {
			return status.Error(codes.Unavailable, err.Error())
		}
		return status.Error(codes.Internal, err.Error())
	}
	return status.Error(codes.InvalidArgument, err.Error())
}

// unimplemented is the answer to a command Fluss cannot serve.
func unimplemented(what string) error {
	return status.Error(codes.Unimplemented, fmt.Sprintf("fluss flightsql: %s is not supported", what))
}
