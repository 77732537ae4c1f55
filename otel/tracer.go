// Package otel turns the observability hooks of the fluss driver and its
// native client into OpenTelemetry traces and metrics. It is a module of
// its own, so that the driver carries no OpenTelemetry dependency.
//
//	cfg, _ := fluss.ParseDSN(dsn)
//	cfg.Tracer = otel.NewTracer() // the global providers; see package otlp
//	connector, _ := fluss.NewConnector(cfg)
//	db := sql.OpenDB(connector)
//
// A statement is a span named for its operation and table ("SELECT
// orders"), with the database conventions' attributes (db.system.name,
// db.namespace, db.operation.name, db.collection.name; db.query.text only
// WithQueryText). Its planning, the write requests of its writer, its
// lookup batches, its fetches and every RPC they send are spans under it.
//
// The metrics are those of the Java client, named as it names them
// (fluss.client.request.bytesInPerSecond, fluss.client.writer.sendLatencyMs,
// fluss.client.scanner.pollIdleRatio, ...): its "PerSecond" meters are
// counters here, whose rate the backend computes, and its latency and
// time gauges are histograms in milliseconds. Their attributes are
// bounded: the API key and the server address of requests, the
// operation and error type of statements; never a table, a statement's
// text or an error message.
package otel

import (
	"context"
	"errors"
	"net"
	"strconv"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/gofluss/fluss/engine"
	"github.com/gofluss/fluss/flussrpc"
)

// ScopeName is the instrumentation scope of the tracer and the meter.
const ScopeName = "github.com/gofluss/fluss/otel"

// System is the db.system.name (and db.system) of every statement span.
const System = "fluss"

// Option configures NewTracer.
type Option func(*config)

type config struct {
	tp        trace.TracerProvider
	mp        metric.MeterProvider
	queryText bool
}

// WithTracerProvider sets where the spans go; the default is the global
// provider (otel.GetTracerProvider) at NewTracer.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *config) { c.tp = tp }
}

// WithMeterProvider sets where the metrics go; the default is the global
// provider (otel.GetMeterProvider) at NewTracer.
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(c *config) { c.mp = mp }
}

// WithQueryText puts each statement's text in its span as db.query.text.
// It is off by default: the text holds whatever literals a statement was
// written with. Arguments bound to placeholders never appear.
func WithQueryText() Option {
	return func(c *config) { c.queryText = true }
}

// Tracer implements the hooks of packages flussrpc and engine: put it in
// fluss.Config.Tracer (or flussrpc.Config.Tracer). One Tracer may serve
// any number of clients.
type Tracer struct {
	tracer    trace.Tracer
	queryText bool
	m         *instruments
}

// NewTracer returns a Tracer reporting to the given or global providers.
// The instruments are made here; an error making one (a provider that
// refuses a name) is reported to otel.Handle and the instrument does
// nothing.
func NewTracer(opts ...Option) *Tracer {
	cfg := config{}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.tp == nil {
		cfg.tp = otel.GetTracerProvider()
	}
	if cfg.mp == nil {
		cfg.mp = otel.GetMeterProvider()
	}
	return &Tracer{
		tracer:    cfg.tp.Tracer(ScopeName),
		queryText: cfg.queryText,
		m:         newInstruments(cfg.mp.Meter(ScopeName)),
	}
}

// The hooks the Tracer implements. It leaves flussrpc.PoolTracer out:
// taking a pooled connection is a map look-up on every request, and the
// dials it may wait for are traced as connect spans.
var (
	_ engine.ExecuteTracer   = (*Tracer)(nil)
	_ engine.PlanTracer      = (*Tracer)(nil)
	_ flussrpc.ConnectTracer = (*Tracer)(nil)
	_ flussrpc.RequestTracer = (*Tracer)(nil)
	_ flussrpc.WriteTracer   = (*Tracer)(nil)
	_ flussrpc.FetchTracer   = (*Tracer)(nil)
	_ flussrpc.PollTracer    = (*Tracer)(nil)
	_ flussrpc.LookupTracer  = (*Tracer)(nil)
)

// systemAttrs name the database system of a statement span: db.system
// is the name before semantic conventions 1.30, which many backends
// still read.
var systemAttrs = []attribute.KeyValue{semconv.DBSystemNameKey.String(System), attribute.String("db.system", System)}

