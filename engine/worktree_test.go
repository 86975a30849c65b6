package engine_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hotplex/hotplex/engine"
)

// gitT runs git in dir for a test, with an identity of its own.
func gitT(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// newRepo makes a repository on main with one commit of shared.txt.
func newRepo(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	gitT(t, dir, "init", "-q")
	writeFile(t, filepath.Join(dir, "shared.txt"), "one\ntwo\nthree\nfour\nfive\nsix\nseven\n")
	gitT(t, dir, "add", "shared.txt")
	gitT(t, dir, "commit", "-q", "-m", "start")
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) turnIn(t *testing.T, id, prompt string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := f.eng.Execute(ctx, &engine.Config{SessionID: id, Owner: "alice", MustExist: true}, prompt, nil); err != nil {
		t.Fatalf("turn on %s: %v", id, err)
	}
}

func diffOf(t *testing.T, f *fixture, id string) map[string]engine.FileChange {
	t.Helper()
	ch, err := f.eng.Diff(context.Background(), id)
	if err != nil {
		t.Fatalf("diff of %s: %v", id, err)
	}
	out := map[string]engine.FileChange{}
	for _, fc := range ch.Files {
		out[fc.Path] = fc
	}
	return out
}

// Two sessions on one repository, created at once, edit the same file at
// once, each in its own worktree: no conflict, each diff shows its own
// change only; merging fast-forwards the first, refuses the second (not a
// fast-forward) and changes nothing; deleting removes the worktrees.
func TestWorktreeSessionsShareARepositoryWithoutConflict(t *testing.T) {
	root := t.TempDir()
	f := newFixture(t, engine.EngineOptions{WorkDirRoot: root})
	repo := filepath.Join(root, engine.OwnerDir("alice"), "repo")
	newRepo(t, repo)

	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, id := range []string{"a", "b"} {
		wg.Go(func() {
			errs[i] = f.eng.CreateSession(id, engine.SessionConfig{Owner: "alice", Repo: "repo", Worktree: true, WorkDir: "wt-" + id})
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatalf("creating two worktree sessions at once: %v", errs)
		}
	}
	list := gitT(t, repo, "worktree", "list")
	for _, id := range []string{"a", "b"} {
		s, _ := f.eng.GetSession(id)
		wt := s.Config.Baseline.Worktree
		if wt == nil || wt.Branch != "hotplex/"+id || wt.BaseBranch != "main" || wt.Path != s.Config.WorkDir || !strings.Contains(list, wt.Path) {
			t.Fatalf("session %s: %+v, worktrees:\n%s", id, wt, list)
		}
	}

	// Both edit shared.txt at once, each its own line.
	wg.Go(func() { f.turnIn(t, "a", bash("sed -i s/two/TWO-by-a/ shared.txt")) })
	wg.Go(func() { f.turnIn(t, "b", bash("sed -i s/six/SIX-by-b/ shared.txt")) })
	wg.Wait()
	for id, want := range map[string][2]string{"a": {"+TWO-by-a", "SIX-by-b"}, "b": {"+SIX-by-b", "TWO-by-a"}} {
		d := diffOf(t, f, id)
		fc, ok := d["shared.txt"]
		if len(d) != 1 || !ok || fc.Status != "modified" || fc.Additions != 1 || fc.Deletions != 1 ||
			!strings.Contains(fc.Patch, want[0]) || strings.Contains(fc.Patch, want[1]) {
			t.Fatalf("diff of %s: %+v", id, d)
		}
	}
	if got := gitT(t, repo, "status", "--porcelain"); got != "" {
		t.Fatalf("the repository's own checkout changed: %s", got)
	}

	// Uncommitted work is not merged silently.
	_, err := f.eng.Merge(context.Background(), "a", engine.MergeOptions{})
	var me *engine.MergeError
	if !errors.Is(err, engine.ErrUncommitted) || !errors.As(err, &me) || len(me.Files) != 1 || me.Files[0] != "shared.txt" {
		t.Fatalf("merge with uncommitted changes: %v", err)
	}
	before := gitT(t, repo, "rev-parse", "main")
	res, err := f.eng.Merge(context.Background(), "a", engine.MergeOptions{CommitMessage: "a's change"})
	if err != nil {
		t.Fatal(err)
	}
	after := gitT(t, repo, "rev-parse", "main")
	if res.From != before || res.To != after || after == before || res.Committed != after {
		t.Fatalf("merge of a: %+v (main %s -> %s)", res, before, after)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "shared.txt")); !strings.Contains(string(b), "TWO-by-a") {
		t.Fatalf("the checked-out base branch was not brought along: %s", b)
	}
	if got := gitT(t, repo, "status", "--porcelain"); got != "" {
		t.Fatalf("after the fast-forward the checkout is dirty: %s", got)
	}
	// b started where a did: main moved on, so b is not a fast-forward.
	_, err = f.eng.Merge(context.Background(), "b", engine.MergeOptions{CommitMessage: "b's change"})
	if !errors.Is(err, engine.ErrNotFastForward) || !errors.As(err, &me) || len(me.Files) != 1 || me.Files[0] != "shared.txt" {
		t.Fatalf("merge of b: %v", err)
	}
	if got := gitT(t, repo, "rev-parse", "main"); got != after {
		t.Fatal("a refused merge moved main")
	}

	// Deleting removes the worktree and keeps the branch, unless asked.
	aPath := filepath.Join(root, engine.OwnerDir("alice"), "wt-a")
	if err := f.eng.DeleteSession(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
	if err := f.eng.DeleteSessionWith(context.Background(), "b", engine.DeleteOptions{DeleteBranch: true}); err != nil {
		t.Fatal(err)
	}
	list = gitT(t, repo, "worktree", "list")
	if strings.Contains(list, "wt-a") || strings.Contains(list, "wt-b") {
		t.Fatalf("worktrees left after delete:\n%s", list)
	}
	if _, err := os.Stat(aPath); !os.IsNotExist(err) {
		t.Fatalf("worktree directory left: %v", err)
	}
	branches := gitT(t, repo, "branch", "--list")
	if !strings.Contains(branches, "hotplex/a") || strings.Contains(branches, "hotplex/b") {
		t.Fatalf("branches after delete: %s", branches)
	}
	// The kept branch makes a new session of the same ID say so.
	err = f.eng.CreateSession("a", engine.SessionConfig{Owner: "alice", Repo: "repo", Worktree: true, WorkDir: "wt-a"})
	if !errors.Is(err, engine.ErrBranchExists) {
		t.Fatalf("a second session on a kept branch: %v", err)
	}
}

// A fast-forward that would overwrite uncommitted changes in the
// repository's own checkout is refused with the files, and nothing moves.
func TestWorktreeMergeRefusesToOverwrite(t *testing.T) {
	root := t.TempDir()
	f := newFixture(t, engine.EngineOptions{WorkDirRoot: root})
	repo := filepath.Join(root, engine.OwnerDir("alice"), "repo")
	newRepo(t, repo)
	if err := f.eng.CreateSession("c", engine.SessionConfig{Owner: "alice", Repo: "repo", Worktree: true}); err != nil {
		t.Fatal(err)
	}
	s, _ := f.eng.GetSession("c")
	if want := filepath.Join(root, engine.OwnerDir("alice"), "repo.worktrees", "c"); s.Config.WorkDir != want {
		t.Fatalf("default worktree place %s, want %s", s.Config.WorkDir, want)
	}
	f.turnIn(t, "c", bash("echo by-c > shared.txt && git add shared.txt && git -c user.name=c -c user.email=c@x commit -qm c"))
	writeFile(t, filepath.Join(repo, "shared.txt"), "edited by hand\n")
	before := gitT(t, repo, "rev-parse", "main")
	_, err := f.eng.Merge(context.Background(), "c", engine.MergeOptions{})
	var me *engine.MergeError
	if !errors.Is(err, engine.ErrMergeConflict) || !errors.As(err, &me) || len(me.Files) != 1 || me.Files[0] != "shared.txt" {
		t.Fatalf("merge over a dirty checkout: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "shared.txt")); string(b) != "edited by hand\n" || gitT(t, repo, "rev-parse", "main") != before {
		t.Fatal("a refused merge changed something")
	}
	// With the base branch checked out nowhere, its ref moves alone.
	gitT(t, repo, "checkout", "-q", "--", "shared.txt")
	gitT(t, repo, "checkout", "-q", "--detach")
	res, err := f.eng.Merge(context.Background(), "c", engine.MergeOptions{})
	if err != nil || gitT(t, repo, "rev-parse", "main") != res.To || res.To == before {
		t.Fatalf("merge into a branch checked out nowhere: %+v %v", res, err)
	}
}

// A repository must be the owner's: not another owner's tree, not
// reached through a symbolic link or a .git file leading there.
func TestWorktreeRepositoryIsConfined(t *testing.T) {
	root := t.TempDir()
	f := newFixture(t, engine.EngineOptions{WorkDirRoot: root})
	mine := filepath.Join(root, engine.OwnerDir("alice"))
	theirs := filepath.Join(root, engine.OwnerDir("bob"), "repo")
	newRepo(t, theirs)
	newRepo(t, filepath.Join(mine, "ok"))
	if err := os.Symlink(theirs, filepath.Join(mine, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(mine, "gitfile"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(mine, "gitfile", ".git"), "gitdir: "+filepath.Join(theirs, ".git")+"\n")
	if err := os.MkdirAll(filepath.Join(mine, "plain"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A .git that is a symbolic link to theirs.
	if err := os.MkdirAll(filepath.Join(mine, "gitlink"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(theirs, ".git"), filepath.Join(mine, "gitlink", ".git")); err != nil {
		t.Fatal(err)
	}
	for i, repo := range []string{"../" + engine.OwnerDir("bob") + "/repo", theirs, "link", "gitfile", "gitlink", "plain", "missing", "ok/.."} {
		id := "s" + string(rune('0'+i))
		err := f.eng.CreateSession(id, engine.SessionConfig{Owner: "alice", Repo: repo, Worktree: true})
		if !errors.Is(err, engine.ErrInvalidRepo) && !errors.Is(err, engine.ErrInvalidWorkDir) {
			t.Errorf("repo %q: %v", repo, err)
		}
	}
	// Nor may the worktree go inside the repository's checkout, or be it.
	for _, wd := range []string{"ok", "ok/sub"} {
		if err := f.eng.CreateSession("in", engine.SessionConfig{Owner: "alice", Repo: "ok", Worktree: true, WorkDir: wd}); !errors.Is(err, engine.ErrInvalidWorkDir) {
			t.Errorf("worktree at %s: %v", wd, err)
		}
	}
	if _, err := os.Stat(filepath.Join(mine, "ok", "shared.txt")); err != nil {
		t.Fatal("a refused worktree harmed the repository")
	}
	if got := gitT(t, theirs, "branch", "--list"); strings.Contains(got, "hotplex/") {
		t.Fatalf("a branch was made in another owner's repository: %s", got)
	}
	if _, err := os.Stat(filepath.Join(mine, "missing")); !os.IsNotExist(err) {
		t.Fatal("asking for a missing repository made a directory")
	}
}

// A plain directory's diff reports what was added, modified and deleted
// since the session was created; a repository's includes untracked files.
func TestDiffOfPlainDirectoryAndRepository(t *testing.T) {
	root := t.TempDir()
	f := newFixture(t, engine.EngineOptions{WorkDirRoot: root})
	plain := filepath.Join(root, engine.OwnerDir("alice"), "plain")
	if err := os.MkdirAll(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(plain, "keep.txt"), "alpha\nbeta\n")
	writeFile(t, filepath.Join(plain, "old.txt"), "going\n")
	if err := f.eng.CreateSession("p", engine.SessionConfig{Owner: "alice", WorkDir: "plain"}); err != nil {
		t.Fatal(err)
	}
	// HotPlex's own folder (the api provider's saved conversation) is
	// not the agent's change.
	f.turnIn(t, "p", bash("printf 'alpha\\nBETA\\n' > keep.txt && rm old.txt && echo fresh > new.txt && mkdir -p .hotplex/api && echo x > .hotplex/api/c.json"))
	d := diffOf(t, f, "p")
	if len(d) != 3 || d["keep.txt"].Status != "modified" || !strings.Contains(d["keep.txt"].Patch, "-beta\n+BETA") ||
		d["old.txt"].Status != "deleted" || d["old.txt"].Deletions != 1 ||
		d["new.txt"].Status != "added" || d["new.txt"].Additions != 1 || !strings.Contains(d["new.txt"].Patch, "+fresh") {
		t.Fatalf("plain directory diff: %+v", d)
	}

	repo := filepath.Join(root, engine.OwnerDir("alice"), "repo")
	newRepo(t, repo)
	if err := f.eng.CreateSession("r", engine.SessionConfig{Owner: "alice", WorkDir: "repo"}); err != nil {
		t.Fatal(err)
	}
	f.turnIn(t, "r", bash("echo extra >> shared.txt && echo hi > untracked.txt && mkdir -p .hotplex/api && echo x > .hotplex/api/c.json && git -c user.name=r -c user.email=r@x commit -qam r"))
	d = diffOf(t, f, "r")
	if len(d) != 2 || d["shared.txt"].Status != "modified" || d["shared.txt"].Additions != 1 ||
		d["untracked.txt"].Status != "added" || !strings.Contains(d["untracked.txt"].Patch, "+hi") {
		t.Fatalf("repository diff (committed and untracked): %+v", d)
	}
	if _, err := f.eng.Merge(context.Background(), "r", engine.MergeOptions{}); !errors.Is(err, engine.ErrNoWorktree) {
		t.Fatalf("merge without a worktree: %v", err)
	}
}

// A diff is bounded: a file over the per-file bound is listed without
// its patch.
func TestDiffIsBounded(t *testing.T) {
	root := t.TempDir()
	f := newFixture(t, engine.EngineOptions{WorkDirRoot: root})
	if err := f.eng.CreateSession("big", engine.SessionConfig{Owner: "alice"}); err != nil {
		t.Fatal(err)
	}
	s, _ := f.eng.GetSession("big")
	writeFile(t, filepath.Join(s.Config.WorkDir, "big.txt"), strings.Repeat("line\n", engine.MaxFilePatchBytes/4))
	writeFile(t, filepath.Join(s.Config.WorkDir, "small.txt"), "small\n")
	ch, err := f.eng.Diff(context.Background(), "big")
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.Files) != 2 || !ch.Truncated || ch.Files[0].Path != "big.txt" || !ch.Files[0].Truncated || ch.Files[0].Patch != "" ||
		ch.Files[1].Truncated || !strings.Contains(ch.Files[1].Patch, "+small") {
		t.Fatalf("bounded diff: %+v", ch)
	}
}

// A worktree session restored (after a daemon restart) keeps its worktree
// and its base; the merge refuses while a turn runs.
func TestWorktreeSessionRestoredAndBusy(t *testing.T) {
	root := t.TempDir()
	f := newFixture(t, engine.EngineOptions{WorkDirRoot: root})
	repo := filepath.Join(root, engine.OwnerDir("alice"), "repo")
	newRepo(t, repo)
	if err := f.eng.CreateSession("w", engine.SessionConfig{Owner: "alice", Repo: "repo", Worktree: true, WorkDir: "w"}); err != nil {
		t.Fatal(err)
	}
	s, _ := f.eng.GetSession("w")
	f.turnIn(t, "w", bash("echo restored > note.txt"))
	_ = f.eng.Close()

	g := newFixture(t, engine.EngineOptions{WorkDirRoot: root})
	cfg := engine.SessionConfig{Owner: "alice", WorkDir: "w", Repo: "repo", Worktree: true, Baseline: s.Config.Baseline}
	if err := g.eng.RestoreSession("w", cfg, 0, nil); err != nil {
		t.Fatal(err)
	}
	if d := diffOf(t, g, "w"); len(d) != 1 || d["note.txt"].Status != "added" {
		t.Fatalf("diff after restore: %+v", d)
	}
	if n := strings.Count(gitT(t, repo, "worktree", "list"), "\n"); n != 1 {
		t.Fatalf("restoring made another worktree:\n%s", gitT(t, repo, "worktree", "list"))
	}

	done := make(chan error, 1)
	go func() {
		done <- g.eng.Execute(context.Background(), &engine.Config{SessionID: "w", MustExist: true}, "sleep:60000", nil)
	}()
	for status(t, g, "w") != engine.StatusRunning {
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := g.eng.Merge(context.Background(), "w", engine.MergeOptions{CommitMessage: "x"}); !errors.Is(err, engine.ErrSessionBusy) {
		t.Fatalf("merge during a turn: %v", err)
	}
	if _, err := g.eng.Interrupt("w"); err != nil {
		t.Fatal(err)
	}
	<-done
	if got := gitT(t, filepath.Join(root, engine.OwnerDir("alice"), "w"), "status", "--porcelain"); got != "?? note.txt" {
		t.Fatalf("a refused merge committed: %q", got)
	}
}

// A worktree removed by hand while the daemon was down is checked out
// again from the session's branch when the session is restored.
func TestWorktreeRepairedOnRestore(t *testing.T) {
	root := t.TempDir()
	f := newFixture(t, engine.EngineOptions{WorkDirRoot: root})
	repo := filepath.Join(root, engine.OwnerDir("alice"), "repo")
	newRepo(t, repo)
	if err := f.eng.CreateSession("r", engine.SessionConfig{Owner: "alice", Repo: "repo", Worktree: true, WorkDir: "r"}); err != nil {
		t.Fatal(err)
	}
	s, _ := f.eng.GetSession("r")
	f.turnIn(t, "r", bash("echo kept > kept.txt && git add kept.txt && git -c user.name=r -c user.email=r@x commit -qm kept"))
	_ = f.eng.Close()
	if err := os.RemoveAll(s.Config.WorkDir); err != nil {
		t.Fatal(err)
	}

	g := newFixture(t, engine.EngineOptions{WorkDirRoot: root})
	cfg := engine.SessionConfig{Owner: "alice", WorkDir: s.Config.WorkDir, Worktree: true, Baseline: s.Config.Baseline}
	if err := g.eng.RestoreSession("r", cfg, 0, nil); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(s.Config.WorkDir, "kept.txt")); err != nil || string(b) != "kept\n" {
		t.Fatalf("the repaired worktree: %q %v", b, err)
	}
	if d := diffOf(t, g, "r"); len(d) != 1 || d["kept.txt"].Status != "added" {
		t.Fatalf("diff of the repaired worktree: %+v", d)
	}
}

// The programs a repository's configuration names for git to run never
// run when HotPlex runs git there: making a worktree, diffing, reading
// status at a turn, committing and fast-forwarding. Each case arms the
// repository with one program (a filter, a diff driver, an external diff,
// the file-system monitor, a filter from an included file) just before
// the operation it would run on, so the test's own git never meets it.
func TestWorktreeGitRunsNoProgramOfTheRepository(t *testing.T) {
	// attributes gives every file the attribute line, for the repository
	// and each of its worktrees.
	attributes := func(t *testing.T, repo, line string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(repo, ".git", "info"), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(repo, ".git", "info", "attributes"), "* "+line+"\n")
	}
	// edited makes a worktree session whose tracked shared.txt was
	// edited without changing its size, so git must read it to know.
	edited := func(t *testing.T, f *fixture, repo, id string) string {
		t.Helper()
		if err := f.eng.CreateSession(id, engine.SessionConfig{Owner: "alice", Repo: "repo", Worktree: true, WorkDir: id}); err != nil {
			t.Fatal(err)
		}
		s, _ := f.eng.GetSession(id)
		path := filepath.Join(s.Config.WorkDir, "shared.txt")
		writeFile(t, path, "one\nTWO\nthree\nfour\nfive\nsix\nseven\n")
		later := time.Now().Add(2 * time.Second)
		if err := os.Chtimes(path, later, later); err != nil {
			t.Fatal(err)
		}
		return s.Config.WorkDir
	}
	// diffed diffs the session, and checks later that the edit is there.
	diffed := func(t *testing.T, f *fixture, id string) func(*testing.T) {
		t.Helper()
		d := diffOf(t, f, id)
		return func(t *testing.T) {
			if fc := d["shared.txt"]; len(d) != 1 || !strings.Contains(fc.Patch, "-two\n+TWO") {
				t.Fatalf("diff: %+v", d)
			}
		}
	}
	for _, c := range []struct {
		name string
		// run arms the repository with prog and runs the operation; what it
		// returns checks the operation's result, once the program is known
		// not to have run.
		run func(t *testing.T, f *fixture, repo, prog string) func(*testing.T)
	}{
		{"smudge filter on worktree add", func(t *testing.T, f *fixture, repo, prog string) func(*testing.T) {
			writeFile(t, filepath.Join(repo, ".gitattributes"), "*.txt filter=evil\n")
			gitT(t, repo, "add", ".gitattributes")
			gitT(t, repo, "commit", "-q", "-m", "attributes")
			gitT(t, repo, "config", "filter.evil.smudge", prog)
			gitT(t, repo, "config", "filter.evil.required", "true")
			err := f.eng.CreateSession("w", engine.SessionConfig{Owner: "alice", Repo: "repo", Worktree: true, WorkDir: "w"})
			return func(t *testing.T) {
				if err != nil {
					t.Fatal(err)
				}
				s, _ := f.eng.GetSession("w")
				if b, err := os.ReadFile(filepath.Join(s.Config.WorkDir, "shared.txt")); err != nil || !strings.HasPrefix(string(b), "one\n") {
					t.Fatalf("the worktree's file: %q %v", b, err)
				}
			}
		}},
		{"filter from an included file on worktree add", func(t *testing.T, f *fixture, repo, prog string) func(*testing.T) {
			inc := filepath.Join(t.TempDir(), "included")
			writeFile(t, inc, "[filter \"evil\"]\n\tsmudge = "+prog+"\n")
			gitT(t, repo, "config", "include.path", inc)
			attributes(t, repo, "filter=evil")
			err := f.eng.CreateSession("w", engine.SessionConfig{Owner: "alice", Repo: "repo", Worktree: true, WorkDir: "w"})
			return func(t *testing.T) {
				if err != nil {
					t.Fatal(err)
				}
			}
		}},
		{"smudge filter on the merge's checkout", func(t *testing.T, f *fixture, repo, prog string) func(*testing.T) {
			wt := edited(t, f, repo, "m")
			gitT(t, wt, "commit", "-q", "-am", "m")
			attributes(t, repo, "filter=evil")
			gitT(t, repo, "config", "filter.evil.smudge", prog)
			res, err := f.eng.Merge(context.Background(), "m", engine.MergeOptions{})
			return func(t *testing.T) {
				if err != nil || res.To == res.From {
					t.Fatalf("merge: %+v %v", res, err)
				}
				if b, _ := os.ReadFile(filepath.Join(repo, "shared.txt")); !strings.Contains(string(b), "TWO") {
					t.Fatalf("the checkout after the merge: %q", b)
				}
			}
		}},
		{"clean filter on diff", func(t *testing.T, f *fixture, repo, prog string) func(*testing.T) {
			edited(t, f, repo, "d")
			attributes(t, repo, "filter=evil")
			gitT(t, repo, "config", "filter.evil.clean", prog)
			return diffed(t, f, "d")
		}},
		{"clean filter on status, add and commit", func(t *testing.T, f *fixture, repo, prog string) func(*testing.T) {
			edited(t, f, repo, "c")
			attributes(t, repo, "filter=evil")
			gitT(t, repo, "config", "filter.evil.clean", prog)
			res, err := f.eng.Merge(context.Background(), "c", engine.MergeOptions{CommitMessage: "c"})
			return func(t *testing.T) {
				if err != nil || res.Committed == "" || res.To != res.Committed {
					t.Fatalf("merge committing the edit: %+v %v", res, err)
				}
			}
		}},
		{"clean filter and file-system monitor on a turn's change scan", func(t *testing.T, f *fixture, repo, prog string) func(*testing.T) {
			edited(t, f, repo, "t")
			attributes(t, repo, "filter=evil")
			gitT(t, repo, "config", "filter.evil.clean", prog)
			gitT(t, repo, "config", "core.fsmonitor", prog)
			f.turnIn(t, "t", bash("echo new > new.txt"))
			return func(t *testing.T) {
				if d := diffOf(t, f, "t"); len(d) != 2 || d["new.txt"].Status != "added" {
					t.Fatalf("diff after the turn: %+v", d)
				}
			}
		}},
		{"textconv on diff", func(t *testing.T, f *fixture, repo, prog string) func(*testing.T) {
			edited(t, f, repo, "d")
			attributes(t, repo, "diff=evil")
			gitT(t, repo, "config", "diff.evil.textconv", prog)
			return diffed(t, f, "d")
		}},
		{"diff driver command on diff", func(t *testing.T, f *fixture, repo, prog string) func(*testing.T) {
			edited(t, f, repo, "d")
			attributes(t, repo, "diff=evil")
			gitT(t, repo, "config", "diff.evil.command", prog)
			return diffed(t, f, "d")
		}},
		{"diff.external on diff", func(t *testing.T, f *fixture, repo, prog string) func(*testing.T) {
			edited(t, f, repo, "d")
			gitT(t, repo, "config", "diff.external", prog)
			return diffed(t, f, "d")
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			f := newFixture(t, engine.EngineOptions{WorkDirRoot: root})
			repo := filepath.Join(root, engine.OwnerDir("alice"), "repo")
			newRepo(t, repo)
			prog, sentinel := engine.AttackerProgram(t, true)
			check := c.run(t, f, repo, prog)
			engine.RequireNotRun(t, sentinel, c.name)
			check(t)
		})
	}
}
