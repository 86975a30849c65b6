package engine

import (
	"context"
	"log/slog"
	"time"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/guard"
	"github.com/hotplex/hotplex/provider"
)

// EngineOptions configure an Engine. The zero value is usable: Claude Code
// from PATH, no turn timeout, idle sessions reaped after 30 minutes.
type EngineOptions struct {
	Timeout     time.Duration // Maximum time to wait for a single execution turn to complete (0: no limit)
	IdleTimeout time.Duration // Time after which an idle session is eligible for termination (0: 30m; <0: never)
	Logger      *slog.Logger  // Optional logger instance; defaults to slog.Default()

	// Namespace is used to generate isolated, deterministic UUID v5 Session IDs.
	// This ensures that the same Conversation ID creates an isolated but persistent sandbox,
	// preventing cross-application or cross-user session leaks. Empty means "hotplex".
	Namespace string

	// Foundational Security & Context (Engine-level boundaries)
	PermissionMode             string   // Controls CLI permissions (e.g., "default", "acceptEdits", "bypass-permissions"). Empty leaves the CLI's default (strict).
	DangerouslySkipPermissions bool     // Bypasses all permission checks. Equivalent to --dangerously-skip-permissions.
	BaseSystemPrompt           string   // Foundational instructions injected at CLI startup for all sessions.
	AllowedTools               []string // Explicit list of tools allowed (whitelist). If empty, all tools are allowed.
	DisallowedTools            []string // Explicit list of tools forbidden (blacklist).

	// AdminToken is the secret required to toggle security bypass mode.
	// If empty, bypass will be disabled for security.
	AdminToken string

	// Provider is the AI CLI provider (e.g., Claude Code, OpenCode).
	// If nil, defaults to the Claude Code provider running `claude` from PATH.
	Provider provider.Provider
	// Providers are further providers a session may choose by name
	// (Config.Provider). The first of Provider and Providers is the
	// default; names must be distinct.
	Providers []provider.Provider

	// WorkDirRoot, when set, confines every session's work directory under
	// it: relative work directories are taken from it, missing ones are
	// created, and nothing may escape it through ".." or symbolic links.
	WorkDirRoot string

	// Env is the agent CLI's environment; nil passes HotPlex's own through.
	Env []string
	// Credentials, when set, give each agent process model credentials of
	// its own (a gateway token) and strip the operator's secrets from Env.
	// Nil passes Env through as it is, keys included.
	Credentials Credentials
	// Ownership, when set, must grant a session before its process
	// starts, and the process ends when the grant is lost (see
	// Ownership): the nodes of a cluster share sessions this way.
	Ownership Ownership
	// Conversations, when set, keep the conversations of agents that
	// store them outside the work directory (provider.Keeper) where other
	// nodes of a cluster can resume them.
	Conversations Conversations
	// Node names the node of a cluster the engine runs on; session_start
	// events carry it.
	Node string

	// Model asks the CLI for a model; empty keeps the CLI's default.
	Model string

	// PermissionHandler, when set, is asked about every tool use the
	// firewall lets through, before the default policy. Returning an empty
	// Behavior defers to the policy. It is also the person who decides what
	// the firewall sends for approval (guard.Ask).
	PermissionHandler PermissionHandler
	// PermissionAnnounce, when set, is called with every request that will
	// reach PermissionHandler as a permission_request event, before that
	// event is emitted. A handler that lists the requests waiting for a
	// person records them here, so that whoever sees the event finds the
	// request listed. It must not block.
	PermissionAnnounce func(PermissionRequest)

	// Hibernated, when set, is told of each session whose process ended
	// to free room (idle reaping, residency, Hibernate). It must not
	// block.
	Hibernated func(sessionID string)

	// Events, when set, receives every event of every session, in order,
	// after the turn's callback: the daemon's subscribers and its store
	// listen here. Publish must not block.
	Events EventSink

	// Firewall judges every tool use and every prompt before it runs.
	// Nil means the built-in danger firewall (guard.NewDetector with its
	// defaults).
	Firewall Firewall
	// ProtectedPaths are what HotPlex owns and no session may delete,
	// move, truncate, write into or re-own: the data directory, the
	// database, the work-directory root and so other sessions' work
	// directories. The firewall protects them wherever they live (under
	// /tmp too, where paths outside the work directory are otherwise
	// ordinary); a session's own work directory stays its own even when
	// it lies inside one. The daemon fills this in.
	ProtectedPaths []string
	// Policy is the server level of the operators' permission rules, in
	// Claude Code's syntax (Bash(git push:*), Read(./secrets/**)):
	// judged after the built-in analysis on every tool use of every
	// session, with KeyPolicy's and SessionConfig.Policy's rules, in the
	// precedence guard.Policies documents (a deny of any level wins; a
	// narrower level never lifts a wider level's deny nor a critical
	// built-in block). Rules need the built-in firewall: a nil Firewall
	// or a *guard.Detector.
	Policy *guard.Policy
	// KeyPolicy, when set, gives the key level of the rules by a
	// session's Owner (nil: none). It is asked at every tool use, so
	// rules that change with the keys apply at once.
	KeyPolicy func(owner string) *guard.Policy
	// DisableFirewall turns the firewall off. Bypassing it for a session
	// with AdminToken is the audited alternative.
	DisableFirewall bool

	// FailFastWhenBusy makes Execute (or Start) on a session that is
	// running a turn return ErrSessionBusy at once instead of waiting its
	// turn.
	FailFastWhenBusy bool

	// ReapInterval is how often the reaper looks for idle sessions and for
	// exited orphans of agent tools (default: IdleTimeout/4, at most 5s).
	ReapInterval time.Duration

	// StartTimeout bounds a cold start until the CLI is ready (default 60s).
	StartTimeout time.Duration

	// MaxResident bounds the sessions (spares included) that keep a live
	// CLI process. When a start would exceed it, the least recently used
	// idle session is hibernated: its process ends and its next turn
	// resumes the conversation. Busy sessions are never hibernated. 0: no
	// bound.
	MaxResident int
	// MemoryBudget bounds the resident set, in bytes, of all sessions'
	// process trees, measured from /proc: a start that would exceed it
	// (at the average measured size of a session) hibernates idle sessions
	// first. 0: no budget.
	MemoryBudget int64
	// PerOwnerResident bounds the live processes of any one owner
	// (Config.Owner); an owner at its quota hibernates its own least
	// recently used idle session to start another. Sessions without an
	// owner share the rest of the machine. 0: no quota.
	PerOwnerResident int
	// MaxConcurrentStarts bounds the CLI starts and resumes that run at
	// once (0: one per CPU core). Further starts wait in a queue served
	// round-robin between owners.
	MaxConcurrentStarts int
	// MaxQueuedStarts bounds that queue (0: 256 per concurrent start);
	// beyond it a turn that needs a start fails at once with an error
	// wrapping ErrOverloaded.
	MaxQueuedStarts int
	// StartQueueTimeout bounds the wait in the queue (0: StartTimeout);
	// a turn that waited longer fails with ErrOverloaded.
	StartQueueTimeout time.Duration
	// Spares is how many prewarmed CLI processes to keep parked per
	// provider that supports it (provider.Prewarmer): a new conversation's
	// first turn claims one instead of cold-starting. Spares count against
	// MaxResident and MemoryBudget and are refilled in the background when
	// no start is waiting. 0: none.
	Spares int
	// ProviderSpares overrides Spares for the providers it names (by
	// Provider.Name): each CLI's start costs differ, and so does how many
	// new conversations each gets. 0 turns a provider's spares off.
	ProviderSpares map[string]int

	// Clock is the time the session pool reads for idle reaping, the
	// order of hibernation, the start queue's timeout and the spare
	// refill (nil: the wall clock). Tests give a fake one to move time
	// without sleeping.
	Clock Clock

	// DisableProcessIsolation turns off the per-session cgroup and the
	// child-subreaper role the engine takes on Linux to catch descendants
	// that leave their process group. Process groups are still used.
	DisableProcessIsolation bool
}

