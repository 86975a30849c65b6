package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/testkit"
)

// A deleted session ID is no doorway into its history, on the real CLI:
// the owner's conversation resumes while the session lives (after its
// process is killed too), and once deleted nothing of it stays on disk,
// and whoever creates the ID next (the owner again or another key) starts
// a new conversation in an empty directory.
func TestDaemonDeletedSessionIsNoDoorway(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	const secret = "tulip-4242"
	m, err := scriptedmodel.Start("127.0.0.1:0", scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("keep this secret", scriptedmodel.Bash("echo "+secret+" > secret.txt && cat secret.txt"), scriptedmodel.Text("Kept: {{last_tool_result}}")),
		scriptedmodel.Then("hello", scriptedmodel.Text("Hello.")),
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	env := testkit.OfflineEnv(t, m.URL())
	home := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = v
		}
	}
	d := testkit.StartDaemon(t, testkit.DaemonOptions{
		Provider: claude.New(claude.Options{Path: testkit.ClaudePath(t)}),
		Env:      env, Root: t.TempDir(), DBPath: filepath.Join(t.TempDir(), "hotplex.db"),
	})
	call := func(method, path, key string, body any) (int, []byte) {
		t.Helper()
		var rd io.Reader
		if body != nil {
			b, _ := json.Marshal(body)
			rd = bytes.NewReader(b)
		}
		req, _ := http.NewRequest(method, d.URL+path, rd)
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	create := func(key string) map[string]any {
		t.Helper()
		code, b := call("POST", "/v1/sessions", key, map[string]string{"id": "del1"})
		var s map[string]any
		if code != http.StatusCreated || json.Unmarshal(b, &s) != nil {
			t.Fatalf("create del1: %d %s", code, b)
		}
		return s
	}
	turn := func(key, prompt string) event.SessionStart {
		t.Helper()
		code, b := call("POST", "/v1/sessions/del1/messages", key, map[string]string{"prompt": prompt})
		if code != http.StatusOK {
			t.Fatalf("turn %q: %d %s", prompt, code, b)
		}
		evs := testkit.ReadSSE(bytes.NewReader(b), nil)
		for _, e := range evs {
			var ev event.EventWithMeta
			if e.Type == event.TypeSessionStart && json.Unmarshal(e.Data, &ev) == nil && ev.SessionStart != nil {
				return *ev.SessionStart
			}
		}
		t.Fatalf("turn %q: no session_start in %s", prompt, b)
		return event.SessionStart{}
	}
	holding := func(secret string) []string {
		var found []string
		_ = filepath.WalkDir(home, func(p string, e fs.DirEntry, err error) error {
			if err == nil && e.Type().IsRegular() {
				if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(secret)) {
					found = append(found, p)
				}
			}
			return nil
		})
		return found
	}

	a := create(d.Alice)
	wd := a["work_dir"].(string)
	first := turn(d.Alice, "keep this secret for me")
	if b, err := os.ReadFile(filepath.Join(wd, "secret.txt")); err != nil || !strings.Contains(string(b), secret) {
		t.Fatalf("the tool left no secret.txt: %q %v", b, err)
	}
	if len(holding(secret)) == 0 {
		t.Fatal("the CLI's transcript does not hold the secret; the test proves nothing")
	}
	// While the session lives, its conversation resumes after a kill.
	testkit.KillAndWait(t, first.PID)
	if st := turn(d.Alice, "hello"); !st.Resumed || st.ProviderSessionID != first.ProviderSessionID {
		t.Fatalf("not resumed after a kill: %+v (first %+v)", st, first)
	}

	if code, b := call("DELETE", "/v1/sessions/del1", d.Alice, nil); code != http.StatusNoContent {
		t.Fatalf("delete: %d %s", code, b)
	}
	if left := holding(secret); len(left) != 0 {
		t.Fatalf("the deleted conversation is still on disk: %v", left)
	}
	if _, err := os.Stat(wd); !os.IsNotExist(err) {
		t.Fatalf("the deleted session's work directory survived: %v", err)
	}

	for _, who := range []struct{ name, key string }{{"bob", d.Bob}, {"alice", d.Alice}} {
		s := create(who.key)
		st := turn(who.key, "hello")
		if st.Resumed || st.ProviderSessionID == first.ProviderSessionID {
			t.Fatalf("%s's new del1 met the deleted conversation: %+v", who.name, st)
		}
		if _, err := os.Stat(filepath.Join(s["work_dir"].(string), "secret.txt")); !os.IsNotExist(err) {
			t.Fatalf("%s's new del1 holds the deleted session's file: %v", who.name, err)
		}
	}
}
