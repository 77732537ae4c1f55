package otel_test

import (
	"database/sql"
	"slices"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/gofluss/fluss"
	"github.com/gofluss/fluss/internal/clustertest"
	"github.com/gofluss/fluss/internal/testkit"
	flussotel "github.com/gofluss/fluss/otel"
	"github.com/gofluss/fluss/otel/internal/spantree"
)

// traced is a database handle whose spans and metrics stay in memory.
type traced struct {
	db     *sql.DB
	spans  *tracetest.SpanRecorder
	reader *sdkmetric.ManualReader
}

func newTraced(t *testing.T, dsn string) *traced {
	t.Helper()
	cfg, err := fluss.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	tr := &traced{spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(tr.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(tr.reader))
	cfg.Tracer = flussotel.NewTracer(flussotel.WithTracerProvider(tp), flussotel.WithMeterProvider(mp), flussotel.WithQueryText())
	conn, err := fluss.NewConnector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tr.db = sql.OpenDB(conn)
	t.Cleanup(func() { tr.db.Close() })
	return tr
}

// statement returns the span of the statement with text q and the spans
// of its trace.
func (tr *traced) statement(t *testing.T, q string) (sdktrace.ReadOnlySpan, []sdktrace.ReadOnlySpan) {
	t.Helper()
	ended := tr.spans.Ended()
	for _, s := range ended {
		if spantree.Attr(s, "db.query.text") == q {
			var trace []sdktrace.ReadOnlySpan
			for _, o := range ended {
				if o.SpanContext().TraceID() == s.SpanContext().TraceID() {
					trace = append(trace, o)
				}
			}
			return s, trace
		}
	}
	t.Fatalf("no span of %q", q)
	return nil, nil
}

// tree renders the spans of a trace by name.
func tree(spans []sdktrace.ReadOnlySpan) string { return spantree.Render(spans, spantree.Name) }

// under reports whether s descends from the span with id root.
func under(s sdktrace.ReadOnlySpan, root trace.SpanID, all []sdktrace.ReadOnlySpan) bool {
	parent := map[trace.SpanID]trace.SpanID{}
	for _, o := range all {
		parent[o.SpanContext().SpanID()] = o.Parent().SpanID()
	}
	for id := s.Parent().SpanID(); id.IsValid(); id = parent[id] {
		if id == root {
			return true
		}
	}
	return false
}

// A statement's span holds the spans of what it did, down to the RPCs,
// with the database conventions' attributes; the metrics carry the Java
// client's names and bounded attributes.
func TestSpansAgainstCluster(t *testing.T) {
	addr := clustertest.Bootstrap(t)
	ctx := testkit.Context(t)
	db := testkit.UniqueName("otel")
	setup := newTraced(t, "fluss://"+addr+"/")
	for _, q := range []string{
		"CREATE DATABASE " + db,
		"CREATE TABLE " + db + ".kv (k INT PRIMARY KEY NOT ENFORCED, v STRING) WITH ('bucket.num' = '1')",
		"CREATE TABLE " + db + ".events (id INT, note STRING) WITH ('bucket.num' = '1')",
	} {
		if err := clustertest.ExecWithLeaders(t, q, func(q string) error { _, err := setup.db.ExecContext(ctx, q); return err }); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	t.Cleanup(func() { setup.db.Exec("DROP DATABASE IF EXISTS " + db + " CASCADE") })

	tr := newTraced(t, "fluss://"+addr+"/"+db)
	steps := []struct {
		sql   string
		query bool
		name  string // of the statement span
		op    string
		// chains are span names from the statement's child down to an RPC.
		chains [][]string
	}{
		{sql: "INSERT INTO kv VALUES (1, 'a'), (2, 'b')", name: "INSERT kv", op: "INSERT",
			chains: [][]string{{"plan", "GET_TABLE_INFO"}, {"write kv", "PUT_KV"}}},
		{sql: "SELECT v FROM kv WHERE k = 1", query: true, name: "SELECT kv", op: "SELECT",
			chains: [][]string{{"lookup kv", "LOOKUP"}}},
		{sql: "INSERT INTO events VALUES (1, 'x'), (2, 'y'), (3, 'z')", name: "INSERT events", op: "INSERT",
			chains: [][]string{{"write events", "PRODUCE_LOG"}}},
		{sql: "SELECT * FROM events", query: true, name: "SELECT events", op: "SELECT",
			chains: [][]string{{"fetch events", "FETCH_LOG"}}},
	}
	for _, st := range steps {
		if st.query {
			rows, err := tr.db.QueryContext(ctx, st.sql)
			if err != nil {
				t.Fatalf("%s: %v", st.sql, err)
			}
			n := 0
			for rows.Next() {
				n++
			}
			if err := rows.Err(); err != nil || n == 0 {
				t.Fatalf("%s: %d rows, %v", st.sql, n, err)
			}
			rows.Close()
		} else if _, err := tr.db.ExecContext(ctx, st.sql); err != nil {
			t.Fatalf("%s: %v", st.sql, err)
		}
		stmt, spans := tr.statement(t, st.sql)
		t.Logf("%s:\n%s", st.sql, tree(spans))
		if stmt.Name() != st.name || stmt.SpanKind() != trace.SpanKindClient || stmt.Parent().IsValid() {
			t.Errorf("%s: span %q of kind %s, parent %v; want a root client span %q", st.sql, stmt.Name(), stmt.SpanKind(), stmt.Parent().IsValid(), st.name)
		}
		for key, want := range map[string]string{
			"db.system.name": "fluss", "db.system": "fluss", "db.namespace": db,
			"db.operation.name": st.op, "db.collection.name": strings.Fields(st.name)[1],
		} {
			if got := spantree.Attr(stmt, key); got != want {
				t.Errorf("%s: %s = %q, want %q", st.sql, key, got, want)
			}
		}
		for _, chain := range st.chains {
			if !hasChain(stmt, spans, chain) {
				t.Errorf("%s: no %v under the statement:\n%s", st.sql, chain, tree(spans))
			}
		}
		for _, s := range spans {
			if s != stmt && !under(s, stmt.SpanContext().SpanID(), spans) {
				t.Errorf("%s: span %s is in the trace but not under the statement", st.sql, s.Name())
			}
			if s.EndTime().After(stmt.EndTime()) {
				t.Errorf("%s: span %s ended after the statement", st.sql, s.Name())
			}
		}
	}

	var rm metricdata.ResourceMetrics
	if err := tr.reader.Collect(ctx, &rm); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			names = append(names, m.Name)
			checkBounded(t, m)
		}
	}
	slices.Sort(names)
	t.Logf("metrics: %s", strings.Join(names, " "))
	for _, want := range []string{
		flussotel.MetricRequests, flussotel.MetricResponses, flussotel.MetricBytesIn, flussotel.MetricBytesOut,
		flussotel.MetricRequestLatency, flussotel.MetricRequestsFlight,
		flussotel.MetricSendLatency, flussotel.MetricBatchQueueTime, flussotel.MetricRecordsSend,
		flussotel.MetricBytesSend, flussotel.MetricBytesPerBatch, flussotel.MetricRecordsPerBatch,
		flussotel.MetricFetchLatency, flussotel.MetricFetchRequests, flussotel.MetricBytesPerRequest,
		flussotel.MetricOperationTime,
	} {
		if !slices.Contains(names, want) {
			t.Errorf("no metric %s in %v", want, names)
		}
	}
}

