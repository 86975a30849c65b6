package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/store"
)

// Approvals parks the tool uses a person must decide — those the firewall
// cannot judge, and every permission request of a session created with
// "approval":"ask" — until a client answers (over HTTP, WebSocket, the
// OpenCode routes, the web UI or an ACP editor), the turn ends, or the
// wait times out (then the timeout's decision, deny unless configured,
// is taken). The first answer wins; a later one learns who answered.
// Its Handle method is the engine's PermissionHandler.
type Approvals struct {
	timeout        time.Duration
	allowOnTimeout bool

	mu      sync.Mutex
	ask     map[string]bool // sessions that approve every tool use by hand
	pending map[string]*pendingApproval
	// settled remembers recent answers, so that a late answer is told
	// who came first instead of "not found".
	settled map[string]settledApproval
}

type pendingApproval struct {
	view   PendingPermission
	answer chan provider.ToolDecision
	// handled is set once Handle waits on it (under mu): an answer may
	// come between the announcement and Handle, and Handle must then
	// take it instead of waiting anew.
	handled bool
}

type settledApproval struct {
	session  string
	decision string
	by       event.Answerer
	p        *pendingApproval
}

// settledKept is how long a settled request is remembered.
const settledKept = 10 * time.Minute

// PendingPermission is a tool use waiting for a person's decision.
type PendingPermission struct {
	RequestID string         `json:"request_id"`
	SessionID string         `json:"session_id"`
	ToolName  string         `json:"tool_name"`
	ToolUseID string         `json:"tool_use_id,omitempty"`
	Input     map[string]any `json:"input,omitempty"`
	Reason    string         `json:"reason,omitempty"`
	// Policy names the operator's ask rule that sent it, if one did.
	Policy *event.PolicyDecision `json:"policy,omitempty"`
	Since  time.Time             `json:"since"`
}

var errNoSuchApproval = errorf(http.StatusNotFound, "not_found", "no pending permission request with this ID")

// answeredError is a late answer: the request was settled already.
func answeredError(decision string, by event.Answerer) *apiError {
	msg := fmt.Sprintf("this permission request was answered already (%s by %s over %s at %s)",
		decision, by.By, by.Channel, by.At.UTC().Format(time.RFC3339))
	switch by.By {
	case answeredByTimeout:
		msg = fmt.Sprintf("nobody answered this permission request in time: it was %s by the timeout at %s", pastOf(decision), by.At.UTC().Format(time.RFC3339))
	case answeredByTurnEnd:
		msg = fmt.Sprintf("the turn ended before this permission request was answered (%s at %s)", pastOf(decision), by.At.UTC().Format(time.RFC3339))
	}
	e := errorf(http.StatusConflict, "already_answered", msg)
	e.Answered = &permissionAnswered{Decision: decision, Answerer: by}
	return e
}

func pastOf(decision string) string {
	if decision == provider.Allow {
		return "allowed"
	}
	return "denied"
}

// permissionAnswered is the answer an already_answered error reports.
type permissionAnswered struct {
	Decision string `json:"decision"`
	event.Answerer
}

// Who settled a request nobody answered.
const (
	answeredByTimeout = "timeout"
	answeredByTurnEnd = "turn_ended"
)

// NewApprovals returns an empty registry; unanswered requests are denied
// after timeout (default 5 minutes).
func NewApprovals(timeout time.Duration) *Approvals {
	if timeout <= 0 {
		timeout = 5 * time.Minute
	}
	return &Approvals{timeout: timeout, ask: map[string]bool{}, pending: map[string]*pendingApproval{}, settled: map[string]settledApproval{}}
}

// AllowOnTimeout makes a request nobody answers in time allowed instead
// of denied. Set before the first request.
func (a *Approvals) AllowOnTimeout(allow bool) { a.allowOnTimeout = allow }

// SetAsk makes a session approve every tool use by hand (or not).
func (a *Approvals) SetAsk(session string, ask bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if ask {
		a.ask[session] = true
	} else {
		delete(a.ask, session)
	}
}

// Announce is an engine PermissionAnnounce: it lists a request that
// will wait for a person before the engine reports it, so a client that
// sees the permission_request event finds it pending.
func (a *Approvals) Announce(req engine.PermissionRequest) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.register(req)
}

// register lists req as pending if it waits for a person, and returns its
// entry (nil if it does not wait). The caller holds mu.
func (a *Approvals) register(req engine.PermissionRequest) *pendingApproval {
	if req.Kind != provider.CanUseTool || !req.NeedsApproval && !a.ask[req.SessionID] {
		return nil
	}
	if p, ok := a.pending[req.RequestID]; ok && p.view.SessionID == req.SessionID {
		return p
	}
	if done, ok := a.settled[req.RequestID]; ok && done.session == req.SessionID && !done.p.handled {
		// Answered after it was announced, before Handle came: its
		// answer waits in the channel. (A settled request Handle has
		// seen is over; the same ID again is a new request.)
		return done.p
	}
	p := &pendingApproval{
		view: PendingPermission{RequestID: req.RequestID, SessionID: req.SessionID, ToolName: req.ToolName,
			ToolUseID: req.ToolUseID, Input: req.Input, Reason: req.Reason, Policy: req.Policy, Since: time.Now()},
		answer: make(chan provider.ToolDecision, 1),
	}
	a.pending[req.RequestID] = p
	return p
}

