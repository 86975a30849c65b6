package guard

import (
	"net"
	"net/url"
	"path"
	"strconv"
	"strings"
)

// --- network destinations ---

// hostOf returns the host of a URL, user@host:path or host:port string.
func hostOf(s string) string {
	if i := strings.Index(s, "://"); i > 0 {
		u, err := url.Parse(s)
		if err != nil {
			return ""
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
	ip := net.ParseIP(strings.Trim(host, "[]"))
	if ip == nil {
		return false
	}
	return !ip.IsLoopback() && !ip.IsPrivate() && !ip.IsLinkLocalUnicast() && !ip.IsUnspecified() && !ip.IsMulticast()
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
		for _, w := range positional(args) {
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
			} else if !strings.HasPrefix(w.s, "-") && net.ParseIP(hostOf(w.s)) != nil {
				out = append(out, hostOf(w.s))
			}
		}
	}
	return out
}

func toPublicIP(c *cmd) string {
	for _, h := range destinations(c) {
		if isPublicIP(h) {
			return h
		}
	}
	return ""
}

// isProdName reports whether a name looks like a production environment.
func isProdName(s string) bool {
	l := strings.ToLower(s)
	if !strings.Contains(l, "prod") && !strings.Contains(l, "prd") && !strings.Contains(l, "live") {
		return false
	}
	for _, t := range strings.FieldsFunc(l, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
		switch {
		case t == "prod" || t == "production" || t == "prd" || t == "live":
			return true
		case strings.HasPrefix(t, "prod") && !strings.HasPrefix(t, "produc"):
			return true
		case strings.HasSuffix(t, "prod") && len(t) > 4:
			return true
		}
	}
	return false
}

