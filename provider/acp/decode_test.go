package acp

import (
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/hotplex/hotplex/event"
)

func ptr[T any](v T) *T { return &v }

func TestToolCallNamesAndCommands(t *testing.T) {
	cases := []struct {
		kind    sdk.ToolKind
		title   string
		raw     any
		name    string
		command string
	}{
		{sdk.ToolKindExecute, "bash", map[string]any{"command": "ls -la"}, "Bash", "ls -la"},
		{sdk.ToolKindExecute, "run", map[string]any{"command": []any{"bash", "-lc", "echo hi > f"}}, "Bash", "echo hi > f"},
		{sdk.ToolKindExecute, "run", map[string]any{"command": []any{"git", "status"}}, "Bash", "git status"},
		{sdk.ToolKindExecute, "`make test`", map[string]any{"cwd": "/w"}, "Bash", "make test"},
		{sdk.ToolKindOther, "shell", map[string]any{"cmd": "pwd"}, "Bash", "pwd"},
		{sdk.ToolKindEdit, "Edit f", map[string]any{"file_path": "/w/f"}, "Edit", ""},
		{sdk.ToolKindOther, "Fancy", map[string]any{}, "Fancy", ""},
	}
	for _, c := range cases {
		tc := &toolCall{kind: c.kind, title: c.title, rawInput: c.raw}
		if got := tc.name(); got != c.name {
			t.Errorf("%v %q: name %q, want %q", c.kind, c.title, got, c.name)
		}
		if c.name == "Bash" {
			if got, _ := tc.input()["command"].(string); got != c.command {
				t.Errorf("%v %q: command %q, want %q", c.kind, c.title, got, c.command)
			}
		}
	}
	if in := (&toolCall{kind: sdk.ToolKindEdit, paths: []string{"/w/a"}}).input(); in["file_path"] != "/w/a" {
		t.Errorf("edit input from locations: %v", in)
	}
}

func TestPickOption(t *testing.T) {
	opts := []sdk.PermissionOption{
		{Kind: sdk.PermissionOptionKindAllowAlways, OptionId: "always"},
		{Kind: sdk.PermissionOptionKindAllowOnce, OptionId: "once"},
		{Kind: sdk.PermissionOptionKindRejectOnce, OptionId: "reject"},
	}
	if id, ok := pickOption(opts, true); !ok || id != "once" {
		t.Errorf("allow picked %q", id)
	}
	if id, ok := pickOption(opts, false); !ok || id != "reject" {
		t.Errorf("deny picked %q", id)
	}
	if _, ok := pickOption(opts[:2], false); ok {
		t.Error("a deny found an option among allow options only")
	}
	if id, _ := pickOption(opts[:1], true); id != "always" {
		t.Errorf("allow without a one-time option picked %q", id)
	}
}

func types(evs []*event.EventWithMeta) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.EventType)
	}
	return out
}

