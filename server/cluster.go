package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/store"
)

// Cluster is what a node of a cluster asks of the others. The nodes share
// one store; a session's process runs on the node that holds its lease
// (its owner), and a turn, an interrupt, a permission's answer or a
// deletion arriving elsewhere is carried out there. Options.Cluster is
// nil on a single node.
type Cluster interface {
	// NodeID names this node.
	NodeID() string
	// Owner names the node that runs the session now, "" when none does
	// (new, hibernated, or its owner died and its lease expired).
	Owner(ctx context.Context, sessionID string) (string, error)
	// Call runs verb on node with req and decodes its answer into resp.
	// An error wrapping ErrNodeUnreachable means the node did not
	// answer at all; a node's own error comes back as an error that
	// errors.Is matches against the engine's errors it stood for.
	Call(ctx context.Context, node, verb string, req, resp any) error
	// Place names the node a session nobody runs should start on: the
	// one with the most headroom, none of exclude; "" when no node is
	// known.
	Place(ctx context.Context, exclude ...string) (string, error)
	// Nodes lists the live nodes.
	Nodes(ctx context.Context) ([]NodeStatus, error)
	// SetDraining tells the other nodes this one takes no new sessions.
	SetDraining(draining bool)
}

// NodeStatus is one node of a cluster, as GET /v1/cluster shows it.
type NodeStatus struct {
	ID           string    `json:"id"`
	URL          string    `json:"url,omitempty"`
	Version      string    `json:"version,omitempty"`
	Started      time.Time `json:"started"`
	Updated      time.Time `json:"updated"`
	Resident     int       `json:"resident"`
	MaxResident  int       `json:"max_resident"`
	RunningTurns int       `json:"running_turns"`
	Leases       int       `json:"leases"`
	Draining     bool      `json:"draining"`
	Self         bool      `json:"self"`
}

// ErrNodeUnreachable is a Call to a node that is not there (it died or
// left) or did not answer in time.
var ErrNodeUnreachable = errors.New("node unreachable")

// The verbs one node calls on another.
const (
	verbTurnStart = "turn.start"
	verbTurnWait  = "turn.wait"
	verbInterrupt = "interrupt"
	verbAnswer    = "permission.answer"
	verbPending   = "permission.pending"
	verbDelete    = "session.delete"
	verbLive      = "session.live"
)

// ownerWait bounds how long a turn waits for a dead owner's lease to
// expire before it gives up (the lease TTL plus a margin is enough).
const ownerWait = 30 * time.Second

// turnHandle is a turn the server streams: one of this node's engine, or
// one running on the session's owner.
type turnHandle interface {
	SessionID() string
	FirstSeq() uint64
	LastSeq() (uint64, bool)
	Done() <-chan struct{}
	Wait() error
}

// owner returns the node a session's work must go to: "" for this one.
func (s *Server) owner(ctx context.Context, id string) (string, error) {
	c := s.opts.Cluster
	if c == nil {
		return "", nil
	}
	node, err := c.Owner(ctx, id)
	if err != nil {
		return "", fmt.Errorf("%w: finding the session's node: %w", engine.ErrStartFailed, err)
	}
	if node == c.NodeID() {
		return "", nil
	}
	return node, nil
}

