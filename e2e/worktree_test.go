package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/testkit"
)

// A worktree session made from the web UI's form: the real claude CLI in
// it writes a file with its Write tool and another with Bash; the session's diff shows both, the
// repository's own checkout is untouched, and the web UI's Changes tab
// lists the files with their diffs (unified and side by side), reached
// from the statistics' files modified too.
func TestWorktreeSessionWithClaudeAndChangesTab(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	root, tree, repo := aliceRepoDir(t)
	for _, args := range [][]string{{"init", "-q"}, {"commit", "-q", "--allow-empty", "-m", "start"}} {
		cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"}, args...)...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	// The worktree is made in the session's own directory of alice's tree.
	wt := filepath.Join(tree, "wt-claude")
	d := startWebDaemon(t, root,
		scriptedmodel.Then("write the greeting",
			scriptedmodel.Reply{ToolUses: []scriptedmodel.ToolUse{{Name: "Write", Input: map[string]any{"file_path": filepath.Join(wt, "greeting.txt"), "content": "hello from the worktree\n"}}}},
			scriptedmodel.Bash("echo built-by-bash > built.txt"),
			scriptedmodel.Text("Wrote greeting.txt and built.txt.")),
		scriptedmodel.Then("one more file", scriptedmodel.Bash("echo more > more.txt"), scriptedmodel.Text("Wrote more.txt.")),
	)
	call := func(method, path string, body any) *http.Response {
		t.Helper()
		var rd io.Reader
		if body != nil {
			b, _ := json.Marshal(body)
			rd = strings.NewReader(string(b))
		}
		req, _ := http.NewRequest(method, d.URL+path, rd)
		req.Header.Set("Authorization", "Bearer "+d.Alice)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	// The session is made from the web UI's form.
	b := startBrowser(t)
	b.do(t, "open", 15*time.Second,
		chromedp.Navigate(d.URL+"/"),
		chromedp.Evaluate[chromedp.Void](`sessionStorage.setItem("hotplex.apiKey", "`+d.Alice+`")`),
		chromedp.Navigate(d.URL+"/#/sessions"),
		chromedp.WaitVisible(chromedp.CSS(".sessions")))
	b.do(t, "create", 15*time.Second,
		chromedp.Click(chromedp.CSS(".create-box summary")),
		chromedp.SendKeys(chromedp.CSS("#new-id"), "wt-claude"),
		chromedp.SendKeys(chromedp.CSS("#new-repo"), "repo"),
		chromedp.Click(chromedp.CSS("#create-session")),
		chromedp.WaitVisible(chromedp.CSS(".conversation")))
	b.waitFor(t, "the empty conversation", `document.querySelector(".log").dataset.replayed === "true"`, 10*time.Second)
	var view struct {
		WorkDir  string `json:"work_dir"`
		Worktree struct{ Branch string }
	}
	if err := json.NewDecoder(call("GET", "/v1/sessions/wt-claude", nil).Body).Decode(&view); err != nil || view.WorkDir != wt || view.Worktree.Branch != "hotplex/wt-claude" {
		t.Fatalf("the session the form made: %+v %v", view, err)
	}
	resp := call("POST", "/v1/sessions/wt-claude/messages", map[string]string{"prompt": "write the greeting"})
	evs := testkit.ReadSSE(resp.Body, nil)
	if last := evs[len(evs)-1]; last.Type != "result" || strings.Contains(string(last.Data), `"is_error":true`) {
		t.Fatalf("the turn: %s", last.Data)
	}

	var diff engine.Changes
	if err := json.NewDecoder(call("GET", "/v1/sessions/wt-claude/diff", nil).Body).Decode(&diff); err != nil {
		t.Fatal(err)
	}
	got := map[string]engine.FileChange{}
	for _, f := range diff.Files {
		got[f.Path] = f
	}
	if len(got) != 2 || got["greeting.txt"].Status != "added" || !strings.Contains(got["greeting.txt"].Patch, "+hello from the worktree") ||
		!strings.Contains(got["built.txt"].Patch, "+built-by-bash") || diff.Branch != "hotplex/wt-claude" || diff.BaseBranch != "main" {
		t.Fatalf("diff: %+v", diff)
	}
	if entries, _ := os.ReadDir(repo); len(entries) != 1 {
		t.Fatalf("the repository's checkout changed: %v", entries)
	}

	b.waitFor(t, "the turn in the conversation", `document.querySelectorAll(".log .turn-end").length === 1`, 10*time.Second)
	// The statistics' files modified leads to the Changes tab.
	b.waitFor(t, "the files link", `!!document.querySelector(".stats .files-link") && document.querySelector(".stats .files-link").textContent.includes("(2)")`, 10*time.Second)
	b.do(t, "files modified", 5*time.Second, chromedp.Click(chromedp.CSS(".stats .files-link")))
	b.waitFor(t, "the Changes tab", `!document.querySelector(".changes").hidden && document.querySelectorAll(".file-item").length === 2`, 10*time.Second)
	if sel := eval[string](t, b, `document.querySelector('[role=tab][aria-selected=true]').textContent`); sel != "Changes" {
		t.Fatalf("selected tab: %q", sel)
	}
	paths := eval[[]string](t, b, `[...document.querySelectorAll(".file-item")].map(e => e.dataset.path + ":" + e.dataset.status)`)
	if strings.Join(paths, ",") != "built.txt:added,greeting.txt:added" {
		t.Fatalf("file list: %v", paths)
	}
	b.do(t, "pick greeting.txt", 5*time.Second, chromedp.Click(chromedp.CSS(`.file-item[data-path="greeting.txt"]`)))
	b.waitFor(t, "its unified diff", `[...document.querySelectorAll(".diff.unified td.code.add")].some(e => e.textContent === "+hello from the worktree")`, 5*time.Second)
	b.do(t, "side by side", 5*time.Second, chromedp.Click(chromedp.CSS(".layout-split")))
	b.waitFor(t, "its side-by-side diff", `[...document.querySelectorAll(".diff.split td.code.add")].some(e => e.textContent === "hello from the worktree") && document.querySelectorAll(".diff.split td.code.empty").length === 1`, 5*time.Second)
	b.screenshot(t, "webui-changes")
	// A turn run meanwhile (from another client) shows in the open tab.
	resp = call("POST", "/v1/sessions/wt-claude/messages", map[string]string{"prompt": "one more file"})
	testkit.ReadSSE(resp.Body, nil)
	b.waitFor(t, "the next turn's file", `!!document.querySelector('.file-item[data-path="more.txt"]') && document.querySelectorAll(".file-item").length === 3`, 15*time.Second)
	// Back to the conversation, which is where it was.
	b.do(t, "conversation tab", 5*time.Second, chromedp.Click(chromedp.CSS(`[role=tab]:first-child`)))
	if hidden := eval[bool](t, b, `document.querySelector(".changes").hidden && !document.querySelector(".conv-panel").hidden`); !hidden {
		t.Fatal("the conversation tab did not come back")
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Fatalf("console errors: %v", errs)
	}
}

// aliceRepoDir makes a work-directory root (its real path, symlinks
// resolved, as the daemon reports paths), alice's tree in it and an empty
// directory "repo" there for a test's repository.
func aliceRepoDir(t *testing.T) (root, tree, repo string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tree = filepath.Join(root, engine.OwnerDir("alice"))
	repo = filepath.Join(tree, "repo")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	return root, tree, repo
}
