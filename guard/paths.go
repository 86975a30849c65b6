package guard

import (
	"path"
	"strings"
)

// absPath resolves p against cwd and home. It returns a cleaned absolute
// path, "~" or "~/..." when p is in a home directory that is unknown, or
// "" when p is relative and cwd unknown.
func (a *analysis) absPath(p, cwd string) string {
	if p == "" {
		return ""
	}
	if p[0] == '~' {
		if p != "~" && !strings.HasPrefix(p, "~/") {
			return ""
		}
		if a.home == "" {
			if p == "~" {
				return "~"
			}
			return "~" + path.Clean(p[1:])
		}
		p = a.home + p[1:]
	}
	if p[0] != '/' {
		if cwd == "" {
			return ""
		}
		p = cwd + "/" + p
	}
	if len(p) > 2 && p[0] == '/' && isDriveLetter(p[1]) && p[2] == '/' && a.msysPaths() {
		// Git Bash's /c/Users/dev is the case-insensitive C:\Users\dev,
		// which the session's directories hold in lower case
		for _, d := range [...]string{a.home, a.workDir} {
			if len(p) >= len(d) && strings.EqualFold(p[:len(d)], d) && (len(p) == len(d) || p[len(d)] == '/') {
				p = d + p[len(d):]
				break
			}
		}
	}
	if a.links != nil {
		through := strings.HasSuffix(p, "/") || strings.HasSuffix(p, "/.")
		return a.followLinks(path.Clean(p), through)
	}
	return path.Clean(p)
}

// homeRel reports whether p is inside a home directory (the user's, or
// /root, /home/NAME, /Users/NAME) and returns the path relative to it ("" for
// the home itself). mine is true for the user's own home.
func (a *analysis) homeRel(p string) (rel string, mine, ok bool) {
	if p == "~" {
		return "", true, true
	}
	if strings.HasPrefix(p, "~/") {
		return p[2:], true, true
	}
	if a.home != "" && a.home != "/" {
		if p == a.home {
			return "", true, true
		}
		if strings.HasPrefix(p, a.home+"/") {
			return p[len(a.home)+1:], true, true
		}
	}
	if p == "/root" {
		return "", false, true
	}
	if strings.HasPrefix(p, "/root/") {
		return p[6:], false, true
	}
	wsl := "" // WSL's view of a Windows profile: /mnt/c/Users/
	if len(p) > 13 && strings.HasPrefix(p, "/mnt/") && p[6] == '/' && isDriveLetter(p[5]) && strings.HasPrefix(p[7:], "Users/") {
		wsl = p[:13]
	}
	for _, h := range [...]string{"/home/", "/Users/", wsl} {
		if h != "" && strings.HasPrefix(p, h) && len(p) > len(h) {
			rest := p[len(h):]
			if rest == "Shared" || strings.HasPrefix(rest, "Shared/") {
				return "", false, false
			}
			if i := strings.IndexByte(rest, '/'); i >= 0 {
				return rest[i+1:], false, true
			}
			return "", false, true
		}
	}
	return "", false, false
}

// classifyInWork classifies a path inside the work directory.
func (a *analysis) classifyInWork(p string) pclass {
	if p == a.workDir {
		return pcWorkDir
	}
	rel := p[len(a.workDir)+1:]
	if (sourceDirs[rel] || projectData(rel) && !(strings.Contains(rel, "/") && a.remadeLater(rel)) && !resetFromTemplate(a.src, path.Base(rel)) || projectBundle(rel)) && !a.regeneratedHere(rel) {
		return pcWorkSource
	}
	if a.underSourceDir(rel) && !a.remadeLater(rel) {
		return pcWorkSource // a part of the sources (src/components)
	}
	return pcInside
}

// projectBundle reports a top-level project definition kept as a
// folder: an Xcode project or workspace.
func projectBundle(rel string) bool {
	return !strings.Contains(rel, "/") && (strings.HasSuffix(rel, ".xcodeproj") || strings.HasSuffix(rel, ".xcworkspace"))
}

// underSourceDir reports a directory or file below a top-level source
// directory, outside what builds and generators put there, or a database
// file of the checkout's own (db.sqlite3) that no test owns.
func (a *analysis) underSourceDir(rel string) bool {
	if strings.ContainsAny(rel, "\x00*?[") {
		return false // an entry a pattern may match: judged by the pattern
	}
	var buf [12]string
	comps := pathComps(strings.TrimSuffix(rel, "/"), buf[:0])
	for _, c := range comps {
		if generatedDirs[c] || strings.HasPrefix(c, ".") || c == "mocks" || c == "__generated__" || c == "__snapshots__" {
			return false
		}
	}
	if len(comps) == 1 {
		return isDBFile(comps[0]) && !testName(comps[0])
	}
	// a schema's migrations, wherever the tool keeps them
	// (prisma/migrations, alembic/versions): its history, written by hand
	switch last, parent := comps[len(comps)-1], comps[len(comps)-2]; {
	case last == "migrations", last == "migrate" && parent == "db", last == "versions" && (parent == "alembic" || parent == "migrations"):
		return true
	}
	return sourceDirs[comps[0]] && path.Ext(comps[len(comps)-1]) == ""
}

// remadeLater reports a path the line names again after deleting it
// (rm -rf src/api && openapi-gen -o src/api): made again by what follows.
func (a *analysis) remadeLater(rel string) bool {
	i := strings.Index(a.src, rel)
	return i >= 0 && strings.Contains(a.src[i+len(rel):], rel)
}

// generatorOutputs are the directories a generator fills by default:
// deleted in the line that runs it (rm -rf pkg && wasm-pack build), they
// are its previous output.
var generatorOutputs = map[string]string{"wasm-pack build": "pkg", "mkdocs build": "site", "jekyll build": "_site", "hugo": "public",
	"zola build": "public", "docusaurus build": "build", "sphinx-build": "_build", "mdbook build": "book", "typedoc": "docs", "jsdoc": "out",
	"buf generate": "gen", "storybook build": "storybook-static", "eleventy": "_site", "antora": "build"}

// regeneratedHere reports a top-level directory of the work directory
// that a generator run later in the same line makes again.
func (a *analysis) regeneratedHere(rel string) bool {
	rel = strings.TrimSuffix(rel, "/")
	if strings.Contains(rel, "/") {
		return false
	}
	for tool, out := range generatorOutputs {
		if out == rel && strings.Contains(a.src, tool) {
			i := strings.Index(a.src, tool)
			j := strings.Index(a.src, rel)
			return j >= 0 && j < i // deleted first, then generated
		}
	}
	return false
}

// projectData reports whether a path relative to the work directory
// holds what the project cannot make again: its tests and docs, its
// local data and uploads, infrastructure state and secrets. Paths
// through a generated directory (tmp, cache, logs, build) do not.
func projectData(rel string) bool {
	var buf [12]string
	comps := pathComps(strings.TrimSuffix(rel, "/"), buf[:0])
	for _, c := range comps {
		if generatedDirs[c] || c == ".terraform" {
			return false
		}
	}
	if frameworkCache(comps) {
		return false
	}
	base := comps[len(comps)-1]
	switch {
	case strings.HasPrefix(base, "terraform.tfstate") || localSettingsFile(base):
		return true
	case localDBFile(base):
		// a local database holds what the developer put in it (dev.db,
		// db/development.sqlite3); a test's (storage/test.sqlite) is
		// made again by its migrations and seeds
		return !testNameBesidesDev(base)
	case len(comps) == 1:
		return projectDirs[base]
	}
	if projectDirs[comps[0]] && len(comps) == 2 && (comps[0] == "testdata" || comps[0] == "fixtures") {
		return true // golden files and fixtures people wrote
	}
	for _, c := range comps[:len(comps)-1] {
		if projectDataRoots[c] {
			return !testName(base) && !strings.HasSuffix(base, ".log") // (a tool's debug log is not data)
		}
	}
	return false
}

// frameworkCache reports a path (in components, relative to the work
// directory) under a framework's own cache of generated files: Laravel's
// storage/framework (compiled views, sessions, cache).
func frameworkCache(comps []string) bool {
	return len(comps) > 1 && comps[0] == "storage" && comps[1] == "framework"
}

// localDBFile reports an embedded database's file or its journal
// (app.db, development.sqlite3, dev.db-wal).
func localDBFile(base string) bool {
	b := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(lower(base), "-wal"), "-shm"), "-journal")
	return strings.HasSuffix(b, ".sqlite3") || strings.HasSuffix(b, ".sqlite") || strings.HasSuffix(b, ".db") || strings.HasSuffix(b, ".db3")
}

// gitInternals reports a path into a repository's object store, refs or
// reflogs (.git/objects, .git/refs/heads): history, not a lock or a log.
func gitInternals(p string) bool {
	i := strings.Index(p, ".git/")
	if i < 0 || i > 0 && p[i-1] != '/' {
		return false
	}
	next, _, _ := strings.Cut(p[i+len(".git/"):], "/")
	switch next {
	case "objects", "refs", "packed-refs", "HEAD", "logs":
		return !fixtureGit(p[:i] + ".git")
	}
	return false
}

// localEnvFile reports a dotenv file of this checkout (.env,
// .env.development.local): settings and secrets kept out of git, unlike
// the templates committed beside them.
func localEnvFile(base string) bool {
	if base == ".env" {
		return true
	}
	rest, ok := strings.CutPrefix(base, ".env.")
	if !ok {
		return false
	}
	for _, t := range [...]string{"example", "sample", "template", "dist", "defaults", "schema", "bak", "backup", "orig"} {
		if strings.Contains(rest, t) {
			return false
		}
	}
	return !testName(rest) // .env.test, .env.ci: settings for a test run
}

// localSettingsFile reports a file of this checkout's own settings kept
// out of git or made for one developer: a dotenv file, Azure Functions'
// local.settings.json, appsettings.Development.json, *.local.json.
func localSettingsFile(base string) bool {
	if localEnvFile(base) {
		return true
	}
	l := lower(base)
	switch l {
	case "local.settings.json", "appsettings.development.json", "appsettings.local.json":
		return true
	}
	for _, suf := range [...]string{".local.json", ".local.yml", ".local.yaml", ".local.toml", ".local.ini", ".local.php"} {
		if strings.HasSuffix(l, suf) && !strings.Contains(l, "example") && !strings.Contains(l, "sample") {
			return true
		}
	}
	return false
}

