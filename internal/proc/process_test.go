//go:build linux

package proc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestNormalExit(t *testing.T) {
	p := startSh(t, Spec{Marker: newMarker(t)},
		`read line; echo "got $line"; echo "marker=$HOTPLEX_PROC_MARKER" ; echo oops >&2`)
	if _, err := io.WriteString(p.Stdin(), "hello\n"); err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(p.Stdout())
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, p, 5*time.Second)
	if got := string(out); !strings.HasPrefix(got, "got hello\nmarker=test-") {
		t.Errorf("stdout = %q", got)
	}
	if err := p.ExitError(); err != nil {
		t.Errorf("ExitError = %v, want nil", err)
	}
	if got := p.StderrTail(); got != "oops\n" {
		t.Errorf("StderrTail = %q", got)
	}
	if Alive(p.PID()) {
		t.Errorf("leader %d still alive", p.PID())
	}
}

func TestEnvAndDir(t *testing.T) {
	dir := t.TempDir()
	p := startSh(t, Spec{Dir: dir, Env: []string{"FOO=bar", MarkerEnv + "=stale"}, Marker: "m1"},
		`echo "$FOO $HOTPLEX_PROC_MARKER $(pwd)"`)
	out, _ := io.ReadAll(p.Stdout())
	waitDone(t, p, 5*time.Second)
	if got, want := strings.TrimSpace(string(out)), "bar m1 "+dir; got != want {
		t.Errorf("output = %q, want %q", got, want)
	}
}

func TestExitErrorCode(t *testing.T) {
	p := startSh(t, Spec{}, `exit 3`)
	waitDone(t, p, 5*time.Second)
	err := p.ExitError()
	if ws, ok := waitStatus(err); !ok || ws.ExitStatus() != 3 {
		t.Fatalf("ExitError = %v, want exit code 3", err)
	}
	if !strings.Contains(err.Error(), "exit status 3") {
		t.Errorf("message %q lacks the exit status", err)
	}
}

func TestExitErrorSignal(t *testing.T) {
	p := startSh(t, Spec{}, `kill -KILL $$`)
	waitDone(t, p, 5*time.Second)
	err := p.ExitError()
	ws, ok := waitStatus(err)
	if !ok {
		t.Fatalf("ExitError = %v, want a wait status", err)
	}
	if !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Errorf("wait status %v, want killed by SIGKILL", ws)
	}
	if !strings.Contains(err.Error(), "killed") {
		t.Errorf("message %q lacks the signal", err)
	}
}

func TestMissingBinary(t *testing.T) {
	_, err := Start(Spec{Path: "/nonexistent/hotplex-agent"})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("absolute path: err = %v, want fs.ErrNotExist", err)
	}
	_, err = Start(Spec{Path: "hotplex-no-such-agent-binary"})
	if !errors.Is(err, exec.ErrNotFound) {
		t.Errorf("PATH lookup: err = %v, want exec.ErrNotFound", err)
	}
	// The same through the cgroup path, which must not leave a cgroup behind.
	root := DefaultCgroupRoot()
	if root == "" {
		return
	}
	if _, err = Start(Spec{Path: "/nonexistent/hotplex-agent", CgroupRoot: root}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("cgroup: err = %v, want fs.ErrNotExist", err)
	}
	if n := len(cgroupSubdirs(t, root)); n != 0 {
		t.Errorf("%d cgroups left behind", n)
	}
}

func TestStderrTail(t *testing.T) {
	// 2000 bytes of 'x', then a recognizable end.
	p := startSh(t, Spec{StderrTail: 16},
		`i=0; while [ $i -lt 200 ]; do printf xxxxxxxxxx >&2; i=$((i+1)); done; printf 0123456789abcdef >&2`)
	waitDone(t, p, 5*time.Second)
	if got := p.StderrTail(); got != "0123456789abcdef" {
		t.Errorf("StderrTail = %q, want the last 16 bytes", got)
	}

	p = startSh(t, Spec{}, `head -c 20000 /dev/zero | tr '\0' y >&2; printf END >&2`)
	waitDone(t, p, 5*time.Second)
	got := p.StderrTail()
	if len(got) != defaultStderrTail || !strings.HasSuffix(got, "yyyEND") {
		t.Errorf("default tail: %d bytes ending %q, want %d ending yyyEND", len(got), got[max(0, len(got)-6):], defaultStderrTail)
	}
}

