package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/store"
)

// errPromptDropped ends the wait of a queued prompt whose queue was
// emptied (an interrupt with drop_queued, the session's deletion).
var errPromptDropped = errors.New("the queued prompt was dropped")

// promptQueues runs the prompts queued on sessions (store.QueueStore),
// each session's in order, one turn after another: a dispatcher per
// session with a queue, and the callers waiting for their prompt's turn
// to start.
type promptQueues struct {
	mu sync.Mutex
	// active holds the sessions whose dispatcher runs; again is set when
	// a prompt was queued while it looked, so it looks once more.
	active map[string]bool
	again  map[string]bool
	// waiting are the callers following a queued prompt, by session and
	// prompt ID, until its turn starts.
	waiting map[string]map[int64]chan startedTurn
}

// queue returns the store's prompt queue, nil when it keeps none (then
// a prompt waits for the session in memory, as it always could).
func (s *Server) queue() store.QueueStore {
	qs, _ := s.opts.Store.(store.QueueStore)
	return qs
}

// submit runs a prompt as its mode says: steered into the running turn,
// queued behind it, or run at once when nothing runs. On a cluster the
// session's owner decides, where its turn runs and its queue is run.
func (s *Server) submit(ctx context.Context, st store.Session, req messageRequest, out sink) error {
	if node, err := s.owner(ctx, st.ID); err == nil && node != "" {
		if handled, err := s.submitOn(ctx, node, st, req, out); handled {
			return err
		}
	}
	a, err := s.accept(ctx, st, req)
	if err != nil {
		return endTurn(out, false, err)
	}
	keepAlive := time.NewTicker(s.opts.KeepAlive)
	defer keepAlive.Stop()
	switch {
	case a.steered != nil:
		if err := out.notice("steered", map[string]any{"session_id": publicID(st), "event_id": a.steered.Seq}); err != nil {
			return errClientGone
		}
		return s.streamTurnAfter(ctx, a.steered.Turn, a.steered.Seq-1, out, keepAlive)
	case a.queued != 0:
		if err := out.notice("queued", a.notice(st)); err != nil {
			return errClientGone
		}
		return s.awaitQueued(ctx, st, a.queued, a.started, out, keepAlive)
	}
	return s.runTurn(ctx, st, req, out)
}

// accepted is what became of a prompt: steered into the running turn,
// queued (with the wait for its turn to start), or neither, when nothing
// runs and the prompt is to run at once.
type accepted struct {
	steered  *engine.Steered
	queued   int64 // the queued prompt's ID
	position int
	started  <-chan startedTurn
	// fallback says why a prompt to steer was queued instead.
	fallback string
}

// notice is the queued notice of a queued prompt.
func (a accepted) notice(st store.Session) map[string]any {
	n := map[string]any{"session_id": publicID(st), "id": strconv.FormatInt(a.queued, 10), "position": a.position}
	if a.fallback != "" {
		n["steer_fallback"] = a.fallback
	}
	return n
}

// accept steers or queues a prompt sent while the session is busy, on
// the node that runs the session.
func (s *Server) accept(ctx context.Context, st store.Session, req messageRequest) (accepted, error) {
	var a accepted
	if req.Mode == engine.ModeSteer && s.opts.Engine.Running(st.ID) {
		steered, err := s.opts.Engine.Steer(ctx, st.ID, req.Prompt)
		switch {
		case err == nil:
			a.steered = &steered
			return a, nil
		case errors.Is(err, engine.ErrSteerUnsupported):
			a.fallback = "the session's agent cannot be steered mid-turn"
		case errors.Is(err, engine.ErrNoTurn):
			a.fallback = "the running turn had not reached the agent yet"
		default:
			return a, err
		}
	}
	qs := s.queue()
	if qs == nil || !s.busy(ctx, st.ID) {
		return a, nil
	}
	p, pos, err := qs.EnqueuePrompt(ctx, store.QueuedPrompt{SessionID: st.ID, Prompt: req.Prompt, TaskSystemPrompt: req.TaskSystemPrompt})
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			err = fmt.Errorf("%w: %s", engine.ErrSessionDeleted, publicID(st))
		}
		return a, err
	}
	a.queued, a.position = p.ID, pos
	a.started = s.await(st.ID, p.ID)
	ev := event.NewEventWithMeta(event.TypePromptQueued, p.Prompt, &event.EventMeta{Status: "success"})
	ev.Queue = &event.QueueNote{Mode: engine.ModeQueue, ID: strconv.FormatInt(p.ID, 10), Position: pos, Fallback: a.fallback}
	// Followers see it among the running turn's events; between two
	// queued turns there is none to carry it, and the notice says it.
	_, _ = s.opts.Engine.Announce(st.ID, ev)
	s.dispatch(st.ID)
	return a, nil
}

