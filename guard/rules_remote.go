package guard

import (
	"path"
	"strings"
)

// --- code fetched and run in one go: manifests, charts, modules,
// packages and scripts taken straight from a URL or a fresh clone ---

// trustedCodeHost reports hosts whose URLs are the usual, reviewed
// sources of manifests and charts.
func trustedCodeHost(h string) bool {
	for _, t := range [...]string{"github.com/kubernetes", "k8s.io", "kubernetes.io", "charts.bitnami.com", "helm.sh", "jetstack.io",
		"cert-manager.io", "argoproj.github.io", "istio.io", "cilium.io", "deno.land", "jsr.io", "esm.sh"} {
		if h == t || strings.HasSuffix(h, "."+t) {
			return true
		}
	}
	return false
}

// codeURL reports a URL of code from a host that is not well known.
func codeURL(u string) bool {
	l := strings.ToLower(u)
	if !strings.HasPrefix(l, "http://") && !strings.HasPrefix(l, "https://") && !strings.HasPrefix(l, "oci://") && !strings.HasPrefix(l, "git+") &&
		!strings.HasPrefix(l, "github:") && !strings.HasPrefix(l, "git@") {
		return false
	}
	h := hostOf(strings.TrimPrefix(strings.TrimPrefix(l, "git+"), "github:"))
	if isLocalHost(h) {
		return false
	}
	return !trustedCodeHost(h) || strings.HasPrefix(l, "http://")
}

