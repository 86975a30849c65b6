// Package opencode serves the OpenCode-compatible API: the subset of
// OpenCode's server that its SDK (@opencode-ai/sdk), its CLI
// (`opencode run --attach`) and its TUI (`opencode attach`) need to hold a
// conversation — session CRUD, prompts answered synchronously or as
// events, abort, permission requests and replies, the event streams, and
// what the programs read at start (configuration, providers, agents,
// paths, project). Each HotPlex agent is an OpenCode provider with one
// model. Sessions are the daemon's own, with the same API keys and
// tenancy as /v1: the daemon's HTTP server mounts the routes behind its
// authentication (which takes the key as a Basic password here, the way
// OpenCode's programs send it) and lends the API what it needs through
// Host.
package opencode

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/hub"
	"github.com/hotplex/hotplex/store"
)

// Caller is the API key a request came with.
type Caller struct {
	ID    string
	Admin bool
}

// Host is what the API borrows from the daemon's HTTP server: who is
// calling, the sessions they own, turns, and the server's error format
// and lifetime.
type Host interface {
	// Caller is the key of a request the server authenticated.
	Caller(r *http.Request) Caller
	// Session returns c's session of public ID id; another owner's is
	// not found.
	Session(ctx context.Context, c Caller, id string) (store.Session, error)
	// SessionByKey returns the session of daemon-wide key key (as events
	// name it) if c may see it.
	SessionByKey(ctx context.Context, c Caller, key string) (store.Session, error)
	// CreateSession creates a session owned by c, as POST /v1/sessions
	// does; the host calls SessionCreated.
	CreateSession(ctx context.Context, c Caller, req NewSession) (store.Session, error)
	// DeleteSession deletes a session with what it left; the host calls
	// SessionDeleted.
	DeleteSession(ctx context.Context, st store.Session) error
	// RunTurn runs a turn on st and hands its events to onEvent, in
	// order, until its last; it returns the turn's error. mode is as /v1
	// takes it: a prompt sent while a turn runs is queued ("" or
	// "queue") or steered into that turn where the agent can ("steer").
	RunTurn(ctx context.Context, st store.Session, prompt, system, mode string, onEvent func(*event.EventWithMeta)) error
	// Pending lists the tool uses of st waiting for a person.
	Pending(st store.Session) []Permission
	// Interrupt interrupts st's turn, wherever it runs, and reports
	// whether one was running.
	Interrupt(ctx context.Context, st store.Session) (bool, error)
	// AnswerPermission allows or denies, for c, a tool use of st waiting
	// for a person; one answered already gets an already_answered error.
	AnswerPermission(c Caller, st store.Session, requestID string, allow bool) error
	// Answered returns the already_answered error of a request of c's
	// that was settled recently on this node, or nil.
	Answered(ctx context.Context, c Caller, requestID string) error
	// SetProvider moves a session that never ran a turn to another agent
	// CLI; the session's record comes back. A session that has run, or
	// whose first turn has begun, keeps its agent: the error is then
	// ErrAgentChosen.
	SetProvider(ctx context.Context, st store.Session, provider string) (store.Session, error)
	// Go runs f on a goroutine the server waits for when it shuts down;
	// ctx ends then.
	Go(f func(ctx context.Context))
	// Error is an error the server answers with status and code.
	Error(status int, code, msg string) error
	// WriteError answers with err in the server's error format.
	WriteError(w http.ResponseWriter, err error)
	// TurnError is the error the server answers with for a turn that did
	// not run: its status says why (busy, overloaded, blocked...).
	TurnError(err error) error
}

// Permission is a tool use waiting for a person.
type Permission struct {
	ID, Tool, CallID string
	Input            map[string]any
}

// NewSession is a session to create.
type NewSession struct {
	ID, Title, Provider string
	// Ask makes the session ask a person before each tool use.
	Ask bool
}

// Options wire an API to the daemon's parts.
type Options struct {
	Host   Host
	Engine *engine.Engine
	Hub    *hub.Hub
	Store  store.Store
	Logger *slog.Logger
	// KeepAlive is the interval of keep-alive comments on event streams.
	KeepAlive time.Duration
	// Done closes when the server shuts down; event streams end then.
	Done <-chan struct{}
	// WorkDirRoot is the root of the owners' trees of work directories.
	WorkDirRoot string
}

