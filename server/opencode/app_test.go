package opencode_test

import (
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/server"
	"github.com/hotplex/hotplex/testkit"
)

// withBasic sends a request with key as an HTTP Basic password, as
// OpenCode's CLI and TUI do.
func (d *daemon) withBasic(t *testing.T, method, path, user, key string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, d.url+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(user, key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// OpenCode's programs authenticate with HTTP Basic: the API key as the
// password, under any user name, is accepted on OpenCode's routes with
// the key's own tenancy, and refused on /v1, which stays Bearer-only.
func TestOpenCodeBasicAuth(t *testing.T) {
	d := newDaemon(t)
	d.Create(t, d.alice, map[string]any{"id": "alices"})
	for _, user := range []string{"opencode", "someone-else", ""} {
		resp := d.withBasic(t, "GET", "/session/alices", user, d.alice)
		if resp.StatusCode != http.StatusOK || testkit.Decode[map[string]any](t, resp)["id"] != "alices" {
			t.Fatalf("basic as %q: %d", user, resp.StatusCode)
		}
	}
	if resp := d.withBasic(t, "GET", "/session/alices", "opencode", d.bob); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("bob's key reached alice's session: %d", resp.StatusCode)
	}
	if resp := d.withBasic(t, "GET", "/session", "opencode", "wrong"); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a wrong password: %d", resp.StatusCode)
	}
	if resp := d.withBasic(t, "GET", "/v1/sessions/alices", "opencode", d.alice); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("basic on /v1: %d", resp.StatusCode)
	}
}

// What OpenCode's TUI reads at start is served in its own shapes, and a
// route HotPlex does not serve answers with OpenCode's error, outside /v1.
func TestOpenCodeStartupRoutes(t *testing.T) {
	d := newDaemon(t)
	path := testkit.Decode[map[string]any](t, d.Do(t, "GET", "/path", d.alice, nil))
	if dir, _ := path["directory"].(string); !strings.HasPrefix(dir, d.RootDir) || dir == d.RootDir || path["worktree"] != dir {
		t.Fatalf("path: %v (root %s)", path, d.RootDir)
	}
	if bobs := testkit.Decode[map[string]any](t, d.Do(t, "GET", "/path", d.bob, nil)); bobs["directory"] == path["directory"] {
		t.Fatal("alice and bob share a tree")
	}
	agents := testkit.Decode[[]map[string]any](t, d.Do(t, "GET", "/agent", d.alice, nil))
	if len(agents) != 1 || agents[0]["name"] != "build" || agents[0]["mode"] != "primary" || dig(agents[0], "model", "providerID") != "fakeagent" {
		t.Fatalf("agents: %v", agents)
	}
	if p := testkit.Decode[map[string]any](t, d.Do(t, "GET", "/project/current", d.alice, nil)); p["id"] != "global" || p["worktree"] != path["directory"] {
		t.Fatalf("project: %v", p)
	}
	if c := testkit.Decode[map[string]any](t, d.Do(t, "GET", "/experimental/capabilities", d.alice, nil)); c["backgroundSubagents"] != false {
		t.Fatalf("capabilities: %v", c)
	}
	if c := testkit.Decode[map[string]any](t, d.Do(t, "GET", "/experimental/console", d.alice, nil)); c["consoleManagedProviders"] == nil {
		t.Fatalf("console: %v", c)
	}
	// OpenCode's programs ask GET /mcp (HotPlex's MCP server's path) with
	// HTTP Basic for their MCP servers: none.
	if resp := d.withBasic(t, "GET", "/mcp", "opencode", d.alice); resp.StatusCode != http.StatusOK || len(testkit.Decode[map[string]any](t, resp)) != 0 {
		t.Fatalf("/mcp for OpenCode: %d", resp.StatusCode)
	}
	if dirs := testkit.Decode[[]map[string]any](t, d.Do(t, "GET", "/project/global/directories", d.alice, nil)); len(dirs) != 1 || dirs[0]["directory"] != path["directory"] {
		t.Fatalf("project directories: %v", dirs)
	}
	for _, p := range []string{"/command", "/lsp", "/formatter", "/experimental/workspace", "/experimental/workspace/status", "/permission"} {
		if got := testkit.Decode[[]any](t, d.Do(t, "GET", p, d.alice, nil)); len(got) != 0 {
			t.Fatalf("%s: %v", p, got)
		}
	}
	d.Create(t, d.alice, map[string]any{"id": "s1"})
	for _, p := range []string{"children", "todo", "diff"} {
		// A session that never ran has no children, todos or changes.
		if resp := d.Do(t, "GET", "/session/s1/"+p, d.alice, nil); resp.StatusCode != http.StatusOK || len(testkit.Decode[[]any](t, resp)) != 0 {
			t.Fatalf("%s: %d", p, resp.StatusCode)
		}
		if resp := d.Do(t, "GET", "/session/s1/"+p, d.bob, nil); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("bob's %s: %d", p, resp.StatusCode)
		}
	}
	resp := d.Do(t, "GET", "/experimental/nothing-here", d.alice, nil)
	body := testkit.Decode[map[string]any](t, resp)
	if resp.StatusCode != http.StatusNotFound || body["name"] != "NotFoundError" || !strings.Contains(dig(body, "data", "message").(string), "/experimental/nothing-here") {
		t.Fatalf("unknown route: %d %v", resp.StatusCode, body)
	}
	resp = d.Do(t, "GET", "/v1/nothing-here", d.alice, nil)
	if body := testkit.Decode[map[string]any](t, resp); resp.StatusCode != http.StatusNotFound || body["name"] != nil || dig(body, "error", "code") != "not_found" {
		t.Fatalf("unknown /v1 route: %d %v", resp.StatusCode, body)
	}
}

