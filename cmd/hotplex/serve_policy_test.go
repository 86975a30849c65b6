package main

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/testkit"
)

const (
	aliceSecret = "alice-secret-0123456789"
	bobSecret   = "bob-secret-0123456789ab"
)

// as is the daemon addressed with another API key.
func (d *daemonProc) as(secret string) *daemonProc {
	c := *d
	c.key = secret
	return &c
}

// runBash has the fake agent of session id ask to run cmd as a Bash tool
// use, and returns the turn's events and its danger_block, if any.
func (d *daemonProc) runBash(t *testing.T, id, cmd string) ([]sse, *event.EventWithMeta) {
	t.Helper()
	prompt := "bash:" + base64.RawURLEncoding.EncodeToString([]byte(cmd))
	resp := d.request(t, "POST", "/v1/sessions/"+id+"/messages", map[string]string{"prompt": prompt})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("turn on %s: %d", id, resp.StatusCode)
	}
	evs := readEvents(resp.Body, func(e sse) bool { return e.Type == event.TypeResult })
	if len(evs) == 0 || evs[len(evs)-1].Type != event.TypeResult {
		t.Fatalf("turn on %s ended without a result: %v", id, evs)
	}
	for _, e := range evs {
		if e.Type == event.TypeDangerBlock {
			var ev event.EventWithMeta
			if err := json.Unmarshal(e.Data, &ev); err != nil {
				t.Fatal(err)
			}
			return evs, &ev
		}
	}
	return evs, nil
}

// ran reports whether the turn ran a command that printed marker.
func ran(evs []sse, marker string) bool {
	for _, e := range evs {
		if e.Type == event.TypeToolResult && strings.Contains(string(e.Data), marker) {
			return true
		}
	}
	return false
}

type createdSession struct {
	ID          string `json:"id"`
	WorkDir     string `json:"work_dir"`
	Permissions *struct {
		Deny []string `json:"deny"`
	} `json:"permissions"`
}

func (d *daemonProc) create(t *testing.T, body map[string]any) createdSession {
	t.Helper()
	resp := d.request(t, "POST", "/v1/sessions", body)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create %v: %d", body, resp.StatusCode)
	}
	var s createdSession
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

func wantRuleBlock(t *testing.T, blk *event.EventWithMeta, level, rule string) {
	t.Helper()
	if blk == nil || blk.Policy == nil || blk.Policy.Decision != "deny" || blk.Policy.Level != level || blk.Policy.Rule != rule {
		t.Fatalf("want a block by the %s rule %s, got %+v", level, rule, blk)
	}
}

