package fluss

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestDriverStaysLight keeps the heavy integrations out of the driver:
// DuckDB (module analytics) and OpenTelemetry (module otel) live in
// modules of their own, so that the driver links neither and builds
// without cgo.
func TestDriverStaysLight(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "duckdb") || strings.HasPrefix(dep, "go.opentelemetry.io") {
			t.Errorf("the driver package depends on %s", dep)
		}
	}
	build := exec.Command("go", "build", "-o", os.DevNull, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build: %v\n%s", err, msg)
	}
}
