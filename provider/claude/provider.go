// Package claude drives Claude Code (the `claude` CLI of
// @anthropic-ai/claude-code 2.1.x) through its stream-json protocol: one
// long-lived process per conversation, prompts on stdin, frames on stdout,
// and the control protocol (initialize, interrupt, can_use_tool,
// hook_callback) for readiness, cancellation and permissions.
package claude

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/hotplex/hotplex/internal/claudecli"
	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/provider"
)

// Options configure the provider. The zero value runs `claude` from PATH.
type Options struct {
	// Path is the CLI executable (default "claude", looked up in PATH).
	Path string
	// Name is the provider's name (default "claude").
	Name string
	// PartialMessages streams answer and thinking text as deltas (events
	// with Meta.Status "delta") as the model writes it, instead of one
	// event per complete block (--include-partial-messages).
	PartialMessages bool
	// ExtraArgs are appended to every command line.
	ExtraArgs []string
	// MaxLineBytes bounds one line of CLI output (default 16 MiB); longer
	// lines are skipped with an error event.
	MaxLineBytes int
	// Timeouts bound the initialize handshake, an interrupted turn's end,
	// and a process's end.
	provider.Timeouts
}

func (o *Options) maxLine() int {
	if o.MaxLineBytes > 0 {
		return o.MaxLineBytes
	}
	return 16 << 20
}

// Provider starts Claude Code processes.
type Provider struct {
	opts Options
}

// New returns a Claude Code provider.
func New(opts Options) *Provider {
	if opts.Path == "" {
		opts.Path = "claude"
	}
	if opts.Name == "" {
		opts.Name = "claude"
	}
	return &Provider{opts: opts}
}

// Name returns the provider's name.
func (p *Provider) Name() string { return p.opts.Name }

// The CLI's own words when a conversation is missing or already exists.
const (
	msgNoConversation = "No conversation found"
	msgInUse          = "already in use"
)

// Start launches the CLI and waits for its answer to initialize. Whether to
// resume is decided from the CLI's transcript on disk, falling back once if
// the CLI disagrees, so that a stale or missing record never loops.
func (p *Provider) Start(ctx context.Context, o provider.StartOptions) (provider.Process, error) {
	if o.ProviderSessionID == "" {
		return nil, fmt.Errorf("%w: no provider session ID", provider.ErrStartFailed)
	}
	env := childEnv(o)
	resume := o.Resume
	fallback := ""
	if tp := claudecli.TranscriptPath(env, o.WorkDir, o.ProviderSessionID); tp != "" {
		_, err := os.Stat(tp)
		onDisk := err == nil
		switch {
		case resume && !onDisk:
			fallback = "no saved conversation to resume in this work directory; started a new one"
			resume = false
		case !resume && onDisk:
			resume = true
		}
	}
	c, err := p.launch(ctx, o, env, resume)
	if err != nil && ctx.Err() == nil {
		switch {
		case resume && strings.Contains(err.Error(), msgNoConversation):
			fallback = "the CLI found no conversation to resume; started a new one"
			c, err = p.launch(ctx, o, env, false)
			resume = false
		case !resume && strings.Contains(err.Error(), msgInUse):
			fallback = "the conversation already existed; resumed it"
			c, err = p.launch(ctx, o, env, true)
			resume = true
		}
	}
	if err != nil {
		return nil, err
	}
	c.info.Resumed = resume
	c.info.Fallback = fallback
	return c, nil
}

func (p *Provider) launch(ctx context.Context, o provider.StartOptions, env []string, resume bool) (*process, error) {
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	argv := append(args(o, resume, p.opts.PartialMessages), p.opts.ExtraArgs...)
	cp, err := proc.Start(proc.Spec{
		Path: p.opts.Path, Args: argv, Dir: o.WorkDir, Env: env,
		// The marker finds descendants that left the process group. It must
		// be unique to this process tree: a session ID is not (another
		// engine, or another program, may use the same one), and a shared
		// marker would let one session's termination kill another's tree.
		Marker: uuid.NewString(), CgroupRoot: o.CgroupRoot,
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", provider.ErrStartFailed, p.opts.Path, err)
	}
	c := newProcess(cp, &p.opts, log.With("pid", cp.PID(), "provider_session_id", o.ProviderSessionID), o.ProviderSessionID)
	if err := c.initialize(ctx); err != nil {
		closeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if cerr := c.Close(closeCtx); cerr != nil && !errors.Is(cerr, context.DeadlineExceeded) {
			c.log.Debug("closing a failed start", "err", cerr)
		}
		return nil, err
	}
	return c, nil
}

// ConversationFiles names the CLI's files of the conversation, so that a
// cluster can move it to another node (provider.Keeper).
func (p *Provider) ConversationFiles(o provider.StartOptions) (string, []string, error) {
	return claudecli.ConversationFiles(childEnv(o), o.WorkDir, o.ProviderSessionID)
}

// Forget deletes the CLI's transcript of the conversation (and what the
// CLI filed beside it), so that a deleted session's conversation can be
// neither resumed nor read.
func (p *Provider) Forget(_ context.Context, o provider.StartOptions) error {
	return claudecli.RemoveConversation(childEnv(o), o.WorkDir, o.ProviderSessionID)
}
