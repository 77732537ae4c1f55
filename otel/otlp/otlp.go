// Package otlp sets up OpenTelemetry's OTLP exporters from the standard
// environment variables, for programs (the fluss shell, the Flight SQL
// server) that export what otel.NewTracer reports.
//
// The variables are OpenTelemetry's: OTEL_EXPORTER_OTLP_ENDPOINT (or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT and _METRICS_ENDPOINT), _HEADERS,
// _TIMEOUT, _INSECURE and _PROTOCOL ("http/protobuf", the default, or
// "grpc"), OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES, and
// OTEL_METRIC_EXPORT_INTERVAL.
package otlp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// Configured reports whether the environment (read by getenv, os.Getenv
// in a program) names an OTLP endpoint, for programs that export only
// when asked to (by this or a flag).
func Configured(getenv func(string) string) bool {
	for _, v := range []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"} {
		if getenv(v) != "" {
			return true
		}
	}
	return false
}

// Start makes a tracer provider and a meter provider exporting over OTLP,
// as the environment says (without an endpoint, to the collector's
// default on localhost), and makes them and the W3C trace-context
// propagator the global ones. shutdown flushes what is buffered and
// stops the exporters, waiting at most FlushTimeout; call it before the
// program exits.
func Start(ctx context.Context) (shutdown func() error, err error) {
	res, err := resource.Merge(resource.Default(), resource.Environment())
	if err != nil {
		return nil, fmt.Errorf("otlp: resource: %w", err)
	}
	spans, err := traceExporter(ctx, protocol("TRACES"))
	if err != nil {
		return nil, err
	}
	metrics, err := metricExporter(ctx, protocol("METRICS"))
	if err != nil {
		_ = spans.Shutdown(ctx)
		return nil, err
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(spans), sdktrace.WithResource(res))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewPeriodicReader(metrics)), sdkmetric.WithResource(res))
	otel.SetTracerProvider(tp)
	otel.SetMeterProvider(mp)
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	return func() error {
		ctx, cancel := context.WithTimeout(context.Background(), FlushTimeout)
		defer cancel()
		return errors.Join(tp.Shutdown(ctx), mp.Shutdown(ctx))
	}, nil
}

// FlushTimeout bounds the wait of Start's shutdown for the last spans and
// metrics to reach the collector: one that is down must not keep a
// finished program from exiting.
const FlushTimeout = 5 * time.Second

// protocol is the OTLP protocol of a signal (TRACES or METRICS): its own
// variable, else the general one, else http/protobuf as the
// specification says.
func protocol(signal string) string {
	for _, v := range []string{"OTEL_EXPORTER_OTLP_" + signal + "_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"} {
		if p := strings.TrimSpace(os.Getenv(v)); p != "" {
			return p
		}
	}
	return "http/protobuf"
}

func traceExporter(ctx context.Context, proto string) (sdktrace.SpanExporter, error) {
	switch proto {
	case "grpc":
		return otlptracegrpc.New(ctx)
	case "http/protobuf":
		return otlptracehttp.New(ctx)
	}
	return nil, unknownProtocol("TRACES", proto)
}

func metricExporter(ctx context.Context, proto string) (sdkmetric.Exporter, error) {
	switch proto {
	case "grpc":
		return otlpmetricgrpc.New(ctx)
	case "http/protobuf":
		return otlpmetrichttp.New(ctx)
	}
	return nil, unknownProtocol("METRICS", proto)
}

func unknownProtocol(signal, proto string) error {
	return fmt.Errorf("otlp: OTEL_EXPORTER_OTLP_%s_PROTOCOL (or OTEL_EXPORTER_OTLP_PROTOCOL) is %q; want grpc or http/protobuf", signal, proto)
}
