package acp

import (
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/hotplex/hotplex/event"
)

// translator turns HotPlex's events into ACP session updates: the one
// place the two vocabularies meet, for live turns and for the history a
// session/load replays alike.
//
//	HotPlex event         ACP session/update
//	session_start         user_message_chunk (the turn's prompt; replay only)
//	thinking              agent_thought_chunk
//	answer                agent_message_chunk
//	tool_use              tool_call, in_progress (kind, raw input, locations, diff);
//	                      a to-do list (Claude Code's TodoWrite) also as a plan
//	permission_request    tool_call_update, pending (and session/request_permission)
//	permission_decision   tool_call_update, in_progress or failed with the reason
//	tool_result           tool_call_update, completed or failed, with the output
//	danger_block          tool_call_update, failed, with the firewall's reason
//	error                 agent_message_chunk naming the failure
//	system (init)         available_commands_update from the agent's slash commands (live only)
//	result, stats, ...    nothing (the prompt's response carries the stop reason)
type translator struct {
	// replay is set for a session/load, whose prompts the editor has not
	// seen.
	replay bool
	// started are the tool calls announced with a tool_call.
	started map[string]bool
}

func newTranslator(replay bool) *translator {
	return &translator{replay: replay, started: map[string]bool{}}
}

// reads says whether an event of type typ can come to an update, or
// to anything the prompt's stream watches for: the others (the turn's
// statistics, raw frames, queue notices) need not be decoded at all.
func (t *translator) reads(typ string) bool {
	switch typ {
	case event.TypeSessionStart:
		return t.replay
	case event.TypeSystem:
		return !t.replay
	case event.TypeThinking, event.TypeAnswer, event.TypeToolUse, event.TypeToolResult,
		event.TypePermissionRequest, event.TypePermissionDecision, event.TypeDangerBlock,
		event.TypeError, event.TypeResult:
		return true
	}
	return false
}

func (t *translator) updates(ev *event.EventWithMeta) []sdk.SessionUpdate {
	meta := ev.Meta
	if meta == nil {
		meta = &event.EventMeta{}
	}
	switch ev.EventType {
	case event.TypeSessionStart:
		if t.replay && ev.SessionStart != nil && ev.Prompt != "" {
			return []sdk.SessionUpdate{sdk.UpdateUserMessageText(ev.Prompt)}
		}
	case event.TypeThinking:
		if ev.EventData != "" {
			return []sdk.SessionUpdate{sdk.UpdateAgentThoughtText(ev.EventData)}
		}
	case event.TypeAnswer:
		if ev.EventData != "" {
			return []sdk.SessionUpdate{sdk.UpdateAgentMessageText(ev.EventData)}
		}
	case event.TypeToolUse:
		if meta.ToolID == "" {
			return nil
		}
		t.started[meta.ToolID] = true
		u := []sdk.SessionUpdate{t.toolCall(meta.ToolID, meta.ToolName, meta.InputSummary, ev.Input, meta.FilePath, sdk.ToolCallStatusInProgress)}
		if p, ok := planOf(meta.ToolName, ev.Input); ok {
			u = append(u, p)
		}
		return u
	case event.TypePermissionRequest:
		if p := ev.Permission; p != nil {
			id := toolCallID(p.ToolUseID, p.RequestID)
			return t.status(id, p.ToolName, ev.Input, sdk.ToolCallStatusPending, "")
		}
	case event.TypePermissionDecision:
		if p := ev.Permission; p != nil {
			id := toolCallID(p.ToolUseID, p.RequestID)
			if p.Decision == "allow" {
				return t.status(id, p.ToolName, nil, sdk.ToolCallStatusInProgress, "")
			}
			return t.status(id, p.ToolName, nil, sdk.ToolCallStatusFailed, "Denied: "+orElse(p.Reason, "permission refused"))
		}
	case event.TypeToolResult:
		if meta.ToolID == "" {
			return nil
		}
		st := sdk.ToolCallStatusCompleted
		if meta.Status == "error" {
			st = sdk.ToolCallStatusFailed
		}
		return t.status(meta.ToolID, meta.ToolName, nil, st, orElse(ev.EventData, meta.OutputSummary, meta.ErrorMsg))
	case event.TypeDangerBlock:
		reason := "Blocked by HotPlex's firewall: " + orElse(meta.ErrorMsg, ev.EventData)
		if ev.Policy != nil {
			reason += fmt.Sprintf(" (rule %s at the %s level)", ev.Policy.Rule, ev.Policy.Level)
		}
		if meta.ToolID == "" {
			// The prompt itself was stopped.
			return []sdk.SessionUpdate{sdk.UpdateAgentMessageText(reason)}
		}
		return t.status(meta.ToolID, meta.ToolName, nil, sdk.ToolCallStatusFailed, reason)
	case event.TypeError:
		return []sdk.SessionUpdate{sdk.UpdateAgentMessageText("Error: " + orElse(ev.EventData, meta.ErrorMsg))}
	case event.TypeSystem:
		if !t.replay && ev.EventData == "init" {
			return commandsOf(ev.Raw)
		}
	}
	return nil
}

