// Package hotplex is the SDK of HotPlex, a control plane for AI coding-agent
// CLIs: it keeps one agent process per conversation hot, streams what the
// agent does as one normalized event stream, and ends every process it
// starts. This package only hands on the names of the packages that do the
// work (engine, event, provider), so that both import styles work:
//
//	eng, err := hotplex.NewEngine(hotplex.EngineOptions{Namespace: "my-app"})
//	if err != nil { ... }
//	defer eng.Close()
//	err = eng.Execute(ctx, &hotplex.Config{SessionID: "chat-42", WorkDir: dir}, "Fix the tests",
//		func(eventType string, data any) error {
//			ev := data.(*hotplex.EventWithMeta)
//			fmt.Println(eventType, ev.EventData)
//			return nil
//		})
//
// Package backend offers the higher-level Backend/Session API (one
// conversation at a time, blocking and streaming prompts, restart) as a
// view over the same Engine.
package hotplex

import (
	"context"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/guard"
	"github.com/hotplex/hotplex/provider/claude"
)

// Engine types.
type (
	// Engine runs turns on hot sessions.
	Engine = engine.Engine
	// EngineOptions configure an Engine.
	EngineOptions = engine.EngineOptions
	// Config addresses one turn.
	Config = engine.Config
	// SessionConfig is what a session is created with.
	SessionConfig = engine.SessionConfig
	// Callback receives a turn's events.
	Callback = engine.Callback
	// Turn is a running turn (Engine.Start).
	Turn = engine.Turn
	// SessionManager is the session pool's contract.
	SessionManager = engine.SessionManager
	// SessionPool keeps the hot sessions.
	SessionPool = engine.SessionPool
	// Session is a snapshot of one conversation.
	Session = engine.Session
	// SessionStatus is a session's runtime state.
	SessionStatus = engine.SessionStatus
	// PermissionHandler decides tool requests.
	PermissionHandler = engine.PermissionHandler
	// PermissionRequest is a tool request with its session.
	PermissionRequest = engine.PermissionRequest
	// PoolStats are the session pool's capacity figures.
	PoolStats = engine.PoolStats
	// OverloadedError is the error of a turn refused for lack of capacity.
	OverloadedError = engine.OverloadedError
)

// Event types.
type (
	// EventMeta is the metadata of every event.
	EventMeta = event.EventMeta
	// EventWithMeta is the data of every callback.
	EventWithMeta = event.EventWithMeta
	// SessionStats accumulates a session's figures.
	SessionStats = event.SessionStats
	// SessionStatsData is the JSON form of SessionStats.
	SessionStatsData = event.SessionStatsData
	// TurnResult is what the CLI reports when a turn ends.
	TurnResult = event.TurnResult
)

// Firewall types.
type (
	// Detector is the built-in danger firewall.
	Detector = guard.Detector
	// DangerPattern is a user-supplied firewall rule.
	DangerPattern = guard.DangerPattern
	// DangerLevel is how bad a blocked action would be.
	DangerLevel = guard.DangerLevel
	// DangerBlockEvent reports something the firewall stopped.
	DangerBlockEvent = guard.DangerBlockEvent
	// Firewall judges tool uses and prompts; *Detector implements it.
	Firewall = engine.Firewall
)

// Danger levels.
const (
	LevelSafe     = guard.LevelSafe
	LevelModerate = guard.LevelModerate
	LevelHigh     = guard.LevelHigh
	LevelCritical = guard.LevelCritical
)

// NewDetector returns the built-in danger firewall; see guard.NewDetector.
func NewDetector(opts guard.Options) *Detector { return guard.NewDetector(opts) }

// Claude Code stream-json types.
type (
	// StreamMessage is one frame of Claude Code's stream-json output.
	StreamMessage = claude.StreamMessage
	// AssistantMessage is the message of an assistant or user frame.
	AssistantMessage = claude.AssistantMessage
	// ContentBlock is one block of a message.
	ContentBlock = claude.ContentBlock
	// UsageStats is token usage as the CLI reports it.
	UsageStats = claude.UsageStats
)

// HotPlexClient is what an SDK user needs: run a turn, and release
// everything at the end. *Engine implements it.
type HotPlexClient interface {
	// Execute runs a command or prompt within the HotPlex sandbox and streams events back via the Callback.
	// It uses Hot-Multiplexing to reuse existing processes if a matching SessionID is provided in the Config.
	Execute(ctx context.Context, cfg *Config, prompt string, callback Callback) error

	// Close gracefully terminates all managed sessions in the pool and releases all OS-level resources.
	// This includes sweeping process groups (PGID) to ensure no zombie processes remain.
	Close() error
}

var _ HotPlexClient = (*Engine)(nil)

// Session states (see engine.SessionStatus for the lifecycle).
const (
	StatusNew        = engine.StatusNew
	StatusStarting   = engine.StatusStarting
	StatusIdle       = engine.StatusIdle
	StatusRunning    = engine.StatusRunning
	StatusHibernated = engine.StatusHibernated
	StatusError      = engine.StatusError
	StatusClosed     = engine.StatusClosed

	// Deprecated: use StatusIdle.
	StatusReady = engine.StatusIdle
	// Deprecated: use StatusRunning.
	StatusBusy = engine.StatusRunning
	// Deprecated: use StatusNew, StatusHibernated or StatusError.
	StatusDead = engine.StatusError
)

// Errors, for errors.Is.
var (
	ErrSessionDead     = engine.ErrSessionDead
	ErrStartFailed     = engine.ErrStartFailed
	ErrSessionBusy     = engine.ErrSessionBusy
	ErrSessionNotFound = engine.ErrSessionNotFound
	ErrEmptyPrompt     = engine.ErrEmptyPrompt
	ErrInvalidConfig   = engine.ErrInvalidConfig
	ErrInvalidWorkDir  = engine.ErrInvalidWorkDir
	ErrTurnTimeout     = engine.ErrTurnTimeout
	ErrTurnFailed      = engine.ErrTurnFailed
	ErrEngineClosed    = engine.ErrEngineClosed
	ErrDangerBlocked   = engine.ErrDangerBlocked
	ErrBypassDenied    = engine.ErrBypassDenied
	ErrInterrupted     = engine.ErrInterrupted
	ErrSessionExists   = engine.ErrSessionExists
	ErrOverloaded      = engine.ErrOverloaded
	// ErrNoTurn and ErrSteerUnsupported come from Engine.Steer: no turn
	// to steer, or an agent that cannot be steered.
	ErrNoTurn           = engine.ErrNoTurn
	ErrSteerUnsupported = engine.ErrSteerUnsupported
)

// NewEngine returns an engine; see engine.NewEngine. Without a provider
// its agent is Claude Code, the claude CLI found on PATH.
func NewEngine(opts EngineOptions) (*Engine, error) {
	if opts.Provider == nil && len(opts.Providers) == 0 {
		opts.Provider = claude.New(claude.Options{})
	}
	return engine.NewEngine(opts)
}

// NewEventWithMeta returns an event with non-nil Meta.
func NewEventWithMeta(eventType, data string, meta *EventMeta) *EventWithMeta {
	return event.NewEventWithMeta(eventType, data, meta)
}
