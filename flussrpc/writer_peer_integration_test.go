package flussrpc_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/codec"
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
		out[i] = wtTag(types[i], v)
	}
	return out
}

// wtTag renders a codec value as peer.py's tagged JSON.
func wtTag(t schema.DataType, v any) any {
	if v == nil {
		return nil
	}
	obj := func(k string, x any) any { return map[string]any{k: x} }
	switch x := v.(type) {
	case bool, string:
		return x
	case int8:
		return json.Number(strconv.FormatInt(int64(x), 10))
	case int16:
		return json.Number(strconv.FormatInt(int64(x), 10))
	case int32:
		return json.Number(strconv.FormatInt(int64(x), 10))
	case int64:
		return json.Number(strconv.FormatInt(x, 10))
	case float32:
		return wtTagFloat(float64(x))
	case float64:
		return wtTagFloat(x)
	case []byte:
		return obj("$bytes", base64.StdEncoding.EncodeToString(x))
	case codec.Decimal:
		return obj("$decimal", x.String())
	case codec.Date:
		return obj("$date", x.String())
	case codec.Time:
		return obj("$time", json.Number(strconv.Itoa(int(x))))
	case codec.TimestampNTZ:
		return obj("$ts", wtNanos(x.Millis, x.NanoOfMilli))
	case codec.TimestampLTZ:
		return obj("$ts", wtNanos(x.Millis, x.NanoOfMilli))
	case codec.Map:
		pairs := make([]any, len(x.Keys))
		for i := range x.Keys {
			pairs[i] = []any{wtTag(*t.Key, x.Keys[i]), wtTag(*t.Value, x.Values[i])}
		}
		return obj("$map", pairs)
	case []any:
		out := make([]any, len(x))
		if t.Root == schema.RootRow {
			for i, e := range x {
				out[i] = wtTag(t.Fields[i].Type, e)
			}
			return obj("$row", out)
		}
		for i, e := range x {
			out[i] = wtTag(*t.Elem, e)
		}
		return out
	}
	panic(fmt.Sprintf("wtTag: unexpected %T", v))
}

func wtTagFloat(f float64) any {
	switch {
	case math.IsNaN(f):
		return map[string]any{"$float": "NaN"}
	case math.IsInf(f, 1):
		return map[string]any{"$float": "Infinity"}
	case math.IsInf(f, -1):
		return map[string]any{"$float": "-Infinity"}
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0" // keep it a float for wtFold
	}
	return json.Number(s)
}

func wtNanos(ms int64, nano int32) json.Number {
	n := new(big.Int).Mul(big.NewInt(ms), big.NewInt(1_000_000))
	return json.Number(n.Add(n, big.NewInt(int64(nano))).String())
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
		exp, err := json.Marshal(wtTag(types[i], want[i]))
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
