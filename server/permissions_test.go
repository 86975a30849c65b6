package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/testkit"
)

// askTurn starts a turn on an "ask" session that runs cmd in Bash, and
// returns its stream and its permission_request event once asked.
func askTurn(t *testing.T, d *daemon, session, cmd string) (io.Reader, event.EventWithMeta, uint64) {
	t.Helper()
	resp := d.Do(t, "POST", "/v1/sessions/"+session+"/messages", d.alice, map[string]string{"prompt": bashDirective(cmd)})
	got := readSSE(t, resp.Body, func(e sseEvent) bool { return e.Type == event.TypePermissionRequest })
	last := got[len(got)-1]
	if last.Type != event.TypePermissionRequest {
		t.Fatalf("the turn ended without asking: %v", got)
	}
	var req event.EventWithMeta
	if err := json.Unmarshal(last.Data, &req); err != nil || req.Permission == nil {
		t.Fatalf("permission_request: %s (%v)", last.Data, err)
	}
	return resp.Body, req, last.ID
}

// decisionOf reads a stream to the permission_decision of request.
func decisionOf(t *testing.T, body io.Reader, request string) event.Permission {
	t.Helper()
	var p event.Permission
	readSSE(t, body, func(e sseEvent) bool {
		if e.Type != event.TypePermissionDecision {
			return false
		}
		var ev event.EventWithMeta
		_ = json.Unmarshal(e.Data, &ev)
		if ev.Permission != nil && ev.Permission.RequestID == request {
			p = *ev.Permission
			return true
		}
		return false
	})
	if p.RequestID == "" {
		t.Fatalf("no permission_decision for %s", request)
	}
	return p
}

// wsUntil reads WebSocket messages until one satisfies stop.
func wsUntil(t *testing.T, c *websocket.Conn, stop func(wsMsg) bool) wsMsg {
	t.Helper()
	for {
		if m := wsRead(t, c); stop(m) {
			return m
		}
	}
}

