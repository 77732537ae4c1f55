//go:build faultsuite

package faultsuite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofluss/fluss"
	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/cluster"
	"github.com/gofluss/fluss/internal/clustertest"
	"github.com/gofluss/fluss/internal/testkit"
)

// ledger records what one writer was told: the ids acknowledged, the
// errors met, and the longest wait between two acknowledgements while
// stalls are measured.
type ledger struct {
	name string
	kv   bool // writes the primary-key table

	mu       sync.Mutex
	acked    []int64
	lastAck  time.Time
	maxStall time.Duration
	errs     map[string]int
	bad      []string
}

func (l *ledger) ack(s *suite, ids ...int64) {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if s.measuring.Load() && !l.lastAck.IsZero() {
		l.maxStall = max(l.maxStall, now.Sub(l.lastAck))
	}
	l.lastAck = now
	l.acked = append(l.acked, ids...)
}

func (l *ledger) failed(err error) {
	kind, ok := classify(err)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errs[kind]++
	if !ok && len(l.bad) < 10 {
		l.bad = append(l.bad, err.Error())
	}
}

// classify names the kind of a writer's error and says whether it is
// typed as the APIs promise: a *fluss.Error whose Retriable flag is its
// code's, a *flussrpc.WriteError holding a server or transport error, or
// the caller's deadline.
func classify(err error) (string, bool) {
	var se *fluss.Error
	if errors.As(err, &se) {
		return "sql " + se.Name, se.Retriable == se.Code.Retriable()
	}
	var we *flussrpc.WriteError
	if errors.As(err, &we) {
		var fe *flussrpc.Error
		var te *flussrpc.TransportError
		switch {
		case errors.As(err, &fe):
			return "native " + fe.Code.Name(), flussrpc.IsRetriable(err) == fe.Code.Retriable()
		case errors.As(err, &te):
			return "native transport", flussrpc.IsRetriable(err)
		case errors.Is(err, context.DeadlineExceeded):
			return "native request timeout", true
		}
		return "native untyped", false
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "deadline", true
	}
	return "untyped", false
}

// suite is the state shared by the writers and the faults.
type suite struct {
	t         *testing.T
	cfg       cluster.Config
	db        string
	proxy     *cutProxy
	client    *flussrpc.Client
	sqlDB     *sql.DB
	stop      chan struct{}
	wg        sync.WaitGroup
	measuring atomic.Bool
	ledgers   []*ledger
	closers   []func()
}

// opTimeout bounds each write: far longer than any failover should take.
const opTimeout = 90 * time.Second

func (s *suite) ledger(name string, kv bool) *ledger {
	l := &ledger{name: name, kv: kv, errs: map[string]int{}}
	s.ledgers = append(s.ledgers, l)
	return l
}

// loop runs op until the suite stops; op gets the next ids of its range.
func (s *suite) loop(l *ledger, base int64, op func(ctx context.Context, ids func(n int) []int64) ([]int64, error)) {
	next := base
	ids := func(n int) []int64 {
		out := make([]int64, n)
		for i := range out {
			out[i] = next
			next++
		}
		return out
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			select {
			case <-s.stop:
				return
			default:
			}
			ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
			done, err := op(ctx, ids)
			cancel()
			if err != nil {
				l.failed(err)
				time.Sleep(50 * time.Millisecond)
				continue
			}
			l.ack(s, done...)
		}
	}()
}

func values(ids []int64, src string) (string, []any) {
	var b strings.Builder
	args := make([]any, len(ids))
	for i, id := range ids {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("(?, '" + src + "')")
		args[i] = id
	}
	return b.String(), args
}

