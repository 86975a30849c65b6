package server_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/testkit"
)

// The tenancy matrix: a second ordinary key (bob) tries every route of the
// API, every WebSocket message, the OpenCode-compatible routes and
// /metrics against the first key's (alice's) sessions, and must see and
// change nothing of them. It is written against what bob can observe, not
// how sessions are stored or named. The routes come from api/openapi.json:
// a route added there without a row here fails the test.

// alicesWorld is what bob must never see or change.
type alicesWorld struct {
	id, askID     string // a session with a turn; one with a tool use waiting for her
	permission    string // the waiting tool use's ID
	hook          string // her webhook's ID
	secrets       []string
	lastEventID   float64
	title, prompt string
	workDir       string // her session's, holding a file of hers
}

func (w *alicesWorld) leaks(body string) string {
	for _, s := range w.secrets {
		if strings.Contains(body, s) {
			return s
		}
	}
	return ""
}

// tenancyCase is what bob does on one route; it fails t if he saw or
// changed anything of alice's.
type tenancyCase func(t *testing.T, d *daemon, w *alicesWorld)

// bobGets sends bob's request and checks its status is one of want and
// that the answer holds nothing of alice's.
func bobGets(t *testing.T, d *daemon, w *alicesWorld, method, path string, body any, want ...int) string {
	t.Helper()
	resp := d.Do(t, method, path, d.bob, body)
	b, _ := io.ReadAll(resp.Body)
	ok := false
	for _, s := range want {
		ok = ok || resp.StatusCode == s
	}
	if !ok {
		t.Errorf("bob %s %s: %d %s (want %v)", method, path, resp.StatusCode, b, want)
	}
	if s := w.leaks(string(b)); s != "" {
		t.Errorf("bob %s %s saw %q of alice's: %s", method, path, s, b)
	}
	return string(b)
}

var hidden = []int{http.StatusNotFound}

