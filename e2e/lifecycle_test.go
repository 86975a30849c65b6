package e2e

import (
	"bytes"
	"encoding/json"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/testkit"
)

// A session created over the API starts a new conversation on its first
// turn (no resume tried, no fallback reported); after a daemon restart the
// same session resumes it.
func TestDaemonCreatesThenResumes(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	m, err := scriptedmodel.Start("127.0.0.1:0", scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("remember", scriptedmodel.Text("Noted.")),
		scriptedmodel.Then("what did I say", scriptedmodel.Text("You said something earlier.")),
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	env := testkit.OfflineEnv(t, m.URL())
	opts := testkit.DaemonOptions{
		Provider: claude.New(claude.Options{Path: testkit.ClaudePath(t)}),
		Env:      env, Root: t.TempDir(), DBPath: filepath.Join(t.TempDir(), "hotplex.db"),
	}
	do := func(d *testkit.Daemon, method, path string, body any) *http.Response {
		t.Helper()
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest(method, d.URL+path, bytes.NewReader(b))
		req.Header.Set("Authorization", "Bearer "+d.Alice)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	status := func(d *testkit.Daemon) string {
		t.Helper()
		var v struct{ Status string }
		_ = json.NewDecoder(do(d, "GET", "/v1/sessions/life", nil).Body).Decode(&v)
		return v.Status
	}
	start := func(d *testkit.Daemon, prompt string) *event.EventWithMeta {
		t.Helper()
		resp := do(d, "POST", "/v1/sessions/life/messages", map[string]string{"prompt": prompt})
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("turn: %d", resp.StatusCode)
		}
		evs := testkit.ReadSSE(resp.Body, nil)
		var first event.EventWithMeta
		if len(evs) == 0 || json.Unmarshal(evs[0].Data, &first) != nil || first.SessionStart == nil {
			t.Fatalf("turn did not open with session_start: %v", evs)
		}
		if last := evs[len(evs)-1]; last.Type != event.TypeResult {
			t.Fatalf("turn did not end with a result: %s %s", last.Type, last.Data)
		}
		return &first
	}

	d := testkit.StartDaemon(t, opts)
	if resp := do(d, "POST", "/v1/sessions", map[string]string{"id": "life"}); resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d", resp.StatusCode)
	}
	if st := status(d); st != "new" {
		t.Fatalf("a created session is %q, want new", st)
	}
	first := start(d, "remember the tulips")
	if first.Resumed || first.Fallback != "" || first.PID == 0 {
		t.Fatalf("first turn of a new session: resumed %v, fallback %q, pid %d", first.Resumed, first.Fallback, first.PID)
	}
	if st := status(d); st != "idle" {
		t.Fatalf("after its first turn the session is %q, want idle", st)
	}
	d.Stop()

	d2 := testkit.StartDaemon(t, opts)
	if st := status(d2); st != "hibernated" {
		t.Fatalf("a session restored after a restart is %q, want hibernated", st)
	}
	again := start(d2, "what did I say")
	if !again.Resumed || again.Fallback != "" {
		t.Fatalf("after a restart: resumed %v, fallback %q", again.Resumed, again.Fallback)
	}
	reqs := m.TurnRequests()
	if last := reqs[len(reqs)-1]; !last.Saw("remember the tulips") {
		t.Fatalf("the resumed conversation lost the first turn: %q", last.Texts)
	}
}
