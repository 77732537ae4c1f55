package flussrpc_test

import (
	"encoding/binary"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"testing"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/clustertest"
	"github.com/gofluss/fluss/internal/javapeer"
)

// jpKeyType is one primary-key shape of the bucket placement check: its
// key columns and the i-th key (spread over the type's range).
type jpKeyType struct {
	name  string
	keys  []schema.Column
	parts []string
	key   func(i int) []any
}

func jpKeyTypes(t *testing.T) []jpKeyType {
	one := func(name string, typ schema.DataType, f func(i int) any) jpKeyType {
		return jpKeyType{name: name, keys: []schema.Column{schema.NewColumn("k", typ.NotNull())}, key: func(i int) []any { return []any{f(i)} }}
	}
	spread := func(i int) int64 { return int64(uint64(i) * 0x9E3779B97F4A7C15) } // wraps on purpose
	return []jpKeyType{
		one("tinyint", schema.TinyInt(), func(i int) any { return int8(i) }), // 256 distinct keys: wraps
		one("smallint", schema.SmallInt(), func(i int) any { return int16(spread(i)) }),
		one("int", schema.Int(), func(i int) any { return int32(spread(i)) }),
		one("bigint", schema.BigInt(), func(i int) any { return spread(i) }),
		one("string", schema.String(), func(i int) any { return fmt.Sprintf("key-%d-%s", i, strings.Repeat("ü", i%7)) }),
		one("char", schema.Char(12), func(i int) any { return fmt.Sprintf("c%011d", spread(i)%1e11) }),
		one("bytes", schema.Bytes(), func(i int) any { return binary.BigEndian.AppendUint64(make([]byte, i%3), uint64(spread(i))) }),
		one("binary", schema.Binary(8), func(i int) any { return binary.BigEndian.AppendUint64(nil, uint64(spread(i))) }),
		one("decimal10", schema.Decimal(10, 2), func(i int) any { return jpDecU(t, spread(i)%1e10, 10, 2) }),
		one("decimal38", schema.Decimal(38, 10), func(i int) any {
			u := new(big.Int).Mul(big.NewInt(spread(i)), big.NewInt(spread(i+7)))
			d, _ := codec.NewDecimalBig(u, 38, 10)
			return d
		}),
		one("date", schema.Date(), func(i int) any { return codec.Date(-719162 + i*3651) }),
		one("time", schema.Time(3), func(i int) any { return codec.Time(i * 86399) }),
		one("timestamp3", schema.Timestamp(3), func(i int) any { return codec.TimestampNTZ{Millis: spread(i) % 253402300799999} }),
		one("timestamp9", schema.Timestamp(9), func(i int) any {
			return codec.TimestampNTZ{Millis: spread(i) % 9223372036854, NanoOfMilli: int32(i * 997)}
		}),
		one("timestamp_ltz6", schema.TimestampLTZ(6), func(i int) any {
			return codec.TimestampLTZ{Millis: spread(i) % 9223372036854, NanoOfMilli: int32(i%1000) * 1000}
		}),
		{name: "composite", keys: []schema.Column{
			schema.NewColumn("a", schema.Int().NotNull()), schema.NewColumn("b", schema.String().NotNull()),
		}, key: func(i int) []any { return []any{int32(i % 10), fmt.Sprint(spread(i))} }},
		{name: "partitioned", keys: []schema.Column{
			schema.NewColumn("k", schema.BigInt().NotNull()), schema.NewColumn("dt", schema.String().NotNull()),
		}, parts: []string{"dt"}, key: func(i int) []any { return []any{spread(i), fmt.Sprintf("p%d", i%3)} }},
	}
}

func jpDecU(t *testing.T, unscaled int64, p, s int) codec.Decimal {
	d, err := codec.NewDecimal(unscaled, p, s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestJavaPeerBucketPlacement writes 1000 keys per key type to a
// primary-key table of 7 buckets, half with this client and half with
// Java, and requires each client to find all 1000 by lookup: a key either
// side placed in another bucket than the other computes would be missed.
func TestJavaPeerBucketPlacement(t *testing.T) {
	const n = 1000
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	peer := javapeer.Start(t, clustertest.Bootstrap(t))
	for _, kt := range jpKeyTypes(t) {
		t.Run(kt.name, func(t *testing.T) {
			cols := append(append([]schema.Column{}, kt.keys...), schema.NewColumn("v", schema.String()))
			pk := make([]string, len(kt.keys))
			for i, k := range kt.keys {
				pk[i] = k.Name
			}
			tbl := createTable(t, c, db, "keys_"+kt.name, schema.TableDescriptor{
				Schema: newSchema(t, cols, pk...), PartitionKeys: kt.parts, BucketCount: intPtr(7),
			})
			// Distinct keys only (TINYINT has 256): the later writer wins.
			want := map[string][]any{}
			var keys [][]any
			var goRows, javaRows [][]any
			for i := 0; i < n; i++ {
				k := kt.key(i)
				row := append(append([]any{}, k...), fmt.Sprintf("row %d", i))
				if i < n/2 {
					goRows = append(goRows, row)
				} else {
					javaRows = append(javaRows, row)
				}
				id := canonRow(k)
				if _, seen := want[id]; !seen {
					keys = append(keys, k)
				}
				want[id] = row
			}
			// Created here, not by the writers, so that a partition the
			// coordinator misses is created again (createPartition).
			createRowPartitions(t, c, tbl, keys)
			jpWriteGo(t, tbl, goRows)
			peer.Write(t, "upsert", db, tbl.Path().Table, cols, javaRows)

			check := func(who string, got [][]any) {
				t.Helper()
				missing := 0
				for i, k := range keys {
					w := want[canonRow(k)]
					if got[i] == nil {
						missing++
						if missing <= 3 {
							t.Errorf("%s did not find key %s", who, canonRow(k))
						}
						continue
					}
					if canonRow(got[i]) != canonRow(w) {
						t.Errorf("%s found %s for key %s, want %s", who, canonRow(got[i]), canonRow(k), canonRow(w))
					}
				}
				if missing > 0 {
					t.Fatalf("%s missed %d of %d keys", who, missing, len(keys))
				}
			}
			check("Java", peer.Lookup(t, db, tbl.Path().Table, kt.keys, cols, keys))
			check("Go", jpLookupAll(t, tbl, keys))
		})
	}
}

// jpLookupAll looks keys up concurrently (the lookuper batches concurrent
// calls); a row is nil when its key was not found.
func jpLookupAll(t *testing.T, tbl *flussrpc.Table, keys [][]any) [][]any {
	t.Helper()
	l, err := tbl.NewLookuper()
	if err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t)
	out := make([][]any, len(keys))
	errs := make([]error, len(keys))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 64)
	for i, k := range keys {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			row, found, err := l.Lookup(ctx, k)
			if found {
				out[i] = row
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("lookup %s: %v", canonRow(keys[i]), err)
		}
	}
	return out
}
