package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// A session created with a repository and SessionConfig.Worktree works in
// a git worktree of its own, on a branch of its own, so that several
// agents on one repository never share a working tree: each edits,
// builds and commits in its own directory, and what it changed is the
// difference between its branch (and working tree) and the commit the
// branch started from. Merging it back is the user's choice (Merge), and
// only ever a fast-forward.

var (
	// ErrInvalidRepo: the repository a worktree was asked of is missing,
	// not the top of a git work tree, has no commit, or lies outside the
	// owner's tree.
	ErrInvalidRepo = errors.New("invalid repository")
	// ErrBranchExists: the worktree's branch exists already (kept from a
	// deleted session, or made by hand).
	ErrBranchExists = errors.New("branch exists")
	// ErrNoWorktree: the session has no worktree to merge.
	ErrNoWorktree = errors.New("the session has no worktree")
	// ErrNotFastForward: the base branch moved on since the worktree was
	// made (or the session branch does not contain it): merging would need
	// a merge commit or a rebase, which is the user's to make.
	ErrNotFastForward = errors.New("not a fast-forward")
	// ErrMergeConflict: a fast-forward would overwrite changes not
	// committed in the work tree that has the base branch checked out.
	ErrMergeConflict = errors.New("merge conflict")
	// ErrUncommitted: the session's worktree has changes not committed to
	// its branch, which a merge would leave behind.
	ErrUncommitted = errors.New("uncommitted changes")
)

// MergeError is a refused merge: the files in the way.
type MergeError struct {
	Err   error // ErrNotFastForward, ErrMergeConflict or ErrUncommitted
	Files []string
	// Detail is git's own account, when it gave one.
	Detail string
}

func (e *MergeError) Error() string {
	msg := e.Err.Error()
	if len(e.Files) > 0 {
		msg += ": " + strings.Join(e.Files, ", ")
	}
	if e.Detail != "" {
		msg += " (" + e.Detail + ")"
	}
	return msg
}

func (e *MergeError) Unwrap() error { return e.Err }

// Baseline is what a session's changes are measured against (see
// Engine.Diff). CreateSession fills it in SessionConfig; a daemon keeps
// it with the session and gives it back to RestoreSession.
type Baseline struct {
	// Commit is the worktree's base commit, or the HEAD of a work
	// directory that is a git repository when the session was created
	// (the empty tree when it had no commit yet). Empty when the work
	// directory is not a repository.
	Commit string `json:"commit,omitempty"`
	// Worktree is the session's own worktree, nil without one.
	Worktree *Worktree `json:"worktree,omitempty"`

	// listing is a work directory that is not a repository as it was
	// when the session was created or restored (a restart takes it again).
	listing *dirListing
}

// Worktree is a session's git worktree.
type Worktree struct {
	// Repo is the repository's main work tree, the worktree's origin.
	Repo string `json:"repo"`
	// Path is the worktree, the session's work directory.
	Path string `json:"path"`
	// Branch is the session's own branch, checked out in Path.
	Branch string `json:"branch"`
	// BaseBranch was checked out in Repo when the worktree was made: the
	// branch Merge fast-forwards ("" when Repo's HEAD was detached).
	BaseBranch string `json:"base_branch,omitempty"`
}

// emptyTree is git's empty tree, the base of a repository without commits.
const emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// repoLocks serialize HotPlex's own git commands per repository (by its
// common git directory): two worktrees added at once would race for the
// repository's locks and one would fail.
type repoLocks struct {
	mu    sync.Mutex
	locks map[string]*sync.Mutex
}

func (l *repoLocks) lock(repo string) func() {
	l.mu.Lock()
	if l.locks == nil {
		l.locks = map[string]*sync.Mutex{}
	}
	m := l.locks[repo]
	if m == nil {
		m = &sync.Mutex{}
		l.locks[repo] = m
	}
	l.mu.Unlock()
	m.Lock()
	return m.Unlock
}