// startWriters starts every writer: through database/sql multi-row
// INSERTs, per-row INSERTs from 16 goroutines and BEGIN/COMMIT batches,
// and the native append and upsert writers.
func (s *suite) startWriters(ev, kv *flussrpc.Table) {
	multi := s.ledger("sql multi-row INSERT", false)
	s.loop(multi, 1_000_000_000, func(ctx context.Context, ids func(int) []int64) ([]int64, error) {
		batch := ids(8)
		v, args := values(batch, "multi")
		_, err := s.sqlDB.ExecContext(ctx, "INSERT INTO "+s.db+".ev (id, src) VALUES "+v, args...)
		return batch, err
	})
	row := s.ledger("sql per-row INSERT x16", true)
	for g := range 16 {
		s.loop(row, 2_000_000_000+int64(g)*10_000_000, func(ctx context.Context, ids func(int) []int64) ([]int64, error) {
			batch := ids(1)
			_, err := s.sqlDB.ExecContext(ctx, "INSERT INTO "+s.db+".kv (id, src) VALUES (?, 'row')", batch[0])
			return batch, err
		})
	}
	txl := s.ledger("sql BEGIN/COMMIT", false)
	s.loop(txl, 3_000_000_000, func(ctx context.Context, ids func(int) []int64) ([]int64, error) {
		tx, err := s.sqlDB.BeginTx(ctx, nil)
		if err != nil {
			return nil, err
		}
		batch := ids(4)
		for _, id := range batch {
			if _, err := tx.ExecContext(ctx, "INSERT INTO "+s.db+".ev (id, src) VALUES (?, 'tx')", id); err != nil {
				_ = tx.Rollback()
				return nil, err
			}
		}
		return batch, tx.Commit()
	})
	app, err := ev.NewAppendWriter(flussrpc.AppendOptions{})
	if err != nil {
		s.t.Fatal(err)
	}
	ups, err := kv.NewUpsertWriter(flussrpc.UpsertOptions{})
	if err != nil {
		s.t.Fatal(err)
	}
	s.closers = append(s.closers, func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := app.Close(ctx); err != nil {
			s.t.Logf("closing the append writer: %v", err)
		}
		if err := ups.Close(ctx); err != nil {
			s.t.Logf("closing the upsert writer: %v", err)
		}
	})
	s.nativeLoop(s.ledger("native AppendWriter", false), 4_000_000_000, app.Append, "app")
	s.nativeLoop(s.ledger("native UpsertWriter", true), 5_000_000_000, ups.Upsert, "ups")
}

// nativeLoop writes 20 rows at a time and awaits each row's result
// (without Flush: the rows leave on the batch timeout).
func (s *suite) nativeLoop(l *ledger, base int64, write func(context.Context, []any) (flussrpc.WriteResult, error), src string) {
	s.loop(l, base, func(ctx context.Context, ids func(int) []int64) ([]int64, error) {
		batch := ids(20)
		results := make([]flussrpc.WriteResult, 0, len(batch))
		for _, id := range batch {
			r, err := write(ctx, []any{id, src})
			if err != nil {
				return nil, err
			}
			results = append(results, r)
		}
		var acked []int64
		var first error
		for i, r := range results {
			if err := r.Wait(ctx); err != nil {
				if first == nil {
					first = err
				}
				continue
			}
			acked = append(acked, batch[i])
		}
		if first != nil {
			l.ack(s, acked...) // the others of the batch were written
			return nil, first
		}
		return acked, nil
	})
}

// pause lets the writers run for d.
func pause(d time.Duration) { time.Sleep(d) }

// TestFaults is the fault-injection suite (see the package comment).
func TestFaults(t *testing.T) {
	testkit.Integration(t) // before the cluster checks below
	cfg, err := cluster.FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Tablets < 3 {
		t.Fatalf("the fault suite needs a cluster of 3 tablet servers (FLUSS_TABLETS=3, as make test sets), not %d", cfg.Tablets)
	}
	boot := clustertest.Bootstrap(t)
	baseline := runtime.NumGoroutine()
	began := time.Now()

	proxy, err := newCutProxy()
	if err != nil {
		t.Fatal(err)
	}
	s := &suite{t: t, cfg: cfg, proxy: proxy, stop: make(chan struct{})}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s.client, err = flussrpc.NewClient(ctx, flussrpc.Config{Bootstrap: []string{boot}, Conn: flussrpc.ConnConfig{Dialer: proxy.dial}})
	if err != nil {
		t.Fatal(err)
	}
	s.db = fmt.Sprintf("faults_%d", rand.IntN(1_000_000))
	adm := s.client.Admin()
	if err := adm.CreateDatabase(ctx, s.db, schema.DatabaseDescriptor{}, false); err != nil {
		t.Fatal(err)
	}
	ev := createTable(t, s.client, s.db, "ev", nil)
	kv := createTable(t, s.client, s.db, "kv", nil, "id")
	// One replica only: its bucket has no leader while its server is down.
	solo := createTable(t, s.client, s.db, "solo", map[string]string{"table.replication.factor": "1"}, "id")

	dsn, err := fluss.ParseDSN("fluss://" + boot + "/" + s.db)
	if err != nil {
		t.Fatal(err)
	}
	dsn.Dialer = proxy.dial
	if s.sqlDB, err = fluss.OpenDB(dsn); err != nil {
		t.Fatal(err)
	}
	s.sqlDB.SetMaxOpenConns(20)

	s.startWriters(ev, kv)
	pause(5 * time.Second)

	// (a) SIGKILL the leader of a bucket, restart it after its ZooKeeper
	// session expired. It is the only replica of solo's bucket, and leads
	// one bucket of the other tables too (three buckets, three servers).
	s.measuring.Store(true)
	victim := leaderOf(t, adm, solo.Path())
	t.Logf("killing %s, the leader of bucket 0 of solo", victim)
	if err := cfg.Kill(victim); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	s.checkLeaderless(boot, solo.Path())
	pause(10*time.Second - time.Since(killed))
	if err := cfg.Restart(ctx, victim); err != nil {
		t.Fatal(err)
	}
	pause(5 * time.Second)
	s.measuring.Store(false)
	stall := s.longestStall()

	// (b) Cut connections at random.
	cutUntil := time.Now().Add(20 * time.Second)
	for time.Now().Before(cutUntil) {
		time.Sleep(time.Duration(200+rand.IntN(400)) * time.Millisecond)
		proxy.cutOne()
	}
	pause(5 * time.Second)

	// (c) SIGKILL the coordinator and restart it.
	t.Log("killing the coordinator")
	if err := cfg.Kill("coordinator"); err != nil {
		t.Fatal(err)
	}
	pause(8 * time.Second)
	if err := cfg.Restart(ctx, "coordinator"); err != nil {
		t.Fatal(err)
	}
	pause(5 * time.Second)

	close(s.stop)
	s.wg.Wait()
	s.closeAll()
	proxy.close()

	lost, dup := s.verify(boot)
	var acked int
	for _, l := range s.ledgers {
		acked += len(l.acked)
		t.Logf("%-26s acknowledged %6d, errors %v", l.name, len(l.acked), l.errs)
		for _, b := range l.bad {
			t.Errorf("%s saw an untyped or mis-flagged error: %s", l.name, b)
		}
	}
	t.Logf("FIGURES: acknowledged %d, lost %d, duplicated %d; longest write stall after the tablet kill %s; %d connections cut; suite took %s",
		acked, lost, dup, stall.Round(100*time.Millisecond), proxy.cuts.Load(), time.Since(began).Round(time.Second))
	if acked == 0 {
		t.Error("nothing was acknowledged")
	}
	if lost > 0 || dup > 0 {
		t.Errorf("%d acknowledged rows lost, %d rows duplicated", lost, dup)
	}
	// Each restarted server left a goroutine that reaps its process.
	checkGoroutines(t, baseline+2)
}