func tenancyMatrix() map[string]tenancyCase {
	sess := func(method, path string, body any) tenancyCase {
		return func(t *testing.T, d *daemon, w *alicesWorld) {
			p := strings.NewReplacer("{id}", w.id, "{request}", w.permission, "{permissionID}", w.permission).Replace(path)
			bobGets(t, d, w, method, p, body, hidden...)
			if strings.Contains(path, "{request}") || strings.Contains(path, "{permissionID}") || strings.Contains(path, "/permissions") {
				p = strings.NewReplacer("{id}", w.askID, "{request}", w.permission, "{permissionID}", w.permission).Replace(path)
				bobGets(t, d, w, method, p, body, hidden...)
			}
		}
	}
	public := func(method, path string) tenancyCase {
		return func(t *testing.T, d *daemon, w *alicesWorld) { bobGets(t, d, w, method, path, nil, http.StatusOK) }
	}
	forbidden := func(method, path string, body any) tenancyCase {
		return func(t *testing.T, d *daemon, w *alicesWorld) {
			p := strings.NewReplacer("{id}", w.id).Replace(path)
			bobGets(t, d, w, method, p, body, http.StatusForbidden, http.StatusNotFound)
		}
	}
	// files: bob naming her directory is refused; in his own tree he
	// finds nothing of hers.
	files := func(path, dirParam, query string) tenancyCase {
		return func(t *testing.T, d *daemon, w *alicesWorld) {
			q := strings.ReplaceAll(query, "{file}", w.title+".txt")
			bobGets(t, d, w, "GET", path+"?"+q+"&"+url.Values{dirParam: {w.workDir}}.Encode(), nil, http.StatusForbidden)
			q = strings.ReplaceAll(query, "{file}", "notes.txt")
			bobGets(t, d, w, "GET", path+"?"+q, nil, http.StatusOK, http.StatusNotFound)
		}
	}
	stream := func(path string) tenancyCase {
		return func(t *testing.T, d *daemon, w *alicesWorld) { bobSeesNoEvents(t, d, w, path) }
	}
	return map[string]tenancyCase{
		"GET /healthz":      public("GET", "/healthz"),
		"GET /readyz":       public("GET", "/readyz"),
		"GET /v1/providers": public("GET", "/v1/providers"),
		"GET /v1/sessions":  public("GET", "/v1/sessions"),
		"POST /v1/sessions": func(t *testing.T, d *daemon, w *alicesWorld) {
			// Alice's ID is free in bob's namespace: he gets a session of
			// his own (a 409 would tell him hers exists); hers stays as it
			// was (checked at the end).
			bobGets(t, d, w, "POST", "/v1/sessions", map[string]any{"id": w.id, "title": "bob's"}, http.StatusCreated)
		},
		"GET /v1/sessions/{id}":                        sess("GET", "/v1/sessions/{id}", nil),
		"DELETE /v1/sessions/{id}":                     sess("DELETE", "/v1/sessions/{id}", nil),
		"POST /v1/sessions/{id}/messages":              sess("POST", "/v1/sessions/{id}/messages", map[string]string{"prompt": "bob was here"}),
		"GET /v1/sessions/{id}/events":                 sess("GET", "/v1/sessions/{id}/events", nil),
		"POST /v1/sessions/{id}/interrupt":             sess("POST", "/v1/sessions/{id}/interrupt", nil),
		"GET /v1/sessions/{id}/permissions":            sess("GET", "/v1/sessions/{id}/permissions", nil),
		"POST /v1/sessions/{id}/permissions/{request}": sess("POST", "/v1/sessions/{id}/permissions/{request}", map[string]string{"decision": "allow"}),
		"GET /v1/sessions/{id}/diff":                   sess("GET", "/v1/sessions/{id}/diff", nil),
		"POST /v1/sessions/{id}/merge":                 sess("POST", "/v1/sessions/{id}/merge", map[string]string{"commit_message": "bob was here"}),
		"POST /v1/sessions/{id}/bypass":                forbidden("POST", "/v1/sessions/{id}/bypass", map[string]any{"admin_token": "x", "ttl_seconds": 60}),
		"GET /metrics":                                 forbidden("GET", "/metrics", nil),
		"GET /v1/cluster": func(t *testing.T, d *daemon, w *alicesWorld) {
			bobGets(t, d, w, "GET", "/v1/cluster", nil, http.StatusForbidden)
		},
		"GET /v1/usage": func(t *testing.T, d *daemon, w *alicesWorld) {
			bobGets(t, d, w, "GET", "/v1/usage", nil, http.StatusOK)
			bobGets(t, d, w, "GET", "/v1/usage?all=true", nil, http.StatusForbidden)
		},
		"DELETE /v1/keys/{id}": forbidden("DELETE", "/v1/keys/alice", nil),
		"GET /v1/hooks":        public("GET", "/v1/hooks"),
		"POST /v1/hooks": func(t *testing.T, d *daemon, w *alicesWorld) {
			bobGets(t, d, w, "POST", "/v1/hooks", map[string]any{"url": "http://127.0.0.1:9/bobs-hook"}, http.StatusCreated)
		},
		"DELETE /v1/hooks/{id}": func(t *testing.T, d *daemon, w *alicesWorld) {
			bobGets(t, d, w, "DELETE", "/v1/hooks/"+w.hook, nil, hidden...)
		},
		"GET /v1/hooks/{id}/deliveries": func(t *testing.T, d *daemon, w *alicesWorld) {
			bobGets(t, d, w, "GET", "/v1/hooks/"+w.hook+"/deliveries", nil, hidden...)
		},
		"GET /v1/ws":   bobOverWebSocket,
		"GET /session": public("GET", "/session"),
		"POST /session": func(t *testing.T, d *daemon, w *alicesWorld) {
			bobGets(t, d, w, "POST", "/session", map[string]any{}, http.StatusOK)
		},
		"GET /session/status":                           public("GET", "/session/status"),
		"GET /session/{id}":                             sess("GET", "/session/{id}", nil),
		"PATCH /session/{id}":                           sess("PATCH", "/session/{id}", map[string]string{"title": "bob's now"}),
		"DELETE /session/{id}":                          sess("DELETE", "/session/{id}", nil),
		"GET /session/{id}/message":                     sess("GET", "/session/{id}/message", nil),
		"POST /session/{id}/message":                    sess("POST", "/session/{id}/message", map[string]any{"parts": []map[string]string{{"type": "text", "text": "bob was here"}}}),
		"POST /session/{id}/prompt_async":               sess("POST", "/session/{id}/prompt_async", map[string]any{"parts": []map[string]string{{"type": "text", "text": "bob was here"}}}),
		"POST /session/{id}/abort":                      sess("POST", "/session/{id}/abort", nil),
		"POST /session/{id}/permissions/{permissionID}": sess("POST", "/session/{id}/permissions/{permissionID}", map[string]string{"response": "once"}),
		"GET /event":                                    stream("/event"),
		"GET /global/event":                             stream("/global/event"),
		"GET /config":                                   public("GET", "/config"),
		"GET /config/providers":                         public("GET", "/config/providers"),
		"GET /provider":                                 public("GET", "/provider"),
		"GET /session/{id}/children":                    sess("GET", "/session/{id}/children", nil),
		"GET /session/{id}/todo":                        sess("GET", "/session/{id}/todo", nil),
		"GET /session/{id}/diff":                        sess("GET", "/session/{id}/diff", nil),
		"GET /permission":                               public("GET", "/permission"),
		"POST /permission/{requestID}/reply": func(t *testing.T, d *daemon, w *alicesWorld) {
			bobGets(t, d, w, "POST", "/permission/"+w.permission+"/reply", map[string]string{"reply": "once"}, hidden...)
		},
		"GET /path":                            public("GET", "/path"),
		"GET /project":                         public("GET", "/project"),
		"GET /project/current":                 public("GET", "/project/current"),
		"GET /agent":                           public("GET", "/agent"),
		"GET /command":                         public("GET", "/command"),
		"GET /lsp":                             public("GET", "/lsp"),
		"GET /formatter":                       public("GET", "/formatter"),
		"GET /vcs":                             public("GET", "/vcs"),
		"GET /provider/auth":                   public("GET", "/provider/auth"),
		"GET /experimental/workspace":          public("GET", "/experimental/workspace"),
		"GET /experimental/resource":           public("GET", "/experimental/resource"),
		"GET /experimental/capabilities":       public("GET", "/experimental/capabilities"),
		"GET /experimental/console":            public("GET", "/experimental/console"),
		"GET /experimental/workspace/status":   public("GET", "/experimental/workspace/status"),
		"GET /project/{projectID}/directories": public("GET", "/project/global/directories"),
		"GET /file":                            files("/file", "directory", "path="),
		"GET /file/content":                    files("/file/content", "directory", "path={file}"),
		"GET /file/status":                     files("/file/status", "directory", ""),
		"GET /find":                            files("/find", "directory", "pattern=alice"),
		"GET /find/file":                       files("/find/file", "directory", "query=alice"),
		"GET /find/symbol":                     public("GET", "/find/symbol?query=alice"),
		"GET /api/location":                    files("/api/location", "location[directory]", ""),
		"GET /api/fs/list":                     files("/api/fs/list", "location[directory]", "path="),
		"GET /api/fs/find":                     files("/api/fs/find", "location[directory]", "query=alice"),
		"GET /mcp": func(t *testing.T, d *daemon, w *alicesWorld) {
			// As OpenCode's programs ask it, with HTTP Basic.
			req, _ := http.NewRequest("GET", d.url+"/mcp", nil)
			req.SetBasicAuth("opencode", d.bob)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || w.leaks(string(b)) != "" {
				t.Errorf("bob GET /mcp: %d %s", resp.StatusCode, b)
			}
		},
	}
}

