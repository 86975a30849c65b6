package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/store"
)

// On a cluster a prompt for a session another node runs is submitted
// there: the owner alone knows whether a turn runs, steers the prompt
// into it, or queues the prompt (in the shared store) and runs the queue.
// The node the caller reached streams what becomes of it: the steered
// turn, the prompt's own turn once it starts, or why it was dropped.

// The verbs of submitting a prompt on the session's owner.
const (
	verbSubmit    = "prompt.submit"
	verbQueueWait = "queue.wait"
	verbQueueDrop = "queue.drop"
)

type submitRequest struct {
	Session          string `json:"session"`
	Prompt           string `json:"prompt"`
	TaskSystemPrompt string `json:"task_system_prompt,omitempty"`
	Mode             string `json:"mode,omitempty"`
}

// submitReply says what became of a submitted prompt (Kind): "started"
// as the session's turn, "steered" into the running turn (Seq is its
// prompt_steered event), or "queued" (Queued is its ID).
type submitReply struct {
	Kind     string `json:"kind"`
	Turn     string `json:"turn,omitempty"`
	FirstSeq uint64 `json:"first_seq,omitempty"`
	Seq      uint64 `json:"seq,omitempty"`
	Queued   int64  `json:"queued,omitempty"`
	Position int    `json:"position,omitempty"`
	Fallback string `json:"fallback,omitempty"`
}

type queueWaitRequest struct {
	Session string `json:"session"`
	Queued  int64  `json:"queued"`
	WaitMs  int64  `json:"wait_ms"`
}

// queueWaitReply answers a wait for a queued prompt's turn: Started once
// it did, with the turn to wait for.
type queueWaitReply struct {
	Started  bool   `json:"started"`
	Turn     string `json:"turn,omitempty"`
	FirstSeq uint64 `json:"first_seq,omitempty"`
}

type queueDropCall struct {
	Session string `json:"session"`
	Reason  string `json:"reason"`
}

// submitOn submits the prompt on node, the session's owner, and streams
// what became of it. handled is false when node is not the owner any
// more or does not answer: the caller goes on as if nobody ran the
// session (its turn, if any, then waits for the lease).
func (s *Server) submitOn(ctx context.Context, node string, st store.Session, req messageRequest, out sink) (handled bool, err error) {
	var r submitReply
	err = s.opts.Cluster.Call(ctx, node, verbSubmit,
		submitRequest{Session: st.ID, Prompt: req.Prompt, TaskSystemPrompt: req.TaskSystemPrompt, Mode: req.Mode}, &r)
	switch {
	case errors.Is(err, engine.ErrNotOwner), errors.Is(err, ErrNodeUnreachable):
		return false, nil
	case err != nil:
		return true, endTurn(out, false, err)
	}
	keepAlive := time.NewTicker(s.opts.KeepAlive)
	defer keepAlive.Stop()
	switch r.Kind {
	case "steered":
		if err := out.notice("steered", map[string]any{"session_id": publicID(st), "event_id": r.Seq}); err != nil {
			return true, errClientGone
		}
		return true, s.streamTurnAfter(ctx, s.watchRemote(node, st.ID, r.Turn, r.FirstSeq), r.Seq-1, out, keepAlive)
	case "queued":
		a := accepted{queued: r.Queued, position: r.Position, fallback: r.Fallback}
		if err := out.notice("queued", a.notice(st)); err != nil {
			return true, errClientGone
		}
		return true, s.awaitOn(ctx, node, st, r.Queued, out, keepAlive)
	}
	return true, s.streamTurn(ctx, s.watchRemote(node, st.ID, r.Turn, r.FirstSeq), out, keepAlive)
}

// awaitOn waits on node for the queued prompt id's turn to start, then
// streams it. If node goes away meanwhile the prompt is still in the
// shared queue: this node runs the queue from then on.
func (s *Server) awaitOn(ctx context.Context, node string, st store.Session, id int64, out sink, keepAlive *time.Ticker) error {
	for {
		var r queueWaitReply
		pctx, cancel := context.WithTimeout(ctx, turnPoll+5*time.Second)
		err := s.opts.Cluster.Call(pctx, node, verbQueueWait, queueWaitRequest{Session: st.ID, Queued: id, WaitMs: turnPoll.Milliseconds()}, &r)
		cancel()
		switch {
		case err == nil && r.Started:
			return s.streamTurn(ctx, s.watchRemote(node, st.ID, r.Turn, r.FirstSeq), out, keepAlive)
		case err == nil:
			select {
			case <-keepAlive.C:
				if err := out.keepAlive(); err != nil {
					return errClientGone
				}
			default:
			}
		case ctx.Err() != nil:
			return ctx.Err() // the prompt stays queued
		case errors.Is(err, errPromptDropped):
			_ = out.notice("queue_dropped", map[string]any{"session_id": publicID(st), "id": strconv.FormatInt(id, 10), "reason": err.Error()})
			return endTurn(out, false, err)
		case errors.Is(err, engine.ErrNotOwner), errors.Is(err, ErrNodeUnreachable), errors.Is(err, errNoSuchPrompt):
			return s.awaitHere(ctx, node, st, id, out, keepAlive)
		default:
			return endTurn(out, false, err)
		}
	}
}

