//go:build linux

package proc

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ownerModeEnv makes the test binary act as a program that owns a session
// whose tree has detached every way it can (escapeScript with ESCAPE), and
// is then killed with SIGKILL. Its value is "cgroup" or "nocgroup".
const ownerModeEnv = "HOTPLEX_PROC_TEST_OWNER"

// runAsOwner starts the escape tree, prints what the test needs to know
// (whether the tree has its own PID namespace, its cgroup root, and our
// pids of all its processes), then waits to be killed.
func runAsOwner(mode string) {
	dir, err := os.MkdirTemp("", "hotplex-owner-")
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	w := filepath.Join(dir, "worker.sh")
	if err := os.WriteFile(w, []byte(worker), 0o644); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	pidfile := filepath.Join(dir, "pids")
	root := ""
	if mode == "cgroup" {
		root = DefaultCgroupRoot()
	}
	p, err := Start(Spec{
		Path: "/bin/sh", Args: []string{"-c", escapeScript, "sh", w, "wait"},
		Env:    append(os.Environ(), "PIDFILE="+pidfile, "ESCAPE=1"),
		Marker: "owner-test", CgroupRoot: root,
	})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("pidns", p.ns != nil)
	fmt.Println("cgroup", p.cgroup != "", root)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		b, _ := os.ReadFile(pidfile)
		if lines := strings.Fields(string(b)); len(lines) >= 7 {
			for _, l := range lines {
				n, _ := strconv.Atoi(l)
				host, err := p.HostPID(n)
				if err != nil {
					fmt.Println("error:", err)
					os.Exit(1)
				}
				fmt.Println("pid", host)
			}
			break
		}
		if time.Now().After(deadline) {
			fmt.Println("error: tree did not start")
			os.Exit(1)
		}
	}
	fmt.Println("ready")
	for {
		time.Sleep(time.Hour) // until killed
	}
}

// TestNothingOutlivesAKilledOwner kills the program that owns a session
// with SIGKILL, which gives it no chance to terminate anything, while the
// session's tree has background, nohup'd, setsid'd and double-forked jobs
// running, one of them with the marker scrubbed. None may survive, with a
// cgroup and without one.
func TestNothingOutlivesAKilledOwner(t *testing.T) {
	if !hookInstalled.Load() {
		t.Skip("PID namespaces are off in this run (" + noPIDNSEnv + ")")
	}
	for _, mode := range []string{"nocgroup", "cgroup"} {
		t.Run(mode, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), ownerModeEnv+"="+mode)
			cmd.Stderr = os.Stderr
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan struct{})
			go func() {
				_ = cmd.Wait()
				close(exited)
			}()
			var pids []int
			var root string
			pidns, cgroup := false, false
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				f := strings.Fields(sc.Text())
				if len(f) == 0 {
					continue
				}
				switch f[0] {
				case "pidns":
					pidns = f[1] == "true"
				case "cgroup":
					cgroup = f[1] == "true"
					if len(f) > 2 {
						root = f[2]
					}
				case "pid":
					n, _ := strconv.Atoi(f[1])
					pids = append(pids, n)
				case "error:":
					_ = cmd.Process.Kill()
					<-exited
					t.Fatal(sc.Text())
				}
				if f[0] == "ready" {
					break
				}
			}
			t.Cleanup(func() {
				_ = cmd.Process.Kill() // when the test ended before killing it
				<-exited
				// Whatever survived re-parented to us (subreaper): end it, so
				// that a failure leaves nothing behind either.
				for _, pid := range pids {
					if Alive(pid) {
						_ = syscall.Kill(pid, syscall.SIGKILL)
					}
				}
				if root != "" {
					_ = RemoveCgroupRoot(root)
				}
				for deadline := time.Now().Add(5 * time.Second); len(zombieChildren()) > 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
					ReapOrphans()
				}
			})
			if !pidns {
				t.Fatal("the session did not get a PID namespace")
			}
			if mode == "cgroup" && !cgroup {
				if root == "" {
					t.Skip("no writable cgroup v2 hierarchy")
				}
				t.Fatal("the session is not in a cgroup")
			}
			if len(pids) != 7 {
				t.Fatalf("owner reported %d pids, want 7: %v", len(pids), pids)
			}
			starts := make(map[int]uint64)
			for _, pid := range pids {
				info, err := readStat(pid)
				if err != nil || !info.alive() {
					t.Fatalf("pid %d not running before the kill", pid)
				}
				starts[pid] = info.start
			}
			// Alive and still the process we saw, not a reuse of its pid.
			same := func(pid int) bool {
				info, err := readStat(pid)
				return err == nil && info.alive() && info.start == starts[pid]
			}

			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			<-exited
			deadline := time.Now().Add(5 * time.Second)
			for {
				var alive []int
				for _, pid := range pids {
					if same(pid) {
						alive = append(alive, pid)
					}
				}
				if len(alive) == 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("survived their owner's SIGKILL: %v of %v", alive, pids)
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}