// begin starts a turn where the session lives: here when this node owns
// it or nobody does, on its owner otherwise. A dead owner's lease is
// waited out, then the session is taken here.
func (s *Server) begin(ctx context.Context, st store.Session, req messageRequest) (turnHandle, error) {
	deadline := time.Now().Add(ownerWait)
	var unreachable []string // placements that did not answer, or were full
	var full error           // the last placement's refusal for room
	for {
		node, err := s.owner(ctx, st.ID)
		if err != nil {
			return nil, err
		}
		if node == "" && s.draining.Load() && s.holds(st.ID) {
			// Handed over rather than kept: once hibernated (at once if
			// idle, else after its running turn) another node takes it.
			if err := s.opts.Engine.Hibernate(ctx, st.ID); err != nil {
				s.log.Warn("draining: hibernating a session for its next turn", "session", st.ID, "err", err)
			}
		}
		placed := false
		if node == "" && s.opts.Cluster != nil && !s.holds(st.ID) {
			// Nobody runs it: a new session, or one hibernated.
			node, placed = s.place(ctx, unreachable), true
			if node == "" && full != nil && slices.Contains(unreachable, s.opts.Cluster.NodeID()) {
				return nil, full // every node is full
			}
		}
		if node == "" {
			t, err := s.beginHere(ctx, st, req)
			if err == nil && placed {
				// A node with no room for it refuses it before its first
				// event: another node may have room.
				err = admitted(ctx, t)
			}
			if errors.Is(err, engine.ErrNotOwner) && time.Now().Before(deadline) {
				continue // another node took it meanwhile: go there
			}
			if placed && errors.Is(err, engine.ErrOverloaded) {
				full, unreachable = err, append(unreachable, s.opts.Cluster.NodeID())
				continue
			}
			return t, err
		}
		t, err := s.beginOn(ctx, node, st, req)
		if errors.Is(err, engine.ErrNotOwner) && time.Now().Before(deadline) {
			// It moved, or that node is leaving: ask again.
			continue
		}
		if placed && errors.Is(err, engine.ErrOverloaded) {
			full, unreachable = err, append(unreachable, node)
			continue
		}
		if placed && errors.Is(err, ErrNodeUnreachable) && time.Now().Before(deadline) {
			unreachable = append(unreachable, node)
			continue
		}
		if !errors.Is(err, ErrNodeUnreachable) || time.Now().After(deadline) {
			return t, err
		}
		s.log.Warn("the session's node does not answer; waiting for its lease to expire", "session", st.ID, "node", node, "err", err)
		select {
		case <-time.After(250 * time.Millisecond):
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		}
	}
}

// admitted waits until the turn began (see engine.Turn.Begun) and
// returns the error of one that ended without an event, such as a refusal
// for room: nobody saw anything of it, and it may be tried elsewhere.
//
// A call from another node waits less than the caller does, leaving it
// time for the answer: a turn not begun by then is answered as started
// (its stream tells the rest), never left running unknown to the caller.
func admitted(ctx context.Context, t *engine.Turn) error {
	if d, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d.Add(-time.Second))
		defer cancel()
	}
	select {
	case <-t.Begun():
	case <-ctx.Done():
		return nil // the turn goes on; its stream tells the rest
	}
	if last, ended := t.LastSeq(); ended && last < t.FirstSeq() {
		return t.Wait()
	}
	return nil
}

// holds reports whether this node runs the session's process.
func (s *Server) holds(id string) bool {
	live, ok := s.opts.Engine.GetSession(id)
	return ok && live.Status.Live()
}

// place chooses the node a session nobody runs starts on: "" for this
// one. A draining node sends it elsewhere when any other node is there.
func (s *Server) place(ctx context.Context, exclude []string) string {
	self := s.opts.Cluster.NodeID()
	if s.draining.Load() {
		exclude = append(slices.Clip(exclude), self)
	}
	node, err := s.opts.Cluster.Place(ctx, exclude...)
	if err != nil {
		s.log.Warn("choosing a node for a session; taking it here", "err", err)
		return ""
	}
	if node == self {
		return ""
	}
	return node
}

// beginHere starts a turn on this node's engine. In a cluster the
// session may have run elsewhere since this node last saw it: it is
// brought up to date from the store first.
func (s *Server) beginHere(ctx context.Context, st store.Session, req messageRequest) (*engine.Turn, error) {
	// Counted until the engine counts it as busy, so that a drain does
	// not end between a turn's decision to run here and its start.
	s.starting.Add(1)
	defer s.starting.Add(-1)
	if s.opts.Cluster != nil {
		if err := s.adopt(ctx, st.ID); err != nil {
			return nil, err
		}
	}
	cfg := &engine.Config{SessionID: st.ID, WorkDir: st.WorkDir, TaskSystemPrompt: req.TaskSystemPrompt, Owner: st.Owner, MustExist: true}
	if req.queued != 0 {
		// A queued prompt leaves the queue as its turn takes the
		// session: of the nodes that may run a session's queue, one
		// runs each prompt, once.
		qs := s.queue()
		cfg.Claim = func() error {
			if err := s.ctx.Err(); err != nil {
				return err
			}
			return qs.DequeuePrompt(s.ctx, req.queued)
		}
	}
	return s.opts.Engine.Start(ctx, cfg, req.Prompt)
}

// adopt makes this node's engine know the session as the store has it
// now: added when another node created it, caught up when another node
// ran it since.
func (s *Server) adopt(ctx context.Context, id string) error {
	st, err := s.opts.Store.GetSession(ctx, id)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("%w: %s", engine.ErrSessionNotFound, id)
		}
		return err
	}
	if _, ok := s.opts.Engine.GetSession(id); !ok {
		if err := s.restoreOne(ctx, st); err != nil && !errors.Is(err, engine.ErrSessionExists) {
			return err
		}
	}
	return s.opts.Engine.CatchUp(id, st.LastSeq, storedStats(st))
}

