package pty

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/provider"
)

// tmuxTarget is the one session (and window) of a provider's tmux server.
const tmuxTarget = "hotplex"

// tmuxTerminal runs the program in a window of a tmux server of its own, on
// a private socket (tmux -L <socket>), so a person can `tmux -L <socket>
// attach` to watch or take over. The server runs in the foreground (-D) as
// our child, with the same process-tree isolation as any agent process, so
// everything in the window belongs to the tree Close ends. The window
// outlives the program (remain-on-exit): a program that ends, or is halted,
// leaves its last screen on view until Respawn starts it again.
type tmuxTerminal struct {
	path   string // the tmux executable
	socket string // the -L name
	sock   string // the socket file
	env    []string
	server *proc.Process
	poll   time.Duration
	grace  time.Duration

	mu     sync.Mutex
	ppid   int // the program's pid in the pane
	pidfd  int // -1 when none
	exitCh chan struct{}

	notify  chan struct{}
	stop    chan struct{}
	stopped chan struct{}
	closeMu sync.Mutex
	closed  bool
}

// tmuxOptions configure a tmux-hosted program.
type tmuxOptions struct {
	path       string
	socket     string
	argv       []string
	dir        string
	env        []string
	marker     string
	cgroupRoot string
	cols, rows int
	grace      time.Duration
}

// socketPath is where tmux puts the socket of -L name.
func socketPath(env []string, name string) string {
	dir := provider.EnvValue(env, "TMUX_TMPDIR")
	if dir == "" {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "tmux-"+strconv.Itoa(os.Getuid()), name)
}

func startTmux(ctx context.Context, o tmuxOptions) (*tmuxTerminal, error) {
	env := withoutTmuxVars(o.env)
	t := &tmuxTerminal{
		path: o.path, socket: o.socket, sock: socketPath(env, o.socket), env: env,
		poll: 100 * time.Millisecond, grace: o.grace, pidfd: -1,
		notify: make(chan struct{}, 1), stop: make(chan struct{}), stopped: make(chan struct{}),
	}
	server, err := proc.Start(proc.Spec{
		Path: o.path, Args: []string{"-D", "-L", o.socket, "-f", "/dev/null"},
		Dir: o.dir, Env: env, Marker: o.marker, CgroupRoot: o.cgroupRoot,
		// The pane pids tmux reports (#{pane_pid}) must be ours.
		SharePIDNamespace: true,
	})
	if err != nil {
		return nil, fmt.Errorf("start tmux: %w", err)
	}
	t.server = server
	fail := func(err error) (*tmuxTerminal, error) {
		close(t.stopped)
		_ = t.endServer(context.WithoutCancel(ctx))
		return nil, err
	}
	// Until the server has made its socket, a client would start a second
	// server of its own (a daemon outside our tree), so wait for it.
	if err := t.waitSocket(ctx); err != nil {
		return fail(err)
	}
	args := []string{
		"set-option", "-g", "remain-on-exit", "on", ";",
		"set-option", "-g", "history-limit", "2000", ";",
		"set-option", "-g", "status", "off", ";",
		"new-session", "-d", "-s", tmuxTarget, "-n", tmuxTarget, "-x", strconv.Itoa(o.cols), "-y", strconv.Itoa(o.rows), "-c", o.dir, "--",
	}
	if _, err := t.run(ctx, append(args, o.argv...)...); err != nil {
		return fail(err)
	}
	// A person who attaches with a smaller terminal must not shrink the
	// window: the screen HotPlex reads would lose the top of a question.
	// (tmux 3.3 exits if this is set before the first session exists.)
	if _, err := t.run(ctx, "set-option", "-g", "window-size", "manual"); err != nil {
		return fail(err)
	}
	if err := t.trackPane(ctx); err != nil {
		return fail(err)
	}
	go t.watch()
	return t, nil
}

func (t *tmuxTerminal) waitSocket(ctx context.Context) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(t.sock); err == nil {
			return nil
		}
		select {
		case <-t.server.Done():
			return fmt.Errorf("tmux server exited: %v %s", t.server.ExitError(), t.server.StderrTail())
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return errors.New("tmux server made no socket within 10s")
		}
	}
}

// run runs one tmux client command against our server.
func (t *tmuxTerminal) run(ctx context.Context, args ...string) (string, error) {
	// A client answers in milliseconds; one that hangs must not hold a turn.
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, t.path, append([]string{"-L", t.socket}, args...)...)
	cmd.Env = t.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("tmux %s: %w: %s", args[0], err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}

// trackPane learns the pane's program and opens a pidfd to watch its exit.
func (t *tmuxTerminal) trackPane(ctx context.Context) error {
	out, err := t.run(ctx, "display-message", "-p", "-t", tmuxTarget, "#{pane_pid} #{pane_dead}")
	if err != nil {
		return err
	}
	f := strings.Fields(out)
	if len(f) != 2 {
		return fmt.Errorf("tmux: unexpected pane description %q", out)
	}
	pid, err := strconv.Atoi(f[0])
	if err != nil {
		return fmt.Errorf("tmux: pane pid %q: %w", f[0], err)
	}
	exitCh := make(chan struct{})
	fd, ferr := unix.PidfdOpen(pid, 0)
	if f[1] == "1" || ferr != nil {
		close(exitCh) // already gone
		fd = -1
	}
	t.mu.Lock()
	if t.pidfd >= 0 {
		_ = unix.Close(t.pidfd)
	}
	t.ppid, t.pidfd, t.exitCh = pid, fd, exitCh
	t.mu.Unlock()
	return nil
}

