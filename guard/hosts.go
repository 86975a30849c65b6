package guard

import (
	"net"
	"net/netip"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
)

// --- network destinations ---

// hostOf returns the host of a URL, user@host:path or host:port string.
func hostOf(s string) string {
	if i := strings.Index(s, "://"); i > 0 {
		u, err := url.Parse(s)
		if err != nil {
			// https://api.x.com/v1/%EMP_ID%/...: a path the parser
			// refuses (a cmd variable, a template) still has its host
			rest := s[i+3:]
			if j := strings.IndexAny(rest, "/?#"); j >= 0 {
				rest = rest[:j]
			}
			if u, err = url.Parse(s[:i+3] + rest); err != nil {
				return ""
			}
		}
		return u.Hostname()
	}
	if i := strings.IndexByte(s, '@'); i >= 0 {
		s = s[i+1:]
	}
	if h, _, err := net.SplitHostPort(s); err == nil {
		return h
	}
	if i := strings.IndexByte(s, ':'); i > 0 {
		return s[:i]
	}
	if i := strings.IndexByte(s, '/'); i > 0 {
		return s[:i]
	}
	return s
}

// isPublicIP reports whether host is a literal IP address outside the
// loopback, private and link-local ranges: a bare address rather than a
// named service.
func isPublicIP(host string) bool {
	ip, ok := parseIP(host)
	return ok && !ip.IsLoopback() && !ip.IsPrivate() && !ip.IsLinkLocalUnicast() && !ip.IsUnspecified() && !ip.IsMulticast()
}

// parseIP parses a literal address ("[::1]" too) without allocating; most
// hosts are names, which the first byte rules out.
func parseIP(host string) (netip.Addr, bool) {
	host = strings.Trim(host, "[]")
	if host == "" || !(host[0] >= '0' && host[0] <= '9' || strings.IndexByte(host, ':') >= 0) {
		return netip.Addr{}, false
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}, false
	}
	return ip.Unmap(), true
}

// destinations returns the remote hosts a network command talks to.
func destinations(c *cmd) []string {
	args := c.args()
	var out []string
	switch c.name {
	case "nc", "telnet":
		ops := posArgs(args, optSpec{short: "psiwqIOTXxe", long: []string{"source", "source-port", "wait", "proxy", "exec", "sh-exec"}})
		if len(ops) > 0 {
			out = append(out, ops[0].s)
		}
	case "socat":
		for _, w := range args {
			l := lower(w.s)
			for _, p := range [...]string{"tcp:", "tcp4:", "tcp6:", "udp:", "openssl:", "ssl:", "sctp:"} {
				if strings.HasPrefix(l, p) {
					rest := w.s[len(p):]
					if i := strings.IndexByte(rest, ','); i >= 0 {
						rest = rest[:i]
					}
					out = append(out, hostOf(rest))
				}
			}
		}
	case "ssh", "scp", "sftp", "rsync":
		for _, w := range c.operands() {
			if strings.Contains(w.s, "@") || isRemoteSpec(w.s) {
				out = append(out, hostOf(w.s))
			}
		}
		if c.name == "ssh" {
			if ops := posArgs(args, optSpec{short: "BbcDEeFIiJLlmOoPpQRSWw"}); len(ops) > 0 {
				out = append(out, hostOf(ops[0].s))
			}
		}
	default:
		for _, w := range args {
			if strings.Contains(w.s, "://") {
				out = append(out, hostOf(w.s))
			} else if !strings.HasPrefix(w.s, "-") && w.s != "" && (w.s[0] >= '0' && w.s[0] <= '9' || w.s[0] == '[' || w.s[0] == ':' || strings.IndexByte(w.s, '@') >= 0) {
				if h := hostOf(w.s); h != "" {
					if _, ok := parseIP(h); ok {
						out = append(out, h)
					}
				}
			}
		}
	}
	return out
}

func toPublicIP(c *cmd) string {
	if c.pubIPDone {
		return c.pubIP
	}
	c.pubIPDone = true
	for _, h := range destinations(c) {
		if isPublicIP(h) {
			c.pubIP = h
			break
		}
	}
	return c.pubIP
}

// isProdName reports whether a name looks like a production environment.
func isProdName(s string) bool {
	return mayNameProd(s) && prodWords(strings.ToLower(s))
}

