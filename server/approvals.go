package server

import (
	"context"
	"errors"
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/provider"
)

// Approvals parks the tool uses a person must decide — those the firewall
// cannot judge, and every permission request of a session created with
// "approval":"ask" — until a client answers over HTTP or WebSocket, the
// turn ends, or the wait times out (then the tool is denied). Its Handle
// method is the engine's PermissionHandler.
type Approvals struct {
	timeout time.Duration

	mu      sync.Mutex
	ask     map[string]bool // sessions that approve every tool use by hand
	pending map[string]*pendingApproval
}

type pendingApproval struct {
	view   PendingPermission
	answer chan provider.ToolDecision
}

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

// NewApprovals returns an empty registry; unanswered requests are denied
// after timeout (default 5 minutes).
func NewApprovals(timeout time.Duration) *Approvals {
	if timeout <= 0 {
		timeout = 5 * time.Minute
	}
	return &Approvals{timeout: timeout, ask: map[string]bool{}, pending: map[string]*pendingApproval{}}
}

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
	p := &pendingApproval{
		view: PendingPermission{RequestID: req.RequestID, SessionID: req.SessionID, ToolName: req.ToolName,
			ToolUseID: req.ToolUseID, Input: req.Input, Reason: req.Reason, Policy: req.Policy, Since: time.Now()},
		answer: make(chan provider.ToolDecision, 1),
	}
	a.pending[req.RequestID] = p
	return p
}

// Handle is an engine.PermissionHandler.
func (a *Approvals) Handle(ctx context.Context, req engine.PermissionRequest) provider.ToolDecision {
	a.mu.Lock()
	p := a.register(req)
	a.mu.Unlock()
	if p == nil {
		return provider.ToolDecision{}
	}
	defer func() {
		a.mu.Lock()
		delete(a.pending, req.RequestID)
		a.mu.Unlock()
	}()
	t := time.NewTimer(a.timeout)
	defer t.Stop()
	select {
	case d := <-p.answer:
		return d
	case <-ctx.Done():
		return provider.ToolDecision{Behavior: provider.Deny, Message: "The turn ended before anyone answered."}
	case <-t.C:
		return provider.ToolDecision{Behavior: provider.Deny, Message: "Nobody approved this within " + a.timeout.String() + "."}
	}
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

// Answer decides a waiting request of a session.
func (a *Approvals) Answer(session, requestID string, allow bool, message string) error {
	a.mu.Lock()
	p, ok := a.pending[requestID]
	if ok && p.view.SessionID == session {
		delete(a.pending, requestID)
	}
	a.mu.Unlock()
	if !ok || p.view.SessionID != session {
		return errNoSuchApproval
	}
	d := provider.ToolDecision{Behavior: provider.Allow}
	if !allow {
		if message == "" {
			message = "A person denied this."
		}
		d = provider.ToolDecision{Behavior: provider.Deny, Message: message}
	}
	p.answer <- d
	return nil
}

type permissionReply struct {
	Decision string `json:"decision"` // "allow" or "deny"
	Message  string `json:"message,omitempty"`
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
	if err == nil {
		err = s.answerOn(r.Context(), st, r.PathValue("request"), allow, reply.Message)
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
