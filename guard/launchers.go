package guard

import (
	"path"
	"regexp"
	"slices"
	"strings"
)

// Programs that run other programs: an option, hook, alias, pager or
// action of an archiver, editor, debugger, build tool, git, ssh, rsync
// or database shell whose value is a command. launchers maps a program to
// what extracts those commands; each is analysed one level deeper, like a
// bash -c payload.

// launch is a command a program runs.
type launch struct {
	code   string // shell code, or code in lang
	lang   string // "" for shell
	origin string
	// stdin is set when the command reads what the program reads
	stdin bool
	// remote is set when the command runs on other machines (their work
	// directory and home are unknown)
	remote bool
	// prose is set when code is looked for in a request written for an
	// agent: what does not parse, or is not spelled out, is no finding
	prose bool
	// in, when set with stdin, is what the command reads instead of the
	// program's own input (tar --to-command reads each archived file)
	in *flow
	// dialect, when set, is the Windows shell the code is written for
	// (az vm run-command invoke --command-id RunPowerShellScript)
	dialect string
	// scratch is set when the machine or container the command runs in
	// is named for tests (wp-env run tests-cli -- ...)
	scratch bool
}

type launcherFunc func(a *analysis, c *cmd) []launch

var launchers map[string]launcherFunc

func init() {
	launchers = map[string]launcherFunc{
		"tar":       tarLaunches,
		"mix":       mixRunLaunches,
		"zip":       optLaunches(optTable{"-TT": "", "--unzip-command": ""}),
		"ssh":       sshLaunches,
		"psexec":    psexecLaunches,
		"psexec64":  psexecLaunches,
		"paexec":    psexecLaunches,
		"fly":       platformSSHLaunches,
		"flyctl":    platformSSHLaunches,
		"eb":        platformSSHLaunches,
		"doctl":     platformSSHLaunches,
		"scp":       optLaunches(optTable{"-S": "", "-o": "ssh-option"}),
		"sftp":      optLaunches(optTable{"-S": "", "-o": "ssh-option"}),
		"rsync":     optLaunches(optTable{"-e": "", "--rsh": "", "--rsync-path": ""}),
		"man":       optLaunches(optTable{"-P": "", "--pager": "", "-H": "", "--html": ""}),
		"git":       gitLaunches,
		"vim":       editorLaunches,
		"vi":        editorLaunches,
		"nvim":      editorLaunches,
		"ex":        editorLaunches,
		"view":      editorLaunches,
		"vimdiff":   editorLaunches,
		"gdb":       gdbLaunches,
		"expect":    expectLaunches,
		"sqlite3":   dotShellLaunches,
		"sqlite":    dotShellLaunches,
		"psql":      dotShellLaunches,
		"mysql":     dotShellLaunches,
		"tmux":      tmuxLaunches,
		"stuff":     stuffLaunches,
		"parallel":  parallelLaunches,
		"make":      makeLaunches,
		"husky":     huskyLaunches,
		"mvn":       mavenExecLaunches,
		"mvnw":      mavenExecLaunches,
		"./mvnw":    mavenExecLaunches,
		"rake":      optLaunchesLang(optTable{"-e": "", "--execute": ""}, "ruby"),
		"ed":        edLaunches,
		"red":       edLaunches,
		"osascript": osascriptLaunches,
		"gmake":     makeLaunches,
		"task":      taskLaunches,
		"go-task":   taskLaunches,
		"sed":       sedLaunches,
		"trap":      trapLaunches,
		"ansible":   ansibleLaunches,
		"npm":       optLaunches(optTable{"-c": "", "--call": ""}),
		"npx":       optLaunches(optTable{"-c": "", "--call": ""}),
		"pnpm":      optLaunches(optTable{"-c": "", "--call": ""}),
		"watchexec": watchexecLaunches,
		"nodemon":   optLaunches(optTable{"--exec": "", "-x": ""}),
		"entr":      argvLaunches(0, "entr"),
		"zargs":     zargsLaunches,
		"aria2c":    optLaunches(optTable{"--on-download-complete": "", "--on-download-start": "", "--on-bt-download-complete": ""}),
		"apt":       aptLaunches,
		"apt-get":   aptLaunches,
		"lldb":      lldbLaunches,
		"emacs":     emacsLaunches,
		"less":      lessLaunches,
		"alias":     nil,
		"unalias":   nil,
		"awk":       awkLaunches,
		"gawk":      awkLaunches,
		"mawk":      awkLaunches,
		"nawk":      awkLaunches,
		"nohup":     nil,
		"systemctl": nil,
		// secrets managers and environment shells given a command line
		"doppler":   optLaunches(optTable{"--command": ""}),
		"infisical": optLaunches(optTable{"--command": ""}),
		"nix-shell": optLaunches(optTable{"--run": "", "--command": ""}),
		"sops":      sopsLaunches,
		"nix":       nixLaunches,
	}
	// programs that run a command elsewhere or on a request's behalf
	for _, n := range [...]string{"pssh", "parallel-ssh"} {
		launchers[n] = fanOutLaunches(optSpec{short: "hHlpoetxXOA", long: []string{"hosts", "host", "user", "par", "outdir", "errdir", "timeout", "extra-args", "extra-arg", "options"}})
	}
	launchers["pdsh"] = fanOutLaunches(optSpec{short: "wxgXlRtufN"})
	launchers["clush"] = fanOutLaunches(optSpec{short: "wxgXlftuoRE", long: []string{"nodes", "exclude", "group", "user", "fanout", "options"}})
	launchers["vip"] = vipLaunches
	launchers["ddev"] = devEnvLaunches
	launchers["lando"] = devEnvLaunches
	launchers["fd"] = fdLaunches
	launchers["fdfind"] = fdLaunches
	launchers["fab"] = fanOutAfterDashes
	launchers["salt"] = saltLaunches
	launchers["knife"] = knifeLaunches
	launchers["az"] = azRunCommandLaunches
	launchers["heroku"] = herokuRunLaunches
	launchers["gh"] = ghAliasLaunches
	launchers["salt-ssh"] = saltLaunches
	launchers["aws"] = ssmLaunches
	launchers["cmake"] = cmakeToolLaunches
	launchers["cargo"] = cargoCleanLaunches
	launchers["pytest"] = pytestBasetempLaunches
	launchers["py.test"] = pytestBasetempLaunches
	launchers["repo"] = forallLaunches
	launchers["west"] = forallLaunches
	launchers["mr"] = forallLaunches
	for _, n := range [...]string{"claude", "codex", "gemini", "qwen", "cursor-agent", "amp", "aider", "copilot"} {
		launchers[n] = agentPromptLaunches
	}
	for k, v := range launchers {
		if v == nil {
			delete(launchers, k)
		}
	}
}

// commandVars are environment variables whose value is a command that a
// program (git, man, less, the shell's prompt) runs.
var commandVars = map[string]bool{
	"GIT_SSH_COMMAND": true, "GIT_SSH": true, "GIT_EDITOR": true, "GIT_PAGER": true, "GIT_EXTERNAL_DIFF": true,
	"GIT_SEQUENCE_EDITOR": true, "GIT_ASKPASS": true, "GIT_PROXY_COMMAND": true, "SSH_ASKPASS": true, "SUDO_ASKPASS": true,
	"EDITOR": true, "VISUAL": true, "PAGER": true, "MANPAGER": true, "SYSTEMD_PAGER": true, "LESSOPEN": true, "LESSCLOSE": true,
	"PROMPT_COMMAND": true, "BROWSER": true, "RSYNC_RSH": true, "FCEDIT": true, "PS0": true, "PS1": true, "PS4": true,
	"BASH_ENV": true, "ENV": true, "precmd_functions": true, "TAR_OPTIONS": false,
}

// commandVar reports an environment variable whose value a program runs:
// commandVars, and cargo's per-target runners (CARGO_TARGET_<TRIPLE>_RUNNER)
// and compiler wrappers.
func commandVar(name string) bool {
	return commandVars[name] || strings.HasPrefix(name, "CARGO_TARGET_") && strings.HasSuffix(name, "_RUNNER") ||
		name == "RUSTC_WRAPPER" || name == "CARGO_BUILD_RUSTC_WRAPPER" || name == "RUSTC_WORKSPACE_WRAPPER"
}

// expandLaunches analyses the commands c makes another program run.
func (a *analysis) expandLaunches(c *cmd) {
	var ls []launch
	for _, as := range c.assigns {
		if commandVar(as.name) && as.val.s != "" {
			l := varLaunch(as.name, as.val.s)
			if f := a.editedFile(c); f != "" && (as.name == "EDITOR" || as.name == "VISUAL") {
				// EDITOR="sed -i '$a ...'" crontab -e: the editor runs on
				// the file the program hands it
				l.code += " " + shellQuote(f)
			}
			ls = append(ls, l)
		}
	}
	switch c.name {
	case "export", "declare", "typeset", "local", "readonly", "setenv":
		// assignments already in c.assigns
	case "set":
		// fish: set -gx NAME VALUE
		if ops := c.operands(); len(ops) >= 2 && commandVar(ops[0].s) {
			ls = append(ls, varLaunch(ops[0].s, joinWords(ops[1:])))
		}
	}
	if f := launchers[c.name]; f != nil {
		ls = append(ls, f(a, c)...)
	} else {
		ls = append(ls, clientRunLaunches(c)...)
	}
	if !shellNameSet[c.name] {
		ls = append(ls, optionCommands(c)...)
	}
	if c.asRoot && len(ls) > 0 {
		a.rootLaunch++
		defer func() { a.rootLaunch-- }()
	}
	for _, l := range ls {
		if strings.TrimSpace(l.code) == "" {
			continue
		}
		if l.lang != "" {
			a.langNested(c, l.lang, l.code, l.origin)
			continue
		}
		if l.dialect != "" {
			a.nestedWin(l.code, l.dialect, l.origin)
			continue
		}
		switch {
		case l.prose:
			saved := a.prompt
			a.prompt = true
			a.nested(l.code, l.origin)
			a.prompt = saved
		case l.remote:
			// root here is not root there
			root := a.rootLaunch
			a.rootLaunch = 0
			prod := touchesProduction(c)
			// an app made for a pull request or a test run: its data is
			// the tests' own
			v, _ := optValue(c.args(), "-a", targetOptions...)
			scratch := !prod && (v != "" && scratchName(v) || l.scratch)
			if prod {
				a.prodTarget++
			}
			if scratch {
				a.testTarget++
			}
			a.remoteNested(l.code, l.origin, c.in)
			a.rootLaunch = root
			if prod {
				a.prodTarget--
			}
			if scratch {
				a.testTarget--
			}
		case l.stdin:
			saved := a.inherit
			a.inherit = c.in
			if l.in != nil {
				a.inherit = *l.in
			}
			a.nestedKeepInput(l.code, l.origin)
			a.inherit = saved
		default:
			a.nested(l.code, l.origin)
		}
		if a.stop {
			return
		}
	}
}