// settle takes p off the pending list and remembers who decided, unless
// an answer came first; it reports whether it did. The caller holds mu.
func (a *Approvals) settle(p *pendingApproval, decision string, by event.Answerer) bool {
	id := p.view.RequestID
	if a.pending[id] != p {
		return false
	}
	delete(a.pending, id)
	if len(a.settled) >= 256 {
		for k, v := range a.settled {
			if time.Since(v.by.At) > settledKept {
				delete(a.settled, k)
			}
		}
	}
	a.settled[id] = settledApproval{session: p.view.SessionID, decision: decision, by: by, p: p}
	return true
}

// Handle is an engine.PermissionHandler.
func (a *Approvals) Handle(ctx context.Context, req engine.PermissionRequest) provider.ToolDecision {
	a.mu.Lock()
	p := a.register(req)
	if p != nil {
		p.handled = true
	}
	a.mu.Unlock()
	if p == nil {
		return provider.ToolDecision{}
	}
	t := time.NewTimer(a.timeout)
	defer t.Stop()
	var d provider.ToolDecision
	var by string
	select {
	case d = <-p.answer:
		return d
	case <-ctx.Done():
		d, by = provider.ToolDecision{Behavior: provider.Deny, Message: "The turn ended before anyone answered."}, answeredByTurnEnd
	case <-t.C:
		d, by = provider.ToolDecision{Behavior: provider.Deny, Message: "Nobody answered this permission request within " + a.timeout.String() + ", so it was denied."}, answeredByTimeout
		if a.allowOnTimeout {
			d = provider.ToolDecision{Behavior: provider.Allow}
		}
	}
	d.Answerer = &event.Answerer{By: by, Channel: by, At: time.Now()}
	a.mu.Lock()
	mine := a.settle(p, d.Behavior, *d.Answerer)
	a.mu.Unlock()
	if !mine {
		// An answer won the race with the timeout or the turn's end.
		return <-p.answer
	}
	return d
}

// settledOf returns the session and answer of a recently settled request.
func (a *Approvals) settledOf(requestID string) (string, settledApproval, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	done, ok := a.settled[requestID]
	return done.session, done, ok
}

// Pending lists a session's waiting requests, oldest first.
func (a *Approvals) Pending(session string) []PendingPermission {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := []PendingPermission{}
	for _, p := range a.pending {
		if p.view.SessionID == session {
			out = append(out, p.view)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Since.Before(out[j].Since) })
	return out
}

// Answer decides a waiting request of a session, on behalf of by (the
// answering key and its client; At is set here). The first answer wins:
// a later one gets an already_answered error naming the first.
func (a *Approvals) Answer(session, requestID string, allow bool, message string, by event.Answerer) error {
	d := provider.ToolDecision{Behavior: provider.Allow}
	if !allow {
		if message == "" {
			message = "A person denied this."
		}
		d = provider.ToolDecision{Behavior: provider.Deny, Message: message}
	}
	by.At = time.Now()
	d.Answerer = &by
	a.mu.Lock()
	p, ok := a.pending[requestID]
	if !ok || p.view.SessionID != session {
		done, was := a.settled[requestID]
		a.mu.Unlock()
		if was && done.session == session {
			return answeredError(done.decision, done.by)
		}
		return errNoSuchApproval
	}
	a.settle(p, d.Behavior, by)
	a.mu.Unlock()
	p.answer <- d
	return nil
}

// Answer channels a client may name in a permission reply; the others
// are set by the route the answer came by.
var replyChannels = map[string]bool{"http": true, "web": true, "acp": true, "mcp": true}

// resendPending tells a client that (re)joins a session's stream of
// each request still waiting for a person, with a permission_pending
// notice: its permission_request event may lie before the client's
// Last-Event-ID, or before what the store still holds. A request
// settled since is followed by its permission_decision event.
func (s *Server) resendPending(ctx context.Context, sessionID string, out sink) error {
	for _, p := range s.pendingPermissions(ctx, store.Session{ID: sessionID}) {
		if err := out.notice(noticePermissionPending, p); err != nil {
			return err
		}
	}
	return nil
}

// noticePermissionPending re-sends a waiting permission request.
const noticePermissionPending = "permission_pending"

type permissionReply struct {
	Decision string `json:"decision"` // "allow" or "deny"
	Message  string `json:"message,omitempty"`
	// Channel names the client answering, told to the session's other
	// clients: "http" (the default), "web", "acp" or "mcp".
	Channel string `json:"channel,omitempty"`
}

func (r permissionReply) allow() (bool, error) {
	switch r.Decision {
	case "allow":
		return true, nil
	case "deny":
		return false, nil
	}
	return false, errorf(http.StatusBadRequest, "bad_request", `decision must be "allow" or "deny"`)
}

func (s *Server) listPermissions(w http.ResponseWriter, r *http.Request) {
	st, err := s.owned(r, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"permissions": s.pendingPermissions(r.Context(), st)})
}

func (s *Server) answerPermission(w http.ResponseWriter, r *http.Request) {
	st, err := s.owned(r, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	var reply permissionReply
	if err := readJSON(w, r, &reply); err != nil {
		writeError(w, err)
		return
	}
	allow, err := reply.allow()
	if reply.Channel == "" {
		reply.Channel = "http"
	}
	if err == nil && !replyChannels[reply.Channel] {
		err = errorf(http.StatusBadRequest, "bad_request", `channel must be "http", "web", "acp" or "mcp"`)
	}
	if err == nil {
		err = s.answerOn(r.Context(), st, r.PathValue("request"), allow, reply.Message, event.Answerer{By: callerOf(r).ID, Channel: reply.Channel})
	}
	if err != nil {
		var ae *apiError
		if !errors.As(err, &ae) {
			ae = errorf(http.StatusInternalServerError, "internal", err.Error())
		}
		writeError(w, ae)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "answered"})
}
