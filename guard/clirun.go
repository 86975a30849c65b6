package guard

import (
	"net"
	"path"
	"strings"
)

// runVerbs are the subcommands with which clients fetch code and run it,
// or install it with its hooks: the same few words in every package
// manager, runtime, task runner, scaffolder and cluster client.
var runVerbs = map[string]bool{
	"install": true, "i": true, "add": true, "run": true, "exec": true, "x": true, "dlx": true, "shell": true, "copy": true,
	"create": true, "init": true, "new": true, "generate": true, "g": true, "apply": true, "bundle": true, "use": true,
	"load": true, "eval": true, "call": true, "import": true, "develop": true, "build": true,
}

// ownURLRules are package managers and installers whose URLs, indexes
// and feeds rules of their own judge, with their well-known registries.
var ownURLRules = map[string]bool{"pip": true, "pip3": true, "npm": true, "pnpm": true, "yarn": true, "cargo": true, "dotnet": true,
	"nuget": true, "winget": true, "scoop": true, "choco": true, "gem": true, "brew": true, "kubectl": true, "go": true,
	"install-module": true, "register-psrepository": true, "install-package": true, "composer": true, "apt": true, "apt-get": true,
	"dnf": true, "yum": true, "zypper": true, "pacman": true, "snap": true, "flatpak": true, "bundle": true,
	"influx": true} // (influx's --host is the server it talks to)

// urlCodeRunners take a template, a program or a package as their
// operand and run it or its hooks (cookiecutter, cpanm, groovy, jbang):
// no verb to look for.
var urlCodeRunners = map[string]bool{"cookiecutter": true, "cpanm": true, "cpan": true, "groovy": true, "jbang": true, "kscript": true,
	"spark-submit": true, "papermill": true}

// clientRunsURL reports the URL a client is told to run or install from:
// a run verb among its first words and an operand, an option's value or a
// NAME@URL spec pointing at code on a host that is not a well-known
// registry or forge organisation. Downloaders, version control and
// container runtimes are judged by their own rules; help and dry runs
// run nothing.
func clientRunsURL(c *cmd) string {
	if fetchers[c.name] || socketTools[c.name] {
		return ""
	}
	if c.name == "helm" || c.name == "gh" {
		// a plugin or extension runs as the user with the client's
		// credentials: from a repository nobody reviewed it is code run
		if args := c.args(); len(args) > 2 && (args[0].s == "plugin" || args[0].s == "extension" || args[0].s == "ext") && args[1].s == "install" {
			v := args[2].s
			if strings.Contains(v, "://") && codeURL(v) && !knownPluginRepo(v) {
				return v
			}
		}
		return ""
	}
	if c.base == "yadm" {
		// yadm clone --bootstrap URL (read as git): the repository's
		// bootstrap program run as soon as it arrives
		if args := c.args(); len(args) > 1 && args[0].s == "clone" && hasWord(args, "--bootstrap") {
			for _, w := range args[1:] {
				if strings.Contains(w.s, "://") && !isLocalHost(hostOf(w.s)) {
					return w.s
				}
			}
		}
		return ""
	}
	switch c.name {
	case "git", "svn", "hg", "fossil", "docker", "podman", "nerdctl", "helm", "echo", "printf", "open", "xdg-open", "ssh", "scp", "rsync", "rclone",
		"gh", "glab", "aws", "gsutil", "gcloud", "az",
		// Windows' transfer service: its downloads and uploads have rules
		// of their own (bitsadmin /transfer JOB /upload URL FILE sends)
		"bitsadmin",
		// storage and backup clients copy data to and from URLs
		"azcopy", "s3cmd", "mc", "mcli", "restic", "kopia", "borg", "duplicity", "b2", "swift", "s5cmd":
		return ""
	}
	if ownURLRules[c.name] {
		return "" // a client whose registries and URLs rules of its own judge
	}
	if c.name == "java" {
		if jar, ok := optValue(c.args(), "-jar", ""); ok && strings.Contains(lower(path.Base(jar)), "jenkins-cli") {
			return "" // jenkins-cli -s URL: the server it talks to (ci-server-changed judges what it asks)
		}
	}
	if args := c.args(); len(args) > 1 && args[0].s == "mcp" && args[1].s == "add" && !hasWord(args, "--") {
		return "" // claude mcp add --transport http NAME URL: a server reached over HTTP, nothing run here
	}
	if c.name == "kustomize" && !rendersIntoCluster(c) {
		return "" // rendered for review; its plugins and exec functions stay off
	}
	args := c.args()
	if len(args) == 0 || hasWord(args, "--help") || hasWord(args, "-h") || hasWord(args, "--dry-run") {
		return ""
	}
	if !urlCodeRunners[c.name] && !verbAmong(args, 5, runVerbs) {
		return ""
	}
	if narrowSource(c) {
		return ""
	}
	for _, w := range args {
		v := w.s
		if strings.HasPrefix(v, "-") {
			i := strings.IndexByte(v, '=')
			if i < 0 {
				continue
			}
			if serverOption(strings.ToLower(v[:i])) {
				continue // the service the client talks to, not code
			}
			v = v[i+1:]
		}
		if i := strings.Index(v, "@http"); i > 0 {
			v = v[i+1:] // name@https://host/pkg.tgz
		} else if i := strings.Index(v, "@git+"); i > 0 {
			v = v[i+1:]
		}
		v = strings.Trim(v, `"'`)
		if knownFeedHost(hostOf(v)) {
			continue // an official gallery or feed
		}
		if strings.Contains(v, "://") && codeURL(v) || strings.HasPrefix(v, "git+") && codeURL(v) {
			return v
		}
	}
	return ""
}

