package pty

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/provider"
)

// Process is one terminal program. Besides provider.Process it can be
// halted and restarted, which with tmux keeps the program's window.
type Process struct {
	prov   *Provider
	opts   *Options
	preset *Preset
	start  provider.StartOptions
	env    []string
	log    *slog.Logger
	id     string // names the tmux socket: hotplex-<id>

	// turnMu keeps turns, halts and restarts one at a time.
	turnMu sync.Mutex

	mu     sync.Mutex
	term   terminal
	info   provider.Info
	halted bool // ended by Halt; Restart brings it back
	closed bool
	// cancelTurn ends the turn in progress (nil between turns), so that
	// Close can end a turn blocked on a permission question.
	cancelTurn context.CancelCauseFunc
}

var (
	errHalted = fmt.Errorf("%w: the program was halted; restart it to continue", provider.ErrSessionDead)
	errClosed = fmt.Errorf("%w: the session was closed", provider.ErrSessionDead)
)

// argv is the command line for a start that resumes or not, and whether it
// resumes.
func (c *Process) argv(resume bool) ([]string, bool) {
	argv := append([]string{c.preset.Command}, c.preset.Args...)
	resumed := false
	if c.preset.SessionArgs != nil {
		extra, r := c.preset.SessionArgs(c.start, resume)
		argv = append(argv, extra...)
		resumed = r
	}
	return argv, resumed
}

// launch starts the program (in a new terminal, or in the kept tmux
// window) and waits for its ready screen.
func (c *Process) launch(ctx context.Context, resume bool) error {
	ctx, cancel := context.WithTimeout(ctx, c.opts.Start())
	defer cancel()
	if c.preset.Prepare != nil {
		if err := c.preset.Prepare(c.start, c.env); err != nil {
			return fmt.Errorf("%w: prepare %s: %w", provider.ErrStartFailed, c.preset.Name, err)
		}
	}
	argv, resumed := c.argv(resume)
	cols, rows := c.preset.size()

	c.mu.Lock()
	old := c.term
	c.mu.Unlock()
	var t terminal
	switch tm, ok := old.(*tmuxTerminal); {
	case ok && tm.respawn(ctx, c.start.WorkDir, argv) == nil:
		t = tm
	case c.opts.Tmux:
		if ok {
			// The kept window is gone (someone killed its server): a new one.
			_ = tm.close(ctx)
			c.mu.Lock()
			c.term = nil
			c.mu.Unlock()
		}
		tm, err := startTmux(ctx, tmuxOptions{
			path: c.opts.TmuxPath, socket: "hotplex-" + c.id, argv: argv, dir: c.start.WorkDir,
			env: c.env, marker: uuid.NewString(), cgroupRoot: c.start.CgroupRoot,
			cols: cols, rows: rows, grace: c.opts.Terminate(),
		})
		if err != nil {
			return fmt.Errorf("%w: %w", provider.ErrStartFailed, err)
		}
		t = tm
	default:
		pt, err := startPTY(proc.Spec{
			Path: argv[0], Args: argv[1:], Dir: c.start.WorkDir, Env: c.env,
			// Unique per process tree, so ending one never touches another's.
			Marker: uuid.NewString(), CgroupRoot: c.start.CgroupRoot,
		}, cols, rows, c.opts.Terminate())
		if err != nil {
			return fmt.Errorf("%w: %s: %w", provider.ErrStartFailed, argv[0], err)
		}
		t = pt
	}
	c.mu.Lock()
	c.term = t
	c.halted = false
	c.info.PID = t.pid()
	c.info.Resumed = resumed
	c.info.Fallback = ""
	if resume && !resumed {
		c.info.Fallback = "no saved conversation to resume; started a new one"
	}
	c.mu.Unlock()

	if err := c.waitReady(ctx, t); err != nil {
		screen := tail(t.screen(), 15)
		if _, kept := t.(*tmuxTerminal); kept {
			_ = t.(*tmuxTerminal).halt(context.WithoutCancel(ctx))
		} else {
			closeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			_ = t.close(closeCtx)
			cancel()
			c.mu.Lock()
			c.term = nil
			c.mu.Unlock()
		}
		return fmt.Errorf("%w: %s: %w; screen:\n%s", provider.ErrStartFailed, c.preset.Name, err, screen)
	}
	if c.preset.Model != nil {
		if m := c.preset.Model.FindStringSubmatch(strings.Join(t.screen(), "\n")); len(m) > 1 {
			c.mu.Lock()
			c.info.Model = strings.TrimSpace(m[1])
			c.mu.Unlock()
		}
	}
	c.log.Debug("terminal program ready", "pid", t.pid(), "tmux", c.opts.Tmux)
	return nil
}

