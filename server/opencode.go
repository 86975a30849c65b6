package server

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/hub"
	"github.com/hotplex/hotplex/store"
)

// The OpenCode-compatible API: the subset of OpenCode's server that its
// clients and SDK (@opencode-ai/sdk) need to hold a conversation — session
// CRUD, prompts answered synchronously or as events, abort, the event
// streams, and the configuration and providers the clients read at start.
// Sessions are the same as /v1's, with the same API keys and tenancy.

func (s *Server) openCodeOperations() []operation {
	type providers struct {
		Providers []ocProvider      `json:"providers"`
		Default   map[string]string `json:"default"`
	}
	type providerList struct {
		All       []ocProviderListing `json:"all"`
		Default   map[string]string   `json:"default"`
		Connected []string            `json:"connected"`
	}
	return []operation{
		{method: "GET", path: "/session", summary: "OpenCode: list the caller's sessions", handler: s.ocListSessions, response: []ocSession{}},
		{method: "POST", path: "/session", summary: "OpenCode: create a session", handler: s.ocCreateSession, request: ocCreateRequest{}, response: ocSession{}},
		{method: "GET", path: "/session/status", summary: "OpenCode: the caller's sessions that are not idle", handler: s.ocSessionStatus, response: map[string]ocStatus{}},
		{method: "GET", path: "/session/{id}", summary: "OpenCode: get a session", handler: s.ocGetSession, response: ocSession{}},
		{method: "PATCH", path: "/session/{id}", summary: "OpenCode: rename a session", handler: s.ocUpdateSession, request: ocUpdateRequest{}, response: ocSession{}},
		{method: "DELETE", path: "/session/{id}", summary: "OpenCode: end a session and delete it with its messages", handler: s.ocDeleteSession, response: true},
		{method: "GET", path: "/session/{id}/message", summary: "OpenCode: the session's messages with their parts (?limit=N: the newest N)", handler: s.ocMessages, response: []ocMessage{}},
		{method: "POST", path: "/session/{id}/message", summary: "OpenCode: send a prompt; answers with the assistant message when the turn ends", handler: s.ocPrompt, request: ocPromptRequest{}, response: ocMessage{}, long: true},
		{method: "POST", path: "/session/{id}/prompt_async", summary: "OpenCode: send a prompt; the answer arrives as events", handler: s.ocPromptAsync, request: ocPromptRequest{}, status: http.StatusNoContent},
		{method: "POST", path: "/session/{id}/abort", summary: "OpenCode: interrupt the running turn", handler: s.ocAbort, response: true},
		{method: "POST", path: "/session/{id}/permissions/{permissionID}", summary: "OpenCode: answer a tool use waiting for a person (once, always or reject)", handler: s.ocAnswerPermission, request: ocPermissionReply{}, response: true},
		{method: "GET", path: "/event", summary: "OpenCode: events of the caller's sessions (SSE, data only)", handler: s.ocEvents, stream: true, event: ocEvent{}},
		{method: "GET", path: "/global/event", summary: "OpenCode: events of the caller's sessions with their directory (SSE, data only)", handler: s.ocGlobalEvents, stream: true, event: ocGlobalEvent{}},
		{method: "GET", path: "/config", summary: "OpenCode: configuration", handler: s.ocConfig, response: ocConfig{}},
		{method: "GET", path: "/config/providers", summary: "OpenCode: providers and their default models", handler: s.ocConfigProviders, response: providers{}},
		{method: "GET", path: "/provider", summary: "OpenCode: every provider, the default models and the connected providers", handler: s.ocProviderList, response: providerList{}},
	}
}

// ocSession is a session as OpenCode shows it.
type ocSession struct {
	ID        string        `json:"id"`
	ProjectID string        `json:"projectID"`
	Directory string        `json:"directory"`
	Title     string        `json:"title"`
	Version   string        `json:"version"`
	Time      ocSessionTime `json:"time"`
}

