package main

import (
	"context"
	"encoding/hex"
	"slices"
	"testing"

	fsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	"github.com/gofluss/fluss/internal/clustertest"
	"github.com/gofluss/fluss/internal/testkit"
	flussotel "github.com/gofluss/fluss/otel"
	"github.com/gofluss/fluss/otel/otlptest"
)

// TestServeOTel serves with --otel and a collector in the test: a query's
// statement span, its RPC spans and the client's metrics reach the
// collector by the time the server stops.
func TestServeOTel(t *testing.T) {
	dsn := "fluss://" + clustertest.Bootstrap(t) + "/fluss"
	recv := otlptest.NewReceiver(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", recv.Endpoint())
	ctx, cancel := context.WithCancel(testkit.Context(t))
	defer cancel()
	addr, status := serve(t, ctx, "--otel", "--allow-anonymous", "--dsn", dsn)

	cl, err := fsql.NewClient(addr, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	// The caller's trace, as a W3C traceparent header.
	const traceID, parentID = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	callCtx := metadata.AppendToOutgoingContext(ctx, "traceparent", "00-"+traceID+"-"+parentID+"-01")
	info, err := cl.Execute(callCtx, "SHOW DATABASES")
	if err != nil {
		t.Fatalf("SHOW DATABASES: %v", err)
	}
	rd, err := cl.DoGet(callCtx, info.Endpoint[0].Ticket)
	if err != nil {
		t.Fatalf("DoGet: %v", err)
	}
	for rd.Next() {
	}
	rd.Release()
	cancel()
	stopped(t, status)

	var names []string
	for _, s := range recv.Spans() {
		names = append(names, s.GetName())
		if s.GetName() == "SHOW" && (hex.EncodeToString(s.GetTraceId()) != traceID || hex.EncodeToString(s.GetParentSpanId()) != parentID) {
			t.Errorf("span SHOW in trace %x under %x; want the caller's trace %s under %s",
				s.GetTraceId(), s.GetParentSpanId(), traceID, parentID)
		}
	}
	for _, want := range []string{"SHOW", "LIST_DATABASES"} {
		if !slices.Contains(names, want) {
			t.Errorf("no span %q among %q", want, names)
		}
	}
	if metrics := recv.MetricNames(); !slices.Contains(metrics, flussotel.MetricRequestLatency) {
		t.Errorf("no metric %s among %q", flussotel.MetricRequestLatency, metrics)
	}
}