// editedFile is the file a program hands to $EDITOR (crontab -e, visudo,
// sudoedit FILE), or "".
func (a *analysis) editedFile(c *cmd) string {
	args := c.args()
	switch c.name {
	case "crontab":
		if hasWord(args, "-e") && a.home != "" {
			return "/var/spool/cron/crontabs/" + path.Base(a.home)
		}
	case "visudo":
		if f, ok := optValue(args, "-f", "file"); ok {
			return f
		}
		return "/etc/sudoers"
	case "sudoedit":
		if ops := c.operands(); len(ops) > 0 && ops[0].ok {
			return ops[0].s
		}
	}
	return ""
}

// varLaunch is the command a command variable holds.
func varLaunch(name, v string) launch {
	switch name {
	case "LESSOPEN", "LESSCLOSE":
		// (the file's name is the processor's argument: |curl URL | sh
		// %s is read as the download piped into a shell, which is what it
		// is written to look like)
		v = strings.TrimLeft(v, "|-")
		v = strings.ReplaceAll(strings.ReplaceAll(v, " %s", ""), "%s", "file")
	case "PS0", "PS1", "PS4":
		// only the command substitutions of a prompt run
		if !strings.Contains(v, "$(") && !strings.Contains(v, "`") {
			return launch{}
		}
		v = "echo " + shellQuoteDQ(v)
	case "BASH_ENV", "ENV":
		v = "source " + shellQuote(v)
	}
	return launch{code: v, origin: name}
}

// shellQuoteDQ puts v in double quotes, keeping its expansions live.
func shellQuoteDQ(v string) string {
	return `"` + strings.ReplaceAll(v, `"`, `\"`) + `"`
}

// optTable maps an option to how its value is read: "" shell code,
// "ssh-option" an ssh -o setting.
type optTable map[string]string

// optValues returns the values of the options of t in args, in the forms
// -o VALUE, -oVALUE (single-letter), --opt VALUE and --opt=VALUE.
func optValues(args []word, t optTable) []struct{ opt, kind, val string } {
	var out []struct{ opt, kind, val string }
	for i := 0; i < len(args); i++ {
		s := args[i].s
		if s == "--" {
			break
		}
		for opt, kind := range t {
			switch {
			case s == opt && i+1 < len(args):
				out = append(out, struct{ opt, kind, val string }{opt, kind, args[i+1].s})
			case strings.HasPrefix(opt, "--") && strings.HasPrefix(s, opt+"="):
				out = append(out, struct{ opt, kind, val string }{opt, kind, s[len(opt)+1:]})
			case len(opt) == 2 && len(s) > 2 && strings.HasPrefix(s, opt) && s[1] != '-':
				out = append(out, struct{ opt, kind, val string }{opt, kind, s[2:]})
			}
		}
	}
	return out
}

func optLaunches(t optTable) launcherFunc { return optLaunchesLang(t, "") }

// optLaunchesLang is optLaunches for options whose value is code in
// lang (rake -e 'sh "..."' is Ruby); "" is shell code, where an ssh -o
// setting's command is the part that runs.
func optLaunchesLang(t optTable, lang string) launcherFunc {
	return func(a *analysis, c *cmd) []launch {
		var out []launch
		for _, v := range optValues(c.args(), t) {
			code := v.val
			if v.kind == "ssh-option" {
				code = sshOptionCommand(v.val)
			}
			out = append(out, launch{code: code, lang: lang, origin: c.base + " " + v.opt})
		}
		return out
	}
}

// sshOptionCommand returns the command an ssh -o setting runs:
// ProxyCommand, LocalCommand (with PermitLocalCommand), KnownHostsCommand.
func sshOptionCommand(opt string) string {
	k, v, ok := strings.Cut(opt, "=")
	if !ok {
		k, v, ok = strings.Cut(strings.TrimSpace(opt), " ")
	}
	if !ok {
		return ""
	}
	switch strings.ToLower(strings.TrimSpace(k)) {
	case "proxycommand", "localcommand", "knownhostscommand", "remotecommand":
		return strings.TrimSpace(v)
	}
	return ""
}

func sshLaunches(a *analysis, c *cmd) []launch {
	var out []launch
	for _, v := range optValues(c.args(), optTable{"-o": ""}) {
		if code := sshOptionCommand(v.val); code != "" {
			out = append(out, launch{code: code, origin: "ssh -o " + v.val})
		}
	}
	return out
}

// platformSSHLaunches reads the command an application platform's client
// runs on the app's machine over SSH: fly ssh console -C CMD, eb ssh
// --command CMD, doctl compute ssh --ssh-command CMD.
func platformSSHLaunches(a *analysis, c *cmd) []launch {
	args := c.args()
	if len(args) == 0 {
		return nil
	}
	var code string
	switch c.name {
	case "fly", "flyctl":
		if len(args) > 1 && args[0].s == "ssh" && args[1].s == "console" {
			code, _ = optValue(args, "-C", "command")
		}
	case "eb":
		if args[0].s == "ssh" {
			code, _ = optValue(args, "-c", "command")
		}
	case "doctl":
		if len(args) > 1 && args[0].s == "compute" && args[1].s == "ssh" {
			code, _ = optValue(args, "", "ssh-command")
		}
	}
	if code == "" {
		return nil
	}
	return []launch{{code: code, origin: c.base + " ssh", remote: true}}
}

