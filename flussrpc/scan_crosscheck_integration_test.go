package flussrpc_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/clustertest"
	"github.com/gofluss/fluss/internal/peertest"
)

// Cross-checks of the read path against pyfluss: rows written by pyfluss
// (an independent client) must read back identically through our
// scanners and lookupers, and our reading of a table must match pyfluss'
// reading of it, value for value (peer.py's tagged JSON, exact to the
// nanosecond for scans).

func tagRow(row []any, cols []schema.Column) []any { return peertest.TagRow(cols, row) }

// jsonOf normalises a JSON-able value: numbers compared by their text.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(normDecimals(x))
	return string(out)
}

// normDecimals rewrites {"$decimal": text} to a canonical rational:
// pyfluss' row API returns Python decimals without their trailing zeros.
func normDecimals(v any) any {
	switch x := v.(type) {
	case []any:
		for i := range x {
			x[i] = normDecimals(x[i])
		}
	case map[string]any:
		if d, ok := x["$decimal"].(string); ok && len(x) == 1 {
			if r, ok := new(big.Rat).SetString(d); ok {
				return map[string]any{"$decimal": r.RatString()}
			}
		}
		for k := range x {
			x[k] = normDecimals(x[k])
		}
	}
	return v
}

// peerScanRow is one row of peer.py's scan output.
type peerScanRow struct {
	Partition *string         `json:"partition"`
	Bucket    int32           `json:"bucket"`
	Offset    int64           `json:"offset"`
	Change    string          `json:"change"`
	Row       json.RawMessage `json:"row"`
}

type peerScan struct {
	Rows       []peerScanRow    `json:"rows"`
	EndOffsets map[string]int64 `json:"end_offsets"`
}

