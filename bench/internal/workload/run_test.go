package workload

import (
	"context"
	"testing"
)

func TestRunChildRejectsBadArguments(t *testing.T) {
	never := func(ctx context.Context, j Job) (Result, error) {
		t.Fatalf("ran %+v", j)
		return Result{}, nil
	}
	for _, args := range [][]string{
		nil,
		{"native", "lookup", "h:1", "db", "t", "10", "1"},
		{"native", "lookup", "h:1", "db", "t", "ten", "1", "5"},
		{"native", "lookup", "h:1", "db", "t", "10", "0", "5"},
		{"native", "lookup", "h:1", "db", "t", "-1", "1", "5"},
	} {
		if err := RunChild(context.Background(), args, never); err == nil {
			t.Errorf("RunChild(%q) accepted", args)
		}
	}
}
