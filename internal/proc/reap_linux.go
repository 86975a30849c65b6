package proc

import (
	"bytes"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// heldPidfds returns the pids that pidfds open in the calling process refer
// to. ok is false when the fd table could not be read.
func heldPidfds() (pids map[int]bool, ok bool) {
	d, err := os.Open("/proc/self/fdinfo")
	if err != nil {
		return nil, false
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return nil, false
	}
	pids = make(map[int]bool)
	for _, n := range names {
		// Only pidfds have a Pid line in their fdinfo; the link check guards
		// against some future fd type adding one.
		link, err := os.Readlink("/proc/self/fd/" + n)
		if err != nil || !strings.Contains(link, "pidfd") {
			continue
		}
		b, err := os.ReadFile("/proc/self/fdinfo/" + n)
		if err != nil {
			continue
		}
		for line := range bytes.Lines(b) {
			if v, ok := bytes.CutPrefix(line, []byte("Pid:")); ok {
				if pid, err := strconv.Atoi(string(bytes.TrimSpace(v))); err == nil && pid > 0 {
					pids[pid] = true
				}
			}
		}
	}
	return pids, true
}

// reapPID waits for the zombie pid if it is still the process that started
// at start and still our child. Going through a pidfd makes the check and
// the wait refer to the same process even if the pid number were reused in
// between.
func reapPID(pid int, start uint64) {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return
	}
	defer unix.Close(fd)
	info, err := readStat(pid)
	if err != nil || info.start != start || info.alive() || info.ppid != os.Getpid() {
		return
	}
	_ = unix.Waitid(unix.P_PIDFD, fd, nil, unix.WEXITED|unix.WNOHANG, nil)
}

// ReapOrphans waits for zombie children that nobody else will: orphans
// re-parented to this process (a child subreaper) after their own parents
// exited, such as an agent's background job that finished mid-session.
// Children that os/exec still has to wait for are left alone: it holds a
// pidfd for each, which this checks, so it does nothing where pidfds are
// unavailable. It returns how many it reaped.
func ReapOrphans() int {
	fd, err := unix.PidfdOpen(os.Getpid(), 0)
	if err != nil {
		return 0 // without pidfds os/exec's children cannot be told apart
	}
	_ = unix.Close(fd)
	self := os.Getpid()
	var zombies []procInfo
	for _, info := range snapshot() {
		if info.ppid == self && !info.alive() {
			zombies = append(zombies, info)
		}
	}
	if len(zombies) == 0 {
		return 0
	}
	held, ok := heldPidfds()
	if !ok {
		return 0
	}
	n := 0
	for _, z := range zombies {
		if !held[z.pid] {
			reapPID(z.pid, z.start)
			n++
		}
	}
	return n
}
