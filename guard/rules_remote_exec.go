package guard

import (
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
)

// Rules for running code fetched from elsewhere (category remote_exec).
var remoteExecRules = []*rule{
	{ID: "build-remote-image", Level: LevelHigh, Category: CategoryRemoteExec, Description: "building a container image from a downloaded Dockerfile",
		Suggestions: []string{"Download the Dockerfile, review it, then build it"}, names: names("docker", "buildah"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, rest := dockerSub(c)
			if (sub == "build" || sub == "buildx build" || sub == "image build" || sub == "bud") && hasWord(rest, "-") && c.in.kind == flowRemote {
				return true, c.in.what
			}
			// curl URL | docker compose -f - up: services, images and
			// mounts chosen by whoever serves the file
			if strings.HasPrefix(sub, "compose") && c.in.kind == flowRemote {
				if f, ok := optValue(c.args(), "-f", "file"); ok && (f == "-" || f == "/dev/stdin") {
					return true, c.in.what
				}
			}
			return false, ""
		}},
	{ID: "package-untrusted-source", Level: LevelHigh, Category: CategoryRemoteExec, Description: "installing a package (and running its install scripts) from a bare IP, plain HTTP or a file on an arbitrary web site",
		Suggestions: []string{"Install from the official registry over HTTPS", "Download, verify and inspect the package first"},
		names:       names("pip", "pip3", "pipx", "uv", "npm", "yarn", "pnpm", "gem", "cargo", "go", "composer", "bun", "brew", "winget", "fisher", "scoop", "choco", "dpkg", "rpm", "apt", "apt-get", "dotnet", "nuget", "installer", "open"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if f := downloadsPackage(a, c); f != "" {
				// gem install ~/Downloads/x.gem: a package a web page
				// handed over
				return true, f
			}
			switch c.name {
			case "installer", "open":
				// sudo installer -pkg ~/Downloads/Tool.pkg, open -a Terminal
				// ~/Downloads/install.command: what a web page handed over,
				// its scripts run (installer's as root)
				if hasWord(args, "-pkginfo") || hasWord(args, "-volinfo") || hasWord(args, "-query") {
					return false, "" // installer -pkginfo: what it holds, nothing installed
				}
				for _, w := range c.operands() {
					p := a.absPath(w.s, c.cwd)
					if !w.ok || !a.inDownloads(p) {
						continue
					}
					switch path.Ext(lower(strings.TrimSuffix(p, "/"))) {
					case ".pkg", ".mpkg":
						return true, w.s
					case ".command", ".tool", ".app", ".sh":
						if c.name == "open" {
							return true, w.s
						}
					}
				}
				return false, ""
			case "dotnet", "nuget":
				// dotnet add package X --source http://203.0.113.4/nuget
				if !hasWord(args, "add") && !hasWord(args, "install") && !hasWord(args, "restore") {
					return false, ""
				}
				for _, u := range urlArgs(args) {
					if h := hostOf(u); isPublicIP(h) || strings.HasPrefix(u, "http://") && !isLocalHost(h) && !internalHost(h) {
						return true, u
					}
				}
				return false, ""
			case "dpkg", "rpm", "apt", "apt-get":
				// sudo dpkg -i ~/Downloads/helper.deb: a package some web
				// page handed over, its maintainer scripts run as root
				installs := false
				for _, w := range args {
					switch {
					case w.s == "install" || w.s == "reinstall" || w.s == "--install" || w.s == "--upgrade":
						installs = true
					case len(w.s) > 1 && w.s[0] == '-' && w.s[1] != '-' && isLetters(w.s[1:]) &&
						(c.name == "dpkg" && strings.Contains(w.s, "i") || c.name == "rpm" && strings.ContainsAny(w.s, "iUF")):
						installs = true
					}
				}
				if !installs {
					return false, ""
				}
				for _, w := range c.operands() {
					if p := a.absPath(w.s, c.cwd); w.ok && (strings.HasSuffix(p, ".deb") || strings.HasSuffix(p, ".rpm")) {
						if a.inDownloads(p) {
							return true, w.s
						}
					}
				}
				return false, ""
			case "brew":
				// brew install https://.../tool.rb: a formula from any
				// address, its install code run here
				for _, u := range urlArgs(args) {
					if strings.HasSuffix(u, ".rb") && (hasWord(args, "install") || hasWord(args, "reinstall")) {
						return true, u
					}
				}
			}
			if c.name == "uv" || c.name == "pipx" {
				// uv run --with URL: a package fetched and run for one
				// command
				for _, o := range [...]string{"with", "from", "spec"} {
					if v, ok := optValue(args, "", o); ok && strings.Contains(v, "://") {
						if h := hostOf(v); !isLocalHost(h) && !codeHosts[lower(h)] && (packageFile(v) || isPublicIP(h)) {
							return true, "--" + o + " " + v
						}
					}
				}
			}
			if !hasWord(args, "install") && !hasWord(args, "add") && !hasWord(args, "i") && !hasWord(args, "get") && !hasWord(args, "upgrade") {
				return false, ""
			}
			switch c.name {
			case "winget":
				// a manifest downloaded a moment ago names any installer
				if v, ok := optValue(args, "-m", "manifest"); ok && a.isDownloaded(strings.ReplaceAll(v, `\`, "/"), c.cwd) {
					return true, "winget --manifest " + v
				}
			case "choco":
				// the package's installer run whatever its checksum
				if hasWord(args, "--ignore-checksums") || hasWord(args, "--allow-empty-checksums") || hasWord(args, "--allowemptychecksums") {
					return true, "choco --ignore-checksums"
				}
				return false, ""
			case "scoop":
				// scoop install URL: a manifest (JSON) from any web site
				// names the installer and its scripts
				if ops := c.operands(); len(ops) == 0 || ops[0].s != "install" {
					return false, ""
				}
				for _, u := range urlArgs(args) {
					if h := hostOf(u); !codeHosts[lower(h)] && !isLocalHost(h) {
						return true, u
					}
				}
				return false, ""
			}
			if c.name == "fisher" {
				// fisher takes owner/repo from GitHub; a host in front
				// fetches the plugin, and its conf.d code, from anywhere
				for _, w := range c.operands() {
					host, _, ok := strings.Cut(w.s, "/")
					if ok && strings.Contains(host, ".") && !codeHosts[lower(host)] {
						return true, w.s
					}
				}
				return false, ""
			}
			for _, u := range urlArgs(args) {
				h := hostOf(u)
				if isPublicIP(h) || strings.HasPrefix(u, "http://") && !isLocalHost(h) {
					return true, u
				}
				// TestPyPI (anyone publishes any name, nothing is vetted),
				// a link shortener (whatever it points to today)
				if lh := lower(h); lh == "test.pypi.org" || linkShorteners[lh] {
					return true, u
				}
				// a package file or manifest fetched straight from a web
				// site rather than a registry or a code host: nobody vetted it
				if !codeHosts[lower(h)] && !isLocalHost(h) && packageFile(u) {
					return true, u
				}
				// codeload.github.com/x/y/tar.gz/refs/heads/hotfix: the
				// archive of a branch's moving head
				if strings.Contains(u, "/refs/heads/") && !isLocalHost(h) {
					return true, u
				}
			}
			return false, ""
		}},
	{ID: "package-unpinned-git", Level: LevelCritical, Category: CategoryRemoteExec, Description: "installing or running a package straight from a repository's moving branch (whatever it holds now runs, with its install scripts)",
		Suggestions: []string{"Pin a reviewed tag or commit (git+https://…@v1.2.3, cargo install --git … --tag v1.2.3)", "Install the released package from the registry"},
		names:       names("pip", "pip3", "pipx", "uv", "uvx", "npm", "npx", "yarn", "pnpm", "bun", "bunx", "cargo", "poetry", "composer", "go"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if hasWord(args, "--dry-run") || hasWord(args, "download") || hasWord(args, "show") || hasWord(args, "view") {
				return false, ""
			}
			if c.name == "go" {
				// go install MOD@master, go run MOD@main: a branch's head
				ops := c.operands()
				if len(ops) < 2 || ops[0].s != "install" && ops[0].s != "run" {
					return false, ""
				}
				for _, w := range ops[1:] {
					if _, v, ok := strings.Cut(w.s, "@"); ok && (v == "master" || v == "main" || v == "HEAD" || v == "trunk" || v == "develop") {
						return true, c.name + " " + ops[0].s + " " + w.s
					}
				}
				return false, ""
			}
			if c.name == "composer" {
				// composer [global] require vendor/pkg:dev-main: a
				// branch's head, its plugins and scripts run at install
				ops := c.operands()
				if len(ops) > 0 && ops[0].s == "global" {
					ops = ops[1:]
				}
				if len(ops) < 2 || ops[0].s != "require" {
					return false, ""
				}
				for _, w := range ops[1:] {
					if _, v, ok := strings.Cut(lower(w.s), ":"); ok && (v == "dev-main" || v == "dev-master" || v == "dev-trunk" || v == "dev-develop") {
						return true, "composer require " + w.s
					}
				}
				return false, ""
			}
			if c.name == "cargo" {
				// cargo install --git URL: the default branch's head
				if len(args) == 0 || args[0].s != "install" {
					return false, ""
				}
				if u, ok := optValue(args, "", "git"); ok && !hasWord(args, "--tag") && !hasWord(args, "--rev") && !hasPrefixWord(args, "--tag=") && !hasPrefixWord(args, "--rev=") {
					return true, "cargo install --git " + u
				}
				return false, ""
			}
			for _, w := range args {
				i := strings.Index(w.s, "git+")
				if i < 0 {
					continue
				}
				if u := w.s[i+4:]; (strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "ssh://")) && !pinnedGitRef(u) {
					return true, w.s[i:]
				}
			}
			if c.name == "npm" || c.name == "yarn" || c.name == "pnpm" || c.name == "bun" {
				// npm install -g https://github.com/u/r/tarball/main,
				// pnpm add github:u/r: a repository's moving head (yarn
				// global add URL: the same, for every project)
				ops := c.operands()
				if len(ops) > 0 && ops[0].s == "global" {
					ops = ops[1:]
				}
				if len(ops) < 2 || !nodeInstallVerb(ops[0].s) {
					return false, ""
				}
				for _, w := range ops[1:] {
					l := lower(w.s)
					switch {
					case strings.HasPrefix(l, "github:") || strings.HasPrefix(l, "gitlab:") || strings.HasPrefix(l, "bitbucket:"):
						if !pinnedGitRef(l) {
							return true, w.s
						}
					case strings.HasPrefix(l, "https://github.com/") || strings.HasPrefix(l, "https://gitlab.com/") || strings.HasPrefix(l, "https://codeload.github.com/"):
						if movingRepoSnapshot(l) {
							return true, w.s
						}
					}
				}
			}
			return false, ""
		}},
	{ID: "plugin-from-url", Level: LevelCritical, Category: CategoryRemoteExec, Description: "installing a plugin, extension, role, hook set or build context from an arbitrary URL (its code runs at once or at every start)",
		Suggestions: []string{"Install from the tool's official registry or a reviewed, pinned release", "Clone the repository, read it, then install the local copy"},
		names:       pluginToolNames(),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			for _, verb := range pluginVerbs[c.name] {
				vs := strings.Fields(verb)
				if len(ops) <= len(vs) || !wordsArePrefix(ops, vs) {
					continue
				}
				for _, w := range ops[len(vs):] {
					if src := pluginSource(c.name, w.s); src != "" {
						return true, src
					}
				}
			}
			return false, ""
		}},
	{ID: "package-downloaded-install", Level: LevelCritical, Category: CategoryRemoteExec, Description: "installing a package file downloaded in the same command (its install scripts run unreviewed)",
		Suggestions: []string{"Install from the official registry", "Download, verify and inspect the package first"},
		names:       names("pip", "pip3", "pipx", "uv", "npm", "yarn", "pnpm", "gem", "bun", "dpkg", "rpm", "apt", "apt-get", "dnf", "yum", "installer", "code"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(a.downloads) == 0 && len(a.downloadDirs) == 0 {
				return false, ""
			}
			args := c.args()
			if !hasWord(args, "install") && !hasWord(args, "add") && !hasWord(args, "i") && !hasWord(args, "-i") &&
				!hasWord(args, "--install") && !hasWord(args, "-pkg") && !hasWord(args, "--install-extension") && !hasWord(args, "localinstall") {
				return false, ""
			}
			for _, w := range args {
				if strings.HasPrefix(w.s, "-") || !strings.ContainsAny(w.s, "./") || strings.Contains(w.s, "://") {
					continue
				}
				if a.isDownloaded(w.s, c.cwd) {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "package-third-party-index", Level: LevelHigh, Category: CategoryRemoteExec, Description: "installing packages from a package index, tap, bucket or feed on an arbitrary web site",
		Suggestions: []string{"Install from the official registry", "Ask the user before adding a third-party package source"},
		names:       names("pip", "pip3", "pipx", "uv", "npm", "yarn", "pnpm", "gem", "brew", "choco", "scoop", "poetry", "npx", "bunx", "cargo", "conda", "mamba", "micromamba", "composer"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			if len(ops) == 0 && c.name != "npx" && c.name != "bunx" {
				return false, ""
			}
			var src string
			switch c.name {
			case "conda", "mamba", "micromamba":
				// conda install -c some-channel PKG: anyone's channel on
				// anaconda.org, its packages' scripts run at install
				if ops[0].s != "install" && ops[0].s != "create" && ops[0].s != "update" {
					return false, ""
				}
				for _, v := range optValues(args, optTable{"-c": "", "--channel": ""}) {
					ch := v.val
					if !knownCondaChannels[lower(strings.TrimSuffix(ch, "/"))] && !strings.HasPrefix(ch, "file:") && !strings.HasPrefix(ch, "/") && !strings.HasPrefix(ch, "./") {
						return true, "conda channel " + ch
					}
				}
				return false, ""
			case "brew":
				// brew tap NAME URL: formulae from that repository
				if ops[0].s == "tap" && len(ops) > 2 {
					src = ops[2].s
				}
			case "scoop":
				if ops[0].s == "bucket" && len(ops) > 3 && ops[1].s == "add" {
					src = ops[3].s
					if l := lower(src); strings.Contains(l, "github.com/scoopinstaller/") {
						return false, "" // an official bucket by its address
					}
					if strings.Contains(src, "://") {
						return true, src // anyone's bucket: its manifests' scripts run at install
					}
				}
			case "composer":
				// composer create-project --repository=URL (or a VCS
				// repository's JSON): the skeleton and its scripts from there
				if ops[0].s == "create-project" || ops[0].s == "require" || ops[0].s == "global" {
					for _, k := range [...]string{"repository", "repository-url"} {
						if v, ok := optValue(args, "", k); ok {
							if i := strings.Index(v, "://"); i >= 0 {
								j := strings.LastIndexAny(v[:i], `"' :=`)
								src = v[j+1:]
								if k := strings.IndexAny(src, `"' ,}`); k >= 0 {
									src = src[:k]
								}
							}
						}
					}
					if h := lower(hostOf(src)); strings.Contains(src, "://") && h != "repo.packagist.org" && h != "packagist.org" && !isLocalHost(h) {
						return true, src
					}
				}
				return false, ""
			case "choco":
				if ops[0].s == "install" || ops[0].s == "upgrade" {
					src, _ = optValue(args, "-s", "source")
				}
			case "gem":
				if ops[0].s == "install" {
					src, _ = optValue(args, "", "source")
				}
			case "npm", "yarn", "pnpm":
				// exec, dlx and x fetch a package and run it at once
				switch ops[0].s {
				case "install", "i", "add", "exec", "x", "dlx", "create", "init":
					src, _ = optValue(args, "", "registry")
				}
			case "npx", "bunx":
				src, _ = optValue(args, "", "registry")
			case "cargo":
				// a crate built from any git repository or index runs its
				// build script on this machine
				if ops[0].s == "install" {
					if v, ok := optValue(args, "", "git"); ok {
						src = v
					} else if v, ok := optValue(args, "", "index"); ok {
						src = v
					}
				}
			default:
				if ops[0].s == "install" || ops[0].s == "add" || ops[0].s == "sync" || c.name == "uv" && ops[0].s == "pip" {
					if v, ok := optValue(args, "-i", "index-url"); ok {
						src = v
					} else if v, ok := optValue(args, "", "extra-index-url"); ok {
						src = v
					} else if v, ok := optValue(args, "", "index"); ok {
						src = v
					}
				}
			}
			if !strings.Contains(src, "://") {
				return false, ""
			}
			h := lower(hostOf(src))
			if codeHosts[h] && !(c.name == "brew" || c.name == "scoop") || isLocalHost(h) || trustedIndexHosts[h] || managedRegistryHost(h) {
				return false, ""
			}
			if (c.name == "brew" || c.name == "scoop") && codeHosts[h] {
				return false, "" // a repository on a code host: the usual third-party tap
			}
			return true, src
		}},
	{ID: "package-feed-arbitrary", Level: LevelHigh, Category: CategoryRemoteExec, Description: "adding or installing from a chart repository, module gallery or package feed on an arbitrary web site",
		Suggestions: []string{"Use the official gallery, feed or chart repository", "Ask the user before adding a third-party source"},
		names:       names("helm", "register-psrepository", "register-packagesource", "install-package", "install-module", "save-module", "dotnet", "nuget", "terraform", "tofu"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			var src string
			switch c.name {
			case "helm":
				// helm repo add NAME URL; helm install NAME --repo URL
				ops := c.operands()
				if len(ops) > 3 && ops[0].s == "repo" && ops[1].s == "add" {
					// adding a repository only lists its charts; installing
					// one from it in the same line runs them
					if strings.Contains(a.src, "helm install") || strings.Contains(a.src, "helm upgrade") {
						src = ops[3].s
					}
				} else if v, ok := optValue(args, "", "repo"); ok {
					src = v
				}
			case "terraform", "tofu":
				// terraform init -from-module=git::https://host/mod.git:
				// the configuration itself comes from there
				for i, w := range args {
					v, ok := strings.CutPrefix(strings.TrimLeft(w.s, "-"), "from-module=")
					if !ok && (w.s == "-from-module" || w.s == "--from-module") && i+1 < len(args) {
						v, ok = args[i+1].s, true
					}
					if ok {
						src = strings.TrimPrefix(strings.TrimPrefix(v, "git::"), "hg::")
					}
				}
			case "dotnet", "nuget":
				// dotnet nuget add source URL, dotnet add package X --source URL
				// (push's and delete's --source is where the package goes)
				if sub := clientSubWords(c).list(); containsStr(sub, "push") || containsStr(sub, "delete") {
					return false, ""
				}
				if v, ok := optValue(args, "-s", "source"); ok {
					src = v
				} else if ops := c.operands(); len(ops) > 0 && strings.Contains(ops[len(ops)-1].s, "://") && hasWord(args, "source") {
					src = ops[len(ops)-1].s
				}
			default:
				for i, w := range args {
					switch lower(w.s) {
					case "-sourcelocation", "-location", "-source", "-publishlocation":
						if i+1 < len(args) {
							src = args[i+1].s
						}
					}
				}
				if (c.name == "install-module" || c.name == "save-module") && hasFoldWord(args, "-skippublishercheck") {
					// modules whose publisher goes unchecked from a feed
					// other than the gallery, or after the gallery was
					// made trusted on the same line
					repo := ""
					for i, w := range args {
						if strings.EqualFold(w.s, "-repository") && i+1 < len(args) {
							repo = strings.Trim(args[i+1].s, `'"`)
						}
					}
					if repo != "" && !strings.EqualFold(repo, "psgallery") {
						return true, "-Repository " + repo + " -SkipPublisherCheck"
					}
					if l := a.srcLow(); strings.Contains(l, "set-psrepository") && strings.Contains(l, "-installationpolicy trusted") {
						return true, "a trusted gallery and -SkipPublisherCheck"
					}
				}
			}
			if !strings.Contains(src, "://") {
				return false, ""
			}
			h := lower(hostOf(src))
			if thisMachine(h) || isLocalHost(h) && !strings.HasPrefix(lower(src), "http://") || codeHosts[h] || knownFeedHost(h) {
				return false, "" // (a feed on the network over plain HTTP can be swapped on the way)
			}
			return true, src
		}},
	{ID: "container-foreign-image", Level: LevelModerate, Category: CategoryRemoteExec, Description: "running a container image from an arbitrary registry (code nobody reviewed, with what it is given)",
		Suggestions: []string{"Use the project's own or an official image", "Pull and inspect the image first"}, names: names("docker"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, rest := dockerSub(c)
			if sub != "run" && sub != "container run" && sub != "create" && sub != "container create" {
				return false, ""
			}
			img := containerImage(rest)
			if knownRegistry(imageHost(img)) || strings.ContainsAny(img, "$`") {
				return false, ""
			}
			return true, img
		}},
	{ID: "remote-pipe-shell", Level: LevelCritical, Category: CategoryRemoteExec, Description: "piping downloaded code into a shell or interpreter",
		Suggestions: suggRemote, names: execNames,
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.script != nil && c.script.kind == scriptStdin && c.script.flow.kind == flowRemote {
				return true, c.script.flow.what
			}
			return false, ""
		}},
	{ID: "remote-procsubst-shell", Level: LevelCritical, Category: CategoryRemoteExec, Description: "running downloaded code through process substitution",
		Suggestions: suggRemote, names: execNames,
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.script != nil && c.script.kind == scriptProc && c.script.flow.kind == flowRemote {
				return true, c.script.flow.what
			}
			return false, ""
		}},
	{ID: "remote-procsubst-config", Level: LevelCritical, Category: CategoryRemoteExec, Description: "a build, task or playbook file downloaded through process substitution and run",
		Suggestions: suggRemote, names: names("make", "gmake", "cargo", "just", "task", "ansible-playbook", "nix", "nix-build", "gdb", "vim", "nvim", "rake", "gradle", "mvn", "npm", "terraform", "bash", "zsh", "java",
			"cmake", "ctest", "sh", "dash", "ksh", "python", "python3", "node", "perl", "ruby"),
		match: func(a *analysis, c *cmd) (bool, string) {
			// BASH_ENV=<(curl URL) bash -c ..., PYTHONSTARTUP=<(curl URL)
			// python3 -i: read before the command
			for _, as := range c.assigns {
				if codeLoadVars[as.name] && as.val.flow != nil && as.val.flow.kind == flowRemote {
					return true, as.name + " ← " + as.val.flow.what
				}
			}
			// make -f <(curl URL), cargo run --manifest-path <(curl URL),
			// cmake -P <(curl URL): the file says what runs
			for _, w := range c.args() {
				if w.flow != nil && w.flow.kind == flowRemote && strings.HasPrefix(w.s, "/dev/fd/") {
					return true, w.flow.what
				}
			}
			return false, ""
		}},
	{ID: "remote-subst-exec", Level: LevelCritical, Category: CategoryRemoteExec, Description: "running code downloaded by a command substitution",
		Suggestions: suggRemote, names: execNames,
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.script != nil && c.script.kind == scriptInline && c.script.flow.kind == flowRemote {
				return true, c.script.flow.what
			}
			return false, ""
		}},
	{ID: "remote-download-exec", Level: LevelCritical, Category: CategoryRemoteExec, Description: "running a file downloaded in the same command",
		Suggestions: suggRemote,
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.words) == 0 {
				return false, ""
			}
			w0 := c.words[0]
			if w0.flow != nil && w0.flow.kind == flowRemote {
				return true, w0.flow.what
			}
			if c.script != nil && c.script.kind == scriptFile && c.script.flow.kind == flowRemote {
				return true, c.script.w.s
			}
			if (len(a.downloads) > 0 || len(a.downloadDirs) > 0) && strings.Contains(w0.s, "/") && a.isDownloaded(w0.s, c.cwd) {
				return true, w0.s
			}
			if !w0.ok && a.downloads[dynDownload+w0.s] {
				return true, w0.s
			}
			if p := openedFile(c); p != "" && (len(a.downloads) > 0 || len(a.downloadDirs) > 0) && a.isDownloaded(p, c.cwd) {
				return true, c.base + " " + p
			}
			return false, ""
		}},
	{ID: "remote-download-loaded", Level: LevelCritical, Category: CategoryRemoteExec, Description: "loading, sourcing or building code downloaded in the same command",
		Suggestions: suggRemote,
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(a.downloads) == 0 && len(a.downloadDirs) == 0 {
				return false, ""
			}
			// variables naming code the program loads first:
			// LD_PRELOAD=/tmp/l.so ls, PERL5LIB=/tmp/p perl
			loads := func(name, val string) bool {
				for _, f := range strings.FieldsFunc(val, func(r rune) bool { return r == ':' || r == ' ' || r == '=' }) {
					f = strings.TrimPrefix(strings.TrimPrefix(f, "-r"), "--require")
					if a.isDownloaded(f, c.cwd) || a.holdsDownload(f, c.cwd) {
						return true
					}
				}
				for _, f := range strings.Fields(val) {
					// $env:NODE_OPTIONS = "--require $env:TEMP\h.js": a
					// Windows path, which the split above cut at its colon
					if f = strings.TrimPrefix(f, "--require="); len(f) > 2 && f[1] == ':' {
						if p := a.winAbs(f); p != "" && (a.downloads[p] || a.downloads["/"+p] || a.downloads[path.Base(p)]) {
							return true
						}
					}
				}
				return false
			}
			for _, as := range c.assigns {
				if codeLoadVars[as.name] && loads(as.name, as.val.s) {
					return true, as.name + "=" + as.val.s
				}
			}
			if !fetchers[c.name] && !inertReaders[c.name] && !winDownloaders[c.name] && c.name != "export" && c.name != "set" && c.name != "cmd:set" {
				// export NODE_OPTIONS="--require /tmp/h.js"; curl -o
				// /tmp/h.js URL; npm test: set earlier in the session, the
				// download is loaded by every program after it
				for _, name := range codeLoadVarList {
					if w, ok := a.vars[name]; ok && w.ok && loads(name, w.s) {
						return true, name + "=" + w.s + " (set earlier)"
					}
				}
			}
			if inertReaders[c.name] || fetchers[c.name] || winDownloaders[c.name] || len(c.words) < 2 ||
				shellNameSet[c.name] || scriptLangs[c.name] != "" || sedPrintsLines(c) {
				// reading, checking or the download itself; shells and
				// interpreters running it are remote-download-exec's
				return false, ""
			}
			build := buildRunners[c.name]
			for _, w := range c.args() {
				v := w.s
				if i := strings.IndexByte(v, '='); i > 0 && strings.HasPrefix(v, "-") {
					v = v[i+1:] // -script=/tmp/ue.py
				}
				// a word may be a dot-command: sqlite3 db ".load /tmp/e.so"
				for _, f := range strings.Fields(v) {
					if (codeFile(f) || stepRunners[c.name] && stepsFile(f)) && a.isDownloaded(f, c.cwd) {
						return true, c.base + " " + f
					}
					if build && a.holdsDownload(f, c.cwd) {
						return true, c.base + " in " + f
					}
				}
			}
			return false, ""
		}},
	{ID: "remote-into-autorun-config", Level: LevelCritical, Category: CategoryRemoteExec, Description: "filling a file that tools run on their own (direnv's .envrc, editor tasks, dev containers, hook and package lists) from the network or pointing it at an unknown host",
		Suggestions: []string{"Review the file before the tool that runs it sees it", "Take hooks and packages from the public registries and forges"}, writes: true,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, t := range a.writeTargets(c) {
				if t.path == "" || !autorunConfig(t.path) {
					continue
				}
				switch t.content.kind {
				case flowRemote:
					return true, t.raw + " ← " + t.content.what
				case flowText:
					for _, u := range urlsIn(t.content.text) {
						if strangerCodeHost(u) {
							return true, t.raw + " → " + u
						}
					}
				}
			}
			return false, ""
		}},
	{ID: "package-source-stranger", Level: LevelCritical, Category: CategoryRemoteExec, Description: "installing packages, archives or tools from a package source on an unknown host (their install and build code runs here)",
		Suggestions: []string{"Install from the ecosystem's public registry", "Add a private source only after the user confirms it"},
		names: names("pip", "pip3", "go", "composer", "cs", "coursier", "mix", "dart", "flutter", "zig", "kubectl", "Rscript", "R", "julia", "flatpak", "mlflow", "npm", "pnpm", "yarn", "gitlab-runner", "config.sh",
			"nix-env", "packer", "heroku", "dbt", "gcloud", "az", "mvn", "mvnw", "./mvnw"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if u := codeSourceURL(a, c); u != "" {
				return true, u
			}
			return false, ""
		}},
	{ID: "remote-code-exec", Level: LevelCritical, Category: CategoryRemoteExec, Description: "interpreter code that downloads and executes code",
		Suggestions: suggRemote, names: interpNames,
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.scan != nil && c.scan.remote != "" {
				return true, c.scan.remote
			}
			return false, ""
		}},
	{ID: "db-server-code-exec", Level: LevelCritical, Category: CategoryRemoteExec, Description: "making a database server run a program, load native code or write files on its host",
		Suggestions: []string{"Keep the server's command and extension features off", "Run the program yourself, where it can be reviewed"},
		names:       dbClients,
		match:       sqlFinding(func(s *sqlScan) string { return s.serverExec })},
	{ID: "model-code-trusted", Level: LevelCritical, Category: CategoryRemoteExec, Description: "serving or evaluating a model with its repository's own code allowed to run",
		Suggestions: []string{"Use a model whose architecture the library ships", "Review the repository's code and pin its revision first"},
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, l := range c.lowerArgs() {
				if l == "--trust-remote-code" || l == "--trust_remote_code" || l == "--trust-remote-code=true" || l == "--trust_remote_code=true" {
					return true, c.base + " " + l
				}
			}
			return false, ""
		}},
	{ID: "toolchain-hook-untrusted", Level: LevelHigh, Category: CategoryPersistence, Description: "making every later build run a program from a temporary or hidden place (Go's -toolexec, a JVM agent)",
		Suggestions: []string{"Keep build flags in the project, pointing at reviewed tools"}, names: names("go"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) < 2 || ops[0].s != "env" || !hasWord(c.args(), "-w") {
				return false, ""
			}
			for _, w := range ops[1:] {
				if k, v, ok := strings.Cut(w.s, "="); ok && k == "GOFLAGS" && agentOption(v) {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "wrapper-replaced-and-run", Level: LevelCritical, Category: CategoryRemoteExec, Description: "a build wrapper's jar or a package manager's own release fetched from elsewhere, then run",
		Suggestions: suggRemote, names: names("./gradlew", "gradlew", "gradlew.bat", ".\\gradlew.bat", "gradle", "./mvnw", "mvnw", "mvnw.cmd", "yarn"),
		match: func(a *analysis, c *cmd) (bool, string) {
			switch c.name {
			case "yarn":
				// yarn set version URL: that file becomes the project's yarn
				args := c.args()
				if len(args) >= 3 && args[0].s == "set" && args[1].s == "version" && strings.Contains(args[2].s, "://") {
					if h := lower(hostOf(args[2].s)); !codeHosts[h] && h != "repo.yarnpkg.com" && !isLocalHost(h) {
						return true, "yarn set version " + args[2].s
					}
				}
				return false, ""
			}
			// gradle --init-script URL: a script from anywhere run in
			// every project of the build
			if v, ok := optValue(c.args(), "-I", "init-script"); ok && strings.Contains(v, "://") && !isLocalHost(hostOf(v)) {
				return true, c.base + " --init-script " + v
			}
			for _, jar := range [...]string{"gradle/wrapper/gradle-wrapper.jar", ".mvn/wrapper/maven-wrapper.jar", "gradle/wrapper/gradle-wrapper.properties", ".mvn/wrapper/maven-wrapper.properties"} {
				if a.isDownloaded(jar, c.cwd) {
					return true, c.base + " after " + jar + " was downloaded"
				}
			}
			return false, ""
		}},
	{ID: "config-management-remote", Level: LevelCritical, Category: CategoryRemoteExec, Description: "a configuration-management tool applying code read from a download or fetched from a URL (it runs as root)",
		Suggestions: suggRemote, names: names("puppet", "chef-apply", "chef-client", "chef-solo", "cinc-client", "mgmt", "pyinfra"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			switch c.name {
			case "puppet":
				// puppet apply reads its manifest from standard input
				// when given none, or runs the one named
				if len(ops) == 0 || ops[0].s != "apply" {
					return false, ""
				}
				if len(ops) == 1 && c.in.kind == flowRemote {
					return true, c.in.what
				}
				if len(ops) > 1 && a.isDownloaded(ops[1].s, c.cwd) {
					return true, "puppet apply " + ops[1].s
				}
				if v, ok := optValue(args, "-e", "execute"); ok && strings.Contains(v, "http") && strings.Contains(v, "exec") {
					return true, "puppet apply -e"
				}
			case "chef-apply":
				if hasWord(args, "-s") || hasWord(args, "--stdin") {
					return c.in.kind == flowRemote, c.in.what
				}
				if len(ops) > 0 && a.isDownloaded(ops[0].s, c.cwd) {
					return true, "chef-apply " + ops[0].s
				}
			default:
				// chef-client --recipe-url URL, chef-solo -r URL
				for _, k := range [...]string{"recipe-url", "config"} {
					if v, ok := optValue(args, "", k); ok && strings.Contains(v, "://") && !isLocalHost(hostOf(v)) {
						return true, c.name + " --" + k + " " + v
					}
				}
				if v, ok := optValue(args, "-r", ""); ok && strings.Contains(v, "://") && !isLocalHost(hostOf(v)) {
					return true, c.name + " -r " + v
				}
			}
			return false, ""
		}},
	{ID: "remote-into-database", Level: LevelHigh, Category: CategoryRemoteExec, Description: "running downloaded statements against a database",
		Suggestions: suggRemote, names: dbClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.in.kind == flowRemote {
				return true, c.in.what
			}
			return false, ""
		}},
	{ID: "script-shell-untrusted", Level: LevelCritical, Category: CategoryRemoteExec, Description: "package scripts run through a downloaded or untrusted program as their shell",
		Suggestions: []string{"Leave the script shell at its default", "Run the script's command yourself, after reading it"},
		names:       names("npm", "pnpm", "yarn", "npx"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sh := ""
			for _, as := range c.assigns {
				if strings.EqualFold(as.name, "npm_config_script_shell") {
					sh = as.val.s
				}
			}
			if v, ok := optValue(c.args(), "", "script-shell"); ok {
				sh = v
			}
			if sh != "" && (untrustedPlace(sh) || a.isDownloaded(sh, c.cwd)) {
				return true, sh
			}
			return false, ""
		}},
	{ID: "package-source-redirect", Level: LevelHigh, Category: CategoryRemoteExec, Description: "pointing every later package install, or the script shell, at an untrusted place",
		Suggestions: []string{"Keep the official registry", "Configure a registry only in the project's own .npmrc / pip.conf after review"},
		names:       names("npm", "pnpm", "yarn", "pip", "pip3", "gem", "cargo", "go", "composer", "bundle"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			j := joinWords(args)
			if !strings.Contains(j, "config set") && !strings.Contains(j, "config --global") && !strings.Contains(j, "sources --add") && !strings.Contains(j, "env -w") && !strings.Contains(j, "config -g") &&
				!(strings.HasPrefix(j, "set ") && (c.name == "npm" || c.name == "pnpm")) { // npm set KEY VALUE: config set's short form
				return false, ""
			}
			for i, w := range args {
				l := strings.ToLower(w.s)
				// the script shell runs every package script; the global
				// prefix holds the shims every global tool starts from
				if strings.Contains(l, "script-shell") || strings.Contains(l, "shell") && c.name != "pip" || l == "prefix" && c.name == "npm" {
					for _, v := range args {
						if l == "prefix" && userNpmPrefix(a, v.s) {
							continue // npm config set prefix ~/.npm-global: npm's own advice for global installs without root
						}
						if untrustedPlace(v.s) || winUntrustedPlace(v.s) || a.isDownloaded(v.s, c.cwd) {
							return true, v.s
						}
					}
				}
				// npm config set script-shell ~/.local/bin/wrap.sh: a
				// program of someone's own, not a shell, runs every script
				if l == "script-shell" && i+1 < len(args) && strings.ContainsAny(args[i+1].s, `/\`) && !shellProgram(lower(args[i+1].s)) {
					return true, args[i+1].s
				}
			}
			for _, u := range urlArgs(args) {
				h := hostOf(u)
				if isPublicIP(h) || strings.HasPrefix(u, "http://") && !isLocalHost(h) {
					return true, u
				}
			}
			for _, w := range args {
				if v := strings.TrimPrefix(w.s, "GOPROXY="); v != w.s && (strings.HasPrefix(v, "http://") || isPublicIP(hostOf(v))) {
					return true, v
				}
			}
			return false, ""
		}},
	{ID: "trust-package-source", Level: LevelHigh, Category: CategoryRemoteExec, Description: "trusting a package repository or signing key from an unknown host (what it serves later installs as root)",
		Suggestions: []string{"Use the vendor's documented repository over HTTPS, with its key fingerprint checked", "Install a pinned release you have reviewed"},
		names:       names("helm", "add-apt-repository", "apt-key", "rpm", "yum-config-manager", "dnf", "zypper", "brew", "apk", "gpg", "flatpak", "snap"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			j := joinWords(args)
			adds := false
			switch c.name {
			case "helm":
				adds = strings.HasPrefix(j, "repo add ")
			case "add-apt-repository", "yum-config-manager", "zypper", "flatpak":
				adds = true
			case "apt-key", "gpg":
				adds = hasWord(args, "add") || hasWord(args, "adv") || hasWord(args, "--import")
				if adds && c.in.kind == flowRemote && unknownHost(c.in.what) {
					return true, c.in.what
				}
			case "rpm":
				adds = hasWord(args, "--import")
			case "dnf":
				adds = strings.Contains(j, "config-manager") || strings.Contains(j, "--add-repo")
			case "brew":
				adds = len(args) > 2 && args[0].s == "tap"
				if adds && strings.Contains(a.src, "brew install") {
					// brew tap quickdev/tools https://github.com/quickdev/homebrew-tools
					// && brew install ...: a stranger's formulae installed
					// (a tap named without its address is the maintainer's)
					if u := args[2].s; strings.HasPrefix(u, "https://github.com/") || strings.HasPrefix(u, "https://gitlab.com/") || strings.HasPrefix(u, "https://bitbucket.org/") {
						return true, "brew tap " + args[1].s + " " + u
					}
				}
			case "apk":
				adds = strings.Contains(j, "--repository") || strings.Contains(j, "-X ")
			case "snap":
				adds = hasWord(args, "--dangerous")
			}
			if !adds {
				return false, ""
			}
			for _, w := range args {
				if c.name == "add-apt-repository" && strings.HasPrefix(w.s, "ppa:") && !knownPPA(w.s) {
					// ppa:someone/tools: a person's archive, root's
					// packages from now on
					return true, w.s
				}
				for _, f := range strings.Fields(w.s) {
					if i := strings.Index(f, "="); i > 0 && strings.HasPrefix(f, "--") {
						f = f[i+1:]
					}
					if strings.Contains(f, "://") && unknownHost(f) {
						return true, f
					}
				}
			}
			return false, ""
		}},
	{ID: "container-plugin-untrusted", Level: LevelCritical, Category: CategoryRemoteExec, Description: "installing a container engine plugin from an unknown registry with every permission it asks for (it runs as root beside the engine)",
		Suggestions: []string{"Install plugins the engine's vendor publishes, and review the permissions one by one"}, names: names("docker"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if !hasWord(c.args(), "--grant-all-permissions") {
				return false, ""
			}
			ops := posArgs(c.args(), dockerGlobal)
			if len(ops) < 3 || ops[0].s != "plugin" || ops[1].s != "install" {
				return false, ""
			}
			ref := ops[2].s
			if host, _, ok := strings.Cut(ref, "/"); ok && strings.ContainsAny(host, ".:") && host != "docker.io" && host != "registry-1.docker.io" {
				return true, "docker plugin install " + ref
			}
			return false, ""
		}},
	{ID: "apply-remote-manifest", Level: LevelHigh, Category: CategoryRemoteExec, Description: "applying manifests or charts straight from a URL to a cluster",
		Suggestions: []string{"Download the manifest, review it, then apply the file", "Pin a chart from a trusted repository by version"}, names: names("kubectl", "oc", "helm", "kustomize"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := skipClusterGlobals(c.args())
			if len(args) == 0 {
				return false, ""
			}
			switch args[0].s {
			case "apply", "create", "replace", "install", "upgrade", "build", "template":
			default:
				return false, ""
			}
			if args[0].s == "template" || args[0].s == "build" && (c.name != "kustomize" || !rendersIntoCluster(c)) {
				return false, "" // rendered for review, not applied
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
				if (v == "-" || v == "/dev/stdin") && c.in.kind == flowRemote && unknownHostOrCode(c.in.what) {
					return true, c.in.what // curl URL | kubectl apply -f -
				}
				if strings.Contains(v, "://") && codeURL(v) || (strings.HasPrefix(v, "github.com/") || strings.HasPrefix(v, "gitlab.com/") || strings.Contains(v, "?ref=")) && (c.name == "kustomize" || strings.HasPrefix(w.s, "-k") || strings.HasPrefix(w.s, "--kustomize")) {
					return true, v
				}
			}
			return false, ""
		}},
	{ID: "deploy-remote-template", Level: LevelCritical, Category: CategoryRemoteExec, Description: "deploying a cloud template straight from a URL on a host that is not well known",
		Suggestions: []string{"Download the template, review it, then deploy the local file", "Deploy templates kept in the project or the organisation's own storage"},
		names:       names("az", "aws"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			opt := ""
			switch {
			case c.name == "az" && len(ops) > 1 && ops[0].s == "deployment" && (ops[1].s == "create" || len(ops) > 2 && ops[2].s == "create"):
				opt = "template-uri" // az deployment sub create --template-uri URL
			case c.name == "aws" && len(ops) > 1 && ops[0].s == "cloudformation" &&
				(ops[1].s == "create-stack" || ops[1].s == "update-stack" || ops[1].s == "create-change-set" || ops[1].s == "create-stack-set"):
				opt = "template-url"
			default:
				return false, ""
			}
			short := ""
			if c.name == "az" {
				short = "-u"
			}
			if u, ok := optValue(args, short, opt); ok && strings.Contains(u, "://") && codeURL(u) && !ownStorageURL(u) {
				return true, "--" + opt + " " + u
			}
			return false, ""
		}},
	{ID: "run-remote-module", Level: LevelCritical, Category: CategoryRemoteExec, Description: "running a program straight from a URL or a stranger's repository",
		Suggestions: []string{"Download the code, read it, then run the local copy", "Install a published, pinned version"},
		names:       names("deno", "uv", "uvx", "pipx", "npx", "bunx", "pnpm", "ansible-pull", "go", "nix", "dnx", "winget", "npm", "mint", "flux"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "mint":
				// mint run git.example.com/x/tool: a Swift package built
				// and run from another host than GitHub (owner/repo, the
				// usual form, is judged like any GitHub package)
				if ops := c.operands(); len(ops) > 1 && (ops[0].s == "run" || ops[0].s == "install") {
					first, _, _ := strings.Cut(ops[1].s, "/")
					if strings.Contains(first, ".") && first != "github.com" || strings.Contains(ops[1].s, "://") && codeURL(ops[1].s) {
						return true, "mint " + ops[0].s + " " + ops[1].s
					}
				}
				return false, ""
			case "flux":
				// flux bootstrap git --url=STRANGER --path=clusters/production,
				// or from a personal account's repository: the production
				// cluster applies whatever that repository holds from now on
				ops := c.operands()
				if len(ops) < 2 || ops[0].s != "bootstrap" {
					return false, ""
				}
				p, _ := optValue(args, "", "path")
				prod := isProdName(p) || strings.Contains(lower(p), "prod") || touchesProduction(c)
				if u, ok := optValue(args, "", "url"); ok && ops[1].s == "git" && codeURL(u) && prod {
					return true, "flux bootstrap git --url=" + u
				}
				if (ops[1].s == "github" || ops[1].s == "gitlab") && hasWord(args, "--personal") && prod {
					o, _ := optValue(args, "", "owner")
					return true, "flux bootstrap " + ops[1].s + " from " + o + "'s personal repository"
				}
				return false, ""
			case "winget":
				// winget configure URL: a configuration's resources run
				// whatever scripts and installers the host names
				if ops := c.operands(); len(ops) > 0 && ops[0].s == "configure" {
					for _, u := range urlArgs(args) {
						if !isLocalHost(hostOf(u)) {
							return true, "winget configure " + u
						}
					}
				}
			case "deno":
				if len(args) > 0 && (args[0].s == "run" || args[0].s == "install" || args[0].s == "eval") {
					all := hasWord(args, "-A") || hasWord(args, "--allow-all") || hasPrefixWord(args, "-gA") || hasWord(args, "--allow-run") || hasWord(args, "--allow-write")
					for _, w := range args[1:] {
						if !strings.HasPrefix(w.s, "-") {
							// deno.land/x and esm.sh/gh are anyone's modules and
							// repositories, published as they are (deno.land/std is
							// Deno's own): given every permission, pinned or not,
							// they are a stranger's code run
							third := strings.Contains(w.s, "deno.land/x/") || strings.Contains(w.s, "esm.sh/gh/")
							return codeURL(w.s) || all && third, w.s
						}
					}
				}
			case "uv", "uvx", "pipx":
				if ops := c.operands(); len(ops) > 0 && c.name == "uv" && (ops[0].s == "publish" || ops[0].s == "build") {
					return false, "" // the project's own package, sent to an index or built
				}
				for i, w := range args {
					if i > 0 && indexURLOption(args[i-1].s) || strings.HasPrefix(w.s, "--") && indexURLOption(strings.SplitN(w.s, "=", 2)[0]) {
						continue // where the package goes
					}
					v := strings.TrimPrefix(w.s, "--spec=")
					if i > 0 && (args[i-1].s == "--index-url" || args[i-1].s == "--extra-index-url" || args[i-1].s == "--default-index" || args[i-1].s == "-i") && knownFeedHost(hostOf(v)) {
						continue // the public index itself (--index-url https://pypi.org/simple)
					}
					if codeURL(v) || strings.HasPrefix(v, "git+") {
						return true, v
					}
					if c.name == "uvx" && !strings.HasPrefix(w.s, "-") && (i == 0 || !uvValueOption(args[i-1].s)) {
						// uvx httpie https://api.example.com: after the
						// tool's name, its own arguments
						break
					}
				}
			case "npx", "bunx", "pnpm", "dnx", "npm":
				if ops := c.operands(); c.name == "npm" && (len(ops) == 0 || ops[0].s != "exec" && ops[0].s != "x") {
					return false, "" // npm exec, npm x: npx's own commands
				}
				if ops := c.operands(); c.name == "pnpm" && len(ops) > 0 && (ops[0].s == "config" || ops[0].s == "publish") {
					return false, "" // pnpm config set: settings have rules of their own; pnpm publish --registry URL: where the package goes
				}
				for i, w := range args {
					// npx --package=URL cmd: the package the command comes
					// from; after the command, its own arguments (npx
					// openapi-typescript http://localhost:8080/spec: a
					// spec it reads)
					v := strings.TrimPrefix(w.s, "--package=")
					pkg := v != w.s || i > 0 && (args[i-1].s == "-p" || args[i-1].s == "--package")
					if (strings.HasPrefix(v, "github:") || strings.HasPrefix(v, "git+") || strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://")) &&
						!loopback(hostOf(v)) {
						return true, v
					}
					if !pkg && !strings.HasPrefix(w.s, "-") && (c.name == "npx" || c.name == "bunx" || c.name == "dnx") {
						break
					}
				}
			case "ansible-pull":
				return true, "ansible-pull"
			case "go":
				if len(args) > 1 && args[0].s == "run" && strings.Contains(args[len(args)-1].s, "@") && isPublicIP(hostOf(args[len(args)-1].s)) {
					return true, args[len(args)-1].s
				}
				// go install M@latest with the module checks turned off
				// (GOFLAGS=-insecure, GOSUMDB=off, GOPROXY over plain
				// HTTP): whatever the host serves is built and run
				if len(args) > 1 && (args[0].s == "install" || args[0].s == "run" || args[0].s == "get") && strings.Contains(args[len(args)-1].s, "@") {
					if v := goChecksOff(a, c); v != "" {
						return true, v + " go " + args[0].s + " " + args[len(args)-1].s
					}
				}
			case "nix":
				// nix run|shell|develop|profile install FLAKE: a flake
				// of anyone's builds and runs its code
				ops := c.operands()
				if len(ops) > 1 && (ops[0].s == "run" || ops[0].s == "shell" || ops[0].s == "develop" || ops[0].s == "profile" && len(ops) > 2 && (ops[1].s == "install" || ops[1].s == "add")) {
					for _, w := range ops[1:] {
						if (strings.HasPrefix(w.s, "github:") || strings.HasPrefix(w.s, "gitlab:") || strings.Contains(w.s, "://")) &&
							!strings.HasPrefix(w.s, "github:NixOS/") && !strings.HasPrefix(w.s, "github:nixos/") {
							return true, w.s
						}
					}
				}
			}
			return false, ""
		}},
	{ID: "run-unpinned-module", Level: LevelHigh, Category: CategoryRemoteExec, Description: "building and running whatever a module's latest commit holds",
		Suggestions: []string{"Pin a reviewed version (@v1.2.3) or add the tool to go.mod", "Read the module before running it"}, names: names("go"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if len(args) < 2 || args[0].s != "run" {
				return false, ""
			}
			for _, w := range args[1:] {
				if strings.HasPrefix(w.s, "-") {
					continue
				}
				mod, ver, ok := strings.Cut(w.s, "@")
				host, _, _ := strings.Cut(mod, "/")
				if !ok || !strings.Contains(host, ".") || host == "golang.org" || host == "go.dev" {
					return false, ""
				}
				switch ver {
				case "latest", "master", "main", "HEAD", "head", "dev", "develop":
					return true, w.s
				}
				return false, ""
			}
			return false, ""
		}},
	{ID: "package-file-remote", Level: LevelCritical, Category: CategoryRemoteExec, Description: "installing a downloaded or remote system package (its scripts run as root)",
		Suggestions: []string{"Install from the distribution's repositories", "Verify the package's signature before installing"},
		names:       names("dpkg", "rpm", "apt", "apt-get", "yum", "dnf", "zypper", "installer", "pacman", "apk"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			install := c.name == "apk" && hasWord(args, "add")
			for _, w := range args {
				if w.s == "install" || w.s == "localinstall" || w.s == "-U" || w.s == "--install" || w.s == "--upgrade" || w.s == "--freshen" || c.name != "pacman" && strings.HasPrefix(w.s, "-i") && len(w.s) <= 5 || w.s == "-pkg" {
					install = true
				}
				// rpm -Uvh, rpm -ivh, rpm -Fvh: a cluster with an install mode
				if c.name == "rpm" && len(w.s) > 1 && w.s[0] == '-' && w.s[1] != '-' && isLetters(w.s[1:]) && strings.ContainsAny(w.s[1:], "UiF") {
					install = true
				}
			}
			if !install {
				return false, ""
			}
			for _, w := range c.operands() {
				if codeURL(w.s) && (strings.HasSuffix(w.s, ".deb") || strings.HasSuffix(w.s, ".rpm") || strings.HasSuffix(w.s, ".pkg") || strings.Contains(w.s, ".pkg.tar") || strings.HasSuffix(w.s, ".apk")) {
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
		// no names: a script of the clone run by its path is judged too
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(a.clones) == 0 || len(c.words) == 0 {
				return false, ""
			}
			if w0 := c.words[0].s; strings.ContainsAny(w0, `/\`) {
				// ~/.dotfiles/install.sh, ./tool/setup, C:\src\x\setup.bat:
				// run by its path
				if p := a.absPath(w0, c.cwd); p != "" && a.inClone(p) {
					return true, w0
				}
				if p := a.winAbsPath(w0); p != "" && a.inClone(p) {
					return true, w0
				}
			}
			switch c.name {
			case "make", "bash", "sh", "zsh", "python", "python3", "node", "perl", "ruby", "npm", "pip", "pip3", "cmake", "ninja":
			default:
				return false, ""
			}
			if c.name == "make" || c.name == "cmake" || c.name == "ninja" || c.name == "npm" || c.name == "pip" || c.name == "pip3" {
				dir := c.cwd
				if v, ok := optValue(c.args(), "-C", "directory"); ok && c.name == "make" {
					dir = a.absPath(v, c.cwd)
				}
				if c.asRoot && a.inClone(dir) {
					return true, dir
				}
				if c.name == "make" && a.inClone(dir) {
					// make -C /tmp/tool install: the clone's own install
					// steps, whatever they are, run here (its tests and
					// builds stay in the clone)
					for _, w := range posArgs(c.args(), optSpec{short: "CfIjloW", long: []string{"directory", "file", "makefile", "include-dir", "jobs", "load-average"}}) {
						if !strings.Contains(w.s, "=") && (w.s == "install" || strings.HasPrefix(w.s, "install-") || w.s == "setup" || w.s == "bootstrap") {
							return true, "make " + w.s + " in " + dir
						}
					}
				}
				return false, ""
			}
			for _, w := range c.operands() {
				if p := a.absPath(w.s, c.cwd); p != "" && a.inClone(p) {
					return true, w.s
				}
				break
			}
			return false, ""
		}},
	{ID: "client-runs-url", Level: LevelCritical, Category: CategoryRemoteExec, Description: "a client told to install, run or apply code from an arbitrary URL or repository",
		Suggestions: []string{"Download the code, read it, then run the local copy", "Install a published, pinned version from the usual registry"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if u := clientRunsURL(c); u != "" {
				return true, u
			}
			if len(a.downloads) > 0 || len(a.downloadDirs) > 0 {
				if f := a.clientRunsDownload(c); f != "" {
					return true, f
				}
			}
			return false, ""
		}},
	{ID: "install-unsigned", Level: LevelHigh, Category: CategoryRemoteExec, Description: "installing packages with their signature check turned off",
		Suggestions: []string{"Install signed packages from the distribution's repositories", "Import the publisher's key and keep verification on"},
		names:       names("apt", "apt-get", "dnf", "yum", "microdnf", "zypper", "rpm", "snap", "flatpak", "apk", "add-apt-repository", "apt-key", "install-module", "install-script", "update-module", "add-appxpackage"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range c.args() {
				if unsignedFlag(c.name, w.s) && !pesterOverInbox(c) {
					return true, c.name + " " + w.s
				}
			}
			// a repository added as trusted, its check turned off for
			// good, or a signing key taken from a download
			j := c.argsText()
			switch {
			case c.name == "add-apt-repository" && strings.Contains(j, "trusted=yes"):
				return true, "add-apt-repository [trusted=yes]"
			case (c.name == "dnf" || c.name == "yum") && strings.Contains(j, "config-manager") && strings.Contains(j, "gpgcheck=0"):
				return true, c.name + " config-manager gpgcheck=0"
			case c.name == "apt-key" && hasWord(c.args(), "add") && c.in.kind == flowRemote:
				return true, "apt-key add of " + c.in.what
			}
			return false, ""
		}},
	{ID: "install-from-index-env", Level: LevelHigh, Category: CategoryRemoteExec, Description: "an installer pointed at another package index by an environment variable",
		Suggestions: []string{"Install from the usual registry", "Pin the package with a hash from a source you trust"},
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, as := range c.assigns {
				if h := foreignIndexEnv(as.name, as.val.s); h != "" {
					return true, as.name + "=" + as.val.s
				}
			}
			// export NPM_CONFIG_REGISTRY=...; npm install ($env: in
			// PowerShell): set earlier in the line for what follows
			if indexInstallers[c.name] && len(a.vars) > 0 {
				for name := range indexEnvHosts {
					if v, ok := a.vars[name]; ok && foreignIndexEnv(name, v.s) != "" {
						return true, name + "=" + v.s
					}
				}
			}
			return false, ""
		}},
	{ID: "run-url", Level: LevelCritical, Category: CategoryRemoteExec, Description: "running a program straight from a URL",
		Suggestions: []string{"Download the code, read it, then run the local copy"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.words) > 0 && strings.Contains(c.words[0].s, "://") && codeURL(c.words[0].s) {
				// start https://github.com/settings/keys: a page shown in
				// the browser (a program's download is run where it lands)
				if openers[lower(c.origin)] && !urlNamesProgram(c.words[0].s) {
					return false, ""
				}
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
	{ID: "make-downloaded", Level: LevelHigh, Category: CategoryRemoteExec, Description: "running the recipes of a Makefile, a CMake script, a Taskfile, an editor script or a direnv file downloaded moments ago or fetched from the network",
		Suggestions: []string{"Read the downloaded file before running it", "Vendor the build script into the project, reviewed"},
		names:       names("make", "gmake", "cmake", "task", "vim", "nvim", "vi", "direnv", "terraform", "tofu"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "terraform", "tofu":
				// curl -o main.tf URL && terraform apply: a configuration
				// from the network, applied with the user's credentials
				// (its provisioners and external data sources run here)
				if ops := c.operands(); len(ops) == 0 || ops[0].s != "apply" || len(a.downloads) == 0 {
					return false, ""
				}
				dir := a.absPath(".", c.cwd)
				if v, ok := optValue(args, "", "chdir"); ok {
					dir = a.absPath(v, c.cwd)
				}
				for p := range a.downloads {
					if (strings.HasSuffix(p, ".tf") || strings.HasSuffix(p, ".tf.json")) && (path.Dir(p) == dir || !strings.Contains(p, "/")) {
						return true, c.name + " apply of a configuration downloaded moments ago"
					}
				}
				return false, ""
			case "direnv":
				// git clone URL d && cd d && direnv allow: the cloned
				// .envrc runs in every later shell that enters it
				ops := c.operands()
				if len(ops) == 0 || ops[0].s != "allow" && ops[0].s != "permit" && ops[0].s != "grant" {
					return false, ""
				}
				f := ".envrc"
				if len(ops) > 1 {
					f = strings.TrimSuffix(ops[1].s, "/")
					if !strings.HasSuffix(f, ".envrc") && !strings.HasSuffix(f, ".env") {
						f += "/.envrc"
					}
				}
				return a.isDownloaded(f, c.cwd), "direnv allow " + f
			case "cmake":
				// cmake -P F, -C F, -DCMAKE_PROJECT_INCLUDE=F,
				// -DCMAKE_TOOLCHAIN_FILE=F: CMake code, run at configure
				for i, w := range args {
					f := ""
					switch {
					case (w.s == "-P" || w.s == "-C") && i+1 < len(args):
						f = args[i+1].s
					case strings.HasPrefix(w.s, "-DCMAKE_PROJECT_INCLUDE=") || strings.HasPrefix(w.s, "-DCMAKE_TOOLCHAIN_FILE=") ||
						strings.HasPrefix(w.s, "-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES="):
						_, f, _ = strings.Cut(w.s, "=")
					}
					if f != "" && (a.isDownloaded(f, c.cwd) || strings.Contains(f, "://")) {
						return true, "cmake " + f
					}
				}
				return false, ""
			case "task":
				// task --taskfile https://...: a remote Taskfile's commands
				if f, ok := optValue(args, "-t", "taskfile"); ok && (strings.HasPrefix(f, "http://") || strings.HasPrefix(f, "https://") || a.isDownloaded(f, c.cwd)) {
					return true, "task --taskfile " + f
				}
				return false, ""
			case "vim", "nvim", "vi":
				// vim -c 'source https://...', nvim -c 'lua load(vim.fn.system({"curl", ...}))()'
				for i, w := range args {
					if (w.s == "-c" || w.s == "--cmd") && i+1 < len(args) {
						l := lower(args[i+1].s)
						if strings.Contains(l, "://") && (strings.Contains(l, "source") || strings.Contains(l, "luafile") || strings.Contains(l, "load(") || strings.Contains(l, "runtime")) {
							return true, "an editor script from the network"
						}
					}
				}
				return false, ""
			}
			f, ok := optValue(args, "-f", "file")
			if !ok {
				f = "Makefile"
			}
			if a.isDownloaded(f, c.cwd) {
				return true, f
			}
			if (f == "-" || f == "/dev/stdin") && c.in.kind == flowRemote {
				return true, c.in.what // curl URL | make -f -
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, remoteExecRules) }

// unknownHost reports a URL (or text holding one) on a bare public IP or
// fetched over plain HTTP from a non-local host.
func unknownHost(s string) bool {
	i := strings.Index(s, "http")
	if i < 0 {
		return false
	}
	u := s[i:]
	if j := strings.IndexAny(u, " '\""); j >= 0 {
		u = u[:j]
	}
	h := hostOf(u)
	return isPublicIP(h) || strings.HasPrefix(u, "http://") && !isLocalHost(h)
}

// codeHosts are registries and code hosts whose packages are published
// under an account, not files anyone can put on a web site.
var codeHosts = map[string]bool{"github.com": true, "gitlab.com": true, "bitbucket.org": true, "codeload.github.com": true,
	"objects.githubusercontent.com": true, "raw.githubusercontent.com": true, "files.pythonhosted.org": true, "pypi.org": true,
	"registry.npmjs.org": true, "registry.yarnpkg.com": true, "rubygems.org": true, "crates.io": true, "proxy.golang.org": true}

// packageFile reports a URL naming a package archive, formula or
// installer manifest.
func packageFile(u string) bool {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	l := lower(u)
	for _, ext := range [...]string{".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".zip", ".whl", ".gem", ".rb", ".yaml", ".yml", ".crate", ".egg", ".git"} {
		if strings.HasSuffix(l, ext) {
			return true
		}
	}
	return false
}

// openers run the file they are given with whatever the desktop runs it
// with: a program, an installer or an app bundle is executed.
var openers = map[string]bool{"open": true, "xdg-open": true, "start": true, "gio": true, "explorer": true,
	"explorer.exe": true, "invoke-item": true, "start-process": true, "ii": true, "saps": true, "launchctl": false}

// openedFile is the file an opener runs, "" for other commands.
func openedFile(c *cmd) string {
	if !openers[c.name] && !openers[strings.ToLower(c.base)] {
		return ""
	}
	args := c.args()
	if c.name == "gio" {
		if len(args) == 0 || args[0].s != "open" {
			return ""
		}
		args = args[1:]
	}
	for _, w := range args {
		s := strings.Trim(w.s, `"'`)
		if s == "" || strings.HasPrefix(s, "-") || strings.HasPrefix(s, "/") && len(s) <= 3 && c.name == "start" {
			continue // options, start's "" title and /b /wait switches
		}
		if runnableFile(s) {
			return s
		}
		return ""
	}
	return ""
}

// urlNamesProgram reports a URL whose path ends in a program, installer
// or script (https://x.example/setup.exe); a page's path has no such
// extension.
func urlNamesProgram(u string) bool {
	u, _, _ = strings.Cut(u, "?")
	u, _, _ = strings.Cut(u, "#")
	if _, rest, ok := strings.Cut(u, "://"); ok {
		u = rest
	}
	_, p, ok := strings.Cut(u, "/")
	return ok && path.Ext(p) != "" && runnableFile(p)
}

// runnableFile reports a file an opener executes rather than displays: a
// program, an installer, a script or app bundle, or a file with no
// extension (a binary); documents and pages are only shown.
func runnableFile(p string) bool {
	ext := strings.ToLower(path.Ext(strings.TrimRight(p, "/\\")))
	switch ext {
	case "", ".exe", ".msi", ".bat", ".cmd", ".ps1", ".vbs", ".js", ".hta", ".scr", ".lnk", ".jar", ".app", ".pkg",
		".dmg", ".appimage", ".sh", ".command", ".deb", ".rpm", ".msix", ".appx", ".run", ".bin":
		return true
	}
	return false
}

// trustedIndexHosts are package indexes run by the projects whose
// packages they serve (PyTorch's and NVIDIA's wheels, Chocolatey's own
// feed, the test PyPI).
var trustedIndexHosts = map[string]bool{"download.pytorch.org": true, "pypi.nvidia.com": true, "test.pypi.org": true, "pypi.org": true, "pypi.python.org": true, "files.pythonhosted.org": true,
	"community.chocolatey.org": true, "chocolatey.org": true, "npm.pkg.github.com": true, "registry.npmjs.org": true, "rubygems.org": true,
	"data.pyg.org": true}

// managedRegistryHost reports a cloud's package registry service, where
// an organisation keeps its own private packages: AWS CodeArtifact
// (acme-123456789012.d.codeartifact.eu-west-1.amazonaws.com), Google's
// Artifact Registry (europe-python.pkg.dev) and Azure Artifacts.
func managedRegistryHost(h string) bool {
	return strings.Contains(h, ".codeartifact.") && strings.HasSuffix(h, ".amazonaws.com") ||
		strings.HasSuffix(h, ".pkg.dev") || h == "pkgs.dev.azure.com" || strings.HasSuffix(h, ".pkgs.visualstudio.com")
}

// containerImage returns the image a docker run or create names: the
// first operand after the options (dockerRunOpts says which take a
// value: --security-opt seccomp=./profile.json is not the image).
func containerImage(args []word) string {
	for i := 0; i < len(args); i++ {
		s := args[i].s
		if s == "--" {
			if i+1 < len(args) {
				return args[i+1].s
			}
			return ""
		}
		if strings.HasPrefix(s, "-") {
			if dockerRunOpts.takesNext(s) {
				i++
			}
			continue
		}
		return s
	}
	return ""
}

// knownFeedHost reports the official galleries, feeds and chart
// repositories, and the hosts projects publish their own charts on.
func knownFeedHost(h string) bool {
	switch h {
	case "www.powershellgallery.com", "powershellgallery.com", "registry.terraform.io", "app.terraform.io", "registry.opentofu.org", "api.nuget.org", "www.nuget.org", "nuget.org", "pkgs.dev.azure.com",
		"charts.bitnami.com", "charts.jetstack.io", "helm.releases.hashicorp.com", "charts.helm.sh", "aws.github.io", "helm.cilium.io",
		"helm.traefik.io", "charts.gitlab.io", "helm.elastic.co", "charts.crossplane.io", "helm.datadoghq.com", "helm.linkerd.io":
		return true
	}
	return strings.HasSuffix(h, ".github.io") || strings.HasSuffix(h, ".pkgs.visualstudio.com") || strings.HasSuffix(h, ".pkg.github.com") || trustedIndexHosts[h]
}

// unsignedFlag reports an option of a package manager that installs
// what its signature check would refuse (apt --allow-unauthenticated,
// dnf --nogpgcheck, snap --dangerous, flatpak --no-gpg-verify).
func unsignedFlag(tool, s string) bool {
	switch tool {
	case "apt", "apt-get":
		return s == "--allow-unauthenticated" || s == "--allow-insecure-repositories" || strings.Contains(s, "AllowUnauthenticated=true") || strings.Contains(s, "AllowInsecureRepositories=true")
	case "dnf", "yum", "microdnf":
		return s == "--nogpgcheck" || s == "--no-gpgchecks"
	case "zypper":
		return s == "--no-gpg-checks"
	case "rpm":
		return s == "--nosignature" || s == "--nodigest"
	case "snap":
		return s == "--dangerous"
	case "flatpak":
		return s == "--no-gpg-verify"
	case "apk":
		return s == "--allow-untrusted"
	case "install-module", "install-script", "update-module":
		// a module's Authenticode publisher no longer checked against
		// the one installed before
		return strings.EqualFold(s, "-SkipPublisherCheck")
	case "add-appxpackage":
		return strings.EqualFold(s, "-AllowUnsigned")
	}
	return false
}

// pesterOverInbox reports Install-Module Pester: Windows ships Pester 3
// signed by another publisher, and Pester's own instructions install the
// current version with -SkipPublisherCheck.
func pesterOverInbox(c *cmd) bool {
	if c.name != "install-module" && c.name != "update-module" {
		return false
	}
	name, ok := optValue(c.args(), "", "Name")
	if !ok {
		if ops := c.operands(); len(ops) > 0 {
			name, ok = ops[0].s, true
		}
	}
	return ok && strings.EqualFold(strings.Trim(name, `"'`), "Pester")
}

// indexEnvHosts are the environment variables that choose where an
// installer downloads packages from, with the hosts they normally name.
var indexEnvHosts = map[string][]string{
	"PIP_INDEX_URL": {"pypi.org"}, "PIP_EXTRA_INDEX_URL": {"pypi.org"}, "UV_INDEX_URL": {"pypi.org"}, "UV_EXTRA_INDEX_URL": {"pypi.org"},
	"UV_DEFAULT_INDEX": {"pypi.org"}, "NPM_CONFIG_REGISTRY": {"registry.npmjs.org"}, "YARN_REGISTRY": {"registry.yarnpkg.com", "registry.npmjs.org"},
	"YARN_NPM_REGISTRY_SERVER": {"registry.yarnpkg.com", "registry.npmjs.org"}, "BUN_CONFIG_REGISTRY": {"registry.npmjs.org"},
	"HEX_MIRROR": {"repo.hex.pm", "builds.hex.pm"}, "HEX_REPO_URL": {"repo.hex.pm"}, "GOPROXY": {"proxy.golang.org"},
	// the toolchains' own downloads: node for nvm and n, Rust for rustup,
	// Python for pyenv, Electron's binaries
	"NVM_NODEJS_ORG_MIRROR": {"nodejs.org", "npmmirror.com", "cdn.npmmirror.com"}, "N_NODE_MIRROR": {"nodejs.org", "npmmirror.com"},
	"NODEJS_ORG_MIRROR": {"nodejs.org", "npmmirror.com"}, "RUSTUP_DIST_SERVER": {"static.rust-lang.org", "mirrors.ustc.edu.cn", "rsproxy.cn"},
	"RUSTUP_UPDATE_ROOT": {"static.rust-lang.org", "mirrors.ustc.edu.cn", "rsproxy.cn"}, "PYTHON_BUILD_MIRROR_URL": {"www.python.org"},
	"ELECTRON_MIRROR": {"github.com", "npmmirror.com", "cdn.npmmirror.com"},
	// corepack's download of the package manager itself
	"COREPACK_NPM_REGISTRY": {"registry.npmjs.org"},
}

// indexInstallers are the clients the index variables steer.
var indexInstallers = map[string]bool{"npm": true, "npx": true, "pnpm": true, "yarn": true, "bun": true, "pip": true, "pip3": true, "uv": true, "uvx": true,
	"pipx": true, "poetry": true, "go": true, "mix": true, "nvm": true, "n": true, "rustup": true, "pyenv": true, "corepack": true}

// foreignIndexEnv returns the host a package-index variable points at
// when that is neither the usual registry, a trusted mirror nor this
// machine; "" otherwise.
func foreignIndexEnv(name, val string) string {
	usual, ok := indexEnvHosts[strings.ToUpper(name)]
	if !ok || !strings.Contains(val, "://") {
		return ""
	}
	// GOPROXY and the extra-index variables list several, by , | or space
	for _, v := range strings.FieldsFunc(strings.Trim(val, `"'`), func(r rune) bool { return r == ',' || r == '|' || r == ' ' }) {
		h := lower(hostOf(v))
		if !strings.Contains(v, "://") || h == "" || isLocalHost(h) || knownFeedHost(h) || containsStr(usual, h) {
			continue
		}
		return h
	}
	return ""
}

// pluginVerbs are the commands by which a tool fetches code that it runs
// as part of itself: shell plugin managers, chart and VM plugins,
// configuration-management roles, hook sets, one-off package runs and
// image builds whose context (and so whose RUN steps) a URL gives.
var pluginVerbs = map[string][]string{
	"helm": {"plugin install"}, "fisher": {"install"}, "antigen": {"bundle", "theme"}, "antibody": {"bundle"},
	"zinit": {"snippet", "light", "load"}, "zi": {"snippet", "light", "load"}, "sheldon": {"add"},
	"pre-commit": {"try-repo"}, "ansible-galaxy": {"install", "role install", "collection install"},
	"vagrant": {"box add", "plugin install"}, "yarn": {"dlx"}, "pnpm": {"dlx"}, "bun": {"x"},
	"asdf": {"plugin add", "plugin-add"}, "mise": {"plugin install", "plugin add", "plugins install"},
	"gh": {"extension install", "ext install"}, "docker": {"build", "buildx build", "image build"}, "podman": {"build"},
	"buildah": {"bud", "build"}, "nerdctl": {"build"}, "code": {"--install-extension"}, "krew": {"install"},
}

func pluginToolNames() []string {
	out := make([]string, 0, len(pluginVerbs))
	for n := range pluginVerbs {
		out = append(out, n)
	}
	return out
}

// wordsArePrefix reports whether ws starts with the words vs.
func wordsArePrefix(ws []word, vs []string) bool {
	for i, v := range vs {
		if ws[i].s != v {
			return false
		}
	}
	return true
}

// pinnedGitRef reports a repository URL that names a tag or a commit
// (…/black.git@24.2.0, …#v1.2.3, …@a1b2c3d), not a branch that moves.
// nodeInstallVerb reports the subcommands with which npm, yarn, pnpm and
// bun install named packages.
func nodeInstallVerb(s string) bool {
	switch s {
	case "install", "i", "in", "add", "isntall":
		return true
	}
	return false
}

// movingRepoSnapshot reports a forge URL (lower case) that names a
// repository's moving head: the repository itself (…/u/r, …/u/r.git,
// without #commit), or a tarball or archive of a branch (…/tarball/main).
func movingRepoSnapshot(l string) bool {
	rest := l[strings.Index(l, "://")+3:]
	if strings.Count(rest, "/") == 2 || strings.HasSuffix(rest, ".git") {
		return !strings.Contains(rest, "#")
	}
	for _, m := range [...]string{"/tarball/", "/zipball/", "/archive/", "/legacy.tar.gz/", "/tar.gz/"} {
		if i := strings.Index(rest, m); i >= 0 {
			ref := strings.TrimPrefix(rest[i+len(m):], "refs/heads/")
			ref = strings.TrimSuffix(strings.TrimSuffix(ref, ".tar.gz"), ".zip")
			switch ref {
			case "main", "master", "head", "develop", "dev", "trunk", "latest", "next", "nightly":
				return true
			}
		}
	}
	return false
}

func pinnedGitRef(u string) bool {
	rest := u[strings.Index(u, "://")+3:]
	for _, frag := range [...]string{"#egg=", "#subdirectory=", "&subdirectory="} {
		if i := strings.Index(rest, frag); i >= 0 {
			rest = rest[:i] // pip's fragment names the package, not a commit
		}
	}
	ref := ""
	if i := strings.LastIndexAny(rest, "@#"); i > strings.IndexByte(rest, '/') && i >= 0 {
		ref = rest[i+1:]
	}
	ref = strings.TrimPrefix(ref, "semver:")
	if j := strings.IndexAny(ref, "#&"); j >= 0 {
		ref = ref[:j] // @v1.2#egg=name
	}
	switch strings.ToLower(ref) {
	case "", "main", "master", "head", "develop", "dev", "trunk", "latest", "next", "nightly":
		return false
	}
	return !branchLikeRef(ref)
}

// branchLikeRef reports a ref that names a branch rather than a release
// or a commit: patch-1 (GitHub's name for a branch edited on the web),
// fix/retry, feature-x. A tag has a version in it (v1.2.3, 2.0,
// release-1.4.0); a commit is hexadecimal.
func branchLikeRef(ref string) bool {
	if len(ref) >= 7 && strings.Trim(strings.ToLower(ref), "0123456789abcdef") == "" {
		return false // a commit
	}
	if strings.ContainsAny(ref, ".") && strings.ContainsAny(ref, "0123456789") {
		return false // v1.2.3, release-1.4.0
	}
	if ref[0] == 'v' && len(ref) > 1 && ref[1] >= '0' && ref[1] <= '9' || ref[0] >= '0' && ref[0] <= '9' {
		return false // v2, 20240101
	}
	l := strings.ToLower(ref)
	return strings.HasPrefix(l, "patch-") || strings.ContainsRune(l, '/') || hasAny(l, "fix", "feature", "feat-", "hotfix", "wip", "experiment", "branch", "dev-", "test-")
}

// uvValueOption reports uv's options that take the next word as their
// value (--from PKG, --with PKG, --python 3.12).
func uvValueOption(s string) bool {
	switch s {
	case "--from", "--with", "--python", "-p", "--index", "--index-url", "-i", "--extra-index-url", "--default-index", "--with-requirements", "--constraints", "--overrides", "--directory", "--project":
		return true
	}
	return false
}

// linkShorteners are hosts that redirect to whatever address their link
// was given.
var linkShorteners = map[string]bool{"bit.ly": true, "tinyurl.com": true, "t.co": true, "goo.gl": true, "is.gd": true, "rb.gy": true, "cutt.ly": true,
	"ow.ly": true, "shorturl.at": true, "tiny.cc": true, "buff.ly": true}

// pluginSource returns the code source an operand of a plugin install
// names when it is a URL on a host that is not well known, or "".
func pluginSource(tool, s string) string {
	u := strings.TrimPrefix(strings.TrimPrefix(s, "git::"), "hg::")
	if tool == "pre-commit" && (strings.Contains(u, "://") || strings.HasPrefix(u, "git@")) {
		return s // try-repo runs the hooks of the repository's head, whoever wrote it
	}
	if tool == "gh" && !strings.Contains(u, "://") {
		return "" // gh extension install OWNER/REPO: a repository on GitHub
	}
	// plugins are published on the well-known code hosts; a URL anywhere
	// else (a bare address, a self-hosted server) is nobody's review
	if codeHosts[lower(hostOf(strings.TrimPrefix(u, "git+")))] && !strings.HasPrefix(lower(u), "http://") {
		return ""
	}
	if codeURL(u) {
		return s
	}
	return ""
}

// unknownHostOrCode reports a download's description ("curl URL") naming
// a URL that is not a well-known source of manifests.
func unknownHostOrCode(what string) bool {
	for _, f := range strings.Fields(what) {
		if strings.Contains(f, "://") {
			return codeURL(f)
		}
	}
	return true
}

// skipClusterGlobals drops the global options cluster clients take before
// their verb (kubectl --context prod -n x apply ...).
func skipClusterGlobals(args []word) []word {
	for len(args) > 1 {
		switch s := args[0].s; {
		case s == "--context" || s == "--kube-context" || s == "-n" || s == "--namespace" || s == "--kubeconfig" || s == "--cluster" || s == "--user":
			args = args[2:]
		case strings.HasPrefix(s, "--context=") || strings.HasPrefix(s, "--kube-context=") || strings.HasPrefix(s, "--namespace=") || strings.HasPrefix(s, "--kubeconfig="):
			args = args[1:]
		default:
			return args
		}
	}
	return args
}

// codeLoadVars are environment variables naming code a program loads
// before its own: preloaded libraries, start-up scripts, module paths
// and options that require modules.
var codeLoadVars = map[string]bool{"LD_PRELOAD": true, "LD_LIBRARY_PATH": true, "DYLD_INSERT_LIBRARIES": true, "DYLD_LIBRARY_PATH": true,
	"PYTHONSTARTUP": true, "PYTHONPATH": true, "PERL5LIB": true, "PERL5OPT": true, "PERLLIB": true, "RUBYLIB": true, "RUBYOPT": true,
	"NODE_OPTIONS": true, "NODE_PATH": true, "BASH_ENV": true, "ENV": true, "JAVA_TOOL_OPTIONS": true, "_JAVA_OPTIONS": true,
	"LUA_INIT": true, "LUA_PATH": true, "GIT_EXEC_PATH": true}

// codeLoadVarList is codeLoadVars in a fixed order.
var codeLoadVarList = slices.Sorted(maps.Keys(codeLoadVars))

// inertReaders read, copy, check or show a file without running it.
var inertReaders = map[string]bool{"cat": true, "less": true, "more": true, "head": true, "tail": true, "file": true, "stat": true,
	"ls": true, "wc": true, "grep": true, "rg": true, "diff": true, "cmp": true, "sha256sum": true, "sha512sum": true, "sha1sum": true,
	"md5sum": true, "shasum": true, "b2sum": true, "cksum": true, "gpg": true, "gpg2": true, "cosign": true, "minisign": true,
	"openssl": true, "xxd": true, "hexdump": true, "od": true, "strings": true, "bat": true, "shellcheck": true, "cp": true,
	"mv": true, "rm": true, "chmod": true, "chown": true, "touch": true, "echo": true, "printf": true, "test": true, "[": true,
	"tar": true, "zip": true, "unzip": true, "gzip": true, "gunzip": true, "jq": true, "yq": true, "sort": true, "uniq": true,
	"vim": true, "vi": true, "nano": true, "view": true, "git": true, "mkdir": true, "ln": true, "install": true, "readlink": true,
	"realpath": true, "basename": true, "dirname": true, "du": true, "ssh-keygen": true, "codesign": true, "spctl": true, "xattr": true,
	// PowerShell's and cmd's
	"get-filehash": true, "get-authenticodesignature": true, "get-content": true, "gc": true, "type": true, "select-string": true,
	"sls": true, "unblock-file": true, "copy-item": true, "copy": true, "move-item": true, "move": true, "remove-item": true,
	"del": true, "test-path": true, "get-item": true, "gi": true, "notepad": true, "notepad.exe": true, "code": true,
	"expand-archive": true, "signtool": true, "signtool.exe": true, "sigcheck": true, "sigcheck.exe": true, "findstr": true, "fc": true}

// winDownloaders are PowerShell's and Windows' downloaders, by the
// names the Windows walker gives their commands.
var winDownloaders = map[string]bool{"iwr": true, "irm": true, "invoke-webrequest": true, "invoke-restmethod": true,
	"start-bitstransfer": true, "curl.exe": true, "wget.exe": true, "bitsadmin": true, "certutil": true, "certutil.exe": true}

// buildRunners build or install what a directory holds, running its
// build scripts: a directory downloaded or cloned in the same command is
// a stranger's code.
var buildRunners = map[string]bool{"make": true, "gmake": true, "just": true, "task": true, "cmake": true, "meson": true, "ninja": true,
	"npm": true, "pnpm": true, "yarn": true, "bun": true, "pip": true, "pip3": true, "pipx": true, "uv": true, "cargo": true,
	"go": true, "gradle": true, "mvn": true, "rake": true, "bundle": true, "poetry": true, "ant": true, "sbt": true, "dotnet": true,
	"composer": true, "mix": true, "stack": true, "cabal": true, "swift": true, "xcodebuild": true, "bazel": true}

// stepRunners run the steps, commands or images a YAML or JSON file
// lists: a cloud build, a playbook, a compose project, a task file, a
// pipeline run locally.
var stepRunners = map[string]bool{"gcloud": true, "ansible-playbook": true, "ansible-pull": true, "docker": true, "docker-compose": true,
	"podman-compose": true, "podman": true, "task": true, "skaffold": true, "tilt": true, "gitlab-runner": true, "act": true,
	"circleci": true, "drone": true, "az": true, "aws": true, "sam": true, "serverless": true, "sls": true, "nerdctl": true, "kompose": true}

// stepsFile reports a file name of the kinds step runners read.
func stepsFile(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".yaml", ".yml", ".json", ".toml":
		return true
	}
	return false
}

// codeFile reports a file name whose extension says it is code or a
// library a program runs or loads.
func codeFile(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".so", ".dylib", ".dll", ".py", ".pm", ".pl", ".rb", ".js", ".mjs", ".cjs", ".sh", ".bash", ".zsh", ".sql", ".jar", ".ipynb",
		".lua", ".php", ".ps1", ".psm1", ".tcl", ".scpt", ".applescript", ".vim", ".el", ".xml", ".gradle", ".kts", ".groovy", ".wasm",
		// the other script runners' languages: stack script, bb, julia,
		// Rscript, dart run, elixir, swift, scala-cli, deno and bun, go run
		".hs", ".clj", ".cljs", ".bb", ".jl", ".r", ".dart", ".ex", ".exs", ".swift", ".scala", ".sc", ".ts", ".mts", ".go", ".pp", ".nim", ".cr", ".rkt", ".scm", ".fnl", ".raku", ".awk":
		return true
	}
	return false
}

// holdsDownload reports whether p is a directory a download landed in or
// was cloned or unpacked into.
func (a *analysis) holdsDownload(p, cwd string) bool {
	ap := a.absPath(p, cwd)
	if ap == "" {
		return false
	}
	for _, d := range a.downloadDirs {
		if ap == d || strings.HasPrefix(ap, d+"/") {
			return true
		}
	}
	for k := range a.downloads {
		if strings.HasPrefix(k, ap+"/") {
			return true
		}
	}
	return false
}

// autorunConfig reports a file a tool runs, or installs code from, when
// it next starts in the project: direnv's .envrc, pre-commit's and
// lefthook's hook lists, husky's hooks, dbt's package list, a dev
// container's definition, the editor's tasks, mise's tasks.
func autorunConfig(p string) bool {
	base := path.Base(p)
	switch base {
	case ".envrc", ".pre-commit-config.yaml", ".pre-commit-hooks.yaml", "lefthook.yml", ".lefthook.yml", "packages.yml",
		".devcontainer.json", "mise.toml", ".mise.toml":
		return true
	case "devcontainer.json":
		return strings.Contains(p, "/.devcontainer/")
	case "tasks.json":
		return strings.Contains(p, "/.vscode/")
	case "extensions.xml":
		return strings.Contains(p, "/.mvn/") // Maven loads them into every build
	}
	if strings.Contains(p, "/.gradle/init.d/") {
		return true // Gradle runs every init script before every build
	}
	return strings.Contains(p, "/.husky/")
}

// strangerCodeHost reports a URL of code that is neither on a public
// registry or forge nor on this machine or network, or that is fetched
// over plain HTTP from elsewhere.
func strangerCodeHost(u string) bool {
	h := hostOf(strings.TrimPrefix(strings.ToLower(u), "git+"))
	if isLocalHost(h) {
		return false
	}
	if strings.HasPrefix(strings.ToLower(u), "http://") {
		return true
	}
	return !publicPackageHosts[h] && !codeHosts[h] && !knownFeedHost(h) && !trustedCodeHost(h)
}

// urlsIn returns the URLs written in a text (a config file's content).
func urlsIn(text string) []string {
	var out []string
	for rest := text; ; {
		i := strings.Index(rest, "://")
		if i < 0 {
			return out
		}
		start := i
		for start > 0 && isAlnum(rest[start-1]) || start > 0 && rest[start-1] == '+' {
			start--
		}
		end := i + 3
		for end < len(rest) && !strings.ContainsRune(" \t\n\"'<>{}[],\\", rune(rest[end])) {
			end++
		}
		if start < i {
			out = append(out, rest[start:end])
		}
		rest = rest[end:]
	}
}

// indexURLOption reports an option of a Python package tool whose value
// is a place to upload to, not code to run (an index to install from is
// where the code comes from).
func indexURLOption(o string) bool {
	switch o {
	case "--publish-url", "--check-url":
		return true
	}
	return false
}

// goChecksOff returns the setting on the line that turns off the Go
// toolchain's module checks: insecure fetching, no checksum database, a
// proxy over plain HTTP, checks skipped for every module.
func goChecksOff(a *analysis, c *cmd) string {
	get := func(name string) string {
		for _, as := range c.assigns {
			if as.name == name {
				return as.val.s
			}
		}
		v, _ := a.varValue(name)
		return v
	}
	switch {
	case strings.Contains(get("GOFLAGS"), "-insecure"):
		return "GOFLAGS=-insecure"
	case get("GOINSECURE") != "":
		return "GOINSECURE"
	case get("GOSUMDB") == "off":
		return "GOSUMDB=off"
	case get("GONOSUMDB") == "*" || get("GOPRIVATE") == "*" || get("GONOSUMCHECK") == "1":
		return "checksums skipped for every module"
	}
	if p := get("GOPROXY"); strings.HasPrefix(p, "http://") && !isLocalHost(hostOf(p)) {
		return "GOPROXY=" + p
	}
	return ""
}

// knownCondaChannels are the channels of the distribution and the big
// community and vendor channels.
var knownCondaChannels = map[string]bool{"defaults": true, "conda-forge": true, "bioconda": true, "pytorch": true, "nvidia": true,
	"anaconda": true, "main": true, "r": true, "pyviz": true, "plotly": true, "pytorch-nightly": true, "rapidsai": true, "intel": true,
	"huggingface": true, "fastai": true, "dglteam": true, "pkgs/main": true, "https://conda.anaconda.org/conda-forge": true,
	"https://repo.anaconda.com/pkgs/main": true, "nodefaults": true}

// hasFoldWord reports a word equal to s without regard to case.
func hasFoldWord(args []word, s string) bool {
	for _, w := range args {
		if strings.EqualFold(w.s, s) {
			return true
		}
	}
	return false
}

// knownPPAOwners are the teams behind Launchpad archives that projects'
// own install guides name (newer Pythons, git, PHP, Neovim, toolchains,
// drivers).
var knownPPAOwners = map[string]bool{"deadsnakes": true, "git-core": true, "ondrej": true, "neovim-ppa": true, "longsleep": true,
	"graphics-drivers": true, "ansible": true, "ubuntu-toolchain-r": true, "openjdk-r": true, "mozillateam": true, "kisak": true,
	"obsproject": true, "libreoffice": true, "fish-shell": true, "nginx": true, "certbot": true, "pypy": true, "wireshark-dev": true,
	"inkscape.dev": true, "kdenlive": true, "apt-fast": true, "linrunner": true, "team-xbmc": true, "savoury1": true, "chris-lea": true,
	"brightbox": true, "cappelikan": true, "flatpak": true, "lutris-team": true, "kubuntu-ppa": true, "ubuntu-desktop": true,
	"canonical-kernel-team": true, "ubuntu-x-swat": true, "oibaf": true, "alessandro-strada": true, "zanchey": true, "maveonair": true,
	"jonathonf": true, "hda-me": true, "stebbins": true, "videolan": true, "qbittorrent-team": true, "gnome-shell-extension-manager": true}

// knownPPA reports ppa:OWNER/NAME (or ppa:OWNER) of a well-known team.
func knownPPA(s string) bool {
	owner, _, _ := strings.Cut(strings.TrimPrefix(s, "ppa:"), "/")
	return knownPPAOwners[lower(owner)]
}

// sedLineRange is a sed script that prints lines by number: 1,80p, $p.
var sedLineRange = regexp.MustCompile(`^\s*(?:\d+|\$)?(?:\s*,\s*(?:\d+|\$))?\s*p\s*$`)

// sedPrintsLines reports sed -n printing a range of a file's lines (sed
// -n '1,80p' install.sh): the file is read, not run.
func sedPrintsLines(c *cmd) bool {
	if c.name != "sed" || !hasWord(c.args(), "-n") {
		return false
	}
	ops := posArgs(c.args(), optSpec{short: "el"})
	return len(ops) > 1 && sedLineRange.MatchString(ops[0].s)
}

// userNpmPrefix reports a global npm prefix in a folder of the home named
// for it (~/.npm-global, $HOME/.npm-packages).
func userNpmPrefix(a *analysis, s string) bool {
	for _, h := range [...]string{"~/", "$HOME/", "${HOME}/", a.home + "/"} {
		if rest, ok := strings.CutPrefix(s, h); ok {
			return !strings.Contains(rest, "/") && strings.Contains(lower(rest), "npm")
		}
	}
	return false
}

// ownStorageURL reports a URL of an organisation's own cloud storage
// named for it (a bucket or account whose name has "acme" in it cannot be
// told from a stranger's): an S3 bucket or Azure blob whose name says it
// holds the organisation's templates or artifacts is taken as its own.
func ownStorageURL(u string) bool {
	l := lower(u)
	for _, w := range [...]string{"free", "public", "helper", "quick", "share", "community"} {
		if strings.Contains(l, w) {
			return false
		}
	}
	h := hostOf(l)
	return strings.HasSuffix(h, ".blob.core.windows.net") || strings.HasSuffix(h, ".amazonaws.com") && (strings.Contains(l, "cfn") || strings.Contains(l, "cloudformation") || strings.Contains(l, "artifact"))
}

// downloadsPackage returns a package file in the home's Downloads folder
// that c installs (pip install, gem install, npm install), "" if none.
func downloadsPackage(a *analysis, c *cmd) string {
	args := c.args()
	if !hasWord(args, "install") && !hasWord(args, "add") && !hasWord(args, "--install-extension") {
		return ""
	}
	for _, w := range args {
		p := a.absPath(w.s, c.cwd)
		if !w.ok || !a.inDownloads(p) {
			continue
		}
		l := lower(p)
		for _, ext := range [...]string{".gem", ".whl", ".tar.gz", ".tgz", ".vsix", ".nupkg", ".crate", ".zip"} {
			if strings.HasSuffix(l, ext) {
				return w.s
			}
		}
	}
	return ""
}
