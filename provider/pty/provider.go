// Package pty drives any interactive terminal program (an agent's TUI, a
// REPL) as a provider: the program runs in a pseudo-terminal with a
// terminal emulator keeping its screen, prompts are typed (or pasted) and
// submitted with Enter, the program's state is read off the screen (idle
// when the screen is stable and shows the preset's ready marker and no busy
// marker), and the answer is the screen content that appeared below the
// echoed prompt. Stop presses the program's interrupt keys.
//
// With Options.Tmux the program runs in a window of a private tmux server
// (`tmux -L hotplex-<id> attach` shows it), so a person can watch or take
// over; Halt ends the program but keeps the window, Restart starts it again
// there, and Close destroys the window and the server (or, with
// Options.KeepWindows, keeps it for the conversation's next Start until
// Discard).
//
// What a screen allows, and what it does not: permission questions a
// program asks on its screen can be answered through the turn's
// PermissionFunc when the preset describes the question and its keys; the
// request carries only what the screen shows (a tool name, a command or a
// file), and a tool the program runs without asking cannot be stopped
// first. There are no token counts, costs or tool events: the screen does
// not carry them reliably. Answers can stream (Options.Stream) in whole
// lines as they appear.
package pty

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/hotplex/hotplex/internal/claudecli"
	"github.com/hotplex/hotplex/provider"
)

// Options configure a terminal provider.
type Options struct {
	// Preset says which program to run and how to read its screen.
	Preset Preset
	// Tmux hosts the program in a window of a tmux server of its own.
	Tmux bool
	// TmuxPath is the tmux executable (default "tmux", from PATH).
	TmuxPath string
	// Timeouts bound the wait for the program's first ready screen, an
	// interrupted prompt's return to an idle screen, and the program's end
	// after its hangup.
	provider.Timeouts
	// Stream emits the answer while it appears on the screen, as answer
	// deltas (Meta.Status "delta") of whole lines. A program that rewrites
	// lines it already showed ends the stream early; the turn's result
	// always holds the final answer.
	Stream bool
	// KeepWindows (with Tmux) makes Close end the program but keep its
	// window, parked under the conversation's provider session ID: the
	// next Start of that conversation runs the program again in the same
	// window (a person attached keeps watching), and Discard or the
	// provider's Close destroys it. A window left parked for ParkTimeout
	// (default 30 minutes) is destroyed.
	KeepWindows bool
	// ParkTimeout bounds how long a kept window waits for its next Start.
	ParkTimeout time.Duration
}

// Provider starts terminal programs.
type Provider struct {
	opts Options

	mu     sync.Mutex
	parked map[string]*parkedWindow // by provider session ID
	live   map[string]*Process      // running, by provider session ID
}

// parkedWindow is a kept tmux window waiting for its conversation.
type parkedWindow struct {
	term  *tmuxTerminal
	timer *time.Timer
}

// New returns a provider for opts.Preset.
func New(opts Options) (*Provider, error) {
	if opts.Preset.Command == "" {
		return nil, errors.New("pty: the preset names no command")
	}
	if opts.Preset.Name == "" {
		return nil, errors.New("pty: the preset has no name")
	}
	if opts.TmuxPath == "" {
		opts.TmuxPath = "tmux"
	}
	if opts.ParkTimeout <= 0 {
		opts.ParkTimeout = 30 * time.Minute
	}
	return &Provider{opts: opts, parked: map[string]*parkedWindow{}, live: map[string]*Process{}}, nil
}

// Name returns the preset's name.
func (p *Provider) Name() string { return p.opts.Preset.Name }

// Path returns the program the provider runs.
func (p *Provider) Path() string { return p.opts.Preset.Command }

// Start runs the program and returns once its screen is ready for a prompt.
func (p *Provider) Start(ctx context.Context, o provider.StartOptions) (provider.Process, error) {
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	if o.WorkDir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("%w: no work directory: %w", provider.ErrStartFailed, err)
		}
		o.WorkDir = wd
	}
	c := &Process{
		prov: p, opts: &p.opts, preset: &p.opts.Preset, start: o,
		env: childEnv(o, p.opts.Preset.Env),
		log: log.With("provider", p.opts.Preset.Name),
		id:  strings.ReplaceAll(uuid.NewString(), "-", "")[:12],
	}
	c.info.ProviderSessionID = o.ProviderSessionID
	if t := p.unpark(o.ProviderSessionID); t != nil {
		c.term = t // launch runs the program again in it
	}
	if err := c.launch(ctx, o.Resume); err != nil {
		if t, ok := c.terminal().(*tmuxTerminal); ok {
			p.park(o.ProviderSessionID, t)
		}
		return nil, err
	}
	if o.ProviderSessionID != "" {
		p.mu.Lock()
		p.live[o.ProviderSessionID] = c
		p.mu.Unlock()
	}
	return c, nil
}

