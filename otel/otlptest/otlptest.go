// Package otlptest is an OTLP/HTTP receiver in memory, for tests of
// programs that export with package otlp: point
// OTEL_EXPORTER_OTLP_ENDPOINT at Receiver.Endpoint and read what arrived.
package otlptest

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	colmetricpb "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// Receiver accepts OTLP/HTTP protobuf exports of traces and metrics.
type Receiver struct {
	srv *httptest.Server

	mu      sync.Mutex
	spans   []*tracepb.Span
	metrics []string
}

// NewReceiver starts a receiver on loopback; it stops when t ends.
func NewReceiver(t testing.TB) *Receiver {
	r := &Receiver{}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/traces", r.traces)
	mux.HandleFunc("POST /v1/metrics", r.metricsExport)
	r.srv = httptest.NewServer(mux)
	t.Cleanup(r.srv.Close)
	return r
}

// Endpoint is the receiver's URL, for OTEL_EXPORTER_OTLP_ENDPOINT.
func (r *Receiver) Endpoint() string { return r.srv.URL }

// Spans returns the spans received so far.
func (r *Receiver) Spans() []*tracepb.Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.spans)
}

// MetricNames returns the names of the metrics received so far, sorted,
// each once.
func (r *Receiver) MetricNames() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	names := slices.Clone(r.metrics)
	slices.Sort(names)
	return slices.Compact(names)
}

func (r *Receiver) traces(w http.ResponseWriter, req *http.Request) {
	var msg coltracepb.ExportTraceServiceRequest
	if !decode(w, req, &msg) {
		return
	}
	r.mu.Lock()
	for _, rs := range msg.GetResourceSpans() {
		for _, ss := range rs.GetScopeSpans() {
			r.spans = append(r.spans, ss.GetSpans()...)
		}
	}
	r.mu.Unlock()
	reply(w, &coltracepb.ExportTraceServiceResponse{})
}

func (r *Receiver) metricsExport(w http.ResponseWriter, req *http.Request) {
	var msg colmetricpb.ExportMetricsServiceRequest
	if !decode(w, req, &msg) {
		return
	}
	r.mu.Lock()
	for _, rm := range msg.GetResourceMetrics() {
		for _, sm := range rm.GetScopeMetrics() {
			for _, m := range sm.GetMetrics() {
				r.metrics = append(r.metrics, m.GetName())
			}
		}
	}
	r.mu.Unlock()
	reply(w, &colmetricpb.ExportMetricsServiceResponse{})
}

// decode reads a request's protobuf body, gzipped or not, into msg; on
// failure it answers 400 and returns false.
func decode(w http.ResponseWriter, req *http.Request, msg proto.Message) bool {
	var body io.Reader = req.Body
	if req.Header.Get("Content-Encoding") == "gzip" {
		gz, err := gzip.NewReader(req.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return false
		}
		defer gz.Close()
		body = gz
	}
	b, err := io.ReadAll(body)
	if err == nil {
		err = proto.Unmarshal(b, msg)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return false
	}
	return true
}

func reply(w http.ResponseWriter, msg proto.Message) {
	b, err := proto.Marshal(msg)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(b)
}
