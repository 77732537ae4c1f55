package main

import (
	"slices"
	"testing"

	"github.com/gofluss/fluss/internal/clustertest"
	flussotel "github.com/gofluss/fluss/otel"
	"github.com/gofluss/fluss/otel/otlptest"
)

// TestClusterOTel runs a script with --otel against a collector in the
// test: the statements' spans and the client's metrics reach it by the
// time the shell exits.
func TestClusterOTel(t *testing.T) {
	addr := clustertest.Bootstrap(t)
	db := testDatabase(t, addr)
	createTable(t, addr, db, "CREATE TABLE kv (k INT PRIMARY KEY NOT ENFORCED, v STRING)")
	recv := otlptest.NewReceiver(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", recv.Endpoint())
	t.Setenv("OTEL_SERVICE_NAME", "flussql-test")
	r := runFlussql(t, "", "--otel", "--dsn", "fluss://"+addr+"/"+db, "-c",
		"INSERT INTO kv VALUES (1, 'a'); SELECT v FROM kv WHERE k = 1")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	var names []string
	for _, s := range recv.Spans() {
		names = append(names, s.GetName())
	}
	for _, want := range []string{"INSERT kv", "SELECT kv", "write kv", "PUT_KV", "lookup kv", "LOOKUP"} {
		if !slices.Contains(names, want) {
			t.Errorf("no span %q among %q", want, names)
		}
	}
	metrics := recv.MetricNames()
	for _, want := range []string{flussotel.MetricRequestLatency, flussotel.MetricSendLatency, flussotel.MetricOperationTime} {
		if !slices.Contains(metrics, want) {
			t.Errorf("no metric %s among %q", want, metrics)
		}
	}
}
