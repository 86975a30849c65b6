// Package acp is HotPlex as an Agent Client Protocol agent: an editor
// (Zed, JetBrains, Neovim plugins) that speaks ACP to `hotplex acp` gets
// HotPlex's pooled agents, hot, behind the firewall, each conversation
// persisted in the daemon and visible in its web UI.
//
// Like package mcp, the agent is a client of HotPlex's /v1 API called with
// one API key (package client), in this process or over HTTP, so the
// daemon alone decides what the key may see and do.
package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/hotplex/hotplex/client"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/provider"
)

// Options configure an ACP agent.
type Options struct {
	// Key is the API key every call carries.
	Key string
	// Provider names the agent new sessions run on (empty: the daemon's
	// default).
	Provider string
	// Approval is the new sessions' approval mode: "auto" (the engine's
	// policy; its ask rules come to the editor) or "ask" (every tool use
	// comes to the editor). Empty is auto.
	Approval string
	// Permissions are new sessions' own permission rules in Claude Code's
	// syntax (see client.NewSession); their ask rules come to the editor.
	Permissions json.RawMessage
	// Version is the agent's version in its answer to initialize.
	Version string
	// Logger receives the agent's log (nil: slog.Default()).
	Logger *slog.Logger
}

// interruptGrace bounds interrupting a turn whose prompt was cancelled or
// whose editor left, and replying to a permission request.
const interruptGrace = 10 * time.Second

// agent serves one ACP connection.
type agent struct {
	api  *client.API
	o    Options
	log  *slog.Logger
	conn *sdk.AgentSideConnection
	// out is what conn writes to the editor (see lockedWriter.hold).
	out *lockedWriter
	// ready is closed once conn is set: the connection reads requests
	// from the moment it is made.
	ready chan struct{}
	// gone ends when the connection does: the turns of an editor that
	// left are interrupted, their streams closed.
	gone context.Context
	// turns counts the prompts being served, which Serve waits for once
	// closed is set.
	mu     sync.Mutex
	closed bool
	turns  sync.WaitGroup
	// shut are the sessions session/close closed on this connection:
	// they take no prompt until loaded or resumed again.
	shut map[string]bool
	// commands is the command list last sent for each session (its
	// JSON): an agent that announces the same list at every turn has it
	// sent to the editor once, and again only when it changes or the
	// session is loaded, resumed or closed on this connection.
	commands map[string]string
}

// setShut marks session id closed on this connection, or open again.
func (a *agent) setShut(id string, shut bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.commands, id)
	if a.shut == nil {
		a.shut = map[string]bool{}
	}
	if shut {
		a.shut[id] = true
	} else {
		delete(a.shut, id)
	}
}

func (a *agent) isShut(id string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.shut[id]
}

// enter counts a prompt in; false once Serve is done waiting for them.
func (a *agent) enter() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return false
	}
	a.turns.Add(1)
	return true
}

// Serve speaks ACP as an agent on in and out (an editor's pipes to the
// process: stdin and stdout) until the editor closes in or ctx ends, and
// returns once every turn it served has ended; turns still running are
// interrupted.
func Serve(ctx context.Context, api *client.API, in io.Reader, out io.Writer, o Options) error {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	gone, leave := context.WithCancel(ctx)
	defer leave()
	a := &agent{api: api, o: o, log: o.Logger, gone: gone, ready: make(chan struct{})}
	// The connection starts reading at once, and its logger is not
	// guarded: it reads nothing until the logger is set.
	w := &lockedWriter{w: out}
	a.out = w
	a.conn = sdk.NewAgentSideConnection(a, w, newFrames(gated{in, a.ready}, w))
	a.conn.SetLogger(o.Logger)
	close(a.ready)
	select {
	case <-a.conn.Done():
	case <-ctx.Done():
	}
	leave()
	a.mu.Lock()
	a.closed = true
	a.mu.Unlock()
	a.turns.Wait()
	return nil
}

// gated is a reader that reads nothing until open is closed.
type gated struct {
	r    io.Reader
	open <-chan struct{}
}

func (g gated) Read(p []byte) (int, error) {
	<-g.open
	return g.r.Read(p)
}

var (
	_ sdk.Agent       = (*agent)(nil)
	_ sdk.AgentLoader = (*agent)(nil)
)

