package flightsql

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	fsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	pb "github.com/apache/arrow-go/v18/arrow/flight/gen/flight"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/gofluss/fluss/engine"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/parser"
	"github.com/gofluss/fluss/planner"
)

// lease is a session lent to one call: release gives it back (closing a
// one-off session, unlocking a shared one).
type lease struct {
	u       *user
	s       *engine.Session
	release func()
}

// transaction is a client-side write batch of the driver: writes are held
// until commit. Its session serves every statement of the transaction, one
// at a time.
type transaction struct {
	u       *user
	session sessionLock // held by the call using sess
	sess    *engine.Session
	tx      driver.Tx
	cancel  context.CancelFunc
	ended   bool // committed or rolled back, its session closed; guarded by session
	// calls counts the calls holding or waiting for the session, and
	// idleSince (Unix nanoseconds) is when the last one ended or the
	// transaction began: the janitor rolls back a transaction without
	// calls for Config.IdleTimeout (rollBackIdleTransactions).
	calls     atomic.Int32
	idleSince atomic.Int64
}

// errTxEnded refuses a statement prepared inside a transaction that has
// ended: running it outside would write immediately while the client may
// believe it is in a new transaction (ADBC keeps a cursor's prepared
// statement across commits).
var errTxEnded = status.Error(codes.FailedPrecondition,
	"fluss flightsql: the transaction this statement was prepared in has ended; prepare it again")

// lock takes the transaction's session for one call.
func (t *transaction) lock(ctx context.Context) (lease, error) {
	t.calls.Add(1)
	if err := t.session.lock(ctx); err != nil {
		t.callEnded()
		return lease{}, err
	}
	if t.ended {
		t.session.unlock()
		t.callEnded()
		return lease{}, errTxEnded
	}
	return lease{u: t.u, s: t.sess, release: func() {
		t.session.unlock()
		t.callEnded()
	}}, nil
}

// callEnded ends a call of lock: the transaction is idle from now on
// unless another call holds it.
func (t *transaction) callEnded() {
	// Stamped before the count drops, so that the janitor never sees a
	// call-free transaction with the stamp of an earlier call.
	t.idleSince.Store(time.Now().UnixNano())
	t.calls.Add(-1)
}

// abort drops the batch without writing it, once no call uses the
// session.
func (t *transaction) abort() {
	_ = t.session.lock(context.Background())
	defer t.session.unlock()
	t.ended = true
	t.sess.DropBatch()
	_ = t.sess.Close()
	t.cancel()
}

// prepared is a prepared statement: its session (the transaction's, or
// one of its own) and the parameter rows bound last.
type prepared struct {
	u       *user
	handle  string
	text    string
	nparams int       // placeholders of the statement
	bound   int64     // values in params; guarded by Server.mu
	used    time.Time // last call with the handle; guarded by Server.mu
	query   bool
	schema  *arrow.Schema
	tx      *transaction

	session sessionLock     // held by the call using sess
	sess    *engine.Session // nil inside a transaction

	mu     sync.Mutex // guards params and done; never held across a call
	params [][]driver.NamedValue
	done   *result // the outcome of a non-query run through the query path
}

// lease takes the statement's session (its transaction's) for one call.
func (p *prepared) lease(ctx context.Context) (lease, error) {
	if p.tx != nil {
		return p.tx.lock(ctx)
	}
	if err := p.session.lock(ctx); err != nil {
		return lease{}, err
	}
	return lease{u: p.u, s: p.sess, release: p.session.unlock}, nil
}

// close closes the statement's session once no call uses it.
func (p *prepared) close() {
	_ = p.session.lock(context.Background())
	if p.sess != nil {
		_ = p.sess.Close()
	}
	p.session.unlock()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done != nil {
		p.done.release()
		p.done = nil
	}
}

// session lends the caller a session: the transaction's when txID names
// one, else a new one.
func (s *Server) session(ctx context.Context, txID []byte) (lease, error) {
	if len(txID) == 0 {
		u, sess, err := s.newSession(ctx)
		if err != nil {
			return lease{}, err
		}
		return lease{u: u, s: sess, release: func() { _ = sess.Close() }}, nil
	}
	t, err := s.transaction(ctx, txID)
	if err != nil {
		return lease{}, err
	}
	return t.lock(ctx)
}

