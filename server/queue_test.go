package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/fakeprovider"
	"github.com/hotplex/hotplex/testkit"
)

// post sends a prompt in mode and returns its SSE response.
func (d *daemon) post(t *testing.T, key, id, prompt, mode string) *http.Response {
	t.Helper()
	body := map[string]string{"prompt": prompt}
	if mode != "" {
		body["mode"] = mode
	}
	resp := d.Do(t, "POST", "/v1/sessions/"+id+"/messages", key, body)
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("message %q: %d %s", prompt, resp.StatusCode, b)
	}
	return resp
}

// queuedNotice reads a stream's first message, which must be the queued
// notice, and returns it.
func queuedNotice(t *testing.T, body io.Reader) map[string]any {
	t.Helper()
	first := readSSE(t, body, func(sseEvent) bool { return true })
	if len(first) != 1 || first[0].Type != "queued" {
		t.Fatalf("the stream of a prompt sent while a turn runs opened with %v", types(first))
	}
	var n map[string]any
	if err := json.Unmarshal(first[0].Data, &n); err != nil {
		t.Fatal(err)
	}
	return n
}

// answers returns the answer texts of a stream's events.
func answers(evs []sseEvent) []string {
	var out []string
	for _, e := range evs {
		if e.Type == event.TypeAnswer {
			var ev event.EventWithMeta
			_ = json.Unmarshal(e.Data, &ev)
			out = append(out, ev.EventData)
		}
	}
	return out
}

// queuedThenRan reads the running turn's stream (first), which must show
// the prompts "second" and "third" queued, then the two prompts' streams,
// each of which must be its own turn, the second ending before the third
// begins.
func queuedThenRan(t *testing.T, first, second, third io.Reader) {
	t.Helper()
	rest := readSSE(t, first, nil)
	var queued []string
	for _, e := range rest {
		if e.Type == event.TypePromptQueued {
			var ev event.EventWithMeta
			if err := json.Unmarshal(e.Data, &ev); err != nil {
				t.Fatal(err)
			}
			queued = append(queued, ev.EventData)
		}
	}
	if strings.Join(queued, ",") != "second,third" {
		t.Fatalf("the running turn's stream saw %v queued (%v)", queued, types(rest))
	}
	s2 := readSSE(t, second, nil)
	s3 := readSSE(t, third, nil)
	if a := answers(s2); len(a) != 1 || a[0] != "echo: second" || s2[len(s2)-1].Type != event.TypeResult {
		t.Fatalf("second turn: %v %v", types(s2), a)
	}
	if a := answers(s3); len(a) != 1 || a[0] != "echo: third" || s3[len(s3)-1].Type != event.TypeResult {
		t.Fatalf("third turn: %v %v", types(s3), a)
	}
	if s2[len(s2)-1].ID >= s3[0].ID {
		t.Fatalf("the third turn (from %d) ran before the second ended (%d)", s3[0].ID, s2[len(s2)-1].ID)
	}
}

// Prompts sent while a turn runs are queued in order, each caller's stream
// says where, the session counts them, an interrupt ends the running turn
// only, and each queued prompt then runs as its own turn, in order.
func TestQueuedPromptsRunInOrder(t *testing.T) {
	d := newDaemon(t)
	d.Create(t, d.alice, map[string]any{"id": "q"})
	first := d.post(t, d.alice, "q", "sleep:20000 first", "")
	readSSE(t, first.Body, func(e sseEvent) bool { return e.Type == event.TypeSessionStart })

	second := d.post(t, d.alice, "q", "second", "queue")
	if n := queuedNotice(t, second.Body); n["position"] != float64(1) {
		t.Fatalf("second prompt's notice: %v", n)
	}
	third := d.post(t, d.alice, "q", "third", "")
	if n := queuedNotice(t, third.Body); n["position"] != float64(2) {
		t.Fatalf("third prompt's notice: %v", n)
	}
	if s := testkit.Decode[map[string]any](t, d.Do(t, "GET", "/v1/sessions/q", d.alice, nil)); s["queued"] != float64(2) {
		t.Fatalf("the session shows %v queued, want 2", s["queued"])
	}
	ir := testkit.Decode[map[string]any](t, d.Do(t, "POST", "/v1/sessions/q/interrupt", d.alice, nil))
	if ir["interrupted"] != true || ir["queued"] != float64(2) {
		t.Fatalf("interrupt: %v", ir)
	}
	// The first turn's followers saw both prompts queued.
	queuedThenRan(t, first.Body, second.Body, third.Body)
	if s := testkit.Decode[map[string]any](t, d.Do(t, "GET", "/v1/sessions/q", d.alice, nil)); s["queued"] != float64(0) {
		t.Fatalf("the session shows %v queued after they ran", s["queued"])
	}
}

