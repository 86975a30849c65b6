package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/provider/codex"
	"github.com/hotplex/hotplex/testkit"
)

// Two worktree sessions on one repository, one run by the real claude CLI
// and one by the real Codex, edit the same file in the same turn at once:
// claude with its Read and Edit tools, Codex with apply_patch. Each
// session's diff shows its own change only, the repository's checkout is
// untouched until a merge, the first merge fast-forwards and the second
// is refused with the file both changed, moving nothing.
func TestWorktreeSessionsOfTwoAgentsEditOneFileAtOnce(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	root, tree, repo := aliceRepoDir(t)
	const original = "one\ntwo\nthree\nfour\nfive\nsix\n"
	if err := os.WriteFile(filepath.Join(repo, "shared.txt"), []byte(original), 0o644); err != nil {
		t.Fatal(err)
	}
	git := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git(repo, "init", "-q")
	git(repo, "add", "shared.txt")
	git(repo, "commit", "-qm", "start")
	start := git(repo, "rev-parse", "main")

	// Each session's worktree is made in its own directory of alice's tree.
	claudeWT, codexWT := filepath.Join(tree, "by-claude"), filepath.Join(tree, "by-codex")
	shared := filepath.Join(claudeWT, "shared.txt")
	patch := "*** Begin Patch\n*** Update File: shared.txt\n@@\n four\n-five\n+FIVE-by-codex\n six\n*** End Patch\n"
	m, err := scriptedmodel.Start("127.0.0.1:0", scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("claude: change line two",
			scriptedmodel.Reply{ToolUses: []scriptedmodel.ToolUse{{Name: "Read", Input: map[string]any{"file_path": shared}}}},
			scriptedmodel.Reply{ToolUses: []scriptedmodel.ToolUse{{Name: "Edit", Input: map[string]any{"file_path": shared, "old_string": "two", "new_string": "TWO-by-claude"}}}},
			scriptedmodel.Text("Changed line two: {{last_tool_result}}")),
		scriptedmodel.Then("codex: change line five",
			scriptedmodel.Reply{ToolUses: []scriptedmodel.ToolUse{{Name: "apply_patch", Input: map[string]any{"input": patch}}}},
			scriptedmodel.Text("Changed line five: {{last_tool_result}}")),
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	codexHome := filepath.Join(t.TempDir(), "codex")
	if err := os.MkdirAll(codexHome, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte("model = \"gpt-5.5\"\ncheck_for_update_on_startup = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	d := testkit.StartDaemon(t, testkit.DaemonOptions{
		Provider: claude.New(claude.Options{Path: testkit.ClaudePath(t)}),
		Providers: []provider.Provider{codex.New(codex.Options{
			Path:   testkit.ToolPath(t, "codex/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"),
			Config: codex.ModelProvider(m.URL()+"/v1", "HOTPLEX_MODEL_KEY"),
			Env:    []string{"CODEX_HOME=" + codexHome, "HOTPLEX_MODEL_KEY=sk-hotplex-test"},
		})},
		Env: testkit.OfflineEnv(t, m.URL()), Root: root, DBPath: filepath.Join(t.TempDir(), "hotplex.db"),
	})

	sessions := []struct{ id, provider, dir, prompt, mine, theirs string }{
		{"by-claude", "claude", claudeWT, "claude: change line two", "+TWO-by-claude", "FIVE-by-codex"},
		{"by-codex", "codex", codexWT, "codex: change line five", "+FIVE-by-codex", "TWO-by-claude"},
	}
	for _, s := range sessions {
		v := d.Create(t, d.Alice, map[string]any{"id": s.id, "provider": s.provider, "repo": "repo", "worktree": true})
		wt, _ := v["worktree"].(map[string]any)
		if v["provider"] != s.provider || v["work_dir"] != s.dir || wt["branch"] != "hotplex/"+s.id || wt["base_branch"] != "main" {
			t.Fatalf("session %s: %v", s.id, v)
		}
	}

	// Both turns are sent at once; each ends with its result.
	var wg sync.WaitGroup
	turns := make([][]testkit.SSEEvent, len(sessions))
	errs := make([]error, len(sessions))
	ready := make(chan struct{})
	for i, s := range sessions {
		wg.Go(func() {
			<-ready
			turns[i], errs[i] = sendTurn(d.URL, d.Alice, s.id, s.prompt)
		})
	}
	close(ready)
	wg.Wait()
	for i, s := range sessions {
		if errs[i] != nil {
			t.Fatalf("turn of %s: %v", s.id, errs[i])
		}
		evs := turns[i]
		if len(evs) == 0 || evs[len(evs)-1].Type != "result" || strings.Contains(string(evs[len(evs)-1].Data), `"is_error":true`) {
			t.Fatalf("turn of %s: %v", s.id, evs)
		}
	}

	for _, s := range sessions {
		diff := testkit.Decode[engine.Changes](t, d.Do(t, "GET", "/v1/sessions/"+s.id+"/diff", d.Alice, nil))
		if len(diff.Files) != 1 || diff.Branch != "hotplex/"+s.id || diff.BaseBranch != "main" || diff.Base != start {
			t.Fatalf("diff of %s: %+v", s.id, diff)
		}
		f := diff.Files[0]
		if f.Path != "shared.txt" || f.Status != "modified" || f.Additions != 1 || f.Deletions != 1 ||
			!strings.Contains(f.Patch, s.mine) || strings.Contains(f.Patch, s.theirs) {
			t.Fatalf("diff of %s: %+v", s.id, f)
		}
		if br := git(s.dir, "rev-parse", "--abbrev-ref", "HEAD"); br != "hotplex/"+s.id {
			t.Fatalf("the worktree of %s is on %q", s.id, br)
		}
	}
	// The repository's own checkout is untouched.
	if b, err := os.ReadFile(filepath.Join(repo, "shared.txt")); err != nil || string(b) != original {
		t.Fatalf("the repository's shared.txt: %q %v", b, err)
	}
	if st := git(repo, "status", "--porcelain"); st != "" || git(repo, "rev-parse", "HEAD") != start || git(repo, "rev-parse", "--abbrev-ref", "HEAD") != "main" {
		t.Fatalf("the repository's checkout changed: %q", st)
	}

	// The first merge fast-forwards main to claude's commit.
	resp := d.Do(t, "POST", "/v1/sessions/by-claude/merge", d.Alice, map[string]string{"commit_message": "claude's edit"})
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("merge of by-claude: %d %s", resp.StatusCode, b)
	}
	merged := testkit.Decode[engine.MergeResult](t, resp)
	if merged.From != start || merged.Committed == "" || merged.To != merged.Committed || git(repo, "rev-parse", "main") != merged.To {
		t.Fatalf("merge of by-claude: %+v", merged)
	}
	afterFirst := strings.Replace(original, "two", "TWO-by-claude", 1)
	if b, _ := os.ReadFile(filepath.Join(repo, "shared.txt")); string(b) != afterFirst {
		t.Fatalf("the repository's shared.txt after the merge: %q", b)
	}
	// The second is refused, naming the file both changed, and moves nothing.
	resp = d.Do(t, "POST", "/v1/sessions/by-codex/merge", d.Alice, map[string]string{"commit_message": "codex's edit"})
	refusal := testkit.Decode[struct {
		Error struct{ Code string }
		Files []string
	}](t, resp)
	if resp.StatusCode != http.StatusConflict || refusal.Error.Code != "not_fast_forward" || len(refusal.Files) != 1 || refusal.Files[0] != "shared.txt" {
		t.Fatalf("merge of by-codex after by-claude: %d %+v", resp.StatusCode, refusal)
	}
	if git(repo, "rev-parse", "main") != merged.To || git(repo, "status", "--porcelain") != "" {
		t.Fatal("a refused merge moved main or its checkout")
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "shared.txt")); string(b) != afterFirst {
		t.Fatalf("the repository's shared.txt after the refused merge: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(codexWT, "shared.txt")); string(b) != strings.Replace(original, "five", "FIVE-by-codex", 1) {
		t.Fatalf("codex's worktree after the refused merge: %q", b)
	}
}

// sendTurn posts a prompt to a session and reads the turn's events to the
// end of the stream; it reports errors rather than failing the test, to
// be called off the test's goroutine.
func sendTurn(base, key, session, prompt string) ([]testkit.SSEEvent, error) {
	body, _ := json.Marshal(map[string]string{"prompt": prompt})
	req, err := http.NewRequest("POST", base+"/v1/sessions/"+session+"/messages", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return nil, fmt.Errorf("%d %s", resp.StatusCode, b)
	}
	return testkit.ReadSSE(resp.Body, nil), nil
}