// The daemon judges every session's tool uses by the server's rules (its
// YAML permissions and a Claude Code settings file), the key's and the
// session's own, and keeps a session's rules across a restart.
func TestServePermissions(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	agent := testkit.BuildFakeAgent(t, t.TempDir())
	dir, dataDir, home := t.TempDir(), t.TempDir(), t.TempDir()
	settings := filepath.Join(dir, "settings.json")
	// A Claude Code settings file as it is: other settings are ignored.
	if err := os.WriteFile(settings, []byte(`{"env": {"X": "1"}, "permissions": {"deny": ["Bash(ln:*)"], "defaultMode": "default"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(dir, "hotplex.yaml")
	yaml := "permissions:\n  deny: [\"Bash(touch:*)\"]\npermissions_file: " + settings + "\nkeys:\n" +
		"  - name: alice\n    secret: " + aliceSecret + "\n    permissions:\n      deny: [\"Bash(mkdir:*)\"]\n      ask: [\"Bash(git log:*)\"]\n" +
		"  - name: bob\n    secret: " + bobSecret + "\n"
	if err := os.WriteFile(config, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	alice := startServe(t, dataDir, agent, home, aliceSecret, "--config", config)
	bob := alice.as(bobSecret)

	s := alice.create(t, map[string]any{"id": "s", "permissions": map[string]any{"deny": []string{"Bash(git push:*)"}}})
	if s.Permissions == nil || len(s.Permissions.Deny) != 1 {
		t.Fatalf("the session does not show its rules: %+v", s)
	}
	resp := alice.request(t, "POST", "/v1/sessions", map[string]any{"id": "bad", "permissions": map[string]any{"deny": []string{"Bash(git push"}}})
	var e struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&e)
	if resp.StatusCode != http.StatusBadRequest || e.Error.Code != "bad_permissions" || !strings.Contains(e.Error.Message, "Bash(git push") {
		t.Fatalf("a bad rule: %d %+v", resp.StatusCode, e)
	}
	if r := alice.request(t, "GET", "/v1/sessions/bad", nil); r.StatusCode != http.StatusNotFound {
		t.Fatalf("a session with a bad rule was created: %d", r.StatusCode)
	}

	// The session's own rules.
	evs, blk := alice.runBash(t, "s", "echo push-ran; git push origin main")
	wantRuleBlock(t, blk, "session", "Bash(git push:*)")
	if ran(evs, "push-ran") {
		t.Fatal("a denied git push ran")
	}
	if evs, blk := alice.runBash(t, "s", "echo status-ran; git status"); blk != nil || !ran(evs, "status-ran") {
		t.Fatalf("git status was not allowed: %+v", blk)
	}

	// The server's rules apply to every key; the key's to its own.
	b := bob.create(t, map[string]any{"id": "b"})
	for _, c := range []struct {
		d       *daemonProc
		id, dir string
	}{{alice, "s", s.WorkDir}, {bob, "b", b.WorkDir}} {
		_, blk := c.d.runBash(t, c.id, "touch server-denied.txt")
		wantRuleBlock(t, blk, "server", "Bash(touch:*)")
		_, blk = c.d.runBash(t, c.id, "ln -s server-denied.txt link")
		wantRuleBlock(t, blk, "server", "Bash(ln:*)")
		for _, f := range []string{"server-denied.txt", "link"} {
			if _, err := os.Lstat(filepath.Join(c.dir, f)); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("%s: a denied command made %s: %v", c.id, f, err)
			}
		}
	}
	_, blk = alice.runBash(t, "s", "mkdir key-dir")
	wantRuleBlock(t, blk, "key", "Bash(mkdir:*)")
	if _, err := os.Stat(filepath.Join(s.WorkDir, "key-dir")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("alice's denied mkdir ran: %v", err)
	}
	if _, blk := bob.runBash(t, "b", "mkdir key-dir"); blk != nil {
		t.Fatalf("bob's mkdir, which no rule of his denies: %+v", blk)
	}
	if _, err := os.Stat(filepath.Join(b.WorkDir, "key-dir")); err != nil {
		t.Fatalf("bob's mkdir did not run: %v", err)
	}

	// The key's ask rule sends an allowed command to a person, and says so.
	resp = alice.request(t, "POST", "/v1/sessions/s/messages", map[string]string{"prompt": "bash:" + base64.RawURLEncoding.EncodeToString([]byte("echo log-ran; git log"))})
	asked := readEvents(resp.Body, func(e sse) bool { return e.Type == event.TypePermissionRequest || e.Type == event.TypeResult })
	var req event.EventWithMeta
	if last := asked[len(asked)-1]; last.Type != event.TypePermissionRequest || json.Unmarshal(last.Data, &req) != nil ||
		req.Policy == nil || req.Policy.Decision != "ask" || req.Policy.Level != "key" || req.Policy.Rule != "Bash(git log:*)" {
		t.Fatalf("no permission_request naming the key's ask rule: %s", last.Data)
	}
	var pending struct {
		Permissions []struct {
			RequestID string                `json:"request_id"`
			Policy    *event.PolicyDecision `json:"policy"`
		} `json:"permissions"`
	}
	if err := json.NewDecoder(alice.request(t, "GET", "/v1/sessions/s/permissions", nil).Body).Decode(&pending); err != nil ||
		len(pending.Permissions) != 1 || pending.Permissions[0].Policy == nil || pending.Permissions[0].Policy.Rule != "Bash(git log:*)" {
		t.Fatalf("pending: %+v %v", pending, err)
	}
	if r := alice.request(t, "POST", "/v1/sessions/s/permissions/"+pending.Permissions[0].RequestID, map[string]string{"decision": "deny"}); r.StatusCode != http.StatusOK {
		t.Fatalf("answer: %d", r.StatusCode)
	}
	if rest := readEvents(resp.Body, func(e sse) bool { return e.Type == event.TypeResult }); ran(rest, "log-ran") {
		t.Fatal("a denied ask ran")
	}

	// After a restart the session keeps its rules.
	if err := alice.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-alice.exited
	again := startServe(t, dataDir, agent, home, aliceSecret, "--config", config)
	_, blk = again.runBash(t, "s", "git push origin main")
	wantRuleBlock(t, blk, "session", "Bash(git push:*)")
}

// With the data directory under /tmp, where paths outside a session's work
// directory are otherwise ordinary, no session may delete another
// session's directory or the database.
func TestServeProtectsWhatItOwns(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	agent := testkit.BuildFakeAgent(t, t.TempDir())
	dataDir, home := t.TempDir(), t.TempDir()
	if !strings.HasPrefix(dataDir, os.TempDir()) {
		t.Fatalf("the data directory %s is not in the temporary directory", dataDir)
	}
	d := startServe(t, dataDir, agent, home, "")
	one := d.create(t, map[string]any{"id": "one"})
	two := d.create(t, map[string]any{"id": "two"})
	if err := os.MkdirAll(two.WorkDir, 0o750); err != nil {
		t.Fatal(err)
	}
	sentinel := filepath.Join(two.WorkDir, "sentinel.txt")
	if err := os.WriteFile(sentinel, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dataDir, "hotplex.db")
	rel, err := filepath.Rel(one.WorkDir, two.WorkDir)
	if err != nil || !strings.HasPrefix(rel, "..") {
		t.Fatalf("the sessions' directories %s and %s are not siblings", one.WorkDir, two.WorkDir)
	}
	for _, cmd := range []string{"rm -rf " + rel, "rm -f " + db, "rm -rf " + filepath.Dir(one.WorkDir)} {
		_, blk := d.runBash(t, "one", cmd)
		if blk == nil || blk.Danger == nil || blk.Danger.PatternMatched != "rm-protected" {
			t.Fatalf("%q was not blocked as touching a protected path: %+v", cmd, blk)
		}
	}
	for _, f := range []string{sentinel, db} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s is gone: %v", f, err)
		}
	}
	// The session's own files stay its own.
	own := filepath.Join(one.WorkDir, "scratch.txt")
	if err := os.WriteFile(own, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, blk := d.runBash(t, "one", "rm -f scratch.txt"); blk != nil {
		t.Fatalf("deleting a file of the own work directory was blocked: %+v", blk.Danger)
	}
	if _, err := os.Stat(own); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the own file was not deleted: %v", err)
	}
}
