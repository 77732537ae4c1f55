package flussrpc

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Writer defaults, the same as the Java client's (ConfigOptions).
const (
	// DefaultWriterBatchSize is client.writer.batch-size.
	DefaultWriterBatchSize = 2 << 20
	// DefaultWriterBatchTimeout is client.writer.batch-timeout.
	DefaultWriterBatchTimeout = 100 * time.Millisecond
	// DefaultWriterBufferMemory is client.writer.buffer.memory-size.
	DefaultWriterBufferMemory = 64 << 20
	// DefaultWriterRequestMaxSize is client.writer.request-max-size.
	DefaultWriterRequestMaxSize = 10 << 20
	// DefaultWriterMaxInflight is client.writer.max-inflight-requests-per-bucket.
	DefaultWriterMaxInflight = 5
	// DefaultWriterRetries is client.writer.retries (Integer.MAX_VALUE).
	DefaultWriterRetries = math.MaxInt32
)

// Values of WriterOptions.NoKeyAssigner (client.writer.bucket.no-key-assigner).
const (
	AssignerSticky     = "STICKY"
	AssignerRoundRobin = "ROUND_ROBIN"
)

// WriterOptions configure an append or upsert writer. Each field names the
// Java client option it corresponds to, so configuration given as
// "client.writer.*" keys (for example in a DSN) can be applied with Set.
// The zero value gives the Java defaults.
type WriterOptions struct {
	// BatchSize (client.writer.batch-size, default 2 MiB) is the size at
	// which a bucket's batch is closed and sent without waiting.
	BatchSize int
	// BatchTimeout (client.writer.batch-timeout, default 100ms) is how
	// long a batch that is not full waits for more rows before it is sent.
	// Negative means no wait. Flush sends at once regardless.
	BatchTimeout time.Duration
	// BufferMemory (client.writer.buffer.memory-size, default 64 MiB)
	// bounds the bytes of rows appended but not yet acknowledged; Append
	// blocks while it is used up.
	BufferMemory int64
	// BufferWaitTimeout (client.writer.buffer.wait-timeout, default
	// unbounded) limits how long Append blocks for buffer memory; the
	// context can always end the wait sooner. Zero means unbounded.
	BufferWaitTimeout time.Duration
	// RequestMaxSize (client.writer.request-max-size, default 10 MiB)
	// caps the batches sent to one server in one request.
	RequestMaxSize int
	// Acks (client.writer.acks, default "all") is "all" or "-1" (every
	// in-sync replica), "1" (leader only) or "0". Idempotence needs "all".
	Acks string
	// Retries (client.writer.retries, default Integer.MAX_VALUE) is how
	// often a batch is resent after a retriable error. Zero means the
	// default; negative means never.
	Retries int
	// DisableIdempotence turns off client.writer.enable-idempotence
	// (default true). Without it, retries may duplicate or reorder rows.
	DisableIdempotence bool
	// MaxInflightPerBucket (client.writer.max-inflight-requests-per-bucket,
	// default 5, at most 5 with idempotence) is how many batches of one
	// bucket may await acknowledgement at once.
	MaxInflightPerBucket int
	// DisableDynamicPartitions turns off
	// client.writer.dynamic-create-partition.enabled (default true): rows
	// for a missing partition then fail instead of creating it.
	DisableDynamicPartitions bool
	// DeliveryTimeout (client.writer.delivery-timeout, default the
	// client's request timeout) bounds how long a row may wait for its
	// acknowledgement, retries included: once it passes, the row's result
	// fails with the last error met (LEADER_NOT_AVAILABLE, a refused
	// connection, ...). A request already in flight still gets its own
	// request timeout. Negative means no limit. Java's client of Fluss 0.9
	// has no such option (its retries never end); the key follows Kafka's
	// delivery.timeout.ms.
	DeliveryTimeout time.Duration
	// NoKeyAssigner (client.writer.bucket.no-key-assigner, default STICKY)
	// spreads rows of log tables without bucket key: AssignerSticky keeps
	// one bucket until its batch is full, AssignerRoundRobin rotates per
	// row. Upsert writers ignore it.
	NoKeyAssigner string
}