// A prompt queued when the daemon stops runs after it starts again, and
// its events reach whoever follows the session.
func TestQueuedPromptSurvivesRestart(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		testQueuedPromptSurvivesRestart(t, testkit.DaemonOptions{DBPath: filepath.Join(t.TempDir(), "hotplex.db")})
	})
	t.Run("postgres", func(t *testing.T) {
		testQueuedPromptSurvivesRestart(t, testkit.DaemonOptions{Postgres: pg.NewDatabase(t)})
	})
}

func testQueuedPromptSurvivesRestart(t *testing.T, o testkit.DaemonOptions) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	home := t.TempDir()
	o.Root = t.TempDir()
	d := startDaemonOn(t, home, o)
	d.Create(t, d.alice, map[string]any{"id": "r"})
	first := d.post(t, d.alice, "r", "sleep:20000 long", "")
	readSSE(t, first.Body, func(e sseEvent) bool { return e.Type == event.TypeSessionStart })
	queued := d.post(t, d.alice, "r", "after the restart", "")
	queuedNotice(t, queued.Body)
	d.stop()

	d2 := startDaemonOn(t, home, o)
	before := testkit.Decode[map[string]any](t, d2.Do(t, "GET", "/v1/sessions/r", d2.alice, nil))
	resp := d2.Do(t, "GET", "/v1/sessions/r/events", d2.alice, nil)
	evs := readSSE(t, resp.Body, func(e sseEvent) bool {
		return e.Type == event.TypeResult && strings.Contains(string(e.Data), "after the restart")
	})
	if a := answers(evs); len(a) == 0 || a[len(a)-1] != "echo: after the restart" {
		t.Fatalf("the queued prompt did not run after the restart (session then: %v): %v", before, types(evs))
	}
	if s := testkit.Decode[map[string]any](t, d2.Do(t, "GET", "/v1/sessions/r", d2.alice, nil)); s["queued"] != float64(0) {
		t.Fatalf("the session shows %v queued after it ran", s["queued"])
	}
}

// Deleting a session drops its queued prompts: the response counts them
// and their callers' streams say so.
func TestDeleteDropsQueuedPrompts(t *testing.T) {
	d := newDaemon(t)
	d.Create(t, d.alice, map[string]any{"id": "x"})
	first := d.post(t, d.alice, "x", "sleep:20000 long", "")
	readSSE(t, first.Body, func(e sseEvent) bool { return e.Type == event.TypeSessionStart })
	queued := d.post(t, d.alice, "x", "never runs", "")
	queuedNotice(t, queued.Body)
	del := d.Do(t, "DELETE", "/v1/sessions/x", d.alice, nil)
	if del.StatusCode != http.StatusNoContent || del.Header.Get("Hotplex-Dropped-Queued") != "1" {
		t.Fatalf("delete: %d, dropped %q", del.StatusCode, del.Header.Get("Hotplex-Dropped-Queued"))
	}
	rest := readSSE(t, queued.Body, nil)
	if len(rest) < 2 || rest[0].Type != "queue_dropped" || rest[len(rest)-1].Type != "turn_error" || !strings.Contains(string(rest[len(rest)-1].Data), "session_gone") {
		t.Fatalf("the queued prompt's stream after the deletion: %v", rest)
	}
	if a := answers(rest); len(a) != 0 {
		t.Fatalf("a dropped prompt ran: %v", a)
	}
}

