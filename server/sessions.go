package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"path/filepath"
	"regexp"
	"time"

	"github.com/google/uuid"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/store"
)

// sessionView is a session as the API shows it.
type sessionView struct {
	ID                string                  `json:"id"`
	Title             string                  `json:"title,omitempty"`
	Provider          string                  `json:"provider"`
	ProviderSessionID string                  `json:"provider_session_id"`
	WorkDir           string                  `json:"work_dir"`
	Status            string                  `json:"status"`
	PID               int                     `json:"pid"`
	CreatedAt         time.Time               `json:"created_at"`
	UpdatedAt         time.Time               `json:"updated_at"`
	LastEventID       uint64                  `json:"last_event_id"`
	TaskInstructions  string                  `json:"task_instructions,omitempty"`
	Approval          string                  `json:"approval,omitempty"`
	Stats             *event.SessionStatsData `json:"stats,omitempty"`
}

// sessionOptions is what the store keeps in Session.Options.
type sessionOptions struct {
	TaskInstructions string `json:"task_instructions,omitempty"`
	// Approval is "ask" when every tool use waits for a person.
	Approval string `json:"approval,omitempty"`
}

func (s *Server) view(st store.Session) sessionView {
	v := sessionView{
		ID: st.ID, Title: st.Title, Provider: st.Provider, ProviderSessionID: st.ProviderSessionID,
		WorkDir: st.WorkDir, Status: st.Status, CreatedAt: st.CreatedAt, UpdatedAt: st.UpdatedAt, LastEventID: st.LastSeq,
	}
	var o sessionOptions
	_ = json.Unmarshal(st.Options, &o)
	v.TaskInstructions, v.Approval = o.TaskInstructions, o.Approval
	if len(st.Stats) > 0 {
		var d event.SessionStatsData
		if json.Unmarshal(st.Stats, &d) == nil {
			v.Stats = &d
		}
	}
	if live, ok := s.opts.Engine.GetSession(st.ID); ok {
		v.Status, v.PID = string(live.Status), live.PID
		d := live.Stats()
		v.Stats = &d
		if last := s.opts.Hub.Last(st.ID); last > v.LastEventID {
			v.LastEventID = last
		}
	}
	return v
}

// idPattern keeps session IDs safe as path elements and URL segments.
var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

type createSessionRequest struct {
	ID               string `json:"id,omitempty"`
	Title            string `json:"title,omitempty"`
	WorkDir          string `json:"work_dir,omitempty"`
	TaskInstructions string `json:"task_instructions,omitempty"`
	// Provider names the agent that runs the session (default: the
	// daemon's default provider; see GET /v1/providers).
	Provider string `json:"provider,omitempty"`
	// Approval is "auto" (the engine's policy, the default) or "ask"
	// (every tool use waits for a person's answer).
	Approval string `json:"approval,omitempty"`
}

func (s *Server) createSession(w http.ResponseWriter, r *http.Request) {
	var req createSessionRequest
	if err := readJSON(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	st, err := s.addSession(r.Context(), callerOf(r), req)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, s.view(st))
}

// addSession creates a session owned by c, in the engine and the store.
func (s *Server) addSession(ctx context.Context, c caller, req createSessionRequest) (store.Session, error) {
	if req.ID == "" {
		req.ID = uuid.NewString()
	}
	if !idPattern.MatchString(req.ID) {
		return store.Session{}, errorf(http.StatusBadRequest, "bad_request", "a session ID is 1-128 letters, digits, '.', '_' or '-'")
	}
	if _, err := s.opts.Store.GetSession(ctx, req.ID); err == nil {
		// Taken, by this caller or another: the same answer either way.
		return store.Session{}, errorf(http.StatusConflict, "conflict", "a session with this ID exists")
	} else if !errors.Is(err, store.ErrNotFound) {
		return store.Session{}, err
	}
	if req.Approval != "" && req.Approval != "auto" && req.Approval != "ask" {
		return store.Session{}, errorf(http.StatusBadRequest, "bad_request", `approval must be "auto" or "ask"`)
	}
	if req.WorkDir == "" {
		req.WorkDir = filepath.Join(s.opts.WorkDirRoot, req.ID)
	}
	if err := s.opts.Engine.CreateSession(req.ID, engine.SessionConfig{WorkDir: req.WorkDir, TaskInstructions: req.TaskInstructions, Provider: req.Provider, Owner: c.ID}); err != nil {
		if errors.Is(err, engine.ErrProviderNotFound) {
			return store.Session{}, errorf(http.StatusBadRequest, "bad_provider", err.Error())
		}
		if errors.Is(err, engine.ErrInvalidWorkDir) {
			return store.Session{}, errorf(http.StatusBadRequest, "bad_work_dir", err.Error())
		}
		return store.Session{}, err
	}
	live, _ := s.opts.Engine.GetSession(req.ID)
	opts, _ := json.Marshal(sessionOptions{TaskInstructions: req.TaskInstructions, Approval: req.Approval})
	s.opts.Approvals.SetAsk(req.ID, req.Approval == "ask")
	st := store.Session{
		ID: req.ID, Owner: c.ID, Provider: live.Provider,
		ProviderSessionID: live.ProviderSessionID, WorkDir: live.Config.WorkDir, Options: opts,
		Status: string(live.Status), Title: req.Title,
	}
	if err := s.opts.Store.PutSession(ctx, st); err != nil {
		_ = s.opts.Engine.TerminateSession(req.ID)
		return store.Session{}, err
	}
	st, err := s.opts.Store.GetSession(ctx, req.ID)
	if err != nil {
		return store.Session{}, err
	}
	// OpenCode clients hear of every new session, whichever API made it.
	s.ocBus.publish(st.Owner, st.WorkDir, ocEvent{"session.created", ocInfo{ocSessionOf(st)}})
	return st, nil
}

func (s *Server) listSessions(w http.ResponseWriter, r *http.Request) {
	owner := callerOf(r).ID
	if callerOf(r).Admin && r.URL.Query().Get("all") == "true" {
		owner = ""
	}
	list, err := s.opts.Store.ListSessions(r.Context(), owner)
	if err != nil {
		writeError(w, err)
		return
	}
	out := make([]sessionView, 0, len(list))
	for _, st := range list {
		out = append(out, s.view(st))
	}
	writeJSON(w, http.StatusOK, map[string]any{"sessions": out})
}

func (s *Server) getSession(w http.ResponseWriter, r *http.Request) {
	st, err := s.owned(r, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, s.view(st))
}

// deleteSession ends the session's processes and removes it with its
// events.
func (s *Server) deleteSession(w http.ResponseWriter, r *http.Request) {
	st, err := s.owned(r, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	if err := s.removeSession(r.Context(), st); err != nil {
		writeError(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// removeSession ends a session's processes and deletes it with its events.
func (s *Server) removeSession(ctx context.Context, st store.Session) error {
	if err := s.opts.Engine.TerminateSession(st.ID); err != nil && !errors.Is(err, engine.ErrSessionNotFound) {
		return err
	}
	s.opts.Hub.Forget(st.ID)
	s.opts.Approvals.SetAsk(st.ID, false)
	if err := s.opts.Store.DeleteSession(ctx, st.ID); err != nil {
		return err
	}
	s.ocBus.publish(st.Owner, st.WorkDir, ocEvent{"session.deleted", ocInfo{ocSessionOf(st)}})
	return nil
}