// Each HotPlex agent is an OpenCode provider: one is chosen when the
// session is created, or by the model of its first prompt; after the
// first turn the session keeps its agent.
func TestOpenCodeProviderChoice(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	agent := func(name string) provider.Provider {
		return claude.New(claude.Options{Path: fakeAgent, Name: name, Timeouts: provider.Timeouts{TerminateGrace: 500 * time.Millisecond}})
	}
	td := testkit.StartDaemon(t, testkit.DaemonOptions{
		Provider: agent("first"), Providers: []provider.Provider{agent("second")},
		Env: append(os.Environ(), "HOME="+t.TempDir()), Root: t.TempDir(), DBPath: filepath.Join(t.TempDir(), "hotplex.db"),
	})
	d := &daemon{Daemon: td, url: td.URL, alice: td.Alice, bob: td.Bob, admin: td.Admin}
	providers := testkit.Decode[map[string]any](t, d.Do(t, "GET", "/config/providers", d.alice, nil))
	if len(providers["providers"].([]any)) != 2 {
		t.Fatalf("providers: %v", providers)
	}
	created := testkit.Decode[map[string]any](t, d.Do(t, "POST", "/session", d.alice, map[string]any{"model": map[string]any{"providerID": "second", "id": "default"}}))
	if dig(created, "model", "providerID") != "second" {
		t.Fatalf("created on %v", created["model"])
	}
	plain := testkit.Decode[map[string]any](t, d.Do(t, "POST", "/session", d.alice, map[string]any{"model": map[string]any{"providerID": "not-an-agent", "id": "x"}}))
	if dig(plain, "model", "providerID") != "first" {
		t.Fatalf("an unknown provider: %v", plain["model"])
	}
	id := plain["id"].(string)
	ask := func(provider, text string) map[string]any {
		resp := d.Do(t, "POST", "/session/"+id+"/message", d.alice, map[string]any{
			"model": map[string]any{"providerID": provider, "modelID": "default"}, "parts": []any{map[string]any{"type": "text", "text": text}}})
		if resp.StatusCode != http.StatusOK {
			b, _ := io.ReadAll(resp.Body)
			t.Fatalf("prompt: %d %s", resp.StatusCode, b)
		}
		return testkit.Decode[map[string]any](t, resp)
	}
	if reply := ask("second", "hello"); dig(reply, "info", "providerID") != "second" {
		t.Fatalf("first reply on %v", dig(reply, "info", "providerID"))
	}
	if reply := ask("first", "again"); dig(reply, "info", "providerID") != "second" {
		t.Fatalf("the agent changed after the first turn: %v", dig(reply, "info", "providerID"))
	}
	if got := testkit.Decode[map[string]any](t, d.Do(t, "GET", "/session/"+id, d.alice, nil)); dig(got, "model", "providerID") != "second" {
		t.Fatalf("session: %v", got)
	}
}

