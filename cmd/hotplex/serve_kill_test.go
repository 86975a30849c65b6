package main

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/testkit"
)

// jobsWith returns the live processes whose command line is exactly
// "sleep <arg>".
func jobsWith(arg string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil {
			continue
		}
		args := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
		if len(args) == 2 && strings.HasSuffix(args[0], "sleep") && args[1] == arg && proc.Alive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// uniqueSleep returns an argument for sleep that no other process on the
// machine has: tests find a tool's sleep by it from outside the session,
// whose pids ($$, $!) are numbers in its own PID namespace.
func uniqueSleep() string {
	n, _ := rand.Int(rand.Reader, big.NewInt(1_000_000))
	return fmt.Sprintf("300.%06d", n.Int64())
}

// assertNoJob fails t if "sleep arg" is still running shortly after.
func assertNoJob(t *testing.T, what, arg string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for left := jobsWith(arg); len(left) > 0; left = jobsWith(arg) {
		if time.Now().After(deadline) {
			for _, pid := range left {
				testkit.KillAndWait(t, pid)
			}
			t.Fatalf("%s (pids %v) outlived hotplex", what, left)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// kill -9 of the daemon while a session has background, nohup'd, setsid'd
// and double-forked jobs running leaves none of them alive: the session's
// PID namespace dies with the daemon, with a cgroup and without one.
func TestServeKill9LeavesNoJobs(t *testing.T) {
	for _, cgroups := range []string{"on", "off"} {
		t.Run("cgroups-"+cgroups, func(t *testing.T) {
			t.Cleanup(func() { testkit.AssertNoDescendants(t) })
			agent := testkit.BuildFakeAgent(t, t.TempDir())
			arg := uniqueSleep()
			t.Setenv(proc.CgroupsEnv, cgroups)
			d := startServe(t, t.TempDir(), agent, t.TempDir(), "")
			if r := d.request(t, "POST", "/v1/sessions", map[string]string{"id": "jobs"}); r.StatusCode != http.StatusCreated {
				t.Fatalf("create: %d", r.StatusCode)
			}
			quiet := " >/dev/null 2>&1 </dev/null"
			script := "sleep " + arg + quiet + " &\n" +
				"nohup sleep " + arg + quiet + " &\n" +
				"setsid sleep " + arg + quiet + " &\n" +
				"(setsid sh -c 'sleep " + arg + quiet + " &' &)\n" +
				"echo spawned\n"
			events := readEvents(d.request(t, "POST", "/v1/sessions/jobs/messages",
				map[string]string{"prompt": "bash:" + base64.RawURLEncoding.EncodeToString([]byte(script))}).Body, nil)
			ran := false
			for _, e := range events {
				ran = ran || e.Type == event.TypeAnswer && strings.Contains(string(e.Data), "ran: ")
			}
			if !ran {
				t.Fatalf("the jobs did not run: %v", events)
			}
			var jobs []int
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				if jobs = jobsWith(arg); len(jobs) == 4 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("%d of 4 jobs running", len(jobs))
				}
			}
			t.Cleanup(func() {
				for _, pid := range jobsWith(arg) { // survivors of a failure
					testkit.KillAndWait(t, pid)
				}
			})

			if err := d.cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			<-d.exited
			deadline := time.Now().Add(5 * time.Second)
			for left := jobsWith(arg); len(left) > 0; left = jobsWith(arg) {
				if time.Now().After(deadline) {
					t.Fatalf("jobs %v of %v outlived the daemon's SIGKILL", left, jobs)
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
}
