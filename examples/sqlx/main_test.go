package main

import (
	"testing"

	"github.com/gofluss/fluss/examples/internal/runtest"
)

func TestExample(t *testing.T) {
	runtest.Check(t, "sqlx_example", run,
		"get: A-1 anvil 99.50 stock=5\n"+
			"select: B-2 bucket 4.25 stock=<nil>\n"+
			"select: C-3 chain 12.00 stock=<nil>\n")
}