// planOf is the plan a to-do tool's input holds: Claude Code's TodoWrite
// rewrites the whole list each time, as an ACP plan is sent.
func planOf(tool string, input map[string]any) (sdk.SessionUpdate, bool) {
	if tool != "TodoWrite" {
		return sdk.SessionUpdate{}, false
	}
	todos, ok := input["todos"].([]any)
	if !ok {
		return sdk.SessionUpdate{}, false
	}
	entries := make([]sdk.PlanEntry, 0, len(todos))
	for _, td := range todos {
		m, _ := td.(map[string]any)
		content, _ := m["content"].(string)
		if content == "" {
			continue
		}
		st := sdk.PlanEntryStatusPending
		switch m["status"] {
		case "in_progress":
			st = sdk.PlanEntryStatusInProgress
		case "completed":
			st = sdk.PlanEntryStatusCompleted
		}
		entries = append(entries, sdk.PlanEntry{Content: content, Status: st, Priority: sdk.PlanEntryPriorityMedium})
	}
	return sdk.UpdatePlan(entries...), true
}

// commandsOf is the update listing the slash commands an agent's init
// frame names (Claude Code's slash_commands), none if it names none. The
// editor sends one as a prompt ("/compact"), which reaches the agent as
// it is.
func commandsOf(raw json.RawMessage) []sdk.SessionUpdate {
	var init struct {
		SlashCommands []string `json:"slash_commands"`
	}
	if json.Unmarshal(raw, &init) != nil || len(init.SlashCommands) == 0 {
		return nil
	}
	cmds := make([]sdk.AvailableCommand, 0, len(init.SlashCommands))
	for _, c := range init.SlashCommands {
		cmds = append(cmds, sdk.AvailableCommand{Name: c, Description: "/" + c})
	}
	return []sdk.SessionUpdate{{AvailableCommandsUpdate: &sdk.SessionAvailableCommandsUpdate{AvailableCommands: cmds}}}
}

// status moves tool call id to st, announcing it first if it was not.
func (t *translator) status(id, tool string, input map[string]any, st sdk.ToolCallStatus, text string) []sdk.SessionUpdate {
	var content []sdk.ToolCallContent
	if text != "" {
		content = []sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(text))}
	}
	if !t.started[id] {
		t.started[id] = true
		u := t.toolCall(id, tool, "", input, "", st)
		u.ToolCall.Content = append(u.ToolCall.Content, content...)
		return []sdk.SessionUpdate{u}
	}
	opts := []sdk.ToolCallUpdateOpt{sdk.WithUpdateStatus(st)}
	if content != nil {
		opts = append(opts, sdk.WithUpdateContent(content))
	}
	return []sdk.SessionUpdate{sdk.UpdateToolCall(sdk.ToolCallId(id), opts...)}
}

// toolCall announces a tool call: what it is, its input, the file it
// touches and, for an edit, the change as a diff.
func (t *translator) toolCall(id, tool, summary string, input map[string]any, path string, st sdk.ToolCallStatus) sdk.SessionUpdate {
	title := strings.TrimSpace(tool + " " + summary)
	if title == "" {
		title = "tool"
	}
	kind := toolKind(tool)
	opts := []sdk.ToolCallStartOpt{sdk.WithStartKind(kind), sdk.WithStartStatus(st)}
	if input != nil {
		opts = append(opts, sdk.WithStartRawInput(input))
	}
	if path == "" {
		path = firstString(input, "file_path", "notebook_path", "path")
	}
	if path != "" {
		opts = append(opts, sdk.WithStartLocations([]sdk.ToolCallLocation{{Path: path}}))
		if kind == sdk.ToolKindEdit {
			if d, ok := diffOf(path, input); ok {
				opts = append(opts, sdk.WithStartContent([]sdk.ToolCallContent{d}))
			}
		}
	}
	return sdk.StartToolCall(sdk.ToolCallId(id), title, opts...)
}

// diffOf is the change an edit tool's input describes.
func diffOf(path string, input map[string]any) (sdk.ToolCallContent, bool) {
	if s, ok := input["content"].(string); ok {
		return sdk.ToolDiffContent(path, s), true
	}
	newText, okN := input["new_string"].(string)
	oldText, okO := input["old_string"].(string)
	if okN && okO {
		return sdk.ToolDiffContent(path, newText, oldText), true
	}
	return sdk.ToolCallContent{}, false
}

// toolKind is the ACP kind of an agent's tool, by the names Claude Code,
// Codex and OpenCode give them.
func toolKind(tool string) sdk.ToolKind {
	switch strings.ToLower(tool) {
	case "bash", "shell", "exec", "exec_command", "local_shell":
		return sdk.ToolKindExecute
	case "read", "notebookread", "view":
		return sdk.ToolKindRead
	case "edit", "write", "multiedit", "notebookedit", "patch", "apply_patch":
		return sdk.ToolKindEdit
	case "grep", "glob", "ls", "list", "search":
		return sdk.ToolKindSearch
	case "webfetch", "websearch", "fetch":
		return sdk.ToolKindFetch
	}
	return sdk.ToolKindOther
}

// toolCallID names a tool call: the tool use's ID where the agent gave
// one, else the permission request's.
func toolCallID(toolUseID, requestID string) string {
	return orElse(toolUseID, "permission-"+requestID)
}

func firstString(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := m[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

func orElse(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
