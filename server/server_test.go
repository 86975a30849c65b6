package server_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/pgtest"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/server"
	"github.com/hotplex/hotplex/testkit"
)

var fakeAgent string

// pg is the package's PostgreSQL server, started by the first test that
// runs a daemon on PostgreSQL.
var pg pgtest.Lazy

func TestMain(m *testing.M) {
	// The journal's crash test re-runs this binary as a child that
	// delivers events and then kills itself; see journal_test.go.
	if path := os.Getenv(server.JournalCrashEnv); path != "" {
		server.JournalCrashChild(path)
		return
	}
	os.Exit(testkit.MainWithFakeAgent(m, &fakeAgent, http.DefaultClient.CloseIdleConnections, func() {
		if err := pg.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}))
}

// daemon is testkit's daemon with the fake agent, plus request helpers.
type daemon struct {
	*testkit.Daemon
	url                string
	root, home, dbPath string
	alice, bob, admin  string
}

func startDaemon(t *testing.T, root, home, dbPath string) *daemon {
	t.Helper()
	return startDaemonOn(t, home, testkit.DaemonOptions{Root: root, DBPath: dbPath})
}

// startDaemonOn starts the fake agent's daemon with HOME home on the
// store o names (DBPath or Postgres) and its Root.
func startDaemonOn(t *testing.T, home string, o testkit.DaemonOptions) *daemon {
	t.Helper()
	o.Provider = claude.New(claude.Options{Path: fakeAgent, Name: "fakeagent", Timeouts: provider.Timeouts{TerminateGrace: 500 * time.Millisecond}})
	o.Env = append(os.Environ(), "HOME="+home)
	td := testkit.StartDaemon(t, o)
	return &daemon{Daemon: td, url: td.URL, root: o.Root, home: home, dbPath: o.DBPath, alice: td.Alice, bob: td.Bob, admin: td.Admin}
}

// stop shuts the daemon down.
func (d *daemon) stop() { d.Stop() }

func newDaemon(t *testing.T) *daemon {
	t.Helper()
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	return startDaemon(t, t.TempDir(), t.TempDir(), filepath.Join(t.TempDir(), "hotplex.db"))
}

type sseEvent = testkit.SSEEvent

// readSSE parses events until the stream ends or stop returns true.
func readSSE(_ *testing.T, body io.Reader, stop func(sseEvent) bool) []sseEvent {
	return testkit.ReadSSE(body, stop)
}

func (d *daemon) turn(t *testing.T, key, id, prompt string) []sseEvent {
	t.Helper()
	resp := d.Do(t, "POST", "/v1/sessions/"+id+"/messages", key, map[string]string{"prompt": prompt})
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("message: %d %s", resp.StatusCode, b)
	}
	return readSSE(t, resp.Body, nil)
}

func types(evs []sseEvent) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Type)
	}
	return out
}

func TestAuthAndTenancy(t *testing.T) {
	d := newDaemon(t)
	if resp := d.Do(t, "GET", "/healthz", "", nil); resp.StatusCode != 200 {
		t.Fatalf("healthz: %d", resp.StatusCode)
	}
	for _, key := range []string{"", "nonsense"} {
		resp := d.Do(t, "GET", "/v1/sessions", key, nil)
		e := testkit.Decode[map[string]map[string]string](t, resp)
		if resp.StatusCode != http.StatusUnauthorized || e["error"]["code"] != "unauthorized" {
			t.Fatalf("key %q: %d %v", key, resp.StatusCode, e)
		}
	}
	s := d.Create(t, d.alice, map[string]any{"id": "alice-1", "task_instructions": "be brief"})
	if s["id"] != "alice-1" || s["provider"] != "fakeagent" || !strings.HasPrefix(s["work_dir"].(string), d.root) {
		t.Fatalf("created: %v", s)
	}
	// Bob cannot see, use, follow, interrupt or delete Alice's session.
	for _, c := range []struct{ method, path string }{
		{"GET", "/v1/sessions/alice-1"}, {"POST", "/v1/sessions/alice-1/messages"}, {"GET", "/v1/sessions/alice-1/events"},
		{"POST", "/v1/sessions/alice-1/interrupt"}, {"DELETE", "/v1/sessions/alice-1"},
	} {
		var body any
		if c.method == "POST" {
			body = map[string]string{"prompt": "hi"}
		}
		if resp := d.Do(t, c.method, c.path, d.bob, body); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("bob %s %s: %d", c.method, c.path, resp.StatusCode)
		}
	}
	if l := testkit.Decode[map[string][]map[string]any](t, d.Do(t, "GET", "/v1/sessions", d.bob, nil)); len(l["sessions"]) != 0 {
		t.Fatalf("bob lists %v", l)
	}
	if l := testkit.Decode[map[string][]map[string]any](t, d.Do(t, "GET", "/v1/sessions", d.alice, nil)); len(l["sessions"]) != 1 {
		t.Fatalf("alice lists %v", l)
	}
	if l := testkit.Decode[map[string][]map[string]any](t, d.Do(t, "GET", "/v1/sessions?all=true", d.admin, nil)); len(l["sessions"]) != 1 {
		t.Fatalf("admin lists %v", l)
	}
	// IDs are the admin's own too; any session is reachable by its key.
	if resp := d.Do(t, "GET", "/v1/sessions/alice-1", d.admin, nil); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("admin get by alice's ID: %d", resp.StatusCode)
	}
	if resp := d.Do(t, "GET", "/v1/sessions/"+s["key"].(string), d.admin, nil); resp.StatusCode != 200 {
		t.Fatalf("admin get by key: %d", resp.StatusCode)
	}
	if resp := d.Do(t, "GET", "/v1/sessions/"+s["key"].(string), d.bob, nil); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("bob get by key: %d", resp.StatusCode)
	}
}

