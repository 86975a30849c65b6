package opencode

import (
	"context"
	"net/http"
	"path/filepath"
	"slices"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/store"
)

// What OpenCode's CLI and TUI read at start and while they show a
// session, beyond the conversation itself: paths, the project, agents,
// commands, capabilities, and a session's children, todos and diff.
// HotPlex has one project per API key (its tree of work directories) and
// one OpenCode agent, "build"; the choice of agent CLI is the choice of
// provider.

func (a *API) appRoutes() []Route {
	return append([]Route{
		{Method: "GET", Path: "/path", Summary: "OpenCode: the caller's paths (its tree of work directories)", Handler: a.ocPath, Response: ocPaths{}},
		{Method: "GET", Path: "/project", Summary: "OpenCode: the caller's projects (one: its tree of work directories)", Handler: a.ocProjects, Response: []ocProject{}},
		{Method: "GET", Path: "/project/current", Summary: "OpenCode: the caller's project", Handler: a.ocCurrentProject, Response: ocProject{}},
		{Method: "GET", Path: "/agent", Summary: "OpenCode: agents (one, build: the session's agent CLI does the work)", Handler: a.ocAgents, Response: []ocAgent{}},
		{Method: "GET", Path: "/command", Summary: "OpenCode: custom commands (none)", Handler: a.ocEmptyList, Response: []struct{}{}},
		{Method: "GET", Path: "/lsp", Summary: "OpenCode: language servers (none: the agent CLIs run their own)", Handler: a.ocEmptyList, Response: []struct{}{}},
		{Method: "GET", Path: "/formatter", Summary: "OpenCode: formatters (none)", Handler: a.ocEmptyList, Response: []struct{}{}},
		{Method: "GET", Path: "/vcs", Summary: "OpenCode: the project's version control (none reported)", Handler: a.ocEmptyObject, Response: struct{}{}},
		{Method: "GET", Path: "/provider/auth", Summary: "OpenCode: ways to log in to providers (none: HotPlex holds the agents' credentials)", Handler: a.ocEmptyObject, Response: map[string][]struct{}{}},
		{Method: "GET", Path: "/mcp", Summary: "OpenCode: its MCP servers' status (none; asked with HTTP Basic, as OpenCode's programs do: MCP clients reach HotPlex's own MCP server at /mcp with Bearer)", Handler: a.ocEmptyObject, Response: map[string]struct{}{}},
		{Method: "GET", Path: "/experimental/workspace/status", Summary: "OpenCode: workspaces' status (none)", Handler: a.ocEmptyList, Response: []struct{}{}},
		{Method: "GET", Path: "/project/{projectID}/directories", Summary: "OpenCode: a project's directories (the caller's one project: its tree)", Handler: a.ocProjectDirectories, Response: []ocProjectDirectory{}},
		{Method: "GET", Path: "/experimental/workspace", Summary: "OpenCode: workspaces (none)", Handler: a.ocEmptyList, Response: []struct{}{}},
		{Method: "GET", Path: "/experimental/resource", Summary: "OpenCode: MCP resources (none)", Handler: a.ocEmptyObject, Response: map[string]struct{}{}},
		{Method: "GET", Path: "/experimental/capabilities", Summary: "OpenCode: optional features (none)", Handler: a.ocCapabilities, Response: ocExperimentalCapabilities{}},
		{Method: "GET", Path: "/experimental/console", Summary: "OpenCode: console-managed providers (none)", Handler: a.ocConsole, Response: ocConsoleState{}},
		{Method: "GET", Path: "/session/{id}/children", Summary: "OpenCode: a session's child sessions (none: HotPlex has no child sessions)", Handler: a.ocSessionEmptyList, Response: []ocSession{}},
		{Method: "GET", Path: "/session/{id}/todo", Summary: "OpenCode: a session's todo list, as the agent last wrote it (Claude Code's TodoWrite; empty for agents that keep none)", Handler: a.ocSessionTodo, Response: []ocTodo{}},
		{Method: "GET", Path: "/session/{id}/diff", Summary: "OpenCode: the files a session changed, with their content before and after", Handler: a.ocSessionDiff, Response: []ocFileDiff{}},
		{Method: "GET", Path: "/permission", Summary: "OpenCode: tool uses of the caller's sessions waiting for a person", Handler: a.ocPendingPermissions, Response: []ocPermissionRequest{}},
		{Method: "POST", Path: "/permission/{requestID}/reply", Summary: "OpenCode: answer a tool use waiting for a person (once, always or reject)", Handler: a.ocReplyPermission, Request: ocPermissionReplyV2{}, Response: true},
	}, a.fileRoutes()...)
}