// psexecLaunches reads the command PsExec (or PAExec) runs on another
// Windows machine, typed in Git Bash: psexec \\host -u U -p P CMD ARGS
// (Git Bash leaves one backslash of an unquoted \\host).
func psexecLaunches(a *analysis, c *cmd) []launch {
	args := c.args()
	host := false
	i := 0
	for ; i < len(args); i++ {
		s := lower(args[i].s)
		switch {
		case strings.HasPrefix(s, `\`) || strings.HasPrefix(s, "@") && len(s) > 1:
			host = true // \\host, \\*, or @machines.txt: a list of them
		case s == "-u" || s == "-p" || s == "-w" || s == "-n" || s == "-r" || s == "-a" || s == "-cf":
			i++
		case strings.HasPrefix(s, "-"):
		default:
			if !host {
				return nil // the program runs here (psexec -s -i cmd)
			}
			return []launch{{code: quoteWords(args[i:]), origin: c.base + " on another machine", remote: true}}
		}
	}
	return nil
}

// fanOutLaunches reads the command a parallel shell (pssh, pdsh, clush)
// runs on every host it is given: the first operand after its options.
func fanOutLaunches(spec optSpec) launcherFunc {
	return func(a *analysis, c *cmd) []launch {
		ops := posArgs(c.args(), spec)
		if len(ops) == 0 {
			return nil
		}
		return []launch{{code: joinWords(ops), origin: c.base + " on every host", remote: true}}
	}
}

// fdOpts are fd's options that take a value.
var fdOpts = optSpec{short: "teEdSojc", long: []string{"type", "extension", "exclude", "max-depth", "min-depth", "exact-depth", "size",
	"changed-within", "changed-before", "owner", "threads", "base-directory", "search-path", "color", "ignore-file", "max-results", "format"}}

// fdLaunches reads fd's -x/-X (--exec, --exec-batch) as find's -exec:
// fd PATTERN PATH -X rm -rf runs rm -rf on what it finds under PATH, so
// it is judged as find PATH -name PATTERN -exec rm -rf {} +.
func fdLaunches(a *analysis, c *cmd) []launch {
	args := c.args()
	for i, w := range args {
		switch w.s {
		case "-x", "-X", "--exec", "--exec-batch":
		default:
			continue
		}
		ops := posArgs(args[:i], fdOpts)
		var b strings.Builder
		b.WriteString("find")
		paths := ops
		if len(ops) > 0 {
			paths = ops[1:]
		}
		if v, ok := optValue(args[:i], "", "search-path"); ok {
			paths = append(paths, lit(v))
		}
		if len(paths) == 0 {
			b.WriteString(" .")
		}
		for _, p := range paths {
			b.WriteString(" " + shellQuote(p.s))
		}
		if len(ops) > 0 && !strings.ContainsAny(ops[0].s, `^$\[]()|+?*.`) {
			b.WriteString(" -name " + shellQuote("*"+ops[0].s+"*"))
		}
		if v, ok := optValue(args[:i], "-e", "extension"); ok {
			b.WriteString(" -name " + shellQuote("*."+v))
		}
		if v, ok := optValue(args[:i], "-t", "type"); ok && (v == "f" || v == "d" || v == "l") {
			b.WriteString(" -type " + v)
		}
		b.WriteString(" -exec")
		for _, x := range args[i+1:] {
			if x.s == ";" || x.s == `\;` {
				break
			}
			if !strings.HasPrefix(x.s, "{") {
				b.WriteString(" " + shellQuote(x.s))
			}
		}
		b.WriteString(" {} +")
		return []launch{{code: b.String(), origin: c.base + " " + w.s}}
	}
	return nil
}

// fanOutAfterDashes reads fab -H HOSTS -- COMMAND: what follows "--" runs
// on every host.
func fanOutAfterDashes(a *analysis, c *cmd) []launch {
	args := c.args()
	for i, w := range args {
		if w.s == "--" && i+1 < len(args) {
			return []launch{{code: joinWords(args[i+1:]), origin: c.base + " on every host", remote: true}}
		}
	}
	return nil
}

// ssmLaunches reads the shell commands aws ssm send-command runs on the
// instances it targets: --parameters 'commands=["..."]' or the JSON form.
func ssmLaunches(a *analysis, c *cmd) []launch {
	args := c.args()
	if len(args) < 2 || !hasWord(args, "ssm") || !hasWord(args, "send-command") {
		return nil
	}
	v, ok := optValue(args, "", "parameters")
	if !ok {
		return nil
	}
	_, list, ok := strings.Cut(v, "commands")
	i, j := strings.IndexByte(list, '['), strings.LastIndexByte(list, ']')
	if !ok || i < 0 || j < i {
		return nil
	}
	list = list[i+1 : j]
	var out []launch
	for _, s := range quotedStrings(list) {
		out = append(out, launch{code: s, origin: "aws ssm send-command", remote: true})
	}
	return out
}

// quotedStrings returns the double-quoted strings of s, with \" unescaped.
func quotedStrings(s string) []string {
	var out []string
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			return out
		}
		s = s[i+1:]
		j := 0
		for j < len(s) && s[j] != '"' {
			if s[j] == '\\' {
				j++
			}
			j++
		}
		out = append(out, strings.ReplaceAll(s[:min(j, len(s))], `\"`, `"`))
		if j >= len(s) {
			return out
		}
		s = s[j+1:]
	}
}

func tarLaunches(a *analysis, c *cmd) []launch {
	var out []launch
	for _, v := range optValues(c.args(), optTable{"-I": "", "--use-compress-program": "", "--to-command": "",
		"--checkpoint-action": "action", "--rsh-command": "", "--info-script": "", "-F": "", "--new-volume-script": ""}) {
		code := v.val
		if v.kind == "action" {
			act, rest, _ := strings.Cut(code, "=")
			if act != "exec" {
				continue
			}
			code = rest
		}
		l := launch{code: code, origin: "tar " + v.opt, stdin: v.opt == "--to-command" || v.opt == "-I" || v.opt == "--use-compress-program"}
		if f, _, _ := tarArchive(c.args()); f != "" && a.isDownloaded(f, c.cwd) {
			// the archive came from the network: what each member holds
			// is fetched code
			l.in = &flow{kind: flowRemote, what: f}
		}
		out = append(out, l)
	}
	return out
}

func gitLaunches(a *analysis, c *cmd) []launch {
	var out []launch
	ws := c.words
	for i := 1; i < len(ws); i++ {
		s := ws[i].s
		if (s == "-c" || s == "--config-env") && i+1 < len(ws) {
			k, v, ok := strings.Cut(ws[i+1].s, "=")
			if ok && gitCommandKey(strings.ToLower(k)) {
				v = strings.TrimPrefix(v, "!")
				out = append(out, launch{code: v, origin: "git -c " + k})
			}
			i++
			continue
		}
		if strings.HasPrefix(s, "ext::") {
			out = append(out, launch{code: gitExtCommand(s[5:]), origin: "git ext:: transport"})
		}
	}
	sub, args := gitSub(c)
	switch sub {
	case "submodule":
		if len(args) > 0 && args[0].s == "foreach" {
			ops := args[1:]
			for len(ops) > 0 && strings.HasPrefix(ops[0].s, "-") {
				ops = ops[1:]
			}
			out = append(out, launch{code: joinWords(ops), origin: "git submodule foreach"})
		}
	case "bisect":
		if len(args) > 1 && args[0].s == "run" {
			out = append(out, launch{code: quoteWords(args[1:]), origin: "git bisect run"})
		}
	case "difftool", "mergetool":
		for _, v := range optValues(args, optTable{"-x": "", "--extcmd": ""}) {
			out = append(out, launch{code: v.val, origin: "git " + sub + " " + v.opt})
		}
	case "rebase":
		for _, v := range optValues(args, optTable{"-x": "", "--exec": ""}) {
			out = append(out, launch{code: v.val, origin: "git rebase --exec"})
		}
	case "filter-branch":
		for _, v := range optValues(args, optTable{"--tree-filter": "", "--index-filter": "", "--msg-filter": "", "--env-filter": "",
			"--commit-filter": "", "--parent-filter": "", "--tag-name-filter": ""}) {
			out = append(out, launch{code: v.val, origin: "git filter-branch " + v.opt})
		}
	case "clone", "fetch", "pull", "ls-remote", "push":
		for _, v := range optValues(args, optTable{"-u": "", "--upload-pack": "", "--receive-pack": ""}) {
			out = append(out, launch{code: v.val, origin: "git " + sub + " " + v.opt})
		}
	}
	return out
}

// forallLaunches reads the command a multi-repository tool runs in
// each of its repositories: repo forall -c CMD, west forall -c CMD,
// mr run CMD.
func forallLaunches(a *analysis, c *cmd) []launch {
	args := c.args()
	ops := c.operands()
	if len(ops) == 0 {
		return nil
	}
	if c.name == "mr" {
		for i, w := range args {
			if w.s == "run" {
				return []launch{{code: quoteWords(args[i+1:]), origin: "mr run"}}
			}
		}
		return nil
	}
	if ops[0].s != "forall" {
		return nil
	}
	for i, w := range args {
		if w.s == "-c" || w.s == "--command" || len(w.s) > 2 && w.s[0] == '-' && w.s[1] != '-' && strings.HasSuffix(w.s, "c") {
			if i+1 < len(args) {
				// repo takes every word after -c as the command
				return []launch{{code: joinWords(args[i+1:]), origin: c.name + " forall -c"}}
			}
		}
	}
	return nil
}

// gitExtCommand decodes the command of an ext:: URL ("% " is a space).
func gitExtCommand(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+1 < len(s) {
			switch s[i+1] {
			case ' ', '%':
				b.WriteByte(s[i+1])
				i++
				continue
			case 's', 'S', 'G', 'V':
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// clientRunVerbs are the subcommands with which a client runs a command
// it is given: after "--", or as the value of -C/--command.
var clientRunVerbs = map[string]bool{"run": true, "exec": true, "ssh": true, "console": true, "shell": true, "execute": true, "run-command": true}

// remoteRunVerbs run the command on the service's machines whatever the
// options say.
var remoteRunVerbs = map[string]bool{"ssh": true, "console": true, "shell": true}

// targetOptions name the app, service or machine a client acts on.
var targetOptions = []string{"app", "service", "instance", "host", "machine", "server", "site", "env", "environment", "project", "stage"}

// argsAfterDashes are tools whose words after "--" are a program's
// arguments, not a command.
var argsAfterDashes = map[string]bool{"bun": true, "deno": true, "zig": true, "swift": true, "dart": true, "flutter": true,
	"bazel": true, "bazelisk": true, "buck2": true, "pants": true, "nx": true, "turbo": true, "lerna": true, "rush": true,
	"just": true, "task": true, "mix": true, "sbt": true, "lein": true, "stack": true, "cabal": true, "hatch": true,
	"pdm": true, "rye": true, "tox": true, "nox": true, "wasmtime": true, "wasmer": true, "tauri": true, "wrangler": true}

// clientRunLaunches reads the command an unlisted client runs with a
// run, exec, ssh or console subcommand (nimbus run --app acme-prod --
// rake db:drop, nimbus ssh web-1 --command '...'): on the service's
// machines when it names an app or machine, else here with the
// client's settings loaded. Clients with rules of their own, and tools
// that pass what follows "--" to a program as arguments, are left out.
func clientRunLaunches(c *cmd) []launch {
	if len(rulesByName[c.name]) > 0 || argsAfterDashes[c.name] || launchers[c.name] != nil || len(c.words) < 3 {
		return nil
	}
	args := c.args()
	verb := -1
	for i, w := range args {
		if i > 3 || w.s == "--" {
			break
		}
		if strings.HasPrefix(w.s, "-") {
			continue
		}
		if clientRunVerbs[lower(w.s)] {
			verb = i
		}
		break
	}
	if verb < 0 {
		return nil
	}
	v := lower(args[verb].s)
	rest := args[verb+1:]
	code := ""
	for j, w := range rest {
		if w.s != "--" {
			continue
		}
		payload := rest[j+1:]
		if len(payload) == 0 || strings.HasPrefix(payload[0].s, "-") {
			return nil
		}
		code = quoteWords(payload)
		if len(payload) == 1 {
			code = payload[0].s // one string of shell code
		}
		rest = rest[:j]
		break
	}
	if code == "" {
		code, _ = optValue(rest, "-C", "command")
	}
	if strings.TrimSpace(code) == "" {
		return nil
	}
	target, named := optValue(rest, "-a", targetOptions...)
	pos := positional(rest)
	remote := remoteRunVerbs[v] || named || len(pos) > 0
	if !named && len(pos) > 0 {
		target = pos[0].s
	}
	scratch := target != "" && (testName(target) || scratchName(target)) && !isProdName(target)
	return []launch{{code: code, origin: c.base + " " + args[verb].s, remote: remote, scratch: scratch}}
}

// vipLaunches reads what WordPress VIP's CLI runs on an environment of
// a hosted site (vip @site.production -- wp ...): on VIP's machines.
func vipLaunches(a *analysis, c *cmd) []launch {
	args := c.args()
	for i, w := range args {
		if w.s == "--" && i+1 < len(args) {
			return []launch{{code: quoteWords(args[i+1:]), origin: "vip", remote: true}}
		}
	}
	return nil
}

// devEnvLaunches reads the tool a local development environment runs in
// its containers (ddev wp ..., lando drush ..., ddev exec CMD): the
// developer's own site.
func devEnvLaunches(a *analysis, c *cmd) []launch {
	args := c.args()
	if len(args) < 2 {
		return nil
	}
	switch args[0].s {
	case "exec", "ssh":
		if args[0].s == "exec" {
			return []launch{{code: quoteWords(args[1:]), origin: c.name + " exec"}}
		}
	case "wp", "drush", "composer", "artisan", "magento", "php", "mysql", "psql", "npm", "yarn", "craft", "console":
		return []launch{{code: quoteWords(args), origin: c.name + " " + args[0].s}}
	}
	return nil
}

// quoteWords joins words as shell code that gives them back.
func quoteWords(ws []word) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = shellQuote(w.s)
	}
	return strings.Join(parts, " ")
}

// editorLaunches reads the ex commands of vim -c, +CMD and --cmd: shell
// escapes (:!cmd, :r !cmd, :call system(...)) and embedded interpreters
// (:py3, :lua, :perl, :ruby).
func editorLaunches(a *analysis, c *cmd) []launch {
	var out []launch
	args := c.args()
	var cmds []string
	for i := 0; i < len(args); i++ {
		s := args[i].s
		switch {
		case (s == "-c" || s == "--cmd") && i+1 < len(args):
			cmds = append(cmds, args[i+1].s)
			i++
		case strings.HasPrefix(s, "+") && len(s) > 1:
			cmds = append(cmds, s[1:])
		}
	}
	for _, ex := range cmds {
		if cmd, ok := bufferFilter(ex); ok {
			// %!curl ..., w !nc ...: the file being edited goes to the
			// command's input
			var in flow
			for _, w := range c.operands() {
				if !strings.HasPrefix(w.s, "+") && !slices.Contains(cmds, w.s) {
					in = a.fileFlow(c, w)
					break
				}
			}
			out = append(out, launch{code: cmd, origin: c.base + " ex filter", stdin: true, in: &in})
			continue
		}
		out = append(out, exLaunches(ex, c.base)...)
	}
	return out
}

// bufferFilter returns the command of an ex command that hands the
// buffer to it (%!cmd, 1,$!cmd, w !cmd).
func bufferFilter(ex string) (string, bool) {
	ex = strings.TrimLeft(strings.TrimSpace(ex), ":")
	if rest, ok := strings.CutPrefix(ex, "w !"); ok {
		return rest, true
	}
	i := strings.IndexByte(ex, '!')
	if i <= 0 || strings.Trim(ex[:i], "0123456789.,$%'") != "" {
		return "", false
	}
	return ex[i+1:], true
}

// exLaunches reads one ex (vim) command line, which may hold several
// commands separated by |.
func exLaunches(ex, base string) []launch {
	ex = strings.TrimLeft(strings.TrimSpace(ex), ":")
	origin := base + " ex command"
	switch {
	case strings.HasPrefix(ex, "!"):
		return []launch{{code: ex[1:], origin: origin}}
	case strings.HasPrefix(ex, "r !") || strings.HasPrefix(ex, "r!") || strings.HasPrefix(ex, "read !") || strings.HasPrefix(ex, "w !"):
		_, cmd, _ := strings.Cut(ex, "!")
		return []launch{{code: cmd, origin: origin}}
	case strings.HasPrefix(ex, "sil") || strings.HasPrefix(ex, "exe"):
		if _, rest, ok := strings.Cut(ex, " "); ok {
			return exLaunches(strings.Trim(rest, `"'`), base)
		}
	}
	word, rest, _ := strings.Cut(ex, " ")
	switch word {
	case "py", "py3", "python", "python3", "pyx", "pythonx", "pydo", "py3do":
		return []launch{{code: rest, lang: "python", origin: origin}}
	case "lua", "luado":
		return []launch{{code: rest, lang: "lua", origin: origin}}
	case "perl", "perldo":
		return []launch{{code: rest, lang: "perl", origin: origin}}
	case "ruby", "rubydo":
		return []launch{{code: rest, lang: "ruby", origin: origin}}
	case "call", "echo", "let":
		if i := strings.Index(rest, "system("); i >= 0 {
			if s, _, ok := strLit(rest[i+7:], 0, "python"); ok {
				return []launch{{code: s, origin: origin}}
			}
		}
	case "term", "terminal":
		return []launch{{code: rest, origin: origin}}
	}
	return nil
}

// gdbLaunches reads gdb -ex commands: shell, !, python.
func gdbLaunches(a *analysis, c *cmd) []launch {
	var out []launch
	for _, v := range optValues(c.args(), optTable{"-ex": "", "--ex": "", "-eval-command": "", "--eval-command": "", "-iex": ""}) {
		ex := strings.TrimSpace(v.val)
		word, rest, _ := strings.Cut(ex, " ")
		switch {
		case strings.HasPrefix(ex, "!"):
			out = append(out, launch{code: ex[1:], origin: "gdb shell"})
		case word == "shell" || word == "pipe":
			out = append(out, launch{code: rest, origin: "gdb shell"})
		case word == "python" || word == "py" || word == "pi" || word == "python-interactive":
			out = append(out, launch{code: rest, lang: "python", origin: "gdb python"})
		case word == "call" || word == "print" || word == "p":
			if i := strings.Index(rest, "system("); i >= 0 {
				if s, _, ok := strLit(rest[i+7:], 0, "python"); ok {
					out = append(out, launch{code: s, origin: "gdb call system"})
				}
			}
		}
	}
	return out
}

// expectLaunches reads the programs an expect script spawns or execs.
func expectLaunches(a *analysis, c *cmd) []launch {
	var out []launch
	for _, v := range optValues(c.args(), optTable{"-c": ""}) {
		spawned := ""
		for _, st := range strings.FieldsFunc(v.val, func(r rune) bool { return r == ';' || r == '\n' }) {
			st = strings.TrimSpace(st)
			for _, kw := range [...]string{"spawn ", "exec ", "system "} {
				if rest, ok := strings.CutPrefix(st, kw); ok {
					out = append(out, launch{code: strings.TrimSpace(rest), origin: "expect " + strings.TrimSpace(kw)})
					if kw == "spawn " {
						spawned = strings.TrimSpace(rest)
					}
				}
			}
			// send "cmd\r" to a spawned shell or ssh session: typed
			// there as a command
			if rest, ok := strings.CutPrefix(st, "send "); ok && spawned != "" {
				typed := strings.TrimSpace(rest)
				typed = strings.Trim(typed, `"{}`)
				typed = strings.TrimSuffix(strings.TrimSuffix(typed, `\r`), `\n`)
				prog := strings.Fields(spawned)[0]
				switch path.Base(prog) {
				case "ssh":
					out = append(out, launch{code: spawned + " " + shellQuote(typed), origin: "expect send"})
				case "bash", "sh", "zsh", "dash", "fish":
					out = append(out, launch{code: typed, origin: "expect send"})
				}
			}
		}
	}
	return out
}

// dotShellLaunches reads the shell escapes of database shells: sqlite3's
// .shell and .system, psql's and mysql's \! and system.
func dotShellLaunches(a *analysis, c *cmd) []launch {
	var out []launch
	var texts []string
	for _, w := range c.args() {
		texts = append(texts, w.s)
	}
	if c.in.kind == flowText {
		texts = append(texts, c.in.text)
	}
	for _, t := range texts {
		for line := range strings.SplitSeq(t, "\n") {
			line = strings.TrimSpace(line)
			for _, p := range [...]string{".shell ", ".system ", `\! `, `\!`, "system "} {
				if strings.HasPrefix(line, p) && (p != "system " || c.name == "mysql") {
					out = append(out, launch{code: line[len(p):], origin: c.base + " " + strings.TrimSpace(p)})
					break
				}
			}
		}
	}
	return out
}

// tmuxLaunches reads the shell command of tmux new-session, new-window,
// split-window, run-shell and respawn-pane.
func tmuxLaunches(a *analysis, c *cmd) []launch {
	args := c.args()
	i := 0
	for i < len(args) && strings.HasPrefix(args[i].s, "-") {
		if s := args[i].s; s == "-L" || s == "-S" || s == "-f" {
			i++
		}
		i++
	}
	if i >= len(args) {
		return nil
	}
	switch args[i].s {
	case "new-session", "new", "new-window", "neww", "split-window", "splitw", "run-shell", "run", "respawn-pane", "respawnp", "display-popup", "popup":
	case "send-keys", "send":
		ops := posArgs(args[i+1:], optSpec{short: "tN"})
		var keys []string
		for _, w := range ops {
			if w.s != "Enter" && w.s != "C-m" && w.s != "KPEnter" {
				keys = append(keys, w.s)
			}
		}
		return []launch{{code: strings.Join(keys, " "), origin: "tmux send-keys"}}
	case "set-option", "set":
		// default-command is the shell command each new window runs.
		ops := posArgs(args[i+1:], optSpec{short: "t"})
		if len(ops) >= 2 && ops[0].s == "default-command" && !strings.HasPrefix(ops[1].s, "$SHELL") && !strings.HasPrefix(ops[1].s, "${SHELL}") {
			// ("${SHELL}", "$SHELL -l": the user's own shell)
			return []launch{{code: joinWords(ops[1:]), origin: "tmux default-command"}}
		}
		return nil
	case "set-hook", "bind-key", "bind":
		// A hook's or a key's value is a tmux command (run-shell …),
		// run when the hook fires or the key is pressed.
		spec := optSpec{short: "t"}
		if args[i].s != "set-hook" {
			spec = optSpec{short: "NT"}
		}
		ops := posArgs(args[i+1:], spec)
		if len(ops) < 2 {
			return nil
		}
		code := quoteWords(ops[1:]) // bind-key R run-shell 'make test'
		if len(ops) == 2 {
			code = ops[1].s // one word: tmux's own command line
		}
		return []launch{{code: "tmux " + code, origin: "tmux " + args[i].s}}
	default:
		return nil
	}
	ops := posArgs(args[i+1:], optSpec{short: "censtxyFFlpLtTFJwE", long: nil})
	if len(ops) == 0 {
		return nil
	}
	return []launch{{code: joinWords(ops), origin: "tmux " + args[i].s}}
}

// stuffLaunches reads what screen -X stuff types into a session (the
// screen wrapper leaves "stuff TEXT"): the text runs as a command line
// once its newline is typed.
func stuffLaunches(a *analysis, c *cmd) []launch {
	args := c.args()
	if len(args) == 0 || !strings.Contains(a.src, "screen") {
		return nil
	}
	keys := strings.NewReplacer(`\n`, "\n", `\r`, "\n", "^M", "\n").Replace(args[0].s)
	return []launch{{code: keys, origin: "screen -X stuff"}}
}

// parallelLaunches builds the commands GNU parallel runs: the command
// with each argument after :::.
func parallelLaunches(a *analysis, c *cmd) []launch {
	args := c.args()
	sep := -1
	for i, w := range args {
		if w.s == ":::" || w.s == "::::" {
			sep = i
			break
		}
	}
	cmdEnd := len(args)
	if sep >= 0 {
		cmdEnd = sep
	}
	i := 0
	for i < cmdEnd && strings.HasPrefix(args[i].s, "-") {
		switch args[i].s {
		case "-j", "-S", "--jobs", "-a", "--arg-file", "--delay", "--timeout", "-d", "--colsep", "-I", "--joblog", "--sshlogin":
			i++
		}
		i++
	}
	base := args[min(i, cmdEnd):cmdEnd]
	if len(base) == 0 {
		// no command: each argument after ::: is a command line run
		// as it is (parallel ::: 'cmd1' 'cmd2')
		var out []launch
		if sep >= 0 && args[sep].s == ":::" {
			for _, w := range args[sep+1:] {
				if w.s != ":::" && len(out) < 16 {
					out = append(out, launch{code: w.s, origin: "parallel"})
				}
			}
		}
		return out
	}
	code := joinWords(base)
	if sep < 0 {
		// the arguments are the lines it reads: a listing's root stands
		// for them, as it does for xargs
		if c.in.kind == flowPaths && c.in.find != nil && len(c.in.find.roots) > 0 && c.in.find.roots[0].ok {
			root := c.in.find.roots[0].s
			if strings.Contains(code, "{}") {
				return []launch{{code: strings.ReplaceAll(code, "{}", root), origin: "parallel"}}
			}
			return []launch{{code: code + " " + root, origin: "parallel"}}
		}
		return []launch{{code: code, origin: "parallel"}}
	}
	var out []launch
	for _, w := range args[sep+1:] {
		if w.s == ":::" {
			continue
		}
		if strings.Contains(code, "{}") {
			out = append(out, launch{code: strings.ReplaceAll(code, "{}", shellQuote(w.s)), origin: "parallel"})
		} else {
			out = append(out, launch{code: code + " " + shellQuote(w.s), origin: "parallel"})
		}
		if len(out) >= 16 {
			break
		}
	}
	return out
}

// makeLaunches reads the recipes of make --eval text.
// huskyLaunches reads husky add|set HOOK 'CMD': the command the git hook
// will run.
func huskyLaunches(a *analysis, c *cmd) []launch {
	ops := c.operands()
	if len(ops) < 3 || ops[0].s != "add" && ops[0].s != "set" {
		return nil
	}
	return []launch{{code: ops[len(ops)-1].s, origin: "husky hook " + ops[1].s}}
}

// mavenExecLaunches reads the exec plugin's program and arguments
// (-Dexec.executable=sh -Dexec.args="-c '...'"): the command it runs.
func mavenExecLaunches(a *analysis, c *cmd) []launch {
	exe, args := "", ""
	for _, w := range c.args() {
		if v, ok := strings.CutPrefix(w.s, "-Dexec.executable="); ok {
			exe = v
		}
		if v, ok := strings.CutPrefix(w.s, "-Dexec.args="); ok {
			args = v
		}
	}
	if exe == "" {
		return nil
	}
	return []launch{{code: shellQuote(exe) + " " + args, origin: "maven exec plugin"}}
}

func makeLaunches(a *analysis, c *cmd) []launch {
	var out []launch
	for _, v := range optValues(c.args(), optTable{"--eval": "", "-E": ""}) {
		out = append(out, makeRecipes(v.val, "make --eval recipe")...)
	}
	for _, w := range c.args() {
		// make .SHELLFLAGS='-c "curl … | sh; exit 0" -c' test: every
		// recipe runs through the shell with these flags first; make
		// SHELL='sh -c "…"': the same through the shell's own words
		if v, ok := strings.CutPrefix(w.s, ".SHELLFLAGS="); ok && strings.Contains(v, " ") {
			out = append(out, launch{code: "sh " + v + " true", origin: "make .SHELLFLAGS"})
		}
		if v, ok := strings.CutPrefix(w.s, "SHELL="); ok && strings.Contains(v, " ") {
			out = append(out, launch{code: v + " true", origin: "make SHELL"})
		}
		// make CC="curl … | sh; gcc": a program variable's value is put
		// into every recipe that compiles, links or installs, and the
		// shell runs it
		if name, v, ok := strings.Cut(w.s, "="); ok && makeProgramVars[name] && strings.ContainsAny(v, "|;&`$") {
			out = append(out, launch{code: v, origin: "make " + name})
		}
	}
	f, ok := optValue(c.args(), "-f", "file")
	if ok && isStdinPath(f) && c.in.kind == flowText {
		out = append(out, makeRecipes(c.in.text, "makefile recipe")...)
	}
	for i, w := range c.args() {
		// make -f <(printf 'all:\n\tcmd\n'): the makefile a process
		// substitution prints
		if (w.s == "-f" || w.s == "--file") && i+1 < len(c.args()) {
			if nw := c.args()[i+1]; nw.flow != nil && nw.flow.kind == flowText {
				out = append(out, makeRecipes(nw.flow.text, "makefile from a process substitution")...)
			}
		}
	}
	// recipes the line wrote or appended to the makefile make reads
	files := []string{f}
	if !ok {
		files = []string{"GNUmakefile", "makefile", "Makefile"}
	}
	for _, name := range files {
		text := a.appended[a.absPath(name, c.cwd)]
		if w, ok := a.writtenFile(name, c.cwd); ok && w.kind == flowText {
			text += w.text
		}
		out = append(out, makeRecipes(text, "makefile recipe written earlier")...)
	}
	return out
}

// makeRecipes reads the recipes of makefile text: tab-indented lines, and
// the recipe after ";" on a rule's own line (all: ; cmd).
// makeProgramVars are make's variables that name a program a recipe
// runs.
var makeProgramVars = map[string]bool{"CC": true, "CXX": true, "CPP": true, "LD": true, "AR": true, "AS": true, "FC": true, "RANLIB": true,
	"STRIP": true, "INSTALL": true, "MAKE": true, "PYTHON": true, "GO": true, "CARGO": true, "NPM": true, "DOCKER": true}

// taskLaunches reads the commands of a Taskfile the line wrote before
// running task (go-task): its cmds: items.
func taskLaunches(a *analysis, c *cmd) []launch {
	var out []launch
	f, ok := optValue(c.args(), "-t", "taskfile")
	files := []string{f}
	if !ok {
		files = []string{"Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml", "Taskfile.dist.yml"}
	}
	for _, name := range files {
		text := a.appended[a.absPath(name, c.cwd)]
		if w, ok := a.writtenFile(name, c.cwd); ok && w.kind == flowText {
			text += w.text
		}
		for line := range strings.SplitSeq(text, "\n") {
			t := strings.TrimSpace(line)
			if cmd, ok := strings.CutPrefix(t, "- "); ok {
				cmd = strings.TrimPrefix(strings.TrimSpace(cmd), "cmd:")
				out = append(out, launch{code: strings.Trim(strings.TrimSpace(cmd), `"'`), origin: "Taskfile command written earlier"})
			}
		}
	}
	return out
}

func makeRecipes(text, origin string) []launch {
	var out []launch
	for line := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(line, "\t") {
			out = append(out, launch{code: makeRecipe(line), origin: origin})
			continue
		}
		if i := strings.IndexByte(line, ':'); i > 0 && !strings.HasPrefix(line[i:], ":=") {
			if _, recipe, ok := strings.Cut(line[i+1:], ";"); ok && strings.TrimSpace(recipe) != "" {
				out = append(out, launch{code: makeRecipe(recipe), origin: origin})
			}
		}
	}
	return out
}

