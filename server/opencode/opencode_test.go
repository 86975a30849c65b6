package opencode_test

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/testkit"
)

var fakeAgent string

func TestMain(m *testing.M) {
	os.Exit(testkit.MainWithFakeAgent(m, &fakeAgent, http.DefaultClient.CloseIdleConnections))
}

// daemon is testkit's daemon with the fake agent, plus request helpers.
type daemon struct {
	*testkit.Daemon
	url               string
	alice, bob, admin string
}

func startDaemon(t *testing.T, root, home, dbPath string) *daemon {
	t.Helper()
	td := testkit.StartDaemon(t, testkit.DaemonOptions{
		Provider: claude.New(claude.Options{Path: fakeAgent, Name: "fakeagent", Timeouts: provider.Timeouts{TerminateGrace: 500 * time.Millisecond}}),
		Env:      append(os.Environ(), "HOME="+home), Root: root, DBPath: dbPath,
	})
	return &daemon{Daemon: td, url: td.URL, alice: td.Alice, bob: td.Bob, admin: td.Admin}
}

func (d *daemon) stop() { d.Stop() }

func newDaemon(t *testing.T) *daemon {
	t.Helper()
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	return startDaemon(t, t.TempDir(), t.TempDir(), filepath.Join(t.TempDir(), "hotplex.db"))
}

// bashDirective makes the fake agent run cmd through its Bash tool.
func bashDirective(cmd string) string {
	return "bash:" + base64.RawURLEncoding.EncodeToString([]byte(cmd))
}

// ocStream is an OpenCode event stream (/event or /global/event) read in
// the background.
type ocStream struct {
	events chan map[string]any
	cancel context.CancelFunc
	done   chan struct{}
}

func (d *daemon) openCodeEvents(t *testing.T, path, key string) *ocStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", d.url+path, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		cancel()
		t.Fatalf("%s: %d", path, resp.StatusCode)
	}
	s := &ocStream{events: make(chan map[string]any, 1024), cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 4<<20)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var ev map[string]any
			if json.Unmarshal([]byte(data), &ev) != nil {
				ev = map[string]any{"type": "undecodable", "raw": data}
			}
			select {
			case s.events <- ev:
			default:
			}
		}
	}()
	t.Cleanup(func() { s.cancel(); <-s.done })
	// The stream is live once the server says so.
	if ev := s.next(t); ev["type"] != "server.connected" && dig(ev, "payload", "type") != "server.connected" {
		t.Fatalf("first event: %v", ev)
	}
	return s
}

func (s *ocStream) next(t *testing.T) map[string]any {
	t.Helper()
	select {
	case ev := <-s.events:
		return ev
	case <-time.After(30 * time.Second):
		t.Fatal("no OpenCode event within 30s")
		return nil
	}
}

// until collects events up to and including the first that stop accepts.
func (s *ocStream) until(t *testing.T, stop func(map[string]any) bool) []map[string]any {
	t.Helper()
	var out []map[string]any
	for {
		ev := s.next(t)
		out = append(out, ev)
		if stop(ev) {
			return out
		}
	}
}

// dig walks nested JSON objects.
func dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func idleOf(id string) func(map[string]any) bool {
	return func(ev map[string]any) bool {
		return ev["type"] == "session.idle" && dig(ev, "properties", "sessionID") == id
	}
}

