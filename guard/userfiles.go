package guard

import (
	"path"
	"strings"
)

// userConfigReplaced returns the user's own settings or data file that c
// replaces with another file: cp -f .npmrc ~/.npmrc, mv settings.json
// ~/.config/Code/User/settings.json, ln -sf "$PWD/.gitconfig"
// ~/.gitconfig, dd of=~/.local/share/keyrings/login.keyring. The old file
// is gone, with whatever tokens and settings it held. A copy that cannot
// replace (cp -n, cp -i, --backup, ln -s without -f), a file the line
// backed up or whose directory it made, a backup's own name, completions
// and the user's own programs (~/.local/bin) pass; files with a class of
// their own (shell start-up files, SSH, services) are other rules'.
func (a *analysis) userConfigReplaced(c *cmd) string {
	switch c.name {
	case "cp", "mv", "ln", "install", "dd", "rsync":
	default:
		return ""
	}
	o := c.opts()
	if c.name == "cp" || c.name == "rsync" {
		// cp -r dotfiles/. ~/, rsync -a dotfiles/ ~/: a tree's contents
		// merged over the home, its dot-files replaced
		if ops := c.operands(); len(ops) == 2 && !o.has("n", "no-clobber") && !o.has("", "ignore-existing") && !o.has("b", "backup") {
			src := ops[0].s
			if p := a.absPath(ops[1].s, c.cwd); p != "" && (strings.HasSuffix(src, "/.") || strings.HasSuffix(src, "/*") || c.name == "rsync" && strings.HasSuffix(src, "/")) {
				if rel, mine, home := a.homeRel(p); home && mine && rel == "" {
					return ops[1].s
				}
			}
		}
		if c.name == "rsync" {
			return ""
		}
	}
	switch c.name {
	case "cp", "mv":
		if o.has("n", "no-clobber") || o.has("i", "interactive") || o.has("b", "backup") || o.has("u", "update") || hasPrefixWord(c.args(), "--backup=") {
			return ""
		}
		if c.name == "cp" && (o.has("r", "recursive") || o.has("R") || o.has("a", "archive")) {
			return "" // a tree copied in (an extension, a theme): files added beside the user's
		}
	case "ln":
		if !o.has("f", "force") || o.has("b", "backup") {
			return "" // ln -s fails on an existing file
		}
	case "install":
		if o.has("d", "directory") || o.has("b", "backup") {
			return ""
		}
	}
	for _, t := range a.writeTargets(c) {
		if t.class != wNone || !t.trunc || t.appends || t.path == "" {
			continue
		}
		rel, mine, home := a.homeRel(t.path)
		if !home || !mine || !userConfigRel(rel) {
			continue
		}
		base := path.Base(rel)
		if backupName(base) || strings.HasSuffix(path.Dir(rel), ".d") {
			continue // a backup's name; a drop-in added beside others (~/.gradle/init.d/)
		}
		if ops := c.operands(); len(ops) > 1 && backupName(path.Base(ops[len(ops)-1].s)) {
			continue // cp ~/.kube/config ~/.kube/config.bak.$(date +%F): the name as written
		}
		// sudo cp /etc/rancher/k3s/k3s.yaml ~/.kube/config: the system's
		// own file given to the user, as its documentation does
		if ops := c.operands(); len(ops) > 1 && strings.HasPrefix(ops[0].s, "/etc/") {
			continue
		}
		// the line backed the file up, or made its directory: nothing of
		// the user's is lost
		if a.srcHas(base+".bak") || a.srcHas(base+".orig") || a.srcHas(base+".backup") || a.srcHas(base+".old") || a.srcHas(base+"~") ||
			a.madeDir(path.Dir(t.path)) {
			continue
		}
		// cp ~/.gitconfig.bak ~/.gitconfig: a backup put back
		if ops := c.operands(); len(ops) > 1 && strings.HasPrefix(path.Base(ops[0].s), base+".") {
			continue
		}
		// jq '."editor.formatOnSave"=true' F > /tmp/s && mv /tmp/s F:
		// the file edited through a copy, unless what changes is how
		// code is run or trusted
		if c.name == "mv" && strings.Count(a.src, rel) > 1 && !hasAny(a.srcLow(), "verif", "trust", "shell", "command", "path", "proxy", "secur", "exec", "/tmp/.", ".cache/.") {
			continue
		}
		return t.raw
	}
	return ""
}

// userConfigRel reports a path in the home (relative to it) that holds
// the user's settings or an application's data: a dot-file or dot-
// directory, or macOS's Library (the user's programs, caches, completions
// and public keys excepted).
func userConfigRel(rel string) bool {
	switch {
	case rel == "" || !strings.HasPrefix(rel, ".") && !strings.HasPrefix(rel, "Library/"):
		return false
	case strings.HasPrefix(rel, ".local/bin/") || strings.HasPrefix(rel, ".cache/") || strings.HasPrefix(rel, "Library/Caches/") ||
		strings.HasPrefix(rel, ".cargo/bin/") || strings.HasPrefix(rel, ".npm/") || strings.HasPrefix(rel, ".zfunc/") ||
		strings.Contains(rel, "/completions/") || strings.HasSuffix(rel, ".pub") || strings.HasPrefix(rel, ".local/share/applications/") ||
		strings.HasPrefix(rel, ".local/share/fonts/") || strings.HasPrefix(rel, ".fonts/") || strings.HasPrefix(rel, "Library/Fonts/"):
		return false
	}
	return rel != "." // (the home itself, spelt ~/.)
}

// backupName reports a file name a backup is kept under.
func backupName(base string) bool {
	l := strings.ToLower(base)
	for _, s := range [...]string{".bak", ".backup", ".orig", ".old", "~", ".save", ".prev", ".dist"} {
		if strings.HasSuffix(l, s) || strings.Contains(l, s+".") {
			return true
		}
	}
	return false
}

// madeDir reports a line that creates dir (mkdir -p DIR): a directory it
// makes holds nothing of the user's yet.
func (a *analysis) madeDir(dir string) bool {
	for _, form := range a.homeForms(dir) {
		if a.srcHas("mkdir -p "+form) || a.srcHas("mkdir "+form) {
			return true
		}
	}
	return false
}

// homeForms are the ways a line may write the path p of the home: ~/x,
// $HOME/x, "$HOME/x", ${HOME}/x and p itself.
func (a *analysis) homeForms(p string) []string {
	rel, mine, ok := a.homeRel(p)
	if !ok || !mine || rel == "" {
		return []string{p}
	}
	return []string{p, "~/" + rel, "$HOME/" + rel, "\"$HOME/" + rel, "${HOME}/" + rel, "\"${HOME}/" + rel}
}