// serverOption reports an option (lower case, with its dashes) naming
// the service a client talks to (--alertmanager.url, --api-url), not
// where code comes from: index, registry, source and repository options
// are not among them. --server, --endpoint, --host and --address are
// left out: a package manager's server, or a client pointed at a
// stranger's.
func serverOption(name string) bool {
	name = strings.TrimLeft(name, "-")
	for _, k := range [...]string{"index", "registry", "source", "repo", "feed", "plugin", "template", "from", "extension", "package", "script", "file"} {
		if strings.Contains(name, k) {
			return false
		}
	}
	return strings.HasSuffix(name, ".url") || strings.HasSuffix(name, "api-url")
}

// runManifests are the files a run or install verb reads from the
// working directory without naming them.
var runManifests = [...]string{"Gemfile", "package.json", "mise.toml", "mise.local.toml", ".mise.toml", "justfile", "Justfile",
	"Taskfile.yml", "Taskfile.yaml", "requirements.txt", "pyproject.toml", "Cargo.toml", "flake.nix", "devbox.json", "pixi.toml",
	"deno.json", "bunfig.toml", "composer.json", "Pipfile", "environment.yml", "turbo.json", "nx.json", "Earthfile", "dagger.json"}

// clientRunsDownload reports a file downloaded earlier in the command
// that a client is then told to run: an operand of a run verb or of
// --execute, or a project manifest the verb reads from the directory.
func (a *analysis) clientRunsDownload(c *cmd) string {
	args := c.args()
	verb := verbAmong(args, 5, runVerbs)
	execute := hasWord(args, "--execute") || hasWord(args, "--exec")
	if !verb && !execute && !interpreterLike(c.name) {
		return ""
	}
	for _, w := range args {
		if !strings.HasPrefix(w.s, "-") && a.isDownloaded(w.s, c.cwd) {
			return c.base + " " + w.s
		}
	}
	if verb {
		for _, m := range runManifests {
			if a.isDownloaded(m, c.cwd) {
				return c.base + " with a downloaded " + m
			}
		}
	}
	return ""
}

// interpreterLike reports a compiler or runtime that runs the file it is
// given (swift x.swift, kotlin x.kts) beside the interpreters the
// script rules know.
func interpreterLike(name string) bool {
	switch name {
	case "swift", "kotlin", "kotlinc", "scala", "groovy", "dart", "crystal", "elixir", "julia", "Rscript", "guile", "racket", "sbcl", "clojure", "bb", "nu", "pwsh":
		return true
	}
	return false
}

// scaffoldVerbs are the subcommands that write a project skeleton.
var scaffoldVerbs = map[string]bool{"init": true, "new": true, "create": true, "generate": true, "g": true, "copy": true, "update": true, "scaffold": true,
	"fetch": true, "retrieve": true} // a platform's files fetched over the project's (hs fetch, sf project retrieve)

// scaffolders write a skeleton from their first operand without a verb.
var scaffolders = map[string]bool{"degit": true, "tiged": true, "cookiecutter": true, "yo": true, "copier": true, "shadcn": true, "shadcn-ui": true}

// createPackage reports a create-* starter (create-next-app@latest,
// create-vite): run in "." without its questions (--yes), it writes its
// template over the project's files.
func createPackage(name string) bool {
	if i := strings.LastIndexByte(name, '@'); i > 0 {
		name = name[:i]
	}
	return strings.HasPrefix(name, "create-") && len(name) > len("create-")
}