func (a *agent) Initialize(_ context.Context, p sdk.InitializeRequest) (sdk.InitializeResponse, error) {
	v := sdk.ProtocolVersion(sdk.ProtocolVersionNumber)
	if p.ProtocolVersion < v {
		v = p.ProtocolVersion
	}
	return sdk.InitializeResponse{
		ProtocolVersion: v,
		AgentInfo:       &sdk.Implementation{Name: "hotplex", Title: sdk.Ptr("HotPlex"), Version: a.o.Version},
		AgentCapabilities: sdk.AgentCapabilities{
			LoadSession: true,
			// Text, resource links and embedded text resources become the
			// prompt's text; images and audio cannot reach the agents'
			// CLIs through the API.
			PromptCapabilities: sdk.PromptCapabilities{EmbeddedContext: true},
			// The editor's MCP servers go to the session's agent: Claude
			// Code takes all three kinds; an ACP agent every stdio
			// server, and HTTP and SSE ones where it says it does.
			McpCapabilities: sdk.McpCapabilities{Http: true, Sse: true},
			SessionCapabilities: sdk.SessionCapabilities{
				List:   &sdk.SessionListCapabilities{},
				Close:  &sdk.SessionCloseCapabilities{},
				Resume: &sdk.SessionResumeCapabilities{},
			},
		},
		// The API key is given on the command line: nothing to negotiate.
		AuthMethods: []sdk.AuthMethod{},
	}, nil
}

func (a *agent) Authenticate(context.Context, sdk.AuthenticateRequest) (sdk.AuthenticateResponse, error) {
	return sdk.AuthenticateResponse{}, nil
}

func (a *agent) NewSession(ctx context.Context, p sdk.NewSessionRequest) (sdk.NewSessionResponse, error) {
	if !filepath.IsAbs(p.Cwd) {
		return sdk.NewSessionResponse{}, sdk.NewInvalidParams(map[string]any{"error": fmt.Sprintf("cwd %q is not an absolute path", p.Cwd)})
	}
	servers, err := mcpServers(p.McpServers)
	if err != nil {
		return sdk.NewSessionResponse{}, sdk.NewInvalidParams(map[string]any{"error": "session/new: " + err.Error()})
	}
	s, err := a.api.CreateSession(ctx, a.o.Key, client.NewSession{
		WorkDir: p.Cwd, Provider: a.o.Provider, Approval: a.o.Approval, Permissions: a.o.Permissions,
		Title: "ACP: " + filepath.Base(p.Cwd), MCPServers: servers,
	})
	if err != nil {
		return sdk.NewSessionResponse{}, apiError("session/new", "", err)
	}
	return sdk.NewSessionResponse{SessionId: sdk.SessionId(s.ID)}, nil
}

// mcpServers is the editor's MCP servers as the session keeps them for
// its agent. An ACP-transport server (the editor's own, over this
// connection) cannot reach an agent behind HotPlex.
func mcpServers(in []sdk.McpServer) ([]provider.MCPServer, error) {
	var out []provider.MCPServer
	for _, m := range in {
		switch {
		case m.Stdio != nil:
			env := map[string]string{}
			for _, e := range m.Stdio.Env {
				env[e.Name] = e.Value
			}
			out = append(out, provider.MCPServer{Name: m.Stdio.Name, Command: m.Stdio.Command, Args: m.Stdio.Args, Env: env})
		case m.Http != nil:
			out = append(out, provider.MCPServer{Name: m.Http.Name, Type: "http", URL: m.Http.Url, Headers: headerMap(m.Http.Headers)})
		case m.Sse != nil:
			out = append(out, provider.MCPServer{Name: m.Sse.Name, Type: "sse", URL: m.Sse.Url, Headers: headerMap(m.Sse.Headers)})
		default:
			return nil, errors.New("only stdio, http and sse MCP servers can reach the agent")
		}
	}
	return out, nil
}

func headerMap(h []sdk.HttpHeader) map[string]string {
	out := map[string]string{}
	for _, v := range h {
		out[v.Name] = v.Value
	}
	return out
}