func TestTailBuffer(t *testing.T) {
	b := newTailBuffer(5)
	for _, step := range []struct{ write, want string }{
		{"", ""},
		{"ab", "ab"},
		{"cde", "abcde"},
		{"f", "bcdef"},
		{"ghij", "fghij"},
		{"0123456789", "56789"},
		{"xyz", "89xyz"},
	} {
		_, _ = b.Write([]byte(step.write))
		if got := b.String(); got != step.want {
			t.Errorf("after %q: %q, want %q", step.write, got, step.want)
		}
	}
}

func TestDoneDespiteHeldStderr(t *testing.T) {
	// The leader exits at once while a background child keeps stderr (and
	// stdout) open; Done must not wait for that child.
	p := startSh(t, Spec{Marker: newMarker(t)}, `sleep 1000 & echo bye >&2`)
	start := time.Now()
	waitDone(t, p, 5*time.Second)
	if d := time.Since(start); d > stderrDrain+time.Second {
		t.Errorf("Done took %v", d)
	}
	if got := p.StderrTail(); got != "bye\n" {
		t.Errorf("StderrTail = %q", got)
	}
}

// A program killed without a chance to terminate its children (SIGKILL,
// a crash) must not leave its agent CLI running.
func TestChildDiesWithItsParent(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), parentModeEnv+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var child int
	if _, err := fmt.Fscan(out, &child); err != nil || child <= 0 {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("parent did not report its child: %v", err)
	}
	if !Alive(child) {
		t.Fatalf("child %d not running", child)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	deadline := time.Now().Add(3 * time.Second)
	for Alive(child) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(child, syscall.SIGKILL)
			t.Fatalf("child %d outlived its killed parent", child)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// What the parent left re-parented to us (subreaper): its child, or
	// the init of that child's namespace.
	for deadline := time.Now().Add(5 * time.Second); len(zombieChildren()) > 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		ReapOrphans()
	}
}

func TestExplainWaitsForTheExitAndTellsStderr(t *testing.T) {
	p := startSh(t, Spec{}, "echo something broke >&2; exit 3")
	msg := p.Explain("the agent stopped", 5*time.Second)
	if !strings.HasPrefix(msg, "the agent stopped (") || !strings.Contains(msg, "exit status 3") || !strings.Contains(msg, "; stderr: something broke") {
		t.Fatalf("Explain = %q", msg)
	}
}

// A process being ended takes no new work: Ending reports it from Retire
// (or Terminate) on, before the leader has exited, and after.
func TestEndingFromRetireOn(t *testing.T) {
	p := startSh(t, Spec{Marker: newMarker(t)}, `read line`)
	if p.Ending() || p.Exited() {
		t.Fatal("a running process reports Ending or Exited")
	}
	p.Retire()
	if !p.Ending() {
		t.Error("Ending is false after Retire")
	}
	if p.Exited() {
		t.Error("Retire ended the process")
	}
	if err := p.Terminate(context.Background(), time.Second); err != nil {
		t.Fatal(err)
	}
	if !p.Ending() || !p.Exited() {
		t.Errorf("after Terminate: Ending %v, Exited %v", p.Ending(), p.Exited())
	}

	q := startSh(t, Spec{Marker: newMarker(t)}, `read line`)
	if err := q.Kill(); err != nil {
		t.Fatal(err)
	}
	if !q.Ending() {
		t.Error("Ending is false after Kill")
	}
}