// PermissionRequest is a tool request with the session it comes from.
type PermissionRequest struct {
	SessionID string
	WorkDir   string
	provider.ToolRequest
	// NeedsApproval is set when the firewall could not judge the tool use
	// and wants a person to decide; Reason says why. A handler that gives
	// no answer to such a request has it denied.
	NeedsApproval bool
	Reason        string
	// Policy names the operator's permission rule that sent the request
	// for approval (an ask rule), nil when none did.
	Policy *event.PolicyDecision
}

// PermissionHandler decides tool requests for the engine.
type PermissionHandler func(ctx context.Context, req PermissionRequest) provider.ToolDecision

// EventSink receives the events of all sessions.
type EventSink interface {
	Publish(ev *event.EventWithMeta)
}

// SessionConfig is what a session is created with.
type SessionConfig struct {
	WorkDir          string // Absolute path to the isolated sandbox directory
	TaskInstructions string // Persistent instructions for the session
	// Provider names the provider that runs the session (empty: the
	// engine's default). A session keeps its provider for life.
	Provider string
	// Owner is the tenant the session belongs to, for per-owner quotas and
	// fair admission (empty: shared).
	Owner string
	// Nonce, drawn at the session's creation, is mixed with Owner into the
	// derived provider session ID (see OwnedProviderSessionID).
	Nonce string
	// ProviderSessionID, for RestoreSession, is the CLI's conversation ID
	// as the session's snapshot reported it (a session that claimed a
	// prewarmed spare has the ID its CLI chose). Empty: derived from the
	// namespace, the owner, the session ID and the nonce.
	ProviderSessionID string
	// Policy is the session level of the permission rules (see
	// EngineOptions.Policy); nil: none.
	Policy *guard.Policy

	// Repo, with Worktree, is the git repository the session works on:
	// the top of a git work tree, resolved as WorkDir is (in the owner's
	// tree of the WorkDirRoot).
	Repo string
	// Worktree gives the session a git worktree of Repo of its own, on a
	// branch of its own (Branch), made before its agent starts and removed
	// with it (Engine.DeleteSession; the branch stays unless
	// DeleteSessionWith is asked). WorkDir, when set, is where the
	// worktree goes (a directory that does not exist yet, or is empty);
	// by default <Repo>.worktrees/<the branch's last element>.
	Worktree bool
	// Branch is the worktree's branch (default "hotplex/<session ID>").
	Branch string
	// Baseline is what the session's changes are measured against (see
	// Engine.Diff): CreateSession fills it in, a restored session is given
	// it back (its worktree is then not made again).
	Baseline *Baseline
	// MCPServers are the session's own MCP servers, given to its agent
	// at every start (a session with some takes a prewarmed spare only
	// from an agent that takes them at the claim, as ACP agents do).
	MCPServers []provider.MCPServer

	requested string // the work directory as the caller wrote it, before resolution
}