// LoadSession replays the session's conversation from the daemon's event
// store as session/update notifications, prompts included, before it
// answers. The session keeps the MCP servers it was created with: the
// agent may be running with them already.
func (a *agent) LoadSession(ctx context.Context, p sdk.LoadSessionRequest) (sdk.LoadSessionResponse, error) {
	id := string(p.SessionId)
	t := newTranslator(true)
	var after uint64
	for {
		evs, s, err := a.api.Events(ctx, a.o.Key, id, after, 500)
		if err != nil {
			return sdk.LoadSessionResponse{}, apiError("session/load", id, err)
		}
		for _, ev := range evs {
			if err := a.send(ctx, p.SessionId, t.updates(ev)); err != nil {
				return sdk.LoadSessionResponse{}, err
			}
			after = ev.Seq
		}
		if len(evs) == 0 || after >= s.LastEventID {
			a.setShut(id, false)
			return sdk.LoadSessionResponse{}, nil
		}
	}
}

func (a *agent) ResumeSession(ctx context.Context, p sdk.ResumeSessionRequest) (sdk.ResumeSessionResponse, error) {
	if _, err := a.api.GetSession(ctx, a.o.Key, string(p.SessionId)); err != nil {
		return sdk.ResumeSessionResponse{}, apiError("session/resume", string(p.SessionId), err)
	}
	a.setShut(string(p.SessionId), false)
	return sdk.ResumeSessionResponse{}, nil
}

// ListSessions lists the key's sessions, those in cwd when it is given.
func (a *agent) ListSessions(ctx context.Context, p sdk.ListSessionsRequest) (sdk.ListSessionsResponse, error) {
	ss, err := a.api.Sessions(ctx, a.o.Key)
	if err != nil {
		return sdk.ListSessionsResponse{}, apiError("session/list", "", err)
	}
	out := sdk.ListSessionsResponse{Sessions: []sdk.SessionInfo{}}
	for _, s := range ss {
		if p.Cwd != nil && *p.Cwd != "" && filepath.Clean(*p.Cwd) != filepath.Clean(s.WorkDir) {
			continue
		}
		info := sdk.SessionInfo{SessionId: sdk.SessionId(s.ID), Cwd: s.WorkDir, UpdatedAt: sdk.Ptr(s.UpdatedAt.UTC().Format(time.RFC3339))}
		if s.Title != "" {
			info.Title = sdk.Ptr(s.Title)
		}
		out.Sessions = append(out.Sessions, info)
	}
	return out, nil
}

// CloseSession ends the session's running turn, and the session takes no
// more prompts on this connection; the conversation stays in the daemon,
// to be loaded or resumed again, hibernated when idle, or deleted there.
func (a *agent) CloseSession(ctx context.Context, p sdk.CloseSessionRequest) (sdk.CloseSessionResponse, error) {
	id := string(p.SessionId)
	if _, err := a.api.GetSession(ctx, a.o.Key, id); err != nil {
		return sdk.CloseSessionResponse{}, apiError("session/close", id, err)
	}
	a.setShut(id, true)
	if _, err := a.api.Interrupt(ctx, a.o.Key, id); err != nil {
		return sdk.CloseSessionResponse{}, apiError("session/close", id, err)
	}
	return sdk.CloseSessionResponse{}, nil
}

// Cancel has nothing to do beyond what the connection does: it ends the
// session's prompt's context, and the prompt interrupts its turn.
func (a *agent) Cancel(context.Context, sdk.CancelNotification) error { return nil }

func (a *agent) SetSessionMode(context.Context, sdk.SetSessionModeRequest) (sdk.SetSessionModeResponse, error) {
	return sdk.SetSessionModeResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionSetMode)
}

func (a *agent) SetSessionConfigOption(context.Context, sdk.SetSessionConfigOptionRequest) (sdk.SetSessionConfigOptionResponse, error) {
	return sdk.SetSessionConfigOptionResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionSetConfigOption)
}

// send notifies the editor of updates of session id.
func (a *agent) send(ctx context.Context, id sdk.SessionId, updates []sdk.SessionUpdate) error {
	<-a.ready
	for _, u := range updates {
		if c := u.AvailableCommandsUpdate; c != nil && !a.newCommands(string(id), c) {
			continue
		}
		if line, ok := encodeUpdate(id, u); ok {
			// As the connection sends a notification: refused once ctx
			// is done, written whole.
			if err := ctx.Err(); err != nil {
				return sdk.NewInternalError(map[string]any{"error": err.Error()})
			}
			if _, err := a.out.Write(line); err != nil {
				return sdk.NewInternalError(map[string]any{"error": err.Error()})
			}
			continue
		}
		if err := a.conn.SessionUpdate(ctx, sdk.SessionNotification{SessionId: id, Update: u}); err != nil {
			return err
		}
	}
	return nil
}

