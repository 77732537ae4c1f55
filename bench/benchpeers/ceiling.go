package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync/atomic"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/bench/internal/workload"
	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
	"github.com/gofluss/fluss/flussrpc/pb"
	"github.com/gofluss/fluss/internal/plural"
)

// The server ceiling: the requests a client would send for a workload,
// encoded once before the clock starts and replayed on raw connections to
// the bucket leaders, with many in flight. No client work (encoding,
// batching, routing, decoding) is left in the loop, so the rate is what
// the server (and loopback) can take; a client's figure divided by it says
// how much of the server the client uses.
//
// Writes carry no writer id (NoWriterID), as with idempotence off: the
// server then accepts a batch without a sequence check, so one encoding
// can be replayed. Each write request holds one batch of one bucket, as
// large as the writer's default batch size, with ceilingWindow requests
// per bucket in flight on the leader's connection.

// ceilingWindow is how many write requests per bucket are in flight, as
// the writer's default max in-flight requests per bucket.
const ceilingWindow = 5

// minCeilingTime is the least time a write replay runs for.
const minCeilingTime = 2 * time.Second

// Protocol versions the replay speaks, capped by what the server offers.
var ceilingVersions = map[flussrpc.APIKey]int16{
	flussrpc.APIKeyProduceLog: 0,
	flussrpc.APIKeyPutKV:      1,
	flussrpc.APIKeyLookup:     1,
}

// leaderRequests are the pre-encoded frames for one bucket leader.
type leaderRequests struct {
	addr   string
	frames [][]byte
	rows   []int // rows in each frame
	window int   // requests in flight
}

// batch is one encoded record batch and the rows it holds.
type batch struct {
	data []byte
	rows int
}

func runCeiling(ctx context.Context, j workload.Job) (workload.Result, error) {
	c, err := flussrpc.NewClient(ctx, flussrpc.Config{Bootstrap: []string{j.Bootstrap}})
	if err != nil {
		return workload.Result{}, err
	}
	defer c.Close()
	path := flussrpc.TablePath{Database: j.DB, Table: j.Table}
	t, err := c.OpenTable(ctx, path)
	if err != nil {
		return workload.Result{}, err
	}
	leaders, err := bucketLeaders(ctx, c.Admin(), path)
	if err != nil {
		return workload.Result{}, err
	}
	// Connect first: the handshake settles the versions the frames carry.
	conns := map[string]*replayConn{}
	defer func() {
		for _, rc := range conns {
			rc.Close()
		}
	}()
	for _, addr := range leaders {
		if conns[addr] == nil {
			rc, err := dialReplay(ctx, addr)
			if err != nil {
				return workload.Result{}, err
			}
			conns[addr] = rc
		}
	}
	info := t.Info()
	switch j.Mode {
	case "append", "upsert":
		encode, api := arrowBatches, flussrpc.APIKeyProduceLog
		if j.Mode == "upsert" {
			encode, api = kvBatches, flussrpc.APIKeyPutKV
		}
		batches, err := encode(info, j.Rows)
		if err != nil {
			return workload.Result{}, err
		}
		return replayWrites(api, info.TableID, leaders, conns, batches)
	case "lookup":
		return replayLookups(info, leaders, conns, j)
	}
	return workload.Result{}, fmt.Errorf("mode %q has no ceiling", j.Mode)
}

// bucketLeaders maps each bucket of the table to its leader's address.
func bucketLeaders(ctx context.Context, adm *flussrpc.Admin, path flussrpc.TablePath) (map[int32]string, error) {
	nodes, err := adm.GetServerNodes(ctx)
	if err != nil {
		return nil, err
	}
	addr := map[int32]string{}
	for _, n := range nodes {
		if n.Type == flussrpc.ServerTypeTabletServer {
			addr[n.ID] = n.Addr()
		}
	}
	bs, err := adm.GetBuckets(ctx, path, "")
	if err != nil {
		return nil, err
	}
	leaders := map[int32]string{}
	for _, b := range bs {
		a, ok := addr[b.Leader]
		if !ok {
			return nil, fmt.Errorf("bucket %d has no known leader (%d)", b.Bucket, b.Leader)
		}
		leaders[b.Bucket] = a
	}
	return leaders, nil
}

