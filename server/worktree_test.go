package server_test

import (
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/testkit"
)

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

type diffView struct {
	Base, Branch, BaseBranch string
	Files                    []struct {
		Path, Status, Patch  string
		Additions, Deletions int
	}
}

// Two worktree sessions of alice on one repository edit the same file at
// once; each diff shows its own change, bob sees neither diff nor can he
// merge, the merges fast-forward or refuse with the files, the sessions
// survive a restart, and deleting removes their worktrees.
func TestWorktreeSessionsOverHTTP(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	root, home, db := t.TempDir(), t.TempDir(), filepath.Join(t.TempDir(), "hotplex.db")
	d := startDaemon(t, root, home, db)
	repo := filepath.Join(root, engine.OwnerDir("alice"), "repo")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	gitIn(t, repo, "init", "-q")
	if err := os.WriteFile(filepath.Join(repo, "shared.txt"), []byte("one\ntwo\nthree\nfour\nfive\nsix\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, repo, "add", ".")
	gitIn(t, repo, "commit", "-qm", "start")

	var wg sync.WaitGroup
	views := make([]map[string]any, 2)
	for i, id := range []string{"a", "b"} {
		wg.Go(func() { views[i] = d.Create(t, d.alice, map[string]any{"id": id, "repo": "repo", "worktree": true}) })
	}
	wg.Wait()
	for i, id := range []string{"a", "b"} {
		wt, _ := views[i]["worktree"].(map[string]any)
		if wt["branch"] != "hotplex/"+id || wt["base_branch"] != "main" || wt["path"] != views[i]["work_dir"] {
			t.Fatalf("session %s: %v", id, views[i])
		}
	}
	wg.Go(func() { d.turn(t, d.alice, "a", bashDirective("sed -i s/two/TWO-by-a/ shared.txt")) })
	wg.Go(func() { d.turn(t, d.alice, "b", bashDirective("sed -i s/five/FIVE-by-b/ shared.txt")) })
	wg.Wait()
	for id, want := range map[string][2]string{"a": {"+TWO-by-a", "FIVE-by-b"}, "b": {"+FIVE-by-b", "TWO-by-a"}} {
		v := testkit.Decode[diffView](t, d.Do(t, "GET", "/v1/sessions/"+id+"/diff", d.alice, nil))
		if len(v.Files) != 1 || v.Files[0].Path != "shared.txt" || v.Files[0].Status != "modified" || v.Branch != "hotplex/"+id ||
			!strings.Contains(v.Files[0].Patch, want[0]) || strings.Contains(v.Files[0].Patch, want[1]) {
			t.Fatalf("diff of %s: %+v", id, v)
		}
	}
	// Bob's key finds neither the diff nor anything to merge.
	for _, r := range []struct{ method, path string }{{"GET", "/v1/sessions/a/diff"}, {"POST", "/v1/sessions/a/merge"}} {
		if resp := d.Do(t, r.method, r.path, d.bob, nil); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("bob %s %s: %d", r.method, r.path, resp.StatusCode)
		}
	}

	// Uncommitted changes refuse the merge, naming the file.
	resp := d.Do(t, "POST", "/v1/sessions/a/merge", d.alice, nil)
	refusal := testkit.Decode[struct {
		Error struct{ Code string }
		Files []string
	}](t, resp)
	if resp.StatusCode != http.StatusConflict || refusal.Error.Code != "uncommitted_changes" || len(refusal.Files) != 1 {
		t.Fatalf("merge with uncommitted changes: %d %+v", resp.StatusCode, refusal)
	}
	resp = d.Do(t, "POST", "/v1/sessions/a/merge", d.alice, map[string]string{"commit_message": "a's edit"})
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("merge of a: %d %s", resp.StatusCode, b)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "shared.txt")); !strings.Contains(string(b), "TWO-by-a") {
		t.Fatalf("main after the merge: %s", b)
	}
	main := gitIn(t, repo, "rev-parse", "main")
	resp = d.Do(t, "POST", "/v1/sessions/b/merge", d.alice, map[string]string{"commit_message": "b's edit"})
	refusal = testkit.Decode[struct {
		Error struct{ Code string }
		Files []string
	}](t, resp)
	if resp.StatusCode != http.StatusConflict || refusal.Error.Code != "not_fast_forward" || len(refusal.Files) != 1 || refusal.Files[0] != "shared.txt" {
		t.Fatalf("merge of b after a: %d %+v", resp.StatusCode, refusal)
	}
	if gitIn(t, repo, "rev-parse", "main") != main {
		t.Fatal("a refused merge moved main")
	}

	// A restart keeps both worktrees and what they are measured against.
	d.stop()
	d = startDaemon(t, root, home, db)
	v := testkit.Decode[diffView](t, d.Do(t, "GET", "/v1/sessions/b/diff", d.alice, nil))
	if len(v.Files) != 1 || !strings.Contains(v.Files[0].Patch, "+FIVE-by-b") {
		t.Fatalf("diff of b after a restart: %+v", v)
	}
	if n := len(strings.Split(gitIn(t, repo, "worktree", "list"), "\n")); n != 3 {
		t.Fatalf("worktrees after a restart:\n%s", gitIn(t, repo, "worktree", "list"))
	}

	if resp := d.Do(t, "DELETE", "/v1/sessions/a", d.alice, nil); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("delete a: %d", resp.StatusCode)
	}
	if resp := d.Do(t, "DELETE", "/v1/sessions/b?delete_branch=true", d.alice, nil); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("delete b: %d", resp.StatusCode)
	}
	if list := gitIn(t, repo, "worktree", "list"); strings.Contains(list, "hotplex/") {
		t.Fatalf("worktrees left after delete:\n%s", list)
	}
	if br := gitIn(t, repo, "branch", "--list"); !strings.Contains(br, "hotplex/a") || strings.Contains(br, "hotplex/b") {
		t.Fatalf("branches after delete: %s", br)
	}
	// A worktree needs a repository of the caller's own.
	for _, body := range []map[string]any{{"worktree": true}, {"repo": "../" + engine.OwnerDir("bob"), "worktree": true}, {"repo": "repo"}} {
		if resp := d.Do(t, "POST", "/v1/sessions", d.alice, body); resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("create %v: %d", body, resp.StatusCode)
		}
	}
}
