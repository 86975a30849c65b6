package proc

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// launchInNamespace starts spec's program as the first child of a tiny init
// that leads a new PID namespace (with a user namespace mapping our own ids
// when we are not root). files are the child's stdin, stdout and stderr.
func launchInNamespace(spec Spec, env []string, cgroupFD int, files [3]*os.File) (*nsInit, int, error) {
	path := spec.Path
	if !strings.Contains(path, "/") {
		lp, err := exec.LookPath(path)
		if err != nil {
			return nil, 0, fmt.Errorf("proc: start %s: %w", spec.Path, err)
		}
		path = lp
	}
	mode := "pipe"
	if spec.TTY != nil {
		mode = "tty"
	}
	aliveR, aliveW, err := os.Pipe()
	if err != nil {
		return nil, 0, fmt.Errorf("proc: init pipe: %w", err)
	}
	statusR, statusW, err := os.Pipe()
	if err != nil {
		_ = aliveR.Close()
		_ = aliveW.Close()
		return nil, 0, fmt.Errorf("proc: init pipe: %w", err)
	}
	// /proc/self/exe is this very program even if its file was replaced
	// since (an upgrade), so the init always speaks our protocol.
	// The init gets the agent's environment but for the marker, which it
	// adds back for the agent: it would make the init look like a member
	// of the tree it only keeps.
	marker := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, MarkerEnv+"="); ok {
			marker = v
		}
	}
	cmd := exec.Command("/proc/self/exe", append([]string{mode, marker, path, spec.Path}, spec.Args...)...)
	cmd.Args[0] = "hotplex-init"
	cmd.Dir = spec.Dir
	cmd.Env = append(withoutVar(withoutVar(env, initEnv), MarkerEnv), initEnv+"="+initVersion)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = files[0], files[1], files[2]
	cmd.ExtraFiles = []*os.File{aliveR, statusW}
	// Not Pdeathsig: os/exec's check that the parent is still there
	// compares getppid with our pid, and in a new PID namespace getppid is
	// 0, so the child would kill itself. The init sets it itself.
	// A mount namespace too, so that the init can mount a /proc of the new
	// PID namespace: with ours, the pids that tools inside read there
	// (ps, pgrep, lsof) would not be the ones they can signal.
	attr := &syscall.SysProcAttr{Setpgid: true, Cloneflags: syscall.CLONE_NEWPID | syscall.CLONE_NEWNS}
	if os.Geteuid() != 0 {
		attr.Cloneflags |= syscall.CLONE_NEWUSER
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Geteuid(), HostID: os.Geteuid(), Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getegid(), HostID: os.Getegid(), Size: 1}}
		// The init keeps, across its exec, the one capability it needs in
		// its user namespace: mounting its /proc. It drops it before it
		// starts the agent.
		attr.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN}
	}
	if cgroupFD >= 0 {
		setCgroupFD(attr, cgroupFD)
	}
	cmd.SysProcAttr = attr
	err = cmd.Start()
	_ = aliveR.Close()
	_ = statusW.Close()
	if err != nil {
		_ = aliveW.Close()
		_ = statusR.Close()
		if namespaceRefused(err) {
			return nil, 0, fmt.Errorf("%w: %w", errNamespaceRefused, err)
		}
		return nil, 0, fmt.Errorf("proc: start init for %s: %w", spec.Path, err)
	}
	n := &nsInit{cmd: cmd, alive: aliveW, status: bufio.NewReader(statusR), statusFile: statusR, gone: make(chan struct{})}
	fail := func(err error) (*nsInit, int, error) {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		_ = aliveW.Close()
		_ = statusR.Close()
		return nil, 0, err
	}
	line, err := n.status.ReadString('\n')
	if err != nil {
		return fail(fmt.Errorf("proc: init for %s did not start it: %w", spec.Path, err))
	}
	word, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
	num, perr := strconv.Atoi(arg)
	switch {
	case perr != nil:
		return fail(fmt.Errorf("proc: init for %s: bad report %q", spec.Path, line))
	case word == "error":
		return fail(fmt.Errorf("proc: start %s: %w", spec.Path, syscall.Errno(num)))
	case word != "started":
		return fail(fmt.Errorf("proc: init for %s: bad report %q", spec.Path, line))
	}
	// The init reaps nothing until acknowledged (see release), so the
	// agent, alive or a zombie, is still there to be found under its pid.
	n.agentNSPID = num
	pid, err := hostChild(cmd.Process.Pid, num)
	if err != nil {
		return fail(fmt.Errorf("proc: start %s: %w", spec.Path, err))
	}
	go func() {
		n.waitErr = cmd.Wait()
		// Only now: while the init runs, our end of this pipe is what
		// tells it we are alive.
		_ = aliveW.Close()
		close(n.gone)
	}()
	return n, pid, nil
}

// hostChild returns the pid, in our namespace, of the child of parent whose
// pid in its own (innermost) namespace is nspid.
func hostChild(parent, nspid int) (int, error) {
	var candidates []int
	tasks, _ := os.ReadDir("/proc/" + strconv.Itoa(parent) + "/task")
	for _, t := range tasks {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(parent) + "/task/" + t.Name() + "/children")
		if err != nil {
			candidates = nil
			break // no CONFIG_PROC_CHILDREN: scan everything below
		}
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				candidates = append(candidates, pid)
			}
		}
	}
	if len(candidates) == 0 {
		for pid, info := range snapshot() {
			if info.ppid == parent {
				candidates = append(candidates, pid)
			}
		}
	}
	for _, pid := range candidates {
		if innermostPID(pid) == nspid {
			return pid, nil
		}
	}
	return 0, fmt.Errorf("proc: child %d of init %d not found", nspid, parent)
}

