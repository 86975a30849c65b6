package guard

import (
	"net/url"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// --- losing uncommitted work: commands that throw away the working
// tree's changes, local commits or stashes, and deletions of everything
// in the work directory ---

// wholeTreeSpec reports a pathspec that covers the whole tree or a
// directory of it, or that is computed.
func wholeTreeSpec(w word) bool {
	s := w.s
	if sourceDirs[strings.TrimSuffix(strings.TrimPrefix(s, "./"), "/")] {
		return true // a whole source directory
	}
	// (a quoted '*.ipynb' is git's own pathspec glob: every notebook of
	// the tree)
	return !w.ok || strings.HasPrefix(s, "*") || s == "." || s == "./" || s == ":/" || s == "*" || s == ":(top)" || strings.HasSuffix(s, "/") || s == ".." || strings.HasPrefix(s, ":/")
}

// computedRef reports a computed operand written like a ref (v$VERSION,
// release-${N}): before any "--", git takes it for a branch or tag, and
// switching refuses to overwrite local changes.
func computedRef(w word) bool {
	s := w.s
	if w.ok || s == "" || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z' || s[0] >= '0' && s[0] <= '9') {
		return false
	}
	return !strings.ContainsAny(s, "/*?.[")
}

// gitDiscards reports what a git (or hg, svn) command discards, or "".
func gitDiscards(c *cmd) string {
	if c.name == "fossil" {
		args := c.args()
		if len(args) == 0 {
			return ""
		}
		switch args[0].s {
		case "revert":
			if len(positional(args[1:])) == 0 {
				return "fossil revert" // every changed file
			}
			if p := editedPath(positional(args[1:]), false); p != "" {
				return "fossil revert " + p // a folder, or several files
			}
		case "checkout", "co", "update":
			if hasWord(args, "--force") || hasWord(args, "-f") {
				return "fossil " + args[0].s + " --force"
			}
		case "stash":
			// fossil stash drop --all, fossil stash clear: saved changes
			if len(args) > 1 && (args[1].s == "clear" || (args[1].s == "drop" || args[1].s == "rm") && (hasWord(args, "--all") || hasWord(args, "-a"))) {
				return "fossil stash " + args[1].s
			}
		case "clean":
			if !hasWord(args, "--dry-run") && !hasWord(args, "-n") {
				return "fossil clean"
			}
		case "purge":
			// purge checkins, files, obliterate: commits taken out of the
			// repository (obliterate empties the graveyard for good)
			if len(args) > 1 && (args[1].s == "checkins" || args[1].s == "files" || args[1].s == "obliterate") && !hasWord(args, "--dry-run") && !hasWord(args, "-n") {
				return "fossil purge " + args[1].s
			}
		}
		return ""
	}
	if c.name == "hg" || c.name == "svn" || c.name == "sl" {
		args := c.args()
		for len(args) > 1 && (args[0].s == "--config" || args[0].s == "-R" || args[0].s == "--repository" || args[0].s == "--cwd") {
			args = args[2:] // hg --config extensions.purge= clean: the global options first
		}
		if len(args) == 0 {
			return ""
		}
		switch args[0].s {
		case "revert":
			if c.name != "svn" && !hasWord(args, "-C") && !hasWord(args, "--no-backup") {
				return "" // hg keeps every reverted edit as FILE.orig
			}
			if hasWord(args, "--all") || hasWord(args, "-a") || hasWord(args, "-R") || hasWord(args, "--recursive") {
				return c.name + " revert"
			}
			if d, ok := optValue(args, "", "depth"); ok && d == "infinity" {
				return c.name + " revert --depth infinity" // every change under the path
			}
		case "shelve":
			// hg shelve --cleanup (every shelf), --delete NAME: saved
			// changes thrown away
			if hasWord(args, "--cleanup") || hasWord(args, "--delete") || hasWord(args, "-d") {
				return c.name + " shelve --delete"
			}
		case "update", "up", "checkout", "co", "goto", "resolve":
			if hasWord(args, "-C") || hasWord(args, "--clean") {
				return c.name + " update --clean"
			}
			// svn update --accept theirs-full: the local side of every
			// conflict replaced by the incoming one
			if v, ok := optValue(args, "", "accept"); ok && c.name == "svn" && (v == "theirs-full" || v == "tf") {
				return "svn " + args[0].s + " --accept " + v
			}
		case "cleanup":
			if c.name == "svn" && (hasWord(args, "--remove-unversioned") || hasWord(args, "--remove-ignored")) {
				return "svn cleanup --remove-unversioned"
			}
		case "purge", "clean":
			if hasWord(args, "--print") || hasWord(args, "-p") || hasWord(args, "--dry-run") || hasWord(args, "-n") {
				return "" // the files it would delete, listed
			}
			return c.name + " " + args[0].s
		case "strip", "prune":
			// commits taken out of the repository (kept in a backup
			// bundle unless --no-backup, which is what hides it)
			if c.name == "hg" || c.name == "sl" {
				return c.name + " " + args[0].s
			}
		case "rollback":
			if c.name == "hg" {
				return "hg rollback"
			}
		}
		return ""
	}
	sub, args := gitSub(c)
	o := c.opts()
	ops := positional(args)
	dash := -1
	for i, w := range args {
		if w.s == "--" {
			dash = i
			break
		}
	}
	switch sub {
	case "reset":
		if o.has("", "hard") || o.has("", "merge") {
			return "git reset --hard"
		}
		// (git reset --keep HEAD~2 keeps local changes, and the commits
		// stay in the reflog: nothing is lost)
	case "checkout":
		if o.has("f", "force") || o.has("B", "") {
			return "git checkout --force"
		}
		if o.has("b", "") && dash < 0 {
			// git checkout -b feature/(date +%F): a new branch, the
			// changes carried to it
			return ""
		}
		if dash >= 0 {
			for _, w := range args[dash+1:] {
				if wholeTreeSpec(w) {
					return "git checkout -- " + w.s
				}
			}
		}
		for _, w := range ops {
			if wholeTreeSpec(w) && !computedRef(w) {
				return "git checkout " + w.s
			}
		}
		// git checkout [HEAD] -- src/app.ts: the file's uncommitted
		// edits, thrown away (another ref's copy, or a side of a conflict,
		// is taken on purpose)
		if o.has("p", "patch", "theirs", "ours", "conflict", "merge") {
			return ""
		}
		var refs, paths []word
		if dash >= 0 {
			refs, paths = positional(args[:dash]), args[dash+1:]
		} else if len(ops) > 1 && ops[0].s == "HEAD" {
			refs, paths = ops[:1], ops[1:]
		}
		if len(paths) > 0 && (len(refs) == 0 || refs[0].s == "HEAD") {
			if p := editedPath(paths, false); p != "" {
				return "git checkout -- " + p
			}
		} else if len(paths) > 0 && len(refs) > 0 {
			// git checkout origin/main -- src/config: another commit's
			// copy of a whole folder laid over the edits in it
			if p := folderPath(paths); p != "" {
				return "git checkout " + refs[0].s + " -- " + p
			}
		}
	case "restore":
		if (o.has("S", "staged") && !o.has("W", "worktree")) || o.has("", "dry-run") {
			return ""
		}
		for _, w := range ops {
			if wholeTreeSpec(w) {
				return "git restore " + w.s
			}
		}
		// git restore src/app.ts: its edits discarded (from another
		// commit, or a side of a conflict, the file is replaced on purpose)
		if o.has("p", "patch", "theirs", "ours", "merge") {
			return ""
		}
		if src, ok := optValue(args, "-s", "source"); ok && src != "HEAD" {
			// another commit's copy: on purpose for a file, the edits of
			// a whole folder lost for one
			if dash >= 0 {
				if p := folderPath(args[dash+1:]); p != "" {
					return "git restore --source=" + src + " -- " + p
				}
			}
			return ""
		}
		paths := ops
		if dash >= 0 {
			paths = args[dash+1:]
		} else if src, ok := optValue(args, "-s", "source"); ok && len(paths) > 0 && paths[0].s == src && !strings.Contains(args[0].s, "=") {
			paths = paths[1:] // --source HEAD: its value
		}
		if p := editedPath(paths, o.has("S", "staged")); p != "" {
			return "git restore " + p
		}
	case "rebase", "am", "cherry-pick":
		if hasWord(args, "--skip") {
			// the commit being applied, its changes with it, left out
			return "git " + sub + " --skip"
		}
		// git rebase --onto HEAD~3 HEAD~1: the commits between the two
		// (HEAD~2 and HEAD~1) are dropped from the branch
		if onto, ok := optValue(args, "", "onto"); ok {
			if ops := positional(args); len(ops) > 0 {
				up := ops[0].s
				if ops[0].s == onto && len(ops) > 1 {
					up = ops[1].s // --onto X Y: X read as an operand
				}
				if n, ok := headDistance(onto); ok {
					if m, ok := headDistance(up); ok && n > m {
						return "git rebase --onto " + onto + " " + up + " (commits dropped)"
					}
				}
			}
		}
	case "clean":
		if o.has("f", "force") && !o.has("n", "dry-run") && !o.has("i", "interactive") && !generatedOnly(args) {
			return "git clean --force"
		}
	case "stash":
		if len(ops) > 0 && (ops[0].s == "drop" || ops[0].s == "clear") {
			return "git stash " + ops[0].s
		}
	case "switch":
		// (-C before the subcommand is git's own: the directory it runs in)
		if o.has("f", "force") || o.has("", "discard-changes") || o.has("", "force-create") || switchForceCreate(args) {
			return "git switch --force"
		}
	case "rm":
		// -f removes files with uncommitted changes; --cached keeps them
		if o.has("f", "force") && o.has("r", "") && !o.has("", "cached") && !o.has("n", "dry-run") {
			return "git rm --force -r"
		}
	case "read-tree":
		// -u writes the tree over the work files; --reset discards their changes
		if o.has("u", "") && (o.has("", "reset") || o.has("m", "")) && !o.has("n", "dry-run") {
			return "git read-tree -u"
		}
	case "checkout-index":
		// (--prefix=DIR/: the files written under DIR, an export)
		if o.has("f", "force") && !hasPrefixWord(args, "--prefix") {
			return "git checkout-index --force"
		}
	case "branch":
		if o.has("D", "") || o.has("f", "force") || o.has("d", "delete") && o.has("f", "force") {
			return "git branch -D/--force"
		}
	case "submodule":
		if len(ops) > 0 && ops[0].s == "deinit" && o.has("f", "force") {
			return "git submodule deinit --force"
		}
		if len(ops) > 0 && ops[0].s == "update" && o.has("f", "force") {
			// each submodule's own changes discarded as it is checked
			// out again
			return "git submodule update --force"
		}
	case "worktree":
		if len(ops) > 0 && ops[0].s == "remove" && o.has("f", "force") && !(len(ops) > 1 && underTemp(ops[1].s)) {
			// (a scratch worktree under /tmp: made for a check)
			return "git worktree remove --force"
		}
	}
	return ""
}

