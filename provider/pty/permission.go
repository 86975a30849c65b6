package pty

import (
	"context"
	"strconv"
	"sync/atomic"

	"github.com/hotplex/hotplex/provider"
)

var permissionSeq atomic.Int64

// permissionState remembers the question on screen, so that each
// appearance of it is asked about once.
type permissionState struct {
	shown bool
}

// check asks about a permission question on the screen, once per
// appearance, and presses the answer's keys.
func (s *permissionState) check(ctx context.Context, pp *PermissionPrompt, screen string, t terminal, ask provider.PermissionFunc) error {
	if pp == nil || pp.Match == nil {
		return nil
	}
	m := pp.Match.FindStringSubmatch(screen)
	if m == nil {
		s.shown = false
		return nil
	}
	if s.shown {
		return nil
	}
	s.shown = true
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
		switch name {
		case "tool":
			req.ToolName = m[i]
		case "command":
			req.Input["command"] = m[i]
		}
	}
	d := provider.ToolDecision{Behavior: provider.Allow}
	switch {
	case ctx.Err() != nil:
		d = provider.ToolDecision{Behavior: provider.Deny, Message: "The turn was interrupted."}
	case ask != nil:
		d = ask(ctx, req)
	}
	keys := pp.AllowKeys
	if d.Behavior == provider.Deny {
		keys = pp.DenyKeys
	}
	return t.keys(keys)
}
