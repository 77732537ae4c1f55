//go:build !unix

package testkit

import "time"

// ProcessCPU is not measured here: CPU per operation then reads 0.
func ProcessCPU() time.Duration { return 0 }
