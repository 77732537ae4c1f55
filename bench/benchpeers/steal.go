package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// On a virtual machine the hypervisor may run other guests on "our" cores:
// the time it takes (steal) slows the server and the clients alike and is
// one reason the same run gives other figures an hour later. The header
// of the table says how much of the run's CPU time was stolen.

// cpuTimes are the machine-wide counters of /proc/stat's "cpu" line, in
// clock ticks: all of them summed, and steal.
type cpuTimes struct{ total, steal uint64 }

// readCPUTimes reads /proc/stat; ok is false where it is missing (not
// Linux) or unreadable.
func readCPUTimes() (cpuTimes, bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return cpuTimes{}, false
	}
	return parseCPUTimes(string(b))
}

// parseCPUTimes reads the first line, "cpu user nice system idle iowait
// irq softirq steal ...": steal is the eighth counter (kernels before
// 2.6.11 have none).
func parseCPUTimes(stat string) (cpuTimes, bool) {
	line, _, _ := strings.Cut(stat, "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return cpuTimes{}, false
	}
	var t cpuTimes
	for i, s := range f[1:] {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return cpuTimes{}, false
		}
		// guest and guest_nice (the ninth and tenth) are already
		// counted in user and nice.
		if i < 8 {
			t.total += n
		}
		if i == 7 {
			t.steal = n
		}
	}
	return t, true
}

// stolenSince says which share of the CPU time since start was stolen.
func stolenSince(start cpuTimes, startOK bool) string {
	end, ok := readCPUTimes()
	if !ok || !startOK || end.total <= start.total {
		return "unknown"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(end.steal-start.steal)/float64(end.total-start.total))
}