// bobOverWebSocket tries every WebSocket message on alice's sessions.
func bobOverWebSocket(t *testing.T, d *daemon, w *alicesWorld) {
	c := dialWS(t, d, d.bob)
	reqs := []map[string]any{
		{"request_id": "1", "type": "execute", "session_id": w.id, "prompt": "bob was here"},
		{"request_id": "2", "type": "subscribe", "session_id": w.id},
		{"request_id": "3", "type": "interrupt", "session_id": w.id},
		{"request_id": "4", "type": "stats", "session_id": w.id},
		{"request_id": "5", "type": "permission_reply", "session_id": w.askID, "permission_id": w.permission, "decision": "allow"},
		{"request_id": "6", "type": "subscribe", "session_id": w.askID},
	}
	for _, req := range reqs {
		wsSend(t, c, req)
		m := wsRead(t, c)
		b, _ := json.Marshal(m)
		if m.RequestID != req["request_id"] || m.Type != "error" || m.Error == nil || m.Error.Code != "not_found" {
			t.Errorf("bob's %s: %s", req["type"], b)
		}
		if s := w.leaks(string(b)); s != "" {
			t.Errorf("bob's %s saw %q: %s", req["type"], s, b)
		}
	}
	wsSend(t, c, map[string]any{"request_id": "7", "type": "unsubscribe", "target": "2"})
	if m := wsRead(t, c); m.Type != "error" {
		t.Errorf("bob unsubscribed from a refused request: %+v", m)
	}
}

