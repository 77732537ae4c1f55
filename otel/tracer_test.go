package otel

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/gofluss/fluss/flussrpc"
)

func TestErrorType(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{&flussrpc.Error{Code: flussrpc.CodeRequestTimeOut}, "REQUEST_TIME_OUT"},
		{fmt.Errorf("lookup: %w", &flussrpc.Error{Code: flussrpc.CodeTableNotExist}), "TABLE_NOT_EXIST"},
		{&flussrpc.TransportError{Addr: "h:1", Op: "read", Err: errors.New("EOF")}, "transport"},
		{context.DeadlineExceeded, "timeout"},
		{fmt.Errorf("scan: %w", context.Canceled), "canceled"},
		{errors.New("table t has 3 columns, got 2"), "_OTHER"},
	}
	for _, tt := range tests {
		if got := errorType(tt.err); got != tt.want {
			t.Errorf("errorType(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

func TestServerAttrs(t *testing.T) {
	tests := []struct {
		addr string
		want []attribute.KeyValue
	}{
		{"127.0.0.1:9123", []attribute.KeyValue{attribute.String("server.address", "127.0.0.1"), attribute.Int("server.port", 9123)}},
		{"[::1]:9123", []attribute.KeyValue{attribute.String("server.address", "::1"), attribute.Int("server.port", 9123)}},
		{"no-port", []attribute.KeyValue{attribute.String("server.address", "no-port")}},
	}
	for _, tt := range tests {
		if got := serverAttrs(tt.addr); fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("serverAttrs(%q) = %v, want %v", tt.addr, got, tt.want)
		}
	}
}

// pollIdleRatio is the time in poll over the time in and between polls;
// a first poll has no interval and records nothing.
func TestPollIdleRatio(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	tr := NewTracer(WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))))
	ctx := context.Background()
	tr.TracePoll(ctx, flussrpc.TracePollData{Wait: time.Second})
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(ctx, &rm); err != nil {
		t.Fatal(err)
	}
	if len(rm.ScopeMetrics) != 0 {
		t.Fatalf("a first poll recorded %v", rm.ScopeMetrics)
	}
	tr.TracePoll(ctx, flussrpc.TracePollData{Wait: 3 * time.Second, Between: time.Second})
	if err := reader.Collect(ctx, &rm); err != nil {
		t.Fatal(err)
	}
	for _, m := range rm.ScopeMetrics[0].Metrics {
		if g, ok := m.Data.(metricdata.Gauge[float64]); ok && m.Name == MetricPollIdleRatio {
			if v := g.DataPoints[0].Value; v != 0.75 {
				t.Errorf("pollIdleRatio = %v, want 0.75", v)
			}
			return
		}
	}
	t.Errorf("no %s among %v", MetricPollIdleRatio, rm.ScopeMetrics[0].Metrics)
}
