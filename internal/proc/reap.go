package proc

import (
	"os"
	"syscall"
)

// signalIfSame sends sig to pid only if pid still names the process that
// started at start, so a pid number reused by an unrelated process is left
// alone.
func signalIfSame(pid int, start uint64, sig syscall.Signal) {
	info, err := readStat(pid)
	if err != nil || info.start != start || !info.alive() {
		return
	}
	_ = syscall.Kill(pid, sig)
}

// reapZombies waits for those processes in seen that are zombies and our own
// children (descendants re-parented to us as child subreaper). It waits for
// each pid individually and never for skip (the leader, which os/exec waits
// for): wait4(-1) would steal exit statuses that os/exec is waiting for.
func reapZombies(seen map[int]uint64, skip int) {
	self := os.Getpid()
	for pid, start := range seen {
		if pid == skip {
			continue
		}
		info, err := readStat(pid)
		if err != nil {
			// Gone: reaped by its parent, by us earlier, or by init.
			delete(seen, pid)
			continue
		}
		if info.start != start || info.alive() || info.ppid != self {
			continue
		}
		var ws syscall.WaitStatus
		if got, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil); err == nil && got == pid {
			delete(seen, pid)
		}
	}
}

// reapGroupZombies reaps zombies that are our children and were members of
// process group pgrp, without being its leader. It catches descendants that
// died before any scan saw them and were then re-parented to us. The leader
// is excluded because os/exec waits for it, and any other process whose pid
// equals pgrp would be the leader of a new group that reused the number.
func reapGroupZombies(pgrp int) {
	self := os.Getpid()
	for pid, info := range snapshot() {
		if pid == pgrp || info.pgrp != pgrp || info.ppid != self || info.alive() {
			continue
		}
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
	}
}
