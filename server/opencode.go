package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/hub"
	"github.com/hotplex/hotplex/server/opencode"
	"github.com/hotplex/hotplex/store"
)

// openCodeHost lends the OpenCode-compatible API the server's sessions,
// turns, errors and lifetime.
type openCodeHost struct{ s *Server }

func (h openCodeHost) Caller(r *http.Request) opencode.Caller {
	c := callerOf(r)
	return opencode.Caller{ID: c.ID, Admin: c.Admin}
}

func (h openCodeHost) Session(ctx context.Context, c opencode.Caller, id string) (store.Session, error) {
	return h.s.ownedBy(ctx, caller(c), id)
}

func (h openCodeHost) SessionByKey(ctx context.Context, c opencode.Caller, key string) (store.Session, error) {
	return h.s.ownedKey(ctx, caller(c), key)
}

func (h openCodeHost) CreateSession(ctx context.Context, c opencode.Caller, req opencode.NewSession) (store.Session, error) {
	cr := createSessionRequest{ID: req.ID, Title: req.Title, Provider: req.Provider}
	if req.Ask {
		cr.Approval = "ask"
	}
	return h.s.addSession(ctx, caller(c), cr)
}

func (h openCodeHost) DeleteSession(ctx context.Context, st store.Session) error {
	return h.s.removeSession(ctx, st)
}

func (h openCodeHost) RunTurn(ctx context.Context, st store.Session, prompt, system, mode string, onEvent func(*event.EventWithMeta)) error {
	// A prompt sent while the session is busy is queued behind its turn,
	// as OpenCode queues one, unless it asks to steer.
	return h.s.submit(ctx, st, messageRequest{Prompt: prompt, TaskSystemPrompt: system, Mode: mode}, funcSink(onEvent))
}

func (h openCodeHost) AnswerPermission(c opencode.Caller, st store.Session, requestID string, allow bool) error {
	return h.s.answerOn(context.Background(), st, requestID, allow, "", event.Answerer{By: c.ID, Channel: "opencode"})
}

func (h openCodeHost) Answered(ctx context.Context, c opencode.Caller, requestID string) error {
	session, done, ok := h.s.opts.Approvals.settledOf(requestID)
	if !ok {
		return nil
	}
	if _, err := h.s.ownedKey(ctx, caller(c), session); err != nil {
		return nil
	}
	return answeredError(done.decision, done.by)
}

func (h openCodeHost) Interrupt(ctx context.Context, st store.Session) (bool, error) {
	return h.s.interruptSession(ctx, st)
}

func (h openCodeHost) Pending(st store.Session) []opencode.Permission {
	var out []opencode.Permission
	for _, p := range h.s.pendingPermissions(context.Background(), st) {
		out = append(out, opencode.Permission{ID: p.RequestID, Tool: p.ToolName, CallID: p.ToolUseID, Input: p.Input})
	}
	return out
}

// SetProvider creates the session again in the engine on another agent:
// before its first turn there is no conversation to lose. Whether the
// session has run is read from the engine and the hub as well as from
// st: the store records a turn's events behind it.
func (h openCodeHost) SetProvider(ctx context.Context, st store.Session, name string) (store.Session, error) {
	live, ok := h.s.opts.Engine.GetSession(st.ID)
	if !ok {
		return st, errNotFound
	}
	if st.LastSeq > 0 || h.s.opts.Hub.Last(st.ID) > 0 || live.Status != engine.StatusNew {
		return st, opencode.ErrAgentChosen
	}
	if !slices.Contains(h.s.opts.Engine.Providers(), name) {
		return st, errorf(http.StatusBadRequest, "bad_provider", "no such agent: "+name)
	}
	cfg := live.Config
	cfg.Provider = name
	if err := h.s.opts.Engine.DeleteSession(ctx, st.ID); err != nil && !errors.Is(err, engine.ErrSessionNotFound) {
		return st, err
	}
	if err := h.s.opts.Engine.CreateSession(st.ID, cfg); err != nil {
		return st, err
	}
	if live, ok = h.s.opts.Engine.GetSession(st.ID); !ok {
		return st, errNotFound
	}
	st, err := h.s.opts.Store.GetSession(ctx, st.ID)
	if err != nil {
		return st, err
	}
	st.Provider, st.ProviderSessionID = live.Provider, live.ProviderSessionID
	if err := h.s.opts.Store.PutSession(ctx, st); err != nil {
		return st, err
	}
	return h.s.opts.Store.GetSession(ctx, st.ID)
}

func (h openCodeHost) Go(f func(ctx context.Context)) {
	h.s.turns.Add(1)
	go func() {
		defer h.s.turns.Done()
		f(h.s.ctx)
	}()
}

func (h openCodeHost) Error(status int, code, msg string) error { return errorf(status, code, msg) }

func (h openCodeHost) WriteError(w http.ResponseWriter, err error) { writeError(w, err) }

func (h openCodeHost) TurnError(err error) error { return turnHTTPError(err) }

// funcSink hands a turn's events, live or read back from the store, to a
// function.
type funcSink func(*event.EventWithMeta)

func (f funcSink) event(ev *hub.Event) error {
	f(ev.EventWithMeta)
	return nil
}

func (f funcSink) stored(e store.Event) error {
	var ev event.EventWithMeta
	if json.Unmarshal(e.Data, &ev) == nil {
		if ev.Meta == nil {
			ev.Meta = &event.EventMeta{}
		}
		f(&ev)
	}
	return nil
}

func (funcSink) notice(string, any) error { return nil }
func (funcSink) keepAlive() error         { return nil }

// openCodeOperations are the OpenCode-compatible API's routes as the
// server's operations.
func (s *Server) openCodeOperations() []operation {
	var ops []operation
	for _, r := range s.oc.Routes() {
		ops = append(ops, operation{method: r.Method, path: r.Path, summary: r.Summary, handler: r.Handler,
			request: r.Request, response: r.Response, status: r.Status, stream: r.Stream, long: r.Long, event: r.Event, basic: true})
	}
	return ops
}
