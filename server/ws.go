package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/hub"
	"github.com/hotplex/hotplex/store"
)

// The WebSocket protocol of /v1/ws. Every request carries a request_id;
// every message the server sends about it carries the same one.
//
//	→ {"request_id":"1","type":"execute","session_id":"s","prompt":"...","mode":"queue"}
//	  (mode "steer" delivers the prompt into the running turn; see
//	  messageRequest.Mode)
//	← {"request_id":"1","type":"event","session_id":"s","id":7,"event":"answer","data":{...}}
//	← {"request_id":"1","type":"done"}                       (or "error")
//	→ {"request_id":"2","type":"subscribe","session_id":"s","after":7}
//	→ {"request_id":"3","type":"unsubscribe","target":"2"}
//	→ {"request_id":"4","type":"interrupt","session_id":"s"}   (drop_queued: true empties the queue)
//	→ {"request_id":"5","type":"stats","session_id":"s"}
//	→ {"request_id":"6","type":"ping"}                       ← {"request_id":"6","type":"pong"}
//	→ {"request_id":"7","type":"permission_reply","session_id":"s","permission_id":"<request_id of the permission_request event>","decision":"allow"}
type wsRequest struct {
	RequestID        string `json:"request_id"`
	Type             string `json:"type"`
	SessionID        string `json:"session_id,omitempty"`
	Prompt           string `json:"prompt,omitempty"`
	TaskSystemPrompt string `json:"task_system_prompt,omitempty"`
	Mode             string `json:"mode,omitempty"`
	DropQueued       bool   `json:"drop_queued,omitempty"`
	After            uint64 `json:"after,omitempty"`
	Target           string `json:"target,omitempty"`
	PermissionID     string `json:"permission_id,omitempty"`
	Decision         string `json:"decision,omitempty"`
	Message          string `json:"message,omitempty"`
}

type wsMessage struct {
	RequestID string          `json:"request_id,omitempty"`
	Type      string          `json:"type"`
	SessionID string          `json:"session_id,omitempty"`
	ID        uint64          `json:"id,omitempty"`
	Event     string          `json:"event,omitempty"`
	Data      json.RawMessage `json:"data,omitempty"`
	Error     *apiError       `json:"error,omitempty"`
}

// A connection's largest message and how long a write may take; its
// queue, running requests and keep-alive are set by Options.WS.
const (
	wsReadLimit    = 1 << 20
	wsWriteTimeout = 10 * time.Second
)

var wsRequestTypes = map[string]bool{
	"execute": true, "subscribe": true, "unsubscribe": true, "interrupt": true, "stats": true, "ping": true,
	"permission_reply": true,
}

// decodeWSRequest parses and validates one client message.
func decodeWSRequest(b []byte) (wsRequest, *apiError) {
	var req wsRequest
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return req, errorf(http.StatusBadRequest, "bad_request", "malformed message: "+err.Error())
	}
	if dec.More() {
		return req, errorf(http.StatusBadRequest, "bad_request", "one JSON object per message")
	}
	switch {
	case req.RequestID == "" || len(req.RequestID) > 128:
		return req, errorf(http.StatusBadRequest, "bad_request", "request_id is required (at most 128 characters)")
	case !wsRequestTypes[req.Type]:
		return req, errorf(http.StatusBadRequest, "bad_request", fmt.Sprintf("unknown message type %q", req.Type))
	case req.Type == "execute" && strings.TrimSpace(req.Prompt) == "":
		return req, errorf(http.StatusBadRequest, "bad_request", "the prompt is empty")
	case req.Type == "execute" && validMode(req.Mode) != nil:
		return req, validMode(req.Mode)
	case req.Type == "permission_reply" && (req.PermissionID == "" || (req.Decision != "allow" && req.Decision != "deny")):
		return req, errorf(http.StatusBadRequest, "bad_request", `permission_reply needs permission_id and a decision of "allow" or "deny"`)
	case req.Type == "unsubscribe" && req.Target == "":
		return req, errorf(http.StatusBadRequest, "bad_request", "unsubscribe needs the target request_id")
	case req.Type != "ping" && req.Type != "unsubscribe" && req.SessionID == "":
		return req, errorf(http.StatusBadRequest, "bad_request", "session_id is required")
	}
	return req, nil
}

