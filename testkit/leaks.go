package testkit

import (
	"errors"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hotplex/hotplex/internal/pgtest"
	"github.com/hotplex/hotplex/internal/proc"
)

// LiveDescendants returns the live processes descending from this test
// process. Processes that escaped their group re-parent to us (the engine
// is a child subreaper), so they are counted too. The test package's
// PostgreSQL servers (pgtest) are not: they outlive every test by design.
func LiveDescendants() []int {
	return slices.DeleteFunc(proc.Descendants(os.Getpid(), ""), pgtest.Owns)
}

// AssertNoDescendants fails the test if any process started by it is still
// alive, after a short grace for exits already under way. Register it with
// t.Cleanup before the engine's own cleanup so that it runs after it.
func AssertNoDescendants(t testing.TB) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		left := LiveDescendants()
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			var desc []string
			for _, pid := range left {
				b, _ := os.ReadFile("/proc/" + itoa(pid) + "/cmdline")
				desc = append(desc, itoa(pid)+" "+strings.ReplaceAll(string(b), "\x00", " "))
			}
			t.Fatalf("%d processes outlived the test:\n%s", len(left), strings.Join(desc, "\n"))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// KillAndWait kills pid with SIGKILL and returns once the kernel reports
// it exited (its pidfd turns readable), which is the moment the engine
// can tell too. Polling /proc for a zombie is not enough: a multi-threaded
// leader shows as a zombie while its other threads are still exiting. A
// process already gone (exited and reaped) counts as killed.
func KillAndWait(t testing.TB, pid int) {
	t.Helper()
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return // it exited and was reaped meanwhile: gone already
	}
	if err != nil {
		t.Fatalf("pidfd_open(%d): %v", pid, err)
	}
	defer unix.Close(fd)
	if err := unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0); err != nil && !errors.Is(err, unix.ESRCH) {
		t.Fatalf("kill %d: %v", pid, err)
	}
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, 10_000)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n == 0 {
			t.Fatalf("waiting for %d to exit: %v", pid, err)
		}
		return
	}
}

// ZombieChildren returns this process's children that have exited but not
// been waited for.
func ZombieChildren() []int {
	entries, _ := os.ReadDir("/proc")
	self := os.Getpid()
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The fields after the command name, which may itself hold ") ".
		i := strings.LastIndexByte(string(b), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) > 1 && f[0] == "Z" && f[1] == strconv.Itoa(self) {
			out = append(out, pid)
		}
	}
	return out
}