// hasChain reports whether spans hold chain[0] as a child of stmt,
// chain[1] as its child, and so on.
func hasChain(stmt sdktrace.ReadOnlySpan, spans []sdktrace.ReadOnlySpan, chain []string) bool {
	parents := []trace.SpanID{stmt.SpanContext().SpanID()}
	for _, name := range chain {
		var next []trace.SpanID
		for _, s := range spans {
			if s.Name() == name && slices.Contains(parents, s.Parent().SpanID()) {
				next = append(next, s.SpanContext().SpanID())
			}
		}
		if len(next) == 0 {
			return false
		}
		parents = next
	}
	return true
}

// boundedKeys are the only attributes a metric point may carry.
var boundedKeys = []attribute.Key{"request", "server.address", "db.system.name", "db.operation.name", "error.type"}

func checkBounded(t *testing.T, m metricdata.Metrics) {
	t.Helper()
	check := func(set attribute.Set) {
		for _, kv := range set.ToSlice() {
			if !slices.Contains(boundedKeys, kv.Key) {
				t.Errorf("metric %s has attribute %s", m.Name, kv.Key)
			}
		}
	}
	switch d := m.Data.(type) {
	case metricdata.Sum[int64]:
		for _, p := range d.DataPoints {
			check(p.Attributes)
		}
	case metricdata.Histogram[float64]:
		for _, p := range d.DataPoints {
			check(p.Attributes)
		}
	case metricdata.Histogram[int64]:
		for _, p := range d.DataPoints {
			check(p.Attributes)
		}
	case metricdata.Gauge[float64]:
		for _, p := range d.DataPoints {
			check(p.Attributes)
		}
	}
}
