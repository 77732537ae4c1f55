package testkit

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata instead of comparing")

// Golden returns the content of the golden file at path and whether got
// equals it. With -update it writes got there first (creating the
// directory), so the comparison passes and the diff shows up in review. A
// missing file fails the test with the command that creates it.
func Golden(t testing.TB, path string, got []byte) (want []byte, same bool) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	return want, string(want) == string(got)
}
