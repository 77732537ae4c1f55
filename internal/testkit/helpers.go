package testkit

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc/codec"
)

// Context returns a context that ends a minute from now or with the test.
func Context(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
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