func (s *Server) transaction(ctx context.Context, id []byte) (*transaction, error) {
	return owned(ctx, s, s.txs, id, s.unknownTx())
}

// unknownTx says why a transaction handle may be unknown.
func (s *Server) unknownTx() string {
	return fmt.Sprintf("unknown transaction (ended, rolled back after %s without calls, or never begun by this user)", s.cfg.IdleTimeout)
}

func (t *transaction) owner() *user { return t.u }
func (p *prepared) owner() *user    { return p.u }

// owned returns the entry of a handle if it belongs to the caller: one
// user never reaches another's statements or transactions.
func owned[T interface{ owner() *user }](ctx context.Context, s *Server, m map[string]T, h []byte, unknown string) (T, error) {
	var none T
	u, err := userFrom(ctx)
	if err != nil {
		return none, err
	}
	s.mu.Lock()
	v, ok := m[string(h)]
	s.mu.Unlock()
	if !ok || v.owner() != u {
		return none, status.Error(codes.NotFound, "fluss flightsql: "+unknown)
	}
	return v, nil
}

// parseOne parses a statement; a Flight SQL command carries exactly one.
func parseOne(query string) (parser.Statement, error) {
	stmts, err := parser.ParseScript(query)
	if err != nil {
		return nil, err
	}
	if len(stmts) != 1 {
		return nil, fmt.Errorf("fluss flightsql: a command takes exactly one statement, got %d", len(stmts))
	}
	return stmts[0], nil
}

// resultSchema plans a statement and returns the Arrow schema of its rows,
// or nil when it is not a query (DDL, writes, SHOW ...).
func resultSchema(ctx context.Context, pr *engine.Prepared) (*arrow.Schema, error) {
	p, err := pr.Plan(ctx)
	if err != nil {
		return nil, err
	}
	qp, ok := p.(planner.QueryPlan)
	if !ok {
		return nil, nil
	}
	out := qp.OutputColumns()
	cols := make([]schema.Column, len(out))
	for i, c := range out {
		cols[i] = schema.Column{Name: c.Name, Type: c.Type}
	}
	return clientSchema(cols)
}

// flightInfo describes a result of schema sc fetched with tickets, one
// endpoint each; several endpoints hold parts of the result in no
// particular order (Ordered false), which clients may read at once.
func (s *Server) flightInfo(desc *flight.FlightDescriptor, sc *arrow.Schema, tickets ...[]byte) *flight.FlightInfo {
	eps := make([]*flight.FlightEndpoint, len(tickets))
	for i, t := range tickets {
		eps[i] = &flight.FlightEndpoint{Ticket: &flight.Ticket{Ticket: t}}
	}
	return &flight.FlightInfo{
		Schema:           flight.SerializeSchema(sc, s.mem),
		FlightDescriptor: desc,
		Endpoint:         eps,
		TotalRecords:     -1,
		TotalBytes:       -1,
	}
}

// plan parses and plans a statement in the caller's session and returns
// the Arrow schema of its rows (nil when it is not a query); the caller
// releases the lease.
func (s *Server) plan(ctx context.Context, cmd fsql.StatementQuery) (lease, *engine.Prepared, *arrow.Schema, error) {
	st, err := parseOne(cmd.GetQuery())
	if err != nil {
		return lease{}, nil, nil, statusOf(err)
	}
	l, err := s.session(ctx, cmd.GetTransactionId())
	if err != nil {
		return lease{}, nil, nil, err
	}
	pr := l.s.Prepare(st)
	sc, err := resultSchema(ctx, pr)
	if err != nil {
		l.release()
		return lease{}, nil, nil, statusOf(err)
	}
	return l, pr, sc, nil
}

