package proc

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

const (
	defaultStderrTail = 8 << 10
	// stderrDrain bounds how long the leader's exit waits for stderr EOF. A
	// descendant that outlives the leader may hold the pipe open forever, and
	// Done must not depend on it.
	stderrDrain = 500 * time.Millisecond
)

// Spec describes a process to start.
type Spec struct {
	Path string   // executable; a name without a slash is looked up in PATH
	Args []string // arguments (not including argv[0])
	Dir  string   // working directory; "" means the caller's
	Env  []string // full environment; nil means inherit os.Environ()
	// Marker is a unique token (e.g. a session ID) added to the child's
	// environment as HOTPLEX_PROC_MARKER=<marker>. Descendants inherit it,
	// which lets Terminate find descendants that left the process group
	// (setsid, nohup, daemonized).
	Marker string
	// StderrTail is how many bytes of the most recent stderr to keep
	// (default 8 KiB).
	StderrTail int
	// CgroupRoot, when non-empty, is a cgroup v2 directory under which a
	// per-process child cgroup is created; the child is placed in it
	// atomically at clone time, and Terminate kills everything in it via
	// cgroup.kill. If the cgroup cannot be created or used, Start falls back
	// silently (logging at debug level) to the marker and /proc sweep.
	CgroupRoot string
	// TTY, when set, is the terminal the child runs on: its stdin, stdout
	// and stderr, and its controlling terminal. The child then leads a new
	// session (and so its own process group) instead of only a new group,
	// and Stdin, Stdout and StderrTail have nothing to offer; the caller
	// talks to the other side of the terminal and closes its copy of TTY
	// once Start returns.
	TTY *os.File
	// SharePIDNamespace keeps the child in our PID namespace even where
	// Start would give it one of its own (see MaybeRunInit). Set it for a
	// program that tells us pids of its descendants, which we could not
	// use: they would be numbers in its namespace, not ours.
	SharePIDNamespace bool
}

// Process is a started child that leads its own process group. Its methods
// are safe for concurrent use.
type Process struct {
	cmd    *exec.Cmd
	pid    int
	start  uint64 // leader start time, to tell it apart from a reused pid
	name   string
	marker string
	cgroup string // per-process cgroup directory, "" when not in use
	// ns is the init of the tree's own PID namespace, nil when the tree
	// shares ours. cmd is then the init's, and the leader is its child.
	ns *nsInit
	// pidfds records that the kernel gives out pidfds, so os/exec (which
	// uses one per child since Go 1.23 wherever pidfd_open works) holds
	// one for every child it has yet to wait for: that makes it safe to
	// reap zombie children that have none.
	pidfds bool

	stdin   *os.File
	stdout  *os.File
	stderr  *os.File // read side, owned by the stderr goroutine
	tail    *tailBuffer
	drained chan struct{} // stderr goroutine ended

	exited chan struct{} // leader waited for; exit and group set
	done   chan struct{} // exited and stderr drained
	mu     sync.Mutex
	exit   error
	// group holds the members of the leader's process group right after the
	// leader was reaped (pid to start time). Afterwards the group ID could in
	// principle be reused, so Terminate follows these pids instead of it.
	group map[int]uint64

	// exitFD is a pidfd of the leader used only by Exited (-1 when the
	// platform has none); guarded by mu, closed once the leader is reaped.
	exitFD int

	termSem  chan struct{} // serializes Terminate calls
	retired  atomic.Bool   // set by Retire, Terminate and Kill: no new work
	killOnce sync.Once
	killNow  chan struct{} // closed by Kill to cut a running Terminate's grace short
}