// innermostPID returns pid's number in its own PID namespace (the last
// NSpid field of its status), or 0.
func innermostPID(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "NSpid:"); ok {
			f := strings.Fields(v)
			if len(f) == 0 {
				return 0
			}
			n, _ := strconv.Atoi(f[len(f)-1])
			return n
		}
	}
	return 0
}

// namespaceRefused reports whether err from starting an init means the
// kernel will not give us PID namespaces (no privilege, no user
// namespaces, a limit reached), as opposed to a problem with the program.
func namespaceRefused(err error) bool {
	return errors.Is(err, unix.EPERM) || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSPC) ||
		errors.Is(err, unix.EUSERS) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EACCES)
}

// initName is the init's name in ps, NUL-terminated for PR_SET_NAME.
var initName = []byte("hotplex-init\x00")

// runInit is the init of a session's PID namespace. It starts the agent
// as its only direct child, reports its pid, reaps every process that ends
// up as its child (the agent and the orphans of the namespace), reports the
// agent's wait status, forwards the signals it gets to the agent, and exits
// when the namespace is empty or its parent is gone; when it exits, the
// kernel kills whatever is left in the namespace.
func runInit() int {
	// Die with the parent. The check after setting it covers a parent that
	// died before: its end of the liveness pipe is closed then.
	_ = unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(syscall.SIGKILL), 0, 0, 0)
	_ = unix.Prctl(unix.PR_SET_NAME, uintptr(unsafe.Pointer(&initName[0])), 0, 0, 0) // for ps, instead of "exe"
	alive := os.NewFile(initAliveFD, "alive")
	status := os.NewFile(initStatusFD, "status")
	if alive == nil || status == nil {
		return 125
	}
	syscall.CloseOnExec(initAliveFD)
	syscall.CloseOnExec(initStatusFD)
	if fds := []unix.PollFd{{Fd: initAliveFD, Events: unix.POLLIN}}; func() bool {
		n, err := unix.Poll(fds, 0)
		return err == nil && n > 0 && fds[0].Revents&(unix.POLLHUP|unix.POLLERR) != 0
	}() {
		return 125
	}
	if len(os.Args) < 5 {
		return 125
	}
	mode, marker, path, argv := os.Args[1], os.Args[2], os.Args[3], os.Args[4:]
	env := withoutVar(os.Environ(), initEnv)
	if marker != "" {
		env = append(env, MarkerEnv+"="+marker)
	}

	sigs := make(chan os.Signal, 16)
	forwarded := []os.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGUSR1, syscall.SIGUSR2}
	signal.Notify(sigs, append(forwarded, syscall.SIGCHLD)...)

	// Mounts from outside still reach us (slave), ours stay here. Without
	// permission to mount, the tree sees our parent's /proc, whose pids are
	// not its own: tolerable, so not a reason to fail.
	if unix.Mount("", "/", "", unix.MS_SLAVE|unix.MS_REC, "") == nil {
		_ = unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "")
	}
	_ = unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)

	sys := &syscall.SysProcAttr{Setpgid: true}
	if mode == "tty" {
		sys = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	}
	// Handled signals go back to their default in the agent; SIGPIPE, which
	// the Go runtime handles too, does as well.
	agent, err := syscall.ForkExec(path, argv, &syscall.ProcAttr{Env: env, Files: []uintptr{0, 1, 2}, Sys: sys})
	if err != nil {
		var errno syscall.Errno
		if !errors.As(err, &errno) {
			errno = syscall.EINVAL
		}
		fmt.Fprintf(status, "error %d\n", int(errno))
		return 127
	}
	fmt.Fprintf(status, "started %d\n", agent)
	var ack [1]byte
	if n, _ := alive.Read(ack[:]); n != 1 {
		return 125 // the parent is gone
	}
	// Our copies of the agent's stdio must not keep its pipes open: EOF on
	// them tells the parent every writer of the tree is gone.
	if null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0); err == nil {
		for fd := range 3 {
			_ = unix.Dup3(int(null.Fd()), fd, 0)
		}
		_ = null.Close()
	}
	parentGone := make(chan struct{})
	go func() {
		// Nothing is written after the acknowledgement: any return is EOF.
		_, _ = alive.Read(ack[:])
		close(parentGone)
	}()

	agentDone := false
	reap := func() (empty bool) {
		for {
			var ws syscall.WaitStatus
			pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
			if errors.Is(err, syscall.EINTR) {
				continue
			}
			if errors.Is(err, syscall.ECHILD) {
				return true
			}
			if err != nil || pid <= 0 {
				return false
			}
			if pid == agent {
				agentDone = true
				fmt.Fprintf(status, "exit %d\n", uint32(ws))
			}
		}
	}
	for {
		if reap() && agentDone {
			return 0
		}
		select {
		case sig := <-sigs:
			if s := sig.(syscall.Signal); s != syscall.SIGCHLD && !agentDone {
				_ = syscall.Kill(agent, s)
			}
		case <-parentGone:
			return 125
		}
	}
}

// hostPID returns the pid in our namespace of the process numbered nspid
// in the namespace of the init whose pid (in ours) is initPID.
func hostPID(initPID, nspid int) (int, error) {
	ns, err := os.Readlink("/proc/" + strconv.Itoa(initPID) + "/ns/pid")
	if err != nil {
		return 0, fmt.Errorf("proc: namespace of init %d: %w", initPID, err)
	}
	pids, err := listPIDs()
	if err != nil {
		return 0, err
	}
	for _, pid := range pids {
		if pid == initPID {
			continue
		}
		if l, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/ns/pid"); err == nil && l == ns && innermostPID(pid) == nspid {
			return pid, nil
		}
	}
	return 0, fmt.Errorf("proc: no process %d in the namespace of init %d", nspid, initPID)
}
