package server

import (
	"errors"
	"net/http"

	"github.com/hotplex/hotplex/webhook"
)

// hookRequest is the body of POST /v1/hooks. The secret is always made
// by the server (and shown once, in the answer).
type hookRequest struct {
	// URL receives the events by POST (http or https).
	URL string `json:"url"`
	// Events are the event types to send (permission.requested,
	// turn.finished, turn.failed, danger.blocked, session.hibernated,
	// budget.exceeded); none: all of them.
	Events      []string `json:"events,omitempty"`
	Description string   `json:"description,omitempty"`
}

type hookList struct {
	Hooks []webhook.Hook `json:"hooks"`
}

var (
	errNoHooks    = errorf(http.StatusNotFound, "not_found", "webhooks are not enabled on this server")
	errNoSuchHook = errorf(http.StatusNotFound, "not_found", "no such hook")
)

// hookError turns the notifier's errors into the API's.
func hookError(err error) error {
	switch {
	case errors.Is(err, webhook.ErrNotFound):
		return errNoSuchHook
	case errors.Is(err, webhook.ErrInvalid):
		return errorf(http.StatusBadRequest, "bad_request", err.Error())
	}
	return err
}

// createHook registers a hook of the caller's key; the answer holds its
// signing secret, which is never shown again.
func (s *Server) createHook(w http.ResponseWriter, r *http.Request) {
	if s.opts.Hooks == nil {
		writeError(w, errNoHooks)
		return
	}
	var req hookRequest
	if err := readJSON(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	h, err := s.opts.Hooks.Create(r.Context(), callerOf(r).ID, webhook.Spec{URL: req.URL, Events: req.Events, Description: req.Description})
	if err != nil {
		writeError(w, hookError(err))
		return
	}
	s.log.Info("webhook created", "hook", h.ID, "key", callerOf(r).ID, "url", h.URL)
	writeJSON(w, http.StatusCreated, h)
}

// listHooks lists the caller's hooks, without their secrets.
func (s *Server) listHooks(w http.ResponseWriter, r *http.Request) {
	if s.opts.Hooks == nil {
		writeJSON(w, http.StatusOK, hookList{Hooks: []webhook.Hook{}})
		return
	}
	hooks, err := s.opts.Hooks.List(r.Context(), callerOf(r).ID)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, hookList{Hooks: hooks})
}

// deleteHook removes one of the caller's hooks; another key's is not
// found.
func (s *Server) deleteHook(w http.ResponseWriter, r *http.Request) {
	if s.opts.Hooks == nil {
		writeError(w, errNoHooks)
		return
	}
	if err := s.opts.Hooks.Delete(r.Context(), callerOf(r).ID, r.PathValue("id")); err != nil {
		writeError(w, hookError(err))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// hookDeliveries shows the delivery log of one of the caller's hooks.
func (s *Server) hookDeliveries(w http.ResponseWriter, r *http.Request) {
	if s.opts.Hooks == nil {
		writeError(w, errNoHooks)
		return
	}
	l, err := s.opts.Hooks.Deliveries(r.Context(), callerOf(r).ID, r.PathValue("id"))
	if err != nil {
		writeError(w, hookError(err))
		return
	}
	writeJSON(w, http.StatusOK, l)
}