var remoteRules = []*rule{
	{ID: "apply-remote-manifest", Level: LevelHigh, Category: CategoryRemoteExec, Description: "applying manifests or charts straight from a URL to a cluster",
		Suggestions: []string{"Download the manifest, review it, then apply the file", "Pin a chart from a trusted repository by version"}, names: names("kubectl", "oc", "helm", "kustomize"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if len(args) == 0 {
				return false, ""
			}
			switch args[0].s {
			case "apply", "create", "replace", "install", "upgrade", "build", "template":
			default:
				return false, ""
			}
			if args[0].s == "template" || args[0].s == "build" && c.name != "kustomize" {
				return false, ""
			}
			for i, w := range args {
				v := w.s
				if (w.s == "-f" || w.s == "--filename" || w.s == "-k" || w.s == "--kustomize") && i+1 < len(args) {
					v = args[i+1].s
				} else if k, val, ok := strings.Cut(w.s, "="); ok && (k == "--filename" || k == "-f" || k == "--kustomize") {
					v = val
				} else if c.name != "helm" && c.name != "kustomize" {
					continue
				}
				if strings.Contains(v, "://") && codeURL(v) || strings.HasPrefix(v, "github.com/") && c.name == "kustomize" {
					return true, v
				}
			}
			return false, ""
		}},
	{ID: "run-remote-module", Level: LevelCritical, Category: CategoryRemoteExec, Description: "running a program straight from a URL or a stranger's repository",
		Suggestions: []string{"Download the code, read it, then run the local copy", "Install a published, pinned version"},
		names:       names("deno", "uv", "uvx", "pipx", "npx", "bunx", "pnpm", "ansible-pull", "go", "nix", "dnx"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "deno":
				if len(args) > 0 && (args[0].s == "run" || args[0].s == "install" || args[0].s == "eval") {
					for _, w := range args[1:] {
						if !strings.HasPrefix(w.s, "-") {
							return codeURL(w.s), w.s
						}
					}
				}
			case "uv", "uvx", "pipx":
				for _, w := range args {
					v := strings.TrimPrefix(w.s, "--spec=")
					if codeURL(v) || strings.HasPrefix(v, "git+") {
						return true, v
					}
				}
			case "npx", "bunx", "pnpm", "dnx":
				for _, w := range args {
					if strings.HasPrefix(w.s, "github:") || strings.HasPrefix(w.s, "git+") || strings.HasPrefix(w.s, "http://") || strings.HasPrefix(w.s, "https://") {
						return true, w.s
					}
				}
			case "ansible-pull":
				return true, "ansible-pull"
			case "go":
				if len(args) > 1 && args[0].s == "run" && strings.Contains(args[len(args)-1].s, "@") && isPublicIP(hostOf(args[len(args)-1].s)) {
					return true, args[len(args)-1].s
				}
			case "nix":
				if len(args) > 1 && args[0].s == "run" && (strings.HasPrefix(args[1].s, "github:") || strings.Contains(args[1].s, "://")) && !strings.HasPrefix(args[1].s, "github:NixOS/") {
					return true, args[1].s
				}
			}
			return false, ""
		}},
	{ID: "package-file-remote", Level: LevelCritical, Category: CategoryRemoteExec, Description: "installing a downloaded or remote system package (its scripts run as root)",
		Suggestions: []string{"Install from the distribution's repositories", "Verify the package's signature before installing"},
		names:       names("dpkg", "rpm", "apt", "apt-get", "yum", "dnf", "zypper", "installer", "pacman"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			install := false
			for _, w := range args {
				if w.s == "install" || w.s == "localinstall" || w.s == "-U" || w.s == "--install" || c.name != "pacman" && strings.HasPrefix(w.s, "-i") && len(w.s) <= 5 || w.s == "-pkg" {
					install = true
				}
			}
			if !install {
				return false, ""
			}
			for _, w := range positional(args) {
				if codeURL(w.s) && (strings.HasSuffix(w.s, ".deb") || strings.HasSuffix(w.s, ".rpm") || strings.HasSuffix(w.s, ".pkg") || strings.Contains(w.s, ".pkg.tar")) {
					return true, w.s
				}
				if a.isDownloaded(w.s, c.cwd) {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "run-fresh-clone", Level: LevelCritical, Category: CategoryRemoteExec, Description: "running a script or installing as root from a repository cloned moments ago",
		Suggestions: []string{"Clone, read the script, then run it yourself", "Install a released, signed version"},
		names:       names("make", "bash", "sh", "zsh", "python", "node", "perl", "ruby", "npm", "pip", "cmake", "ninja"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(a.clones) == 0 {
				return false, ""
			}
			if c.name == "make" || c.name == "cmake" || c.name == "ninja" || c.name == "npm" || c.name == "pip" {
				if c.asRoot && a.inClone(c.cwd) {
					return true, c.cwd
				}
				return false, ""
			}
			for _, w := range positional(c.args()) {
				if p := a.absPath(w.s, c.cwd); p != "" && a.inClone(p) {
					return true, w.s
				}
				break
			}
			return false, ""
		}},
	{ID: "run-url", Level: LevelCritical, Category: CategoryRemoteExec, Description: "running a program straight from a URL",
		Suggestions: []string{"Download the code, read it, then run the local copy"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.words) > 0 && strings.Contains(c.words[0].s, "://") && codeURL(c.words[0].s) {
				return true, c.words[0].s
			}
			return false, ""
		}},
	{ID: "git-ext-transport", Level: LevelHigh, Category: CategoryRemoteExec, Description: "a git ext:: URL, which runs a local command as the transport",
		Suggestions: []string{"Use https or ssh remotes"}, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range c.args() {
				if strings.HasPrefix(w.s, "ext::") {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "install-downloaded-program", Level: LevelCritical, Category: CategoryRemoteExec, Description: "installing downloaded code as a program on PATH",
		Suggestions: []string{"Install from a package manager", "Verify a checksum and review the file before installing it"}, writes: true,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, t := range a.writeTargets(c) {
				if t.content.kind != flowRemote || t.path == "" {
					continue
				}
				dir := path.Dir(t.path)
				if dir == "/usr/local/bin" || dir == "/usr/bin" || dir == "/bin" || dir == "/usr/local/sbin" || dir == "/usr/sbin" || dir == "/opt/homebrew/bin" || isUserBin(dir) ||
					strings.HasSuffix(dir, "/.local/bin") {
					return true, t.raw
				}
			}
			return false, ""
		}},
	{ID: "make-downloaded", Level: LevelHigh, Category: CategoryRemoteExec, Description: "running the recipes of a Makefile downloaded moments ago",
		Suggestions: []string{"Read the downloaded Makefile before running make"}, names: names("make", "gmake"),
		match: func(a *analysis, c *cmd) (bool, string) {
			f, ok := optValue(c.args(), "-f", "file")
			if !ok {
				f = "Makefile"
			}
			if a.isDownloaded(f, c.cwd) {
				return true, f
			}
			return false, ""
		}},
	{ID: "docker-socket-mount", Level: LevelHigh, Category: CategoryPrivilege, Description: "giving a container the container runtime's socket (root on the host)",
		Suggestions: []string{"Use rootless tooling or a narrowly scoped API proxy", "Do not mount docker.sock into untrusted images"}, names: names("docker", "podman", "nerdctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, rest := dockerSub(c)
			if sub != "run" && sub != "create" && sub != "container run" && sub != "container create" {
				return false, ""
			}
			for _, w := range rest {
				if strings.Contains(w.s, "docker.sock:") || strings.Contains(w.s, "containerd.sock:") || strings.Contains(w.s, "podman.sock:") ||
					strings.Contains(w.s, "src=/var/run/docker.sock") || strings.Contains(w.s, "source=/var/run/docker.sock") {
					return true, w.s
				}
			}
			return false, ""
		}},
}

// recordClone remembers the directory git clone fills.
func (a *analysis) recordClone(c *cmd) {
	sub, args := gitSub(c)
	if sub != "clone" {
		return
	}
	ops := posArgs(args, optSpec{short: "bcjou", long: []string{"branch", "config", "depth", "jobs", "origin", "upload-pack", "template", "reference", "separate-git-dir", "filter"}})
	if len(ops) == 0 || !codeURL(ops[0].s) && !strings.Contains(ops[0].s, "://") {
		return
	}
	dir := ""
	if len(ops) > 1 {
		dir = ops[1].s
	} else {
		dir = strings.TrimSuffix(ops[0].s[strings.LastIndexByte(strings.TrimSuffix(ops[0].s, "/"), '/')+1:], ".git")
	}
	if p := a.absPath(dir, c.cwd); p != "" && p != "/" && !strings.HasSuffix(p, "/") {
		a.clones = append(a.clones, p)
	}
}

// inClone reports whether p is in a directory cloned earlier.
func (a *analysis) inClone(p string) bool {
	for _, d := range a.clones {
		if under(p, d) {
			return true
		}
	}
	return false
}

func init() { ruleSets = append(ruleSets, remoteRules) }
