package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/hub"
	"github.com/hotplex/hotplex/store"
)

type messageRequest struct {
	Prompt string `json:"prompt"`
	// Mode says what a prompt sent while a turn runs does: "queue" (the
	// default) runs it as the session's next turn, "steer" delivers it
	// into the running turn where the agent can take one (else it is
	// queued, and the queued notice says why).
	Mode string `json:"mode,omitempty" enum:"queue,steer"`
	// TaskSystemPrompt is prepended to this turn's prompt only.
	TaskSystemPrompt string `json:"task_system_prompt,omitempty"`

	// queued is the queued prompt a turn of a cluster runs (see
	// turnStartRequest.Queued).
	queued int64
}

// errClientGone ends a delivery whose client stopped reading.
var errClientGone = errors.New("client gone")

// sink is where a transport delivers events: an SSE response or a
// WebSocket connection. Returning an error stops the delivery.
type sink interface {
	// event delivers a live event.
	event(ev *hub.Event) error
	// stored delivers an event read back from the store.
	stored(e store.Event) error
	// notice delivers a message that is not a session event (resync,
	// disconnect, turn_error).
	notice(typ string, data any) error
	// keepAlive tells the client the connection lives.
	keepAlive() error
}

// runTurn starts a turn that belongs to the server, not to the client: a
// client that goes away can follow the session again and miss nothing.
// The turn's events reach out from the hub, after they were stored, so
// whatever a client saw survives a crash of the daemon. runTurn returns
// when the turn's last event was delivered (with the turn's error, if
// any), when out fails, or when ctx ends.
func (s *Server) runTurn(ctx context.Context, st store.Session, req messageRequest, out sink) error {
	keepAlive := time.NewTicker(s.opts.KeepAlive)
	defer keepAlive.Stop()
	started := s.startTurn(st, req)
	for {
		select {
		case r := <-started:
			if r.err != nil {
				return endTurn(out, false, r.err)
			}
			return s.streamTurn(ctx, r.turn, out, keepAlive)
		case <-keepAlive.C:
			// The turn may wait long for its session behind another.
			if err := out.keepAlive(); err != nil {
				return errClientGone
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

type startedTurn struct {
	turn turnHandle
	err  error
}

// startTurn admits the turn from a goroutine of the server's, which then
// waits for it to end, whatever becomes of the client, and counts its
// failure.
func (s *Server) startTurn(st store.Session, req messageRequest) <-chan startedTurn {
	c := make(chan startedTurn, 1)
	s.turns.Add(1)
	go func() {
		defer s.turns.Done()
		t, err := s.begin(s.ctx, st, req)
		c <- startedTurn{t, err}
		if err == nil {
			err = t.Wait()
		}
		if err != nil {
			s.opts.Metrics.turnFailed(err)
		}
	}()
	return c
}

// streamTurn delivers a turn's events from the hub, from its first to its
// last, then ends the stream with the turn's error.
func (s *Server) streamTurn(ctx context.Context, t turnHandle, out sink, keepAlive *time.Ticker) error {
	return s.streamTurnAfter(ctx, t, t.FirstSeq()-1, out, keepAlive)
}

// streamTurnAfter is streamTurn from the turn's event after after on (a
// steered prompt follows the turn from its prompt_steered event).
func (s *Server) streamTurnAfter(ctx context.Context, t turnHandle, after uint64, out sink, keepAlive *time.Ticker) error {
	id := t.SessionID()
	sent := after // the newest event delivered
	streamed := false
	replay, sub, gap := s.opts.Hub.Subscribe(id, sent)
	defer sub.Close()
	idle, end := coalesced(out, sub)
	defer end()
	// ours tells the turn's events from a later turn's, which follow it
	// once it has ended; finished is true once its last was delivered.
	ours := func(seq uint64) bool {
		last, ended := t.LastSeq()
		return !ended || seq <= last
	}
	finished := func() bool {
		last, ended := t.LastSeq()
		return ended && sent >= last
	}
	deliver := func(ev *hub.Event) error {
		if err := out.event(ev); err != nil {
			return errClientGone
		}
		sent, streamed = ev.Seq, true
		return nil
	}
	// The session ended with the stream (deleted, or the daemon closing):
	// the turn ends too, and its error is the answer.
	endedWithSession := func() error {
		select {
		case <-t.Done():
		case <-ctx.Done():
			return ctx.Err()
		}
		err := t.Wait()
		if err == nil {
			err = fmt.Errorf("%w: the turn's stream ended with the session", engine.ErrSessionDeleted)
		}
		return endTurn(out, streamed, err)
	}

	if s.sessionGone(id) {
		// Deleted before the subscription, which may then follow a topic
		// the deletion already forgot.
		return endedWithSession()
	}
	if gap {
		// The ring let go of the turn's first events already; the store,
		// which had them first, has them.
		stored, err := s.opts.Store.Events(ctx, id, sent, 0)
		if err != nil {
			return endTurn(out, streamed, err)
		}
		for _, e := range stored {
			if e.Seq >= replay[0].Seq || !ours(e.Seq) {
				break
			}
			if err := out.stored(e); err != nil {
				return errClientGone
			}
			sent, streamed = e.Seq, true
		}
	}
	for _, ev := range replay {
		if ev.Seq <= sent {
			continue
		}
		if !ours(ev.Seq) {
			break
		}
		if err := deliver(ev); err != nil {
			return err
		}
	}
	done := t.Done()
	// A turn run on another node sends its events through the cluster;
	// the store has them too, and is read when they are late.
	_, remote := t.(*remoteTurn)
	var late <-chan time.Time
	for !finished() {
		idle()
		select {
		case ev, ok := <-sub.C():
			if !ok {
				if errors.Is(sub.Err(), hub.ErrClosed) {
					return endedWithSession()
				}
				return errors.Join(errClientGone, sub.Err())
			}
			if ev.Seq <= sent || !ours(ev.Seq) {
				continue
			}
			if err := deliver(ev); err != nil {
				return err
			}
		case <-done:
			// Its last event is known now; the loop ends once it is
			// delivered (at once if it emitted none).
			done = nil
			if remote {
				late = time.After(lateEvents)
			}
		case <-late:
			last, _ := t.LastSeq()
			s.log.Warn("the events of a turn run on another node are late; reading them from the store", "session", id, "delivered", sent, "last", last)
			stored, err := s.opts.Store.Events(ctx, id, sent, 0)
			if err != nil {
				return endTurn(out, streamed, err)
			}
			for _, e := range stored {
				if e.Seq > last {
					break
				}
				if err := out.stored(e); err != nil {
					return errClientGone
				}
				sent, streamed = e.Seq, true
			}
			late = time.After(lateEvents)
		case <-keepAlive.C:
			if err := out.keepAlive(); err != nil {
				return errClientGone
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return endTurn(out, streamed, t.Wait())
}

// lateEvents is how long after a turn on another node ended its events
// may take to arrive through the cluster before the store is read.
const lateEvents = time.Second

// endTurn ends a turn's stream with its error, if any: as a plain HTTP
// error when nothing was streamed (the turn never started: overloaded,
// unknown agent, ...) and out still can, else as a turn_error notice.
func endTurn(out sink, streamed bool, turnErr error) error {
	if turnErr == nil {
		return nil
	}
	if f, ok := out.(failer); ok && !streamed && f.fail(turnErr) {
		return turnErr
	}
	notice := map[string]any{"error": errorCode(turnErr), "message": turnErr.Error()}
	if d := engine.RetryAfter(turnErr); d > 0 {
		notice["retry_after"] = int(d.Round(time.Second) / time.Second)
	}
	_ = out.notice("turn_error", notice)
	return turnErr
}

// follow delivers a session's events after after — those the hub's ring
// no longer holds from the store — then live ones, with none missed or
// repeated, until out fails or ctx ends.
func (s *Server) follow(ctx context.Context, sessionID string, after uint64, out sink) error {
	replay, sub, _ := s.opts.Hub.Subscribe(sessionID, after)
	defer sub.Close()
	idle, end := coalesced(out, sub)
	defer end()
	sent := after
	firstInRing := uint64(0)
	if len(replay) > 0 {
		firstInRing = replay[0].Seq
	}
	if firstInRing == 0 || firstInRing > sent+1 {
		stored, err := s.opts.Store.Events(ctx, sessionID, sent, 0)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			_ = out.notice("resync", map[string]any{"error": err.Error(), "last_event_id": sent})
			return err
		}
		for _, e := range stored {
			if firstInRing != 0 && e.Seq >= firstInRing {
				break
			}
			if err := out.stored(e); err != nil {
				return errClientGone
			}
			sent = e.Seq
		}
	}
	if firstInRing > sent+1 {
		// Neither the store nor the ring has what lies between.
		if err := out.notice("resync", map[string]any{"from": sent, "to": firstInRing}); err != nil {
			return errClientGone
		}
	}
	for _, ev := range replay {
		if ev.Seq <= sent {
			continue
		}
		if err := out.event(ev); err != nil {
			return errClientGone
		}
		sent = ev.Seq
	}
	if err := s.resendPending(ctx, sessionID, out); err != nil {
		return errClientGone
	}
	keepAlive := time.NewTicker(s.opts.KeepAlive)
	defer keepAlive.Stop()
	for {
		idle()
		select {
		case ev, ok := <-sub.C():
			if !ok {
				err := sub.Err()
				if errors.Is(err, hub.ErrClosed) && s.ctx.Err() == nil && s.sessionGone(sessionID) {
					_ = out.notice("session_closed", map[string]any{"session_id": sessionID, "last_event_id": sent})
					return nil
				}
				if err != nil {
					_ = out.notice("disconnect", map[string]any{"reason": err.Error(), "last_event_id": sent})
					return err
				}
				return nil
			}
			if ev.Seq <= sent {
				continue
			}
			if err := out.event(ev); err != nil {
				return errClientGone
			}
			sent = ev.Seq
		case <-keepAlive.C:
			if err := out.keepAlive(); err != nil {
				return errClientGone
			}
		case <-ctx.Done():
			return ctx.Err()
		case <-s.ctx.Done():
			return nil
		case <-s.followsEnd:
			// The node is leaving the cluster: the client follows on
			// from another node.
			_ = out.notice("disconnect", map[string]any{"reason": "this node is shutting down; follow on from another", "last_event_id": sent})
			return nil
		}
	}
}

// sessionGone reports whether a session was deleted: its events' topic
// was forgotten and the engine no longer has it. A node of a cluster
// asks the store, since its engine knows only the sessions that ran on
// it.
func (s *Server) sessionGone(id string) bool {
	if s.opts.Cluster != nil {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(s.ctx), 5*time.Second)
		defer cancel()
		_, err := s.opts.Store.GetSession(ctx, id)
		return errors.Is(err, store.ErrNotFound)
	}
	_, live := s.opts.Engine.GetSession(id)
	return !live
}

// errorCode names an engine error for API clients.
func errorCode(err error) string {
	switch {
	case errors.Is(err, engine.ErrSessionDeleted), errors.Is(err, engine.ErrSessionNotFound):
		return "session_gone"
	case errors.Is(err, engine.ErrDangerBlocked):
		return "danger_blocked"
	case errors.Is(err, engine.ErrSessionBusy):
		return "busy"
	case errors.Is(err, engine.ErrOverloaded):
		return "overloaded"
	case errors.Is(err, engine.ErrInterrupted):
		return "interrupted"
	case errors.Is(err, engine.ErrTurnTimeout):
		return "timeout"
	case errors.Is(err, engine.ErrSessionDead):
		return "agent_died"
	case errors.Is(err, engine.ErrStartFailed):
		return "start_failed"
	case errors.Is(err, engine.ErrTurnFailed):
		return "turn_failed"
	case errors.Is(err, store.ErrUnavailable):
		return "store_unavailable"
	}
	return "error"
}

// turnHTTPError gives a turn that failed before it streamed anything its
// HTTP status; the code is the one a turn_error notice would carry. It is
// the one table from engine errors to HTTP statuses, for /v1 and the
// OpenCode routes alike.
func turnHTTPError(err error) error {
	status := http.StatusInternalServerError
	var ae *apiError
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.Is(err, engine.ErrDangerBlocked):
		status = http.StatusForbidden
	case errors.Is(err, context.Canceled):
		return errorf(http.StatusServiceUnavailable, "interrupted", err.Error())
	case errors.Is(err, engine.ErrSessionDeleted), errors.Is(err, engine.ErrSessionNotFound):
		// Deleted while the turn waited: it never ran.
		return errorf(http.StatusGone, errorCode(err), err.Error())
	case errors.Is(err, engine.ErrOverloaded):
		return err // 429 with Retry-After (writeError)
	case errors.Is(err, store.ErrUnavailable):
		return err // 503 with Retry-After (writeError): the database is down
	case errors.Is(err, engine.ErrSessionBusy), errors.Is(err, engine.ErrInterrupted):
		status = http.StatusConflict
	case errors.Is(err, engine.ErrStartFailed), errors.Is(err, engine.ErrSessionDead):
		status = http.StatusBadGateway
	case errors.Is(err, engine.ErrTurnTimeout):
		status = http.StatusGatewayTimeout
	case errors.Is(err, engine.ErrEngineClosed):
		status = http.StatusServiceUnavailable
	case errors.Is(err, engine.ErrProviderNotFound), errors.Is(err, engine.ErrInvalidWorkDir), errors.Is(err, engine.ErrInvalidConfig):
		return errorf(http.StatusBadRequest, "bad_request", err.Error())
	}
	return errorf(status, errorCode(err), err.Error())
}

func validPrompt(req messageRequest) error {
	if strings.TrimSpace(req.Prompt) == "" {
		return errorf(http.StatusBadRequest, "bad_request", "the prompt is empty")
	}
	if err := validMode(req.Mode); err != nil {
		return err
	}
	return nil
}

// postMessage runs a turn and streams its events as SSE.
func (s *Server) postMessage(w http.ResponseWriter, r *http.Request) {
	st, err := s.ownedForTurn(r.Context(), callerOf(r), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	var req messageRequest
	err = readJSON(w, r, &req)
	if err == nil {
		err = validPrompt(req)
	}
	if err != nil {
		writeError(w, err)
		return
	}
	_ = s.submit(r.Context(), st, req, newLazySSE(w))
}

// followEvents streams a session's events: first those after the client's
// Last-Event-ID (or ?after=N), then live ones.
func (s *Server) followEvents(w http.ResponseWriter, r *http.Request) {
	st, err := s.owned(r, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	after, err := lastEventID(r)
	if err != nil {
		writeError(w, err)
		return
	}
	// An ID past the session's newest event cannot be one the client
	// was sent (a different session, a database restored from a backup):
	// waiting for it would be waiting in silence.
	if last := max(st.LastSeq, s.opts.Hub.Last(st.ID)); after > last {
		writeError(w, errorf(http.StatusRequestedRangeNotSatisfiable, "beyond_last_event",
			fmt.Sprintf("Last-Event-ID %d is past the session's newest event, %d", after, last)))
		return
	}
	_ = s.follow(r.Context(), st.ID, after, newSSE(w))
}

func lastEventID(r *http.Request) (uint64, error) {
	v := r.Header.Get("Last-Event-ID")
	if v == "" {
		v = r.URL.Query().Get("after")
	}
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, errorf(http.StatusBadRequest, "bad_request", "Last-Event-ID must be an event number")
	}
	return n, nil
}

func (s *Server) interrupt(w http.ResponseWriter, r *http.Request) {
	st, err := s.owned(r, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	dropQueued := r.URL.Query().Get("drop_queued")
	if dropQueued != "" && dropQueued != "true" && dropQueued != "false" {
		writeError(w, errorf(http.StatusBadRequest, "bad_request", "drop_queued must be true or false"))
		return
	}
	res, err := s.interruptTurn(r.Context(), st, dropQueued == "true")
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// interruptTurn interrupts the session's turn, its queued prompts dropped
// first when asked (so that the interrupt cannot let the next one start),
// and says what became of them. The prompts still queued are counted
// before the interrupt: the next starts as soon as the turn ends, and
// those counted are the ones that run next.
func (s *Server) interruptTurn(ctx context.Context, st store.Session, dropQueued bool) (interruptResponse, error) {
	var res interruptResponse
	if dropQueued {
		n, err := s.dropQueue(ctx, st, "dropped by an interrupt")
		if err != nil {
			return res, err
		}
		res.Dropped = n
	}
	res.Queued = s.queued(ctx, st.ID)
	ok, err := s.interruptSession(ctx, st)
	if err != nil {
		return res, err
	}
	res.Interrupted = ok
	return res, nil
}

// interruptResponse says whether a turn was interrupted and what became
// of the prompts queued behind it.
type interruptResponse struct {
	Interrupted bool `json:"interrupted"`
	// Queued prompts stay, and run next; Dropped ones (drop_queued=true)
	// never will.
	Queued  int `json:"queued"`
	Dropped int `json:"dropped,omitempty"`
}

// failer is a sink that can still answer with an HTTP error, before it
// has streamed anything.
type failer interface {
	fail(err error) bool
}

// noticeJSON encodes a notice's data.
func noticeJSON(data any) []byte {
	b, _ := json.Marshal(data)
	return b
}