// storedStats reads a record's statistics, nil when it has none.
func storedStats(st store.Session) *event.SessionStatsData {
	if len(st.Stats) == 0 {
		return nil
	}
	d := &event.SessionStatsData{}
	if json.Unmarshal(st.Stats, d) != nil {
		return nil
	}
	return d
}

type turnStartRequest struct {
	Session          string `json:"session"`
	Prompt           string `json:"prompt"`
	TaskSystemPrompt string `json:"task_system_prompt,omitempty"`
	// Queued is the queued prompt the turn runs: it leaves the queue as
	// the turn takes the session, or the turn does not start.
	Queued int64 `json:"queued,omitempty"`
}

type turnStartReply struct {
	Turn     string `json:"turn"`
	FirstSeq uint64 `json:"first_seq"`
}

type turnWaitRequest struct {
	Turn string `json:"turn"`
	// WaitMs bounds the wait: an unfinished turn is answered with Done
	// false, and the caller asks again, so that a node that died is
	// noticed within a wait.
	WaitMs int64 `json:"wait_ms"`
}

type turnWaitReply struct {
	Done    bool       `json:"done"`
	LastSeq uint64     `json:"last_seq"`
	Error   *CallError `json:"error,omitempty"`
}

// turnPoll is how long one wait for a turn on another node lasts.
const turnPoll = 2 * time.Second

// beginOn starts the turn on node, the session's owner. Its events come
// here the way every event of another node's sessions does (see
// Options.Cluster); its end comes as the answer to a wait on the owner.
func (s *Server) beginOn(ctx context.Context, node string, st store.Session, req messageRequest) (turnHandle, error) {
	var started turnStartReply
	err := s.opts.Cluster.Call(ctx, node, verbTurnStart,
		turnStartRequest{Session: st.ID, Prompt: req.Prompt, TaskSystemPrompt: req.TaskSystemPrompt, Queued: req.queued}, &started)
	if err != nil {
		return nil, err
	}
	return s.watchRemote(node, st.ID, started.Turn, started.FirstSeq), nil
}

// remoteTurn is a turn that runs on another node.
type remoteTurn struct {
	session string
	first   uint64
	done    chan struct{}

	mu   sync.Mutex
	last uint64
	err  error
}

func (t *remoteTurn) SessionID() string     { return t.session }
func (t *remoteTurn) FirstSeq() uint64      { return t.first }
func (t *remoteTurn) Done() <-chan struct{} { return t.done }

func (t *remoteTurn) LastSeq() (uint64, bool) {
	select {
	case <-t.done:
		t.mu.Lock()
		defer t.mu.Unlock()
		return t.last, true
	default:
		return 0, false
	}
}

func (t *remoteTurn) Wait() error {
	<-t.done
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}

// stillOwner reports whether a wait on node that failed with err is to
// be asked again: node did not answer in time (busy, or slow under load)
// yet still holds the session's lease, so the turn still runs there. It
// waits a moment first. A node that lost the session, or an answer that
// was an error, ends the wait.
func (s *Server) stillOwner(node, session string, err error) bool {
	if !errors.Is(err, ErrNodeUnreachable) {
		return false
	}
	select {
	case <-time.After(unreachableRetry):
	case <-s.ctx.Done():
		return false
	}
	owner, oerr := s.owner(s.ctx, session)
	if oerr != nil || owner != node {
		return false
	}
	s.log.Warn("the node of a turn did not answer; asking again while it holds the session", "session", session, "node", node, "err", err)
	return true
}

// unreachableRetry is how long a wait for a turn on an unanswering node
// pauses before it asks again.
const unreachableRetry = 200 * time.Millisecond