// scaffoldOverProject reports a generator told to overwrite what exists
// (--force, --overwrite, --overwrite-if-exists, --clobber) in the work
// directory: its target is ".", "..", inside the work directory, or not
// named. A target elsewhere (a fresh directory under /tmp) replaces
// nothing of the project's.
func (a *analysis) scaffoldOverProject(c *cmd) string {
	args := c.args()
	if codegenOverwriters[c.name] && verbAmong(args, 2, map[string]bool{"generate": true}) && !hasWord(args, "--dry-run") {
		// they write over the output folder's files without asking
		if v, ok := optValue(args, "-o", "output"); ok && a.workDir != "" {
			if p := a.absPath(v, c.cwd); p == a.workDir || p != "" && a.inWork(p) && a.classifyInWork(strings.TrimSuffix(p, "/")) == pcWorkSource {
				return c.base + " generate -o " + v
			}
		}
	}
	force := ""
	starter := createPackage(c.name)
	for _, w := range args {
		switch w.s {
		case "--force", "--overwrite", "--overwrite-if-exists", "--clobber", "--force-overwrite", "--ignore-conflicts":
			force = w.s
		case "--yes", "-y":
			if starter && (hasWord(args, ".") || hasWord(args, "./")) {
				force = w.s
			}
		case "-o":
			if c.name == "shadcn" || c.name == "shadcn-ui" {
				force = w.s // shadcn add -o: --overwrite
			}
		}
	}
	if force == "" || hasWord(args, "--dry-run") || hasWord(args, "--help") || c.name == "git" && hasWord(args, "fetch") || c.name == "avdmanager" {
		return "" // (git fetch --force moves refs, not files; avdmanager makes an emulator outside the project)
	}
	verb := scaffolders[c.name] || starter || verbAmong(args, 3, scaffoldVerbs)
	if !verb || a.workDir == "" {
		return ""
	}
	for _, k := range [...]string{"o", "output-dir", "directory", "dir", "dest"} {
		if k == "o" && force == "-o" {
			continue
		}
		short, long := "", k
		if len(k) == 1 {
			short, long = "-"+k, ""
		}
		if v, ok := optValue(args, short, long); ok {
			if p := a.absPath(v, c.cwd); p != "" && !a.inWork(p) && p != path.Dir(a.workDir) {
				return ""
			}
		}
	}
	for _, w := range c.operands() {
		if w.s == "." || w.s == "./" || w.s == ".." {
			return c.base + " " + w.s + " " + force
		}
		if p := a.absPath(w.s, c.cwd); p != "" && strings.HasPrefix(w.s, "/") && !a.inWork(p) {
			return ""
		}
	}
	return c.base + " " + force
}

// opsStart reports whether the operands begin with words: a client's
// subcommand path (krew index add, config get prefix).
func opsStart(ops []word, words ...string) bool {
	if len(ops) < len(words) {
		return false
	}
	for i, w := range words {
		if ops[i].s != w {
			return false
		}
	}
	return true
}

// codegenOverwriters generate code into the folder they are given,
// replacing what is there.
var codegenOverwriters = map[string]bool{"openapi-generator": true, "openapi-generator-cli": true, "swagger-codegen": true, "swagger-codegen-cli": true}

// verbAmong reports a word of verbs (lower-cased) among the first n
// arguments that are not options: a subcommand, wherever global options
// put it.
func verbAmong(args []word, n int, verbs map[string]bool) bool {
	for i, w := range args {
		if i >= n {
			break
		}
		if !strings.HasPrefix(w.s, "-") && verbs[lower(w.s)] {
			return true
		}
	}
	return false
}

