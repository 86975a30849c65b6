package client

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/provider"
)

// NewSession is what POST /v1/sessions creates; only the fields the API's
// clients set.
type NewSession struct {
	ID               string `json:"id,omitempty"`
	Title            string `json:"title,omitempty"`
	WorkDir          string `json:"work_dir,omitempty"`
	TaskInstructions string `json:"task_instructions,omitempty"`
	Provider         string `json:"provider,omitempty"`
	// Approval is "auto" (the engine's policy) or "ask" (every tool use
	// waits for an answer through the permission API).
	Approval string `json:"approval,omitempty"`
	// Permissions are the session's own permission rules in Claude
	// Code's syntax ({"allow": [...], "ask": [...], "deny": [...]}, or a
	// settings file's {"permissions": {...}}).
	Permissions json.RawMessage `json:"permissions,omitempty"`
	// MCPServers are the session's own MCP servers, for agents that take
	// them; a stdio server needs an admin key.
	MCPServers []provider.MCPServer `json:"mcp_servers,omitempty"`
}

// CreateSession creates a session for key.
func (a *API) CreateSession(ctx context.Context, key string, s NewSession) (Session, error) {
	var out Session
	err := a.Call(ctx, key, http.MethodPost, "/v1/sessions", s, &out)
	return out, err
}

// GetSession is key's session id.
func (a *API) GetSession(ctx context.Context, key, id string) (Session, error) {
	var out Session
	err := a.Call(ctx, key, http.MethodGet, SessionPath(id), nil, &out)
	return out, err
}

// Sessions lists key's sessions.
func (a *API) Sessions(ctx context.Context, key string) ([]Session, error) {
	var out struct {
		Sessions []Session `json:"sessions"`
	}
	err := a.Call(ctx, key, http.MethodGet, "/v1/sessions", nil, &out)
	return out.Sessions, err
}

// Prompt starts a turn of session id and returns its stream of
// Server-Sent Events (read it with ReadSSE), which ends with the turn.
// Closing it before then leaves the turn running: Interrupt stops it.
func (a *API) Prompt(ctx context.Context, key, id, prompt string) (io.ReadCloser, error) {
	resp, err := a.Request(ctx, key, http.MethodPost, SessionPath(id, "/messages"), map[string]string{"prompt": prompt})
	if err != nil {
		return nil, err
	}
	return resp.Body, nil
}

// Interrupt stops the turn running in session id; false when none was.
func (a *API) Interrupt(ctx context.Context, key, id string) (bool, error) {
	var out struct {
		Interrupted bool `json:"interrupted"`
	}
	err := a.Call(ctx, key, http.MethodPost, SessionPath(id, "/interrupt"), nil, &out)
	return out.Interrupted, err
}

// PendingPermission is a tool use that waits for a person's answer.
type PendingPermission struct {
	RequestID string                `json:"request_id"`
	ToolName  string                `json:"tool_name"`
	ToolUseID string                `json:"tool_use_id,omitempty"`
	Reason    string                `json:"reason,omitempty"`
	Policy    *event.PolicyDecision `json:"policy,omitempty"`
}

// PendingPermissions lists the tool uses of session id that wait for a
// person: of the permission requests a turn reports, only these need an
// answer (the others the daemon's policy decided).
func (a *API) PendingPermissions(ctx context.Context, key, id string) ([]PendingPermission, error) {
	var out struct {
		Permissions []PendingPermission `json:"permissions"`
	}
	err := a.Call(ctx, key, http.MethodGet, SessionPath(id, "/permissions"), nil, &out)
	return out.Permissions, err
}

// AnswerPermission answers the tool use that waits under request in
// session id; message tells the agent why when it is denied.
func (a *API) AnswerPermission(ctx context.Context, key, id, request string, allow bool, message string) error {
	return a.AnswerPermissionFrom(ctx, key, id, request, allow, message, "")
}

// AnswerPermissionFrom is AnswerPermission naming the client that
// answers ("acp", "mcp", "web"; "http" when empty), which the session's
// other clients are told. An answer that comes second fails with an
// APIError of code already_answered.
func (a *API) AnswerPermissionFrom(ctx context.Context, key, id, request string, allow bool, message, channel string) error {
	body := struct {
		Decision string `json:"decision"`
		Message  string `json:"message,omitempty"`
		Channel  string `json:"channel,omitempty"`
	}{"deny", message, channel}
	if allow {
		body.Decision = "allow"
	}
	return a.Call(ctx, key, http.MethodPost, SessionPath(id, "/permissions/"+url.PathEscape(request)), body, nil)
}
