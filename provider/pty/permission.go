package pty

import (
	"context"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hotplex/hotplex/provider"
)

var permissionSeq atomic.Int64

// permissionState remembers the question on screen, so that each
// appearance of it is asked about once.
type permissionState struct {
	shown   bool
	keys    string    // the answer's keys
	pressed time.Time // when they were last pressed
	drawing time.Time // when a known title appeared without its details
	// drawWait overrides DrawWait (tests).
	drawWait time.Duration
}

// DrawWait is how long a question whose title is on screen may lack the
// details its prompt reads before it is asked about without them.
const DrawWait = 5 * time.Second

// repress is how long an answered question may stay on screen before its
// keys are pressed again: a UI may drop keys that arrive while it is still
// drawing the question.
const repress = 1500 * time.Millisecond

// check asks about a permission question on the screen, once per
// appearance, and presses the answer's keys. The question is answered
// once it has been on screen, unchanged, for settle: keys pressed while
// the question is still being drawn can be lost.
func (s *permissionState) check(ctx context.Context, prompts []PermissionPrompt, screen string, stable, settle time.Duration, t terminal, ask provider.PermissionFunc) error {
	var (
		pp *PermissionPrompt
		m  []string
	)
	// titled is a known question on screen whose details cannot be read
	// (yet): a later, generic prompt must not answer it as something else.
	var titled *PermissionPrompt
	for i := range prompts {
		p := &prompts[i]
		if p.Match == nil {
			continue
		}
		if m = p.Match.FindStringSubmatch(screen); m != nil {
			pp = p
			break
		}
		if titled == nil && p.Title != "" && strings.Contains(screen, p.Title) {
			titled = p
		}
	}
	if titled == nil {
		s.drawing = time.Time{}
	}
	if m == nil {
		s.shown = false
		return nil
	}
	details := true
	if titled != nil {
		if s.drawing.IsZero() {
			s.drawing = time.Now()
		}
		wait := s.drawWait
		if wait == 0 {
			wait = DrawWait
		}
		if time.Since(s.drawing) < wait {
			return nil
		}
		pp, details = titled, false
	}
	if s.shown {
		if time.Since(s.pressed) < repress {
			return nil
		}
		s.pressed = time.Now()
		return t.keys(s.keys)
	}
	if stable < settle {
		return nil
	}
	req := provider.ToolRequest{
		Kind:      provider.CanUseTool,
		RequestID: "pty-permission-" + strconv.FormatInt(permissionSeq.Add(1), 10),
		ToolName:  pp.Tool,
		Input:     map[string]any{},
	}
	if req.ToolName == "" {
		req.ToolName = "Bash"
	}
	for i, name := range pp.Match.SubexpNames() {
		switch {
		case !details || name == "":
		case name == "tool":
			req.ToolName = m[i]
		default:
			req.Input[name] = unwrap(m[i])
		}
	}
	d := provider.ToolDecision{Behavior: provider.Allow}
	switch {
	case ctx.Err() != nil:
		d = provider.ToolDecision{Behavior: provider.Deny, Message: "The turn was interrupted."}
	case ask != nil:
		d = ask(ctx, req)
	}
	s.shown = true
	s.keys = pp.AllowKeys
	if d.Behavior == provider.Deny {
		s.keys = pp.DenyKeys
	}
	s.pressed = time.Now()
	return t.keys(s.keys)
}

// unwrap trims the screen's indentation from every line of a command.
func unwrap(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}