// prodWords reports a lowered name holding a word of production's.
func prodWords(l string) bool {
	if !strings.Contains(l, "prod") && !strings.Contains(l, "prd") && !strings.Contains(l, "live") {
		return false
	}
	toks := strings.FieldsFunc(l, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') })
	for i, t := range toks {
		if n := strings.TrimRight(t, "0123456789"); n != "" {
			t = n // sqlprod01, prod2: an instance's number
		}
		switch {
		case t == "live" && slices.ContainsFunc(toks[i+1:], func(e string) bool { return nonProdEnv[e] }):
			// live/sandbox/pr-42: terragrunt's tree of every deployed
			// environment, here a sandbox's
		case t == "prod" || t == "production" || t == "prd" || t == "live":
			return true
		case strings.HasPrefix(t, "prod") && !strings.HasPrefix(t, "produc"):
			return true
		case strings.HasSuffix(t, "prod") && len(t) > 4 && !strings.HasPrefix(t, "non") && !strings.HasPrefix(t, "pre"):
			return true // (nonprod, preprod: the environments before it)
		case strings.HasSuffix(t, "prd") && len(t) > 3 && !strings.HasPrefix(t, "non") && !strings.HasPrefix(t, "pre"):
			return true // SAP's and Oracle's system ids: EBSPRD, hanaprd01, sapprd-ci
		}
	}
	return false
}

// nonProdEnv are the names of environments before or beside production.
var nonProdEnv = map[string]bool{"sandbox": true, "dev": true, "development": true, "staging": true, "stage": true, "test": true, "testing": true,
	"qa": true, "ephemeral": true, "preview": true, "scratch": true, "demo": true, "nonprod": true}

// mayNameProd is isProdName's first look, without lowering s: whether
// it holds a P followed by R, or an L followed by I, in either case (or
// any byte outside ASCII, which lowering might turn into one). Most
// words hold neither, and this was a tenth of the rules' lowering.
func mayNameProd(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		switch s[i] | 0x20 {
		case 'p':
			if s[i+1]|0x20 == 'r' {
				return true
			}
		case 'l':
			if s[i+1]|0x20 == 'i' {
				return true
			}
		}
		if s[i] >= 0x80 || s[i+1] >= 0x80 {
			return true
		}
	}
	return false
}

// touchesProduction reports whether a command names a production
// environment: a resource, namespace, bucket or RAILS_ENV=production.
func touchesProduction(c *cmd) bool {
	for _, as := range c.assigns {
		if strings.HasSuffix(as.name, "_ENV") || as.name == "ENV" || as.name == "ENVIRONMENT" || strings.HasSuffix(as.name, "SETTINGS_MODULE") || connectionVar(as.name) {
			if isProdName(as.val.s) {
				return true
			}
		}
	}
	for _, w := range c.args() {
		if isProdName(w.s) {
			return true
		}
	}
	for _, w := range c.wrappers {
		// railway run --environment production -- ..., doppler run
		// --config prd -- ...: production's settings loaded around it
		if isProdName(w) {
			return true
		}
	}
	return false
}

// connectionVar reports a variable naming the server a client connects
// to: PGHOST, MYSQL_HOST, DATABASE_URL, REDIS_URL, KUBECONFIG.
func connectionVar(name string) bool {
	return strings.HasSuffix(name, "HOST") || strings.HasSuffix(name, "_URL") || strings.HasSuffix(name, "_URI") || strings.HasSuffix(name, "_ADDR") || strings.HasSuffix(name, "_CONN") ||
		name == "PGDATABASE" || name == "PGSERVICE" || name == "KUBECONFIG"
}

// coreCommands are system utilities nobody legitimately replaces.
var coreCommands = map[string]bool{
	"ls": true, "cat": true, "cp": true, "mv": true, "rm": true, "sudo": true, "su": true, "ssh": true, "scp": true,
	"ps": true, "top": true, "kill": true, "grep": true, "find": true, "sed": true, "awk": true, "tar": true, "passwd": true,
	"login": true, "id": true, "whoami": true, "chmod": true, "chown": true, "mount": true, "which": true, "env": true,
	"bash": true, "sh": true, "zsh": true, "less": true, "head": true, "tail": true, "date": true, "uname": true,
	"systemctl": true, "ssh-add": true, "ssh-keygen": true, "gpg": true, "openssl": true, "netstat": true, "ss": true, "lsof": true,
}