// resetFromTemplate reports a line that makes the settings file base
// again from the project's template (cp .env.example .env, Copy-Item
// appsettings.Local.example.json appsettings.Local.json): a reset to the
// committed defaults, not settings lost.
func resetFromTemplate(src, base string) bool {
	l, b := lower(src), lower(base)
	if !strings.Contains(l, "copy") && !strings.Contains(l, "cp ") {
		return false
	}
	stem := strings.TrimSuffix(b, path.Ext(b))
	for _, t := range [...]string{".example", ".sample", ".template", ".dist"} {
		if strings.Contains(l, b+t) || strings.Contains(l, stem+t+path.Ext(b)) {
			return true
		}
	}
	return false
}

// projectDirs are top-level directories of what people write besides
// code; projectDataRoots hold data the project keeps (databases,
// uploads), so anything below them counts.
var (
	projectDirs = map[string]bool{"test": true, "tests": true, "spec": true, "specs": true, "__tests__": true, "e2e": true,
		"docs": true, "scripts": true, "config": true, "infra": true, "deploy": true, "terraform": true,
		"data": true, "storage": true, "uploads": true, "testdata": true, "fixtures": true, "patches": true, "secrets": true,
		"templates": true, "proto": true, "schemas": true, "locales": true, "i18n": true, "examples": true, "notebooks": true,
		// a local stack's databases, bind-mounted into the project
		"pgdata": true, "pg_data": true, "postgres-data": true, "postgres_data": true, "mysql-data": true, "mysql_data": true,
		"mongo-data": true, "mongo_data": true, "db-data": true, "db_data": true, "dbdata": true, "redis-data": true, "volumes": true,
		"docker-data": true, ".docker-data": true, "emulator-data": true, ".emulator-data": true,
		// experiment trackers' runs (MLflow, Weights & Biases, DVC's
		// experiments): results no build makes again
		"mlruns": true, "wandb": true,
		// what training, recording and review produce: checkpoints and
		// models trained for hours, footage, transcripts, notes, exports
		// taken from systems that may have changed since
		"checkpoints": true, "models": true, "experiments": true, "lightning_logs": true, "assets": true, "recordings": true,
		"footage": true, "transcripts": true, "captions": true, "notes": true, "exports": true}
	projectDataRoots = map[string]bool{"data": true, "storage": true, "uploads": true, "volumes": true, "docker-data": true, ".docker-data": true, ".data": true,
		"wandb": true, "models": true, "experiments": true, "assets": true, "recordings": true,
		"footage": true, "transcripts": true, "captions": true, "exports": true}
)

// fixtureGit reports a .git directory, given relative to the work
// directory, that belongs to a throw-away repository the project's tests
// build (tests/fixtures/repo/.git), not to the project.
func fixtureGit(rel string) bool {
	dir := path.Dir(path.Clean("/" + rel))
	if dir == "/" {
		return false
	}
	for _, c := range strings.Split(dir[1:], "/") {
		switch strings.ToLower(c) {
		case "test", "tests", "testdata", "test-data", "test_data", "fixture", "fixtures", "__fixtures__", "spec", "specs",
			"e2e", "tmp", ".tmp", "temp", "scratch", "sandbox", "testrepo", "test-repo", "test_repo":
			return true
		}
	}
	return false
}

// isProtected reports whether p is one of the protected paths, inside one,
// or a directory that holds one; the work directory and below are not.
func (a *analysis) isProtected(p string) bool {
	if len(a.protected) == 0 || a.inWork(p) {
		return false
	}
	for _, q := range a.protected {
		if under(p, q) || under(q, p) {
			return true
		}
	}
	return false
}

// under reports whether p is dir or below it.
func under(p, dir string) bool {
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == dir || strings.HasPrefix(p, dir) && len(p) > len(dir) && p[len(dir)] == '/'
}

// followLinks replaces a leading symbolic link made earlier in the command
// by its target, when p goes through the link rather than naming it
// (link/, link/x).
func (a *analysis) followLinks(p string, through bool) string {
	for i := 0; i < 8; i++ {
		changed := false
		for l, t := range a.links {
			switch {
			case p == l && through:
				p, changed = t, true
			case strings.HasPrefix(p, l) && len(p) > len(l) && p[len(l)] == '/':
				p, changed = path.Clean(t+p[len(l):]), true
			}
		}
		if !changed {
			break
		}
	}
	return p
}

func (a *analysis) inWork(p string) bool {
	wd := a.workDir
	if wd == "" {
		return false
	}
	if wd == "/" {
		return true
	}
	return p == wd || strings.HasPrefix(p, wd+"/")
}

// pclass classifies a path as the target of a deletion (or of a
// permission change), from harmless to catastrophic.
type pclass uint8

const (
	pcNone          pclass = iota
	pcInside               // inside the work directory
	pcTemp                 // a path inside a temporary directory
	pcHomeCache            // a cache inside the home directory
	pcHomeCacheRoot        // a whole cache, toolchain or trash of the home directory (~/.cache, ~/.cargo)
	pcUnknown              // unresolved
	pcUnknownInput         // paths read from standard input
	pcVarRoot              // "$VAR/" or "$VAR/*" with $VAR unknown
	pcWorkDir              // the work directory itself
	pcWorkContents         // everything in the work directory
	pcWorkSource           // a top-level source directory of the work directory
	pcTempContents         // everything in /tmp
	pcOutside              // elsewhere, outside the work directory
	pcEscape               // a relative path leaving an unknown directory
	pcHomeSub              // inside the home directory, outside the work directory
	pcSystemSub            // deep inside a system directory (/usr/local/go)
	pcTempRoot             // /tmp itself
	pcGitDir               // a .git directory
	pcHistory              // shell history files
	pcLogs                 // /var/log
	pcHomeConfig           // credentials and configuration in the home directory
	pcSecretsHome          // ~/.ssh, ~/.gnupg
	pcCritFile             // /etc/passwd, /etc/shadow, ...
	pcDBData               // a database's data directory
	pcProtected            // a path the host program owns (Context.ProtectedPaths)
	pcSystemCrit           // a system directory (/etc, /usr/lib, /var/lib, ...)
	pcHome                 // a home directory itself (or all of them)
	pcRoot                 // /
)

var pclassNames = [...]string{"", "inside the work directory", "temporary file", "cache", "a whole cache, toolchain or trash", "unresolved path",
	"paths read from input", "unset variable followed by /", "the work directory itself", "everything in the work directory", "the project's source tree", "everything in /tmp",
	"outside the work directory", "outside the work directory", "outside the work directory",
	"inside a system directory", "a temporary directory", "a git repository's history", "shell history",
	"system logs", "credentials or configuration", "keys", "a critical system file", "database files", "a path HotPlex owns", "a system directory",
	"a home directory", "the filesystem root"}

func (p pclass) String() string {
	if int(p) < len(pclassNames) {
		return pclassNames[p]
	}
	return "?"
}

// system directory tiers
const (
	tierNone = iota
	tierAll  // everything below is critical: /dev, /proc, /sys, /boot
	tierDeep // the directory and its children are critical: /etc, /usr, /var, ...
	tierTop  // only the directory itself is critical: /opt, /srv, /mnt, ...
)

var systemTops = map[string]int{
	"dev": tierAll, "proc": tierAll, "sys": tierAll, "boot": tierAll, "efi": tierAll,
	"etc": tierDeep, "usr": tierDeep, "bin": tierDeep, "sbin": tierDeep, "lib": tierDeep, "lib32": tierDeep,
	"lib64": tierDeep, "libx32": tierDeep, "var": tierDeep, "System": tierDeep, "Library": tierDeep,
	"private": tierDeep, "nix": tierDeep, "cores": tierTop,
	"opt": tierTop, "srv": tierTop, "mnt": tierTop, "media": tierTop, "run": tierTop, "snap": tierTop,
	"Applications": tierTop, "Volumes": tierTop, "lost+found": tierTop, "home": tierTop, "Users": tierTop,
	"root": tierTop,
}

var topNames = func() []string {
	out := make([]string, 0, len(systemTops))
	for k := range systemTops {
		out = append(out, k)
	}
	return out
}()

var critFiles = map[string]bool{
	"/etc/passwd": true, "/etc/shadow": true, "/etc/group": true, "/etc/gshadow": true, "/etc/sudoers": true,
	"/etc/fstab": true, "/etc/crypttab": true, "/etc/inittab": true, "/etc/ld.so.cache": true, "/etc/ld.so.conf": true,
	"/bin/sh": true, "/bin/bash": true, "/usr/bin/sudo": true, "/usr/bin/bash": true, "/bin/su": true, "/usr/bin/su": true,
	"/lib64/ld-linux-x86-64.so.2": true, "/lib/ld-linux.so.2": true, "/lib/ld-linux-aarch64.so.1": true,
	"/etc/pam.d/common-auth": true, "/etc/pam.d/sudo": true, "/etc/nsswitch.conf": true, "/etc/login.defs": true,
}

var historyNames = map[string]bool{
	".bash_history": true, ".zsh_history": true, ".history": true, ".sh_history": true, ".zhistory": true,
	".ksh_history": true, ".local/share/fish/fish_history": true, ".python_history": true, ".mysql_history": true,
	".psql_history": true, ".node_repl_history": true, ".sqlite_history": true, ".rediscli_history": true,
	".zsh_sessions": true, ".bash_sessions": true, ".lesshst": true, ".viminfo": true,
}

func isHistoryPath(rel string) bool {
	if historyNames[rel] {
		return true
	}
	return historyNames[path.Base(rel)] && path.Base(rel) != ".viminfo" && path.Base(rel) != ".lesshst"
}

// home entries whose loss is severe
var homeSecretDirs = map[string]bool{".ssh": true, ".gnupg": true, ".password-store": true}

var homeConfig = map[string]bool{
	".aws": true, ".kube": true, ".docker": true, ".azure": true, ".netrc": true, ".git-credentials": true,
	".config": true, ".local": true, ".bashrc": true, ".bash_profile": true, ".profile": true, ".zshrc": true,
	".zprofile": true, ".zshenv": true, ".bash_login": true, ".gitconfig": true, ".vault-token": true,
	".pgpass": true, ".npmrc": true, ".pypirc": true, "Library": true, "Documents": true, "Desktop": true,
	".config/gcloud": true, ".config/gh": true, ".terraform.d": true, "Pictures": true, "Music": true,
	"Videos": true, "Movies": true, ".mozilla": true, ".thunderbird": true, ".kde": true, ".gnome": true,
	".config/google-chrome": true,
}