// waitReady waits for the first idle screen, answering start-up dialogs.
func (c *Process) waitReady(ctx context.Context, t terminal) error {
	answered := map[int]bool{}
	return c.watchScreen(ctx, t, nil, func(screen string, stable time.Duration) (bool, error) {
		for i, d := range c.preset.Dialogs {
			if d.Match.MatchString(screen) {
				if !answered[i] {
					answered[i] = true
					return false, t.keys(d.Keys)
				}
				return false, nil
			}
			answered[i] = false
		}
		return screen != "" && c.preset.idleScreen(screen) && stable >= c.preset.settle(), nil
	})
}

var errProgramExited = errors.New("the program exited")

// watchScreen calls fn with the screen whenever it may have changed (and
// at least every poll), with how long it has been unchanged, until fn says
// done, fails, the program exits or ctx ends.
func (c *Process) watchScreen(ctx context.Context, t terminal, wake <-chan struct{}, fn func(screen string, stable time.Duration) (bool, error)) error {
	poll := 50 * time.Millisecond
	if _, ok := t.(*tmuxTerminal); ok {
		poll = 100 * time.Millisecond
	}
	tick := time.NewTicker(poll)
	defer tick.Stop()
	last, changed := "", time.Now()
	for {
		screen := strings.Join(t.screen(), "\n")
		if screen != last {
			last, changed = screen, time.Now()
		}
		done, err := fn(screen, time.Since(changed))
		if err != nil || done {
			return err
		}
		if t.exited() {
			return errProgramExited
		}
		select {
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-t.changed():
		case <-wake:
		case <-tick.C:
		case <-t.done():
		}
	}
}

// Info describes the running program.
func (c *Process) Info() provider.Info {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.info
}

func (c *Process) terminal() terminal {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.term
}

// Alive reports whether the program is running.
func (c *Process) Alive() bool {
	t := c.terminal()
	return t != nil && !t.exited()
}

// Halted reports whether the program was ended by Halt (or ended by
// itself in a kept tmux window) and can be restarted.
func (c *Process) Halted() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.halted || (c.term != nil && !c.closed && c.term.exited())
}

// StderrTail returns the last lines of the screen: a terminal program's
// errors are on its screen.
func (c *Process) StderrTail() string {
	t := c.terminal()
	if t == nil {
		return ""
	}
	return tail(t.screen(), 15)
}

// Screen returns the program's screen as text.
func (c *Process) Screen() string {
	t := c.terminal()
	if t == nil {
		return ""
	}
	return strings.Join(t.screen(), "\n")
}

// TmuxSocket is the -L name of the program's tmux server ("" without tmux):
// `tmux -L <name> attach` shows the program.
func (c *Process) TmuxSocket() string {
	if tm, ok := c.terminal().(*tmuxTerminal); ok {
		return tm.socket
	}
	return ""
}

// TmuxWindow is the tmux window ID the program runs in ("" without tmux);
// it stays the same across Halt and Restart.
func (c *Process) TmuxWindow(ctx context.Context) (string, error) {
	tm, ok := c.terminal().(*tmuxTerminal)
	if !ok {
		return "", nil
	}
	return tm.windowID(ctx)
}

// Halt ends the program. In tmux its window stays with the last screen on
// view (a person attached sees what happened); without tmux the terminal
// goes too. Restart starts the program again.
func (c *Process) Halt(ctx context.Context) error {
	c.turnMu.Lock()
	defer c.turnMu.Unlock()
	c.mu.Lock()
	t, closed := c.term, c.closed
	c.mu.Unlock()
	if closed {
		return errClosed
	}
	var err error
	switch tt := t.(type) {
	case nil:
	case *tmuxTerminal:
		err = tt.halt(ctx)
	default:
		err = tt.close(ctx)
		c.mu.Lock()
		c.term = nil
		c.mu.Unlock()
	}
	c.mu.Lock()
	c.halted = true
	c.mu.Unlock()
	return err
}