var commonCommands = map[string]bool{
	"ls": true, "cat": true, "cp": true, "mv": true, "rm": true, "sudo": true, "su": true, "ssh": true, "scp": true, "git": true,
	"curl": true, "wget": true, "python": true, "python3": true, "pip": true, "pip3": true, "node": true, "npm": true, "npx": true,
	"bash": true, "sh": true, "zsh": true, "ps": true, "top": true, "kill": true, "grep": true, "find": true, "sed": true, "awk": true,
	"tar": true, "openssl": true, "gpg": true, "passwd": true, "login": true, "docker": true, "kubectl": true, "make": true, "go": true,
	"java": true, "which": true, "env": true, "id": true, "whoami": true, "chmod": true, "chown": true, "mount": true, "systemctl": true,
	"apt": true, "apt-get": true, "yum": true, "dnf": true, "brew": true, "ssh-add": true, "ssh-keygen": true, "less": true, "vi": true,
	"vim": true, "nano": true, "head": true, "tail": true, "date": true, "uname": true, "aws": true, "gcloud": true, "az": true,
	"terraform": true, "cargo": true, "rustc": true, "gcc": true, "cc": true, "ld": true, "yarn": true, "pnpm": true, "code": true, "gh": true,
}

// isPathShadow reports whether p puts a common command name into a
// directory that comes first on PATH.
func (a *analysis) isPathShadow(p string) bool {
	dir, base := path.Split(p)
	dir = strings.TrimSuffix(dir, "/")
	if !commonCommands[base] {
		return false
	}
	if rel, mine, ok := a.homeRel(dir); ok && mine {
		switch rel {
		case ".local/bin", "bin", ".bin":
			return true
		}
		return false
	}
	switch dir {
	case "/usr/local/bin", "/usr/local/sbin", "/opt/homebrew/bin":
		// where tools shipped as one binary (kubectl, terraform, gh) are
		// installed under their own name; a system utility there hides
		// the real one
		return coreCommands[base]
	}
	return false
}

// isGitHook reports whether p is a git hook.
// ownHook reports a project installing one of its own hooks: a copy of,
// or a link to, a file of the work directory into the work directory's
// repository.
func (a *analysis) ownHook(c *cmd, t writeTarget) bool {
	if t.content.kind == flowText && t.path != "" && a.inWork(t.path) && strings.Contains(t.path, "/.git/hooks/") {
		// printf '#!/bin/sh\nnpm run lint\n' > .git/hooks/pre-commit:
		// the project's own checks, written out
		return projectTasksOnly(t.content.text)
	}
	if t.content.kind != flowLocal || t.content.what == "" || t.path == "" || !a.inWork(t.path) {
		return false
	}
	src := t.content.what
	if c.name == "ln" && !strings.HasPrefix(src, "/") {
		src = path.Dir(t.path) + "/" + src // relative to the link
	}
	p := a.absPath(src, c.cwd)
	return p != "" && a.inWork(p) && !strings.Contains(p, "/.git/hooks/")
}

// projectTasksOnly reports hook text that only runs the project's own
// checks through its build tools (npm run lint, make test, cargo fmt
// --check, npx lint-staged, pre-commit run), with nothing fetched,
// decoded, substituted or deleted.
func projectTasksOnly(text string) bool {
	if text == "" || hasAny(lower(text), "curl", "wget", "http:", "https:", "/dev/tcp", "base64", "eval", "ssh", "scp", "$(", "`", "rm ", "nc ", "python -c", "bash -c", "sh -c", "|") {
		return false
	}
	runs := 0
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") || line == "set -e" || line == "set -eu" || strings.HasPrefix(line, "exit") {
			continue
		}
		for _, part := range strings.Split(line, "&&") {
			f := strings.Fields(part)
			if len(f) == 0 {
				continue
			}
			if f[0] == "exec" && len(f) > 1 {
				f = f[1:]
			}
			switch f[0] {
			case "npm", "npx", "pnpm", "yarn", "bun", "make", "just", "task", "go", "cargo", "pytest", "ruff", "black", "eslint", "prettier", "tox", "nox",
				"mvn", "gradle", "./gradlew", "./mvnw", "dotnet", "composer", "mix", "pre-commit", "lint-staged", "golangci-lint", "gofmt", "rubocop", "mypy", "flake8":
				runs++
			case "bundle", "poetry", "uv":
				if len(f) > 1 && (f[1] == "exec" || f[1] == "run") {
					runs++
					continue
				}
				return false
			default:
				return false
			}
		}
	}
	return runs > 0
}

