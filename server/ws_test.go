package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/testkit"
)

type wsMsg = testkit.WSMessage

func dialWS(t *testing.T, d *daemon, key string) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(d.url, "http")+"/v1/ws", &websocket.DialOptions{
		HTTPHeader: http.Header{"Authorization": []string{"Bearer " + key}},
	})
	if err != nil {
		t.Fatalf("dial: %v (%v)", err, resp)
	}
	t.Cleanup(func() { _ = c.CloseNow() })
	return c
}

func wsSend(t *testing.T, c *websocket.Conn, v any) {
	t.Helper()
	b, _ := json.Marshal(v)
	if err := c.Write(context.Background(), websocket.MessageText, b); err != nil {
		t.Fatal(err)
	}
}

func wsRead(t *testing.T, c *websocket.Conn) wsMsg {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, b, err := c.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var m wsMsg
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("server sent %q: %v", b, err)
	}
	return m
}

// readUntil collects messages until one of type "done" or "error" for id.
func readUntil(t *testing.T, c *websocket.Conn, id string) []wsMsg {
	t.Helper()
	var out []wsMsg
	for {
		m := wsRead(t, c)
		out = append(out, m)
		if m.RequestID == id && (m.Type == "done" || m.Type == "error") {
			return out
		}
	}
}

func TestWebSocketTurnsMatchSSE(t *testing.T) {
	d := newDaemon(t)
	d.Create(t, d.alice, map[string]any{"id": "ws"})
	c := dialWS(t, d, d.alice)
	wsSend(t, c, map[string]any{"request_id": "t1", "type": "execute", "session_id": "ws", "prompt": "blocks:3 first"})
	msgs := readUntil(t, c, "t1")
	var events []wsMsg
	for _, m := range msgs {
		if m.RequestID != "t1" {
			t.Fatalf("message for another request: %+v", m)
		}
		if m.Type == "event" {
			events = append(events, m)
		}
	}
	if done := msgs[len(msgs)-1]; done.Type != "done" || done.Error != nil {
		t.Fatalf("turn ended with %+v", done)
	}
	if len(events) == 0 || events[len(events)-1].Event != event.TypeResult {
		t.Fatalf("events: %+v", events)
	}
	// The same events, by SSE.
	resp := d.Do(t, "GET", "/v1/sessions/ws/events", d.alice, nil)
	sse := readSSE(t, resp.Body, func(e sseEvent) bool { return e.ID == events[len(events)-1].ID })
	resp.Body.Close()
	if len(sse) != len(events) {
		t.Fatalf("SSE %d events, WebSocket %d", len(sse), len(events))
	}
	for i := range sse {
		if sse[i].ID != events[i].ID || sse[i].Type != events[i].Event {
			t.Fatalf("event %d differs: SSE %d %s, WS %d %s", i, sse[i].ID, sse[i].Type, events[i].ID, events[i].Event)
		}
	}

	// Subscribe from the start on a second connection, then a turn on the
	// first: the subscriber sees history then live, in order.
	c2 := dialWS(t, d, d.alice)
	wsSend(t, c2, map[string]any{"request_id": "sub", "type": "subscribe", "session_id": "ws", "after": 0})
	wsSend(t, c, map[string]any{"request_id": "t2", "type": "execute", "session_id": "ws", "prompt": "second"})
	readUntil(t, c, "t2")
	var next uint64 = 1
	for {
		m := wsRead(t, c2)
		if m.Type != "event" || m.RequestID != "sub" || m.ID != next {
			t.Fatalf("subscriber got %+v, want event %d", m, next)
		}
		next++
		if m.Event == event.TypeResult && m.ID > events[len(events)-1].ID {
			break
		}
	}
	wsSend(t, c2, map[string]any{"request_id": "u", "type": "unsubscribe", "target": "sub"})
	for {
		m := wsRead(t, c2)
		if m.RequestID == "u" && m.Type == "ack" {
			break
		}
	}
	wsSend(t, c, map[string]any{"request_id": "p", "type": "ping"})
	if m := wsRead(t, c); m.Type != "pong" || m.RequestID != "p" {
		t.Fatalf("ping: %+v", m)
	}
	wsSend(t, c, map[string]any{"request_id": "st", "type": "stats", "session_id": "ws"})
	if m := wsRead(t, c); m.Type != "stats" || !strings.Contains(string(m.Data), `"turns":2`) {
		t.Fatalf("stats: %+v %s", m, m.Data)
	}
}

func TestWebSocketBadMessagesAndTenancy(t *testing.T) {
	d := newDaemon(t)
	d.Create(t, d.alice, map[string]any{"id": "mine"})
	c := dialWS(t, d, d.bob)
	for _, raw := range []string{`{nope`, `{"type":"execute"}`, `{"request_id":"x","type":"fly"}`, `{"request_id":"y","type":"execute","session_id":"mine","prompt":" "}`} {
		if err := c.Write(context.Background(), websocket.MessageText, []byte(raw)); err != nil {
			t.Fatal(err)
		}
		if m := wsRead(t, c); m.Type != "error" || m.Error == nil || m.Error.Code != "bad_request" {
			t.Fatalf("%s: %+v", raw, m)
		}
	}
	wsSend(t, c, map[string]any{"request_id": "z", "type": "execute", "session_id": "mine", "prompt": "hi"})
	if m := wsRead(t, c); m.Type != "error" || m.Error.Code != "not_found" {
		t.Fatalf("another tenant's session: %+v", m)
	}
	// No key: the handshake is refused.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(d.url, "http")+"/v1/ws", nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("dial without a key: %v %v", err, resp)
	}
	// A foreign origin is refused.
	_, resp, err = websocket.Dial(ctx, "ws"+strings.TrimPrefix(d.url, "http")+"/v1/ws", &websocket.DialOptions{
		HTTPHeader: http.Header{"Authorization": []string{"Bearer " + d.alice}, "Origin": []string{"http://evil.example"}},
	})
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("dial from a foreign origin: %v %v", err, resp)
	}
}
