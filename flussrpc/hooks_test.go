package flussrpc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/fakefluss"
)

// spanKey carries a hookRecorder span's name in a context.
type spanKey struct{}

// hookEvent is one finished span of a hookRecorder: what started it, the
// span it started under and a summary of its end data.
type hookEvent struct {
	name   string // kind and subject, e.g. "request LOOKUP"
	parent string // the name of the enclosing span, "" for none
	end    string // fields of the end data
}

// hookRecorder implements every tracer of hooks.go and records the spans
// their Start and End make, each named for what it traces.
type hookRecorder struct {
	mu     sync.Mutex
	events []hookEvent
	polls  []TracePollData
}

func (r *hookRecorder) start(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, spanKey{}, &hookEvent{name: name, parent: spanName(ctx)})
}

func spanName(ctx context.Context) string {
	if e, ok := ctx.Value(spanKey{}).(*hookEvent); ok {
		return e.name
	}
	return ""
}

func (r *hookRecorder) finish(ctx context.Context, end string) {
	e := *ctx.Value(spanKey{}).(*hookEvent)
	e.end = end
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
}

func (r *hookRecorder) TraceConnectStart(ctx context.Context, d TraceConnectStartData) context.Context {
	return r.start(ctx, "connect")
}

func (r *hookRecorder) TraceConnectEnd(ctx context.Context, d TraceConnectEndData) {
	r.finish(ctx, fmt.Sprintf("type=%s err=%v", d.ServerType, d.Err))
}

func (r *hookRecorder) TraceRequestStart(ctx context.Context, d TraceRequestStartData) context.Context {
	return r.start(ctx, "request "+d.API.String())
}

func (r *hookRecorder) TraceRequestEnd(ctx context.Context, d TraceRequestEndData) {
	r.finish(ctx, fmt.Sprintf("out=%t in=%t err=%v", d.BytesOut > 0, d.BytesIn > 0, d.Err))
}

func (r *hookRecorder) TraceWriteBatchStart(ctx context.Context, d TraceWriteBatchStartData) context.Context {
	return r.start(ctx, "write "+d.Table.String())
}

func (r *hookRecorder) TraceWriteBatchEnd(ctx context.Context, d TraceWriteBatchEndData) {
	r.finish(ctx, fmt.Sprintf("api=%s batches=%d records=%d retried=%d err=%v", d.API, d.Batches, d.Records, d.RetriedRecords, d.Err))
}

func (r *hookRecorder) TraceFetchStart(ctx context.Context, d TraceFetchStartData) context.Context {
	return r.start(ctx, "fetch "+d.Table.String())
}

func (r *hookRecorder) TraceFetchEnd(ctx context.Context, d TraceFetchEndData) {
	r.finish(ctx, fmt.Sprintf("buckets=%d bytes=%t err=%v", d.Buckets, d.Bytes > 0, d.Err))
}

func (r *hookRecorder) TracePoll(ctx context.Context, d TracePollData) {
	r.mu.Lock()
	r.polls = append(r.polls, d)
	r.mu.Unlock()
}

func (r *hookRecorder) TraceLookupBatchStart(ctx context.Context, d TraceLookupBatchStartData) context.Context {
	return r.start(ctx, "lookup "+d.Table.String())
}

func (r *hookRecorder) TraceLookupBatchEnd(ctx context.Context, d TraceLookupBatchEndData) {
	r.finish(ctx, fmt.Sprintf("api=%s keys=%d buckets=%d err=%v", d.API, d.Keys, d.Buckets, d.Err))
}

func (r *hookRecorder) TracePoolAcquireStart(ctx context.Context, d TracePoolAcquireStartData) context.Context {
	return r.start(ctx, "acquire")
}

func (r *hookRecorder) TracePoolAcquireEnd(ctx context.Context, d TracePoolAcquireEndData) {
	r.finish(ctx, fmt.Sprintf("err=%v", d.Err))
}

// take returns the events so far and forgets them.
func (r *hookRecorder) take() []hookEvent {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.events
	r.events = nil
	return out
}

// has reports whether events holds want.
func has(events []hookEvent, want hookEvent) bool { return slices.Contains(events, want) }