func isGitHook(p string) bool {
	// the template directory's hooks are copied into every repository
	// git init or git clone makes from then on
	return strings.Contains(p, "/.git/hooks/") || strings.HasPrefix(p, ".git/hooks/") ||
		strings.Contains(p, ".git/hooks/") && !strings.Contains(p, "/.git/") || // a bare repository's: X.git/hooks/post-receive
		strings.Contains(p, "/git-core/templates/hooks/") || strings.Contains(p, "/.git-templates/hooks/") || strings.Contains(p, "/.git_template/hooks/")
}

// gitConfigSet returns the key and value of "git config [scope] KEY VALUE".
func gitConfigSet(c *cmd) (string, string, bool) {
	sub, args := gitSub(c)
	if sub != "config" {
		return "", "", false
	}
	ops := posArgs(args, optSpec{short: "f", long: []string{"file", "blob", "type", "default"}})
	for _, w := range args {
		switch w.s {
		case "--get", "--get-all", "--list", "-l", "--unset", "--unset-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool", "--remove-section", "--rename-section":
			return "", "", false
		}
	}
	if len(ops) < 2 {
		return "", "", false
	}
	return strings.ToLower(ops[0].s), ops[1].s, true
}

// gitConfigUserWide reports a git config command that writes the
// settings of every repository: --global, --system, or --file naming
// the user's or the system's own file (~/.gitconfig, /etc/gitconfig).
func (a *analysis) gitConfigUserWide(c *cmd) bool {
	_, args := gitSub(c)
	if hasWord(args, "--global") || hasWord(args, "--system") {
		return true
	}
	f, ok := optValue(args, "f", "file")
	if !ok {
		return false
	}
	p := a.absPath(f, c.cwd)
	if p == "/etc/gitconfig" {
		return true
	}
	rel, _, home := a.homeRel(p)
	return home && (rel == ".gitconfig" || rel == ".config/git/config")
}

// gitCommandKeys are git settings whose values are commands git runs.
func gitCommandKey(k string) bool {
	switch k {
	case "core.pager", "core.editor", "core.sshcommand", "core.fsmonitor", "core.askpass", "sequence.editor", "diff.external",
		"credential.helper", "gpg.program", "pager.log", "pager.diff", "pager.show", "interactive.difffilter", "core.gitproxy":
		return true
	}
	if strings.HasPrefix(k, "alias.") || strings.HasPrefix(k, "filter.") || strings.HasPrefix(k, "merge.") && strings.HasSuffix(k, ".driver") ||
		strings.HasPrefix(k, "diff.") && strings.HasSuffix(k, ".textconv") || strings.HasPrefix(k, "difftool.") || strings.HasPrefix(k, "mergetool.") {
		return true
	}
	return false
}

// urlArgs returns the URL-like arguments of a command, including option
// values such as --index-url=URL.
func urlArgs(args []word) []string {
	var out []string
	for _, w := range args {
		s := w.s
		if i := strings.IndexByte(s, '='); i > 0 && strings.HasPrefix(s, "--") {
			s = s[i+1:]
		}
		s = strings.TrimPrefix(s, "git+")
		if strings.Contains(s, "://") {
			out = append(out, s)
		}
	}
	return out
}

func isLocalHost(h string) bool {
	if h == "localhost" || strings.HasSuffix(h, ".localhost") || strings.HasSuffix(h, ".local") || h == "host.docker.internal" {
		return true
	}
	ip, ok := parseIP(h)
	return ok && (ip.IsLoopback() || ip.IsPrivate())
}

// developerNetwork reports a host an API call that deletes or changes
// things may reach as the developer's own: this machine, or a private
// address of its network. A .local name (pacs.hosp.local) is another
// machine of the site, with its data.
func developerNetwork(h string) bool {
	return isLocalHost(h) && !strings.HasSuffix(h, ".local")
}