// commonDir returns the repository's shared git directory, symlinks
// resolved, which identifies the repository whichever worktree names it.
func commonDir(ctx context.Context, dir string) (string, error) {
	cd, err := gitLine(ctx, dir, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(cd)
}

// branchUnsafe is what a default branch name may not hold.
var branchUnsafe = regexp.MustCompile(`[^A-Za-z0-9._/-]+`)

// defaultBranch names the worktree branch of session id.
func defaultBranch(id string) string {
	b := strings.Trim(branchUnsafe.ReplaceAllString(id, "-"), "-./")
	for strings.Contains(b, "..") {
		b = strings.ReplaceAll(b, "..", ".")
	}
	b = strings.TrimSuffix(b, ".lock")
	if b == "" {
		b = "session"
	}
	return "hotplex/" + b
}

// planWorktree resolves a new worktree session's repository in the
// owner's tree and, when no work directory was named, places the worktree
// beside the repository: <repo>.worktrees/<branch's last element>.
func (e *Engine) planWorktree(ctx context.Context, id string, cfg *SessionConfig) (repo string, err error) {
	if cfg.Repo == "" {
		return "", fmt.Errorf("%w: a worktree needs a repository", ErrInvalidRepo)
	}
	root := e.opts.WorkDirRoot
	check := cfg.Repo
	if root != "" && cfg.Owner != "" && !filepath.IsAbs(check) {
		check = filepath.Join(root, OwnerDir(cfg.Owner), check)
	} else if root != "" && !filepath.IsAbs(check) {
		check = filepath.Join(root, check)
	}
	// Resolution makes missing directories; a repository must exist.
	if fi, err := os.Stat(check); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("%w: %s does not exist", ErrInvalidRepo, cfg.Repo)
	}
	repo, err = resolveOwnedWorkDir(root, cfg.Owner, cfg.Repo)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrInvalidRepo, err)
	}
	top, err := gitLine(ctx, repo, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", fmt.Errorf("%w: %s is not a git repository", ErrInvalidRepo, cfg.Repo)
	}
	if real, err := filepath.EvalSymlinks(top); err != nil || real != repo {
		return "", fmt.Errorf("%w: %s is not the top of a git work tree (that is %s)", ErrInvalidRepo, cfg.Repo, top)
	}
	// Its .git may be a file or a link that leads to another owner's
	// repository: where the objects and branches live must be the
	// owner's too.
	cd, err := commonDir(ctx, repo)
	if err != nil {
		return "", fmt.Errorf("%w: %s: %w", ErrInvalidRepo, cfg.Repo, err)
	}
	if root != "" {
		if !strings.HasPrefix(cd+string(filepath.Separator), ownTree(root, cfg.Owner)) {
			return "", fmt.Errorf("%w: the git directory of %s lies outside the owner's tree", ErrInvalidRepo, cfg.Repo)
		}
	}
	if cfg.Branch == "" {
		cfg.Branch = defaultBranch(id)
	}
	if _, err := git(ctx, repo, false, "check-ref-format", "--branch", cfg.Branch); err != nil {
		return "", fmt.Errorf("%w: %q is not a valid branch name", ErrInvalidConfig, cfg.Branch)
	}
	if cfg.WorkDir == "" {
		cfg.WorkDir = filepath.Join(repo+".worktrees", filepath.Base(cfg.Branch))
	}
	return repo, nil
}

// ownTree is the owner's tree with symlinks resolved, ending in a
// separator (or the root's, without an owner).
func ownTree(root, owner string) string {
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return root + string(filepath.Separator)
	}
	if owner != "" {
		real = filepath.Join(real, OwnerDir(owner))
	}
	return real + string(filepath.Separator)
}

// makeWorktree adds the session's worktree at wd on a new branch from
// the repository's HEAD.
func (e *Engine) makeWorktree(ctx context.Context, repo, wd string, cfg *SessionConfig) (*Baseline, error) {
	cd, err := commonDir(ctx, repo)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidRepo, err)
	}
	if rel, err := filepath.Rel(repo, wd); err == nil && isInside(rel) {
		// Inside the repository's own checkout it would be one of its
		// untracked files, and its agent would work in the other's tree.
		if wd != repo {
			_ = os.Remove(wd) // made empty by the work directory's resolution
		}
		return nil, fmt.Errorf("%w: the worktree %s would lie inside the repository %s", ErrInvalidWorkDir, wd, repo)
	}
	defer e.trees.lock(cd)()
	head, err := gitLine(ctx, repo, "rev-parse", "--verify", "-q", "HEAD^{commit}")
	if err != nil || head == "" {
		return nil, fmt.Errorf("%w: %s has no commit to start a worktree from", ErrInvalidRepo, repo)
	}
	base, _ := gitLine(ctx, repo, "symbolic-ref", "-q", "--short", "HEAD")
	if _, err := git(ctx, repo, false, "show-ref", "--verify", "-q", "refs/heads/"+cfg.Branch); err == nil {
		return nil, fmt.Errorf("%w: %s in %s (delete it, or choose another session ID)", ErrBranchExists, cfg.Branch, repo)
	}
	if _, err := git(ctx, repo, true, "worktree", "add", "-q", "-b", cfg.Branch, wd, head); err != nil {
		_ = os.Remove(wd) // made empty by the work directory's resolution
		return nil, fmt.Errorf("%w: %w", ErrInvalidWorkDir, err)
	}
	return &Baseline{Commit: head, Worktree: &Worktree{Repo: repo, Path: wd, Branch: cfg.Branch, BaseBranch: base}}, nil
}