func TestBadRequests(t *testing.T) {
	d := newDaemon(t)
	d.Create(t, d.alice, map[string]any{"id": "b"})
	cases := []struct {
		name   string
		method string
		path   string
		body   any
		status int
	}{
		{"malformed JSON", "POST", "/v1/sessions/b/messages", `{"prompt":`, 400},
		{"unknown field", "POST", "/v1/sessions/b/messages", `{"prompt":"x","nope":1}`, 400},
		{"empty prompt", "POST", "/v1/sessions/b/messages", `{"prompt":"  "}`, 400},
		{"oversized body", "POST", "/v1/sessions/b/messages", `{"prompt":"` + strings.Repeat("x", 2<<20) + `"}`, 413},
		{"bad session ID", "POST", "/v1/sessions", `{"id":"../etc"}`, 400},
		{"work dir outside the root", "POST", "/v1/sessions", `{"id":"w","work_dir":"/etc"}`, 400},
		{"duplicate session", "POST", "/v1/sessions", `{"id":"b"}`, 409},
		{"unknown session", "GET", "/v1/sessions/nope", nil, 404},
		{"bad Last-Event-ID", "GET", "/v1/sessions/b/events?after=x", nil, 400},
		{"unknown endpoint", "GET", "/v1/whatever", nil, 404},
	}
	for _, c := range cases {
		resp := d.Do(t, c.method, c.path, d.alice, c.body)
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var e map[string]map[string]string
		if err := json.Unmarshal(raw, &e); err != nil {
			t.Errorf("%s: %d, not a JSON error: %q", c.name, resp.StatusCode, raw)
			continue
		}
		if resp.StatusCode != c.status || e["error"]["code"] == "" || e["error"]["message"] == "" {
			t.Errorf("%s: %d %v, want %d with a JSON error", c.name, resp.StatusCode, e, c.status)
		}
	}
}

func TestTurnOverSSEAndFollowWithReplay(t *testing.T) {
	d := newDaemon(t)
	d.Create(t, d.alice, map[string]any{"id": "s"})
	t1 := d.turn(t, d.alice, "s", "blocks:2 first")
	testkit.AssertOrder(t, types(t1), event.TypeSessionStart, event.TypeAnswer, event.TypeAnswer, event.TypeSessionStats, event.TypeResult)
	for i, e := range t1 {
		if e.ID != uint64(i+1) {
			t.Fatalf("ids not 1..n: %v", t1)
		}
	}
	t2 := d.turn(t, d.alice, "s", "second")
	if t2[0].ID != t1[len(t1)-1].ID+1 {
		t.Fatalf("second turn's ids do not continue")
	}
	all := append(t1, t2...)

	// Follow from the middle: everything after, once, then live.
	resp := d.Do(t, "GET", "/v1/sessions/s/events?after=3", d.alice, nil)
	defer resp.Body.Close()
	live := make(chan []sseEvent, 1)
	go func() {
		live <- readSSE(t, resp.Body, func(e sseEvent) bool { return e.Type == event.TypeResult && e.ID > all[len(all)-1].ID })
	}()
	time.Sleep(100 * time.Millisecond)
	t3 := d.turn(t, d.alice, "s", "third")
	got := <-live
	want := append(all[3:], t3...)
	if len(got) != len(want) {
		t.Fatalf("follow got %d events, want %d: %v", len(got), len(want), types(got))
	}
	for i := range got {
		if got[i].ID != want[i].ID || got[i].Type != want[i].Type {
			t.Fatalf("follow event %d: %d %s, want %d %s", i, got[i].ID, got[i].Type, want[i].ID, want[i].Type)
		}
	}
}

