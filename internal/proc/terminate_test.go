//go:build linux

package proc

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// escapeScript starts descendants in every way an agent's tools might: in
// the background, with the marker scrubbed, under nohup, in a new session,
// and double-forked into a new session. With $2 = exit the leader exits
// right away instead of waiting. With ESCAPE set it also starts a
// double-forked, marker-scrubbed, new-session daemon that only a cgroup can
// find. Each descendant appends its pid to $PIDFILE, then the leader appends its own.
const escapeScript = `
W=$1
sh "$W" &
env -u HOTPLEX_PROC_MARKER sh "$W" &
nohup sh "$W" &
setsid sh "$W" &
(setsid sh -c 'sh "$1" &' sh "$W" &)
if [ -n "$ESCAPE" ]; then (env -u HOTPLEX_PROC_MARKER setsid sh "$W" &); fi
echo $$ >> "$PIDFILE"
if [ "$2" = exit ]; then exit 0; fi
wait
`

// worker records its pid and sleeps. exec keeps the pid the same.
const worker = `echo $$ >> "$PIDFILE"; exec sleep 1000`

type escapeTree struct {
	p       *Process
	marker  string
	pids    []int // every pid the tree recorded
	escaped int   // the pid only a cgroup can find, 0 if none
}

// startEscapeTree runs escapeScript and waits until every process has
// recorded its pid.
func startEscapeTree(t *testing.T, cgroupRoot, end string) escapeTree {
	t.Helper()
	dir := t.TempDir()
	w := filepath.Join(dir, "worker.sh")
	if err := os.WriteFile(w, []byte(worker), 0o644); err != nil {
		t.Fatal(err)
	}
	pidfile := filepath.Join(dir, "pids")
	env := append(os.Environ(), "PIDFILE="+pidfile)
	n := 6 // five descendants and the leader
	if cgroupRoot != "" {
		env = append(env, "ESCAPE=1")
		n++
	}
	// The escapee cannot be told apart by its line; find it by environment below.
	marker := newMarker(t)
	p := startSh(t, Spec{Env: env, Marker: marker, CgroupRoot: cgroupRoot}, escapeScript, w, end)
	if cgroupRoot != "" && p.cgroup == "" {
		t.Fatalf("cgroup not used under %s", cgroupRoot)
	}
	tr := escapeTree{p: p, marker: marker, pids: readPIDs(t, p, pidfile, n)}
	if !slices.Contains(tr.pids, p.PID()) {
		t.Fatalf("leader %d missing from %v", p.PID(), tr.pids)
	}
	for _, pid := range tr.pids {
		if pid != p.PID() && !Alive(pid) {
			t.Fatalf("descendant %d not alive", pid)
		}
		if cgroupRoot != "" && Alive(pid) && !inCgroup(pid, p.cgroup) {
			t.Errorf("pid %d not in cgroup %s", pid, p.cgroup)
		}
		if cgroupRoot != "" && pid != p.PID() && !hasMarker(pid, marker) && !inGroup(pid, p.PID()) {
			tr.escaped = pid
		}
	}
	if cgroupRoot != "" && tr.escaped == 0 {
		t.Fatalf("no escaped process among %v", tr.pids)
	}
	return tr
}

func inCgroup(pid int, dir string) bool {
	b, err := os.ReadFile("/proc/" + itoa(pid) + "/cgroup")
	return err == nil && strings.Contains(string(b), "/"+filepath.Base(dir)+"\n")
}

func inGroup(pid, pgrp int) bool {
	info, err := readStat(pid)
	return err == nil && info.pgrp == pgrp
}

// modes runs f with the cgroup and with the /proc sweep.
func modes(t *testing.T, f func(t *testing.T, cgroupRoot string)) {
	t.Run("sweep", func(t *testing.T) { f(t, "") })
	t.Run("cgroup", func(t *testing.T) { f(t, testCgroupRoot(t)) })
}

func TestTerminateNoSurvivors(t *testing.T) {
	modes(t, func(t *testing.T, cgroupRoot string) {
		tr := startEscapeTree(t, cgroupRoot, "wait")
		found := Descendants(tr.p.PID(), tr.marker)
		for _, pid := range tr.pids {
			if pid != tr.p.PID() && pid != tr.escaped && !slices.Contains(found, pid) {
				t.Errorf("Descendants = %v, missing %d", found, pid)
			}
		}
		d := terminate(t, tr.p, 200*time.Millisecond)
		t.Logf("Terminate took %v", d)
		if d > 3*time.Second {
			t.Errorf("Terminate took %v", d)
		}
		assertGone(t, tr.pids)
		if err := tr.p.ExitError(); !hasSignal(err, syscall.SIGTERM) {
			t.Errorf("ExitError = %v, want SIGTERM", err)
		}
		if cgroupRoot != "" {
			if _, err := os.Stat(tr.p.cgroup); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("cgroup %s not removed: %v", tr.p.cgroup, err)
			}
		}
	})
}

