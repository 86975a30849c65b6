package acp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/google/uuid"
	"golang.org/x/sys/unix"
	"mvdan.cc/sh/v3/syntax"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/provider"
)

// Client terminals: an agent that is offered them (Options.Terminal) can
// ask HotPlex to run a command (terminal/create) instead of running it
// itself. HotPlex then judges every such command through the turn's
// permission function, firewall first, before it starts, including the
// commands an agent considers read-only and would never ask about.

const (
	// defaultOutputLimit bounds a terminal's retained output when the agent
	// sets no outputByteLimit: a command that prints without end must not
	// fill memory.
	defaultOutputLimit = 1 << 20
	// outputDrain bounds how long a terminal's exit waits for the end of
	// its output once the command has exited: a background child may hold
	// the pipe open (it dies with the terminal's release).
	outputDrain = 500 * time.Millisecond
)

var (
	errNoTerminals     = errors.New("this client offers no terminals")
	errUnknownTerminal = errors.New("no such terminal")
	errTerminalsClosed = errors.New("the session is ending")
	errNoTurn          = errors.New("commands run only during a prompt turn")
)

// terminals holds the terminals of one agent process.
type terminals struct {
	workDir string
	env     []string
	cgroup  string
	log     *slog.Logger

	mu     sync.Mutex
	n      int
	byID   map[string]*terminal
	closed bool
}

func newTerminals(workDir string, env []string, cgroup string, log *slog.Logger) *terminals {
	return &terminals{workDir: workDir, env: env, cgroup: cgroup, log: log, byID: map[string]*terminal{}}
}

// terminal is one command and what it printed.
type terminal struct {
	id  string
	cp  *proc.Process
	out *outputBuffer
	// exited closes once the command has exited and its output has been
	// read to the end (or the drain gave up); status is set before.
	exited chan struct{}
	status sdk.TerminalExitStatus
}

// nextID reserves a terminal ID, so that the permission request can name
// the terminal before it exists.
func (ts *terminals) nextID() string {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.n++
	return "term-" + strconv.Itoa(ts.n)
}

// dir resolves a terminal's working directory, which must lie inside the
// session's work directory: the agent itself is confined there.
func (ts *terminals) dir(cwd *string) (string, error) {
	root, err := filepath.Abs(ts.workDir)
	if err != nil {
		return "", fmt.Errorf("work directory: %w", err)
	}
	dir := root
	if cwd != nil && *cwd != "" {
		dir = *cwd
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(root, dir)
		}
	}
	dir = filepath.Clean(dir)
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", fmt.Errorf("terminal directory %s: %w", dir, err)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("work directory: %w", err)
	}
	if rel, err := filepath.Rel(realRoot, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("terminal directory %s is outside the session's work directory %s", dir, root)
	}
	return dir, nil
}

// commandLine is the command as a shell reads it: what the firewall judges.
// An agent that sends no arguments sends a shell command line.
func commandLine(command string, args []string) string {
	if len(args) == 0 {
		return command
	}
	words := make([]string, 0, len(args)+1)
	for _, w := range append([]string{command}, args...) {
		q, err := syntax.Quote(w, syntax.LangBash)
		if err != nil {
			// A word no shell can quote (a NUL byte) cannot be run either;
			// the firewall sees it as it is.
			q = w
		}
		words = append(words, q)
	}
	return strings.Join(words, " ")
}

// shellArgv is how a terminal runs: through the shell, so that a command
// line without arguments works as it does in a person's terminal, with
// stderr joined to stdout as a terminal shows them.
func shellArgv(command string, args []string) (string, []string) {
	sh := "/bin/sh"
	if p, err := exec.LookPath("bash"); err == nil {
		sh = p
	}
	if len(args) == 0 {
		return sh, []string{"-c", "exec 2>&1\n" + command}
	}
	return sh, append([]string{"-c", `exec 2>&1; exec "$0" "$@"`, command}, args...)
}