// watch notices the program's exit until close. The screen itself is
// read only while someone waits on it (a turn polls it): a capture is a
// tmux client process, too dear to run for every idle session.
func (t *tmuxTerminal) watch() {
	defer close(t.stopped)
	tick := time.NewTicker(t.poll)
	defer tick.Stop()
	for {
		select {
		case <-t.stop:
			return
		case <-tick.C:
		}
		t.mu.Lock()
		ended := t.pidfd >= 0 && pidfdExited(t.pidfd)
		if ended {
			_ = unix.Close(t.pidfd)
			t.pidfd = -1
			close(t.exitCh)
		}
		t.mu.Unlock()
		if ended {
			signal(t.notify)
		}
	}
}

func pidfdExited(fd int) bool {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, 0)
	return err == nil && n > 0
}

func (t *tmuxTerminal) capture(history bool) []string {
	args := []string{"capture-pane", "-p", "-J", "-t", tmuxTarget}
	if history {
		args = append(args, "-S", "-")
	}
	out, err := t.run(context.Background(), args...)
	if err != nil {
		return nil
	}
	return trimLines(strings.Split(strings.TrimSuffix(out, "\n"), "\n"))
}

func (t *tmuxTerminal) screen() []string         { return t.capture(false) }
func (t *tmuxTerminal) transcript() []string     { return t.capture(true) }
func (t *tmuxTerminal) changed() <-chan struct{} { return t.notify }

// keys sends raw bytes as hexadecimal key codes, so that tmux passes every
// byte on as it is instead of reading key names.
func (t *tmuxTerminal) keys(s string) error {
	if s == "" {
		return nil
	}
	args := []string{"send-keys", "-t", tmuxTarget, "-H"}
	for _, b := range []byte(s) {
		args = append(args, strconv.FormatUint(uint64(b), 16))
	}
	_, err := t.run(context.Background(), args...)
	return err
}

// paste goes through a tmux buffer: paste-buffer -p brackets it when the
// program asked for bracketed paste, as tmux knows the pane's modes.
func (t *tmuxTerminal) paste(s string) error {
	if _, err := t.run(context.Background(), "set-buffer", "-b", "hotplex-prompt", "--", s); err != nil {
		return err
	}
	_, err := t.run(context.Background(), "paste-buffer", "-p", "-d", "-r", "-b", "hotplex-prompt", "-t", tmuxTarget)
	return err
}

func (t *tmuxTerminal) pid() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.ppid
}

func (t *tmuxTerminal) done() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.exitCh
}

func (t *tmuxTerminal) exited() bool {
	// The pidfd is polled under the lock, which close takes to close it.
	t.mu.Lock()
	defer t.mu.Unlock()
	select {
	case <-t.exitCh:
		return true
	default:
	}
	return t.pidfd < 0 || pidfdExited(t.pidfd)
}

// windowID names the window, which stays the same across Halt and Respawn.
func (t *tmuxTerminal) windowID(ctx context.Context) (string, error) {
	out, err := t.run(ctx, "display-message", "-p", "-t", tmuxTarget, "#{window_id}")
	return strings.TrimSpace(out), err
}

// halt ends the program in the window but keeps the window, showing the
// program's last screen: hangup, then SIGTERM, then SIGKILL to the pane's
// process group, each after grace.
func (t *tmuxTerminal) halt(ctx context.Context) error {
	t.mu.Lock()
	pid, ch := t.ppid, t.exitCh
	t.mu.Unlock()
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGTERM, syscall.SIGKILL} {
		if t.exited() {
			break
		}
		_ = syscall.Kill(-pid, sig)
		_ = syscall.Kill(pid, sig)
		select {
		case <-ch:
		case <-time.After(t.grace):
		case <-ctx.Done():
		}
	}
	if !t.exited() {
		return fmt.Errorf("tmux pane program %d did not end", pid)
	}
	return nil
}

// respawn starts argv again in the same window.
func (t *tmuxTerminal) respawn(ctx context.Context, dir string, argv []string) error {
	args := append([]string{"respawn-pane", "-k", "-t", tmuxTarget, "-c", dir, "--"}, argv...)
	if _, err := t.run(ctx, args...); err != nil {
		return err
	}
	return t.trackPane(ctx)
}

// close destroys the window and the server, then makes sure nothing of
// the server's tree survives and removes its socket.
func (t *tmuxTerminal) close(ctx context.Context) error {
	t.closeMu.Lock()
	defer t.closeMu.Unlock()
	if t.closed {
		return nil
	}
	t.closed = true
	close(t.stop)
	<-t.stopped
	return t.endServer(ctx)
}

func (t *tmuxTerminal) endServer(ctx context.Context) error {
	killCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	_, _ = t.run(killCtx, "kill-server")
	cancel()
	err := t.server.Terminate(ctx, t.grace)
	t.mu.Lock()
	if t.pidfd >= 0 {
		_ = unix.Close(t.pidfd)
		t.pidfd = -1
	}
	t.mu.Unlock()
	// tmux leaves its socket file behind.
	_ = os.Remove(t.sock)
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// withoutTmuxVars drops the variables that tell tmux it runs inside another
// tmux, which would point clients at the outer server.
func withoutTmuxVars(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if strings.HasPrefix(kv, "TMUX=") || strings.HasPrefix(kv, "TMUX_PANE=") {
			continue
		}
		out = append(out, kv)
	}
	return out
}