// folderPath returns the first of paths that names a folder (no
// extension, not a known file name, not generated), or "".
func folderPath(paths []word) string {
	for _, w := range paths {
		p := path.Clean(strings.ReplaceAll(w.s, `\`, "/"))
		if w.s == "" || path.Ext(p) != "" || plainFiles[path.Base(p)] || lockFiles[path.Base(p)] || generatedOnly([]word{{s: p, ok: w.ok}}) {
			continue
		}
		return w.s
	}
	return ""
}

// editedPath returns the first of paths that is a directory of the
// developer's edits, or the first of several named files (a single named
// file is the careful form of a restore), and not generated, which tools
// rewrite anyway. both says the index is restored with the work tree:
// then a named file counts too.
func editedPath(paths []word, both bool) string {
	files := 0
	first := ""
	for _, w := range paths {
		if w.s == "" {
			continue
		}
		p := path.Clean(strings.ReplaceAll(w.s, `\`, "/"))
		if strings.ContainsAny(p, "*?") && !lockFiles[path.Base(p)] && !generatedOnly([]word{{s: p, ok: w.ok}}) {
			return w.s // 'src/**/*.ts': a pattern git matches against every file
		}
		if !both && (path.Ext(p) != "" || plainFiles[path.Base(p)]) {
			// one named file is the careful form; several are the edits
			// of a change
			if !lockFiles[path.Base(p)] && !generatedOnly([]word{{s: p, ok: w.ok}}) {
				if files++; first == "" {
					first = w.s
				}
				if files > 1 {
					return first
				}
			}
			continue
		}
		if lockFiles[path.Base(p)] || generatedOnly([]word{{s: p, ok: w.ok}}) {
			continue
		}
		gen := false
		for _, c := range strings.Split(p, "/") {
			gen = gen || c == "__snapshots__" || c == "snapshots"
		}
		if !gen {
			return w.s
		}
	}
	return ""
}

// plainFiles are files whose names have no extension.
var plainFiles = map[string]bool{
	"Makefile": true, "Dockerfile": true, "Containerfile": true, "Jenkinsfile": true, "Procfile": true,
	"Gemfile": true, "Rakefile": true, "Vagrantfile": true, "Brewfile": true, "Justfile": true, "justfile": true,
	"Taskfile": true, "Pipfile": true, "Podfile": true, "README": true, "LICENSE": true, "CODEOWNERS": true, "VERSION": true,
}

// lockFiles are package managers' lock files: restored to match the
// manifest, never edited by hand.
var lockFiles = map[string]bool{
	"package-lock.json": true, "npm-shrinkwrap.json": true, "yarn.lock": true, "pnpm-lock.yaml": true,
	"bun.lockb": true, "bun.lock": true, "go.sum": true, "Cargo.lock": true, "poetry.lock": true,
	"Pipfile.lock": true, "uv.lock": true, "Gemfile.lock": true, "composer.lock": true, "mix.lock": true,
	"pubspec.lock": true, "Podfile.lock": true, "flake.lock": true, "packages.lock.json": true,
	"gradle.lockfile": true, "Package.resolved": true, "deno.lock": true,
}

// isDBFile reports a file name of an embedded database.
func isDBFile(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".db", ".sqlite", ".sqlite3", ".mdb", ".accdb", ".duckdb", ".realm", ".ldb", ".frm", ".ibd", ".wal":
		return true
	}
	return false
}

// emptiedOutside returns a file outside the work directory (and temporary
// directories) that c replaces with nothing: cp /dev/null F, : > F, > F,
// truncate -s 0 F.
func (a *analysis) emptiedOutside(c *cmd) string {
	if a.workDir == "" {
		return ""
	}
	for _, t := range a.writeTargets(c) {
		if !t.trunc || t.appends || t.path == "" || a.inWork(t.path) || underTemp(t.path) || isTempRoot(t.path) || strings.HasPrefix(t.path, "/dev/") || strings.HasPrefix(t.path, "/proc/") {
			continue
		}
		if webServerLog(t.path) || strings.HasPrefix(t.path, "/app/") && strings.HasSuffix(t.path, ".log") {
			continue // a web server's or a container app's own log, emptied to read it afresh
		}
		if emptyWrite(c, t) {
			return t.raw
		}
	}
	if c.name == "sed" && (hasPrefixWord(c.args(), "-i") || hasPrefixWord(c.args(), "--in-place")) {
		// sed -i 'd' ~/.gitconfig: every line of a file outside the
		// project deleted
		if ops := c.operands(); len(ops) > 1 && sedDeletesAll(ops[0].s) {
			for _, w := range ops[1:] {
				if p := a.absPath(w.s, c.cwd); p != "" && w.ok && !a.inWork(p) && !underTemp(p) && !strings.HasPrefix(p, "/dev/") {
					return w.s
				}
			}
		}
	}
	return ""
}

// sedDeletesAll reports a sed script that deletes every line.
func sedDeletesAll(script string) bool {
	switch strings.TrimSpace(script) {
	case "d", "1,$d", ",$d", "1,$ d", "/./d", "/^/d", "/.*/d", "/^.*$/d", "/$/d":
		return true
	}
	return false
}

// emptyWrite reports a write that leaves the file empty: /dev/null
// copied over it, a redirection of nothing, truncate -s 0.
func emptyWrite(c *cmd, t writeTarget) bool {
	switch {
	case t.content.kind == flowLocal && t.content.what == "/dev/null":
		return true
	case c.name == ":" || c.name == "true" || c.name == "false":
		return true // they print nothing
	case (c.name == "printf" || c.name == "echo") && t.content.kind == flowText && !t.content.partial && trivialContent(t.content.text):
		return true // printf '', echo -n, echo '{}': nothing, or a bare newline or empty value
	case c.name == "jq" && hasWord(c.args(), "-n"):
		// jq -n null: an empty JSON value
		ops := c.operands()
		return len(ops) == 1 && trivialContent(ops[0].s)
	case t.content.kind == flowNone && len(c.words) == 0:
		return true
	case c.name == "truncate":
		return truncZero(c)
	case c.name == "tee" && c.in.kind == flowLocal && c.in.what == "/dev/null":
		return true // tee F < /dev/null: nothing read, nothing written
	case t.raw != "" && readsOwnTarget(c, t.raw):
		// sort -u F > F: the shell empties F before sort reads it
		return true
	}
	return false
}

// readsOwnTarget reports a filter given the file its output is
// redirected over (sort F > F, grep -v x F > F).
func readsOwnTarget(c *cmd, target string) bool {
	// black - < F > F: whatever the program, its input is the file the
	// shell has just emptied
	in, out := false, false
	for _, r := range c.redirs {
		if r.w.s != target || !r.w.ok {
			continue
		}
		switch {
		case (r.n == "" || r.n == "0") && r.op == syntax.RdrIn:
			in = true
		case r.isOutput() && !r.isAppend() && (r.n == "" || r.n == "1"):
			out = true
		}
	}
	if in && out {
		return true
	}
	if !fileReaders[c.name] || c.name == "sed" && (hasPrefixWord(c.args(), "-i") || hasPrefixWord(c.args(), "--in-place")) {
		return false
	}
	redirected := false
	for _, r := range c.redirs {
		if r.isOutput() && !r.isAppend() && (r.n == "" || r.n == "1") && r.w.s == target {
			redirected = true
		}
	}
	if !redirected {
		return false
	}
	if hasWord(c.operands(), target) {
		return true
	}
	// cat F | sed ... > F: an earlier stage reads the file the last one's
	// redirection empties as the pipeline starts
	for _, s := range c.pipe[:min(c.stage, len(c.pipe))] {
		if s != nil && fileReaders[s.name] && hasWord(s.operands(), target) {
			return true
		}
	}
	return false
}

// fileReaders are programs that read the files they are given and print
// what they make of them.
var fileReaders = map[string]bool{"sort": true, "uniq": true, "grep": true, "egrep": true, "fgrep": true, "sed": true, "awk": true, "gawk": true, "cat": true,
	"cut": true, "tr": true, "head": true, "tail": true, "jq": true, "yq": true, "column": true, "tac": true, "rev": true, "fold": true, "expand": true,
	"iconv": true, "python": true, "python3": true, "envsubst": true, "xmllint": true, "xmlstarlet": true, "gofmt": true, "clang-format": true,
	"json_pp": true, "base64": true, "gzip": true, "openssl": true, "nl": true, "paste": true,
	// formatters that print the formatted file unless told to write it
	// (prettier without --write, rustfmt --emit stdout, shfmt), run
	// directly or through npx
	"prettier": true, "rustfmt": true, "shfmt": true, "autopep8": true, "yapf": true, "js-beautify": true, "uglifyjs": true, "terser": true,
	"npx": true, "bunx": true, "pnpx": true}

// trivialContent reports text that holds no data: nothing, a newline, an
// empty JSON value.
func trivialContent(s string) bool {
	switch strings.TrimSpace(s) {
	case "", "{}", "[]", "null", `""`, "''":
		return true
	}
	return false
}

func truncZero(c *cmd) bool {
	s, ok := optValue(c.args(), "-s", "size")
	return ok && (s == "0" || s == "0K" || s == "0M")
}

// emptiedSources describes the project's own files a command empties
// (: > src/app.ts, truncate -s 0 data/*.csv, sed -i d src/*.py, find
// src -name '*.ts' -exec truncate -s 0 {} +), or "".
func (a *analysis) emptiedSources(c *cmd) string {
	if a.workDir == "" {
		return ""
	}
	for _, t := range a.writeTargets(c) {
		if t.trunc && !t.appends && t.path != "" && a.sourceTarget(t.path, strings.ContainsAny(t.path, "*?[")) && emptyWrite(c, t) {
			return t.raw
		}
	}
	for i := range c.redirs {
		// git ls-files | while read f; do : > "$f"; done: each tracked
		// file in turn
		r := &c.redirs[i]
		if r.isOutput() && !r.isAppend() && (r.n == "" || r.n == "1") && trackedFiles(r.w) &&
			emptyWrite(c, writeTarget{content: a.computeOut(c)}) {
			return r.w.s
		}
	}
	var ops []word
	switch c.name {
	case "dd":
		// dd if=/dev/zero of=db/dev.sqlite3 conv=notrunc: the file's
		// first blocks zeroed, what they held gone; of=.git/index, the
		// staged changes
		in, of := "", ""
		for _, w := range c.args() {
			if v, ok := strings.CutPrefix(w.s, "if="); ok {
				in = v
			} else if v, ok := strings.CutPrefix(w.s, "of="); ok && w.ok {
				of = v
			}
		}
		if in != "/dev/zero" && in != "/dev/urandom" && in != "/dev/random" || of == "" {
			return ""
		}
		if p := a.absPath(of, c.cwd); p != "" && a.inWork(p) && (a.sourceTarget(p, false) || gitInternal(p[len(a.workDir):])) {
			return of
		}
		return ""
	case "truncate":
		if !truncZero(c) {
			return ""
		}
		ops = c.operands()
	case "sed":
		if !hasPrefixWord(c.args(), "-i") && !hasPrefixWord(c.args(), "--in-place") {
			return ""
		}
		ops = c.operands()
		if len(ops) < 2 {
			return ""
		}
		if !sedDeletesAll(ops[0].s) {
			return ""
		}
		ops = ops[1:]
	case "perl":
		// perl -0pi -e 's/.*//s' FILES: each file's whole text replaced
		// by nothing
		if !perlInPlace(c.args()) {
			return ""
		}
		code, ok := optValue(c.args(), "-e", "")
		if !ok {
			for _, w := range c.args() {
				if strings.HasPrefix(w.s, "-") && strings.HasSuffix(w.s, "e") && perlInPlace([]word{w}) {
					if i := slices.IndexFunc(c.args(), func(x word) bool { return x.s == w.s }); i+1 < len(c.args()) {
						code, ok = c.args()[i+1].s, true
					}
				}
			}
		}
		if !ok || !perlWipes(code) {
			return ""
		}
		for _, w := range c.operands() {
			if w.s != code {
				ops = append(ops, w)
			}
		}
	case "cp":
		// find src -name '*.py' -exec cp template.py {} \;, ls src/*.js
		// | xargs -n1 cp stub.js: one file copied over each of the
		// project's files found or listed
		o := c.operands()
		if hasPrefixWord(c.args(), "-t") || hasPrefixWord(c.args(), "--target-directory") || len(o) == 0 {
			return ""
		}
		if c.xargs && len(o) == 2 && !strings.Contains(a.src, "{}") && !strings.Contains(a.src, " -I") && (strings.Contains(a.src, "git ls-files") || strings.Contains(a.src, "find ") || strings.HasPrefix(a.src, "ls ")) {
			return "every file listed"
		}
		if d := o[len(o)-1]; len(o) == 2 && d.find != nil && d.find.sourceFiles() {
			for _, r := range d.find.roots {
				if p := a.absPath(r.s, c.cwd); p != "" && (p == a.workDir || a.sourceTarget(p+"/*", true)) {
					return d.s
				}
			}
		}
		return ""
	default:
		return ""
	}
	// the project's files listed by git ls-files or find, through xargs
	// or $(...): every one of them emptied
	listed := strings.Contains(a.src, "git ls-files") || strings.Contains(a.src, "find ")
	if c.xargs && listed {
		return "every file listed"
	}
	for _, w := range ops {
		if !w.ok && listed {
			return w.s
		}
		if w.find != nil && w.find.sourceFiles() {
			for _, r := range w.find.roots {
				if p := a.absPath(r.s, c.cwd); p != "" && (p == a.workDir || a.inWork(p)) {
					return w.s
				}
			}
		}
		if p := a.absPath(w.s, c.cwd); p != "" && a.sourceTarget(p, w.glob) {
			return w.s
		}
	}
	return ""
}

// perlWipes reports a perl substitution that replaces all text with
// nothing (s/.*//s, s/^.*$//gm, s/[\s\S]*//).
func perlWipes(code string) bool {
	c := strings.ReplaceAll(strings.TrimSpace(code), " ", "")
	switch c {
	case "s/.*//s", "s/.*//sg", "s/.*//gs", "s/^.*$//gms", "s/^.*$//smg", "s/[\\s\\S]*//", "s/.+//s", "$_=\"\"", "$_=''", "undef$_":
		return true
	}
	return false
}

// testScoped reports a command aimed at a database, volume, compose
// project or repository that only tests use: a name, file or URL with a
// test token (myapp_test, test.db, docker-compose.test.yml), a test
// environment (RAILS_ENV=test), or a fixture repository (git -C
// tests/fixtures/repo), and nothing that names production.
func (a *analysis) testScoped(c *cmd) bool {
	if a.emulated(c) {
		return true // an emulator on this machine, whatever its buckets are called
	}
	if touchesProduction(c) || slicesContains(deleters, c.name) || c.name == "dd" || c.name == "truncate" {
		return false
	}
	if a.testTarget > 0 && !namesOtherServer(c) {
		return true // run in a container or pod named for tests, on its own data
	}
	if psCmdlet(c.name) {
		// Remove-AzStorageAccount -Name acmepr1423preview: a pull
		// request's or a test's resource
		// a slot of an app is what -Slot names, not the app
		v, ok := swVal(wargs(c), "slot")
		if !ok {
			v, ok = swVal(wargs(c), "name", "displayname", "vmname", "bucketname")
		}
		if ok && cloudCmdletDeletes(c.name) && (throwawayName(v) || ciRunName(v)) {
			return true
		}
	}
	for _, as := range c.assigns {
		switch as.name {
		case "RAILS_ENV", "RACK_ENV", "MIX_ENV", "NODE_ENV", "APP_ENV", "ENV", "ENVIRONMENT", "DJANGO_ENV", "FLASK_ENV", "ASPNETCORE_ENVIRONMENT":
			if strings.EqualFold(as.val.s, "test") || strings.EqualFold(as.val.s, "testing") {
				return true
			}
		case "DATABASE_URL", "DB_NAME", "PGDATABASE", "MYSQL_DATABASE", "AWS_PROFILE", "TF_WORKSPACE", "PULUMI_STACK", "CLOUDSDK_ACTIVE_CONFIG_NAME", "KUBECONFIG":
			if testName(as.val.s) {
				return true
			}
		}
	}
	for _, w := range c.args() {
		if w.flow != nil && w.flow.scratch {
			return true // names a filter kept for a pull request's or a test's objects
		}
	}
	if iacTools[c.name] && a.scratchStack(c) {
		return true
	}
	if madeEarlierOnLine(a.src, c) {
		return true
	}
	if dbVarSetToTest(a.src) {
		return true // set -x PGDATABASE myapp_test; and psql ...
	}
	if hasFoldEnv(a.src) && testEnvSet.MatchString(a.src) {
		// set RAILS_ENV=test&& ..., $env:RAILS_ENV='test'; ...: the
		// environment chosen earlier on the line
		return true
	}

	if c.name == "git" {
		if sub, _ := gitSub(c); sub == "push" && pushDeletesOnlyScratch(c.args()) {
			// git push origin :refs/tags/ci-tmp-pr-42: refs a CI run or
			// a preview made for itself
			return true
		}
		if sub, _ := gitSub(c); sub != "push" && sub != "send-pack" && sub != "remote" {
			// a clone made in a temporary folder for one run: what is
			// lost there is its own (what it pushes is not)
			if cw := lower(c.cwd); cw != "" && (underTemp(cw) && !isTempRoot(cw) || strings.Contains(cw, "/appdata/local/temp/")) {
				return true
			}
		}
		if dir, ok := optValue(c.args(), "-C", ""); ok {
			if scratchDir(dir) {
				return true // a clone made for one run (a reproduction, a CI checkout)
			}
			p := a.absPath(dir, c.cwd)
			return p != "" && (a.inWork(p) && fixtureGit(p[len(a.workDir):]+"/.git") || underTemp(p) && !isTempRoot(p))
		}
		return false
	}
	if c.name == "redis-cli" && redisScratchDB(c.args()) && !forwardsPort(a.src) {
		return true
	}
	if psFilteredToScratch(c) {
		return true
	}
	if slicesContains(dbClients, c.name) {
		// DROP DATABASE IF EXISTS test_$JOB: the statement names a
		// database only tests use, whatever the rest of the line computes
		if s := a.scanSQLOf(c); s != nil {
			for _, st := range []string{s.dropDB, s.dropTable} {
				if f := strings.Fields(st); len(f) > 2 && !strings.Contains(st, ",") {
					// (the statement is upper-cased: OrdersTests_x reads
					// ORDERSTESTS_X, its words run together)
					if n := strings.Trim(f[len(f)-1], "`\"'[];"); testName(n) || strings.Contains(lower(n), "tests_") || strings.HasSuffix(lower(n), "tests") {
						return true
					}
				}
			}
		}
	}
	args := c.args()
	for _, w := range args {
		if _, rest, ok := strings.Cut(w.s, ":"); ok && rest != "" && strings.Contains(lower(w.s), "staging") && testName(rest) && !strings.Contains(lower(rest), "shared") {
			continue // project:dataset.table: a scratch dataset of the staging project
		}
		if strings.Contains(lower(w.s), "staging") && !strings.Contains(w.s, " ") && !prNumbered(args) {
			// a shared environment, whatever else it says (save a pull
			// request's own resource in it: preview-pr-1423 on staging)
			return false
		}
	}
	for i, w := range args {
		if i > 0 && userOption(args[i-1].s) {
			continue // a user name (-u dev) says nothing of the data
		}
		if i > 0 && args[i-1].s == "--exclude" || strings.HasPrefix(w.s, "--exclude=") {
			continue // --exclude '*.tmp': what is kept, not what goes
		}
		if strings.Contains(w.s, "/memberships/") || strings.Contains(w.s, "/collaborators/") || strings.Contains(w.s, "/members/") {
			continue // teams/x/memberships/temp-contractor: a person, let in
		}
		if i == 0 && w.s == "ci" && (c.name == "glab" || c.name == "circleci") {
			continue // glab ci delete: the subcommand, not a test's resource
		}
		if (c.name == "svn" || c.name == "hg" || c.name == "sl" || c.name == "fossil") && vcsTestSuite(w.s) {
			continue // svn revert --recursive src tests: the project's test suite, its edits included
		}
		if (c.name == "docker" || c.name == "podman") && (i > 0 && (args[i-1].s == "-H" || args[i-1].s == "--host") || strings.HasPrefix(w.s, "--host=")) {
			continue // -H ssh://ci@runner-03: the engine's machine (a CI runner is shared), not a test's data
		}
		v, ok := dataWord(w.s)
		if !ok {
			continue
		}
		if w.ok && embeddedDBClient(c.name) && localDBFile(path.Base(v)) {
			// sqlite3 dev.db: the developer's own data; test.db a
			// test's
			if testNameBesidesDev(path.Base(v)) {
				return true
			}
			// tests/fixtures/sample.db: a file the test suite keeps
			if p := a.absPath(v, c.cwd); p != "" && a.inWork(p) && testFolderPath(p[len(a.workDir):]) {
				return true
			}
			continue
		}
		if strings.Contains(lower(v), "shared") {
			continue // gs://acme-shared-test-data: a test resource the team shares
		}
		if w.ok && testName(v) || !w.ok && (pullRequestVar(v) || testVarRef(v)) {
			return true
		}
		if !w.ok && strings.HasPrefix(v, "$(") && substNamesPullRequest(a.src) {
			// --id "$(az ad app list --display-name acme-pr-1423 ...)": the
			// id of a pull request's own resource, looked up by its name
			return true
		}
	}
	return false
}