// Start starts the process described by spec as the leader of a new process
// group, with pipes for stdin and stdout. Its stderr is read into a ring
// buffer that keeps the last spec.StderrTail bytes.
func Start(spec Spec) (*Process, error) {
	if spec.StderrTail <= 0 {
		spec.StderrTail = defaultStderrTail
	}
	env := spec.Env
	if env == nil {
		env = os.Environ()
	}
	if spec.Marker != "" {
		env = withMarker(env, spec.Marker)
	}

	cgDir, cgFD := "", -1
	if spec.CgroupRoot != "" {
		dir, fd, err := newCgroup(spec.CgroupRoot)
		if err != nil {
			slog.Debug("proc: cgroup unavailable, using marker sweep", "root", spec.CgroupRoot, "err", err)
		} else {
			cgDir, cgFD = dir, fd
		}
	}

	ns := PIDNamespaces() && !spec.SharePIDNamespace
	attempt := func(cgroupFD int) (*Process, error) {
		p, err := launch(spec, env, cgroupFD, ns)
		if err != nil && ns && errors.Is(err, errNamespaceRefused) {
			// Only if it works without a namespace was the namespace the
			// problem; then stop asking for one.
			p, err2 := launch(spec, env, cgroupFD, false)
			if err2 == nil {
				pidnsBroken.Store(true)
				logMechanism(false, err)
			}
			return p, err2
		}
		if err == nil && ns {
			logMechanism(true, nil)
		}
		return p, err
	}
	p, err := attempt(cgFD)
	if cgFD >= 0 {
		closeFD(cgFD)
		if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, exec.ErrNotFound) {
			// Cloning into the cgroup can fail where creating it did not (no
			// permission on the common ancestor, no clone3). The sweep still
			// works, so retry without the cgroup.
			slog.Debug("proc: start in cgroup failed, retrying without", "cgroup", cgDir, "err", err)
			_ = removeCgroup(cgDir)
			cgDir = ""
			p, err = attempt(-1)
		}
		if err != nil {
			_ = removeCgroup(cgDir)
			cgDir = ""
		}
	}
	if err != nil {
		return nil, err
	}
	p.marker = spec.Marker
	p.cgroup = cgDir
	p.run()
	return p, nil
}

// withMarker returns env with MarkerEnv set to marker, replacing any marker
// inherited from our own environment.
func withMarker(env []string, marker string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, MarkerEnv+"=") {
			out = append(out, kv)
		}
	}
	return append(out, MarkerEnv+"="+marker)
}

// launch starts the child with fresh pipes. cgroupFD < 0 means no cgroup;
// ns puts the tree in a PID namespace of its own.
func launch(spec Spec, env []string, cgroupFD int, ns bool) (*Process, error) {
	// Our own pipes rather than cmd.StdoutPipe: exec.Cmd.Wait closes the
	// pipes it created as soon as the leader exits, which would discard
	// output the caller has not read yet.
	if spec.TTY != nil {
		return launchOnTerminal(spec, env, cgroupFD, ns)
	}
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			_ = f.Close()
		}
	}
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			files = append(files, r, w)
		}
		return r, w, err
	}
	inR, inW, err := pipe()
	if err != nil {
		return nil, fmt.Errorf("proc: stdin pipe: %w", err)
	}
	outR, outW, err := pipe()
	if err != nil {
		closeAll()
		return nil, fmt.Errorf("proc: stdout pipe: %w", err)
	}
	errR, errW, err := pipe()
	if err != nil {
		closeAll()
		return nil, fmt.Errorf("proc: stderr pipe: %w", err)
	}

	var p *Process
	if ns {
		n, pid, err := launchInNamespace(spec, env, cgroupFD, [3]*os.File{inR, outW, errW})
		if err != nil {
			closeAll()
			return nil, err
		}
		p = newProcess(spec, n.cmd, pid)
		p.ns = n
		if err := n.release(); err != nil {
			closeAll()
			<-n.gone
			closeExitFD(p.exitFD)
			_ = n.statusFile.Close()
			return nil, err
		}
	} else {
		cmd := exec.Command(spec.Path, spec.Args...)
		cmd.Dir = spec.Dir
		cmd.Env = env
		cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		setParentDeathSignal(cmd.SysProcAttr)
		if cgroupFD >= 0 {
			setCgroupFD(cmd.SysProcAttr, cgroupFD)
		}
		if err := cmd.Start(); err != nil {
			closeAll()
			return nil, fmt.Errorf("proc: start %s: %w", spec.Path, err)
		}
		p = newProcess(spec, cmd, cmd.Process.Pid)
	}
	// The child has its copies; ours must go so that EOF on stdout and
	// stderr means every writer in the tree is gone.
	_ = inR.Close()
	_ = outW.Close()
	_ = errW.Close()
	p.stdin, p.stdout, p.stderr = inW, outR, errR
	return p, nil
}