// API is the OpenCode-compatible API.
type API struct {
	host   Host
	engine *engine.Engine
	hub    *hub.Hub
	store  store.Store
	log    *slog.Logger
	every  time.Duration
	done   <-chan struct{}
	// workDirRoot is the root of the owners' trees of work directories.
	workDirRoot string
	bus         ocBus // OpenCode events that are not a session's own
}

// New returns the API; mount its Routes.
func New(o Options) *API {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.KeepAlive <= 0 {
		o.KeepAlive = 15 * time.Second
	}
	return &API{host: o.Host, engine: o.Engine, hub: o.Hub, store: o.Store, log: o.Logger, every: o.KeepAlive, done: o.Done, workDirRoot: o.WorkDirRoot}
}

// Route is one endpoint, described for the router and the OpenAPI
// document alike.
type Route struct {
	Method, Path, Summary string
	Handler               http.HandlerFunc
	Request               any  // a value of the JSON body type, or nil
	Response              any  // a value of the JSON response type, or nil
	Status                int  // success status (default 200)
	Stream                bool // the response is an SSE stream of Event
	Long                  bool // the response may take as long as a turn
	Event                 any  // the type of a stream's data
}

// SessionCreated tells OpenCode clients of a new session, whichever API
// made it.
func (a *API) SessionCreated(st store.Session) {
	a.bus.publish(st.Owner, st.WorkDir, ocEvent{"session.created", ocInfo{ocSessionOf(st)}})
}

// SessionDeleted tells OpenCode clients a session is gone.
func (a *API) SessionDeleted(st store.Session) {
	a.bus.publish(st.Owner, st.WorkDir, ocEvent{"session.deleted", ocInfo{ocSessionOf(st)}})
}

// Routes are the API's endpoints; every one needs an API key.
func (a *API) Routes() []Route {
	type providers struct {
		Providers []ocProvider      `json:"providers"`
		Default   map[string]string `json:"default"`
	}
	type providerList struct {
		All       []ocProviderListing `json:"all"`
		Default   map[string]string   `json:"default"`
		Connected []string            `json:"connected"`
	}
	return append([]Route{
		{Method: "GET", Path: "/session", Summary: "OpenCode: list the caller's sessions", Handler: a.ocListSessions, Response: []ocSession{}},
		{Method: "POST", Path: "/session", Summary: "OpenCode: create a session", Handler: a.ocCreateSession, Request: ocCreateRequest{}, Response: ocSession{}},
		{Method: "GET", Path: "/session/status", Summary: "OpenCode: the caller's sessions that are not idle", Handler: a.ocSessionStatus, Response: map[string]ocStatus{}},
		{Method: "GET", Path: "/session/{id}", Summary: "OpenCode: get a session", Handler: a.ocGetSession, Response: ocSession{}},
		{Method: "PATCH", Path: "/session/{id}", Summary: "OpenCode: rename a session", Handler: a.ocUpdateSession, Request: ocUpdateRequest{}, Response: ocSession{}},
		{Method: "DELETE", Path: "/session/{id}", Summary: "OpenCode: end a session and delete it with its messages", Handler: a.ocDeleteSession, Response: true},
		{Method: "GET", Path: "/session/{id}/message", Summary: "OpenCode: the session's messages with their parts (?limit=N: the newest N)", Handler: a.ocMessages, Response: []ocMessage{}},
		{Method: "POST", Path: "/session/{id}/message", Summary: "OpenCode: send a prompt; answers with the assistant message when the turn ends", Handler: a.ocPrompt, Request: ocPromptRequest{}, Response: ocMessage{}, Long: true},
		{Method: "POST", Path: "/session/{id}/prompt_async", Summary: "OpenCode: send a prompt; the answer arrives as events", Handler: a.ocPromptAsync, Request: ocPromptRequest{}, Status: http.StatusNoContent},
		{Method: "POST", Path: "/session/{id}/abort", Summary: "OpenCode: interrupt the running turn", Handler: a.ocAbort, Response: true},
		{Method: "POST", Path: "/session/{id}/permissions/{permissionID}", Summary: "OpenCode: answer a tool use waiting for a person (once, always or reject)", Handler: a.ocAnswerPermission, Request: ocPermissionReply{}, Response: true},
		{Method: "GET", Path: "/event", Summary: "OpenCode: events of the caller's sessions (SSE, data only)", Handler: a.ocEvents, Stream: true, Event: ocEvent{}},
		{Method: "GET", Path: "/global/event", Summary: "OpenCode: events of the caller's sessions with their directory (SSE, data only)", Handler: a.ocGlobalEvents, Stream: true, Event: ocGlobalEvent{}},
		{Method: "GET", Path: "/config", Summary: "OpenCode: configuration", Handler: a.ocConfig, Response: ocConfig{}},
		{Method: "GET", Path: "/config/providers", Summary: "OpenCode: providers and their default models", Handler: a.ocConfigProviders, Response: providers{}},
		{Method: "GET", Path: "/provider", Summary: "OpenCode: every provider, the default models and the connected providers", Handler: a.ocProviderList, Response: providerList{}},
	}, a.appRoutes()...)
}

