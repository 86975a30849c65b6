package guard

import (
	"path"
	"regexp"
	"slices"
	"strings"
)

// prepare works out, before the rules run, what a command executes: the
// script of a shell or interpreter, find's actions, the code of -c/-e.
// It has no side effects beyond c.
func (a *analysis) prepare(c *cmd) {
	if len(c.words) == 0 || c.synthetic != "" || a.prepareWindows(c) {
		return
	}
	if a.prodKube != "" || a.prodDocker != "" {
		a.switchedContext(c)
	}
	switch n := c.name; {
	case shellNameSet[n]:
		a.prepareShell(c)
	case n == "eval":
		a.prepareEval(c)
	case n == "source" || n == ".":
		a.prepareSource(c)
	case (n == "iex" || lower(n) == "invoke-expression") && len(c.args()) == 0:
		// PowerShell's iex at the end of a pipe read as POSIX (a remote
		// Windows host's command, through ssh): it runs what it reads
		a.prepareSource(c)
	case scriptLangs[n] != "":
		a.prepareInterp(c, scriptLangs[n])
	case n == "find":
		if c.find == nil { // (its output may have needed it first)
			a.prepareFind(c)
		}
	}
}

// expand analyses, one level deeper, the code a command runs besides its
// own program: a bash -c payload, eval's arguments, a script piped into
// an interpreter, find -exec, ssh's remote command, an interpreter's
// -c/-e code, what is installed into start-up files.
func (a *analysis) expand(c *cmd) {
	if len(c.words) == 0 || c.synthetic != "" {
		if c.synthetic == "" {
			a.expandLaunches(c) // PROMPT_COMMAND=...
		}
		a.expandWrites(c)
		return
	}
	if w0 := c.words[0]; w0.ok && strings.Contains(w0.s, "/") {
		// running a script written earlier in the command
		if f, ok := a.writtenFile(w0.s, c.cwd); ok && f.kind == flowText {
			lang := ""
			switch path.Ext(w0.s) {
			case ".py":
				lang = "python"
			case ".pl":
				lang = "perl"
			case ".rb":
				lang = "ruby"
			case ".js", ".mjs":
				lang = "js"
			case ".php":
				lang = "php"
			}
			if lang != "" {
				c.scan = scanScript(lang, f.text)
				a.judgeScan(c)
				a.scriptNested(c, f.what)
			} else {
				a.flowPayload(c, f, f.what, "")
			}
		}
	}
	a.expandLaunches(c)
	if a.stop {
		return
	}
	switch n := c.name; {
	case shellNameSet[n] || n == "eval" || n == "source" || n == ".":
		a.expandScript(c, "")
	case scriptLangs[n] != "":
		a.expandScript(c, scriptLangs[n])
	case n == "find":
		a.expandFind(c)
	case n == "watch":
		a.expandWatch(c)
	case n == "ssh":
		a.expandSSH(c)
	case n == "plink":
		a.expandPlink(c)
	case n == "scp" || n == "rsync" || n == "pscp" || n == "pscp.pssh" || n == "parallel-scp" || n == "prsync" || n == "parallel-rsync":
		a.expandUpload(c)
	case n == "adb":
		a.expandADB(c)
	case n == "zowe":
		a.expandZoweUSS(c)
	case n == "pct" || n == "lxc" || n == "incus" || n == "qm" || n == "VBoxManage" || n == "vboxmanage" || n == "ray":
		a.expandGuestExec(c)
	case n == "su", n == "runuser", n == "script", n == "flock", n == "sg":
		a.expandDashC(c)
	case n == "sbatch" || n == "bsub":
		a.expandBatchWrap(c)
	case n == "docker" || n == "kubectl" || n == "podman" || n == "nerdctl" || n == "docker-compose" || n == "podman-compose":
		a.expandExec(c)
	case packageRunners[n]:
		a.expandPackageRunner(c)
	case n == "crontab", n == "at", n == "batch":
		a.expandSchedule(c)
	case n == "wsl":
		a.expandWSL(c)
	case n == "git":
		a.expandGitAlias(c)
		if k, v, ok := gitConfigSet(c); ok && gitCommandKey(k) {
			v = strings.TrimPrefix(v, "!")
			if k == "credential.helper" {
				// a helper is handed the credentials on its input
				saved := a.inherit
				a.inherit = flow{kind: flowSecret, what: "git credentials", crit: true}
				sub := a.capture(func() { a.nestedKeepInput(v, "git config "+k) })
				a.inherit = saved
				if sub != nil && sub.level >= LevelHigh {
					a.emit(c, ruleByID["persistence-malicious-payload"], "git config "+k+" ← "+sub.text())
				}
			} else {
				a.persistContent(c, flow{kind: flowText, text: v}, "git config "+k, false)
			}
		}
	}
	a.expandWrites(c)
}

// expandScript analyses what a shell or interpreter runs.
func (a *analysis) expandScript(c *cmd, lang string) {
	sr := c.script
	if sr == nil {
		return
	}
	switch sr.kind {
	case scriptInline:
		if lang == "" {
			origin := c.base + " -c payload"
			if c.name == "eval" {
				origin = "eval payload"
			}
			if sr.w.ok && shellTracedByOption(c) {
				// sh -x -c '. ./.env.production; ...': the trace is on for
				// the whole payload, as set -x at its start
				w := sr.w
				w.s = "set -x; " + w.s
				sr = &scriptRef{kind: sr.kind, w: w, flow: sr.flow, params: sr.params}
			}
			if len(sr.params) > 0 {
				savedP, saved0 := a.params, a.param0
				a.param0, a.params = sr.params[0], append([]word{}, sr.params[1:]...)
				a.payload(c, sr.w, origin)
				a.params, a.param0 = savedP, saved0
				return
			}
			if (c.in.kind == flowRemote || c.in.kind == flowSocket) && (sr.w.ok || hasLiteralBefore(sr.w)) {
				// curl URL | sh -c 'sh': the payload's commands read
				// what the shell reads
				saved := a.inherit
				a.inherit = c.in
				a.nestedKeepInput(sr.w.s, origin)
				a.inherit = saved
				return
			}
			a.payload(c, sr.w, origin)
			return
		}
		literal := false
		for _, w := range c.codes {
			if w.ok || hasLiteralBefore(w) {
				literal = true
			} else if w.flow != nil {
				a.flowPayload(c, *w.flow, c.base+" inline code", lang)
			} else {
				a.unresolved(c, "the code it runs is not a literal ("+truncate(w.s, 60)+")", "")
			}
		}
		if literal {
			a.scriptNested(c, c.base+" inline code")
		}
	case scriptFile:
		if sr.flow.kind == flowText {
			a.flowPayload(c, sr.flow, sr.flow.what, lang)
		}
	case scriptStdin, scriptProc:
		origin := stdinOrigin(c)
		if sr.kind == scriptProc {
			origin = "process substitution into " + c.base
		}
		if lang != "" && sr.flow.kind == flowText {
			if sr.flow.obf {
				a.unresolved(c, "decoded (obfuscated) code is run", "")
			}
			a.scriptNested(c, origin)
			return
		}
		a.flowPayload(c, sr.flow, origin, lang)
	}
}

