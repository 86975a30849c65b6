//go:build !linux

package proc

import (
	"os"
	"syscall"
)

// heldPidfds reports that pidfds are unknown here.
func heldPidfds() (map[int]bool, bool) { return nil, false }

// reapPID waits for the zombie pid if it is still the process that started
// at start and still our child.
func reapPID(pid int, start uint64) {
	info, err := readStat(pid)
	if err != nil || info.start != start || info.alive() || info.ppid != os.Getpid() {
		return
	}
	var ws syscall.WaitStatus
	_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
}

// ReapOrphans is a no-op where pidfds are unavailable.
func ReapOrphans() int { return 0 }