// Config addresses one turn: which conversation, where, and what extra
// instructions it carries.
type Config struct {
	WorkDir   string // Absolute path to the isolated sandbox directory where CLI operations occur
	SessionID string // Unique identifier used to route the request to a persistent process in the pool

	// TaskInstructions persist for the session: they join the CLI's system
	// prompt when its process starts (a change takes effect at the next start).
	TaskInstructions string
	// TaskSystemPrompt is prepended to the user prompt of this turn only.
	TaskSystemPrompt string
	// Provider names the provider that runs a new session (empty: the
	// engine's default); an existing session keeps its own.
	Provider string
	// Owner is the tenant a new session belongs to, for per-owner quotas
	// and fair admission (empty: shared); an existing session keeps its own.
	// With a WorkDirRoot, an owner's work directories lie in its own
	// subtree of it (see OwnerDir).
	Owner string
	// MustExist makes a turn on a session the engine does not hold fail
	// with ErrSessionNotFound instead of creating it: a daemon creates its
	// sessions explicitly (RestoreSession), and a turn racing the
	// session's deletion must not bring it back.
	MustExist bool
	// Policy is a new session's level of the permission rules (see
	// EngineOptions.Policy); an existing session keeps its own.
	Policy *guard.Policy
	// Claim, when set, is called once the turn holds the session's turn
	// slot, before anything of it runs. An error gives the slot back and
	// Start (or Execute) returns it, with no event emitted: a queue that
	// keeps its prompts elsewhere takes the prompt off there, and learns
	// that it was dropped while it waited.
	Claim func() error
}

func (o *EngineOptions) idleTimeout() time.Duration {
	if o.IdleTimeout == 0 {
		return 30 * time.Minute
	}
	return o.IdleTimeout
}

func (o *EngineOptions) startTimeout() time.Duration {
	if o.StartTimeout > 0 {
		return o.StartTimeout
	}
	return 60 * time.Second
}

func (o *EngineOptions) clock() Clock {
	if o.Clock != nil {
		return o.Clock
	}
	return wallClock{}
}