// makeRecipe is the shell text make runs for a recipe line: its prefix
// characters dropped and $$ (make's escape for $) made $ again.
// make's own references ($(VAR), ${VAR}, $@, $*) become a plain word,
// since make replaces them before the shell runs the line.
func makeRecipe(line string) string {
	line = strings.TrimLeft(line, "\t-@+ ")
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		if line[i] != '$' || i+1 >= len(line) {
			b.WriteByte(line[i])
			continue
		}
		switch next := line[i+1]; next {
		case '$':
			b.WriteByte('$')
			i++
		case '(', '{':
			closer := byte(')')
			if next == '{' {
				closer = '}'
			}
			depth, j := 0, i+1
			for ; j < len(line); j++ {
				if line[j] == next {
					depth++
				} else if line[j] == closer {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			switch name := line[i+2 : min(j, len(line))]; name {
			case "HOME", "USER", "TMPDIR", "LOGNAME":
				// the environment's, as make passes it on: $(HOME) is the home
				b.WriteString("${" + name + "}")
			case "CURDIR", "PWD":
				b.WriteString(".")
			default:
				b.WriteString("makevar")
			}
			i = j
		default:
			b.WriteString("makevar")
			i++
		}
	}
	return b.String()
}

// edLaunches reads the commands ed (and ex in its line mode) takes on its
// input: !cmd runs cmd in a shell.
func edLaunches(a *analysis, c *cmd) []launch {
	if c.in.kind != flowText {
		return nil
	}
	var out []launch
	for _, line := range strings.Split(c.in.text, "\n") {
		out = append(out, exLaunches(line, c.base)...)
	}
	return out
}

// osascriptLaunches reads AppleScript's do shell script "...", which runs
// its text in sh (as root with administrator privileges).
func osascriptLaunches(a *analysis, c *cmd) []launch {
	var out []launch
	for _, v := range optValues(c.args(), optTable{"-e": ""}) {
		// JavaScript for Automation (-l JavaScript): doShellScript("..."),
		// an NSTask of a shell with -c, and eval of a URL's text (which
		// is curl URL | sh)
		for _, m := range jxaShellScript.FindAllStringSubmatch(v.val, 4) {
			out = append(out, launch{code: m[2], origin: "JXA doShellScript"})
		}
		for _, m := range jxaTask.FindAllStringSubmatch(v.val, 4) {
			args := quotedLiteral.FindAllString(m[2], 4)
			if sh := path.Base(m[1]); slices.Contains(shellNames, sh) && len(args) > 1 && strings.Trim(args[0], `"'`) == "-c" {
				out = append(out, launch{code: strings.Trim(args[1], `"'`), origin: "JXA NSTask " + m[1] + " -c"})
			}
		}
		if strings.Contains(v.val, "eval(") {
			if m := jxaURL.FindStringSubmatch(v.val); m != nil {
				out = append(out, launch{code: "curl -fsSL " + m[1] + " | sh", origin: "JXA eval of a URL's text"})
			}
		}
		l := v.val
		for {
			i := strings.Index(strings.ToLower(l), "do shell script")
			if i < 0 {
				break
			}
			rest := strings.TrimSpace(l[i+len("do shell script"):])
			l = rest
			if !strings.HasPrefix(rest, `"`) {
				continue
			}
			end := strings.IndexByte(rest[1:], '"')
			if end < 0 {
				break
			}
			code := strings.ReplaceAll(rest[1:1+end], `\"`, `"`)
			out = append(out, launch{code: code, origin: "AppleScript do shell script"})
			l = rest[1+end:]
		}
	}
	return out
}

// jxaShellScript, jxaTask and jxaURL match JavaScript for Automation's
// ways of running a command or fetching code.
var (
	jxaShellScript = regexp.MustCompile(`doShellScript\(\s*(["'])((?:[^"'\\]|\\.)*)["']`)
	jxaTask        = regexp.MustCompile(`launchedTaskWithLaunchPathArguments\(\s*["']([^"']+)["']\s*,\s*\[([^\]]*)\]`)
	jxaURL         = regexp.MustCompile(`URLWithString\(\s*["'](https?://[^"']+)["']`)
)

// sedLaunches reads GNU sed's e command and the e flag of s, which run
// the pattern space (or the replacement) as a shell command.
func sedLaunches(a *analysis, c *cmd) []launch {
	var scripts []string
	args := c.args()
	for _, v := range optValues(args, optTable{"-e": "", "--expression": ""}) {
		scripts = append(scripts, v.val)
	}
	if len(scripts) == 0 {
		if ops := posArgs(args, optSpec{short: "flsE", long: []string{"file", "line-length"}}); len(ops) > 0 {
			scripts = append(scripts, ops[0].s)
		}
	}
	var out []launch
	for _, s := range scripts {
		for _, cmd := range sedExecs(s) {
			out = append(out, launch{code: cmd, origin: "sed e"})
		}
	}
	return out
}

// sedExecs returns the replacements of s///e commands and the operands
// of e commands in a sed script.
func sedExecs(script string) []string {
	var out []string
	for i := 0; i < len(script); i++ {
		ch := script[i]
		if ch == 's' && i+1 < len(script) && (i == 0 || strings.ContainsRune(" ;\n{}0123456789$/", rune(script[i-1]))) {
			d := script[i+1]
			if d == '\\' || d == '\n' || d == ' ' || d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z' {
				continue
			}
			parts := make([]string, 0, 3)
			var b strings.Builder
			j := i + 2
			for ; j < len(script) && len(parts) < 2; j++ {
				switch {
				case script[j] == '\\' && j+1 < len(script):
					if script[j+1] != d {
						b.WriteByte('\\')
					}
					b.WriteByte(script[j+1])
					j++
				case script[j] == d:
					parts = append(parts, b.String())
					b.Reset()
				default:
					b.WriteByte(script[j])
				}
			}
			if len(parts) < 2 {
				return out
			}
			flagsEnd := j
			for flagsEnd < len(script) && script[flagsEnd] != ';' && script[flagsEnd] != '\n' && script[flagsEnd] != '}' {
				flagsEnd++
			}
			if strings.ContainsRune(script[j:flagsEnd], 'e') {
				out = append(out, strings.ReplaceAll(parts[1], "\\&", "&"))
			}
			i = flagsEnd
			continue
		}
		if ch == 'e' && (i == 0 || strings.ContainsRune(" ;\n{}$0123456789", rune(script[i-1]))) && i+1 < len(script) && script[i+1] == ' ' {
			end := strings.IndexAny(script[i+2:], ";\n")
			if end < 0 {
				end = len(script) - i - 2
			}
			out = append(out, script[i+2:i+2+end])
			i += 2 + end
		}
	}
	return out
}

