//go:build linux

package proc

import (
	"io"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Inside its namespace the tree sees its own pids, in $$ and in /proc
// alike, so that tools which read one and signal the other agree; HostPID
// turns them into ours.
func TestNamespaceView(t *testing.T) {
	if !PIDNamespaces() {
		t.Skip("PID namespaces are off in this run")
	}
	p := startSh(t, Spec{Marker: newMarker(t)}, `
sleep 1000 &
read -r self _ < /proc/self/stat
echo "$$ $self $! $(ls /proc | grep -c '^[0-9]')"
read -r line`)
	if p.ns == nil {
		t.Fatal("no PID namespace")
	}
	var out strings.Builder
	buf := make([]byte, 256)
	for !strings.Contains(out.String(), "\n") {
		n, err := p.Stdout().Read(buf)
		out.Write(buf[:n])
		if err != nil {
			t.Fatalf("stdout: %v (%q)", err, out.String())
		}
	}
	f := strings.Fields(out.String())
	if len(f) != 4 {
		t.Fatalf("output %q", out.String())
	}
	if f[0] != f[1] {
		t.Errorf("$$ = %s but /proc/self is %s: /proc is not the namespace's", f[0], f[1])
	}
	// The init, the shell, sleep, and the subshell, ls and grep of the count.
	if n, _ := strconv.Atoi(f[3]); n < 3 || n > 6 {
		t.Errorf("%d processes in the namespace's /proc, want at most 6", n)
	}
	shell, _ := strconv.Atoi(f[0])
	if host, err := p.HostPID(shell); err != nil || host != p.PID() {
		t.Errorf("HostPID(%d) = %d, %v; want the leader %d", shell, host, err, p.PID())
	}
	bg, _ := strconv.Atoi(f[2])
	host, err := p.HostPID(bg)
	if err != nil || !Alive(host) || !strings.Contains(cmdline(host), "sleep") {
		t.Errorf("HostPID(%d) = %d (%q), %v; want the sleep", bg, host, cmdline(host), err)
	}
	if _, err := io.WriteString(p.Stdin(), "go\n"); err != nil {
		t.Fatal(err)
	}
	waitDone(t, p, 5*time.Second)
	terminate(t, p, 200*time.Millisecond)
	assertGone(t, []int{host, p.PID()})
	if _, err := p.HostPID(bg); err == nil {
		t.Error("HostPID found a process of a namespace that is gone")
	}
	if err := p.ExitError(); err != nil {
		t.Errorf("ExitError = %v", err)
	}
}