// The OpenCode API over the fake agent: HotPlex's events become
// OpenCode's messages, parts and session events, only for the key that
// owns the session, and message lists survive a restart.
func TestOpenCodeMapping(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	root, home, db := t.TempDir(), t.TempDir(), t.TempDir()+"/hotplex.db"
	d := startDaemon(t, root, home, db)

	aliceEvents := d.openCodeEvents(t, "/event", d.alice)
	bobGlobal := d.openCodeEvents(t, "/global/event", d.bob)

	resp := d.Do(t, "POST", "/session", d.alice, map[string]any{"title": "mapping"})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("create: %d", resp.StatusCode)
	}
	sess := testkit.Decode[map[string]any](t, resp)
	id, _ := sess["id"].(string)
	if !strings.HasPrefix(id, "ses_") || sess["title"] != "mapping" || sess["directory"] == "" {
		t.Fatalf("session: %v", sess)
	}
	if ev := aliceEvents.next(t); ev["type"] != "session.created" || dig(ev, "properties", "info", "id") != id {
		t.Fatalf("want session.created, got %v", ev)
	}

	// An asynchronous prompt with a tool call: the reply arrives as events.
	prompt := "please run it " + bashDirective("echo tool-output-42")
	resp = d.Do(t, "POST", "/session/"+id+"/prompt_async", d.alice, map[string]any{
		"parts": []any{map[string]any{"type": "text", "text": prompt}}, "model": map[string]any{"providerID": "x", "modelID": "y"}})
	if resp.StatusCode != http.StatusNoContent {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("prompt_async: %d %s", resp.StatusCode, b)
	}
	evs := aliceEvents.until(t, idleOf(id))
	var (
		userText, finalText string
		tool                map[string]any
		busy, replyDone     bool
	)
	for _, ev := range evs {
		if sid := dig(ev, "properties", "part", "sessionID"); sid != nil && sid != id {
			t.Fatalf("an event of another session: %v", ev)
		}
		switch ev["type"] {
		case "session.status":
			if dig(ev, "properties", "status", "type") == "busy" {
				busy = true
			}
		case "message.part.updated":
			part, _ := dig(ev, "properties", "part").(map[string]any)
			switch part["type"] {
			case "text":
				if strings.HasSuffix(part["messageID"].(string), "0") {
					userText = part["text"].(string)
				} else {
					finalText = part["text"].(string)
				}
			case "tool":
				tool = part
			}
		case "message.updated":
			if dig(ev, "properties", "info", "role") == "assistant" && dig(ev, "properties", "info", "time", "completed") != nil {
				replyDone = dig(ev, "properties", "info", "finish") == "stop"
			}
		}
	}
	if !busy || !replyDone || userText != prompt || finalText == "" {
		t.Fatalf("busy=%v replyDone=%v user=%q final=%q in %v", busy, replyDone, userText, finalText, evs)
	}
	if tool == nil || tool["tool"] != "Bash" || dig(tool, "state", "status") != "completed" ||
		!strings.Contains(dig(tool, "state", "output").(string), "tool-output-42") ||
		dig(tool, "state", "input", "command") != "echo tool-output-42" || tool["callID"] == "" {
		t.Fatalf("tool part: %v", tool)
	}

	// A synchronous prompt answers with the assistant message.
	resp = d.Do(t, "POST", "/session/"+id+"/message", d.alice, map[string]any{"parts": []any{map[string]any{"type": "text", "text": "second question"}}})
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("prompt: %d %s", resp.StatusCode, b)
	}
	reply := testkit.Decode[map[string]any](t, resp)
	parts, _ := reply["parts"].([]any)
	if dig(reply, "info", "role") != "assistant" || len(parts) == 0 || !strings.Contains(dig(parts[len(parts)-1], "text").(string), "second question") {
		t.Fatalf("reply: %v", reply)
	}
	aliceEvents.until(t, idleOf(id))

	// Bob sees none of it, and cannot reach the session.
	resp = d.Do(t, "POST", "/session", d.bob, nil)
	bobID := testkit.Decode[map[string]any](t, resp)["id"].(string)
	if resp := d.Do(t, "POST", "/session/"+bobID+"/message", d.bob, map[string]any{"parts": []any{map[string]any{"type": "text", "text": "bob here"}}}); resp.StatusCode != http.StatusOK {
		t.Fatalf("bob's prompt: %d", resp.StatusCode)
	}
	for _, ev := range bobGlobal.until(t, func(ev map[string]any) bool { return idleOf(bobID)(dig(ev, "payload").(map[string]any)) }) {
		if strings.Contains(mustJSON(ev), id) {
			t.Fatalf("bob saw alice's session: %v", ev)
		}
		if dig(ev, "directory") == nil {
			t.Fatalf("a global event without its directory: %v", ev)
		}
	}
	for _, path := range []string{"/session/" + id, "/session/" + id + "/message"} {
		if resp := d.Do(t, "GET", path, d.bob, nil); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("bob GET %s: %d", path, resp.StatusCode)
		}
	}
	if resp := d.Do(t, "POST", "/session/"+id+"/prompt_async", d.bob, map[string]any{"parts": []any{map[string]any{"type": "text", "text": "x"}}}); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("bob prompt_async: %d", resp.StatusCode)
	}
	if resp := d.Do(t, "GET", "/event", "", nil); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("no key: %d", resp.StatusCode)
	}
	if resp := d.Do(t, "POST", "/session/"+id+"/message", d.alice, `{"parts":[{"type":"file","url":"x"}]}`); resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("file part: %d", resp.StatusCode)
	}
	if resp := d.Do(t, "POST", "/session/"+id+"/message", d.alice, `{"parts":`); resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("malformed: %d", resp.StatusCode)
	}
	before := testkit.Decode[[]map[string]any](t, d.Do(t, "GET", "/session/"+id+"/message", d.alice, nil))
	if len(before) != 4 || dig(before[0], "parts") == nil || dig(before[0], "info", "role") != "user" ||
		dig(before[0], "parts").([]any)[0].(map[string]any)["text"] != prompt {
		t.Fatalf("messages: %v", before)
	}
	aliceEvents.cancel()
	bobGlobal.cancel()
	<-aliceEvents.done
	<-bobGlobal.done

	// After a restart the same messages are listed, prompts included.
	d.stop()
	d2 := startDaemon(t, root, home, db)
	after := testkit.Decode[[]map[string]any](t, d2.Do(t, "GET", "/session/"+id+"/message", d2.alice, nil))
	if mustJSON(after) != mustJSON(before) {
		t.Fatalf("messages changed across a restart:\nbefore %s\nafter  %s", mustJSON(before), mustJSON(after))
	}
	list := testkit.Decode[[]map[string]any](t, d2.Do(t, "GET", "/session", d2.alice, nil))
	if len(list) != 1 || list[0]["id"] != id {
		t.Fatalf("alice's sessions: %v", list)
	}
	if resp := d2.Do(t, "PATCH", "/session/"+id, d2.alice, map[string]any{"title": "renamed"}); testkit.Decode[map[string]any](t, resp)["title"] != "renamed" {
		t.Fatal("rename lost")
	}
	if resp := d2.Do(t, "DELETE", "/session/"+id, d2.alice, nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("delete: %d", resp.StatusCode)
	}
	if resp := d2.Do(t, "GET", "/session/"+id, d2.alice, nil); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("deleted session: %d", resp.StatusCode)
	}
	for _, path := range []string{"/config", "/config/providers", "/provider"} {
		if resp := d2.Do(t, "GET", path, d2.alice, nil); resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", path, resp.StatusCode)
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// A session that asks a person before each tool use: OpenCode clients see
// the request as permission.updated, answer it through the OpenCode
// endpoint, and see it closed by permission.replied.
func TestOpenCodePermissions(t *testing.T) {
	d := newDaemon(t)
	d.Create(t, d.alice, map[string]any{"id": "asks", "approval": "ask"})
	events := d.openCodeEvents(t, "/event", d.alice)
	prompt := map[string]any{"parts": []any{map[string]any{"type": "text", "text": "go " + bashDirective("echo allowed-run")}}}
	if resp := d.Do(t, "POST", "/session/asks/prompt_async", d.alice, prompt); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("prompt_async: %d", resp.StatusCode)
	}
	asked := events.until(t, func(ev map[string]any) bool { return ev["type"] == "permission.updated" })
	perm := asked[len(asked)-1]["properties"].(map[string]any)
	pid, _ := perm["id"].(string)
	if pid == "" || perm["sessionID"] != "asks" || perm["type"] != "Bash" {
		t.Fatalf("permission: %v", perm)
	}
	for _, bad := range []struct {
		key, id, body string
		status        int
	}{
		{d.bob, pid, `{"response":"once"}`, http.StatusNotFound},
		{d.alice, pid, `{"response":"maybe"}`, http.StatusBadRequest},
		{d.alice, "nope", `{"response":"once"}`, http.StatusNotFound},
	} {
		if resp := d.Do(t, "POST", "/session/asks/permissions/"+bad.id, bad.key, bad.body); resp.StatusCode != bad.status {
			t.Fatalf("answer %s with %s: %d, want %d", bad.id, bad.body, resp.StatusCode, bad.status)
		}
	}
	resp := d.Do(t, "POST", "/session/asks/permissions/"+pid, d.alice, map[string]string{"response": "once"})
	if ok := testkit.Decode[bool](t, resp); resp.StatusCode != http.StatusOK || !ok {
		t.Fatalf("answer: %d", resp.StatusCode)
	}
	var replied bool
	var output string
	for _, ev := range events.until(t, idleOf("asks")) {
		switch ev["type"] {
		case "permission.replied":
			replied = dig(ev, "properties", "permissionID") == pid && dig(ev, "properties", "response") == "once"
		case "message.part.updated":
			if dig(ev, "properties", "part", "type") == "tool" && dig(ev, "properties", "part", "state", "status") == "completed" {
				output, _ = dig(ev, "properties", "part", "state", "output").(string)
			}
		}
	}
	if !replied || !strings.Contains(output, "allowed-run") {
		t.Fatalf("replied=%v output=%q", replied, output)
	}
}