// awkSystemOfField matches system("cmd " $N) and system("cmd " $N "rest").
var awkSystemOfField = regexp.MustCompile(`system\(\s*"([^"]*)"\s*\$[0-9NF]+\s*(?:"([^"]*)")?\s*\)`)

// awkLaunches: awk code that runs its input lines (system($0), print |
// "sh") runs what it reads.
func awkLaunches(a *analysis, c *cmd) []launch {
	ops := posArgs(c.args(), optSpec{short: "fFv", long: []string{"file", "field-separator", "assign"}})
	if len(ops) > 0 && (c.in.kind == flowPaths || c.in.kind == flowList && c.in.what == "tracked files") {
		// ls DIR | awk '{system("rm -rf DIR/" $0)}': a command built
		// from each listed entry runs on every entry
		if m := awkSystemOfField.FindStringSubmatch(ops[0].s); m != nil {
			return []launch{{code: m[1] + "*" + m[2], origin: "awk running a command per input line"}}
		}
	}
	if len(ops) == 0 || c.in.kind != flowText {
		return nil
	}
	code := strings.ReplaceAll(ops[0].s, " ", "")
	if strings.Contains(code, "system($0)") || strings.Contains(code, `|"sh"`) || strings.Contains(code, `|"bash"`) || strings.Contains(code, `|"/bin/sh"`) {
		return []launch{{code: c.in.text, origin: "awk running its input"}}
	}
	return nil
}