// newProcess returns the Process of a leader just started as pid by cmd
// (or by cmd's init, whose child it is).
func newProcess(spec Spec, cmd *exec.Cmd, pid int) *Process {
	p := &Process{
		cmd:     cmd,
		pid:     pid,
		name:    filepath.Base(spec.Path),
		tail:    newTailBuffer(spec.StderrTail),
		drained: make(chan struct{}),
		exited:  make(chan struct{}),
		done:    make(chan struct{}),
		termSem: make(chan struct{}, 1),
		killNow: make(chan struct{}),
	}
	// The leader cannot have been reaped yet (nobody waits for it before
	// run, and a namespace's init not before we acknowledge its start), so
	// its pid still names it here.
	if info, err := readStat(p.pid); err == nil {
		p.start = info.start
	}
	// Not a scan of our fd table for os/exec's pidfd: that costs a
	// readlink per open fd, and a daemon with hundreds of sessions starts
	// them by the dozen.
	p.exitFD = openExitFD(p.pid)
	p.pidfds = p.exitFD >= 0
	return p
}

// run starts the two goroutines of a process: one drains stderr into the
// tail buffer, the other waits for the leader.
func (p *Process) run() {
	go func() {
		defer close(p.drained)
		// A small buffer rather than io.Copy's 32 KiB: one of these runs
		// for every hot session, and CLIs write little to stderr.
		buf := make([]byte, 512)
		for {
			n, err := p.stderr.Read(buf)
			_, _ = p.tail.Write(buf[:n])
			if err != nil {
				return
			}
		}
	}()
	go func() {
		var err error
		if p.ns != nil {
			err = p.ns.leaderExit()
			_ = p.ns.statusFile.Close() // the init reports nothing after the exit
		} else {
			err = p.cmd.Wait()
		}
		if err != nil {
			err = fmt.Errorf("proc: %s (pid %d): %w", p.name, p.pid, err)
		}
		group := p.groupAtExit()
		p.mu.Lock()
		p.exit = err
		p.group = group
		closeExitFD(p.exitFD)
		p.exitFD = -1
		p.mu.Unlock()
		close(p.exited)
		// Writes after exit could only fail; release the pipe like os/exec does.
		_ = p.stdin.Close()

		t := time.NewTimer(stderrDrain)
		select {
		case <-p.drained:
		case <-t.C:
			// A descendant still holds stderr open. Closing our read side
			// ends the reader; the descendant gets EPIPE on its next write.
			_ = p.stderr.Close()
			<-p.drained
		}
		t.Stop()
		_ = p.stderr.Close()
		if p.cgroup != "" {
			// Succeeds only if the cgroup is empty; otherwise Terminate
			// removes it after killing what is left inside.
			_ = rmdirCgroup(p.cgroup)
		}
		close(p.done)
	}()
}

// PID returns the process ID of the leader, which is also its process group ID.
func (p *Process) PID() int { return p.pid }

// OwnPIDNamespace reports whether the tree runs in a PID namespace of its
// own, which the kernel empties should we die without terminating it.
func (p *Process) OwnPIDNamespace() bool { return p.ns != nil }

// HostPID translates a pid that the tree reported (its $$, $!, a pid a
// tool printed) into ours. In a PID namespace of its own the tree numbers
// its processes apart from us; otherwise pids are the same and pid is
// returned as is. It fails once the process has gone: only live processes
// (and the leader) can be found.
func (p *Process) HostPID(pid int) (int, error) {
	if p.ns == nil {
		return pid, nil
	}
	if pid == p.ns.agentNSPID {
		return p.pid, nil
	}
	if p.ns.done() {
		return 0, fmt.Errorf("proc: no process %d: the namespace of %s (pid %d) is gone", pid, p.name, p.pid)
	}
	return hostPID(p.ns.pid(), pid)
}

