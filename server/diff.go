package server

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/hotplex/hotplex/engine"
)

// worktreeConfig asks the engine for a worktree session: its branch is
// named for the ID the owner knows, and it goes in the session's own
// directory, as a session's work directory does by default.
func worktreeConfig(req createSessionRequest, cfg *engine.SessionConfig) error {
	if req.Worktree && req.Repo == "" {
		return errorf(http.StatusBadRequest, "bad_repo", "a worktree needs a repo: a git repository in your tree of work directories")
	}
	if !req.Worktree {
		if req.Repo != "" {
			return errorf(http.StatusBadRequest, "bad_repo", "repo is the repository a worktree is made of: ask for one with worktree: true, or name the directory as work_dir")
		}
		return nil
	}
	cfg.Repo, cfg.Worktree, cfg.Branch = req.Repo, true, "hotplex/"+req.ID
	return nil
}

// worktreeError turns the engine's worktree errors into API errors (nil
// for other errors).
func worktreeError(err error) error {
	switch {
	case errors.Is(err, engine.ErrInvalidRepo):
		return errorf(http.StatusBadRequest, "bad_repo", err.Error())
	case errors.Is(err, engine.ErrBranchExists):
		return errorf(http.StatusConflict, "branch_exists", err.Error())
	}
	return nil
}

// restoreWorktree gives a restored session the baseline (and worktree) it
// was created with, so that the worktree is not made again.
func restoreWorktree(o sessionOptions, cfg *engine.SessionConfig) {
	cfg.Baseline = o.Baseline
	if o.Baseline != nil && o.Baseline.Worktree != nil {
		cfg.Worktree, cfg.Repo, cfg.Branch = true, o.Baseline.Worktree.Repo, o.Baseline.Worktree.Branch
	}
}

// deleteOptions reads DELETE's ?delete_branch=true.
func deleteOptions(r *http.Request) (engine.DeleteOptions, error) {
	v := r.URL.Query().Get("delete_branch")
	if v == "" {
		return engine.DeleteOptions{}, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return engine.DeleteOptions{}, errorf(http.StatusBadRequest, "bad_request", "delete_branch is true or false")
	}
	return engine.DeleteOptions{DeleteBranch: b}, nil
}

// getDiff answers GET /v1/sessions/{id}/diff with the session's changes
// (bounded as engine.MaxDiffBytes says).
func (s *Server) getDiff(w http.ResponseWriter, r *http.Request) {
	st, err := s.owned(r, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	ch, err := s.opts.Engine.Diff(r.Context(), st.ID)
	if errors.Is(err, engine.ErrSessionNotFound) {
		err = errNotFound
	}
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, ch)
}

type mergeRequest struct {
	// CommitMessage, when set, first commits what the worktree holds
	// uncommitted to the session's branch; without it such changes
	// refuse the merge (409 uncommitted_changes).
	CommitMessage string `json:"commit_message,omitempty"`
}

// mergeRefusal is a 409 of a merge: the error and the files in the way.
type mergeRefusal struct {
	Error apiError `json:"error"`
	Files []string `json:"files"`
}

// merge answers POST /v1/sessions/{id}/merge. The body is optional.
func (s *Server) merge(w http.ResponseWriter, r *http.Request) {
	st, err := s.owned(r, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	var req mergeRequest
	if r.ContentLength != 0 {
		if err := readJSON(w, r, &req); err != nil {
			writeError(w, err)
			return
		}
	}
	res, err := s.opts.Engine.Merge(r.Context(), st.ID, engine.MergeOptions{CommitMessage: req.CommitMessage})
	var me *engine.MergeError
	switch {
	case err == nil:
		writeJSON(w, http.StatusOK, res)
	case errors.As(err, &me):
		code := "not_fast_forward"
		switch {
		case errors.Is(err, engine.ErrMergeConflict):
			code = "merge_conflict"
		case errors.Is(err, engine.ErrUncommitted):
			code = "uncommitted_changes"
		}
		files := me.Files
		if files == nil {
			files = []string{}
		}
		writeJSON(w, http.StatusConflict, mergeRefusal{Error: apiError{Code: code, Message: err.Error()}, Files: files})
	case errors.Is(err, engine.ErrSessionNotFound):
		writeError(w, errNotFound)
	case errors.Is(err, engine.ErrNoWorktree):
		writeError(w, errorf(http.StatusConflict, "no_worktree", "the session has no worktree to merge; create it with repo and worktree: true"))
	case errors.Is(err, engine.ErrNotFastForward):
		writeJSON(w, http.StatusConflict, mergeRefusal{Error: apiError{Code: "not_fast_forward", Message: err.Error()}, Files: []string{}})
	case errors.Is(err, engine.ErrSessionBusy):
		writeError(w, errorf(http.StatusConflict, "busy", "the session is running a turn; merge when it ends"))
	default:
		writeError(w, err)
	}
}
