package flussrpc

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc/pb"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// TestCreateTableWaitsForLeaders: CreateTable returns once every bucket
// has a leader; when none is elected it fails within its context with an
// error saying the table exists without leaders and what to do, and
// NoLeaderWait returns at once.
func TestCreateTableWaitsForLeaders(t *testing.T) {
	s, err := schema.NewSchema([]schema.Column{schema.NewColumn("id", schema.BigInt())}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	desc := schema.TableDescriptor{Schema: s, BucketCount: new(2)}
	create := func(f *fakeCluster, d time.Duration, opts ...CreateOption) <-chan error {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		done := make(chan error, 1)
		go func() {
			defer cancel()
			done <- f.c.Admin().CreateTable(ctx, f.path, desc, false, opts...)
		}()
		r := f.Next()
		if APIKey(r.API) != APIKeyCreateTable {
			t.Fatalf("got %s, want CREATE_TABLE", APIKey(r.API))
		}
		r.Reply(&pb.CreateTableResponse{})
		return done
	}

	t.Run("leaders elected late", func(t *testing.T) {
		f := newFakeCluster(t, 2, APIKeyCreateTable)
		f.SetLeaderless(0, 1)
		done := create(f, 10*time.Second)
		select {
		case err := <-done:
			t.Fatalf("CreateTable returned before any bucket had a leader: %v", err)
		case <-time.After(100 * time.Millisecond):
		}
		f.SetLeaderless(1)
		select {
		case err := <-done:
			t.Fatalf("CreateTable returned while bucket 1 had no leader: %v", err)
		case <-time.After(100 * time.Millisecond):
		}
		f.SetLeaderless()
		if err := waitErr(t, done); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("never", func(t *testing.T) {
		f := newFakeCluster(t, 2, APIKeyCreateTable)
		f.SetLeaderless(1)
		err := waitErr(t, create(f, 300*time.Millisecond))
		if !errors.Is(err, ErrNoLeaders) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("error = %v, want ErrNoLeaders and the deadline", err)
		}
		for _, want := range []string{"table db.t", "bucket 1 of 2", "LEADER_NOT_AVAILABLE", "drop and create it again"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %q", err, want)
			}
		}
	})
	t.Run("never, under a deadline later than the request timeout", func(t *testing.T) {
		f := newFakeCluster(t, 2, APIKeyCreateTable)
		f.c.cfg.RequestTimeout = 200 * time.Millisecond
		f.SetLeaderless(0)
		if err := waitErr(t, create(f, time.Minute)); !errors.Is(err, ErrNoLeaders) {
			t.Fatalf("error = %v, want ErrNoLeaders after the request timeout", err)
		}
	})
	t.Run("pre-created partitions never come, under a later deadline", func(t *testing.T) {
		// A coordinator that missed an auto-partitioned table creates no
		// partition: the wait for them, too, ends with the request
		// timeout, not with the caller's deadline (a CI run once spent
		// its test's whole context here).
		f := newFakeCluster(t, 2, APIKeyCreateTable, APIKeyListPartitionInfos)
		f.c.cfg.RequestTimeout = 200 * time.Millisecond
		s, err := schema.NewSchema([]schema.Column{schema.NewColumn("id", schema.BigInt()), schema.NewColumn("p", schema.String())}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		auto := schema.TableDescriptor{Schema: s, PartitionKeys: []string{"p"}, BucketCount: new(2),
			Properties: map[string]string{schema.OptAutoPartitionEnabled: "true", schema.OptAutoPartitionTimeUnit: "HOUR"}}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		done := make(chan error, 1)
		go func() { done <- f.c.Admin().CreateTable(ctx, f.path, auto, false) }()
		deadline := time.After(5 * time.Second)
		for {
			select {
			case err := <-done:
				if !errors.Is(err, ErrNoLeaders) || !strings.Contains(err.Error(), "0 of its 2 pre-created partitions") {
					t.Fatalf("error = %v, want ErrNoLeaders for the missing partitions", err)
				}
				return
			case r := <-f.Forwarded():
				if APIKey(r.API) == APIKeyCreateTable {
					r.Reply(&pb.CreateTableResponse{})
				} else {
					r.Reply(&pb.ListPartitionInfosResponse{})
				}
			case <-deadline:
				t.Fatal("CreateTable still waits for the partitions long after the request timeout")
			}
		}
	})
	t.Run("NoLeaderWait", func(t *testing.T) {
		f := newFakeCluster(t, 2, APIKeyCreateTable)
		f.SetLeaderless(0, 1)
		if err := waitErr(t, create(f, 10*time.Second, NoLeaderWait())); err != nil {
			t.Fatal(err)
		}
	})
}

// TestPrecreatedPartitions pins how many partitions CreateTable waits for
// (what a 0.9.1 coordinator pre-creates, seen on the real server).
func TestPrecreatedPartitions(t *testing.T) {
	auto := func(keys []string, props map[string]string) schema.TableDescriptor {
		p := map[string]string{schema.OptAutoPartitionEnabled: "true"}
		for k, v := range props {
			p[k] = v
		}
		return schema.TableDescriptor{PartitionKeys: keys, Properties: p}
	}
	for _, tc := range []struct {
		name string
		desc schema.TableDescriptor
		want int
	}{
		{"not auto-partitioned", schema.TableDescriptor{PartitionKeys: []string{"dt"}}, 0},
		{"default", auto([]string{"dt"}, nil), 2},
		{"explicit", auto([]string{"dt"}, map[string]string{schema.OptAutoPartitionPrecreate: "5"}), 5},
		{"none", auto([]string{"dt"}, map[string]string{schema.OptAutoPartitionPrecreate: "0"}), 0},
		{"several keys", auto([]string{"dt", "r"}, map[string]string{schema.OptAutoPartitionKey: "dt"}), 0},
		{"disabled", auto([]string{"dt"}, map[string]string{schema.OptAutoPartitionEnabled: "false"}), 0},
	} {
		if got := precreatedPartitions(tc.desc); got != tc.want {
			t.Errorf("%s: precreatedPartitions = %d, want %d", tc.name, got, tc.want)
		}
	}
}