// ocSession is a session as OpenCode shows it.
type ocSession struct {
	ID        string        `json:"id"`
	Slug      string        `json:"slug"`
	ProjectID string        `json:"projectID"`
	Directory string        `json:"directory"`
	Title     string        `json:"title"`
	Version   string        `json:"version"`
	Time      ocSessionTime `json:"time"`
	// Model is the session's agent CLI as OpenCode's model choice.
	Model ocSessionModel `json:"model"`
}

type ocSessionModel struct {
	ID         string `json:"id"`
	ProviderID string `json:"providerID"`
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
	return ocSession{ID: publicID(st), Slug: publicID(st), ProjectID: ocProjectID, Directory: st.WorkDir, Title: title, Version: "hotplex",
		Time:  ocSessionTime{Created: st.CreatedAt.UnixMilli(), Updated: st.UpdatedAt.UnixMilli()},
		Model: ocSessionModel{ID: "default", ProviderID: st.Provider}}
}

type ocCreateRequest struct {
	ParentID string `json:"parentID,omitempty"`
	Title    string `json:"title,omitempty"`
	// Model names the session's agent CLI as its provider.
	Model *ocSessionModel `json:"model,omitempty"`
	// Permission with any rule whose action is "ask" makes a session
	// that asks a person before each tool use.
	Permission []ocRule `json:"permission,omitempty"`
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
	// Mode is HotPlex's own: what a prompt sent while a turn runs does
	// ("queue", the default, or "steer"). OpenCode's clients send none.
	Mode string `json:"mode,omitempty"`
}

type ocPartInput struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
	// URL is a file part's: OpenCode's @ mentions send file:// URLs.
	URL string `json:"url,omitempty"`
}

// maxBody bounds request bodies.
const maxBody = 1 << 20

// readLooseJSON decodes a request body of at most maxBody bytes,
// accepting fields it does not know: OpenCode's clients send more than
// HotPlex uses.
func (a *API) readLooseJSON(w http.ResponseWriter, r *http.Request, v any, optional bool) error {
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	b, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return a.host.Error(http.StatusRequestEntityTooLarge, "too_large", "the request body is over 1 MiB")
		}
		return a.host.Error(http.StatusBadRequest, "bad_request", "cannot read the request body: "+err.Error())
	}
	if len(strings.TrimSpace(string(b))) == 0 {
		if optional {
			return nil
		}
		return a.host.Error(http.StatusBadRequest, "bad_request", "the request body is empty")
	}
	if err := json.Unmarshal(b, v); err != nil {
		return a.host.Error(http.StatusBadRequest, "bad_request", "malformed JSON: "+err.Error())
	}
	return nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// publicID is the ID the session's owner knows it by.
func publicID(st store.Session) string {
	if st.PublicID != "" {
		return st.PublicID
	}
	return st.ID
}

// owned is the caller's session the request's path names.
func (a *API) owned(r *http.Request) (store.Session, error) {
	return a.host.Session(r.Context(), a.host.Caller(r), r.PathValue("id"))
}