// GetFlightInfoStatement plans a query and returns the ticket that runs
// it; a statement that is not a query runs here, and its ticket fetches
// its rows (none for DDL and writes).
func (s *Server) GetFlightInfoStatement(ctx context.Context, cmd fsql.StatementQuery, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	l, pr, sc, err := s.plan(ctx, cmd)
	if err != nil {
		return nil, err
	}
	defer l.release()
	var handles [][]byte
	if sc != nil {
		txID := cmd.GetTransactionId()
		parts, err := s.scanParts(ctx, pr, len(txID) == 0)
		if err != nil {
			return nil, err
		}
		handles = partHandles(parts, func(sp engine.Split) []byte { return queryTicket(txID, cmd.GetQuery(), sp) })
	} else {
		res, err := s.execute(ctx, l, pr, [][]driver.NamedValue{nil})
		if err != nil {
			return nil, statusOf(err)
		}
		sc = res.schema()
		handles = [][]byte{resultTicket(s.keepResult(res))}
	}
	tickets := make([][]byte, len(handles))
	for i, h := range handles {
		if tickets[i], err = fsql.CreateStatementQueryTicket(h); err != nil {
			return nil, status.Error(codes.Internal, err.Error())
		}
	}
	return s.flightInfo(desc, sc, tickets...), nil
}

// scanParts is how many endpoints the result of pr comes in: one, unless
// it may be split (outside a transaction, whose session one stream holds
// at a time) and engine.Prepared.ScanParts allows more.
func (s *Server) scanParts(ctx context.Context, pr *engine.Prepared, may bool) (int, error) {
	if !may {
		return 1, nil
	}
	n, err := pr.ScanParts(ctx, s.cfg.ScanEndpoints)
	if err != nil {
		return 0, statusOf(err)
	}
	return n, nil
}

// GetSchemaStatement returns the schema of a query's rows without running
// it (an empty schema for other statements).
func (s *Server) GetSchemaStatement(ctx context.Context, cmd fsql.StatementQuery, _ *flight.FlightDescriptor) (*flight.SchemaResult, error) {
	l, _, sc, err := s.plan(ctx, cmd)
	if err != nil {
		return nil, err
	}
	l.release()
	if sc == nil {
		sc = arrow.NewSchema(nil, nil)
	}
	return &flight.SchemaResult{Schema: flight.SerializeSchema(sc, s.mem)}, nil
}

// streamStatement streams the rows of a statement ticket.
func (s *Server) streamStatement(ctx context.Context, ticket fsql.StatementQueryTicket) (*arrow.Schema, <-chan chunk, error) {
	t, err := parseTicket(ticket.GetStatementHandle())
	if err != nil {
		return nil, nil, status.Error(codes.InvalidArgument, err.Error())
	}
	if t.result != "" {
		res, err := s.takeResult(ctx, t.result)
		if err != nil {
			return nil, nil, err
		}
		return s.streamResult(res)
	}
	l, err := s.session(ctx, t.txID)
	if err != nil {
		return nil, nil, err
	}
	return s.streamQuery(ctx, l, t.query, [][]driver.NamedValue{nil}, t.part)
}

// streamQuery runs query once per argument row and streams the records
// of every run (of its part part, see engine.Split), one schema for all;
// the lease is released when the stream ends. Records go out as the scan produces them; when the client
// goes away (ctx ends) the scan stops. Log batches that need no decoding
// go out as they are (see PassIPC), in the compressions the call accepts.
func (s *Server) streamQuery(ctx context.Context, l lease, query string, runs [][]driver.NamedValue, part engine.Split) (*arrow.Schema, <-chan chunk, error) {
	opts, err := ipcOptions(ctx)
	if err != nil {
		l.release()
		return nil, nil, err
	}
	first, err := l.s.QueryArrowSplit(ctx, query, runs[0], part)
	if err != nil {
		l.release()
		return nil, nil, statusOf(err)
	}
	sc, err := clientSchema(first.Columns())
	if err != nil {
		first.Release()
		l.release()
		return nil, nil, statusOf(err)
	}
	ch := make(chan chunk, 2)
	go func() {
		defer close(ch)
		defer l.release()
		rdr := first
		for i := 0; ; {
			rdr.PassIPC(opts)
			ok := s.sendAll(ctx, ch, rdr)
			rdr.Release()
			if i++; !ok || i == len(runs) {
				return
			}
			if rdr, err = l.s.QueryArrowSplit(ctx, query, runs[i], part); err != nil {
				send(ctx, ch, chunk{err: statusOf(err)})
				return
			}
		}
	}()
	return sc, ch, nil
}