func TestReconnectMidTurnLosesNothing(t *testing.T) {
	d := newDaemon(t)
	d.Create(t, d.alice, map[string]any{"id": "r"})
	// A long turn: many blocks, with a pause in the middle.
	resp := d.Do(t, "POST", "/v1/sessions/r/messages", d.alice, map[string]string{"prompt": "blocks:100 sleep:300 think"})
	first := readSSE(t, resp.Body, func(e sseEvent) bool { return e.Type == event.TypeThinking })
	resp.Body.Close() // the client goes away mid-turn
	last := first[len(first)-1].ID
	time.Sleep(100 * time.Millisecond)
	req, _ := http.NewRequest("GET", d.url+"/v1/sessions/r/events", nil)
	req.Header.Set("Authorization", "Bearer "+d.alice)
	req.Header.Set("Last-Event-ID", strconv.FormatUint(last, 10))
	resp2, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp2.Body.Close()
	rest := readSSE(t, resp2.Body, func(e sseEvent) bool { return e.Type == event.TypeResult })
	all := append(first, rest...)
	answers := 0
	for i, e := range all {
		if e.ID != uint64(i+1) {
			t.Fatalf("event %d has id %d: lost or repeated events", i, e.ID)
		}
		if e.Type == event.TypeAnswer {
			answers++
		}
	}
	if answers != 100 {
		t.Fatalf("got %d answers, want 100", answers)
	}
}

func TestInterruptAndDelete(t *testing.T) {
	d := newDaemon(t)
	d.Create(t, d.alice, map[string]any{"id": "i"})
	resp := d.Do(t, "POST", "/v1/sessions/i/messages", d.alice, map[string]string{"prompt": "sleep:20000"})
	defer resp.Body.Close()
	started := readSSE(t, resp.Body, func(e sseEvent) bool { return e.Type == event.TypeSessionStart })
	var start event.EventWithMeta
	_ = json.Unmarshal(started[0].Data, &start)
	at := time.Now()
	ir := testkit.Decode[map[string]any](t, d.Do(t, "POST", "/v1/sessions/i/interrupt", d.alice, nil))
	if ir["interrupted"] != true || ir["queued"] != float64(0) {
		t.Fatal("interrupt reported no running turn")
	}
	rest := readSSE(t, resp.Body, nil)
	// The turn would sleep 20 s; ending well before proves the
	// interrupt (the engine's own tests hold it to 2 s on a quiet machine).
	if took := time.Since(at); took > 10*time.Second {
		t.Fatalf("interrupt took %s", took)
	}
	tail := rest[len(rest)-1]
	if tail.Type != "turn_error" || !strings.Contains(string(tail.Data), "interrupted") {
		t.Fatalf("stream did not end with the interruption: %v", types(rest))
	}
	if del := d.Do(t, "DELETE", "/v1/sessions/i", d.alice, nil); del.StatusCode != http.StatusNoContent {
		t.Fatalf("delete: %d", del.StatusCode)
	}
	if testkit.LiveDescendants(); start.PID == 0 {
		t.Fatal("no pid")
	}
	if resp := d.Do(t, "GET", "/v1/sessions/i", d.alice, nil); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("deleted session still served: %d", resp.StatusCode)
	}
}

func TestRestartKeepsSessionsAndResumes(t *testing.T) {
	testRestartKeepsSessionsAndResumes(t, testkit.DaemonOptions{DBPath: filepath.Join(t.TempDir(), "hotplex.db")})
}

