package main

import (
	"io"
	"os"
	"testing"

	"github.com/gofluss/fluss/internal/clustertest"
)

// TestHello runs the README's program against the cluster under test,
// which it finds as the README says: through FLUSS_BOOTSTRAP.
func TestHello(t *testing.T) {
	t.Setenv("FLUSS_BOOTSTRAP", clustertest.Bootstrap(t))
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	defer func() { os.Stdout = stdout }()
	printed := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(r)
		printed <- b
	}()
	main()
	w.Close()
	const want = "user 1 is ada\n1 ada\n2 bob\n"
	if got := string(<-printed); got != want {
		t.Errorf("printed:\n%s\nwant:\n%s", got, want)
	}
}