// isCache reports whether a home-relative path is a cache (safe to
// delete).
func isCache(rel string) bool {
	if strings.HasPrefix(rel, "Library/Logs/") {
		return true // macOS programs' logs, written again as they run
	}
	if strings.HasPrefix(rel, ".zcompdump") {
		return true // zsh's completion cache, rebuilt by compinit
	}
	if strings.HasPrefix(rel, ".nuget/packages/") || strings.HasPrefix(rel, ".hex/packages/") {
		return true // NuGet's and Hex's downloaded packages, fetched again by the next restore
	}
	if strings.HasPrefix(rel, ".android/avd") {
		return false // an emulator's disks: the user's own data
	}
	for c := range strings.SplitSeq(rel, "/") {
		switch c {
		case ".cache", "Caches", "cache", ".npm", "_cacache", ".m2", ".gradle", "node_modules", "__pycache__",
			".pytest_cache", "go-build", ".yarn", ".pnpm-store", "DerivedData", ".cargo", ".rustup", ".nvm", ".pyenv",
			".bun", ".deno", "tmp", ".tmp", "Trash", ".Trash", ".ivy2", ".sbt", ".coursier", ".mypy_cache", ".ruff_cache",
			".terraform", ".next", "dist", "build", "target", ".venv", "venv", ".tox", ".nox", ".expo", ".android", "go",
			".turbo", ".parcel-cache", ".nuxt", ".svelte-kit", ".angular",
			// Electron apps' (VS Code's) caches, made again at start
			"CachedData", "Code Cache", "GPUCache", "CachedExtensionVSIXs", "ShaderCache", "DawnCache", "GrShaderCache":
			return true
		case "avd":
			return false // an emulator's disks: the user's own data
		}
	}
	return false
}

// cacheRoot reports whether a home-relative cache path is a whole cache,
// toolchain or trash (~/.cache, ~/.cargo, ~/.gradle/caches, the Trash)
// rather than one tool's share of it (~/.cache/pip): everything of
// every tool goes at once, and toolchains and trashed files do not come
// back by themselves.
func cacheRoot(rel string) bool {
	rel = strings.TrimSuffix(rel, "/")
	comps := strings.Split(rel, "/")
	last := comps[len(comps)-1]
	switch {
	case len(comps) == 1:
		return true
	case last == "Trash" || last == ".Trash":
		return true
	case len(comps) == 2 && (last == "caches" || last == "Caches"):
		return true
	case len(comps) == 2 && last == "versions":
		return true // every version a version manager installed (~/.pyenv/versions), with their environments
	case len(comps) == 2 && comps[0] == ".cache" && modelCaches[last]:
		return true // gigabytes of models, downloaded again only slowly
	}
	return false
}

// modelCaches are the caches machine-learning tools keep their downloaded
// models and data sets in.
var modelCaches = map[string]bool{"huggingface": true, "torch": true, "lm-studio": true, "whisper": true, "ollama": true}

func isTempRoot(p string) bool {
	switch p {
	case "/tmp", "/var/tmp", "/private/tmp", "/dev/shm", "/private/var/tmp":
		return true
	}
	return winTempDir(p) == len(p)
}

// winTempDir is the length of the Windows temporary directory (a
// profile's AppData/Local/Temp, Windows/Temp, as Git Bash names them)
// p starts with, or -1.
func winTempDir(p string) int {
	l := strings.ToLower(p)
	for _, t := range [...]string{"/appdata/local/temp", "/windows/temp"} {
		if i := strings.Index(l, t); i >= 0 && strings.Count(l[:i], "/") <= 3 && (len(l) == i+len(t) || l[i+len(t)] == '/') {
			return i + len(t)
		}
	}
	return -1
}

func underTemp(p string) bool {
	for _, t := range [...]string{"/tmp/", "/var/tmp/", "/private/tmp/", "/dev/shm/", "/private/var/tmp/", "/var/folders/", "/private/var/folders/"} {
		if strings.HasPrefix(p, t) {
			return true
		}
	}
	n := winTempDir(p)
	return n > 0 && n < len(p)
}

// isDBData reports database data directories.
func isDBData(p string) bool {
	if !strings.HasPrefix(p, "/var/lib/") && !strings.HasPrefix(p, "/usr/local/var/") && !strings.HasPrefix(p, "/opt/homebrew/var/") {
		return false // (most paths, without building a prefix for each)
	}
	for _, d := range [...]string{"/var/lib/mysql", "/var/lib/postgresql", "/var/lib/pgsql", "/var/lib/mongodb", "/var/lib/redis", "/var/lib/elasticsearch",
		"/var/lib/cassandra", "/var/lib/etcd", "/var/lib/mariadb", "/var/lib/couchdb", "/var/lib/clickhouse", "/var/lib/influxdb", "/var/lib/docker/volumes",
		"/var/lib/neo4j", "/var/lib/rabbitmq", "/usr/local/var/postgres", "/usr/local/var/mysql", "/opt/homebrew/var/postgres", "/opt/homebrew/var/mysql"} {
		if p == d || strings.HasPrefix(p, d) && p[len(d)] == '/' {
			return true
		}
	}
	return false
}

func isLogPath(p string) bool {
	return p == "/var/log" || strings.HasPrefix(p, "/var/log/") || strings.HasPrefix(p, "/private/var/log") ||
		p == "/var/audit" || strings.HasPrefix(p, "/var/audit/") || p == "/run/log/journal" || strings.HasPrefix(p, "/run/log/journal/")
}

// webServerLog reports a web server's own access or error log (nginx,
// Apache): a developer empties one to read a fresh request; the system's
// and the security logs (auth.log, secure, the journal) stay records.
func webServerLog(p string) bool {
	for _, d := range [...]string{"/var/log/nginx/", "/var/log/apache2/", "/var/log/httpd/", "/var/log/caddy/", "/var/log/traefik/"} {
		if strings.HasPrefix(p, d) && strings.HasSuffix(p, ".log") && !strings.ContainsAny(p[len(d):], "*?/") {
			return true
		}
	}
	return false
}

// classifyDelete classifies the target of a deletion.
func (a *analysis) classifyDelete(w word, cwd string) pclass {
	if w.find != nil {
		best := pcNone
		for _, r := range w.find.roots {
			r.find = w.find
			best = max(best, a.classifyUnder(r, cwd, w.find.filtered))
		}
		return best
	}
	if !w.ok {
		if w.flow != nil {
			if w.flow.kind == flowPaths && w.flow.find != nil {
				return a.classifyDelete(word{find: w.flow.find}, cwd)
			}
			if w.flow.kind == flowList && w.flow.what == "tracked files" {
				return pcWorkContents
			}
			if w.s == "<stdin>" {
				return pcUnknownInput // xargs of unknown input
			}
			return pcUnknown
		}
		s := w.s
		if i := strings.LastIndexByte(s, '('); i > 0 && strings.HasSuffix(s, ")") && strings.ContainsRune("*?]", rune(s[i-1])) {
			s = s[:i] // $OUT/**/*(N): zsh's qualifier after a glob changes nothing here
		}
		if strings.HasPrefix(s, "$") && !strings.HasPrefix(s, "${") {
			if i := strings.IndexByte(s, '/'); i > 0 && strings.IndexByte(s[1:i], '(') < 0 {
				switch s[i:] {
				case "/", "/*", "/.*", "/*/", "/**":
					return pcVarRoot
				}
				if onlyVariables(s[i:]) {
					return pcVarRoot // "$ROOT/$SUB"/: both empty is /
				}
				// "$DESTDIR"/usr/*, $OUT/**/*: the same path from the root
				// when the variable is empty
				rest := strings.TrimSuffix(strings.TrimSuffix(s[i:], "/*"), "/**")
				if rest == "/**" || rest == "" {
					return pcVarRoot
				}
				if !strings.ContainsAny(rest, "$`") {
					switch cl := a.classifyDelete(word{s: rest, ok: true}, cwd); cl {
					case pcRoot, pcHome, pcSystemCrit:
						return pcVarRoot
					}
				}
			}
		}
		// "/home/$u", "$HOME/$x": when the variable is empty, or names
		// any entry, the folder in front is what goes
		if i := strings.IndexAny(s, "$`"); i > 0 && strings.HasSuffix(s[:i], "/") && onlyVariables(s[i:]) {
			front := strings.TrimSuffix(s[:i], "/")
			if front == "" {
				front = "/" // "/$NAME": an empty name is the root itself
			}
			switch cl := a.classifyDelete(lit(front), cwd); cl {
			case pcRoot, pcHome, pcSystemCrit, pcHomeConfig, pcSecretsHome:
				return cl
			}
		}
		// "$(pip cache dir)/../..", (npm config get cache)/..: the
		// folders above the one a tool prints (a script's own folder,
		// $(dirname "$0")/.., is the project)
		if t := strings.TrimSuffix(s[w.tail:], "/"); w.tail > 0 && t != "" && strings.Trim(strings.ReplaceAll(t, "/..", ""), "/") == "" &&
			!strings.Contains(a.src, "$(dirname") && !strings.Contains(a.src, "$(pwd") && !strings.Contains(a.src, "$(cd ") && !strings.Contains(a.src, "$(realpath") {
			return pcEscape
		}
		return pcUnknown
	}
	if w.s == "" {
		return pcNone
	}
	p := a.absPath(w.s, cwd)
	if p == "" {
		rel := path.Clean(w.s)
		switch {
		case rel == ".." || strings.HasPrefix(rel, "../"):
			if w.glob || rel == ".." || strings.Count(rel, "..") > 0 {
				return pcEscape
			}
		case path.Base(rel) == ".git" && !fixtureGit(rel), gitInternals(rel):
			return pcGitDir
		case rel == ".":
			return pcWorkDir
		}
		return pcInside
	}
	if w.glob && strings.ContainsAny(p, "*?[") {
		if zshQualifierSuffix(p) {
			p = stripGlobQualifier(p) // **/.*(D/): zsh's qualifier, not bash's extglob
		}
		c := a.classifyGlob(p)
		if c == pcInside && a.sourceTarget(p, true) {
			return pcWorkSource
		}
		return c
	}
	return a.classifyAbs(p)
}

