package guard

import (
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
)

// What the Windows front ends do with each command once its words are
// known: track the working directory, downloads and pipeline items, judge
// deletions and writes by Windows path, route commands that also exist on
// POSIX systems (git, docker, kubectl, curl, python, ...) to the POSIX
// rules, and analyse the payloads of wrappers.

// emitWin reports a Windows rule; c may be nil for a finding about an
// expression rather than a command.
func (ws *winState) emitWin(c *cmd, id, note string) {
	a := ws.a
	r := ruleByID[id]
	if r == nil {
		return
	}
	if c == nil {
		c = &cmd{synthetic: "expression", name: "<expression>", text: note, origin: ws.origin, depth: a.depth, cwd: a.cwd}
		if a.explain {
			a.cmds = append(a.cmds, c)
		}
		note = ""
	}
	a.emit(c, r, note)
}

// isDownloaded reports whether a normal-form path was downloaded earlier
// in the input (by any front end).
func (ws *winState) isDownloaded(p string) bool {
	d := ws.a.downloads
	if p == "" || len(d) == 0 {
		return false
	}
	if d[p] || d[path.Base(p)] {
		return true
	}
	// unpacked from a downloaded archive
	for dir := path.Dir(p); len(dir) > 1 && dir != "."; dir = path.Dir(dir) {
		if d[dir+"/"] {
			return true
		}
	}
	return false
}

func (ws *winState) markDownloaded(p string) {
	a := ws.a
	if p == "" {
		return
	}
	if a.downloads == nil {
		a.downloads = make(map[string]bool)
	}
	a.downloads[p] = true
	a.downloads[path.Base(p)] = true
}

