// Package lookupbench is the one point-lookup benchmark body that the
// native client's hook benchmark and the OpenTelemetry adapter's share,
// so that their figures compare like with like: a single-bucket
// primary-key table on the in-process fake cluster, one key looked up
// b.N times by a client built with the given tracer.
package lookupbench

import (
	"context"
	"testing"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/fakefluss"
)

// Run times b.N lookups of one key through a client whose Config.Tracer
// is tracer (nil for none). The first lookup, which fetches the table's
// metadata and dials the tablet server, runs before the timer starts.
func Run(b *testing.B, tracer any) {
	fc := fakefluss.NewCluster(b, fakefluss.ClusterConfig{})
	one := 1
	path := flussrpc.TablePath{Database: "db", Table: "kv"}
	s, err := schema.NewSchema([]schema.Column{schema.NewColumn("k", schema.Int()), schema.NewColumn("v", schema.Int())}, []string{"k"}, nil)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := fc.CreateTable(path, schema.TableDescriptor{Schema: s, BucketCount: &one}); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	c, err := flussrpc.NewClient(ctx, flussrpc.Config{Bootstrap: []string{fc.Bootstrap()}, Tracer: tracer})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	tbl, err := c.Table(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	l, err := tbl.NewLookuper()
	if err != nil {
		b.Fatal(err)
	}
	key := []any{int32(1)}
	if _, _, err := l.Lookup(ctx, key); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, _, err := l.Lookup(ctx, key); err != nil {
			b.Fatal(err)
		}
	}
}