// awaitQueued waits for the queued prompt id's turn to start, then
// streams it.
func (s *Server) awaitQueued(ctx context.Context, st store.Session, id int64, started <-chan startedTurn, out sink, keepAlive *time.Ticker) error {
	for {
		select {
		case r := <-started:
			if r.err != nil {
				if errors.Is(r.err, errPromptDropped) {
					_ = out.notice("queue_dropped", map[string]any{"session_id": publicID(st), "id": strconv.FormatInt(id, 10), "reason": r.err.Error()})
				}
				return endTurn(out, false, r.err)
			}
			return s.streamTurn(ctx, r.turn, out, keepAlive)
		case <-keepAlive.C:
			if err := out.keepAlive(); err != nil {
				return errClientGone
			}
		case <-ctx.Done():
			// The prompt stays queued: its turn belongs to the server.
			s.unwait(st.ID, id)
			return ctx.Err()
		}
	}
}

// busy reports whether a prompt for the session now would wait: a turn
// runs, or prompts are queued (on a cluster, by any node).
func (s *Server) busy(ctx context.Context, id string) bool {
	if s.opts.Engine.Running(id) {
		return true
	}
	s.queues.mu.Lock()
	active := s.queues.active[id]
	s.queues.mu.Unlock()
	if active {
		return true
	}
	return s.opts.Cluster != nil && s.queued(ctx, id) > 0
}

// await registers a caller waiting for the queued prompt id to start.
func (s *Server) await(session string, id int64) <-chan startedTurn {
	c := make(chan startedTurn, 1)
	s.queues.mu.Lock()
	defer s.queues.mu.Unlock()
	if s.queues.waiting == nil {
		s.queues.waiting = map[string]map[int64]chan startedTurn{}
	}
	if s.queues.waiting[session] == nil {
		s.queues.waiting[session] = map[int64]chan startedTurn{}
	}
	s.queues.waiting[session][id] = c
	return c
}

func (s *Server) unwait(session string, id int64) {
	s.queues.mu.Lock()
	defer s.queues.mu.Unlock()
	delete(s.queues.waiting[session], id)
}

// tell gives the caller waiting for prompt id, if any, its turn.
func (s *Server) tell(session string, id int64, r startedTurn) {
	s.queues.mu.Lock()
	c := s.queues.waiting[session][id]
	delete(s.queues.waiting[session], id)
	s.queues.mu.Unlock()
	if c != nil {
		c <- r
	}
}

// dropWaiting ends the waits of every caller of the session's queued
// prompts with err.
func (s *Server) dropWaiting(session string, err error) {
	s.queues.mu.Lock()
	w := s.queues.waiting[session]
	delete(s.queues.waiting, session)
	s.queues.mu.Unlock()
	for _, c := range w {
		c <- startedTurn{err: err}
	}
}

// dispatch makes sure the session's queue is being run.
func (s *Server) dispatch(id string) {
	s.queues.mu.Lock()
	defer s.queues.mu.Unlock()
	if s.queues.active == nil {
		s.queues.active, s.queues.again = map[string]bool{}, map[string]bool{}
	}
	if s.queues.active[id] {
		s.queues.again[id] = true
		return
	}
	s.queues.active[id] = true
	s.turns.Add(1)
	go func() {
		defer s.turns.Done()
		s.runQueue(id)
	}()
}

// runQueue runs the session's queued prompts, first queued first, each
// once the turn before it ended, until the queue is empty or the server
// closes (what is left then runs after the restart).
func (s *Server) runQueue(id string) {
	qs := s.queue()
	for s.ctx.Err() == nil {
		list, err := qs.QueuedPrompts(s.ctx, id)
		if err != nil {
			s.log.Warn("reading a session's queued prompts", "session", id, "err", err)
		}
		if len(list) == 0 {
			s.queues.mu.Lock()
			if s.queues.again[id] {
				delete(s.queues.again, id)
				s.queues.mu.Unlock()
				continue
			}
			delete(s.queues.active, id)
			s.queues.mu.Unlock()
			return
		}
		s.runQueued(list[0])
	}
	s.queues.mu.Lock()
	delete(s.queues.active, id)
	s.queues.mu.Unlock()
}

