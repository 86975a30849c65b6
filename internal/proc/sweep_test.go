//go:build linux

package proc

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"
)

func itoa(i int) string { return strconv.Itoa(i) }

func TestParseStat(t *testing.T) {
	// comm with spaces and parentheses must not shift the fields.
	line := "4242 (a) b (c)) S 17 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000000 321 18446744073709551615\n"
	info, err := parseStat(4242, []byte(line))
	if err != nil {
		t.Fatal(err)
	}
	want := procInfo{pid: 4242, ppid: 17, pgrp: 4242, state: 'S', start: 987654, rss: 321}
	if info != want {
		t.Errorf("parseStat = %+v, want %+v", info, want)
	}
	if _, err := parseStat(1, []byte("1 (x) S 0")); err == nil {
		t.Error("short stat accepted")
	}
}

func TestAlive(t *testing.T) {
	if !Alive(os.Getpid()) {
		t.Error("Alive(self) = false")
	}
	for _, pid := range []int{0, -1, 1 << 30} {
		if Alive(pid) {
			t.Errorf("Alive(%d) = true", pid)
		}
	}
	// A zombie is not alive: sleep never waits for the child sh left it.
	p := startSh(t, Spec{}, `true & exec sleep 1000`)
	var zombie int
	for deadline := time.Now().Add(5 * time.Second); zombie == 0 && time.Now().Before(deadline); {
		for pid, info := range snapshot() {
			if info.ppid == p.PID() && info.state == 'Z' {
				zombie = pid
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	if zombie == 0 {
		t.Fatal("no zombie appeared")
	}
	if Alive(zombie) {
		t.Errorf("Alive(zombie %d) = true", zombie)
	}
	if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	if Alive(p.PID()) {
		t.Errorf("Alive(reaped leader) = true")
	}
}

func TestDescendantsAndTreeRSS(t *testing.T) {
	marker := newMarker(t)
	pidfile := filepath.Join(t.TempDir(), "pids")
	p := startSh(t, Spec{Marker: marker, Env: append(os.Environ(), "PIDFILE="+pidfile)},
		`sleep 1000 & echo $! >> "$PIDFILE"; setsid sleep 1000 & echo $! >> "$PIDFILE"; wait`)
	pids := readPIDs(t, p, pidfile, 2)
	slices.Sort(pids)

	if got := Descendants(p.PID(), marker); !slices.Equal(got, pids) {
		t.Errorf("Descendants(leader, marker) = %v, want %v", got, pids)
	}
	if got := Descendants(p.PID(), ""); !slices.Equal(got, pids) {
		t.Errorf("Descendants(leader, \"\") = %v, want %v (by parent links)", got, pids)
	}
	// By marker alone the leader is found too.
	want := append([]int{p.PID()}, pids...)
	slices.Sort(want)
	if got := Descendants(1<<30, marker); !slices.Equal(got, want) {
		t.Errorf("Descendants(none, marker) = %v, want %v", got, want)
	}
	// Our own descendants: the leader and both sleeps (the setsid one is
	// still a child of the leader), but never ourselves.
	self := Descendants(os.Getpid(), "")
	if slices.Contains(self, os.Getpid()) {
		t.Errorf("Descendants(self) includes the caller: %v", self)
	}
	for _, pid := range want {
		if !slices.Contains(self, pid) {
			t.Errorf("Descendants(self) = %v, missing %d", self, pid)
		}
	}

	total, err := TreeRSS(p.PID(), marker)
	if err != nil {
		t.Fatal(err)
	}
	leader, _ := readStat(p.PID())
	if own := leader.rss * int64(os.Getpagesize()); own <= 0 || total <= own {
		t.Errorf("TreeRSS = %d bytes, leader alone %d", total, own)
	}
	if _, err := TreeRSS(1<<30, marker); err == nil {
		t.Error("TreeRSS of a missing pid succeeded")
	}

	terminate(t, p, 200*time.Millisecond)
	assertGone(t, pids)
	if got := Descendants(1<<30, marker); len(got) != 0 {
		t.Errorf("Descendants after Terminate = %v", got)
	}
}
