package main

import (
	"testing"

	"github.com/gofluss/fluss/examples/internal/runtest"
)

func TestExample(t *testing.T) {
	runtest.Check(t, "quickstart", run,
		"upserted 3 users\n"+
			"appended 3 events\n"+
			"lookup id=1: ada 20.00\n"+
			"lookup id=42: no rows = true\n"+
			"events of user 1: [login@09:30 logout@09:32 purchase@09:31]\n"+
			"events counted: 3\n")
}
