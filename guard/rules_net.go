package guard

import (
	"strings"
)

var (
	shellNames  = names("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "posh", "fish", "csh", "tcsh", "ksh93", "oksh")
	interpNames = names("python", "perl", "ruby", "node", "bun", "deno", "php", "lua", "awk", "pwsh", "osascript", "irb", "luajit")
	execNames   = append(append(append([]string{}, shellNames...), interpNames...), "eval", "source", ".")
	netSinks    = names("curl", "wget", "nc", "socat", "telnet", "ssh", "scp", "sftp", "rsync", "ftp", "tftp", "mail", "mailx", "sendmail",
		"mutt", "openssl", "gh", "aws", "gsutil", "rclone", "http", "https", "xh", "smbclient", "dig", "nslookup", "host", "ping",
		"s3cmd", "az", "gcloud", "lftp", "httpie", "curlie", "wget2")
)

var suggRemote = []string{"Download the script, read it, then run it: curl -fsSLo install.sh URL && less install.sh", "Install from a package manager with verified packages", "Pin a checksum and verify it before running"}

var suggExfil = []string{"Do not send credentials or keys over the network", "Share only the specific non-secret data that is needed"}

var suggRevShell = []string{"Do not open shells over the network", "Use ssh for remote access"}

// laterStage reports whether a pipeline stage after c matches fn.
func laterStage(c *cmd, fn func(*cmd) bool) *cmd {
	if c.pipe == nil {
		return nil
	}
	for _, s := range c.pipe[c.stage+1:] {
		if s != nil && s.synthetic == "" && fn(s) {
			return s
		}
	}
	return nil
}

func isSocketCmd(s *cmd) bool {
	if socketTools[s.name] {
		return true
	}
	if s.name == "openssl" && len(s.words) > 1 && s.words[1].s == "s_client" {
		return true
	}
	for _, r := range s.redirs {
		if isNetDev(r.w.s) {
			return true
		}
	}
	return false
}

// curlStdin reports whether curl/wget/httpie sends its standard input.
func curlStdin(args []word) bool {
	for i, w := range args {
		s := w.s
		if strings.Contains(s, "@-") || strings.Contains(s, "@/dev/stdin") || strings.HasSuffix(s, "=/dev/stdin") || s == "--post-file=-" || s == "--body-file=-" {
			return true
		}
		if (s == "-T" || s == "--upload-file") && i+1 < len(args) && (args[i+1].s == "-" || args[i+1].s == ".") {
			return true
		}
		if (s == "--data-binary" || s == "-d" || s == "--data" || s == "--json") && i+1 < len(args) && args[i+1].s == "@-" {
			return true
		}
	}
	return false
}

// sendsStdin reports whether a network tool sends what it reads.
func sendsStdin(c *cmd) bool {
	args := c.args()
	switch c.name {
	case "curl", "wget", "wget2", "curlie":
		return curlStdin(args)
	case "http", "https", "xh", "httpie":
		return true
	case "gh":
		return len(args) > 1 && args[0].s == "gist" && args[1].s == "create"
	case "aws", "gsutil", "rclone", "s3cmd":
		return hasWord(args, "-") || hasWord(args, "rcat")
	case "nc", "socat", "telnet", "ssh", "mail", "mailx", "sendmail", "mutt", "openssl", "ftp", "tftp", "smbclient", "lftp":
		return true
	}
	return false
}

// uploadedFiles lists the local files a network tool sends.
func uploadedFiles(c *cmd) []word {
	args := c.args()
	var out []word
	switch c.name {
	case "curl", "curlie":
		for i, w := range args {
			s := w.s
			next := ""
			if i+1 < len(args) {
				next = args[i+1].s
			}
			switch {
			case s == "-d" || s == "--data" || s == "--data-binary" || s == "--data-ascii" || s == "--json" || s == "--data-raw":
				if strings.HasPrefix(next, "@") {
					out = append(out, lit(next[1:]))
				}
			case s == "-F" || s == "--form" || s == "--form-string":
				if j := strings.IndexAny(next, "@<"); j >= 0 {
					f := next[j+1:]
					if k := strings.IndexByte(f, ';'); k >= 0 {
						f = f[:k]
					}
					out = append(out, lit(strings.Trim(f, `"`)))
				}
			case s == "-T" || s == "--upload-file":
				out = append(out, lit(next))
			case s == "--data-urlencode":
				if j := strings.IndexByte(next, '@'); j >= 0 {
					out = append(out, lit(next[j+1:]))
				}
			case strings.HasPrefix(s, "-d@") || strings.HasPrefix(s, "--data-binary=@") || strings.HasPrefix(s, "--data=@"):
				out = append(out, lit(s[strings.IndexByte(s, '@')+1:]))
			case strings.HasPrefix(s, "-F") && strings.Contains(s, "=@"):
				out = append(out, lit(s[strings.Index(s, "=@")+2:]))
			case strings.HasPrefix(s, "-T") && len(s) > 2:
				out = append(out, lit(s[2:]))
			}
		}
	case "socat":
		net := false
		var files []word
		for _, w := range args {
			l := lower(w.s)
			switch {
			case strings.HasPrefix(l, "tcp") || strings.HasPrefix(l, "udp") || strings.HasPrefix(l, "openssl") || strings.HasPrefix(l, "ssl"):
				net = true
			case strings.HasPrefix(l, "file:") || strings.HasPrefix(l, "open:") || strings.HasPrefix(l, "gopen:"):
				f := w.s[strings.IndexByte(w.s, ':')+1:]
				if i := strings.IndexByte(f, ','); i >= 0 {
					f = f[:i]
				}
				files = append(files, lit(f))
			case strings.HasPrefix(w.s, "/") || strings.HasPrefix(w.s, "~"):
				files = append(files, lit(strings.SplitN(w.s, ",", 2)[0]))
			}
		}
		if net {
			out = append(out, files...)
		}
	case "wget", "wget2":
		for _, w := range args {
			for _, p := range [...]string{"--post-file=", "--body-file="} {
				if strings.HasPrefix(w.s, p) {
					out = append(out, lit(w.s[len(p):]))
				}
			}
		}
	case "http", "https", "xh", "httpie":
		for _, w := range args {
			if i := strings.Index(w.s, "@"); i > 0 && strings.Contains(w.s[:i], "=") || strings.HasPrefix(w.s, "@") {
				out = append(out, lit(w.s[i+1:]))
			}
		}
	case "sftp":
		if c.in.kind == flowText {
			for _, l := range strings.Split(c.in.text, "\n") {
				f := strings.Fields(l)
				if len(f) >= 2 && (f[0] == "put" || f[0] == "mput" || f[0] == "reput") {
					out = append(out, lit(f[1]))
				}
			}
		}
	case "scp", "rsync", "rclone", "s3cmd":
		ops := posArgs(args, optSpec{short: "cFiJloPSeBfT", long: []string{"rsh", "exclude", "include", "filter", "port"}})
		remote := false
		for _, w := range ops[min(1, len(ops)):] {
			if isRemoteSpec(w.s) {
				remote = true
			}
		}
		if remote && len(ops) > 1 {
			for _, w := range ops[:len(ops)-1] {
				if !isRemoteSpec(w.s) {
					out = append(out, w)
				}
			}
		}
	case "aws", "gsutil":
		ops := positional(args)
		for i, w := range ops {
			if (w.s == "cp" || w.s == "mv" || w.s == "sync") && i+2 < len(ops) {
				if strings.Contains(ops[len(ops)-1].s, "://") {
					out = append(out, ops[i+1])
				}
			}
		}
	case "gh":
		if len(args) > 1 && args[0].s == "gist" && args[1].s == "create" {
			out = append(out, positional(args[2:])...)
		}
		if len(args) > 1 && args[0].s == "release" && args[1].s == "upload" {
			out = append(out, positional(args[2:])...)
		}
	case "mail", "mailx", "mutt":
		if f, ok := optValue(args, "-A", "attach"); ok {
			out = append(out, lit(f))
		}
		if f, ok := optValue(args, "-a", ""); ok {
			out = append(out, lit(f))
		}
	}
	return out
}

func isRemoteSpec(s string) bool {
	i := strings.IndexByte(s, ':')
	if i <= 0 || strings.HasPrefix(s, "/") || strings.HasPrefix(s, "./") {
		return false
	}
	host := s[:i]
	return !strings.Contains(host, "/") && host != "C"
}

var netRules = []*rule{
	// --- remote code execution ---
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
			if len(a.downloads) > 0 && strings.Contains(w0.s, "/") && a.isDownloaded(w0.s, c.cwd) {
				return true, w0.s
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
	{ID: "remote-into-database", Level: LevelHigh, Category: CategoryRemoteExec, Description: "running downloaded statements against a database",
		Suggestions: suggRemote, names: names("psql", "mysql", "sqlite3", "mongo", "redis-cli", "sqlcmd", "clickhouse-client", "cqlsh"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.in.kind == flowRemote {
				return true, c.in.what
			}
			return false, ""
		}},

	// --- reverse shells ---
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
				if isNetDev(r.w.s) && r.n != "" && r.n != "0" && r.n != "1" && r.n != "2" {
					return true, r.w.s
				}
			}
			return false, ""
		}},
	{ID: "revshell-netcat-exec", Level: LevelCritical, Category: CategoryReverseShell, Description: "netcat serving a shell (-e / --exec)",
		Suggestions: suggRevShell, names: names("nc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for i, w := range c.args() {
				s := w.s
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
			return len(positional(c.args())) >= 2, ""
		}},
	{ID: "revshell-x11", Level: LevelHigh, Category: CategoryReverseShell, Description: "an X terminal displayed on a remote host",
		Suggestions: suggRevShell, names: names("xterm"),
		match: func(a *analysis, c *cmd) (bool, string) {
			v, ok := optValue(c.args(), "-display", "display")
			return ok && strings.Contains(v, ":") && !strings.HasPrefix(v, ":") && !strings.HasPrefix(v, "localhost"), v
		}},

	// --- exfiltration ---
	{ID: "exfil-secrets-pipe", Level: LevelCritical, Category: CategoryExfiltration, Description: "sending credentials or keys over the network",
		Suggestions: suggExfil, names: netSinks,
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.in.kind == flowSecret && c.in.crit && sendsStdin(c) {
				return true, c.in.what
			}
			return false, ""
		}},
	{ID: "exfil-data-pipe", Level: LevelHigh, Category: CategoryExfiltration, Description: "sending system data (users, history) over the network",
		Suggestions: suggExfil, names: netSinks,
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.in.kind == flowSecret && !c.in.crit && sendsStdin(c) {
				return true, c.in.what
			}
			return false, ""
		}},
	{ID: "exfil-upload-secret", Level: LevelCritical, Category: CategoryExfiltration, Description: "uploading credentials or keys",
		Suggestions: suggExfil, names: netSinks,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range uploadedFiles(c) {
				if d, crit := a.sensitive(w.s, c.cwd); d != "" && crit {
					return true, d
				}
			}
			return false, ""
		}},
	{ID: "exfil-upload-data", Level: LevelHigh, Category: CategoryExfiltration, Description: "uploading system data (users, history)",
		Suggestions: suggExfil, names: netSinks,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range uploadedFiles(c) {
				if d, crit := a.sensitive(w.s, c.cwd); d != "" && !crit {
					return true, d
				}
			}
			return false, ""
		}},
	{ID: "exfil-subst", Level: LevelCritical, Category: CategoryExfiltration, Description: "putting credentials or the environment into a network request",
		Suggestions: suggExfil, names: netSinks,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, f := range c.substs {
				if f.kind == flowSecret {
					return true, f.what
				}
			}
			return false, ""
		}},
	{ID: "exfil-dev-tcp", Level: LevelCritical, Category: CategoryExfiltration, Description: "writing secrets to a raw network connection",
		Suggestions: suggExfil,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, r := range c.redirs {
				if isNetDev(r.w.s) && r.isOutput() {
					if f := a.computeOut(c); f.kind == flowSecret {
						return true, f.what
					}
				}
			}
			return false, ""
		}},
	{ID: "exfil-script", Level: LevelCritical, Category: CategoryExfiltration, Description: "interpreter code sending secrets over the network",
		Suggestions: suggExfil, names: interpNames,
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.scan != nil && c.scan.exfil != "" {
				return true, c.scan.exfil
			}
			return false, ""
		}},
	{ID: "read-secrets", Level: LevelModerate, Category: CategoryExfiltration, Description: "printing private keys or credentials (they end up in the agent's context and logs)",
		Suggestions: []string{"Do not print secrets; check that the file exists with ls -l or test -f", "Use the tool that needs the credentials directly"},
		names:       names("cat", "less", "more", "head", "tail", "strings", "xxd", "base64", "od", "hexdump", "bat", "nl", "tac"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.pipe != nil && c.stage < len(c.pipe)-1 {
				return false, "" // feeds another command: judged there
			}
			for _, w := range positional(c.args()) {
				p := a.absPath(w.s, c.cwd)
				if p == "" || a.inWork(p) {
					continue
				}
				if d, crit := a.sensitive(w.s, c.cwd); crit {
					if _, _, home := a.homeRel(p); home || strings.HasPrefix(p, "/etc/") || strings.HasPrefix(p, "/proc/") {
						return true, d
					}
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, netRules) }