// bobSeesNoEvents follows an OpenCode event stream as bob while alice runs
// a turn, until bob's own marker arrives.
func bobSeesNoEvents(t *testing.T, d *daemon, w *alicesWorld, path string) {
	resp := d.Do(t, "GET", path, d.bob, nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("bob %s: %d", path, resp.StatusCode)
	}
	d.turn(t, d.alice, w.id, "alice-secret-prompt again")
	w.lastEventID = float64(d.lastEventID(t, d.alice, w.id))
	marker := "bob-marker-" + strings.Trim(path, "/")
	bobGets(t, d, w, "POST", "/session", map[string]any{"title": marker}, http.StatusOK)
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 0, 4096)
		chunk := make([]byte, 4096)
		for !strings.Contains(string(buf), marker) {
			n, err := resp.Body.Read(chunk)
			buf = append(buf, chunk[:n]...)
			if err != nil {
				break
			}
		}
		if !strings.Contains(string(buf), marker) {
			t.Errorf("bob's %s never brought his own event: %s", path, buf)
		}
		if s := w.leaks(string(buf)); s != "" {
			t.Errorf("bob's %s delivered alice's %q: %s", path, s, buf)
		}
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		resp.Body.Close()
		<-done
	}
	resp.Body.Close()
}

func (d *daemon) lastEventID(t *testing.T, key, id string) uint64 {
	t.Helper()
	v := testkit.Decode[map[string]any](t, d.Do(t, "GET", "/v1/sessions/"+id, key, nil))
	n, _ := v["last_event_id"].(float64)
	return uint64(n)
}

func TestTenancyMatrix(t *testing.T) { testTenancyMatrix(t, testkit.DaemonOptions{}) }