// start runs an approved command.
func (ts *terminals) start(id string, r sdk.CreateTerminalRequest, dir string) (*terminal, error) {
	limit := defaultOutputLimit
	if r.OutputByteLimit != nil && *r.OutputByteLimit >= 0 {
		limit = *r.OutputByteLimit
	}
	env := baseEnv(ts.env)
	for _, v := range r.Env {
		env = append(env, v.Name+"="+v.Value)
	}
	path, argv := shellArgv(r.Command, r.Args)
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.closed {
		return nil, errTerminalsClosed
	}
	cp, err := proc.Start(proc.Spec{Path: path, Args: argv, Dir: dir, Env: env, Marker: uuid.NewString(), CgroupRoot: ts.cgroup})
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", r.Command, err)
	}
	// No one writes to the command's stdin: EOF at once, as for a command
	// run without input.
	_ = cp.Stdin().Close()
	t := &terminal{id: id, cp: cp, out: &outputBuffer{limit: limit}, exited: make(chan struct{})}
	ts.byID[id] = t
	read := make(chan struct{})
	go func() {
		defer close(read)
		_, _ = io.Copy(t.out, cp.Stdout())
	}()
	go func() {
		<-cp.Done()
		timer := time.NewTimer(outputDrain)
		select {
		case <-read:
		case <-timer.C:
			_ = cp.Stdout().Close()
			<-read
		}
		timer.Stop()
		_ = cp.Stdout().Close()
		t.status = exitStatus(cp.ExitError())
		close(t.exited)
	}()
	ts.log.Debug("terminal started", "terminal", id, "pid", cp.PID(), "command", r.Command)
	return t, nil
}

func (ts *terminals) get(id string) (*terminal, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t, ok := ts.byID[id]
	if !ok {
		return nil, fmt.Errorf("%w: %s", errUnknownTerminal, id)
	}
	return t, nil
}

// release kills a terminal's command if it still runs and forgets it.
func (ts *terminals) release(id string) error {
	ts.mu.Lock()
	t, ok := ts.byID[id]
	delete(ts.byID, id)
	ts.mu.Unlock()
	if !ok {
		return fmt.Errorf("%w: %s", errUnknownTerminal, id)
	}
	return t.kill()
}

// closeAll kills every terminal's command, and refuses new ones: the
// session is ending.
func (ts *terminals) closeAll() {
	ts.mu.Lock()
	ts.closed = true
	all := ts.byID
	ts.byID = map[string]*terminal{}
	ts.mu.Unlock()
	for _, t := range all {
		if err := t.kill(); err != nil {
			ts.log.Warn("terminal survived its kill", "terminal", t.id, "err", err)
		}
	}
}

// kill ends the command's whole tree and waits for its exit to be known.
func (t *terminal) kill() error {
	err := t.cp.Kill()
	<-t.exited
	return err
}

func (t *terminal) output() sdk.TerminalOutputResponse {
	text, truncated := t.out.text()
	r := sdk.TerminalOutputResponse{Output: text, Truncated: truncated}
	select {
	case <-t.exited:
		st := t.status
		r.ExitStatus = &st
	default:
	}
	return r
}

// exitStatus turns a proc exit error into ACP's exit status.
func exitStatus(err error) sdk.TerminalExitStatus {
	if err == nil {
		code := 0
		return sdk.TerminalExitStatus{ExitCode: &code}
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			name := signalName(ws.Signal())
			return sdk.TerminalExitStatus{Signal: &name}
		}
		code := ee.ExitCode()
		return sdk.TerminalExitStatus{ExitCode: &code}
	}
	code := -1
	return sdk.TerminalExitStatus{ExitCode: &code}
}

// signalName is a signal's conventional name ("SIGKILL"), as the protocol
// reports it.
func signalName(s syscall.Signal) string {
	if n := unix.SignalName(s); n != "" {
		return n
	}
	return s.String()
}

// outputBuffer keeps the last limit bytes of a command's output, cut at a
// character boundary as the protocol asks.
type outputBuffer struct {
	mu        sync.Mutex
	limit     int
	buf       []byte
	truncated bool
}