func TestTerminateAfterLeaderExit(t *testing.T) {
	modes(t, func(t *testing.T, cgroupRoot string) {
		tr := startEscapeTree(t, cgroupRoot, "exit")
		// Descendants hold stdout and stderr open; Done must not wait for them.
		waitDone(t, tr.p, 3*time.Second)
		if err := tr.p.ExitError(); err != nil {
			t.Fatalf("ExitError = %v", err)
		}
		for _, pid := range tr.pids {
			if pid != tr.p.PID() && !Alive(pid) {
				t.Fatalf("descendant %d died with the leader", pid)
			}
		}
		d := terminate(t, tr.p, 200*time.Millisecond)
		t.Logf("Terminate took %v", d)
		assertGone(t, tr.pids)
	})
}

func TestTerminateStubbornLeader(t *testing.T) {
	// Ignores stdin EOF and SIGTERM (as does its child, which inherits the
	// ignored disposition): only SIGKILL ends them.
	pidfile := filepath.Join(t.TempDir(), "pids")
	p := startSh(t, Spec{Env: append(os.Environ(), "PIDFILE="+pidfile)},
		`trap '' TERM; sleep 1000 & echo $! >> "$PIDFILE"; echo $$ >> "$PIDFILE"; wait`)
	pids := readPIDs(t, p, pidfile, 2)
	grace := 200 * time.Millisecond
	d := terminate(t, p, grace)
	t.Logf("Terminate took %v", d)
	if d < 2*grace || d > 2*grace+2*time.Second {
		t.Errorf("Terminate took %v, want about %v", d, 2*grace)
	}
	assertGone(t, pids)
	if err := p.ExitError(); !hasSignal(err, syscall.SIGKILL) {
		t.Errorf("ExitError = %v, want SIGKILL", err)
	}
}

func TestTerminateContextExpiry(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pids")
	p := startSh(t, Spec{Env: append(os.Environ(), "PIDFILE="+pidfile)},
		`trap '' TERM; sleep 1000 & echo $! >> "$PIDFILE"; wait`)
	pids := readPIDs(t, p, pidfile, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := p.Terminate(ctx, time.Minute); err != nil {
		t.Fatalf("Terminate: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Terminate took %v despite ctx expiry", d)
	}
	assertGone(t, append(pids, p.PID()))
}

func TestTerminateStdinEOF(t *testing.T) {
	p := startSh(t, Spec{}, `cat >/dev/null; echo finished >&2`)
	d := terminate(t, p, 5*time.Second)
	if d > 2*time.Second {
		t.Errorf("Terminate took %v for a leader that exits on EOF", d)
	}
	if err := p.ExitError(); err != nil {
		t.Errorf("ExitError = %v, want clean exit", err)
	}
	if got := p.StderrTail(); got != "finished\n" {
		t.Errorf("StderrTail = %q", got)
	}
}

func TestTerminateConcurrentAndIdempotent(t *testing.T) {
	tr := startEscapeTree(t, "", "wait")
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for range 5 {
		wg.Go(func() { errs <- tr.p.Terminate(context.Background(), 200*time.Millisecond) })
	}
	wg.Go(func() { errs <- tr.p.Kill() })
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("concurrent Terminate/Kill: %v", err)
		}
	}
	assertGone(t, tr.pids)
	start := time.Now()
	if err := tr.p.Terminate(context.Background(), 0); err != nil {
		t.Errorf("repeated Terminate: %v", err)
	}
	if err := tr.p.Kill(); err != nil {
		t.Errorf("repeated Kill: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("repeated Terminate took %v", d)
	}
}

func TestKill(t *testing.T) {
	modes(t, func(t *testing.T, cgroupRoot string) {
		tr := startEscapeTree(t, cgroupRoot, "wait")
		start := time.Now()
		if err := tr.p.Kill(); err != nil {
			t.Fatalf("Kill: %v", err)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("Kill took %v", d)
		}
		assertGone(t, tr.pids)
		if err := tr.p.ExitError(); !hasSignal(err, syscall.SIGKILL) {
			t.Errorf("ExitError = %v, want SIGKILL", err)
		}
	})
}

func TestTerminateForkingTree(t *testing.T) {
	// A leader that ignores SIGTERM and keeps forking while it is killed.
	modes(t, func(t *testing.T, cgroupRoot string) {
		pidfile := filepath.Join(t.TempDir(), "pids")
		p := startSh(t, Spec{Env: append(os.Environ(), "PIDFILE="+pidfile), Marker: newMarker(t), CgroupRoot: cgroupRoot},
			`trap '' TERM; while :; do setsid sleep 1000 & echo $! >> "$PIDFILE"; sleep 0.01; done`)
		pids := readPIDs(t, p, pidfile, 5)
		terminate(t, p, 100*time.Millisecond)
		assertGone(t, append(pids, readPIDs(t, p, pidfile, 5)...))
	})
}