// wait asks the owner for the turn's end. An owner that dies meanwhile
// ends the turn with an error; the events it delivered before stay.
func (t *remoteTurn) wait(s *Server, node, id string) {
	var (
		reply turnWaitReply
		err   error
	)
	for !reply.Done {
		ctx, cancel := context.WithTimeout(s.ctx, turnPoll+5*time.Second)
		err = s.opts.Cluster.Call(ctx, node, verbTurnWait, turnWaitRequest{Turn: id, WaitMs: turnPoll.Milliseconds()}, &reply)
		cancel()
		if err != nil && !s.stillOwner(node, t.session, err) {
			break
		}
	}
	t.mu.Lock()
	switch {
	case err != nil:
		t.err = fmt.Errorf("%w: the session's node %s: %w", engine.ErrSessionDead, node, err)
		// What was delivered is all there will be.
		t.last = t.first - 1
		if st, gerr := s.opts.Store.GetSession(context.WithoutCancel(s.ctx), t.session); gerr == nil && st.LastSeq > t.last {
			t.last = st.LastSeq
		}
	default:
		t.last = reply.LastSeq
		if reply.Error != nil {
			t.err = reply.Error
		}
	}
	t.mu.Unlock()
	close(t.done)
}

// CallError is an error that crossed from one node to another, with the
// code errorCode gave it there, so errors.Is still matches the engine's
// error it stood for. HandleCall's errors are of this type when the work
// failed; a Cluster's Call gives them back as such.
type CallError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// RetryAfter is an overload's retry hint, in milliseconds.
	RetryAfter int64 `json:"retry_after_ms,omitempty"`
	// Answered is an already_answered permission's first answer.
	Answered *permissionAnswered `json:"answered,omitempty"`
}

func (e *CallError) Error() string { return e.Message }

// codeErrors are the engine errors behind each code.
var codeErrors = map[string]error{
	"session_gone":   engine.ErrSessionNotFound,
	"danger_blocked": engine.ErrDangerBlocked,
	"busy":           engine.ErrSessionBusy,
	"overloaded":     engine.ErrOverloaded,
	"interrupted":    engine.ErrInterrupted,
	"timeout":        engine.ErrTurnTimeout,
	"agent_died":     engine.ErrSessionDead,
	"start_failed":   engine.ErrStartFailed,
	"turn_failed":    engine.ErrTurnFailed,
	"not_owner":      engine.ErrNotOwner,
	"queue_dropped":  errPromptDropped,
	"no_such_prompt": errNoSuchPrompt,
	"prompt_taken":   store.ErrNotFound,
}

func (e *CallError) Is(target error) bool { return codeErrors[e.Code] == target }

// Unwrap gives an overload its retry hint back (engine.RetryAfter).
func (e *CallError) Unwrap() error {
	if e.Code == "overloaded" {
		return &engine.OverloadedError{Reason: e.Message, RetryAfter: time.Duration(e.RetryAfter) * time.Millisecond}
	}
	return nil
}

// toWire encodes err for another node.
func toWire(err error) *CallError {
	if err == nil {
		return nil
	}
	code := errorCode(err)
	switch {
	case errors.Is(err, engine.ErrNotOwner):
		code = "not_owner"
	case errors.Is(err, errPromptDropped):
		code = "queue_dropped"
	}
	return &CallError{Code: code, Message: err.Error(), RetryAfter: engine.RetryAfter(err).Milliseconds()}
}

// remoteTurns are the turns this node runs for another node's callers,
// until the caller has learnt how each ended.
type remoteTurns struct {
	mu    sync.Mutex
	turns map[string]turnHandle
}

