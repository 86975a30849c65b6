package opencode

import (
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"

	"github.com/hotplex/hotplex/event"
)

// unapply gives back the content a patch was made from, whatever its
// hunks: several, at the start or the end, a last line without a newline.
func TestUnapply(t *testing.T) {
	var long []string
	for i := range 40 {
		long = append(long, "line "+strings.Repeat("x", i%5))
	}
	base := strings.Join(long, "\n") + "\n"
	edited := strings.Replace(strings.Replace(base, "line \n", "first changed\n", 1), "line xxxx\nline \n", "tail changed\n", 1)
	cases := []struct{ before, after string }{
		{"one\ntwo\nthree\n", "one\nTWO\nthree\n"},
		{"a\nb\n", "z\na\nb\n"},
		{base, edited},
		{base, base + "appended"},
		{"no newline", "no newline\nnow two"},
		{"x\ny\n", ""},
	}
	for _, c := range cases {
		patch := udiff.Unified("a/f", "b/f", c.before, c.after)
		if got := unapply(c.after, patch); got != c.before {
			t.Errorf("unapply of\n%s\ngave %q, want %q", patch, got, c.before)
		}
	}
}

// A TodoWrite tool use (Claude Code's) is a todo.updated event with the
// list in OpenCode's shape; other tools are not.
func TestTodoWriteIsTodoUpdated(t *testing.T) {
	c := &ocConversation{sessionID: "ses_t"}
	start := event.NewEventWithMeta(event.TypeSessionStart, "", &event.EventMeta{})
	start.Seq = 1
	c.apply(start)
	use := func(seq uint64, tool string, input map[string]any) []ocEvent {
		ev := event.NewEventWithMeta(event.TypeToolUse, "", &event.EventMeta{ToolName: tool, ToolID: "t" + tool})
		ev.Seq, ev.Input = seq, input
		return c.apply(ev)
	}
	out := use(2, "TodoWrite", map[string]any{"todos": []any{
		map[string]any{"content": "read the code", "status": "completed", "activeForm": "Reading"},
		map[string]any{"content": "write the test", "status": "in_progress", "priority": "high"},
	}})
	var got *ocTodoUpdate
	for _, e := range out {
		if e.Type == "todo.updated" {
			u := e.Properties.(ocTodoUpdate)
			got = &u
		}
	}
	want := []ocTodo{{ID: "1", Content: "read the code", Status: "completed", Priority: "medium"}, {ID: "2", Content: "write the test", Status: "in_progress", Priority: "high"}}
	if got == nil || got.SessionID != "ses_t" || len(got.Todos) != 2 || got.Todos[0] != want[0] || got.Todos[1] != want[1] {
		t.Fatalf("todo.updated: %+v in %+v", got, out)
	}
	for _, e := range use(3, "Bash", map[string]any{"todos": []any{}}) {
		if e.Type == "todo.updated" {
			t.Fatalf("a Bash tool use made %+v", e)
		}
	}
}