// ocPaths are the paths OpenCode shows: the caller's tree is its home,
// worktree and directory.
type ocPaths struct {
	Home      string `json:"home"`
	State     string `json:"state"`
	Config    string `json:"config"`
	Worktree  string `json:"worktree"`
	Directory string `json:"directory"`
}

// tree is the caller's tree of work directories.
func (a *API) tree(c Caller) string {
	if a.workDirRoot == "" {
		return ""
	}
	return filepath.Join(a.workDirRoot, engine.OwnerDir(c.ID))
}

func (a *API) ocPath(w http.ResponseWriter, r *http.Request) {
	t := a.tree(a.host.Caller(r))
	writeJSON(w, http.StatusOK, ocPaths{Home: t, State: t, Config: t, Worktree: t, Directory: t})
}

type ocProject struct {
	ID        string          `json:"id"`
	Worktree  string          `json:"worktree"`
	Name      string          `json:"name"`
	Time      ocSessionTime   `json:"time"`
	Sandboxes []string        `json:"sandboxes"`
	Icon      *map[string]any `json:"icon,omitempty"`
}

func (a *API) project(r *http.Request) ocProject {
	now := time.Now().UnixMilli()
	return ocProject{ID: ocProjectID, Worktree: a.tree(a.host.Caller(r)), Name: "hotplex", Time: ocSessionTime{Created: now, Updated: now}, Sandboxes: []string{}}
}

type ocProjectDirectory struct {
	Directory string `json:"directory"`
}

func (a *API) ocProjectDirectories(w http.ResponseWriter, r *http.Request) {
	if r.PathValue("projectID") != ocProjectID {
		a.writeError(w, a.host.Error(http.StatusNotFound, "not_found", "no such project: "+r.PathValue("projectID")))
		return
	}
	writeJSON(w, http.StatusOK, []ocProjectDirectory{{a.tree(a.host.Caller(r))}})
}

func (a *API) ocProjects(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, []ocProject{a.project(r)})
}

func (a *API) ocCurrentProject(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, a.project(r))
}

// ocAgent is an OpenCode agent: a mode of OpenCode's own loop. HotPlex
// offers one, build; the agent CLI behind the session is the provider.
type ocAgent struct {
	Name        string           `json:"name"`
	Description string           `json:"description"`
	Mode        string           `json:"mode"`
	Native      bool             `json:"native"`
	Permission  []ocRule         `json:"permission"`
	Options     map[string]any   `json:"options"`
	Model       *ocAgentModelRef `json:"model,omitempty"`
}

type ocRule struct {
	Permission string `json:"permission"`
	Pattern    string `json:"pattern"`
	Action     string `json:"action"`
}

type ocAgentModelRef struct {
	ModelID    string `json:"modelID"`
	ProviderID string `json:"providerID"`
}

func (a *API) ocAgents(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, []ocAgent{{Name: "build", Description: "the session's agent CLI, behind HotPlex's firewall", Mode: "primary", Native: true,
		Permission: []ocRule{}, Options: map[string]any{}, Model: &ocAgentModelRef{ModelID: "default", ProviderID: a.defaultProvider()}}})
}

func (a *API) ocEmptyList(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, []struct{}{})
}

func (a *API) ocEmptyObject(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, struct{}{})
}

// ocSessionEmptyList answers for an owned session with an empty list.
func (a *API) ocSessionEmptyList(w http.ResponseWriter, r *http.Request) {
	if _, err := a.owned(r); err != nil {
		a.writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, []struct{}{})
}

type ocExperimentalCapabilities struct {
	BackgroundSubagents bool `json:"backgroundSubagents"`
}

func (a *API) ocCapabilities(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, ocExperimentalCapabilities{})
}

