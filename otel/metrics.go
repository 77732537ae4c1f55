package otel

import (
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
)

// The metric names: the Java client's (its MetricNames, under the scopes
// client.request, client.writer and client.scanner), prefixed with
// "fluss.", and the database conventions' operation duration.
const (
	MetricRequests        = "fluss.client.request.requestsPerSecond"
	MetricResponses       = "fluss.client.request.responsesPerSecond"
	MetricBytesIn         = "fluss.client.request.bytesInPerSecond"
	MetricBytesOut        = "fluss.client.request.bytesOutPerSecond"
	MetricRequestLatency  = "fluss.client.request.requestLatencyMs"
	MetricRequestsFlight  = "fluss.client.request.requestsInFlight"
	MetricSendLatency     = "fluss.client.writer.sendLatencyMs"
	MetricBatchQueueTime  = "fluss.client.writer.batchQueueTimeMs"
	MetricRecordsRetry    = "fluss.client.writer.recordsRetryPerSecond"
	MetricRecordsSend     = "fluss.client.writer.recordSendPerSecond"
	MetricBytesSend       = "fluss.client.writer.bytesSendPerSecond"
	MetricBytesPerBatch   = "fluss.client.writer.bytesPerBatch"
	MetricRecordsPerBatch = "fluss.client.writer.recordsPerBatch"
	MetricFetchLatency    = "fluss.client.scanner.fetchLatencyMs"
	MetricFetchRequests   = "fluss.client.scanner.fetchRequestsPerSecond"
	MetricBytesPerRequest = "fluss.client.scanner.bytesPerRequest"
	MetricPollIdleRatio   = "fluss.client.scanner.pollIdleRatio"
	MetricTimeBetweenPoll = "fluss.client.scanner.timeMsBetweenPoll"
	MetricOperationTime   = "db.client.operation.duration"
)

// instruments are a Tracer's metrics.
type instruments struct {
	requests, responses, bytesIn, bytesOut metric.Int64Counter
	latency                                metric.Float64Histogram
	inFlight                               metric.Int64UpDownCounter

	sendLatency, batchQueueTime          metric.Float64Histogram
	recordsRetry, recordsSend, bytesSend metric.Int64Counter
	bytesPerBatch, recordsPerBatch       metric.Int64Histogram
	fetchLatency, timeBetweenPoll        metric.Float64Histogram
	fetchRequests                        metric.Int64Counter
	bytesPerRequest                      metric.Int64Histogram
	pollIdleRatio                        metric.Float64Gauge
	operationDuration                    metric.Float64Histogram
}

// msBuckets are the bounds of the millisecond histograms: a lookup or a
// write on a local cluster takes about a millisecond, a long fetch wait
// half a second, a timeout 30 s.
var msBuckets = metric.WithExplicitBucketBoundaries(0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000)

func newInstruments(m metric.Meter) *instruments {
	var in instruments
	var errs []error
	// keep collects each instrument's error; the SDK hands back a working
	// no-op instrument with it.
	keep := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	counter := func(name, unit, desc string) metric.Int64Counter {
		c, err := m.Int64Counter(name, metric.WithUnit(unit), metric.WithDescription(desc))
		keep(err)
		return c
	}
	histMs := func(name, desc string) metric.Float64Histogram {
		h, err := m.Float64Histogram(name, metric.WithUnit("ms"), metric.WithDescription(desc), msBuckets)
		keep(err)
		return h
	}
	histInt := func(name, unit, desc string) metric.Int64Histogram {
		h, err := m.Int64Histogram(name, metric.WithUnit(unit), metric.WithDescription(desc))
		keep(err)
		return h
	}
	in.requests = counter(MetricRequests, "{request}", "Requests sent, by API and server.")
	in.responses = counter(MetricResponses, "{response}", "Responses received, by API and server.")
	in.bytesIn = counter(MetricBytesIn, "By", "Bytes of the responses received.")
	in.bytesOut = counter(MetricBytesOut, "By", "Bytes of the requests sent.")
	in.latency = histMs(MetricRequestLatency, "Time from sending a request to its answer.")
	var err error
	in.inFlight, err = m.Int64UpDownCounter(MetricRequestsFlight, metric.WithUnit("{request}"), metric.WithDescription("Requests sent and not yet answered."))
	keep(err)
	in.sendLatency = histMs(MetricSendLatency, "Time from sending a write request to its acknowledgement.")
	in.batchQueueTime = histMs(MetricBatchQueueTime, "Time a write batch waited from its first record to its first send.")
	in.recordsRetry = counter(MetricRecordsRetry, "{record}", "Records sent again after a retriable failure.")
	in.recordsSend = counter(MetricRecordsSend, "{record}", "Records sent, retries included.")
	in.bytesSend = counter(MetricBytesSend, "By", "Bytes of write batches sent, retries included.")
	in.bytesPerBatch = histInt(MetricBytesPerBatch, "By", "Size of a write batch.")
	in.recordsPerBatch = histInt(MetricRecordsPerBatch, "{record}", "Records in a write batch.")
	in.fetchLatency = histMs(MetricFetchLatency, "Time from sending a fetch to its answer.")
	in.fetchRequests = counter(MetricFetchRequests, "{request}", "Fetch requests sent by scanners.")
	in.bytesPerRequest = histInt(MetricBytesPerRequest, "By", "Bytes of log records a fetch brought.")
	in.timeBetweenPoll = histMs(MetricTimeBetweenPoll, "Time a scanner's user spent between two polls.")
	in.pollIdleRatio, err = m.Float64Gauge(MetricPollIdleRatio, metric.WithUnit("1"), metric.WithDescription("Share of a scanner user's time spent waiting in poll."))
	keep(err)
	in.operationDuration, err = m.Float64Histogram(MetricOperationTime, metric.WithUnit("s"), metric.WithDescription("Duration of statements, to the end of their results."),
		metric.WithExplicitBucketBoundaries(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30))
	keep(err)
	for _, err := range errs {
		otel.Handle(err)
	}
	return &in
}
