package proc

import (
	"bufio"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

// initEnv is set, to initVersion, in the environment of a process started
// as the init of a session's PID namespace. MaybeRunInit recognises it; the
// init removes it before it starts the agent, so nothing else inherits it.
const (
	initEnv     = "HOTPLEX_PROC_INIT"
	initVersion = "1"
)

// The init's extra descriptors: the parent keeps the write end of the
// first (liveness: EOF means the parent is gone; one byte acknowledges
// "started") and reads the second (status lines from the init).
const (
	initAliveFD  = 3
	initStatusFD = 4
)

// hookInstalled records that this program calls MaybeRunInit first thing
// in main, so that re-executing it runs the init instead of the program.
// It is process-wide by nature: a fact about the executable.
var hookInstalled atomic.Bool

// pidnsBroken records that the kernel refused a PID namespace once; later
// starts do not try again. pidnsOnce logs which mechanism is in force.
var (
	pidnsBroken atomic.Bool
	pidnsOnce   sync.Once
)

// MaybeRunInit must be called first thing in main (and in TestMain) by a
// program that wants its sessions to run in PID namespaces of their own.
// In a process started by Start as a session's init it runs the init and
// never returns; otherwise it records that the hook is installed and
// returns at once. A program that does not call it keeps the previous
// behaviour: no PID namespace, since re-executing it would run its main.
func MaybeRunInit() {
	if os.Getenv(initEnv) == initVersion && os.Getpid() == 1 {
		os.Exit(runInit())
	}
	hookInstalled.Store(true)
}

// ExitStatus is how a leader that ran under a namespace's init ended, as
// the init reported it: the error ExitError wraps for such a leader where
// a leader we waited for ourselves has an *exec.ExitError. Both have Sys,
// returning the syscall.WaitStatus, and ExitCode.
type ExitStatus struct {
	Status syscall.WaitStatus
}

// Error reads like os.ProcessState's String.
func (e *ExitStatus) Error() string {
	switch st := e.Status; {
	case st.Exited():
		return "exit status " + strconv.Itoa(st.ExitStatus())
	case st.Signaled():
		s := "signal: " + st.Signal().String()
		if st.CoreDump() {
			s += " (core dumped)"
		}
		return s
	default:
		return "wait status " + strconv.FormatUint(uint64(st), 10)
	}
}

// Sys returns the syscall.WaitStatus.
func (e *ExitStatus) Sys() any { return e.Status }

// ExitCode returns the exit code, or -1 if the leader was killed by a signal.
func (e *ExitStatus) ExitCode() int { return e.Status.ExitStatus() }

// PIDNamespacesEnv, set to "off", keeps sessions in our PID namespace even
// where they could have their own: an operator's way out should a tool
// misbehave in one.
const PIDNamespacesEnv = "HOTPLEX_PIDNS"

// PIDNamespaces reports whether Start puts new sessions in PID namespaces
// of their own: the hook is installed, PIDNamespacesEnv is not "off", and
// the kernel has not refused one.
func PIDNamespaces() bool {
	return hookInstalled.Load() && !pidnsBroken.Load() && os.Getenv(PIDNamespacesEnv) != "off"
}

// errNamespaceRefused says the kernel would not create a PID namespace
// (no privilege, no user namespaces, a limit reached, not Linux).
var errNamespaceRefused = errors.New("proc: PID namespace refused")

// nsInit is the parent's side of a session's init.
type nsInit struct {
	cmd        *exec.Cmd
	alive      *os.File      // write end of the liveness pipe
	status     *bufio.Reader // status lines from the init
	statusFile *os.File
	gone       chan struct{} // the init has been waited for: its namespace is empty
	waitErr    error         // the init's exit, set before gone closes
	agentNSPID int           // the leader's pid in the namespace
}

// withoutVar returns env without the variable name.
func withoutVar(env []string, name string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}

// logMechanism says once which mechanism keeps session trees from
// outliving this program.
func logMechanism(ns bool, err error) {
	pidnsOnce.Do(func() {
		if ns {
			// Debug: exec and chat share stderr with their user; the
			// degraded case below is the one worth a warning.
			slog.Debug("proc: sessions run in PID namespaces of their own; their processes die with HotPlex")
		} else {
			slog.Warn("proc: PID namespaces unavailable; processes that detach from a session survive if HotPlex is killed outright",
				"err", err)
		}
	})
}

// leaderExit reads the init's report of how the agent ended. If the init
// died without one (it was killed, or HotPlex killed its namespace), the
// init's own exit stands for the agent's.
func (n *nsInit) leaderExit() error {
	for {
		line, err := n.status.ReadString('\n')
		if err != nil {
			<-n.gone
			return n.waitErr
		}
		word, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
		if word != "exit" {
			continue
		}
		ws, err := strconv.ParseUint(arg, 10, 32)
		if err != nil {
			continue
		}
		if st := syscall.WaitStatus(ws); !(st.Exited() && st.ExitStatus() == 0) {
			return &ExitStatus{Status: st}
		}
		return nil
	}
}

// kill ends the namespace: the kernel SIGKILLs every process in it when its
// init dies.
func (n *nsInit) kill() { _ = n.cmd.Process.Signal(syscall.SIGKILL) }

// done reports whether the init has been waited for.
func (n *nsInit) done() bool {
	select {
	case <-n.gone:
		return true
	default:
		return false
	}
}

// release lets the init go on once the caller has read what it needs of
// the leader (its start time, a pidfd): until then the init reaps nothing,
// so the leader's pid cannot be reused. On failure it kills the init.
func (n *nsInit) release() error {
	if _, err := n.alive.Write([]byte{1}); err != nil {
		n.kill()
		return fmt.Errorf("proc: release init: %w", err)
	}
	return nil
}

// pid returns the init's pid in our namespace.
func (n *nsInit) pid() int { return n.cmd.Process.Pid }