// streamGet opens a stream that a test gives up on after a minute,
// instead of hanging when what it waits for never comes.
func streamGet(t *testing.T, d *daemon, path, key string, header map[string]string) *http.Response {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", d.url+path, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

type answeredBody struct {
	Error struct {
		Code     string `json:"code"`
		Message  string `json:"message"`
		Answered *struct {
			Decision string    `json:"decision"`
			By       string    `json:"by"`
			Channel  string    `json:"channel"`
			At       time.Time `json:"at"`
		} `json:"answered"`
	} `json:"error"`
}

// Two clients of the session's owner answer the same request at once,
// over HTTP and over WebSocket: one wins, the other learns who did, and
// every follower is told the winner's answer and who gave it.
func TestPermissionFirstAnswerWins(t *testing.T) {
	d := newDaemon(t)
	ap := d.Create(t, d.alice, map[string]any{"id": "race", "approval": "ask"})
	follower := dialWS(t, d, d.alice)
	wsSend(t, follower, map[string]any{"request_id": "f", "type": "subscribe", "session_id": "race"})
	turn, req, _ := askTurn(t, d, "race", "touch raced.txt")
	id := req.Permission.RequestID

	if r := d.Do(t, "POST", "/v1/sessions/race/permissions/"+id, d.bob, map[string]string{"decision": "allow"}); r.StatusCode != http.StatusNotFound {
		t.Fatalf("another key answered: %d", r.StatusCode)
	}

	// The WebSocket's answer is sent first but handled on its own
	// goroutine; the HTTP answer races it.
	answerer := dialWS(t, d, d.alice)
	wsSend(t, answerer, map[string]any{"request_id": "pr", "type": "permission_reply", "session_id": "race", "permission_id": id, "decision": "deny"})
	hr := d.Do(t, "POST", "/v1/sessions/race/permissions/"+id, d.alice, map[string]string{"decision": "allow"})
	wr := wsUntil(t, answerer, func(m wsMsg) bool { return m.RequestID == "pr" })

	httpWon := hr.StatusCode == http.StatusOK
	wsWon := wr.Type == "ack"
	if httpWon == wsWon {
		t.Fatalf("http %d, ws %+v: exactly one answer must win", hr.StatusCode, wr)
	}
	winner, decision := "ws", "deny"
	if httpWon {
		winner, decision = "http", "allow"
		if wr.Error == nil || wr.Error.Code != "already_answered" || !strings.Contains(wr.Error.Message, "allow by alice over http") {
			t.Fatalf("the late WebSocket answer got %+v", wr)
		}
	} else {
		b := testkit.Decode[answeredBody](t, hr)
		a := b.Error.Answered
		if hr.StatusCode != http.StatusConflict || b.Error.Code != "already_answered" || a == nil ||
			a.Decision != "deny" || a.By != "alice" || a.Channel != "ws" || a.At.IsZero() {
			t.Fatalf("the late HTTP answer got %d %+v", hr.StatusCode, b)
		}
	}

	for name, p := range map[string]event.Permission{"turn": decisionOf(t, turn, id), "follower": wsDecision(t, follower, id)} {
		if p.Decision != decision || p.Answerer == nil || p.By != "alice" || p.Channel != winner || p.At.IsZero() {
			t.Errorf("%s's permission_decision: %+v (%+v), want %s by alice over %s", name, p, p.Answerer, decision, winner)
		}
	}
	// The agent acts on the answer after the decision: the turn's end
	// says it has.
	readSSE(t, turn, func(e sseEvent) bool { return e.Type == "result" })
	_, err := os.Stat(filepath.Join(ap["work_dir"].(string), "raced.txt"))
	if (err == nil) != httpWon {
		t.Errorf("the %s answer won, yet the file exists = %v", winner, err == nil)
	}

	// A third client, on the OpenCode route, comes too late as well.
	if r := d.Do(t, "POST", "/session/race/permissions/"+id, d.alice, map[string]string{"response": "once"}); r.StatusCode != http.StatusConflict {
		t.Errorf("the OpenCode route's late answer: %d", r.StatusCode)
	}
	if r := d.Do(t, "POST", "/v1/sessions/race/permissions/nope", d.alice, map[string]string{"decision": "allow"}); r.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown request: %d", r.StatusCode)
	}
}

func wsDecision(t *testing.T, c *websocket.Conn, request string) event.Permission {
	t.Helper()
	var p event.Permission
	wsUntil(t, c, func(m wsMsg) bool {
		if m.Event != event.TypePermissionDecision {
			return false
		}
		var ev event.EventWithMeta
		_ = json.Unmarshal(m.Data, &ev)
		if ev.Permission != nil && ev.Permission.RequestID == request {
			p = *ev.Permission
			return true
		}
		return false
	})
	return p
}