// zshQualifierSuffix reports a glob ending in what reads as a zsh glob
// qualifier ((D), (.), (/), (N), (om[1,3])): bash would take *(D/) for an
// extglob that matches nothing anybody writes.
func zshQualifierSuffix(p string) bool {
	i := strings.LastIndexByte(p, '(')
	if i <= 0 || !strings.HasSuffix(p, ")") || !strings.ContainsAny(p[:i], "*?]") {
		return false
	}
	q := p[i+1 : len(p)-1]
	return q != "" && strings.Trim(q, "DNnMTo.^/@=p*%rwxRWXUGsStLlmac+-0123456789[],:") == ""
}

// classifyUnder classifies deleting what find visits below root.
func (a *analysis) classifyUnder(root word, cwd string, filtered bool) pclass {
	if !root.ok {
		// find $LOG_DIR -delete, find "$OUT"/ -exec rm: an empty variable
		// leaves find the current directory, or the root
		if root.find != nil && strings.HasPrefix(root.s, "$") && onlyVariables(root.s) && root.flow == nil {
			return pcVarRoot
		}
		return pcUnknown
	}
	p := a.absPath(root.s, cwd)
	if p == "" {
		rel := path.Clean(root.s)
		if rel == ".." || strings.HasPrefix(rel, "../") {
			return pcEscape
		}
		return pcInside
	}
	c := a.classifyAbs(p)
	if root.glob && strings.ContainsAny(p, "*?[") {
		c = a.classifyGlob(p) // ls -d ~/*: every entry of the home
	}
	if filtered && root.find != nil {
		for _, n := range root.find.names {
			switch {
			case n == ".git":
				return pcGitDir
			case homeSecretDirs[n], n == ".aws", n == ".kube", n == ".gnupg":
				return pcSecretsHome
			case historyNames[n]:
				return pcHistory
			}
		}
	}
	if !filtered {
		if c == pcWorkDir {
			return pcWorkContents
		}
		if c == pcTempRoot {
			return pcTempContents
		}
		return c
	}
	// filtered: only some entries below root go
	if (c == pcWorkDir || c == pcWorkSource || c == pcInside && a.sourceTarget(p+"/*", true)) && root.find != nil && root.find.sourceFiles() {
		return pcWorkSource
	}
	switch c {
	case pcInside, pcWorkDir, pcTemp, pcTempRoot, pcHomeCache, pcHomeCacheRoot:
		return pcInside
	case pcOutside, pcHomeSub, pcSystemSub:
		if root.find != nil && root.find.artefactsOnly() {
			return pcInside // compiled files a build leaves, wherever it ran
		}
	case pcWorkSource:
		if a.inWork(p) && !sourceDirs[p[len(a.workDir)+1:]] {
			return pcInside // some files of the tests, docs or data only
		}
		if root.find != nil && root.find.artefactsOnly() {
			return pcInside // compiled files or empty directories among the sources
		}
	case pcRoot, pcSystemCrit, pcHome, pcCritFile:
		return pcSystemSub
	}
	return c
}

// classifyGlob classifies a path with glob characters by the most severe
// thing it could match.
func (a *analysis) classifyGlob(p string) pclass {
	comps := strings.Split(strings.TrimPrefix(p, "/"), "/")
	lead := "/"
	if strings.HasPrefix(p, "~") {
		comps = strings.Split(strings.TrimPrefix(strings.TrimPrefix(p, "~"), "/"), "/")
		lead = "~/"
	}
	idx := -1
	for i, c := range comps {
		if strings.ContainsAny(c, "*?[") {
			idx = i
			break
		}
	}
	if idx < 0 {
		return a.classifyAbs(p)
	}
	dir := path.Clean(lead + strings.Join(comps[:idx], "/"))
	if lead == "~/" {
		dir = "~" + strings.TrimPrefix(path.Clean("/"+strings.Join(comps[:idx], "/")), "/")
		if dir != "~" {
			dir = "~/" + strings.TrimPrefix(dir, "~")
		}
	}
	g := comps[idx]
	if g == "**" && idx == len(comps)-2 && matchesAll(comps[idx+1]) {
		g, comps = comps[idx+1], comps[:idx+1] // **/*: every file below
	}
	rest := ""
	if idx+1 < len(comps) {
		rest = "/" + strings.Join(comps[idx+1:], "/")
	}
	join := func(name string) string {
		if dir == "/" {
			return "/" + name + rest
		}
		return dir + "/" + name + rest
	}
	best := pcNone
	if rest == "" && matchesAll(g) {
		c := a.classifyAbs(dir)
		switch c {
		case pcWorkDir:
			c = pcWorkContents
		case pcTempRoot:
			c = pcTempContents
		}
		best = c
	}
	var names []string
	if dir == "/" {
		names = topNames
	} else if rel, _, ok := a.homeRel(dir); ok && rel == "" {
		names = []string{".ssh", ".gnupg", ".aws", ".kube", ".bashrc", ".config", ".bash_history", ".zsh_history", "Documents"}
	}
	for _, n := range names {
		if ok, _ := path.Match(g, n); ok {
			best = max(best, a.classifyAbs(join(n)))
		}
	}
	// any other entry the glob matches, with the name's literal start
	// (~/.zcompdump*: zsh's completion caches)
	generic := a.classifyAbs(join(g[:strings.IndexAny(g, "*?[")] + "\x00entry"))
	if generic == pcSystemCrit && dir != "/" {
		// any file directly in a system directory
		best = max(best, generic)
	} else if generic != pcSystemCrit {
		best = max(best, generic)
	}
	return best
}

func matchesAll(g string) bool {
	if i := strings.LastIndexByte(g, '('); i > 0 && strings.HasSuffix(g, ")") {
		g = g[:i] // a zsh glob qualifier: *(D), *(.)
	}
	switch g {
	case "*", ".*", "**", "*.*", "?*", ".??*", "*/", "[a-z]*", "[!.]*", ".[!.]*", "[^.]*":
		return true
	}
	return false
}

// classifyAbs classifies an absolute (or ~-relative) path.
func (a *analysis) classifyAbs(p string) pclass {
	if p == "/" {
		return pcRoot
	}
	switch p {
	case "/tmp/.X11-unix", "/tmp/.ICE-unix", "/tmp/.font-unix", "/tmp/.XIM-unix", "/tmp/.Test-unix":
		// the display server's and the session's sockets: every
		// graphical program of the machine loses its display
		return pcSystemSub
	}
	if a.isProtected(p) {
		return pcProtected
	}
	base := path.Base(p)
	if rel, mine, ok := a.homeRel(p); ok {
		if rel == "" {
			return pcHome
		}
		if isHistoryPath(rel) {
			return pcHistory
		}
		first, _, _ := strings.Cut(rel, "/")
		if homeSecretDirs[first] {
			if base == "known_hosts" || base == "known_hosts.old" || base == "config" || strings.HasSuffix(base, ".pub") {
				return pcHomeSub
			}
			return pcSecretsHome
		}
		if base == ".git" && !(a.inWork(p) && fixtureGit(p[len(a.workDir):])) || gitInternals(rel) {
			return pcGitDir
		}
		if a.inWork(p) {
			return a.classifyInWork(p)
		}
		if isCache(rel) {
			if cacheRoot(rel) && !strings.HasPrefix(rel, ".zcompdump") {
				return pcHomeCacheRoot
			}
			return pcHomeCache
		}
		if first == "Downloads" && strings.Contains(rel, "/") && !strings.ContainsAny(rel, "*?[") {
			// one download or what was unpacked from it: fetched
			// again, not written
			return pcHomeCache
		}
		if n := winTempDir(p); n > 0 {
			// a Windows profile's temporary directory (Git Bash)
			if n == len(p) {
				return pcTempRoot
			}
			return pcTemp
		}
		if homeConfig[rel] || homeConfig[first] && first != ".config" && first != ".local" && first != "Library" {
			return pcHomeConfig
		}
		if !mine && strings.HasPrefix(p, "/home/") && a.home != "" && strings.Count(p, "/") == 2 {
			return pcHome
		}
		if a.workDir == "" && mine && strings.Contains(rel, "/") {
			return pcInside // inside a subfolder of the home directory
		}
		return pcHomeSub
	}
	if isLogPath(p) {
		return pcLogs
	}
	if base == ".git" && !(a.inWork(p) && fixtureGit(p[len(a.workDir):])) || a.inWork(p) && gitInternals(p[len(a.workDir):]) {
		return pcGitDir
	}
	if a.inWork(p) {
		return a.classifyInWork(p)
	}
	if isTempRoot(p) {
		return pcTempRoot
	}
	if underTemp(p) {
		return pcTemp
	}
	if critFiles[p] {
		return pcCritFile
	}
	if isDBData(p) {
		return pcDBData
	}
	if strings.HasPrefix(p, "~") {
		return pcOutside
	}
	top, _, _ := strings.Cut(p[1:], "/")
	depth := strings.Count(p, "/")
	if rest, ok := strings.CutPrefix(p, "/var/cache/"); ok {
		if pm, _, _ := strings.Cut(rest, "/"); packageCaches[pm] {
			return pcHomeCache // packages the manager downloads again
		}
	}
	if p == "/var/lib/apt/lists" || strings.HasPrefix(p, "/var/lib/apt/lists/") {
		return pcHomeCache // package indexes apt-get update fetches again
	}
	switch systemTops[top] {
	case tierAll:
		return pcSystemCrit
	case tierDeep:
		if strings.HasPrefix(p, "/etc/sudoers") || strings.HasPrefix(p, "/etc/pam.d") || strings.HasPrefix(p, "/etc/shadow") {
			return pcCritFile
		}
		if depth <= 2 {
			return pcSystemCrit
		}
		if strings.HasPrefix(p, "/usr/lib/") && depth <= 3 && !strings.Contains(p, "node_modules") {
			return pcSystemSub
		}
		return pcSystemSub
	case tierTop:
		if depth == 1 {
			return pcSystemCrit
		}
		return pcSystemSub
	}
	if buildOutputs[base] && depth >= 4 {
		// another project's build output: its build makes it again
		return pcHomeCache
	}
	if depth >= 3 {
		// an application's own scratch space (/app/tmp/cache, /srv/x/cache)
		for _, c := range strings.Split(p[1:], "/")[1:] {
			if c == "tmp" || c == "cache" || c == ".cache" {
				return pcHomeCache
			}
		}
	}
	return pcOutside
}