// newCommands reports whether c differs from the command list last sent
// for session id, and remembers it as sent.
func (a *agent) newCommands(id string, c *sdk.SessionAvailableCommandsUpdate) bool {
	b, err := json.Marshal(c.AvailableCommands)
	if err != nil {
		return true
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.commands[id] == string(b) {
		return false
	}
	if a.commands == nil {
		a.commands = map[string]string{}
	}
	a.commands[id] = string(b)
	return true
}

// errResourceNotFound is ACP's error code for a session that does not
// exist (for the caller).
const errResourceNotFound = -32002

// apiError is the JSON-RPC error an API failure of method is answered
// with.
func apiError(method, id string, err error) error {
	var ae *client.APIError
	switch {
	case errors.Is(err, client.ErrNotFound):
		return &sdk.RequestError{Code: errResourceNotFound, Message: "Resource not found",
			Data: map[string]any{"error": fmt.Sprintf("%s: no session %q: it was deleted, or it is not one of this key's", method, id)}}
	case errors.As(err, &ae) && ae.Status == http.StatusBadRequest:
		return sdk.NewInvalidParams(map[string]any{"error": method + ": " + ae.Error()})
	case errors.As(err, &ae) && ae.Status == http.StatusConflict:
		return sdk.NewInvalidRequest(map[string]any{"error": method + ": " + ae.Error()})
	case errors.As(err, &ae) && (ae.Status == http.StatusUnauthorized || ae.Status == http.StatusForbidden):
		return sdk.NewAuthRequired(map[string]any{"error": method + ": " + ae.Error()})
	}
	return sdk.NewInternalError(map[string]any{"error": method + ": " + err.Error()})
}

// usageOf is a turn's token counts as a prompt's response reports them.
func usageOf(tr *event.TurnResult) *sdk.Usage {
	if tr == nil {
		return nil
	}
	in, out := int(tr.InputTokens), int(tr.OutputTokens)
	cr, cw := int(tr.CacheRead), int(tr.CacheWrite)
	return &sdk.Usage{InputTokens: in, OutputTokens: out, CachedReadTokens: &cr, CachedWriteTokens: &cw, TotalTokens: in + out + cr + cw}
}

// claudeContextWindow is the context window of Claude's models, the one
// figure of usage_update the agents do not report with a turn.
const claudeContextWindow = 200_000

// usageUpdate is the usage_update a turn's result event makes: the tokens
// the turn's last context held (what it read, from the prompt or the
// cache, and what it wrote), the model's context window where it is known
// (Claude's; 0 otherwise) and the session's cost so far in US dollars.
// The token counts by kind ride along in _meta, under "hotplex".
func usageUpdate(ev *event.EventWithMeta) (sdk.SessionUpdate, bool) {
	tr := ev.Turn
	if tr == nil {
		return sdk.SessionUpdate{}, false
	}
	used := int(tr.InputTokens) + int(tr.CacheRead) + int(tr.CacheWrite) + int(tr.OutputTokens)
	size := 0
	model := tr.Model
	if model == "" && ev.Stats != nil {
		model = ev.Stats.ModelUsed
	}
	if strings.HasPrefix(model, "claude") {
		size = claudeContextWindow
	}
	u := &sdk.SessionUsageUpdate{Used: used, Size: size, Meta: map[string]any{"hotplex": map[string]any{
		"input_tokens": tr.InputTokens, "output_tokens": tr.OutputTokens,
		"cache_read_tokens": tr.CacheRead, "cache_write_tokens": tr.CacheWrite,
		"turn_cost_usd": tr.CostUSD, "model": model,
	}}}
	cost := tr.CostUSD
	if ev.Stats != nil {
		cost = ev.Stats.TotalCostUSD
	}
	u.Cost = &sdk.Cost{Amount: cost, Currency: "USD"}
	return sdk.SessionUpdate{UsageUpdate: u}, true
}