// parseSize reads sizes such as 500G, 10M, 2T.
func parseSize(s string) int64 {
	s = strings.TrimSpace(strings.ToUpper(s))
	s = strings.TrimSuffix(strings.TrimSuffix(s, "B"), "I")
	mult := int64(1)
	if s != "" {
		switch s[len(s)-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		case 'P':
			mult = 1 << 50
		}
		if mult > 1 {
			s = s[:len(s)-1]
		}
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0
	}
	return int64(n * float64(mult))
}

// forkBombText reports fork() in an endless loop in source text.
func forkBombText(low string) bool {
	return endlessSpawn("", low) != ""
}

// localHostsEntries reports hosts-file text whose every entry maps this
// machine's loopback address to names only a local network resolves
// (app.local, api.test, db.localhost, a single label): a developer's
// local domain, never a public name sent elsewhere.
func localHostsEntries(text string) bool {
	any := false
	for _, line := range strings.Split(strings.ReplaceAll(text, `\n`, "\n"), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		ip, ok := parseIP(f[0])
		if !ok || !ip.IsLoopback() || len(f) < 2 {
			return false
		}
		for _, name := range f[1:] {
			if strings.HasPrefix(name, "#") {
				break
			}
			if !localOnlyName(name) {
				return false
			}
		}
		any = true
	}
	return any
}

// localOnlyName reports a host name no public resolver answers: a single
// label or one under a domain reserved for local use.
func localOnlyName(name string) bool {
	l := strings.ToLower(strings.TrimSuffix(name, "."))
	if !strings.Contains(l, ".") {
		return l != "" && l != "localhost"
	}
	for _, tld := range [...]string{".local", ".test", ".localhost", ".lan", ".home.arpa", ".internal.test", ".invalid"} {
		if strings.HasSuffix(l, tld) {
			return true
		}
	}
	// api.local.example.com, app.dev.example.com: a development name
	// under the project's own domain
	labels := strings.Split(l, ".")
	for _, lb := range labels[:len(labels)-2] {
		if lb == "local" || lb == "dev" || lb == "localdev" {
			return true
		}
	}
	return false
}

// hashiRemoteServer reports a consul, nomad or vault command given the
// address of a server that is not on this machine.
func (a *analysis) hashiRemoteServer(c *cmd) bool {
	return a.hashiAddr(c) != "" && !a.hashiLocalServer(c)
}

// hashiLocalServer reports a consul or vault command aimed at a server on
// this machine (-http-addr, -address, CONSUL_HTTP_ADDR, VAULT_ADDR).
func (a *analysis) hashiLocalServer(c *cmd) bool {
	addr := a.hashiAddr(c)
	if addr == "" {
		return false
	}
	h := hostOf(addr)
	if h == "" {
		h, _, _ = strings.Cut(addr, ":")
	}
	return loopback(lower(h))
}

// hashiAddr returns the server address a consul, nomad or vault command is
// given (-http-addr, -address, CONSUL_HTTP_ADDR, NOMAD_ADDR, VAULT_ADDR).
func (a *analysis) hashiAddr(c *cmd) string {
	addr := ""
	args := c.args()
	for i, w := range args {
		// Go's flag package: -http-addr V, -http-addr=V, --address=V
		k, v, eq := strings.Cut(strings.TrimLeft(w.s, "-"), "=")
		if !strings.HasPrefix(w.s, "-") || k != "http-addr" && (k != "address" || c.name == "consul") { // (consul's -address names a peer)
			continue
		}
		if !eq && i+1 < len(args) {
			v = args[i+1].s
		}
		addr = v
	}
	if addr != "" {
		return addr
	}
	for _, env := range [...]string{"CONSUL_HTTP_ADDR", "NOMAD_ADDR", "VAULT_ADDR"} {
		if v, ok := a.envOf(c, env); ok {
			return v
		}
	}
	return ""
}

// stagingHost reports a host named for staging, tests or development
// (web01.staging.corp, web-stage-01, api-qa, uat.example.com).
func stagingHost(h string) bool {
	for _, w := range nameWords(lower(h)) {
		switch w {
		case "staging", "stage", "stg", "qa", "uat", "dev", "test", "sandbox", "preview":
			return true
		}
	}
	return false
}