// runtimeFile reports a pid file, socket or lock file below /run: a
// service's state for its current run, which it writes again when it
// starts.
func runtimeFile(p string) bool {
	if !strings.HasPrefix(p, "/run/") && !strings.HasPrefix(p, "/var/run/") || strings.ContainsAny(p, "*?[") {
		return false
	}
	switch path.Ext(p) {
	case ".pid", ".sock", ".socket", ".lock":
		return true
	}
	return false
}

// buildOutputs are the directories builds and package managers fill and
// make again: deleting one outside the work directory (a sibling
// project's node_modules or target) loses nothing that is not
// regenerated.
var buildOutputs = map[string]bool{"node_modules": true, "dist": true, "build": true, "target": true, "obj": true,
	"__pycache__": true, ".next": true, ".nuxt": true, ".turbo": true, ".parcel-cache": true, "coverage": true,
	".pytest_cache": true, ".mypy_cache": true, ".ruff_cache": true, ".tox": true, ".svelte-kit": true, ".angular": true,
	"dist-electron": true}

// credentialFileVar returns the name of the variable s refers to, whole,
// when it names a credentials file ($GOOGLE_APPLICATION_CREDENTIALS,
// ${AWS_SHARED_CREDENTIALS_FILE}, $KUBECONFIG).
func credentialFileVar(s string) string {
	var n string
	switch {
	case len(s) > 5 && strings.EqualFold(s[:5], "$env:"):
		n = strings.ToUpper(s[5:]) // PowerShell's $env:NAME
	case strings.HasPrefix(s, "$"):
		n = strings.Trim(s[1:], "{}")
	case len(s) > 2 && s[0] == '%' && s[len(s)-1] == '%':
		n = strings.ToUpper(s[1 : len(s)-1]) // cmd's %NAME%
	default:
		return ""
	}
	switch n {
	case "GOOGLE_APPLICATION_CREDENTIALS", "AWS_SHARED_CREDENTIALS_FILE", "KUBECONFIG", "AZURE_AUTH_LOCATION", "CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE",
		"DOCKER_CONFIG", "NETRC", "PGPASSFILE", "VAULT_TOKEN_FILE", "GITHUB_APP_PRIVATE_KEY_PATH":
		return n
	}
	return ""
}

// wclass classifies the target of a write.
type wclass uint8

const (
	wNone wclass = iota
	wBlockDev
	wSysrq
	wDevMem
	wPasswd
	wSudoers
	wPam
	wLdPreload
	wShellRC
	// wToolHook: a system directory whose files a tool loads on every
	// use (Maven's lib/ext, system-wide Gradle init scripts)
	wToolHook
	wCron
	wService
	wAuthKeys
	wSSHConfig
	wBoot
	wSysBin
	wEtc
	wProcSys
	wHistory
	wLogs
	wGitHook
	wPathShadow
	wSSHDConfig
	wProtected
	wDBData
)

var shellRCNames = map[string]bool{
	".bashrc": true, ".bash_profile": true, ".bash_login": true, ".profile": true, ".zshrc": true, ".zprofile": true,
	".zshenv": true, ".zlogin": true, ".zlogout": true, ".bash_logout": true, ".cshrc": true, ".tcshrc": true, ".kshrc": true, ".mkshrc": true,
	".config/fish/config.fish": true, ".xinitrc": true, ".xprofile": true, ".xsession": true, ".login": true,
	".bash_aliases": true,
}

// isBlockDevice reports whether p names a disk, partition or similar.
func isBlockDevice(p string) bool {
	if !strings.HasPrefix(p, "/dev/") {
		return false
	}
	d := p[5:]
	for _, pre := range [...]string{"st", "nst", "nsa", "sa"} {
		// tape drives: /dev/st0, /dev/nst1 (not /dev/stdout)
		if rest, ok := strings.CutPrefix(d, pre); ok && rest != "" && rest[0] >= '0' && rest[0] <= '9' {
			return true
		}
	}
	for _, pre := range [...]string{"sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk", "mapper/", "dm-", "md", "loop",
		"nbd", "zd", "bcache", "root", "cciss/", "ubd", "sr", "mtd", "fd0", "fd1", "rbd", "drbd", "xen/", "ram", "pmem", "emmc", "block/", "zvol/", "vg", "lvm/"} {
		if strings.HasPrefix(d, pre) {
			return true
		}
	}
	return false
}

// classifyWrite classifies the target of a file write.
func (a *analysis) classifyWrite(p string) wclass {
	if p == "" {
		return wNone
	}
	// macOS keeps /etc and /var under /private; both names reach the file
	if strings.HasPrefix(p, "/private/etc/") || strings.HasPrefix(p, "/private/var/") {
		p = strings.TrimPrefix(p, "/private")
	}
	if a.isProtected(p) {
		return wProtected
	}
	if isDBData(p) {
		return wDBData
	}
	if strings.HasPrefix(p, "/dev/") {
		switch {
		case isBlockDevice(p):
			return wBlockDev
		case p == "/dev/mem" || p == "/dev/kmem" || p == "/dev/port" || strings.HasPrefix(p, "/dev/cpu/"):
			return wDevMem
		}
		return wNone
	}
	if isGitHook(p) {
		return wGitHook
	}
	if cl := gitBashWindowsWrite(p); cl != wNone {
		return cl
	}
	if a.isPathShadow(p) {
		return wPathShadow
	}
	if _, _, home := a.homeRel(p); strings.Contains(p, "/airflow/dags/") && !a.inWork(p) && !home {
		// a scheduler's DAG folder: it imports and runs every file in it
		// on its own schedule
		return wCron
	}
	if rel, _, ok := a.homeRel(p); ok {
		switch {
		case shellRCNames[rel] || strings.HasPrefix(rel, ".config/fish/conf.d/") || strings.HasPrefix(rel, ".bashrc.d/") || strings.HasPrefix(rel, ".profile.d/") || strings.HasPrefix(rel, ".oh-my-zsh/custom/"):
			return wShellRC
		case rel == ".ssh/authorized_keys" || rel == ".ssh/authorized_keys2" || strings.HasSuffix(rel, "/.ssh/authorized_keys"):
			return wAuthKeys
		case rel == ".ssh/rc" || rel == ".ssh/environment":
			return wAuthKeys
		case strings.HasPrefix(rel, ".ssh/") && !strings.HasPrefix(rel, ".ssh/known_hosts") && !(strings.HasSuffix(rel, ".pub") && strings.Count(rel, "/") == 1) &&
			!(strings.HasSuffix(rel, ".pem") && strings.Count(rel, "/") == 1):
			// (a key's public half beside it is only ever read by others;
			// a new key pair's private half, dev-bastion.pem, is a file ssh
			// reads only when told to with -i)
			return wSSHConfig
		case strings.HasPrefix(rel, ".config/systemd/") || strings.HasPrefix(rel, ".config/autostart/") || strings.HasPrefix(rel, "Library/LaunchAgents/") ||
			strings.HasPrefix(rel, ".local/share/systemd/") || rel == ".config/autostart" ||
			// KDE's log-in scripts and the session's environment
			strings.HasPrefix(rel, ".config/autostart-scripts/") || strings.HasPrefix(rel, ".config/plasma-workspace/env/") || strings.HasPrefix(rel, ".config/plasma-workspace/shutdown/"):
			return wService
		case strings.HasPrefix(rel, ".config/environment.d/") || rel == ".pam_environment":
			// every variable of the user's session and services
			// (LD_PRELOAD among them)
			return wShellRC
		case isHistoryPath(rel):
			return wHistory
		case strings.HasPrefix(rel, ".gradle/init.d/") || rel == ".gradle/init.gradle" || rel == ".gradle/init.gradle.kts":
			// Gradle runs the user's init scripts in every build of every
			// project
			return wToolHook
		}
		return wNone
	}
	if strings.HasPrefix(p, "/usr/share/maven/lib/ext/") || strings.HasPrefix(p, "/usr/share/maven/lib/") && strings.HasSuffix(p, ".jar") ||
		strings.HasPrefix(p, "/opt/gradle/init.d/") || strings.HasPrefix(p, "/etc/gradle/init.d/") {
		return wToolHook
	}
	switch {
	case p == "/proc/sysrq-trigger":
		return wSysrq
	case strings.HasPrefix(p, "/proc/sys/") || strings.HasPrefix(p, "/sys/"):
		return wProcSys
	case strings.HasPrefix(p, "/proc/"):
		return wNone
	case p == "/etc/passwd" || p == "/etc/shadow" || p == "/etc/group" || p == "/etc/gshadow" || p == "/etc/master.passwd":
		return wPasswd
	case p == "/etc/sudoers" || strings.HasPrefix(p, "/etc/sudoers.d") || p == "/etc/doas.conf" || p == "/usr/local/etc/sudoers",
		// polkit's actions and rules: who may act as root without a password
		strings.HasPrefix(p, "/etc/polkit-1/") || strings.HasPrefix(p, "/usr/share/polkit-1/"):
		return wSudoers
	case strings.HasPrefix(p, "/etc/pam.d/") || strings.HasPrefix(p, "/lib/security/") || strings.HasPrefix(p, "/lib64/security/") || strings.HasPrefix(p, "/usr/lib/security/"):
		return wPam
	case p == "/etc/ld.so.preload":
		return wLdPreload
	case p == "/etc/profile" || strings.HasPrefix(p, "/etc/profile.d/") || p == "/etc/bash.bashrc" || p == "/etc/bashrc" ||
		p == "/etc/zshrc" || p == "/etc/zprofile" || p == "/etc/zshenv" || strings.HasPrefix(p, "/etc/zsh/") || p == "/etc/environment" || p == "/etc/csh.cshrc",
		strings.HasPrefix(p, "/usr/share/fish/vendor_conf.d/") || strings.HasPrefix(p, "/usr/share/fish/vendor_functions.d/") ||
			strings.HasPrefix(p, "/usr/local/share/fish/vendor_conf.d/") || strings.HasPrefix(p, "/etc/fish/"):
		// every shell, or every fish of every user, reads them
		return wShellRC
	case strings.HasPrefix(p, "/etc/cron") || strings.HasPrefix(p, "/var/spool/cron") || p == "/etc/anacrontab" || strings.HasPrefix(p, "/var/spool/at"):
		return wCron
	case strings.HasPrefix(p, "/etc/systemd/") || strings.HasPrefix(p, "/lib/systemd/") || strings.HasPrefix(p, "/usr/lib/systemd/") ||
		strings.HasPrefix(p, "/etc/init.d/") || strings.HasPrefix(p, "/etc/init/") || p == "/etc/rc.local" || strings.HasPrefix(p, "/etc/rc") ||
		strings.HasPrefix(p, "/etc/update-motd.d/") || strings.HasPrefix(p, "/etc/xdg/autostart/") || strings.HasPrefix(p, "/Library/LaunchAgents/") ||
		strings.HasPrefix(p, "/Library/LaunchDaemons/") || strings.HasPrefix(p, "/etc/udev/rules.d/") || strings.HasPrefix(p, "/usr/lib/udev/") ||
		// macOS: login-window plugins and helpers run as root
		strings.HasPrefix(p, "/Library/Security/SecurityAgentPlugins/") || strings.HasPrefix(p, "/Library/PrivilegedHelperTools/") || strings.HasPrefix(p, "/Library/StartupItems/"),
		strings.HasPrefix(p, "/usr/share/libalpm/hooks/") || strings.HasPrefix(p, "/etc/pacman.d/hooks/") || strings.HasPrefix(p, "/etc/apt/apt.conf.d/"):
		// services, and hooks the package manager runs as root on every
		// install
		return wService
	case strings.HasPrefix(p, "/etc/ssh/sshd_config"):
		return wSSHDConfig
	case strings.HasPrefix(p, "/root/.ssh/") || strings.HasPrefix(p, "/etc/ssh/"):
		if strings.HasSuffix(p, "authorized_keys") || strings.HasSuffix(p, "/rc") {
			return wAuthKeys
		}
		return wSSHConfig
	case p == "/boot" || strings.HasPrefix(p, "/boot/") || strings.HasPrefix(p, "/efi/"):
		return wBoot
	case isLogPath(p):
		return wLogs
	case strings.HasPrefix(p, "/etc/") || p == "/etc":
		// (cp -r ./etc/. /etc/: whatever the copy holds lands in /etc)
		return wEtc
	case strings.HasPrefix(p, "/bin/") || strings.HasPrefix(p, "/sbin/") || strings.HasPrefix(p, "/usr/bin/") || strings.HasPrefix(p, "/usr/sbin/") ||
		strings.HasPrefix(p, "/lib/") || strings.HasPrefix(p, "/lib64/") || strings.HasPrefix(p, "/usr/lib/") || strings.HasPrefix(p, "/usr/lib64/") ||
		strings.HasPrefix(p, "/lib32/") || strings.HasPrefix(p, "/usr/libexec/"):
		return wSysBin
	}
	if strings.HasSuffix(p, "/.ssh/authorized_keys") {
		return wAuthKeys
	}
	return wNone
}

