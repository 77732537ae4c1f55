//go:build unix

package testkit

import (
	"syscall"
	"time"
)

// ProcessCPU is the CPU time the process has used (user and system), so
// that a benchmark can report CPU per operation, which the other load on
// a shared machine disturbs far less than throughput.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