// Restart ends the program if it still runs and starts it again on the
// same conversation (in the same tmux window when there is one), with a
// new PID.
func (c *Process) Restart(ctx context.Context) error {
	c.turnMu.Lock()
	defer c.turnMu.Unlock()
	c.mu.Lock()
	t, closed := c.term, c.closed
	c.mu.Unlock()
	if closed {
		return errClosed
	}
	switch tt := t.(type) {
	case nil:
	case *tmuxTerminal:
		if err := tt.halt(ctx); err != nil {
			return err
		}
	default:
		if err := tt.close(ctx); err != nil {
			c.log.Debug("ending the old program", "err", err)
		}
		c.mu.Lock()
		c.term = nil
		c.mu.Unlock()
	}
	return c.launch(ctx, true)
}

// Close ends the program and everything it started; with tmux it
// destroys the window and the server, unless the provider keeps windows
// (Options.KeepWindows), when the window is parked for the conversation's
// next Start.
func (c *Process) Close(ctx context.Context) error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	t := c.term
	if c.cancelTurn != nil {
		c.cancelTurn(errClosed)
	}
	c.mu.Unlock()
	c.prov.forget(c.start.ProviderSessionID, c)
	if t == nil {
		return nil
	}
	if tm, ok := t.(*tmuxTerminal); ok && c.opts.KeepWindows && c.start.ProviderSessionID != "" {
		err := tm.halt(ctx)
		if err == nil {
			c.prov.park(c.start.ProviderSessionID, tm)
			return nil
		}
		c.log.Warn("the program did not end; destroying its window", "err", err)
	}
	return t.close(ctx)
}

// deadErr describes a program that is gone, with its last screen.
func (c *Process) deadErr(what string) error {
	c.mu.Lock()
	halted, closed := c.halted, c.closed
	c.mu.Unlock()
	switch {
	case closed:
		return errClosed
	case halted:
		return errHalted
	}
	msg := what
	if s := c.StderrTail(); s != "" {
		msg += "; screen:\n" + s
	}
	return fmt.Errorf("%w: %s", provider.ErrSessionDead, msg)
}