// sensitive reports whether reading the file at s exposes secrets: a
// description, and whether they are critical (keys, credentials).
// globNames reports a glob pattern (~/.aws/*) that names the file name
// (.aws/credentials) among others.
func globNames(pattern, name string) bool {
	if !strings.ContainsAny(pattern, "*?[") {
		return false
	}
	ok, err := path.Match(pattern, name)
	return ok && err == nil
}

func (a *analysis) sensitive(s, cwd string) (string, bool) {
	if s == "" {
		return "", false
	}
	if v := credentialFileVar(s); v != "" {
		// "$GOOGLE_APPLICATION_CREDENTIALS": the file the variable names
		// holds the account's key
		return "the credentials file $" + v, true
	}
	p := a.absPath(s, cwd)
	if p == "" {
		p = path.Clean(s)
	}
	if winIsWindowsPath(p) {
		// a Windows path a POSIX rule looks at: the Windows stores
		// first, then the names and extensions below
		if d, crit := a.winSensitive(p); d != "" {
			return d, crit
		}
	} else if len(p) > 3 && p[2] == '/' && isDriveLetter(p[1]) && a.msysPaths() {
		// Git Bash's /c/Users/x/AppData/...: the same Windows stores
		if d, crit := a.winSensitive(a.winAbs(p)); d != "" {
			return d, crit
		}
	}
	if p == "/proc/kcore" || p == "/dev/mem" || p == "/dev/kmem" {
		return "the machine's memory (" + s + ")", true // every process's secrets, as they are held
	}
	base := path.Base(p)
	if strings.HasSuffix(base, ".pub") && !strings.Contains(base, "~") { // zsh: id_*~*.pub is every key but the public ones
		return "", false
	}
	rel, _, inHome := a.homeRel(p)
	if d := credentialStoreOf(p, rel, inHome); d != "" {
		return d + " (" + s + ")", true
	}
	if inHome {
		first, _, _ := strings.Cut(rel, "/")
		switch first {
		case ".ssh":
			switch base {
			case "known_hosts", "known_hosts.old", "config", "authorized_keys", "environment", "rc":
				return "", false
			}
			return "SSH keys (" + s + ")", true
		case ".gnupg", ".password-store":
			return "private keys (" + s + ")", true
		case ".aws":
			if rel == ".aws" || base == "credentials" || strings.HasPrefix(rel, ".aws/sso") || strings.HasPrefix(rel, ".aws/cli/cache") || globNames(rel, ".aws/credentials") {
				return "AWS credentials (" + s + ")", true
			}
		case ".kube":
			if rel == ".kube" || base == "config" || globNames(rel, ".kube/config") {
				return "Kubernetes credentials (" + s + ")", true
			}
		case ".docker":
			if rel == ".docker" || base == "config.json" || globNames(rel, ".docker/config.json") {
				return "Docker registry credentials (" + s + ")", true
			}
		case ".azure", ".vault-token", ".netrc", ".git-credentials", ".pgpass", ".my.cnf", ".npmrc", ".pypirc", ".terraform.d", ".Renviron",
			".transifexrc", ".crowdin.yml", ".contentfulrc.json", ".lokalise2", ".phrase.yml", ".influxdbv2", ".keycloak", ".okta":
			return "credentials (" + s + ")", true
		case ".config":
			if rel == ".config" {
				// the folder where most clients keep their logins
				return "the clients' settings and logins (" + s + ")", true
			}
			if strings.HasPrefix(rel, ".config/google-chrome") || strings.HasPrefix(rel, ".config/chromium") || strings.HasPrefix(rel, ".config/BraveSoftware") ||
				strings.HasPrefix(rel, ".config/microsoft-edge") {
				return "browser credentials (" + s + ")", true // its logins, cookies and their key
			}
			if strings.HasPrefix(rel, ".config/gcloud") || strings.HasPrefix(rel, ".config/gh") || strings.HasPrefix(rel, ".config/op") || strings.HasPrefix(rel, ".config/hub") || strings.HasPrefix(rel, ".config/auth0") {
				return "credentials (" + s + ")", true
			}
		case ".cargo", ".gem":
			if strings.HasPrefix(base, "credentials") {
				return "credentials (" + s + ")", true
			}
		case ".mozilla", ".thunderbird":
			// the files of logins, keys and cookies, or a folder holding
			// them: ~/.mozilla/firefox, a profile's (x1y2z3.default;
			// Crash Reports and profiles.ini hold none)
			if base == "logins.json" || base == "key4.db" || base == "cookies.sqlite" || rel == first || rel == ".mozilla/firefox" ||
				strings.Count(rel, "/") == 2 && strings.HasPrefix(rel, ".mozilla/firefox/") && strings.Contains(base, ".") && !strings.HasSuffix(base, ".ini") {
				return "browser credentials (" + s + ")", true
			}
		case "Library":
			if strings.HasPrefix(rel, "Library/Keychains") || strings.Contains(rel, "Cookies") || strings.Contains(rel, "Login Data") {
				return "keychain or browser credentials (" + s + ")", true
			}
			// a browser's profile: its cookies, saved logins and keys
			for _, b := range [...]string{"Library/Application Support/Google/Chrome/", "Library/Application Support/BraveSoftware/",
				"Library/Application Support/Microsoft Edge/", "Library/Application Support/Firefox/Profiles/", "Library/Application Support/Chromium/"} {
				if strings.HasPrefix(rel+"/", b) && len(rel)+1 > len(b) {
					return "a browser profile with its logins (" + s + ")", true
				}
			}
			// the user's messages, notes, mail and browsing
			for _, d := range [...]string{"Library/Messages", "Library/Mail", "Library/Safari", "Library/Group Containers/group.com.apple.notes",
				"Library/Application Support/AddressBook", "Library/Calendars"} {
				if strings.HasPrefix(rel, d) {
					return "personal data (" + s + ")", false
				}
			}
		}
		if rel == "" {
			return "the home directory (" + s + ")", true
		}
		if d := homeTokenFile(rel, base); d != "" {
			return d + " (" + s + ")", true
		}
		if isHistoryPath(rel) {
			return "the shell history (" + s + ")", false
		}
	}
	switch {
	case p == "/etc/shadow" || p == "/etc/gshadow" || p == "/etc/master.passwd":
		return "password hashes (" + s + ")", true
	case strings.HasPrefix(p, "/etc/sudoers"):
		// who may become root: no secret in it, but the machine's
		// privilege itself
		return "the sudo rules (" + s + ")", true
	case strings.HasPrefix(p, "/etc/ssh/ssh_host_") && strings.HasSuffix(p, "_key"):
		return "SSH host keys (" + s + ")", true
	case p == "/var/lib/rancher/k3s/server/token" || p == "/var/lib/rancher/k3s/server/node-token" || strings.HasPrefix(p, "/var/lib/rancher/k3s/server/cred/") ||
		p == "/etc/rancher/k3s/k3s.yaml":
		return "a cluster's join token or admin credentials (" + s + ")", true
	case p == "/etc/gitlab-runner/config.toml" || strings.HasPrefix(p, "/etc/buildkite-agent/") || strings.HasPrefix(p, "/var/lib/jenkins/secrets/") ||
		strings.HasSuffix(p, "/.gitlab-runner/config.toml") || strings.HasSuffix(p, "/actions-runner/.credentials") || strings.HasSuffix(p, "/actions-runner/.runner"):
		return "a CI runner's tokens (" + s + ")", true
	case p == "/etc/passwd":
		return "the user list (" + s + ")", false
	case p == "/etc/datadog-agent/datadog.yaml" || p == "/etc/newrelic-infra.yml" || p == "/etc/grafana/grafana.ini":
		return "a monitoring agent's API key or admin password (" + s + ")", true
	case strings.HasPrefix(p, "/proc/") && base == "environ":
		return "a process environment (" + s + ")", true
	case (strings.HasPrefix(p, "/var/run/secrets") || strings.HasPrefix(p, "/run/secrets")) && base != "namespace" && base != "ca.crt":
		// (a pod's namespace and its cluster's CA certificate are public)
		return "mounted secrets (" + s + ")", true
	case strings.HasPrefix(p, "/etc/ssl/private") || strings.HasPrefix(p, "/etc/pki/tls/private") || strings.HasPrefix(p, "/etc/letsencrypt/live") ||
		strings.HasPrefix(p, "/etc/letsencrypt/archive"):
		return "TLS private keys (" + s + ")", true
	case strings.HasPrefix(p, "/etc/pve/priv"):
		return "the hypervisor cluster's private keys and storage passwords (" + s + ")", true
	case strings.HasPrefix(p, "/etc/postfix/sasl_passwd") || p == "/etc/dovecot/users" || p == "/etc/dovecot/passwd" || strings.HasPrefix(p, "/etc/dovecot/private/") ||
		p == "/etc/exim4/passwd.client":
		return "mail servers' credentials or password hashes (" + s + ")", true
	case (strings.HasPrefix(p, "/etc/opendkim/") || strings.HasPrefix(p, "/etc/dkim") || strings.HasPrefix(p, "/var/lib/rspamd/dkim/")) && (strings.HasSuffix(base, ".private") || strings.HasSuffix(base, ".key")):
		return "a DKIM signing key (" + s + ")", true
	case strings.HasSuffix(lower(p), "/steam/config/config.vdf"):
		return "Steam's cached login tokens (" + s + ")", true
	case p == "/etc/slurm/slurmdbd.conf" || p == "/etc/munge/munge.key":
		return "a cluster scheduler's database password or shared key (" + s + ")", true
	case strings.HasSuffix(p, "/app/etc/env.php") && !a.inWork(p):
		return "a shop's database password and encryption key (" + s + ")", true
	}
	if d := serviceSecretFile(lower(p), lower(base)); d != "" && !a.inWork(p) {
		return d + " (" + s + ")", true
	}
	if (base == ".env" || strings.HasSuffix(base, ".env") || strings.HasPrefix(base, ".env.") && !exampleFileName(base)) && !a.inWork(p) &&
		(strings.HasPrefix(p, "/srv/") || strings.HasPrefix(p, "/opt/") || strings.HasPrefix(p, "/var/www/") || strings.HasPrefix(p, "/etc/")) {
		// /srv/api/shared/.env, /etc/app/secrets.env: a deployed
		// service's settings, its passwords and keys among them
		return "a deployed service's environment file (" + s + ")", true
	}
	if base == ".env" || strings.HasPrefix(base, ".env.") && !strings.Contains(base, "example") && !strings.Contains(base, "sample") &&
		!strings.Contains(base, "template") && !strings.Contains(base, "dist") {
		return "an environment file with secrets (" + s + ")", true
	}
	if strings.HasSuffix(base, ".env") && strings.Contains(lower(base), "prod") {
		// /etc/restic/prod-backup.env: a service's production settings
		return "an environment file with secrets (" + s + ")", true
	}
	if lower(base) == "pgpass.conf" {
		// %APPDATA%\postgresql\pgpass.conf: PostgreSQL's saved passwords on Windows
		return "credentials (" + s + ")", true
	}
	if passwordList(base) && !a.inWork(p) {
		// svc-passwords.txt, creds.csv: a list of passwords kept as plain
		// text (the project's are test word lists)
		return "a password list (" + s + ")", true
	}
	switch strings.ToLower(base) {
	case "keys", "private_keys", "private-keys", "privatekeys", "signing-keys", "signing_keys", "keystores":
		// a folder of keys (the project's signing keys, a service's
		// private keys)
		return "key material (" + s + ")", true
	}
	switch strings.ToLower(path.Ext(base)) {
	case ".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".ppk", ".kdbx", ".asc", ".gpg", ".rdp", ".ovpn", ".p8":
		return "key material (" + s + ")", true
	}
	if strings.HasPrefix(base, "id_rsa") || strings.HasPrefix(base, "id_ed25519") || strings.HasPrefix(base, "id_ecdsa") || strings.HasPrefix(base, "id_dsa") || namedSSHKey(base) ||
		base == "credentials.json" || base == "credentials" && strings.Contains(p, "/.") || strings.Contains(base, "service-account") && strings.HasSuffix(base, ".json") ||
		base == ".htpasswd" || strings.Contains(p, "/.htpasswds/") || base == "wallet.dat" || base == "secrets" || base == ".secrets" || base == "secrets.yml" || base == "secrets.yaml" || base == "secrets.json" ||
		base == "terraform.tfstate" || base == ".git-credentials" || base == ".netrc" || serviceAccountKey(base) ||
		// database clients' histories keep the passwords typed into them
		// (ALTER USER ... PASSWORD, AUTH); pub's tokens
		base == ".psql_history" || base == ".mysql_history" || base == ".rediscli_history" || base == "pub-tokens.json" {
		return "credentials (" + s + ")", true
	}
	if dir := path.Base(path.Dir(p)); (dir == "secrets" || dir == "credentials") && !strings.Contains(lower(base), "example") && !strings.Contains(lower(base), "sample") &&
		!strings.Contains(lower(base), "template") && !strings.HasSuffix(base, ".md") && !strings.HasSuffix(base, ".enc") && !strings.HasSuffix(base, ".sops.yaml") {
		// config/secrets/opcua_users.json: a folder kept for secrets
		// (its examples and encrypted copies are not)
		return "credentials (" + s + ")", true
	}
	if inHome && path.Ext(base) == ".json" && (strings.HasSuffix(base, "-sa.json") || strings.HasSuffix(base, "_sa.json") || strings.HasSuffix(base, "sa-key.json") ||
		strings.HasSuffix(base, "-key.json") || keyFolders[path.Base(path.Dir(p))]) {
		// ~/keys/deployer-sa.json: a cloud service account's key
		return "a service account key (" + s + ")", true
	}
	switch {
	case inHome && strings.HasPrefix(base, ".") && (strings.HasSuffix(base, "_token") || strings.HasSuffix(base, "-token") || strings.HasSuffix(base, "_api_key")):
		// ~/.labguru_token, ~/.zenodo-token: a service's token kept in
		// the home, as a tool's setup tells users to
		return "credentials (" + s + ")", true
	case base == "priv_validator_key.json" || base == "node_key.json" && strings.Contains(p, "/config/") || base == "validator_definitions.yml" ||
		strings.HasPrefix(base, "keystore-m_") && strings.HasSuffix(base, ".json") || path.Base(path.Dir(p)) == "keystore" && strings.Contains(p, "ethereum"):
		// a validator's or a node's signing key, an Ethereum keystore
		// and the passwords a validator client keeps for its keystores
		return "key material (" + s + ")", true
	}
	switch strings.ToLower(base) {
	case "database.yml", "wp-config.php", "master.key", "secrets.toml", "local.settings.json", "terraform.tfvars", "serviceaccountkey.json",
		"key.properties", "keystore.properties", "signing.properties": // an Android release keystore's passwords
		// frameworks' and tools' files that hold passwords and keys
		return "credentials (" + s + ")", true
	}
	switch strings.ToLower(base) {
	case "mirth.properties", "orthanc.json", "airflow.cfg", "config.php", "superset_config.py", "configuration.php", "settings.php", "env.php":
		// an installed server's settings: its database password, admin
		// logins and keys (the project's own copy is its to read)
		// (Joomla's configuration.php, Drupal's sites/*/settings.php,
		// Magento's app/etc/env.php)
		webRoot := strings.HasPrefix(p, "/var/www/") || strings.HasPrefix(p, "/srv/") || strings.Contains(p, "/sites/") && base == "settings.php" || strings.Contains(p, "/app/etc/")
		if !a.inWork(p) && (base != "config.php" && base != "configuration.php" && base != "settings.php" && base != "env.php" || webRoot) {
			return "a server's passwords and keys (" + s + ")", true
		}
	}
	switch strings.ToLower(base) {
	case "export_credentials.cfg", "p4tickets.txt", ".p4tickets", "p4tickets", "flows_cred.json", ".config.runtime.json":
		// (Node-RED's flows' credentials and the key that decrypts them)
		// Godot's export keystore passwords; Perforce's login tickets
		return "credentials (" + s + ")", true
	}
	if strings.HasPrefix(p, "/var/db/dslocal/nodes/") && strings.Contains(p, "/users/") && strings.HasSuffix(base, ".plist") {
		// a macOS account's record, its password hash (ShadowHashData) in it
		return "an account's password hash (" + s + ")", true
	}
	if strings.HasPrefix(p, "/var/lib/cloud/") && (base == "user-data.txt" || base == "user-data.txt.i" || base == "vendor-data.txt") {
		// cloud-init's copy of the instance's bootstrap script, with
		// the passwords and tokens it was handed
		return "the instance's user data (" + s + ")", true
	}
	if lb := strings.ToLower(base); path.Ext(lb) == ".json" && (strings.HasSuffix(lb, "-credentials.json") || strings.HasSuffix(lb, "_credentials.json") ||
		strings.HasSuffix(lb, "-key.json") || strings.HasSuffix(lb, "_key.json")) {
		// fastlane/play-store-credentials.json, google-play-key.json: a
		// store's or a cloud's service key kept beside the project
		return "credentials (" + s + ")", true
	}
	if strings.HasSuffix(base, ".tfvars") || strings.Contains(strings.ToLower(base), "firebase-adminsdk") && strings.HasSuffix(base, ".json") {
		return "credentials (" + s + ")", true
	}
	if deployedSettings(strings.ToLower(base)) {
		return "a deployed environment's connection strings (" + s + ")", true
	}
	return "", false
}