// testRestartKeepsSessionsAndResumes runs a turn, stops the daemon and
// starts another on the same store (o's) and work directories.
func testRestartKeepsSessionsAndResumes(t *testing.T, o testkit.DaemonOptions) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	home := t.TempDir()
	o.Root = t.TempDir()
	d := startDaemonOn(t, home, o)
	created := d.Create(t, d.alice, map[string]any{"id": "p", "task_instructions": "keep it short"})
	if created["status"] != "new" || created["pid"] != nil && created["pid"] != float64(0) {
		t.Fatalf("a created session: %v", created)
	}
	t1 := d.turn(t, d.alice, "p", "remember the tulips")
	// A new session's first turn starts a new conversation: nothing to
	// resume, so no fallback either.
	var first event.EventWithMeta
	_ = json.Unmarshal(t1[0].Data, &first)
	if first.SessionStart == nil || first.Resumed || first.Fallback != "" {
		t.Fatalf("first start of a new session: %s", t1[0].Data)
	}
	if s := testkit.Decode[map[string]any](t, d.Do(t, "GET", "/v1/sessions/p", d.alice, nil)); s["status"] != "idle" {
		t.Fatalf("after its first turn the session is %v", s["status"])
	}
	d.stop()

	d2 := startDaemonOn(t, home, o)
	s := testkit.Decode[map[string]any](t, d2.Do(t, "GET", "/v1/sessions/p", d2.alice, nil))
	if s["id"] != "p" || s["status"] != "hibernated" || s["task_instructions"] != "keep it short" || uint64(s["last_event_id"].(float64)) != t1[len(t1)-1].ID {
		t.Fatalf("session after restart: %v (turn 1: %v %s)", s, types(t1), t1[len(t1)-1].Data)
	}
	// The transcript is readable.
	resp := d2.Do(t, "GET", "/v1/sessions/p/events", d2.alice, nil)
	replayed := readSSE(t, resp.Body, func(e sseEvent) bool { return e.ID == t1[len(t1)-1].ID })
	resp.Body.Close()
	if len(replayed) != len(t1) {
		t.Fatalf("replayed %d events, want %d", len(replayed), len(t1))
	}
	// The next turn resumes the conversation, numbering on.
	t2 := d2.turn(t, d2.alice, "p", "history")
	if t2[0].ID != t1[len(t1)-1].ID+1 {
		t.Fatalf("ids restart at %d", t2[0].ID)
	}
	var start event.EventWithMeta
	_ = json.Unmarshal(t2[0].Data, &start)
	if !start.Resumed {
		t.Fatalf("not resumed: %s", t2[0].Data)
	}
	for _, e := range t2 {
		if e.Type == event.TypeAnswer && !strings.Contains(string(e.Data), "remember the tulips") {
			t.Fatalf("context lost: %s", e.Data)
		}
	}
}

func bashDirective(cmd string) string {
	return "bash:" + base64.RawURLEncoding.EncodeToString([]byte(cmd))
}

func TestPermissionsAnsweredOverHTTPAndWebSocket(t *testing.T) {
	d := newDaemon(t)
	ap := d.Create(t, d.alice, map[string]any{"id": "ap", "approval": "ask"})
	for i, c := range []struct {
		via, decision string
		created       bool
	}{{"http", "allow", true}, {"http", "deny", false}, {"ws", "allow", true}} {
		file := fmt.Sprintf("f%d.txt", i)
		resp := d.Do(t, "POST", "/v1/sessions/ap/messages", d.alice, map[string]string{"prompt": bashDirective("touch " + file)})
		got := readSSE(t, resp.Body, func(e sseEvent) bool { return e.Type == event.TypePermissionRequest })
		var req event.EventWithMeta
		_ = json.Unmarshal(got[len(got)-1].Data, &req)
		pending := testkit.Decode[map[string][]map[string]any](t, d.Do(t, "GET", "/v1/sessions/ap/permissions", d.alice, nil))["permissions"]
		if len(pending) != 1 || pending[0]["request_id"] != req.Permission.RequestID || pending[0]["tool_name"] != "Bash" {
			t.Fatalf("pending = %v, event = %+v", pending, req.Permission)
		}
		// Another tenant can neither see nor answer it.
		if r := d.Do(t, "GET", "/v1/sessions/ap/permissions", d.bob, nil); r.StatusCode != http.StatusNotFound {
			t.Fatalf("bob lists: %d", r.StatusCode)
		}
		switch c.via {
		case "http":
			r := d.Do(t, "POST", "/v1/sessions/ap/permissions/"+req.Permission.RequestID, d.alice, map[string]string{"decision": c.decision})
			if r.StatusCode != http.StatusOK {
				t.Fatalf("answer: %d", r.StatusCode)
			}
		case "ws":
			ws := dialWS(t, d, d.alice)
			wsSend(t, ws, map[string]any{"request_id": "pr", "type": "permission_reply", "session_id": "ap", "permission_id": req.Permission.RequestID, "decision": c.decision})
			if m := wsRead(t, ws); m.Type != "ack" {
				t.Fatalf("ws reply: %+v", m)
			}
		}
		readSSE(t, resp.Body, nil)
		_, err := os.Stat(filepath.Join(ap["work_dir"].(string), file))
		if (err == nil) != c.created {
			t.Fatalf("%s %s: file created = %v", c.via, c.decision, err == nil)
		}
	}
	if r := d.Do(t, "POST", "/v1/sessions/ap/permissions/nope", d.alice, map[string]string{"decision": "allow"}); r.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown request: %d", r.StatusCode)
	}
}