// Sessions made and deleted through /v1 are announced to OpenCode clients
// too, and only to their owner's.
func TestOpenCodeHearsOfV1Sessions(t *testing.T) {
	d := newDaemon(t)
	aliceEvents := d.openCodeEvents(t, "/event", d.alice)
	bobEvents := d.openCodeEvents(t, "/event", d.bob)
	d.Create(t, d.alice, map[string]any{"id": "from-v1"})
	if ev := aliceEvents.next(t); ev["type"] != "session.created" || dig(ev, "properties", "info", "id") != "from-v1" {
		t.Fatalf("want session.created for from-v1, got %v", ev)
	}
	if r := d.Do(t, "DELETE", "/v1/sessions/from-v1", d.alice, nil); r.StatusCode != http.StatusNoContent {
		t.Fatalf("delete: %d", r.StatusCode)
	}
	if ev := aliceEvents.next(t); ev["type"] != "session.deleted" || dig(ev, "properties", "info", "id") != "from-v1" {
		t.Fatalf("want session.deleted for from-v1, got %v", ev)
	}
	// Bob's stream carries nothing of Alice's: his own session is the
	// first thing he hears of.
	d.Create(t, d.bob, map[string]any{"id": "bobs"})
	if ev := bobEvents.next(t); ev["type"] != "session.created" || dig(ev, "properties", "info", "id") != "bobs" {
		t.Fatalf("bob heard %v first", ev)
	}
}
