//go:build linux

package proc

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// noPIDNSEnv, set to 1, runs the tests without PID namespaces, as in a
// program that does not install the hook.
const noPIDNSEnv = "HOTPLEX_PROC_TEST_NO_PIDNS"

func TestMain(m *testing.M) {
	if os.Getenv(noPIDNSEnv) != "1" || os.Getenv(initEnv) != "" {
		MaybeRunInit()
	}
	if mode := os.Getenv(ownerModeEnv); mode != "" {
		_ = EnableSubreaper() // as the daemon does
		runAsOwner(mode)
		return
	}
	if os.Getenv(parentModeEnv) != "" {
		runAsParent()
		return
	}
	if err := EnableSubreaper(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		if z := zombieChildren(); len(z) > 0 {
			fmt.Fprintln(os.Stderr, "unreaped zombie children:", z)
			for _, pid := range z {
				b, _ := os.ReadFile(statPath(pid))
				fmt.Fprintln(os.Stderr, string(b))
			}
			code = 1
		}
		os.Exit(code)
	}))
}

// zombieChildren returns our children that are zombies nobody has reaped.
func zombieChildren() []int {
	var z []int
	for pid, info := range snapshot() {
		if info.ppid == os.Getpid() && !info.alive() {
			z = append(z, pid)
		}
	}
	return z
}

// newMarker returns a marker unique to this test run.
func newMarker(t *testing.T) string {
	t.Helper()
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "test-" + hex.EncodeToString(b[:])
}

// testCgroupRoot returns a cgroup for t's processes below DefaultCgroupRoot,
// skipping t where cgroups cannot be used.
func testCgroupRoot(t *testing.T) string {
	t.Helper()
	root := DefaultCgroupRoot()
	if root == "" {
		t.Skip("no writable cgroup v2 hierarchy")
	}
	// Every call makes a root of its own, so the test's is not shared.
	t.Cleanup(func() {
		if err := RemoveCgroupRoot(root); err != nil {
			t.Errorf("RemoveCgroupRoot: %v", err)
		}
	})
	return root
}

// startSh starts /bin/sh -c script with args ($0 is "sh") and registers a
// cleanup that kills the tree and closes stdout.
func startSh(t *testing.T, spec Spec, script string, args ...string) *Process {
	t.Helper()
	spec.Path = "/bin/sh"
	spec.Args = append([]string{"-c", script, "sh"}, args...)
	p, err := Start(spec)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		if err := p.Kill(); err != nil {
			t.Errorf("cleanup Kill: %v", err)
		}
		_ = p.Stdout().Close()
	})
	return p
}

// waitDone waits for p.Done, failing t after d.
func waitDone(t *testing.T, p *Process, d time.Duration) {
	t.Helper()
	select {
	case <-p.Done():
	case <-time.After(d):
		t.Fatalf("Done not closed within %v", d)
	}
}

// isDone reports whether p.Done is closed.
func isDone(p *Process) bool {
	select {
	case <-p.Done():
		return true
	default:
		return false
	}
}

// readPIDs waits until file holds n lines of pids, written by p's tree,
// and returns them as our pids. Where the tree has a PID namespace of its
// own the pids it wrote are its own numbers; those of processes that have
// already exited cannot be translated and are left out.
func readPIDs(t *testing.T, p *Process, file string, n int) []int {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		b, _ := os.ReadFile(file)
		lines := strings.Fields(string(b))
		if len(lines) >= n {
			pids := make([]int, 0, len(lines))
			for _, l := range lines {
				pid, err := strconv.Atoi(l)
				if err != nil {
					t.Fatalf("bad pid %q in %s", l, file)
				}
				host, err := p.HostPID(pid)
				if err != nil {
					t.Logf("pid %d: %v", pid, err)
					continue
				}
				pids = append(pids, host)
			}
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d pids in %s: %q", len(lines), n, file, b)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// assertGone checks that none of pids is alive and none lingers as our zombie.
func assertGone(t *testing.T, pids []int) {
	t.Helper()
	for _, pid := range pids {
		if Alive(pid) {
			t.Errorf("pid %d survived", pid)
		}
		if info, err := readStat(pid); err == nil && info.ppid == os.Getpid() {
			t.Errorf("pid %d left as our unreaped zombie (state %c)", pid, info.state)
		}
	}
}

func terminate(t *testing.T, p *Process, grace time.Duration) time.Duration {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	if err := p.Terminate(ctx, grace); err != nil {
		t.Fatalf("Terminate: %v", err)
	}
	if !isDone(p) {
		t.Errorf("Done not closed after Terminate")
	}
	return time.Since(start)
}

// parentModeEnv makes the test binary act as a program that starts a
// child with Start and then waits to be killed.
const parentModeEnv = "HOTPLEX_PROC_TEST_PARENT"

func runAsParent() {
	p, err := Start(Spec{Path: "/bin/sh", Args: []string{"-c", "exec sleep 1000"}})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println(p.PID())
	select {}
}

// waitStatus returns the wait status that an error from ExitError carries,
// be it an *exec.ExitError or an *ExitStatus.
func waitStatus(err error) (syscall.WaitStatus, bool) {
	var s interface{ Sys() any }
	if !errors.As(err, &s) {
		return 0, false
	}
	ws, ok := s.Sys().(syscall.WaitStatus)
	return ws, ok
}

// hasSignal reports whether err says the leader was killed by sig.
func hasSignal(err error, sig syscall.Signal) bool {
	ws, ok := waitStatus(err)
	return ok && ws.Signaled() && ws.Signal() == sig
}

func cmdline(pid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	return strings.ReplaceAll(string(b), "\x00", " ")
}
