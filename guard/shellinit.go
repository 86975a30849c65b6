package guard

import (
	"path"
	"strings"
)

// shellInit lists well-known tools whose output is shell code meant to be
// evaluated: version managers, environment loaders, prompt themes, key
// agents and completion generators. For each, the subcommands or options
// that print that code; "*" means any invocation. `eval "$(pyenv init -)"`
// then runs nothing the firewall needs to see, where eval of unknown output
// could run anything.
var shellInit = map[string][]string{
	"pyenv": {"init", "virtualenv-init"}, "rbenv": {"init"}, "nodenv": {"init"}, "goenv": {"init"},
	"jenv": {"init"}, "plenv": {"init"}, "phpenv": {"init"}, "luaenv": {"init"}, "scalaenv": {"init"},
	"swiftenv": {"init"}, "exenv": {"init"}, "tfenv": {"init"}, "pyenv-virtualenv": {"init"},
	"direnv": {"hook", "export"}, "starship": {"init"}, "oh-my-posh": {"init"}, "zoxide": {"init"},
	"atuin": {"init"}, "mcfly": {"init"}, "hishtory": {"init"}, "fasd": {"--init"}, "thefuck": {"--alias", "alias"},
	"mise": {"activate", "env", "hook-env"}, "rtx": {"activate", "env"}, "fnm": {"env"}, "volta": {"setup"},
	"conda": {"shell.bash", "shell.zsh", "shell.fish", "shell.posix", "shell.powershell"}, "micromamba": {"shell"}, "mamba": {"shell"},
	"brew": {"shellenv"}, "opam": {"env", "config"}, "luarocks": {"path"}, "devbox": {"shellenv", "global"},
	"ssh-agent": {"*"}, "gpg-agent": {"--daemon"}, "keychain": {"--eval"}, "gnome-keyring-daemon": {"--start"},
	"dbus-launch": {"--sh-syntax", "--auto-syntax"}, "dircolors": {"*"}, "gdircolors": {"*"}, "lesspipe": {"*"}, "lesspipe.sh": {"*"},
	"minikube": {"docker-env", "podman-env"}, "docker-machine": {"env"}, "path_helper": {"-s", "-c"},
	"fzf": {"--bash", "--zsh", "--fish"}, "navi": {"widget"}, "broot": {"--print-shell-function"},
	"pdm": {"--pep582"}, "register-python-argcomplete": {"*"}, "pip": {"completion"}, "pip3": {"completion"},
	"rustup": {"completions"}, "carapace": {"_carapace"}, "tmuxifier": {"init"}, "jump": {"shell"},
	"rye": {"self"}, "uv": {"generate-shell-completion"}, "uvx": {"--generate-shell-completion"},
	"kubectl": {"completion"}, "helm": {"completion"}, "gh": {"completion"}, "glab": {"completion"},
	"npm": {"completion"}, "pnpm": {"completion"}, "yarn": {"completion"}, "deno": {"completions"},
	"just": {"--completions"}, "poetry": {"completions"}, "pipx": {"completions"}, "kind": {"completion"},
	"terraform": {"-install-autocomplete"}, "aws_completer": {"*"}, "ng": {"completion"}, "hub": {"alias"},
	"cargo": {"completions"}, "docker": {"completion"}, "podman": {"completion"}, "flux": {"completion"},
	"argocd": {"completion"}, "k9s": {"completion"}, "eksctl": {"completion"}, "kustomize": {"completion"},
	"stern": {"--completion"}, "op": {"completion", "signin"}, "tsh": {"env"}, "saml2aws": {"script"}, "nix": {"print-dev-env"}, "nix-direnv": {"*"},
}