// testTenancyMatrix runs the matrix on a daemon with o's store (SQLite
// unless o.Postgres is set).
func testTenancyMatrix(t *testing.T, o testkit.DaemonOptions) {
	d := newDaemonWith(t, o)
	w := &alicesWorld{title: "alice-private-title", prompt: "alice-secret-prompt"}
	a := d.Create(t, d.alice, map[string]any{"title": w.title})
	w.id = a["id"].(string)
	d.turn(t, d.alice, w.id, w.prompt)
	ask := d.Create(t, d.alice, map[string]any{"title": w.title + "-ask", "approval": "ask"})
	w.askID = ask["id"].(string)
	w.secrets = []string{w.title, w.prompt, a["work_dir"].(string), ask["work_dir"].(string)}
	// Her webhook, whose receiver takes what it is sent.
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.Copy(io.Discard, r.Body) }))
	defer receiver.Close()
	hook := testkit.Decode[map[string]any](t, d.Do(t, "POST", "/v1/hooks", d.alice, map[string]any{"url": receiver.URL + "/alice-hook-path"}))
	w.hook, _ = hook["id"].(string)
	w.secrets = append(w.secrets, w.hook, "alice-hook-path", hook["secret"].(string))
	w.workDir = a["work_dir"].(string)
	if err := os.WriteFile(filepath.Join(w.workDir, w.title+".txt"), []byte(w.prompt), 0o600); err != nil {
		t.Fatal(err)
	}

	// A tool use waits for alice's answer.
	waiting := d.Do(t, "POST", "/v1/sessions/"+w.askID+"/messages", d.alice, map[string]string{"prompt": bashDirective("echo alice-secret-prompt")})
	for w.permission == "" {
		perms := testkit.Decode[map[string][]map[string]any](t, d.Do(t, "GET", "/v1/sessions/"+w.askID+"/permissions", d.alice, nil))
		if list := perms["permissions"]; len(list) > 0 {
			w.permission, _ = list[0]["request_id"].(string)
		} else {
			time.Sleep(20 * time.Millisecond)
		}
	}
	w.lastEventID = float64(d.lastEventID(t, d.alice, w.id))

	matrix := tenancyMatrix()
	routes := openAPIRoutes(t)
	for _, r := range routes {
		if matrix[r] == nil {
			t.Errorf("route %s is not in the tenancy matrix", r)
		}
	}
	// POST /v1/sessions may give bob a session under alice's ID: it runs
	// last, when nothing reads by that ID any more.
	sort.SliceStable(routes, func(i, j int) bool { return routes[j] == "POST /v1/sessions" && routes[i] != routes[j] })
	for _, r := range routes {
		if c := matrix[r]; c != nil {
			t.Run(r, func(t *testing.T) { c(t, d, w) })
		}
	}

	// Alice's sessions are as she left them.
	v := testkit.Decode[map[string]any](t, d.Do(t, "GET", "/v1/sessions/"+w.id, d.alice, nil))
	if v["title"] != w.title || v["last_event_id"].(float64) != w.lastEventID {
		t.Errorf("alice's session changed: %v (last event %v before)", v, w.lastEventID)
	}
	perms := testkit.Decode[map[string][]map[string]any](t, d.Do(t, "GET", "/v1/sessions/"+w.askID+"/permissions", d.alice, nil))
	if len(perms["permissions"]) != 1 || perms["permissions"][0]["request_id"] != w.permission {
		t.Errorf("alice's waiting tool use changed: %v", perms)
	}
	hooks := testkit.Decode[map[string][]map[string]any](t, d.Do(t, "GET", "/v1/hooks", d.alice, nil))
	if len(hooks["hooks"]) != 1 || hooks["hooks"][0]["id"] != w.hook {
		t.Errorf("alice's hooks changed: %v", hooks)
	}
	if resp := d.Do(t, "GET", "/v1/sessions", d.alice, nil); resp.StatusCode != http.StatusOK {
		t.Errorf("alice's key stopped working: %d", resp.StatusCode)
	}
	if resp := d.Do(t, "POST", "/v1/sessions/"+w.askID+"/permissions/"+w.permission, d.alice, map[string]string{"decision": "deny"}); resp.StatusCode != http.StatusOK {
		t.Errorf("alice's answer: %d", resp.StatusCode)
	}
	readSSE(t, waiting.Body, nil)
}

// openAPIRoutes lists "METHOD path" of every operation in api/openapi.json.
func openAPIRoutes(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "api", "openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var out []string
	for p, ops := range doc.Paths {
		for m := range ops {
			out = append(out, strings.ToUpper(m)+" "+p)
		}
	}
	sort.Strings(out)
	if len(out) < 30 {
		t.Fatalf("only %d routes in api/openapi.json", len(out))
	}
	return out
}
