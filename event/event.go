// Package event holds HotPlex's normalized event vocabulary: the event types
// every provider's output is mapped to, the EventWithMeta payload callers
// receive, and per-session statistics.
package event

import (
	"encoding/json"
	"time"

	"github.com/hotplex/hotplex/guard"
)

// Event types, in the order a turn emits them.
const (
	// TypeSessionStart opens every turn: which process serves it, whether it
	// was started for this turn (cold) and whether it resumed a conversation.
	TypeSessionStart = "session_start"
	// TypeThinking carries the model's visible reasoning.
	TypeThinking = "thinking"
	// TypeAnswer carries answer text (a whole block, or a delta when streaming).
	TypeAnswer = "answer"
	// TypeToolUse is the agent calling a tool; Input holds its arguments.
	TypeToolUse = "tool_use"
	// TypeToolResult is a tool's output; Meta.Status is "success" or "error".
	TypeToolResult = "tool_result"
	// TypePermissionRequest is the agent asking whether it may use a tool.
	TypePermissionRequest = "permission_request"
	// TypePermissionDecision reports how a permission request was answered.
	TypePermissionDecision = "permission_decision"
	// TypeDangerBlock reports a tool use or prompt stopped by the firewall.
	TypeDangerBlock = "danger_block"
	// TypeDangerBypass reports something the firewall would have blocked,
	// let through by an admin's bypass of the session's firewall.
	TypeDangerBypass = "danger_bypass"
	// TypeSystem carries the CLI's own status frames (init, notices).
	TypeSystem = "system"
	// TypeError reports a failure inside the turn.
	TypeError = "error"
	// TypeRaw passes through frames HotPlex does not understand.
	TypeRaw = "raw"
	// TypePromptSteered is a prompt delivered into the running turn
	// (a steer): EventData is its text. It is one of that turn's events.
	TypePromptSteered = "prompt_steered"
	// TypePromptQueued is a prompt queued to run after the running turn:
	// EventData is its text, Queue its place. It is one of the running
	// turn's events, so that whoever follows the session sees it.
	TypePromptQueued = "prompt_queued"
	// TypeSessionStats carries the session's cumulative statistics.
	TypeSessionStats = "session_stats"
	// TypeResult closes every turn.
	TypeResult = "result"
)

// EventMeta is the metadata attached to every event.
type EventMeta struct {
	// Timing
	DurationMs      int64 `json:"duration_ms"`       // Event duration in milliseconds
	TotalDurationMs int64 `json:"total_duration_ms"` // Total elapsed time since the turn started

	// Tool call info
	ToolName string `json:"tool_name"` // Tool name (e.g., "Bash", "Write")
	ToolID   string `json:"tool_id"`   // Unique tool call ID
	Status   string `json:"status"`    // "running", "success", "error"
	ErrorMsg string `json:"error_msg"` // Error message if status=error

	// Token usage (when available)
	InputTokens      int32 `json:"input_tokens"`       // Input tokens
	OutputTokens     int32 `json:"output_tokens"`      // Output tokens
	CacheWriteTokens int32 `json:"cache_write_tokens"` // Cache write tokens
	CacheReadTokens  int32 `json:"cache_read_tokens"`  // Cache read tokens

	// Summaries for UI
	InputSummary  string `json:"input_summary"`  // Human-readable input summary
	OutputSummary string `json:"output_summary"` // Truncated output preview

	// File operations
	FilePath  string `json:"file_path"`  // Affected file path
	LineCount int32  `json:"line_count"` // Number of lines affected

	// Progress (for long-running operations)
	Progress    int32 `json:"progress"`     // Progress percentage (0-100)
	TotalSteps  int32 `json:"total_steps"`  // Total number of steps (for multi-stage operations)
	CurrentStep int32 `json:"current_step"` // Current step number
}

// EventWithMeta is the data of every callback: the event's type, its main
// text, metadata, and typed details for the events that have them.
type EventWithMeta struct {
	EventType string     `json:"event_type"` // Event type (thinking, tool_use, tool_result, etc.)
	EventData string     `json:"event_data"` // Event data content
	Meta      *EventMeta `json:"meta"`       // Enhanced metadata (never nil when created via NewEventWithMeta)

	// SessionID is the HotPlex session (conversation) the event belongs to.
	SessionID string `json:"session_id,omitempty"`
	// Seq increases by one with every event of a session, across turns.
	Seq uint64 `json:"seq,omitempty"`
	// Time is when HotPlex produced the event.
	Time time.Time `json:"time"`

	// ParentToolUseID is set on the events of a sub-agent: the ID of the
	// tool call (e.g. Task) that runs it.
	ParentToolUseID string `json:"parent_tool_use_id,omitempty"`

	// *SessionStart is set on session_start events; its fields appear at
	// the top level of the JSON object.
	*SessionStart
	// Input holds the tool arguments of tool_use and permission_request.
	Input map[string]any `json:"input,omitempty"`
	// Turn is set on result events.
	Turn *TurnResult `json:"turn,omitempty"`
	// Stats is set on session_stats and result events.
	Stats *SessionStatsData `json:"stats,omitempty"`
	// Permission is set on permission_request and permission_decision events.
	Permission *Permission `json:"permission,omitempty"`
	// Danger is set on danger_block and danger_bypass events.
	Danger *guard.DangerBlockEvent `json:"danger,omitempty"`
	// Policy is set on danger_block, danger_bypass and permission_request
	// events when an operator's permission rule, not the built-in
	// analysis, decided.
	Policy *PolicyDecision `json:"policy,omitempty"`
	// Queue is set on prompt_queued and prompt_steered events.
	Queue *QueueNote `json:"queue,omitempty"`
	// Raw holds the original frame of raw and system events.
	Raw json.RawMessage `json:"raw,omitempty"`
}