// An interrupt with drop_queued empties the queue: nothing queued runs.
func TestInterruptDropsQueuedOnRequest(t *testing.T) {
	d := newDaemon(t)
	d.Create(t, d.alice, map[string]any{"id": "y"})
	first := d.post(t, d.alice, "y", "sleep:20000 long", "")
	readSSE(t, first.Body, func(e sseEvent) bool { return e.Type == event.TypeSessionStart })
	queued := d.post(t, d.alice, "y", "never runs", "")
	queuedNotice(t, queued.Body)
	ir := testkit.Decode[map[string]any](t, d.Do(t, "POST", "/v1/sessions/y/interrupt?drop_queued=true", d.alice, nil))
	if ir["interrupted"] != true || ir["queued"] != float64(0) || ir["dropped"] != float64(1) {
		t.Fatalf("interrupt: %v", ir)
	}
	rest := readSSE(t, queued.Body, nil)
	if len(rest) == 0 || rest[0].Type != "queue_dropped" || len(answers(rest)) != 0 {
		t.Fatalf("the dropped prompt's stream: %v", types(rest))
	}
	readSSE(t, first.Body, nil)
	// The session takes the next prompt at once.
	if a := answers(d.turn(t, d.alice, "y", "next")); len(a) != 1 || a[0] != "echo: next" {
		t.Fatalf("the turn after: %v", a)
	}
}

// An agent that cannot be steered gets a steered prompt as its next turn,
// and the notice says why.
func TestSteerFallsBackToQueue(t *testing.T) {
	fp := fakeprovider.New("plain")
	td := testkit.StartDaemon(t, testkit.DaemonOptions{Provider: fp, Root: t.TempDir(), DBPath: filepath.Join(t.TempDir(), "hotplex.db")})
	d := &daemon{Daemon: td, url: td.URL, alice: td.Alice}
	d.Create(t, d.alice, map[string]any{"id": "f"})
	g := fp.Gate("g")
	first := d.post(t, d.alice, "f", "wait:g hold on", "")
	readSSE(t, first.Body, func(e sseEvent) bool { return e.Type == event.TypeSessionStart })
	steer := d.post(t, d.alice, "f", "change course", "steer")
	n := queuedNotice(t, steer.Body)
	if fb, _ := n["steer_fallback"].(string); !strings.Contains(fb, "cannot be steered") {
		t.Fatalf("the fallback's notice: %v", n)
	}
	g.Open()
	rest := readSSE(t, first.Body, nil)
	var note *event.QueueNote
	for _, e := range rest {
		if e.Type == event.TypePromptQueued {
			var ev event.EventWithMeta
			_ = json.Unmarshal(e.Data, &ev)
			note = ev.Queue
		}
	}
	if note == nil || note.Mode != "queue" || note.Fallback == "" {
		t.Fatalf("the running turn's prompt_queued event: %+v (%v)", note, types(rest))
	}
	if a := answers(rest); strings.Contains(strings.Join(a, " "), "change course") {
		t.Fatalf("the running turn took the prompt: %v", a)
	}
	s := readSSE(t, steer.Body, nil)
	if a := answers(s); len(a) != 1 || a[0] != "echo: change course" {
		t.Fatalf("the fallen-back prompt's turn: %v %v", types(s), a)
	}

	// The OpenCode routes take the mode too (a field of HotPlex's own):
	// without it the prompt would be queued with no fallback to explain.
	g2 := fp.Gate("g2")
	second := d.post(t, d.alice, "f", "wait:g2 hold on again", "")
	readSSE(t, second.Body, func(e sseEvent) bool { return e.Type == event.TypeSessionStart })
	ocDone := make(chan int, 1)
	go func() {
		r := d.Do(t, "POST", "/session/f/message", d.alice, map[string]any{"mode": "steer", "parts": []map[string]string{{"type": "text", "text": "steer from opencode"}}})
		_, _ = io.Copy(io.Discard, r.Body)
		ocDone <- r.StatusCode
	}()
	var ocNote *event.QueueNote
	readSSE(t, second.Body, func(e sseEvent) bool {
		if e.Type != event.TypePromptQueued {
			return false
		}
		var ev event.EventWithMeta
		_ = json.Unmarshal(e.Data, &ev)
		ocNote = ev.Queue
		return true
	})
	if ocNote == nil || ocNote.Fallback == "" {
		t.Fatalf("the OpenCode route's steered prompt was queued as %+v", ocNote)
	}
	g2.Open()
	readSSE(t, second.Body, nil)
	if code := <-ocDone; code != http.StatusOK {
		t.Fatalf("the OpenCode route's prompt: %d", code)
	}
	if r := d.Do(t, "POST", "/session/f/message", d.alice, map[string]any{"mode": "sideways", "parts": []map[string]string{{"type": "text", "text": "x"}}}); r.StatusCode != http.StatusBadRequest {
		t.Fatalf("an unknown mode on the OpenCode route: %d", r.StatusCode)
	}
}

