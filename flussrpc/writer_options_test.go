package flussrpc

import (
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
)

func TestWriterOptionsSet(t *testing.T) {
	var o WriterOptions
	for k, v := range map[string]string{
		"client.writer.batch-size":                       "4mb",
		"client.writer.batch-timeout":                    "20 ms",
		"client.writer.buffer.memory-size":               "128 MB",
		"client.writer.buffer.wait-timeout":              "2s",
		"client.writer.request-max-size":                 "1048576",
		"client.writer.acks":                             "all",
		"client.writer.retries":                          "7",
		"client.writer.enable-idempotence":               "false",
		"client.writer.max-inflight-requests-per-bucket": "3",
		"client.writer.dynamic-create-partition.enabled": "false",
		"client.writer.bucket.no-key-assigner":           "round_robin",
		"client.writer.delivery-timeout":                 "1 min",
	} {
		if err := o.Set(k, v); err != nil {
			t.Fatalf("Set(%s, %s): %v", k, v, err)
		}
	}
	want := WriterOptions{BatchSize: 4 << 20, BatchTimeout: 20 * time.Millisecond, BufferMemory: 128 << 20,
		BufferWaitTimeout: 2 * time.Second, RequestMaxSize: 1 << 20, Acks: "all", Retries: 7,
		DisableIdempotence: true, MaxInflightPerBucket: 3, DisableDynamicPartitions: true, NoKeyAssigner: AssignerRoundRobin, DeliveryTimeout: time.Minute}
	if o != want {
		t.Fatalf("options = %+v, want %+v", o, want)
	}
	for k, v := range map[string]string{"client.writer.acks": "2", "client.writer.batch-size": "big",
		"client.writer.batch-timeout": "soon", "client.writer.nope": "1"} {
		if err := o.Set(k, v); err == nil {
			t.Errorf("Set(%s, %s) accepted", k, v)
		}
	}
	if err := o.Set("client.writer.retries", "0"); err != nil || o.Retries >= 0 {
		t.Errorf("retries=0 gives Retries %d, %v; want negative (none)", o.Retries, err)
	}
}

func TestWriterOptionsResolve(t *testing.T) {
	c := &Client{cfg: Config{RequestTimeout: time.Second}, hooks: &noHooks}
	cfg, err := (&WriterOptions{}).resolve(c)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.batchSize != DefaultWriterBatchSize || cfg.linger != DefaultWriterBatchTimeout || cfg.memory != DefaultWriterBufferMemory ||
		cfg.acks != -1 || !cfg.idempotent || cfg.maxInflight != 5 || cfg.retries != DefaultWriterRetries || !cfg.dynamicParts || cfg.roundRobin {
		t.Fatalf("defaults = %+v", cfg)
	}
	for _, bad := range []WriterOptions{{Acks: "0"}, {MaxInflightPerBucket: 6}, {Retries: -1}, {NoKeyAssigner: "RANDOM"}, {Acks: "x", DisableIdempotence: true}} {
		if _, err := bad.resolve(c); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	if _, err := (&WriterOptions{Acks: "1", DisableIdempotence: true, Retries: -1}).resolve(c); err != nil {
		t.Errorf("non-idempotent acks=1 without retries: %v", err)
	}
}

// TestSplitRequests: one batch per bucket per request, in sequence order,
// and the size cap.
func TestSplitRequests(t *testing.T) {
	a, b := &writeBucket{}, &writeBucket{}
	mk := func(bs *writeBucket, seq int32, size int) *writeBatch {
		return &writeBatch{bs: bs, seq: seq, data: make([]byte, size)}
	}
	batches := []*writeBatch{mk(a, 0, 10), mk(a, 1, 10), mk(a, 2, 10), mk(b, 0, 10), mk(b, 1, 10)}
	reqs := splitRequests(batches, 1000)
	if len(reqs) != 3 || len(reqs[0]) != 2 || len(reqs[1]) != 2 || len(reqs[2]) != 1 {
		t.Fatalf("split into %v", reqs)
	}
	for i, r := range reqs {
		seen := map[*writeBucket]bool{}
		for _, x := range r {
			if seen[x.bs] {
				t.Fatalf("request %d holds two batches of one bucket", i)
			}
			seen[x.bs] = true
			if x.seq != int32(i) {
				t.Fatalf("request %d holds sequence %d", i, x.seq)
			}
		}
	}
	big := []*writeBatch{mk(a, 0, 600), mk(b, 0, 600), mk(&writeBucket{}, 0, 2000)}
	if reqs := splitRequests(big, 1000); len(reqs) != 3 {
		t.Fatalf("size cap: %d requests, want 3", len(reqs))
	}
}

func TestRestamp(t *testing.T) {
	// A re-stamped batch must equal one built with the same writer state.
	for _, kv := range []bool{false, true} {
		build := func(wid int64, seq int32) []byte {
			if kv {
				k := &kvBuilder{b: newTestKvBuilder()}
				out, _ := k.build(wid, seq)
				return append([]byte(nil), out...)
			}
			l := newTestLogBuilder(t)
			out, _ := l.build(wid, seq)
			return append([]byte(nil), out...)
		}
		b := build(-1, -1)
		restamp(kv, b, 42, 7)
		if want := build(42, 7); string(b) != string(want) {
			t.Fatalf("kv=%v: restamped batch differs from a fresh one", kv)
		}
	}
}

func newTestKvBuilder() *codec.KvBatchBuilder {
	b := codec.NewKvBatchBuilder(3)
	_ = b.Append([]byte{1, 2}, []byte{0, 5})
	return b
}

func newTestLogBuilder(t *testing.T) *logRowBuilder {
	enc, err := codec.NewCompactedEncoder([]schema.DataType{schema.BigInt(), schema.String()})
	if err != nil {
		t.Fatal(err)
	}
	b, err := codec.NewLogBatchBuilder(codec.LogCompacted, 1, enc, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Append(codec.AppendOnly, []any{int64(5), "x"}); err != nil {
		t.Fatal(err)
	}
	return &logRowBuilder{b: b}
}
