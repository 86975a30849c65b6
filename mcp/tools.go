package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hotplex/hotplex/client"
	"github.com/hotplex/hotplex/event"
)

// tools are the MCP server's tools and resources.
type tools struct {
	api *client.API
	key string
	log *slog.Logger
	// closing ends every tool call when the server closes.
	closing context.Context
}

func (t *tools) register(s *sdk.Server) {
	sdk.AddTool(s, &sdk.Tool{Name: "start_session", Title: "Start a session",
		Description: "Start a conversation with a coding agent. Returns its session_id for send_prompt. provider names the agent (list_sessions shows the daemon's providers; empty: the default); work_dir is a directory inside your tree of work directories (empty: a new one for the session); instructions are added to the agent's system prompt for every turn."},
		t.startSession)
	sdk.AddTool(s, &sdk.Tool{Name: "send_prompt", Title: "Send a prompt",
		Description: "Run one turn of a session: the agent works on the prompt (tools, file edits, all behind HotPlex's firewall) and the call returns when it is done, with its final answer, the tools it used, the files it modified, tokens and cost. Progress notifications report the turn's events while it runs. When the turn waits for a person (a session started with approval ask), a client that takes elicitations is asked allow or deny, and its answer is the decision; others wait for an answer from another client (the web UI, the API) or the approval timeout."},
		t.sendPrompt)
	sdk.AddTool(s, &sdk.Tool{Name: "get_events", Title: "Get a session's events",
		Description: "Read a session's events (prompts' answers, thinking, tool uses and results, permission decisions, firewall blocks, statistics) numbered from 1, those after `after`, at most `limit` of them. Returns next_after to page on.",
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		t.getEvents)
	sdk.AddTool(s, &sdk.Tool{Name: "list_sessions", Title: "List sessions",
		Description: "List your sessions with their provider, status and work directory, and the providers new sessions may run on.",
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		t.listSessions)
	sdk.AddTool(s, &sdk.Tool{Name: "interrupt", Title: "Interrupt a turn",
		Description: "Interrupt the turn running in a session; the agent stops, and its process stays for the next prompt. An error if no turn is running."},
		t.interrupt)
	sdk.AddTool(s, &sdk.Tool{Name: "close_session", Title: "Close a session",
		Description: "End a session: its agent process ends, and the session is deleted with its events and the work directory it created.",
		Annotations: &sdk.ToolAnnotations{DestructiveHint: ptr(true)}},
		t.closeSession)
	s.AddResourceTemplate(&sdk.ResourceTemplate{Name: "session", Title: "A HotPlex session",
		URITemplate: sessionURIPrefix + "{id}", MIMEType: "application/json",
		Description: "A session as JSON: its provider, status, work directory and statistics, and its conversation's events."},
		t.readSession)
}

func ptr[T any](v T) *T { return &v }

const sessionURIPrefix = "hotplex://sessions/"

// sessionRef names a session in the tools' inputs.
type sessionRef struct {
	SessionID string `json:"session_id" jsonschema:"the session's ID, as start_session returned it"`
}

type startSessionIn struct {
	Provider     string `json:"provider,omitempty" jsonschema:"the agent that runs the session (empty: the daemon's default)"`
	WorkDir      string `json:"work_dir,omitempty" jsonschema:"the agent's working directory, inside your tree of work directories (empty: a new directory of the session's own)"`
	Instructions string `json:"instructions,omitempty" jsonschema:"instructions added to the agent's system prompt for every turn"`
	SessionID    string `json:"session_id,omitempty" jsonschema:"an ID of your choosing: letters, digits, '.', '_' or '-' (empty: a new UUID)"`
	Title        string `json:"title,omitempty" jsonschema:"a title shown in HotPlex's web UI"`
	Approval     string `json:"approval,omitempty" jsonschema:"auto (the default: the daemon's policy decides) or ask (every tool use waits for a person's answer, which send_prompt asks of you when your client takes elicitations)"`
}

// sessionOut is a session as the tools show it.
type sessionOut struct {
	SessionID   string    `json:"session_id"`
	Resource    string    `json:"resource" jsonschema:"the session's resource URI"`
	Provider    string    `json:"provider"`
	WorkDir     string    `json:"work_dir"`
	Status      string    `json:"status" jsonschema:"new, starting, idle, running, hibernated, error or closed"`
	Title       string    `json:"title,omitempty"`
	LastEventID uint64    `json:"last_event_id" jsonschema:"the number of the session's newest event"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

func outOf(s client.Session) sessionOut {
	return sessionOut{SessionID: s.ID, Resource: sessionURIPrefix + s.ID, Provider: s.Provider, WorkDir: s.WorkDir,
		Status: s.Status, Title: s.Title, LastEventID: s.LastEventID, CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt}
}

// failure words an API error for the model reading it.
func failure(what, id string, err error) error {
	if errors.Is(err, client.ErrNotFound) {
		return fmt.Errorf("%s: no session %q: it was closed, or it is not one of yours", what, id)
	}
	return fmt.Errorf("%s: %w", what, err)
}

func (t *tools) startSession(ctx context.Context, req *sdk.CallToolRequest, in startSessionIn) (*sdk.CallToolResult, sessionOut, error) {
	body := map[string]string{"id": in.SessionID, "provider": in.Provider, "work_dir": in.WorkDir,
		"task_instructions": in.Instructions, "title": in.Title, "approval": in.Approval}
	var s client.Session
	if err := t.api.Call(ctx, t.keyOf(req.Extra), http.MethodPost, "/v1/sessions", body, &s); err != nil {
		return nil, sessionOut{}, fmt.Errorf("start_session: %w", err)
	}
	out := outOf(s)
	return textResult(fmt.Sprintf("Started session %s (provider %s, work directory %s).", s.ID, s.Provider, s.WorkDir)), out, nil
}

type listOut struct {
	Sessions  []sessionOut `json:"sessions"`
	Providers []string     `json:"providers" jsonschema:"the agents new sessions may run on, the default first"`
}

func (t *tools) listSessions(ctx context.Context, req *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, listOut, error) {
	key := t.keyOf(req.Extra)
	var list struct {
		Sessions []client.Session `json:"sessions"`
	}
	if err := t.api.Call(ctx, key, http.MethodGet, "/v1/sessions", nil, &list); err != nil {
		return nil, listOut{}, fmt.Errorf("list_sessions: %w", err)
	}
	var provs struct {
		Providers []string `json:"providers"`
	}
	if err := t.api.Call(ctx, key, http.MethodGet, "/v1/providers", nil, &provs); err != nil {
		return nil, listOut{}, fmt.Errorf("list_sessions: %w", err)
	}
	out := listOut{Sessions: []sessionOut{}, Providers: provs.Providers}
	for _, s := range list.Sessions {
		out.Sessions = append(out.Sessions, outOf(s))
	}
	return nil, out, nil
}

type interruptOut struct {
	SessionID   string `json:"session_id"`
	Interrupted bool   `json:"interrupted"`
}

func (t *tools) interrupt(ctx context.Context, req *sdk.CallToolRequest, in sessionRef) (*sdk.CallToolResult, interruptOut, error) {
	var r struct {
		Interrupted bool `json:"interrupted"`
	}
	if err := t.api.Call(ctx, t.keyOf(req.Extra), http.MethodPost, client.SessionPath(in.SessionID, "/interrupt"), nil, &r); err != nil {
		return nil, interruptOut{}, failure("interrupt", in.SessionID, err)
	}
	if !r.Interrupted {
		return nil, interruptOut{}, fmt.Errorf("interrupt: no turn is running in session %q", in.SessionID)
	}
	return textResult("Interrupted the turn of session " + in.SessionID + "."), interruptOut{SessionID: in.SessionID, Interrupted: true}, nil
}

type closeOut struct {
	SessionID string `json:"session_id"`
	Closed    bool   `json:"closed"`
}

func (t *tools) closeSession(ctx context.Context, req *sdk.CallToolRequest, in sessionRef) (*sdk.CallToolResult, closeOut, error) {
	if err := t.api.Call(ctx, t.keyOf(req.Extra), http.MethodDelete, client.SessionPath(in.SessionID), nil, nil); err != nil {
		return nil, closeOut{}, failure("close_session", in.SessionID, err)
	}
	return textResult("Closed session " + in.SessionID + "."), closeOut{SessionID: in.SessionID, Closed: true}, nil
}

type getEventsIn struct {
	SessionID string `json:"session_id" jsonschema:"the session's ID"`
	After     uint64 `json:"after,omitempty" jsonschema:"return the events numbered after this one (0: from the first)"`
	Limit     int    `json:"limit,omitempty" jsonschema:"the most events to return (default 100, at most 1000)"`
}

// eventOut is an event as the tools show it: what a model needs of it.
type eventOut struct {
	Seq      uint64         `json:"seq"`
	Type     string         `json:"type"`
	Text     string         `json:"text,omitempty"`
	Tool     string         `json:"tool,omitempty"`
	ToolID   string         `json:"tool_id,omitempty"`
	Input    map[string]any `json:"input,omitempty"`
	Status   string         `json:"status,omitempty"`
	FilePath string         `json:"file_path,omitempty"`
	Error    string         `json:"error,omitempty"`
	// Decision is a permission_decision's "allow" or "deny", AnsweredBy
	// and Channel who gave it and from which client.
	Decision   string    `json:"decision,omitempty"`
	AnsweredBy string    `json:"answered_by,omitempty"`
	Channel    string    `json:"channel,omitempty"`
	Time       time.Time `json:"time"`
}

// maxEventText bounds the text of one event in the tools' answers; the
// whole of it stays in the session's event log.
const maxEventText = 4000

func eventOf(ev *event.EventWithMeta) eventOut {
	o := eventOut{Seq: ev.Seq, Type: ev.EventType, Text: clip(ev.EventData, maxEventText), Input: ev.Input, Time: ev.Time}
	if m := ev.Meta; m != nil {
		o.Tool, o.ToolID, o.Status, o.FilePath, o.Error = m.ToolName, m.ToolID, m.Status, m.FilePath, m.ErrorMsg
	}
	if ev.Danger != nil && o.Text == "" {
		o.Text = ev.Danger.Reason
	}
	if p := ev.Permission; p != nil {
		if o.Tool == "" {
			o.Tool = p.ToolName
		}
		o.Decision = p.Decision
		if p.Answerer != nil {
			o.AnsweredBy, o.Channel = p.By, p.Channel
		}
	}
	return o
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf(" [... %d more bytes]", len(s)-cut)
}

type eventsOut struct {
	SessionID string     `json:"session_id"`
	Events    []eventOut `json:"events"`
	NextAfter uint64     `json:"next_after" jsonschema:"pass as after to read the events that follow"`
	More      bool       `json:"more" jsonschema:"true when the session has events after these"`
}

func (t *tools) getEvents(ctx context.Context, req *sdk.CallToolRequest, in getEventsIn) (*sdk.CallToolResult, eventsOut, error) {
	switch {
	case in.Limit < 0:
		return nil, eventsOut{}, errors.New("get_events: limit must be positive")
	case in.Limit == 0:
		in.Limit = 100
	case in.Limit > 1000:
		in.Limit = 1000
	}
	evs, s, err := t.api.Events(ctx, t.keyOf(req.Extra), in.SessionID, in.After, in.Limit)
	if err != nil {
		return nil, eventsOut{}, failure("get_events", in.SessionID, err)
	}
	out := eventsOut{SessionID: in.SessionID, Events: []eventOut{}, NextAfter: in.After}
	for _, ev := range evs {
		out.Events = append(out.Events, eventOf(ev))
		out.NextAfter = ev.Seq
	}
	out.More = out.NextAfter < s.LastEventID
	return nil, out, nil
}

func (t *tools) readSession(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	uri := req.Params.URI
	id, ok := strings.CutPrefix(uri, sessionURIPrefix)
	if !ok || id == "" || strings.Contains(id, "/") {
		return nil, sdk.ResourceNotFoundError(uri)
	}
	key := t.keyOf(req.Extra)
	var view json.RawMessage
	if err := t.api.Call(ctx, key, http.MethodGet, client.SessionPath(id), nil, &view); err != nil {
		if errors.Is(err, client.ErrNotFound) {
			return nil, sdk.ResourceNotFoundError(uri)
		}
		return nil, err
	}
	evs, _, err := t.api.Events(ctx, key, id, 0, 1000)
	if err != nil {
		return nil, failure("reading "+uri, id, err)
	}
	conv := struct {
		Session json.RawMessage `json:"session"`
		Events  []eventOut      `json:"events"`
	}{Session: view, Events: []eventOut{}}
	for _, ev := range evs {
		conv.Events = append(conv.Events, eventOf(ev))
	}
	b, err := json.Marshal(conv)
	if err != nil {
		return nil, err
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(b)}}}, nil
}

func textResult(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}

// uniq appends v to list unless it is there or empty.
func uniq(list []string, v string) []string {
	if v == "" || slices.Contains(list, v) {
		return list
	}
	return append(list, v)
}
