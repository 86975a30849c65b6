package guard

import (
	"regexp"
	"slices"
	"strings"
)

// Rules for destroying repository history, remote refs and uncommitted work (category git_destroy).
var gitDestroyRules = []*rule{
	{ID: "jj-discard-history", Level: LevelModerate, Category: CategoryGitDestroy, Description: "jj abandoning a whole range of changes, restoring or abandoning operations, or rewriting immutable (published) commits",
		Suggestions: []string{"Abandon the single change you mean (jj abandon CHANGE)", "Look at jj op log first; jj undo reverts one operation"},
		names:       names("jj"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if hasWord(args, "--ignore-immutable") {
				return true, "--ignore-immutable"
			}
			ops := c.operands()
			switch {
			case len(ops) > 1 && ops[0].s == "abandon":
				for _, w := range ops[1:] {
					if broadRevset(w.s) {
						return true, "jj abandon " + w.s
					}
				}
			case len(ops) > 1 && ops[0].s == "op" && (ops[1].s == "restore" || ops[1].s == "abandon"):
				return true, "jj op " + ops[1].s
			case len(ops) == 1 && ops[0].s == "restore" && !hasWord(args, "--help") && !hasWord(args, "-h"):
				// no paths: every change in the working copy undone
				return true, "jj restore"
			case len(ops) > 1 && ops[0].s == "restore":
				// jj restore --from @- src/: a whole folder's changes undone
				paths := posArgs(args, optSpec{short: "c", long: []string{"from", "to", "into", "changes-in", "f", "t"}})
				if p := folderPath(paths[1:]); p != "" {
					return true, "jj restore " + p
				}
			}
			return false, ""
		}},
	{ID: "jj-shared-bookmark-pushed", Level: LevelHigh, Category: CategoryGitDestroy, Description: "jj pushing a shared bookmark (main, a release) deleted or moved backwards",
		Suggestions: []string{"Push your own bookmark and open a pull request", "Revert the commit instead of moving the shared bookmark back"},
		names:       names("jj"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) < 2 || ops[0].s != "git" || ops[1].s != "push" {
				return false, ""
			}
			// what the line did to bookmarks before the push: deleted
			// or moved back a shared one
			for _, m := range jjBookmarkChange.FindAllStringSubmatch(a.src, 4) {
				if !isProtectedBranch(m[2]) {
					continue
				}
				if m[1] == "delete" || m[1] == "forget" || m[1] == "d" {
					if hasWord(c.args(), "--deleted") || hasWord(c.args(), "--all") || pushesBookmark(c.args(), m[2]) {
						return true, "jj bookmark " + m[1] + " " + m[2] + " pushed"
					}
				} else if strings.Contains(a.src, "--allow-backwards") && (pushesBookmark(c.args(), m[2]) || hasWord(c.args(), "--all")) {
					return true, "jj bookmark " + m[2] + " moved back and pushed"
				}
			}
			return false, ""
		}},
	{ID: "git-untrack-all", Level: LevelModerate, Category: CategoryGitDestroy, Description: "removing every file from the index and committing it (the files are deleted from the repository)",
		Suggestions: []string{"Untrack only the paths .gitignore now covers", "Add the files back (git add .) before committing"}, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			if sub != "rm" || !hasWord(args, "--cached") {
				return false, ""
			}
			o := c.opts()
			if !o.has("r") {
				return false, ""
			}
			for _, w := range positional(args) {
				switch w.s {
				case ".", "*", ":/", "./", ":/*":
					// git rm -r --cached . && git add .: refreshing the
					// index after a .gitignore change, nothing is lost;
					// alone it only stages, and the user sees it first
					if strings.Contains(a.src, "git add") || !strings.Contains(a.src, "commit") {
						return false, ""
					}
					return true, "git rm --cached " + w.s
				}
			}
			return false, ""
		}},
	{ID: "git-discard-stashes", Level: LevelModerate, Category: CategoryGitDestroy, Description: "dropping every stash or deleting refs directly",
		Suggestions: []string{"Drop a single stash (git stash drop stash@{N})", "Use git branch -d for merged branches"}, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			switch sub {
			case "stash":
				return len(args) > 0 && args[0].s == "clear", "stash clear"
			case "update-ref":
				// a remote-tracking ref is the next fetch's to make again
				if hasWord(args, "-d") {
					return !slices.ContainsFunc(positional(args), func(w word) bool { return strings.HasPrefix(w.s, "refs/remotes/") }), "update-ref -d"
				}
				// git update-ref refs/heads/develop origin/develop, ...
				// HEAD~10, ... $(git commit-tree ...): a branch moved
				// elsewhere, its own commits left behind (a backup ref,
				// or one set to HEAD, keeps what there is)
				if ops := positional(args); len(ops) >= 2 && strings.HasPrefix(ops[0].s, "refs/heads/") && ops[1].s != "HEAD" && !hasAny(lower(ops[0].s), "backup", "/wip", "save", "archive", "snapshot") {
					return true, "update-ref " + ops[0].s + " " + ops[1].s
				}
				return false, ""
			case "reflog":
				// git reflog delete refs/stash@{1}: a stash dropped by its
				// reflog entry
				if len(args) > 0 && args[0].s == "delete" {
					for _, w := range positional(args[1:]) {
						if strings.Contains(w.s, "stash@{") {
							return true, "reflog delete " + w.s
						}
					}
				}
			case "branch":
				if hasWord(args, "-D") || hasWord(args, "--delete") && hasWord(args, "--force") {
					for _, w := range positional(args) {
						if !w.ok {
							return true, "branches from a command"
						}
					}
				}
			}
			return false, ""
		}},
	{ID: "git-push-prune", Level: LevelModerate, Category: CategoryGitDestroy, Description: "pushing with --prune deletes every remote branch missing locally",
		Suggestions: []string{"Delete specific remote branches with git push origin --delete NAME"}, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			return sub == "push" && hasWord(args, "--prune"), ""
		}},
	{ID: "git-delete-remote-tag", Level: LevelModerate, Category: CategoryGitDestroy, Description: "deleting a release tag on the remote",
		Suggestions: []string{"Create a new tag instead of moving or deleting a published one"}, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			if sub != "push" {
				return false, ""
			}
			for _, w := range args {
				// git push origin $(git for-each-ref --format=':%(refname)'
				// refs/tags): every tag, each spelled as a deletion
				if !w.ok && strings.Contains(w.s, "$(") && (strings.Contains(a.src, "for-each-ref") || strings.Contains(a.src, "git tag")) &&
					(strings.Contains(a.src, "':%(") || strings.Contains(a.src, "\":%(") || strings.Contains(a.src, "=:%(") || strings.Contains(a.src, "s/^/:")) {
					return true, "every tag deleted"
				}
			}
			p := parseGitPush(args)
			for _, r := range p.refs {
				// (:v1.0.0, the empty source pushed over a version's tag)
				name := strings.TrimPrefix(r, ":")
				version := strings.HasPrefix(name, "v") && len(name) > 1 && name[1] >= '0' && name[1] <= '9'
				if strings.HasPrefix(r, ":refs/tags/") || strings.HasPrefix(r, ":") && version && !prerelease(name) ||
					p.delete && (strings.HasPrefix(r, "refs/tags/") || strings.HasPrefix(r, "v") && strings.ContainsAny(r, "0123456789")) {
					return true, r
				}
			}
			return false, ""
		}},
	{ID: "rm-local-history", Level: LevelModerate, Category: CategoryGitDestroy, Description: "deleting the editor's local history or shelved changes (.history, .idea/shelf): edits kept nowhere else",
		Suggestions: []string{"Keep the local history; delete the editor's caches instead (.idea/caches)", "Look at what the shelf holds first"},
		names:       deleteRuleNames,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, t := range a.deletions(c) {
				if p := a.absPath(t.w.s, c.cwd); p != "" && a.inWork(p) && p != a.workDir && localHistoryDir(p[len(a.workDir)+1:]) {
					return true, t.w.s
				}
			}
			return false, ""
		}},
	delRule("rm-git-dir", LevelHigh, CategoryGitDestroy, "deletion of a git repository's history (.git)",
		[]string{"Keep .git; use git clean or git reset to tidy the work tree", "Back the repository up (git bundle) first"}, recOnly, pcGitDir),
	{ID: "git-force-push-protected", Level: LevelHigh, Category: CategoryGitDestroy, Description: "force-pushing over a shared branch (rewrites its history)",
		Suggestions: suggGit, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			if sub != "push" {
				return false, ""
			}
			p := parseGitPush(args)
			if !p.force {
				return false, ""
			}
			if p.all {
				return true, "--all"
			}
			if p.tags {
				return true, "--tags"
			}
			if len(p.refs) == 0 {
				// git switch main && git rebase -i ... && git push -f:
				// the branch checked out earlier on the line is pushed
				if b := branchSwitchedBefore(a.src, c.opText()); b != "" && isProtectedBranch(b) {
					return true, b
				}
			}
			for _, r := range p.refs {
				if isProtectedBranch(r) {
					return true, r
				}
				// a published release moved under its users
				if releaseTagRef(r) {
					return true, r
				}
			}
			return false, ""
		}},
	{ID: "git-push-mirror", Level: LevelHigh, Category: CategoryGitDestroy, Description: "mirror-pushing (overwrites and deletes every remote ref)",
		Suggestions: suggGit, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			if sub != "push" || !parseGitPush(args).mirror {
				return false, ""
			}
			// git push --mirror /tmp/backup.git: a copy of every ref into
			// a repository on this machine (a backup), not a remote's
			for _, w := range positional(args) {
				if !strings.ContainsAny(w.s, "/~") || strings.Contains(w.s, "://") || strings.Contains(w.s, "@") {
					continue // a remote's name or URL
				}
				if p := a.absPath(w.s, c.cwd); p != "" && (underTemp(p) && !isTempRoot(p) || a.madeHere(w.s, c.cwd)) {
					return false, ""
				}
			}
			return true, ""
		}},
	{ID: "git-delete-protected-branch", Level: LevelHigh, Category: CategoryGitDestroy, Description: "deleting a shared branch on the remote",
		Suggestions: suggGit, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			if sub != "push" {
				return false, ""
			}
			p := parseGitPush(args)
			for _, r := range p.refs {
				if (p.delete || strings.HasPrefix(r, ":")) && (isProtectedBranch(strings.TrimPrefix(r, ":")) || hotfixBranch(strings.TrimPrefix(r, ":"))) {
					return true, r
				}
				// a branch named by a variable or a listing may be any of
				// them, the shared ones included
				if (p.delete || strings.HasPrefix(r, ":")) && strings.ContainsAny(r, "$`") {
					return true, "a computed branch " + r
				}
			}
			return false, ""
		}},
	{ID: "git-force-push", Level: LevelModerate, Category: CategoryGitDestroy, Description: "force-pushing the current branch (it may be shared)",
		Suggestions: suggGit, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			if sub != "push" {
				return false, ""
			}
			p := parseGitPush(args)
			if !p.force || p.leaseOnly || p.all || p.mirror || p.tags {
				return false, ""
			}
			if len(p.refs) == 0 {
				return true, "current branch"
			}
			for _, r := range p.refs {
				if r == "HEAD" || r == "+HEAD" || r == "@" {
					return true, r
				}
				// $(git branch --show-current), fish's (...): the branch
				// is computed, the current one or any other
				if strings.ContainsAny(r, "$`…") {
					return true, "a computed branch " + r
				}
			}
			return false, ""
		}},
	{ID: "git-history-rewrite", Level: LevelHigh, Category: CategoryGitDestroy, Description: "rewriting the whole repository history",
		Suggestions: []string{"Back the repository up first (git clone --mirror)", "Rewrite only a local branch with git rebase -i"}, names: names("git", "bfg", "git-filter-repo"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name == "bfg" || c.name == "git-filter-repo" {
				return true, c.name
			}
			sub, args := gitSub(c)
			if sub == "filter-repo" {
				// --refs refs/heads/spike/x: one topic branch rewritten,
				// the shared ones left as they are
				if v, ok := optValue(args, "", "refs"); ok && !strings.HasPrefix(v, "-") {
					b := strings.TrimPrefix(v, "refs/heads/")
					if b != v && !isProtectedBranch(b) && !strings.ContainsAny(b, "*") {
						return false, ""
					}
				}
			}
			return sub == "filter-branch" || sub == "filter-repo", sub
		}},
	{ID: "git-reflog-expire", Level: LevelHigh, Category: CategoryGitDestroy, Description: "expiring the reflog (destroys the way to recover lost commits)",
		Suggestions: []string{"Leave the reflog alone; git gc expires it safely over time", "Back the repository up first"}, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			if sub != "reflog" || len(args) == 0 || args[0].s != "expire" {
				return false, ""
			}
			for _, w := range args {
				if w.s == "--expire=now" || w.s == "--expire=all" || w.s == "--expire=0" || w.s == "--expire-unreachable=now" || w.s == "--expire-unreachable=all" {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "git-prune-now", Level: LevelModerate, Category: CategoryGitDestroy, Description: "pruning unreachable objects at once (lost commits can no longer be recovered)",
		Suggestions: []string{"Let git gc prune with its default grace period", "Back the repository up first"}, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			if sub != "prune" && sub != "gc" {
				return false, ""
			}
			for _, w := range args {
				switch w.s {
				case "--expire=now", "--expire=all", "--expire=0", "--prune=now", "--prune=all":
					return true, "git " + sub + " " + w.s
				}
			}
			// git -c gc.pruneExpire=now -c gc.reflogExpire=0 gc: the
			// same through configuration given for this run
			for i, w := range c.words {
				if w.s != "-c" || i+1 >= len(c.words) || sub != "gc" {
					continue
				}
				k, v, _ := strings.Cut(lower(c.words[i+1].s), "=")
				if (k == "gc.pruneexpire" || k == "gc.reflogexpire" || k == "gc.reflogexpireunreachable") && (v == "now" || v == "0" || v == "all") {
					return true, "git -c " + c.words[i+1].s + " gc"
				}
			}
			return false, ""
		}},
	{ID: "git-clean-ignored", Level: LevelModerate, Category: CategoryGitDestroy, Description: "git clean deleting untracked and ignored files (.env, local data)",
		Suggestions: []string{"Preview with git clean -n first", "Drop -x to keep ignored files such as .env"}, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			if sub != "clean" {
				return false, ""
			}
			force, wide, dry := false, false, false
			for _, w := range args {
				s := w.s
				if s == "--force" {
					force = true
				}
				if s == "--dry-run" {
					dry = true
				}
				if len(s) > 1 && s[0] == '-' && s[1] != '-' {
					force = force || strings.Contains(s, "f")
					wide = wide || strings.ContainsAny(s, "xX")
					dry = dry || strings.Contains(s, "n")
				}
			}
			// (-e node_modules keeps a pattern; it is not a pathspec)
			return force && wide && !dry && !generatedOnly(withoutOptValues(args, "-e", "--exclude")), ""
		}},
	{ID: "git-delete-main-branch", Level: LevelModerate, Category: CategoryGitDestroy, Description: "force-deleting a main branch",
		Suggestions: suggGit, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			if sub != "branch" || !(hasWord(args, "-D") || hasWord(args, "--delete") && hasWord(args, "--force")) {
				return false, ""
			}
			for _, w := range positional(args) {
				if protectedBranches[w.s] {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "gh-repo-delete", Level: LevelCritical, Category: CategoryGitDestroy, Description: "deleting a hosted repository",
		Suggestions: []string{"Archive the repository instead (gh repo archive)", "Delete repositories by hand in the web UI"}, names: names("gh", "glab"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if len(args) > 1 && args[0].s == "repo" && args[1].s == "delete" {
				return true, ""
			}
			if len(args) > 0 && args[0].s == "api" {
				if v, ok := optValue(args, "-X", "method"); ok && strings.EqualFold(v, "DELETE") {
					for _, w := range args {
						if strings.Contains(w.s, "repos/") && strings.Count(strings.Trim(w.s, "/"), "/") <= 2 {
							return true, w.s
						}
					}
				}
			}
			return false, ""
		}},
	{ID: "forge-delete", Level: LevelHigh, Category: CategoryGitDestroy, Description: "deleting releases, issues, runs, branches or settings on the code forge",
		Suggestions: []string{"Edit or close instead of deleting", "Let a maintainer delete it in the web interface"}, names: names("gh", "glab", "tea", "hub"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if len(args) < 2 {
				return false, ""
			}
			switch args[1].s {
			case "delete", "delete-asset", "rm", "remove":
				if (args[0].s == "run" || args[0].s == "ci") && len(args) == 3 && args[2].ok && strings.Trim(args[2].s, "0123456789") == "" {
					return false, "" // one named run: its logs, like a cache entry
				}
				if args[0].s == "release" && len(args) > 2 && (prerelease(args[2].s) || pullRequestName(lower(args[2].s)) || args[2].flow != nil && args[2].flow.scratch) {
					return false, "" // a release candidate or nightly, superseded
				}
				switch args[0].s {
				// a CI cache (gh cache delete) is made again by the next run
				case "release", "issue", "run", "variable", "secret", "label", "ruleset", "deploy-key", "gist", "project", "environment", "repo", "ssh-key", "gpg-key", "mr", "pr", "snippet",
					"ci", "schedule", "deploy-token", "token": // glab ci delete: a pipeline and its logs
					if args[0].s == "ci" && c.name != "glab" {
						return false, ""
					}
					return true, args[0].s + " " + args[1].s
				case "codespace", "cs":
					// gh codespace delete --all, --force: codespaces with
					// their unpushed work, without the question gh asks
					// when one has changes
					if hasWord(args, "--all") || hasWord(args, "--force") || hasWord(args, "-f") {
						return true, "codespace delete " + strings.Join(wordStrings(args[2:]), " ")
					}
				}
			}
			// gh release edit v2.4.0 --draft: a published release taken
			// back, its downloads gone for every user
			if args[0].s == "release" && args[1].s == "edit" && (hasWord(args, "--draft") || hasWord(args, "--draft=true")) && len(args) > 2 && !prerelease(args[2].s) {
				return true, "release edit --draft"
			}
			// gh repo deploy-key delete ID: a repository's own settings
			if len(args) > 2 && args[0].s == "repo" && (args[2].s == "delete" || args[2].s == "remove" || args[2].s == "rm") {
				switch args[1].s {
				case "deploy-key", "autolink", "ruleset", "variable", "secret":
					return true, "repo " + args[1].s + " " + args[2].s
				}
			}
			return false, ""
		}},
	{ID: "forge-guard-bypass", Level: LevelModerate, Category: CategoryGitDestroy, Description: "merging past branch protection, or turning off the repository's workflows",
		Suggestions: []string{"Merge once the checks and reviews pass", "Let a maintainer change workflows"}, names: names("gh", "glab"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if len(args) < 2 {
				return false, ""
			}
			switch {
			case args[0].s == "pr" && args[1].s == "merge" && hasWord(args, "--admin"):
				return true, "pr merge --admin"
			case args[0].s == "workflow" && args[1].s == "disable":
				return true, "workflow disable"
			case args[0].s == "repo" && args[1].s == "archive":
				return true, "repo archive"
			}
			return false, ""
		}},
	{ID: "forge-api-guard-change", Level: LevelHigh, Category: CategoryGitDestroy, Description: "changing a repository's protection, keys, hooks or access through the forge API",
		Suggestions: []string{"Change protection and access in the web settings, reviewed by a maintainer", "Use a read-only call (GET) to inspect them"},
		names:       names("gh", "glab", "curl", "wget", "http", "https", "xh", "az"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if c.name == "az" {
				// az repos policy ... update --enabled false: a branch
				// policy of Azure Repos switched off or emptied
				ops := c.operands()
				if len(ops) > 2 && ops[0].s == "repos" && ops[1].s == "policy" && (hasWord(args, "update") || hasWord(args, "create")) {
					if w := azPolicyOff.FindString(joinWords(args)); w != "" {
						return true, "az repos policy " + w
					}
				}
				return false, ""
			}
			m := httpMethod(c)
			if m == "" && (c.name == "gh" || c.name == "glab") && len(args) > 0 && args[0].s == "api" {
				// fields or an input body make the call a POST
				for _, w := range args {
					switch w.s {
					case "-f", "-F", "--field", "--raw-field", "--input":
						m = "POST"
					}
				}
			}
			if m == "" || m == "GET" || m == "HEAD" {
				return false, ""
			}
			for _, w := range args {
				// security_and_analysis[secret_scanning][status]=disabled:
				// the repository's scanning switched off
				if l := lower(w.s); strings.HasPrefix(l, "security_and_analysis") && strings.Contains(l, "disabled") {
					return true, m + " " + w.s
				}
			}
			// environments/production with reviewers=null or wait_timer=0:
			// its deployments no longer wait for anyone
			for _, w := range args {
				if i := strings.Index(w.s, "/environments/"); i >= 0 && (m == "PUT" || m == "PATCH" || m == "POST") {
					env := strings.Trim(w.s[i+len("/environments/"):], "/")
					j := strings.ReplaceAll(lower(joinWords(args)), " ", "")
					if (isProdName(env) || strings.Contains(lower(env), "prod")) && (strings.Contains(j, "reviewers=null") || strings.Contains(j, "reviewers=[]") || strings.Contains(j, "wait_timer=0") || strings.Contains(j, "prevent_self_review=false")) {
						return true, m + " " + w.s + ": its reviews removed"
					}
				}
			}
			// a body or fields that switch a protection off: reviews no
			// longer required, force pushes allowed, reviewers emptied
			if protectionWords(c.lowerArgs()) || c.in.kind == flowText && protectionWords([]string{lower(c.in.text)}) {
				body := joinWords(args)
				if c.in.kind == flowText {
					body += " " + c.in.text
				}
				if w := protectionWeakened(body); w != "" {
					return true, m + " " + w
				}
			}
			for _, w := range args {
				if !strings.Contains(w.s, "repos/") && !strings.Contains(w.s, "projects/") && !strings.Contains(w.s, "orgs/") {
					continue
				}
				segs := strings.Split(strings.Trim(w.s, "/"), "/")
				if i := slices.Index(segs, "repos"); i >= 0 && i+2 < len(segs) && throwawayName(segs[i+2]) {
					continue // a pull request's or a test's own repository
				}
				if strings.Contains(w.s, "/git/refs/") && (hasWord(args, "force=true") || hasWord(args, "force:=true") || jsonForce.MatchString(joinWords(args))) {
					// git/refs/heads/main with force=true: the branch moved
					// to any commit, what it held dropped
					return true, m + " " + w.s + " force=true"
				}
				for k, seg := range segs {
					if len(segs)-k > 2 {
						continue // a sub-action of the resource (hooks/1/pings)
					}
					switch seg {
					case "protection", "protected_branches", "rulesets", "keys", "deploy_keys", "hooks", "collaborators", "members", "secrets", "permissions", "invitations":
						return true, m + " " + w.s

					case "memberships":
						// orgs/acme/teams/platform-admins/memberships/x: a
						// place on an administrators' team
						if hasAny(lower(w.s), "admin", "owner", "maintainer") {
							return true, m + " " + w.s
						}
					}
				}
			}
			return false, ""
		}},
	{ID: "remote-ref-delete-input", Level: LevelHigh, Category: CategoryGitDestroy, Description: "deleting remote branches or tags taken from a list",
		Suggestions: []string{"Delete named refs one by one after review", "Keep release tags"}, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			if sub != "push" {
				return false, ""
			}
			del := hasWord(args, "--delete") || hasWord(args, "-d")
			for _, w := range args {
				// --delete $(...), or the empty-source refspec :REF fed
				// by xargs or a loop
				if !w.ok && (del || strings.HasPrefix(w.s, ":")) {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "svn-remote-delete", Level: LevelHigh, Category: CategoryGitDestroy, Description: "deleting a tag, a branch or trunk in the shared Subversion repository (committed on the server at once)",
		Suggestions: []string{"Delete in a working copy and commit after review", "Copy the tag again rather than deleting a published one"},
		names:       names("svn"),
		match: func(a *analysis, c *cmd) (bool, string) {
			// svn rm ^/tags/3.1.0, svn delete https://svn.host/repo/branches/x
			ops := posArgs(c.args(), optSpec{short: "mF", long: []string{"message", "file", "username", "password", "config-dir", "config-option"}})
			if len(ops) < 2 {
				return false, ""
			}
			switch ops[0].s {
			case "rm", "delete", "del", "remove":
			case "propset", "pset", "ps", "propdel", "pdel", "pd", "propedit", "pedit", "pe":
				// --revprop -r N svn:log (svn:author, svn:date): a past
				// revision's record rewritten on the server, unversioned
				if hasWord(c.args(), "--revprop") {
					return true, "svn " + ops[0].s + " --revprop"
				}
				return false, ""
			default:
				return false, ""
			}
			for _, w := range ops[1:] {
				if strings.HasPrefix(w.s, "^/") || strings.Contains(w.s, "://") {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "git-discard-work", Level: LevelModerate, Category: CategoryGitDestroy, Description: "discarding uncommitted changes, local commits or stashes",
		Suggestions: []string{"Stash or commit the work first (git stash push -m backup)", "Name the single file to restore", "Create a backup branch before resetting"},
		names:       names("git", "hg", "svn", "sl", "fossil"),
		match: func(a *analysis, c *cmd) (bool, string) {
			d := gitDiscards(c)
			if sub, _ := gitSub(c); sub == "rebase" && d == "" {
				// a sequence editor scripted to drop the commits it lists
				ed := gitCommandSetting(c, "GIT_SEQUENCE_EDITOR", "sequence.editor")
				if strings.Contains(ed, "drop") || strings.Contains(ed, "sed") && sedDeletes.MatchString(ed) {
					return true, "git rebase dropping commits"
				}
			}
			if d == "git stash drop" && stashAppliedBefore(a.src, c.opText()) {
				// git stash apply && git stash drop: the changes are back in
				// the tree
				return false, ""
			}
			if strings.HasPrefix(d, "git reset --hard") && stashedBefore(a.src, c.opText()) {
				// git stash push -u && git reset --hard origin/x: the
				// changes are in the stash, the commits in the reflog
				return false, ""
			}
			if strings.HasPrefix(d, "git reset --hard") && committedAllBefore(a.src, c.opText()) && resetToHead(c) {
				// git add -A && git commit -m wip && git reset --hard HEAD:
				// everything was committed a moment before
				return false, ""
			}
			if d != "" {
				return true, d
			}
			return false, ""
		}},
}

// branchSwitch matches git switch or checkout of an existing branch.
var branchSwitch = regexp.MustCompile(`git (?:(?:switch|checkout)(?: -q| --quiet)*|rebase(?: -\S+)* [\w./@{}~^][\w./@{}~^-]*) ([A-Za-z0-9][\w./-]*)\s*(?:&&|;|$)`)

// branchSwitchedBefore returns the branch the line checks out last
// before op (git switch B, git checkout B, git rebase UPSTREAM B), or "".
func branchSwitchedBefore(src, op string) string {
	j := strings.Index(src, op)
	if j < 0 {
		return ""
	}
	m := branchSwitch.FindAllStringSubmatch(src[:j], -1)
	if len(m) == 0 {
		return ""
	}
	return m[len(m)-1][1]
}

// committedAll matches, at the end of what comes before a command, every
// change added and committed, each step only after the last succeeded.
var committedAll = regexp.MustCompile(`git add (?:-A|--all|\.)\s*&&\s*git commit(?:\s[^&|;]*)?&&\s*$`)

// committedAllBefore reports a line that adds and commits every change
// right before op.
func committedAllBefore(src, op string) bool {
	j := strings.Index(src, op)
	return j >= 0 && committedAll.MatchString(src[:j])
}

// resetToHead reports git reset that names no commit or HEAD itself.
func resetToHead(c *cmd) bool {
	_, args := gitSub(c)
	for _, w := range positional(args) {
		if w.s != "HEAD" && w.s != "@" {
			return false
		}
	}
	return true
}

// dataVersionRules judge the version control of data and models (DVC):
// the workspace's changed data files overwritten, and the cache or the
// shared remote emptied of every version the workspace does not use.
var dataVersionRules = []*rule{
	{ID: "data-versions-discarded", Level: LevelModerate, Category: CategoryGitDestroy, Description: "discarding changed data files, or every cached data version the workspace does not use",
		Suggestions: []string{"Commit or push the data first (dvc commit, dvc push)", "Keep other versions: dvc gc --all-commits --all-branches"},
		names:       names("dvc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			if len(ops) == 0 || hasWord(args, "--dry") || hasWord(args, "--help") {
				return false, ""
			}
			switch ops[0].s {
			case "checkout":
				return hasWord(args, "--force") || hasWord(args, "-f"), "dvc checkout --force"
			case "gc":
				return dvcGCKeepsOnlyWorkspace(args), "dvc gc --workspace"
			}
			return false, ""
		}},
	{ID: "data-remote-gc", Level: LevelCritical, Category: CategoryCloudDestroy, Description: "deleting from a shared data remote every version the local workspace does not use",
		Suggestions: []string{"Keep every commit's and branch's data: dvc gc --all-commits --all-branches --cloud", "Let the data's owner prune the remote"},
		names:       names("dvc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			if len(ops) == 0 || ops[0].s != "gc" || !dvcGCKeepsOnlyWorkspace(args) {
				return false, ""
			}
			return hasWord(args, "--cloud") || hasWord(args, "-c") || shortCluster(args, 'c'), "dvc gc --cloud"
		}},
}

// dvcGCKeepsOnlyWorkspace reports dvc gc told to keep only the
// workspace's versions (-w), without asking (-f), and not every commit's,
// branch's or tag's.
func dvcGCKeepsOnlyWorkspace(args []word) bool {
	ws := hasWord(args, "-w") || hasWord(args, "--workspace") || shortCluster(args, 'w')
	force := hasWord(args, "-f") || hasWord(args, "--force") || shortCluster(args, 'f')
	keep := hasWord(args, "--all-commits") || hasWord(args, "-A") || hasWord(args, "--all-branches") || hasWord(args, "-a") || hasWord(args, "--all-tags") || hasWord(args, "-T")
	return ws && force && !keep
}

func init() { ruleSets = append(ruleSets, dataVersionRules) }

// stashSaved matches git stash saving the work, followed by &&.
var stashSaved = regexp.MustCompile(`git stash(?: push| save)?(?: (?:-u|--include-untracked|-a|--all|-q|--quiet|-m "[^"&|;]*"|-m '[^'&|;]*'|-m [^\s&|;'"]+|"[^"&|;]*"))*\s*&&`)

// stashedBefore reports a line that stashed the work, and went on only
// when that succeeded, before op.
func stashedBefore(src, op string) bool {
	j := strings.Index(src, op)
	if j < 0 {
		return false
	}
	m := stashSaved.FindStringIndex(src[:j])
	return m != nil && !strings.Contains(src[m[1]:j], "||") && !strings.Contains(src[m[1]:j], "stash pop") && !strings.Contains(src[m[1]:j], "stash drop")
}

// stashAppliedBefore reports a line that applies the stash before it
// drops it (a drop with no stash named drops the one just applied).
func stashAppliedBefore(src, op string) bool {
	i := strings.Index(src, "stash apply")
	j := strings.Index(src, "stash drop")
	if i < 0 || j < i || strings.Contains(op, "stash@{") && !strings.Contains(src[i:j], "stash@{") {
		return false
	}
	// only when the apply succeeded: && or fish's "; and"; "; git" too
	// when both name the same stash, as PowerShell 5 (no &&) writes it
	between := src[i:j]
	named := strings.Contains(op, "stash@{") && strings.HasSuffix(strings.TrimSpace(between), "; git")
	return (strings.Contains(between, "&&") || strings.Contains(between, "; and ") || named) && !strings.Contains(between, "stash push") &&
		!strings.Contains(between, "stash save") && !strings.Contains(between, "||")
}

// prerelease reports a version tag of a release candidate, beta, alpha,
// nightly or snapshot (v2.4.0-rc.1, 1.0.0-beta2).
func prerelease(tag string) bool {
	l := lower(tag)
	_, suffix, ok := strings.Cut(l, "-")
	if !ok {
		return false
	}
	for _, p := range [...]string{"rc", "beta", "alpha", "pre", "nightly", "snapshot", "dev", "canary"} {
		if strings.HasPrefix(suffix, p) {
			return true
		}
	}
	return false
}

func init() { ruleSets = append(ruleSets, gitDestroyRules) }

// releaseTagRef reports a refspec naming a tag: refs/tags/..., or a
// version (v1.2.0, 2.3.1) written as the ref.
func releaseTagRef(r string) bool {
	r = strings.TrimPrefix(r, "+")
	if i := strings.IndexByte(r, ':'); i >= 0 {
		r = r[i+1:]
	}
	if strings.HasPrefix(r, "refs/tags/") {
		return true
	}
	v := strings.TrimPrefix(r, "v")
	return v != r && len(v) > 0 && v[0] >= '0' && v[0] <= '9' && strings.Contains(v, ".") || len(v) > 2 && v[0] >= '0' && v[0] <= '9' && strings.Count(v, ".") >= 2
}

// sedDeletes matches a sed d command after an address (/re/d, 2,$d, 3d).
var sedDeletes = regexp.MustCompile(`(?:/|\$|[0-9])d(?:['";\s]|$)`)

// broadRevset reports a jj revset that selects a range or a set of
// changes rather than one: all(), x::y, x..y, ~x, mutable().
func broadRevset(r string) bool {
	// a function selects every change it matches (description(glob:"wip*"),
	// mine()); @- is the committed change below the working copy
	return strings.Contains(r, "(") || r == "@-" || r == "@--" || strings.Contains(r, "all()") || strings.Contains(r, "::") || strings.Contains(r, "..") || strings.HasPrefix(r, "~") ||
		strings.Contains(r, " ~ ") || strings.Contains(r, "mutable()") || strings.Contains(r, "descendants(") || strings.Contains(r, "ancestors(")
}

// withoutOptValues returns args without the options named and the value
// each takes (-e X, --exclude X, --exclude=X).
func withoutOptValues(args []word, opts ...string) []word {
	out := make([]word, 0, len(args))
	for i := 0; i < len(args); i++ {
		s := args[i].s
		skip := false
		for _, o := range opts {
			if s == o {
				i++ // and its value
				skip = true
				break
			}
			if strings.HasPrefix(o, "--") && strings.HasPrefix(s, o+"=") {
				skip = true
				break
			}
		}
		if !skip {
			out = append(out, args[i])
		}
	}
	return out
}

// jjBookmarkChange matches jj bookmark (or branch) delete, forget, set and
// move with the bookmark they name.
var jjBookmarkChange = regexp.MustCompile(`jj\s+(?:bookmark|branch|b)\s+(delete|forget|set|move|d|s|m)\s+(?:-\S+\s+\S+\s+)*([\w./-]+)`)

// pushesBookmark reports jj git push told to push the bookmark name
// (-b NAME, --bookmark NAME, --bookmark=NAME).
func pushesBookmark(args []word, name string) bool {
	for i, w := range args {
		if (w.s == "-b" || w.s == "--bookmark" || w.s == "--branch") && i+1 < len(args) && args[i+1].s == name ||
			w.s == "--bookmark="+name || w.s == "--branch="+name {
			return true
		}
	}
	return false
}

// hotfixBranch reports a hotfix branch (hotfix/1.8.3): shared by whoever
// ships the fix and merged back into every line, so deleting it on the
// remote loses what is not merged yet. (Pushing to it, even with a lease,
// is the usual work on it.)
func hotfixBranch(ref string) bool {
	ref = strings.TrimPrefix(strings.TrimPrefix(ref, "+"), "refs/heads/")
	return strings.HasPrefix(ref, "hotfix/") || strings.HasPrefix(ref, "hotfixes/")
}

// gitCommandSetting returns a setting git takes for this one command: the
// environment variable env assigned before it, or its -c key=value word
// (returned whole); the -c word wins, as in git.
func gitCommandSetting(c *cmd, env, key string) string {
	v := ""
	for _, as := range c.assigns {
		if as.name == env {
			v = as.val.s
		}
	}
	for i, w := range c.words {
		if w.s == "-c" && i+1 < len(c.words) && strings.HasPrefix(lower(c.words[i+1].s), key+"=") {
			v = c.words[i+1].s
		}
	}
	return v
}

var (
	// settings whose zero, false or true weakens a branch's or an
	// environment's protection, in REST fields, JSON bodies and GraphQL
	protectionZero  = regexp.MustCompile(`(?i)\b(required_approving_review_count|approvals_before_merge|requiredApprovingReviewCount|approvals_required)"?\s*[:= ]\s*"?0\b`)
	protectionFalse = regexp.MustCompile(`(?i)\b(enforce_admins|isAdminEnforced|requiresApprovingReviews|requiresStatusChecks|requiresCodeOwnerReviews|require_code_owner_reviews|dismiss_stale_reviews|dismissesStaleReviews|only_allow_merge_if_pipeline_succeeds|only_allow_merge_if_all_discussions_are_resolved|reset_approvals_on_push|required_signatures|requiresCommitSignatures|requiresConversationResolution|required_linear_history)"?\s*[:= ]\s*"?false\b`)
	protectionTrue  = regexp.MustCompile(`(?i)\b(allow_force_pushes|allowsForcePushes|allow_deletions|allowsDeletions|merge_requests_author_approval|merge_requests_disable_committers_approval_false)"?\s*[:= ]\s*"?true\b`)
	emptyReviewers  = regexp.MustCompile(`"reviewers"\s*:\s*\[\s*\]`)
	jsonForce       = regexp.MustCompile(`"force"\s*:\s*true`)
	azPolicyOff     = regexp.MustCompile(`--(?:enabled|blocking)(?:\s+|=)false\b|--minimum-approver-count(?:\s+|=)0\b`)
)

// protectionWords reports lower-case words that hold a stem of the
// settings protectionWeakened reads: only those are read further.
func protectionWords(low []string) bool {
	for _, l := range low {
		if hasAny(l, "approv", "review", "force", "enforce", "merge", "signature", "linear", "dismiss", "deletion", "status_check", "statuscheck", "conversation") {
			return true
		}
	}
	return false
}

// protectionWeakened returns the setting in a request's text that turns a
// protection off, or "".
func protectionWeakened(text string) string {
	for _, re := range [...]*regexp.Regexp{protectionZero, protectionFalse, protectionTrue, emptyReviewers} {
		if m := re.FindString(text); m != "" {
			return m
		}
	}
	return ""
}

// localHistoryDir reports a project folder where an editor keeps the
// developer's own past edits: VS Code's Local History (.history), a
// JetBrains IDE's shelf of set-aside changes and its whole folder, which
// holds the shelf and the workspace.
func localHistoryDir(rel string) bool {
	rel = strings.TrimSuffix(strings.ReplaceAll(rel, `\`, "/"), "/")
	switch strings.ToLower(rel) {
	case ".history", ".idea", ".idea/shelf", ".lh", ".vscode/.history":
		return true
	}
	return false
}
