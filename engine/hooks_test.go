package engine

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/gofluss/fluss/flussrpc"
)

// traceKey carries a stmtRecorder span's name in a context.
type traceKey struct{}

// stmtRecorder records the statement spans of hooks.go and the request
// and write spans of flussrpc's under them, as "name < parent: end".
type stmtRecorder struct {
	mu    sync.Mutex
	spans []string
}

type recSpan struct{ name, parent string }

func (r *stmtRecorder) start(ctx context.Context, name string) context.Context {
	parent := ""
	if s, ok := ctx.Value(traceKey{}).(recSpan); ok {
		parent = s.name
	}
	return context.WithValue(ctx, traceKey{}, recSpan{name, parent})
}

func (r *stmtRecorder) end(ctx context.Context, end string) {
	s := ctx.Value(traceKey{}).(recSpan)
	r.mu.Lock()
	r.spans = append(r.spans, fmt.Sprintf("%s < %s: %s", s.name, s.parent, end))
	r.mu.Unlock()
}

func (r *stmtRecorder) TraceExecuteStart(ctx context.Context, d TraceExecuteStartData) context.Context {
	return r.start(ctx, "execute "+d.Operation)
}

func (r *stmtRecorder) TraceExecuteEnd(ctx context.Context, d TraceExecuteEndData) {
	r.end(ctx, fmt.Sprintf("db=%s plan=%s table=%s rows=%d err=%v", d.Database, d.Plan, d.Table, d.RowsAffected, d.Err))
}

func (r *stmtRecorder) TracePlanStart(ctx context.Context, d TracePlanStartData) context.Context {
	return r.start(ctx, "plan")
}

func (r *stmtRecorder) TracePlanEnd(ctx context.Context, d TracePlanEndData) {
	r.end(ctx, fmt.Sprintf("plan=%s err=%v", d.Plan, d.Err))
}

func (r *stmtRecorder) TraceRequestStart(ctx context.Context, d flussrpc.TraceRequestStartData) context.Context {
	return r.start(ctx, d.API.String())
}

func (r *stmtRecorder) TraceRequestEnd(ctx context.Context, d flussrpc.TraceRequestEndData) {
	r.end(ctx, fmt.Sprintf("err=%v", d.Err))
}

func (r *stmtRecorder) TraceWriteBatchStart(ctx context.Context, d flussrpc.TraceWriteBatchStartData) context.Context {
	return r.start(ctx, "write")
}

func (r *stmtRecorder) TraceWriteBatchEnd(ctx context.Context, d flussrpc.TraceWriteBatchEndData) {
	r.end(ctx, fmt.Sprintf("records=%d err=%v", d.Records, d.Err))
}

func (r *stmtRecorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.spans
	r.spans = nil
	return out
}

// A statement's span holds its planning and the requests it makes, also
// those its writer sends from a goroutine of its own; streamed rows end
// it when they close, an ArrowReader when it is released.
func TestStatementSpans(t *testing.T) {
	rec := &stmtRecorder{}
	s, _ := fakeSessionTraced(t, Config{Database: "fluss"}, rec)
	ctx := context.Background()
	if _, err := run(ctx, s, "CREATE TABLE kv (k INT PRIMARY KEY NOT ENFORCED, v STRING) WITH ('bucket.num' = '1')"); err != nil {
		t.Fatal(err)
	}
	rec.take()
	for _, tc := range []struct {
		sql   string
		fails bool
		want  []string
	}{{
		sql: "INSERT INTO kv VALUES (1, 'a'), (2, 'b')",
		want: []string{
			"GET_TABLE_INFO < plan: err=<nil>",
			"plan < execute INSERT: plan=Upsert err=<nil>",
			"write < execute INSERT: records=2 err=<nil>",
			"PUT_KV < write: err=<nil>",
			"execute INSERT < : db=fluss plan=Upsert table=fluss.kv rows=2 err=<nil>",
		},
	}, {
		sql: "SELECT v FROM kv WHERE k = 1",
		want: []string{
			"plan < execute SELECT: plan=Lookup err=<nil>",
			"LOOKUP < execute SELECT: err=<nil>",
			"execute SELECT < : db=fluss plan=Lookup table=fluss.kv rows=0 err=<nil>",
		},
	}, {
		sql: "/* a comment */ SELECT * FROM kv LIMIT 5",
		want: []string{
			"plan < execute SELECT: plan=LimitScan err=<nil>",
			"LIMIT_SCAN < execute SELECT: err=<nil>",
			"execute SELECT < : db=fluss plan=LimitScan table=fluss.kv rows=0 err=<nil>",
		},
	}, {
		sql:   "SELECT * FROM missing",
		fails: true,
		want: []string{
			"plan < execute SELECT: plan= err=fluss: TABLE_NOT_EXIST (7) from GET_TABLE_INFO: Table 'fluss.missing' does not exist.",
		},
	}} {
		if _, err := run(ctx, s, tc.sql); (err != nil) != tc.fails {
			t.Fatalf("%s: %v", tc.sql, err)
		}
		got := rec.take()
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("%s: no span %q in\n%q", tc.sql, w, got)
			}
		}
	}

	r, err := s.QueryArrow(ctx, "SELECT * FROM kv WHERE k = 2", nil)
	if err != nil {
		t.Fatal(err)
	}
	for r.Next() {
	}
	if got := rec.take(); slices.ContainsFunc(got, func(s string) bool { return s[:8] == "execute " }) {
		t.Errorf("the statement ended before its reader was released: %q", got)
	}
	r.Release()
	if got := rec.take(); !slices.Contains(got, "execute SELECT < : db=fluss plan=Lookup table=fluss.kv rows=0 err=<nil>") {
		t.Errorf("after Release: %q", got)
	}
}

func TestOperationOf(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"SELECT 1", "SELECT"},
		{"  insert into t values (1)", "INSERT"},
		{"-- note\n\tUpsert INTO t VALUES (1)", "UPSERT"},
		{"/* a */ /* b */with x as (select 1) select * from x", "WITH"},
		{"(SELECT 1)", ""},
		{"/* never closed", ""},
		{"", ""},
	} {
		if got := operationOf(tc.text); got != tc.want {
			t.Errorf("operationOf(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