// sendAll sends the records of rdr, cut into messages, and its log
// batches' own messages, then its error; false when the stream must end.
func (s *Server) sendAll(ctx context.Context, ch chan<- chunk, rdr *engine.ArrowReader) bool {
	m := &messages{mem: s.mem}
	defer m.release()
	emit := func(out []arrow.RecordBatch, err error) bool {
		for i, rec := range out {
			if !send(ctx, ch, chunk{rec: rec}) {
				for _, r := range out[i:] {
					r.Release()
				}
				return false
			}
		}
		if err != nil {
			send(ctx, ch, chunk{err: status.Error(codes.Internal, err.Error())})
			return false
		}
		return true
	}
	for rdr.Next() {
		if msg := rdr.IPC(); msg != nil {
			// Records gathered so far go first: they may hold earlier
			// rows of the same bucket.
			if !emit(nonNil(m.flush())) || !send(ctx, ch, chunk{msg: msg}) {
				return false
			}
			s.passed.Add(1)
			continue
		}
		if !emit(m.add(rdr.RecordBatch())) {
			return false
		}
	}
	if err := rdr.Err(); err != nil {
		send(ctx, ch, chunk{err: statusOf(err)})
		return false
	}
	return emit(nonNil(m.flush()))
}

// send hands a chunk to streamChunks unless the call ended.
func send(ctx context.Context, ch chan<- chunk, c chunk) bool {
	select {
	case ch <- c:
		return true
	case <-ctx.Done():
		return false
	}
}

// execute runs a statement that is not streamed, once per argument row,
// and returns its rows (of the last run) or nothing.
func (s *Server) execute(ctx context.Context, l lease, pr *engine.Prepared, runs [][]driver.NamedValue) (*result, error) {
	res := &result{u: l.u}
	for _, args := range runs {
		rows, n, err := pr.Run(ctx, args)
		if err != nil {
			return nil, engine.WrapError(err, pr.Text())
		}
		res.count += n
		if rows == nil {
			continue
		}
		rec, err := rowsToRecord(s.mem, rows)
		_ = rows.Close()
		if err != nil {
			return nil, err
		}
		res.release()
		res.rec = rec
	}
	return res, nil
}

// DoPutCommandStatementUpdate runs a statement and returns the number of
// rows the cluster acknowledged (0 for DDL).
func (s *Server) DoPutCommandStatementUpdate(ctx context.Context, cmd fsql.StatementUpdate) (int64, error) {
	st, err := parseOne(cmd.GetQuery())
	if err != nil {
		return 0, statusOf(err)
	}
	l, err := s.session(ctx, cmd.GetTransactionId())
	if err != nil {
		return 0, err
	}
	defer l.release()
	res, err := s.execute(ctx, l, l.s.Prepare(st), [][]driver.NamedValue{nil})
	if err != nil {
		return 0, statusOf(err)
	}
	res.release()
	return res.count, nil
}

// CreatePreparedStatement parses and plans a statement and keeps it with
// a session of its own (or the transaction's).
func (s *Server) CreatePreparedStatement(ctx context.Context, req fsql.ActionCreatePreparedStatementRequest) (fsql.ActionCreatePreparedStatementResult, error) {
	var none fsql.ActionCreatePreparedStatementResult
	st, err := parseOne(req.GetQuery())
	if err != nil {
		return none, statusOf(err)
	}
	p := &prepared{text: req.GetQuery(), nparams: st.NumParams()}
	var l lease
	if id := req.GetTransactionId(); len(id) > 0 {
		if p.tx, err = s.transaction(ctx, id); err != nil {
			return none, err
		}
		p.u = p.tx.u
	} else if p.u, p.sess, err = s.newSession(ctx); err != nil {
		return none, err
	}
	if l, err = p.lease(ctx); err != nil {
		return none, err
	}
	pr := l.s.Prepare(st)
	sc, err := resultSchema(ctx, pr)
	var params *arrow.Schema
	if err == nil {
		var pl planner.Plan
		pl, err = pr.Plan(ctx) // kept by resultSchema: no second planning
		params = parameterSchema(pl)
	}
	l.release()
	if err != nil {
		p.close()
		return none, statusOf(err)
	}
	p.query, p.schema = sc != nil, sc
	if sc == nil {
		sc = arrow.NewSchema(nil, nil)
	}
	p.handle, p.used = newHandle(), time.Now()
	if err := s.admit(p.u, func() { s.prepared[p.handle] = p }); err != nil {
		p.close()
		return none, err
	}
	isUpdate := !p.query
	return fsql.ActionCreatePreparedStatementResult{
		Handle:          []byte(p.handle),
		DatasetSchema:   sc,
		ParameterSchema: params,
		IsUpdate:        &isUpdate,
	}, nil
}

