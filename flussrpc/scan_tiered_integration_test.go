package flussrpc_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/clustertest"
)

// TestScanTieredSegments reads a log whose old segments the tablet server
// has moved to remote.data.dir (a local directory in test clusters). Fluss
// 0.9.1 has no table-level segment size, so the local test cluster runs
// with a server-wide log.segment.file-size of 1 MiB and tiers every second
// (internal/cluster); against another cluster, point FLUSS_TIERING_BOOTSTRAP
// at one configured alike. TestFetchScripted covers the same code with a
// scripted server and a fixture directory.
func TestScanTieredSegments(t *testing.T) {
	bs := os.Getenv("FLUSS_TIERING_BOOTSTRAP")
	if bs == "" {
		bs = clustertest.Bootstrap(t)
	}
	c := newClient(t, flussrpc.Config{Bootstrap: []string{bs}})
	db := newDatabase(t, c.Admin())
	for _, format := range []string{schema.FormatArrow, schema.FormatCompacted} {
		t.Run(format, func(t *testing.T) {
			cols := []schema.Column{schema.NewColumn("id", schema.BigInt()), schema.NewColumn("pad", schema.String())}
			desc := schema.TableDescriptor{
				Schema: newSchema(t, cols), BucketCount: intPtr(1),
				Properties: map[string]string{schema.OptLogFormat: format, "table.log.tiered.local-segments": "1"},
			}
			tbl := createTable(t, c, db, uniqueName("tier"), desc)
			enc := scanTestEncoder(t, tbl)
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			const batches, perBatch = 100, 500 // about 6.5 MB: several 1 MiB segments
			rnd := rand.New(rand.NewPCG(1, 2))
			pad := func() string {
				b := make([]byte, 120)
				for i := range b {
					b[i] = byte('a' + rnd.IntN(26))
				}
				return string(b)
			}
			want := map[int64]string{}
			for b := 0; b < batches; b++ {
				var rows [][]any
				for i := 0; i < perBatch; i++ {
					id := int64(b*perBatch + i)
					p := pad()
					want[id] = p
					rows = append(rows, []any{id, p})
				}
				if _, _, err := flussrpc.ScanTestAppend(ctx, tbl, enc, rows); err != nil {
					t.Fatal(err)
				}
			}
			for attempt := 0; ; attempt++ {
				s, err := tbl.NewLogScanner(flussrpc.LogScanOptions{Bounded: true})
				if err != nil {
					t.Fatal(err)
				}
				if err := s.Subscribe(ctx, 0, flussrpc.ScanFromEarliest()); err != nil {
					t.Fatal(err)
				}
				recs := scanAll(t, s)
				remote := flussrpc.ScanTestRemoteReads(s)
				s.Close()
				if len(recs) != len(want) {
					t.Fatalf("read %d records, want %d", len(recs), len(want))
				}
				for i, r := range recs {
					if r.Offset != int64(i) || r.Row[0] != int64(i) || r.Row[1] != want[int64(i)] {
						t.Fatalf("record %d: offset %d row %v", i, r.Offset, r.Row[0])
					}
				}
				if remote > 0 {
					t.Logf("%d of the fetches were served from remote segments (attempt %d)", remote, attempt)
					// Remote segments hold whole rows: a projection (pushed
					// down for local ARROW data) is applied by the client.
					s, err := tbl.NewLogScanner(flussrpc.LogScanOptions{Bounded: true, Columns: []string{"pad", "id"}})
					if err != nil {
						t.Fatal(err)
					}
					defer s.Close()
					if err := s.Subscribe(ctx, 0, flussrpc.ScanFromOffset(perBatch+3)); err != nil {
						t.Fatal(err)
					}
					recs := scanAll(t, s)
					if len(recs) != len(want)-perBatch-3 || flussrpc.ScanTestRemoteReads(s) == 0 {
						t.Fatalf("projected: %d records, %d remote reads", len(recs), flussrpc.ScanTestRemoteReads(s))
					}
					for _, r := range recs {
						if r.Row[1] != r.Offset || r.Row[0] != want[r.Offset] {
							t.Fatalf("projected record %d: %v", r.Offset, r.Row[1])
						}
					}
					return
				}
				if ctx.Err() != nil || attempt > 60 {
					t.Fatal(fmt.Errorf("no fetch was served from remote storage: segments never tiered"))
				}
				time.Sleep(2 * time.Second)
			}
		})
	}
}