// wsConn is one WebSocket client. Its reader dispatches requests; one
// writer drains a queue bounded in bytes; each execute or subscribe runs in
// its own goroutine until it ends or is cancelled. When the connection must
// end for a reason of the server's (a slow client, a revoked key,
// shutdown), the closer sends the close frame with that reason.
type wsConn struct {
	s      *Server
	c      *websocket.Conn
	cork   *corkConn // nil when the connection could not be wrapped
	caller caller
	r      *http.Request

	out     *sendQueue
	dropped atomic.Bool // the client fell too far behind
	ctx     context.Context
	cancel  context.CancelCauseFunc

	mu  sync.Mutex
	ops map[string]*wsOp // running requests by request ID
	wg  sync.WaitGroup
}

// wsOp is a running execute or subscribe request.
type wsOp struct{ cancel context.CancelFunc }

func (s *Server) websocket(w http.ResponseWriter, r *http.Request) {
	cw := &corkedResponse{ResponseWriter: w}
	c, err := websocket.Accept(cw, r, &websocket.AcceptOptions{OriginPatterns: s.opts.AllowedOrigins})
	if err != nil {
		return // Accept answered the request
	}
	c.SetReadLimit(wsReadLimit)
	ctx, cancel := context.WithCancelCause(s.ctx)
	// The request's context ends when the caller's key is revoked or
	// expires (auth), with that cause.
	stop := context.AfterFunc(r.Context(), func() { cancel(context.Cause(r.Context())) })
	defer stop()
	conn := &wsConn{s: s, c: c, cork: cw.conn, caller: callerOf(r), r: r, out: newSendQueue(s.opts.WS.QueueBytes, s.opts.Metrics),
		ctx: ctx, cancel: cancel, ops: map[string]*wsOp{}}
	conn.run()
}

// errSlowClient ends a connection whose client reads slower than its
// events come.
var errSlowClient = errors.New("client too slow")

func (wc *wsConn) run() {
	var writer, pinger sync.WaitGroup
	writer.Go(wc.writeLoop)
	// The pinger is not waited for before the close: a ping waiting for
	// a pong from a client that has gone ends only when the connection
	// closes.
	pinger.Go(wc.pingLoop)
	var closer sync.WaitGroup
	closer.Go(func() {
		<-wc.ctx.Done()
		writer.Wait()
		wc.close(context.Cause(wc.ctx))
	})
	for {
		// Not wc.ctx: a read cancelled by its context drops the connection
		// without a close frame. The closer ends the read with one.
		_, b, err := wc.c.Read(context.Background())
		if err != nil {
			wc.cancel(fmt.Errorf("read: %w", err))
			break
		}
		req, aerr := decodeWSRequest(b)
		if aerr != nil {
			var id string
			_ = json.Unmarshal(b, &struct {
				RequestID *string `json:"request_id"`
			}{&id})
			wc.send(wsMessage{RequestID: id, Type: "error", Error: aerr})
			continue
		}
		wc.dispatch(req)
	}
	closer.Wait()
	pinger.Wait()
	wc.wg.Wait()
	wc.out.release()
}

// close ends the connection for reason: with a close frame that says why
// when the server ends it, at once when the client did.
func (wc *wsConn) close(reason error) {
	log := wc.s.log.With("key", wc.caller.ID, "remote", wc.r.RemoteAddr)
	switch {
	case errors.Is(reason, errSlowClient):
		_ = wc.c.Close(websocket.StatusPolicyViolation, truncateReason(reason.Error()))
	case keyGone(reason):
		log.Info("WebSocket closed: its API key is no longer valid", "reason", reason.Error())
		_ = wc.c.Close(websocket.StatusPolicyViolation, reason.Error())
	case errors.Is(reason, context.Canceled):
		_ = wc.c.Close(websocket.StatusGoingAway, "server shutting down")
	default: // the client went, or the connection failed
		_ = wc.c.CloseNow()
	}
}

// truncateReason fits a close reason in its 123 bytes.
func truncateReason(s string) string {
	if len(s) > 123 {
		return s[:123]
	}
	return s
}

// send queues a message; a client too far behind is disconnected.
func (wc *wsConn) send(m wsMessage) {
	b, err := json.Marshal(m)
	if err != nil {
		return
	}
	wc.queue(b)
}