// createTable creates a table of three buckets (replicated three times,
// the cluster's default, unless props say otherwise), with primary key pk
// if given.
func createTable(t *testing.T, c *flussrpc.Client, db, name string, props map[string]string, pk ...string) *flussrpc.Table {
	t.Helper()
	cols := []schema.Column{schema.NewColumn("id", schema.BigInt().NotNull()), schema.NewColumn("src", schema.String())}
	sch, err := schema.NewSchema(cols, pk, nil)
	if err != nil {
		t.Fatal(err)
	}
	three := 3
	desc := schema.TableDescriptor{Schema: sch, BucketCount: &three, Properties: props}
	if err := desc.Normalize(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	path := flussrpc.TablePath{Database: db, Table: name}
	err = clustertest.CreateWithLeaders(t, func() error { return c.Admin().CreateTable(ctx, path, desc, false) },
		func() error { return c.Admin().DropTable(ctx, path, true) })
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := c.OpenTable(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// leaderOf names the tablet server leading bucket 0 of a table.
func leaderOf(t *testing.T, adm *flussrpc.Admin, path flussrpc.TablePath) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	buckets, err := adm.GetBuckets(ctx, path, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(buckets) == 0 || buckets[0].Leader < 0 {
		t.Fatalf("bucket 0 of %s has no leader: %+v", path, buckets)
	}
	return cluster.TabletName(buckets[0].Leader)
}

// longestStall is the longest wait between two acknowledgements of any
// writer while stalls were measured.
func (s *suite) longestStall() time.Duration {
	var d time.Duration
	for _, l := range s.ledgers {
		l.mu.Lock()
		d = max(d, l.maxStall)
		l.mu.Unlock()
	}
	return d
}

func (s *suite) closeAll() {
	for _, f := range s.closers {
		f()
	}
	if err := s.sqlDB.Close(); err != nil {
		s.t.Logf("closing the sql.DB: %v", err)
	}
	s.client.Close()
}

// verify reads both tables back with a fresh client that bypasses the
// proxy: every acknowledged id must be there (scan, and lookups for the
// primary-key table) and no id may be stored twice (the log table's rows,
// the primary-key table's changelog).
func (s *suite) verify(boot string) (lost, dup int) {
	t := s.t
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c, err := flussrpc.NewClient(ctx, flussrpc.Config{Bootstrap: []string{boot}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, name := range []string{"ev", "kv"} {
		tbl, err := c.OpenTable(ctx, flussrpc.TablePath{Database: s.db, Table: name})
		if err != nil {
			t.Fatal(err)
		}
		seen := scanIDs(t, ctx, tbl)
		var acked []int64
		for _, l := range s.ledgers {
			if l.kv == (name == "kv") {
				acked = append(acked, l.acked...)
			}
		}
		for _, id := range acked {
			if seen[id] == 0 {
				lost++
				if lost <= 10 {
					t.Errorf("%s: acknowledged id %d is missing", name, id)
				}
			}
		}
		for id, n := range seen {
			if n > 1 {
				dup++
				if dup <= 10 {
					t.Errorf("%s: id %d stored %d times", name, id, n)
				}
			}
		}
		if name == "kv" {
			lost += lookupMissing(t, ctx, tbl, acked)
		}
		t.Logf("%s: %d acknowledged, %d distinct ids stored", name, len(acked), len(seen))
	}
	return lost, dup
}

// scanIDs counts the records of each id in a table's log (for a
// primary-key table, its changelog) from the start to its current end.
func scanIDs(t *testing.T, ctx context.Context, tbl *flussrpc.Table) map[int64]int {
	t.Helper()
	sc, err := tbl.NewLogScanner(flussrpc.LogScanOptions{Bounded: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	if err := sc.SubscribeAll(ctx, flussrpc.ScanFromEarliest()); err != nil {
		t.Fatal(err)
	}
	seen := map[int64]int{}
	for {
		recs, err := sc.Poll(ctx, 5*time.Second)
		for _, r := range recs {
			seen[r.Row[0].(int64)]++
		}
		if errors.Is(err, io.EOF) {
			return seen
		}
		if err != nil {
			t.Fatalf("scanning %s: %v", tbl.Path(), err)
		}
	}
}

// lookupMissing looks every id up and counts those not found.
func lookupMissing(t *testing.T, ctx context.Context, tbl *flussrpc.Table, ids []int64) int {
	t.Helper()
	l, err := tbl.NewLookuper()
	if err != nil {
		t.Fatal(err)
	}
	var missing atomic.Int64
	var wg sync.WaitGroup
	work := make(chan int64)
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range work {
				_, found, err := l.Lookup(ctx, []any{id})
				if err != nil || !found {
					if missing.Add(1) <= 10 {
						t.Errorf("lookup of acknowledged id %d: found=%v, %v", id, found, err)
					}
				}
			}
		}()
	}
	for _, id := range ids {
		work <- id
	}
	close(work)
	wg.Wait()
	return int(missing.Load())
}

// checkGoroutines waits for the goroutines to come back to the baseline
// taken before any client was created.
func checkGoroutines(t *testing.T, baseline int) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for runtime.NumGoroutine() > baseline && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > baseline {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		t.Errorf("%d goroutines after Close, %d before the clients were made:\n%s", n, baseline, buf)
	}
}

// leaderlessLimit bounds the calls on a bucket without leader: their
// timeouts are 3 s, the rest is slack for a loaded machine.
const leaderlessLimit = 20 * time.Second

// checkLeaderless writes and looks up keys of a table whose only replica
// is down, with 3 s timeouts and contexts without deadline: every call
// must end, with an error naming the table and the bucket.
func (s *suite) checkLeaderless(boot string, path flussrpc.TablePath) {
	t := s.t
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := flussrpc.NewClient(ctx, flussrpc.Config{Bootstrap: []string{boot}, RequestTimeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tbl, err := c.OpenTable(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := tbl.NewUpsertWriter(flussrpc.UpsertOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close(ctx)
	if _, err := w.Upsert(ctx, []any{int64(1), "solo"}); err != nil {
		t.Fatal(err)
	}
	s.endsWithCause("UpsertWriter.Flush(context.Background())", path, func() error { return w.Flush(context.Background()) })
	l, err := tbl.NewLookuper()
	if err != nil {
		t.Fatal(err)
	}
	s.endsWithCause("Lookup(context.Background())", path, func() error {
		_, _, err := l.Lookup(context.Background(), []any{int64(1)})
		return err
	})
	db, err := sql.Open("fluss", "fluss://"+boot+"/"+s.db+"?request_timeout=3s")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s.endsWithCause("SQL INSERT with request_timeout=3s", path, func() error {
		_, err := db.ExecContext(context.Background(), "INSERT INTO solo (id, src) VALUES (1, 'sql')")
		return err
	})
}

// endsWithCause runs call, which must fail within leaderlessLimit with an
// error naming the table and bucket 0.
func (s *suite) endsWithCause(what string, path flussrpc.TablePath, call func() error) {
	t := s.t
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- call() }()
	select {
	case err := <-done:
		t.Logf("%s on a bucket without leader ended after %s: %v", what, time.Since(start).Round(100*time.Millisecond), err)
		if err == nil {
			t.Errorf("%s succeeded on a bucket without leader", what)
			return
		}
		for _, want := range []string{path.String(), "bucket 0"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error %q does not name %q", what, err, want)
			}
		}
	case <-time.After(leaderlessLimit):
		t.Errorf("%s on a bucket without leader did not end within %s", what, leaderlessLimit)
	}
}