// ansibleLaunches reads ad-hoc shell modules: ansible HOSTS -m shell -a CMD.
func ansibleLaunches(a *analysis, c *cmd) []launch {
	args := c.args()
	if hasWord(args, "--check") || hasWord(args, "-C") {
		return nil // a check run reports what the module would change
	}
	m, _ := optValue(args, "-m", "module-name")
	if code := ansibleModuleShell(m, args); code != "" {
		return []launch{{code: code, origin: "ansible -m " + m}}
	}
	switch m {
	case "", "shell", "command", "raw", "ansible.builtin.shell", "ansible.builtin.command", "ansible.builtin.raw":
		// (without -m, ansible runs -a through the command module)
	case "reboot", "ansible.builtin.reboot", "community.general.shutdown":
		return []launch{{code: "reboot", origin: "ansible -m " + m}} // every host of the pattern
	case "file", "ansible.builtin.file":
		// -m file -a 'path=/x state=absent' deletes /x, recursively, on
		// every host
		v, _ := optValue(args, "-a", "args")
		kv := map[string]string{}
		for _, f := range strings.Fields(v) {
			if k, val, ok := strings.Cut(f, "="); ok {
				kv[k] = strings.Trim(val, `"'`)
			}
		}
		p := kv["path"]
		if p == "" {
			p = kv["dest"]
		}
		if p == "" {
			p = kv["name"]
		}
		if kv["state"] == "absent" && p != "" {
			return []launch{{code: "rm -rf " + shellQuote(p), origin: "ansible -m " + m}}
		}
		return nil
	default:
		return nil
	}
	if v, ok := optValue(args, "-a", "args"); ok {
		return []launch{{code: v, origin: "ansible -m " + m}}
	}
	return nil
}

// watchexecLaunches: watchexec [options] [--] CMD..., or -s/--shell.
func watchexecLaunches(a *analysis, c *cmd) []launch {
	args := c.args()
	for i, w := range args {
		if w.s == "--" {
			return []launch{{code: quoteWords(args[i+1:]), origin: "watchexec"}}
		}
	}
	ops := posArgs(args, optSpec{short: "wefdeis", long: []string{"watch", "exts", "filter", "ignore", "shell", "debounce", "signal", "env"}})
	if len(ops) > 0 {
		return []launch{{code: joinWords(ops), origin: "watchexec"}}
	}
	return nil
}

// argvLaunches runs the operands from the n-th on as a command.
func argvLaunches(n int, origin string) launcherFunc {
	return func(a *analysis, c *cmd) []launch {
		ops := c.operands()
		if len(ops) <= n {
			return nil
		}
		return []launch{{code: quoteWords(ops[n:]), origin: origin}}
	}
}

// lessLaunches reads the shell command less runs at start-up from a
// +!CMD (or ++!CMD) option.
func lessLaunches(a *analysis, c *cmd) []launch {
	for _, w := range c.args() {
		if cmd, ok := strings.CutPrefix(strings.TrimPrefix(strings.TrimPrefix(w.s, "+"), "+"), "!"); ok && strings.HasPrefix(w.s, "+") {
			return []launch{{code: cmd, origin: "less +!"}}
		}
	}
	return nil
}

// ghAliasLaunches reads the shell command of gh alias set --shell, run
// every time the alias is.
func ghAliasLaunches(a *analysis, c *cmd) []launch {
	args := c.args()
	if len(args) < 4 || args[0].s != "alias" || args[1].s != "set" || !hasWord(args, "--shell") && !hasWord(args, "-s") {
		return nil
	}
	ops := posArgs(args[2:], optSpec{})
	if len(ops) < 2 {
		return nil
	}
	return []launch{{code: ops[1].s, origin: "gh alias " + ops[0].s}}
}

// cmakeToolLaunches reads cmake -E's file commands as the shell commands
// they are: cmake -E rm -rf DIR, remove_directory DIR, remove -f FILE.
func cmakeToolLaunches(a *analysis, c *cmd) []launch {
	args := c.args()
	if len(args) < 3 || args[0].s != "-E" {
		return nil
	}
	var rm []word
	switch args[1].s {
	case "rm":
		rm = append([]word{lit("rm")}, args[2:]...)
	case "remove_directory":
		rm = append([]word{lit("rm"), lit("-rf")}, args[2:]...)
	case "remove":
		rm = append([]word{lit("rm")}, args[2:]...)
	default:
		return nil
	}
	return []launch{{code: quoteWords(rm), origin: "cmake -E " + args[1].s}}
}

// mixRunLaunches reads mix run -e CODE as the Elixir code it runs in the
// project's application.
func mixRunLaunches(a *analysis, c *cmd) []launch {
	args := c.args()
	if len(args) < 2 || args[0].s != "run" {
		return nil
	}
	if code, ok := optValue(args[1:], "-e", "eval"); ok && code != "" {
		return []launch{{code: code, lang: "elixir", origin: "mix run -e"}}
	}
	return nil
}

// cargoCleanLaunches reads cargo clean --target-dir DIR (or with
// CARGO_TARGET_DIR=DIR) as what it does: DIR is deleted with everything
// in it.
func cargoCleanLaunches(a *analysis, c *cmd) []launch {
	args := c.args()
	if len(args) == 0 || args[0].s != "clean" {
		return nil
	}
	if v, ok := optValue(args, "", "target-dir"); ok && v != "" {
		return []launch{{code: quoteWords([]word{lit("rm"), lit("-rf"), lit(v)}), origin: "cargo clean --target-dir"}}
	}
	if v, ok := a.envOf(c, "CARGO_TARGET_DIR"); ok && v != "" {
		return []launch{{code: quoteWords([]word{lit("rm"), lit("-rf"), lit(v)}), origin: "cargo clean with CARGO_TARGET_DIR"}}
	}
	return nil
}

// pytestBasetempLaunches reads pytest --basetemp=DIR as what it does
// first: DIR is emptied, everything in it deleted.
func pytestBasetempLaunches(a *analysis, c *cmd) []launch {
	if v, ok := optValue(c.args(), "", "basetemp"); ok && v != "" {
		return []launch{{code: quoteWords([]word{lit("rm"), lit("-rf"), lit(v)}), origin: "pytest --basetemp"}}
	}
	return nil
}

// herokuRunLaunches reads the command heroku run runs on a one-off dyno
// of the app.
func herokuRunLaunches(a *analysis, c *cmd) []launch {
	args := c.args()
	if len(args) < 2 || args[0].s != "run" && args[0].s != "run:detached" {
		return nil
	}
	ops := posArgs(args[1:], optSpec{short: "aersx", long: []string{"app", "env", "remote", "size", "type", "exit-code"}})
	if len(ops) == 0 {
		return nil
	}
	code := quoteWords(ops)
	if len(ops) == 1 {
		code = ops[0].s // heroku run 'rails db:migrate && rails db:seed': one string of shell code
	}
	return []launch{{code: code, origin: "heroku " + args[0].s, remote: true}}
}

