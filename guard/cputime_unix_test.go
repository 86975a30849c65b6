//go:build unix

package guard

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the test process has used (user and system),
// GC included. Beside wall time it gives decisions per CPU-second, which
// a machine shared with other work does not distort.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