type ocSessionTime struct {
	Created int64 `json:"created"`
	Updated int64 `json:"updated"`
}

// ocProjectID is the one project every HotPlex session belongs to.
const ocProjectID = "global"

func ocSessionOf(st store.Session) ocSession {
	title := st.Title
	if title == "" {
		title = "Session " + st.CreatedAt.UTC().Format(time.RFC3339)
	}
	return ocSession{ID: publicID(st), ProjectID: ocProjectID, Directory: st.WorkDir, Title: title, Version: "hotplex",
		Time: ocSessionTime{Created: st.CreatedAt.UnixMilli(), Updated: st.UpdatedAt.UnixMilli()}}
}

type ocCreateRequest struct {
	ParentID string `json:"parentID,omitempty"`
	Title    string `json:"title,omitempty"`
}

type ocUpdateRequest struct {
	Title string `json:"title,omitempty"`
}

// ocPromptRequest is a prompt: its text parts are joined into the turn's
// prompt; other fields OpenCode clients send are accepted and ignored.
type ocPromptRequest struct {
	MessageID string          `json:"messageID,omitempty"`
	Model     *ocModelRef     `json:"model,omitempty"`
	Agent     string          `json:"agent,omitempty"`
	NoReply   bool            `json:"noReply,omitempty"`
	System    string          `json:"system,omitempty"`
	Tools     map[string]bool `json:"tools,omitempty"`
	Parts     []ocPartInput   `json:"parts"`
}

type ocPartInput struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
}

// readLooseJSON decodes a request body like readJSON, but accepts fields
// it does not know: OpenCode's clients send more than HotPlex uses.
func readLooseJSON(w http.ResponseWriter, r *http.Request, v any, optional bool) error {
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	b, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return errorf(http.StatusRequestEntityTooLarge, "too_large", "the request body is over 1 MiB")
		}
		return errorf(http.StatusBadRequest, "bad_request", "cannot read the request body: "+err.Error())
	}
	if len(strings.TrimSpace(string(b))) == 0 {
		if optional {
			return nil
		}
		return errorf(http.StatusBadRequest, "bad_request", "the request body is empty")
	}
	if err := json.Unmarshal(b, v); err != nil {
		return errorf(http.StatusBadRequest, "bad_request", "malformed JSON: "+err.Error())
	}
	return nil
}

func (s *Server) ocListSessions(w http.ResponseWriter, r *http.Request) {
	list, err := s.opts.Store.ListSessions(r.Context(), callerOf(r).ID)
	if err != nil {
		writeError(w, err)
		return
	}
	out := make([]ocSession, 0, len(list))
	for _, st := range list {
		out = append(out, ocSessionOf(st))
	}
	writeJSON(w, http.StatusOK, out)
}

func newOCSessionID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return fmt.Sprintf("ses_%x", b)
}

func (s *Server) ocCreateSession(w http.ResponseWriter, r *http.Request) {
	var req ocCreateRequest
	if err := readLooseJSON(w, r, &req, true); err != nil {
		writeError(w, err)
		return
	}
	if req.ParentID != "" {
		writeError(w, errorf(http.StatusBadRequest, "bad_request", "child sessions (parentID) are not supported"))
		return
	}
	st, err := s.addSession(r.Context(), callerOf(r), createSessionRequest{ID: newOCSessionID(), Title: req.Title})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, ocSessionOf(st))
}

func (s *Server) ocGetSession(w http.ResponseWriter, r *http.Request) {
	st, err := s.owned(r, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, ocSessionOf(st))
}