// touchesProduction reports whether a command names a production
// environment: a resource, namespace, bucket or RAILS_ENV=production.
func touchesProduction(c *cmd) bool {
	for _, as := range c.assigns {
		if strings.HasSuffix(as.name, "_ENV") || as.name == "ENV" || as.name == "ENVIRONMENT" {
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
	return false
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
		return true
	}
	return false
}

// isGitHook reports whether p is a git hook.
// ownHook reports a project installing one of its own hooks: a copy of,
// or a link to, a file of the work directory into the work directory's
// repository.
func (a *analysis) ownHook(c *cmd, t writeTarget) bool {
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

func isGitHook(p string) bool {
	return strings.Contains(p, "/.git/hooks/") || strings.HasPrefix(p, ".git/hooks/")
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
		case "--get", "--get-all", "--list", "-l", "--unset", "--unset-all", "--get-regexp", "--remove-section", "--rename-section":
			return "", "", false
		}
	}
	if len(ops) < 2 {
		return "", "", false
	}
	return strings.ToLower(ops[0].s), ops[1].s, true
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
	ip := net.ParseIP(h)
	return ip != nil && (ip.IsLoopback() || ip.IsPrivate())
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

var extraRules = []*rule{
	// --- containers, clusters, VMs ---
	{ID: "k8s-delete-production", prodAware: true, Level: LevelHigh, Category: CategoryContainerDestroy, Description: "deleting workloads or data in a production namespace",
		Suggestions: []string{"Roll out changes through the deployment pipeline", "Scale or restart instead of deleting", "Confirm the namespace and resources by hand"}, names: names("kubectl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ns, kinds, _, _, _, ok := kubectlDelete(c)
			if !ok {
				return false, ""
			}
			ctx, _ := optValue(c.args(), "", "context")
			if !isProdName(ns) && !isProdName(ctx) {
				return false, ""
			}
			for _, k := range kinds {
				switch strings.ToLower(k) {
				case "pod", "pods", "po", "job", "jobs", "event", "events", "ev", "":
					continue
				}
				return true, ns + " " + k
			}
			return false, ""
		}},
	{ID: "k8s-scale-to-zero", prodAware: true, Level: LevelHigh, Category: CategoryContainerDestroy, Description: "scaling every workload to zero replicas",
		Suggestions: []string{"Scale a specific deployment", "Use the deployment pipeline for production changes"}, names: names("kubectl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, _ := subcommand(c.args(), kubectlGlobal)
			if sub != "scale" {
				return false, ""
			}
			zero := hasWord(c.args(), "--replicas=0") || hasWord(c.args(), "--replicas") && hasWord(c.args(), "0")
			all := hasWord(c.args(), "--all") || hasWord(c.args(), "-A") || hasWord(c.args(), "--all-namespaces")
			ns, _ := optValue(c.args(), "-n", "namespace")
			return zero && (all || isProdName(ns)), ns
		}},
	{ID: "k8s-drain", Level: LevelModerate, Category: CategoryContainerDestroy, Description: "draining a node (evicts every pod on it)",
		Suggestions: []string{"Cordon the node first and drain during a maintenance window", "Check PodDisruptionBudgets"}, names: names("kubectl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, _ := subcommand(c.args(), kubectlGlobal)
			return sub == "drain", ""
		}},
	{ID: "helm-uninstall-production", prodAware: true, Level: LevelHigh, Category: CategoryContainerDestroy, Description: "uninstalling a production release",
		Suggestions: []string{"Roll back instead (helm rollback)", "Uninstall by hand after confirming the release"}, names: names("helm"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := positional(args)
			if len(ops) == 0 || !(ops[0].s == "uninstall" || ops[0].s == "delete" || ops[0].s == "del" || ops[0].s == "un") {
				return false, ""
			}
			ns, _ := optValue(args, "-n", "namespace")
			ctx, _ := optValue(args, "", "kube-context")
			if isProdName(ns) || isProdName(ctx) {
				return true, ns
			}
			for _, w := range ops[1:] {
				if isProdName(w.s) {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "vm-destroy", prodAware: true, Level: LevelHigh, Category: CategoryContainerDestroy, Description: "deleting a virtual machine or system container with its storage",
		Suggestions: []string{"Stop the instance instead", "Snapshot it before deleting"}, names: names("virsh", "lxc", "incus", "vagrant", "multipass", "VBoxManage"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := positional(args)
			if len(ops) == 0 {
				return false, ""
			}
			switch c.name {
			case "virsh":
				return ops[0].s == "undefine" && (hasPrefixWord(args, "--remove-all-storage") || hasPrefixWord(args, "--storage") || hasWord(args, "--wipe-storage")), ""
			case "lxc", "incus":
				return ops[0].s == "delete" && (hasWord(args, "--force") || hasWord(args, "-f") || len(ops) > 1 && isProdName(ops[1].s)), ""
			case "vagrant":
				return ops[0].s == "destroy" && (hasWord(args, "-f") || hasWord(args, "--force")) && len(ops) > 1 && isProdName(ops[1].s), ""
			case "multipass":
				return ops[0].s == "delete" && (hasWord(args, "--purge") || hasWord(args, "-p")) && (hasWord(args, "--all") || len(ops) > 1 && isProdName(ops[1].s)), ""
			case "VBoxManage":
				return ops[0].s == "unregistervm" && hasWord(args, "--delete"), ""
			}
			return false, ""
		}},
	{ID: "vm-power-off", Level: LevelModerate, Category: CategoryContainerDestroy, Description: "forcing a virtual machine off",
		Suggestions: []string{"Shut the guest down cleanly (virsh shutdown)"}, names: names("virsh"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := positional(c.args())
			return len(ops) > 0 && (ops[0].s == "destroy" || ops[0].s == "undefine"), ""
		}},
	{ID: "docker-container-prune", Level: LevelModerate, Category: CategoryContainerDestroy, Description: "removing every stopped container",
		Suggestions: suggContainer, names: names("docker"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, _ := dockerSub(c)
			return sub == "container prune", ""
		}},

	// --- databases ---
	{ID: "db-drop-object", Level: LevelModerate, Category: CategoryDatabaseDestroy, Description: "dropping a database index, view, function or role",
		Suggestions: suggDB, names: dbClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			if s := a.scanSQLOf(c); s != nil && s.dropMinor != "" {
				return true, s.dropMinor
			}
			return false, ""
		}},
	{ID: "db-delete-all-keys", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "deleting every key of a key-value store",
		Suggestions: []string{"Delete keys by a narrow pattern after listing them", "Back the data up first"}, names: names("redis-cli", "valkey-cli", "etcdctl", "consul"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "etcdctl":
				ops := positional(args)
				if len(ops) >= 1 && (ops[0].s == "del" || ops[0].s == "delete") {
					if (hasWord(args, "--prefix") || hasWord(args, "--from-key")) && (len(ops) == 1 || ops[1].s == "" || ops[1].s == "/") {
						return true, "etcd keys"
					}
				}
			case "consul":
				return len(args) > 2 && args[0].s == "kv" && args[1].s == "delete" && hasWord(args, "-recurse"), "consul keys"
			default:
				if hasWord(args, "DEL") || hasWord(args, "del") || hasWord(args, "UNLINK") || hasWord(args, "unlink") {
					if wordFlowList(args, "redis-keys") {
						return true, "every redis key"
					}
				}
			}
			return false, ""
		}},
	{ID: "http-delete-all", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "an HTTP DELETE of every index or collection",
		Suggestions: []string{"Delete a single named index", "Snapshot the cluster first"}, names: names("curl", "http", "https", "xh", "wget"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			del := false
			if v, ok := optValue(args, "-X", "request"); ok && strings.EqualFold(v, "DELETE") {
				del = true
			}
			if hasWord(args, "-XDELETE") || hasWord(args, "DELETE") || hasWord(args, "--method=DELETE") {
				del = true
			}
			if !del {
				return false, ""
			}
			for _, u := range urlArgs(args) {
				pu, err := url.Parse(u)
				if err != nil {
					continue
				}
				p := pu.Path
				if p == "/_all" || p == "/*" || strings.HasSuffix(p, "/_all") || strings.HasPrefix(p, "/_all/") || strings.HasPrefix(p, "/*/") || p == "/_data_stream/*" {
					return true, u
				}
			}
			return false, ""
		}},

	// --- exfiltration ---
	{ID: "exfil-archive", Level: LevelHigh, Category: CategoryExfiltration, Description: "sending an archive of a whole directory over a raw connection",
		Suggestions: suggExfil, names: names("nc", "socat", "telnet", "curl", "wget", "ftp", "openssl", "http", "https", "xh"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.in.tree && sendsStdin(c) {
				return true, c.in.what
			}
			return false, ""
		}},
	{ID: "exfil-git-push", Level: LevelHigh, Category: CategoryExfiltration, Description: "pushing the repository to a bare IP address",
		Suggestions: []string{"Push only to the project's known remotes", "Check the remote URL with git remote -v"}, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			if sub != "push" {
				return false, ""
			}
			ops := positional(args)
			if len(ops) == 0 {
				return false, ""
			}
			remote := ops[0].s
			if u, ok := a.gitRemotes[remote]; ok {
				remote = u
			}
			if isPublicIP(hostOf(remote)) {
				return true, remote
			}
			return false, ""
		}},
	{ID: "exfil-raw-ip", Level: LevelModerate, Category: CategoryExfiltration, Description: "sending local files or data to a bare IP address",
		Suggestions: suggExfil, names: netSinks,
		match: func(a *analysis, c *cmd) (bool, string) {
			switch c.name {
			case "scp", "rsync", "sftp", "ssh", "rclone":
				return false, "" // authenticated copies to one's own hosts
			}
			ip := toPublicIP(c)
			if ip == "" {
				return false, ""
			}
			if len(uploadedFiles(c)) > 0 {
				return true, ip
			}
			if sendsStdin(c) {
				switch c.in.kind {
				case flowLocal, flowUnknown, flowPaths, flowSecret, flowList:
					return true, ip
				}
			}
			for _, w := range c.args() {
				if !w.ok && secretVarIn(w.s) != "" {
					return true, ip
				}
			}
			return false, ""
		}},
	{ID: "exfil-secret-var-ip", Level: LevelCritical, Category: CategoryExfiltration, Description: "sending a secret variable to a bare IP address",
		Suggestions: suggExfil, names: netSinks,
		match: func(a *analysis, c *cmd) (bool, string) {
			ip := toPublicIP(c)
			if ip == "" {
				return false, ""
			}
			for _, w := range c.args() {
				if !w.ok {
					if n := secretVarIn(w.s); n != "" {
						return true, "$" + n + " → " + ip
					}
				}
			}
			return false, ""
		}},

	// --- remote code, reverse tunnels ---
	{ID: "package-untrusted-source", Level: LevelHigh, Category: CategoryRemoteExec, Description: "installing a package (and running its install scripts) from a bare IP or plain HTTP",
		Suggestions: []string{"Install from the official registry over HTTPS", "Download, verify and inspect the package first"},
		names:       names("pip", "pip3", "pipx", "uv", "npm", "yarn", "pnpm", "gem", "cargo", "go", "composer", "bun"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if !hasWord(args, "install") && !hasWord(args, "add") && !hasWord(args, "i") && !hasWord(args, "get") {
				return false, ""
			}
			for _, u := range urlArgs(args) {
				h := hostOf(u)
				if isPublicIP(h) || strings.HasPrefix(u, "http://") && !isLocalHost(h) {
					return true, u
				}
			}
			return false, ""
		}},
	{ID: "ssh-reverse-tunnel", Level: LevelHigh, Category: CategoryReverseShell, Description: "a reverse SSH tunnel exposing this machine",
		Suggestions: []string{"Use a local forward (-L) to reach remote services", "Do not expose local ports to remote hosts"}, names: names("ssh", "autossh"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			spec, ok := optValue(args, "-R", "")
			if !ok {
				return false, ""
			}
			if strings.HasSuffix(spec, ":22") || toPublicIP(c) != "" || strings.HasPrefix(spec, "0.0.0.0:") {
				return true, spec
			}
			return false, ""
		}},

	// --- persistence ---
	{ID: "write-git-hook", Level: LevelHigh, Category: CategoryPersistence, Description: "installing a git hook (runs on every git operation)",
		Suggestions: []string{"Keep hooks in the repository (e.g. .githooks) and let the user enable them", "Run the script explicitly instead"}, writes: true,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, t := range a.writeTargets(c) {
				if t.class == wGitHook && !a.ownHook(c, t) {
					return true, t.raw
				}
			}
			return false, ""
		}},
	writeRule("path-shadow-command", LevelHigh, CategoryPersistence, "placing a program named like a system command first on PATH",
		[]string{"Give the program its own name", "Install it into the project (./bin) instead"}, false, wPathShadow),
	{ID: "git-hooks-path", Level: LevelHigh, Category: CategoryPersistence, Description: "pointing git hooks at a directory outside the repository",
		Suggestions: []string{"Keep hooks inside the repository (core.hooksPath .githooks)", "Review hooks before enabling them"}, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			k, v, ok := gitConfigSet(c)
			if !ok || k != "core.hookspath" {
				return false, ""
			}
			p := a.absPath(v, c.cwd)
			if p == "" || a.inWork(p) {
				return false, ""
			}
			return !strings.HasPrefix(v, ".") || !a.inWork(p), v
		}},
	{ID: "systemd-enable-file", Level: LevelModerate, Category: CategoryPersistence, Description: "enabling a service from a unit file outside the system",
		Suggestions: []string{"Install unit files through a reviewed package or configuration", "Run the program in the foreground instead"}, names: names("systemctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := positional(c.args())
			if len(ops) < 2 || ops[0].s != "enable" && ops[0].s != "link" {
				return false, ""
			}
			for _, w := range ops[1:] {
				if strings.Contains(w.s, "/") {
					return true, w.s
				}
			}
			return false, ""
		}},

	// --- fork bombs ---
	{ID: "fork-bomb-source", Level: LevelHigh, Category: CategoryForkBomb, Description: "writing fork-bomb code to a file",
		Suggestions: []string{"Do not create fork bombs", "Bound the number of processes"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.redirs) == 0 && c.name != "tee" {
				return false, ""
			}
			for _, t := range a.writeTargets(c) {
				if t.content.kind == flowText && forkBombText(strings.ToLower(t.content.text)) {
					return true, t.raw
				}
			}
			return false, ""
		}},
	{ID: "mass-spawn", Level: LevelModerate, Category: CategoryForkBomb, Description: "starting thousands of processes at once",
		Suggestions: []string{"Bound the parallelism (xargs -P 8)", "Use a job queue"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.synthetic == "spawn" {
				return true, ""
			}
			if !c.xargs && c.name != "parallel" {
				return false, ""
			}
			ws := c.words
			if c.xargs {
				ws = nil
				for _, w := range c.wrappers {
					for _, f := range strings.Fields(w) {
						ws = append(ws, lit(f))
					}
				}
			}
			for i, w := range ws {
				if w.s == "-P0" || w.s == "--max-procs=0" || w.s == "--jobs=0" {
					return true, w.s
				}
				if (w.s == "-P" || w.s == "--max-procs" || w.s == "-j" || w.s == "--jobs") && i+1 < len(ws) && ws[i+1].s == "0" {
					return true, "unbounded"
				}
			}
			return false, ""
		}},

	// --- system ---
	{ID: "kernel-module-load", Level: LevelHigh, Category: CategorySystem, Description: "loading a kernel module from a file",
		Suggestions: []string{"Load only modules shipped with the kernel (modprobe NAME)", "Let an administrator install kernel modules"}, names: names("insmod", "modprobe", "kldload", "kextload"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := positional(c.args())
			if c.name == "insmod" || c.name == "kextload" {
				return len(ops) > 0, ""
			}
			for _, w := range ops {
				if strings.HasSuffix(w.s, ".ko") || strings.Contains(w.s, "/") {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "remount-system", Level: LevelHigh, Category: CategorySystem, Description: "remounting or unmounting system filesystems",
		Suggestions: []string{"Leave system mounts alone", "Mount scratch filesystems under /mnt instead"}, names: names("mount", "umount"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if c.name == "umount" {
				if hasWord(args, "-a") || hasWord(args, "--all") {
					return true, "-a"
				}
				for _, w := range positional(args) {
					if p := a.absPath(w.s, c.cwd); p == "/" || p == "/usr" || p == "/boot" || p == "/home" || p == "/var" || p == "/proc" || p == "/sys" || p == "/dev" {
						return true, p
					}
				}
				return false, ""
			}
			o, _ := optValue(args, "-o", "options")
			if !strings.Contains(o, "remount") {
				return false, ""
			}
			for _, w := range positional(args) {
				if p := a.absPath(w.s, c.cwd); p == "/" || p == "/usr" || p == "/boot" || p == "/home" || p == "/var" || p == "/etc" {
					return true, p
				}
			}
			return false, ""
		}},
	{ID: "system-settings", Level: LevelModerate, Category: CategorySystem, Description: "changing the system clock, host name or boot target",
		Suggestions: []string{"Leave machine-wide settings to an administrator"}, names: names("timedatectl", "date", "hostnamectl", "hostname", "systemctl", "hwclock", "scutil"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := positional(args)
			switch c.name {
			case "timedatectl":
				return len(ops) > 0 && (ops[0].s == "set-time" || ops[0].s == "set-timezone" || ops[0].s == "set-ntp"), ops[0].s
			case "date":
				return hasWord(args, "-s") || hasPrefixWord(args, "--set"), "date -s"
			case "hostnamectl":
				return len(ops) > 0 && (ops[0].s == "set-hostname" || ops[0].s == "hostname") && len(ops) > 1, "hostname"
			case "hostname":
				return len(ops) == 1 && !strings.HasPrefix(ops[0].s, "-") && (c.asRoot || len(c.wrappers) > 0), "hostname"
			case "systemctl":
				return len(ops) > 0 && ops[0].s == "set-default", "default target"
			case "hwclock":
				return hasWord(args, "--set") || hasWord(args, "-w") || hasWord(args, "--systohc"), ""
			case "scutil":
				return hasWord(args, "--set"), ""
			}
			return false, ""
		}},
	{ID: "disk-fill", Level: LevelModerate, Category: CategoryDiskWipe, Description: "filling the disk",
		Suggestions: []string{"Limit the size (dd count=, fallocate -l 10M)", "Write test files into the project directory"}, names: names("dd", "fallocate", "truncate", "yes", "cat"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "dd":
				src := ""
				dst := ""
				hasCount := false
				for _, w := range args {
					switch {
					case strings.HasPrefix(w.s, "if="):
						src = w.s[3:]
					case strings.HasPrefix(w.s, "of="):
						dst = w.s[3:]
					case strings.HasPrefix(w.s, "count="):
						hasCount = true
					}
				}
				return (src == "/dev/zero" || src == "/dev/urandom" || src == "/dev/random") && dst != "" && !strings.HasPrefix(dst, "/dev/") && !hasCount, dst
			case "fallocate", "truncate":
				v, ok := optValue(args, "-l", "length")
				if c.name == "truncate" {
					v, ok = optValue(args, "-s", "size")
				}
				return ok && parseSize(v) >= 50<<30, v
			case "yes", "cat":
				if c.name == "cat" && !hasWord(args, "/dev/zero") && !hasWord(args, "/dev/urandom") {
					return false, ""
				}
				for _, r := range c.redirs {
					if r.isOutput() && !strings.HasPrefix(r.w.s, "/dev/") {
						return true, r.w.s
					}
				}
			}
			return false, ""
		}},

	// --- privilege ---
	{ID: "account-shell-change", Level: LevelModerate, Category: CategoryPrivilege, Description: "changing another account's login shell or unlocking an account",
		Suggestions: []string{"Leave system accounts locked with nologin", "Ask an administrator"}, names: names("chsh", "usermod", "passwd"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "chsh":
				ops := posArgs(args, optSpec{short: "s", long: []string{"shell"}})
				return len(ops) > 0, "account " + joinWords(ops)
			case "usermod":
				if hasWord(args, "-U") || hasWord(args, "--unlock") {
					return true, "unlock"
				}
				if v, ok := optValue(args, "-s", "shell"); ok && !strings.HasSuffix(v, "nologin") && !strings.HasSuffix(v, "false") {
					return true, "shell " + v
				}
			case "passwd":
				return hasWord(args, "-u") || hasWord(args, "--unlock"), "unlock"
			}
			return false, ""
		}},
	{ID: "chmod-weaken-credentials", Level: LevelModerate, Category: CategoryPermission, Description: "opening up permissions on SSH keys or personal configuration",
		Suggestions: []string{"Keep ~/.ssh at 700 and its files at 600", "Grant access to a specific file only"}, names: names("chmod"),
		match: func(a *analysis, c *cmd) (bool, string) {
			mode := chmodMode(c)
			writeGO := false
			if n, ok := octalMode(mode); ok {
				writeGO = n&0o022 != 0
			} else {
				for _, cl := range strings.Split(mode, ",") {
					who, perm, ok := cutOp(cl)
					if ok && perm[0] != '-' && (who == "" || strings.ContainsAny(who, "goa")) && strings.Contains(perm[1:], "w") {
						writeGO = true
					}
				}
			}
			for _, t := range a.permTargets(c) {
				if t.class != pcSecretsHome && t.class != pcHomeConfig && !(t.class == pcHomeSub && strings.Contains(t.w.s, "/.ssh/")) {
					continue
				}
				if writeGO || t.rec && modeOthersRead(mode) {
					return true, t.w.s
				}
			}
			return false, ""
		}},

	// --- git ---
	{ID: "git-discard-stashes", Level: LevelModerate, Category: CategoryGitDestroy, Description: "dropping every stash or deleting refs directly",
		Suggestions: []string{"Drop a single stash (git stash drop stash@{N})", "Use git branch -d for merged branches"}, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			switch sub {
			case "stash":
				return len(args) > 0 && args[0].s == "clear", "stash clear"
			case "update-ref":
				return hasWord(args, "-d"), "update-ref -d"
			case "branch":
				if hasWord(args, "-D") || hasWord(args, "--delete") && hasWord(args, "--force") {
					for _, w := range positional(args) {
						if !w.ok {
							return true, "branches from a command"
						}
					}
				}
			}
			return false, ""
		}},
	{ID: "git-push-prune", Level: LevelModerate, Category: CategoryGitDestroy, Description: "pushing with --prune deletes every remote branch missing locally",
		Suggestions: []string{"Delete specific remote branches with git push origin --delete NAME"}, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			return sub == "push" && hasWord(args, "--prune"), ""
		}},
	{ID: "git-delete-remote-tag", Level: LevelModerate, Category: CategoryGitDestroy, Description: "deleting a release tag on the remote",
		Suggestions: []string{"Create a new tag instead of moving or deleting a published one"}, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			if sub != "push" {
				return false, ""
			}
			p := parseGitPush(args)
			for _, r := range p.refs {
				if strings.HasPrefix(r, ":refs/tags/") || p.delete && (strings.HasPrefix(r, "refs/tags/") || strings.HasPrefix(r, "v") && strings.ContainsAny(r, "0123456789")) {
					return true, r
				}
			}
			return false, ""
		}},

	// --- cloud ---
	{ID: "iac-state-remove", Level: LevelModerate, Category: CategoryCloudDestroy, Description: "removing resources from infrastructure state",
		Suggestions: []string{"Back the state up first (terraform state pull > backup.tfstate)", "Use terraform plan to review"}, names: names("terraform", "pulumi"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := positional(c.args())
			return len(ops) > 1 && ops[0].s == "state" && (ops[1].s == "rm" || ops[1].s == "delete"), ""
		}},
	{ID: "s3-sync-delete-production", prodAware: true, Level: LevelHigh, Category: CategoryCloudDestroy, Description: "syncing with --delete into a production bucket",
		Suggestions: []string{"Run with --dryrun first", "Sync without --delete"}, names: names("aws", "gsutil", "rclone", "s3cmd"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if !hasWord(args, "--delete") && !hasWord(args, "-d") && !hasWord(args, "--delete-removed") && c.name != "rclone" {
				return false, ""
			}
			if hasWord(args, "--dryrun") || hasWord(args, "--dry-run") || hasWord(args, "-n") {
				return false, ""
			}
			ops := positional(args)
			if c.name == "aws" && (len(ops) < 2 || ops[0].s != "s3" || ops[1].s != "sync") || c.name == "rclone" && (len(ops) == 0 || ops[0].s != "sync") {
				return false, ""
			}
			if len(ops) > 0 && isProdName(ops[len(ops)-1].s) {
				return true, ops[len(ops)-1].s
			}
			return false, ""
		}},
}

// forkBombText reports fork() in an endless loop in source text.
func forkBombText(low string) bool {
	if !strings.Contains(low, "fork") {
		return false
	}
	return hasAny(low, "for(;;)", "for (;;)", "while(1)", "while (1)", "while(true)", "while (true)", "while true", "while 1:", "loop {", "fork while fork", "fork while 1")
}

func init() { ruleSets = append(ruleSets, extraRules) }
