package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/guard"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/store"
)

// sessionView is a session as the API shows it.
type sessionView struct {
	// ID is the session's ID as its owner named it; other owners may use
	// the same ID for sessions of their own.
	ID string `json:"id"`
	// Key is the session's daemon-wide key, by which an admin key may
	// address any owner's session.
	Key               string `json:"key"`
	Owner             string `json:"owner"`
	Title             string `json:"title,omitempty"`
	Provider          string `json:"provider"`
	ProviderSessionID string `json:"provider_session_id"`
	WorkDir           string `json:"work_dir"`
	Status            string `json:"status"`
	PID               int    `json:"pid"`
	// Node is the node of a cluster the session's process runs on, if
	// any runs.
	Node             string                  `json:"node,omitempty"`
	CreatedAt        time.Time               `json:"created_at"`
	UpdatedAt        time.Time               `json:"updated_at"`
	LastEventID      uint64                  `json:"last_event_id"`
	TaskInstructions string                  `json:"task_instructions,omitempty"`
	Approval         string                  `json:"approval,omitempty"`
	Permissions      *guard.Policy           `json:"permissions,omitempty"`
	Stats            *event.SessionStatsData `json:"stats,omitempty"`
	// Worktree is the session's own git worktree, if it has one.
	Worktree *engine.Worktree `json:"worktree,omitempty"`
	// Queued counts the prompts waiting to run after the running turn.
	Queued int `json:"queued"`
}

// sessionOptions is what the store keeps in Session.Options.
type sessionOptions struct {
	TaskInstructions string `json:"task_instructions,omitempty"`
	// Approval is "ask" when every tool use waits for a person.
	Approval string `json:"approval,omitempty"`
	// OwnWorkDir is set when the session's creation made its work
	// directory: deleting the session removes it.
	OwnWorkDir bool `json:"own_work_dir,omitempty"`
	// Permissions are the session's level of the permission rules, as
	// the request wrote them.
	Permissions *guard.Policy `json:"permissions,omitempty"`
	// Baseline is what the session's changes are measured against, its
	// worktree included: kept so that a restart restores both.
	Baseline *engine.Baseline `json:"baseline,omitempty"`
	// MCPServers are the session's own MCP servers, kept so that a
	// restart gives them to its agent again.
	MCPServers []provider.MCPServer `json:"mcp_servers,omitempty"`
}

// policy compiles the session's stored permission rules (nil: none).
func (o sessionOptions) policy() (*guard.Policy, error) {
	if o.Permissions == nil {
		return nil, nil
	}
	return guard.NewPolicy(o.Permissions.Allow, o.Permissions.Ask, o.Permissions.Deny)
}

// publicID is the ID the session's owner knows it by.
func publicID(st store.Session) string {
	if st.PublicID != "" {
		return st.PublicID
	}
	return st.ID
}

func (s *Server) view(st store.Session) sessionView { return s.viewOf(st, true) }

