package provider

import (
	"context"

	"github.com/hotplex/hotplex/event"
)

// ToolRequestKind says why a tool request reached HotPlex.
type ToolRequestKind string

const (
	// PreToolUse is an inspection of a tool use before it runs, sent for
	// every matching tool use, including ones the CLI would allow by itself.
	// It is where the firewall looks. An empty decision leaves the choice to
	// the CLI's own rules.
	PreToolUse ToolRequestKind = "pre_tool_use"
	// CanUseTool is the CLI asking whether it may use a tool its own rules
	// do not already allow. It needs an allow or a deny.
	CanUseTool ToolRequestKind = "can_use_tool"
)

// ToolRequest is an agent's wish to use a tool.
type ToolRequest struct {
	Kind      ToolRequestKind
	RequestID string
	ToolName  string
	ToolUseID string
	Input     map[string]any
}

// Behavior values of a ToolDecision.
const (
	Allow = "allow"
	Deny  = "deny"
	// Ask (PreToolUse only) hands the decision to the CLI's approval
	// flow, which then sends a CanUseTool request.
	Ask = "ask"
)

// ToolDecision answers a ToolRequest.
type ToolDecision struct {
	// Behavior is Allow, Deny, or empty (no opinion; only for PreToolUse).
	Behavior string
	// Message tells the model why a tool was denied.
	Message string
	// UpdatedInput, when set, replaces the tool's input on Allow.
	UpdatedInput map[string]any
	// Answerer, when a person (or the lack of one) decided, says who,
	// for the permission_decision event; the agent never sees it.
	Answerer *event.Answerer
}

// PermissionFunc decides tool requests. It may block (for example to ask a
// person) and must return when ctx ends.
type PermissionFunc func(ctx context.Context, req ToolRequest) ToolDecision