// testFolderPath reports a path, relative to the project, inside a
// folder the test suite owns (tests/, spec/, testdata/, fixtures/).
func testFolderPath(rel string) bool {
	for seg := range strings.SplitSeq(strings.Trim(rel, "/"), "/") {
		switch lower(seg) {
		case "test", "tests", "spec", "specs", "__tests__", "testdata", "fixtures", "__fixtures__", "test-fixtures":
			return true
		}
	}
	return false
}

// psFilteredToScratch reports a PowerShell pipeline stage fed by a
// Where-Object that keeps only names made for tests or previews
// (Get-AzResourceGroup | Where-Object ResourceGroupName -like 'rg-pr-*' |
// Remove-AzResourceGroup): what reaches the stage is throwaway.
func psFilteredToScratch(c *cmd) bool {
	if c.pipe == nil || c.stage == 0 {
		return false
	}
	for _, s := range c.pipe[:c.stage] {
		if s == nil || s.name != "where-object" && s.name != "?" && s.name != "where" {
			continue
		}
		args := s.args()
		j := lower(joinWords(args))
		if strings.Contains(j, "-or") || strings.Contains(j, "-not") || strings.Contains(j, "-ne ") || strings.Contains(j, "prod") {
			return false
		}
		// Where-Object Name -like 'pr-*' or { $_.Name -like 'pr-*' }
		f := strings.Fields(j)
		for i, op := range f {
			if i+1 >= len(f) || op != "-like" && op != "-ilike" && op != "-clike" && op != "-eq" && op != "-match" && op != "-imatch" {
				continue
			}
			v := strings.Trim(f[i+1], `"'{}()*^$.`)
			if v != "" && (testName(v) || pullRequestPattern(v)) {
				return true
			}
		}
	}
	return false
}