// Turn types the prompt, submits it, and waits for the program to return
// to an idle screen; the answer is what appeared below the echoed prompt.
func (c *Process) Turn(ctx context.Context, prompt string, ask provider.PermissionFunc, emit provider.Emit) (*event.TurnResult, error) {
	if !c.turnMu.TryLock() {
		return nil, provider.ErrBusy
	}
	defer c.turnMu.Unlock()
	t := c.terminal()
	if t == nil || t.exited() {
		return nil, c.deadErr("exited between turns")
	}
	begin := time.Now()
	turnCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	c.mu.Lock()
	c.cancelTurn = cancel
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.cancelTurn = nil
		c.mu.Unlock()
	}()

	// Keys typed while the program is still busy (the end of an
	// interrupted turn) may be lost or taken as something else: wait a
	// little for a ready screen, then type anyway.
	readyCtx, cancelReady := context.WithTimeout(turnCtx, readyWait)
	_ = c.watchScreen(readyCtx, t, nil, func(screen string, _ time.Duration) (bool, error) {
		return c.preset.idleScreen(screen), nil
	})
	cancelReady()
	if t.exited() {
		return nil, c.deadErr("exited between turns")
	}
	before := t.transcript()
	if err := c.submit(turnCtx, t, prompt); err != nil {
		if t.exited() {
			return nil, c.deadErr("exited during the turn")
		}
		return nil, err
	}
	atEnter := strings.Join(t.screen(), "\n")
	if err := t.keys(c.preset.submitKeys()); err != nil {
		return nil, c.deadErr(err.Error())
	}

	var (
		progress    bool // the screen changed after Enter
		sawBusy     bool
		interrupted bool
		deadline    time.Time
		perm        permissionState
		stream      answerStream
	)
	// The screen is watched past the caller's cancellation, to see the
	// program come back after the interrupt; wake notices the cancellation.
	wake := make(chan struct{}, 1)
	stopWake := context.AfterFunc(turnCtx, func() { signal(wake) })
	defer stopWake()
	err := c.watchScreen(context.WithoutCancel(turnCtx), t, wake, func(screen string, stable time.Duration) (bool, error) {
		if turnCtx.Err() != nil && !interrupted {
			// The caller gave up: press the interrupt keys once and give
			// the program its grace to come back to an idle screen.
			interrupted = true
			deadline = time.Now().Add(c.opts.Interrupt())
			progress = true
			if err := t.keys(c.preset.interruptKeys()); err != nil {
				return false, err
			}
			return false, nil
		}
		if interrupted && time.Now().After(deadline) {
			return false, errInterruptTimeout
		}
		if !interrupted && c.opts.Stream {
			if err := stream.update(screen, func() string {
				return extractAnswer(before, t.transcript(), prompt, c.preset)
			}, !c.preset.idleScreen(screen), emit); err != nil {
				cancel(err)
			}
		}
		if !interrupted {
			if err := perm.check(turnCtx, c.preset.Permissions, screen, stable, c.preset.settle(), t, ask); err != nil {
				return false, err
			}
		}
		if c.preset.Busy != nil && c.preset.Busy.MatchString(screen) {
			sawBusy = true
		}
		if screen != atEnter {
			progress = true
		}
		settle := c.preset.settle()
		if interrupted {
			// Back from an interrupt the program draws little more; a
			// shorter quiet keeps Stop quick.
			settle = min(settle, interruptSettle)
		}
		if !progress || !c.preset.idleScreen(screen) || stable < settle {
			return false, nil
		}
		// An idle screen counts once the program was seen working, or an
		// answer shows: a program may take a moment to take the prompt
		// (the screen changes as its input line clears, and is quiet
		// before any busy marker appears). A program that shows neither
		// is done once its screen has been quiet for a while.
		if interrupted || sawBusy || stable >= quietDone {
			return true, nil
		}
		return extractAnswer(before, t.transcript(), prompt, c.preset) != "", nil
	})
	switch {
	case errors.Is(err, errProgramExited):
		return nil, errors.Join(turnErr(turnCtx, interrupted), c.deadErr("exited during the turn"))
	case errors.Is(err, errInterruptTimeout):
		c.log.Warn("program did not come back after the interrupt; killing it", "pid", t.pid())
		c.kill(t)
		return nil, errors.Join(context.Cause(turnCtx), fmt.Errorf("%w: no idle screen within %s of the interrupt; program killed", provider.ErrSessionDead, c.opts.Interrupt()))
	case err != nil:
		return nil, errors.Join(turnErr(turnCtx, interrupted), c.deadErr(err.Error()))
	}

	answer := extractAnswer(before, t.transcript(), prompt, c.preset)
	tr := &event.TurnResult{
		Subtype: "success", Result: answer, NumTurns: 1, Model: c.Info().Model,
		DurationMs: time.Since(begin).Milliseconds(), Interrupted: interrupted,
	}
	if interrupted {
		tr.Subtype = "error_during_execution"
		tr.IsError = true
	}
	if answer != "" && !interrupted {
		if err := stream.finish(answer, tr.DurationMs, emit); err != nil {
			return tr, err
		}
	}
	return tr, turnErr(turnCtx, interrupted)
}

var errInterruptTimeout = errors.New("no idle screen after the interrupt")

// quietDone is how long an idle screen that shows neither a busy marker
// nor an answer must stay unchanged to end a turn.
const quietDone = 3 * time.Second

// readyWait bounds the wait for a ready screen before a prompt is typed.
const readyWait = 5 * time.Second

// interruptSettle is the quiet that ends an interrupted turn.
const interruptSettle = 200 * time.Millisecond

func turnErr(ctx context.Context, interrupted bool) error {
	if !interrupted && ctx.Err() == nil {
		return nil
	}
	return context.Cause(ctx)
}

// kill ends a program that stopped answering. A tmux window is kept.
func (c *Process) kill(t terminal) {
	switch tt := t.(type) {
	case *tmuxTerminal:
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = tt.halt(ctx)
		cancel()
	case *ptyTerminal:
		_ = tt.kill()
	}
}

// submit types or pastes the prompt and lets the program draw it.
func (c *Process) submit(ctx context.Context, t terminal, prompt string) error {
	var err error
	if c.preset.BracketedPaste {
		err = t.paste(prompt)
	} else {
		err = t.keys(strings.ReplaceAll(strings.ReplaceAll(prompt, "\r\n", "\n"), "\n", c.preset.newlineKeys()))
	}
	if err != nil {
		return fmt.Errorf("%w: typing the prompt: %w", provider.ErrSessionDead, err)
	}
	timer := time.NewTimer(c.preset.submitDelay())
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-timer.C:
	}
	return nil
}

func tail(lines []string, n int) string {
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