// Stdin returns the write end of the child's stdin. Closing it sends EOF.
func (p *Process) Stdin() io.WriteCloser { return p.stdin }

// Stdout returns the read end of the child's stdout. The caller owns it and
// should close it when done; it reaches EOF once every process holding the
// pipe has exited, which after Terminate includes the whole tree.
func (p *Process) Stdout() *os.File { return p.stdout }

// StderrTail returns the most recent stderr output, up to Spec.StderrTail bytes.
func (p *Process) StderrTail() string { return p.tail.String() }

// Explain describes the process for an error message: what, then the
// leader's exit status and the last of its stderr. It first waits up to
// wait for the leader to be done, so that both are there to read.
func (p *Process) Explain(what string, wait time.Duration) string {
	if wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-p.done:
		case <-t.C:
		}
		t.Stop()
	}
	msg := what
	if exit := p.ExitError(); exit != nil {
		msg += " (" + exit.Error() + ")"
	}
	if tail := p.StderrTail(); tail != "" {
		msg += "; stderr: " + tail
	}
	return msg
}

// Done returns a channel that is closed once the leader has exited, been
// waited for, and its stderr has been drained (or the drain timed out because
// a descendant kept the pipe open).
func (p *Process) Done() <-chan struct{} { return p.done }

// ExitError returns the leader's exit status once Done is closed: nil for
// exit code 0, otherwise an error wrapping *exec.ExitError that describes the
// exit code or the signal. Before the leader has exited it returns nil.
func (p *Process) ExitError() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.exit
}

// Exited reports whether the leader has exited, even if it has not been
// reaped yet: a process killed a moment ago already counts. It is cheap
// (one poll of a pidfd where the platform has them), so it can run before
// every turn.
func (p *Process) Exited() bool {
	if p.leaderReaped() {
		return true
	}
	p.mu.Lock()
	fd := p.exitFD
	if fd >= 0 {
		exited := pollExitFD(fd)
		p.mu.Unlock()
		return exited
	}
	p.mu.Unlock()
	return !Alive(p.pid)
}

// Retire marks the process as being ended, before its end begins: from
// now on Ending reports true, so that its owner gives it no new work
// while it winds down (a turn in progress is ended, then Terminate). Terminate
// and Kill retire the process too.
func (p *Process) Retire() { p.retired.Store(true) }

// Ending reports whether the process has exited or is being ended
// (Retire, Terminate or Kill was called): either way it takes no new work.
func (p *Process) Ending() bool { return p.retired.Load() || p.Exited() }

// leaderReaped reports whether os/exec has waited for the leader.
func (p *Process) leaderReaped() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// groupMembers returns the processes in process group pgrp that started no
// earlier than minStart, keyed by pid with their start time.
func groupMembers(pgrp int, minStart uint64) map[int]uint64 {
	members := make(map[int]uint64)
	for pid, info := range snapshot() {
		if info.pgrp == pgrp && info.start >= minStart {
			members[pid] = info.start
		}
	}
	return members
}

// groupAtExit returns the members of the leader's process group as the
// leader is reaped: from the cgroup's few processes where it has one,
// else from a scan of every process.
func (p *Process) groupAtExit() map[int]uint64 {
	if p.cgroup != "" {
		if pids, ok := cgroupProcs(p.cgroup); ok {
			members := make(map[int]uint64)
			for _, pid := range pids {
				if info, err := readStat(pid); err == nil && info.pgrp == p.pid && info.start >= p.start {
					members[pid] = info.start
				}
			}
			return members
		}
	}
	return groupMembers(p.pid, p.start)
}

// leftGroup returns a copy of the group members recorded when the leader was reaped.
func (p *Process) leftGroup() map[int]uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return maps.Clone(p.group)
}