func (s *Server) ocUpdateSession(w http.ResponseWriter, r *http.Request) {
	st, err := s.owned(r, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	var req ocUpdateRequest
	if err := readLooseJSON(w, r, &req, false); err != nil {
		writeError(w, err)
		return
	}
	if req.Title != "" {
		// Read again just before writing: the recorder updates the
		// record's statistics as turns end.
		if st, err = s.opts.Store.GetSession(r.Context(), st.ID); err == nil {
			st.Title = req.Title
			err = s.opts.Store.PutSession(r.Context(), st)
		}
		if err != nil {
			writeError(w, err)
			return
		}
		if st, err = s.opts.Store.GetSession(r.Context(), st.ID); err != nil {
			writeError(w, err)
			return
		}
	}
	info := ocSessionOf(st)
	s.ocBus.publish(st.Owner, st.WorkDir, ocEvent{"session.updated", ocInfo{info}})
	writeJSON(w, http.StatusOK, info)
}

func (s *Server) ocDeleteSession(w http.ResponseWriter, r *http.Request) {
	st, err := s.owned(r, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	if err := s.removeSession(r.Context(), st); err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, true)
}

func (s *Server) ocSessionStatus(w http.ResponseWriter, r *http.Request) {
	c := callerOf(r)
	out := map[string]ocStatus{}
	for _, sess := range s.opts.Engine.ListActiveSessions() {
		// OpenCode's own word for a session running a turn is "busy".
		if sess.Status != engine.StatusRunning {
			continue
		}
		if st, err := s.ownedKey(r.Context(), c, sess.ID); err == nil {
			out[publicID(st)] = ocStatus{"busy"}
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// conversation reads a session's stored events back into OpenCode messages.
func (s *Server) conversation(ctx context.Context, st store.Session) (*ocConversation, error) {
	evs, err := s.opts.Store.Events(ctx, st.ID, 0, 0)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	c := &ocConversation{sessionID: publicID(st), provider: st.Provider, workDir: st.WorkDir}
	for _, e := range evs {
		if ev := decodeStored(e); ev != nil {
			c.apply(ev)
		}
	}
	return c, nil
}

func (s *Server) ocMessages(w http.ResponseWriter, r *http.Request) {
	st, err := s.owned(r, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	limit := 0
	if v := r.URL.Query().Get("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil || limit < 0 {
			writeError(w, errorf(http.StatusBadRequest, "bad_request", "limit must be a number of messages"))
			return
		}
	}
	c, err := s.conversation(r.Context(), st)
	if err != nil {
		writeError(w, err)
		return
	}
	msgs := c.messages()
	if limit > 0 && len(msgs) > limit {
		msgs = msgs[len(msgs)-limit:]
	}
	writeJSON(w, http.StatusOK, msgs)
}

// promptOf checks a prompt request and turns it into a turn's request.
func (s *Server) promptOf(w http.ResponseWriter, r *http.Request) (store.Session, messageRequest, error) {
	st, err := s.owned(r, r.PathValue("id"))
	if err != nil {
		return st, messageRequest{}, err
	}
	var req ocPromptRequest
	if err := readLooseJSON(w, r, &req, false); err != nil {
		return st, messageRequest{}, err
	}
	if req.NoReply {
		return st, messageRequest{}, errorf(http.StatusBadRequest, "bad_request", "noReply is not supported: every prompt runs a turn")
	}
	var texts []string
	for _, p := range req.Parts {
		switch p.Type {
		case "text":
			texts = append(texts, p.Text)
		default:
			return st, messageRequest{}, errorf(http.StatusBadRequest, "bad_request", "unsupported part type "+strconv.Quote(p.Type)+": only text parts are")
		}
	}
	mr := messageRequest{Prompt: strings.Join(texts, "\n"), TaskSystemPrompt: req.System}
	return st, mr, validPrompt(mr)
}

// ocTurnSink folds the events of one turn into OpenCode messages.
type ocTurnSink struct {
	conv *ocConversation
}

func (o *ocTurnSink) event(ev *hub.Event) error {
	o.conv.apply(ev.EventWithMeta)
	return nil
}
func (o *ocTurnSink) stored(store.Event) error { return nil }
func (o *ocTurnSink) notice(string, any) error { return nil }
func (o *ocTurnSink) keepAlive() error         { return nil }

func (s *Server) ocPrompt(w http.ResponseWriter, r *http.Request) {
	st, req, err := s.promptOf(w, r)
	if err != nil {
		writeError(w, err)
		return
	}
	out := &ocTurnSink{conv: &ocConversation{sessionID: publicID(st), provider: st.Provider, workDir: st.WorkDir}}
	turnErr := s.runTurn(r.Context(), st, req, out)
	t := out.conv.current()
	if n := len(out.conv.turns); t == nil && n > 0 {
		t = out.conv.turns[n-1]
	}
	if t == nil {
		if turnErr == nil {
			turnErr = errors.New("the turn produced no events")
		}
		writeError(w, turnHTTPError(turnErr))
		return
	}
	if turnErr != nil && t.reply.Error == nil {
		t.reply.Error = &ocError{"UnknownError", ocErrorDetail{turnErr.Error()}}
	}
	writeJSON(w, http.StatusOK, ocMessage{Info: t.reply, Parts: t.parts})
}

// ocPromptAsync starts a turn that belongs to the server and answers at
// once; the reply reaches the client through /event.
func (s *Server) ocPromptAsync(w http.ResponseWriter, r *http.Request) {
	st, req, err := s.promptOf(w, r)
	if err != nil {
		writeError(w, err)
		return
	}
	s.turns.Add(1)
	go func() {
		defer s.turns.Done()
		out := &ocTurnSink{conv: &ocConversation{sessionID: publicID(st), provider: st.Provider, workDir: st.WorkDir}}
		err := s.runTurn(s.ctx, st, req, out)
		if err != nil && len(out.conv.turns) == 0 {
			// The turn never started (busy, refused): nothing else tells
			// the client.
			s.ocBus.publish(st.Owner, st.WorkDir, ocEvent{"session.error", ocSessionError{publicID(st), &ocError{"UnknownError", ocErrorDetail{err.Error()}}}})
			s.log.Warn("prompt not run", "session", st.ID, "err", err)
		}
	}()
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) ocAbort(w http.ResponseWriter, r *http.Request) {
	st, err := s.owned(r, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	ok, err := s.opts.Engine.Interrupt(st.ID)
	if err != nil && !errors.Is(err, engine.ErrSessionNotFound) {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, ok)
}

// ocPermissionReply answers a permission request: "once" and "always"
// allow this tool use (HotPlex asks again next time), "reject" denies it.
type ocPermissionReply struct {
	Response string `json:"response"`
}

func (s *Server) ocAnswerPermission(w http.ResponseWriter, r *http.Request) {
	st, err := s.owned(r, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	var req ocPermissionReply
	if err := readLooseJSON(w, r, &req, false); err != nil {
		writeError(w, err)
		return
	}
	var allow bool
	switch req.Response {
	case "once", "always":
		allow = true
	case "reject":
	default:
		writeError(w, errorf(http.StatusBadRequest, "bad_request", `response must be "once", "always" or "reject"`))
		return
	}
	if err := s.opts.Approvals.Answer(st.ID, r.PathValue("permissionID"), allow, ""); err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, true)
}

// ocConfig is the configuration OpenCode clients read: the default model.
type ocConfig struct {
	Model    string `json:"model"`
	Share    string `json:"share"`
	Username string `json:"username,omitempty"`
}

func (s *Server) ocConfig(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, ocConfig{Model: s.defaultProvider() + "/default", Share: "disabled"})
}

func (s *Server) defaultProvider() string {
	if p := s.opts.Engine.Providers(); len(p) > 0 {
		return p[0]
	}
	return "claude"
}

// ocProvider is a HotPlex provider (an agent CLI) as an OpenCode provider
// with one model, "default": the agent's own choice of model.
type ocProvider struct {
	ID      string             `json:"id"`
	Name    string             `json:"name"`
	Source  string             `json:"source"`
	Env     []string           `json:"env"`
	Options map[string]any     `json:"options"`
	Models  map[string]ocModel `json:"models"`
}

type ocModel struct {
	ID           string            `json:"id"`
	ProviderID   string            `json:"providerID"`
	API          ocModelAPI        `json:"api"`
	Name         string            `json:"name"`
	Capabilities ocCapabilities    `json:"capabilities"`
	Cost         ocModelCost       `json:"cost"`
	Limit        ocModelLimit      `json:"limit"`
	Status       string            `json:"status"`
	Options      map[string]any    `json:"options"`
	Headers      map[string]string `json:"headers"`
}

type ocModelAPI struct {
	ID  string `json:"id"`
	URL string `json:"url"`
	NPM string `json:"npm"`
}

type ocCapabilities struct {
	Temperature bool         `json:"temperature"`
	Reasoning   bool         `json:"reasoning"`
	Attachment  bool         `json:"attachment"`
	ToolCall    bool         `json:"toolcall"`
	Input       ocModalities `json:"input"`
	Output      ocModalities `json:"output"`
}

type ocModalities struct {
	Text  bool `json:"text"`
	Audio bool `json:"audio"`
	Image bool `json:"image"`
	Video bool `json:"video"`
	PDF   bool `json:"pdf"`
}

type ocModelCost struct {
	Input  float64     `json:"input"`
	Output float64     `json:"output"`
	Cache  ocCacheCost `json:"cache"`
}

type ocCacheCost struct {
	Read  float64 `json:"read"`
	Write float64 `json:"write"`
}

type ocModelLimit struct {
	Context int `json:"context"`
	Output  int `json:"output"`
}

// ocProviderListing is a provider as GET /provider lists it.
type ocProviderListing struct {
	ID     string                   `json:"id"`
	Name   string                   `json:"name"`
	Env    []string                 `json:"env"`
	Models map[string]ocListedModel `json:"models"`
}

type ocListedModel struct {
	ID          string         `json:"id"`
	Name        string         `json:"name"`
	ReleaseDate string         `json:"release_date"`
	Attachment  bool           `json:"attachment"`
	Reasoning   bool           `json:"reasoning"`
	Temperature bool           `json:"temperature"`
	ToolCall    bool           `json:"tool_call"`
	Limit       ocModelLimit   `json:"limit"`
	Options     map[string]any `json:"options"`
}

func (s *Server) ocProviders() []ocProvider {
	var out []ocProvider
	for _, name := range s.opts.Engine.Providers() {
		m := ocModel{ID: "default", ProviderID: name, API: ocModelAPI{ID: "default"}, Name: name + " (the agent's default model)",
			Capabilities: ocCapabilities{Reasoning: true, ToolCall: true, Input: ocModalities{Text: true}, Output: ocModalities{Text: true}},
			Status:       "active", Options: map[string]any{}, Headers: map[string]string{}}
		out = append(out, ocProvider{ID: name, Name: name, Source: "custom", Env: []string{}, Options: map[string]any{}, Models: map[string]ocModel{"default": m}})
	}
	return out
}

func (s *Server) ocDefaults() map[string]string {
	d := map[string]string{}
	for _, name := range s.opts.Engine.Providers() {
		d[name] = "default"
	}
	return d
}

func (s *Server) ocConfigProviders(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"providers": s.ocProviders(), "default": s.ocDefaults()})
}

func (s *Server) ocProviderList(w http.ResponseWriter, _ *http.Request) {
	all := []ocProviderListing{}
	connected := []string{}
	for _, p := range s.ocProviders() {
		m := p.Models["default"]
		all = append(all, ocProviderListing{ID: p.ID, Name: p.Name, Env: p.Env, Models: map[string]ocListedModel{"default": {
			ID: m.ID, Name: m.Name, Reasoning: true, ToolCall: true, Options: map[string]any{}}}})
		connected = append(connected, p.ID)
	}
	writeJSON(w, http.StatusOK, map[string]any{"all": all, "default": s.ocDefaults(), "connected": connected})
}
