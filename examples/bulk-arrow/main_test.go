package main

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/gofluss/fluss/examples/internal/runtest"
)

func TestExample(t *testing.T) {
	const n = 200_000
	load := func(ctx context.Context, dsn, db string, out io.Writer) error { return run(ctx, dsn, db, n, out) }
	// sum of i/10 for i in [0, n)
	runtest.Check(t, "bulk_arrow", load,
		fmt.Sprintf("loaded %d rows\nread back %d rows, sum(value) = %.1f\n", n, n, float64(n)*float64(n-1)/20))
}