// forget drops a closed process from the live ones.
func (p *Provider) forget(key string, c *Process) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.live[key] == c {
		delete(p.live, key)
	}
}

// TmuxSocket returns the tmux socket (-L name) of the window the
// conversation providerSessionID runs in, or is kept in: `tmux -L <socket>
// attach` shows it.
func (p *Provider) TmuxSocket(providerSessionID string) (string, bool) {
	p.mu.Lock()
	c := p.live[providerSessionID]
	pw := p.parked[providerSessionID]
	p.mu.Unlock()
	if c != nil {
		if s := c.TmuxSocket(); s != "" {
			return s, true
		}
	}
	if pw != nil {
		return pw.term.socket, true
	}
	return "", false
}

// park keeps a tmux window whose program has ended for the next Start of
// its conversation.
func (p *Provider) park(key string, t *tmuxTerminal) {
	p.mu.Lock()
	old := p.parked[key]
	pw := &parkedWindow{term: t}
	pw.timer = time.AfterFunc(p.opts.ParkTimeout, func() {
		if p.unparkIf(key, pw) {
			_ = t.close(context.Background())
		}
	})
	p.parked[key] = pw
	p.mu.Unlock()
	// Two windows for one conversation: the older one goes.
	if old != nil && old.term != t {
		old.timer.Stop()
		_ = old.term.close(context.Background())
	}
}

func (p *Provider) unpark(key string) *tmuxTerminal {
	if key == "" {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	pw := p.parked[key]
	if pw == nil {
		return nil
	}
	pw.timer.Stop()
	delete(p.parked, key)
	return pw.term
}

func (p *Provider) unparkIf(key string, pw *parkedWindow) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.parked[key] != pw {
		return false
	}
	delete(p.parked, key)
	return true
}

// Parked returns the tmux socket (-L name) of the window kept for the
// conversation providerSessionID, if one is kept.
func (p *Provider) Parked(providerSessionID string) (socket string, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	pw := p.parked[providerSessionID]
	if pw == nil {
		return "", false
	}
	return pw.term.socket, true
}

// Discard destroys the window kept for the conversation providerSessionID,
// if there is one: the conversation has exited.
func (p *Provider) Discard(ctx context.Context, providerSessionID string) error {
	if t := p.unpark(providerSessionID); t != nil {
		return t.close(ctx)
	}
	return nil
}

// Forget destroys the window kept for the conversation and, through the
// preset, what the program keeps of it on disk: the session was deleted.
func (p *Provider) Forget(ctx context.Context, o provider.StartOptions) error {
	err := p.Discard(ctx, o.ProviderSessionID)
	if p.opts.Preset.Forget != nil && o.ProviderSessionID != "" {
		err = errors.Join(err, p.opts.Preset.Forget(o, childEnv(o, p.opts.Preset.Env)))
	}
	return err
}

// Close destroys every kept window.
func (p *Provider) Close(ctx context.Context) error {
	p.mu.Lock()
	var terms []*tmuxTerminal
	for key, pw := range p.parked {
		pw.timer.Stop()
		terms = append(terms, pw.term)
		delete(p.parked, key)
	}
	p.mu.Unlock()
	var errs []error
	for _, t := range terms {
		errs = append(errs, t.close(ctx))
	}
	return errors.Join(errs...)
}

// childEnv is the caller's environment less nesting markers, plus the
// preset's variables and a terminal type the emulator understands.
func childEnv(o provider.StartOptions, extra []string) []string {
	base := o.Env
	if base == nil {
		base = os.Environ()
	}
	env := make([]string, 0, len(base)+len(extra)+2)
	for _, kv := range base {
		// Nesting markers make an agent believe it runs inside another one.
		skip := strings.HasPrefix(kv, "TERM=") || strings.HasPrefix(kv, "COLUMNS=") || strings.HasPrefix(kv, "LINES=") ||
			claudecli.IsNestingMarker(kv)
		if !skip {
			env = append(env, kv)
		}
	}
	env = append(env, "TERM=xterm-256color")
	return append(env, extra...)
}