func TestRateLimitPerKey(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	td := testkit.StartDaemon(t, testkit.DaemonOptions{
		Provider: claude.New(claude.Options{Path: fakeAgent, Name: "fakeagent"}),
		Env:      append(os.Environ(), "HOME="+t.TempDir()), Root: t.TempDir(), DBPath: filepath.Join(t.TempDir(), "hotplex.db"),
		RateLimit: server.RateLimit{PerSecond: 1, Burst: 3},
	})
	d := &daemon{Daemon: td, url: td.URL, alice: td.Alice, bob: td.Bob}
	for i := range 3 {
		if r := d.Do(t, "GET", "/v1/sessions", d.alice, nil); r.StatusCode != http.StatusOK {
			t.Fatalf("request %d: %d", i, r.StatusCode)
		}
	}
	r := d.Do(t, "GET", "/v1/sessions", d.alice, nil)
	e := testkit.Decode[map[string]map[string]string](t, r)
	if r.StatusCode != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" || e["error"]["code"] != "rate_limited" {
		t.Fatalf("over the limit: %d %v %v", r.StatusCode, r.Header, e)
	}
	if r := d.Do(t, "GET", "/v1/sessions", d.bob, nil); r.StatusCode != http.StatusOK {
		t.Fatalf("another key was limited: %d", r.StatusCode)
	}
	if r := d.Do(t, "GET", "/healthz", "", nil); r.StatusCode != http.StatusOK {
		t.Fatalf("healthz limited: %d", r.StatusCode)
	}
}

func TestMetrics(t *testing.T) {
	d := newDaemon(t)
	if r := d.Do(t, "GET", "/metrics", "", nil); r.StatusCode != http.StatusUnauthorized {
		t.Fatalf("metrics without a key: %d", r.StatusCode)
	}
	d.Create(t, d.alice, map[string]any{"id": "m"})
	d.turn(t, d.alice, "m", "one")
	d.turn(t, d.alice, "m", "two")
	d.turn(t, d.alice, "m", bashDirective("echo hi"))
	d.turn(t, d.alice, "m", bashDirective("rm -rf ~"))
	r := d.Do(t, "GET", "/metrics", d.admin, nil)
	body, _ := io.ReadAll(r.Body)
	text := string(body)
	for _, want := range []string{
		`hotplex_sessions{status="idle"} 1`,
		`hotplex_sessions{status="new"} 0`,
		`hotplex_sessions{status="closed"} 0`,
		"hotplex_turns_total 4",
		`hotplex_turn_starts_total{start="cold"} 1`,
		`hotplex_turn_starts_total{start="warm"} 3`,
		`hotplex_events_total{type="tool_use"} 2`,
		`hotplex_danger_blocks_total{category="file_delete"} 1`,
		`hotplex_turn_duration_seconds_bucket{le="+Inf"} 4`,
		"hotplex_turn_duration_seconds_count 4",
		"# TYPE hotplex_turn_duration_seconds histogram",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %q:\n%s", want, text)
		}
	}
	if !strings.Contains(text, "hotplex_tokens_total{direction=\"input\"} ") || strings.Contains(text, "hotplex_tokens_total{direction=\"input\"} 0\n") {
		t.Errorf("no input tokens counted:\n%s", text)
	}
}