// deployedSettings reports a .NET settings file (lower case name) of a
// deployed environment: appsettings.Production.json and the like hold the
// live database's connection string, where the Development file holds a
// local one.
func deployedSettings(base string) bool {
	switch base {
	case "appsettings.production.json", "appsettings.prod.json", "appsettings.staging.json", "connectionstrings.config":
		return true
	}
	return false
}

// keyFolders are folders people keep keys in.
var keyFolders = map[string]bool{"keys": true, "secrets": true, "credentials": true, "creds": true, "service-accounts": true}

// homeTokenFile reports a file below the home directory where a
// command-line client keeps its login: a name that says so (auth.json,
// .credentials.json, access-token, token, hosts.yml), or the settings file
// of a client that stores its token among its settings. New clients keep
// choosing the same few names, so the names cover tools nobody listed.
func homeTokenFile(rel, base string) string {
	if strings.HasPrefix(rel, "GAMConfig/") && (base == "oauth2.txt" || base == "client_secrets.json" || base == "oauth2service.json") {
		return "Google Workspace admin tokens (GAM)"
	}
	switch strings.ToLower(rel) {
	case "hubspot.config.yml", "hubspot.config.yaml":
		return "HubSpot's personal access keys (hubspot.config.yml)"
	}
	if l := strings.ToLower(rel); strings.HasPrefix(l, "appdata/roaming/pagerduty-cli/") || strings.HasPrefix(l, "appdata/roaming/twilio-cli/") {
		return "a client's tokens"
	}
	if !strings.HasPrefix(rel, ".") && !strings.HasPrefix(rel, "Library/Application Support/") && !strings.HasPrefix(rel, "Library/Preferences/.") && !strings.HasPrefix(rel, "Library/Preferences/netlify/") {
		return "" // the user's documents, not a tool's state
	}
	b := strings.ToLower(strings.TrimPrefix(base, "."))
	stem := strings.TrimSuffix(b, path.Ext(b))
	switch stem {
	case "auth", "credentials", "credential", "token", "tokens", "access-token", "access_token", "accesstoken", "api-key", "api_key", "apikey",
		"secrets", "session-token", "refresh-token", "hosts":
		if stem == "hosts" && b != "hosts.yml" && b != "hosts.yaml" && b != "hosts.json" {
			return ""
		}
		return "a client's stored login"
	}
	if strings.HasSuffix(stem, "-token") || strings.HasSuffix(stem, "_token") || strings.HasSuffix(stem, "-credentials") || strings.HasSuffix(stem, "_credentials") ||
		strings.HasSuffix(stem, "_creds") || strings.HasSuffix(stem, "-creds") || strings.HasPrefix(stem, "oauth") {
		return "a client's stored login"
	}
	for _, f := range [...]string{".config/hcloud/", ".config/turso/", ".config/doctl/", ".config/linode-cli", ".oci/", ".bluemix/", ".fly/",
		".modal.toml", ".bunfig.toml", ".config/fish/fish_variables", ".pulumi/", ".config/netlify/", ".netlify/", ".railway/", ".config/neonctl/",
		".config/github-copilot/", ".config/configstore/", ".cloudflared/", ".wrangler/config/", ".config/.wrangler/", ".databrickscfg", ".snowflake/",
		".dbt/profiles.yml", ".config/snowflake/", ".contentfulrc.json", ".platformio/appstate.json", ".steam/steam/config/config.vdf",
		".steam/steam/ssfn", ".config/configstore/firebase-tools.json", ".config/algolia/", ".config/flyctl/", ".config/stripe/", ".config/sentry/",
		".sentryclirc", ".config/vercel/", ".config/heroku/", ".config/twilio-cli/", ".twilio-cli/", ".config/render/", ".supabase/access-token",
		".dogrc", ".gam/oauth2.txt", ".gam/client_secrets.json", ".gam/oauth2service.json",
		".sfdx/", ".sf/", ".config/pagerduty-cli/", ".pd.yml",
		// macOS keeps some of them under Library/Preferences
		"Library/Preferences/.wrangler/", "Library/Preferences/netlify/"} {
		if strings.HasPrefix(rel, f) || rel == strings.TrimSuffix(f, "/") {
			return "a client's tokens"
		}
	}
	return ""
}

