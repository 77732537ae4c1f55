package flussrpc_test

import (
	"context"
	"encoding/hex"
	"errors"
	"io"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/clustertest"
	"github.com/gofluss/fluss/internal/testkit"
)

// TestScanLargeTableInBoundedMemory reads a table several times larger
// than a heap limit with a bounded scan, as rows and as Arrow batches that
// the caller drops as it goes, and checks that the heap never held more
// than a fraction of the table: the scanner buffers a bounded number of
// fetches, whatever the table's size.
func TestScanLargeTableInBoundedMemory(t *testing.T) {
	const (
		rows     = 32 << 10 // of 4000 bytes each: 125 MiB of strings
		padLen   = 4000
		memLimit = 24 << 20
		maxHeap  = 64 << 20 // half the table
	)
	// The fill gets minutes of its own on a busy machine; each scan then
	// has testkit's minute.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	c, err := flussrpc.NewClient(ctx, flussrpc.Config{Bootstrap: []string{clustertest.Bootstrap(t)}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	db := testkit.UniqueName("mem")
	if err := c.Admin().CreateDatabase(ctx, db, schema.DatabaseDescriptor{}, false); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Admin().DropDatabase(testkit.Context(t), db, true, true) })
	s, err := schema.NewSchema([]schema.Column{schema.NewColumn("id", schema.BigInt()), schema.NewColumn("pad", schema.String())}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	four := 4
	// Uncompressed, so that filling 125 MiB stays quick under -race; the
	// fetch sizes then bound the decoded bytes too.
	desc := schema.TableDescriptor{Schema: s, BucketCount: &four, Properties: map[string]string{schema.OptArrowCompressionType: "NONE"}}
	tbl := createTable(t, c, db, "big", desc)
	w, err := tbl.NewAppendWriter(flussrpc.AppendOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.NewChaCha8([32]byte{1})
	for i := 0; i < rows; i++ {
		if _, err := w.Append(ctx, []any{int64(i), memPad(r, padLen)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}

	defer debug.SetMemoryLimit(debug.SetMemoryLimit(memLimit))
	for _, arrow := range []bool{false, true} {
		t.Run(map[bool]string{false: "rows", true: "arrow"}[arrow], func(t *testing.T) {
			ctx := testkit.Context(t) // a minute for each scan, apart from the fill
			runtime.GC()
			peak := watchHeap()
			sc, err := tbl.NewLogScanner(flussrpc.LogScanOptions{Bounded: true})
			if err != nil {
				t.Fatal(err)
			}
			defer sc.Close()
			if err := sc.SubscribeAll(ctx, flussrpc.ScanFromEarliest()); err != nil {
				t.Fatal(err)
			}
			got, err := countScan(ctx, sc, arrow)
			if err != nil {
				t.Fatal(err)
			}
			max := peak()
			if got != rows {
				t.Fatalf("scanned %d rows, want %d", got, rows)
			}
			t.Logf("peak heap %d MiB while scanning %d MiB", max>>20, rows*padLen>>20)
			if max > maxHeap {
				t.Fatalf("peak heap %d MiB exceeds %d MiB while scanning %d MiB under a %d MiB limit", max>>20, maxHeap>>20, rows*padLen>>20, memLimit>>20)
			}
		})
	}
}

// countScan polls a bounded scanner to its end, as rows or as Arrow
// batches (released at once), and returns how many rows it read.
func countScan(ctx context.Context, sc *flussrpc.LogScanner, arrow bool) (int, error) {
	got := 0
	for {
		var err error
		if arrow {
			var bs []flussrpc.ArrowScanBatch
			bs, err = sc.PollArrow(ctx, 5*time.Second)
			for _, b := range bs {
				got += int(b.Record.NumRows())
				b.Record.Release()
			}
		} else {
			var recs []flussrpc.ScanRecord
			recs, err = sc.Poll(ctx, 5*time.Second)
			got += len(recs)
		}
		if errors.Is(err, io.EOF) {
			return got, nil
		}
		if err != nil {
			return got, err
		}
	}
}

// memPad returns row values of n hex digits from r: every row differs,
// and they compress about as well as text does.
func memPad(r *rand.ChaCha8, n int) string {
	b := make([]byte, n/2)
	_, _ = r.Read(b)
	return hex.EncodeToString(b)
}

// watchHeap samples the bytes of heap objects every millisecond until the
// returned function is called, which returns the largest sample.
func watchHeap() func() uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var mu sync.Mutex
	var peak uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	read := func() {
		metrics.Read(sample)
		mu.Lock()
		peak = max(peak, sample[0].Value.Uint64())
		mu.Unlock()
	}
	go func() {
		defer close(stopped)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				read()
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-stopped
		read()
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}