// preparedFor returns the caller's prepared statement of handle and marks
// it used.
func (s *Server) preparedFor(ctx context.Context, handle []byte) (*prepared, error) {
	p, err := owned(ctx, s, s.prepared, handle, "unknown prepared statement (closed, evicted as the least recently used of too many open, or prepared by another user)")
	if err == nil {
		s.mu.Lock()
		p.used = time.Now()
		s.mu.Unlock()
	}
	return p, err
}

// ClosePreparedStatement forgets a prepared statement.
func (s *Server) ClosePreparedStatement(ctx context.Context, req fsql.ActionClosePreparedStatementRequest) error {
	p, err := s.preparedFor(ctx, req.GetPreparedStatementHandle())
	if err != nil {
		return err
	}
	s.mu.Lock()
	if s.prepared[p.handle] == p { // not closed by a concurrent call
		delete(s.prepared, p.handle)
		s.releaseLocked(p.u, p.bound)
	}
	s.mu.Unlock()
	// A stream of the statement's rows holds it until the stream ends;
	// the session closes then, without this call waiting for it.
	go p.close()
	return nil
}

// DoPutPreparedStatementQuery binds the parameter rows of a prepared
// query: each row is one execution.
func (s *Server) DoPutPreparedStatementQuery(ctx context.Context, cmd fsql.PreparedStatementQuery, rdr flight.MessageReader, _ flight.MetadataWriter) ([]byte, error) {
	p, err := s.preparedFor(ctx, cmd.GetPreparedStatementHandle())
	if err != nil {
		return nil, err
	}
	if err := s.bind(p, rdr, true); err != nil {
		return nil, err
	}
	return cmd.GetPreparedStatementHandle(), nil
}

// runs returns the argument rows of the next execution: the bound ones,
// or a single run without arguments.
func (p *prepared) runs() [][]driver.NamedValue {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.params) == 0 {
		return [][]driver.NamedValue{nil}
	}
	return p.params
}

// GetFlightInfoPreparedStatement returns the ticket of a prepared query;
// a prepared statement that is not a query runs here (once per bound
// row), as for GetFlightInfoStatement.
func (s *Server) GetFlightInfoPreparedStatement(ctx context.Context, cmd fsql.PreparedStatementQuery, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	p, err := s.preparedFor(ctx, cmd.GetPreparedStatementHandle())
	if err != nil {
		return nil, err
	}
	if p.query {
		tickets, err := s.preparedTickets(ctx, p, cmd.GetPreparedStatementHandle())
		if err != nil {
			return nil, err
		}
		return s.flightInfo(desc, p.schema, tickets...), nil
	}
	res, err := s.runPrepared(ctx, p)
	if err != nil {
		return nil, statusOf(err)
	}
	p.mu.Lock()
	if p.done != nil {
		p.done.release()
	}
	p.done = res
	p.mu.Unlock()
	return s.flightInfo(desc, res.schema(), desc.Cmd), nil
}

