package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/hotplex/hotplex/hub"
	"github.com/hotplex/hotplex/store"
)

// The WebSocket protocol of /v1/ws. Every request carries a request_id;
// every message the server sends about it carries the same one.
//
//	→ {"request_id":"1","type":"execute","session_id":"s","prompt":"..."}
//	← {"request_id":"1","type":"event","session_id":"s","id":7,"event":"answer","data":{...}}
//	← {"request_id":"1","type":"done"}                       (or "error")
//	→ {"request_id":"2","type":"subscribe","session_id":"s","after":7}
//	→ {"request_id":"3","type":"unsubscribe","target":"2"}
//	→ {"request_id":"4","type":"interrupt","session_id":"s"}
//	→ {"request_id":"5","type":"stats","session_id":"s"}
//	→ {"request_id":"6","type":"ping"}                       ← {"request_id":"6","type":"pong"}
//	→ {"request_id":"7","type":"permission_reply","session_id":"s","permission_id":"<request_id of the permission_request event>","decision":"allow"}
type wsRequest struct {
	RequestID        string `json:"request_id"`
	Type             string `json:"type"`
	SessionID        string `json:"session_id,omitempty"`
	Prompt           string `json:"prompt,omitempty"`
	TaskSystemPrompt string `json:"task_system_prompt,omitempty"`
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

// wsLimits bound a connection: its largest message, its outbound queue
// (a client that falls further behind is disconnected, never waited for),
// and its keep-alive.
const (
	wsReadLimit    = 1 << 20
	wsQueue        = 1024
	wsPingInterval = 20 * time.Second
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
// writer drains a bounded queue; each execute or subscribe runs in its own
// goroutine until it ends or is cancelled.
type wsConn struct {
	s      *Server
	c      *websocket.Conn
	cork   *corkConn // nil when the connection could not be wrapped
	caller caller
	r      *http.Request

	out    chan []byte
	ctx    context.Context
	cancel context.CancelCauseFunc

	mu  sync.Mutex
	ops map[string]context.CancelFunc
	wg  sync.WaitGroup
}

func (s *Server) websocket(w http.ResponseWriter, r *http.Request) {
	cw := &corkedResponse{ResponseWriter: w}
	c, err := websocket.Accept(cw, r, &websocket.AcceptOptions{OriginPatterns: s.opts.AllowedOrigins})
	if err != nil {
		return // Accept answered the request
	}
	c.SetReadLimit(wsReadLimit)
	ctx, cancel := context.WithCancelCause(s.ctx)
	conn := &wsConn{s: s, c: c, cork: cw.conn, caller: callerOf(r), r: r, out: make(chan []byte, wsQueue), ctx: ctx, cancel: cancel, ops: map[string]context.CancelFunc{}}
	conn.run()
}

var errSlowClient = errors.New("client too slow: outbound queue full")

func (wc *wsConn) run() {
	var writers sync.WaitGroup
	writers.Go(wc.writeLoop)
	writers.Go(wc.pingLoop)
	for {
		_, b, err := wc.c.Read(wc.ctx)
		if err != nil {
			wc.cancel(err)
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
	wc.wg.Wait()
	writers.Wait()
	reason := context.Cause(wc.ctx)
	switch {
	case errors.Is(reason, errSlowClient):
		_ = wc.c.Close(websocket.StatusPolicyViolation, errSlowClient.Error())
	case websocket.CloseStatus(reason) != -1:
		_ = wc.c.CloseNow()
	default:
		_ = wc.c.Close(websocket.StatusGoingAway, "server shutting down")
	}
}

// send queues a message; a full queue disconnects the client.
func (wc *wsConn) send(m wsMessage) {
	b, err := json.Marshal(m)
	if err != nil {
		return
	}
	wc.queue(b)
}

// queue queues an encoded message; a full queue disconnects the client.
func (wc *wsConn) queue(b []byte) {
	select {
	case wc.out <- b:
	case <-wc.ctx.Done():
	default:
		wc.cancel(errSlowClient)
	}
}

// wsBurst bounds the messages written under one cork.
const wsBurst = 64

func (wc *wsConn) writeLoop() {
	for {
		select {
		case b := <-wc.out:
			if err := wc.writeBurst(b); err != nil {
				wc.cancel(err)
				return
			}
		case <-wc.ctx.Done():
			return
		}
	}
}

// writeBurst writes b and whatever else is queued, in one system call
// when the connection can be corked.
func (wc *wsConn) writeBurst(b []byte) error {
	ctx, cancel := context.WithTimeout(wc.ctx, wsWriteTimeout)
	defer cancel()
	if wc.cork == nil || len(wc.out) == 0 {
		return wc.c.Write(ctx, websocket.MessageText, b)
	}
	wc.cork.cork()
	err := wc.c.Write(ctx, websocket.MessageText, b)
drain:
	for n := 1; err == nil && n < wsBurst; n++ {
		select {
		case b = <-wc.out:
			err = wc.c.Write(ctx, websocket.MessageText, b)
		default:
			break drain
		}
	}
	if uerr := wc.cork.uncork(wsWriteTimeout); err == nil {
		err = uerr
	}
	return err
}

func (wc *wsConn) pingLoop() {
	t := time.NewTicker(wsPingInterval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			ctx, cancel := context.WithTimeout(wc.ctx, wsWriteTimeout)
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
	switch req.Type {
	case "ping":
		wc.send(wsMessage{RequestID: req.RequestID, Type: "pong"})
		return
	case "unsubscribe":
		wc.mu.Lock()
		cancel, ok := wc.ops[req.Target]
		wc.mu.Unlock()
		if !ok {
			fail(errorf(http.StatusNotFound, "not_found", "no running request "+req.Target))
			return
		}
		cancel()
		wc.send(wsMessage{RequestID: req.RequestID, Type: "ack"})
		return
	}
	st, err := wc.s.ownedBy(wc.ctx, wc.caller, req.SessionID)
	if err != nil {
		fail(err)
		return
	}
	switch req.Type {
	case "interrupt":
		ok, err := wc.s.opts.Engine.Interrupt(st.ID)
		if err != nil {
			fail(err)
			return
		}
		wc.send(wsMessage{RequestID: req.RequestID, Type: "ack", SessionID: publicID(st), Data: noticeJSON(map[string]bool{"interrupted": ok})})
	case "stats":
		wc.send(wsMessage{RequestID: req.RequestID, Type: "stats", SessionID: publicID(st), Data: noticeJSON(wc.s.view(st))})
	case "permission_reply":
		if err := wc.s.opts.Approvals.Answer(st.ID, req.PermissionID, req.Decision == "allow", req.Message); err != nil {
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
		ctx, cancel := context.WithCancel(wc.ctx)
		wc.ops[req.RequestID] = cancel
		wc.mu.Unlock()
		wc.wg.Go(func() {
			defer func() {
				cancel()
				wc.mu.Lock()
				delete(wc.ops, req.RequestID)
				wc.mu.Unlock()
			}()
			out := newWSSink(wc, req.RequestID, publicID(st))
			var err error
			if req.Type == "execute" {
				err = wc.s.runTurn(ctx, st, messageRequest{Prompt: req.Prompt, TaskSystemPrompt: req.TaskSystemPrompt}, out)
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
