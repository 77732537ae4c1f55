//go:build !unix

package fluss_test

import "time"

// processCPU is not measured here: cpu-µs/op then reads 0.
func processCPU() time.Duration { return 0 }