// baselineOf records what a session without a worktree is measured
// against: a repository's HEAD, or the files of a plain directory.
func baselineOf(ctx context.Context, wd string) *Baseline {
	if _, err := os.Stat(filepath.Join(wd, ".git")); err == nil {
		head, err := gitLine(ctx, wd, "rev-parse", "--verify", "-q", "HEAD^{commit}")
		if err != nil || head == "" {
			head = emptyTree
		}
		return &Baseline{Commit: head}
	}
	return &Baseline{listing: listDir(wd)}
}

// prepareBaseline gives a new session its worktree (when asked) or its
// baseline; a restored session keeps the one it was created with. It
// runs after planWorktree and the work directory's resolution.
func (e *Engine) prepareBaseline(ctx context.Context, cfg *SessionConfig, repo string) error {
	switch {
	case cfg.Baseline != nil && cfg.Baseline.Worktree != nil:
		if cfg.Baseline.Worktree.Path != cfg.WorkDir {
			return fmt.Errorf("%w: the session's worktree is %s, not %s", ErrInvalidWorkDir, cfg.Baseline.Worktree.Path, cfg.WorkDir)
		}
		return e.repairWorktree(ctx, cfg.Baseline.Worktree)
	case cfg.Baseline != nil && cfg.Baseline.Commit != "":
	case cfg.Worktree:
		b, err := e.makeWorktree(ctx, repo, cfg.WorkDir, cfg)
		if err != nil {
			return err
		}
		cfg.Baseline = b
	default:
		cfg.Baseline = baselineOf(ctx, cfg.WorkDir)
	}
	return nil
}

// repairWorktree checks out a restored session's branch again where its
// worktree was, when the worktree went missing while the daemon was down
// (its directory removed by hand): the session's commits are on the
// branch, and its agent must not work in an empty directory instead.
func (e *Engine) repairWorktree(ctx context.Context, wt *Worktree) error {
	if _, err := os.Stat(filepath.Join(wt.Path, ".git")); err == nil {
		return nil
	}
	cd, err := commonDir(ctx, wt.Repo)
	if err != nil {
		return fmt.Errorf("%w: the worktree %s is gone, and so is its repository: %w", ErrInvalidWorkDir, wt.Path, err)
	}
	defer e.trees.lock(cd)()
	if _, err := git(ctx, wt.Repo, true, "worktree", "prune"); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidWorkDir, err)
	}
	if _, err := git(ctx, wt.Repo, true, "worktree", "add", "-q", wt.Path, wt.Branch); err != nil {
		return fmt.Errorf("%w: the worktree %s is gone and cannot be made again: %w", ErrInvalidWorkDir, wt.Path, err)
	}
	return nil
}