// SessionStart describes the process serving a turn.
type SessionStart struct {
	PID               int    `json:"pid"`
	ProviderSessionID string `json:"provider_session_id"`
	Provider          string `json:"provider"`
	WorkDir           string `json:"work_dir"`
	// ColdStart is true when a process was started for this turn.
	ColdStart bool `json:"cold_start"`
	// Resumed is true when that process resumed an earlier conversation.
	Resumed bool `json:"resumed"`
	// Fallback explains a resume that could not happen as planned (for
	// example a missing transcript), and what was done instead.
	Fallback string `json:"fallback,omitempty"`
	// StartupMs is how long the start took until the CLI was ready.
	StartupMs int64 `json:"startup_ms,omitempty"`
	// Spare is true when a prewarmed spare process was claimed for the
	// conversation instead of a cold start.
	Spare bool `json:"spare,omitempty"`
	// QueuedMs is how long the turn waited for a start in the engine's
	// admission queue.
	QueuedMs int64 `json:"queued_ms,omitempty"`
	// Node is the node of a cluster that runs the session's process.
	Node string `json:"node,omitempty"`
	// Prompt is the prompt the turn answers, as the caller gave it
	// (without the turn's task system prompt), so that a stored
	// transcript holds both sides of the conversation.
	Prompt string `json:"prompt,omitempty"`
}

// TurnResult is what the CLI reports when a turn ends. Its figures are
// the turn's own: providers turn an agent's running totals (Claude Code's
// total_cost_usd and duration_api_ms, ACP's cost, Codex's token usage)
// into the turn's share, so SessionStats can simply add turns up.
type TurnResult struct {
	Subtype    string `json:"subtype"`
	IsError    bool   `json:"is_error"`
	Result     string `json:"result"`
	DurationMs int64  `json:"duration_ms"`
	APIMs      int64  `json:"duration_api_ms"`
	NumTurns   int    `json:"num_turns"`
	// CostUSD is the turn's cost (the JSON name is the CLI's, kept for
	// clients; it is not a running total).
	CostUSD      float64 `json:"total_cost_usd"`
	Model        string  `json:"model,omitempty"`
	InputTokens  int32   `json:"input_tokens"`
	OutputTokens int32   `json:"output_tokens"`
	CacheWrite   int32   `json:"cache_write_tokens"`
	CacheRead    int32   `json:"cache_read_tokens"`
	// Interrupted is true when the turn was ended by an interrupt.
	Interrupted bool `json:"interrupted,omitempty"`
}

// QueueNote says what became of a prompt sent while a turn ran.
type QueueNote struct {
	// Mode is what happened: "steer" (delivered into the running turn)
	// or "queue" (runs as a later turn).
	Mode string `json:"mode"`
	// ID names a queued prompt; Position is its place in the session's
	// queue (1 runs next).
	ID       string `json:"id,omitempty"`
	Position int    `json:"position,omitempty"`
	// Fallback says why a prompt sent to steer was queued instead
	// (the agent cannot steer, the turn had not reached the agent).
	Fallback string `json:"steer_fallback,omitempty"`
}

// Permission describes a tool permission request and, once decided, its answer.
type Permission struct {
	RequestID string `json:"request_id"`
	ToolName  string `json:"tool_name"`
	ToolUseID string `json:"tool_use_id,omitempty"`
	// Decision is "allow" or "deny" on permission_decision events.
	Decision string `json:"decision,omitempty"`
	Reason   string `json:"reason,omitempty"`
	// *Answerer is set on the permission_decision of a request that
	// waited for a person, so that every other client showing the
	// question can close it and say who settled it.
	*Answerer
}

// Answerer says who settled a permission request that waited for a
// person, from which client, and when.
type Answerer struct {
	// By is the ID of the API key that answered, or "timeout" when
	// nobody did in time, or "turn_ended" when the turn ended first.
	By string `json:"by,omitempty"`
	// Channel is the client the answer came from: "http", "web", "ws",
	// "opencode", "acp", "mcp"; "timeout" or "turn_ended" as By.
	Channel string    `json:"channel,omitempty"`
	At      time.Time `json:"at,omitzero"`
}

// PolicyDecision names the operator's permission rule that decided a
// tool use, so that whoever sees the block or the question knows which
// rule to change.
type PolicyDecision struct {
	// Decision is "deny", "ask" or "allow".
	Decision string `json:"decision"`
	// Rule is the rule as written, e.g. "Bash(git push:*)".
	Rule string `json:"rule"`
	// Level is the settings level it came from: "server", "key" or
	// "session".
	Level string `json:"level"`
	// Matched is the simple command, path or URL the rule matched.
	Matched string `json:"matched,omitempty"`
}

// NewEventWithMeta returns an event with non-nil Meta.
func NewEventWithMeta(eventType, data string, meta *EventMeta) *EventWithMeta {
	if meta == nil {
		meta = &EventMeta{}
	}
	return &EventWithMeta{EventType: eventType, EventData: data, Meta: meta}
}