// winRemoteExec reports a program run from a network share, or a URL
// of a program or script (a URL of a page opens the browser).
func winRemoteExec(s string) bool {
	l := strings.ToLower(s)
	if strings.HasPrefix(l, `\\`) && !strings.HasPrefix(l, `\\.\`) && !strings.HasPrefix(l, `\\?\`) && !strings.HasPrefix(l, `\\localhost`) {
		return true
	}
	if strings.Contains(l, "://") {
		for _, ext := range [...]string{".exe", ".ps1", ".bat", ".cmd", ".hta", ".msi", ".vbs", ".scr", ".dll", ".js", ".jse", ".wsf", ".psm1", ".lnk", ".jar"} {
			if strings.HasSuffix(l, ext) {
				return true
			}
		}
	}
	return false
}

// winRemotePath reports a UNC path or URL.
func winRemotePath(s string) bool {
	return strings.HasPrefix(s, `\\`) && !strings.HasPrefix(s, `\\.\`) && !strings.HasPrefix(s, `\\?\`) ||
		strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "ftp://")
}

// winRouted reports whether a command is judged by the POSIX rules: it
// is no cmdlet and no Windows program of this package's own.
func winRouted(name string) bool {
	if name == "" || winNativeNames[name] || name == "pwsh" || name == "cmd" || strings.HasPrefix(name, "cmd:") {
		return false
	}
	if verb, _, ok := strings.Cut(name, "-"); ok && cmdletVerbs[verb] {
		return false
	}
	return true
}

// routeWords rewrites Windows paths in a routed command's words into the
// normal form the POSIX rules compare against the work directory and home.
func (ws *winState) routeWords(c *cmd) {
	for i := 1; i < len(c.words); i++ {
		w := c.words[i]
		if !w.ok {
			continue
		}
		if k := winPathStart(w.s); k >= 0 {
			if p := ws.a.winAbs(w.s[k:]); p != "" {
				c.words[i] = word{s: w.s[:k] + p, ok: true}
			}
		}
	}
	c.joined = ""
}

// winPathStart finds a Windows path in a word: at its start, or after
// "=", "@" or ":" (--file=C:\x, @C:\x); -1 if none.
func winPathStart(s string) int {
	for k := 0; k+2 < len(s); k++ {
		if k > 0 && strings.IndexByte("=@:", s[k-1]) < 0 {
			continue
		}
		if isDriveLetter(s[k]) && s[k+1] == ':' && (s[k+2] == '\\' || s[k+2] == '/') {
			return k
		}
		if s[k] == '~' && (s[k+1] == '\\') {
			return k
		}
		if k == 0 && s[0] == '\\' && s[1] == '\\' {
			return 0
		}
	}
	return -1
}

// finishWin judges a command built by a front end.
func (ws *winState) finishWin(c *cmd) {
	a := ws.a
	if a.stop {
		return
	}
	if len(c.words) > 0 && c.words[0].ok {
		w0 := c.words[0].s
		if p := a.winAbs(w0); p != "" && ws.isDownloaded(p) {
			ws.emitWin(c, "remote-code-exec", "running "+w0+", downloaded earlier")
		} else if winRemoteExec(w0) {
			ws.emitWin(c, "remote-code-exec", "running "+w0+" from a network share or URL")
		} else if p != "" && a.inDownloads(p) && winProgramFile(w0) && !vendorInstaller(path.Base(strings.ReplaceAll(w0, `\`, "/"))) {
			ws.emitWin(c, "remote-code-exec", "running "+w0+" from the Downloads folder (fetched from the web, unchecked)")
		} else if winProgramFile(w0) && strings.Contains(strings.ReplaceAll(lower(w0), `\`, "/"), "/users/public/") {
			// C:\Users\Public\stage2.exe: a folder every account may
			// write to, where droppers stage what they run
			ws.emitWin(c, "remote-code-exec", "running "+w0+" from the Public folder (anyone may put programs there)")
		} else if ws.shareCwd != "" && winProgramFile(w0) && !strings.ContainsAny(w0, `\/:`) {
			// pushd \\host\share && run.exe: the program is the share's
			ws.emitWin(c, "remote-code-exec", "running "+w0+" from the network share "+ws.shareCwd)
		}
	}
	if c.name == "git" {
		// git config --global core.fsmonitor "powershell -c iwr ...|iex":
		// a command git runs on its own, fetching code each time
		if k, v, ok := gitConfigSet(c); ok && gitCommandKey(k) {
			if l := strings.ToLower(v); psDownloads(l) && (psExecutes(l) || strings.Contains(l, "|iex") || strings.Contains(l, "| iex")) {
				ws.emitWin(c, "persistence-malicious-payload", k+" runs "+truncate(v, 80))
			}
		}
	}
	if c.name == "osql" || c.name == "isql" {
		c.name = "sqlcmd" // the older clients take sqlcmd's -S -d -Q
	}
	if c.name == "sc" && len(c.words) > 2 && c.words[1].ok && strings.HasPrefix(c.words[1].s, `\\`) {
		// sc \\server create ...: the same command on another machine
		c.words = append(c.words[:1:1], c.words[2:]...)
		c.remote = true
		c.joined = ""
	}
	ws.networkCopies(c)
	ws.secretCopies(c)
	ws.exportedData(c)
	if c.name == "doskey" {
		ws.doskeyMacro(c)
	}
	if winFileRunners[c.name] {
		// msiexec /i FILE, rundll32 FILE,Entry, wscript FILE: the file
		// is what runs
		for _, w := range c.args() {
			f, _, _ := strings.Cut(w.s, ",")
			if p := a.winAbs(f); p != "" && ws.isDownloaded(p) {
				ws.emitWin(c, "remote-code-exec", c.base+" running "+f+", downloaded earlier")
				break
			}
		}
	}
	switch c.name {
	case "nslookup", "resolve-dnsname", "ping", "test-connection", "test-netconnection", "dig", "host", "tracert", "pathping":
		// a secret in a host name leaves in the DNS query
		for _, w := range c.args() {
			if name := winSecretVar(w.s); name != "" {
				ws.emitWin(c, "win-exfil-secrets", "the environment variable "+name+" in a looked-up host name")
				break
			}
			if l := strings.ToLower(w.s); strings.Contains(l, "tobase64string(") || strings.Contains(l, "tohexstring(") || psSecretExpr(l) != "" {
				// data encoded into the name: every lookup carries it to
				// the name's DNS server
				ws.emitWin(c, "win-exfil-secrets", "encoded data in a looked-up host name")
				break
			}
		}
	}
	if c.name == "shutdown" && len(c.words) > 1 && (strings.HasPrefix(c.words[1].s, "/") || len(c.words[1].s) == 2 && c.words[1].s[0] == '-') {
		c.name = "shutdown.exe" // Windows switches (/s or -s): /a aborts, /? helps
	}
	if winRouted(c.name) && ws.dialect == ShellPowerShell {
		for _, w := range c.args() {
			if !w.ok && (strings.HasPrefix(w.s, "(") || strings.HasPrefix(w.s, "$(")) {
				// docker rm -f (docker ps -aq): let the POSIX analysis
				// see the substitution
				ws.routeWords(c)
				var b strings.Builder
				for i, x := range c.words {
					if i > 0 {
						b.WriteByte(' ')
					}
					switch {
					case !x.ok && strings.HasPrefix(x.s, "(") && psValueGroup(x.s):
						// ($ns -replace 'namespace/',''): a value, not a
						// command: an unknown word to the POSIX rules
						b.WriteString(`"$PS_VALUE"`)
					case !x.ok && strings.HasPrefix(x.s, "("):
						b.WriteString("$" + x.s)
					case !x.ok && strings.HasPrefix(x.s, "$("):
						b.WriteString(x.s)
					default:
						b.WriteString(shellQuote(x.s))
					}
				}
				a.run(b.String(), ws.origin)
				return
			}
		}
	}
	if (c.name == "pwsh" || c.name == "cmd") && c.in.kind == flowRemote {
		ws.emitWin(c, "remote-code-exec", "piping downloaded code into "+c.base)
	}
	if winRouted(c.name) {
		ws.routeWords(c)
		routedModule(a, c)
	}
	a.finish(c)
}

// routedModule makes python -m MODULE, routed from a Windows shell, the
// command of the module's name (python -m espefuse is espefuse), as the
// POSIX analysis's wrappers do.
func routedModule(a *analysis, c *cmd) {
	if c.name != "python" && c.name != "python3" && c.name != "py" {
		return
	}
	if i := pythonModuleWrapper(a, c); i > 0 && i < len(c.words) {
		c.wrappers = append(c.wrappers, joinWords(c.words[:i]))
		c.words = c.words[i:]
		c.setName()
	}
}

// psCommand judges one PowerShell command; it returns what the command
// passes down the pipeline as items, when that is a set of paths.
func (ws *winState) psCommand(c *cmd, prevItem, item *psItem, piped bool) *psItem {
	a := ws.a
	args := c.args()
	c.dryRun = c.dryRun || psWhatIf(c.name, args) || winHelpAsked(args)
	if c.name == "remove-item" && hasSw(wargs(c), "deletekey") {
		// only the certificate provider has -DeleteKey: the private
		// keys go with the certificates
		ws.emitWin(c, "win-cert-keys-deleted", "certificates and their private keys")
	}
	var next *psItem
	if piped && prevItem != nil && secretFilePattern(prevItem.pattern) {
		// Get-ChildItem -Include *.pem,*.key | Copy-Item \\host\share:
		// the files the search picked are keys or mailboxes
		switch c.name {
		case "copy-item", "move-item", "compress-archive", "out-file", "set-content":
			for _, w := range args {
				if winRemotePath(w.s) {
					ws.emitWin(c, "win-exfil-secrets", prevItem.pattern+" files sent to "+w.s)
					break
				}
			}
			if c.name == "compress-archive" {
				// the archive holds the keys: sending it later sends them
				pa := parsePSArgs(args, []string{"destinationpath", "compressionlevel"}, []string{"force", "update", "passthru"})
				dst, ok := pa.get("destinationpath")
				if !ok && len(pa.pos) > 0 {
					dst, ok = pa.pos[len(pa.pos)-1], true
				}
				if ok && dst.ok {
					ws.markSecretCopy(a.winAbs(dst.s), "an archive of "+prevItem.pattern+" files")
				}
			}
		}
	}
	if (c.name == "clear-content" || c.name == "set-content") && piped && prevItem != nil {
		pa := parsePSArgs(args, []string{"path", "literalpath", "value", "encoding", "stream"}, []string{"force", "nonewline", "passthru"})
		_, hasV := pa.get("value")
		if psPathArg(pa) == nil && (c.name == "clear-content" || hasV) {
			// every item piped in emptied or overwritten
			ws.pipedWipe(c, prevItem, false, false)
		}
	}
	switch c.name {
	case "get-childitem", "get-item", "resolve-path", "convert-path":
		// Resolve-Path C:\* | Remove-Item: the paths it names are the items
		pa := parsePSArgs(args, []string{"path", "literalpath", "filter", "include", "exclude", "depth", "attributes"},
			[]string{"recurse", "force", "name", "directory", "file", "hidden", "system", "readonly", "followsymlink"})
		p := psPathArg(pa)
		if p == nil {
			d := lit(".")
			p = &d
		}
		next = &psItem{recursive: pa.flags["recurse"] || strings.ContainsAny(p.s, "*?")}
		fw, f1 := pa.get("filter")
		iw, f2 := pa.get("include")
		next.filtered = f1 || f2 || len(pa.pos) > 1 || pa.flags["file"] && !pa.flags["recurse"]
		switch {
		case f1:
			next.pattern = fw.s
		case f2:
			next.pattern = iw.s
		case strings.ContainsAny(p.s, "*?"):
			next.pattern = p.s
		}
		if len(pa.pos) > 1 && strings.ContainsAny(pa.pos[1].s, "*?") {
			next.pattern = pa.pos[1].s
		}
		if !p.ok && psEmptyVarRoot(p.s) {
			// Get-ChildItem "$root\" -Recurse: with $root empty, the
			// drive's root
			if ap := a.winAbs(`C:\`); ap != "" {
				next.paths = append(next.paths, ap)
			}
		}
		if p.ok {
			for _, s := range splitComma(p.s) {
				base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(s, "*"), `\`), "/")
				if base == "" && s != "" {
					base = s[:1]
				}
				if strings.HasSuffix(s, ":") || strings.HasSuffix(s, `:\`) || strings.HasSuffix(s, ":/") {
					base = s
				}
				if ap := a.winAbs(base); ap != "" {
					next.paths = append(next.paths, ap)
				}
			}
		}
	case "git":
		// git ls-files -o | ForEach-Object { Remove-Item $_ }: the
		// project's tracked or untracked files, every one (or every one
		// under the folders after --); git status --porcelain lists the
		// changed ones
		if len(args) > 0 && (args[0].s == "ls-files" && lsFilesAll(args[1:]) || args[0].s == "status" && statusListsAll(args[1:])) {
			next = &psItem{recursive: true}
			roots := []string{"."}
			if i := slices.IndexFunc(args, func(w word) bool { return w.s == "--" }); i >= 0 && i+1 < len(args) {
				roots = roots[:0]
				for _, w := range args[i+1:] {
					roots = append(roots, w.s)
				}
			}
			for _, r := range roots {
				if ap := a.winAbs(r); ap != "" {
					next.paths = append(next.paths, ap)
				}
			}
		}
	case "where-object", "sort-object", "select-object":
		if prevItem != nil {
			n := *prevItem
			if c.name == "where-object" || c.name == "select-object" {
				n.filtered = !psRecentFilter(args)
			}
			next = &n
		}
	case "foreach-object":
		next = prevItem
		body := strings.ToLower(joinWords(args))
		if c.in.kind == flowList && strings.HasPrefix(c.in.what, "range") && c.in.what != "range small" && psSpawns(body) {
			ws.emitWin(c, "win-fork-bomb", "starting a process for each of "+c.in.what)
		}
		if prevItem != nil && (strings.Contains(body, "$_.delete(") || strings.Contains(body, "$psitem.delete(")) {
			// the .NET Delete() of every item piped in: Remove-Item by
			// another name (Delete($true) empties directories too)
			for _, p := range prevItem.paths {
				ws.winDeleteAbs(c, p, prevItem.recursive || strings.Contains(body, "delete($true)"), prevItem.recursive, prevItem.filtered)
			}
		}
		if prevItem != nil && strings.Contains(body, "$_") && psOverwrites(body) &&
			!strings.Contains(body, "get-content") && !strings.Contains(body, "gc ") && !strings.Contains(body, "-replace") && !strings.Contains(body, "readall") {
			// a rewrite reads what it writes back; a wipe does not
			// every item's contents replaced: as good as deleted
			for _, p := range prevItem.paths {
				ws.winDeleteAbs(c, p, prevItem.recursive, prevItem.recursive, prevItem.filtered)
			}
		}
		ws.foreachNative(c, joinWords(args))
		if c.in.kind == flowList && c.in.what == "every shadow copy" && strings.Contains(body, "delete") {
			ws.emitWin(c, "win-backup-delete", "every shadow copy")
		}
		if c.in.kind == flowSecret && psSends(body) {
			ws.emitWin(c, "win-exfil-secrets", c.in.what)
		}
	case "invoke-sqlcmd", "invoke-sqlcmd2", "invoke-dbaquery":
		// dbatools and Invoke-Sqlcmd2 take the same query as
		// Invoke-Sqlcmd: judged as sqlcmd would run it
		args := args
		for i, w := range args {
			switch strings.ToLower(w.s) {
			case "-sqlinstance":
				args = append(append([]word{}, args[:i]...), append([]word{lit("-ServerInstance")}, args[i+1:]...)...)
			}
		}
		pa := parsePSArgs(args, []string{"query", "serverinstance", "database", "inputfile", "username", "password"}, []string{"trustservercertificate"})
		if f, ok := pa.get("inputfile"); ok {
			sub := []word{lit("sqlcmd"), lit("-i"), f}
			if s, ok := pa.get("serverinstance"); ok {
				sub = append(sub, lit("-S"), s)
			}
			a.subCommand(c, sub, "Invoke-Sqlcmd")
		}
		if q, ok := pa.get("query"); ok {
			sub := []word{lit("sqlcmd"), lit("-Q"), q}
			if s, ok := pa.get("serverinstance"); ok {
				sub = append(sub, lit("-S"), s)
			}
			if d, ok := pa.get("database"); ok {
				sub = append(sub, lit("-d"), d)
			}
			a.subCommand(c, sub, "Invoke-Sqlcmd")
		}
	case "set-s3bucketpolicy", "write-s3bucketpolicy":
		// AWS Tools for PowerShell: the same change as aws s3api
		// put-bucket-policy, judged by its rules
		pa := parsePSArgs(args, []string{"bucketname", "policy", "region", "profilename"}, []string{"force"})
		if b, ok := pa.get("bucketname"); ok {
			if pol, ok := pa.get("policy"); ok {
				a.subCommand(c, []word{lit("aws"), lit("s3api"), lit("put-bucket-policy"), lit("--bucket"), b, lit("--policy"), pol}, c.base)
			}
		}
	case "set-executionpolicy":
		pa := parsePSArgs(args, []string{"executionpolicy", "scope"}, []string{"force"})
		pol, ok := pa.get("executionpolicy")
		if !ok && len(pa.pos) > 0 {
			pol, ok = pa.pos[0], true
		}
		scope, _ := pa.get("scope")
		sc := strings.ToLower(scope.s)
		if ok && (strings.EqualFold(pol.s, "unrestricted") || strings.EqualFold(pol.s, "bypass")) && sc != "process" {
			if sc == "currentuser" {
				// every later session of the user runs any script,
				// downloaded ones included (RemoteSigned is the usual
				// setting)
				ws.emitWin(c, "win-execution-policy", pol.s+" for every session of the user")
			} else {
				ws.emitWin(c, "win-execution-policy", pol.s+" for the whole machine")
			}
		}
	case "enable-localuser":
		if piped && len(args) == 0 {
			ws.emitWin(c, "win-admin-enable", "every account in the pipeline")
		}
	case "gsudo", "sudo", "psexec", "psexec64", "paexec":
		ws.elevated(c, args)
	case "wt":
		ws.terminalLaunch(args)
	case "conhost":
		ws.conhostLaunch(args)
	case "robocopy":
		// the same program cmd starts: /MIR deletes what the source lacks
		ws.cmdRobocopy(c, args, false)
	case "7z", "7za", "7zz", "rar":
		ws.archiveMoves(c, args)
	case "winrs":
		ws.winrsPayload(c)
	case "set-alias", "new-alias":
		pa := parsePSArgs(args, []string{"name", "value", "scope", "option", "description"}, []string{"force", "passthru"})
		n, ok1 := pa.get("name")
		v, ok2 := pa.get("value")
		if !ok1 && len(pa.pos) > 0 {
			n, ok1 = pa.pos[0], true
			pa.pos = pa.pos[1:]
		}
		if !ok2 && len(pa.pos) > 0 {
			v, ok2 = pa.pos[0], true
		}
		if ok1 && ok2 {
			if ws.aliases == nil {
				ws.aliases = map[string]string{}
			}
			ws.aliases[strings.ToLower(n.s)] = v.s
		}
	case "diskpart":
		ws.diskpart(c, c.in)
	case "add-type", "import-module", "new-module", "ipmo":
		for _, w := range args {
			if psDownloads(strings.ToLower(w.s)) || winRemotePath(w.s) && !strings.HasPrefix(strings.ToLower(w.s), "http") || winRemoteExec(w.s) || ws.isDownloaded(a.winAbs(w.s)) {
				ws.emitWin(c, "remote-code-exec", "loading code from "+truncate(w.s, 80))
				break
			}
		}
	case "bitsadmin":
		ws.bitsUpload(c, args)
	case "curl", "wget":
		// curl.exe -F f=@FILE, -T FILE, --data-binary @FILE: the file
		// goes out
		for i, w := range args {
			v := w.s
			switch l := strings.ToLower(v); {
			case l == "-f" || l == "--form" || l == "-t" || l == "--upload-file" || strings.HasPrefix(l, "--data") || l == "-d" || l == "--post-file" || l == "--body-file":
				if i+1 < len(args) {
					v = args[i+1].s
				}
			case strings.HasPrefix(l, "--post-file=") || strings.HasPrefix(l, "--body-file="):
				_, v, _ = strings.Cut(v, "=")
			default:
				continue
			}
			if _, f, ok := strings.Cut(v, "@"); ok {
				v = f
			}
			if f, _, ok := strings.Cut(v, ";"); ok {
				v = f // ;type=...
			}
			ws.secretsLeaving(c, word{s: v, ok: true}, "infile")
		}
	case "send-mailmessage", "send-mailkitmessage":
		for _, w := range args {
			ws.secretsLeaving(c, w, "")
		}
		if c.in.kind == flowSecret {
			ws.emitWin(c, "win-exfil-secrets", c.in.what)
		}
	case "out-file", "set-content", "add-content", "copy-item", "export-csv", "export-clixml", "tee-object", "convertto-json":
		if c.in.kind == flowSecret && c.name != "copy-item" && c.name != "convertto-json" {
			pa := parsePSArgs(args, []string{"path", "literalpath", "filepath", "encoding"}, []string{"force", "append", "nonewline"})
			p, ok := pa.get("filepath")
			if !ok {
				if pp := psPathArg(pa); pp != nil {
					p, ok = *pp, true
				}
			}
			if ok && p.ok && !winRemotePath(p.s) {
				ws.markSecretCopy(a.winAbs(p.s), c.in.what) // sending the file later sends the secret
			}
		}
		if c.in.kind == flowSecret {
			for _, w := range args {
				if winRemotePath(w.s) || c.in.crit && winOtherDrive(w.s) {
					ws.emitWin(c, "win-exfil-secrets", c.in.what+" written to "+w.s)
					break
				}
			}
		}
	case "remove-item":
		ws.psRemove(c, args, prevItem, piped)
	case "invoke-cimmethod", "invoke-wmimethod":
		// Win32_Process Create: the command line it starts
		raw := joinWords(args)
		l := strings.ToLower(raw)
		if strings.Contains(l, "win32_process") && strings.Contains(l, "create") {
			at := strings.Index(l, "commandline")
			if at < 0 {
				at = strings.Index(l, "-argumentlist")
			}
			if at >= 0 {
				if qs := psQuoted(raw[at:]); len(qs) > 0 {
					if w := ws.psWord(qs[0], item); w.ok {
						a.nestedWin(w.s, ShellCmd, "Win32_Process Create")
					}
				} else if k := strings.IndexAny(raw[at:], "= "); k >= 0 {
					rest := strings.TrimLeft(raw[at+k:], "= ")
					if j := strings.IndexAny(rest, "};"); j >= 0 {
						rest = rest[:j]
					}
					a.nestedWin(strings.Trim(rest, "'\" "), ShellCmd, "Win32_Process Create")
				}
			}
		}
	case "expand-archive":
		// what a downloaded archive holds was downloaded too
		pa := parsePSArgs(args, []string{"path", "literalpath", "destinationpath"}, []string{"force", "passthru"})
		src := psPathArg(pa)
		dst, ok := pa.get("destinationpath")
		if !ok && len(pa.pos) > 1 {
			dst, ok = pa.pos[1], true
		}
		if h := a.winHome(); ok && dst.ok && h != "" && pa.flags["force"] {
			// Expand-Archive backup.zip -DestinationPath $HOME -Force: the
			// profile's files replaced by the archive's (without -Force
			// it stops at the first file that exists)
			if p := a.winAbs(dst.s); p == h || p == h+"/appdata" || p == h+"/appdata/roaming" || p == h+"/.ssh" || p == h+"/.config" || p == h+"/documents" {
				ws.emitWin(c, "extract-over-home", dst.s)
			}
		}
		if src != nil && pa.flags["force"] {
			// Expand-Archive ..\release.zip -DestinationPath . -Force:
			// the project's files replaced by the archive's
			d := lit(".")
			if ok {
				d = dst
			}
			ws.overWorkDir(c, *src, d, "extract-over-project")
		}
		if src != nil && src.ok && ws.isDownloaded(a.winAbs(src.s)) {
			d := "."
			if ok && dst.ok {
				d = dst.s
			}
			if p := a.winAbs(d); p != "" {
				ws.markDownloaded(p + "/")
			}
		}
	case "remove-ciminstance", "remove-wmiobject":
		if c.in.kind == flowList && c.in.what == "every shadow copy" && !hasSw(wargs(c), "whatif") {
			ws.emitWin(c, "win-backup-delete", "every shadow copy")
		}
		if c.in.kind == flowList && c.in.what == "the page file" && !hasSw(wargs(c), "whatif") {
			// no page file: programs fail when memory runs short and
			// no crash dump is written
			ws.emitWin(c, "win-protection-weakened", "the page file removed")
		}
	case "set-location", "push-location":
		pa := parsePSArgs(args, []string{"path", "literalpath", "stackname"}, []string{"passthru"})
		if p := psPathArg(pa); p != nil {
			if p.ok {
				a.cwd = a.winAbs(p.s)
			} else {
				a.cwd = ""
			}
		}
	case "invoke-expression":
		ws.psInvokeExpr(c, args)
	case "invoke-webrequest", "invoke-restmethod", "start-bitstransfer":
		ws.psWeb(c, args)
	case "start-process":
		ws.psStartProcess(c, args)
	case "invoke-item":
		for _, w := range args {
			if p := a.winAbs(w.s); p != "" && ws.isDownloaded(p) {
				ws.emitWin(c, "remote-code-exec", "opening "+w.s+", downloaded earlier")
			}
		}
	case "invoke-azvmruncommand", "set-azvmruncommand", "invoke-azvmssvmruncommand", "send-ssmcommand":
		// code run on cloud machines: -ScriptString, or SSM's
		// -Parameter @{commands='...'}
		ws.cloudRunCommand(c, args)
	case "gh":
		// gh gist create .\debug.log (gh release upload v1 F): a file
		// marked secret earlier on the line, or a credential store
		if ops := positional(args); len(ops) > 2 && (ops[0].s == "gist" && ops[1].s == "create" || ops[0].s == "release" && ops[1].s == "upload") {
			for _, w := range ops[2:] {
				p := a.winAbs(w.s)
				if d, _ := a.winSensitive(p); d != "" {
					ws.emitWin(c, "win-exfil-secrets", d+" uploaded by gh")
				} else if d := ws.secret[p]; d != "" {
					ws.emitWin(c, "win-exfil-secrets", d+" uploaded by gh")
				}
			}
		}
	case "write-s3object", "set-azstorageblobcontent", "set-azstoragefilecontent", "new-gcsobject", "write-gcsobject":
		// a file uploaded to a bucket: a credential store sent away
		pa := parsePSArgs(args, []string{"file", "filepath", "folder", "bucketname", "container", "key", "bucket"}, nil)
		for _, k := range [...]string{"file", "filepath", "folder"} {
			if w, ok := pa.get(k); ok {
				p := a.winAbs(w.s)
				if d, _ := a.winSensitive(p); d != "" {
					ws.emitWin(c, "win-exfil-secrets", d+" uploaded by "+c.base)
				} else if d := ws.secret[p]; d != "" {
					ws.emitWin(c, "win-exfil-secrets", d+" uploaded by "+c.base)
				}
			}
		}
	case "invoke-command":
		pa := parsePSArgs(args, []string{"scriptblock", "filepath", "computername", "argumentlist", "session", "credential", "vmname", "containerid"}, []string{"asjob"})
		if w, ok := pa.get("filepath"); ok {
			if p := a.winAbs(w.s); p != "" && ws.isDownloaded(p) || winRemoteExec(w.s) {
				ws.emitWin(c, "remote-code-exec", "running "+w.s+", downloaded or on a network share")
			}
		}
		if w, ok := pa.get("scriptblock"); !ok && len(pa.pos) > 0 && strings.HasPrefix(pa.pos[0].s, "(") {
			// Invoke-Command ([scriptblock]::Create($c)): the block by
			// position
			if code, ok := ws.psScriptBlockCode(pa.pos[0].s, item); ok {
				a.nestedWin(code, ShellPowerShell, "Invoke-Command script block")
			}
		} else if code, ok2 := ws.psScriptBlockCode(w.s, item); ok && ok2 {
			a.nestedWin(code, ShellPowerShell, "Invoke-Command script block")
		} else if ok && !strings.HasPrefix(w.s, "{") {
			ws.psInvokeText(c, w, "Invoke-Command -ScriptBlock")
		} else if al, ok2 := pa.get("argumentlist"); ok && ok2 {
			var bound []word
			if al.ok {
				for _, s := range splitComma(al.s) {
					bound = append(bound, lit(s))
				}
			} else {
				bound = []word{al}
			}
			ws.psCallBlock(w.s, bound, item)
		}
	default:
		if piped && prevItem == nil && psBulkRemoves(c) {
			ws.emitWin(c, "bulk-destroy-containers", c.in.what)
		}
	case "stop-process":
		pa := parsePSArgs(args, []string{"name", "id", "inputobject"}, []string{"force", "passthru"})
		_, hasName := pa.get("name")
		_, hasID := pa.get("id")
		if piped && !hasName && !hasID && len(pa.pos) == 0 && prevItem == nil && c.in.kind == flowList && c.in.what != "" {
			ws.emitWin(c, "win-kill-all", "every process")
		}
	case "select-string", "sls":
		// Select-String -Path .env -Pattern 'KEY|SECRET': the secret
		// lines of a settings or credentials file, shown
		pa := parsePSArgs(args, []string{"path", "literalpath", "pattern", "encoding", "context", "include", "exclude"}, []string{"simplematch", "casesensitive", "notmatch", "quiet", "list", "allmatches", "raw"})
		pat, ok := pa.get("pattern")
		if !ok && len(pa.pos) > 0 {
			pat, ok = pa.pos[0], true
		}
		var p *word
		if v, named := pa.get("path"); named {
			p = &v
		} else if v, named := pa.get("literalpath"); named {
			p = &v
		} else if len(pa.pos) > 1 {
			p = &pa.pos[1] // Select-String PATTERN PATH
		}
		if ok && p == nil && piped && !pa.flags["notmatch"] && !pa.flags["quiet"] && secretishPattern(pat.s) {
			// Get-Content \\web01\c$\inetpub\wwwroot\app\web.config |
			// Select-String password: a deployed site's settings, their
			// connection strings and keys picked out
			if prev := prevStage(c); prev != nil && prev.name == "get-content" {
				if src := psPathArg(parsePSArgs(prev.args(), []string{"path", "literalpath"}, nil)); src != nil && src.ok {
					if f := a.winAbs(src.s); f != "" && !a.inWork(f) && deployedSettingsFile(path.Base(f)) {
						ws.emitWin(c, "win-read-secrets", src.s+" (lines picked for their secrets)")
					}
				}
			}
		}
		if !ok || p == nil || piped || pa.flags["notmatch"] || pa.flags["quiet"] || !secretishPattern(pat.s) {
			break
		}
		for _, f := range splitComma(p.s) {
			if d, _ := a.winSensitive(a.winAbs(f)); d != "" && !strings.HasPrefix(d, "shell history") {
				ws.emitWin(c, "win-read-secrets", d)
			} else if secretSettingsFile(path.Base(strings.ReplaceAll(f, `\`, "/"))) {
				ws.emitWin(c, "win-read-secrets", f+" (lines picked for their secrets)")
			}
		}
	case "get-content":
		pa := parsePSArgs(args, []string{"path", "literalpath", "totalcount", "tail", "encoding", "delimiter", "readcount"}, []string{"raw", "wait", "asbytestream"})
		if piped && c.in.kind == flowSecret && c.in.crit && psPathArg(pa) == nil {
			ws.emitWin(c, "win-read-secrets", c.in.what)
		}
		if p := psPathArg(pa); p != nil && !p.ok && !piped && credentialFileVar(p.s) != "" && !psNamesProjection(a.src, c) {
			// Get-Content $env:GOOGLE_APPLICATION_CREDENTIALS: the key
			// file the variable names
			ws.emitWin(c, "win-read-secrets", "the credentials file "+credentialFileVar(p.s))
		}
		if p := psPathArg(pa); p != nil && p.ok && !piped && !psNamesProjection(a.src, c) {
			for _, s := range splitComma(p.s) {
				if d, _ := a.winSensitive(a.winAbs(s)); d != "" && !strings.HasPrefix(d, "shell history") {
					ws.emitWin(c, "win-read-secrets", d)
				} else if d := a.winProdSettings(s); d != "" && (prodEnvFile(path.Base(a.winAbs(s))) || (c.pipe == nil || c.stage == len(c.pipe)-1) && a.wantOut == 0) {
					ws.emitWin(c, "win-read-secrets", d) // (piped to ConvertFrom-Json for its names: judged there)
				}
			}
		}
	}
	switch c.name {
	case "set-content", "add-content", "out-file", "tee-object", "new-item", "copy-item", "move-item", "export-csv", "export-clixml", "set-item", "clear-content":
		ws.psWriteCmd(c, args)
		if c.name == "set-content" || c.name == "add-content" {
			pa := parsePSArgs(args, []string{"path", "literalpath", "value", "encoding"}, []string{"force", "nonewline", "passthru"})
			p := psPathArg(pa)
			v, ok := pa.get("value")
			if !ok && len(pa.pos) > 1 {
				v, ok = pa.pos[1], true
			}
			if p != nil && ok && v.ok {
				ws.batchText(p.s, v.s+"\n", c.name == "add-content")
				if d := toolConfigHijack(a.winAbs(p.s), v.s); d != "" {
					ws.emitWin(c, "win-config-hijack", d)
				}
				if fp := a.winAbs(p.s); fp != "" && strings.HasSuffix(strings.ToLower(fp), ".ps1") {
					// a script written here and run by powershell -File later
					if a.files == nil {
						a.files = make(map[string]flow)
					}
					f := a.files[fp]
					if c.name != "add-content" || f.kind != flowText {
						f = flow{kind: flowText}
					}
					f.text += v.s + "\n"
					a.files[fp] = f
				}
			}
		}
	case "certutil":
		ws.certutilEncode(c)
	case "esentutl":
		ws.esentutlCopy(c)
	case "compress-archive":
		pa := parsePSArgs(args, []string{"path", "literalpath", "destinationpath", "compressionlevel"}, []string{"force", "update", "passthru"})
		src := psPathArg(pa)
		dst, ok := pa.get("destinationpath")
		if !ok && len(pa.pos) > 1 {
			dst, ok = pa.pos[1], true
		}
		if src != nil && ok {
			for _, s := range splitComma(src.s) {
				sp := a.winAbs(strings.TrimSuffix(strings.TrimSuffix(s, "*"), `\`))
				cl, _ := a.winClassify(sp)
				d, _ := a.winSensitive(sp)
				if d == "" {
					// the project's own secret files (.env,
					// appsettings.Production.json) by name
					d, _ = a.sensitive(sp, a.cwd)
				}
				if d == "" && (cl == wpOutside || cl == wpRoot || cl == wpSystem || cl == wpSystemSub) && !strings.Contains(path.Base(sp), ".") {
					// \\fs01\finance\BankFiles, C:\Program Files\X\etc\auth\*:
					// a folder of a share or of the machine, archived
					// (uploading it later sends the whole folder)
					if a.files == nil {
						a.files = make(map[string]flow)
					}
					a.files[a.winAbs(dst.s)] = flow{kind: flowLocal, what: "an archive of " + s, tree: true}
				}
				if d != "" || cl == wpHome || cl == wpSecrets || cl == wpWorkDir {
					// the profile, a key store or the whole repository:
					// its code and whatever secrets it keeps (a file
					// other programs then read, scp among them)
					ws.markSecretCopy(a.winAbs(dst.s), "an archive of "+s)
					if h, ok := uncHost(dst.s); ok && isPublicIP(h) {
						// -DestinationPath \\IP\share\x.zip: the archive
						// written straight to a machine known only by its
						// address
						id := "win-exfil-secrets"
						if d == "" && cl == wpWorkDir {
							id = "win-exfil-userdata" // the project's code
						}
						ws.emitWin(c, id, "an archive of "+s+" written to "+dst.s)
					}
				}
			}
		}
	}
	if cloudCmdletDeletes(c.name) && !revokesOutsideAccess(a, c) || c.name == "disable-azrecoveryservicesbackupprotection" && removesRecoveryPoints(args) {
		ws.emitWin(c, "win-cloud-delete", c.base)
	}
	ws.finishWin(c)
	if c.name == "get-process" && len(args) == 0 {
		c.out = &flow{kind: flowList, what: "every process"}
	}
	return next
}

// conhostLaunch judges what the console host starts: conhost
// [--headless] [--width N] ... COMMAND runs the command line after its
// own options, with no window at all when headless, a way to hide a
// command behind a Windows binary.
func (ws *winState) conhostLaunch(args []word) {
	i := 0
	for i < len(args) {
		switch strings.ToLower(args[i].s) {
		case "--headless", "-forcev1", "-forcenohandoff", "0xffffffff", "--inheritcursor":
			i++
			continue
		case "--width", "--height", "--signal", "--server", "--feature", "--vtmode":
			i += 2
			continue
		}
		break
	}
	if i >= len(args) {
		return
	}
	parts := make([]string, 0, len(args)-i)
	for _, w := range args[i:] {
		if strings.ContainsAny(w.s, " \t") {
			parts = append(parts, cmdQuote(w.s))
		} else {
			parts = append(parts, w.s)
		}
	}
	ws.a.nestedWin(strings.Join(parts, " "), ShellCmd, "conhost")
}

// terminalLaunch judges what Windows Terminal (wt) starts: its window,
// tab and pane options are skipped and each command line after them,
// split at wt's own ";", runs as a program does.
func (ws *winState) terminalLaunch(args []word) {
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			ws.a.nestedWin(strings.Join(cur, " "), ShellCmd, "wt")
		}
		cur = cur[:0]
	}
	for i := 0; i < len(args); i++ {
		s := args[i].s
		if s == ";" || s == `\;` {
			flush()
			continue
		}
		if len(cur) == 0 {
			switch strings.ToLower(s) {
			case "-w", "--window", "-p", "--profile", "-d", "--startingdirectory", "--title", "--tabcolor", "--colorscheme", "-s", "--size", "--pos":
				i++
				continue
			case "new-tab", "nt", "split-pane", "sp", "-m", "--maximized", "-f", "--fullscreen", "--focus", "-h", "-v", "--horizontal", "--vertical",
				"--suppressapplicationtitle", "--inheritenvironment":
				continue
			}
		}
		if strings.ContainsAny(s, " \t") {
			s = cmdQuote(s)
		}
		cur = append(cur, s)
	}
	flush()
}

// elevated judges sudo, gsudo and PsExec: an elevated shell, or the
// command they run, analysed in the same dialect.
func (ws *winState) elevated(c *cmd, args []word) {
	i := 0
	for i < len(args) {
		l := strings.ToLower(args[i].s)
		if strings.HasPrefix(l, `\\`) {
			i++
			continue
		}
		if !strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "/") {
			break
		}
		switch {
		case l == "-c" && (c.name == "psexec" || c.name == "psexec64" || c.name == "paexec"):
			// psexec -c: copy the program to the other machine (a switch)
		case l == "-u" || l == "-p" || l == "-w" || l == "-c" || l == "--user" || l == "-n" || l == "--chdir" || l == "-r" || l == "-a":
			i++
		}
		i++
	}
	if i >= len(args) {
		if c.name == "sudo" || c.name == "gsudo" {
			ws.emitWin(c, "win-elevated-shell", c.base)
		}
		return
	}
	rest := args[i:]
	prog := canonicalPS(rest[0].s)
	if len(rest) == 1 && (prog == "pwsh" || prog == "cmd" || isShellName(prog) || prog == "wt") || c.name != "sudo" && c.name != "gsudo" && hasSw(wargs(c), "s") && (prog == "pwsh" || prog == "cmd") {
		ws.emitWin(c, "win-elevated-shell", c.base+" "+rest[0].s)
		return
	}
	parts := make([]string, len(rest))
	for k, w := range rest {
		parts[k] = w.s
		if ws.dialect == ShellPowerShell && strings.ContainsAny(w.s, " \t") {
			parts[k] = "'" + strings.ReplaceAll(w.s, "'", "''") + "'"
		} else if strings.ContainsAny(w.s, " \t") {
			parts[k] = cmdQuote(w.s)
		}
	}
	ws.a.nestedWin(strings.Join(parts, " "), ws.dialect, c.base)
}

// psPathArg returns the -Path, -LiteralPath or first positional argument.
func psPathArg(pa psArgs) *word {
	for _, k := range [...]string{"path", "literalpath", "lp", "pspath", "fullname"} {
		if w, ok := pa.named[k]; ok {
			return &w
		}
	}
	if len(pa.pos) > 0 {
		w := pa.pos[0]
		return &w
	}
	return nil
}

func splitComma(s string) []string {
	if !strings.Contains(s, ",") {
		return []string{s}
	}
	var out []string
	for _, p := range strings.Split(s, ",") {
		p = strings.Trim(strings.TrimSpace(p), `"'`)
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// psRemove judges Remove-Item and its aliases.
func (ws *winState) psRemove(c *cmd, args []word, prevItem *psItem, piped bool) {
	// -rf, -fr, -r, -f: POSIX habits; read as switches, they never take
	// the path that follows as their value
	pa := parsePSArgs(args, []string{"path", "literalpath", "filter", "include", "exclude", "credential", "stream"},
		[]string{"recurse", "force", "whatif", "confirm", "rf", "fr", "r", "f", "fo", "rec"})
	if pa.flags["whatif"] {
		return
	}
	recursive := pa.flags["recurse"]
	for k := range pa.flags {
		// rm -rf, rm -r: POSIX habits PowerShell reads as -Recurse
		if strings.HasPrefix(k, "r") && len(k) <= 3 && k != "re" || k == "fr" || k == "rf" {
			recursive = true
		}
	}
	var targets []word
	if p, ok := pa.named["path"]; ok {
		targets = append(targets, p)
	}
	if p, ok := pa.named["literalpath"]; ok {
		targets = append(targets, p)
	}
	targets = append(targets, pa.pos...)
	fw, f1 := pa.get("filter")
	iw, f2 := pa.get("include")
	filtered := f1 || f2
	if pat := fw.s + iw.s; filtered && winSourceFile(pat) {
		// Remove-Item .\src -Include *.ts -Recurse: every source file of
		// the kind under the folder
		for _, t := range append(append([]word{}, pa.pos...), pa.named["path"], pa.named["literalpath"]) {
			if p := ws.a.winAbs(t.s); t.ok && p != "" {
				if cl, _ := ws.a.winClassify(p); cl == wpWorkDir || cl == wpInside && ws.projectDelete(p+"/x.cs", true, true) != "" {
					ws.emitWin(c, "win-delete-project", "every "+pat+" file under "+winNative(p))
					return
				}
			}
		}
	}
	if len(targets) == 0 && piped && c.in.kind == flowText {
		for _, l := range strings.Split(strings.TrimSpace(c.in.text), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				targets = append(targets, lit(l))
			}
		}
	}
	if len(targets) == 0 && piped && prevItem != nil {
		ws.pipedWipe(c, prevItem, recursive, filtered)
		return
	}
	var split []word
	for _, t := range targets {
		if t.ok && strings.Contains(t.s, ",") {
			for _, s := range splitComma(t.s) {
				split = append(split, lit(s))
			}
			continue
		}
		split = append(split, t)
	}
	ws.winDelete(c, split, recursive, filtered)
}

// pipedWipe judges deleting, emptying or overwriting every item piped
// in (gci ... | Remove-Item, | Clear-Content, | Set-Content -Value x):
// each loses what it held.
func (ws *winState) pipedWipe(c *cmd, prevItem *psItem, recursive, filtered bool) {
	if prevItem.pattern != "" && winSourceFile(prevItem.pattern) {
		// gci -r -Include *.cs | ri: every source file of the kind
		for _, p := range prevItem.paths {
			if cl, _ := ws.a.winClassify(p); cl == wpWorkDir || cl == wpInside && ws.projectDelete(p+"/x.cs", true, true) != "" {
				ws.emitWin(c, "win-delete-project", "every "+prevItem.pattern+" file under "+winNative(p))
				return
			}
		}
	}
	if pat := lower(prevItem.pattern); pat != "" && !strings.ContainsAny(pat, `\/,`) && (winBackupFiles(pat) || winDBFiles(pat)) {
		// gci E:\SQLBackups -Filter *.bak | ri: the backups (or database
		// files) the filter picks, as Remove-Item E:\SQLBackups\*.bak
		for _, p := range prevItem.paths {
			ws.winDelete(c, []word{{s: winNative(p) + `\` + prevItem.pattern, ok: true, glob: true}}, recursive || prevItem.recursive, true)
		}
		return
	}
	if pat := prevItem.pattern; pat != "" && !strings.ContainsAny(pat, `\/,`) && strings.ContainsAny(pat, "*?") && pat != "*" && pat != "*.*" {
		// gci \\fs01\finance\outbox -Filter *.xml | ri: the documents or
		// exchange files of another drive or a share the filter picks
		for _, p := range prevItem.paths {
			if ws.documentsDeleted(c, p, pat) {
				return
			}
		}
	}
	for _, p := range prevItem.paths {
		ws.winDeleteAbs(c, p, recursive || prevItem.recursive, prevItem.recursive, filtered || prevItem.filtered)
	}
}

// archiveMoves judges 7z a -sdel and rar a -df / rar m: the files put
// in the archive are deleted, as tar --remove-files and zip -m do on the
// POSIX side.
func (ws *winState) archiveMoves(c *cmd, args []word) {
	var ops []word
	move := false
	for _, w := range args {
		switch l := lower(w.s); {
		case l == "-sdel" || l == "-df":
			move = true
		case !strings.HasPrefix(l, "-"):
			ops = append(ops, w)
		}
	}
	if len(ops) < 3 {
		return
	}
	verb := lower(ops[0].s)
	if verb == "m" && lower(strings.TrimSuffix(c.name, ".exe")) == "rar" {
		move = true
	}
	if move && (verb == "a" || verb == "u" || verb == "m") {
		ws.winDelete(c, ops[2:], true, false)
	}
}

// winWipe judges a path overwritten with nothing (Copy-Item NUL X): a
// pattern empties every file it names.
func (ws *winState) winWipe(c *cmd, w word) {
	if w.ok && strings.ContainsAny(w.s, "*?") {
		ws.winDelete(c, []word{w}, false, false)
	}
	ws.winTruncate(c, w)
}

// movedAway judges moving src to dst: into a temporary folder or the
// null device, it is deleted in all but name (the temporary folder is
// emptied, often by the same line).
func (ws *winState) movedAway(c *cmd, src, dst word) {
	a := ws.a
	if !src.ok || !dst.ok {
		return
	}
	sp, dp := a.winAbs(src.s), a.winAbs(dst.s)
	if sp == "" || !winNullSource(dst.s) && !winTempPath(dp) || winTempPath(sp) {
		return
	}
	ws.winDelete(c, []word{src}, true, false)
}

// winTempPath reports a normal-form path in a temporary folder.
func winTempPath(p string) bool {
	if p == "" {
		return false
	}
	if p == "/tmp" || strings.HasPrefix(p, "/tmp/") {
		return true
	}
	if !winIsWindowsPath(p) {
		return false
	}
	rest := p[min(len(p), 4):]
	top, _, _ := strings.Cut(rest, "/")
	return top == "temp" || top == "tmp" || rest == "windows/temp" || strings.HasPrefix(rest, "windows/temp/") ||
		strings.Contains(rest, "/appdata/local/temp")
}

// winNullSource reports the null device or $null as a copy's source.
func winNullSource(s string) bool {
	switch strings.ToLower(s) {
	case "nul", "nul:", `\\.\nul`, "/dev/null", "":
		return true
	}
	return false
}

// winDelete judges deleting paths.
func (ws *winState) winDelete(c *cmd, targets []word, recursive, filtered bool) {
	a := ws.a
	for _, t := range targets {
		if !t.ok {
			// $dir\* with $dir unknown: could be anything
			tl := t.s[min(t.tail, len(t.s)):]
			if recursive && (tl == `\` || tl == "/" || tl == `\*` || tl == "/*" || tl == "*" || tl == `\*.*` || tl == "/*.*") && t.tail > 0 {
				ws.emitWin(c, "win-delete-outside", "an unknown folder's contents ("+t.s+")")
			}
			if head, ok := unsetVarHead(t.s); ok && recursive {
				// C:\%BUILD_SUBDIR%: with the variable unset (empty in a
				// batch file, $null in PowerShell) the delete reaches
				// the folder written before it
				if p := a.winAbs(head); p != "" {
					if cl, _ := a.winClassify(p); cl == wpRoot || cl == wpSystem || cl == wpHome {
						ws.winDeleteAbs(c, p, recursive, true, filtered)
					}
				}
			}
			continue
		}
		if k, ok := normRegKey(t.s); ok && (strings.Contains(t.s, ":") || strings.HasPrefix(strings.ToLower(t.s), "registry::")) {
			ws.regDelete(c, k, recursive)
			continue
		}
		s := t.s
		glob := strings.ContainsAny(s, "*?")
		base := s
		if glob {
			if i := strings.IndexAny(s, "*?"); i >= 0 {
				base = s[:i]
				if j := strings.LastIndexAny(base, `\/`); j >= 0 {
					base = base[:j+1]
				} else {
					base = "."
				}
			}
		}
		p := a.winAbs(base)
		if p == "" {
			continue
		}
		if ws.specialFilesDeleted(c, s, p) {
			continue
		}
		everything := glob && (strings.HasSuffix(s, "*") || strings.HasSuffix(s, "*.*"))
		last := s[strings.LastIndexAny(s, `\/`)+1:]
		if glob && !everything && !strings.ContainsAny(base, "*?") && ws.documentsDeleted(c, p, last) {
			continue
		}
		if glob && !everything && winSourceFile(last) && !strings.ContainsAny(base, "*?") {
			// App_Data\*.mdf, src\*.cs: every file of the project's data
			// or code of that kind in the folder
			probe := p + "/" + strings.ReplaceAll(strings.ToLower(last), "*", "x")
			if cl, _ := a.winClassify(p); cl == wpWorkDir || cl == wpInside && ws.projectDelete(probe, true, true) != "" {
				ws.emitWin(c, "win-delete-project", "every "+last+" file in "+winNative(p))
				continue
			}
		}
		ws.partialGlob = glob && last != "*" && last != "*.*"
		ws.winDeleteAbs(c, p, recursive, glob && everything, filtered || glob && !everything)
		ws.partialGlob = false
	}
}

// documentsDeleted judges deleting every file named by the pattern last
// in the folder p (normal form) on another drive or a share, when they
// are documents, ledgers or bank files (or, on a share, XML: payment and
// exchange files), and reports whether it did.
func (ws *winState) documentsDeleted(c *cmd, p, last string) bool {
	probe := p + "/" + strings.ReplaceAll(strings.ToLower(last), "*", "x")
	if cl, _ := ws.a.winClassify(p); cl != wpOutside || winTempPath(p) {
		return false
	}
	if officeDocument(probe) || strings.HasSuffix(probe, ".ach") || strings.HasPrefix(p, "//") && strings.HasSuffix(probe, ".xml") {
		ws.emitWin(c, "win-delete-outside", "every "+last+" file in "+winNative(p))
		return true
	}
	return false
}

// specialFilesDeleted judges deleting s (its folder p, normal form)
// when it names files of a kind that is judged by what it is wherever it
// lies: databases, virtual machines' disks, backups. It reports whether
// it judged them.
func (ws *winState) specialFilesDeleted(c *cmd, s, p string) bool {
	a := ws.a
	if winDBFiles(strings.ToLower(s)) {
		if cl, _ := a.winClassify(p); cl != wpInside && cl != wpWorkDir && cl != wpUnknown && cl != wpPosix {
			ws.emitWin(c, "win-delete-outside", "database files: "+s)
			return true
		}
	}
	if winVMDisks(strings.ToLower(s)) {
		// D:\Hyper-V\Virtual Hard Disks\*.vhdx: machines' disks, with
		// everything on them
		if cl, _ := a.winClassify(p); cl != wpInside && cl != wpWorkDir && cl != wpPosix && cl != wpSystem && cl != wpRoot {
			ws.emitWin(c, "win-vm-destroy", "virtual machine disks: "+s)
			return true
		}
	}
	if winBackupFiles(strings.ToLower(strings.ReplaceAll(s, `\`, "/"))) {
		if cl, _ := a.winClassify(p); cl != wpInside && cl != wpWorkDir {
			ws.emitWin(c, "win-backup-delete", "backup files: "+s)
			return true
		}
	}
	return false
}

// winDeleteAbs judges deleting a normal-form path (contents: its
// contents rather than the path itself).
func (ws *winState) winDeleteAbs(c *cmd, p string, recursive, contents, filtered bool) {
	a := ws.a
	cl, _ := a.winClassify(p)
	if cl == wpPosix {
		ws.posixDelete(c, p, recursive, contents)
		return
	}
	wide := recursive || contents
	id := ""
	if cl == wpInside && a.workDir != "" && strings.HasPrefix(p, a.workDir+"/") && localHistoryDir(p[len(a.workDir)+1:]) {
		ws.emitWin(c, "rm-local-history", winNative(p))
		return
	}
	switch cl {
	case wpRoot, wpSystem, wpDevice:
		if wide {
			id = "win-delete-system"
		} else if cl == wpSystem && !strings.HasSuffix(p, ".log") {
			id = "win-delete-system-file"
		}
	case wpHome:
		if wide {
			id = "win-delete-profile"
		}
	case wpSecrets:
		id = "win-delete-credentials"
	case wpHistory:
		id = "win-history-delete"
	case wpHomeSub, wpSystemSub, wpOutside, wpWorkDir:
		if wide || devDatabaseFile(path.Base(p)) || signingKeystore(p) || cl == wpHomeSub && (a.winUserDocument(p) || a.winUserConfig(p)) || vmDiskFile(p) ||
			cl == wpOutside && !winTempPath(p) && officeDocument(p) {
			// a whole folder, or an app's database, a signing key, a
			// virtual machine's disk (WSL's ext4.vhdx) or a document on
			// another drive or a share: what the user made and cannot
			// build again
			id = "win-delete-outside"
		}
	case wpInside:
		if wide && !filtered && !ws.partialGlob && a.winCacheRoot(p) {
			id = "win-delete-cache-root"
			break
		}
		id = ws.projectDelete(p, wide, filtered)
	}
	if id == "" {
		return
	}
	if filtered && id != "win-history-delete" && id != "win-delete-credentials" && id != "win-delete-project" && id != "win-delete-git" {
		switch id {
		case "win-delete-system", "win-delete-profile":
			id = "win-delete-outside"
		case "win-delete-outside":
			if cl == wpWorkDir {
				return
			}
		}
	}
	what := winPathNames[cl]
	ws.emitWin(c, id, what+": "+winNative(p))
}

// vmDiskFile reports a WSL distribution's or a virtual machine's disk
// image where they keep it: the whole machine's files in one (a disk
// image a test made in a temporary folder is not one).
func vmDiskFile(p string) bool {
	l := strings.ToLower(p)
	switch path.Base(l) {
	case "ext4.vhdx", "docker_data.vhdx":
		return true
	}
	switch path.Ext(l) {
	case ".vhdx", ".vhd", ".vmdk", ".qcow2", ".vdi", ".avhdx":
		return strings.Contains(l, "/virtual hard disks/") || strings.Contains(l, "/virtualbox vms/") || strings.Contains(l, "/hyper-v/")
	}
	return false
}

// winUserDocument reports a path among what a person keeps in their
// profile (Documents, Desktop, Pictures, OneDrive): files they wrote,
// deleted even one at a time. Downloads and AppData are not: a download
// is fetched again, an app's data has rules of its own.
func (a *analysis) winUserDocument(p string) bool {
	rel := ""
	if r, ok := strings.CutPrefix(p, "/c:/users/"); ok {
		if _, r, ok = strings.Cut(r, "/"); ok {
			rel = r
		}
	} else if h := a.winHome(); h != "" && strings.HasPrefix(p, h+"/") {
		rel = p[len(h)+1:]
	}
	top, _, _ := strings.Cut(rel, "/")
	switch top {
	case "documents", "desktop", "pictures", "music", "videos", "onedrive":
		return true
	}
	return strings.HasPrefix(top, "onedrive - ")
}

// officeDocuments are the extensions of what people write and keep:
// spreadsheets, documents, slides, PDFs, CSV exports, Access databases,
// mail archives and accounting company files.
var officeDocuments = map[string]bool{"xlsx": true, "xls": true, "xlsm": true, "docx": true, "doc": true, "pptx": true, "ppt": true,
	"pdf": true, "csv": true, "accdb": true, "mdb": true, "pst": true, "odt": true, "ods": true, "qbw": true, "qbb": true, "vsdx": true}

// officeDocument reports a normal-form path naming such a document.
func officeDocument(p string) bool {
	b := path.Base(p)
	i := strings.LastIndexByte(b, '.')
	return i > 0 && officeDocuments[b[i+1:]]
}

// regenerable are folders a project can rebuild: deleting them is routine.
var regenerable = map[string]bool{"bin": true, "obj": true, "build": true, "dist": true, "out": true, "target": true,
	"node_modules": true, "coverage": true, "testresults": true, ".pytest_cache": true, ".mypy_cache": true, ".ruff_cache": true,
	".next": true, ".turbo": true, ".cache": true, "publish": true, "artifacts": true, "logs": true, "log": true, "tmp": true,
	"temp": true, ".gradle": true, ".vs": true, "packages": true, "vendor": true, "__pycache__": true, ".nyc_output": true,
	".parcel-cache": true, ".angular": true, "playwright-report": true, "test-results": true, "blob-report": true, ".svelte-kit": true, ".venv": true, "venv": true, ".tox": true, "_site": true,
	"debug": true, "release": true, ".terraform": true, "storybook-static": true, ".nuxt": true, ".output": true, ".idea": true,
	"x64": true, "x86": true, "dist-electron": true, "cmake-build-debug": true, "cmake-build-release": true, ".eggs": true, "htmlcov": true, "docs/_build": true,
	// game engines' and mobile tool chains' own (Unity's Library, Unreal's
	// Intermediate, Binaries and DerivedDataCache, Godot's, Flutter's)
	"library": true, "intermediate": true, "binaries": true, "deriveddatacache": true, "deriveddata": true, ".godot": true, ".import": true, ".dart_tool": true,
	// Hardhat's and Foundry's compiler caches and generated bindings
	"cache": true, "typechain-types": true, "typechain": true}

// nestedBuildOutput reports a path below a project's own build output
// folder deeper in the tree (src\Api\bin, apps\web\dist,
// tests\X.Tests\TestResults): each sub-project has its own. Folders
// that hold sources in some ecosystems (packages, vendor) count only at
// the top.
func nestedBuildOutput(rel string) bool {
	if strings.Contains("/"+rel+"/", "/wwwroot/lib/") {
		return true // client libraries LibMan or Bower restore
	}
	parts := strings.Split(rel, "/")
	for _, p := range parts[1:] {
		if regenerable[p] && p != "packages" && p != "vendor" && p != "logs" && p != "log" {
			return true
		}
	}
	return false
}

// winSourceFile reports a pattern or name of source code or data.
func winSourceFile(s string) bool {
	l := strings.ToLower(strings.Trim(s, `"'()`))
	if generatedCode(strings.ReplaceAll(l, `\`, "/")) {
		return false // a code generator writes it again
	}
	if i := strings.LastIndexByte(l, '.'); i >= 0 && !strings.ContainsAny(l[i+1:], `/\`) && sourceExts[l[i+1:]] {
		return true // the sources and data people write, as the POSIX rules know them
	}
	// and what a Windows project keeps beside them: databases, state,
	// solutions and documentation
	for _, ext := range [...]string{".db", ".sqlite", ".mdf", ".ldf", ".md", ".tfstate", ".csproj", ".sln"} {
		if strings.HasSuffix(l, ext) {
			return true
		}
	}
	return false
}

// projectDelete judges deleting inside the work directory: build output
// is routine; the repository, the sources, secrets and data are the
// user's work.
func (ws *winState) projectDelete(p string, wide, filtered bool) string {
	wd := ws.a.workDir
	if wd == "" || !strings.HasPrefix(p, wd+"/") {
		return ""
	}
	rel := p[len(wd)+1:]
	first, _, _ := strings.Cut(rel, "/")
	base := path.Base(p)
	switch {
	case first == ".git" || base == ".git":
		return "win-delete-git" // (a service's own repository in the project too)
	case deploymentRecords[first]:
		// hardhat-deploy's and Foundry's records of what was deployed
		// where, OpenZeppelin's upgrade manifests: not built again
		return "win-delete-project"
	case (base == ".env" || strings.HasPrefix(base, ".env.") || localSettingsFile(base) && !regenerable[first] && !nestedBuildOutput(rel)) && !resetFromTemplate(ws.a.src, base):
		// the developer's own settings (local.settings.json,
		// appsettings.Development.json), with their connection strings
		return "win-delete-project"
	case regenerable[first] || strings.HasPrefix(first, ".") && first != ".github":
		return ""
	case fixturePath(rel):
		return "" // the test suite's fixtures, made again by its set-up
	case testRunOutput(rel):
		return "" // cypress\screenshots: what the last test run left
	case frameworkCache(strings.Split(strings.ToLower(rel), "/")):
		return "" // storage\framework\cache: what the framework makes again
	case strings.HasSuffix(base, ".tfstate") || strings.HasSuffix(base, ".tfstate.backup") || base == "terraform.tfstate.d":
		// the only record of what infrastructure exists (terraform.tfstate.d:
		// every workspace's)
		return "win-delete-project"
	case devDatabaseFile(base), signingKeystore(p):
		// the local database's rows: the data the developer works with;
		// the key its releases are signed with
		return "win-delete-project"
	case nestedBuildOutput(rel) || scratchSegment(rel):
		return ""
	case wide && !filtered && (!strings.Contains(base, ".") || ws.dirTargets):
		return "win-delete-project"
	case wide && winSourceFile(base):
		return "win-delete-project"
	}
	return ""
}

// scratchSegment reports a project path with a folder named as temporary
// or a cache (proxies\_tmp, resolve-cache\CacheClip): what its program
// makes again.
func scratchSegment(rel string) bool {
	for _, seg := range strings.Split(strings.ToLower(rel), "/") {
		t := strings.Trim(seg, "_.-")
		if t == "tmp" || t == "temp" || t == "cache" || strings.HasSuffix(t, "-cache") || strings.HasSuffix(t, "_cache") {
			return true
		}
	}
	return false
}

// psJSONNames matches a file read, parsed and cut to its names:
// (Get-Content F | ConvertFrom-Json).auths.PSObject.Properties.Name, or
// to the name of the credential helper (.credsStore).
var psJSONNames = regexp.MustCompile(`(?i)\(\s*(get-content|gc|cat|type)\s[^()|]*\|\s*convertfrom-json\s*\)(\.\w+)*\.(psobject\.properties\.name|credsstore|credhelpers\.psobject\.properties\.name)\s*[})]*\s*$`)

// psNamesProjection reports a Get-Content whose output is cut to names
// before it is shown: parsed and projected to property names, or
// filtered to a settings file's [section] headers.
func psNamesProjection(src string, c *cmd) bool {
	if next := nextStage(c); next != nil && next.name == "select-string" && nextStage(next) == nil {
		pa := parsePSArgs(next.args(), []string{"pattern"}, []string{"notmatch", "simplematch"})
		pat, ok := pa.get("pattern")
		if !ok && len(pa.pos) > 0 {
			pat, ok = pa.pos[0], true
		}
		return ok && strings.HasPrefix(strings.Trim(pat.s, `"'`), `^\[`) && !pa.flags["notmatch"]
	}
	for _, stmt := range strings.Split(src, ";") {
		if psJSONNames.MatchString(strings.TrimSpace(stmt)) {
			return true
		}
	}
	// ... | ForEach-Object { ($_ -split '=')[0] }: each line's name,
	// the text before its "=" (as cut -d= -f1 does)
	if next := nextStage(c); next != nil && (next.name == "foreach-object" || next.name == "%") && nextStage(next) == nil {
		j := strings.ReplaceAll(lower(joinWords(next.args())), " ", "")
		if strings.Contains(j, "-split'='") && strings.Contains(j, ")[0]") || strings.Contains(j, `-split"="`) && strings.Contains(j, ")[0]") {
			return true
		}
	}
	// ... | ConvertFrom-Json | Select-Object service, server: the last
	// stage keeps named properties, none of them a secret's
	last := c
	for n := nextStage(c); n != nil; n = nextStage(n) {
		last = n
	}
	if last != c && (last.name == "select-object" || last.name == "select") {
		props := 0
		for _, w := range last.args() {
			l := lower(strings.Trim(w.s, `"',`))
			switch {
			case l == "" || l == "-property":
			case strings.HasPrefix(l, "-"):
				return false // -ExpandProperty, -First: not a plain projection
			case hasAny(l, "key", "token", "secret", "password", "passwd", "credential", "auth", "*"):
				return false
			default:
				props++
			}
		}
		return props > 0
	}
	return false
}

// testRunOutput reports a folder a test runner fills on each run
// (Cypress's downloads, screenshots and videos; Allure's results).
func testRunOutput(rel string) bool {
	parts := strings.Split(strings.ToLower(rel), "/")
	for i, part := range parts {
		switch {
		case part == "allure-results" || part == "allure-report":
			return true
		case part == "cypress" && i+1 < len(parts) && (parts[i+1] == "downloads" || parts[i+1] == "screenshots" || parts[i+1] == "videos"):
			return true
		}
	}
	return false
}

// fixturePath reports a path inside a test suite's fixture folder.
func fixturePath(rel string) bool {
	for _, part := range strings.Split(strings.ToLower(path.Dir(rel)), "/") {
		switch part {
		case "fixtures", "fixture", "__fixtures__", "testdata":
			return true
		}
	}
	return false
}

// winTruncate judges emptying a file.
func (ws *winState) winTruncate(c *cmd, w word) {
	a := ws.a
	if !w.ok {
		return
	}
	p := a.winAbs(w.s)
	if strings.HasSuffix(p, ".log") || strings.HasSuffix(p, ".txt") && strings.Contains(p, "/log") {
		return
	}
	if cl, _ := a.winClassify(p); cl != wpInside {
		if cl != wpWorkDir && p != "" && !winTempPath(p) && !winNullSource(w.s) {
			if cl == wpOutside && strings.Contains(path.Base(p), ".") {
				// Set-Content \\fs01\eng\Tower.rvt -Value $null: a file of a
				// share or another drive emptied (its content has no
				// copy in the project)
				ws.emitWin(c, "win-delete-outside", winNative(p)+" emptied")
				return
			}
			// a file outside the project emptied is lost as surely as
			// deleted: judged as its deletion
			ws.winDelete(c, []word{w}, false, false)
		}
		return
	}
	wd := a.workDir
	if wd == "" || !strings.HasPrefix(p, wd+"/") {
		return
	}
	first, _, _ := strings.Cut(p[len(wd)+1:], "/")
	if regenerable[first] {
		return
	}
	switch b := path.Base(p); {
	case b == "__init__.py" || b == ".gitkeep" || b == ".keep" || b == "py.typed" || b == ".nojekyll" || strings.HasSuffix(b, ".example"):
		return // files made empty on purpose
	}
	ws.emitWin(c, "win-truncate", winNative(p))
}

// posixDelete judges a POSIX path deleted from PowerShell on Linux or
// macOS by the POSIX rules.
func (ws *winState) posixDelete(c *cmd, p string, recursive, contents bool) {
	a := ws.a
	saved := a.workDir
	if w := winNative(a.workDir); w != a.workDir {
		a.workDir = w
	}
	ws2 := []word{lit("rm"), lit("-f"), lit(p)}
	if recursive {
		ws2[1] = lit("-rf")
	}
	if contents {
		ws2[2] = word{s: strings.TrimSuffix(p, "/") + "/*", ok: true, glob: true}
	}
	parent := c
	if parent == nil {
		parent = &cmd{cwd: a.cwd}
	}
	a.subCommand(parent, ws2, "Remove-Item")
	a.workDir = saved
}

// winWrite judges writing a file at w.
// psFileWriter are PowerShell's cmdlets that write what is piped to them
// into a file.
var psFileWriter = map[string]bool{"out-file": true, "set-content": true, "add-content": true, "tee-object": true}

// sharedWinFolder reports a Windows path that other accounts or other
// programs read: C:\Users\Public, and the user's Desktop, Downloads and
// synced folders.
func (ws *winState) sharedWinFolder(p string) bool {
	if strings.Contains(p, "/users/public/") {
		return true
	}
	h := strings.ToLower(strings.ReplaceAll(ws.a.home, `\`, "/"))
	if h == "" || !strings.HasPrefix(p, h+"/") {
		return false
	}
	top, _, _ := strings.Cut(p[len(h)+1:], "/")
	return sharedHomeFolders[top]
}

func (ws *winState) winWrite(c *cmd, w word, appendOnly bool) {
	a := ws.a
	if !w.ok || w.s == "" || strings.EqualFold(w.s, "$null") || strings.EqualFold(w.s, "nul") || strings.EqualFold(w.s, "null") {
		return
	}
	p := a.winAbs(w.s)
	if p == "" {
		return
	}
	if !winIsWindowsPath(p) {
		if c != nil {
			a.subCommand(c, []word{lit("tee"), lit(p)}, "redirection")
		}
		return
	}
	l := p
	if c != nil && ws.sharedWinFolder(l) && !psFileWriter[c.name] {
		// terraform show -json > C:\Users\Public\s.json: a copy every
		// account (or every program syncing the folder) reads (what is
		// piped to Out-File is the file rules')
		if f := a.computeOut(c); f.kind == flowSecret {
			ws.emitWin(c, "secret-file-left-in-tmp", f.what+" written to "+winNative(p))
		}
	}
	switch {
	case strings.Contains(l, "/start menu/programs/startup"):
		ws.emitWin(c, "win-write-autorun", "the Startup folder: "+winNative(p))
	case officeStartupPath(l):
		ws.emitWin(c, "win-write-autorun", "an Office start-up folder (its add-ins and macros load with every document): "+winNative(p))
	case strings.HasSuffix(l, "profile.ps1") && (strings.Contains(l, "/windowspowershell/") || strings.Contains(l, "/powershell/")):
		ws.emitWin(c, "win-write-autorun", "a PowerShell profile: "+winNative(p))
	case strings.Contains(l, "/.git/hooks/") || strings.HasPrefix(l, winNative(a.workDir)+"/.git/hooks/"):
		if ws.projectHookCopy(c, l) {
			return // the project installing its own hook, from its own tree
		}
		ws.emitWin(c, "win-write-autorun", "a git hook: "+winNative(p))
	case strings.HasSuffix(l, "authorized_keys"):
		ws.emitWin(c, "win-write-autorun", "SSH authorized keys: "+winNative(p))
	case strings.Contains(l, "/windows/system32/drivers/etc/hosts"):
		ws.emitWin(c, "win-write-system", "the hosts file")
	default:
		cl, _ := a.winClassify(p)
		if cl == wpRoot && strings.HasPrefix(p, "//") {
			cl = wpOutside // a copy into a share's top folder writes a file there, not over the share
		}
		switch cl {
		case wpSystem, wpRoot:
			if !appendOnly || cl == wpSystem {
				ws.emitWin(c, "win-write-system", winPathNames[cl]+": "+winNative(p))
			}
		case wpDevice:
			ws.emitWin(c, "win-write-system", "a disk device: "+winNative(p))
		case wpSecrets:
			// (ssh-keygen -y -f KEY > KEY.pub: a public key, written
			// again from its private key)
			if !appendOnly && !strings.HasSuffix(l, ".pub") {
				ws.emitWin(c, "win-delete-credentials", "overwriting "+winNative(p))
			}
		case wpHistory:
			if !appendOnly {
				ws.emitWin(c, "win-history-delete", "overwriting "+winNative(p))
			}
		case wpHomeSub:
			// Copy-Item .\.npmrc $HOME\.npmrc -Force: the user's own
			// settings replaced
			if !appendOnly && a.winUserConfig(p) && c != nil && (c.name == "copy-item" || c.name == "move-item" || c.name == "copy" || c.name == "move" || c.name == "xcopy") {
				ws.emitWin(c, "win-delete-outside", "overwriting the user's settings: "+winNative(p))
			}
		}
	}
}

// overWorkDir emits id when a copy or an unpacking writes what lies
// outside the project over the whole work directory.
func (ws *winState) overWorkDir(c *cmd, src, dst word, id string) {
	a := ws.a
	if !src.ok || !dst.ok {
		return
	}
	if cl, _ := a.winClassify(a.winAbs(dst.s)); cl != wpWorkDir {
		return
	}
	for _, s := range splitComma(src.s) {
		p := strings.TrimSuffix(strings.TrimSuffix(strings.Trim(s, `"' `), "*.*"), "*")
		if cl, _ := a.winClassify(a.winAbs(strings.TrimRight(p, `\/`))); cl == wpOutside || cl == wpHomeSub {
			ws.emitWin(c, id, s+" over "+dst.s)
			return
		}
	}
}

// psWriteCmd judges the cmdlets that write files.
func (ws *winState) psWriteCmd(c *cmd, args []word) {
	a := ws.a
	switch c.name {
	case "copy-item", "move-item":
		pa := parsePSArgs(args, []string{"path", "literalpath", "destination", "filter", "include", "exclude"}, []string{"recurse", "force", "container", "passthru"})
		dst, ok := pa.get("destination")
		if !ok && len(pa.pos) > 1 {
			dst, ok = pa.pos[len(pa.pos)-1], true
		}
		if ok {
			ws.winWrite(c, dst, false)
			if src := psPathArg(pa); src != nil && src.ok && winNullSource(src.s) && c.name == "copy-item" {
				ws.winWipe(c, dst)
			}
			if src := psPathArg(pa); src != nil && c.name == "copy-item" && pa.flags["recurse"] {
				// Copy-Item ..	emplate\* . -Recurse -Force: another tree
				// over the project's files
				ws.overWorkDir(c, *src, dst, "overwrite-workdir")
			}
			if src := psPathArg(pa); src != nil {
				if a.userDataToShare(src.s, dst.s) {
					ws.emitWin(c, "win-exfil-userdata", src.s+" copied to "+dst.s)
				}
				if sp := a.winAbs(src.s); sp != "" && ws.isDownloaded(sp) {
					ws.markDownloaded(a.winAbs(dst.s))
				}
				ws.copiedSecret(a.winAbs(src.s), a.winAbs(dst.s))
				// Copy-Item "...\Login Data", "...\Local State" DEST: the
				// browser's passwords and the key that decrypts them,
				// wherever they are copied to (as cmd's copy is judged)
				for _, f := range splitComma(src.s) {
					if d, crit := a.winSensitive(a.winAbs(strings.Trim(f, `"' `))); crit && strings.HasPrefix(d, "browser credentials") && !winRemotePath(dst.s) {
						ws.emitWin(c, "win-read-secrets", d+" copied to "+dst.s)
						break
					}
				}
				if sp := a.winAbs(src.s); sp != "" && (winRemotePath(dst.s) || winOtherDrive(dst.s)) {
					if d, crit := a.winSensitive(sp); d != "" && (crit || winRemotePath(dst.s)) {
						ws.emitWin(c, "win-exfil-secrets", d+" copied to "+dst.s)
					} else if b := path.Base(sp); (b == ".env" || strings.HasPrefix(b, ".env.") && !strings.HasSuffix(b, ".example") && !strings.HasSuffix(b, ".sample")) && winRemotePath(dst.s) {
						ws.emitWin(c, "win-exfil-secrets", "the environment file "+src.s+" copied to "+dst.s)
					} else if d := ws.secret[sp]; d != "" && winRemotePath(dst.s) {
						ws.emitWin(c, "win-exfil-secrets", d+" copied to "+dst.s)
					} else if f, ok := a.files[sp]; ok && f.kind == flowSecret && winRemotePath(dst.s) {
						ws.emitWin(c, "win-exfil-secrets", f.what+" copied to "+dst.s)
					}
				}
			}
		}
		if c.name == "move-item" {
			if src := psPathArg(pa); src != nil && src.ok {
				if cl, _ := a.winClassify(a.winAbs(src.s)); cl == wpSystem || cl == wpRoot || cl == wpHome {
					ws.emitWin(c, "win-delete-system", "moving away "+winPathNames[cl]+": "+src.s)
				} else if ok {
					ws.movedAway(c, *src, dst)
				}
			}
		}
	case "new-item":
		pa := parsePSArgs(args, []string{"path", "name", "itemtype", "value", "type", "target"}, []string{"force"})
		if p := psPathArg(pa); p != nil {
			target := *p
			if n, ok := pa.get("name"); ok && target.ok {
				target = word{s: target.s + `\` + n.s, ok: n.ok}
			}
			if k, ok := normRegKey(target.s); ok && strings.Contains(target.s, ":") {
				ws.regWrite(c, k, "")
				return
			}
			if t, _ := pa.get("itemtype"); strings.EqualFold(t.s, "directory") {
				return
			}
			if t, _ := pa.get("itemtype"); strings.EqualFold(t.s, "symboliclink") || strings.EqualFold(t.s, "junction") {
				v, ok := pa.get("target")
				if !ok {
					v, ok = pa.get("value")
				}
				if ok {
					ws.a.recordWinLink(target, v)
				}
				return
			}
			if _, ok := pa.get("value"); !ok && (strings.HasSuffix(strings.ToLower(target.s), "profile.ps1") || strings.EqualFold(target.s, "$profile")) {
				return // New-Item -ItemType File -Path $PROFILE: an empty profile, nothing run at start
			}
			ws.winWrite(c, target, false)
		}
	case "set-item":
		pa := parsePSArgs(args, []string{"path", "value"}, []string{"force"})
		if p := psPathArg(pa); p != nil && strings.HasPrefix(strings.ToLower(p.s), "env:") {
			return
		}
		if p := psPathArg(pa); p != nil {
			if k, ok := normRegKey(p.s); ok {
				v, _ := pa.get("value")
				ws.regWrite(c, k, v.s)
			}
		}
	default:
		pa := parsePSArgs(args, []string{"path", "literalpath", "filepath", "value", "encoding", "inputobject", "delimiter"}, []string{"force", "append", "nonewline", "noclobber"})
		p, ok := pa.get("filepath")
		if !ok {
			if pp := psPathArg(pa); pp != nil {
				p, ok = *pp, true
			}
		}
		if ok && c.in.kind == flowNone {
			v, hasV := pa.get("value")
			if !hasV && len(pa.pos) > 1 {
				v, hasV = pa.pos[1], true
			}
			_, hasIn := pa.get("inputobject")
			if c.name == "clear-content" || c.name == "set-content" && hasV && v.ok && trivialContent(v.s) ||
				c.name == "out-file" && !hasIn && len(pa.pos) <= 1 && winSourceFile(p.s) {
				// Out-File X with nothing piped in writes X empty
				ws.winWipe(c, p)
			}
		}
		if ok {
			if strings.HasPrefix(strings.ToLower(p.s), "variable:") || strings.HasPrefix(strings.ToLower(p.s), "env:") {
				return
			}
			// Set-Content .\.npmrc -Value "...:_authToken=$env:NPM_TOKEN":
			// a secret written into a file of the repository (a later
			// git add or push of it is caught)
			if v, hasV := pa.get("value"); hasV && (c.name == "set-content" || c.name == "add-content") {
				if n := winSecretVar(v.s); n != "" {
					if fp := a.winAbs(p.s); fp != "" && a.inWork(fp) {
						a.secretsCopied = "$env:" + n + " → " + p.s
					}
				}
			}
			appends := c.name == "add-content" || pa.flags["append"]
			if appends && c.in.kind == flowNone && ws.plainAddition(p, pa) {
				return
			}
			ws.winWrite(c, p, appends)
		}
	}
}

// plainAddition reports a line appended to the hosts file or a
// PowerShell profile that only names this machine (127.0.0.1 app.local)
// or defines an alias under a new name (Set-Alias k kubectl).
func (ws *winState) plainAddition(p word, pa psArgs) bool {
	v, ok := pa.get("value")
	if !ok && len(pa.pos) > 1 {
		v, ok = pa.pos[1], true
	}
	if !ok || !v.ok {
		return false
	}
	l := strings.ReplaceAll(lower(p.s), `\`, "/")
	switch {
	case strings.HasSuffix(l, "/drivers/etc/hosts"):
		return localHostsEntries(v.s)
	case l == "$profile" || strings.HasSuffix(l, "profile.ps1"):
		return plainPSAlias(v.s)
	}
	return false
}

// plainPSAlias reports a profile line that only defines an alias under a
// new name for a plain program (Set-Alias k kubectl) or imports an
// installed module by name.
func plainPSAlias(s string) bool {
	f := strings.Fields(strings.TrimSpace(s))
	if len(f) > 1 && (strings.EqualFold(f[0], "set-psreadlineoption") || strings.EqualFold(f[0], "set-psreadlinekeyhandler")) {
		// Set-PSReadLineOption -PredictionSource History: the editor's
		// behaviour (a -ScriptBlock handler is code, and is not this)
		return !strings.ContainsAny(s, "$`;|&{}") && !strings.Contains(lower(s), "scriptblock")
	}
	if len(f) == 2 && (strings.EqualFold(f[0], "import-module") || strings.EqualFold(f[0], "ipmo")) {
		// Import-Module posh-git: a module installed by name, not a
		// path or a download
		return !strings.ContainsAny(f[1], "$`;|&<>(){}/\\:'\"@")
	}
	if len(f) == 5 && strings.EqualFold(f[1], "-name") && strings.EqualFold(f[3], "-value") {
		f = []string{f[0], f[2], f[4]} // Set-Alias -Name k -Value kubectl
	}
	if len(f) != 3 || !strings.EqualFold(f[0], "set-alias") && !strings.EqualFold(f[0], "new-alias") {
		return false
	}
	name, target := lower(f[1]), lower(f[2])
	if commonCommands[name] || coreCommands[name] || winCommonAliases[name] || strings.ContainsAny(name+target, "$`;|&<>(){}/\\:") {
		return false
	}
	return true
}

// coreSystemKey reports a key Windows cannot start or log on without,
// deleted whole: Winlogon, or a part of the system's control set
// (Session Manager, Lsa), the list of user profiles.
func coreSystemKey(k string) bool {
	return strings.HasSuffix(k, "windows nt/currentversion/winlogon") || strings.HasSuffix(k, "windows nt/currentversion/profilelist") ||
		strings.HasPrefix(k, "hklm/system/currentcontrolset/control/") && strings.Count(k, "/") == 4
}

// winCommonAliases are names PowerShell and cmd users type every day:
// redefining one changes what familiar commands do.
var winCommonAliases = map[string]bool{"dir": true, "cd": true, "del": true, "copy": true, "move": true, "type": true, "echo": true,
	"cls": true, "where": true, "gci": true, "gc": true, "iex": true, "iwr": true, "irm": true, "ni": true, "ri": true, "rm": true,
	"set-location": true, "get-childitem": true, "remove-item": true, "start-process": true, "invoke-expression": true, "powershell": true,
	"pwsh": true, "cmd": true, "explorer": true, "notepad": true, "where.exe": true}

// regDelete judges deleting a registry key.
func (ws *winState) regDelete(c *cmd, k string, recursive bool) {
	cl := classifyRegKey(k)
	if strings.HasPrefix(k, "hklm/") && strings.Count(k, "/") <= 4 && cl == regNone {
		cl = regHive
	}
	if winSettingsBranch(k) && cl == regNone || coreSystemKey(k) {
		cl = regHive // a whole branch of Windows' own settings (Uninstall, App Paths, Winlogon)
	}
	switch cl {
	case regHive, regCredHive:
		ws.emitWin(c, "win-registry-hive", k)
	case regDefender, regUAC, regLSA:
		// deleting a policy key re-enables the protection; harmless,
		// except the registrations that make a protection run at all
		if strings.Contains(k, "software/microsoft/amsi/providers") {
			ws.emitWin(c, "win-defender-disable", "the antimalware scan interface's provider removed: "+k)
		}
	case regServices:
		ws.emitWin(c, "win-registry-hive", "deleting a service: "+k)
	}
}

// regWrite judges setting a registry value under key k.
func (ws *winState) regWrite(c *cmd, k, data string) {
	dl := strings.ToLower(data)
	switch classifyRegKey(k) {
	case regAutorun:
		ws.emitWin(c, "win-registry-autorun", k)
	case regDefender:
		ws.emitWin(c, "win-defender-disable", k)
	case regUAC:
		ws.emitWin(c, "win-uac-disable", k)
	case regLSA:
		ws.emitWin(c, "win-lsa-weaken", k)
	case regSecurity:
		ws.emitWin(c, "win-security-weaken", k)
	case regNone:
		// .NET told not to use strong cryptography or the system's TLS
		// versions: every program on it may talk SSL 3 and TLS 1.0
		if strings.Contains(k, "/.netframework/") && (strings.Contains(k, "schusestrongcrypto") || strings.Contains(k, "systemdefaulttlsversions")) && strings.TrimSpace(dl) == "0" {
			ws.emitWin(c, "win-security-weaken", k)
		}
	case regRDP:
		if dl == "0" || dl == "" {
			ws.emitWin(c, "win-rdp-enable", k)
		}
	case regServices:
		ws.emitWin(c, "win-registry-autorun", "a service: "+k)
	}
}

// psInvokeExpr judges Invoke-Expression.
func (ws *winState) psInvokeExpr(c *cmd, args []word) {
	a := ws.a
	pa := parsePSArgs(args, []string{"command"}, nil)
	var w *word
	if x, ok := pa.get("command"); ok {
		w = &x
	} else if len(pa.pos) > 0 {
		w = &pa.pos[0]
	}
	if w == nil && c.in.kind != flowRemote && psPipedShellInit(c) {
		return // tool init pwsh | Invoke-Expression
	}
	if w == nil {
		switch c.in.kind {
		case flowRemote:
			ws.emitWin(c, "remote-code-exec", "Invoke-Expression of "+c.in.what)
		case flowText:
			a.nestedWin(c.in.text, ShellPowerShell, "Invoke-Expression input")
		case flowLocal, flowNone:
		default:
			a.unresolved(c, "Invoke-Expression of text that is not known", "")
		}
		return
	}
	ws.psInvokeText(c, *w, "Invoke-Expression")
}

// psInvokeText judges text run as PowerShell code.
func (ws *winState) psInvokeText(c *cmd, w word, origin string) {
	a := ws.a
	if w.ok {
		a.nestedWin(w.s, ShellPowerShell, origin+" payload")
		return
	}
	l := strings.ToLower(w.s)
	if psDownloads(l) {
		ws.emitWin(c, "remote-code-exec", origin+" of downloaded code")
		return
	}
	if name, end := psVarName(w.s, 0); name != "" && end == len(w.s) && ws.remoteVars[strings.ToLower(name)] {
		ws.emitWin(c, "remote-code-exec", origin+" of downloaded code in "+w.s)
		return
	}
	if dec, ok := psDecodeExpr(w.s); ok {
		a.nestedWin(dec, ShellPowerShell, "decoded base64 payload")
		return
	}
	if strings.HasPrefix(w.s, "(") || strings.HasPrefix(w.s, "$(") {
		if psShellInit(w.s) {
			return // a well-known tool printing its PowerShell set-up
		}
		if p := psReadExpr(w.s); p != "" && ws.a.inWork(ws.a.winAbs(p)) {
			return // the project's own script, read and run
		}
		// the code producing the text was analysed; what it produces
		// is not known
		a.unresolved(c, origin+" of computed text", "")
		return
	}
	a.unresolved(c, origin+" of a variable ("+truncate(w.s, 60)+")", "")
}

// releaseURL reports an https URL on a release site; only the path may
// be computed (https://dl.k8s.io/release/$v/...).
func releaseURL(w word) bool {
	l := lower(w.s)
	rest, ok := strings.CutPrefix(l, "https://")
	if !ok {
		return false
	}
	host, _, found := strings.Cut(rest, "/")
	if !found && !w.ok || strings.ContainsAny(host, "$`({") {
		return false
	}
	return releaseSites[hostOf(l)]
}

// psWeb judges Invoke-WebRequest, Invoke-RestMethod and Start-BitsTransfer.
func (ws *winState) psWeb(c *cmd, args []word) {
	a := ws.a
	pa := parsePSArgs(args, []string{"uri", "outfile", "method", "body", "infile", "headers", "source", "destination", "contenttype", "form", "usebasicparsing"}, []string{"usebasicparsing", "passthru", "usedefaultcredentials"})
	src, ok := pa.get("uri")
	if !ok {
		src, ok = pa.get("source")
	}
	if !ok && len(pa.pos) > 0 {
		src, ok = pa.pos[0], true
	}
	out, hasOut := pa.get("outfile")
	if !hasOut {
		out, hasOut = pa.get("destination")
	}
	if !hasOut && c.name == "start-bitstransfer" && len(pa.pos) > 1 {
		out, hasOut = pa.pos[1], true
	}
	if hasOut && out.ok && !winRemotePath(out.s) {
		p := a.winAbs(out.s)
		// -OutFile into the Startup folder, a profile, a system folder:
		// judged as any other write there
		ws.winWrite(c, out, false)
		ws.markDownloaded(p)
		if ok && (releaseURL(src) || !src.ok && ws.releaseVars[strings.ToLower(strings.TrimPrefix(src.s, "$"))]) && p != "" {
			a.markReleased(p, path.Base(p))
		}
	}
	if m, hasM := pa.get("method"); hasM && ok && m.ok && src.ok && !strings.EqualFold(m.s, "get") && !strings.EqualFold(m.s, "head") && c.name != "start-bitstransfer" {
		// -Method Delete/Put/Patch/Post: the same call as curl -X makes,
		// judged by the rules for raw API calls
		sub := []word{lit("curl"), lit("-X"), lit(strings.ToUpper(m.s)), src}
		if b, ok := pa.get("body"); ok && b.ok {
			sub = append(sub, lit("-d"), b) // the change the call makes ({"private":false})
		}
		a.subCommand(c, sub, c.base)
	}
	// secrets leaving (in the parameters' order of names: what is
	// reported first must not depend on a map's order)
	for _, k := range slices.Sorted(maps.Keys(pa.named)) {
		w := pa.named[k]
		if k == "outfile" || k == "destination" && !winRemotePath(w.s) {
			continue
		}
		if k == "headers" && strings.HasPrefix(w.s, "$") && !strings.ContainsAny(w.s[1:], " @{};") {
			// -Headers $h: the hashtable assigned to $h earlier
			if raw, ok := ws.hashtables[strings.ToLower(strings.TrimPrefix(w.s[1:], "script:"))]; ok {
				w = word{s: raw}
			}
		}
		if k == "headers" && psAuthHeader(w.s) {
			// a token in the Authorization header signs the request in,
			// as curl -H does, unless the token is another service's (a
			// client's own token, $(gh auth token), is judged by
			// cliTokenArgs)
			if n := winSecretVar(w.s); n != "" && ok && foreignToIssuer(n, hostOf(src.s)) && knownIssuer(n) {
				ws.emitWin(c, "win-exfil-secrets", "the "+n+" token sent to "+hostOf(src.s))
			}
			continue
		}
		if k == "infile" || k == "form" {
			ws.secretsLeaving(c, w, k)
			continue
		}
		ws.secretsLeaving(c, w, "")
	}
	for i, w := range pa.pos {
		if i == 0 && ok && src.s == w.s {
			// ?key=$env:ROUTING_API_KEY to the service the key is for: the
			// request's credential, as a header would carry it (another
			// service's key, a bare address or a drop site is a leak)
			if h := hostOf(src.s); h != "" && !isPublicIP(h) && dropSite(h) == "" && strings.Contains(h, ".") {
				if n := winSecretVar(w.s); n != "" && !foreignToIssuer(n, h) && psSecretExpr(strings.ToLower(w.s)) == "" {
					continue
				}
			}
			ws.secretsLeaving(c, w, "uri")
			continue
		}
		ws.secretsLeaving(c, w, "")
	}
	if c.in.kind == flowSecret {
		ws.emitWin(c, "win-exfil-secrets", c.in.what)
	}
}

// certutilEncode judges certutil -encode of a secret: the copy holds the
// secret too, whichever uploader sends it later.
func (ws *winState) certutilEncode(c *cmd) {
	a := ws.a
	ops := winOperands(c.args())
	if !hasSw(wargs(c), "encode", "encodehex") || len(ops) < 2 || !ops[0].ok {
		return
	}
	d, _ := a.winSensitive(a.winAbs(ops[0].s))
	if d == "" {
		// key material of the project's own (a signing certificate): an
		// encoded copy sent away is the key sent away
		if k, crit := a.sensitive(a.winAbs(ops[0].s), a.cwd); crit && strings.HasPrefix(k, "key material") {
			d = k
		}
	}
	if b := strings.ToLower(path.Base(strings.ReplaceAll(ops[0].s, `\`, "/"))); d == "" && (b == ".env" || strings.HasPrefix(b, ".env.")) {
		d = "environment file " + ops[0].s
	}
	if d != "" {
		ws.markSecretCopy(a.winAbs(ops[1].s), "an encoded copy of "+d)
	}
}

// winrsPayload judges the command winrs -r:HOST runs on the other
// machine as the cmd line it is there.
func (ws *winState) winrsPayload(c *cmd) {
	args := c.args()
	for i, w := range args {
		if len(w.s) > 1 && (w.s[0] == '-' || w.s[0] == '/') {
			continue
		}
		parts := make([]string, 0, len(args)-i)
		for _, x := range args[i:] {
			parts = append(parts, x.s)
		}
		ws.a.nestedWin(strings.Join(parts, " "), ShellCmd, "winrs payload")
		return
	}
}

// markSecretCopy records that the file at p (normal form) holds a secret:
// uploading or copying it away later sends that secret.
// copiedSecret records a copy of a credential store: the copy (dst
// itself, or the same name inside dst when it is a folder) holds the
// secrets, so sending it later sends them.
func (ws *winState) copiedSecret(sp, dp string) {
	if sp == "" || dp == "" {
		return
	}
	d, _ := ws.a.winSensitive(sp)
	if d == "" {
		d = ws.secret[sp]
	}
	if f, ok := ws.a.files[sp]; d == "" && ok && f.kind == flowSecret {
		d = f.what // an archive of keys made earlier (tar -cf)
	}
	if d == "" {
		return
	}
	ws.markSecretCopy(dp, "a copy of "+d)
	ws.markSecretCopy(strings.TrimSuffix(dp, "/")+"/"+path.Base(sp), "a copy of "+d)
}

func (ws *winState) markSecretCopy(p, what string) {
	if p == "" {
		return
	}
	if ws.secret == nil {
		ws.secret = map[string]string{}
	}
	ws.secret[p] = what
	if ws.a.files == nil {
		ws.a.files = make(map[string]flow)
	}
	ws.a.files[p] = flow{kind: flowSecret, what: what, crit: true}
}

// winOperands are the arguments that are not switches (/x, -x).
func winOperands(args []word) []word {
	var out []word
	for _, w := range args {
		if len(w.s) > 1 && (w.s[0] == '-' || w.s[0] == '/' && !strings.Contains(w.s[1:], "/")) {
			continue
		}
		out = append(out, w)
	}
	return out
}

// secretVarNames are parts of environment variable names that hold secrets.
var secretVarNames = []string{"token", "secret", "password", "passwd", "apikey", "api_key", "access_key", "private_key", "credential", "auth", "account_key", "storage_connection_string", "servicebus_connection_string"}

// secretsLeaving reports a network request carrying credentials.
func (ws *winState) secretsLeaving(c *cmd, w word, param string) {
	a := ws.a
	l := strings.ToLower(w.s)
	if d := psSecretExpr(l); d != "" {
		ws.emitWin(c, "win-exfil-secrets", d)
		return
	}
	if d := ws.secretVarIn(w.s); d != "" {
		ws.emitWin(c, "win-exfil-secrets", d)
		return
	}
	for _, api := range [...]string{"readallbytes(", "readalltext(", "readalllines(", "get-content "} {
		// ?d=[Convert]::ToBase64String([IO.File]::ReadAllBytes(KEY)):
		// a file read into the request, wherever in it
		if i := strings.Index(l, api); i >= 0 {
			arg := strings.TrimLeft(w.s[i+len(api):], " (")
			if j := strings.IndexAny(arg, ")"); j >= 0 {
				arg = arg[:j]
			}
			if d, _ := a.winSensitive(a.winAbs(strings.Trim(strings.Fields(arg + " ")[0], `"'`))); d != "" {
				ws.emitWin(c, "win-exfil-secrets", d)
				return
			}
		}
	}
	// $env:AWS_SECRET_ACCESS_KEY and friends in the request
	for i := strings.Index(l, "$env:"); i >= 0; {
		name := l[i+5:]
		if j := strings.IndexAny(name, " \"'&?/;,)}"); j >= 0 {
			name = name[:j]
		}
		for _, s := range secretVarNames {
			if strings.Contains(name, s) || isSecretVar(name) {
				ws.emitWin(c, "win-exfil-secrets", "the environment variable "+name)
				return
			}
		}
		k := strings.Index(l[i+5:], "$env:")
		if k < 0 {
			break
		}
		i += 5 + k
	}
	if strings.Contains(l, "env:") && (strings.Contains(l, "get-childitem") || strings.Contains(l, "gci") || strings.Contains(l, "dir env:")) ||
		strings.Contains(l, "getenvironmentvariables") {
		ws.emitWin(c, "win-exfil-secrets", "the whole environment")
		return
	}
	if param == "infile" || param == "body" || param == "form" || param == "" {
		cands := []string{w.s}
		if param == "form" {
			// -Form @{document = Get-Item "$env:USERPROFILE\.aws\credentials"}:
			// the file uploaded as a form field
			for _, m := range psFormFile.FindAllStringSubmatch(w.s, 4) {
				cands = append(cands, ws.psWord(m[1], nil).s)
			}
		}
		for _, g := range psGroups(w.s) {
			// -Body (Get-Clipboard), -Body (Get-AzAccessToken).Token
			if f := ws.psGroupOut(g, nil); f.kind == flowSecret {
				ws.emitWin(c, "win-exfil-secrets", f.what)
				return
			}
			for _, f := range strings.Fields(g) {
				cands = append(cands, ws.psWord(f, nil).s)
			}
		}
		for _, s := range cands {
			s = strings.Trim(s, `"'@`)
			p := a.winAbs(s)
			if p == "" {
				continue
			}
			// the profile's stores, then the project's own secret
			// files (.env, appsettings.Production.json) by name
			if d, _ := a.sensitive(p, a.cwd); d != "" {
				ws.emitWin(c, "win-exfil-secrets", d)
				return
			}
			if d := ws.secret[p]; d != "" {
				ws.emitWin(c, "win-exfil-secrets", d)
				return
			}
			if f, ok := a.writtenFile(p, a.cwd); ok && f.tree && param == "infile" {
				// git bundle create $env:TEMP\r.bundle --all; irm -InFile
				// it: a whole folder or repository, archived and sent
				ws.emitWin(c, "exfil-archive", f.what)
				return
			}
			if f, ok := a.writtenFile(p, a.cwd); ok && f.kind == flowSecret {
				// pg_dump ... -f $env:TEMP\core.dump; iwr -InFile
				// $env:TEMP\core.dump: what the line wrote there goes
				if f.crit {
					ws.emitWin(c, "win-exfil-secrets", f.what)
				} else {
					ws.emitWin(c, "exfil-upload-data", f.what)
				}
				return
			}
			if param == "infile" && (databaseFile(s) || winBackupFiles(lower(s))) {
				// -InFile .\exports\prod_customers.csv, C:\temp\Sales_full.bak:
				// the records go
				ws.emitWin(c, "exfil-upload-data", "a database, a backup or an export of its records ("+s+")")
				return
			}
			if param == "infile" && memoryDumpFile(s) {
				ws.emitWin(c, "win-exfil-secrets", "a process memory dump ("+s+")")
				return
			}
		}
	}
}

// psFormFile finds the files a -Form hashtable uploads (Get-Item PATH).
var psFormFile = regexp.MustCompile(`(?i)(?:get-item|gi|get-childitem|gci)\s+("[^"]*"|'[^']*'|[^\s;})]+)`)

// psSecretExpr describes a PowerShell expression (lower case) whose value
// is a secret in clear text: a credential's password, a vault secret read
// -AsPlainText, a decrypted SecureString, the whole environment, a
// screen capture; "" for none.
func psSecretExpr(l string) string {
	switch {
	case strings.Contains(l, "getnetworkcredential()"):
		return "a credential's password in clear text"
	case strings.Contains(l, "networkcredential") && strings.HasSuffix(strings.TrimRight(l, " )"), ".password"):
		// [Net.NetworkCredential]::new('', $secure).Password
		return "a decrypted SecureString"
	case strings.Contains(l, "-asplaintext") && (strings.Contains(l, "get-secret") || strings.Contains(l, "get-azkeyvaultsecret") ||
		strings.Contains(l, "convertfrom-securestring") || strings.Contains(l, "get-storedcredential")):
		return "a stored secret read -AsPlainText"
	case strings.Contains(l, "ptrtostringauto(") || strings.Contains(l, "ptrtostringbstr(") || strings.Contains(l, "ptrtostringuni(") ||
		strings.Contains(l, "securestringtobstr("):
		return "a decrypted SecureString"
	case strings.Contains(l, "getenvironmentvariables()"):
		return "the whole environment"
	case strings.Contains(l, "copyfromscreen("):
		return "a capture of the screen"
	case strings.Contains(l, "getnamespace(") && strings.Contains(l, "mapi"):
		return "the Outlook mailbox (contacts, mail)"
	case strings.Contains(l, "protecteddata]::unprotect("):
		// DPAPI: what an application stored encrypted for this user
		// (tokens, passwords), decrypted
		return "data decrypted with the user's DPAPI key"
	}
	for _, pre := range [...]string{"get-childitem env:", "gci env:", "dir env:", "ls env:", "get-item env:", "gi env:"} {
		if i := strings.Index(l, pre); i >= 0 && !strings.HasPrefix(l[i+len(pre):], "\\") {
			rest := l[i+len(pre):]
			if rest == "" || rest[0] == ' ' || rest[0] == ')' || rest[0] == '|' || rest[0] == '*' {
				return "the whole environment"
			}
		}
	}
	return ""
}

// psCLIToken names, as foreignToIssuer reads names, the service whose
// token a command-line client prints inside s (lower case): "$(gh auth
// token)" is a GitHub token, az account get-access-token an Azure one;
// "" for none.
func psCLIToken(l string) string {
	switch {
	case strings.Contains(l, "gh auth token"):
		return "github_token"
	case strings.Contains(l, "glab auth token"):
		return "gitlab_token"
	case strings.Contains(l, "az account get-access-token"):
		return "azure_token"
	case strings.Contains(l, "gcloud auth print-access-token") || strings.Contains(l, "gcloud auth print-identity-token"):
		return "googleapis_token"
	}
	return ""
}

// issuerURL reports a URL a service's token may be sent to: https, to a
// name rather than an address.
func issuerURL(u string) bool {
	if !strings.HasPrefix(strings.ToLower(u), "https://") {
		return false
	}
	_, isIP := parseIP(hostOf(u))
	return !isIP
}

// cliTokenIn is psCLIToken of a variable named in s that holds a
// client's token, or "".
func (ws *winState) cliTokenIn(s string) string {
	if len(ws.cliTokens) == 0 {
		return ""
	}
	for i := strings.IndexByte(s, '$'); i >= 0; {
		if name, _ := psVarName(s, i); name != "" {
			if v, ok := ws.cliTokens[strings.ToLower(name)]; ok {
				return psCLIToken(strings.ToLower(v))
			}
		}
		k := strings.IndexByte(s[i+1:], '$')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return ""
}

// winSecretVar returns the name of a secret-looking environment variable
// that s expands ($env:X, ${env:X}, %X%), or "".
func winSecretVar(s string) string {
	l := strings.ToLower(s)
	for _, pre := range [...]string{"$env:", "${env:", "%"} {
		for i := strings.Index(l, pre); i >= 0; {
			name := l[i+len(pre):]
			if j := strings.IndexAny(name, " \"'&?/;,)}%.:"); j >= 0 {
				name = name[:j]
			}
			after := l[i+len(pre)+len(name):]
			for _, sv := range secretVarNames {
				if strings.HasPrefix(after, ".length") || strings.HasPrefix(after, ".count") {
					break // $env:X.Length: how long it is
				}
				if strings.Contains(name, sv) || strings.HasSuffix(name, "_key") || strings.HasSuffix(name, "_pat") {
					return name
				}
			}
			k := strings.Index(l[i+len(pre):], pre)
			if k < 0 {
				break
			}
			i += len(pre) + k
		}
	}
	return ""
}

// psStartProcess judges Start-Process: the program it starts with its
// arguments, elevation, and downloaded programs.
func (ws *winState) psStartProcess(c *cmd, args []word) {
	a := ws.a
	pa := parsePSArgs(args, []string{"filepath", "argumentlist", "verb", "workingdirectory", "windowstyle", "credential", "redirectstandardoutput", "redirectstandardinput", "redirectstandarderror"},
		[]string{"wait", "nonewwindow", "passthru", "loaduserprofile", "usenewenvironment"})
	fp, ok := pa.get("filepath")
	rest := pa.pos
	if !ok && len(rest) > 0 {
		fp, ok = rest[0], true
		rest = rest[1:]
	}
	if !ok {
		return
	}
	al, hasAL := pa.get("argumentlist")
	if !hasAL && len(rest) > 0 {
		al, hasAL = rest[0], true
	}
	prog := canonicalPS(fp.s)
	shell := prog == "pwsh" || prog == "cmd" || isShellName(prog) || prog == "wt"
	if v, _ := pa.get("verb"); strings.EqualFold(v.s, "runas") && shell {
		ws.emitWin(c, "win-elevated-shell", fp.s)
	}
	if _, cred := pa.get("credential"); cred && shell {
		ws.emitWin(c, "win-elevated-shell", fp.s+" as another account")
	}
	if p := a.winAbs(fp.s); p != "" && ws.isDownloaded(p) || winRemoteExec(fp.s) {
		ws.emitWin(c, "remote-code-exec", "starting "+fp.s+", downloaded or on a network share")
	}
	line := cmdQuote(fp.s)
	if hasAL {
		if !al.ok {
			if strings.HasPrefix(al.s, "(") || strings.HasPrefix(al.s, "@(") {
				line += " " + psListText(al.s)
			} else {
				a.unresolved(c, "Start-Process arguments that are not known ("+truncate(al.s, 60)+")", "")
				return
			}
		} else {
			line += " " + psListText(al.s)
		}
	}
	if !fp.ok {
		return
	}
	a.nestedWin(line, ShellCmd, "Start-Process")
}

// psSpawns reports code that starts processes or jobs.
func psSpawns(l string) bool {
	return strings.Contains(l, "start-process") || strings.Contains(l, "start-job") || strings.Contains(l, "saps ") ||
		strings.Contains(l, "start ") || strings.Contains(l, "sajb") || strings.Contains(l, "start-threadjob") ||
		strings.Contains(l, "process]::start") || strings.Contains(l, "invoke-wmimethod") || strings.Contains(l, "-parallel")
}

// psSends reports code that sends data over the network.
func psSends(l string) bool {
	return strings.Contains(l, "invoke-restmethod") || strings.Contains(l, "invoke-webrequest") || strings.Contains(l, "irm ") ||
		strings.Contains(l, "iwr ") || strings.Contains(l, "upload") || strings.Contains(l, "send-mailmessage") ||
		strings.Contains(l, "curl") || strings.Contains(l, "wget") || strings.Contains(l, "out-file \\\\") ||
		strings.Contains(l, "tcpclient") || strings.Contains(l, "udpclient") || strings.Contains(l, "resolve-dnsname")
}

// psListText turns a PowerShell argument list ('a','b' or "a b") into a
// command line.
func psListText(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(strings.TrimPrefix(s, "@("), "(")
	s = strings.TrimSuffix(s, ")")
	if !strings.Contains(s, ",") {
		return strings.Trim(s, `'"`)
	}
	var parts []string
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		p = strings.Trim(p, `'"`)
		parts = append(parts, p)
	}
	return strings.Join(parts, " ")
}

func cmdQuote(s string) string {
	if strings.ContainsAny(s, " \t&|<>^") {
		return `"` + s + `"`
	}
	return s
}

// psOutFlow is what a PowerShell command writes to the pipeline.
func (ws *winState) psOutFlow(c *cmd) flow {
	a := ws.a
	args := c.args()
	if isShellInit(c) || psShellInit(strings.TrimSpace(c.line())) {
		// oh-my-posh init pwsh | Invoke-Expression, (& conda
		// 'shell.powershell' 'hook') | Out-String | iex: a known tool's
		// shell code, trusted as in POSIX shells
		return flow{kind: flowText}
	}
	switch c.name {
	case "invoke-webrequest", "invoke-restmethod":
		for _, w := range args {
			if l := strings.ToLower(w.s); strings.HasPrefix(l, "-o") && len(l) > 2 && strings.HasPrefix("-outfile", l) {
				return flow{}
			}
		}
		return flow{kind: flowRemote, what: c.line()}
	case "get-content":
		for _, w := range args {
			p := a.winAbs(w.s)
			if d, crit := a.winSensitive(p); d != "" {
				return flow{kind: flowSecret, what: d, crit: crit}
			}
			if d := ws.secret[p]; d != "" {
				return flow{kind: flowSecret, what: d, crit: true}
			}
			if b := path.Base(p); b == ".env" || strings.HasPrefix(b, ".env.") {
				return flow{kind: flowSecret, what: "environment file " + w.s, crit: true}
			}
		}
		if len(args) == 0 && c.in.kind == flowSecret {
			return c.in // the key files piped in, read
		}
		return flow{kind: flowLocal}
	case "get-childitem", "get-item":
		for _, w := range args {
			l := strings.ToLower(w.s)
			if strings.HasPrefix(l, "env:") {
				if hasSw(wargs(c), "name") {
					return flow{kind: flowText} // Get-ChildItem env: -Name: the names only
				}
				if v := strings.Trim(l[4:], `\/`); v != "" && !strings.ContainsAny(v, "*?[") && !secretVarName(strings.ToUpper(v)) {
					return flow{kind: flowText} // Get-Item env:Path: one variable that holds no secret
				}
				return flow{kind: flowSecret, what: "the environment", crit: true}
			}
			// parameters and names in the current folder are no store
			if !strings.HasPrefix(l, "-") && strings.ContainsAny(l, `\/:`) {
				if d, crit := a.winSensitive(a.winAbs(w.s)); d != "" && crit {
					return flow{kind: flowSecret, what: d, crit: true}
				}
			}
			for _, k := range [...]string{".pem", ".pfx", ".key", "id_rsa", "id_ed25519", ".kdbx", ".p12", "credentials", ".env", ".ppk", ".rdp", ".ovpn"} {
				if strings.Contains(l, k) {
					return flow{kind: flowSecret, what: "key files found by " + c.base, crit: true}
				}
			}
			if d := regCredentialStore(l); d != "" {
				return flow{kind: flowSecret, what: d, crit: true}
			}
		}
		return flow{kind: flowList, what: "items"}
	case "get-process":
		if len(args) == 0 {
			return flow{kind: flowList, what: "every process"}
		}
		return flow{kind: flowList}
	case "get-service":
		if len(args) == 0 || len(args) == 1 && strings.Trim(args[0].s, `"'`) == "*" {
			return flow{kind: flowList, what: "every service"}
		}
		return flow{kind: flowList}
	case "get-ciminstance", "get-wmiobject":
		for _, w := range args {
			if l := strings.ToLower(w.s); strings.Contains(l, "win32_shadowcopy") && !strings.Contains(l, "where") {
				return flow{kind: flowList, what: "every shadow copy"}
			}
			if l := strings.ToLower(w.s); strings.Contains(l, "win32_pagefilesetting") {
				return flow{kind: flowList, what: "the page file"}
			}
		}
		return flow{kind: flowList}
	case "get-clipboard":
		return flow{kind: flowSecret, what: "the clipboard"}
	case "select-string", "sls", "findstr":
		// lines matching password, secret, token: the secrets found
		if secretSearch(strings.ToLower(joinWords(args))) {
			return flow{kind: flowSecret, what: "lines found by searching for passwords or keys", crit: true}
		}
	case "get-azaccesstoken", "get-msaltoken", "get-awscredential", "get-gcloudauthtoken":
		// a bearer token for the signed-in cloud account
		return flow{kind: flowSecret, what: "a cloud access token (" + c.base + ")", crit: true}
	case "get-azstorageaccountkey", "new-azstorageaccountsastoken", "new-azstoragecontainersastoken", "new-azstorageblobsastoken",
		"new-azstoragesharesastoken", "new-azstoragefilesastoken", "new-azstoragetablesastoken", "new-azstoragequeuesastoken",
		"grant-azdiskaccess", "grant-azsnapshotaccess", "get-azcosmosdbaccountkey", "get-azrediscachekey", "get-azservicebuskey",
		"get-azeventhubkey", "get-azcognitiveservicesaccountkey", "get-azsearchadminkey", "get-azwebapppublishingprofile",
		"get-azcontainerregistrycredential", "new-iamaccesskey", "get-ecrloginpassword", "get-ecrauthorizationtoken":
		// Az's and AWS Tools' readers of account keys, and the SAS
		// URLs they make: whoever holds one reads (or writes) the data
		return flow{kind: flowSecret, what: "an access key or SAS (" + c.base + ")", crit: true}
	case "get-aduser", "get-mguser", "get-azureaduser", "get-msoluser", "get-adcomputer", "get-adgroupmember", "get-mailbox", "get-exomailbox",
		"get-recipient", "get-mgcontact", "get-mggroupmember", "get-csonlineuser", "get-pnpuser":
		// the directory's people, listed whole: who works where, their
		// mail and phone numbers
		l := strings.ToLower(joinWords(args))
		if strings.Contains(l, "-filter *") || strings.Contains(l, "-all") || strings.Contains(l, "-resultsize unlimited") || strings.Contains(l, "-filter \"*\"") {
			return flow{kind: flowSecret, what: "the directory's users (" + c.base + ")", crit: true}
		}
	case "get-secsecretvalue", "get-ssmparametervalue", "get-gcsecret", "get-kvsecret":
		// AWS Secrets Manager, SSM and other vaults' PowerShell readers
		return flow{kind: flowSecret, what: "a stored secret (" + c.base + ")", crit: true}
	case "get-ssmparameter", "get-ssmparameterlist", "get-ssmparametersbypath":
		if strings.Contains(strings.ToLower(joinWords(args)), "-withdecryption") {
			return flow{kind: flowSecret, what: "a decrypted SSM parameter (" + c.base + ")", crit: true}
		}
	case "get-secret", "get-azkeyvaultsecret", "convertfrom-securestring", "get-storedcredential", "get-secretinfo":
		// SecretManagement, Key Vault and DPAPI values in clear text
		for _, w := range args {
			if strings.EqualFold(w.s, "-asplaintext") {
				return flow{kind: flowSecret, what: "a stored secret (" + c.base + " -AsPlainText)", crit: true}
			}
		}
	case "write-output", "write-host":
		if len(args) == 1 && args[0].ok {
			return flow{kind: flowText, text: args[0].s}
		}
	case "out-string", "convertto-json", "select-object", "where-object", "sort-object", "format-list", "format-table", "foreach-object",
		"get-itemproperty", "convertto-csv", "convertto-xml", "get-unique":
		if c.name == "get-itemproperty" && len(args) > 0 {
			break // its own path, not the keys piped in
		}
		if c.name == "foreach-object" {
			if d := psSecretExpr(strings.ToLower(joinWords(args))); d != "" {
				return flow{kind: flowSecret, what: d, crit: true} // % { Get-Secret $_.Name -AsPlainText }
			}
		}
		if c.in.kind == flowSecret && c.in.what == "the environment" && c.name != "where-object" && c.name != "sort-object" && psNamesOnly(args) {
			return flow{kind: flowText} // the variables' names, never their values
		}
		if c.in.kind == flowSecret || c.in.kind == flowRemote || (c.name == "out-string" || c.name == "where-object") && c.in.kind == flowLocal {
			return c.in
		}
		if c.in.kind == flowList && c.in.what != "" && (c.name == "sort-object" || c.name == "get-unique" || c.name == "where-object" && (psExcludes(args) || psPicksProduction(c, args))) {
			// (sorted, or each kept once, the listing is still all there)
			// | ? { $_ -notmatch 'kube-' }: everything but a few, still
			// the whole listing for what follows
			return c.in
		}
		if c.in.kind == flowList && (c.in.what == "every service" || c.in.what == "every shadow copy") && (c.name == "sort-object" || c.name == "where-object" && psStatusFilter(args)) {
			// a filter on the state keeps every running one
			return c.in
		}
	}
	if f, ok := psListsEverything(c); ok {
		return f
	}
	if d := infraOutputs(c); d != "" {
		return flow{kind: flowSecret, what: d, crit: true}
	}
	if winRouted(c.name) {
		return c.outFlow(a)
	}
	return flow{kind: flowUnknown}
}

// psNamesOnly reports a projection that keeps only an item's name
// (Select-Object Name, ForEach-Object { $_.Name }, Format-Table Key).
func psNamesOnly(args []word) bool {
	n := 0
	for _, w := range args {
		l := strings.ToLower(strings.Join(strings.Fields(w.s), ""))
		switch l {
		case "-property", "-expandproperty", "-autosize", "-hidetableheaders":
			continue
		case "name", "key", "{$_.name}", "{$_.key}", "$_.name", "$_.key", "{$psitem.name}",
			// an account's or a key's name, a secret's version record
			"username", "keyname", "metadata":
			n++
			continue
		}
		return false
	}
	return n > 0
}

// forfiles runs its /c command once per file matched: @path and @file
// stand for every file under /p matching /m (in every subfolder with /s).
func (a *analysis) forfiles(c *cmd) {
	args := c.args()
	dir, mask, recursive, payload := ".", "*", false, ""
	for i := 0; i < len(args); i++ {
		s := strings.ToLower(args[i].s)
		if strings.HasPrefix(s, "-") {
			s = "/" + s[1:]
		}
		val := func() string {
			if i+1 < len(args) {
				i++
				return args[i].s
			}
			return ""
		}
		switch s {
		case "/p":
			dir = val()
		case "/m":
			mask = val()
		case "/c":
			payload = val()
		case "/s":
			recursive = true
		}
	}
	if payload == "" {
		return
	}
	each := strings.TrimRight(dir, `\/`) + `\` + mask
	if mask == "*.*" || mask == "*" {
		each = strings.TrimRight(dir, `\/`) + `\*`
	}
	l := strings.ToLower(payload)
	for _, v := range [...]string{"0x22@path0x22", "0x22@file0x22", "\"@path\"", "\"@file\"", "@path", "@file", "@fname"} {
		for {
			i := strings.Index(l, v)
			if i < 0 {
				break
			}
			payload = payload[:i] + cmdQuote(each) + payload[i+len(v):]
			l = strings.ToLower(payload)
		}
	}
	if recursive {
		for _, d := range [...]string{"del ", "erase ", "rd ", "rmdir "} {
			if i := strings.Index(l, d); i >= 0 {
				payload = payload[:i+len(d)] + "/s " + payload[i+len(d):]
				break
			}
		}
	}
	a.nestedWin(payload, ShellCmd, "forfiles /c")
}

// psOverwrites reports code that replaces a file's contents.
func psOverwrites(l string) bool {
	for _, s := range [...]string{"set-content", "clear-content", "writeallbytes", "writealltext", "writealllines", "out-file", "clc ", "sc "} {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

// psStatusFilter reports a Where-Object filter on the state alone.
func psStatusFilter(args []word) bool {
	l := strings.ToLower(joinWords(args))
	return strings.Contains(l, "status") && !strings.Contains(l, "name") && !strings.Contains(l, "-like") && !strings.Contains(l, "-match")
}

// prepareWindows analyses the payload of powershell/pwsh and cmd run as
// commands (from any shell): -Command, -EncodedCommand (base64 UTF-16LE,
// decoded), cmd /c. It reports whether it took the command over.
func (a *analysis) prepareWindows(c *cmd) bool {
	switch c.name {
	case "pwsh":
		return a.preparePowerShell(c)
	case "cmd":
		return a.prepareCmdExe(c)
	case "wmic":
		// wmic process call create "cmd /c ..."
		args := wargs(c)
		for i := 0; i+2 < len(args); i++ {
			if args[i] == "process" && args[i+1] == "call" && args[i+2] == "create" && i+3 < len(args) {
				a.nestedWin(c.args()[i+3].s, ShellCmd, "wmic process call create")
				return false
			}
		}
	case "forfiles":
		if v, ok := swVal(wargs(c), "c"); ok && v != "" {
			a.forfiles(c)
		}
	case "invoke-cimmethod", "invoke-wmimethod":
		// Invoke-CimMethod -ClassName Win32_Process -MethodName Create
		// -Arguments @{CommandLine='...'}: a new process runs the line
		j := strings.ToLower(c.argsText())
		if strings.Contains(j, "win32_process") && strings.Contains(j, "create") {
			if m := cimCommandLine.FindStringSubmatch(c.argsText()); m != nil {
				a.nestedWin(strings.TrimSpace(m[1]+m[2]+m[3]), ShellCmd, c.name+" Win32_Process Create")
			}
		}
	}
	return false
}

// cimCommandLine finds the command line given to Win32_Process's Create:
// CommandLine='...' in -Arguments, or -ArgumentList '...'.
var cimCommandLine = regexp.MustCompile(`(?i)(?:commandline\s*=\s*|-argumentlist\s+)(?:'([^']*)'|"([^"]*)"|([^};]+))`)

func (a *analysis) preparePowerShell(c *cmd) bool {
	args := c.args()
	valued := []string{"windowstyle", "executionpolicy", "inputformat", "outputformat", "version", "psconsolefile",
		"workingdirectory", "configurationname", "custompipename", "settingsfile", "ep", "wd", "w", "ex", "exec"}
	for i := 0; i < len(args); i++ {
		s := strings.ToLower(args[i].s)
		if strings.HasPrefix(s, "/") {
			s = "-" + s[1:]
		}
		if strings.HasPrefix(s, "--") {
			s = s[1:]
		}
		if s == "-" {
			return false // reads the commands from standard input
		}
		if !strings.HasPrefix(s, "-") {
			// the remaining words are the command
			return a.pwshPayload(c, args[i:])
		}
		name := s[1:]
		switch {
		case name == "c" || len(name) >= 2 && strings.HasPrefix("command", name):
			if i+1 < len(args) && args[i+1].s == "-" {
				return false // reads the commands from standard input
			}
			return a.pwshPayload(c, args[i+1:])
		case name == "e" || name == "ec" || len(name) >= 2 && strings.HasPrefix("encodedcommand", name):
			if i+1 < len(args) {
				code, ok := decodeUTF16Base64(strings.Trim(args[i+1].s, `"'`))
				if !ok {
					a.unresolved(c, "an encoded PowerShell command that does not decode", "")
					return true
				}
				a.nestedWin(code, ShellPowerShell, "powershell -EncodedCommand payload (decoded)")
			}
			return true
		case name == "f" || len(name) >= 2 && strings.HasPrefix("file", name):
			if i+1 < len(args) {
				ws := a.newWinState(ShellPowerShell, "powershell -File")
				_ = ws
				p := a.winAbs(args[i+1].s)
				if a.isDownloaded(args[i+1].s, c.cwd) || p != "" && a.isDownloaded(p, c.cwd) {
					r := ruleByID["remote-code-exec"]
					a.emit(c, r, "running a downloaded script")
				}
				if winRemoteExec(args[i+1].s) || p != "" && a.inDownloads(p) {
					a.emit(c, ruleByID["remote-code-exec"], "running a script from a network share or the Downloads folder")
				}
				if f, ok := a.files[p]; ok && f.kind == flowText && p != "" {
					a.nestedWin(f.text, ShellPowerShell, "powershell -File script written earlier")
				}
			}
			return true
		case matchParam(name, valued) != "" && !strings.HasPrefix("noprofile", name) && !strings.HasPrefix("noninteractive", name) && !strings.HasPrefix("noexit", name) && !strings.HasPrefix("nologo", name):
			i++
		}
	}
	return len(args) > 0
}

func (a *analysis) pwshPayload(c *cmd, ws []word) bool {
	if len(ws) == 0 {
		return true
	}
	parts := make([]string, len(ws))
	ok := true
	for i, w := range ws {
		parts[i] = w.s
		ok = ok && w.ok
	}
	src := strings.Join(parts, " ")
	if !ok && !strings.Contains(src, "$") {
		a.unresolved(c, "a PowerShell command that is not known", "")
		return true
	}
	if t := strings.TrimLeft(src, " \t&.{("); !ok && strings.HasPrefix(t, "$(") {
		// pwsh -c "& { $(irm URL) }": the calling shell fills in the
		// download, and the text it fetched is the command
		if g := psGroupText(t[1:]); strings.Contains(g, "://") && psDownloads(strings.ToLower(g)) {
			a.emit(c, ruleByID["remote-code-exec"], "the command is what "+truncate(g, 80)+" downloads")
		}
	}
	if strings.IndexByte(src, '^') >= 0 {
		// i^ex (i^wr ...): PowerShell has no caret escape; carets between
		// letters only hide names from a reader (cmd strips them outside
		// quotes, the payload is read both ways)
		if stripped := stripLetterCarets(src); stripped != src {
			a.nestedWin(stripped, ShellPowerShell, "powershell -Command payload (carets removed)")
		}
	}
	a.nestedWin(src, ShellPowerShell, "powershell -Command payload")
	return true
}

func (a *analysis) prepareCmdExe(c *cmd) bool {
	args := c.args()
	for i := 0; i < len(args); i++ {
		s := strings.ToLower(args[i].s)
		if strings.HasPrefix(s, "//") {
			s = s[1:] // Git Bash: cmd //c
		}
		if !strings.HasPrefix(s, "/") {
			return false
		}
		if s == "/c" || s == "/k" || s == "/r" || strings.HasPrefix(s, "/c") && len(s) > 2 && !isLetters(s[2:3]) {
			rest := args[i+1:]
			if s != "/c" && s != "/k" && s != "/r" {
				rest = append([]word{{s: args[i].s[2:], ok: args[i].ok}}, rest...)
			}
			parts := make([]string, len(rest))
			for j, w := range rest {
				parts[j] = w.s
				if j > 0 && strings.ContainsAny(w.s, " \t") && !strings.HasPrefix(w.s, `"`) {
					parts[j] = `"` + w.s + `"`
				}
			}
			src := strings.Join(parts, " ")
			if len(rest) == 1 {
				src = rest[0].s
			}
			a.nestedWin(src, ShellCmd, "cmd /c payload")
			return true
		}
	}
	return false
}

// winFileRunners are Windows programs that run a file named in their
// arguments.
var winFileRunners = map[string]bool{"msiexec": true, "rundll32": true, "regsvr32": true, "wscript": true, "cscript": true, "mshta": true,
	"installutil": true, "regasm": true, "regsvcs": true, "msbuild": true, "cmstp": true, "pcalua": true, "add-appxpackage": true}

// psPicksProduction reports a Where-Object filter that keeps the
// production items of a native program's listing (kubectl get ns |
// ? { $_ -like '*-prod' }): what follows acts on every one of them.
func psPicksProduction(c *cmd, args []word) bool {
	if len(c.pipe) == 0 || c.pipe[0] == nil || strings.Contains(c.pipe[0].name, "-") {
		return false // a cmdlet's objects: its own rules read the filter
	}
	l := lower(joinWords(args))
	return (strings.Contains(l, "-like") || strings.Contains(l, "-match") || strings.Contains(l, "-eq")) && strings.Contains(l, "prod") &&
		!strings.Contains(l, "-notlike") && !strings.Contains(l, "-notmatch") && !strings.Contains(l, "-ne ")
}

// foreachNative judges ForEach-Object { tool ... $_ } over a native
// program's output as xargs -I{} tool ... {}: docker ps -aq |
// ForEach-Object { docker rm -f $_ } removes every container.
func (ws *winState) foreachNative(c *cmd, block string) {
	a := ws.a
	inner, ok := strings.CutPrefix(strings.TrimSpace(block), "{")
	if !ok || c.in.kind == flowNone || c.in.kind == flowUnknown {
		return
	}
	inner, ok = strings.CutSuffix(strings.TrimSpace(inner), "}")
	if !ok || !strings.Contains(inner, "$_") {
		return
	}
	inner = strings.ReplaceAll(strings.TrimSpace(inner), "$_", "{}")
	if strings.ContainsAny(strings.ReplaceAll(inner, "{}", ""), ";|&(){}$`'\"") {
		return // more than one plain command
	}
	if strings.HasPrefix(inner, "{}") {
		return // an expression on the item ($_.Name), not a command
	}
	saved := a.inherit
	a.inherit = c.in
	a.nestedKeepInput("xargs -I{} "+inner, "ForEach-Object")
	a.inherit = saved
}

// secretFilePattern reports a file search pattern (-Filter, -Include) that
// picks keys, certificates, password stores or mailboxes.
func secretFilePattern(p string) bool {
	for _, s := range splitComma(strings.ToLower(p)) {
		s = strings.TrimSpace(strings.Trim(s, `"'`))
		switch s {
		case "*.pem", "*.pfx", "*.p12", "*.key", "id_rsa", "id_ed25519", "id_*", "*.kdbx", "*.pst", "*.ost", "*.ppk", ".env", "*.env",
			"*.jks", "*.keystore", "credentials", "*.ovpn", "*.rdp", "*.asc", "*.gpg", "wallet.dat":
			return true
		}
	}
	return false
}

// psShellInit reports a computed text that is a well-known tool printing
// its PowerShell set-up: (& starship init powershell), $(zoxide init
// powershell | Out-String).
func psShellInit(expr string) bool {
	inner := strings.TrimPrefix(expr, "$")
	if !strings.HasPrefix(inner, "(") || !strings.HasSuffix(inner, ")") {
		return false
	}
	inner = strings.TrimSpace(inner[1 : len(inner)-1])
	inner = strings.TrimSpace(strings.TrimPrefix(inner, "&"))
	if strings.HasPrefix(inner, "{") && strings.HasSuffix(inner, "}") {
		// & { (zoxide init powershell | Out-String) }: the block only
		// prints the set-up
		return psShellInit(strings.TrimSpace(inner[1 : len(inner)-1]))
	}
	if strings.HasPrefix(inner, `"`) || strings.HasPrefix(inner, "'") {
		// (& "$env:USERPROFILE\miniconda3\Scripts\conda.exe" "shell.powershell" "hook"):
		// the program's own name and plain quoted words
		q := inner[0]
		if end := strings.IndexByte(inner[1:], q); end > 0 {
			prog := inner[1 : 1+end]
			if k := strings.LastIndexAny(prog, `\/`); k >= 0 {
				prog = prog[k+1:]
			}
			rest := inner[2+end:]
			if !strings.ContainsAny(rest, "$`;&()") {
				inner = prog + " " + strings.NewReplacer(`"`, "", "'", "").Replace(rest)
			}
		}
	}
	if !strings.ContainsAny(inner, "$`;&()|") && strings.ContainsAny(inner, `"'`) {
		// (& conda 'shell.powershell' 'hook'): plain quoted words
		inner = strings.NewReplacer(`"`, "", "'", "").Replace(inner)
	}
	if i := strings.IndexByte(inner, '|'); i >= 0 {
		tail := strings.ToLower(strings.TrimSpace(inner[i+1:]))
		if tail != "out-string" && tail != "out-string -stream" {
			return false
		}
		inner = strings.TrimSpace(inner[:i])
	}
	if strings.ContainsAny(inner, "$()`;&|'\"") {
		return false
	}
	f := strings.Fields(inner)
	if len(f) == 0 {
		return false
	}
	words := make([]word, len(f))
	for i, s := range f {
		words[i] = lit(s)
	}
	c := &cmd{words: words}
	c.setName()
	return isShellInit(c)
}

// networkCopies notes what a command brings from a network share or a
// WebDAV server (esentutl /y \\host\s\a.exe /d a.exe, expand \\host\a.cab
// dir, xcopy, robocopy, net use Z: \\host\share): running it later is
// running code from elsewhere, as much as a download is.
func (ws *winState) networkCopies(c *cmd) {
	a := ws.a
	name := strings.TrimPrefix(c.name, "cmd:")
	switch name {
	case "esentutl", "expand", "xcopy", "robocopy", "copy", "move", "extrac32", "makecab", "replace", "net":
	default:
		return
	}
	args := c.args()
	if name == "net" {
		// net use Z: \\host\share: the drive is the share
		if len(args) >= 3 && strings.EqualFold(args[0].s, "use") && len(args[1].s) == 2 && args[1].s[1] == ':' && winRemotePath(args[2].s) {
			if p := a.winAbs(args[1].s + `\`); p != "" {
				ws.markDownloaded(strings.TrimSuffix(p, "/") + "/")
			}
		}
		return
	}
	var src, dst string
	for i, w := range args {
		l := lower(w.s)
		switch {
		case name == "esentutl" && (l == "/d" || l == "-d") && i+1 < len(args):
			dst = args[i+1].s
		case strings.HasPrefix(l, "/") || strings.HasPrefix(l, "-"):
		case src == "":
			src = w.s
		case dst == "" || name != "esentutl":
			dst = w.s
		}
	}
	if src == "" || dst == "" || !winRemotePath(src) {
		return
	}
	p := a.winAbs(dst)
	if p == "" {
		return
	}
	ws.markDownloaded(p)
	ws.markDownloaded(strings.TrimSuffix(p, "/") + "/") // a directory receives it
}

// psPipedShellInit reports Invoke-Expression reading what a well-known
// tool prints as its PowerShell set-up (fnm env | Out-String | iex).
func psPipedShellInit(c *cmd) bool {
	if len(c.pipe) < 2 || c.pipe[0] == nil || c.pipe[0] == c {
		return false
	}
	first := c.pipe[0]
	for _, s := range c.pipe[1:] {
		if s == c {
			break
		}
		if s == nil || s.name != "out-string" {
			return false
		}
	}
	return len(first.words) > 0 && isShellInit(first)
}

// winOtherDrive reports a destination on a drive other than the system's
// (E:\k, D:/backup): removable media or a disk that leaves with whoever
// takes it.
func winOtherDrive(s string) bool {
	return len(s) >= 2 && s[1] == ':' && isDriveLetter(s[0]) && s[0] != 'c' && s[0] != 'C'
}

// doskeyMacro judges the body of a doskey macro (doskey clean=rd /s /q
// C:\Users\$*) as the cmd line it becomes when typed: its parameters
// are whatever is typed after it, so they are taken as empty.
func (ws *winState) doskeyMacro(c *cmd) {
	args := c.args()
	for i, w := range args {
		name, body, ok := strings.Cut(w.s, "=")
		if !ok || name == "" || strings.HasPrefix(name, "/") {
			continue
		}
		rest := []string{body}
		for _, x := range args[i+1:] {
			rest = append(rest, x.s)
		}
		text := strings.Join(rest, " ")
		text = strings.NewReplacer("$*", "", "$T", " & ", "$t", " & ", "$1", "", "$2", "", "$3", "", "$4", "", "$5", "", "$6", "", "$7", "", "$8", "", "$9", "", "$G", ">", "$g", ">", "$L", "<", "$l", "<", "$B", "|", "$b", "|").Replace(text)
		if strings.TrimSpace(text) != "" {
			ws.a.nestedWin(text, ShellCmd, "doskey macro "+name)
		}
		return
	}
}

// winProgramFile reports a file name Windows runs as a program or script.
func winProgramFile(s string) bool {
	l := strings.ToLower(s)
	for _, ext := range [...]string{".exe", ".bat", ".cmd", ".com", ".ps1", ".vbs", ".js", ".hta", ".msi", ".scr"} {
		if strings.HasSuffix(l, ext) {
			return true
		}
	}
	return false
}

// psWhatIf reports a cmdlet told to only describe what it would change
// (-WhatIf). Cmdlets that run code they are given are left out: the
// switch does not reach the commands inside their blocks.
func psWhatIf(name string, args []word) bool {
	verb, _, ok := strings.Cut(name, "-")
	if !ok || !cmdletVerbs[verb] {
		return false
	}
	switch name {
	case "foreach-object", "where-object", "invoke-command", "invoke-expression", "start-job", "start-threadjob", "invoke-parallel":
		return false
	}
	for _, w := range args {
		if !w.ok {
			continue
		}
		switch strings.ToLower(w.s) {
		case "-whatif", "-whatif:$true":
			return true
		}
	}
	return false
}

// winHelpAsked reports a Windows command asked for its help page (/?,
// -?): it prints the page and does nothing else.
func winHelpAsked(args []word) bool {
	for _, w := range args {
		if w.ok && (w.s == "/?" || w.s == "-?") {
			return true
		}
		if len(args) == 1 && w.ok {
			// bootsect /help: the only argument asks for the help page
			switch strings.ToLower(w.s) {
			case "/help", "-help", "--help":
				return true
			}
		}
	}
	return false
}

// inDownloads reports a normal-form path in a profile's Downloads
// folder, or the home's on POSIX: what a browser fetched, never reviewed.
func (a *analysis) inDownloads(p string) bool {
	if !winIsWindowsPath(p) {
		rel, _, home := a.homeRel(p)
		return home && strings.HasPrefix(rel, "Downloads/")
	}
	rest := p[min(len(p), 4):]
	if u, ok := strings.CutPrefix(rest, "users/"); ok {
		_, sub, _ := strings.Cut(u, "/")
		return strings.HasPrefix(sub, "downloads/")
	}
	return false
}

// stripLetterCarets removes every caret between two letters.
func stripLetterCarets(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '^' && i > 0 && i+1 < len(s) && isAlpha(s[i-1]) && isAlpha(s[i+1]) {
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// psExcludes reports a Where-Object filter that only leaves out what it
// names (-notmatch, -notlike, -ne): the rest of the items pass.
func psExcludes(args []word) bool {
	j := strings.ToLower(joinWords(args))
	for _, op := range [...]string{"-notmatch", "-notlike", "-ne ", "-notin", "-notcontains", "-cnotmatch", "-inotmatch"} {
		if strings.Contains(j, op) {
			return !strings.Contains(j, " -and ") && !strings.Contains(j, "-match") && !strings.Contains(j, "-like") && !strings.Contains(j, "-eq ")
		}
	}
	return false
}

// secretCopies follows credentials into the files a Windows tool copies
// or exports them to (esentutl /y of a locked browser database, reg
// export of a key where a remote-access tool keeps its passwords): the
// copy is as secret as its source, wherever it is sent later.
// uncHost returns the machine of a UNC path (\\HOST\share\...).
func uncHost(p string) (string, bool) {
	p = strings.ReplaceAll(p, "/", `\`)
	if !strings.HasPrefix(p, `\\`) {
		return "", false
	}
	h, _, _ := strings.Cut(p[2:], `\`)
	return h, h != ""
}

// databaseBackup reports a file named as a database's backup or dump.
// (databaseFile reads .sql and .bak by their names too; a copy to a bare
// address needs no name to be one)
func databaseBackup(p string) bool {
	switch strings.ToLower(path.Ext(strings.TrimSuffix(strings.ToLower(p), ".gz"))) {
	case ".bak", ".bacpac", ".dacpac", ".mdf", ".ldf", ".dump", ".sql", ".trn", ".dmp":
		return true
	}
	return databaseFile(p)
}

// cloudRunCommand judges the code a cloud's run-command sends to its
// machines: Az's -ScriptString (PowerShell on Windows machines, shell
// on Linux ones by -CommandId), AWS SSM's commands parameter.
func (ws *winState) cloudRunCommand(c *cmd, args []word) {
	a := ws.a
	l := strings.ToLower(joinWords(args))
	dialect := ShellPowerShell
	if strings.Contains(l, "runshellscript") {
		dialect = "" // AWS-RunShellScript, Azure's RunShellScript
	}
	var codes []string
	pa := parsePSArgs(args, []string{"scriptstring", "parameter", "commandid", "documentname", "resourcegroupname", "vmname", "target", "instanceid"}, nil)
	if w, ok := pa.get("scriptstring"); ok {
		codes = append(codes, w.s)
	}
	if w, ok := pa.get("parameter"); ok {
		// @{commands='iex (irm URL)'} or @{commands=@('a','b')}
		v := w.s
		if i := strings.Index(strings.ToLower(v), "commands"); i >= 0 {
			v = v[i+len("commands"):]
			v = strings.TrimLeft(v, " =@(")
			for _, part := range splitComma(strings.TrimRight(v, " )}")) {
				codes = append(codes, strings.Trim(strings.TrimSpace(part), `"'`))
			}
		}
	}
	for _, code := range codes {
		if code == "" {
			continue
		}
		if dialect == "" {
			a.nested(code, c.base+" on cloud machines")
		} else {
			a.nestedWin(code, dialect, c.base+" on cloud machines")
		}
	}
}

// exportedData records the files SQL Server's tools fill with a
// database's records, logins or backups (sqlcmd -o, bcp out,
// Export-DbaLogin -Path, Backup-DbaDatabase -FilePath): sending the file
// later sends them.
func (ws *winState) exportedData(c *cmd) {
	a := ws.a
	args := wargs(c)
	mark := func(f, what string) {
		if f = strings.Trim(f, `"'`); f != "" {
			ws.markSecretCopy(a.winAbs(f), what+" (saved to "+f+")")
		}
	}
	switch c.name {
	case "out-file", "set-content", "add-content", "tee-object", "export-clixml":
		// gci env: | Out-File f, Set-Content f -Value (gci env: |
		// Out-String): the file holds what was written to it
		f, ok := swVal(args, "filepath", "path", "literalpath")
		if !ok {
			if ops := c.operands(); len(ops) > 0 {
				f, ok = ops[0].s, true
			}
		}
		if !ok {
			break
		}
		if p := prevStage(c); p != nil && p.name == "terraform" && iacAllOutputs(p) && a.outputsFileExposed(f, a.winAbs(f)) {
			// terraform output -json | Out-File F: the sensitive outputs
			// in clear, kept
			mark(f, "every Terraform output")
			ws.emitWin(c, "secrets-exported-to-file", "terraform output -json → "+f)
		} else if c.in.kind == flowSecret {
			mark(f, c.in.what)
		} else if v, ok := swVal(args, "value"); ok && psSecretExpr(lower(v)) == "the whole environment" && !psTextNamesOnly(lower(v)) {
			mark(f, "the environment")
			if a.winPersistentFile(f) {
				ws.emitWin(c, "environment-dumped-to-file", "the environment into "+f)
			}
		}
	case "sqlcmd":
		if f, ok := swVal(args, "o"); ok {
			if _, q := swVal(args, "q"); q {
				mark(f, "a database's records")
			}
		}
	case "bcp":
		// bcp TABLE out FILE, bcp "QUERY" queryout FILE
		for i := 1; i+1 < len(args); i++ {
			if args[i] == "out" || args[i] == "queryout" {
				f := c.args()[i+1].s
				mark(f, "a database's records")
				if host, ok := uncHost(f); ok && isPublicIP(host) {
					ws.emitWin(c, "win-exfil-secrets", "a database's records written to the share of "+host)
				}
				break
			}
		}
	case "export-dbalogin", "export-dbauser", "export-dbacredential", "export-dbalinkedserver", "export-dbadbrole", "export-dbaserverrole":
		if f, ok := psFlag(args, "filepath", 5); ok {
			mark(f, "SQL Server logins and their passwords' hashes")
		} else if f, ok := psFlag(args, "path", 4); ok {
			mark(f, "SQL Server logins and their passwords' hashes")
		}
	case "tar", "bsdtar":
		// tar -a -cf F SRC...: an archive of what it is given
		raw := c.args()
		for i, w := range args {
			if !strings.HasPrefix(w, "-") || !strings.Contains(w, "c") || !strings.HasSuffix(w, "f") || i+1 >= len(raw) {
				continue
			}
			for _, src := range raw[i+2:] {
				if strings.HasPrefix(src.s, "-") {
					continue
				}
				if d, _ := a.winSensitive(a.winAbs(src.s)); d != "" {
					mark(raw[i+1].s, "an archive of "+d)
					return
				}
			}
		}
	case "backup-dbadatabase", "backup-sqldatabase":
		dir, _ := psFlag(args, "path", 4)
		file, ok := psFlag(args, "filepath", 5)
		if !ok {
			file, ok = psFlag(args, "backupfile", 7)
		}
		if ok {
			if dir != "" && !strings.ContainsAny(file, `\/:`) {
				file = strings.TrimRight(strings.Trim(dir, `"'`), `\/`) + `\` + strings.Trim(file, `"'`)
			}
			mark(file, "a database backup")
		}
	}
}

func (ws *winState) secretCopies(c *cmd) {
	a := ws.a
	switch c.name {
	case "esentutl":
		args := c.args()
		var src, dst string
		for i := 0; i+1 < len(args); i++ {
			switch strings.ToLower(args[i].s) {
			case "/y":
				src = args[i+1].s
			case "/d":
				dst = args[i+1].s
			}
		}
		if src == "" || dst == "" {
			return
		}
		if d, _ := a.winSensitive(a.winAbs(src)); d != "" {
			ws.markSecretCopy(a.winAbs(dst), d)
			if winRemotePath(dst) {
				ws.emitWin(c, "win-exfil-secrets", d+" copied to "+dst)
			}
		}
	case "expand", "extrac32":
		// expand X.cab -F:* DIR: what a downloaded cabinet holds was
		// downloaded too
		var ops []word
		for _, w := range c.args() {
			if !strings.HasPrefix(w.s, "-") && !strings.HasPrefix(w.s, "/") || winIsWindowsPath(a.winAbs(w.s)) && strings.HasPrefix(w.s, "/") && len(w.s) > 3 && w.s[2] == ':' {
				ops = append(ops, w)
			}
		}
		if len(ops) >= 2 && ws.isDownloaded(a.winAbs(ops[0].s)) {
			if p := a.winAbs(ops[len(ops)-1].s); p != "" {
				ws.markDownloaded(p + "/")
				ws.markDownloaded(p)
			}
		}
	case "reg":
		args := c.args()
		if len(args) >= 2 && strings.EqualFold(args[0].s, "query") {
			// reg query "...\WinSCP 2\Sessions" /s /v Password: the
			// saved sessions' passwords shown
			if k, ok := normRegKey(args[1].s); ok && regCredentialKey(k) && (strings.Contains(lower(joinWords(args[2:])), "password") || hasSw(wargs(c), "s")) {
				ws.emitWin(c, "win-read-secrets", "saved passwords in the registry ("+k+")")
			}
			// reg query HKLM /f password /t REG_SZ /s: every value whose
			// name or data says password, with its data
			if f, ok := swVal(wargs(c), "f"); ok && hasSw(wargs(c), "s") && strings.Contains(strings.ToLower(f), "passw") && !hasSw(wargs(c), "k") {
				ws.emitWin(c, "win-read-secrets", "the registry searched for passwords")
			}
			return
		}
		if len(args) < 3 || !strings.EqualFold(args[0].s, "export") && !strings.EqualFold(args[0].s, "save") {
			return
		}
		k, ok := normRegKey(args[1].s)
		if !ok || !regCredentialKey(k) {
			return
		}
		what := "passwords kept in the registry (" + k + ")"
		if winRemotePath(args[2].s) {
			ws.emitWin(c, "win-exfil-secrets", what+" exported to "+args[2].s)
			return
		}
		ws.markSecretCopy(a.winAbs(args[2].s), what)
	}
}

// regCredentialKey reports a registry key where remote-access tools keep
// saved sessions with their passwords (WinSCP, PuTTY, VNC) or Windows its
// automatic log-on password.
func regCredentialKey(k string) bool {
	k = strings.TrimPrefix(strings.TrimPrefix(k, "hkcu/"), "hklm/")
	for _, p := range [...]string{"software/martin prikryl", "software/simontatham/putty", "software/orl/winvnc3", "software/realvnc",
		"software/tightvnc", "software/openssh/agent", "software/microsoft/windows nt/currentversion/winlogon", "software/fortinet/forticlient",
		"software/wow6432node/tightvnc", "software/wow6432node/realvnc"} {
		if k == p || strings.HasPrefix(k, p+"/") {
			return true
		}
	}
	return false
}

// psAuthHeader reports a -Headers table that carries credentials in the
// headers made for them (Authorization, PRIVATE-TOKEN, X-Api-Key).
func psAuthHeader(s string) bool {
	l := strings.ToLower(s)
	return strings.Contains(l, "authorization") || strings.Contains(l, "private-token") || strings.Contains(l, "api-key") || strings.Contains(l, "x-auth-token") ||
		strings.Contains(l, "-access-token") || strings.Contains(l, "x-api-key") || strings.Contains(l, "-session")
}

// winBackupFiles reports a path or pattern (lower case, forward slashes)
// naming database or system backups: .bak, .bacpac, .trn files, a
// backup folder's contents, Windows Image Backup.
func winBackupFiles(s string) bool {
	for _, ext := range [...]string{".bak", ".bacpac", ".trn", ".vbk", ".vib", ".dump"} {
		if strings.HasSuffix(s, ext) {
			return true
		}
	}
	return strings.Contains(s, "/windowsimagebackup") || strings.Contains(s, "/backup/") && strings.ContainsAny(s[strings.LastIndex(s, "/backup/"):], "*?") ||
		strings.Contains(s, "/backups/") && strings.ContainsAny(s[strings.LastIndex(s, "/backups/"):], "*?")
}

// winVMDisks reports a path or pattern (lower case) naming virtual
// machines' disks (Hyper-V's .vhdx and .avhdx, VMware's .vmdk,
// VirtualBox's .vdi).
func winVMDisks(s string) bool {
	for _, ext := range [...]string{".vhdx", ".vhd", ".avhdx", ".vmdk", ".vdi"} {
		if strings.HasSuffix(s, ext) {
			return true
		}
	}
	return false
}

// winDBFiles reports a path or pattern (lower case) naming a database
// server's data or log files (SQL Server's .mdf, .ndf, .ldf; MySQL's
// .ibd): a server's databases, not a project's.
func winDBFiles(s string) bool {
	for _, ext := range [...]string{".mdf", ".ndf", ".ldf", ".ibd"} {
		if strings.HasSuffix(s, ext) {
			return true
		}
	}
	return strings.Contains(s, `\mssql\data`) || strings.Contains(s, "/mssql/data")
}

// psRecentFilter reports a Where-Object filter that keeps the most
// recently changed items (LastWriteTime -gt (Get-Date).AddHours(-2)):
// the newest work, not a selection of old leftovers.
func psRecentFilter(args []word) bool {
	j := strings.ToLower(joinWords(args))
	if !strings.Contains(j, "lastwritetime") && !strings.Contains(j, "creationtime") && !strings.Contains(j, "lastaccesstime") {
		return false
	}
	return (strings.Contains(j, "-gt") || strings.Contains(j, "-ge")) && !strings.Contains(j, "-lt") && !strings.Contains(j, "-le")
}

// secretSearch reports a search pattern (lower case) for credentials:
// password=, secret, token, api key, connection strings.
func secretSearch(j string) bool {
	for _, k := range [...]string{"password", "passwd", "pwd=", "secret", "token", "apikey", "api_key", "api-key", "connectionstring", "private key"} {
		if strings.Contains(j, k) {
			return true
		}
	}
	return false
}

// officeStartupPath reports a normal-form path in a folder whose files
// Office loads at every start: Excel's XLSTART, Word's STARTUP, the
// add-ins folder and Outlook's macro project.
func officeStartupPath(l string) bool {
	return strings.Contains(l, "/microsoft/excel/xlstart") || strings.Contains(l, "/microsoft/word/startup") ||
		strings.Contains(l, "/microsoft/addins") || strings.HasSuffix(l, "/microsoft/outlook/vbaproject.otm") ||
		strings.Contains(l, "/microsoft office/root/office") && strings.Contains(l, "/xlstart")
}

// devDatabaseFile reports the file of a local database (SQL Server's
// .mdf and its log, SQLite) not named as a test or scratch copy.
func devDatabaseFile(base string) bool {
	switch path.Ext(base) {
	case ".mdf", ".ldf", ".sqlite", ".sqlite3", ".db", ".duckdb":
		// (a local or development database is the developer's own data:
		// only a test's or a scratch copy is throwaway)
		l := lower(base)
		for _, m := range [...]string{"test", "tmp", "temp", "scratch", "sandbox", "dummy", "example", "demo", "throwaway", "fixture", "e2e", "cache"} {
			if strings.Contains(l, m) {
				return false
			}
		}
		return true
	}
	return false
}

// regCredentialStore names a registry key (lower case, as typed) where a
// remote-access client keeps saved sessions with their hosts, user names
// and passwords or password hashes.
func regCredentialStore(l string) string {
	for _, k := range [...]string{`simontatham\putty\sessions`, `martin prikryl\winscp 2\sessions`, `terminal server client\servers`,
		`realvnc\`, `tightvnc\server`, `orl\winvnc3`, `\mobatek\mobaxterm`, `simontatham\putty\sshhostkeys`} {
		if strings.Contains(l, k) {
			return "saved remote-access sessions in " + l
		}
	}
	return ""
}

// userDataToShare reports a copy of a profile's own folders (Documents,
// Desktop, Pictures, OneDrive, source) to a share on another machine
// named by address or full domain name: the user's files leave. A
// single-label name (\\nas01) is a machine of the local network, the
// usual backup target.
func (a *analysis) userDataToShare(src, dst string) bool {
	if !strings.HasPrefix(dst, `\\`) || strings.HasPrefix(dst, `\\.\`) || strings.HasPrefix(dst, `\\?\`) {
		return false
	}
	host, _, _ := strings.Cut(dst[2:], `\`)
	host = strings.ToLower(host)
	if host == "localhost" || host == "127.0.0.1" || !strings.Contains(host, ".") {
		return false
	}
	p := a.winAbs(src)
	if databaseBackup(p) && isPublicIP(host) {
		return true // a database's backup on a machine known only by its address
	}
	if isPublicIP(host) && strings.HasPrefix(src, `\\`) && !strings.HasPrefix(src, `\\?\`) && !strings.HasPrefix(src, `\\.\`) {
		// \\fs01\hr$ copied to \\203.0.113.4\upload: a file server's share
		// on a machine known only by its address
		return true
	}
	if isPublicIP(host) && p != "" {
		// anything of this machine (the project, a build's output, a
		// profile's folder) on a machine known only by its address:
		// blind labels call every such copy dangerous (key stores and
		// the whole profile are the secrets rules' to name)
		if cl, _ := a.winClassify(p); cl == wpWorkDir || cl == wpInside || cl == wpHomeSub && !a.winSensitiveAny(p) {
			return true
		}
	}
	i := strings.Index(p, "/users/")
	if i < 0 {
		return false
	}
	parts := strings.SplitN(p[i+len("/users/"):], "/", 3)
	if len(parts) < 2 {
		return false
	}
	top := parts[1]
	return winHomeTop[top] && top != "appdata" && top != ".config" || strings.HasPrefix(top, "onedrive")
}

// esentutlCopy judges esentutl /y SRC /d DST: a copy like copy's, so the
// null device copied over a file empties it, and a copy of a credential
// store carries the secrets.
func (ws *winState) esentutlCopy(c *cmd) {
	args := c.args()
	var src, dst word
	for i := 0; i+1 < len(args); i++ {
		switch strings.ToLower(args[i].s) {
		case "/y", "-y":
			src = args[i+1]
		case "/d", "-d":
			dst = args[i+1]
		}
	}
	if src.s == "" || dst.s == "" {
		return
	}
	if winNullSource(src.s) {
		ws.winWipe(c, dst)
		return
	}
	ws.copiedSecret(ws.a.winAbs(src.s), ws.a.winAbs(dst.s))
}

// toolConfigHijack describes text written to a tool's own settings file
// that changes what the tool runs or fetches from now on: a package index
// over plain HTTP or trusted without checks (pip, npm, yarn, bun), a
// shell or preloaded module for npm's scripts, a WSL kernel or boot
// command. Other settings are the user's to change.
func toolConfigHijack(p, text string) string {
	t := strings.ToLower(strings.ReplaceAll(text, "`n", "\n"))
	plainHTTP := func(key string) bool {
		for _, line := range strings.Split(t, "\n") {
			k, v, ok := strings.Cut(line, "=")
			if !ok || !strings.Contains(k, key) {
				continue
			}
			v = strings.Trim(strings.TrimSpace(v), `"'`)
			if strings.HasPrefix(v, "http://") {
				h := hostOf(v)
				if ip, isIP := parseIP(h); h != "localhost" && !(isIP && ip.IsLoopback()) {
					return true
				}
			}
		}
		return false
	}
	switch path.Base(p) {
	case "pip.ini", "pip.conf":
		if plainHTTP("index-url") || strings.Contains(t, "trusted-host") {
			return "pip's package index: " + p
		}
	case ".npmrc", ".yarnrc", ".yarnrc.yml", "bunfig.toml":
		if plainHTTP("registry") || strings.Contains(t, "script-shell") || strings.Contains(t, "node-options") || strings.Contains(t, "strict-ssl=false") {
			return "the package manager's registry or script shell: " + p
		}
	case ".wslconfig":
		if strings.Contains(t, "kernel=") || strings.Contains(t, "kernel =") || strings.Contains(t, "kernelcommandline") {
			return "the kernel WSL boots: " + p
		}
	case "wsl.conf":
		if strings.Contains(t, "command") {
			return "a command WSL runs at boot: " + p
		}
	}
	return ""
}

// cloudDeletePrefixes are the module prefixes of cmdlets whose Remove-
// verb deletes something held by a cloud or a tenant directory rather than
// on this machine: Azure, AWS and Google Cloud resources, and the objects
// of Entra ID (Graph), Active Directory, Exchange, SharePoint and Teams,
// where an application, a group, an OU or a mailbox is gone for everyone.
var cloudDeletePrefixes = []string{
	"remove-az", "remove-aws", "remove-s3", "remove-ec2", "remove-rds", "remove-gcp",
	// Google Cloud's cmdlets (Remove-GcsBucket, Remove-GceInstance,
	// Remove-GcSqlInstance) and more of AWS's (IAM, CloudFormation,
	// DynamoDB, Lambda)
	"remove-gcs", "remove-gce", "remove-gcsql", "remove-iam", "remove-cfn", "remove-ddb", "remove-lm", "remove-eks", "remove-ecs",
	"remove-ct", "remove-kms", "remove-secsecret", "remove-cwl", "remove-bak",
	"remove-mg", "remove-ad", "remove-pnp", "remove-spo", "remove-unifiedgroup", "remove-distributiongroup", "remove-mailbox", "remove-team", "remove-csonline",
	// the servers' own modules: DNS and DHCP, failover clusters, storage
	// spaces, Hyper-V disks, and AWS KMS (a site, an app pool or a share
	// is as often the developer's own)
	"remove-dnsserver", "remove-dhcpserver", "remove-cluster", "remove-virtualdisk", "remove-storagepool", "remove-vmharddiskdrive",
	"request-kmskeydeletion",
	// Microsoft Purview and Exchange's compliance: cases, holds,
	// retention, DLP and labels (what keeps records for a court)
	"remove-compliance", "remove-casehold", "remove-retention", "remove-dlp", "remove-autosensitivitylabel", "remove-label", "remove-holdcompliance",
	"remove-mgsecuritycase",
}

// cloudCmdletDeletes reports a Remove- cmdlet of a cloud or directory
// module.
func cloudCmdletDeletes(name string) bool {
	for _, p := range cloudDeletePrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// removesRecoveryPoints reports -RemoveRecoveryPoints: turning backup
// protection off then deletes every backup already taken.
func removesRecoveryPoints(args []word) bool {
	for _, w := range args {
		if k, _, _ := strings.Cut(strings.ToLower(w.s), ":"); len(k) > 8 && strings.HasPrefix("-removerecoverypoints", k) {
			return true
		}
	}
	return false
}

// varOnlyTail matches what follows the literal head of a path whose last
// elements are only variables: %A%%B%, $env:A, ${env:A}, then at most a
// separator and a wildcard.
var varOnlyTail = regexp.MustCompile(`^(?:%[A-Za-z_][\w^]*%|\$\{?(?:env:)?[A-Za-z_]\w*\}?)+(?:[\\/]|[\\/]?\*|[\\/]\*\.\*)?$`)

// unsetVarHead returns the literal folder written before the variables
// that end a path (C:\ of C:\%OUT%), the path an unset variable leaves.
func unsetVarHead(s string) (string, bool) {
	i := strings.IndexAny(s, "%$")
	if i <= 0 || !varOnlyTail.MatchString(s[i:]) {
		return "", false
	}
	return s[:i], true
}

// projectHookCopy reports a copy (Copy-Item, copy, xcopy) of a file of
// the project into the project's own .git/hooks: a hook the repository
// ships, as reviewed with it.
func (ws *winState) projectHookCopy(c *cmd, dest string) bool {
	a := ws.a
	if c == nil || a.workDir == "" {
		return false
	}
	switch c.name {
	case "copy-item", "copy", "cpi", "cp", "xcopy", "cmd:copy":
	default:
		return false
	}
	if !strings.HasPrefix(lower(dest), lower(a.winAbs(a.workDir))+"/.git/hooks/") {
		return false
	}
	ops := winOperands(c.args())
	if len(ops) < 2 || !ops[0].ok {
		return false
	}
	src := lower(a.winAbs(ops[0].s))
	root := lower(a.winAbs(a.workDir)) + "/"
	return strings.HasPrefix(src, root) && !strings.Contains(src, "/.git/") && !strings.ContainsAny(ops[0].s, "*?$")
}

// psValueGroup reports a parenthesised PowerShell word whose inside is
// an expression rather than a command: it starts with a variable, a
// string or a number (($_ -replace 'a',”), ('a' + $b), (1 + 2)).
func psValueGroup(t string) bool {
	in := strings.TrimSpace(strings.TrimPrefix(t, "("))
	if in == "" {
		return false
	}
	switch c := in[0]; {
	case c == '$':
		return !strings.HasPrefix(in, "$(")
	case c == '\'' || c == '"' || c >= '0' && c <= '9':
		return true
	}
	return false
}

// bitsUpload judges bitsadmin /transfer JOB /upload URL FILE: the local
// file goes out.
func (ws *winState) bitsUpload(c *cmd, args []word) {
	if sw, ops := cmdSwitches(args); sw["upload"] && len(ops) > 0 {
		ws.secretsLeaving(c, ops[len(ops)-1], "infile")
	}
}

// winUserConfig reports a normal-form path in the profile that holds the
// user's settings or an application's data: a dot-file or dot-folder, or
// a settings file below AppData (caches excepted).
func (a *analysis) winUserConfig(p string) bool {
	h := a.winHome()
	if h == "" || !strings.HasPrefix(p, h+"/") {
		return false
	}
	rel := p[len(h)+1:]
	if relUnder(rel, winCacheRel) || appCacheRel(rel) || strings.HasPrefix(rel, "appdata/local/temp") {
		return false
	}
	if strings.HasPrefix(rel, "appdata/") {
		switch path.Ext(rel) {
		case ".conf", ".json", ".ini", ".xml", ".toml", ".yaml", ".yml", ".config", ".cfg", ".db", ".sqlite":
			return strings.Count(rel, "/") >= 3
		}
		return false
	}
	return userConfigRel(rel) && !backupName(path.Base(rel))
}

// psEmptyVarRoot reports a PowerShell path made of one variable and a
// separator ("$root\", "$env:OUT\*"): the root of the drive when the
// variable is empty.
func psEmptyVarRoot(s string) bool {
	s = strings.Trim(s, `"'`)
	if !strings.HasPrefix(s, "$") {
		return false
	}
	i := 1
	for i < len(s) && (s[i] == '_' || s[i] == ':' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9') {
		i++
	}
	switch s[i:] {
	case `\`, `\*`, "/", "/*":
		return i > 1
	}
	return false
}

// vendorInstaller reports the file name of a well-known vendor's signed
// installer as its download page names it (vs_BuildTools.exe, Docker
// Desktop Installer.exe, VSCodeUserSetup-x64-1.95.0.exe): run from the
// Downloads folder, it is the documented way to install the tool.
func vendorInstaller(base string) bool {
	l := strings.ToLower(base)
	for _, p := range [...]string{"vs_buildtools", "vs_community", "vs_professional", "vs_enterprise", "docker desktop installer",
		"vscodeusersetup", "vscodesetup", "githubdesktopsetup", "jetbrains-toolbox", "rustup-init", "dotnet-sdk-", "windowsdesktop-runtime-",
		"aspnetcore-runtime-", "powershell-7", "wsl.2", "podman-desktop-", "rancher.desktop.setup"} {
		if strings.HasPrefix(l, p) {
			return strings.HasSuffix(l, ".exe") || strings.HasSuffix(l, ".msi")
		}
	}
	return false
}

// psTextNamesOnly reports an expression (lower case) whose last
// pipeline stage keeps only names (… | Select-Object -ExpandProperty
// Name), as psNamesOnly judges a stage, or that reads .Name.
func psTextNamesOnly(l string) bool {
	l = strings.Trim(strings.TrimSpace(l), "()")
	last := l[strings.LastIndexByte(l, '|')+1:]
	toks := psTokens(strings.TrimSpace(last))
	if len(toks) > 1 {
		switch toks[0].text {
		case "select-object", "select", "foreach-object", "%", "format-table", "ft":
			words := make([]word, 0, len(toks)-1)
			for _, tk := range toks[1:] {
				words = append(words, lit(tk.text))
			}
			if psNamesOnly(words) {
				return true
			}
		}
	}
	return strings.HasSuffix(l, ".name")
}

// winSensitiveAny reports a path that holds secrets by either
// classification (the profile's credential stores, or a file named for
// them).
func (a *analysis) winSensitiveAny(p string) bool {
	if d, _ := a.winSensitive(p); d != "" {
		return true
	}
	if f, ok := a.files[p]; ok && f.kind == flowSecret {
		return true // a copy of secrets made earlier on the line
	}
	d, _ := a.sensitive(p, a.cwd)
	return d != ""
}

// deployedSettingsFile reports the settings file of a deployed web
// application, which holds its connection strings and keys.
func deployedSettingsFile(base string) bool {
	l := lower(base)
	return l == "web.config" || strings.HasPrefix(l, "appsettings") && strings.HasSuffix(l, ".json") || l == "connectionstrings.config"
}
