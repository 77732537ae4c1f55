package otel_test

import (
	"testing"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/gofluss/fluss/internal/lookupbench"
	flussotel "github.com/gofluss/fluss/otel"
)

// BenchmarkLookupOTel is a point lookup on the in-process fake cluster
// with no tracer and with this package's, recording every span and
// metric (and exporting none): what tracing costs a lookup when it is on. (What the
// hooks cost when unset is flussrpc's BenchmarkLookupHooks.)
//
//	go test ./otel -run '^$' -bench LookupOTel -benchmem -count 5
func BenchmarkLookupOTel(b *testing.B) {
	recorded := func() *flussotel.Tracer {
		// Without a processor the spans are sampled and recorded, then
		// dropped: the cost of tracing without that of an exporter.
		tp := sdktrace.NewTracerProvider()
		mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
		return flussotel.NewTracer(flussotel.WithTracerProvider(tp), flussotel.WithMeterProvider(mp))
	}
	b.Run("unset", func(b *testing.B) { lookupbench.Run(b, nil) })
	b.Run("otel", func(b *testing.B) { lookupbench.Run(b, recorded()) })
}