// Every hook is called with the context of the work it traces: requests
// nest under the connect, write, lookup and fetch spans that made them,
// and those under the caller's span, also when the work runs on a
// goroutine of the client's own (the writer's sender, the fetcher).
func TestHooksNestUnderTheCallersSpan(t *testing.T) {
	fc := fakefluss.NewCluster(t, fakefluss.ClusterConfig{})
	one := 1
	logPath := TablePath{Database: "db", Table: "log"}
	kvPath := TablePath{Database: "db", Table: "kv"}
	cols := []schema.Column{schema.NewColumn("k", schema.Int()), schema.NewColumn("v", schema.Int())}
	for _, tc := range []struct {
		path TablePath
		pk   []string
	}{{logPath, nil}, {kvPath, []string{"k"}}} {
		s, err := schema.NewSchema(cols, tc.pk, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fc.CreateTable(tc.path, schema.TableDescriptor{Schema: s, BucketCount: &one}); err != nil {
			t.Fatal(err)
		}
	}
	rec := &hookRecorder{}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := NewClient(ctx, Config{Bootstrap: []string{fc.Bootstrap()}, Tracer: rec})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	connects := rec.take()
	for _, want := range []hookEvent{
		{name: "acquire", end: "err=<nil>"},
		{name: "connect", parent: "acquire", end: "type=coordinator err=<nil>"},
		{name: "request API_VERSIONS", parent: "connect", end: "out=true in=true err=<nil>"},
		{name: "request GET_METADATA", end: "out=true in=true err=<nil>"},
	} {
		if !has(connects, want) {
			t.Errorf("connecting: no %+v in %+v", want, connects)
		}
	}

	caller := context.WithValue(ctx, spanKey{}, &hookEvent{name: "caller"})
	logT, err := c.Table(caller, logPath)
	if err != nil {
		t.Fatal(err)
	}
	w, err := logT.NewAppendWriter(AppendOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, err := w.Append(caller, []any{int32(i), int32(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(caller); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	writes := rec.take()
	for _, want := range []hookEvent{
		{name: "request GET_TABLE_INFO", parent: "caller", end: "out=true in=true err=<nil>"},
		{name: "write db.log", parent: "caller", end: "api=PRODUCE_LOG batches=1 records=3 retried=0 err=<nil>"},
		{name: "request PRODUCE_LOG", parent: "write db.log", end: "out=true in=true err=<nil>"},
	} {
		if !has(writes, want) {
			t.Errorf("writing: no %+v in %+v", want, writes)
		}
	}

	s, err := logT.NewLogScanner(LogScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.SubscribeAll(caller, ScanFromOffset(0)); err != nil {
		t.Fatal(err)
	}
	got := 0
	for got < 3 {
		recs, err := s.Poll(caller, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		got += len(recs)
	}
	s.Close()
	scans := rec.take()
	for _, want := range []hookEvent{
		{name: "fetch db.log", parent: "caller", end: "buckets=1 bytes=true err=<nil>"},
		{name: "request FETCH_LOG", parent: "fetch db.log", end: "out=true in=true err=<nil>"},
	} {
		if !has(scans, want) {
			t.Errorf("scanning: no %+v in %+v", want, scans)
		}
	}
	rec.mu.Lock()
	polls := slices.Clone(rec.polls)
	rec.mu.Unlock()
	if len(polls) == 0 || polls[0].Table != logPath || polls[0].Between != 0 {
		t.Errorf("polls: %+v, want the first of db.log with no time before it", polls)
	}

	kvT, err := c.Table(caller, kvPath)
	if err != nil {
		t.Fatal(err)
	}
	l, err := kvT.NewLookuper()
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := l.Lookup(caller, []any{int32(1)}); err != nil {
		t.Fatal(err)
	}
	lookups := rec.take()
	for _, want := range []hookEvent{
		{name: "lookup db.kv", parent: "caller", end: "api=LOOKUP keys=1 buckets=1 err=<nil>"},
		{name: "request LOOKUP", parent: "lookup db.kv", end: "out=true in=true err=<nil>"},
	} {
		if !has(lookups, want) {
			t.Errorf("looking up: no %+v in %+v", want, lookups)
		}
	}
}

// A lookup batch shared by several callers runs under none of their
// deadlines, but its trace still nests under the first caller's span.
func TestValuesOfKeepsTheClientsDeadline(t *testing.T) {
	own, cancelOwn := context.WithCancel(context.Background())
	caller, cancelCaller := context.WithCancel(context.WithValue(context.Background(), spanKey{}, &hookEvent{name: "caller"}))
	cancelCaller()
	ctx := withValuesOf(own, caller)
	if ctx.Err() != nil || spanName(ctx) != "caller" {
		t.Fatalf("err %v, span %q: want the client's liveness and the caller's span", ctx.Err(), spanName(ctx))
	}
	if again := withValuesOf(own, ctx); again.(valuesOf).values != caller {
		t.Error("a borrowed context is wrapped again instead of lending its values")
	}
	child, cancel := context.WithCancel(ctx)
	defer cancel()
	cancelOwn()
	select {
	case <-child.Done():
	case <-time.After(time.Second):
		t.Fatal("a context derived from it missed the client's cancellation")
	}
	if withValuesOf(own, nil) != own {
		t.Error("no values to lend: the context should be the client's own")
	}
}

// The logger hears of dials that fail; a caller who gave up is no news.
func TestLoggerHearsOfFailedDials(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	_, err = NewClient(context.Background(), Config{Bootstrap: []string{addr}, Logger: log, Conn: ConnConfig{DialTimeout: 200 * time.Millisecond}})
	if err == nil {
		t.Fatal("dialing a closed port succeeded")
	}
	if !strings.Contains(buf.String(), "connecting failed") || !strings.Contains(buf.String(), addr) {
		t.Errorf("log %q: want the failed dial to %s", buf.String(), addr)
	}

	buf.Reset()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := dialConn(ctx, addr, ConnConfig{}, newHooks(nil, log)); !errors.Is(err, context.Canceled) {
		t.Fatalf("dial under a cancelled context: %v", err)
	}
	if buf.Len() != 0 {
		t.Errorf("log %q: a dial its caller gave up on was logged", buf.String())
	}
}