// comparePeerScan reads tbl with a bounded LogScanner and with pyfluss
// and requires both to see the same records (bucket, offset, change type,
// every value).
func comparePeerScan(t *testing.T, tbl *flussrpc.Table) []flussrpc.ScanRecord {
	t.Helper()
	var peer peerScan
	if perr := peertest.Run(t, clustertest.Bootstrap(t), nil, &peer, "scan", tbl.Path().Database, tbl.Path().Table); perr != nil {
		t.Fatalf("peer scan: %+v", perr)
	}
	s, err := tbl.NewLogScanner(flussrpc.LogScanOptions{Bounded: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.SubscribeAll(testCtx(t), flussrpc.ScanFromEarliest()); err != nil {
		t.Fatal(err)
	}
	ours := scanAll(t, s)
	sort.SliceStable(ours, func(i, j int) bool {
		a, b := ours[i], ours[j]
		if a.Partition != b.Partition {
			return a.Partition < b.Partition
		}
		if a.Bucket != b.Bucket {
			return a.Bucket < b.Bucket
		}
		return a.Offset < b.Offset
	})
	if len(ours) != len(peer.Rows) {
		t.Fatalf("we read %d records, pyfluss %d", len(ours), len(peer.Rows))
	}
	cols := tbl.Info().Descriptor.Schema.Columns
	for i, r := range ours {
		p := peer.Rows[i]
		pp := ""
		if p.Partition != nil {
			pp = *p.Partition
		}
		if pp != r.Partition || p.Bucket != r.Bucket || p.Offset != r.Offset || p.Change != r.ChangeType.String() {
			t.Fatalf("record %d: ours %s/%d@%d %v, pyfluss %s/%d@%d %s", i, r.Partition, r.Bucket, r.Offset, r.ChangeType, pp, p.Bucket, p.Offset, p.Change)
		}
		var prow any
		dec := json.NewDecoder(bytes.NewReader(p.Row))
		dec.UseNumber()
		if err := dec.Decode(&prow); err != nil {
			t.Fatal(err)
		}
		if got, want := jsonOf(t, tagRow(r.Row, cols)), jsonOf(t, prow); got != want {
			t.Fatalf("record %d (bucket %d offset %d):\n ours    %s\n pyfluss %s", i, r.Bucket, r.Offset, got, want)
		}
	}
	return ours
}

// peerTypes are the columns pyfluss writes exactly through Arrow.
func peerColumns() []schema.Column {
	return append([]schema.Column{schema.NewColumn("id", schema.BigInt())}, scanAllTypeColumns()...)
}

func makePeerRows(t *testing.T, n int, cols []schema.Column) ([][]any, [][]any) {
	var rows, tagged [][]any
	for i := 0; i < n; i++ {
		r := append([]any{int64(i)}, scanAllTypeValues(t, i)...)
		if i%4 == 3 {
			// pyfluss' timestamps end before 9999-12-31T22:00.
			r[16] = codec.TimestampNTZOf(time.Date(2200, 12, 31, 23, 59, 59, 999000000, time.UTC))
		}
		rows = append(rows, r)
		tagged = append(tagged, tagRow(r, cols))
	}
	return rows, tagged
}

func TestCrossCheckPeerAppendThenScan(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	// pyfluss 1.0.0 writes Arrow batches whatever the table's log format
	// (the 0.9.1 server accepts them), so INDEXED/COMPACTED tables it
	// appends to are unreadable by any client; cross-check ARROW only.
	for _, format := range []string{schema.FormatArrow} {
		t.Run(format, func(t *testing.T) {
			cols := peerColumns()
			desc := schema.TableDescriptor{Schema: newSchema(t, cols), BucketCount: intPtr(2), Properties: map[string]string{schema.OptLogFormat: format}}
			tbl := createTable(t, c, db, uniqueName("xpa"), desc)
			rows, tagged := makePeerRows(t, 16, cols)
			var res struct{ Written int }
			if perr := peertest.Run(t, clustertest.Bootstrap(t), tagged, &res, "append", db, tbl.Path().Table); perr != nil {
				t.Fatalf("peer append: %+v", perr)
			}
			ours := comparePeerScan(t, tbl)
			got := make([][]any, len(ours))
			for i, r := range ours {
				got[i] = r.Row
			}
			sameRowSet(t, "rows written by pyfluss", got, rows)
		})
	}
}

func TestCrossCheckPeerUpsertThenLookupAndChangelog(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	// pyfluss' row API carries timestamps with microsecond precision.
	cols := []schema.Column{
		schema.NewColumn("id", schema.BigInt()),
		schema.NewColumn("name", schema.String()),
		schema.NewColumn("amount", schema.Decimal(38, 10)),
		schema.NewColumn("at", schema.Timestamp(6)),
		schema.NewColumn("day", schema.Date()),
		schema.NewColumn("blob", schema.Bytes()),
	}
	desc := schema.TableDescriptor{Schema: newSchema(t, cols, "id"), BucketCount: intPtr(3)}
	tbl := createTable(t, c, db, uniqueName("xpu"), desc)
	ts := func(us int64) codec.TimestampNTZ {
		return codec.TimestampNTZ{Millis: us / 1000, NanoOfMilli: int32(us%1000) * 1000}
	}
	var rows [][]any
	for i := 0; i < 12; i++ {
		rows = append(rows, []any{int64(i), fmt.Sprintf("név-%d", i), testBigDecimal(t, fmt.Sprint(int64(i)*1234567890123), 38, 10), ts(1700000000123456 + int64(i)), codec.Date(19000 + i), []byte{byte(i), 0}})
	}
	update := [][]any{{int64(1), "changed", nil, nil, nil, nil}, {int64(2), "", testBigDecimal(t, "-1", 38, 10), ts(0), codec.Date(0), []byte{}}}
	tagAll := func(rs [][]any) [][]any {
		out := make([][]any, len(rs))
		for i, r := range rs {
			out[i] = tagRow(r, cols)
		}
		return out
	}
	bs := clustertest.Bootstrap(t)
	for _, step := range []struct {
		cmd  string
		rows [][]any
	}{{"upsert", rows}, {"upsert", update}, {"delete", [][]any{{int64(3)}, {int64(4)}}}} {
		in := step.rows
		if step.cmd != "delete" {
			in = tagAll(step.rows)
		}
		if perr := peertest.Run(t, bs, in, nil, step.cmd, db, tbl.Path().Table); perr != nil {
			t.Fatalf("peer %s: %+v", step.cmd, perr)
		}
	}
	// peer.py cannot scan primary-key tables (pyfluss has no batch-mode
	// changelog scan), so the changelog is checked against the writes.
	s, err := tbl.NewLogScanner(flussrpc.LogScanOptions{Bounded: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.SubscribeAll(testCtx(t), flussrpc.ScanFromEarliest()); err != nil {
		t.Fatal(err)
	}
	ours := scanAll(t, s)
	changes := map[int64]string{}
	for _, per := range byBucket(t, ours) {
		for _, r := range per {
			changes[r.Row[0].(int64)] += r.ChangeType.String()
		}
	}
	for id := int64(0); id < 12; id++ {
		want := "+I"
		switch id {
		case 1, 2:
			want = "+I-U+U"
		case 3, 4:
			want = "+I-D"
		}
		if changes[id] != want {
			t.Errorf("key %d: change types %s, want %s", id, changes[id], want)
		}
	}
	final := map[int64][]any{}
	for _, r := range ours {
		switch r.ChangeType {
		case codec.Insert, codec.UpdateAfter:
			final[r.Row[0].(int64)] = r.Row
		case codec.Delete:
			delete(final, r.Row[0].(int64))
		}
	}
	want := map[int64][]any{}
	for _, r := range append(append([][]any{}, rows...), update...) {
		want[r[0].(int64)] = r
	}
	delete(want, 3)
	delete(want, 4)
	lk, err := tbl.NewLookuper()
	if err != nil {
		t.Fatal(err)
	}
	for id := int64(0); id < 14; id++ {
		got, found, err := lk.Lookup(testCtx(t), []any{id})
		if err != nil {
			t.Fatal(err)
		}
		w, ok := want[id]
		if found != ok {
			t.Fatalf("key %d: found=%v, want %v", id, found, ok)
		}
		if ok {
			sameRows(t, fmt.Sprintf("lookup %d", id), [][]any{got}, [][]any{w})
			sameRows(t, fmt.Sprintf("changelog state %d", id), [][]any{final[id]}, [][]any{w})
		}
	}
	// And pyfluss' own lookups agree with ours.
	var keys [][]any
	for id := int64(0); id < 14; id++ {
		keys = append(keys, []any{id})
	}
	var peerRows []json.RawMessage
	if perr := peertest.Run(t, bs, keys, &peerRows, "lookup", db, tbl.Path().Table); perr != nil {
		t.Fatalf("peer lookup: %+v", perr)
	}
	for id, raw := range peerRows {
		w, ok := want[int64(id)]
		var pv any
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&pv); err != nil {
			t.Fatal(err)
		}
		if !ok {
			if pv != nil {
				t.Fatalf("pyfluss finds deleted key %d: %s", id, raw)
			}
			continue
		}
		if got, wantJSON := jsonOf(t, pv), jsonOf(t, tagRow(w, cols)); got != wantJSON {
			t.Fatalf("key %d: pyfluss %s, ours %s", id, got, wantJSON)
		}
	}
}