// A client that joins after the question was asked — past its event, by
// Last-Event-ID or a subscribe's after, or on OpenCode's event stream —
// is asked again, and can answer.
func TestPermissionResentOnReconnect(t *testing.T) {
	d := newDaemon(t)
	ap := d.Create(t, d.alice, map[string]any{"id": "late", "approval": "ask"})
	turn, req, seq := askTurn(t, d, "late", "touch late.txt")
	id := req.Permission.RequestID
	pendingOf := func(data []byte) string {
		var p struct {
			RequestID string `json:"request_id"`
			ToolName  string `json:"tool_name"`
		}
		_ = json.Unmarshal(data, &p)
		if p.ToolName != "Bash" {
			return ""
		}
		return p.RequestID
	}

	// SSE, from past the request's event.
	sse := streamGet(t, d, "/v1/sessions/late/events", d.alice, map[string]string{"Last-Event-ID": strconv.FormatUint(seq, 10)})
	got := readSSE(t, sse.Body, func(e sseEvent) bool { return e.Type == "permission_pending" })
	if len(got) == 0 || got[len(got)-1].Type != "permission_pending" || pendingOf(got[len(got)-1].Data) != id {
		t.Fatalf("the SSE follower was not asked again: %v", got)
	}
	// WebSocket, subscribing after it.
	ws := dialWS(t, d, d.alice)
	wsSend(t, ws, map[string]any{"request_id": "s", "type": "subscribe", "session_id": "late", "after": seq})
	if m := wsUntil(t, ws, func(m wsMsg) bool { return m.Type != "event" }); m.Type != "permission_pending" || pendingOf(m.Data) != id {
		t.Fatalf("the WebSocket follower was not asked again: %+v", m)
	}
	// OpenCode's event stream, which has no replay at all.
	oc := streamGet(t, d, "/event", d.alice, nil)
	sc := bufio.NewScanner(oc.Body)
	asked := false
	for !asked && sc.Scan() {
		line := sc.Bytes()
		asked = bytes.Contains(line, []byte(`"permission.asked"`)) && bytes.Contains(line, []byte(id))
	}
	if !asked {
		t.Fatalf("OpenCode's event stream was not asked: %v", sc.Err())
	}
	// Another tenant's streams tell it nothing.
	if r := d.Do(t, "GET", "/v1/sessions/late/events", d.bob, nil); r.StatusCode != http.StatusNotFound {
		t.Fatalf("bob follows: %d", r.StatusCode)
	}
	// Bob's OpenCode stream: whatever comes after server.connected, were
	// alice's question re-sent to it, would come before the event of
	// bob's own new session.
	bobOC := streamGet(t, d, "/event", d.bob, nil)
	bobLines := bufio.NewScanner(bobOC.Body)
	for bobLines.Scan() && !bytes.Contains(bobLines.Bytes(), []byte("server.connected")) {
	}
	if r := d.Do(t, "POST", "/session", d.bob, map[string]string{"title": "bob's"}); r.StatusCode != http.StatusOK {
		t.Fatalf("bob creates a session: %d", r.StatusCode)
	}
	for bobLines.Scan() {
		line := bobLines.Bytes()
		if bytes.Contains(line, []byte(id)) || bytes.Contains(line, []byte("permission.asked")) {
			t.Fatalf("bob's OpenCode stream was asked alice's question: %s", line)
		}
		if bytes.Contains(line, []byte("session.")) {
			break
		}
	}

	if r := d.Do(t, "POST", "/v1/sessions/late/permissions/"+id, d.alice, map[string]string{"decision": "allow", "channel": "carrier pigeon"}); r.StatusCode != http.StatusBadRequest {
		t.Fatalf("an unknown channel: %d", r.StatusCode)
	}
	if r := d.Do(t, "POST", "/v1/sessions/late/permissions/"+id, d.alice, map[string]string{"decision": "allow", "channel": "web"}); r.StatusCode != http.StatusOK {
		t.Fatalf("the late follower's answer: %d", r.StatusCode)
	}
	if p := decisionOf(t, sse.Body, id); p.Decision != "allow" || p.Answerer == nil || p.Channel != "web" || p.By != "alice" {
		t.Fatalf("the follower's permission_decision: %+v", p)
	}
	readSSE(t, turn, nil)
	if _, err := os.Stat(filepath.Join(ap["work_dir"].(string), "late.txt")); err != nil {
		t.Fatalf("the allowed command did not run: %v", err)
	}
	// Nothing waits any more: a new follower is asked nothing.
	ws2 := dialWS(t, d, d.alice)
	wsSend(t, ws2, map[string]any{"request_id": "s2", "type": "subscribe", "session_id": "late", "after": seq})
	wsSend(t, ws2, map[string]any{"request_id": "p", "type": "ping"})
	if m := wsUntil(t, ws2, func(m wsMsg) bool { return m.Type != "event" }); m.Type != "pong" {
		t.Fatalf("a settled request was sent again: %+v", m)
	}
}