// isShellInit reports whether c is one of those tools printing its shell
// code. The tool must be named plainly or live in a system, Homebrew or
// per-user bin directory, not be fetched or built in the work directory.
func isShellInit(c *cmd) bool {
	subs, ok := shellInit[c.name]
	if len(c.words) == 0 || !c.words[0].ok {
		return false
	}
	// TOOL completion SHELL: every CLI framework prints completions
	// (also the project's own program: running it is no different)
	if args := c.args(); len(args) >= 2 && (args[0].s == "completion" || args[0].s == "completions") && shellNameSet[args[1].s] &&
		(!strings.Contains(c.words[0].s, "/") || projectProgram(c.words[0].s)) {
		return true
	}
	if clickCompletion(c) {
		return true
	}
	if !ok {
		return genericShellInit(c)
	}
	if p := c.words[0].s; p != c.base {
		switch dir := path.Dir(p); {
		case dir == "/usr/bin", dir == "/bin", dir == "/usr/local/bin", dir == "/opt/homebrew/bin", dir == "/home/linuxbrew/.linuxbrew/bin", dir == "/usr/libexec":
		case strings.HasPrefix(dir, "/opt/") && path.Base(dir) == "bin", strings.HasPrefix(dir, "/usr/local/") && path.Base(dir) == "bin":
		default:
			if !isUserBin(dir) {
				return false
			}
		}
	}
	for _, s := range subs {
		if s == "*" {
			return true
		}
	}
	args := c.args()
	for i, w := range args {
		// the caller's own arguments passed through ($@, fish's $argv),
		// and a theme's path (oh-my-posh init pwsh --config $env:X\t.json)
		if !w.ok && w.s != "$@" && w.s != "$argv" && !(i > 0 && (args[i-1].s == "--config" || args[i-1].s == "--theme")) {
			return false
		}
	}
	for _, w := range c.args() {
		for _, s := range subs {
			if w.s == s {
				return true
			}
		}
	}
	return genericShellInit(c)
}

// clickCompletion reports a Python Click program asked for its completion
// script through its environment variable: _ETL_COMPLETE=bash_source etl
// (Click 8) or _ETL_COMPLETE=source_zsh etl (Click 7). The program is
// named plainly and given no arguments.
func clickCompletion(c *cmd) bool {
	if len(c.assigns) != 1 || len(c.words) != 1 || strings.Contains(c.words[0].s, "/") {
		return false
	}
	as := c.assigns[0]
	if !as.val.ok || !strings.HasPrefix(as.name, "_") || !strings.HasSuffix(as.name, "_COMPLETE") {
		return false
	}
	v := as.val.s
	if sh, ok := strings.CutSuffix(v, "_source"); ok {
		return shellNameSet[sh]
	}
	if sh, ok := strings.CutPrefix(v, "source_"); ok {
		return shellNameSet[sh]
	}
	return false
}

// isUserBin reports a per-user program directory such as ~/.local/bin,
// ~/.pyenv/bin or ~/.cargo/bin.
func isUserBin(dir string) bool {
	if path.Base(dir) != "bin" && path.Base(dir) != "shims" {
		return false
	}
	parent := path.Base(path.Dir(dir))
	return len(parent) > 1 && parent[0] == '.'
}

// initVerbs are the subcommands CLIs print their shell setup with.
var initVerbs = map[string]bool{
	"init": true, "shell-init": true, "shellenv": true, "hook": true, "completion": true, "completions": true,
	"alias": true, "aliases": true, "activate": true, "setup-shell": true, "--completion": true, "--completions": true,
}

// genericShellInit recognises a plainly named tool (not a path, so not
// one fetched or built here) asked by an init verb to print setup code
// for a named shell: chef shell-init bash, pixi completion --shell bash,
// gh copilot alias -- zsh. Every argument is a literal word, none a URL or
// a path.
func genericShellInit(c *cmd) bool {
	if strings.Contains(c.words[0].s, "/") {
		return false
	}
	verb, shell := false, false
	for _, w := range c.args() {
		if !w.ok || strings.Contains(w.s, "/") || strings.Contains(w.s, ":") {
			return false
		}
		s := w.s
		if v, ok := strings.CutPrefix(s, "--shell="); ok {
			s = v
		}
		switch {
		case initVerbs[s]:
			verb = true
		case shellNameSet[s]:
			shell = true
		}
	}
	return verb && shell
}