// preparedTickets are the tickets of a prepared query's endpoints, one
// per part it is read in (see scanParts): CommandPreparedStatementQuery
// with the handle, prefixed with the part.
func (s *Server) preparedTickets(ctx context.Context, p *prepared, handle []byte) ([][]byte, error) {
	st, err := parseOne(p.text)
	if err != nil {
		return nil, statusOf(err)
	}
	l, err := p.lease(ctx)
	if err != nil {
		return nil, err
	}
	parts, err := s.scanParts(ctx, l.s.Prepare(st), p.tx == nil)
	l.release()
	if err != nil {
		return nil, err
	}
	tickets := partHandles(parts, func(sp engine.Split) []byte { return withPart(sp, handle) })
	for i, h := range tickets {
		if tickets[i], err = preparedTicket(h); err != nil {
			return nil, status.Error(codes.Internal, err.Error())
		}
	}
	return tickets, nil
}

// preparedTicket is the ticket of a prepared query's handle, as clients
// send it to DoGet.
func preparedTicket(handle []byte) ([]byte, error) {
	t, err := anypb.New(&pb.CommandPreparedStatementQuery{PreparedStatementHandle: handle})
	if err != nil {
		return nil, err
	}
	return proto.Marshal(t)
}

// runPrepared runs a prepared statement that is not a query.
func (s *Server) runPrepared(ctx context.Context, p *prepared) (*result, error) {
	st, err := parseOne(p.text)
	if err != nil {
		return nil, err
	}
	runs := p.runs()
	l, err := p.lease(ctx)
	if err != nil {
		return nil, err
	}
	defer l.release()
	return s.execute(ctx, l, l.s.Prepare(st), runs)
}

// GetSchemaPreparedStatement returns the schema of a prepared statement's rows.
func (s *Server) GetSchemaPreparedStatement(ctx context.Context, cmd fsql.PreparedStatementQuery, _ *flight.FlightDescriptor) (*flight.SchemaResult, error) {
	p, err := s.preparedFor(ctx, cmd.GetPreparedStatementHandle())
	if err != nil {
		return nil, err
	}
	sc := p.schema
	if sc == nil {
		sc = arrow.NewSchema(nil, nil)
	}
	return &flight.SchemaResult{Schema: flight.SerializeSchema(sc, s.mem)}, nil
}

// streamPrepared streams the rows of a prepared query, one run per bound
// parameter row.
func (s *Server) streamPrepared(ctx context.Context, cmd fsql.PreparedStatementQuery) (*arrow.Schema, <-chan chunk, error) {
	part, handle, err := cutPart(cmd.GetPreparedStatementHandle())
	if err != nil {
		return nil, nil, status.Error(codes.InvalidArgument, err.Error())
	}
	p, err := s.preparedFor(ctx, handle)
	if err != nil {
		return nil, nil, err
	}
	if part.Of > 1 {
		// Parts are read at once, each in a session of its own: the
		// statement's lets one stream at a time.
		if !p.query || p.tx != nil {
			return nil, nil, status.Error(codes.InvalidArgument, errMalformedTicket.Error())
		}
		runs := p.runs()
		l, err := s.session(ctx, nil)
		if err != nil {
			return nil, nil, err
		}
		return s.streamQuery(ctx, l, p.text, runs, part)
	}
	if !p.query {
		p.mu.Lock()
		res := p.done
		p.done = nil
		p.mu.Unlock()
		if res == nil {
			return nil, nil, status.Error(codes.FailedPrecondition, "fluss flightsql: the statement is not a query; execute it as an update")
		}
		return s.streamResult(res)
	}
	runs := p.runs()
	l, err := p.lease(ctx)
	if err != nil {
		return nil, nil, err
	}
	return s.streamQuery(ctx, l, p.text, runs, engine.Split{})
}

// DoPutPreparedStatementUpdate runs a prepared statement once per row of
// the uploaded parameters (or once without) and returns the rows
// acknowledged in all.
func (s *Server) DoPutPreparedStatementUpdate(ctx context.Context, cmd fsql.PreparedStatementUpdate, rdr flight.MessageReader) (int64, error) {
	p, err := s.preparedFor(ctx, cmd.GetPreparedStatementHandle())
	if err != nil {
		return 0, err
	}
	if rdr != nil {
		if err := s.bind(p, rdr, false); err != nil {
			return 0, err
		}
	}
	res, err := s.runPrepared(ctx, p)
	if err != nil {
		return 0, statusOf(err)
	}
	res.release()
	return res.count, nil
}

