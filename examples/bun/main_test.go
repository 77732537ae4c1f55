package main

import (
	"testing"

	"github.com/gofluss/fluss/examples/internal/runtest"
)

func TestExample(t *testing.T) {
	runtest.Check(t, "bun_example", run,
		"count: 3\n"+
			"by key: 978-1 \"Emma\" 474 pages\n"+
			"in list: Ulysses 730\n"+
			"in list: Dune 412\n"+
			"left: 978-1 Emma 8.00\n"+
			"left: 978-2 Ulysses 12.00\n")
}