// removeWorktree removes a deleted session's worktree (its uncommitted
// changes go with it; its commits stay on its branch) and, when asked,
// its branch.
func (e *Engine) removeWorktree(ctx context.Context, wt *Worktree, deleteBranch bool) error {
	cd, err := commonDir(ctx, wt.Repo)
	if err != nil {
		return fmt.Errorf("remove worktree %s: %w", wt.Path, err)
	}
	defer e.trees.lock(cd)()
	var errs []error
	if _, err := git(ctx, wt.Repo, true, "worktree", "remove", "--force", "--force", wt.Path); err != nil {
		// Gone already (removed by hand): forget it.
		if _, perr := git(ctx, wt.Repo, true, "worktree", "prune"); perr != nil {
			errs = append(errs, err, perr)
		}
		if _, serr := os.Stat(wt.Path); serr == nil {
			errs = append(errs, err)
		}
	}
	if deleteBranch {
		if _, err := git(ctx, wt.Repo, true, "branch", "-D", "--", wt.Branch); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// DeleteOptions say what deleting a session destroys beyond the session.
type DeleteOptions struct {
	// DeleteBranch deletes a worktree session's branch with its worktree
	// (by default the branch, and the commits on it, stay).
	DeleteBranch bool
}

// DeleteSessionWith deletes a session as DeleteSession does, and removes
// its worktree, if it has one, as opts say.
func (e *Engine) DeleteSessionWith(ctx context.Context, id string, opts DeleteOptions) error {
	var wt *Worktree
	if s, ok := e.pool.GetSession(id); ok && s.Config.Baseline != nil {
		wt = s.Config.Baseline.Worktree
	}
	err := e.pool.DeleteSession(ctx, id)
	if wt != nil && !errors.Is(err, ErrSessionNotFound) {
		if werr := e.removeWorktree(context.WithoutCancel(ctx), wt, opts.DeleteBranch); werr != nil {
			err = errors.Join(err, fmt.Errorf("delete session %s: %w", id, werr))
		}
	}
	return err
}

// MergeOptions shape a merge.
type MergeOptions struct {
	// CommitMessage, when set, commits whatever the worktree holds that is
	// not committed yet (untracked files included) to the session's branch
	// first; without it such changes refuse the merge (ErrUncommitted).
	CommitMessage string
}

// MergeResult is a merge done.
type MergeResult struct {
	Branch     string `json:"branch"`
	BaseBranch string `json:"base_branch"`
	// From and To are the base branch's commit before and after; equal
	// when there was nothing to merge.
	From string `json:"from"`
	To   string `json:"to"`
	// Committed is the commit made of the worktree's uncommitted changes
	// (MergeOptions.CommitMessage), if any.
	Committed string `json:"committed,omitempty"`
}

// Merge fast-forwards the branch that was checked out in the repository
// when the session's worktree was made to the session's branch. It never
// forces: a base branch that moved on is ErrNotFastForward, uncommitted
// changes in the way of the fast-forward are ErrMergeConflict (both as a
// *MergeError naming the files), and nothing is changed. A session
// running a turn is ErrSessionBusy.
func (e *Engine) Merge(ctx context.Context, id string, opts MergeOptions) (*MergeResult, error) {
	e.pool.mu.Lock()
	s, ok := e.pool.sessions[id]
	e.pool.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrSessionNotFound, id)
	}
	s.mu.Lock()
	b := s.cfg.Baseline
	s.mu.Unlock()
	if b == nil || b.Worktree == nil {
		return nil, fmt.Errorf("%w: %s", ErrNoWorktree, id)
	}
	wt := b.Worktree
	if wt.BaseBranch == "" {
		return nil, fmt.Errorf("%w: the repository's HEAD was detached when the worktree was made, so there is no branch to fast-forward", ErrNotFastForward)
	}
	// The turn slot keeps a turn from starting (and writing) mid-merge.
	select {
	case s.turn <- struct{}{}:
	default:
		return nil, fmt.Errorf("%w: %s is running a turn", ErrSessionBusy, id)
	}
	defer e.pool.release(s)
	cd, err := commonDir(ctx, wt.Repo)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidRepo, err)
	}
	defer e.trees.lock(cd)()

	res := &MergeResult{Branch: wt.Branch, BaseBranch: wt.BaseBranch}
	dirty, err := git(ctx, wt.Path, false, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames")
	if err != nil {
		return nil, err
	}
	if recs := splitNul(dirty); len(recs) > 0 {
		if opts.CommitMessage == "" {
			var files []string
			for _, r := range recs {
				if len(r) > 3 {
					files = append(files, r[3:])
				}
			}
			return nil, &MergeError{Err: ErrUncommitted, Files: files, Detail: "commit them, or ask the merge to (commit_message)"}
		}
		if res.Committed, err = commitAll(ctx, wt, opts.CommitMessage); err != nil {
			return nil, err
		}
	}
	from, err := gitLine(ctx, wt.Repo, "rev-parse", "--verify", "-q", "refs/heads/"+wt.BaseBranch)
	if err != nil {
		return nil, fmt.Errorf("the base branch %s: %w", wt.BaseBranch, err)
	}
	to, err := gitLine(ctx, wt.Repo, "rev-parse", "--verify", "-q", "refs/heads/"+wt.Branch)
	if err != nil {
		return nil, fmt.Errorf("the session's branch %s: %w", wt.Branch, err)
	}
	res.From, res.To = from, from
	if from == to {
		return res, nil
	}
	if _, err := git(ctx, wt.Repo, false, "merge-base", "--is-ancestor", from, to); err != nil {
		return nil, &MergeError{Err: ErrNotFastForward, Files: changedOnBoth(ctx, wt.Repo, from, to),
			Detail: wt.BaseBranch + " has commits that " + wt.Branch + " does not"}
	}
	if checkedOut := worktreeOf(ctx, wt.Repo, wt.BaseBranch); checkedOut != "" {
		// Moving a checked-out branch's ref alone would leave its work
		// tree behind, looking like the reverse of the merge: merge there.
		if _, err := git(ctx, checkedOut, true, "merge", "--ff-only", "-q", to); err != nil {
			var ge *gitError
			if errors.As(err, &ge) {
				if files := overwritten(ge.stderr); len(files) > 0 {
					return nil, &MergeError{Err: ErrMergeConflict, Files: files, Detail: "changes not committed in " + checkedOut + " would be overwritten"}
				}
			}
			return nil, err
		}
	} else if _, err := git(ctx, wt.Repo, true, "update-ref", "refs/heads/"+wt.BaseBranch, to, from); err != nil {
		return nil, err
	}
	res.To = to
	return res, nil
}

