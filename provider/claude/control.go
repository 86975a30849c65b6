package claude

import (
	"context"
	"strconv"

	"github.com/hotplex/hotplex/provider"
)

// answer handles a control request from the CLI.
func (c *process) answer(ctx context.Context, m *frame, ask provider.PermissionFunc) {
	r := m.Request
	if r == nil {
		return
	}
	var err error
	switch r.Subtype {
	case "can_use_tool":
		req := provider.ToolRequest{Kind: provider.CanUseTool, RequestID: m.RequestID, ToolName: r.ToolName, ToolUseID: r.ToolUseID, Input: r.Input}
		d := decide(ctx, ask, req)
		if d.Behavior == provider.Deny {
			err = c.respond(m.RequestID, map[string]any{"behavior": "deny", "message": d.Message})
			break
		}
		in := d.UpdatedInput
		if in == nil {
			in = r.Input
		}
		if in == nil {
			in = map[string]any{}
		}
		err = c.respond(m.RequestID, map[string]any{"behavior": "allow", "updatedInput": in})
	case "hook_callback":
		hookIn := r.Input
		name, _ := hookIn["tool_name"].(string)
		id, _ := hookIn["tool_use_id"].(string)
		toolIn, _ := hookIn["tool_input"].(map[string]any)
		req := provider.ToolRequest{Kind: provider.PreToolUse, RequestID: m.RequestID, ToolName: name, ToolUseID: id, Input: toolIn}
		d := decide(ctx, ask, req)
		out := map[string]any{"continue": true}
		if d.Behavior != "" {
			hso := map[string]any{"hookEventName": "PreToolUse", "permissionDecision": d.Behavior}
			if d.Message != "" {
				hso["permissionDecisionReason"] = d.Message
			}
			if d.UpdatedInput != nil {
				hso["updatedInput"] = d.UpdatedInput
			}
			out = map[string]any{"hookSpecificOutput": hso}
		}
		err = c.respond(m.RequestID, out)
	default:
		err = c.write(map[string]any{"type": "control_response", "response": map[string]any{
			"subtype": "error", "request_id": m.RequestID, "error": "hotplex does not support control request " + strconv.Quote(r.Subtype),
		}})
	}
	if err != nil {
		c.log.Warn("answering control request failed", "subtype", r.Subtype, "err", err)
	}
}

func decide(ctx context.Context, ask provider.PermissionFunc, req provider.ToolRequest) provider.ToolDecision {
	if ctx.Err() != nil {
		return provider.ToolDecision{Behavior: provider.Deny, Message: "The turn was interrupted."}
	}
	if ask == nil {
		if req.Kind == provider.CanUseTool {
			return provider.ToolDecision{Behavior: provider.Allow}
		}
		return provider.ToolDecision{}
	}
	return ask(ctx, req)
}

// The frames HotPlex writes, as structs: encoding a map sorts its keys on
// every turn.
type (
	userFrame struct {
		Type    string      `json:"type"`
		Message userMessage `json:"message"`
	}
	userMessage struct {
		Role    string      `json:"role"`
		Content []textBlock `json:"content"`
	}
	textBlock struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
)