// errNoSuchPrompt is a wait for a queued prompt its node does not know
// (it restarted since).
var errNoSuchPrompt = errors.New("no such queued prompt here")

// awaitHere takes over the wait for a queued prompt whose node left: the
// prompt is run from this node's dispatcher, unless it already left the
// queue (its turn started on the node that left, whose end is unknown).
func (s *Server) awaitHere(ctx context.Context, gone string, st store.Session, id int64, out sink, keepAlive *time.Ticker) error {
	started := s.await(st.ID, id)
	list, err := s.queue().QueuedPrompts(ctx, st.ID)
	if err != nil {
		s.unwait(st.ID, id)
		return endTurn(out, false, err)
	}
	for _, p := range list {
		if p.ID == id {
			s.log.Info("a queued prompt's node left; running the queue from here", "session", st.ID, "node", gone)
			s.dispatch(st.ID)
			return s.awaitQueued(ctx, st, id, started, out, keepAlive)
		}
	}
	s.unwait(st.ID, id)
	return endTurn(out, false, fmt.Errorf("%w: the prompt's turn started on node %s, which left", engine.ErrSessionDead, gone))
}

// watchRemote is a turn running on node, lent there as turn (see lend),
// whose end this node learns by waiting for it there.
func (s *Server) watchRemote(node, session, turn string, first uint64) *remoteTurn {
	t := &remoteTurn{session: session, first: first, done: make(chan struct{})}
	s.turns.Add(1)
	go func() {
		defer s.turns.Done()
		t.wait(s, node, turn)
	}()
	return t
}

// lend keeps a turn this node runs for another node's caller, who waits
// for its end by the returned ID (turn.wait). count says whether its
// failure is this call's to count in the metrics (not for a turn another
// caller started).
func (s *Server) lend(t turnHandle, count bool) string {
	id := uuid.NewString()
	s.remote.mu.Lock()
	if s.remote.turns == nil {
		s.remote.turns = map[string]turnHandle{}
	}
	s.remote.turns[id] = t
	s.remote.mu.Unlock()
	s.turns.Add(1)
	go func() {
		defer s.turns.Done()
		if err := t.Wait(); err != nil && count {
			s.opts.Metrics.turnFailed(err)
		}
		// The caller waits for the end; one that never comes back for
		// it leaves it here a while only.
		select {
		case <-time.After(time.Minute):
		case <-s.ctx.Done():
		}
		s.remote.mu.Lock()
		delete(s.remote.turns, id)
		s.remote.mu.Unlock()
	}()
	return id
}

// heldPrompts are the prompts this node queued for other nodes' callers,
// until each caller has learnt its turn started (or why it never will).
type heldPrompts struct {
	mu sync.Mutex
	m  map[int64]*heldPrompt
}

type heldPrompt struct {
	done  chan struct{} // closed once turn or err is set
	turn  string        // lent (see lend)
	first uint64
	err   error
}

// hold keeps the wait for the queued prompt id of session for a caller
// on another node.
func (s *Server) hold(session string, id int64, started <-chan startedTurn) {
	h := &heldPrompt{done: make(chan struct{})}
	s.held.mu.Lock()
	if s.held.m == nil {
		s.held.m = map[int64]*heldPrompt{}
	}
	s.held.m[id] = h
	s.held.mu.Unlock()
	s.turns.Add(1)
	go func() {
		defer s.turns.Done()
		select {
		case r := <-started:
			if r.err == nil {
				h.turn, h.first = s.lend(r.turn, false), r.turn.FirstSeq()
			}
			h.err = r.err
			close(h.done)
			select {
			case <-time.After(time.Minute):
			case <-s.ctx.Done():
			}
		case <-s.ctx.Done():
			// This node stops: the prompt stays queued, and its caller
			// runs the queue from its own node.
			s.unwait(session, id)
		}
		s.held.mu.Lock()
		delete(s.held.m, id)
		s.held.mu.Unlock()
	}()
}

