package proc

import (
	"context"
	"fmt"
	"slices"
	"syscall"
	"time"
)

const (
	defaultGrace = 2 * time.Second
	// killTimeout bounds the SIGKILL phase. SIGKILL takes effect at once
	// except for tasks in uninterruptible sleep, so it is spent only when
	// something is badly stuck; it applies even after ctx has expired, since
	// returning with the tree still alive would break Terminate's promise.
	killTimeout = 5 * time.Second
	// pollInterval is how often the tree is rescanned while waiting for it to die.
	pollInterval = 10 * time.Millisecond
)

// Terminate ends the whole process tree and reaps it. It closes stdin (EOF)
// and waits up to grace for the leader to exit; then sends SIGTERM to the
// process group and every tracked descendant and waits up to grace for them
// to exit; then SIGKILLs whatever is left (through cgroup.kill when a cgroup
// is in use) and reaps it. It returns once the leader has been waited for and
// no process of the tree remains alive; zombies among the tree are reaped
// where they are our children.
//
// Terminate is idempotent and safe to call concurrently and after the leader
// has died: it still sweeps descendants left behind. A call that finds
// another one running waits for it and then sweeps once more. ctx bounds the
// graceful phases (including waiting for a concurrent call); once it expires
// Terminate goes straight to SIGKILL, whose own wait is bounded separately.
// The error is nil when the tree is gone, whether or not the grace periods
// were used up; it is non-nil when something survived SIGKILL. grace <= 0
// means 2s.
func (p *Process) Terminate(ctx context.Context, grace time.Duration) error {
	p.Retire()
	if grace <= 0 {
		grace = defaultGrace
	}
	return p.terminate(ctx, grace)
}

// Kill is Terminate without grace: it SIGKILLs the whole tree now and reaps
// it. A Terminate running concurrently skips the rest of its grace periods.
func (p *Process) Kill() error {
	p.Retire()
	p.killOnce.Do(func() { close(p.killNow) })
	return p.terminate(context.Background(), 0)
}

func (p *Process) terminate(ctx context.Context, grace time.Duration) error {
	select {
	case p.termSem <- struct{}{}:
	default:
		// Another call is terminating the tree. Wait for it, and make it
		// skip to SIGKILL if our ctx runs out first; then sweep once more.
		select {
		case p.termSem <- struct{}{}:
		case <-ctx.Done():
			p.killOnce.Do(func() { close(p.killNow) })
			p.termSem <- struct{}{}
		}
	}
	defer func() { <-p.termSem }()

	// EOF on stdin is how an agent CLI is asked to finish on its own.
	_ = p.stdin.Close()
	t := &tracker{p: p, seen: make(map[int]uint64), termed: make(map[int]bool)}

	if grace > 0 && p.wait(ctx, p.exited, grace) {
		t.terminate(ctx, grace)
	}
	err := t.kill()

	// With the tree dead, stderr reaches EOF at once; the bound only guards
	// against an escaped holder, and Done closes after stderrDrain anyway.
	select {
	case <-p.done:
	case <-time.After(stderrDrain + time.Second):
	}
	if p.cgroup != "" {
		if rerr := removeCgroup(p.cgroup); rerr != nil && err == nil {
			err = rerr
		}
	}
	return err
}

// wait waits up to d for ch to close. It reports whether the graceful
// shutdown may continue, which is false when ctx has expired or Kill was called.
func (p *Process) wait(ctx context.Context, ch <-chan struct{}, d time.Duration) bool {
	if ctx.Err() != nil {
		return false
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	case <-ctx.Done():
		return false
	case <-p.killNow:
		return false
	}
	return true
}

// tracker accumulates what one Terminate call learns about the tree.
type tracker struct {
	p *Process
	// seen maps every pid ever attributed to the tree to its start time, so
	// processes stay tracked after they lose every other link to it (their
	// parent died and their environment was replaced, or they became zombies
	// and their environment vanished).
	seen   map[int]uint64
	termed map[int]bool // pids already sent SIGTERM
	merged bool         // the group recorded at the leader's exit is in seen
}