// OpenCode's newer clients (its TUI) hear of a tool use waiting for a
// person as permission.asked, list it at /permission and answer it at
// /permission/{id}/reply; only the session's owner can.
func TestOpenCodePermissionRequests(t *testing.T) {
	d := newDaemon(t)
	// OpenCode's own way to ask: a rule whose action is "ask".
	events := d.openCodeEvents(t, "/event", d.alice)
	created := testkit.Decode[map[string]any](t, d.Do(t, "POST", "/session", d.alice, map[string]any{
		"permission": []any{map[string]any{"permission": "bash", "pattern": "*", "action": "ask"}}}))
	asks, _ := created["id"].(string)
	events.until(t, func(ev map[string]any) bool { return ev["type"] == "session.created" })
	prompt := map[string]any{"parts": []any{map[string]any{"type": "text", "text": "go " + bashDirective("echo asked-run")}}}
	if resp := d.Do(t, "POST", "/session/"+asks+"/prompt_async", d.alice, prompt); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("prompt_async: %d", resp.StatusCode)
	}
	asked := events.until(t, func(ev map[string]any) bool { return ev["type"] == "permission.asked" })
	perm := asked[len(asked)-1]["properties"].(map[string]any)
	pid, _ := perm["id"].(string)
	if pid == "" || perm["sessionID"] != asks || perm["permission"] != "Bash" || dig(perm, "tool", "callID") == "" ||
		dig(perm, "metadata", "input", "command") != "echo asked-run" {
		t.Fatalf("permission.asked: %v", perm)
	}
	listed := testkit.Decode[[]map[string]any](t, d.Do(t, "GET", "/permission", d.alice, nil))
	if len(listed) != 1 || listed[0]["id"] != pid {
		t.Fatalf("alice's pending: %v", listed)
	}
	if theirs := testkit.Decode[[]map[string]any](t, d.Do(t, "GET", "/permission", d.bob, nil)); len(theirs) != 0 {
		t.Fatalf("bob sees %v", theirs)
	}
	if resp := d.Do(t, "POST", "/permission/"+pid+"/reply", d.bob, map[string]string{"reply": "once"}); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("bob answered: %d", resp.StatusCode)
	}
	if resp := d.Do(t, "POST", "/permission/"+pid+"/reply", d.alice, map[string]string{"reply": "perhaps"}); resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("a bad reply: %d", resp.StatusCode)
	}
	if resp := d.Do(t, "POST", "/permission/"+pid+"/reply", d.alice, map[string]string{"reply": "once"}); resp.StatusCode != http.StatusOK || !testkit.Decode[bool](t, resp) {
		t.Fatalf("reply: %d", resp.StatusCode)
	}
	var replied bool
	var output string
	for _, ev := range events.until(t, idleOf(asks)) {
		switch ev["type"] {
		case "permission.replied":
			replied = dig(ev, "properties", "requestID") == pid && dig(ev, "properties", "reply") == "once"
		case "message.part.updated":
			if dig(ev, "properties", "part", "state", "status") == "completed" {
				output, _ = dig(ev, "properties", "part", "state", "output").(string)
			}
		}
	}
	if !replied || !strings.Contains(output, "asked-run") {
		t.Fatalf("replied=%v output=%q", replied, output)
	}
}

// lockedBuffer is a log destination safe for the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A route OpenCode's programs ask for that HotPlex does not serve is
// logged at debug level, so that an operator can see what a newer client
// misses, and answered with OpenCode's error.
func TestOpenCodeUnknownRouteLogged(t *testing.T) {
	var logs lockedBuffer
	d := testkit.StartDaemon(t, testkit.DaemonOptions{
		Provider: claude.New(claude.Options{Path: fakeAgent, Name: "fakeagent"}),
		Root:     t.TempDir(), DBPath: filepath.Join(t.TempDir(), "hotplex.db"),
		Server: func(o *server.Options) {
			o.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		},
	})
	resp := d.Do(t, "GET", "/api/integration", d.Alice, nil)
	body := testkit.Decode[map[string]any](t, resp)
	if resp.StatusCode != http.StatusNotFound || body["name"] != "NotFoundError" {
		t.Fatalf("unknown route: %d %v", resp.StatusCode, body)
	}
	if got := logs.String(); !strings.Contains(got, "level=DEBUG") || !strings.Contains(got, "path=/api/integration") {
		t.Fatalf("the unknown route was not logged at debug level:\n%s", got)
	}
}
