package pty

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/provider"
)

// keyTerminal records the keys pressed.
type keyTerminal struct {
	terminal
	pressed []string
}

func (k *keyTerminal) keys(s string) error { k.pressed = append(k.pressed, s); return nil }

func TestPermissionTitleWaitsForDetails(t *testing.T) {
	prompts := []PermissionPrompt{{
		Match:     regexp.MustCompile(`(?s)Bash command\n-{3,}\n(?P<command>.*?)\n-{3,}\n.*Proceed\?`),
		Tool:      "Bash",
		Title:     "Bash command\n",
		AllowKeys: "y", DenyKeys: "n",
	}, {
		Match:     regexp.MustCompile(`(?s)\n(?P<tool>[A-Z][^\n]*)\n.*Proceed\?`),
		AllowKeys: "y", DenyKeys: "n",
	}}
	var asked []provider.ToolRequest
	ask := func(_ context.Context, r provider.ToolRequest) provider.ToolDecision {
		asked = append(asked, r)
		if r.Input["command"] == nil {
			return provider.ToolDecision{Behavior: provider.Deny}
		}
		return provider.ToolDecision{Behavior: provider.Allow}
	}
	ctx := context.Background()
	term := &keyTerminal{}
	s := &permissionState{drawWait: 300 * time.Millisecond}
	drawing := "top\nBash command\n  touch a\nProceed?\n"
	full := "top\nBash command\n---\ntouch a\n---\nProceed?\n"

	// Title without the details: the generic prompt does not answer it.
	if err := s.check(ctx, prompts, drawing, time.Second, 0, term, ask); err != nil {
		t.Fatal(err)
	}
	if len(asked) != 0 || len(term.pressed) != 0 {
		t.Fatalf("asked %+v, pressed %q while the question was drawing", asked, term.pressed)
	}
	// The details arrive: asked once, with the command.
	if err := s.check(ctx, prompts, full, time.Second, 0, term, ask); err != nil {
		t.Fatal(err)
	}
	if len(asked) != 1 || asked[0].ToolName != "Bash" || asked[0].Input["command"] != "touch a" || len(term.pressed) != 1 || term.pressed[0] != "y" {
		t.Fatalf("asked %+v, pressed %q", asked, term.pressed)
	}

	// A question whose details never come is asked about after the wait,
	// as the titled tool with no input, and the denial's keys are pressed.
	asked, term.pressed = nil, nil
	s = &permissionState{drawWait: 300 * time.Millisecond}
	if err := s.check(ctx, prompts, drawing, time.Second, 0, term, ask); err != nil {
		t.Fatal(err)
	}
	time.Sleep(350 * time.Millisecond)
	if err := s.check(ctx, prompts, drawing, time.Second, 0, term, ask); err != nil {
		t.Fatal(err)
	}
	if len(asked) != 1 || asked[0].ToolName != "Bash" || len(asked[0].Input) != 0 || len(term.pressed) != 1 || term.pressed[0] != "n" {
		t.Fatalf("after the wait: asked %+v, pressed %q", asked, term.pressed)
	}

	// The title alone, with no question under it, is never answered.
	asked, term.pressed = nil, nil
	s = &permissionState{drawWait: time.Millisecond}
	for range 3 {
		if err := s.check(ctx, prompts, "top\nBash command\n  touch a\n", time.Second, 0, term, ask); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if len(asked) != 0 || len(term.pressed) != 0 {
		t.Fatalf("title alone: asked %+v, pressed %q", asked, term.pressed)
	}

	// Other questions still reach the generic prompt at once.
	asked, term.pressed = nil, nil
	s = &permissionState{drawWait: time.Hour}
	if err := s.check(ctx, prompts, "top\nFetch example.com\nProceed?\n", time.Second, 0, term, ask); err != nil {
		t.Fatal(err)
	}
	if len(asked) != 1 || asked[0].ToolName != "Fetch example.com" {
		t.Fatalf("generic question: asked %+v", asked)
	}
}

// A file question whose title row the terminal shows damaged ("Create
// file" repainted over stale cells) is still read as a Write of the file
// its question names, not as an unknown tool.
func TestClaudeWriteQuestionWithADamagedTitle(t *testing.T) {
	screen := "\n● Write(notes.txt)\n\n" + strings.Repeat("─", 40) + "\n Createdfilede\n notes.txt\n" +
		strings.Repeat("╌", 40) + "\n  1 hi\n" + strings.Repeat("╌", 40) + "\n Do you want to create notes.txt?\n ❯ 1. Yes\n" +
		"   2. Yes, and switch to accept edits\n   3. No\n\n Esc to cancel · Tab to amend\n"
	var asked []provider.ToolRequest
	ask := func(_ context.Context, r provider.ToolRequest) provider.ToolDecision {
		asked = append(asked, r)
		return provider.ToolDecision{Behavior: provider.Allow}
	}
	term := &keyTerminal{}
	s := &permissionState{}
	if err := s.check(context.Background(), ClaudeTUI("claude").Permissions, screen, time.Second, 0, term, ask); err != nil {
		t.Fatal(err)
	}
	if len(asked) != 1 || asked[0].ToolName != "Write" || asked[0].Input["file_path"] != "notes.txt" || len(term.pressed) != 1 || term.pressed[0] != "\r" {
		t.Fatalf("asked %+v, pressed %q", asked, term.pressed)
	}
}
