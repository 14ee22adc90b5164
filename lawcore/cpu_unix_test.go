//go:build unix

package lawcore_test

import "syscall"

// processCPU is the CPU time the process has used, in nanoseconds (user and system): on a
// shared machine a benchmark's CPU per operation moves less than its wall time.
func processCPU() (int64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return ru.Utime.Nano() + ru.Stime.Nano(), true
}