// TraceExecuteStart starts a statement's span, named for its operation
// until its end knows the table.
func (t *Tracer) TraceExecuteStart(ctx context.Context, d engine.TraceExecuteStartData) context.Context {
	attrs := append(systemAttrs[:len(systemAttrs):len(systemAttrs)], semconv.DBOperationName(operation(d.Operation)))
	if d.Database != "" {
		attrs = append(attrs, semconv.DBNamespace(d.Database))
	}
	if t.queryText {
		attrs = append(attrs, semconv.DBQueryText(d.SQL))
	}
	ctx, _ = t.tracer.Start(ctx, operation(d.Operation), trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	return ctx
}

// TraceExecuteEnd ends a statement's span and records its duration.
func (t *Tracer) TraceExecuteEnd(ctx context.Context, d engine.TraceExecuteEndData) {
	span := trace.SpanFromContext(ctx)
	if d.Table.Table != "" {
		span.SetName(operation(d.Operation) + " " + d.Table.Table)
		span.SetAttributes(semconv.DBCollectionName(d.Table.Table))
	}
	if d.Plan != "" {
		span.SetAttributes(attribute.String("fluss.plan", d.Plan))
	}
	if d.RowsAffected > 0 {
		span.SetAttributes(attribute.Int64("fluss.rows_affected", d.RowsAffected))
	}
	endSpan(span, d.Err)
	t.m.operationDuration.Record(ctx, d.Latency.Seconds(), metric.WithAttributeSet(operationAttrs(d.Operation, d.Err)))
}

// operation is the db.operation.name of a statement; the engine gives ""
// for one that starts with no keyword.
func operation(op string) string {
	if op == "" {
		return "STATEMENT"
	}
	return op
}

// operationAttrs are the attributes of db.client.operation.duration.
func operationAttrs(op string, err error) attribute.Set {
	kv := []attribute.KeyValue{semconv.DBSystemNameKey.String(System), semconv.DBOperationName(operation(op))}
	if err != nil {
		kv = append(kv, semconv.ErrorTypeKey.String(errorType(err)))
	}
	return attribute.NewSet(kv...)
}

// TracePlanStart starts the span of planning a statement.
func (t *Tracer) TracePlanStart(ctx context.Context, d engine.TracePlanStartData) context.Context {
	ctx, _ = t.tracer.Start(ctx, "plan")
	return ctx
}

// TracePlanEnd ends the span of planning a statement.
func (t *Tracer) TracePlanEnd(ctx context.Context, d engine.TracePlanEndData) {
	span := trace.SpanFromContext(ctx)
	if d.Plan != "" {
		span.SetAttributes(attribute.String("fluss.plan", d.Plan))
	}
	endSpan(span, d.Err)
}

// TraceConnectStart starts the span of dialing a server.
func (t *Tracer) TraceConnectStart(ctx context.Context, d flussrpc.TraceConnectStartData) context.Context {
	ctx, _ = t.tracer.Start(ctx, "connect", trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(serverAttrs(d.Addr)...))
	return ctx
}

// TraceConnectEnd ends the span of dialing a server.
func (t *Tracer) TraceConnectEnd(ctx context.Context, d flussrpc.TraceConnectEndData) {
	span := trace.SpanFromContext(ctx)
	span.SetAttributes(attribute.String("fluss.server.type", d.ServerType.String()))
	endSpan(span, d.Err)
}

// TraceRequestStart starts an RPC's span and counts the request.
func (t *Tracer) TraceRequestStart(ctx context.Context, d flussrpc.TraceRequestStartData) context.Context {
	api := d.API.String()
	attrs := append(serverAttrs(d.Addr), semconv.RPCSystemNameKey.String(System), semconv.RPCMethod(api))
	ctx, _ = t.tracer.Start(ctx, api, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	set := requestAttrs(d)
	t.m.requests.Add(ctx, 1, set)
	t.m.bytesOut.Add(ctx, int64(d.BytesOut), set)
	t.m.inFlight.Add(ctx, 1, set)
	return ctx
}

// TraceRequestEnd ends an RPC's span and records its answer.
func (t *Tracer) TraceRequestEnd(ctx context.Context, d flussrpc.TraceRequestEndData) {
	span := trace.SpanFromContext(ctx)
	span.SetAttributes(attribute.Int("fluss.request.bytes", d.BytesOut), attribute.Int("fluss.response.bytes", d.BytesIn))
	endSpan(span, d.Err)
	set := requestAttrs(d.TraceRequestStartData)
	t.m.inFlight.Add(ctx, -1, set)
	t.m.latency.Record(ctx, millis(d.Latency.Seconds()), set)
	if d.BytesIn > 0 {
		t.m.responses.Add(ctx, 1, set)
		t.m.bytesIn.Add(ctx, int64(d.BytesIn), set)
	}
}

// requestAttrs are the attributes of the request metrics, as the Java
// client's request group: the API ("request") and the server.
func requestAttrs(d flussrpc.TraceRequestStartData) metric.MeasurementOption {
	return metric.WithAttributes(attribute.String("request", d.API.String()), semconv.ServerAddress(d.Addr))
}

// TraceWriteBatchStart starts the span of a write request and counts what
// it sends.
func (t *Tracer) TraceWriteBatchStart(ctx context.Context, d flussrpc.TraceWriteBatchStartData) context.Context {
	ctx, _ = t.tracer.Start(ctx, "write "+d.Table.Table, trace.WithAttributes(
		semconv.DBNamespace(d.Table.Database), semconv.DBCollectionName(d.Table.Table),
		attribute.String("fluss.api", d.API.String()), attribute.Int("fluss.batches", d.Batches),
		attribute.Int("fluss.records", d.Records), attribute.Int("fluss.bytes", d.Bytes),
		attribute.Int("fluss.records.retried", d.RetriedRecords)))
	t.m.recordsSend.Add(ctx, int64(d.Records))
	t.m.bytesSend.Add(ctx, int64(d.Bytes))
	if d.RetriedRecords > 0 {
		t.m.recordsRetry.Add(ctx, int64(d.RetriedRecords))
	}
	if d.Records > d.RetriedRecords {
		t.m.batchQueueTime.Record(ctx, millis(d.QueueTime.Seconds()))
	}
	// The request holds a batch per bucket; the hook gives their sum, so
	// each counts with the mean.
	for range d.Batches {
		t.m.bytesPerBatch.Record(ctx, int64(d.Bytes/d.Batches))
		t.m.recordsPerBatch.Record(ctx, int64(d.Records/d.Batches))
	}
	return ctx
}

// TraceWriteBatchEnd ends the span of a write request.
func (t *Tracer) TraceWriteBatchEnd(ctx context.Context, d flussrpc.TraceWriteBatchEndData) {
	endSpan(trace.SpanFromContext(ctx), d.Err)
	t.m.sendLatency.Record(ctx, millis(d.Latency.Seconds()))
}

// TraceFetchStart starts the span of a fetch.
func (t *Tracer) TraceFetchStart(ctx context.Context, d flussrpc.TraceFetchStartData) context.Context {
	ctx, _ = t.tracer.Start(ctx, "fetch "+d.Table.Table, trace.WithAttributes(
		semconv.DBNamespace(d.Table.Database), semconv.DBCollectionName(d.Table.Table),
		attribute.Int("fluss.buckets", d.Buckets)))
	t.m.fetchRequests.Add(ctx, 1)
	return ctx
}

// TraceFetchEnd ends the span of a fetch and records its latency and size.
func (t *Tracer) TraceFetchEnd(ctx context.Context, d flussrpc.TraceFetchEndData) {
	span := trace.SpanFromContext(ctx)
	span.SetAttributes(attribute.Int("fluss.bytes", d.Bytes))
	endSpan(span, d.Err)
	t.m.fetchLatency.Record(ctx, millis(d.Latency.Seconds()))
	if d.Err == nil {
		t.m.bytesPerRequest.Record(ctx, int64(d.Bytes))
	}
}

// TracePoll records how much of a scanner user's time goes to waiting:
// the Java client's pollIdleRatio, the time in a poll over that time and
// the time since the previous one.
func (t *Tracer) TracePoll(ctx context.Context, d flussrpc.TracePollData) {
	if d.Between == 0 {
		return // the first poll: no interval yet
	}
	t.m.timeBetweenPoll.Record(ctx, millis(d.Between.Seconds()))
	t.m.pollIdleRatio.Record(ctx, d.Wait.Seconds()/(d.Wait+d.Between).Seconds())
}

// TraceLookupBatchStart starts the span of a lookup request.
func (t *Tracer) TraceLookupBatchStart(ctx context.Context, d flussrpc.TraceLookupBatchStartData) context.Context {
	ctx, _ = t.tracer.Start(ctx, "lookup "+d.Table.Table, trace.WithAttributes(
		semconv.DBNamespace(d.Table.Database), semconv.DBCollectionName(d.Table.Table),
		attribute.String("fluss.api", d.API.String()), attribute.Int("fluss.keys", d.Keys),
		attribute.Int("fluss.buckets", d.Buckets)))
	return ctx
}

// TraceLookupBatchEnd ends the span of a lookup request.
func (t *Tracer) TraceLookupBatchEnd(ctx context.Context, d flussrpc.TraceLookupBatchEndData) {
	endSpan(trace.SpanFromContext(ctx), d.Err)
}

// endSpan ends a span, marking it failed with err.
func endSpan(span trace.Span, err error) {
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
		span.SetAttributes(semconv.ErrorTypeKey.String(errorType(err)))
	}
	span.End()
}

// errorType is the error.type of err, from a bounded set: the Fluss error
// code's name, "transport" for a broken connection, the context error, or
// "_OTHER".
func errorType(err error) string {
	var fe *flussrpc.Error
	var te *flussrpc.TransportError
	switch {
	case errors.As(err, &fe):
		return fe.Code.Name()
	case errors.As(err, &te):
		return "transport"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "canceled"
	}
	return "_OTHER"
}

// serverAttrs are server.address and server.port of host:port.
func serverAttrs(addr string) []attribute.KeyValue {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return []attribute.KeyValue{semconv.ServerAddress(addr)}
	}
	n, _ := strconv.Atoi(port)
	return []attribute.KeyValue{semconv.ServerAddress(host), semconv.ServerPort(n)}
}

// millis turns seconds into milliseconds, the Java client's unit.
func millis(seconds float64) float64 { return seconds * 1e3 }