// handleSubmit is verbSubmit on the session's owner.
func (s *Server) handleSubmit(ctx context.Context, body []byte) (any, error) {
	var req submitRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, err
	}
	st, err := s.sessionFor(ctx, req.Session)
	if err != nil {
		return nil, err
	}
	mr := messageRequest{Prompt: req.Prompt, Mode: req.Mode, TaskSystemPrompt: req.TaskSystemPrompt}
	a, err := s.accept(ctx, st, mr)
	if err != nil {
		if s.ctx.Err() != nil {
			return nil, s.stopping()
		}
		return nil, toWire(err)
	}
	switch {
	case a.steered != nil:
		return submitReply{Kind: "steered", Turn: s.lend(a.steered.Turn, false), FirstSeq: a.steered.Turn.FirstSeq(), Seq: a.steered.Seq}, nil
	case a.queued != 0:
		s.hold(st.ID, a.queued, a.started)
		return submitReply{Kind: "queued", Queued: a.queued, Position: a.position, Fallback: a.fallback}, nil
	}
	// The turn belongs to the server, not to the call: it runs on
	// whatever becomes of the caller.
	t, err := s.beginHere(s.ctx, st, mr)
	if err != nil {
		if s.ctx.Err() != nil {
			return nil, s.stopping()
		}
		s.opts.Metrics.turnFailed(err)
		return nil, toWire(err)
	}
	return submitReply{Kind: "started", Turn: s.lend(t, true), FirstSeq: t.FirstSeq()}, nil
}

// handleQueueWait is verbQueueWait: it answers once the held prompt's
// turn started, or after the wait asked for with Started false.
func (s *Server) handleQueueWait(ctx context.Context, body []byte) (any, error) {
	var req queueWaitRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, err
	}
	s.held.mu.Lock()
	h := s.held.m[req.Queued]
	s.held.mu.Unlock()
	if h == nil {
		return nil, &CallError{Code: "no_such_prompt", Message: fmt.Sprintf("%s: %d", errNoSuchPrompt, req.Queued)}
	}
	wait := time.Duration(req.WaitMs) * time.Millisecond
	if wait <= 0 {
		wait = turnPoll
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-h.done:
	case <-timer.C:
		return queueWaitReply{}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if h.err != nil {
		if s.ctx.Err() != nil {
			return nil, s.stopping()
		}
		return nil, toWire(h.err)
	}
	return queueWaitReply{Started: true, Turn: h.turn, FirstSeq: h.first}, nil
}

// dropWaitingEverywhere ends, on every node, the waits of the callers of
// the session's queued prompts (the prompts left the shared queue).
func (s *Server) dropWaitingEverywhere(ctx context.Context, session string, err error) {
	s.dropWaiting(session, err)
	c := s.opts.Cluster
	if c == nil {
		return
	}
	nodes, nerr := c.Nodes(ctx)
	if nerr != nil {
		s.log.Warn("telling the other nodes of dropped prompts", "session", session, "err", nerr)
		return
	}
	var wg sync.WaitGroup
	for _, n := range nodes {
		if n.Self {
			continue
		}
		wg.Go(func() {
			cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			if err := c.Call(cctx, n.ID, verbQueueDrop, queueDropCall{Session: session, Reason: err.Error()}, nil); err != nil && !errors.Is(err, ErrNodeUnreachable) {
				s.log.Warn("telling a node of dropped prompts", "session", session, "node", n.ID, "err", err)
			}
		})
	}
	wg.Wait()
}

// sessionFor reads the session another node's call names, and refuses
// the call when this node is leaving the cluster: the session is handed
// over (after the turn it runs, if any) and the caller asks again where
// it lives.
func (s *Server) sessionFor(ctx context.Context, id string) (store.Session, error) {
	if s.ctx.Err() != nil {
		return store.Session{}, s.stopping()
	}
	st, err := s.opts.Store.GetSession(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return st, toWire(fmt.Errorf("%w: %s", engine.ErrSessionNotFound, id))
	case err != nil && s.ctx.Err() != nil:
		return st, s.stopping()
	case err != nil:
		return st, toWire(err)
	}
	if s.draining.Load() {
		if s.holds(st.ID) {
			_ = s.opts.Engine.Hibernate(ctx, st.ID)
		}
		return st, toWire(fmt.Errorf("%w: node %s is leaving the cluster", engine.ErrNotOwner, s.opts.Cluster.NodeID()))
	}
	return st, nil
}

// stopping is the answer of a node that stops to work it is asked for:
// the caller goes to the session's next node.
func (s *Server) stopping() error {
	return toWire(fmt.Errorf("%w: node %s is stopping", engine.ErrNotOwner, s.opts.Cluster.NodeID()))
}