// payload analyses a word that holds shell code.
func (a *analysis) payload(c *cmd, w word, origin string) {
	// DEST=/ sh -c 'rsync -a --delete out/ "$DEST"': the code reads
	// the variables its shell was started with
	if len(c.assigns) > 0 {
		type prev struct {
			w   word
			had bool
		}
		saved := make(map[string]prev, len(c.assigns))
		for _, as := range c.assigns {
			if _, dup := saved[as.name]; !dup {
				v, had := a.vars[as.name]
				saved[as.name] = prev{v, had}
			}
			a.setVar(as.name, as.val)
		}
		defer func() {
			for n, p := range saved {
				if p.had {
					a.vars[n] = p.w
				} else {
					delete(a.vars, n)
				}
			}
		}()
	}
	if w.ok {
		a.nested(w.s, origin)
		return
	}
	if w.flow != nil && w.flow.kind != flowText {
		a.flowPayload(c, *w.flow, origin, "")
		return
	}
	if strings.TrimSpace(w.s) != "" && w.tail < len(w.s) || hasLiteralBefore(w) {
		// partly literal: analyse with the unknown parts as variables
		a.nested(w.s, origin)
		return
	}
	a.unresolved(c, "the code it runs is not a literal ("+truncate(w.s, 60)+")", "")
}

// hasLiteralBefore reports whether a word has literal text besides its
// unresolved parts ("cd $D && make" does; "$CMD" does not).
func hasLiteralBefore(w word) bool {
	s := w.s
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '$' {
			// skip $NAME / $(...) / $((...))
			j := i + 1
			if strings.HasPrefix(s[j:], "((…))") {
				i = j + len("((…))") - 1
				continue
			}
			if strings.HasPrefix(s[j:], "(…)") {
				i = j + len("(…)") - 1
				continue
			}
			for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			i = j - 1
			continue
		}
		if c != ' ' && c != '"' && c != '\'' {
			return true
		}
	}
	return false
}

// flowPayload analyses code that arrives as a stream (a pipe, a here-doc,
// a process substitution). lang is "" for shell code.
func (a *analysis) flowPayload(c *cmd, f flow, origin, lang string) {
	switch f.kind {
	case flowText:
		if f.obf && (lang != "" || f.partial || strings.ContainsAny(f.text, "$`")) {
			// (plain shell code decoded whole from a literal, with no
			// expansion left to hide in, is judged as the commands it is)
			a.unresolved(c, "decoded (obfuscated) code is run", "")
		}
		if f.partial {
			a.unresolved(c, "code of partly unknown content is run ("+origin+")", "")
		}
		if lang == "" {
			a.nested(f.text, origin)
		} else {
			if c.scan == nil {
				c.scan = scanScript(lang, f.text)
				a.judgeScan(c)
			}
			a.scriptNested(c, origin)
		}
	case flowUnknown:
		a.unresolved(c, "code of unknown content is run ("+origin+")", "")
	case flowSecret:
		if f.what == "the clipboard" {
			// pbpaste | sh: whatever was last copied, run
			a.unresolved(c, "the clipboard's content is run as code ("+origin+")", "")
		}
	case flowList, flowPaths:
		a.unresolved(c, "generated code is run ("+origin+")", "")
	}
	// flowRemote and flowSocket are judged by rules; flowLocal is running
	// a local script; flowNone is an interactive interpreter.
}

func isStdinPath(s string) bool {
	return s == "-" || s == "/dev/stdin" || s == "/proc/self/fd/0" || s == "/dev/fd/0"
}

func stdinOrigin(c *cmd) string {
	if c.in.what == "here-document" {
		return "here-document into " + c.base
	}
	return "pipeline into " + c.base
}

func (a *analysis) expandFind(c *cmd) {
	for _, ex := range c.findExecs {
		if len(ex) == 0 {
			continue
		}
		sub := make([]word, 0, len(ex))
		for _, w := range ex {
			if w.s == "{}" && len(c.find.roots) > 0 {
				r := c.find.roots[0]
				s := r.s
				if n := append(append([]string(nil), c.find.names...), c.find.patterns...); len(n) == 1 && strings.HasSuffix(n[0], ".pub") && !c.find.narrowed && r.ok {
					// find ~/.ssh -name '*.pub' -exec cat {}: the public
					// halves under the root, not the keys beside them
					s = strings.TrimSuffix(s, "/") + "/" + n[0]
				}
				sub = append(sub, word{s: s, ok: r.ok, find: c.find})
				continue
			}
			if len(w.s) > 2 && strings.Contains(w.s, "{}") && len(c.find.roots) > 0 && w.ok && c.find.roots[0].ok {
				// curl -F 'f=@{}': GNU find puts each path inside the
				// word too; the root stands for what it visits
				sub = append(sub, word{s: strings.ReplaceAll(w.s, "{}", c.find.roots[0].s), ok: true})
				continue
			}
			sub = append(sub, w)
		}
		a.subCommand(c, sub, "find -exec")
	}
}

// subCommand judges a command that c runs directly (not through a shell).
func (a *analysis) subCommand(parent *cmd, words []word, origin string) *cmd {
	if a.depth >= maxDepth {
		a.unresolved(parent, "commands nested too deep to analyse", "")
		return nil
	}
	a.depth++
	// what a root program starts runs as root too (sudo find -exec sh)
	c := &cmd{words: words, origin: origin, depth: a.depth, cwd: parent.cwd, remote: parent.remote, asRoot: parent.asRoot}
	// the program's environment is its runner's (DJANGO_SETTINGS_MODULE=x
	// python -c "call_command('flush')")
	c.assigns = parent.assigns[:len(parent.assigns):len(parent.assigns)]
	if passesStdin[origin] {
		c.in = parent.in // the program reads what its runner reads
	}
	a.unwrap(c)
	c.setName()
	a.finish(c)
	a.depth--
	return c
}

func (a *analysis) expandWatch(c *cmd) {
	args := c.args()
	exec := false
	i := 0
	for ; i < len(args); i++ {
		s := args[i].s
		if s == "--" {
			i++
			break
		}
		if len(s) < 2 || s[0] != '-' {
			break
		}
		if s == "-x" || s == "--exec" {
			exec = true
		}
		if s == "-n" || s == "--interval" || s == "-q" || s == "--equexit" {
			i++
		}
	}
	rest := args[min(i, len(args)):]
	if len(rest) == 0 {
		return
	}
	if exec {
		a.subCommand(c, append([]word{}, rest...), "watch -x")
		return
	}
	w := word{s: joinWords(rest), ok: true}
	for _, x := range rest {
		w.ok = w.ok && x.ok
	}
	a.payload(c, w, "watch command")
}

func (a *analysis) expandSSH(c *cmd) {
	args := c.args()
	i := skipOpts(args, 0, optSpec{short: "BbcDEeFIiJLlmOoPpQRSWw"})
	if i >= len(args) {
		return
	}
	rest := args[i+1:]
	if user, _, ok := strings.Cut(args[i].s, "@"); ok && (user == "dokku" || user == "piku") && len(rest) > 0 {
		// the account's shell is the platform's own client: the words are
		// its subcommand (ssh dokku@host apps:destroy APP)
		rest = append([]word{{s: user, ok: true}}, rest...)
	}
	a.remoteCommand(c, rest, "ssh remote command")
}

