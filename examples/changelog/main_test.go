package main

import (
	"testing"

	"github.com/gofluss/fluss/examples/internal/runtest"
)

func TestExample(t *testing.T) {
	runtest.Check(t, "changelog_example", run,
		"insert        offset=0 id=1 owner=ada\n"+
			"insert        offset=1 id=2 owner=bob\n"+
			"update_before offset=2 id=1 owner=ada\n"+
			"update_after  offset=3 id=1 owner=ada lovelace\n"+
			"delete        offset=4 id=2 owner=bob\n")
}