// runQueued starts the queued prompt p as its session's turn and waits
// for that turn to end. On one node the prompt leaves the store as its
// turn takes the session's slot, so a prompt dropped while it waited
// never runs and one whose turn started never runs twice.
func (s *Server) runQueued(p store.QueuedPrompt) {
	qs := s.queue()
	st, err := s.opts.Store.GetSession(s.ctx, p.SessionID)
	if err != nil {
		if s.ctx.Err() != nil {
			return // the server closes; the prompt runs after the restart
		}
		if errors.Is(err, store.ErrNotFound) {
			s.dropWaiting(p.SessionID, fmt.Errorf("%w: %w: %s", errPromptDropped, engine.ErrSessionDeleted, p.SessionID))
			return
		}
		s.tell(p.SessionID, p.ID, startedTurn{err: err})
		_ = qs.DequeuePrompt(s.ctx, p.ID)
		return
	}
	req := messageRequest{Prompt: p.Prompt, TaskSystemPrompt: p.TaskSystemPrompt}
	var t turnHandle
	if s.opts.Cluster == nil {
		cfg := &engine.Config{SessionID: st.ID, WorkDir: st.WorkDir, TaskSystemPrompt: p.TaskSystemPrompt, Owner: st.Owner, MustExist: true,
			Claim: func() error {
				if err := s.ctx.Err(); err != nil {
					// The server closes: the slot came free because its
					// turn was interrupted, and the prompt waits for the
					// restart.
					return err
				}
				return qs.DequeuePrompt(s.ctx, p.ID)
			}}
		var et *engine.Turn
		et, err = s.opts.Engine.Start(s.ctx, cfg, p.Prompt)
		if err == nil {
			t = et
		}
		if errors.Is(err, store.ErrNotFound) {
			// Dropped while it waited: its caller was told.
			return
		}
	} else {
		// The session's node takes the turn; the prompt leaves the
		// queue as it does.
		req.queued = p.ID
		t, err = s.begin(s.ctx, st, req)
		if err != nil && s.ctx.Err() != nil {
			return // the server closes; the prompt runs after the restart
		}
		if errors.Is(err, store.ErrNotFound) {
			// Dropped while it waited (its caller was told), or another
			// node's run of the queue took it.
			s.tell(st.ID, p.ID, startedTurn{err: fmt.Errorf("%w: another node ran it", errPromptDropped)})
			return
		}
	}
	if err != nil {
		if errors.Is(err, engine.ErrSessionDeleted) || errors.Is(err, engine.ErrSessionNotFound) {
			_, _ = qs.DropQueuedPrompts(s.ctx, st.ID)
			s.dropWaiting(st.ID, fmt.Errorf("%w: %w", errPromptDropped, err))
			return
		}
		if s.ctx.Err() != nil {
			return // the server closes; the prompt runs after the restart
		}
		_ = qs.DequeuePrompt(s.ctx, p.ID)
		s.tell(st.ID, p.ID, startedTurn{err: err})
		s.opts.Metrics.turnFailed(err)
		return
	}
	s.tell(st.ID, p.ID, startedTurn{turn: t})
	if err := t.Wait(); err != nil {
		s.opts.Metrics.turnFailed(err)
	}
}

// dropQueue empties the session's queue and ends its callers' waits with
// why; it returns how many prompts it held.
func (s *Server) dropQueue(ctx context.Context, st store.Session, why string) (int, error) {
	qs := s.queue()
	if qs == nil {
		return 0, nil
	}
	n, err := qs.DropQueuedPrompts(ctx, st.ID)
	if err != nil {
		return 0, err
	}
	s.dropWaitingEverywhere(ctx, st.ID, fmt.Errorf("%w: %s", errPromptDropped, why))
	return n, nil
}

// queued counts the session's queued prompts (0 when the store keeps
// none or cannot say).
func (s *Server) queued(ctx context.Context, id string) int {
	qs := s.queue()
	if qs == nil {
		return 0
	}
	list, err := qs.QueuedPrompts(ctx, id)
	if err != nil {
		return 0
	}
	return len(list)
}

// resumeQueues runs the prompts queued before a restart, each session's
// in order. On a cluster the queue's rows are shared: every node that
// starts runs them, and each prompt leaves the queue as its turn takes
// the session, so it runs once.
func (s *Server) resumeQueues(ctx context.Context) {
	qs := s.queue()
	if qs == nil {
		return
	}
	list, err := qs.QueuedPrompts(ctx, "")
	if err != nil {
		s.log.Warn("reading queued prompts after a restart", "err", err)
		return
	}
	seen := map[string]bool{}
	for _, p := range list {
		if !seen[p.SessionID] {
			seen[p.SessionID] = true
			s.log.Info("running prompts queued before the restart", "session", p.SessionID)
			s.dispatch(p.SessionID)
		}
	}
}

// validMode checks a prompt's mode: "" (queue), queue or steer.
func validMode(mode string) *apiError {
	switch mode {
	case "", engine.ModeQueue, engine.ModeSteer:
		return nil
	}
	return errorf(http.StatusBadRequest, "bad_request", fmt.Sprintf("mode must be %q or %q, not %q", engine.ModeQueue, engine.ModeSteer, mode))
}