// pullRequestPattern reports a name pattern for every pull request's
// preview: pr-, rg-pr-, web-mr- (their numbers left to the wildcard).
func pullRequestPattern(v string) bool {
	v = strings.TrimRight(v, "-_")
	return v == "pr" || v == "mr" || strings.HasSuffix(v, "-pr") || strings.HasSuffix(v, "-mr") || strings.HasSuffix(v, "_pr")
}

// pushDeletesOnlyScratch reports a git push that only deletes remote
// refs, each named for throwaway work in more than one word (ci-tmp-pr-42,
// preview/pr-42): a bare "test" may be a shared branch.
func pushDeletesOnlyScratch(args []word) bool {
	var refs, pos []string
	deleting := false
	for i, w := range args {
		switch {
		case w.s == "--delete" || w.s == "-d":
			deleting = true
		case strings.HasPrefix(w.s, ":") && len(w.s) > 1:
			refs = append(refs, w.s[1:])
		case strings.HasPrefix(w.s, "-"), i == 0 && w.s == "push":
		default:
			pos = append(pos, w.s)
		}
	}
	if deleting && len(pos) > 1 {
		refs = append(refs, pos[1:]...) // after the remote
	} else if len(pos) > 1 {
		return false // pushes something as well
	}
	if len(refs) == 0 {
		return false
	}
	for _, r := range refs {
		name := r[strings.LastIndexByte(r, '/')+1:]
		if !testName(r) || len(nameWords(name)) < 2 && !strings.Contains(r, "/") {
			return false
		}
	}
	return true
}

// testEnvSet matches a framework's environment variable set to test
// earlier on a line: in cmd (set X=test), PowerShell ($env:X='test') or
// a POSIX export.
var testEnvSet = regexp.MustCompile(`(?i)\b(?:RAILS_ENV|RACK_ENV|MIX_ENV|NODE_ENV|APP_ENV|DJANGO_ENV|FLASK_ENV|ASPNETCORE_ENVIRONMENT)(?:\s*=\s*|\s+)["']?test(?:ing)?\b`)

// hasFoldEnv reports whether s holds "env" in any case: every name
// testEnvSet knows does, and most lines do not, so the expression is
// run only on the few that may match.
func hasFoldEnv(s string) bool {
	for i := 0; i+2 < len(s); i++ {
		if s[i]|0x20 == 'e' && s[i+1]|0x20 == 'n' && s[i+2]|0x20 == 'v' {
			return true
		}
	}
	return false
}