// Steer with no turn running is an ordinary turn; a bad mode is refused.
func TestSteerWhenIdleAndBadMode(t *testing.T) {
	d := newDaemon(t)
	d.Create(t, d.alice, map[string]any{"id": "z"})
	resp := d.post(t, d.alice, "z", "hello", "steer")
	if a := answers(readSSE(t, resp.Body, nil)); len(a) != 1 || a[0] != "echo: hello" {
		t.Fatalf("steer on an idle session: %v", a)
	}
	bad := d.Do(t, "POST", "/v1/sessions/z/messages", d.alice, map[string]string{"prompt": "x", "mode": "shove"})
	if bad.StatusCode != http.StatusBadRequest {
		t.Fatalf("mode shove: %d", bad.StatusCode)
	}
}

// Over the WebSocket, execute takes a mode too: a prompt queued behind a
// running turn gets its queued notice, then its own turn's events, and an
// interrupt's acknowledgement counts what stays queued.
func TestQueueOverWebSocket(t *testing.T) {
	d := newDaemon(t)
	d.Create(t, d.alice, map[string]any{"id": "w"})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ws, err := testkit.DialWS(ctx, d.url, d.alice)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	// next reads until a message of request id of type typ (and event
	// ev, for events), keeping those of the request want.
	byRequest := map[string][]testkit.WSMessage{}
	next := func(id, typ, ev string) testkit.WSMessage {
		t.Helper()
		for {
			m, err := ws.Read(ctx)
			if err != nil {
				t.Fatalf("waiting for %s %s %s: %v (so far %v)", id, typ, ev, err, byRequest)
			}
			byRequest[m.RequestID] = append(byRequest[m.RequestID], m)
			if m.RequestID == id && m.Type == typ && (ev == "" || m.Event == ev) {
				return m
			}
		}
	}
	send := func(req map[string]any) {
		t.Helper()
		if err := ws.Send(ctx, req); err != nil {
			t.Fatal(err)
		}
	}
	send(map[string]any{"request_id": "1", "type": "execute", "session_id": "w", "prompt": "sleep:20000 long"})
	next("1", "event", event.TypeSessionStart)
	send(map[string]any{"request_id": "2", "type": "execute", "session_id": "w", "prompt": "queued by ws", "mode": "queue"})
	var n map[string]any
	_ = json.Unmarshal(next("2", "queued", "").Data, &n)
	if n["position"] != float64(1) {
		t.Fatalf("queued notice: %v", n)
	}
	send(map[string]any{"request_id": "3", "type": "interrupt", "session_id": "w"})
	var ack map[string]any
	_ = json.Unmarshal(next("3", "ack", "").Data, &ack)
	if ack["interrupted"] != true || ack["queued"] != float64(1) {
		t.Fatalf("interrupt's ack: %v", ack)
	}
	next("2", "done", "")
	var said []string
	for _, m := range byRequest["2"] {
		if m.Type == "event" && m.Event == event.TypeAnswer {
			var ev event.EventWithMeta
			_ = json.Unmarshal(m.Data, &ev)
			said = append(said, ev.EventData)
		}
	}
	if len(said) != 1 || said[0] != "echo: queued by ws" {
		t.Fatalf("the queued prompt's turn over the WebSocket: %v", said)
	}
	send(map[string]any{"request_id": "4", "type": "execute", "session_id": "w", "prompt": "x", "mode": "shove"})
	if m := next("4", "error", ""); m.Error == nil || m.Error.Code != "bad_request" {
		t.Fatalf("a bad mode: %+v", m)
	}
}
