// Command demo shows what package otel records for a Fluss application:
// it writes and reads a primary-key table (INSERT, SELECT by key) and a
// log table (INSERT, a scan) through a driver
// whose Tracer keeps its spans and metrics in memory, then prints each
// statement's span tree (with durations and the attributes that tell what
// happened) and the metrics the client produced, under the Java client's
// names. `make demo` runs it after the quickstart.
//
// An application exports the same spans and metrics over OTLP by
// calling otlp.Start and giving the driver otel.NewTracer(); the shell
// and the Flight SQL server do so with --otel.
package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/gofluss/fluss"
	"github.com/gofluss/fluss/examples"
	flussotel "github.com/gofluss/fluss/otel"
	"github.com/gofluss/fluss/otel/internal/spantree"
)

func main() { examples.Main("otel_demo", 2*time.Minute, run) }

// tables are what the demo creates; statements, what it traces then.
var (
	tables = []string{
		"CREATE TABLE users (id BIGINT PRIMARY KEY NOT ENFORCED, name STRING) WITH ('bucket.num' = '1')",
		"CREATE TABLE events (user_id BIGINT, kind STRING) WITH ('bucket.num' = '1')",
	}
	statements = []string{
		"INSERT INTO users VALUES (1, 'ada'), (2, 'bob')",
		"SELECT name FROM users WHERE id = 1",
		"INSERT INTO events VALUES (1, 'login'), (2, 'login'), (1, 'logout')",
		"SELECT * FROM events",
	}
)

// run traces the statements in database db and prints their spans and
// the metrics to out.
func run(ctx context.Context, dsn, db string, out io.Writer) error {
	if err := examples.Recreate(ctx, dsn, db); err != nil {
		return err
	}
	cfg, err := examples.InDatabase(dsn, db)
	if err != nil {
		return err
	}
	spans := tracetest.NewSpanRecorder()
	reader := sdkmetric.NewManualReader()
	cfg.Tracer = flussotel.NewTracer(
		flussotel.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))),
		flussotel.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))),
		flussotel.WithQueryText())
	traced, err := fluss.OpenDB(cfg)
	if err != nil {
		return err
	}
	defer traced.Close()

	for _, q := range tables {
		if _, err := traced.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	for _, q := range statements {
		if err := runOne(ctx, traced, q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
		fmt.Fprintf(out, "%s\n%s\n", q, spantree.Render(traceOf(spans.Ended(), q), label))
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(ctx, &rm); err != nil {
		return err
	}
	fmt.Fprintln(out, "metrics:")
	for _, line := range metricLines(rm) {
		fmt.Fprintf(out, "  %s\n", line)
	}
	return nil
}

// runOne runs q, reading a query's rows to the end.
func runOne(ctx context.Context, db *sql.DB, q string) error {
	if !strings.HasPrefix(q, "SELECT") {
		_, err := db.ExecContext(ctx, q)
		return err
	}
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
	}
	return rows.Err()
}

// traceOf returns the spans of the trace whose statement span has text q.
func traceOf(ended []sdktrace.ReadOnlySpan, q string) []sdktrace.ReadOnlySpan {
	i := slices.IndexFunc(ended, func(s sdktrace.ReadOnlySpan) bool { return spantree.Attr(s, "db.query.text") == q })
	if i < 0 {
		return nil
	}
	id := ended[i].SpanContext().TraceID()
	var trace []sdktrace.ReadOnlySpan
	for _, s := range ended {
		if s.SpanContext().TraceID() == id {
			trace = append(trace, s)
		}
	}
	return trace
}

// shown are the attributes a span's line carries when it has them.
var shown = []string{"fluss.plan", "fluss.rows_affected", "fluss.records", "fluss.keys", "fluss.buckets", "fluss.bytes", "fluss.request.bytes", "fluss.response.bytes", "server.address"}

// label is a span's line: its name, how long it took and what it did.
func label(s sdktrace.ReadOnlySpan) string {
	parts := []string{s.Name(), fmt.Sprintf("%.2f ms", float64(s.EndTime().Sub(s.StartTime()).Microseconds())/1e3)}
	for _, key := range shown {
		if v := spantree.Attr(s, key); v != "" {
			parts = append(parts, key+"="+v)
		}
	}
	return strings.Join(parts, "  ")
}

// metricLines sums each metric over its data points, one line per
// metric, sorted by name: a count and mean for a histogram, the total
// for a counter, the last value for a gauge.
func metricLines(rm metricdata.ResourceMetrics) []string {
	var lines []string
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			lines = append(lines, fmt.Sprintf("%-45s %s", m.Name, summary(m.Data)))
		}
	}
	slices.Sort(lines)
	return lines
}

func summary(data metricdata.Aggregation) string {
	switch d := data.(type) {
	case metricdata.Sum[int64]:
		return fmt.Sprintf("total %d", sumOf(d.DataPoints))
	case metricdata.Sum[float64]:
		return fmt.Sprintf("total %.2f", sumOf(d.DataPoints))
	case metricdata.Histogram[int64]:
		return histogram(d.DataPoints)
	case metricdata.Histogram[float64]:
		return histogram(d.DataPoints)
	case metricdata.Gauge[int64]:
		return fmt.Sprintf("last %d", lastOf(d.DataPoints))
	case metricdata.Gauge[float64]:
		return fmt.Sprintf("last %.2f", lastOf(d.DataPoints))
	}
	return fmt.Sprintf("%T", data)
}

func sumOf[N int64 | float64](points []metricdata.DataPoint[N]) N {
	var total N
	for _, p := range points {
		total += p.Value
	}
	return total
}

func lastOf[N int64 | float64](points []metricdata.DataPoint[N]) N {
	if len(points) == 0 {
		return 0
	}
	return points[len(points)-1].Value
}

func histogram[N int64 | float64](points []metricdata.HistogramDataPoint[N]) string {
	var count uint64
	var sum N
	for _, p := range points {
		count += p.Count
		sum += p.Sum
	}
	if count == 0 {
		return "count 0"
	}
	return fmt.Sprintf("count %d, mean %.2f", count, float64(sum)/float64(count))
}