func TestCgroupFallback(t *testing.T) {
	notCgroup := t.TempDir()
	for _, root := range []string{notCgroup, "/nonexistent/cgroup"} {
		tr := func() escapeTree {
			dir := t.TempDir()
			w := filepath.Join(dir, "worker.sh")
			if err := os.WriteFile(w, []byte(worker), 0o644); err != nil {
				t.Fatal(err)
			}
			pidfile := filepath.Join(dir, "pids")
			p := startSh(t, Spec{Env: append(os.Environ(), "PIDFILE="+pidfile), Marker: newMarker(t), CgroupRoot: root},
				escapeScript, w, "wait")
			return escapeTree{p: p, pids: readPIDs(t, p, pidfile, 6)}
		}()
		if tr.p.cgroup != "" {
			t.Errorf("root %s: cgroup %s in use", root, tr.p.cgroup)
		}
		terminate(t, tr.p, 200*time.Millisecond)
		assertGone(t, tr.pids)
	}
	if entries, _ := os.ReadDir(notCgroup); len(entries) != 0 {
		t.Errorf("Start created %d entries in a non-cgroup directory", len(entries))
	}
}

func TestTerminateEscalation(t *testing.T) {
	// A second Terminate whose ctx expires, and Kill, both cut a running
	// graceful Terminate short.
	for _, escalate := range []string{"ctx", "kill"} {
		t.Run(escalate, func(t *testing.T) {
			p := startSh(t, Spec{}, `trap '' TERM; exec sleep 1000`)
			first := make(chan error, 1)
			start := time.Now()
			go func() { first <- p.Terminate(context.Background(), time.Minute) }()
			time.Sleep(50 * time.Millisecond)
			switch escalate {
			case "ctx":
				ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
				defer cancel()
				if err := p.Terminate(ctx, time.Minute); err != nil {
					t.Errorf("second Terminate: %v", err)
				}
			case "kill":
				if err := p.Kill(); err != nil {
					t.Errorf("Kill: %v", err)
				}
			}
			if err := <-first; err != nil {
				t.Errorf("first Terminate: %v", err)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("escalation took %v", d)
			}
			assertGone(t, []int{p.PID()})
		})
	}
}

func TestTerminateStoppedDescendant(t *testing.T) {
	// A stopped process acts on SIGTERM only once continued; Terminate
	// continues it so the grace period is not wasted.
	pidfile := filepath.Join(t.TempDir(), "pids")
	p := startSh(t, Spec{Env: append(os.Environ(), "PIDFILE="+pidfile), Marker: newMarker(t)},
		`sh -c 'trap "exit 0" TERM; echo $$ >> "$PIDFILE"; kill -STOP $$; while :; do sleep 0.05; done' & wait`)
	pids := readPIDs(t, p, pidfile, 1)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if info, err := readStat(pids[0]); err == nil && info.state == 'T' {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("descendant never stopped")
		}
	}
	grace := 500 * time.Millisecond
	if d := terminate(t, p, grace); d > 2*grace-200*time.Millisecond {
		t.Errorf("Terminate took %v: the stopped process was not continued", d)
	}
	assertGone(t, pids)
}

func TestTerminateUntraceableEscapee(t *testing.T) {
	// Without a cgroup, a process that scrubs the marker, leaves the group
	// and is orphaned cannot be found. It keeps stdout and stderr open;
	// Terminate must still return promptly.
	dir := t.TempDir()
	w := filepath.Join(dir, "worker.sh")
	if err := os.WriteFile(w, []byte(worker), 0o644); err != nil {
		t.Fatal(err)
	}
	pidfile := filepath.Join(dir, "pids")
	p := startSh(t, Spec{Env: append(os.Environ(), "PIDFILE="+pidfile), Marker: newMarker(t)},
		`(env -u HOTPLEX_PROC_MARKER setsid sh "$1" &); wait`, w)
	pids := readPIDs(t, p, pidfile, 1)
	t.Cleanup(func() {
		// It re-parented to us (subreaper): kill and reap it by pid.
		_ = syscall.Kill(pids[0], syscall.SIGKILL)
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(pids[0], &ws, 0, nil)
	})
	if d := terminate(t, p, 100*time.Millisecond); d > stderrDrain+2*time.Second {
		t.Errorf("Terminate took %v", d)
	}
	if !Alive(pids[0]) {
		t.Log("escapee was found after all")
	}
}