// A shell call first announced with only its directory becomes a tool_use
// once its command is known, and a tool_result when it completes; text and
// thought chunks are gathered into one event each.
func TestDecoderSequence(t *testing.T) {
	d := newDecoder(time.Now(), "m")
	var got []*event.EventWithMeta
	add := func(u sdk.SessionUpdate) { got = append(got, d.update(u)...) }
	text := func(s string) sdk.ContentBlock { return sdk.TextBlock(s) }
	add(sdk.SessionUpdate{AgentThoughtChunk: &sdk.SessionUpdateAgentThoughtChunk{Content: text("let me ")}})
	add(sdk.SessionUpdate{AgentThoughtChunk: &sdk.SessionUpdateAgentThoughtChunk{Content: text("think")}})
	add(sdk.SessionUpdate{AgentMessageChunk: &sdk.SessionUpdateAgentMessageChunk{Content: text("Run")}})
	add(sdk.SessionUpdate{AgentMessageChunk: &sdk.SessionUpdateAgentMessageChunk{Content: text("ning.")}})
	add(sdk.SessionUpdate{ToolCall: &sdk.SessionUpdateToolCall{ToolCallId: "t1", Kind: sdk.ToolKindExecute, Status: sdk.ToolCallStatusPending, RawInput: map[string]any{"cwd": "/w"}}})
	if n := len(got); n != 2 {
		t.Fatalf("a call without its command must wait: %v", types(got))
	}
	add(sdk.SessionUpdate{ToolCallUpdate: &sdk.SessionToolCallUpdate{ToolCallId: "t1", RawInput: map[string]any{"command": "echo hi"}}})
	add(sdk.SessionUpdate{ToolCallUpdate: &sdk.SessionToolCallUpdate{ToolCallId: "t1", Status: ptr(sdk.ToolCallStatusCompleted),
		Content: []sdk.ToolCallContent{{Content: &sdk.ToolCallContentContent{Content: text("hi\n")}}}}})
	add(sdk.SessionUpdate{AgentMessageChunk: &sdk.SessionUpdateAgentMessageChunk{Content: text("Done.")}})
	got = append(got, d.flush()...)
	want := []string{event.TypeThinking, event.TypeAnswer, event.TypeToolUse, event.TypeToolResult, event.TypeAnswer}
	if g := types(got); len(g) != len(want) {
		t.Fatalf("events %v, want %v", g, want)
	}
	for i, w := range want {
		if got[i].EventType != w {
			t.Fatalf("events %v, want %v", types(got), want)
		}
	}
	if got[0].EventData != "let me think" || got[1].EventData != "Running." {
		t.Errorf("chunks not gathered: %q %q", got[0].EventData, got[1].EventData)
	}
	if got[2].Meta.ToolName != "Bash" || got[2].Input["command"] != "echo hi" || got[3].EventData != "hi\n" || got[3].Meta.Status != "success" {
		t.Errorf("tool events: %+v %v / %q %+v", got[2].Meta, got[2].Input, got[3].EventData, got[3].Meta)
	}
	var spent float64
	tr := d.result(sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn, Usage: &sdk.Usage{InputTokens: 10, OutputTokens: 3}}, &spent)
	// Two answer blocks with a tool call between them are two paragraphs.
	if tr.Result != "Running.\n\nDone." || tr.InputTokens != 10 || tr.OutputTokens != 3 || tr.Interrupted || tr.Model != "m" {
		t.Errorf("result %+v", tr)
	}
	if !d.result(sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, &spent).Interrupted {
		t.Error("a cancelled prompt is not marked interrupted")
	}
}

// usage_update's cost is the session's cumulative cost (the ACP schema
// says so); a turn's own cost is its growth during the turn.
func TestResultCostIsTheTurnsOwn(t *testing.T) {
	var spent float64
	for i, cum := range []float64{0.5, 1.0, 1.5} {
		d := newDecoder(time.Now(), "m")
		d.update(sdk.SessionUpdate{UsageUpdate: &sdk.SessionUsageUpdate{Cost: &sdk.Cost{Amount: cum, Currency: "USD"}}})
		if tr := d.result(sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn}, &spent); tr.CostUSD != 0.5 {
			t.Errorf("turn %d costs %v, want its own 0.5", i+1, tr.CostUSD)
		}
	}
	// A turn without a usage update spent nothing that was reported.
	if tr := newDecoder(time.Now(), "m").result(sdk.PromptResponse{}, &spent); tr.CostUSD != 0 || spent != 1.5 {
		t.Errorf("a turn without an update costs %v (spent %v)", tr.CostUSD, spent)
	}
}

// Two agent messages back to back (told apart by their IDs) are two
// answer blocks, and two paragraphs of the result.
func TestMessagesByIDAreBlocks(t *testing.T) {
	d := newDecoder(time.Now(), "m")
	var got []*event.EventWithMeta
	chunk := func(id, text string) {
		got = append(got, d.update(sdk.SessionUpdate{AgentMessageChunk: &sdk.SessionUpdateAgentMessageChunk{Content: sdk.TextBlock(text), MessageId: &id}})...)
	}
	chunk("a", "I looked at the ")
	chunk("a", "directory.")
	chunk("b", "Done.")
	got = append(got, d.flush()...)
	if len(got) != 2 || got[0].EventData != "I looked at the directory." || got[1].EventData != "Done." {
		t.Fatalf("answers %v", types(got))
	}
	var spent float64
	if tr := d.result(sdk.PromptResponse{}, &spent); tr.Result != "I looked at the directory.\n\nDone." {
		t.Errorf("result %q", tr.Result)
	}
}