type ocConsoleState struct {
	ConsoleManagedProviders []string `json:"consoleManagedProviders"`
	SwitchableOrgCount      int      `json:"switchableOrgCount"`
}

func (a *API) ocConsole(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, ocConsoleState{ConsoleManagedProviders: []string{}})
}

// ocPermissionRequest is a tool use waiting for a person, as OpenCode's
// newer clients list it.
type ocPermissionRequest struct {
	ID         string         `json:"id"`
	SessionID  string         `json:"sessionID"`
	Permission string         `json:"permission"`
	Patterns   []string       `json:"patterns"`
	Metadata   map[string]any `json:"metadata"`
	Always     []string       `json:"always"`
	Tool       *ocToolRef     `json:"tool,omitempty"`
}

type ocToolRef struct {
	MessageID string `json:"messageID"`
	CallID    string `json:"callID"`
}

// pending lists the tool uses of c's sessions waiting for a person.
func (a *API) pending(ctx context.Context, c Caller) ([]store.Session, [][]Permission, error) {
	list, err := a.store.ListSessions(ctx, c.ID)
	if err != nil {
		return nil, nil, err
	}
	var sessions []store.Session
	var perms [][]Permission
	for _, st := range list {
		if p := a.host.Pending(st); len(p) > 0 {
			sessions = append(sessions, st)
			perms = append(perms, p)
		}
	}
	return sessions, perms, nil
}

func (a *API) ocPendingPermissions(w http.ResponseWriter, r *http.Request) {
	sessions, perms, err := a.pending(r.Context(), a.host.Caller(r))
	if err != nil {
		a.writeError(w, err)
		return
	}
	out := []ocPermissionRequest{}
	for i, st := range sessions {
		for _, p := range perms[i] {
			out = append(out, permissionRequestOf(publicID(st), "", p.ID, p.Tool, p.CallID, p.Input))
		}
	}
	writeJSON(w, http.StatusOK, out)
}

func permissionRequestOf(sessionID, messageID, id, tool, callID string, input map[string]any) ocPermissionRequest {
	meta := map[string]any{}
	if input != nil {
		meta["input"] = input
	}
	p := ocPermissionRequest{ID: id, SessionID: sessionID, Permission: tool, Patterns: []string{"*"}, Metadata: meta, Always: []string{}}
	if callID != "" {
		p.Tool = &ocToolRef{MessageID: messageID, CallID: callID}
	}
	return p
}

// ocPermissionReplyV2 answers a permission request as OpenCode's newer
// clients do.
type ocPermissionReplyV2 struct {
	Reply   string `json:"reply"`
	Message string `json:"message,omitempty"`
}

func (a *API) ocReplyPermission(w http.ResponseWriter, r *http.Request) {
	var req ocPermissionReplyV2
	if err := a.readLooseJSON(w, r, &req, false); err != nil {
		a.writeError(w, err)
		return
	}
	allow, err := a.allowOf(req.Reply)
	if err != nil {
		a.writeError(w, err)
		return
	}
	id := r.PathValue("requestID")
	sessions, perms, err := a.pending(r.Context(), a.host.Caller(r))
	if err != nil {
		a.writeError(w, err)
		return
	}
	for i, st := range sessions {
		if slices.ContainsFunc(perms[i], func(p Permission) bool { return p.ID == id }) {
			if err := a.host.AnswerPermission(a.host.Caller(r), st, id, allow); err != nil {
				a.writeError(w, err)
				return
			}
			writeJSON(w, http.StatusOK, true)
			return
		}
	}
	if err := a.host.Answered(r.Context(), a.host.Caller(r), id); err != nil {
		a.writeError(w, err)
		return
	}
	a.writeError(w, a.host.Error(http.StatusNotFound, "not_found", "no pending permission request with this ID"))
}

// allowOf reads OpenCode's answer to a permission request: "once" and
// "always" allow this tool use (HotPlex asks again next time), "reject"
// denies it.
func (a *API) allowOf(reply string) (bool, error) {
	switch reply {
	case "once", "always":
		return true, nil
	case "reject":
		return false, nil
	}
	return false, a.host.Error(http.StatusBadRequest, "bad_request", `the reply must be "once", "always" or "reject"`)
}
