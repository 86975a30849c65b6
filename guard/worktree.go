package guard

import (
	"path"
	"strings"
)

// --- losing uncommitted work: commands that throw away the working
// tree's changes, local commits or stashes, and deletions of everything
// in the work directory ---

// wholeTreeSpec reports a pathspec that covers the whole tree or a
// directory of it, or that is computed.
func wholeTreeSpec(w word) bool {
	s := w.s
	return !w.ok || w.glob && strings.HasPrefix(s, "*") || s == "." || s == "./" || s == ":/" || s == "*" || s == ":(top)" || strings.HasSuffix(s, "/") || s == ".." || strings.HasPrefix(s, ":/")
}

// gitDiscards reports what a git (or hg, svn) command discards, or "".
func gitDiscards(c *cmd) string {
	if c.name == "hg" || c.name == "svn" {
		args := c.args()
		if len(args) == 0 {
			return ""
		}
		switch args[0].s {
		case "revert":
			if hasWord(args, "--all") || hasWord(args, "-a") || hasWord(args, "-R") || hasWord(args, "--recursive") {
				return c.name + " revert"
			}
		case "update", "up", "checkout", "co":
			if hasWord(args, "-C") || hasWord(args, "--clean") {
				return c.name + " update --clean"
			}
		case "purge", "clean":
			return c.name + " " + args[0].s
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
	case "checkout":
		if o.has("f", "force") || o.has("B", "") {
			return "git checkout --force"
		}
		if dash >= 0 {
			for _, w := range args[dash+1:] {
				if wholeTreeSpec(w) {
					return "git checkout -- " + w.s
				}
			}
		}
		for _, w := range ops {
			if wholeTreeSpec(w) {
				return "git checkout " + w.s
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
	case "clean":
		if o.has("f", "force") && !o.has("n", "dry-run") && !o.has("i", "interactive") {
			return "git clean --force"
		}
	case "stash":
		if len(ops) > 0 && (ops[0].s == "drop" || ops[0].s == "clear") {
			return "git stash " + ops[0].s
		}
	case "switch":
		if o.has("f", "force") || o.has("", "discard-changes") || o.has("C", "force-create") {
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
		if o.has("f", "force") {
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
	case "worktree":
		if len(ops) > 0 && ops[0].s == "remove" && o.has("f", "force") {
			return "git worktree remove --force"
		}
	}
	return ""
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
		empty := false
		switch {
		case t.content.kind == flowLocal && t.content.what == "/dev/null":
			empty = true
		case t.content.kind == flowNone && (len(c.words) == 0 || c.name == ":" || c.name == "true"):
			empty = true
		case c.name == "truncate":
			if s, ok := optValue(c.args(), "-s", "size"); ok && (s == "0" || s == "0K" || s == "0M") {
				empty = true
			}
		}
		if empty {
			return t.raw
		}
	}
	return ""
}

// testScoped reports a command aimed at a database, volume, compose
// project or repository that only tests use: a name, file or URL with a
// test token (myapp_test, test.db, docker-compose.test.yml), a test
// environment (RAILS_ENV=test), or a fixture repository (git -C
// tests/fixtures/repo), and nothing that names production.
func (a *analysis) testScoped(c *cmd) bool {
	if touchesProduction(c) || slicesContains(deleters, c.name) || c.name == "dd" || c.name == "truncate" {
		return false
	}
	for _, as := range c.assigns {
		switch as.name {
		case "RAILS_ENV", "RACK_ENV", "MIX_ENV", "NODE_ENV", "APP_ENV", "ENV", "ENVIRONMENT", "DJANGO_ENV", "FLASK_ENV", "ASPNETCORE_ENVIRONMENT":
			if strings.EqualFold(as.val.s, "test") || strings.EqualFold(as.val.s, "testing") {
				return true
			}
		case "DATABASE_URL", "DB_NAME", "PGDATABASE", "MYSQL_DATABASE":
			if testName(as.val.s) {
				return true
			}
		}
	}
	if c.name == "git" {
		if dir, ok := optValue(c.args(), "-C", ""); ok {
			p := a.absPath(dir, c.cwd)
			return p != "" && a.inWork(p) && fixtureGit(p[len(a.workDir):]+"/.git")
		}
		return false
	}
	for _, w := range c.args() {
		if w.ok && testName(w.s) {
			return true
		}
	}
	return false
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
	if i := strings.LastIndexByte(s, '/'); i >= 0 && i < len(s)-1 {
		s = s[i+1:] // a path's or URL's last part
	}
	for _, t := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
		switch t {
		case "test", "tests", "testing", "e2e", "ci", "spec", "specs", "fixture", "fixtures", "testdb", "test1", "test2":
			return true
		}
	}
	return false
}
