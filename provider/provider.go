// Package provider defines how HotPlex talks to an agent CLI: a Provider
// starts one long-lived Process per conversation, and a Process runs turns,
// turning whatever the CLI speaks into normalized events.
package provider

import (
	"context"
	"errors"
	"log/slog"

	"github.com/hotplex/hotplex/event"
)

// Errors a Process reports. Callers test them with errors.Is.
var (
	// ErrSessionDead means the CLI process exited or stopped answering.
	ErrSessionDead = errors.New("agent process is dead")
	// ErrStartFailed means the CLI did not come up.
	ErrStartFailed = errors.New("agent process failed to start")
	// ErrBusy means a turn is already running on the process.
	ErrBusy = errors.New("agent process is busy with another turn")
)

// Provider starts agent CLI processes.
type Provider interface {
	// Name is the provider's short name ("claude", "fakeagent", ...).
	Name() string
	// Start launches the CLI for one conversation and returns once the CLI
	// says it is ready. Cancelling ctx aborts the start and ends the process.
	Start(ctx context.Context, opts StartOptions) (Process, error)
}

// StartOptions configure one CLI process.
type StartOptions struct {
	// SessionID is HotPlex's conversation ID, for logs and diagnostics.
	SessionID string
	// ProviderSessionID is the CLI's own conversation ID.
	ProviderSessionID string
	// Resume says a conversation with ProviderSessionID is believed to exist
	// already. Providers verify it and fall back when it does not.
	Resume bool
	// WorkDir is the process's working directory.
	WorkDir string
	// Env is the process's environment; nil inherits HotPlex's own.
	Env []string
	// SystemPrompt is appended to the CLI's own system prompt.
	SystemPrompt string
	// Model selects the model, when the CLI allows choosing one.
	Model string
	// AllowedTools and DisallowedTools are passed to the CLI's own rules.
	AllowedTools    []string
	DisallowedTools []string
	// PermissionMode is the CLI's permission mode (e.g. "default", "acceptEdits").
	PermissionMode string
	// DangerouslySkipPermissions maps to the CLI's own flag.
	DangerouslySkipPermissions bool
	// MCPServers are the conversation's own MCP servers, for the agents
	// that take them (see MCPServer).
	MCPServers []MCPServer
	// CgroupRoot, when set, is a cgroup v2 directory under which the process
	// tree gets its own cgroup.
	CgroupRoot string
	// Logger receives the process's diagnostics.
	Logger *slog.Logger
}

// Info describes a started process.
type Info struct {
	PID               int
	ProviderSessionID string
	// Resumed is true when the process resumed an earlier conversation.
	Resumed bool
	// Fallback explains a resume or fresh start that could not happen as
	// planned and what was done instead.
	Fallback string
	// Model is the model the CLI announced, when it has done so.
	Model string
}

// Emit receives a turn's events in order. A non-nil error interrupts the turn.
type Emit func(*event.EventWithMeta) error

// Process is one running agent CLI. Turn may not be called concurrently;
// the engine serializes turns.
type Process interface {
	Info() Info
	// Turn sends prompt and reports the turn's events until the turn ends.
	// Permission requests the CLI makes during the turn go to ask. When ctx
	// ends, the turn is interrupted and Turn returns once the CLI has
	// acknowledged the end of the turn (so the next turn sees nothing
	// stale), or kills the process if it does not.
	Turn(ctx context.Context, prompt string, ask PermissionFunc, emit Emit) (*event.TurnResult, error)
	// Alive reports whether the process can take a turn. It asks the OS,
	// so a process killed a moment ago is already not alive.
	Alive() bool
	// StderrTail returns the last lines the CLI wrote to stderr.
	StderrTail() string
	// Close ends the process and everything it started, gracefully first.
	Close(ctx context.Context) error
}

// ErrNotClaimable means a spare cannot serve the conversation it was
// offered (the conversation already exists and must be resumed, say). The
// spare stays parked and usable for another conversation.
var ErrNotClaimable = errors.New("spare cannot serve this conversation")

// Forgetter is a provider that keeps something of a conversation after its
// process ended: the CLI's transcript, a kept terminal window. Forget
// destroys it, for a session deleted for good, so that nothing resumes it
// and nothing of it stays on disk. opts holds what the conversation's
// starts had: ProviderSessionID, WorkDir and Env. Forgetting a
// conversation that left nothing is no error.
type Forgetter interface {
	Forget(ctx context.Context, opts StartOptions) error
}

// Keeper is a provider whose CLI keeps the conversation in files outside
// the work directory (Claude Code's transcript under its config
// directory). The engine of a cluster node saves them after each turn
// and restores them on the node that resumes the conversation (see
// engine.Conversations).
type Keeper interface {
	// ConversationFiles returns the directory the CLI keeps its files in,
	// for the environment and work directory of opts, and the paths,
	// relative to it, of the conversation's files (those that exist;
	// none before the first turn). Relative paths are the same on every
	// node that shares the work directory.
	ConversationFiles(opts StartOptions) (dir string, files []string, err error)
}

// ConversationFile is one file of a conversation, at its path relative to
// the Keeper's directory.
type ConversationFile struct {
	Path string `json:"path"`
	Data []byte `json:"data"`
}

// Prewarmer is implemented by providers whose CLI can be started and
// initialized before the conversation it will serve is known, so that a new
// conversation's first turn skips the cold start.
type Prewarmer interface {
	// Prewarm starts a spare with the options every conversation of the
	// engine shares. opts.WorkDir is a neutral parking directory;
	// opts.SessionID, opts.ProviderSessionID and opts.SystemPrompt are
	// empty: they are given to Claim.
	Prewarm(ctx context.Context, opts StartOptions) (Spare, error)
}

// Spare is a started, initialized CLI process waiting for a conversation.
type Spare interface {
	// PID is the spare's process ID.
	PID() int
	// Alive reports whether the spare can still be claimed.
	Alive() bool
	// Claim binds the spare to the conversation opts describes (WorkDir,
	// SystemPrompt, SessionID, ProviderSessionID) and returns it as that
	// conversation's process. The CLI may fix its own conversation ID: the
	// process's Info().ProviderSessionID is the one to resume later. An
	// error wrapping ErrNotClaimable leaves the spare parked; after any
	// other error the spare is unusable and must be closed.
	Claim(ctx context.Context, opts StartOptions) (Process, error)
	// Close ends an unclaimed spare and everything it started.
	Close(ctx context.Context) error
}

// Deliverer returns a turn's delivery function over emit: events go to
// emit until it first fails or ctx ends. A failure cancels the turn with
// emit's error (the caller stopped listening) and nothing more is
// delivered; the function then reports context.Cause(ctx).
func Deliverer(ctx context.Context, emit Emit, cancel context.CancelCauseFunc) func(*event.EventWithMeta) error {
	refused := false
	return func(ev *event.EventWithMeta) error {
		if refused || ctx.Err() != nil {
			return context.Cause(ctx)
		}
		if err := emit(ev); err != nil {
			refused = true
			cancel(err)
			return err
		}
		return nil
	}
}

// ErrNoTurn means a Steer found no turn running to take the message.
var ErrNoTurn = errors.New("no turn is running")

// Steerer is a Process whose agent takes a user message while a turn
// runs and heeds it within that turn, instead of waiting for the next
// one: Claude Code reads a second user message on its stream-json stdin
// mid-turn and shows it to the model with the next tool result, Codex's
// app-server takes turn/steer, and the turn still ends with one result.
// Steer fails with ErrNoTurn when no turn runs.
type Steerer interface {
	Steer(ctx context.Context, text string) error
}
