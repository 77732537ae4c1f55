package flussrpc_test

import (
	"testing"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// TestCreateReturnsWithLeaders: when CreateTable and CreatePartition
// return, every bucket already has a leader on the real cluster.
func TestCreateReturnsWithLeaders(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	adm := c.Admin()
	ctx := testCtx(t)
	db := newDatabase(t, adm)
	wantLeaders := func(path flussrpc.TablePath, partition string) {
		t.Helper()
		buckets, err := adm.GetBuckets(ctx, path, partition)
		if err != nil {
			t.Fatal(err)
		}
		if len(buckets) != 4 {
			t.Fatalf("%s %q has %d buckets, want 4", path, partition, len(buckets))
		}
		for _, b := range buckets {
			if b.Leader < 0 {
				t.Errorf("%s %q bucket %d has no leader right after its creation", path, partition, b.Bucket)
			}
		}
	}
	cols := []schema.Column{schema.NewColumn("id", schema.BigInt()), schema.NewColumn("p", schema.String())}
	plain := flussrpc.TablePath{Database: db, Table: uniqueName("lead")}
	mustCreate(t, adm, plain, schema.TableDescriptor{Schema: newSchema(t, cols), BucketCount: intPtr(4)})
	wantLeaders(plain, "")

	parted := flussrpc.TablePath{Database: db, Table: uniqueName("leadp")}
	desc := schema.TableDescriptor{Schema: newSchema(t, cols), PartitionKeys: []string{"p"}, BucketCount: intPtr(4)}
	mustCreate(t, adm, parted, desc)
	if err := adm.CreatePartition(ctx, parted, map[string]string{"p": "x"}, false); err != nil {
		t.Fatal(err)
	}
	wantLeaders(parted, "x")
}

// TestCreateAutoPartitionedReturnsWithPartitions: an auto-partitioned
// table has its pre-created partitions, each with leaders, when
// CreateTable returns (they used to appear a moment later, so a write
// right after the creation could miss them).
func TestCreateAutoPartitionedReturnsWithPartitions(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	adm := c.Admin()
	ctx := testCtx(t)
	db := newDatabase(t, adm)
	cols := []schema.Column{schema.NewColumn("id", schema.BigInt()), schema.NewColumn("p", schema.String())}
	path := flussrpc.TablePath{Database: db, Table: uniqueName("auto")}
	desc := schema.TableDescriptor{Schema: newSchema(t, cols), PartitionKeys: []string{"p"}, BucketCount: intPtr(2),
		Properties: map[string]string{
			schema.OptAutoPartitionEnabled:   "true",
			schema.OptAutoPartitionTimeUnit:  "HOUR",
			schema.OptAutoPartitionPrecreate: "5",
		}}
	mustCreate(t, adm, path, desc)
	parts, err := adm.ListPartitionInfos(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) < 5 {
		t.Fatalf("%d partitions right after CreateTable, want the 5 pre-created ones: %v", len(parts), parts)
	}
	for _, pi := range parts {
		buckets, err := adm.GetBuckets(ctx, path, pi.Name())
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range buckets {
			if b.Leader < 0 {
				t.Errorf("partition %s bucket %d has no leader right after CreateTable", pi.Name(), b.Bucket)
			}
		}
	}
}