func (b *outputBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.limit; over > 0 {
		b.truncated = true
		// Drop the continuation bytes of a character cut in two.
		for over < len(b.buf) && !utf8.RuneStart(b.buf[over]) {
			over++
		}
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

func (b *outputBuffer) text() (string, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf), b.truncated
}

// termJob is a terminal/create waiting for the turn's permission decision.
type termJob struct {
	id    string
	line  string
	dir   string
	reply chan error
}

// CreateTerminal judges the command through the turn's permission function
// (firewall first) and starts it only when allowed.
func (cl *client) CreateTerminal(ctx context.Context, r sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	p := cl.p
	if !p.cfg.Terminal || p.terms == nil {
		return sdk.CreateTerminalResponse{}, errNoTerminals
	}
	if r.SessionId != p.sessionID {
		return sdk.CreateTerminalResponse{}, fmt.Errorf("unknown session %q", r.SessionId)
	}
	dir, err := p.terms.dir(r.Cwd)
	if err != nil {
		return sdk.CreateTerminalResponse{}, refusal(err.Error())
	}
	q := cl.current()
	if q == nil {
		return sdk.CreateTerminalResponse{}, refusal(errNoTurn.Error())
	}
	tj := &termJob{id: p.terms.nextID(), line: commandLine(r.Command, r.Args), dir: dir, reply: make(chan error, 1)}
	q.Push(job{term: tj})
	select {
	case err = <-tj.reply:
	case <-q.Aborted():
		err = refusal("the turn ended before the command was allowed")
	case <-ctx.Done():
		err = context.Cause(ctx)
	}
	if err != nil {
		return sdk.CreateTerminalResponse{}, err
	}
	if _, err := p.terms.start(tj.id, r, dir); err != nil {
		return sdk.CreateTerminalResponse{}, err
	}
	return sdk.CreateTerminalResponse{TerminalId: tj.id}, nil
}

func (cl *client) TerminalOutput(_ context.Context, r sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	t, err := cl.terminal(r.SessionId, r.TerminalId)
	if err != nil {
		return sdk.TerminalOutputResponse{}, err
	}
	return t.output(), nil
}

func (cl *client) WaitForTerminalExit(ctx context.Context, r sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	t, err := cl.terminal(r.SessionId, r.TerminalId)
	if err != nil {
		return sdk.WaitForTerminalExitResponse{}, err
	}
	select {
	case <-t.exited:
		return sdk.WaitForTerminalExitResponse{ExitCode: t.status.ExitCode, Signal: t.status.Signal}, nil
	case <-ctx.Done():
		return sdk.WaitForTerminalExitResponse{}, context.Cause(ctx)
	}
}

func (cl *client) KillTerminal(_ context.Context, r sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	t, err := cl.terminal(r.SessionId, r.TerminalId)
	if err != nil {
		return sdk.KillTerminalResponse{}, err
	}
	return sdk.KillTerminalResponse{}, t.kill()
}

func (cl *client) ReleaseTerminal(_ context.Context, r sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	if _, err := cl.terminal(r.SessionId, r.TerminalId); err != nil {
		return sdk.ReleaseTerminalResponse{}, err
	}
	return sdk.ReleaseTerminalResponse{}, cl.p.terms.release(r.TerminalId)
}

func (cl *client) terminal(sid sdk.SessionId, id string) (*terminal, error) {
	if !cl.p.cfg.Terminal || cl.p.terms == nil {
		return nil, errNoTerminals
	}
	if sid != cl.p.sessionID {
		return nil, fmt.Errorf("unknown session %q", sid)
	}
	return cl.p.terms.get(id)
}

// refusal is the error a refused terminal/create answers with: its message
// is what the agent shows for the failed tool.
func refusal(msg string) error {
	return &sdk.RequestError{Code: -32603, Message: msg, Data: map[string]any{"error": msg}}
}

// judgeTerminal decides a terminal/create on the turn's goroutine: the
// command goes to ask as an inspection (PreToolUse) of a Bash call, which
// the firewall judges; a command the firewall wants a person to approve
// is asked about (CanUseTool) unless the agent already asked about the
// same command this turn and it was allowed.
func (c *process) judgeTerminal(ctx context.Context, interrupted bool, tj *termJob, dec *decoder, ask provider.PermissionFunc, deliver func(*event.EventWithMeta) error) error {
	if interrupted || ctx.Err() != nil {
		return refusal("the turn was interrupted")
	}
	for _, ev := range dec.flush() {
		deliver(ev)
	}
	if ask == nil {
		return nil
	}
	req := provider.ToolRequest{
		Kind:      provider.PreToolUse,
		RequestID: tj.id,
		ToolName:  "Bash",
		ToolUseID: dec.callRunning(tj.line),
		Input:     map[string]any{"command": tj.line, "cwd": tj.dir, "terminal": tj.id},
	}
	d := ask(ctx, req)
	if d.Behavior == provider.Ask {
		if c.approved[tj.line] {
			d.Behavior = provider.Allow
		} else {
			req.Kind = provider.CanUseTool
			d = ask(ctx, req)
		}
	}
	if ctx.Err() != nil {
		return refusal("the turn was interrupted")
	}
	if d.Behavior == provider.Deny {
		msg := d.Message
		if msg == "" {
			msg = "the command was denied"
		}
		return refusal("HotPlex refused to run the command: " + msg)
	}
	if req.Kind == provider.CanUseTool && d.Behavior != provider.Allow {
		return refusal("HotPlex refused to run the command: nobody allowed it")
	}
	return nil
}

// callRunning returns the ID of the shell call, announced and not yet
// finished, whose command is line: the call a terminal runs.
func (d *decoder) callRunning(line string) string {
	for id, tc := range d.tools {
		if !tc.resulted && tc.name() == "Bash" && tc.input()["command"] == line {
			return string(id)
		}
	}
	return ""
}
