//go:build linux

package proc

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// A child on a terminal leads its own session with the terminal as its
// controlling terminal, and Terminate still ends its whole tree.
func TestChildOnTerminal(t *testing.T) {
	master, slave, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer master.Close()
	dir := t.TempDir()
	pids := filepath.Join(dir, "pids")
	p, err := Start(Spec{
		Path: "/bin/sh",
		Args: []string{"-c", `tty; sleep 100 & echo $! > "$1"; echo ready; read line; echo "got $line"; wait`, "sh", pids},
		TTY:  slave, Marker: newMarker(t),
	})
	_ = slave.Close()
	if err != nil {
		t.Fatal(err)
	}
	if p.Stdout() != nil {
		t.Fatal("a terminal child has a stdout pipe")
	}
	lines := make(chan string, 16)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(master)
		for sc.Scan() {
			lines <- strings.TrimRight(sc.Text(), "\r")
		}
	}()
	want := func(prefix string) {
		t.Helper()
		timeout := time.After(5 * time.Second)
		for {
			select {
			case l := <-lines:
				if strings.HasPrefix(l, prefix) {
					return
				}
			case <-timeout:
				t.Fatalf("no line starting with %q", prefix)
			}
		}
	}
	want("/dev/pts/")
	want("ready")
	if _, err := master.Write([]byte("hello\r")); err != nil {
		t.Fatal(err)
	}
	want("got hello")

	info, err := readStat(p.PID())
	if err != nil {
		t.Fatal(err)
	}
	if info.pgrp != p.PID() {
		t.Fatalf("process group %d, want the child's own %d", info.pgrp, p.PID())
	}
	b, _ := os.ReadFile(statPath(p.PID()))
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if sid, _ := strconv.Atoi(f[3]); sid != p.PID() {
		t.Fatalf("session %d, want the child's own %d", sid, p.PID())
	}

	bg := readPIDs(t, p, pids, 1)
	terminate(t, p, 200*time.Millisecond)
	assertGone(t, append(bg, p.PID()))
	// The terminal's last holder is gone: the reader sees its end.
	select {
	case <-drain(lines):
	case <-time.After(5 * time.Second):
		t.Fatal("the terminal did not hang up after Terminate")
	}
}

func drain(lines <-chan string) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		for range lines {
		}
		close(done)
	}()
	return done
}