// HandleCall answers another node's call: verb with its JSON body. The
// error it returns is the answer when the work failed; *CallError keeps
// its code.
func (s *Server) HandleCall(ctx context.Context, verb string, body []byte) (any, error) {
	switch verb {
	case verbTurnStart:
		var req turnStartRequest
		if err := json.Unmarshal(body, &req); err != nil {
			return nil, err
		}
		st, err := s.sessionFor(ctx, req.Session)
		if err != nil {
			return nil, err
		}
		// The turn belongs to the server, not to the call: it runs on
		// whatever becomes of the caller.
		t, err := s.beginHere(s.ctx, st, messageRequest{Prompt: req.Prompt, TaskSystemPrompt: req.TaskSystemPrompt, queued: req.Queued})
		if err != nil {
			if req.Queued != 0 && errors.Is(err, store.ErrNotFound) {
				return nil, &CallError{Code: "prompt_taken", Message: err.Error()}
			}
			if s.ctx.Err() != nil {
				return nil, s.stopping()
			}
			s.opts.Metrics.turnFailed(err)
			return nil, toWire(err)
		}
		if err := admitted(ctx, t); errors.Is(err, engine.ErrOverloaded) {
			// Refused for room before its first event: the caller may
			// place the session on another node.
			return nil, toWire(err)
		}
		return turnStartReply{Turn: s.lend(t, true), FirstSeq: t.FirstSeq()}, nil
	case verbSubmit:
		return s.handleSubmit(ctx, body)
	case verbQueueWait:
		return s.handleQueueWait(ctx, body)
	case verbQueueDrop:
		var req queueDropCall
		if err := json.Unmarshal(body, &req); err != nil {
			return nil, err
		}
		s.dropWaiting(req.Session, fmt.Errorf("%w: %s", errPromptDropped, req.Reason))
		return struct{}{}, nil
	case verbTurnWait:
		var req turnWaitRequest
		if err := json.Unmarshal(body, &req); err != nil {
			return nil, err
		}
		s.remote.mu.Lock()
		t := s.remote.turns[req.Turn]
		s.remote.mu.Unlock()
		if t == nil {
			return nil, toWire(fmt.Errorf("%w: no turn %s here", engine.ErrSessionDead, req.Turn))
		}
		wait := time.Duration(req.WaitMs) * time.Millisecond
		if wait <= 0 {
			wait = turnPoll
		}
		timer := time.NewTimer(wait)
		defer timer.Stop()
		select {
		case <-t.Done():
		case <-timer.C:
			return turnWaitReply{}, nil // not yet: ask again
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		err := t.Wait()
		last, _ := t.LastSeq()
		return turnWaitReply{Done: true, LastSeq: last, Error: toWire(err)}, nil
	case verbInterrupt:
		var req sessionCall
		if err := json.Unmarshal(body, &req); err != nil {
			return nil, err
		}
		ok, err := s.opts.Engine.Interrupt(req.Session)
		if err != nil && !errors.Is(err, engine.ErrSessionNotFound) {
			return nil, toWire(err)
		}
		return map[string]bool{"interrupted": ok}, nil
	case verbAnswer:
		var req answerCall
		if err := json.Unmarshal(body, &req); err != nil {
			return nil, err
		}
		if err := s.opts.Approvals.Answer(req.Session, req.Request, req.Allow, req.Message, req.By); err != nil {
			var ae *apiError
			if errors.As(err, &ae) && ae.Answered != nil {
				return nil, &CallError{Code: ae.Code, Message: ae.Message, Answered: ae.Answered}
			}
			return nil, &CallError{Code: "not_found", Message: err.Error()}
		}
		return struct{}{}, nil
	case verbPending:
		var req sessionCall
		if err := json.Unmarshal(body, &req); err != nil {
			return nil, err
		}
		return s.opts.Approvals.Pending(req.Session), nil
	case verbDelete:
		var req deleteCall
		if err := json.Unmarshal(body, &req); err != nil {
			return nil, err
		}
		s.forgetHere(ctx, req.Session, engine.DeleteOptions{DeleteBranch: req.DeleteBranch})
		return struct{}{}, nil
	case verbLive:
		var req sessionCall
		if err := json.Unmarshal(body, &req); err != nil {
			return nil, err
		}
		live, ok := s.opts.Engine.GetSession(req.Session)
		if !ok {
			return nil, toWire(fmt.Errorf("%w: %s", engine.ErrSessionNotFound, req.Session))
		}
		return liveView{Status: string(live.Status), PID: live.PID, Stats: live.Stats()}, nil
	}
	return nil, &CallError{Code: "unknown_verb", Message: "unknown call " + verb}
}

type sessionCall struct {
	Session string `json:"session"`
}

type answerCall struct {
	Session string `json:"session"`
	Request string `json:"request"`
	Allow   bool   `json:"allow"`
	Message string `json:"message,omitempty"`
	// By is who answers, from which client.
	By event.Answerer `json:"by"`
}

type deleteCall struct {
	Session      string `json:"session"`
	DeleteBranch bool   `json:"delete_branch,omitempty"`
}

type liveView struct {
	Status string                 `json:"status"`
	PID    int                    `json:"pid"`
	Stats  event.SessionStatsData `json:"stats"`
}

// interruptSession interrupts the session's turn wherever it runs.
func (s *Server) interruptSession(ctx context.Context, st store.Session) (bool, error) {
	node, err := s.owner(ctx, st.ID)
	if err != nil {
		return false, err
	}
	if node == "" {
		ok, err := s.opts.Engine.Interrupt(st.ID)
		if errors.Is(err, engine.ErrSessionNotFound) {
			err = nil
		}
		return ok, err
	}
	var reply map[string]bool
	if err := s.opts.Cluster.Call(ctx, node, verbInterrupt, sessionCall{Session: st.ID}, &reply); err != nil {
		return false, err
	}
	return reply["interrupted"], nil
}

// answerOn answers a permission request wherever the session's
// turn waits for it.
func (s *Server) answerOn(ctx context.Context, st store.Session, request string, allow bool, message string, by event.Answerer) error {
	node, err := s.owner(ctx, st.ID)
	if err != nil {
		return err
	}
	if node == "" {
		return s.opts.Approvals.Answer(st.ID, request, allow, message, by)
	}
	err = s.opts.Cluster.Call(ctx, node, verbAnswer, answerCall{Session: st.ID, Request: request, Allow: allow, Message: message, By: by}, nil)
	var we *CallError
	if errors.As(err, &we) && we.Answered != nil {
		return answeredError(we.Answered.Decision, we.Answered.Answerer)
	}
	if errors.As(err, &we) && we.Code == "not_found" {
		return errNoSuchApproval
	}
	return err
}

// pendingPermissions lists what the session's turn waits for, wherever it
// runs.
func (s *Server) pendingPermissions(ctx context.Context, st store.Session) []PendingPermission {
	node, err := s.owner(ctx, st.ID)
	if err != nil || node == "" {
		return s.opts.Approvals.Pending(st.ID)
	}
	var out []PendingPermission
	if err := s.opts.Cluster.Call(ctx, node, verbPending, sessionCall{Session: st.ID}, &out); err != nil {
		s.log.Warn("asking the session's node for its permissions", "session", st.ID, "node", node, "err", err)
		return nil
	}
	return out
}

// liveOn reads the session's state off its owner, for a view taken on
// another node.
func (s *Server) liveOn(ctx context.Context, node, id string) (liveView, bool) {
	var v liveView
	if err := s.opts.Cluster.Call(ctx, node, verbLive, sessionCall{Session: id}, &v); err != nil {
		return v, false
	}
	return v, true
}

// Drain readies a node of a cluster to stop without losing work: the
// other nodes take its new sessions, its idle sessions are hibernated
// (their conversations saved, their leases given up) so that their next
// turns run elsewhere, and its running turns finish. It returns once no
// session has a process here, or with ctx's error. A single node has
// nothing to hand over.
func (s *Server) Drain(ctx context.Context) error {
	if s.opts.Cluster == nil {
		return nil
	}
	s.draining.Store(true)
	s.opts.Cluster.SetDraining(true)
	s.log.Info("draining: new sessions go to other nodes, idle ones are handed over")
	for {
		for _, ss := range s.opts.Engine.ListActiveSessions() {
			if ss.Status == engine.StatusIdle {
				if err := s.opts.Engine.Hibernate(ctx, ss.ID); err != nil {
					s.log.Warn("draining: hibernating a session", "session", ss.ID, "err", err)
				}
			}
		}
		ps := s.opts.Engine.PoolStats()
		if ps.Resident == 0 && ps.Busy == 0 && s.starting.Load() == 0 {
			s.log.Info("drained")
			return nil
		}
		select {
		case <-time.After(50 * time.Millisecond):
		case <-ctx.Done():
			return fmt.Errorf("draining: %d sessions still here: %w", ps.Resident, context.Cause(ctx))
		}
	}
}

// clusterView is GET /v1/cluster.
type clusterView struct {
	// Clustered is false on a single node, which lists no nodes.
	Clustered bool `json:"clustered"`
	// Node is the node that answered.
	Node  string       `json:"node,omitempty"`
	Nodes []NodeStatus `json:"nodes"`
}

// clusterStatus lists the nodes of the cluster (GET /v1/cluster, admin).
func (s *Server) clusterStatus(w http.ResponseWriter, r *http.Request) {
	if !callerOf(r).Admin {
		writeError(w, errForbidden)
		return
	}
	c := s.opts.Cluster
	if c == nil {
		writeJSON(w, http.StatusOK, clusterView{Nodes: []NodeStatus{}})
		return
	}
	nodes, err := c.Nodes(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, clusterView{Clustered: true, Node: c.NodeID(), Nodes: nodes})
}

// EndFollows ends the streams that follow sessions (their clients go on
// from another node with Last-Event-ID), while the streams of turns run
// to their ends: a node leaving a cluster does it once drained, before
// its HTTP server stops accepting and waits for the requests in flight.
func (s *Server) EndFollows() {
	s.endFollows.Do(func() { close(s.followsEnd) })
}