// expandGuestExec judges the command a hypervisor runs inside a guest
// (pct exec ID -- CMD, lxc exec NAME -- CMD, qm guest exec ID -- CMD,
// VBoxManage guestcontrol VM run -- CMD), or a Ray cluster as a job's
// entrypoint (ray job submit -- CMD), as one run on another machine: a
// script piped into a shell there is still code nobody vetted.
func (a *analysis) expandGuestExec(c *cmd) {
	args := c.args()
	n := 1
	switch c.name {
	case "qm":
		n = 2 // qm guest exec
		if len(args) <= n || args[0].s != "guest" || args[1].s != "exec" {
			return
		}
	case "VBoxManage", "vboxmanage":
		// VBoxManage guestcontrol VM run [options] -- CMD
		if len(args) < 3 || lower(args[0].s) != "guestcontrol" || args[2].s != "run" {
			return
		}
		n = 3
	case "ray":
		// ray job submit --address URL [options] -- CMD: the entrypoint
		// runs on the cluster's nodes
		if len(args) < 3 || args[0].s != "job" || args[1].s != "submit" {
			return
		}
		n = 2
	default:
		if len(args) <= n || args[0].s != "exec" {
			return
		}
	}
	for i := n; i < len(args); i++ {
		if args[i].s == "--" {
			a.remoteCommand(c, args[i+1:], c.name+" exec command (in a guest)")
			return
		}
	}
}

// uploadCritical are the classes of a remote path an upload may not
// replace: accounts, sudoers, PAM, preloaded libraries, schedules,
// services, login keys, the SSH server's settings, boot files and
// system programs of the machine it reaches.
var uploadCritical = []wclass{wPasswd, wSudoers, wPam, wLdPreload, wCron, wService, wAuthKeys, wSSHDConfig, wBoot, wSysBin}

// expandUpload judges a copy to another machine (scp, rsync, pscp and
// parallel-ssh's pscp.pssh) as the write it makes there: scp ./sudoers
// root@host:/etc/sudoers replaces that machine's sudoers.
func (a *analysis) expandUpload(c *cmd) {
	args := c.args()
	var dest string
	var srcs []word
	switch c.name {
	case "pscp.pssh", "parallel-scp", "prsync", "parallel-rsync":
		// -h hosts -l user SRC... DEST: the same remote path on every host
		ops := posArgs(args, optSpec{short: "hHlpteoxXO"})
		if len(ops) < 2 {
			return
		}
		dest, srcs = ops[len(ops)-1].s, ops[:len(ops)-1]
	default:
		ops := posArgs(args, optSpec{short: "cFiJloPSeBfT", long: []string{"rsh", "rsync-path", "exclude", "include", "filter", "files-from", "temp-dir", "port", "password-file", "chmod", "chown"}})
		if len(ops) < 2 || !isRemoteSpec(ops[len(ops)-1].s) {
			return
		}
		_, dest, _ = strings.Cut(ops[len(ops)-1].s, ":")
		srcs = ops[:len(ops)-1]
	}
	if !strings.HasPrefix(dest, "/") {
		return // a path under the remote user's home: not this machine's classes
	}
	for _, s := range srcs {
		if isRemoteSpec(s.s) {
			return // a copy between two other machines
		}
	}
	target := dest
	if strings.HasSuffix(dest, "/") && len(srcs) == 1 {
		target = dest + path.Base(srcs[0].s)
	}
	if slices.Contains(uploadCritical, a.classifyWrite(path.Clean(target))) {
		// judged as the copy it makes over there
		a.remoteNested("cp "+shellQuote(path.Base(srcs[0].s))+" "+shellQuote(path.Clean(target)), c.base+" upload", flow{})
	}
}

// plinkValued are PuTTY plink's options that take a value.
var plinkValued = map[string]bool{"-pw": true, "-pwfile": true, "-P": true, "-i": true, "-l": true, "-m": true, "-L": true, "-R": true, "-D": true,
	"-hostkey": true, "-proxycmd": true, "-sercfg": true, "-sshlog": true, "-sshrawlog": true, "-load": true, "-J": true}

// plinkFlags are plink's options that take no value.
var plinkFlags = map[string]bool{"-batch": true, "-ssh": true, "-v": true, "-A": true, "-a": true, "-X": true, "-x": true, "-T": true, "-t": true,
	"-C": true, "-N": true, "-noagent": true, "-agent": true, "-4": true, "-6": true, "-2": true, "-1": true, "-share": true, "-noshare": true, "-no-antispoof": true}

// expandPlink judges the command PuTTY's plink runs on the host it
// logs in to: plink -batch -ssh root@HOST -pw PW "CMD".
func (a *analysis) expandPlink(c *cmd) {
	args := c.args()
	for i := 0; i < len(args); i++ {
		s := args[i].s
		if strings.HasPrefix(s, "-") {
			if plinkValued[s] {
				i++
			}
			continue
		}
		// plink's own options may follow the host
		rest := args[i+1:]
		for len(rest) > 0 && strings.HasPrefix(rest[0].s, "-") && (plinkValued[rest[0].s] || plinkFlags[rest[0].s]) {
			if plinkValued[rest[0].s] && len(rest) > 1 {
				rest = rest[1:]
			}
			rest = rest[1:]
		}
		a.remoteCommand(c, rest, "plink remote command")
		return
	}
}

// remoteCommand judges the words a remote shell (ssh, adb shell) is
// given as the command line it runs there.
func (a *analysis) remoteCommand(c *cmd, rest []word, origin string) {
	if len(rest) == 0 {
		return
	}
	w := word{s: joinWords(rest), ok: true}
	for _, x := range rest {
		w.ok = w.ok && x.ok
	}
	if w.ok || hasLiteralBefore(w) {
		if touchesProduction(c) {
			// ssh deploy@prod-web-01 ...: what it changes there is
			// production's
			a.prodTarget++
			defer func() { a.prodTarget-- }()
		}
		a.remoteNested(w.s, origin, c.in)
	}
}

// adbGlobal are adb's options before its subcommand that take a value.
var adbGlobal = optSpec{short: "stHPL"}

// expandADB judges what adb shell runs on the device: its command, or
// without one, what it reads (curl URL | adb shell is curl URL | sh on
// the phone).
func (a *analysis) expandADB(c *cmd) {
	args := c.args()
	i := skipOpts(args, 0, adbGlobal)
	if i >= len(args) || args[i].s != "shell" && args[i].s != "exec-out" {
		return
	}
	rest := args[skipOpts(args, i+1, optSpec{short: "e"}):]
	if len(rest) == 0 {
		if c.in.kind == flowRemote || c.in.kind == flowSocket {
			a.remoteNested("sh", "adb shell reading its input", c.in)
		}
		return
	}
	if deviceIsEmulator(args) {
		// adb -s emulator-5554 shell rm -rf /sdcard/Download/e2e-*: an
		// emulator on this machine, whose files and settings are its own
		a.sealed++
		defer func() { a.sealed-- }()
	}
	a.remoteCommand(c, rest, "adb shell command")
}