// emulated reports a client pointed at a local emulator of its service:
// *_EMULATOR_HOST on this machine (Firebase, Datastore, Pub/Sub,
// Bigtable, Spanner), a Firebase demo project (emulator only by
// definition), Azurite's development storage.
func (a *analysis) emulated(c *cmd) bool {
	for _, as := range c.assigns {
		if strings.HasSuffix(as.name, "_EMULATOR_HOST") && loopback(hostOf("//"+as.val.s)) {
			return true
		}
		// AWS_ENDPOINT_URL=http://localhost:4566: LocalStack's
		if strings.HasPrefix(as.name, "AWS_ENDPOINT_URL") && loopback(hostOf(as.val.s)) {
			return true
		}
	}
	switch c.name {
	case "awslocal", "tflocal", "cdklocal", "samlocal", "azlocal":
		return true // LocalStack's own wrappers
	case "aws", "gsutil", "az":
		// aws --endpoint-url http://localhost:4566: LocalStack's
		if u, ok := optValue(c.args(), "", "endpoint-url"); ok && loopback(hostOf(u)) {
			return true
		}
	}
	if (iacTools[c.name] || c.name == "aws") && strings.Contains(lower(c.cwd), "localstack") {
		return true // cd examples/localstack && terraform destroy: the emulator's
	}
	if v, ok := optValue(c.args(), "-P", "project"); ok && strings.HasPrefix(v, "demo-") && c.name == "firebase" {
		return true
	}
	// set earlier on the line for the emulator's own clients only
	l := a.srcLow()
	if i := strings.Index(l, "_emulator_host"); i >= 0 && (strings.Contains(l[i:], "localhost") || strings.Contains(l[i:], "127.0.0.1")) &&
		c.name == "firebase" {
		return true // $env:FIRESTORE_EMULATOR_HOST='localhost:8080'; firebase ...
	}
	return strings.Contains(c.name, "azstorage") && (strings.Contains(l, "new-azstoragecontext -local") || strings.Contains(l, "usedevelopmentstorage=true"))
}

// localCluster reports a command on a Kubernetes cluster of this machine:
// kind, k3d or minikube themselves, or kubectl and helm with a local
// context (--context kind-dev, --kube-context minikube, or use-context
// docker-desktop earlier on the line).
func (a *analysis) localCluster(c *cmd) bool {
	switch c.name {
	case "kind", "k3d", "minikube":
		return !hasWord(c.args(), "--all") && !hasWord(c.args(), "-a") // (every cluster of the machine is more than one's work)
	case "kubectl", "helm", "oc":
		_, ctx := optValue(c.args(), "", "context")
		_, kctx := optValue(c.args(), "", "kube-context")
		return localKubeContext(c.args()) || !ctx && !kctx && a.localKubeSwitched()
	}
	return false
}

// testVarRef reports a word that is one variable whose name says it
// holds a test database or resource ("$TEST_DATABASE_URL", ${E2E_DB}).
func testVarRef(s string) bool {
	if !strings.HasPrefix(s, "$") {
		return false
	}
	n := strings.Trim(s[1:], "{}")
	if n == "" || strings.ContainsAny(n, "$/ ") {
		return false
	}
	return testName(strings.ToLower(strings.ReplaceAll(n, "_", "-")))
}

// pullRequestVar reports a name made for one pull request from a CI
// variable: api-pr-${PR_NUMBER:?}, preview-pr-$CI_MERGE_REQUEST_IID.
func pullRequestVar(s string) bool {
	l := lower(s)
	for _, p := range [...]string{"pr-$", "pr-${", "mr-$", "mr-${", "pr$", "pr${"} {
		if i := strings.Index(l, p); i >= 0 && (i == 0 || !isAlnum(l[i-1])) {
			return true
		}
	}
	return false
}

// iacTools manage infrastructure as stacks or workspaces.
var iacTools = map[string]bool{"terraform": true, "tofu": true, "terragrunt": true, "pulumi": true, "cdk": true, "cdktf": true}

// scratchStack reports an infrastructure tool run on a stack made for
// throwaway work: its directory (cd infra/sandbox, -chdir=envs/pr-482),
// or a workspace or stack selected earlier in the command.
func (a *analysis) scratchStack(c *cmd) bool {
	if v, ok := optValue(c.args(), "", "chdir", "terragrunt-working-dir", "working-dir"); ok && dirScratch(v) {
		return true // (terragrunt --terragrunt-working-dir live/sandbox/pr-42)
	}
	for _, w := range c.args() {
		if v, ok := strings.CutPrefix(w.s, "-chdir="); ok && dirScratch(v) {
			return true // terraform -chdir=infra/local
		}
	}
	if v, ok := optValue(c.args(), "-s", "stack"); ok && testName(v) {
		return true
	}
	if c.name == "cdk" || c.name == "cdktf" {
		// cdk destroy ShopPr1423Stack: every stack named is a pull
		// request's or a test's
		if ops := c.operands(); len(ops) > 1 && ops[0].s == "destroy" {
			all := true
			for _, w := range ops[1:] {
				all = all && throwawayName(w.s)
			}
			if all {
				return true
			}
		}
	}
	if a.workDir != "" && strings.HasPrefix(c.cwd, a.workDir+"/") && dirScratch(c.cwd[len(a.workDir)+1:]) {
		return true
	}
	if i := strings.Index(a.src, "TF_WORKSPACE"); i >= 0 {
		// TF_WORKSPACE=sandbox-x, $env:TF_WORKSPACE='sandbox-x'
		v := strings.TrimLeft(a.src[i+len("TF_WORKSPACE"):], " =")
		if f := strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == ';' || r == '&' }); len(f) > 0 && testName(strings.Trim(f[0], `"'`)) {
			return true
		}
	}
	for _, key := range [...]string{"workspace select ", "workspace new ", "stack select "} {
		if i := strings.Index(a.src, key); i >= 0 {
			if f := strings.Fields(a.src[i+len(key):]); len(f) > 0 && testName(strings.Trim(f[0], `"'`)) {
				return true
			}
		}
	}
	return false
}

