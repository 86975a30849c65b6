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

// reap waits for the zombies among our children that nobody else will wait
// for: descendants of the tree re-parented to us as child subreaper. Each is
// waited for individually; wait4(-1) would steal exit statuses that os/exec
// is waiting for. A zombie child is reaped when
//
//   - no pidfd of ours refers to it: os/exec holds a pidfd for every child
//     it has not yet waited for, so such a zombie is an adopted orphan (this
//     also reaps short-lived intermediates of a double fork that no scan saw
//     alive). The rule applies only where the kernel gives out pidfds
//     (checked when the leader started); or
//   - it was seen as a member of the tree, or it was in the leader's
//     process group (but is not the leader, which os/exec waits for).
func (t *tracker) reap() {
	self := os.Getpid()
	var zombies []procInfo
	for _, info := range snapshot() {
		if info.ppid == self && !info.alive() && info.pid != t.p.pid {
			zombies = append(zombies, info)
		}
	}
	if len(zombies) == 0 {
		return
	}
	// Read after the snapshot: a child that was a zombie in the snapshot got
	// its os/exec pidfd before it could exit, so the pidfd shows here unless
	// os/exec has reaped it meanwhile.
	held, ok := heldPidfds()
	for _, z := range zombies {
		if held[z.pid] {
			continue
		}
		start, seen := t.seen[z.pid]
		member := (seen && start == z.start) || z.pgrp == t.p.pid
		if member || (ok && t.p.pidfds) {
			reapPID(z.pid, z.start)
		}
	}
}