// expandDashC handles su -c, runuser -c, script -c, flock -c, sg -c.
func (a *analysis) expandDashC(c *cmd) {
	args := c.args()
	for i := 0; i < len(args); i++ {
		s := args[i].s
		cluster := len(s) > 2 && s[0] == '-' && s[1] != '-' && s[len(s)-1] == 'c' && isLetters(s[1:])
		switch {
		case (s == "-c" || cluster || s == "--command" || s == "--session-command") && i+1 < len(args):
			a.payload(c, args[i+1], c.base+" -c payload")
			return
		case strings.HasPrefix(s, "--command="):
			a.payload(c, word{s: s[len("--command="):], ok: args[i].ok}, c.base+" -c payload")
			return
		}
	}
	if c.name == "sg" && len(args) > 1 {
		w := word{s: joinWords(args[1:]), ok: true}
		a.payload(c, w, "sg command")
	}
}

// expandBatchWrap judges the command a batch job runs: sbatch --wrap
// "CMD" runs CMD in a shell on a compute node, which sees the same
// shared file systems.
func (a *analysis) expandBatchWrap(c *cmd) {
	args := c.args()
	if c.name == "bsub" {
		// bsub -q gpu -Is "CMD": the job's command line, quoted as one
		// word at the end
		if n := len(args); n > 1 && strings.ContainsRune(args[n-1].s, ' ') && !strings.HasPrefix(args[n-1].s, "-") {
			a.payload(c, args[n-1], "bsub job command")
		}
		return
	}
	for i, w := range args {
		if w.s == "--wrap" && i+1 < len(args) {
			a.payload(c, args[i+1], "sbatch --wrap payload")
			return
		}
		if v, ok := strings.CutPrefix(w.s, "--wrap="); ok {
			a.payload(c, word{s: v, ok: w.ok}, "sbatch --wrap payload")
			return
		}
	}
}

// dockerRunOpts are docker run's options that take a value.
var dockerRunOpts = optSpec{short: "eupvwlhm", long: []string{"env", "user", "publish", "volume", "workdir", "label", "hostname", "memory",
	"name", "network", "net", "entrypoint", "mount", "platform", "env-file", "restart", "pull", "add-host", "cap-add", "cap-drop", "device",
	"dns", "ipc", "pid", "runtime", "shm-size", "ulimit", "volumes-from", "security-opt", "gpus", "tmpfs", "stop-signal", "cpus",
	"log-driver", "log-opt", "expose", "link", "label-file", "cidfile", "detach-keys", "health-cmd", "userns", "uts", "cgroupns", "memory-swap"}}

// expandExec handles docker exec and run, and kubectl exec and run: the
// command runs in a container.
func (a *analysis) expandExec(c *cmd) {
	args := c.args()
	sub, i := subcommand(args, dockerGlobal)
	if c.name == "kubectl" {
		sub, i = subcommand(args, kubectlGlobal)
	}
	compose := strings.HasSuffix(c.name, "-compose")
	if compose {
		sub, i = subcommand(args, composeGlobal)
	} else if sub == "compose" && c.name != "kubectl" {
		// docker compose exec SERVICE CMD: the service's container runs it
		compose = true
		rest := args[i+1:]
		s, j := subcommand(rest, composeGlobal)
		sub, i = s, i+1+j
	}
	// kubectl create job|cronjob|deployment ... -- CMD and kubectl debug
	// ... -- CMD run CMD in the cluster too
	if sub != "exec" && sub != "run" && !(c.name == "kubectl" && (sub == "create" || sub == "debug")) {
		return
	}
	rest := args[i+1:]
	var inner []word
	target := ""    // the container, service or pod, for exec
	sealed := false // a new container that reaches none of the host's files
	if compose {
		spec := optSpec{short: "euw", long: []string{"env", "user", "workdir", "index"}}
		if sub == "run" {
			spec = dockerRunOpts
		}
		j := skipOpts(rest, 0, spec)
		if j+1 < len(rest) {
			inner = rest[j+1:]
			target = rest[j].s
		}
	} else if sub == "run" && c.name != "kubectl" {
		// docker run [OPTIONS] IMAGE [COMMAND...]; --entrypoint sh makes
		// the words after the image sh's arguments
		j := skipOpts(rest, 0, dockerRunOpts)
		if j+1 < len(rest) {
			inner = rest[j+1:]
		}
		sealed = !remoteDocker(c) && sealedContainer(rest[:min(j, len(rest))])
		if ep, ok := optValue(rest[:min(j, len(rest))], "", "entrypoint"); ok && ep != "" && j < len(rest) {
			inner = append([]word{{s: ep, ok: true}}, rest[j+1:]...)
		}
	} else if c.name == "kubectl" {
		for j, w := range rest {
			if w.s == "--" {
				inner = rest[j+1:]
				if sub == "exec" {
					target = kubectlExecTarget(rest[:j])
				}
				break
			}
		}
	} else {
		j := skipOpts(rest, 0, optSpec{short: "euw", long: []string{"env", "user", "workdir", "env-file", "detach-keys"}})
		if j+1 < len(rest) {
			inner = rest[j+1:]
			if sub == "exec" {
				target = rest[j].s
			}
		}
	}
	if len(inner) == 0 {
		return
	}
	words := append([]word{}, inner...)
	wd, home := a.workDir, a.home
	var inWD, inHome string
	if sub == "run" && c.name != "kubectl" && !remoteDocker(c) {
		// docker run -v "$PWD":/src: the project (or the home directory)
		// is at /src inside, and what the command does there it does to
		// the project
		inWD, inHome = a.mountedAs(rest, c.cwd, wd, home)
	}
	a.workDir, a.home = inWD, inHome
	a.remote++
	// root on the host (sudo docker exec) is not what the container's
	// command runs as: its shell is the container's
	root := c.asRoot
	c.asRoot = false
	// a local compose service (docker compose exec nginx ...): what the
	// command changes of the container's own settings and logs is the
	// development container's
	local := compose && c.name != "kubectl" && !remoteDocker(c)
	if local {
		a.throwaway++
	}
	if sealed {
		a.sealed++
	}
	loopback := sub == "run" && c.name != "kubectl" && !remoteDocker(c) && loopbackPublishOnly(args)
	if loopback {
		a.loopbackNet++
		defer func() { a.loopbackNet-- }()
	}
	// a container or pod named for tests (docker exec pg-test psql ...):
	// the data in it is the tests' own
	// (containerlab's nodes, clab-LAB-NODE, are a lab's routers)
	testTarget := target != "" && (testName(target) || strings.HasPrefix(target, "clab-")) && !remoteDocker(c) && !touchesProduction(c) ||
		c.name == "kubectl" && localKubeContext(args) && !touchesProduction(c) ||
		compose && composeForTests(args[:i]) && !remoteDocker(c) && !touchesProduction(c)
	if testTarget {
		a.testTarget++
	}
	prod := touchesProduction(c)
	if prod {
		a.prodTarget++
	}
	a.subCommand(c, words, c.name+" "+sub)
	if prod {
		a.prodTarget--
	}
	if testTarget {
		a.testTarget--
	}
	if local {
		a.throwaway--
	}
	if sealed {
		a.sealed--
	}
	c.asRoot = root
	a.remote--
	a.workDir, a.home = wd, home
}

