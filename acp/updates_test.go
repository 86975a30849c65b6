package acp

import (
	"encoding/json"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/hotplex/hotplex/event"
)

// Claude Code's to-do list becomes the editor's plan, beside the tool
// call that carried it; an edit is a diff at its file's location.
func TestTranslatorPlanAndEdit(t *testing.T) {
	tr := newTranslator(false)
	var todos map[string]any
	_ = json.Unmarshal([]byte(`{"todos":[{"content":"read the code","status":"completed","activeForm":"Reading"},
		{"content":"fix the bug","status":"in_progress","activeForm":"Fixing"},{"content":"run the tests","status":"pending","activeForm":"Running"}]}`), &todos)
	ev := event.NewEventWithMeta(event.TypeToolUse, "", &event.EventMeta{ToolName: "TodoWrite", ToolID: "t1"})
	ev.Input = todos
	u := tr.updates(ev)
	if len(u) != 2 || u[0].ToolCall == nil || u[1].Plan == nil {
		t.Fatalf("updates: %+v", u)
	}
	want := []sdk.PlanEntryStatus{sdk.PlanEntryStatusCompleted, sdk.PlanEntryStatusInProgress, sdk.PlanEntryStatusPending}
	if len(u[1].Plan.Entries) != 3 {
		t.Fatalf("plan: %+v", u[1].Plan)
	}
	for i, e := range u[1].Plan.Entries {
		if e.Status != want[i] {
			t.Errorf("entry %d %q: %s, want %s", i, e.Content, e.Status, want[i])
		}
	}

	ev = event.NewEventWithMeta(event.TypeToolUse, "", &event.EventMeta{ToolName: "Edit", ToolID: "t2", FilePath: "/w/main.go"})
	ev.Input = map[string]any{"file_path": "/w/main.go", "old_string": "a := 1", "new_string": "a := 2"}
	u = tr.updates(ev)
	if len(u) != 1 || u[0].ToolCall == nil {
		t.Fatalf("edit: %+v", u)
	}
	c := u[0].ToolCall
	if c.Kind != sdk.ToolKindEdit || len(c.Locations) != 1 || c.Locations[0].Path != "/w/main.go" ||
		len(c.Content) != 1 || c.Content[0].Diff == nil || c.Content[0].Diff.NewText != "a := 2" || c.Content[0].Diff.OldText == nil || *c.Content[0].Diff.OldText != "a := 1" {
		t.Errorf("edit tool call: %+v", c)
	}
}

// A prompt's stream decodes only the events the translator reads: every
// event of another type, however full, must come to no update, or the
// editor would miss it.
func TestTranslatorReadsEveryTypeWithUpdates(t *testing.T) {
	types := []string{event.TypeSessionStart, event.TypeThinking, event.TypeAnswer, event.TypeToolUse,
		event.TypeToolResult, event.TypePermissionRequest, event.TypePermissionDecision, event.TypeDangerBlock,
		event.TypeDangerBypass, event.TypeSystem, event.TypeError, event.TypeRaw, event.TypePromptSteered,
		event.TypePromptQueued, event.TypeSessionStats, event.TypeResult}
	full := func(typ string) *event.EventWithMeta {
		ev := event.NewEventWithMeta(typ, "init", &event.EventMeta{ToolName: "Bash", ToolID: "t1", Status: "error",
			ErrorMsg: "boom", InputSummary: "ls", OutputSummary: "out", FilePath: "/w/f"})
		ev.SessionStart = &event.SessionStart{Prompt: "hello"}
		ev.Input = map[string]any{"command": "ls"}
		ev.Permission = &event.Permission{RequestID: "r1", ToolUseID: "t1", ToolName: "Bash", Decision: "deny"}
		ev.Turn = &event.TurnResult{Result: "done"}
		ev.Raw = json.RawMessage(`{"type":"system","subtype":"init","slash_commands":["review"]}`)
		return ev
	}
	read := 0
	for _, replay := range []bool{false, true} {
		for _, typ := range types {
			tr := newTranslator(replay)
			if tr.reads(typ) {
				read++
				continue
			}
			if u := tr.updates(full(typ)); len(u) != 0 {
				t.Errorf("replay %t: %s is not read, yet comes to %d updates", replay, typ, len(u))
			}
		}
	}
	if read == 0 || read == 2*len(types) {
		t.Fatalf("reads took %d of %d types: it must tell some apart", read, 2*len(types))
	}
}
