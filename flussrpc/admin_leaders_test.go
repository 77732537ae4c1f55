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
	create := func(f *scFakeCluster, d time.Duration, opts ...CreateOption) <-chan error {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		done := make(chan error, 1)
		go func() {
			defer cancel()
			done <- f.c.Admin().CreateTable(ctx, f.path, desc, false, opts...)
		}()
		r := f.next()
		if r.api != APIKeyCreateTable {
			t.Fatalf("got %s, want CREATE_TABLE", r.api)
		}
		r.sc.reply(r.id, &pb.CreateTableResponse{})
		return done
	}

	t.Run("leaders elected late", func(t *testing.T) {
		f := newScFakeCluster(t, 2, APIKeyCreateTable)
		f.setLeaderless(0, 1)
		done := create(f, 10*time.Second)
		select {
		case err := <-done:
			t.Fatalf("CreateTable returned before any bucket had a leader: %v", err)
		case <-time.After(300 * time.Millisecond):
		}
		f.setLeaderless(1)
		select {
		case err := <-done:
			t.Fatalf("CreateTable returned while bucket 1 had no leader: %v", err)
		case <-time.After(300 * time.Millisecond):
		}
		f.setLeaderless()
		if err := waitErr(t, done); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("never", func(t *testing.T) {
		f := newScFakeCluster(t, 2, APIKeyCreateTable)
		f.setLeaderless(1)
		err := waitErr(t, create(f, time.Second))
		if !errors.Is(err, ErrNoLeaders) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("error = %v, want ErrNoLeaders and the deadline", err)
		}
		for _, want := range []string{"table db.t", "bucket 1 of 2", "LEADER_NOT_AVAILABLE", "drop and create it again"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %q", err, want)
			}
		}
	})
	t.Run("NoLeaderWait", func(t *testing.T) {
		f := newScFakeCluster(t, 2, APIKeyCreateTable)
		f.setLeaderless(0, 1)
		if err := waitErr(t, create(f, 10*time.Second, NoLeaderWait())); err != nil {
			t.Fatal(err)
		}
	})
}
