package flussrpc_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/clustertest"
	"github.com/gofluss/fluss/internal/peertest"
)

// Helpers to check writes with pyfluss (peers/pyfluss/peer.py): the
// tagged JSON documented there is produced here from codec values, and
// compared after normalising numbers.

// wtPeerRow is one record printed by `peer.py scan`.
type wtPeerRow = peertest.ScanRow

// wtScan reads a table with pyfluss.
func wtScan(t *testing.T, path flussrpc.TablePath) peertest.ScanResult {
	t.Helper()
	return peertest.Scan(t, clustertest.Bootstrap(t), path.Database, path.Table)
}

// wtPeerWrite runs peer.py append/upsert/delete with rows of codec values.
func wtPeerWrite(t *testing.T, cmd string, path flussrpc.TablePath, types []schema.DataType, rows [][]any) {
	t.Helper()
	in := make([][]any, len(rows))
	for i, r := range rows {
		in[i] = wtTagRow(types, r)
	}
	var out struct {
		Written int `json:"written"`
	}
	if perr := peertest.Run(t, clustertest.Bootstrap(t), in, &out, cmd, path.Database, path.Table); perr != nil {
		t.Fatalf("peer %s %s: %s (code %d)", cmd, path, perr.Message, perr.Code)
	}
	if out.Written != len(rows) {
		t.Fatalf("peer %s wrote %d rows, want %d", cmd, out.Written, len(rows))
	}
}

func wtTagRow(types []schema.DataType, row []any) []any {
	out := make([]any, len(row))
	for i, v := range row {
		out[i] = peertest.Tag(types[i], v)
	}
	return out
}

// wtNorm decodes JSON keeping integers exact and folding float spellings.
func wtNorm(t *testing.T, raw []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("bad JSON %s: %v", raw, err)
	}
	return wtFold(v)
}

func wtFold(v any) any {
	switch x := v.(type) {
	case json.Number:
		s := string(x)
		if strings.ContainsAny(s, ".eE") {
			f, err := strconv.ParseFloat(s, 64)
			if err == nil {
				return "f:" + strconv.FormatFloat(f, 'g', -1, 64)
			}
		}
		return "i:" + s
	case []any:
		for i := range x {
			x[i] = wtFold(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = wtFold(x[k])
		}
	}
	return v
}

// wtSameValues compares a peer row with the expected codec values.
func wtSameValues(t *testing.T, what string, types []schema.DataType, want []any, got []json.RawMessage) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: peer row has %d values, want %d", what, len(got), len(want))
	}
	for i := range want {
		exp, err := json.Marshal(peertest.Tag(types[i], want[i]))
		if err != nil {
			t.Fatal(err)
		}
		if g, w := wtNorm(t, got[i]), wtNorm(t, exp); !reflect.DeepEqual(g, w) {
			t.Errorf("%s column %d (%s): peer read %s, wrote %s", what, i, types[i], got[i], exp)
		}
	}
}

// wtPeerID is the BIGINT id in column 0 of a peer row.
func wtPeerID(t *testing.T, r wtPeerRow) int64 {
	t.Helper()
	id, err := strconv.ParseInt(strings.TrimSpace(string(r.Row[0])), 10, 64)
	if err != nil {
		t.Fatalf("row id %s: %v", r.Row[0], err)
	}
	return id
}

// wtPlace is where a row was found.
type wtPlace struct {
	Partition string
	Bucket    int32
}

func wtPlaceOf(r wtPeerRow) wtPlace {
	p := wtPlace{Bucket: r.Bucket}
	if r.Partition != nil {
		p.Partition = *r.Partition
	}
	return p
}