// Nobody answers: the timeout decides (deny unless configured to
// allow), the events say so, and a late answer is told.
func TestPermissionTimeout(t *testing.T) {
	for _, allow := range []bool{false, true} {
		name := map[bool]string{false: "deny", true: "allow"}[allow]
		t.Run(name, func(t *testing.T) {
			d := newDaemonWith(t, testkit.DaemonOptions{ApprovalTimeout: 300 * time.Millisecond, AllowOnApprovalTimeout: allow})
			ap := d.Create(t, d.alice, map[string]any{"id": "slow", "approval": "ask"})
			turn, req, _ := askTurn(t, d, "slow", "touch slow.txt")
			id := req.Permission.RequestID
			p := decisionOf(t, turn, id)
			if p.Decision != name || p.Answerer == nil || p.By != "timeout" || p.Channel != "timeout" || p.At.IsZero() {
				t.Fatalf("permission_decision: %+v (%+v)", p, p.Answerer)
			}
			if !allow && !strings.Contains(p.Reason, "Nobody answered this permission request within 300ms") {
				t.Errorf("the agent was told %q", p.Reason)
			}
			readSSE(t, turn, nil)
			_, err := os.Stat(filepath.Join(ap["work_dir"].(string), "slow.txt"))
			if (err == nil) != allow || (err != nil && !errors.Is(err, os.ErrNotExist)) {
				t.Errorf("file created = %v (%v)", err == nil, err)
			}
			r := d.Do(t, "POST", "/v1/sessions/slow/permissions/"+id, d.alice, map[string]string{"decision": "allow"})
			b := testkit.Decode[answeredBody](t, r)
			if r.StatusCode != http.StatusConflict || b.Error.Answered == nil || b.Error.Answered.By != "timeout" ||
				b.Error.Answered.Decision != name || !strings.Contains(b.Error.Message, "nobody answered") {
				t.Errorf("a late answer: %d %+v", r.StatusCode, b)
			}
		})
	}
}

// On a cluster, a request waits on the node that runs the session's turn;
// another node re-sends it to its followers, answers it there, and a
// second answer through it learns who came first.
func TestClusterPermissionAnsweredFromAnotherNode(t *testing.T) {
	nodes := startCluster(t, 2)
	n1, n2 := nodes[0], nodes[1]
	ap := n1.Create(t, n1.alice, map[string]any{"id": "cp", "approval": "ask"})
	turn, req, seq := askTurn(t, n1, "cp", "touch clustered.txt")
	id := req.Permission.RequestID
	if !slices.ContainsFunc(n1.Engine.ListActiveSessions(), func(s *engine.Session) bool { return strings.HasPrefix(s.ID, "cp~") }) {
		t.Fatal("the turn does not run on node 1")
	}

	sse := streamGet(t, n2, "/v1/sessions/cp/events", n2.alice, map[string]string{"Last-Event-ID": strconv.FormatUint(seq, 10)})
	got := readSSE(t, sse.Body, func(e sseEvent) bool { return e.Type == "permission_pending" })
	if len(got) == 0 || got[len(got)-1].Type != "permission_pending" || !strings.Contains(string(got[len(got)-1].Data), id) {
		t.Fatalf("node 2's follower was not asked again: %v", got)
	}
	if r := n2.Do(t, "POST", "/v1/sessions/cp/permissions/"+id, n2.alice, map[string]string{"decision": "allow", "channel": "web"}); r.StatusCode != http.StatusOK {
		t.Fatalf("answer through node 2: %d", r.StatusCode)
	}
	r := n2.Do(t, "POST", "/v1/sessions/cp/permissions/"+id, n2.alice, map[string]string{"decision": "deny"})
	b := testkit.Decode[answeredBody](t, r)
	if a := b.Error.Answered; r.StatusCode != http.StatusConflict || a == nil || a.By != "alice" || a.Channel != "web" || a.Decision != "allow" {
		t.Fatalf("a second answer through node 2: %d %+v", r.StatusCode, b)
	}
	if p := decisionOf(t, turn, id); p.Answerer == nil || p.Channel != "web" || p.By != "alice" {
		t.Fatalf("permission_decision on node 1: %+v", p)
	}
	readSSE(t, turn, nil)
	if _, err := os.Stat(filepath.Join(ap["work_dir"].(string), "clustered.txt")); err != nil {
		t.Fatalf("the allowed command did not run: %v", err)
	}
}
