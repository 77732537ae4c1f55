// Package runtest runs an example against the cluster under test and
// compares what it printed.
package runtest

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gofluss/fluss/examples"
	"github.com/gofluss/fluss/internal/clustertest"
)

// Check runs fn in a fresh database named after prefix and fails the test
// unless it succeeds and prints exactly want.
func Check(t *testing.T, prefix string, fn examples.RunFunc, want string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var out bytes.Buffer
	run := func() error {
		out.Reset()
		db := fmt.Sprintf("%s_%d", prefix, rand.IntN(1000000))
		return fn(ctx, "fluss://"+clustertest.Bootstrap(t)+"/", db, &out)
	}
	// A table without leaders is left behind: the next run uses a fresh
	// database.
	if err := clustertest.CreateWithLeaders(t, run, func() error { return nil }); err != nil {
		t.Fatalf("%s: %v\noutput so far:\n%s", prefix, err, out.String())
	}
	if out.String() != want {
		t.Fatalf("%s printed:\n%s\nwant:\n%s", prefix, out.String(), want)
	}
}