// sealedContainer reports docker run's options that give the new
// container none of the host: no bind mount or volume, no device, no
// host namespace, no privilege. What its command deletes or changes of
// its files is the container's own.
func sealedContainer(opts []word) bool {
	for _, w := range opts {
		l := lower(w.s)
		switch {
		case l == "-v" || l == "--volume" || l == "--mount" || l == "--volumes-from" || l == "--device" || l == "--privileged" || l == "--cap-add",
			strings.HasPrefix(l, "-v") && len(l) > 2 && l[2] != '-', strings.HasPrefix(l, "--volume="), strings.HasPrefix(l, "--mount="),
			strings.HasPrefix(l, "--volumes-from="), strings.HasPrefix(l, "--device="), strings.HasPrefix(l, "--privileged="), strings.HasPrefix(l, "--cap-add="),
			strings.HasSuffix(l, "=host") && (strings.HasPrefix(l, "--pid") || strings.HasPrefix(l, "--ipc") || strings.HasPrefix(l, "--uts") || strings.HasPrefix(l, "--userns") || strings.HasPrefix(l, "--cgroupns")),
			l == "--pid" || l == "--ipc" || l == "--uts" || l == "--userns" || l == "--cgroupns", strings.HasPrefix(l, "--security-opt"):
			return false
		}
	}
	return true
}

// mountedAs returns where a container sees the work directory and the
// home directory through bind mounts among docker run's options ("" for
// not mounted).
func (a *analysis) mountedAs(opts []word, cwd, wd, home string) (string, string) {
	var inWD, inHome string
	for i, w := range opts {
		v, ok := "", false
		switch {
		case w.s == "-v" || w.s == "--volume":
			if i+1 < len(opts) {
				v, ok = opts[i+1].s, opts[i+1].ok
			}
		case strings.HasPrefix(w.s, "--volume="):
			v, ok = w.s[len("--volume="):], w.ok
		case strings.HasPrefix(w.s, "-v") && len(w.s) > 2 && w.s[2] != '-':
			v, ok = strings.TrimPrefix(w.s[2:], "="), w.ok
		}
		if !ok {
			continue
		}
		host, rest, found := strings.Cut(v, ":")
		if !found || !strings.HasPrefix(rest, "/") {
			continue
		}
		cont, _, _ := strings.Cut(rest, ":")
		cont = path.Clean(cont)
		if cont == "/" {
			continue
		}
		hp := a.absPath(host, cwd)
		switch {
		case hp == "":
		case wd != "" && hp == wd:
			inWD = cont
		case home != "" && hp == strings.TrimSuffix(home, "/"):
			inHome = cont
		}
	}
	return inWD, inHome
}

// localKubeContext reports kubectl told to use a cluster running on this
// machine for development (kind, minikube, k3d, Docker Desktop).
func localKubeContext(args []word) bool {
	ctx, ok := optValue(args, "", "context")
	if !ok {
		ctx, ok = optValue(args, "", "kube-context") // helm's
	}
	return ok && localKubeName(ctx)
}

// localKubeName reports a context of a cluster on this machine (kind,
// minikube, k3d, Docker Desktop, Rancher Desktop, Colima, OrbStack).
func localKubeName(ctx string) bool {
	l := lower(ctx)
	return strings.HasPrefix(l, "kind-") || l == "minikube" || strings.HasPrefix(l, "k3d-") || l == "docker-desktop" ||
		l == "rancher-desktop" || l == "colima" || l == "orbstack"
}

// contextSwitched remembers a switch of the cluster or Docker context to
// production for the commands after c.
func (a *analysis) contextSwitched(c *cmd) {
	var kube, docker string
	args := c.args()
	switch c.name {
	case "kubectl", "oc":
		if ops := c.operands(); len(ops) > 2 && ops[0].s == "config" && ops[1].s == "use-context" {
			kube = ops[2].s
		}
	case "kubectx":
		if ops := c.operands(); len(ops) == 1 {
			kube = ops[0].s
		}
	case "docker":
		if ops := c.operands(); len(ops) > 2 && ops[0].s == "context" && ops[1].s == "use" {
			docker = ops[2].s
		}
	case "export", "set":
		// export KUBECONFIG=~/.kube/prod.yaml; fish: set -x KUBECONFIG F
		for i, w := range args {
			k, v, ok := strings.Cut(w.s, "=")
			if !ok && c.name == "set" && i+1 < len(args) {
				k, v, ok = w.s, args[i+1].s, true
			}
			if !ok {
				continue
			}
			switch k {
			case "KUBECONFIG":
				kube = path.Base(v)
			case "DOCKER_CONTEXT", "DOCKER_HOST":
				docker = v
			}
		}
	}
	if kube != "" {
		a.prodKube = ""
		if isProdName(kube) {
			a.prodKube = kube
		}
	}
	if docker != "" {
		a.prodDocker = ""
		if isProdName(docker) {
			a.prodDocker = docker
		}
	}
}

// switchedContext gives a cluster or Docker client that names no context,
// server or configuration of its own the production context the line
// switched to earlier, as the option it would have been given.
func (a *analysis) switchedContext(c *cmd) {
	var opt string
	switch c.name {
	case "kubectl", "oc", "helm":
		if a.prodKube == "" || hasPrefixWord(c.args(), "--context") || hasPrefixWord(c.args(), "--kube-context") || hasPrefixWord(c.args(), "--kubeconfig") {
			return
		}
		opt = "--context=" + a.prodKube
		if c.name == "helm" {
			opt = "--kube-context=" + a.prodKube
		}
	case "docker", "docker-compose":
		args := c.args()
		if a.prodDocker == "" || hasPrefixWord(args, "--context") || hasPrefixWord(args, "-H") || hasPrefixWord(args, "--host") || hasWord(args, "-c") {
			return
		}
		opt = "--context=" + a.prodDocker
	default:
		return
	}
	words := make([]word, 0, len(c.words)+1)
	words = append(words, c.words[0], lit(opt))
	c.words = append(words, c.words[1:]...)
}

// localKubeSwitched reports a line that switched kubectl to a local
// cluster's context before (kubectl config use-context docker-desktop &&
// kubectl delete pods --all -n redis).
func (a *analysis) localKubeSwitched() bool {
	i := strings.Index(a.src, "use-context ")
	if i < 0 {
		return false
	}
	f := strings.Fields(a.src[i+len("use-context "):])
	return len(f) > 0 && localKubeName(strings.Trim(f[0], `"';&`))
}

// kubectlExecTarget is the pod of kubectl exec's words before "--", or
// its namespace when the pod is not named for what it runs.
func kubectlExecTarget(ws []word) string {
	pod, ns := "", ""
	for j := 0; j < len(ws); j++ {
		switch s := ws[j].s; {
		case s == "-n" || s == "--namespace":
			if j+1 < len(ws) {
				ns = ws[j+1].s
			}
			j++
		case s == "-c" || s == "--container" || s == "--context" || s == "--kubeconfig" || s == "--cluster" || s == "--user":
			j++
		case strings.HasPrefix(s, "--namespace="):
			ns = s[len("--namespace="):]
		case strings.HasPrefix(s, "-"):
		case pod == "":
			pod = s
		}
	}
	if testName(pod) {
		return pod
	}
	return ns
}

