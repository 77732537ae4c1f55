package testkit

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc/codec"
)

// Context returns a context that ends three minutes from now or with the
// test. Tests take it first and create their tables after: when a 0.9.1
// coordinator misses a table's creation, clustertest.CreateWithLeaders
// waits out one creation (up to the one-minute request timeout),
// restarts the coordinator and creates the table again, and the test's
// calls after that must still have time.
func Context(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// UniqueName gives every run its own objects: the local cluster is reused
// across runs, so fixed names would collide with leftovers.
func UniqueName(prefix string) string {
	return fmt.Sprintf("%s_%d_%04d", prefix, time.Now().Unix()%100000, rand.IntN(10000))
}

// Decimal parses s as a DECIMAL(p, sc), failing the test when it does not
// fit.
func Decimal(t testing.TB, s string, p, sc int) codec.Decimal {
	t.Helper()
	d, err := codec.ParseDecimal(s, p, sc)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
