package planner

import (
	"os/exec"
	"strings"
	"testing"
)

// TestPlannerIsPure keeps planner and typeconv free of network code: they
// describe work as data, and package engine does the I/O.
func TestPlannerIsPure(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".", "../typeconv").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		switch {
		case dep == "net", dep == "crypto/tls", strings.HasPrefix(dep, "google.golang.org/protobuf"),
			dep == "github.com/gofluss/fluss/flussrpc", dep == "github.com/gofluss/fluss/engine":
			t.Errorf("planner or typeconv depends on %s", dep)
		}
	}
}

// TestTypeconvIsALeaf keeps typeconv below the SQL layers: it knows how a
// Fluss type looks in SQL, Go and Arrow, but reading type text is the
// parser's and the planner's work (ParseType, FromParser).
func TestTypeconvIsALeaf(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "../typeconv").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "github.com/gofluss/fluss/parser" || dep == "github.com/gofluss/fluss/planner" {
			t.Errorf("typeconv depends on %s", dep)
		}
	}
}