// remoteDocker reports a docker command aimed at another engine: a
// context, a host or DOCKER_HOST.
func remoteDocker(c *cmd) bool {
	for _, as := range c.assigns {
		if as.name == "DOCKER_HOST" || as.name == "DOCKER_CONTEXT" {
			return true
		}
	}
	// docker's own options, before its subcommand: the command run in a
	// container has options of its own (psql -c)
	args := c.args()
	_, end := subcommand(args, dockerGlobal)
	for _, w := range args[:end] {
		if w.s == "--context" || w.s == "-c" || w.s == "-H" || w.s == "--host" || strings.HasPrefix(w.s, "--context=") || strings.HasPrefix(w.s, "--host=") {
			return true
		}
	}
	return false
}

// expandSchedule analyses what crontab and at schedule.
func (a *analysis) expandSchedule(c *cmd) {
	args := c.args()
	if c.name != "crontab" {
		if c.in.kind == flowText && hiddenProgramJob(c.in.text) {
			// echo /var/tmp/.cache/run | at now + 2 hours
			a.emit(c, ruleByID["persistence-suspicious-job"], c.base+" job")
		}
		if f, ok := optValue(args, "-f", ""); ok && c.name == "at" && untrustedPlace(f) {
			// at -f /var/tmp/.stage2.sh midnight: the script read from
			// there when the time comes
			a.emit(c, ruleByID["persistence-suspicious-job"], c.base+" -f "+f)
		}
		a.persistContent(c, c.in, c.base+" job", false)
		return
	}
	for _, w := range args {
		if w.s == "-r" || w.s == "-l" || w.s == "-e" || w.s == "-ir" || w.s == "-ri" {
			return
		}
	}
	ops := operands(args, optSpec{short: "u"})
	var content flow
	if len(ops) == 0 || ops[0].s == "-" {
		content = c.in
	} else {
		content = a.fileFlow(c, ops[0])
	}
	a.persistContent(c, content, "crontab", true)
}

// operands returns the words after the options.
func operands(args []word, spec optSpec) []word {
	i := skipOpts(args, 0, spec)
	if i >= len(args) {
		return nil
	}
	var out []word
	for j := i; j < len(args); j++ {
		out = append(out, args[j])
	}
	return out
}

// persistContent analyses content installed to run later (a crontab, a
// shell start-up file) and reports it when it is malicious.
func (a *analysis) persistContent(c *cmd, content flow, where string, cron bool) {
	switch content.kind {
	case flowRemote, flowSocket:
		a.emit(c, ruleByID["persistence-remote-payload"], where+" ← "+content.what)
		return
	case flowText:
	default:
		return
	}
	text := content.text
	if cron {
		if suspiciousJob(text) {
			a.emit(c, ruleByID["persistence-suspicious-job"], where)
		}
		fields := 5
		if strings.HasSuffix(where, "anacrontab") {
			fields = 3 // period, delay and job name before the command
		}
		text = cronCommands(text, fields)
	}
	sub := a.capture(func() { a.nested(text, "installed into "+where) })
	if sub != nil && sub.level >= LevelHigh {
		a.emit(c, ruleByID["persistence-malicious-payload"], where+" ← "+sub.text())
	} else if sub != nil {
		a.add(*sub)
	}
}

// suspiciousJob reports cron entries that run at boot or from temporary
// or hidden locations.
func suspiciousJob(text string) bool {
	for _, line := range strings.Split(text, "\n") {
		l := strings.TrimSpace(line)
		if l == "" || l[0] == '#' {
			continue
		}
		l = jobCommandPart(l)
		// every minute, or a program kept where a web server serves and
		// writes (/var/www): a beacon, not a nightly task
		if strings.HasPrefix(l, "* * * * * ") || strings.Contains(l, "/var/www/") || strings.Contains(l, "/public_html/") || strings.Contains(l, "/htdocs/") {
			return true
		}
		if strings.HasPrefix(l, "@reboot") || strings.Contains(l, "/tmp/") || strings.Contains(l, "/dev/shm/") || strings.Contains(l, "/var/tmp/") || strings.Contains(l, "/.") && !strings.Contains(l, "/./") {
			return true
		}
	}
	return false
}

// hiddenProgramJob reports an at or batch job whose program lives in a
// temporary or hidden place (where what runs is what someone dropped).
func hiddenProgramJob(text string) bool {
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) > 0 && untrustedPlace(f[0]) {
			return true
		}
	}
	return false
}

// jobCommandPart is a cron line without its redirections: where a job
// writes its log says nothing of the program it runs.
func jobCommandPart(l string) string {
	for _, op := range [...]string{" >", " 1>", " 2>", ">>"} {
		if i := strings.Index(l, op); i >= 0 {
			l = l[:i]
		}
	}
	return l
}

// capture runs fn and returns its most severe finding instead of
// reporting it.
func (a *analysis) capture(fn func()) *finding {
	savedBest, savedStop := a.best, a.stop
	a.best, a.stop = nil, false
	fn()
	sub := a.best
	a.best, a.stop = savedBest, savedStop
	return sub
}

// unitCommands extracts the commands of a systemd unit or desktop entry
// (ExecStart=, Exec=); other text is returned unchanged.
func unitCommands(text string) string {
	if !strings.Contains(text, "Exec") {
		return text
	}
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		k, v, ok := strings.Cut(line, "=")
		if !ok || !strings.HasPrefix(k, "Exec") {
			continue
		}
		b.WriteString(strings.TrimLeft(v, "-@+!:"))
		b.WriteByte('\n')
	}
	return b.String()
}

// cronCommands extracts the commands of crontab lines, each after its
// schedule's fields (five, or anacrontab's three).
func cronCommands(text string, fields int) string {
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Fields(line)
		n := fields
		if strings.HasPrefix(f[0], "@") {
			n = 1
		} else if len(f) > 0 && isAssignWord(f[0]) && !strings.ContainsAny(f[0], " *") {
			continue
		}
		if len(f) <= n {
			continue
		}
		// drop the schedule fields from the line, keeping the command's
		// own spacing and quoting
		rest := line
		for k := 0; k < n; k++ {
			rest = strings.TrimLeft(rest, " \t")
			j := strings.IndexAny(rest, " \t")
			if j < 0 {
				rest = ""
				break
			}
			rest = rest[j:]
		}
		b.WriteString(strings.TrimSpace(rest))
		b.WriteByte('\n')
	}
	return b.String()
}

// projectHookFile reports a git hook kept in the project (husky's,
// a hooks path's: .husky/pre-commit, .githooks/post-merge).
func projectHookFile(p string) bool {
	dir, base := path.Split(p)
	if base == "" || strings.HasSuffix(dir, "/.husky/_/") {
		return false
	}
	return (strings.HasSuffix(dir, "/.husky/") || strings.HasSuffix(dir, "/.githooks/")) && gitHookNames[base]
}

// gitHookNames are the hooks git runs.
var gitHookNames = map[string]bool{"pre-commit": true, "prepare-commit-msg": true, "commit-msg": true, "post-commit": true, "pre-rebase": true,
	"post-checkout": true, "post-merge": true, "pre-push": true, "post-rewrite": true, "pre-merge-commit": true, "pre-applypatch": true,
	"post-applypatch": true, "applypatch-msg": true, "pre-auto-gc": true, "reference-transaction": true}