// codeSourceURL returns the place a package client is told to take code
// from, as each client's documentation spells it, when that place is a
// stranger's host (strangerCodeHost): pip's --find-links, go's GOPROXY
// set for good, a Composer repository, Coursier's repositories and
// channels, a Mix archive, a Dart package's git or hosted source, a Zig
// dependency, a krew index or manifest, and R's and Julia's installers
// in a one-liner.
func codeSourceURL(a *analysis, c *cmd) string {
	args := c.args()
	if len(args) == 0 {
		return ""
	}
	stranger := func(u string) string {
		u = strings.Trim(u, `"'`)
		if strings.Contains(u, "://") && strangerCodeHost(u) {
			return u
		}
		return ""
	}
	ops := c.operands()
	sub := func(words ...string) bool { return opsStart(ops, words...) }
	switch c.name {
	case "pip", "pip3":
		if v, ok := optValue(args, "-f", "find-links"); ok {
			return stranger(v)
		}
		// pip install -r URL: a requirements list from anywhere
		if v, ok := optValue(args, "-r", "requirement"); ok {
			return stranger(v)
		}
	case "nix-env":
		// nix-env -if URL: an expression fetched and built
		for _, w := range args {
			if r := stranger(w.s); r != "" {
				return r
			}
		}
	case "packer":
		// packer plugins install HOST/NAMESPACE/NAME
		if sub("plugins", "install") && len(ops) > 2 {
			if h, _, _ := strings.Cut(ops[2].s, "/"); strings.Contains(h, ".") && h != "github.com" {
				return ops[2].s
			}
		}
	case "heroku":
		// a buildpack is code that runs at every build
		if sub("buildpacks:set") || sub("buildpacks:add") {
			for _, w := range ops[1:] {
				if r := stranger(w.s); r != "" {
					return r
				}
			}
		}
	case "dbt":
		if v, ok := optValue(args, "", "add-package"); ok {
			return stranger(strings.TrimPrefix(v, "git+"))
		}
	case "gcloud":
		// a VM's start-up script fetched from anywhere, run as root at boot
		for _, w := range args {
			if i := strings.Index(w.s, "startup-script-url="); i >= 0 {
				if r := stranger(w.s[i+len("startup-script-url="):]); r != "" {
					return r
				}
			}
		}
	case "az":
		// the custom script extension's fileUris
		if strings.Contains(joinWords(args), "extension set") {
			for _, u := range urlsIn(joinWords(args)) {
				if r := stranger(u); r != "" {
					return r
				}
			}
		}
	case "mvn", "mvnw", "./mvnw":
		// mvn -DremoteRepositories=URL dependency:get / PLUGIN:run: the
		// artifact (a plugin runs at once) from that repository
		for _, w := range args {
			if v, ok := strings.CutPrefix(w.s, "-DremoteRepositories="); ok {
				for _, u := range strings.Split(v, ",") {
					if _, after, found := strings.Cut(u, "::"); found {
						u = after[strings.LastIndex(after, "::")+1:]
					}
					if r := stranger(u); r != "" {
						return r
					}
				}
			}
		}
	case "go":
		// go install git.host/x/tool@v: a module from a bare git server
		// (a published module comes through a module host)
		if (sub("install") || sub("run")) && !strings.Contains(a.src, "GOINSECURE") && !strings.Contains(a.src, "-insecure") {
			// (with the checks off, run-remote-module says why)
			for _, w := range ops[1:] {
				if m, _, ok := strings.Cut(w.s, "@"); ok {
					if h, _, _ := strings.Cut(m, "/"); selfHostedGit(h) && !internalHost(h) {
						// (the company's own server is where its tools live)
						return w.s
					}
				}
			}
		}
		// go env -w GOPROXY=URL: every later build fetches from it
		if sub("env") && hasWord(args, "-w") {
			for _, w := range ops[1:] {
				if v, ok := strings.CutPrefix(w.s, "GOPROXY="); ok {
					for _, u := range strings.Split(v, ",") {
						if r := stranger(u); r != "" {
							return r
						}
					}
				}
			}
		}
	case "composer":
		// composer config repositories.NAME vcs|composer URL
		if sub("config") && len(ops) >= 3 && (strings.HasPrefix(ops[1].s, "repositories.") || strings.HasPrefix(ops[1].s, "repo.")) {
			return stranger(ops[len(ops)-1].s)
		}
	case "cs", "coursier":
		for _, o := range [...]string{"repository", "channel"} {
			if v, ok := optValue(args, "-r", o); ok {
				return stranger(v)
			}
		}
	case "mix":
		if sub("archive.install") && len(ops) > 1 {
			if ops[1].s == "github" || ops[1].s == "git" || strings.Contains(ops[1].s, "://") {
				// a repository's head, or an archive file anyone built
				// (not Hex's build of a published package)
				return "mix archive.install " + joinWords(ops[1:])
			}
			return stranger(ops[1].s)
		}
	case "dart", "flutter":
		if v, ok := optValue(args, "", "hosted-url"); ok {
			return stranger(v)
		}
		if v, ok := optValue(args, "", "source"); ok && v == "git" {
			for _, w := range ops {
				if r := stranger(w.s); r != "" {
					return r
				}
			}
		}
	case "flatpak":
		// flatpak install --from URL, flatpak remote-add NAME URL
		if v, ok := optValue(args, "", "from"); ok {
			return stranger(v)
		}
		if sub("remote-add") && len(ops) > 2 && !hasWord(args, "--no-gpg-verify") { // unsigned: install-unsigned's
			return stranger(ops[len(ops)-1].s)
		}
		if sub("install") {
			for _, w := range ops[1:] {
				if r := stranger(w.s); r != "" {
					return r // a .flatpakref or bundle from anywhere
				}
			}
		}
	case "npm", "pnpm", "yarn":
		// npm exec|x -- URL, pnpm dlx URL: a package from anywhere, run
		if sub("exec") || sub("x") || sub("dlx") {
			for _, w := range ops[1:] {
				if r := stranger(w.s); r != "" {
					return r
				}
			}
		}
	case "gitlab-runner":
		// a runner registered with a stranger's server runs its jobs here
		if sub("register") {
			if v, ok := optValue(args, "-u", "url"); ok {
				return stranger(v)
			}
		}
	case "config.sh":
		// GitHub's runner: ./config.sh --url REPO --token T
		if v, ok := optValue(args, "", "url"); ok && hasPrefixWord(args, "--token") {
			return stranger(v)
		}
	case "mlflow":
		// mlflow models serve|predict -m URI: the model's pickles run
		if v, ok := optValue(args, "-m", "model-uri"); ok {
			return stranger(v)
		}
	case "zig":
		if sub("fetch") {
			for _, w := range ops[1:] {
				if r := stranger(w.s); r != "" {
					return r
				}
			}
		}
	case "kubectl":
		// kubectl krew index add NAME URL, krew install --manifest-url URL
		if sub("krew", "index", "add") && len(ops) > 4 {
			return stranger(ops[4].s)
		}
		if sub("krew") {
			// a manifest names the binary to fetch: from any address but
			// this machine's or the organisation's, even a well-known
			// forge's raw files, it is a stranger's plugin (the reviewed
			// path is the index)
			if v, ok := optValue(args, "", "manifest-url"); ok {
				if h := lower(hostOf(v)); stranger(v) == "" && h != "" && !isLocalHost(h) && !internalHost(h) {
					return v
				}
				return stranger(v)
			}
		}
	case "Rscript", "R", "julia":
		code, ok := optValue(args, "-e", "eval")
		if !ok {
			return ""
		}
		for _, u := range urlsIn(code) {
			l := strings.ToLower(code)
			if (strings.Contains(l, "repos") || strings.Contains(l, "install_url") || strings.Contains(l, "install_git") || strings.Contains(l, "pkg.add")) &&
				stranger(u) != "" {
				return u
			}
		}
	}
	return ""
}