// commitAll commits everything in the worktree to its branch.
func commitAll(ctx context.Context, wt *Worktree, msg string) (string, error) {
	if _, err := git(ctx, wt.Path, true, "add", "-A"); err != nil {
		return "", err
	}
	args := []string{"commit", "-q", "--no-verify", "-m", msg}
	// HotPlex's git reads no global configuration, so the identity is the
	// repository's own or HotPlex's.
	for key, value := range map[string]string{"user.name": "HotPlex", "user.email": "hotplex@localhost"} {
		if v, _ := gitLine(ctx, wt.Path, "config", key); v == "" {
			args = append([]string{"-c", key + "=" + value}, args...)
		}
	}
	if _, err := git(ctx, wt.Path, true, args...); err != nil {
		return "", err
	}
	return gitLine(ctx, wt.Path, "rev-parse", "HEAD")
}

// changedOnBoth lists the files both branches changed since they parted.
func changedOnBoth(ctx context.Context, repo, a, b string) []string {
	base, err := gitLine(ctx, repo, "merge-base", a, b)
	if err != nil {
		return nil
	}
	names := func(tip string) []string {
		out, _ := git(ctx, repo, false, "diff", "--name-only", "-z", "--no-renames", base, tip, "--")
		return splitNul(out)
	}
	theirs := names(a)
	var both []string
	for _, f := range names(b) {
		if slices.Contains(theirs, f) {
			both = append(both, f)
		}
	}
	return both
}

// worktreeOf returns the work tree that has branch checked out, if any.
func worktreeOf(ctx context.Context, repo, branch string) string {
	out, err := git(ctx, repo, false, "worktree", "list", "--porcelain", "-z")
	if err != nil {
		return ""
	}
	var path string
	for _, rec := range splitNul(out) {
		switch {
		case strings.HasPrefix(rec, "worktree "):
			path = strings.TrimPrefix(rec, "worktree ")
		case rec == "branch refs/heads/"+branch:
			return path
		}
	}
	return ""
}

// overwritten reads the files git names when a merge would overwrite
// local changes ("error: Your local changes to the following files would
// be overwritten by merge:" or "...untracked working tree files would be
// ...", then one tab-indented file a line).
func overwritten(stderr string) []string {
	var files []string
	listing := false
	for _, line := range strings.Split(stderr, "\n") {
		switch {
		case strings.Contains(line, "would be overwritten"):
			listing = true
		case listing && strings.HasPrefix(line, "\t"):
			files = append(files, strings.TrimSpace(line))
		default:
			listing = false
		}
	}
	return files
}