// expandWrites analyses content written to start-up files, and code
// planted in scripts that run later.
func (a *analysis) expandWrites(c *cmd) {
	for _, t := range a.writeTargets(c) {
		if t.class == wNone && projectHookFile(t.path) {
			// .husky/post-merge, .githooks/pre-push: run by git for
			// everyone who enabled the project's hooks
			a.persistContent(c, t.content, t.path, false)
			continue
		}
		switch t.class {
		case wShellRC, wCron, wService, wLdPreload, wGitHook, wPathShadow, wAuthKeys:
			content := t.content
			if t.class == wService && content.kind == flowText {
				content.text = unitCommands(content.text)
			}
			a.persistContent(c, content, t.path, t.class == wCron)
		case wNone:
			text := ""
			if t.content.kind == flowText {
				text = t.content.text
			} else if c.name == "sed" {
				text = sedInsertedText(c.args())
			}
			switch {
			case strings.TrimSpace(text) == "":
			case laterRunScript(t.path):
				a.plantedCode(c, strings.ReplaceAll(text, `\n`, "\n"), t.path)
			case buildScriptFile(t.path) && payloadInSettings(text) != "":
				// build.rs, a Gemfile, build.gradle, setup.py, a
				// go:generate line: code the next build runs, here a
				// download run by a shell
				a.emit(c, ruleByID["persistence-malicious-payload"], t.path+" ← "+payloadInSettings(text))
			case path.Base(t.path) == "package.json" || path.Base(t.path) == "composer.json":
				// lifecycle scripts run at the next install
				for _, m := range manifestScript.FindAllStringSubmatch(text, 8) {
					a.plantedCode(c, strings.ReplaceAll(m[1], `\"`, `"`), t.path)
				}
			}
		}
	}
	if c.name == "npm" || c.name == "pnpm" || c.name == "yarn" {
		// npm set-script NAME CMD, npm pkg set scripts.NAME=CMD
		args := c.args()
		if len(args) >= 3 && args[0].s == "set-script" {
			a.plantedCode(c, args[2].s, "package.json scripts")
		}
		if len(args) >= 3 && args[0].s == "pkg" && args[1].s == "set" {
			for _, w := range args[2:] {
				if _, v, ok := strings.Cut(w.s, "="); ok && strings.HasPrefix(w.s, "scripts.") {
					a.plantedCode(c, v, "package.json scripts")
				}
			}
		}
	}
}

// manifestScript matches a script of a package manifest ("postinstall":
// "...").
var manifestScript = regexp.MustCompile(`"(?:pre|post)?(?:install|prepare|publish|pack|test|start|build|dev|serve)[\w:-]*"\s*:\s*"((?:[^"\\]|\\.)*)"`)

// plantedCode judges code written where it runs later unread (a script an
// entrypoint, direnv or an install runs): code that fetches and runs, or
// opens a shell to a host, is a foothold; anything milder is the
// script's own business.
func (a *analysis) plantedCode(c *cmd, code, where string) {
	sub := a.capture(func() { a.nested(code, "planted in "+where) })
	if sub != nil && sub.level >= LevelCritical && (sub.category == CategoryRemoteExec || sub.category == CategoryReverseShell) {
		a.emit(c, ruleByID["persistence-malicious-payload"], where+" ← "+sub.text())
	}
}

// buildScriptFile reports a file whose code a build or an install runs:
// build scripts, build definitions, Python's setup and test
// configuration, Go sources (their go:generate lines).
func buildScriptFile(p string) bool {
	switch base := path.Base(p); base {
	case "build.rs", "Gemfile", "Rakefile", "build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts", "setup.py", "conftest.py",
		"noxfile.py", "tasks.py", "Makefile", "GNUmakefile", "makefile", "CMakeLists.txt", "Justfile", "justfile", "Taskfile.yml", "build.sbt", "pom.xml",
		"mix.exs", "Podfile", "Fastfile", "gulpfile.js", "Gruntfile.js", "vite.config.ts", "vite.config.js", "webpack.config.js", "next.config.js":
		return true
	default:
		return strings.HasSuffix(base, ".gemspec") || strings.HasSuffix(base, ".go")
	}
}

// laterRunScript reports a file that runs without anyone reading it
// first: a shell script, a direnv file, a container entrypoint.
func laterRunScript(p string) bool {
	if p == "" {
		return false
	}
	base := path.Base(p)
	switch path.Ext(base) {
	case ".sh", ".bash", ".zsh", ".ksh", ".command":
		return true
	}
	return base == ".envrc" || strings.Contains(base, "entrypoint")
}

// sedInsertedText returns the text a sed script inserts, appends or
// changes lines to (2i TEXT, $a TEXT, 1c\ TEXT).
func sedInsertedText(args []word) string {
	var scripts []string
	for i, w := range args {
		if (w.s == "-e" || w.s == "--expression") && i+1 < len(args) {
			scripts = append(scripts, args[i+1].s)
		}
	}
	if len(scripts) == 0 {
		if ops := posArgs(args, optSpec{short: "efEI", long: []string{"expression", "file"}}); len(ops) > 0 {
			scripts = append(scripts, ops[0].s)
		}
	}
	var b strings.Builder
	for _, sc := range scripts {
		s := sc
		if strings.HasPrefix(s, "/") {
			// a /regex/ address: skip to its closing slash
			for i := 1; i < len(s); i++ {
				if s[i] == '\\' {
					i++
					continue
				}
				if s[i] == '/' {
					s = s[i+1:]
					break
				}
			}
		}
		s = strings.TrimLeft(s, "0123456789$/,^ ")
		if len(s) < 2 || !strings.ContainsRune("aic", rune(s[0])) {
			continue
		}
		s = strings.TrimLeft(s[1:], "\\ \t")
		b.WriteString(s)
		b.WriteByte('\n')
	}
	return b.String()
}

// subcommand finds a multi-command tool's subcommand, skipping global
// options; it returns the subcommand and its index in args.
func subcommand(args []word, globals optSpec) (string, int) {
	i := skipOpts(args, 0, globals)
	if i < len(args) {
		return args[i].s, i
	}
	return "", len(args)
}

var (
	composeGlobal = optSpec{short: "fp", long: []string{"file", "project-name", "env-file", "profile", "project-directory", "ansi", "progress", "parallel"}}
	dockerGlobal  = optSpec{short: "cHl", long: []string{"config", "context", "host", "log-level", "tlscacert", "tlscert", "tlskey"}}
	kubectlGlobal = optSpec{short: "ns", long: []string{"namespace", "context", "kubeconfig", "cluster", "user", "server", "token", "as", "as-group", "request-timeout", "certificate-authority", "client-certificate", "client-key"}}
)

// expandGitAlias remembers aliases a git command defines and judges what
// an alias runs where it is used: git config alias.nuke 'reset --hard'
// && git nuke is git reset --hard.
func (a *analysis) expandGitAlias(c *cmd) {
	record := func(name, val string) {
		if a.gitAliases == nil {
			a.gitAliases = make(map[string]string)
		}
		a.gitAliases[strings.ToLower(name)] = val
	}
	args := c.args()
	for i := 0; i+1 < len(args); i++ {
		if args[i].s == "-c" {
			if k, v, ok := strings.Cut(args[i+1].s, "="); ok && strings.HasPrefix(strings.ToLower(k), "alias.") {
				record(k[len("alias."):], v)
			}
		}
	}
	if k, v, ok := gitConfigSet(c); ok && strings.HasPrefix(k, "alias.") {
		record(k[len("alias."):], v)
		return
	}
	sub, rest := gitSub(c)
	val, ok := a.gitAliases[strings.ToLower(sub)]
	if !ok || sub == "" {
		return
	}
	delete(a.gitAliases, strings.ToLower(sub)) // an alias naming itself ends here
	src := "git " + val
	if strings.HasPrefix(val, "!") {
		src = val[1:]
	}
	for _, w := range rest {
		src += " " + shellQuote(w.s)
	}
	a.nested(src, "git alias "+sub)
}