// rendersIntoCluster reports a kustomize build whose output is applied
// (piped to kubectl or oc), or that runs plugins or exec functions.
func rendersIntoCluster(c *cmd) bool {
	for _, w := range c.args() {
		if strings.HasPrefix(w.s, "--enable-exec") || strings.HasPrefix(w.s, "--enable-alpha-plugins") || strings.HasPrefix(w.s, "--enable-helm") {
			return true
		}
	}
	// printed or written to a file, the manifests are only read
	next := nextStage(c)
	return next != nil && next.name != "tee" && next.name != "grep" && next.name != "less" && next.name != "yq" && next.name != "head" && next.name != "diff"
}

// knownPluginRepo reports the repositories of the widely used helm
// plugins and gh extensions, by their owners on GitHub.
func knownPluginRepo(u string) bool {
	rest, ok := strings.CutPrefix(lower(u), "https://github.com/")
	if !ok {
		return false
	}
	owner, _, _ := strings.Cut(rest, "/")
	switch owner {
	case "github", "cli", "databus23", "jkroepke", "zendesk", "chartmuseum", "helm-unittest", "quintush", "komodorio", "helm",
		"hypnoglow", "mumoshu", "dlvhdr", "mislav", "vilmibm", "seachicken", "yusukebe", "meiji163":
		return true
	}
	return false
}

// narrowSource reports a package source added for what the project names
// for it, or consulted after the usual index (poetry source add
// --priority=explicit|supplemental): no package of another name comes
// from it.
func narrowSource(c *cmd) bool {
	if c.name != "poetry" {
		return false
	}
	v, _ := optValue(c.args(), "", "priority")
	return v == "supplemental" || v == "explicit"
}

// selfHostedGit reports a host name that is a bare git server (git.acme.io,
// gitea.acme.io, an address) rather than a module or package host.
func selfHostedGit(h string) bool {
	l := strings.ToLower(h)
	if i := strings.LastIndexByte(l, ':'); i > 0 {
		l = l[:i]
	}
	if net.ParseIP(l) != nil {
		return !isLocalHost(l)
	}
	return strings.Count(l, ".") >= 2 && (strings.HasPrefix(l, "git.") || strings.HasPrefix(l, "gitea.") || strings.HasPrefix(l, "gogs.") || strings.HasPrefix(l, "forgejo."))
}
