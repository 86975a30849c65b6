package guard

import "testing"

// A force-push to a computed branch may reach any branch.
func TestForcePushToComputedBranch(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`git push --force origin $(git branch --show-current)`, CategoryGitDestroy, "git-force-push", LevelModerate},
	})
	checkDanger(t, d, Context{WorkDir: "/work/project", Home: "/home/dev", Shell: "fish"}, []dangerCase{
		{`git push --force origin (git branch --show-current)`, CategoryGitDestroy, "git-force-push", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		`git push origin $(git branch --show-current)`,
		`git push --force-with-lease origin $(git branch --show-current)`,
	})
}

// Untracking every file and committing deletes them from the repository;
// refreshing the index after a .gitignore change does not.
func TestUntrackEverythingAndCommit(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`git rm -rf --cached . -q && git commit -qm wipe`, CategoryGitDestroy, "git-untrack-all", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		`git rm -r --cached . && git add . && git commit -m 'apply .gitignore'`,
		`git rm -r --cached node_modules && git commit -m 'untrack node_modules'`,
		`git rm -r --cached .`,
	})
}

// Throw-away repositories and regenerated things: a clone in a temporary
// directory, a CI cache, a git clean limited to a test output directory.
func TestScratchClonesCachesAndOutputDirectories(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`git -C ~/src/app reset --hard origin/main`, CategoryGitDestroy, "git-discard-work", LevelModerate},
		{`git clean -f -- docs/`, CategoryGitDestroy, "git-discard-work", LevelModerate},
		{`gh release delete v2.0.0 --yes`, CategoryGitDestroy, "forge-delete", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`git -C /tmp/bisect-17 reset --hard v1.2.0`,
		`git -C "$TMPDIR/mirror" clean -fdx`,
		`gh cache delete linux-go-cache-abc`,
		`git clean -f -- build/test-results/`,
		`git clean -fd -- output/`,
	})
}

// A release tag force-pushed over the published one, and remote refs
// deleted by empty-source refspecs fed from a listing.
func TestReleaseTagsMovedAndRefsDeletedFromLists(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`git push --force origin v2.3.0`, CategoryGitDestroy, "git-force-push-protected", LevelHigh},
		{`git push -f origin refs/tags/release-7`, CategoryGitDestroy, "git-force-push-protected", LevelHigh},
		{`git branch -r | sed 's/origin\///' | xargs -I% git push origin :%`, CategoryGitDestroy, "remote-ref-delete-input", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`git push origin v2.3.0`,
		`git push --force-with-lease origin feature/login`,
		`git push origin :old-experiment`,
	})
}

// A stash dropped once it was applied successfully: the changes are back
// in the tree. Dropped whatever the apply did, or another stash, it is
// lost work.
func TestStashDroppedAfterItsApply(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`git stash apply; git stash drop`, CategoryGitDestroy, "git-discard-work", LevelModerate},
		{`git stash apply || git stash drop`, CategoryGitDestroy, "git-discard-work", LevelModerate},
		{`git stash drop`, CategoryGitDestroy, "git-discard-work", LevelModerate},
		{`git stash drop stash@{0}; git stash drop stash@{0}`, CategoryGitDestroy, "git-discard-work", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		`git stash apply && git stash drop`,
		`git stash apply stash@{1} && git stash drop stash@{1}`,
	})
}

// A rebase whose sequence editor is scripted to drop the commits it
// lists.
func TestRebasesScriptedToDropCommits(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`GIT_SEQUENCE_EDITOR="sed -i -e 's/^pick/drop/'" git rebase -i HEAD~5`, CategoryGitDestroy, "git-discard-work", LevelModerate},
		{`git -c sequence.editor="sed -i '2,\$d'" rebase -i main`, CategoryGitDestroy, "git-discard-work", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		`GIT_SEQUENCE_EDITOR="sed -i -e 's/^pick/squash/2'" git rebase -i HEAD~3`,
		`git rebase -i --autosquash main`,
	})
}

// One named workflow run is its logs; runs chosen by a list are the
// repository's CI history.
func TestForgeRunDeletes(t *testing.T) {
	d := NewDetector(Options{})
	checkSafe(t, d, corpusContext, []string{`gh run delete 1234567890`})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`gh run list --json databaseId -q '.[].databaseId' | xargs -n1 gh run delete`, CategoryGitDestroy, "forge-delete", LevelHigh},
		{`gh release delete v1.2.0 --yes`, CategoryGitDestroy, "forge-delete", LevelHigh},
	})
}

// jj abandoning a range of changes, restoring or abandoning operations,
// or told to rewrite immutable commits; one change, the log, or undo of
// one operation is routine. git stash drop naming its stash loses that
// stash as surely as the top one; applied first, it loses nothing.
func TestJujutsuRangesOperationsAndNamedStashes(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`jj abandon 'main..@'`, CategoryGitDestroy, "jj-discard-history", LevelModerate},
		{`jj op abandon ..@-`, CategoryGitDestroy, "jj-discard-history", LevelModerate},
		{`jj rebase -s 'root()+' -d @ --ignore-immutable`, CategoryGitDestroy, "jj-discard-history", LevelModerate},
		{`git stash drop`, CategoryGitDestroy, "git-discard-work", LevelModerate},
		{`git stash drop stash@{0}; git stash drop stash@{0}`, CategoryGitDestroy, "git-discard-work", LevelModerate},
		{`git stash drop stash@{3}`, CategoryGitDestroy, "git-discard-work", LevelModerate},
		{`git stash drop 1`, CategoryGitDestroy, "git-discard-work", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		`jj abandon qpvuntsm`,
		`jj op log`,
		`jj undo`,
		`jj git push --bookmark feature-x`,
		`git stash apply stash@{3} && git stash drop stash@{3}`,
	})
}

// The environments' branches, the published site's and every branch at
// once are shared; a feature branch is its author's.
func TestSharedEnvironmentBranches(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, testCtx, []dangerCase{
		{`git push --delete origin staging`, CategoryGitDestroy, "git-delete-protected-branch", LevelHigh},
		{`git push origin :gh-pages`, CategoryGitDestroy, "git-delete-protected-branch", LevelHigh},
		{`git push -f origin 'refs/heads/*:refs/heads/*'`, CategoryGitDestroy, "git-force-push-protected", LevelHigh},
	})
	checkSafe(t, d, testCtx, []string{
		`git push origin --delete feature/login-copy`,
		`git push --force-with-lease origin hotfix/INC-4821`,
		`git push --dry-run origin --delete staging`,
	})
}

// git clean -x with a pattern kept (-e) still deletes every other
// ignored file; a pathspec of build output limits it.
func TestGitCleanKeepingAPattern(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, testCtx, []dangerCase{
		{`git clean -dfx -e node_modules`, CategoryGitDestroy, "git-clean-ignored", LevelModerate},
		{`git clean -fdx --exclude=.venv`, CategoryGitDestroy, "git-clean-ignored", LevelModerate},
	})
	checkSafe(t, d, testCtx, []string{
		`git clean -fdx -- node_modules`,
		`git clean -ndx -e node_modules`,
	})
}