// queue queues an encoded message; a client too far behind is
// disconnected.
func (wc *wsConn) queue(b []byte) {
	if wc.ctx.Err() != nil {
		return
	}
	if !wc.out.push(b) && wc.dropped.CompareAndSwap(false, true) {
		// Logged now: the close frame waits for the write in progress,
		// which waits for the client.
		wc.s.opts.Metrics.wsSlowDrops.Inc()
		wc.s.log.Warn("slow WebSocket client dropped", "key", wc.caller.ID, "remote", wc.r.RemoteAddr, "queue_bytes", wc.out.max)
		wc.cancel(fmt.Errorf("%w: over %d bytes waiting to be sent", errSlowClient, wc.out.max))
	}
}

// wsBurst bounds the messages written under one cork.
const wsBurst = 64

func (wc *wsConn) writeLoop() {
	for {
		select {
		case <-wc.out.ready:
		case <-wc.ctx.Done():
			return
		}
		for {
			if wc.ctx.Err() != nil {
				return
			}
			burst := wc.out.take(wsBurst)
			if len(burst) == 0 {
				break
			}
			err := wc.writeBurst(burst)
			wc.out.done(burst)
			if err != nil {
				wc.cancel(err)
				return
			}
		}
	}
}

// writeBurst writes msgs, in one system call when the connection can be
// corked. Its deadline is its own: a write cut by the connection's end
// would drop the connection before the close frame.
func (wc *wsConn) writeBurst(msgs [][]byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), wsWriteTimeout)
	defer cancel()
	if wc.cork == nil || len(msgs) == 1 {
		for _, b := range msgs {
			if err := wc.c.Write(ctx, websocket.MessageText, b); err != nil {
				return err
			}
		}
		return nil
	}
	wc.cork.cork()
	var err error
	for _, b := range msgs {
		if err = wc.c.Write(ctx, websocket.MessageText, b); err != nil {
			break
		}
	}
	if uerr := wc.cork.uncork(wsWriteTimeout); err == nil {
		err = uerr
	}
	return err
}

func (wc *wsConn) pingLoop() {
	t := time.NewTicker(wc.s.opts.WS.PingInterval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), wsWriteTimeout)
			err := wc.c.Ping(ctx)
			cancel()
			if err != nil {
				wc.cancel(fmt.Errorf("keep-alive: %w", err))
				return
			}
		case <-wc.ctx.Done():
			return
		}
	}
}