// arrowBatches encodes rows 0..n-1 as ARROW log batches in the table's
// compression, spread over the buckets one batch at a time (as the
// writer's sticky bucket assignment does).
func arrowBatches(info *flussrpc.TableInfo, n int) (map[int32][]batch, error) {
	d := &info.Descriptor
	enc, err := arrowipc.NewTableEncoder(d, nil)
	if err != nil {
		return nil, err
	}
	rb, err := arrowipc.NewRowBuilder(d.Schema.Columns, nil)
	if err != nil {
		return nil, err
	}
	defer rb.Release()
	out := map[int32][]batch{}
	bucket := int32(0)
	flush := func() error {
		rec := rb.NewRecord()
		defer rec.Release()
		b, err := enc.AppendLogBatch(nil, codec.ArrowBatch{SchemaID: int16(info.SchemaID), WriterID: codec.NoWriterID, BatchSequence: codec.NoBatchSequence}, rec)
		out[bucket] = append(out[bucket], batch{b, int(rec.NumRows())})
		bucket = (bucket + 1) % int32(info.NumBuckets())
		return err
	}
	for i := 0; i < n; i++ {
		if err := rb.Append(workload.Row(i)); err != nil {
			return nil, err
		}
		if i%1024 == 1023 && rb.EstimatedSize() >= flussrpc.DefaultWriterBatchSize {
			if err := flush(); err != nil {
				return nil, err
			}
		}
	}
	if rb.Len() > 0 {
		if err := flush(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// maxKvBatchRecords caps the records of a replayed KV batch: a Fluss
// 0.9.1 tablet server fails a PUT_KV whose batch of 2 MiB holds some 60,000
// of these small rows (IndexOutOfBoundsException in the change-type vector
// of its ARROW WAL builder).
const maxKvBatchRecords = 16384

// kvBatches encodes upserts of rows 0..n-1 as KV batches per bucket, of at
// most 2 MiB and maxKvBatchRecords records.
func kvBatches(info *flussrpc.TableInfo, n int) (map[int32][]batch, error) {
	d := &info.Descriptor
	rf, ok := codec.ParseRowFormat(d.KvFormat())
	if !ok {
		return nil, fmt.Errorf("unknown kv format %q", d.KvFormat())
	}
	enc, err := codec.NewRowEncoder(rf, d.Schema.Types())
	if err != nil {
		return nil, err
	}
	keys, err := codec.NewTableKeys(d)
	if err != nil {
		return nil, err
	}
	open := map[int32]*codec.KvBatchBuilder{}
	out := map[int32][]batch{}
	for i := 0; i < n; i++ {
		r := workload.Row(i)
		key, bk, err := keys.EncodeKeys(r)
		if err != nil {
			return nil, err
		}
		bucket, err := keys.Bucketing.Bucket(bk, info.NumBuckets())
		if err != nil {
			return nil, err
		}
		value, err := enc.AppendRow(nil, r)
		if err != nil {
			return nil, err
		}
		b := open[int32(bucket)]
		if b == nil {
			b = codec.NewKvBatchBuilder(int16(info.SchemaID))
			open[int32(bucket)] = b
		}
		if err := b.Append(key, value); err != nil {
			return nil, err
		}
		if b.Size() >= flussrpc.DefaultWriterBatchSize || b.RecordCount() >= maxKvBatchRecords {
			out[int32(bucket)] = append(out[int32(bucket)], batch{append([]byte(nil), b.Build()...), b.RecordCount()})
			b.Reset()
		}
	}
	for bucket, b := range open {
		if b.RecordCount() > 0 {
			out[bucket] = append(out[bucket], batch{append([]byte(nil), b.Build()...), b.RecordCount()})
		}
	}
	return out, nil
}

// replayWrites encodes one request per batch, per leader in the order
// batch 0 of each of its buckets, batch 1 of each, ..., and sends
// them all, and on from the first again until minCeilingTime has passed
// (an append of a million rows takes the server a fraction of a second);
// the clock stops at the last acknowledgement.
func replayWrites(api flussrpc.APIKey, tableID int64, leaders map[int32]string, conns map[string]*replayConn, batches map[int32][]batch) (workload.Result, error) {
	byLeader := map[string][]int32{}
	for bucket, addr := range leaders {
		byLeader[addr] = append(byLeader[addr], bucket)
	}
	var plans []leaderRequests
	for addr, bs := range byLeader {
		lr := leaderRequests{addr: addr}
		for k, more := 0, true; more; k++ {
			more = false
			for _, b := range bs {
				if k >= len(batches[b]) {
					continue
				}
				more = true
				f, err := encodeFrame(api, ceilingVersions[api], writeRequest(api, tableID, map[int32][]byte{b: batches[b][k].data}))
				if err != nil {
					return workload.Result{}, err
				}
				lr.frames = append(lr.frames, f)
				lr.rows = append(lr.rows, batches[b][k].rows)
			}
		}
		lr.window = ceilingWindow * len(bs)
		plans = append(plans, lr)
	}
	start := time.Now()
	until := start.Add(minCeilingTime)
	type out struct {
		rows int
		err  error
	}
	outs := make(chan out, len(plans))
	for _, p := range plans {
		go func() {
			lat, err := conns[p.addr].replay(p.frames, p.window, len(p.frames), until, writeResponseError(api))
			rows := 0
			for k := range lat {
				rows += p.rows[k%len(p.rows)]
			}
			outs <- out{rows, err}
		}()
	}
	var res workload.Result
	for range plans {
		o := <-outs
		if o.err != nil {
			return workload.Result{}, o.err
		}
		res.Ops += int64(o.rows)
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// writeRequest is a PRODUCE_LOG or PUT_KV request holding one batch for
// each bucket in batches, acknowledged by all replicas (acks -1), as the
// writers send them.
func writeRequest(api flussrpc.APIKey, tableID int64, batches map[int32][]byte) proto.Message {
	acks, id, timeout := proto.Int32(-1), proto.Int64(tableID), proto.Int32(30000)
	if api == flussrpc.APIKeyPutKV {
		r := &pb.PutKvRequest{Acks: acks, TableId: id, TimeoutMs: timeout}
		for bucket, data := range batches {
			r.BucketsReq = append(r.BucketsReq, &pb.PbPutKvReqForBucket{BucketId: proto.Int32(bucket), Records: data})
		}
		return r
	}
	r := &pb.ProduceLogRequest{Acks: acks, TableId: id, TimeoutMs: timeout}
	for bucket, data := range batches {
		r.BucketsReq = append(r.BucketsReq, &pb.PbProduceLogReqForBucket{BucketId: proto.Int32(bucket), Records: data})
	}
	return r
}

// bucketResult is the per-bucket part of a PRODUCE_LOG, PUT_KV or LOOKUP
// response.
type bucketResult interface {
	GetBucketId() int32
	GetErrorCode() int32
	GetErrorMessage() string
}

func firstBucketError[T bucketResult](rs []T) error {
	for _, b := range rs {
		if b.GetErrorCode() != 0 {
			return fmt.Errorf("bucket %d: error %d: %s", b.GetBucketId(), b.GetErrorCode(), b.GetErrorMessage())
		}
	}
	return nil
}

// writeResponseError returns the first per-bucket error of a write response.
func writeResponseError(api flussrpc.APIKey) func([]byte) error {
	return func(body []byte) error {
		if api == flussrpc.APIKeyPutKV {
			var r pb.PutKvResponse
			if err := proto.Unmarshal(body, &r); err != nil {
				return err
			}
			return firstBucketError(r.GetBucketsResp())
		}
		var r pb.ProduceLogResponse
		if err := proto.Unmarshal(body, &r); err != nil {
			return err
		}
		return firstBucketError(r.GetBucketsResp())
	}
}

// replayLookups sends single-key LOOKUP requests for the run's keys, with
// j.Conc of them in flight on one connection per leader, until j.Duration
// has passed.
func replayLookups(info *flussrpc.TableInfo, leaders map[int32]string, conns map[string]*replayConn, j workload.Job) (workload.Result, error) {
	keys, err := codec.NewTableKeys(&info.Descriptor)
	if err != nil {
		return workload.Result{}, err
	}
	frames := map[string][][]byte{}
	for n := 0; n < min(j.Rows, 1<<16); n++ {
		key, bk, err := keys.EncodeKeys([]any{workload.LookupKey(n, j.Rows), nil, nil})
		if err != nil {
			return workload.Result{}, err
		}
		bucket, err := keys.Bucketing.Bucket(bk, info.NumBuckets())
		if err != nil {
			return workload.Result{}, err
		}
		req := &pb.LookupRequest{TableId: proto.Int64(info.TableID), BucketsReq: []*pb.PbLookupReqForBucket{{BucketId: proto.Int32(int32(bucket)), Keys: [][]byte{key}}}}
		f, err := encodeFrame(flussrpc.APIKeyLookup, ceilingVersions[flussrpc.APIKeyLookup], req)
		if err != nil {
			return workload.Result{}, err
		}
		addr := leaders[int32(bucket)]
		frames[addr] = append(frames[addr], f)
	}
	type out struct {
		lat []time.Duration
		err error
	}
	outs := make(chan out, len(frames))
	until := time.Now().Add(j.Duration)
	start := time.Now()
	// The in-flight budget is split over the leaders as the keys are.
	for addr, fs := range frames {
		go func() {
			lat, err := conns[addr].replay(fs, max(1, j.Conc/len(frames)), 0, until, lookupResponseError)
			outs <- out{lat, err}
		}()
	}
	var all []time.Duration
	for range frames {
		o := <-outs
		if o.err != nil {
			return workload.Result{}, o.err
		}
		all = append(all, o.lat...)
	}
	res := workload.Result{Ops: int64(len(all)), Seconds: time.Since(start).Seconds()}
	return res.WithLatencies(all), nil
}

func lookupResponseError(body []byte) error {
	var r pb.LookupResponse
	if err := proto.Unmarshal(body, &r); err != nil {
		return err
	}
	if err := firstBucketError(r.GetBucketsResp()); err != nil {
		return err
	}
	for _, b := range r.GetBucketsResp() {
		if len(b.GetValues()) != 1 || len(b.GetValues()[0].GetValues()) == 0 {
			return errors.New("lookup of an existing key found nothing")
		}
	}
	return nil
}

// encodeFrame is a request frame: [length][api key][version][request id]
// [protobuf body], the request id patched in when it is sent.
func encodeFrame(api flussrpc.APIKey, version int16, req proto.Message) ([]byte, error) {
	body, err := proto.Marshal(req)
	if err != nil {
		return nil, err
	}
	f := make([]byte, 12, 12+len(body))
	binary.BigEndian.PutUint32(f, uint32(8+len(body)))
	binary.BigEndian.PutUint16(f[4:], uint16(api))
	binary.BigEndian.PutUint16(f[6:], uint16(version))
	return append(f, body...), nil
}

// replayConn is a raw connection to one tablet server.
type replayConn struct {
	net.Conn
	r *bufio.Reader
}

// dialReplay connects and exchanges API_VERSIONS, as every client does
// first; it lowers ceilingVersions to what the server offers.
func dialReplay(ctx context.Context, addr string) (*replayConn, error) {
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	rc := &replayConn{Conn: nc, r: bufio.NewReaderSize(nc, 1<<16)}
	f, err := encodeFrame(flussrpc.APIKeyAPIVersions, 0, &pb.ApiVersionsRequest{ClientSoftwareName: proto.String("benchpeers"), ClientSoftwareVersion: proto.String("0")})
	if err != nil {
		nc.Close()
		return nil, err
	}
	var resp pb.ApiVersionsResponse
	if _, err = nc.Write(f); err == nil {
		var body []byte
		if _, body, err = rc.readResponse(); err == nil {
			err = proto.Unmarshal(body, &resp)
		}
	}
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("API_VERSIONS with %s: %w", addr, err)
	}
	for _, v := range resp.GetApiVersions() {
		api := flussrpc.APIKey(v.GetApiKey())
		if ver, ok := ceilingVersions[api]; ok && int32(ver) > v.GetMaxVersion() {
			ceilingVersions[api] = int16(v.GetMaxVersion())
		}
	}
	return rc, nil
}

// readResponse reads one response frame: [length][type][request id][body].
func (rc *replayConn) readResponse() (int32, []byte, error) {
	var hdr [9]byte
	if _, err := io.ReadFull(rc.r, hdr[:]); err != nil {
		return 0, nil, err
	}
	n := int(binary.BigEndian.Uint32(hdr[:])) - 5
	if n < 0 || n > 64<<20 {
		return 0, nil, fmt.Errorf("response frame of %s", plural.Count(n, "byte"))
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(rc.r, body); err != nil {
		return 0, nil, err
	}
	if hdr[4] != 0 {
		var e pb.ErrorResponse
		_ = proto.Unmarshal(body, &e)
		return 0, nil, fmt.Errorf("server error %d: %s", e.GetErrorCode(), e.GetErrorMessage())
	}
	return int32(binary.BigEndian.Uint32(hdr[5:])), body, nil
}

// replay sends frames (cycling through them) with at most window
// unanswered, at least count requests and on until the time until; it
// returns the round-trip time of each request in the order sent. check
// inspects every response body.
func (rc *replayConn) replay(frames [][]byte, window, count int, until time.Time, check func([]byte) error) ([]time.Duration, error) {
	const ring = 1 << 16
	var sentAt [ring]atomic.Int64
	slots := make(chan struct{}, window)  // taken per request sent, freed per answer
	sent := make(chan struct{}, window+1) // one per request sent; closed at the end
	w := bufio.NewWriterSize(rc.Conn, 1<<16)
	epoch := time.Now()
	var sendErr error
	var stop atomic.Bool
	go func() {
		defer close(sent)
		for i := 0; !stop.Load() && (i < count || time.Now().Before(until)); i++ {
			select {
			case slots <- struct{}{}:
			default: // the window is full: put what is buffered on the wire, then wait
				if sendErr = w.Flush(); sendErr != nil {
					return
				}
				slots <- struct{}{}
			}
			f := frames[i%len(frames)]
			id := int32(i & (ring - 1))
			binary.BigEndian.PutUint32(f[8:], uint32(id))
			sentAt[id].Store(int64(time.Since(epoch)))
			if _, sendErr = w.Write(f); sendErr != nil {
				return
			}
			sent <- struct{}{}
		}
		sendErr = w.Flush()
	}()
	var lat []time.Duration
	var err error
	for range sent {
		var id int32
		var body []byte
		if id, body, err = rc.readResponse(); err == nil {
			err = check(body)
		}
		if err != nil {
			stop.Store(true)
			rc.Close()
			drain(sent, slots)
			break
		}
		lat = append(lat, time.Since(epoch)-time.Duration(sentAt[id&(ring-1)].Load()))
		<-slots
	}
	return lat, errors.Join(err, sendErr)
}

// drain frees window slots until the sender has stopped and closed sent.
func drain(sent, slots chan struct{}) {
	for {
		select {
		case _, ok := <-sent:
			if !ok {
				return
			}
		case <-slots:
		}
	}
}