// saltLaunches reads the command salt TARGET cmd.run CMD runs on every
// minion the target matches.
func saltLaunches(a *analysis, c *cmd) []launch {
	ops := posArgs(c.args(), optSpec{short: "tLEGINCdcs", long: []string{"timeout", "batch-size", "out", "return", "config-dir", "tgt-type"}})
	// (the target is the first operand, or the value of -G/-L/-E/-N)
	for i := 0; i < len(ops); i++ {
		switch ops[i].s {
		case "system.reboot", "system.shutdown", "system.poweroff", "system.halt":
			// every targeted minion taken down
			return []launch{{code: strings.TrimPrefix(ops[i].s, "system."), origin: "salt " + ops[i].s + " on every minion", remote: true}}
		}
		if i+1 >= len(ops) {
			break
		}
		switch ops[i].s {
		case "service.stop", "service.disable", "service.mask":
			// a service stopped on every targeted minion
			return []launch{{code: "systemctl " + strings.TrimPrefix(ops[i].s, "service.") + " " + shellQuote(ops[i+1].s), origin: "salt " + ops[i].s + " on every minion", remote: true}}
		case "cmd.run", "cmd.shell", "cmd.run_all", "cmd.exec_code":
			return []launch{{code: ops[i+1].s, origin: "salt " + ops[i].s + " on every minion", remote: true}}
		case "cmd.script":
			// a script fetched from its URL and run on every minion
			if u := ops[i+1].s; strings.Contains(u, "://") && !strings.HasPrefix(u, "salt://") {
				return []launch{{code: "curl -fsSL " + shellQuote(u) + " | sh", origin: "salt cmd.script on every minion", remote: true}}
			}
		case "file.remove", "file.delete", "file.rmdir":
			// file.remove PATH: the file or the tree, on every minion
			return []launch{{code: "rm -rf " + shellQuote(ops[i+1].s), origin: "salt " + ops[i].s + " on every minion", remote: true}}
		}
	}
	return nil
}

// azRunCommandLaunches reads the script az vm run-command invoke (and
// vmss's) runs on the machines it names: --scripts, in PowerShell or a
// POSIX shell by its --command-id.
func azRunCommandLaunches(a *analysis, c *cmd) []launch {
	args := c.args()
	p := cliPath(c)
	if !containsStr(p, "run-command") || !containsStr(p, "invoke") && !containsStr(p, "create") {
		return nil
	}
	var scripts []string
	for i := 0; i < len(args); i++ {
		if args[i].s != "--scripts" && args[i].s != "--script" {
			continue
		}
		for j := i + 1; j < len(args) && !strings.HasPrefix(args[j].s, "--"); j++ {
			scripts = append(scripts, args[j].s)
		}
	}
	if len(scripts) == 0 {
		return nil
	}
	l := launch{code: strings.Join(scripts, "\n"), origin: "az run-command on the machines named", remote: true}
	if id, _ := optValue(args, "", "command-id"); strings.Contains(lower(id), "powershell") {
		l.dialect, l.remote = ShellPowerShell, false
	}
	return []launch{l}
}

// knifeLaunches reads the command knife ssh QUERY COMMAND runs on every
// node the search finds.
func knifeLaunches(a *analysis, c *cmd) []launch {
	ops := posArgs(c.args(), optSpec{short: "xPiapCmG", long: []string{"ssh-user", "ssh-password", "ssh-port", "identity-file", "attribute", "concurrency", "ssh-gateway"}})
	if len(ops) < 3 || ops[0].s != "ssh" {
		return nil
	}
	return []launch{{code: ops[2].s, origin: "knife ssh on every node found", remote: true}}
}

// ansibleModuleShell spells as a shell command what an ad-hoc run of one
// of Ansible's modules does on every host (-m service -a 'name=firewalld
// state=stopped' is systemctl stop firewalld), so that the rules judge it
// as they judge the command; "" for modules and arguments not listed.
func ansibleModuleShell(module string, args []word) string {
	m := module[strings.LastIndexByte(module, '.')+1:] // ansible.posix.selinux, community.postgresql.postgresql_db
	v, _ := optValue(args, "-a", "args")
	kv := ansibleArgs(v)
	name := shellQuote(kv["name"])
	switch m {
	case "service", "systemd", "systemd_service":
		if kv["state"] == "stopped" || kv["enabled"] == "no" || kv["enabled"] == "false" {
			return "systemctl disable --now " + name
		}
	case "selinux":
		if kv["state"] == "disabled" || kv["state"] == "permissive" {
			return "setenforce 0"
		}
	case "cron":
		// the job runs on every host, every time it is due
		if j := kv["job"]; j != "" && kv["state"] != "absent" {
			return j
		}
	case "authorized_key":
		if k := kv["key"]; k != "" && kv["state"] != "absent" {
			home := "~" + kv["user"]
			if kv["user"] == "root" {
				home = "/root"
			}
			return "echo " + shellQuote(k) + " >> " + home + "/.ssh/authorized_keys"
		}
	case "user":
		if g := kv["groups"]; g != "" {
			return "usermod -aG " + shellQuote(g) + " " + name
		}
	case "postgresql_db":
		if kv["state"] == "absent" {
			return "dropdb " + name
		}
	case "mysql_db":
		if kv["state"] == "absent" {
			return "mysql -e " + shellQuote("DROP DATABASE "+kv["name"])
		}
	case "fetch":
		// a file brought back from every host: read there
		if src := kv["src"]; src != "" {
			return "cat " + shellQuote(src)
		}
	case "iptables":
		if kv["flush"] == "yes" || kv["flush"] == "true" {
			return "iptables -F"
		}
	case "ufw":
		if kv["state"] == "disabled" {
			return "ufw disable"
		}
	}
	return ""
}

// ansibleArgs reads a module's k=v arguments, a value quoted with ' or
// " holding spaces (job='curl -s URL | sh').
func ansibleArgs(v string) map[string]string {
	kv := map[string]string{}
	for v = strings.TrimSpace(v); v != ""; v = strings.TrimSpace(v) {
		eq := strings.IndexByte(v, '=')
		sp := strings.IndexByte(v, ' ')
		if eq < 0 || sp >= 0 && sp < eq {
			if sp < 0 {
				break
			}
			v = v[sp+1:] // a word with no value
			continue
		}
		k, rest := v[:eq], v[eq+1:]
		var val string
		if rest != "" && (rest[0] == '\'' || rest[0] == '"') {
			end := strings.IndexByte(rest[1:], rest[0])
			if end < 0 {
				val, rest = rest[1:], ""
			} else {
				val, rest = rest[1:end+1], rest[end+2:]
			}
		} else if i := strings.IndexByte(rest, ' '); i >= 0 {
			val, rest = rest[:i], rest[i:]
		} else {
			val, rest = rest, ""
		}
		kv[k] = val
		v = rest
	}
	return kv
}

// sopsLaunches reads the command sops exec-env and exec-file run with
// the decrypted secrets: the operand after the file.
func sopsLaunches(a *analysis, c *cmd) []launch {
	ops := c.operands()
	if len(ops) < 3 || ops[0].s != "exec-env" && ops[0].s != "exec-file" {
		return nil
	}
	return []launch{{code: ops[2].s, origin: "sops " + ops[0].s}}
}

// nixLaunches reads the command nix develop and nix shell run with -c
// (--command) in the environment they build; nix itself is still judged
// for where that environment comes from.
func nixLaunches(a *analysis, c *cmd) []launch {
	args := c.args()
	if len(args) < 3 || args[0].s != "develop" && args[0].s != "shell" {
		return nil
	}
	for j := 1; j+1 < len(args); j++ {
		if s := args[j].s; s == "-c" || s == "--command" {
			return []launch{{code: quoteWords(args[j+1:]), origin: "nix " + args[0].s + " -c"}}
		}
	}
	return nil
}

// aptLaunches reads apt -o hooks (APT::Update::Pre-Invoke, DPkg::Post-Invoke).
func aptLaunches(a *analysis, c *cmd) []launch {
	var out []launch
	for _, v := range optValues(c.args(), optTable{"-o": "", "--option": ""}) {
		k, val, ok := strings.Cut(v.val, "=")
		if ok && strings.Contains(strings.ToLower(k), "invoke") {
			val = strings.Trim(strings.TrimPrefix(val, ":"), `"'`)
			out = append(out, launch{code: strings.TrimPrefix(val, "="), origin: c.base + " -o " + k})
		}
	}
	return out
}

// lldbLaunches reads lldb -o commands: platform shell and script.
func lldbLaunches(a *analysis, c *cmd) []launch {
	var out []launch
	for _, v := range optValues(c.args(), optTable{"-o": "", "--one-line": "", "-O": ""}) {
		ex := strings.TrimSpace(v.val)
		switch {
		case strings.HasPrefix(ex, "platform shell "):
			out = append(out, launch{code: strings.TrimPrefix(ex, "platform shell "), origin: "lldb platform shell"})
		case strings.HasPrefix(ex, "script "):
			out = append(out, launch{code: strings.TrimPrefix(ex, "script "), lang: "python", origin: "lldb script"})
		}
	}
	return out
}

// emacsLaunches reads (shell-command "...") and (call-process ...) in
// emacs --eval.
func emacsLaunches(a *analysis, c *cmd) []launch {
	var out []launch
	for _, v := range optValues(c.args(), optTable{"--eval": ""}) {
		// (delete-directory "dir" t) deletes recursively, (delete-file "f")
		for _, fn := range [...]string{"delete-directory", "delete-file"} {
			if i := strings.Index(v.val, "("+fn); i >= 0 {
				rest := v.val[i+len(fn)+1:]
				if j := strings.IndexByte(rest, '"'); j >= 0 {
					if p, _, ok := strLit(rest[j:], 0, "python"); ok {
						out = append(out, launch{code: "rm -rf " + shellQuote(p), origin: "emacs " + fn})
					}
				}
			}
		}
		// (url-insert-file-contents URL) then (eval-buffer), (load URL):
		// code downloaded and evaluated
		if (strings.Contains(v.val, "url-insert-file-contents") || strings.Contains(v.val, "url-retrieve")) &&
			(strings.Contains(v.val, "eval-buffer") || strings.Contains(v.val, "eval-region") || strings.Contains(v.val, "(eval ")) {
			if u := urlLiteral.FindString(v.val); u != "" {
				out = append(out, launch{code: "curl -s " + shellQuote(u) + " | sh", origin: "emacs eval of a download"})
			}
		}
		for _, fn := range [...]string{"shell-command", "async-shell-command", "shell-command-to-string", "start-process-shell-command"} {
			if i := strings.Index(v.val, "("+fn); i >= 0 {
				rest := v.val[i+len(fn)+1:]
				if j := strings.IndexByte(rest, '"'); j >= 0 {
					if s, _, ok := strLit(rest[j:], 0, "python"); ok {
						out = append(out, launch{code: s, origin: "emacs " + fn})
					}
				}
			}
		}
	}
	return out
}

// trapLaunches reads the command a trap runs later.
func trapLaunches(a *analysis, c *cmd) []launch {
	args := c.args()
	if len(args) < 2 || args[0].s == "-p" || args[0].s == "-l" || args[0].s == "-" {
		return nil
	}
	return []launch{{code: args[0].s, origin: "trap handler"}}
}