func (wc *wsConn) dispatch(req wsRequest) {
	fail := func(err error) {
		var ae *apiError
		if !errors.As(err, &ae) {
			ae = errorf(http.StatusInternalServerError, errorCode(err), err.Error())
		}
		wc.send(wsMessage{RequestID: req.RequestID, Type: "error", SessionID: req.SessionID, Error: ae})
	}
	if wc.s.limiter != nil {
		// One bucket per key, whichever way its requests come.
		if ok, wait := wc.s.limiter.allow(wc.caller.ID); !ok {
			secs := int(math.Ceil(wait.Seconds()))
			wc.send(wsMessage{RequestID: req.RequestID, Type: "error", SessionID: req.SessionID, Data: noticeJSON(map[string]int{"retry_after": secs}),
				Error: errorf(http.StatusTooManyRequests, "rate_limited", "too many requests for this API key; retry after "+wait.Round(time.Millisecond).String())})
			return
		}
	}
	switch req.Type {
	case "ping":
		wc.send(wsMessage{RequestID: req.RequestID, Type: "pong"})
		return
	case "unsubscribe":
		// The request stops counting at once, not once it has wound
		// down: a client told of the unsubscribe may start another.
		wc.mu.Lock()
		op, ok := wc.ops[req.Target]
		delete(wc.ops, req.Target)
		wc.mu.Unlock()
		if !ok {
			fail(errorf(http.StatusNotFound, "not_found", "no running request "+req.Target))
			return
		}
		op.cancel()
		wc.send(wsMessage{RequestID: req.RequestID, Type: "ack"})
		return
	}
	owned := wc.s.ownedBy
	if req.Type == "execute" {
		owned = wc.s.ownedForTurn
	}
	st, err := owned(wc.ctx, wc.caller, req.SessionID)
	if err != nil {
		fail(err)
		return
	}
	switch req.Type {
	case "interrupt":
		res, err := wc.s.interruptTurn(wc.ctx, st, req.DropQueued)
		if err != nil {
			fail(err)
			return
		}
		wc.send(wsMessage{RequestID: req.RequestID, Type: "ack", SessionID: publicID(st), Data: noticeJSON(res)})
	case "stats":
		wc.send(wsMessage{RequestID: req.RequestID, Type: "stats", SessionID: publicID(st), Data: noticeJSON(wc.s.view(st))})
	case "permission_reply":
		if err := wc.s.answerOn(wc.ctx, st, req.PermissionID, req.Decision == "allow", req.Message, event.Answerer{By: wc.caller.ID, Channel: "ws"}); err != nil {
			fail(err)
			return
		}
		wc.send(wsMessage{RequestID: req.RequestID, Type: "ack", SessionID: publicID(st)})
	case "execute", "subscribe":
		wc.mu.Lock()
		if _, dup := wc.ops[req.RequestID]; dup {
			wc.mu.Unlock()
			fail(errorf(http.StatusConflict, "conflict", "request_id "+req.RequestID+" is in use"))
			return
		}
		if n := len(wc.ops); n >= wc.s.opts.WS.MaxRequests {
			wc.mu.Unlock()
			fail(errorf(http.StatusTooManyRequests, "too_many_requests", fmt.Sprintf("%d requests are running on this connection, the most it may run at once; unsubscribe from one first", n)))
			return
		}
		ctx, cancel := context.WithCancel(wc.ctx)
		op := &wsOp{cancel: cancel}
		wc.ops[req.RequestID] = op
		wc.mu.Unlock()
		wc.wg.Go(func() {
			defer func() {
				cancel()
				wc.mu.Lock()
				if wc.ops[req.RequestID] == op {
					delete(wc.ops, req.RequestID)
				}
				wc.mu.Unlock()
			}()
			out := newWSSink(wc, req.RequestID, publicID(st))
			var err error
			if req.Type == "execute" {
				err = wc.s.submit(ctx, st, messageRequest{Prompt: req.Prompt, TaskSystemPrompt: req.TaskSystemPrompt, Mode: req.Mode}, out)
			} else {
				err = wc.s.follow(ctx, st.ID, req.After, out)
			}
			if wc.ctx.Err() != nil {
				return // the connection is gone
			}
			done := wsMessage{RequestID: req.RequestID, Type: "done", SessionID: publicID(st)}
			if err != nil && !errors.Is(err, context.Canceled) {
				done.Error = errorf(http.StatusOK, errorCode(err), err.Error())
			}
			wc.send(done)
		})
	}
}

// wsSink delivers one request's events on the connection.
type wsSink struct {
	wc        *wsConn
	requestID string
	session   string
	// prefix is the start of every event message of the request, up to
	// its "id" value: the frames are assembled around the event's JSON,
	// which was encoded once for every client and the store.
	prefix []byte
}

func newWSSink(wc *wsConn, requestID, session string) *wsSink {
	o := &wsSink{wc: wc, requestID: requestID, session: session}
	head, _ := json.Marshal(wsMessage{RequestID: requestID, Type: "event", SessionID: session})
	// {"request_id":"…","type":"event","session_id":"…"} → drop the "}".
	o.prefix = append(head[:len(head)-1:len(head)-1], `,"id":`...)
	return o
}

func (o *wsSink) event(ev *hub.Event) error {
	data := ev.JSON
	if data == nil {
		var err error
		if data, err = json.Marshal(ev.EventWithMeta); err != nil {
			return err
		}
	}
	typ, _ := json.Marshal(ev.EventType)
	b := make([]byte, 0, len(o.prefix)+len(typ)+len(data)+40)
	b = append(b, o.prefix...)
	b = strconv.AppendUint(b, ev.Seq, 10)
	b = append(b, `,"event":`...)
	b = append(b, typ...)
	b = append(b, `,"data":`...)
	b = append(b, data...)
	b = append(b, '}')
	o.wc.queue(b)
	return o.wc.ctx.Err()
}

func (o *wsSink) stored(e store.Event) error {
	return o.put(wsMessage{RequestID: o.requestID, Type: "event", SessionID: o.session, ID: e.Seq, Event: e.Type, Data: e.Data})
}

func (o *wsSink) notice(typ string, data any) error {
	return o.put(wsMessage{RequestID: o.requestID, Type: typ, SessionID: o.session, Data: noticeJSON(data)})
}

func (o *wsSink) keepAlive() error { return o.wc.ctx.Err() }

func (o *wsSink) put(m wsMessage) error {
	o.wc.send(m)
	return o.wc.ctx.Err()
}