// packageCaches are the directories of /var/cache where system package
// managers keep the packages they downloaded.
var packageCaches = map[string]bool{"apk": true, "apt": true, "yum": true, "dnf": true, "pacman": true, "zypp": true,
	"pkg": true, "xbps": true, "distfiles": true}

// gitBashWindowsWrite classifies a Windows system path as Git Bash and
// MSYS spell it (/c/Windows/..., /c/ProgramData/..., C:/...): the hosts
// file, the administrators' SSH keys, PowerShell profiles, the Startup
// folders and Windows itself.
func gitBashWindowsWrite(p string) wclass {
	l := strings.ToLower(strings.ReplaceAll(p, `\`, "/"))
	switch {
	case len(l) > 3 && l[0] == '/' && l[1] >= 'a' && l[1] <= 'z' && l[2] == '/':
		l = l[2:]
	case len(l) > 3 && l[0] == '/' && l[1] >= 'a' && l[1] <= 'z' && l[2] == ':':
		l = l[3:]
	case len(l) > 2 && l[0] >= 'a' && l[0] <= 'z' && l[1] == ':':
		l = l[2:]
	default:
		return wNone
	}
	switch {
	case strings.HasPrefix(l, "/windows/system32/drivers/etc/"):
		return wEtc
	case strings.HasSuffix(l, "/administrators_authorized_keys") || strings.HasPrefix(l, "/programdata/ssh/") && strings.HasSuffix(l, "authorized_keys"):
		return wAuthKeys
	case strings.HasPrefix(l, "/programdata/ssh/"):
		return wSSHDConfig
	case strings.Contains(l, "/start menu/programs/startup/"):
		return wService
	case strings.HasPrefix(l, "/users/") && (strings.Contains(l, "/documents/windowspowershell/") || strings.Contains(l, "/documents/powershell/")) && strings.HasSuffix(l, "profile.ps1"):
		return wShellRC
	case strings.HasPrefix(l, "/windows/"):
		return wSysBin
	}
	return wNone
}

// onlyVariables reports a path tail made only of unresolved variables,
// slashes and stars ("/$SUB/", "$u", "${name}/*"): it may expand to
// nothing at all.
func onlyVariables(t string) bool {
	seen := false
	for i := 0; i < len(t); {
		switch c := t[i]; {
		case c == '/' || c == '*':
			i++
		case c == '$' && i+1 < len(t) && t[i+1] == '{':
			j := strings.IndexByte(t[i:], '}')
			if j < 0 || strings.ContainsAny(t[i+2:i+j], ":-=?+#%/") {
				return false // ${X:-default} and friends are not empty
			}
			i += j + 1
			seen = true
		case c == '$' && i+1 < len(t) && t[i+1] == '(':
			// "$(jq -r .name package.json)": a command's output, empty
			// when it prints nothing
			depth, j := 0, i+1
			for ; j < len(t); j++ {
				if t[j] == '(' {
					depth++
				} else if t[j] == ')' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			if j == len(t) {
				return false
			}
			i = j + 1
			seen = true
		case c == '$':
			j := i + 1
			for j < len(t) && (t[j] == '_' || t[j] >= 'a' && t[j] <= 'z' || t[j] >= 'A' && t[j] <= 'Z' || t[j] >= '0' && t[j] <= '9') {
				j++
			}
			if j == i+1 {
				return false
			}
			i = j
			seen = true
		default:
			return false
		}
	}
	return seen
}

// pathComps appends the "/"-separated parts of p to buf, as strings.Split
// returns them; with buf backed by a caller's array, paths of up to its
// length cost no allocation (these run on every path a command names).
func pathComps(p string, buf []string) []string {
	for {
		i := strings.IndexByte(p, '/')
		if i < 0 {
			return append(buf, p)
		}
		buf = append(buf, p[:i])
		p = p[i+1:]
	}
}

// namedSSHKey reports a private key named for its use (sftp_id_ed25519,
// deploy-id_rsa): ssh-keygen's name behind a prefix.
func namedSSHKey(base string) bool {
	for _, k := range [...]string{"id_rsa", "id_ed25519", "id_ecdsa", "id_dsa"} {
		if len(base) > len(k)+1 && strings.HasSuffix(base, k) && strings.ContainsRune("_-.", rune(base[len(base)-len(k)-1])) {
			return true
		}
	}
	return false
}

// serviceSecretFile names a server program's own store of passwords or
// keys at its documented place (p and base lower case), or "".
func serviceSecretFile(p, base string) string {
	switch {
	case base == "authd.pass" && strings.Contains(p, "/ossec/"):
		return "the security agents' enrollment password"
	case (base == "secrets.tdb" || base == "passdb.tdb") && strings.Contains(p, "/samba/"):
		return "Samba's machine and account secrets"
	case base == "masterpw.info" || base == "users.xml" && strings.Contains(p, "/security/usergroup/"):
		return "GeoServer's master password or user store"
	case base == "publish.password":
		return "a streaming server's publishing passwords"
	case strings.Contains(p, "/config-store/security/"):
		return "ArcGIS Server's administrator credentials"
	case base == "splunk.secret" || strings.HasSuffix(p, "/etc/auth/passwd") && strings.Contains(p, "splunk"):
		return "Splunk's encryption key or password file"
	case strings.HasPrefix(base, "appsettings.production") && strings.HasSuffix(base, ".json"):
		return "a deployed app's production settings (connection strings, keys)"
	case strings.Contains(lower(p), "/security/rsecssfs/") || lower(base) == "secstore.properties" && strings.Contains(p, "/security/"):
		return "SAP's secure storage or its key (the database's and the systems' passwords)"
	}
	return ""
}

// passwordList reports a plain file named for the passwords or
// credentials it lists: passwords.txt, svc-passwords.csv, creds.xlsx.
func passwordList(base string) bool {
	l := lower(base)
	switch path.Ext(l) {
	case ".txt", ".csv", ".xlsx", ".xls", ".docx":
	default:
		return false
	}
	stem := strings.TrimSuffix(l, path.Ext(l))
	for _, w := range strings.FieldsFunc(stem, func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == ' ' }) {
		switch w {
		case "password", "passwords", "passwd", "pw", "pwds", "creds", "credentials", "logins":
			return true
		}
	}
	return false
}