func (a *API) ocListSessions(w http.ResponseWriter, r *http.Request) {
	list, err := a.store.ListSessions(r.Context(), a.host.Caller(r).ID)
	if err != nil {
		a.writeError(w, err)
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

func (a *API) ocCreateSession(w http.ResponseWriter, r *http.Request) {
	var req ocCreateRequest
	if err := a.readLooseJSON(w, r, &req, true); err != nil {
		a.writeError(w, err)
		return
	}
	if req.ParentID != "" {
		a.writeError(w, a.host.Error(http.StatusBadRequest, "bad_request", "child sessions (parentID) are not supported"))
		return
	}
	ns := NewSession{ID: newOCSessionID(), Title: req.Title}
	if req.Model != nil && a.isProvider(req.Model.ProviderID) {
		ns.Provider = req.Model.ProviderID
	}
	ns.Ask = slices.ContainsFunc(req.Permission, func(r ocRule) bool { return r.Action == "ask" })
	st, err := a.host.CreateSession(r.Context(), a.host.Caller(r), ns)
	if err != nil {
		a.writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, ocSessionOf(st))
}

func (a *API) ocGetSession(w http.ResponseWriter, r *http.Request) {
	st, err := a.owned(r)
	if err != nil {
		a.writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, ocSessionOf(st))
}

func (a *API) ocUpdateSession(w http.ResponseWriter, r *http.Request) {
	st, err := a.owned(r)
	if err != nil {
		a.writeError(w, err)
		return
	}
	var req ocUpdateRequest
	if err := a.readLooseJSON(w, r, &req, false); err != nil {
		a.writeError(w, err)
		return
	}
	if req.Title != "" {
		// Read again just before writing: the recorder updates the
		// record's statistics as turns end.
		if st, err = a.store.GetSession(r.Context(), st.ID); err == nil {
			st.Title = req.Title
			err = a.store.PutSession(r.Context(), st)
		}
		if err != nil {
			a.writeError(w, err)
			return
		}
		if st, err = a.store.GetSession(r.Context(), st.ID); err != nil {
			a.writeError(w, err)
			return
		}
	}
	info := ocSessionOf(st)
	a.bus.publish(st.Owner, st.WorkDir, ocEvent{"session.updated", ocInfo{info}})
	writeJSON(w, http.StatusOK, info)
}

func (a *API) ocDeleteSession(w http.ResponseWriter, r *http.Request) {
	st, err := a.owned(r)
	if err != nil {
		a.writeError(w, err)
		return
	}
	if err := a.host.DeleteSession(r.Context(), st); err != nil {
		a.writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, true)
}

func (a *API) ocSessionStatus(w http.ResponseWriter, r *http.Request) {
	c := a.host.Caller(r)
	out := map[string]ocStatus{}
	for _, sess := range a.engine.ListActiveSessions() {
		// OpenCode's own word for a session running a turn is "busy".
		if sess.Status != engine.StatusRunning {
			continue
		}
		if st, err := a.host.SessionByKey(r.Context(), c, sess.ID); err == nil {
			out[publicID(st)] = ocStatus{"busy"}
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// conversation reads a session's stored events back into OpenCode messages.
func (a *API) conversation(ctx context.Context, st store.Session) (*ocConversation, error) {
	evs, err := a.store.Events(ctx, st.ID, 0, 0)
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

func (a *API) ocMessages(w http.ResponseWriter, r *http.Request) {
	st, err := a.owned(r)
	if err != nil {
		a.writeError(w, err)
		return
	}
	limit := 0
	if v := r.URL.Query().Get("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil || limit < 0 {
			a.writeError(w, a.host.Error(http.StatusBadRequest, "bad_request", "limit must be a number of messages"))
			return
		}
	}
	c, err := a.conversation(r.Context(), st)
	if err != nil {
		a.writeError(w, err)
		return
	}
	msgs := c.messages()
	if limit > 0 && len(msgs) > limit {
		msgs = msgs[len(msgs)-limit:]
	}
	writeJSON(w, http.StatusOK, msgs)
}

// prompt is a turn an OpenCode prompt asks for.
type prompt struct {
	text, system, mode string
}

// promptOf checks a prompt request and turns it into a turn's prompt.
func (a *API) promptOf(w http.ResponseWriter, r *http.Request) (store.Session, prompt, error) {
	st, err := a.owned(r)
	if err != nil {
		return st, prompt{}, err
	}
	var req ocPromptRequest
	if err := a.readLooseJSON(w, r, &req, false); err != nil {
		return st, prompt{}, err
	}
	if req.NoReply {
		return st, prompt{}, a.host.Error(http.StatusBadRequest, "bad_request", "noReply is not supported: every prompt runs a turn")
	}
	if req.Mode != "" && req.Mode != "queue" && req.Mode != "steer" {
		return st, prompt{}, a.host.Error(http.StatusBadRequest, "bad_request", `mode must be "queue" or "steer", not `+strconv.Quote(req.Mode))
	}
	var texts, files []string
	for _, p := range req.Parts {
		switch p.Type {
		case "text":
			texts = append(texts, p.Text)
		case "file":
			f, err := a.mentioned(st, p.URL)
			if err != nil {
				return st, prompt{}, err
			}
			files = append(files, f)
		default:
			return st, prompt{}, a.host.Error(http.StatusBadRequest, "bad_request", "unsupported part type "+strconv.Quote(p.Type)+": only text parts and files of the work directory are")
		}
	}
	p := prompt{text: strings.Join(texts, "\n"), system: req.System, mode: req.Mode}
	for _, f := range files {
		// The agent reads a mentioned file itself, in its work
		// directory; the prompt names it if its text does not.
		if !strings.Contains(p.text, "@"+f) {
			p.text += "\n@" + f
		}
	}
	if strings.TrimSpace(p.text) == "" {
		return st, p, a.host.Error(http.StatusBadRequest, "bad_request", "the prompt is empty")
	}
	if m := req.Model; m != nil && m.ProviderID != st.Provider && st.LastSeq == 0 && a.isProvider(m.ProviderID) {
		// The model picked for a new conversation chooses its agent;
		// once it has run, its agent stays. The stored record can lag
		// the turn that ran (its events are written behind it): the host
		// knows, and then the prompt goes to the agent the session has.
		moved, err := a.host.SetProvider(r.Context(), st, m.ProviderID)
		switch {
		case err == nil:
			st = moved
		case !errors.Is(err, ErrAgentChosen):
			return st, p, err
		}
	}
	return st, p, nil
}

// run runs a turn and folds its events into OpenCode messages; end is
// the number of the turn's last event, its result (0 if it had none).
// ErrAgentChosen is SetProvider's error for a session whose first turn
// has begun: its agent is chosen for good.
var ErrAgentChosen = errors.New("the session's agent is chosen by its first turn")

func (a *API) run(ctx context.Context, st store.Session, p prompt) (conv *ocConversation, end uint64, err error) {
	conv = &ocConversation{sessionID: publicID(st), provider: st.Provider, workDir: st.WorkDir}
	err = a.host.RunTurn(ctx, st, p.text, p.system, p.mode, func(ev *event.EventWithMeta) {
		conv.apply(ev)
		if ev.EventType == event.TypeResult {
			end = ev.Seq
		}
	})
	return conv, end, err
}

// How long a synchronous prompt waits for its caller's event streams.
// OpenCode's CLI opens its stream as it sends the prompt, prints the turn
// as the stream shows it, and exits when the prompt answers: a turn that
// ran before the stream opened, or an answer that overtook the stream,
// would print nothing.
const (
	// streamGrace bounds the wait for a stream when the caller has none
	// open, before the turn starts.
	streamGrace = time.Second
	// deliveryBound bounds the wait, after the turn, for the caller's
	// open streams to have written its end.
	deliveryBound = 5 * time.Second
	// deliveryLag is how long the answer then waits more: the stream's
	// last bytes and the answer travel on two connections, through
	// whatever proxies stand between, and the CLI stops reading its
	// stream once the answer is in.
	deliveryLag = 100 * time.Millisecond
)

func (a *API) ocPrompt(w http.ResponseWriter, r *http.Request) {
	st, p, err := a.promptOf(w, r)
	if err != nil {
		a.writeError(w, err)
		return
	}
	caller := a.host.Caller(r).ID
	a.bus.awaitStream(r.Context(), caller, streamGrace)
	streams := a.bus.streamsOf(caller)
	conv, end, turnErr := a.run(r.Context(), st, p)
	if end > 0 && len(streams) > 0 {
		a.bus.awaitEnd(r.Context(), streams, st.ID, end, deliveryBound)
		select {
		case <-time.After(deliveryLag):
		case <-r.Context().Done():
		}
	}
	t := conv.current()
	if n := len(conv.turns); t == nil && n > 0 {
		t = conv.turns[n-1]
	}
	if t == nil {
		if turnErr == nil {
			turnErr = errors.New("the turn produced no events")
		}
		a.writeError(w, a.host.TurnError(turnErr))
		return
	}
	if turnErr != nil && t.reply.Error == nil {
		t.reply.Error = &ocError{"UnknownError", ocErrorDetail{turnErr.Error()}}
	}
	writeJSON(w, http.StatusOK, ocMessage{Info: t.reply, Parts: t.parts})
}

// ocPromptAsync starts a turn that belongs to the server and answers at
// once; the reply reaches the client through /event.
func (a *API) ocPromptAsync(w http.ResponseWriter, r *http.Request) {
	st, p, err := a.promptOf(w, r)
	if err != nil {
		a.writeError(w, err)
		return
	}
	a.host.Go(func(ctx context.Context) {
		conv, _, err := a.run(ctx, st, p)
		if err != nil && len(conv.turns) == 0 {
			// The turn never started (busy, refused): nothing else tells
			// the client.
			a.bus.publish(st.Owner, st.WorkDir, ocEvent{"session.error", ocSessionError{publicID(st), &ocError{"UnknownError", ocErrorDetail{err.Error()}}}})
			a.log.Warn("prompt not run", "session", st.ID, "err", err)
		}
	})
	w.WriteHeader(http.StatusNoContent)
}

func (a *API) ocAbort(w http.ResponseWriter, r *http.Request) {
	st, err := a.owned(r)
	if err != nil {
		a.writeError(w, err)
		return
	}
	ok, err := a.host.Interrupt(r.Context(), st)
	if err != nil {
		a.writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, ok)
}

// ocPermissionReply answers a permission request: "once" and "always"
// allow this tool use (HotPlex asks again next time), "reject" denies it.
type ocPermissionReply struct {
	Response string `json:"response"`
}

func (a *API) ocAnswerPermission(w http.ResponseWriter, r *http.Request) {
	st, err := a.owned(r)
	if err != nil {
		a.writeError(w, err)
		return
	}
	var req ocPermissionReply
	if err := a.readLooseJSON(w, r, &req, false); err != nil {
		a.writeError(w, err)
		return
	}
	var allow bool
	switch req.Response {
	case "once", "always":
		allow = true
	case "reject":
	default:
		a.writeError(w, a.host.Error(http.StatusBadRequest, "bad_request", `response must be "once", "always" or "reject"`))
		return
	}
	if err := a.host.AnswerPermission(a.host.Caller(r), st, r.PathValue("permissionID"), allow); err != nil {
		a.writeError(w, err)
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

func (a *API) ocConfig(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, ocConfig{Model: a.defaultProvider() + "/default", Share: "disabled"})
}

// isProvider tells whether name is one of HotPlex's agents.
func (a *API) isProvider(name string) bool {
	return slices.Contains(a.engine.Providers(), name)
}

func (a *API) defaultProvider() string {
	if p := a.engine.Providers(); len(p) > 0 {
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

func (a *API) ocProviders() []ocProvider {
	var out []ocProvider
	for _, name := range a.engine.Providers() {
		m := ocModel{ID: "default", ProviderID: name, API: ocModelAPI{ID: "default"}, Name: name + " (the agent's default model)",
			Capabilities: ocCapabilities{Reasoning: true, ToolCall: true, Input: ocModalities{Text: true}, Output: ocModalities{Text: true}},
			Status:       "active", Options: map[string]any{}, Headers: map[string]string{}}
		out = append(out, ocProvider{ID: name, Name: name, Source: "custom", Env: []string{}, Options: map[string]any{}, Models: map[string]ocModel{"default": m}})
	}
	return out
}

func (a *API) ocDefaults() map[string]string {
	d := map[string]string{}
	for _, name := range a.engine.Providers() {
		d[name] = "default"
	}
	return d
}

func (a *API) ocConfigProviders(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"providers": a.ocProviders(), "default": a.ocDefaults()})
}

func (a *API) ocProviderList(w http.ResponseWriter, _ *http.Request) {
	all := []ocProviderListing{}
	connected := []string{}
	for _, p := range a.ocProviders() {
		m := p.Models["default"]
		all = append(all, ocProviderListing{ID: p.ID, Name: p.Name, Env: p.Env, Models: map[string]ocListedModel{"default": {
			ID: m.ID, Name: m.Name, Reasoning: true, ToolCall: true, Options: map[string]any{}}}})
		connected = append(connected, p.ID)
	}
	writeJSON(w, http.StatusOK, map[string]any{"all": all, "default": a.ocDefaults(), "connected": connected})
}

// mentioned is the path, relative to st's work directory, of a file an
// OpenCode prompt mentions (a file:// URL); files elsewhere, and other
// attachments, are refused.
func (a *API) mentioned(st store.Session, raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "file" || st.WorkDir == "" {
		return "", a.host.Error(http.StatusBadRequest, "bad_request", "a file part must be a file:// URL of a file in the session's work directory; other attachments are not supported")
	}
	rel, err := filepath.Rel(st.WorkDir, filepath.Clean(u.Path))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", a.host.Error(http.StatusBadRequest, "bad_request", "the file "+strconv.Quote(u.Path)+" is not in the session's work directory")
	}
	return filepath.ToSlash(rel), nil
}