// BeginTransaction opens a write batch: until EndTransaction, writes of
// the transaction's statements are held by the server and sent at commit
// (Fluss has no server transactions, so a commit is not atomic).
func (s *Server) BeginTransaction(ctx context.Context, _ fsql.ActionBeginTransactionRequest) ([]byte, error) {
	u, sess, err := s.newSession(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.admit(u, nil); err != nil {
		_ = sess.Close()
		return nil, err
	}
	// The batch outlives this call: it sends with a context of its own,
	// cancelled when the transaction ends.
	bctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	tx, err := sess.Begin(bctx, driver.TxOptions{})
	if err != nil {
		cancel()
		_ = sess.Close()
		s.mu.Lock()
		s.releaseLocked(u, 0)
		s.mu.Unlock()
		return nil, status.Error(codes.FailedPrecondition, err.Error())
	}
	id := newHandle()
	t := &transaction{u: u, sess: sess, tx: tx, cancel: cancel}
	t.idleSince.Store(time.Now().UnixNano())
	s.mu.Lock()
	s.txs[id] = t
	s.mu.Unlock()
	return []byte(id), nil
}

// EndTransaction commits (writes the batch) or rolls back a transaction.
func (s *Server) EndTransaction(ctx context.Context, req fsql.ActionEndTransactionRequest) error {
	t, err := s.transaction(ctx, req.GetTransactionId())
	if err != nil {
		return err
	}
	s.mu.Lock()
	ended := s.txs[string(req.GetTransactionId())] != t // by a concurrent call
	if !ended {
		delete(s.txs, string(req.GetTransactionId()))
		s.releaseLocked(t.u, 0)
	}
	s.mu.Unlock()
	if ended {
		return status.Error(codes.NotFound, "fluss flightsql: "+s.unknownTx())
	}
	if err := t.session.lock(ctx); err != nil {
		// The transaction is forgotten: its writes are dropped once the
		// call using its session ends.
		go t.abort()
		return err
	}
	defer t.session.unlock()
	t.ended = true
	defer t.cancel()
	defer func() { _ = t.sess.Close() }()
	switch req.GetAction() {
	case fsql.EndTransactionCommit:
		err = t.tx.Commit()
	case fsql.EndTransactionRollback:
		err = t.tx.Rollback()
	default:
		t.sess.DropBatch()
		return status.Error(codes.InvalidArgument, "fluss flightsql: EndTransaction needs COMMIT or ROLLBACK")
	}
	if errors.Is(err, engine.ErrRollbackSent) {
		return status.Error(codes.FailedPrecondition, err.Error())
	}
	return statusOf(engine.WrapError(err, ""))
}

// rollBackIdleTransactions forgets the transactions without calls since
// before and drops their writes: a client that crashed or leaked them
// never ends them, and each holds a session, its rows and one of its
// user's MaxOpenPerUser handles. A later call with the handle gets
// NotFound, and a statement prepared in it FailedPrecondition.
func (s *Server) rollBackIdleTransactions(before time.Time) {
	var idle []*transaction
	s.mu.Lock()
	for id, t := range s.txs {
		if t.calls.Load() == 0 && t.idleSince.Load() < before.UnixNano() {
			delete(s.txs, id)
			s.releaseLocked(t.u, 0)
			idle = append(idle, t)
		}
	}
	s.mu.Unlock()
	for _, t := range idle {
		s.log.Info("transaction rolled back after idling", "user", t.u.name, "idle_timeout", s.cfg.IdleTimeout)
		// A call that found the transaction just before it was
		// forgotten may still hold its session.
		go t.abort()
	}
}

// The Substrait and savepoint commands have no Fluss counterpart.

// BeginSavepoint is not supported: write batches have no savepoints.
func (s *Server) BeginSavepoint(context.Context, fsql.ActionBeginSavepointRequest) ([]byte, error) {
	return nil, unimplemented("savepoints")
}

// EndSavepoint is not supported: write batches have no savepoints.
func (s *Server) EndSavepoint(context.Context, fsql.ActionEndSavepointRequest) error {
	return unimplemented("savepoints")
}