// scan refreshes seen and returns the tree's live processes.
func (t *tracker) scan() []procInfo {
	p := t.p
	q := treeQuery{marker: p.marker, known: t.seen, minStart: p.start}
	if p.ns != nil && !p.ns.done() {
		// Orphans of the namespace re-parent to its init, which cannot be
		// reused while we have not waited for it.
		q.reaper = p.ns.pid()
	}
	if !p.leaderReaped() {
		// Until the leader is reaped its pid and process group ID cannot be
		// reused, so both are safe to follow.
		q.root, q.rootStart, q.pgrp = p.pid, p.start, p.pid
	} else if !t.merged {
		// From now on the group is followed through the members it had
		// when the leader was reaped.
		t.merged = true
		for pid, start := range p.leftGroup() {
			t.seen[pid] = start
		}
	}
	confined := false
	if p.cgroup != "" {
		if pids, ok := cgroupProcs(p.cgroup); ok {
			confined = true
			for _, pid := range pids {
				if _, ok := q.known[pid]; !ok {
					q.known[pid] = 0
				}
			}
		}
	}
	var members map[int]procInfo
	if confined {
		members = cgroupTree(q)
	} else {
		members = findTree(q)
	}
	for pid, start := range t.seen {
		if _, ok := members[pid]; !ok && start == 0 {
			delete(t.seen, pid) // an unverified cgroup pid that has gone
		}
	}
	if p.ns != nil {
		// The init is not part of the tree: it carries the marker but
		// exits on its own once the namespace is empty, and kill ends it.
		delete(members, p.ns.pid())
	}
	var alive []procInfo
	for pid, info := range members {
		t.seen[pid] = info.start
		if info.alive() {
			alive = append(alive, info)
		}
	}
	slices.SortFunc(alive, func(a, b procInfo) int { return a.pid - b.pid })
	return alive
}

// signalGroup sends sig to the leader's process group when it is still ours:
// while the leader is unreaped, or while a member of the tree still holds the
// group ID (which keeps the kernel from reusing it).
func (t *tracker) signalGroup(alive []procInfo, sig syscall.Signal) {
	owned := !t.p.leaderReaped()
	for _, a := range alive {
		owned = owned || a.pgrp == t.p.pid
	}
	if owned {
		_ = syscall.Kill(-t.p.pid, sig)
	}
}

// terminate sends SIGTERM to the tree and waits up to grace for it to exit.
// Processes that appear during the wait get their own SIGTERM, once.
func (t *tracker) terminate(ctx context.Context, grace time.Duration) {
	p := t.p
	deadline := time.NewTimer(grace)
	defer deadline.Stop()
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	first := true
	for {
		alive := t.scan()
		if len(alive) == 0 && p.leaderReaped() {
			return
		}
		// SIGCONT follows SIGTERM so that stopped processes act on it
		// within the grace period instead of only dying to SIGKILL.
		if first {
			t.signalGroup(alive, syscall.SIGTERM)
			t.signalGroup(alive, syscall.SIGCONT)
			first = false
		}
		for _, a := range alive {
			if !t.termed[a.pid] {
				t.termed[a.pid] = true
				signalIfSame(a.pid, a.start, syscall.SIGTERM)
				signalIfSame(a.pid, a.start, syscall.SIGCONT)
			}
		}
		select {
		case <-tick.C:
		case <-deadline.C:
			return
		case <-ctx.Done():
			return
		case <-p.killNow:
			return
		}
	}
}

// kill SIGKILLs the tree until nothing of it is alive and the leader has
// been waited for, reaping our zombie children along the way.
func (t *tracker) kill() error {
	p := t.p
	deadline := time.Now().Add(killTimeout)
	for {
		alive := t.scan()
		if len(alive) == 0 && p.leaderReaped() && (p.ns == nil || p.ns.done()) {
			// Every process of the tree has finished exiting, so orphans
			// have been re-parented by now; reap those that came to us.
			t.reap()
			return nil
		}
		if p.ns != nil {
			// The kernel kills everything in the namespace when its init
			// dies, including what no scan could attribute to the tree.
			p.ns.kill()
		}
		if p.cgroup != "" {
			// Also kills what was forked since the scan, and whatever the
			// scan could not attribute to the tree.
			_ = cgroupKill(p.cgroup)
		}
		t.signalGroup(alive, syscall.SIGKILL)
		for _, a := range alive {
			signalIfSame(a.pid, a.start, syscall.SIGKILL)
		}
		t.reap()
		if time.Now().After(deadline) {
			pids := make([]int, len(alive))
			for i, a := range alive {
				pids[i] = a.pid
			}
			return fmt.Errorf("proc: pid %d: tree still alive %v after SIGKILL (leader reaped: %t)",
				p.pid, pids, p.leaderReaped())
		}
		time.Sleep(pollInterval)
	}
}