// wslDrive finds a Windows drive's mount in Linux code (/mnt/c/...).
var wslDrive = regexp.MustCompile(`(^|[\s'"=:;(])/mnt/([a-zA-Z])(/|$|[\s'";)])`)

// expandWSL analyses the Linux command wsl runs (wsl rm -rf /mnt/c/x,
// wsl -d Ubuntu -u root -- cmd, wsl -e cmd). The Windows drives are under
// /mnt/<letter> there; they are judged as the Windows paths they are.
func (a *analysis) expandWSL(c *cmd) {
	args := c.args()
	i := 0
	for i < len(args) {
		switch s := args[i].s; s {
		case "-d", "--distribution", "-u", "--user", "--cd", "--shell-type", "--distribution-id":
			i += 2
			continue
		case "-e", "--exec", "--":
			i++
		default:
			if strings.HasPrefix(s, "-") {
				return // --shutdown, --list, --install, --export ...: wsl's own work
			}
		}
		break
	}
	if i >= len(args) {
		return
	}
	words := make([]word, 0, len(args)-i)
	win := a.winHome() != ""
	if win && !a.msysPaths() {
		// Linux sees the session's folders by drive letter, as Git Bash
		// does: the paths below are compared with them in that form
		home, wd, cwd := a.home, a.workDir, a.cwd
		a.home, a.workDir, a.cwd = msysForm(home), msysForm(wd), msysForm(cwd)
		defer func() { a.home, a.workDir, a.cwd = home, wd, cwd }()
	}
	for _, w := range args[i:] {
		if rest, ok := strings.CutPrefix(w.s, "/mnt/"); ok && win && len(rest) >= 1 && isDriveLetter(rest[0]) && (len(rest) == 1 || rest[1] == '/') {
			w.s = "/" + rest
		} else if win && strings.Contains(w.s, "/mnt/") {
			// wsl -e sh -c "rm -rf /mnt/c/x": the drives inside the code
			w.s = wslDrive.ReplaceAllString(w.s, "$1/$2$3")
		}
		words = append(words, w)
	}
	a.subCommand(c, words, "wsl")
}

// passesStdin are the origins of sub-commands that read their parent's
// standard input: the programs package runners start.
var passesStdin = map[string]bool{"npx package": true, "pnpx package": true, "bunx package": true, "uvx package": true,
	"yarn package": true, "pnpm package": true, "pipx package": true, "bun package": true}

// packageRunners fetch a package when needed and run its program: what
// that program does is what the line does (npx prisma db push is prisma
// db push). The fetch itself is judged by the remote-code rules.
var packageRunners = map[string]bool{"npx": true, "pnpx": true, "bunx": true, "uvx": true, "yarn": true, "pnpm": true, "pipx": true, "bun": true}

// packageRunnerOpts are the runners' options that take a value.
var packageRunnerOpts = optSpec{short: "pc", long: []string{"package", "registry", "cache", "userconfig", "call", "from", "with", "python",
	"index-url", "spec", "pip-args", "node-options", "workspace", "filter", "cwd"}}

// expandPackageRunner analyses the program a package runner starts.
func (a *analysis) expandPackageRunner(c *cmd) {
	args := c.args()
	i := 0
	switch c.name {
	case "yarn", "pnpm", "bun", "pipx":
		// yarn dlx, pnpm dlx / exec, bun x, pipx run
		i = skipOpts(args, 0, packageRunnerOpts)
		if i >= len(args) {
			return
		}
		switch args[i].s {
		case "dlx", "exec", "x", "run":
			if args[i].s == "run" && c.name != "pipx" {
				return // a package.json script, not a package's program
			}
			i++
		default:
			// pnpm prisma ..., yarn knex ...: a word that is no command
			// of the manager's runs the project's program of that name
			// (or a script so named); a program with rules of its own is
			// judged as run
			if c.name == "pipx" || !args[i].ok || len(rulesByName[args[i].s]) == 0 || managerCommand(args[i].s) {
				return
			}
		}
	}
	i = skipOpts(args, i, packageRunnerOpts)
	if i >= len(args) || !args[i].ok {
		return
	}
	prog := args[i].s
	if strings.Contains(prog, "://") || strings.Contains(prog, ":") {
		return // a URL or a repository: the remote-code rules judge it
	}
	// @scope/name@1.2 and name@latest run the program called name
	if at := strings.LastIndexByte(prog, '@'); at > 0 {
		prog = prog[:at]
	}
	if sl := strings.LastIndexByte(prog, '/'); sl >= 0 {
		prog = prog[sl+1:]
	}
	if prog == "" || packageRunners[prog] {
		return
	}
	var words []word
	if len(c.assigns) > 0 {
		// DATABASE_URL=... npx prisma ...: the program gets the runner's
		// environment
		words = append(words, word{s: "env", ok: true})
		for _, as := range c.assigns {
			words = append(words, word{s: as.name + "=" + as.val.s, ok: as.val.ok})
		}
	}
	words = append(words, word{s: prog, ok: true})
	words = append(words, args[i+1:]...)
	a.subCommand(c, words, c.name+" package")
}

// composeForTests reports compose options naming a test stack: its file
// (docker-compose.test.yml) or its project (-p shop-test).
func composeForTests(args []word) bool {
	if f, ok := optValue(args, "-f", "file"); ok && testName(path.Base(f)) {
		return true
	}
	p, ok := optValue(args, "-p", "project-name")
	return ok && testName(p)
}

// managerCommand reports a built-in command of npm, yarn, pnpm or bun
// that is also the name of a program guard has rules for.
func managerCommand(s string) bool {
	switch s {
	case "add", "remove", "rm", "install", "i", "update", "upgrade", "link", "unlink", "publish", "pack", "init", "create", "config",
		"cache", "store", "patch", "audit", "why", "list", "ls", "outdated", "prune", "dedupe", "import", "login", "logout", "version",
		"info", "view", "set", "node", "env", "test", "start", "build", "dev", "ci", "owner", "unpublish", "deprecate", "dist-tag", "git", "pm", "npm":
		return true
	}
	return false
}

// shellTracedByOption reports a shell started with its trace on (bash -x
// -c, sh -xc, bash -ex -c): the options before the payload.
func shellTracedByOption(c *cmd) bool {
	if c.name == "eval" {
		return false
	}
	for _, w := range c.args() {
		if len(w.s) < 2 || w.s[0] != '-' || w.s[1] == '-' || !isLetters(w.s[1:]) {
			return false // the payload, or a long option
		}
		if strings.IndexByte(w.s, 'x') > 0 {
			return true
		}
		if strings.HasSuffix(w.s, "c") {
			return false
		}
	}
	return false
}