// Set applies one Java client option given as key and string value, for
// example Set("client.writer.batch-size", "4mb"). Memory sizes accept the
// Java suffixes (b, kb, mb, gb, with optional space), durations Go or Java
// style ("100ms", "100 ms", "1 s"). Unknown keys are an error.
func (o *WriterOptions) Set(key, value string) error {
	v := strings.TrimSpace(value)
	var err error
	switch key {
	case "client.writer.batch-size":
		var n int64
		n, err = parseMemorySize(v)
		o.BatchSize = int(n)
	case "client.writer.batch-timeout":
		o.BatchTimeout, err = ParseJavaDuration(v)
	case "client.writer.buffer.memory-size":
		o.BufferMemory, err = parseMemorySize(v)
	case "client.writer.buffer.wait-timeout":
		o.BufferWaitTimeout, err = ParseJavaDuration(v)
	case "client.writer.request-max-size":
		var n int64
		n, err = parseMemorySize(v)
		o.RequestMaxSize = int(n)
	case "client.writer.acks":
		o.Acks = v
		_, err = o.acks()
	case "client.writer.retries":
		o.Retries, err = strconv.Atoi(v)
		if err == nil && o.Retries == 0 {
			o.Retries = -1
		}
	case "client.writer.enable-idempotence":
		var b bool
		b, err = strconv.ParseBool(v)
		o.DisableIdempotence = !b
	case "client.writer.max-inflight-requests-per-bucket":
		o.MaxInflightPerBucket, err = strconv.Atoi(v)
	case "client.writer.dynamic-create-partition.enabled":
		var b bool
		b, err = strconv.ParseBool(v)
		o.DisableDynamicPartitions = !b
	case "client.writer.delivery-timeout":
		o.DeliveryTimeout, err = ParseJavaDuration(v)
	case "client.writer.bucket.no-key-assigner":
		o.NoKeyAssigner = strings.ToUpper(v)
	default:
		return fmt.Errorf("flussrpc: unknown writer option %q", key)
	}
	if err != nil {
		return fmt.Errorf("flussrpc: option %s=%q: %w", key, value, err)
	}
	return nil
}

func (o *WriterOptions) acks() (int32, error) {
	switch strings.ToLower(strings.TrimSpace(o.Acks)) {
	case "", "all", "-1":
		return -1, nil
	case "0":
		return 0, nil
	case "1":
		return 1, nil
	}
	return 0, fmt.Errorf("flussrpc: client.writer.acks must be all, -1, 0 or 1, not %q", o.Acks)
}

// writerConfig is WriterOptions with defaults applied and checked.
type writerConfig struct {
	batchSize     int
	linger        time.Duration
	memory        int64
	memWait       time.Duration
	requestMax    int
	acks          int32
	retries       int
	idempotent    bool
	maxInflight   int
	dynamicParts  bool
	roundRobin    bool
	requestTimout time.Duration
	delivery      time.Duration // 0: no limit
	maxRecords    int           // records per batch; 0: only batchSize bounds it
}

func (o *WriterOptions) resolve(c *Client) (writerConfig, error) {
	cfg := writerConfig{
		batchSize:    o.BatchSize,
		linger:       o.BatchTimeout,
		memory:       o.BufferMemory,
		memWait:      o.BufferWaitTimeout,
		requestMax:   o.RequestMaxSize,
		retries:      o.Retries,
		idempotent:   !o.DisableIdempotence,
		maxInflight:  o.MaxInflightPerBucket,
		dynamicParts: !o.DisableDynamicPartitions,
	}
	var err error
	if cfg.acks, err = o.acks(); err != nil {
		return cfg, err
	}
	if cfg.batchSize <= 0 {
		cfg.batchSize = DefaultWriterBatchSize
	}
	switch {
	case cfg.linger == 0:
		cfg.linger = DefaultWriterBatchTimeout
	case cfg.linger < 0:
		cfg.linger = 0
	}
	if cfg.memory <= 0 {
		cfg.memory = DefaultWriterBufferMemory
	}
	if cfg.requestMax <= 0 {
		cfg.requestMax = DefaultWriterRequestMaxSize
	}
	switch {
	case cfg.retries == 0:
		cfg.retries = DefaultWriterRetries
	case cfg.retries < 0:
		cfg.retries = 0
	}
	if cfg.maxInflight <= 0 {
		cfg.maxInflight = DefaultWriterMaxInflight
	}
	switch strings.ToUpper(o.NoKeyAssigner) {
	case "", AssignerSticky:
	case AssignerRoundRobin:
		cfg.roundRobin = true
	default:
		return cfg, fmt.Errorf("flussrpc: client.writer.bucket.no-key-assigner must be STICKY or ROUND_ROBIN, not %q", o.NoKeyAssigner)
	}
	if cfg.idempotent {
		// The same rules as the Java client's IdempotenceManager checks.
		if cfg.acks != -1 {
			return cfg, errors.New("flussrpc: an idempotent writer needs client.writer.acks=all")
		}
		if cfg.retries == 0 {
			return cfg, errors.New("flussrpc: an idempotent writer needs client.writer.retries > 0")
		}
		if cfg.maxInflight > 5 {
			return cfg, fmt.Errorf("flussrpc: an idempotent writer allows at most 5 in-flight requests per bucket, not %d", cfg.maxInflight)
		}
	}
	cfg.requestTimout = c.cfg.RequestTimeout
	if cfg.requestTimout <= 0 {
		cfg.requestTimout = DefaultRequestTimeout
	}
	switch {
	case o.DeliveryTimeout == 0:
		cfg.delivery = cfg.requestTimout
	case o.DeliveryTimeout > 0:
		cfg.delivery = o.DeliveryTimeout
	}
	return cfg, nil
}
