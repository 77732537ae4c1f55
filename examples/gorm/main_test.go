package main

import (
	"testing"

	"github.com/gofluss/fluss/examples/internal/runtest"
)

func TestExample(t *testing.T) {
	runtest.Check(t, "gorm_example", run,
		"user 1: ada <ada@example.com> plan=free\n"+
			"user 1 after update: plan=pro\n"+
			"user 2 after delete: not found=true\n"+
			"event 12:03 user=2 delete\n"+
			"event 12:02 user=1 upgrade\n"+
			"event 12:01 user=2 signup\n")
}