// shellInitLine reports a start-up line that evaluates a well-known tool's
// shell code: eval "$(TOOL SUB ...)", TOOL SUB ... | source, source
// <(TOOL SUB ...), with TOOL and SUB from the shellInit table.
func shellInitLine(line string) bool {
	l := strings.TrimSpace(line)
	var inner string
	switch {
	case strings.HasPrefix(l, `eval "$(`) && strings.HasSuffix(l, `)"`):
		inner = l[len(`eval "$(`) : len(l)-2]
	case strings.HasPrefix(l, "eval $(") && strings.HasSuffix(l, ")"):
		inner = l[len("eval $(") : len(l)-1]
	case strings.HasPrefix(l, "source <(") && strings.HasSuffix(l, ")"):
		inner = l[len("source <(") : len(l)-1]
	case strings.HasSuffix(l, "| source") || strings.HasSuffix(l, "| ."):
		inner = strings.TrimSpace(l[:strings.LastIndexByte(l, '|')])
	case strings.HasPrefix(l, ". ") || strings.HasPrefix(l, "source "):
		return toolchainEnvScript(strings.TrimSpace(l[strings.IndexByte(l, ' '):]))
	default:
		return false
	}
	if strings.ContainsAny(inner, "`$;|&<>()") {
		return false
	}
	f := strings.Fields(inner)
	if len(f) < 2 {
		return false
	}
	for _, s := range shellInit[installedTool(f[0])] {
		if s == "*" || s == f[1] {
			return true
		}
	}
	return false
}

// zshPathArray reads zsh's path=(DIR ... $path) as the PATH value it
// makes, DIR:...:$PATH.
func zshPathArray(line string) (string, bool) {
	rest, ok := strings.CutPrefix(line, "path=(")
	if !ok {
		rest, ok = strings.CutPrefix(line, "path+=(")
	}
	if !ok || !strings.HasSuffix(rest, ")") {
		return "", false
	}
	var dirs []string
	for _, f := range strings.Fields(strings.TrimSuffix(rest, ")")) {
		if f == "$path" {
			f = "$PATH"
		}
		dirs = append(dirs, f)
	}
	return strings.Join(dirs, ":"), len(dirs) > 0
}

// rcDropIn reports a file of its own in a start-up drop-in directory
// (fish's conf.d): writing it whole replaces nothing the user wrote.
func rcDropIn(p string) bool {
	return strings.Contains(p, "/.config/fish/conf.d/") || strings.Contains(p, "/.config/environment.d/")
}

// installedTool is the name of a tool called by its path in a system or
// package manager's bin folder (/opt/homebrew/bin/brew is brew); other
// paths are returned as they are.
func installedTool(p string) string {
	for _, dir := range [...]string{"/opt/homebrew/bin/", "/usr/local/bin/", "/usr/bin/", "/bin/", "/home/linuxbrew/.linuxbrew/bin/", "/nix/var/nix/profiles/default/bin/"} {
		if name, ok := strings.CutPrefix(p, dir); ok && !strings.Contains(name, "/") {
			return name
		}
	}
	return p
}

// projectProgram reports a program named by a path inside the work
// directory (./bin/tool), which the project builds or ships.
func projectProgram(p string) bool {
	return strings.HasPrefix(p, "./") && !strings.Contains(p, "..") && !strings.Contains(p, "/tmp/")
}

// toolchainEnvScripts are the files installers ask the shell to source
// for their PATH (rustup's ~/.cargo/env, ghcup's, nvm's, asdf's, SDKMAN's).
var toolchainEnvScripts = map[string]bool{".cargo/env": true, ".ghcup/env": true, ".nvm/nvm.sh": true, ".asdf/asdf.sh": true,
	".sdkman/bin/sdkman-init.sh": true, ".deno/env": true, ".local/bin/env": true, ".rye/env": true, ".elan/env": true, ".wasmtime/env": true}

// toolchainEnvScript reports the path of a toolchain's environment script
// in the home ("$HOME/.cargo/env", ~/.nvm/nvm.sh).
func toolchainEnvScript(p string) bool {
	p = strings.Trim(p, `"'`)
	for _, h := range [...]string{"$HOME/", "${HOME}/", "~/"} {
		if rest, ok := strings.CutPrefix(p, h); ok {
			return toolchainEnvScripts[rest]
		}
	}
	return false
}