// dirScratch reports a relative directory one of whose parts is named
// as throwaway (sandbox, preview, pr-482).
func dirScratch(p string) bool {
	for _, part := range strings.Split(strings.ReplaceAll(p, `\`, "/"), "/") {
		if part != "" && (testName(part) || part == "local") {
			return true
		}
	}
	return false
}

// scratchDir reports a directory named through the variables CI runners
// and the system set for throw-away files ($RUNNER_TEMP/x, $TMPDIR/x).
func scratchDir(dir string) bool {
	for _, v := range [...]string{"$RUNNER_TEMP/", "${RUNNER_TEMP}/", "$TMPDIR/", "${TMPDIR}/", "$TMP/", "$TEMP/", "$AGENT_TEMPDIRECTORY/"} {
		if strings.HasPrefix(dir, v) && len(dir) > len(v) {
			return true
		}
	}
	return false
}

// userOption reports an option whose value is a user name.
func userOption(s string) bool {
	switch s {
	case "-u", "-U", "--user", "--username", "-username", "-user", "--login":
		return true
	}
	return false
}

// localDevScoped reports a command aimed, by an explicit host option, at
// a server on this machine, and at a database named for development
// (psql -h localhost app_dev, Invoke-Sqlcmd -ServerInstance localhost
// -Database AppDev): a developer's own copy, which seeds and migrations
// make again. Naming the host matters: without it a client may reach
// whatever its environment points at.
func localDevScoped(c *cmd) bool {
	if embeddedDBClient(c.name) {
		// sqlite3 db/dev.sqlite3: a file of this machine's, named for
		// development (app.db may be what the application serves)
		ops := posArgs(c.args(), optSpec{short: "c", long: []string{"cmd", "init", "separator", "newline", "nullvalue"}})
		if len(ops) == 0 || !ops[0].ok || strings.HasPrefix(ops[0].s, "/") || touchesProduction(c) {
			return false
		}
		base := lower(path.Base(ops[0].s))
		return localDBFile(base) && (strings.Contains(base, "dev") || strings.Contains(base, "local"))
	}
	t := dbTargetOf(c)
	if t.notOwn || !(t.dev || t.local) {
		return false
	}
	for _, h := range t.hosts {
		if loopback(h) || h == "." || strings.EqualFold(h, "(localdb)") {
			return true
		}
	}
	return false
}

// embeddedDBClient reports a client of a database kept in a file.
func embeddedDBClient(name string) bool {
	return name == "sqlite3" || name == "sqlite" || name == "duckdb" || name == "litecli"
}

// namesOtherServer reports a database client told to reach a server other
// than the one beside it (psql -h 10.0.0.5 in a test container).
func namesOtherServer(c *cmd) bool {
	for _, h := range dbTargetOf(c).hosts {
		if h != "" && !loopback(h) {
			return true
		}
	}
	return false
}

// sharedDBServer returns the server a database client names when it is
// a shared one: an address or host name that is not this machine, not a
// compose service's short name (db, postgres) and not named for tests,
// development or staging; "" otherwise (a server given by a variable is
// not known).
func sharedDBServer(c *cmd) string {
	t := dbTargetOf(c)
	siteDomain := false // (a host of the site's .local domain names no local server)
	for _, h := range t.hosts {
		siteDomain = siteDomain || strings.HasSuffix(lower(h), ".local")
	}
	if t.dev || t.local && !siteDomain {
		return ""
	}
	for _, h := range t.hosts {
		l := strings.TrimSuffix(lower(strings.Trim(h, `"'[]`)), ".local") // (records-db.firm.local: a machine of the site's)
		if l == "" || strings.ContainsAny(l, "$%{(") || loopback(l) || l == "." || l == "0.0.0.0" || l == "host.docker.internal" ||
			testName(l) || strings.Contains(l, "staging") || strings.Contains(l, "stage") || strings.Contains(l, "sandbox") || strings.Contains(l, "local") {
			continue
		}
		if !strings.Contains(l, ".") && composeServiceName(l) {
			continue
		}
		return h
	}
	return ""
}

// composeServiceName reports a short host name that a compose file gives
// its database service: the developer's own container.
func composeServiceName(h string) bool {
	switch strings.TrimRight(h, "0123456789-") {
	case "db", "database", "postgres", "postgresql", "pg", "mysql", "mariadb", "mssql", "sqlserver", "sql", "mongo", "mongodb",
		"redis", "valkey", "clickhouse", "cassandra", "scylla", "cockroach", "cockroachdb", "timescale", "timescaledb", "oracle", "questdb":
		return true
	}
	return false
}

// rolledBack reports SQL that ends by rolling back what it did.
func rolledBack(a *analysis, c *cmd) bool {
	text, _ := a.sqlOf(c)
	u := strings.ToUpper(text)
	i := strings.LastIndex(u, "ROLLBACK")
	return i >= 0 && !strings.Contains(u[i:], "COMMIT") && !strings.Contains(u, "COMMIT")
}

// dbTarget is what a database client's command line says of the server
// it reaches.
type dbTarget struct {
	// hosts are the servers it names: host options, URLs (also inside an
	// option, -url=jdbc:postgresql://h/x), URL variables, cqlsh's host.
	hosts []string
	// dev and local say that a name (database, URL, settings module)
	// says development, or local.
	dev, local bool
	// notOwn says that a word names staging, something shared, or
	// production.
	notOwn bool
}

func dbTargetOf(c *cmd) dbTarget {
	var t dbTarget
	naming := func(s string) {
		for _, w := range nameWords(s) {
			switch w {
			case "dev", "development":
				t.dev = true
			case "local":
				t.local = true
			}
		}
	}
	args := c.args()
	for i, w := range args {
		l := lower(w.s)
		if strings.Contains(l, "staging") || strings.Contains(l, "shared") || isProdName(w.s) {
			t.notOwn = true
		}
		switch l {
		case "-h", "--host", "-s", "--server", "-serverinstance", "-server", "-hostname":
			if i+1 < len(args) {
				// sql01,1433 and sql01\INSTANCE name the server sql01
				h, _, _ := strings.Cut(args[i+1].s, ",")
				h, _, _ = strings.Cut(h, `\`)
				t.hosts = append(t.hosts, h)
			}
		}
		if k := strings.Index(l, "://"); k >= 0 {
			t.hosts = append(t.hosts, hostOf(w.s))
			// -url=jdbc:postgresql://localhost:5432/x
			if j := strings.LastIndexAny(l[:k], "=:") + 1; j > 0 {
				t.hosts = append(t.hosts, hostOf(w.s[j:]))
			}
		} else if i == 0 && c.name == "cqlsh" && strings.Contains(w.s, ".") {
			t.hosts = append(t.hosts, w.s)
		} else if strings.Contains(l, "host=") || strings.Contains(l, "server=") {
			// psql "host=db.x dbname=y", Server=sql01;Database=y
			for _, kv := range strings.FieldsFunc(w.s, func(r rune) bool { return r == ' ' || r == ';' }) {
				k, v, ok := strings.Cut(kv, "=")
				if k = lower(k); ok && (k == "host" || k == "server" || k == "hostaddr") {
					h, _, _ := strings.Cut(strings.TrimPrefix(v, "tcp:"), ",")
					h, _, _ = strings.Cut(h, `\`)
					t.hosts = append(t.hosts, h)
				}
			}
		}
		naming(w.s)
	}
	for _, as := range c.assigns {
		// DATABASE_URL=postgres://localhost/inventory_dev diesel ...,
		// DJANGO_SETTINGS_MODULE=app.settings.dev
		url := strings.HasSuffix(as.name, "_URL") && strings.Contains(as.val.s, "://")
		if url {
			t.hosts = append(t.hosts, hostOf(as.val.s))
		}
		if url || strings.HasPrefix(as.name, "DJANGO_SETTINGS") {
			naming(as.val.s)
		}
	}
	return t
}

// redisScratchDB reports FLUSHDB of a numbered database other than the
// default one on a local server: the numbered databases of a developer's
// redis are the ones test suites take.
func redisScratchDB(args []word) bool {
	if redisSecondLocal(args) {
		return true
	}
	if !hasWord(args, "FLUSHDB") && !hasWord(args, "flushdb") {
		return false
	}
	n, ok := optValue(args, "-n", "")
	if n == "0" {
		return false // the default database, named: where the developer's data is
	}
	if !ok || n == "" {
		// the default database of a server named on this machine (-h
		// 127.0.0.1): a developer's own cache or test instance
		h, named := optValue(args, "-h", "")
		return named && loopback(h)
	}
	if h, ok := optValue(args, "-h", ""); ok && !loopback(h) {
		return false
	}
	if u, ok := optValue(args, "-u", ""); ok && !loopback(hostOf(u)) {
		return false
	}
	return true
}

// redisSecondLocal reports a redis server on this machine on a port of
// its own (-h localhost -p 6380, redis://127.0.0.1:6380): a second
// instance started beside the developer's own, for tests.
func redisSecondLocal(args []word) bool {
	port, host := "", ""
	if u, ok := optValue(args, "-u", ""); ok {
		pu, err := url.Parse(u)
		if err != nil {
			return false
		}
		host, port = pu.Hostname(), pu.Port()
	} else {
		h, named := optValue(args, "-h", "")
		if !named {
			h = "localhost"
		}
		host = h
		port, _ = optValue(args, "-p", "")
	}
	return loopback(host) && port != "" && port != "6379" && allDigits(port)
}

// forwardsPort reports a line that forwards a local port to a server
// elsewhere (kubectl port-forward, ssh -L, a cloud's database proxy):
// there, this machine's ports are other servers'.
func forwardsPort(src string) bool {
	if strings.Contains(src, "ssh") && strings.Contains(src, "-L") {
		return true // ssh -L PORT:HOST:PORT
	}
	l := lower(src)
	for _, k := range [...]string{"port-forward", "sql-proxy", "sql_proxy", "start-session", "socat ", "iap-tunnel", "--local-port", "proxy "} {
		if strings.Contains(l, k) {
			return true
		}
	}
	return false
}

// loopback reports this machine by name or address.
func loopback(h string) bool {
	if h == "localhost" {
		return true
	}
	ip, ok := parseIP(h)
	return ok && ip.IsLoopback()
}

func slicesContains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// testName reports a name made of words one of which marks tests.
func testName(s string) bool {
	for _, scheme := range [...]string{"s3://", "gs://", "az://", "r2://", "b2://", "oss://", "cos://"} {
		// s3://acme-ci-artifacts/builds/123: the bucket says whose it is
		if rest, ok := strings.CutPrefix(lower(s), scheme); ok {
			bucket, key, _ := strings.Cut(rest, "/")
			if bucket != "" && testName(bucket) && !strings.Contains(key, "release") {
				// (a CI bucket's releases/ are what was shipped)
				return true
			}
		}
	}
	if i := strings.LastIndexByte(s, '/'); i >= 0 && i < len(s)-1 {
		s = s[i+1:] // a path's or URL's last part
	}
	words := nameWords(s)
	for i, t := range words {
		switch t {
		case "test", "tests", "testing", "e2e", "ci", "spec", "specs", "fixture", "fixtures", "testdb", "test1", "test2", "integration",
			// throwaway work: a spike, a scratch copy, a preview of one
			// pull request, a personal sandbox or a local kind cluster
			"scratch", "spike", "sandbox", "preview", "previews", "throwaway", "playground", "tmp", "temp", "exp", "experiment", "kind":
			return true
		case "dev":
			// a local file for development (compose.dev.yml, dev.db,
			// .env.dev); a dev database on a server (db.dev.internal) may
			// be shared
			if devFile(s) {
				return true
			}
		case "pr":
			if i+1 < len(words) && allDigits(words[i+1]) {
				return true
			}
		case "it":
			// shop_it, orders-it: integration tests' own (not a flag: -it)
			if i > 0 {
				return true
			}
		}
	}
	return false
}

// devFile reports a name with "dev" in it that is a file's: it starts
// with a dot or ends with a file type's extension, not a domain's.
func devFile(s string) bool {
	i := strings.LastIndexByte(s, '.')
	if i < 0 || i == len(s)-1 {
		return false
	}
	if s[0] == '.' {
		return true
	}
	return devFileTypes[strings.ToLower(s[i+1:])]
}

// devFilesOnly reports a command whose only throwaway-looking words are
// files for development (-f compose.dev.yml): the stack they start is the
// developer's own, with their data in its volumes, not a test's.
func devFilesOnly(c *cmd) bool {
	dev := false
	for _, w := range c.args() {
		if !w.ok || !testName(w.s) {
			continue
		}
		if testNameBesidesDev(w.s) {
			return false // a test's own file or project as well
		}
		dev = true
	}
	return dev
}

// testNameBesidesDev reports a name that says test or throwaway by a
// word other than dev (compose.dev.yml and dev.db are the developer's
// own; test.db and compose.e2e.yml a test's).
func testNameBesidesDev(s string) bool {
	return testName(strings.ReplaceAll(lower(s), "dev", "zz"))
}

var devFileTypes = map[string]bool{
	"yml": true, "yaml": true, "json": true, "db": true, "sqlite": true, "sqlite3": true, "sql": true, "env": true, "toml": true,
	"ini": true, "conf": true, "cfg": true, "properties": true, "js": true, "ts": true, "mjs": true, "cjs": true, "py": true,
	"rb": true, "sh": true, "xml": true, "dump": true, "bak": true, "local": true, "tfvars": true, "hcl": true, "exs": true,
	"php": true, "dockerfile": true, "txt": true, "csv": true, "ps1": true, "psd1": true,
}

// sharedDevServer reports a database client pointed at a server that is
// neither this machine nor production, whose name or database says
// development (db.dev.internal, acme_dev on dev-db.internal): a team's
// shared development data.
func sharedDevServer(c *cmd) bool {
	if touchesProduction(c) {
		return false
	}
	t := dbTargetOf(c)
	if !t.dev {
		return false
	}
	for _, h := range t.hosts {
		if h != "" && !loopback(h) && internalHost(h) {
			return true
		}
	}
	return false
}

// internalHost reports a server of the organisation's own network: a
// name under an internal domain or a private address.
func internalHost(h string) bool {
	h = strings.ToLower(h)
	if i := strings.LastIndexByte(h, ':'); i > 0 && !strings.Contains(h[:i], ":") {
		h = h[:i]
	}
	for _, suffix := range [...]string{".internal", ".corp", ".lan", ".intranet", ".home.arpa"} {
		if strings.HasSuffix(h, suffix) {
			return true
		}
	}
	ip, ok := parseIP(h)
	return ok && ip.IsPrivate()
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// nameWords splits a name into lower-case words at punctuation and at
// camel case: AppTest_db → app, test, db.
func nameWords(s string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		var b byte
		if i < len(s) {
			b = s[i]
		}
		alnum := b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
		camel := alnum && start >= 0 && b >= 'A' && b <= 'Z' && s[i-1] >= 'a' && s[i-1] <= 'z'
		if start >= 0 && (!alnum || camel) {
			out = append(out, strings.ToLower(s[start:i]))
			start = -1
		}
		if alnum && start < 0 {
			start = i
		}
	}
	return out
}

// sourceDirs are the top-level directories of a work directory that hold
// what its authors wrote: deleting one loses work git may not have.
// deploymentRecords are a contract project's records of its deployments:
// hardhat-deploy's deployments, Foundry's broadcast, OpenZeppelin's
// upgrade manifests (the addresses and layouts later upgrades need).
var deploymentRecords = map[string]bool{"deployments": true, "broadcast": true, ".openzeppelin": true}

var sourceDirs = map[string]bool{"src": true, "source": true, "app": true, "internal": true, "pkg": true, "cmd": true, "Sources": true,
	"deployments": true, "broadcast": true, ".openzeppelin": true,
	"lib": true, "migrations": true, "db": true,
	// game engines' (Unreal, Unity, Godot) and mobile projects' own
	"Source": true, "Content": true, "Assets": true, "ProjectSettings": true, "Scenes": true, "Scripts": true, "ios": true, "android": true}

// generatedDirs are directories whose files a build, a test run or a
// package manager makes again.
var generatedDirs = map[string]bool{"build": true, "dist": true, "out": true, "target": true, "node_modules": true, "vendor": true,
	".cache": true, "cache": true, "coverage": true, "generated": true, "gen": true, "__pycache__": true, "tmp": true, ".tmp": true,
	"temp": true, ".next": true, ".nuxt": true, ".turbo": true, "bin": true, "obj": true, "logs": true, "log": true, "test-output": true,
	".pytest_cache": true, ".venv": true, "venv": true, ".tox": true, ".gradle": true, "artifacts": true, "output": true,
	".output": true, "test-results": true, "playwright-report": true, "htmlcov": true, "builds": true,
	// mobile and game engine projects' (CocoaPods, Xcode, Unreal, Unity, Godot, Flutter)
	"Pods": true, "DerivedData": true, "xcuserdata": true, "Intermediate": true, "Saved": true, "Binaries": true, "Build": true, "Builds": true,
	"DerivedDataCache": true, "Library": true, "Temp": true, "Logs": true, ".godot": true, ".import": true, ".dart_tool": true,
	// dotnet test's results, nyc's coverage data
	"TestResults": true, ".nyc_output": true,
	// bundlers' and type checkers' caches
	".parcel-cache": true, ".svelte-kit": true, ".angular": true, ".vite": true, ".mypy_cache": true, ".ruff_cache": true}

// generatedDirsFold are generatedDirs' names in lower case, for paths
// whose case says nothing (Windows').
var generatedDirsFold = func() map[string]bool {
	m := make(map[string]bool, len(generatedDirs))
	for k := range generatedDirs {
		m[strings.ToLower(k)] = true
	}
	return m
}()

// sourceExts are the extensions of files people write: code, schemas
// and data, not what a build or a run leaves.
var sourceExts = map[string]bool{"go": true, "py": true, "ts": true, "tsx": true, "js": true, "jsx": true, "mjs": true, "cjs": true,
	"rs": true, "java": true, "kt": true, "scala": true, "c": true, "h": true, "cc": true, "cpp": true, "hpp": true, "cs": true,
	"rb": true, "php": true, "swift": true, "ex": true, "exs": true, "erl": true, "hs": true, "dart": true, "lua": true, "sql": true,
	"proto": true, "vue": true, "svelte": true, "ipynb": true, "csv": true, "r": true, "jl": true, "tf": true, "ps1": true, "psm1": true,
	"gd": true, "tscn": true, "tres": true, "uasset": true, "umap": true, "unity": true, "prefab": true, "storyboard": true, "xib": true,
	"m": true, "mm": true, "kts": true, "xaml": true, "razor": true, "fs": true, "elm": true, "clj": true, "nim": true, "zig": true, "sol": true,
	// what training and transcription make and no build makes again:
	// model checkpoints and weights, subtitles and transcripts
	"ckpt": true, "safetensors": true, "pth": true, "srt": true, "vtt": true,
	// templates of themes and sites
	"liquid": true, "twig": true, "hbs": true, "ejs": true, "erb": true, "jinja": true, "j2": true}

// sourceGlob reports a name pattern that selects source files: *.py,
// *.{ts,tsx}.
func sourceGlob(pat string) bool {
	pat = stripGlobQualifier(pat)
	if strings.HasPrefix(pat, "**.") {
		pat = pat[1:] // fish's **.go is every .go file below
	}
	ext, ok := strings.CutPrefix(pat, "*.")
	if !ok {
		return false
	}
	if inner, ok := strings.CutPrefix(ext, "{"); ok {
		for _, e := range strings.Split(strings.TrimSuffix(inner, "}"), ",") {
			if !sourceExts[strings.ToLower(e)] {
				return false
			}
		}
		return true
	}
	return sourceExts[strings.ToLower(ext)]
}

// stripGlobQualifier removes a zsh glob qualifier: *(.) → *.
func stripGlobQualifier(pat string) string {
	if strings.HasSuffix(pat, ")") {
		if i := strings.LastIndexByte(pat, '('); i > 0 {
			return pat[:i]
		}
	}
	return pat
}

// sourceTarget reports an absolute path in the work directory that names
// the project's own files: source files by extension (with glob, a
// pattern of them, or every file of a source directory), outside the
// directories builds and tools regenerate.
func (a *analysis) sourceTarget(p string, glob bool) bool {
	if a.workDir == "" || !a.inWork(p) || p == a.workDir {
		return false
	}
	rel := p[len(a.workDir)+1:]
	var buf [12]string
	comps := pathComps(rel, buf[:0])
	base := stripGlobQualifier(comps[len(comps)-1])
	if frameworkCache(comps) {
		return false
	}
	for i, c := range comps {
		if generatedDirs[c] || generatedDirsFold[strings.ToLower(c)] {
			return false // (Windows paths come lower-cased: library, derivedddatacache)
		}
		if strings.HasPrefix(c, ".") && c != "." && !(i == len(comps)-1 && !glob && localSettingsFile(base)) {
			return false
		}
	}
	if !glob && localSettingsFile(base) {
		return true // .env, local.settings.json: the developer's own settings
	}
	if !glob && (localDBFile(base) && !testNameBesidesDev(base) || strings.HasPrefix(base, "terraform.tfstate")) {
		return true // dev.db, terraform.tfstate: data the project cannot make again
	}
	if glob {
		if sourceGlob(base) {
			return true
		}
		if strings.HasPrefix(base, "*.") && !strings.ContainsAny(base[2:], "*?[") && localDBFile("development"+base[1:]) && !slices.ContainsFunc(comps, testNameBesidesDev) {
			return true // db/*.sqlite3: every local database of the project
		}
		return (base == "*" || base == "**") && len(comps) > 1 && sourceDirs[comps[0]]
	}
	if projectManifests[base] {
		return true
	}
	ext := strings.ToLower(path.Ext(base))
	if len(comps) > 1 && configDirs[comps[0]] && configExts[ext] {
		return true // config/settings.yaml: the project's own settings
	}
	return ext != "" && sourceExts[ext[1:]]
}

// gitInternal reports a repository's own bookkeeping under its root:
// the index, HEAD, refs and objects.
func gitInternal(rel string) bool {
	switch rel {
	case "/.git/index", "/.git/HEAD", "/.git/packed-refs", "/.git/config":
		return true
	}
	return strings.HasPrefix(rel, "/.git/refs/") || strings.HasPrefix(rel, "/.git/objects/")
}

// configDirs hold a project's settings; configExts are their files'.
var (
	configDirs = map[string]bool{"config": true, "configs": true, "conf": true, "settings": true}
	configExts = map[string]bool{".yaml": true, ".yml": true, ".toml": true, ".json": true, ".ini": true, ".properties": true}
)

// projectManifests are the files that declare a project's modules,
// dependencies and build: written by people, with no extension of code.
var projectManifests = map[string]bool{"go.mod": true, "go.sum": true, "package.json": true, "Cargo.toml": true, "pyproject.toml": true,
	"requirements.txt": true, "Gemfile": true, "pom.xml": true, "build.gradle": true, "build.gradle.kts": true, "settings.gradle": true,
	"Makefile": true, "Dockerfile": true, "composer.json": true, "mix.exs": true, "setup.py": true, "setup.cfg": true, "CMakeLists.txt": true,
	"docker-compose.yml": true, "compose.yaml": true, "README.md": true, "tsconfig.json": true, "deno.json": true}

// generatedOnly reports git pathspecs (after --, or the operands) that all
// lie in directories builds regenerate: git clean -fd -- build/.
func generatedOnly(args []word) bool {
	var specs []word
	for i, w := range args {
		if w.s == "--" {
			specs = args[i+1:]
			break
		}
	}
	if specs == nil {
		specs = positional(args)
	}
	if len(specs) == 0 {
		return false
	}
	for _, w := range specs {
		if !w.ok {
			return false
		}
		clean := path.Clean(strings.ReplaceAll(w.s, `\`, "/"))
		gen := buildArtefacts[path.Base(clean)] // '*.log', '*.pyc'
		for _, c := range strings.Split(clean, "/") {
			if c == ".." {
				return false
			}
			gen = gen || generatedDirs[c]
		}
		if !gen {
			return false
		}
	}
	return true
}

// trackedFiles reports a word that stands for each file git tracks.
func trackedFiles(w word) bool {
	return w.flow != nil && w.flow.kind == flowList && w.flow.what == "tracked files"
}

// substNamesPullRequest reports a line whose command substitutions name a
// pull request's resource and nothing in production ($(az ad app list
// --display-name acme-pr-1423 ...)).
func substNamesPullRequest(src string) bool {
	found := false
	for rest := src; ; {
		i := strings.Index(rest, "$(")
		if i < 0 {
			return found
		}
		rest = rest[i+2:]
		body := rest
		if j := strings.IndexByte(body, ')'); j >= 0 {
			body = body[:j]
		}
		if isProdName(body) {
			return false
		}
		found = found || pullRequestName(lower(body))
	}
}

// dbVarSetToTest reports a line that sets the database its clients reach
// to one named for tests before using it (export PGDATABASE=shop_test,
// fish's set -x PGDATABASE shop_test, $env:PGDATABASE = 'shop_test').
func dbVarSetToTest(src string) bool {
	for _, v := range [...]string{"PGDATABASE", "MYSQL_DATABASE", "DB_NAME"} {
		i := strings.Index(src, v)
		if i < 0 {
			continue
		}
		rest := strings.TrimLeft(src[i+len(v):], " \t=")
		val, _, _ := strings.Cut(rest, " ")
		val, _, _ = strings.Cut(val, ";")
		if val = strings.Trim(val, `"'`); val != "" && testName(val) {
			return true
		}
	}
	return false
}

// dataWord returns what a word says of the data a command acts on: an
// operand itself, an option's value (--stack=preview-42); an option's
// name alone (--skip-preview) says nothing, and ok is false.
func dataWord(s string) (string, bool) {
	if !strings.HasPrefix(s, "-") {
		return s, true
	}
	_, after, ok := strings.Cut(s, "=")
	return after, ok
}

// prNumbered reports an operand or option value naming a pull request by
// its number (pr-1423, preview-pr-1423, module.pr_88), and none naming
// production.
func prNumbered(args []word) bool {
	found := false
	for _, w := range args {
		v, ok := dataWord(w.s)
		if !ok {
			continue
		}
		if isProdName(v) || prodMarker(v) {
			return false
		}
		if w.ok && (pullRequestName(lower(v)) || camelPullRequest(v)) {
			found = true
		}
	}
	return found
}

// headDistance reads HEAD, HEAD~N, HEAD^ or @~N as a number of commits
// back from HEAD.
func headDistance(ref string) (int, bool) {
	rest, ok := strings.CutPrefix(ref, "HEAD")
	if !ok {
		if rest, ok = strings.CutPrefix(ref, "@"); !ok {
			return 0, false
		}
	}
	switch {
	case rest == "":
		return 0, true
	case strings.Trim(rest, "^") == "":
		return len(rest), true
	case rest[0] == '~':
		if rest == "~" {
			return 1, true
		}
		n, err := strconv.Atoi(rest[1:])
		return n, err == nil && n >= 0
	}
	return 0, false
}

// vcsTestSuite reports a version-controlled project's whole test folder
// (tests, test, spec): the developer's own tests, not a test's fixtures.
func vcsTestSuite(s string) bool {
	switch strings.TrimPrefix(strings.TrimSuffix(strings.ReplaceAll(s, `\`, "/"), "/"), "./") {
	case "tests", "test", "spec", "specs", "__tests__":
		return true
	}
	return false
}

// lineCommands splits a line into its simple commands' texts (roughly:
// at &&, ||, ;, | and newlines), enough to find which came first.
var lineCommands = regexp.MustCompile(`&&|\|\||;|\||\n`)

// cloudCreators are the cloud clients whose resources a line may make and
// delete again (a smoke test's queue, topic or bucket).
var cloudCreators = map[string]bool{"aws": true, "gcloud": true, "az": true, "doctl": true, "oci": true, "hcloud": true, "scw": true, "linode-cli": true, "ibmcloud": true}

// madeEarlierOnLine reports a cloud client deleting what the same line
// made with it first: Q=$(aws sqs create-queue ...) ... aws sqs
// delete-queue --queue-url "$Q", gcloud pubsub topics create $T && ...
// gcloud pubsub topics delete $T.
func madeEarlierOnLine(src string, c *cmd) bool {
	if !cloudCreators[c.name] || !strings.Contains(src, "create") {
		return false
	}
	var targets []string
	for _, w := range c.args() {
		if s := strings.Trim(w.s, `"'`); len(s) > 2 && !strings.HasPrefix(s, "-") {
			targets = append(targets, s)
		}
	}
	segs := lineCommands.Split(src, -1)
	for i, seg := range segs {
		if !strings.Contains(seg, c.name+" ") || !strings.Contains(seg, "create") {
			continue
		}
		fields := strings.Fields(seg)
		for _, t := range targets {
			// the name itself, given to the create
			if !strings.HasPrefix(t, "$") && !strings.Contains(t, "$") && slices.ContainsFunc(fields, func(f string) bool { return strings.Trim(f, `"'`) == t }) &&
				laterSegmentHas(segs[i+1:], t) {
				return true
			}
			// a variable given to it, or set to what it printed
			if v, ok := strings.CutPrefix(strings.Trim(t, "{}"), "$"); ok && v != "" {
				v = strings.Trim(v, "{}")
				if slices.ContainsFunc(fields, func(f string) bool { f = strings.Trim(f, `"'`); return f == "$"+v || f == "${"+v+"}" }) ||
					strings.Contains(seg, v+"=$(") {
					return laterSegmentHas(segs[i+1:], "$"+v) || laterSegmentHas(segs[i+1:], "${"+v+"}")
				}
			}
		}
	}
	return false
}

func laterSegmentHas(segs []string, t string) bool {
	for _, s := range segs {
		if strings.Contains(s, t) {
			return true
		}
	}
	return false
}

// switchForceCreate reports git switch -C (a branch reset to a start
// point, its commits lost), in the subcommand's own arguments.
func switchForceCreate(args []word) bool {
	for _, w := range args {
		if w.s == "--" {
			break
		}
		if len(w.s) > 1 && w.s[0] == '-' && w.s[1] != '-' && strings.ContainsRune(w.s, 'C') {
			return true
		}
	}
	return false
}