// langNested analyses code in an interpreter's language as if given with
// its -c/-e option.
func (a *analysis) langNested(parent *cmd, lang, code, origin string) {
	interp := map[string]string{"python": "python3", "lua": "lua", "perl": "perl", "ruby": "ruby", "js": "node", "elixir": "elixir"}[lang]
	flag := "-e"
	if lang == "python" {
		flag = "-c"
	}
	if interp == "" {
		return
	}
	a.nested(interp+" "+flag+" "+shellQuote(code), origin)
}

// globCommand resolves a command name written as a glob (/???/?m) to the
// dangerous program it can match, or "".
func globCommand(s string) string {
	if !strings.ContainsAny(s, "*?[") || !strings.Contains(s, "/") {
		return ""
	}
	for _, dir := range [...]string{"/bin", "/usr/bin", "/sbin", "/usr/sbin", "/usr/local/bin"} {
		for _, n := range globTargets {
			if ok, _ := path.Match(s, dir+"/"+n); ok {
				return dir + "/" + n
			}
		}
	}
	return ""
}

// globTargets are the programs a globbed command name is tried against.
var globTargets = []string{"rm", "sh", "bash", "dash", "zsh", "dd", "shred", "mkfs", "chmod", "chown", "curl", "wget", "nc", "ncat",
	"python", "python3", "perl", "ruby", "node", "php", "socat", "telnet", "base64", "wipefs", "find", "mv", "cp", "tar",
	"crontab", "useradd", "usermod", "passwd", "sudo", "kill", "pkill", "killall", "shutdown", "reboot", "halt", "poweroff",
	"iptables", "systemctl", "scp", "rsync", "ssh", "openssl", "xxd", "awk", "sed", "tee", "truncate", "unlink"}

// optionCommands finds, in the options of any program, a value that is a
// shell command line: --opt='sh -c "..."' (git grep -O, a hook or pager
// option of a tool nobody listed) or a make-style $(shell ...) call. The
// program will hand it to a shell, so it is analysed like sh -c.
func optionCommands(c *cmd) []launch {
	var out []launch
	args := c.args()
	named := !dataPrograms[c.name]
	for i, w := range args {
		if !w.ok || len(w.s) < 4 {
			continue
		}
		v := ""
		switch {
		case w.s[0] == '-':
			if _, val, ok := strings.Cut(w.s, "="); ok {
				v = val
			}
		case i > 0 && strings.HasPrefix(args[i-1].s, "-") && strings.ContainsRune(w.s, ' '):
			v = w.s
		}
		if v == "" {
			if !named {
				continue
			}
			if code, origin := namedCommandSetting(args, i); code != "" {
				out = append(out, launch{code: code, origin: origin})
			}
			continue
		}
		if j := strings.Index(v, "$(shell "); j >= 0 {
			if end := strings.LastIndexByte(v, ')'); end > j+8 {
				out = append(out, launch{code: v[j+8 : end], origin: "option " + w.s[:min(len(w.s), 20)]})
			}
			continue
		}
		first, rest, _ := strings.Cut(strings.TrimSpace(v), " ")
		if isShellName(path.Base(first)) && (strings.HasPrefix(rest, "-c ") || strings.Contains(rest, " -c ")) {
			out = append(out, launch{code: v, origin: "option " + w.s[:min(len(w.s), 20)]})
		} else if code := embeddedShellC(v); code != "" {
			// a setting whose value quotes a command: key="sh -c '...'"
			out = append(out, launch{code: code, origin: "option " + w.s[:min(len(w.s), 20)]})
		} else if code, origin := namedCommandSetting(args, i); named && code != "" {
			out = append(out, launch{code: code, origin: origin})
		}
	}
	return out
}

// Settings named as commands. Programs name the settings whose value is a
// command line they run or store to run later with the same few words:
// --exec, --command, ExecStart=, scripts.postinstall=, Command=, a JSON
// "command": field. Whatever the program, such a value is shell code and
// is analysed one level deeper, so that a payload stored in a package
// manifest, a service, a task file or a tool's configuration is judged
// like the same payload typed on the line.

// commandKeyWords are the words of a setting's name that say its value is
// a command.
var commandKeyWords = map[string]bool{"cmd": true, "command": true, "commands": true, "exec": true, "execstart": true,
	"execstartpre": true, "execstop": true, "script": true, "scripts": true, "hook": true, "hooks": true, "run": true,
	"shell": true, "postinstall": true, "preinstall": true, "install": true, "prepare": true, "prepublish": true,
	"pretest": true, "posttest": true, "prestart": true, "poststart": true, "action": true, "program": true,
	"entrypoint": true, "startup": true, "onchange": true, "proxycommand": true, "launch": true, "predev": true,
	"prebuild": true, "postbuild": true}

// notCommandKeyWords are the words that make a setting named after a
// command a property of it, or its absence: --dry-run, --run-id,
// --script-timeout, --no-hooks.
var notCommandKeyWords = map[string]bool{"dry": true, "no": true, "skip": true, "id": true, "ids": true, "name": true, "names": true,
	"number": true, "num": true, "timeout": true, "count": true, "mode": true, "type": true, "dir": true, "path": true, "url": true,
	"limit": true, "retries": true, "level": true}

// commandKey reports whether a setting's name ("scripts.postinstall",
// "--on-change", "ExecStart") names a command.
func commandKey(k string) bool {
	k = strings.TrimLeft(k, "-/")
	if k == "" || len(k) > 64 {
		return false
	}
	var joined []byte
	start, found := 0, false
	for i := 0; i <= len(k); i++ {
		if i < len(k) && isAlnum(k[i]) {
			joined = append(joined, k[i]|0x20)
		}
		if i == len(k) || !isAlnum(k[i]) {
			if i > start {
				w := strings.ToLower(k[start:i])
				if notCommandKeyWords[w] {
					return false // --dry-run, --run-id, --hook-name: not a command's text
				}
				found = found || commandKeyWords[w]
			}
			start = i + 1
		}
	}
	return found || commandKeyWords[string(joined)]
}

// dataPrograms print or record their arguments as text: a setting-like
// word among them is data, not a command they keep.
var dataPrograms = map[string]bool{"echo": true, "printf": true, "print": true, "logger": true, "write-output": true,
	"write-host": true, "grep": true, "egrep": true, "fgrep": true, "rg": true, "ag": true, "jq": true, "yq": true,
	"notify-send": true, "say": true, "gh": true, "glab": true, "test": true, "[": true}

func isAlnum(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// looksLikeCommandLine reports a value worth parsing as shell code: more
// than one word, or a pipeline.
func looksLikeCommandLine(v string) bool {
	v = strings.TrimSpace(v)
	return len(v) >= 4 && strings.ContainsAny(v, " |;&")
}

// namedCommandSetting returns the command line args[i] sets when it is a
// setting named as a command (KEY=VALUE, --key=VALUE, --key VALUE, a
// "command": field in JSON), and where it comes from.
func namedCommandSetting(args []word, i int) (code, origin string) {
	w := args[i]
	s := w.s
	if !w.ok || strings.IndexByte(s, '=') < 0 && strings.IndexByte(s, '"') < 0 && !strings.HasPrefix(s, "--") {
		return "", ""
	}
	if j := strings.Index(s, `"command"`); j >= 0 {
		// a JSON or similar document given as an argument
		rest := strings.TrimLeft(s[j+len(`"command"`):], " \t")
		if strings.HasPrefix(rest, ":") {
			rest = strings.TrimLeft(rest[1:], " \t")
			if strings.HasPrefix(rest, `"`) {
				if end := strings.IndexByte(rest[1:], '"'); end > 0 && looksLikeCommandLine(rest[1:1+end]) {
					return rest[1 : 1+end], "a \"command\" field"
				}
			}
		}
	}
	if k, v, ok := strings.Cut(s, "="); ok && !strings.ContainsAny(k, " /\\") && commandKey(k) {
		v = strings.Trim(v, `"'`)
		if looksLikeCommandLine(v) {
			return v, "setting " + truncate(k, 30)
		}
		return "", ""
	}
	if strings.HasPrefix(s, "--") && commandKey(s) && i+1 < len(args) && args[i+1].ok && looksLikeCommandLine(args[i+1].s) && !sqlStatementText(args[i+1].s) {
		return args[i+1].s, "option " + truncate(s, 30)
	}
	return "", ""
}

// sqlStatementText reports a value that is a SQL statement, not a
// command line: wrangler d1 execute DB --command "DELETE FROM sessions
// WHERE ..." runs SQL on the database.
func sqlStatementText(v string) bool {
	f := strings.Fields(v)
	if len(f) < 2 {
		return false
	}
	switch strings.ToUpper(f[0]) {
	case "SELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "ALTER", "TRUNCATE", "WITH", "PRAGMA", "VACUUM", "EXPLAIN", "REPLACE", "GRANT", "REVOKE":
		return f[0] == strings.ToUpper(f[0]) || strings.ToUpper(f[1]) == f[1]
	}
	return false
}

// embeddedShellC finds a quoted "SHELL -c ..." inside a setting's value
// (runner="sh -c \"...\"") and returns it unquoted, or "".
func embeddedShellC(v string) string {
	i := strings.Index(v, " -c ")
	if i < 0 {
		return ""
	}
	start := strings.LastIndexAny(v[:i], "\"'= ")
	if start < 0 || v[start] == ' ' {
		return ""
	}
	q := v[start]
	if !isShellName(path.Base(v[start+1 : i])) {
		return ""
	}
	code := v[start+1:]
	if q == '"' || q == '\'' {
		if end := strings.LastIndexByte(code, q); end > i-start {
			code = code[:end]
		}
	}
	return strings.ReplaceAll(code, `\"`, `"`)
}

// zargsLaunches reads zsh's zargs ARGS... -- COMMAND: like xargs, the
// command is run with the arguments appended.
func zargsLaunches(a *analysis, c *cmd) []launch {
	args := c.args()
	last := -1
	for i, w := range args {
		if w.s == "--" {
			last = i
		}
	}
	if last < 0 || last+1 >= len(args) {
		return nil
	}
	first := 0
	for i, w := range args[:last] {
		if w.s == "--" {
			first = i + 1
			break
		}
	}
	var b strings.Builder
	b.WriteString(joinWords(args[last+1:]))
	for _, w := range args[first:last] {
		b.WriteByte(' ')
		b.WriteString(w.s) // globs stay globs
	}
	return []launch{{code: b.String(), origin: "zargs"}}
}
