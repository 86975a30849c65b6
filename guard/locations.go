package guard

import (
	"path"
	"strings"
)

// Commands that print a location. "rm -rf $(brew --prefix)/Cellar" or
// "rm -rf $(cygpath -u "$USERPROFILE")" name their target through a
// command whose answer is known in kind: a path converter prints its
// operand, a tool asked where it is installed prints its install
// location, which is outside the project. Resolving them lets the path
// rules judge the target instead of an unknown.

// pathConverters print their operand, converted to another form of the
// same path.
var pathConverters = map[string]bool{"cygpath": true, "realpath": true, "grealpath": true, "wslpath": true, "readlink": true}

// locationQuery is the path c prints when it is a path converter or asks
// a tool where it is installed; ok is false for any other command.
func (a *analysis) locationQuery(c *cmd) (string, bool) {
	args := c.args()
	if pathConverters[c.name] {
		if c.name == "readlink" && !hasWord(args, "-f") && !hasWord(args, "-e") && !hasWord(args, "-m") {
			return "", false
		}
		ops := c.operands()
		if len(ops) != 1 || !ops[0].ok {
			return "", false
		}
		p := strings.ReplaceAll(ops[0].s, `\`, "/")
		if len(p) >= 2 && p[1] == ':' {
			// C:/Users/x → /c/Users/x, the form Git Bash and WSL use
			p = "/" + strings.ToLower(p[:1]) + p[2:]
		}
		if abs := a.absPath(p, c.cwd); abs != "" {
			return abs, true
		}
		return p, true
	}
	if c.name == "git" {
		return a.gitLocation(c)
	}
	switch c.name {
	case "brew", "npm", "pnpm", "yarn", "go", "python", "python3", "gem", "rustc", "xcode-select", "rustup", "pip", "pip3", "poetry", "uv":
	default:
		return "", false
	}
	home := a.home
	if home == "" {
		home = "/home/user"
	}
	ops := c.operands()
	has := func(ws ...string) bool { return opsStart(ops, ws...) }
	switch c.name {
	case "brew":
		switch {
		case hasWord(args, "--prefix") && len(ops) == 0:
			return "/opt/homebrew", true
		case hasWord(args, "--prefix") && len(ops) == 1 && ops[0].ok:
			return "/opt/homebrew/opt/" + path.Base(ops[0].s), true
		case hasWord(args, "--cellar"):
			return "/opt/homebrew/Cellar", true
		case hasWord(args, "--repository"):
			return "/opt/homebrew", true
		}
	case "npm", "pnpm":
		global := hasWord(args, "-g") || hasWord(args, "--global")
		switch {
		case has("root") && global:
			return "/usr/local/lib/node_modules", true
		case has("prefix") && global, has("config", "get", "prefix"), has("get", "prefix"):
			return "/usr/local", true
		}
	case "rustup":
		if has("show", "home") {
			return home + "/.rustup", true
		}
	case "pip", "pip3":
		if has("cache", "dir") {
			return home + "/.cache/pip", true
		}
	case "poetry":
		if has("config", "cache-dir") {
			return home + "/.cache/pypoetry", true
		}
	case "uv":
		if has("cache", "dir") {
			return home + "/.cache/uv", true
		}
	case "yarn":
		if has("global", "dir") {
			return home + "/.config/yarn/global", true
		}
	case "go":
		if has("env") && len(ops) == 2 {
			switch ops[1].s {
			case "GOROOT":
				return "/usr/local/go", true
			case "GOPATH":
				return home + "/go", true
			case "GOMODCACHE":
				return home + "/go/pkg/mod", true
			}
		}
	case "python", "python3":
		if hasWord(args, "site") && (hasWord(args, "--user-base") || hasWord(args, "--user-site")) {
			return home + "/.local", true
		}
	case "gem":
		if has("env", "gemdir") {
			return "/usr/local/lib/ruby/gems", true
		}
	case "rustc":
		if hasWord(args, "--print") && hasWord(args, "sysroot") {
			return home + "/.rustup/toolchains/stable", true
		}
	case "xcode-select":
		if hasWord(args, "-p") || hasWord(args, "--print-path") {
			return "/Applications/Xcode.app/Contents/Developer", true
		}
	}
	return "", false
}

// gitLocation is the folder git rev-parse prints: the top of the work
// tree (--show-toplevel) or its .git (--git-dir), of the repository git
// -C names, else of the project. The top is that folder or one above it;
// the folder itself is the least it can be.
func (a *analysis) gitLocation(c *cmd) (string, bool) {
	args := c.args()
	dir := c.cwd
	if dir == "" {
		dir = a.workDir
	}
	for len(args) > 1 && args[0].s == "-C" {
		if !args[1].ok {
			return "", false
		}
		dir = a.absPath(args[1].s, dir)
		args = args[2:]
	}
	if len(args) < 2 || args[0].s != "rev-parse" || dir == "" {
		return "", false
	}
	switch args[1].s {
	case "--show-toplevel":
		return dir, true
	case "--git-dir", "--absolute-git-dir":
		return strings.TrimSuffix(dir, "/") + "/.git", true
	}
	return "", false
}