// viewOf is view; without remote, a session another node of a cluster
// runs shows its node and its stored state rather than asking that node
// (a list would ask once per session).
func (s *Server) viewOf(st store.Session, remote bool) sessionView {
	v := sessionView{
		ID: publicID(st), Key: st.ID, Owner: st.Owner, Title: st.Title, Provider: st.Provider, ProviderSessionID: st.ProviderSessionID,
		WorkDir: st.WorkDir, Status: st.Status, CreatedAt: st.CreatedAt, UpdatedAt: st.UpdatedAt, LastEventID: st.LastSeq,
	}
	v.Queued = s.queued(s.ctx, st.ID)
	var o sessionOptions
	_ = json.Unmarshal(st.Options, &o)
	v.TaskInstructions, v.Approval, v.Permissions = o.TaskInstructions, o.Approval, o.Permissions
	if o.Baseline != nil {
		v.Worktree = o.Baseline.Worktree
	}
	if len(st.Stats) > 0 {
		var d event.SessionStatsData
		if json.Unmarshal(st.Stats, &d) == nil {
			v.Stats = &d
		}
	}
	if c := s.opts.Cluster; c != nil {
		ctx, cancel := context.WithTimeout(s.ctx, 2*time.Second)
		defer cancel()
		node, err := c.Owner(ctx, st.ID)
		v.Node = node
		if err == nil && node != "" && node != c.NodeID() {
			if !remote {
				return v
			}
			if live, ok := s.liveOn(ctx, node, st.ID); ok {
				v.Status, v.PID, v.Stats = live.Status, live.PID, &live.Stats
			}
			return v
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
	// Permissions are the session's own permission rules in Claude
	// Code's syntax, {"allow": [...], "ask": [...], "deny": [...]} (or a
	// settings file's {"permissions": {...}}), judged with the server's
	// and the key's after the built-in firewall.
	Permissions json.RawMessage `json:"permissions,omitempty"`
	// Repo is a git repository in the caller's tree of work directories;
	// with Worktree the session works in a git worktree of it of its own,
	// on the branch hotplex/<id>, made in work_dir (default: <id>).
	Repo     string `json:"repo,omitempty"`
	Worktree bool   `json:"worktree,omitempty"`
	// MCPServers are the session's own MCP servers, given to agents that
	// take them (Claude Code, ACP agents). A stdio server is a command
	// the daemon's host runs outside the firewall: only an admin key may
	// give one.
	MCPServers []provider.MCPServer `json:"mcp_servers,omitempty"`
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

// errIDTaken answers a create with an ID the caller already uses.
var errIDTaken = errorf(http.StatusConflict, "conflict", "you have a session with this ID")

// addSession creates a session owned by c, in the engine and the store.
//
// Session IDs belong to their owner: the ID is looked up among c's
// sessions only, so a create never tells whether another owner uses it.
// The session's daemon-wide key is "<ID>~<nonce>" with a nonce drawn for
// this creation; the engine, the hub and the events know the session by
// it, and the provider session ID is derived from owner, key and nonce, so
// a session deleted and created again under the same ID starts a new
// conversation, while the same session keeps its own across restarts.
func (s *Server) addSession(ctx context.Context, c caller, req createSessionRequest) (store.Session, error) {
	if req.ID == "" {
		req.ID = uuid.NewString()
	}
	if !idPattern.MatchString(req.ID) {
		return store.Session{}, errorf(http.StatusBadRequest, "bad_request", "a session ID is 1-128 letters, digits, '.', '_' or '-'")
	}
	if _, err := s.opts.Store.FindSession(ctx, c.ID, req.ID); err == nil {
		return store.Session{}, errIDTaken
	} else if !errors.Is(err, store.ErrNotFound) {
		return store.Session{}, err
	}
	if req.Approval != "" && req.Approval != "auto" && req.Approval != "ask" {
		return store.Session{}, errorf(http.StatusBadRequest, "bad_request", `approval must be "auto" or "ask"`)
	}
	var policy *guard.Policy
	if len(req.Permissions) > 0 && string(req.Permissions) != "null" {
		p, err := guard.ParsePolicy(req.Permissions)
		if err != nil {
			return store.Session{}, errorf(http.StatusBadRequest, "bad_permissions", err.Error())
		}
		policy = p
	}
	if err := provider.ValidateMCPServers(req.MCPServers); err != nil {
		return store.Session{}, errorf(http.StatusBadRequest, "bad_mcp_servers", err.Error())
	}
	if !c.Admin && slices.ContainsFunc(req.MCPServers, provider.MCPServer.Stdio) {
		return store.Session{}, errorf(http.StatusForbidden, "forbidden",
			"a stdio MCP server is a command run on the daemon's host outside the firewall: only an admin key may give one (an HTTP server needs no such key)")
	}
	ownWorkDir := false
	if req.WorkDir == "" {
		// The session's own directory in its owner's tree, removed with
		// the session; one that exists already (a directory another
		// session of the owner named) is only borrowed.
		req.WorkDir = req.ID
		if s.opts.WorkDirRoot != "" {
			_, err := os.Lstat(filepath.Join(s.opts.WorkDirRoot, engine.OwnerDir(c.ID), req.ID))
			ownWorkDir = errors.Is(err, fs.ErrNotExist)
		}
	}
	nonce := newNonce()
	key := req.ID + "~" + nonce
	cfg := engine.SessionConfig{WorkDir: req.WorkDir, TaskInstructions: req.TaskInstructions, Provider: req.Provider, Owner: c.ID, Nonce: nonce, Policy: policy, MCPServers: req.MCPServers}
	if err := worktreeConfig(req, &cfg); err != nil {
		return store.Session{}, err
	}
	if err := s.opts.Engine.CreateSession(key, cfg); err != nil {
		if err := worktreeError(err); err != nil {
			return store.Session{}, err
		}
		if errors.Is(err, engine.ErrProviderNotFound) {
			return store.Session{}, errorf(http.StatusBadRequest, "bad_provider", err.Error())
		}
		if errors.Is(err, engine.ErrInvalidWorkDir) {
			return store.Session{}, errorf(http.StatusBadRequest, "bad_work_dir", err.Error())
		}
		if policy != nil && errors.Is(err, engine.ErrInvalidConfig) {
			return store.Session{}, errorf(http.StatusBadRequest, "bad_permissions", err.Error())
		}
		return store.Session{}, err
	}
	live, _ := s.opts.Engine.GetSession(key)
	opts, _ := json.Marshal(sessionOptions{TaskInstructions: req.TaskInstructions, Approval: req.Approval, OwnWorkDir: ownWorkDir, Permissions: policy, Baseline: live.Config.Baseline, MCPServers: req.MCPServers})
	s.opts.Approvals.SetAsk(key, req.Approval == "ask")
	st := store.Session{
		ID: key, PublicID: req.ID, Nonce: nonce, Owner: c.ID, Provider: live.Provider,
		ProviderSessionID: live.ProviderSessionID, WorkDir: live.Config.WorkDir, Options: opts,
		Status: string(live.Status), Title: req.Title,
	}
	if err := s.opts.Store.PutSession(ctx, st); err != nil {
		// A worktree's branch was made by this creation: it goes too.
		_ = s.opts.Engine.DeleteSessionWith(ctx, key, engine.DeleteOptions{DeleteBranch: true})
		s.opts.Approvals.SetAsk(key, false)
		if errors.Is(err, store.ErrExists) {
			// A concurrent create of the same ID won, and works in the
			// same directory: it stays.
			return store.Session{}, errIDTaken
		}
		if ownWorkDir {
			s.removeWorkDir(st)
		}
		return store.Session{}, err
	}
	st, err := s.opts.Store.GetSession(ctx, key)
	if err != nil {
		return store.Session{}, err
	}
	// OpenCode clients hear of every new session, whichever API made it.
	s.oc.SessionCreated(st)
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
		out = append(out, s.viewOf(st, false))
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
	del, err := deleteOptions(r)
	if err != nil {
		writeError(w, err)
		return
	}
	queued := s.queued(r.Context(), st.ID)
	if err := s.removeSessionWith(r.Context(), st, del); err != nil {
		writeError(w, err)
		return
	}
	// The queue went with the record; its callers hear why.
	s.dropWaiting(st.ID, fmt.Errorf("%w: %w: the session was deleted", errPromptDropped, engine.ErrSessionDeleted))
	w.Header().Set("Hotplex-Dropped-Queued", strconv.Itoa(queued))
	w.WriteHeader(http.StatusNoContent)
}

// removeSession deletes a session and what it left: its processes end,
// the turns queued for it fail, the agent's transcript goes (the engine
// and its provider see to these), then its events, its record and, when
// its creation made it, its work directory. The same ID then starts
// afresh.
func (s *Server) removeSession(ctx context.Context, st store.Session) error {
	return s.removeSessionWith(ctx, st, engine.DeleteOptions{})
}

// removeSessionWith removes a session as removeSession does, its
// worktree as opts say.
func (s *Server) removeSessionWith(ctx context.Context, st store.Session, opts engine.DeleteOptions) error {
	deleteRecord := func() error {
		if err := s.opts.Store.DeleteSession(ctx, st.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		return nil
	}
	if s.opts.Cluster == nil {
		s.forgetHere(ctx, st.ID, opts)
		if err := deleteRecord(); err != nil {
			return err
		}
	} else {
		node, err := s.owner(ctx, st.ID)
		if err != nil {
			return err
		}
		// Gone from the store first: each node tells its followers the
		// session closed once the store no longer has it (sessionGone).
		if err := deleteRecord(); err != nil {
			return err
		}
		if node != "" {
			// Its process runs there; a node that is gone took it along.
			err := s.opts.Cluster.Call(ctx, node, verbDelete, deleteCall{Session: st.ID, DeleteBranch: opts.DeleteBranch}, nil)
			if err != nil && !errors.Is(err, ErrNodeUnreachable) {
				s.log.Warn("the session's node did not end it; its process ends when that node reaps it", "session", st.ID, "node", node, "err", err)
			}
		}
		s.forgetHere(ctx, st.ID, opts)
		s.forgetElsewhere(ctx, st.ID, node)
	}
	var o sessionOptions
	if json.Unmarshal(st.Options, &o) == nil && o.OwnWorkDir {
		s.removeWorkDir(st)
	}
	s.oc.SessionDeleted(st)
	return nil
}

// forgetElsewhere tells the other nodes of a cluster (but done, which
// deleted it already) to forget a deleted session: their followers get
// session_closed, and what they kept of it (a hibernated record, the
// agent's files of an earlier turn there) goes. A node that does not
// answer has nothing live of it.
func (s *Server) forgetElsewhere(ctx context.Context, id, done string) {
	c := s.opts.Cluster
	if c == nil {
		return
	}
	nodes, err := c.Nodes(ctx)
	if err != nil {
		s.log.Warn("telling the other nodes of a deleted session", "session", id, "err", err)
		return
	}
	var wg sync.WaitGroup
	for _, n := range nodes {
		if n.Self || n.ID == done {
			continue
		}
		wg.Go(func() {
			cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			if err := c.Call(cctx, n.ID, verbDelete, deleteCall{Session: id}, nil); err != nil && !errors.Is(err, ErrNodeUnreachable) {
				s.log.Warn("telling a node of a deleted session", "session", id, "node", n.ID, "err", err)
			}
		})
	}
	wg.Wait()
}

// forgetHere ends what this node holds of a session: its process, its
// turns, its events' topic, its approvals.
func (s *Server) forgetHere(ctx context.Context, id string, opts engine.DeleteOptions) {
	if err := s.opts.Engine.DeleteSessionWith(ctx, id, opts); err != nil && !errors.Is(err, engine.ErrSessionNotFound) {
		// The session is gone from the engine even so; what could not be
		// destroyed is logged and the record goes, or the ID stays stuck.
		s.log.Warn("deleting a session left something behind", "session", id, "err", err)
	}
	s.opts.Hub.Forget(id)
	s.refs.forget(id)
	s.opts.Approvals.SetAsk(id, false)
	// Callers waiting here for prompts queued on it, for other nodes'
	// callers too, hear it went.
	s.dropWaiting(id, fmt.Errorf("%w: %w: the session was deleted", errPromptDropped, engine.ErrSessionDeleted))
}

// removeWorkDir removes the work directory a session's creation made. It
// must lie strictly inside the owner's tree, whatever the record says.
func (s *Server) removeWorkDir(st store.Session) {
	if s.opts.WorkDirRoot == "" || st.WorkDir == "" {
		return
	}
	root, err := filepath.EvalSymlinks(s.opts.WorkDirRoot)
	if err != nil {
		return
	}
	tree := filepath.Join(root, engine.OwnerDir(st.Owner))
	rel, err := filepath.Rel(tree, st.WorkDir)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		s.log.Warn("not removing a work directory outside its owner's tree", "session", st.ID, "work_dir", st.WorkDir)
		return
	}
	if err := os.RemoveAll(st.WorkDir); err != nil {
		s.log.Warn("removing a deleted session's work directory", "session", st.ID, "err", err)
	}
}

// newNonce draws a session creation's nonce.
func newNonce() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