func TestAdminBypassOverHTTP(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	home := t.TempDir()
	td := testkit.StartDaemon(t, testkit.DaemonOptions{
		Provider: claude.New(claude.Options{Path: fakeAgent, Name: "fakeagent"}),
		Env:      append(os.Environ(), "HOME="+home), Root: t.TempDir(), DBPath: filepath.Join(t.TempDir(), "hotplex.db"),
		AdminToken: "the-admin-token",
	})
	d := &daemon{Daemon: td, url: td.URL, root: td.RootDir, alice: td.Alice, admin: td.Admin}
	bp := d.Create(t, d.alice, map[string]any{"id": "bp"})
	key := bp["key"].(string)
	body := map[string]any{"admin_token": "the-admin-token", "ttl_seconds": 60}
	if r := d.Do(t, "POST", "/v1/sessions/bp/bypass", d.alice, body); r.StatusCode != http.StatusForbidden {
		t.Fatalf("a user key bypassed: %d", r.StatusCode)
	}
	if r := d.Do(t, "POST", "/v1/sessions/"+key+"/bypass", d.admin, map[string]any{"admin_token": "wrong", "ttl_seconds": 60}); r.StatusCode != http.StatusForbidden {
		t.Fatalf("a wrong token bypassed: %d", r.StatusCode)
	}
	sentinel := filepath.Join(bp["work_dir"].(string), "victim")
	_ = os.MkdirAll(sentinel, 0o755)
	cmd := bashDirective("rm -rf " + sentinel + "/.. /nonexistent-hotplex-path")
	if evs := d.turn(t, d.alice, "bp", cmd); !slices.Contains(types(evs), event.TypeDangerBlock) {
		t.Fatalf("not blocked before the bypass: %v", types(evs))
	}
	if r := d.Do(t, "POST", "/v1/sessions/"+key+"/bypass", d.admin, body); r.StatusCode != http.StatusOK {
		t.Fatalf("admin bypass: %d", r.StatusCode)
	}
	if evs := d.turn(t, d.alice, "bp", bashDirective("echo bypassed rm -rf /nonexistent-hotplex-path; rm -rf /nonexistent-hotplex-path")); !slices.Contains(types(evs), event.TypeDangerBypass) {
		t.Fatalf("bypass not audited: %v", types(evs))
	}
	if r := d.Do(t, "POST", "/v1/sessions/"+key+"/bypass", d.admin, map[string]any{"ttl_seconds": 0}); r.StatusCode != http.StatusOK {
		t.Fatalf("end bypass: %d", r.StatusCode)
	}
	if evs := d.turn(t, d.alice, "bp", bashDirective("rm -rf /nonexistent-hotplex-path")); !slices.Contains(types(evs), event.TypeDangerBlock) {
		t.Fatalf("firewall not restored: %v", types(evs))
	}
}

// A turn that fails before it has anything to stream answers with a plain
// HTTP error, not a 200 stream holding only a turn_error notice; one that
// fails later keeps its stream and ends it with the notice.
func TestTurnFailingBeforeItsStream(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	td := testkit.StartDaemon(t, testkit.DaemonOptions{
		Provider: claude.New(claude.Options{Path: filepath.Join(t.TempDir(), "no-such-agent"), Name: "fakeagent"}),
		Env:      append(os.Environ(), "HOME="+t.TempDir()), Root: t.TempDir(), DBPath: filepath.Join(t.TempDir(), "hotplex.db"),
	})
	d := &daemon{Daemon: td, url: td.URL, alice: td.Alice, bob: td.Bob, admin: td.Admin}
	d.Create(t, d.alice, map[string]any{"id": "broken"})
	resp := d.Do(t, "POST", "/v1/sessions/broken/messages", d.alice, map[string]string{"prompt": "hello"})
	if resp.StatusCode != http.StatusBadGateway || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("status %d, content type %q; want 502 JSON", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var body struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || body.Error.Code != "start_failed" {
		t.Fatalf("body: %+v, %v", body, err)
	}

	// Once events flowed, a failure is the stream's last word.
	ok := newDaemon(t)
	ok.Create(t, ok.alice, map[string]any{"id": "dies"})
	resp = ok.Do(t, "POST", "/v1/sessions/dies/messages", ok.alice, map[string]string{"prompt": "crash"})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("a turn that started: status %d", resp.StatusCode)
	}
	evs := readSSE(t, resp.Body, func(sseEvent) bool { return false })
	if len(evs) == 0 || evs[0].Type != event.TypeSessionStart || evs[len(evs)-1].Type != "turn_error" {
		t.Fatalf("stream: %v", evs)
	}
}
