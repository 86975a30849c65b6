package guard

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Shell dialects a command line can be written in. Context.Shell names
// one; the empty string lets the detector decide.
const (
	ShellPOSIX      = "bash"
	ShellPowerShell = "powershell"
	ShellCmd        = "cmd"
	ShellGitBash    = "gitbash"
)

// NormalizeShell folds a shell's or a tool's name onto a dialect:
// "powershell", "cmd", "gitbash" or "bash" for every POSIX shell; "" when
// s names none (the dialect is then detected from the command).
func NormalizeShell(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.TrimSuffix(s, ".exe")
	if i := strings.LastIndexAny(s, `/\`); i >= 0 {
		s = s[i+1:]
	}
	switch s {
	case "powershell", "pwsh", "ps", "ps1", "posh", "windows-powershell", "powershell_command", "run_powershell":
		return ShellPowerShell
	case "cmd", "cmd.exe", "batch", "bat", "command_prompt", "cmdexe":
		return ShellCmd
	case "gitbash", "git-bash", "git_bash", "msys", "msys2", "mingw", "mingw64":
		return ShellGitBash
	case "bash", "sh", "zsh", "fish", "dash", "ksh", "posix", "shell":
		return ShellPOSIX
	}
	return ""
}

// runTop analyses a command line in the dialect shell names, or in the
// dialect it is detected to be written in.
func (a *analysis) runTop(src, shell string) {
	switch NormalizeShell(shell) {
	case ShellPowerShell:
		a.runWin(src, ShellPowerShell, "command")
		return
	case ShellCmd:
		a.runWin(src, ShellCmd, "command")
		return
	case ShellGitBash:
		a.gitBashPaths(strings.IndexByte(src, '$') >= 0)
		a.run(gitBashRoot(src), "command")
		return
	case ShellPOSIX:
		a.run(src, "command")
		return
	}
	if d := detectDialect(src); d != "" {
		a.runWin(src, d, "command")
		return
	}
	a.run(src, "command")
	// a line that is not POSIX shell but reads as PowerShell or cmd is
	// judged in that dialect rather than as unanalysable
	// (only when the line itself fails to parse, not a payload in it, and
	// not when the parser recognised zsh); without a Windows sign the line
	// stays unanalysable unless the Windows reading finds the danger
	if a.topUnparsed && a.unres != nil && a.best == nil && !strings.Contains(a.unres.text(), "zsh feature") {
		if d := guessWinDialect(src); d != "" && psWellFormed(src) {
			unres, notes := a.unres, a.notes
			a.unres, a.notes, a.stop = nil, nil, false
			a.runWin(src, d, "command")
			if a.best == nil && a.unres == nil && !windowsSign(src) {
				a.unres, a.notes = unres, notes
			}
		}
	}
}

// gitBashEnv is the Windows environment Git Bash inherits: names and
// their values, under the home when rel is set.
var gitBashEnv = [...]struct {
	name, val string
	rel       bool
}{
	{"USERPROFILE", "", true}, {"APPDATA", "/AppData/Roaming", true}, {"LOCALAPPDATA", "/AppData/Local", true},
	{"TEMP", "/AppData/Local/Temp", true}, {"TMP", "/AppData/Local/Temp", true}, {"SYSTEMROOT", "/c/Windows", false},
	{"WINDIR", "/c/Windows", false}, {"SystemRoot", "/c/Windows", false}, {"PROGRAMFILES", "/c/Program Files", false},
	{"ProgramFiles", "/c/Program Files", false}, {"PROGRAMDATA", "/c/ProgramData", false}, {"ProgramData", "/c/ProgramData", false},
	{"PUBLIC", "/c/Users/Public", false}, {"HOMEDRIVE", "C:", false}, {"SYSTEMDRIVE", "C:", false},
	{"ONEDRIVE", "/OneDrive", true}, {"OneDrive", "/OneDrive", true}, {"HOMEPATH", "", true},
	{"OneDriveConsumer", "/OneDrive", true}, {"OneDriveCommercial", "/OneDrive - Work", true},
}

// gitBashRoot rewrites the Git for Windows install folder into the root
// Git Bash shows it as: /c/Program Files/Git/etc/profile.d is
// /etc/profile.d, read by every Git Bash that starts.
func gitBashRoot(src string) string {
	const lowPrefix = "program files/git/"
	i := strings.Index(strings.ToLower(src), lowPrefix)
	if i < 3 {
		return src
	}
	var b strings.Builder
	for i >= 3 {
		// "/c/" or "C:/" or "C:\" before it
		start := -1
		switch {
		case src[i-1] == '/' && isDriveLetter(src[i-2]) && src[i-3] == '/':
			start = i - 3
		case (src[i-1] == '/' || src[i-1] == '\\') && src[i-2] == ':' && isDriveLetter(src[i-3]):
			start = i - 3
		}
		if start < 0 {
			b.WriteString(src[:i+len(lowPrefix)])
		} else {
			b.WriteString(src[:start])
			b.WriteByte('/')
		}
		src = src[i+len(lowPrefix):]
		i = strings.Index(strings.ToLower(src), lowPrefix)
	}
	b.WriteString(src)
	return b.String()
}

// gitBashPaths rewrites a Windows work directory and home (C:\Users\x)
// into the MSYS form Git Bash uses (/c/Users/x); with vars, a line
// that expands variables also sees the inherited environment.
func (a *analysis) gitBashPaths(vars bool) {
	a.home, a.workDir = msysForm(a.home), msysForm(a.workDir)
	a.cwd = a.workDir
	// Git Bash inherits the Windows environment
	if h := a.home; vars && strings.HasPrefix(h, "/") && len(h) > 3 && h[2] == '/' {
		if a.vars == nil {
			a.vars = make(map[string]word, len(gitBashEnv)+4)
		}
		for _, e := range gitBashEnv {
			v := e.val
			if e.rel {
				v = h + v
			}
			a.setVar(e.name, lit(v))
		}
	}
}

// msysForm writes a Windows path as Git Bash and WSL's /mnt do, by its
// drive letter: C:\Users\dev is /c/users/dev. Other paths are returned
// as they are.
func msysForm(p string) string {
	if w := winFromClean(p); w != "" && len(w) >= 3 && w[0] == '/' && w[2] == ':' {
		return path.Clean("/" + w[1:2] + w[3:])
	}
	return p
}

// msysPaths reports an analysis of Git Bash, whose work directory and
// home are written /c/...
func (a *analysis) msysPaths() bool {
	h := a.home
	return len(h) > 3 && h[0] == '/' && isDriveLetter(h[1]) && h[2] == '/'
}

// winFromClean recovers a Windows path that cleanAbs turned into
// "/C:\Users\x", in the normal form "/c:/users/x"; "" for other paths.
func winFromClean(p string) string {
	if len(p) >= 3 && p[0] == '/' && isDriveLetter(p[1]) && p[2] == ':' {
		if winNormal(p[1:]) {
			return p // what normWinAbs(p[1:]) returns, without allocating
		}
		return normWinAbs(p[1:])
	}
	if len(p) >= 3 && p[0] == '/' && p[1] == '/' { // "//server/share"
		return strings.ToLower(strings.ReplaceAll(p, `\`, "/"))
	}
	return ""
}

func isDriveLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// winNormal reports that normWinAbs(p) is "/"+p: p is already lower
// case, uses forward slashes, has no empty or dot segments and does not
// end in a slash. Paths are normalised again and again during a decision,
// and most already are.
func winNormal(p string) bool {
	if len(p) <= 3 || p[2] != '/' || p[0] == '/' || p[0] == '.' || p[len(p)-1] == '/' {
		return false
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '\\' || c >= 'A' && c <= 'Z' || (c == '/' || c == '.') && i > 0 && p[i-1] == '/' {
			return false
		}
	}
	return true
}

// normWinAbs turns an absolute Windows path "C:\Users\X\..\y" into the
// normal form used for comparisons: "/c:/users/y".
func normWinAbs(p string) string {
	b := make([]byte, 0, len(p)+1)
	b = append(b, '/')
	clean := true
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\':
			c = '/'
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		if c == '/' && len(b) > 0 && b[len(b)-1] == '/' || c == '.' && len(b) > 0 && b[len(b)-1] == '/' {
			clean = false
		}
		b = append(b, c)
	}
	if clean && len(b) > 4 && b[3] == '/' && b[len(b)-1] != '/' {
		return string(b)
	}
	p = string(b[1:])
	drive := p[:2]
	rest := p[2:]
	if rest == "" {
		return "/" + drive
	}
	if rest[0] != '/' {
		rest = "/" + rest
	}
	c := path.Clean(rest)
	if c == "/" {
		return "/" + drive
	}
	return "/" + drive + c
}

// cmdletVerbs are PowerShell's approved verbs: a first word Verb-Noun with
// one of them is a cmdlet.
var cmdletVerbs = map[string]bool{
	"add": true, "clear": true, "close": true, "copy": true, "enter": true, "exit": true, "find": true, "format": true,
	"get": true, "hide": true, "join": true, "lock": true, "move": true, "new": true, "open": true, "optimize": true,
	"pop": true, "push": true, "redo": true, "remove": true, "rename": true, "reset": true, "resize": true, "search": true,
	"select": true, "set": true, "show": true, "skip": true, "split": true, "step": true, "switch": true, "undo": true,
	"unlock": true, "watch": true, "connect": true, "disconnect": true, "read": true, "receive": true, "send": true,
	"write": true, "backup": true, "checkpoint": true, "compare": true, "compress": true, "convert": true,
	"convertfrom": true, "convertto": true, "dismount": true, "edit": true, "expand": true, "export": true, "group": true,
	"import": true, "initialize": true, "limit": true, "merge": true, "mount": true, "out": true, "publish": true,
	"restore": true, "save": true, "sync": true, "unpublish": true, "update": true, "debug": true, "measure": true,
	"ping": true, "repair": true, "resolve": true, "test": true, "trace": true, "approve": true, "assert": true,
	"build": true, "complete": true, "confirm": true, "deny": true, "deploy": true, "disable": true, "enable": true,
	"install": true, "invoke": true, "register": true, "request": true, "restart": true, "resume": true, "start": true,
	"stop": true, "submit": true, "suspend": true, "uninstall": true, "unregister": true, "wait": true, "block": true,
	"grant": true, "protect": true, "revoke": true, "unblock": true, "unprotect": true, "use": true, "where": true,
	"foreach": true, "sort": true, "tee": true,
}

// detectDialect recognises a line that can only be PowerShell or cmd by
// its first word (a cmdlet, a Windows-only program with /switches) or by
// syntax no POSIX shell has ($env:X, %VAR%); "" means POSIX or unknown.
func detectDialect(src string) string {
	// (loops, not strings.TrimLeft and IndexAny, which build a set of
	// the bytes on every call: this runs on every line)
	k := 0
	for k < len(src) && (src[k] == ' ' || src[k] == '\t' || src[k] == '\r' || src[k] == '\n') {
		k++
	}
	s := src[k:]
	if s == "" {
		return ""
	}
	if strings.Contains(s, "$env:") || strings.Contains(s, "${env:") || strings.HasPrefix(s, "$PSVersionTable") {
		return ShellPowerShell
	}
	if s[0] == '$' {
		// $x = 1: PowerShell assigns with spaces around =, POSIX shells
		// would run a command named by $x
		if name, end := psVarName(s, 0); name != "" {
			rest := strings.TrimLeft(s[end:], " \t")
			if strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "==") && end < len(s) && (s[end] == ' ' || s[end] == '\t') ||
				strings.HasPrefix(rest, "+=") || strings.HasPrefix(s[end:], ".") && len(s) > end+1 && isDriveLetter(s[end+1]) {
				return ShellPowerShell
			}
		}
	}
	if s[0] == '[' {
		// [Environment]::SetEnvironmentVariable(...), [IO.File]::Delete(...):
		// a .NET type's static member, which only PowerShell calls
		if i := strings.Index(s, "]::"); i > 1 && isLetters(strings.ReplaceAll(s[1:i], ".", "")) {
			return ShellPowerShell
		}
	}
	first := s
	for i := 0; i < len(s); i++ {
		if firstWordEnd[s[i]] {
			first = s[:i]
			break
		}
	}
	lf := strings.ToLower(strings.Trim(first, `"'`))
	base := lf
	for i := len(base) - 1; i >= 0; i-- {
		if base[i] == '/' || base[i] == '\\' {
			base = base[i+1:]
			break
		}
	}
	base = strings.TrimSuffix(base, ".exe")
	if verb, noun, ok := strings.Cut(base, "-"); ok && cmdletVerbs[verb] && noun != "" && isLetters(strings.ReplaceAll(noun, "-", "")) {
		return ShellPowerShell
	}
	if psOnlyAliases[base] {
		return ShellPowerShell
	}
	if strings.HasPrefix(s, "@echo") || strings.HasPrefix(lf, "@echo") {
		return ShellCmd
	}
	if (cmdOnly[base] || winNativeNames[base]) && (winSwitches(s) || percentVar(s) || winDrivePath(s)) && !posixSign(s) {
		return ShellCmd
	}
	if base == "for" && len(s) > len(first)+1 && s[len(first)+1] == '%' {
		return ShellCmd // for %i in (...) do: a POSIX for names its variable bare
	}
	return ""
}

// posixSign reports syntax only a POSIX shell gives meaning to: command
// substitution, parameter expansion, a variable, a then or do of a
// block, /dev/null. Many cmd.exe built-ins are POSIX commands too (if,
// for, set, mkdir, type), and a % or a /x in their line is as often a
// date format or an option's value: such a line is read as cmd only
// without these.
func posixSign(s string) bool {
	if strings.Contains(s, "$(") || strings.Contains(s, "${") || strings.Contains(s, "/dev/null") ||
		strings.Contains(s, "; then") || strings.Contains(s, "; do") || strings.Contains(s, "\nthen") {
		return true
	}
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '$' && (s[i+1] == '_' || s[i+1] >= 'a' && s[i+1] <= 'z' || s[i+1] >= 'A' && s[i+1] <= 'Z') {
			return true
		}
	}
	return false
}

// firstWordEnd are the bytes that end the first word for detectDialect.
var firstWordEnd = func() (t [256]bool) {
	for _, b := range []byte(" \t\r\n;|&(){}") {
		t[b] = true
	}
	return t
}()

// winSwitches reports a Windows-style switch (/s, /q, /f:x) among the
// words of s: a slash, one or two letters, then a space, colon or the end.
func winSwitches(s string) bool {
	for i := 1; i+1 < len(s); i++ {
		if s[i] != '/' || s[i-1] != ' ' {
			continue
		}
		j := i + 1
		for j < len(s) && j-i <= 3 && isDriveLetter(s[j]) {
			j++
		}
		if j > i+1 && j-i <= 3 && (j == len(s) || s[j] == ' ' || s[j] == ':') {
			return true
		}
	}
	return false
}

// winDrivePath reports a path like C:\ in s.
func winDrivePath(s string) bool {
	for i := 0; i+2 < len(s); i++ {
		if isDriveLetter(s[i]) && s[i+1] == ':' && s[i+2] == '\\' && (i == 0 || s[i-1] == ' ' || s[i-1] == '"') {
			return true
		}
	}
	return false
}

// guessWinDialect picks PowerShell or cmd for a line that does not parse
// as POSIX shell.
func guessWinDialect(src string) string {
	l := strings.ToLower(src)
	switch {
	case strings.Contains(l, "$_") || strings.Contains(l, "$true") || strings.Contains(l, "$false") || strings.Contains(l, "$null") ||
		strings.Contains(l, "::") || strings.Contains(l, " -eq ") || strings.Contains(l, " -ne ") || strings.Contains(l, "@{") ||
		strings.Contains(l, "`") || strings.Contains(l, "foreach") || strings.Contains(l, "$("):
		return ShellPowerShell
	case percentVar(src) || strings.Contains(l, "goto ") || strings.Contains(l, " /"):
		return ShellCmd
	}
	if strings.ContainsAny(src, "\n\r") {
		// bash runs the lines before a syntax error: without a sign of
		// PowerShell, a script that does not parse stays unanalysable
		return ""
	}
	return ShellPowerShell
}

// psWellFormed reports whether quotes and brackets in src are balanced
// the way PowerShell and cmd need them.
func psWellFormed(src string) bool {
	depth := 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '`':
			i++
		case '\'', '"':
			end := psQuoteEnd(src, i, c)
			if end > len(src) || end == len(src) && (len(src)-i < 2 || src[len(src)-1] != c) {
				return false
			}
			i = end - 1
		case '(', '{', '[':
			depth++
		case ')', '}', ']':
			depth--
			if depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}

// percentVar reports whether s has a %NAME% reference.
func percentVar(s string) bool {
	i := strings.IndexByte(s, '%')
	for i >= 0 && i+1 < len(s) {
		j := strings.IndexByte(s[i+1:], '%')
		if j < 0 {
			return false
		}
		name := s[i+1 : i+1+j]
		if name != "" && !strings.ContainsAny(name, " \t\"'") {
			return true
		}
		i = i + 1 + j
	}
	return false
}

// psOnlyAliases are PowerShell aliases that are no command elsewhere.
var psOnlyAliases = map[string]bool{
	"iex": true, "iwr": true, "irm": true, "gci": true, "gc": true, "ri": true, "sl": true, "gp": true, "sp": true,
	"saps": true, "spps": true, "gps": true, "sc": false, "ni": true, "si": true, "ii": true, "gcm": true, "gal": true,
	"icm": true, "ipmo": true, "rjb": true, "sajb": true, "gsv": true, "sasv": true, "spsv": true, "%": true, "?": true,
}

// cmdOnly are cmd.exe built-ins.
var cmdOnly = map[string]bool{
	"del": true, "erase": true, "rd": true, "rmdir": true, "dir": true, "copy": true, "xcopy": true, "robocopy": true,
	"move": true, "type": true, "ren": true, "md": true, "mkdir": true, "cls": true, "ver": true, "vol": true,
	"setlocal": true, "endlocal": true, "mklink": true, "attrib": true, "start": true, "call": true, "set": true, "setx": true,
	"where": true, "title": true, "goto": true, "pushd": true, "popd": true, "if": true, "for": true, "assoc": true, "ftype": true,
}

// winNativeNames are Windows programs whose rules live in this package.
var winNativeNames = map[string]bool{
	"reg": true, "schtasks": true, "net": true, "net1": true, "icacls": true, "cacls": true, "takeown": true,
	"certutil": true, "bitsadmin": true, "mshta": true, "regsvr32": true, "rundll32": true, "control": true, "explorer": true, "sqllocaldb": true, "msiexec": true,
	"wevtutil": true, "vssadmin": true, "wbadmin": true, "bcdedit": true, "wmic": true, "cipher": true,
	"diskpart": true, "format": true, "netsh": true, "sc": true, "taskkill": true, "auditpol": true, "fsutil": true,
	"runas": true, "at": true, "procdump": true, "procdump64": true, "ntdsutil": true, "mimikatz": true, "setx": true,
	"powercat": true, "mpcmdrun": true, "forfiles": true, "pcalua": true, "cmstp": true, "shutdown": true,
	"sdelete": true, "sdelete64": true, "attrib": true, "secedit": true, "ipconfig": true, "route": true, "cmdkey": true,
	"gsudo": true, "psexec": true, "psexec64": true, "shutdown.exe": true, "wusa": true, "dism": true, "sfc": true, "manage-bde": true, "wscript": true,
	"cscript": true, "installutil": true, "regasm": true, "regsvcs": true, "msbuild": true, "odbcconf": true,
}

// winState is what a Windows front end knows while it walks one input.
type winState struct {
	a       *analysis
	dialect string
	// cmdStages is the number of stages of the cmd pipeline being read
	cmdStages int
	// shareCwd is the network share pushd or cd made the current
	// folder: programs run by a bare name then come from it
	shareCwd string
	// partialGlob: the path being judged for deletion was named by a
	// pattern that picks some of its entries (build-*), not all (*)
	partialGlob bool
	// dirTargets: the paths being judged for deletion are folders (rd)
	dirTargets bool
	vars       map[string]word // PowerShell variables and cmd SET values
	// inValue > 0 while a parenthesised group is walked: its value is
	// used by the statement around it, not printed
	inValue int
	// secret are files holding credentials or archives of them (normal
	// form paths); downloads are kept with the POSIX analysis's.
	secret map[string]string
	// aliases are those Set-Alias defined.
	aliases map[string]string
	// remoteVars are variables holding downloaded text.
	remoteVars map[string]bool
	// releaseVars hold a release site's URL whose path is computed.
	releaseVars map[string]bool
	// splats are hashtables assigned to variables, as the parameters
	// @name passes.
	splats map[string][]word
	// blocks are script blocks assigned to variables ($sb = { ... }).
	blocks map[string]string
	// funcs are the functions defined so far: name to block
	funcs map[string]string
	// lists are variables holding a list of paths
	lists map[string][]string
	// secretVars are variables holding a secret: what it is
	secretVars map[string]string
	// cliTokens are the variables holding a client's token or a header
	// made of one ($t = az account get-access-token ...), by lower-case
	// name: their right-hand side, judged where it is sent.
	cliTokens map[string]string
	// hashtables are the @{...} literals assigned to variables, by name
	hashtables map[string]string
	// batch is the text written to .bat and .cmd files, by base name.
	batch map[string]string
	// everyVars are variables holding every object of a service's
	// listing ($ids = (Get-MgDevice -All).Id): the listing, by name.
	everyVars map[string]string
	origin    string
}

func (a *analysis) newWinState(dialect, origin string) *winState {
	return &winState{a: a, dialect: dialect, origin: origin}
}

// runWin analyses src as PowerShell or cmd. Paths are judged in the
// normal Windows form: the work directory and home are switched to it
// while the front end runs.
func (a *analysis) runWin(src, dialect, origin string) {
	if a.stop {
		return
	}
	a.nbytes += len(src)
	if a.nbytes > maxParseBytes {
		a.unresolved(nil, "input too large to analyse", "")
		return
	}
	wd, home, cwd := a.workDir, a.home, a.cwd
	a.winDirs()
	ws := a.newWinState(dialect, origin)
	savedSrc := a.src
	a.src = src // the whole line, for rules that look at its other commands
	if dialect == ShellCmd {
		ws.runCmd(src)
	} else {
		ws.runPS(src)
	}
	a.src = savedSrc
	a.workDir, a.home, a.cwd = wd, home, cwd
}

// nestedWin analyses a payload one level deeper in dialect.
func (a *analysis) nestedWin(src, dialect, origin string) {
	if a.depth >= maxDepth {
		a.unresolved(nil, "payloads nested too deep to analyse", truncate(src, 200))
		return
	}
	a.depth++
	saved := a.cwd
	if dialect == ShellPOSIX {
		a.run(src, origin)
	} else {
		wd, home := a.workDir, a.home
		a.winDirs() // (Git Bash's cmd //c payload sees C:\work\project)
		defer func() { a.workDir, a.home = wd, home }()
		ws := a.newWinState(dialect, origin)
		savedSrc := a.src
		a.src = src
		if dialect == ShellCmd {
			ws.runCmd(src)
		} else {
			ws.runPS(src)
		}
		a.src = savedSrc
	}
	a.cwd = saved
	a.depth--
}

// winHome is the home directory in normal form ("" when unknown).
func (a *analysis) winHome() string {
	if a.home == "" || a.home == "~" {
		return ""
	}
	return a.home
}

// envValue resolves an environment variable a Windows command refers to.
func (a *analysis) envValue(name string) (string, bool) {
	home := winNative(a.winHome())
	switch strings.ToLower(name) {
	case "userprofile", "home":
		return home, home != ""
	case "homedrive", "systemdrive":
		return "C:", true
	case "homepath":
		if home != "" && len(home) > 3 {
			return home[3:], true
		}
	case "systemroot", "windir":
		return `C:\Windows`, true
	case "programfiles", "programw6432":
		return `C:\Program Files`, true
	case "programfiles(x86)":
		return `C:\Program Files (x86)`, true
	case "programdata", "allusersprofile":
		return `C:\ProgramData`, true
	case "public":
		return `C:\Users\Public`, true
	case "appdata":
		if home != "" {
			return home + "/appdata/roaming", true
		}
	case "localappdata":
		if home != "" {
			return home + "/appdata/local", true
		}
	case "temp", "tmp":
		if home != "" {
			return home + "/appdata/local/temp", true
		}
		return `C:\Windows\Temp`, true
	case "comspec":
		return `C:\Windows\System32\cmd.exe`, true
	case "cd", "pwd":
		if a.cwd != "" {
			return winNative(a.cwd), true
		}
	case "onedrive", "onedriveconsumer":
		if home != "" {
			return home + "/onedrive", true
		}
	case "onedrivecommercial":
		// OneDrive for work or school: "OneDrive - Company" in the profile
		if home != "" {
			return home + "/onedrive - work", true
		}
	}
	return "", false
}

// winNative turns a normal-form Windows path "/c:/x" back into "c:/x".
func winNative(p string) string {
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		return p[1:]
	}
	return p
}

// winAbs resolves a path written in a Windows command to normal form:
// "/c:/users/x" for Windows paths, "/home/x" for POSIX ones, "//server/
// share" for UNC paths, "//./physicaldrive0" for devices; "" when it
// cannot be known.
func (a *analysis) winAbs(p string) string {
	q := a.winAbsPath(p)
	if a.links != nil && q != "" {
		// through a junction or link made earlier on the line
		q = a.followLinks(q, strings.HasSuffix(p, `\`) || strings.HasSuffix(p, "/"))
	}
	return q
}

// recordWinLink remembers a junction or directory link made by mklink or
// New-Item: deleting link\* deletes the target's contents.
func (a *analysis) recordWinLink(link, target word) {
	if !link.ok || !target.ok {
		return
	}
	l, t := a.winAbsPath(link.s), a.winAbs(target.s)
	if l == "" || t == "" || l == t {
		return
	}
	if a.links == nil {
		a.links = make(map[string]string)
	}
	a.links[l] = t
	if len(l) >= 3 && l[2] == ':' {
		// Git Bash names the same link /c/work/project/link
		a.links["/"+l[1:2]+l[3:]] = t
	}
}

// winAbsPath is winAbs without following links.
func (a *analysis) winAbsPath(p string) string {
	p = strings.TrimSpace(p)
	if p == "" {
		return ""
	}
	if strings.HasPrefix(p, "file:") {
		p = strings.TrimPrefix(strings.TrimPrefix(p, "file:"), "///")
	}
	for _, pre := range [...]string{"Microsoft.PowerShell.Core\\FileSystem::", "FileSystem::"} {
		if len(p) > len(pre) && strings.EqualFold(p[:len(pre)], pre) {
			p = p[len(pre):]
		}
	}
	if strings.HasPrefix(p, `\\?\`) || strings.HasPrefix(p, `//?/`) {
		p = p[4:]
		if sc := shadowCopyRel(p); sc != "" {
			// \\?\GLOBALROOT\Device\HarddiskVolumeShadowCopy2\Users\x: a
			// snapshot of C: holds the same files, locks or not
			p = `C:\` + sc
		}
	}
	if strings.HasPrefix(p, `\\.\`) || strings.HasPrefix(p, `//./`) {
		return "//./" + strings.ToLower(p[4:])
	}
	if len(p) >= 3 && p[0] == '/' && isDriveLetter(p[1]) && p[2] == ':' {
		return a.cleanWin(p) // already in normal form
	}
	if len(p) >= 2 && isDriveLetter(p[0]) && p[1] == ':' {
		if len(p) > 2 && p[2] != '\\' && p[2] != '/' {
			p = p[:2] + `\` + p[2:]
		}
		return normWinAbs(p)
	}
	if strings.HasPrefix(p, `\\`) {
		// \\server\share: Clean keeps one of the two leading slashes
		return strings.ToLower("/" + path.Clean(strings.ReplaceAll(p, `\`, "/")))
	}
	if len(p) >= 2 && p[0] == '/' && isDriveLetter(p[1]) && (len(p) == 2 || p[2] == '/') && a.msysPaths() {
		// Git Bash's /c/Users/x is C:\Users\x
		return a.cleanWin("/" + strings.ToLower(p[1:2]) + ":" + p[2:])
	}
	if p[0] == '~' {
		if len(p) > 1 && p[1] != '\\' && p[1] != '/' {
			return ""
		}
		h := a.winHome()
		if h == "" {
			return ""
		}
		p = h + strings.ReplaceAll(p[1:], `\`, "/")
		return a.cleanWin(p)
	}
	wcwd := strings.HasPrefix(a.cwd, "/") && len(a.cwd) >= 3 && a.cwd[2] == ':' ||
		strings.HasPrefix(a.workDir, "/") && len(a.workDir) >= 3 && a.workDir[2] == ':'
	if p[0] == '\\' || p[0] == '/' {
		if wcwd {
			drive := "/c:"
			if len(a.cwd) >= 3 && a.cwd[2] == ':' {
				drive = a.cwd[:3]
			}
			return a.cleanWin(drive + strings.ReplaceAll(p, `\`, "/"))
		}
		return path.Clean(strings.ReplaceAll(p, `\`, "/"))
	}
	if a.cwd == "" {
		return ""
	}
	return a.cleanWin(a.cwd + "/" + strings.ReplaceAll(p, `\`, "/"))
}

// winDirs puts the work directory, the home and the current directory
// in Windows normal form (/c:/users/x), from the forms a POSIX line
// keeps them in: cleanAbs's "/C:\Users\x" and Git Bash's /c/Users/x.
func (a *analysis) winDirs() {
	msys := a.msysPaths()
	conv := func(p string) string {
		if w := a.dirs.win.of(p, winFromClean); w != "" {
			return w
		}
		if msys && len(p) >= 2 && p[0] == '/' && isDriveLetter(p[1]) && (len(p) == 2 || p[2] == '/') {
			return a.cleanWin("/" + strings.ToLower(p[1:2]) + ":" + p[2:])
		}
		return p
	}
	a.workDir, a.home, a.cwd = conv(a.workDir), conv(a.home), conv(a.cwd)
}

// cleanWin cleans a path in normal form, never climbing above a drive.
func (a *analysis) cleanWin(p string) string {
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		if winNormal(p[1:]) {
			return p // what normWinAbs(p[1:]) returns, without allocating
		}
		return normWinAbs(p[1:])
	}
	return path.Clean(p)
}

// winIsWindowsPath reports whether a normal-form path is a Windows one.
func winIsWindowsPath(p string) bool {
	return len(p) >= 3 && p[0] == '/' && p[2] == ':' || strings.HasPrefix(p, "//")
}

// winPathClass is how bad deleting (or opening up) a Windows path is.
type winPathClass uint8

const (
	wpNone      winPathClass = iota
	wpInside                 // inside the work directory, temp or a cache
	wpOutside                // elsewhere
	wpWorkDir                // the work directory itself
	wpHistory                // shell history
	wpHomeSub                // a folder of the user's profile
	wpSystemSub              // inside an installed program's folder
	wpSecrets                // keys and credentials
	wpSystem                 // Windows itself, a system folder
	wpHome                   // a profile, or all of them
	wpRoot                   // a whole drive
	wpDevice                 // a raw disk
	wpPosix                  // a POSIX path: judged by the POSIX rules
	wpUnknown                // not known
)

var winPathNames = [...]string{"", "inside the work directory", "outside the work directory", "the work directory itself",
	"shell history", "a folder of the user profile", "an installed program", "credentials", "a system folder",
	"a user profile", "a whole drive", "a disk device", "", "an unknown path"}

// winSecretRel are profile-relative paths holding credentials.
var winSecretRel = []string{".ssh", ".aws", ".azure", ".kube", ".gnupg", ".docker/config.json", ".git-credentials",
	".npmrc", ".pypirc", ".netrc", "_netrc", ".config/gh", "appdata/roaming/github cli", ".config/gcloud",
	"appdata/roaming/gcloud", "appdata/roaming/microsoft/credentials", "appdata/local/microsoft/credentials",
	"appdata/roaming/microsoft/protect", "appdata/local/google/chrome/user data", "appdata/local/microsoft/edge/user data",
	"appdata/roaming/mozilla/firefox/profiles", "appdata/roaming/microsoft/crypto", "appdata/roaming/microsoft/systemcertificates",
	".vault-token", ".terraform.d/credentials.tfrc.json", "appdata/roaming/terraform.d", ".m2/settings.xml", ".cargo/credentials",
	".cargo/credentials.toml", ".config/hub", ".password-store", "appdata/roaming/keepass", "appdata/roaming/nuget",
	".transifexrc", ".crowdin.yml", ".contentfulrc.json", ".pgpass", ".my.cnf", ".influxdbv2", ".keycloak", ".okta"}

// winHistoryRel are profile-relative history files.
var winHistoryRel = []string{"appdata/roaming/microsoft/windows/powershell/psreadline", ".bash_history", ".zsh_history",
	".python_history", ".node_repl_history", ".psql_history", ".mysql_history", ".lesshst"}

var winHomeTop = map[string]bool{"documents": true, "desktop": true, "pictures": true, "videos": true, "music": true,
	"downloads": true, "onedrive": true, "appdata": true, "source": true, "favorites": true, "contacts": true,
	"saved games": true, "searches": true, "links": true, "3d objects": true, ".config": true, "appdata/roaming": true,
	"appdata/local": true, "source/repos": true, "documents/windowspowershell": true, "documents/powershell": true}

var winCacheRel = []string{"appdata/local/temp", ".cache", "appdata/local/npm-cache", "appdata/roaming/npm-cache",
	"appdata/local/pip/cache", "appdata/local/yarn/cache", ".nuget/packages", "appdata/local/go-build", ".gradle/caches",
	"appdata/local/microsoft/windows/inetcache", "appdata/local/pnpm-cache", "appdata/local/crashdumps", ".m2/repository",
	".ivy2/cache", ".cargo/registry", "go/pkg/mod", ".npm/_cacache", "appdata/local/nuget/cache", "appdata/local/composer",
	".rustup/downloads", ".conda/pkgs"}

// winCacheRoot reports a profile's whole temporary folder or a whole
// cache (%TEMP%, ~\.nuget\packages, ~\.gradle\caches) rather than a
// part of one.
func (a *analysis) winCacheRoot(p string) bool {
	if p == "/c:/windows/temp" {
		return true // the machine's temporary folder: every program's files
	}
	rel := ""
	if rest, ok := strings.CutPrefix(p[min(len(p), 4):], "users/"); ok && len(p) > 4 {
		if _, r, ok := strings.Cut(rest, "/"); ok {
			rel = r
		}
	} else if h := a.winHome(); h != "" && strings.HasPrefix(p, h+"/") {
		rel = p[len(h)+1:]
	}
	if rel == "" {
		return false
	}
	for _, x := range winCacheRel {
		if rel == x {
			return true
		}
	}
	return false
}

func relUnder(rel string, list []string) bool {
	for _, x := range list {
		if rel == x || strings.HasPrefix(rel, x+"/") {
			return true
		}
	}
	return false
}

// winClassify classifies a normal-form path.
func (a *analysis) winClassify(p string) (winPathClass, string) {
	if p == "" {
		return wpUnknown, ""
	}
	if strings.HasPrefix(p, "//./") {
		d := p[4:]
		if strings.HasPrefix(d, "physicaldrive") || len(d) == 2 && d[1] == ':' || strings.HasPrefix(d, "harddisk") || strings.HasPrefix(d, "volume") {
			return wpDevice, p
		}
		return wpOutside, p
	}
	if !winIsWindowsPath(p) {
		return wpPosix, p
	}
	if strings.HasPrefix(p, "//") {
		// UNC: \\server\share is someone else's disk
		if strings.Count(strings.Trim(p, "/"), "/") <= 1 {
			return wpRoot, p
		}
		return wpOutside, p
	}
	wd := a.workDir
	if wd != "" && (p == wd) {
		return wpWorkDir, p
	}
	if wd != "" && strings.HasPrefix(p, wd+"/") {
		return wpInside, p
	}
	if len(p) == 3 { // "/c:"
		return wpRoot, p
	}
	rest := p[4:] // after "/c:/"
	top, _, _ := strings.Cut(rest, "/")
	switch top {
	case "windows":
		if rest == "windows/temp" || strings.HasPrefix(rest, "windows/temp/") {
			return wpInside, p
		}
		return wpSystem, p
	case "program files", "program files (x86)", "programdata":
		if rest == top {
			return wpSystem, p
		}
		if strings.HasPrefix(rest, "programdata/ssh") || strings.HasPrefix(rest, "programdata/microsoft") {
			return wpSystem, p
		}
		return wpSystemSub, p
	case "boot", "recovery", "system volume information", "bootmgr", "pagefile.sys", "hiberfil.sys", "$recycle.bin", "efi":
		return wpSystem, p
	case "temp", "tmp":
		return wpInside, p
	case "users":
		parts := strings.SplitN(rest, "/", 3)
		if len(parts) == 1 {
			return wpHome, p
		}
		if len(parts) == 2 {
			return wpHome, p
		}
		return a.winProfileSub(parts[2], p)
	}
	if h := a.winHome(); h != "" && winIsWindowsPath(h) {
		if p == h {
			return wpHome, p
		}
		if strings.HasPrefix(p, h+"/") {
			return a.winProfileSub(p[len(h)+1:], p)
		}
	}
	if base := path.Base(rest); (buildOutputs[base] || base == "bin") && strings.Count(rest, "/") >= 2 {
		// another project's build output (.NET's bin and obj included):
		// its build makes it again
		return wpInside, p
	}
	return wpOutside, p
}

func (a *analysis) winProfileSub(rel, p string) (winPathClass, string) {
	switch {
	case homeTokenFile(rel, path.Base(rel)) != "":
		// ~\.cache\huggingface\token, ~\.databrickscfg: a client's login,
		// even inside a cache folder
		return wpSecrets, p
	case winModelCacheRoot(strings.TrimSuffix(strings.ToLower(rel), "/")):
		// gigabytes of downloaded models: a cache in name only
		return wpHomeSub, p
	case relUnder(rel, winCacheRel) || appCacheRel(rel):
		return wpInside, p
	case relUnder(rel, winSecretRel):
		return wpSecrets, p
	case relUnder(rel, winHistoryRel):
		return wpHistory, p
	case winHomeTop[rel]:
		return wpHomeSub, p
	}
	return wpHomeSub, p
}

// appCacheRel reports a folder in a tool's own cache below its data
// folder (AppData\Local\acme-cli\cache, .gradle\caches, AppData\Roaming\Code\Cache):
// the tool fetches or builds it again.
func appCacheRel(rel string) bool {
	if !strings.HasPrefix(rel, "appdata/") && !strings.HasPrefix(rel, ".") {
		return false
	}
	parts := strings.Split(rel, "/")
	for i, p := range parts {
		if i == 0 || i == 1 && p == "local" || p == "roaming" {
			continue
		}
		switch p {
		case "cache", "caches", "cache2", "code cache", "gpucache", "temp", "tmp", "cacheddata", "cachedextensionvsixs", "shadercache", "dawncache", "grshadercache":
			return true
		}
	}
	return false
}

// shadowCopyRel returns the path inside a volume shadow copy device
// (GLOBALROOT\Device\HarddiskVolumeShadowCopyN\rel); "" for any other.
func shadowCopyRel(p string) string {
	l := strings.ToLower(strings.ReplaceAll(p, "/", `\`))
	const pre = `globalroot\device\harddiskvolumeshadowcopy`
	if !strings.HasPrefix(l, pre) {
		return ""
	}
	rest := p[len(pre):]
	i := strings.IndexAny(rest, `\/`)
	if i < 0 {
		return ""
	}
	return rest[i+1:]
}

// winProdSettings reports a project's file of production settings
// (.env.production), whose secrets are shown when it is printed.
func (a *analysis) winProdSettings(s string) string {
	if p := a.winAbs(s); p != "" && a.inWork(p) && prodSettingsFile(path.Base(p)) {
		return "production settings " + s
	}
	return ""
}

// winSensitive reports whether reading p reads credentials: the class
// name for reasons, and whether they are critical.
func (a *analysis) winSensitive(p string) (string, bool) {
	if p == "" {
		return "", false
	}
	if !winIsWindowsPath(p) {
		return a.sensitive(p, a.cwd)
	}
	if v := credentialFileVar(path.Base(p)); v != "" {
		// $env:GOOGLE_APPLICATION_CREDENTIALS, %KUBECONFIG% (made
		// absolute in the work directory): the file the variable names
		return "the credentials file " + v, true
	}
	if passwordList(path.Base(p)) && !a.inWork(p) {
		return "a password list (" + p + ")", true
	}
	low := p
	for _, s := range [...]string{"/windows/system32/config/sam", "/windows/system32/config/security", "/windows/system32/config/system",
		"/windows/ntds/ntds.dit", "/windows/panther/unattend.xml", "/windows/panther/unattended.xml", "/programdata/ssh/ssh_host_"} {
		if strings.Contains(low, s) {
			return "Windows credential store " + p, true
		}
	}
	// browsers' saved passwords, cookies and their keys, and the
	// credential and vault folders of the profile
	if strings.Contains(low, "/user data/") || strings.Contains(low, "/mozilla/firefox/profiles") {
		for _, s := range [...]string{"/login data", "/cookies", "/local state", "/web data", "/logins.json", "/key4.db", "/cookies.sqlite", "/network/cookies"} {
			if strings.Contains(low, s) {
				return "browser credentials " + p, true
			}
		}
	}
	for _, s := range [...]string{"/filezilla/recentservers.xml", "/filezilla/sitemanager.xml", "/winscp.ini", "/mremoteng/confcons.xml",
		"/.purple/accounts.xml", "/dbeaverdata/workspace6/general/.dbeaver/credentials-config.json", "/microsoft/windows/powershell/secretstore",
		"/appdata/roaming/gnupg/", "/appdata/local/microsoft/windows/credentialsharing", "/appdata/roaming/postgresql/pgpass.conf",
		"/appdata/local/github-copilot/apps.json", "/appdata/local/github-copilot/hosts.json", "/appdata/roaming/github-copilot/",
		"/appdata/roaming/rclone/rclone.conf"} {
		if strings.Contains(low, s) {
			// saved log-ins of file-transfer, remote-access and database
			// clients
			return "saved credentials " + p, true
		}
	}
	if strings.HasSuffix(low, "/ntuser.dat") && strings.Contains(low, "/users/") {
		// the user's registry hive: saved sessions, passwords of
		// remote-access tools, DPAPI-protected secrets
		return "the user's registry hive " + p, true
	}
	for _, s := range [...]string{"/appdata/roaming/microsoft/credentials", "/appdata/local/microsoft/credentials", "/appdata/roaming/microsoft/protect",
		"/appdata/local/microsoft/vault", "/appdata/roaming/microsoft/vault", "/appdata/roaming/microsoft/usersecrets/"} {
		if strings.Contains(low, s) {
			return "Windows credentials " + p, true
		}
	}
	c, _ := a.winClassify(p)
	if c == wpSecrets {
		if strings.HasSuffix(p, ".pub") || strings.HasSuffix(p, "/known_hosts") || strings.HasSuffix(p, ".ssh/config") || strings.HasSuffix(p, "/.aws/config") {
			// (the AWS CLI's config holds profiles and regions; the keys
			// are in .aws/credentials)
			return "", false
		}
		return "credentials " + p, true
	}
	if c == wpHistory {
		return "shell history " + p, false
	}
	if strings.HasSuffix(p, "/.env") && c != wpInside {
		return "environment file " + p, true
	}
	if signingSettings[path.Base(p)] && strings.Contains(p, "/android/") {
		// android\key.properties: the release keystore's passwords
		return "the release signing passwords in " + p, false
	}
	if c != wpInside && c != wpWorkDir {
		switch path.Ext(p) {
		case ".rdp", ".ovpn", ".kdbx", ".pfx", ".p12", ".ppk", ".pem", ".key":
			// saved remote-desktop and VPN log-ins, password databases,
			// private keys kept outside the project
			return "credentials " + p, true
		}
		if d := profileTokenStore(p); d != "" {
			return d, true
		}
		if d := serviceSecretFile(low, path.Base(low)); d != "" {
			// a server program's own store (C:\inetpub\app\appsettings.Production.json,
			// Wowza's conf\publish.password)
			return d + " " + p, true
		}
		// the stores POSIX clients keep in the home, which their Windows
		// builds keep in the profile too (.kaggle/kaggle.json, .netrc)
		if h := a.winHome(); h != "" && strings.HasPrefix(p, strings.ToLower(h)+"/") {
			rel := p[len(h)+1:]
			for _, cs := range homeCredentialStores {
				if storeHolds(strings.ToLower(cs.prefix), rel) {
					return cs.what + " " + p, true
				}
			}
		}
	}
	return "", false
}

// profileTokenStore names a file of the user profile where a command-line
// tool, an editor or a chat client keeps its sign-in: the file names such
// tools use for tokens (auth.json, .credentials.json, hosts.yml of gh),
// an editor's secret storage (state.vscdb) and the Local Storage of
// Electron clients, where their session tokens live.
func profileTokenStore(p string) string {
	if !strings.Contains(p, "/users/") {
		return ""
	}
	if strings.Contains(p, "/local storage") || strings.Contains(p, "/session storage") {
		return "an application's saved sessions " + p
	}
	if strings.Contains(p, "/appdata/") {
		// an Electron client's cookie jar (Teams, Slack, Discord) holds
		// its sessions; a package feed's settings its passwords
		switch path.Base(p) {
		case "cookies", "cookies-journal":
			return "an application's cookies " + p
		case "nuget.config":
			return "package feed credentials " + p
		}
	}
	switch path.Base(p) {
	case ".credentials.json", "credentials.json", "credentials", "auth.json", "token", "token.json", ".token", "tokens.json",
		"accesstokens.json", "msal_token_cache.json", "msal_token_cache.bin", "state.vscdb", "hosts.yml", "oauth_creds.json", "api_key", "apikey",
		"p4tickets.txt", ".p4tickets": // Perforce's login tickets
		return "a tool's saved sign-in " + p
	}
	return ""
}

// winHasBareIP reports an IPv4 address in s.
func winHasBareIP(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' || i > 0 && (s[i-1] >= '0' && s[i-1] <= '9' || s[i-1] == '.') {
			continue
		}
		dots, j, digits := 0, i, 0
		for ; j < len(s); j++ {
			if s[j] >= '0' && s[j] <= '9' {
				digits++
				continue
			}
			if s[j] == '.' && digits > 0 {
				dots++
				digits = 0
				continue
			}
			break
		}
		if dots == 3 && digits > 0 && !strings.HasPrefix(s[i:], "127.") && !strings.HasPrefix(s[i:], "0.0.0.0") {
			return true
		}
	}
	return false
}

// winRegistry classifies a registry key path ("HKLM\Software\...",
// "HKCU:\...", "Registry::HKEY_LOCAL_MACHINE\...").
type regClass uint8

const (
	regNone regClass = iota
	regAutorun
	regDefender
	regUAC
	regLSA
	regRDP
	regHive
	regCredHive
	regServices
	regLogging
	regHistory
	regSecurity
)

// normRegKey returns a registry key in the form "hklm/software/..." and
// whether s names one.
func normRegKey(s string) (string, bool) {
	k := strings.ToLower(strings.ReplaceAll(strings.Trim(s, `"'`), `\`, "/"))
	k = strings.TrimPrefix(k, "microsoft.powershell.core/registry::")
	k = strings.TrimPrefix(k, "registry::")
	if rest, ok := strings.CutPrefix(k, "//"); ok {
		// reg add \\KIOSK-02\HKLM\...: the same key on another machine
		if _, key, ok := strings.Cut(rest, "/"); ok {
			k = key
		}
	}
	k = strings.Replace(k, ":/", "/", 1)
	k = strings.TrimSuffix(k, ":")
	for long, short := range map[string]string{"hkey_local_machine": "hklm", "hkey_current_user": "hkcu",
		"hkey_users": "hku", "hkey_classes_root": "hkcr", "hkey_current_config": "hkcc"} {
		if strings.HasPrefix(k, long) {
			k = short + k[len(long):]
		}
	}
	for _, h := range [...]string{"hklm", "hkcu", "hku", "hkcr", "hkcc"} {
		if k == h || strings.HasPrefix(k, h+"/") {
			return strings.TrimRight(k, "/"), true
		}
	}
	return "", false
}

func classifyRegKey(k string) regClass {
	// the user hive of another account counts as the current user's
	if strings.HasPrefix(k, "hku/") {
		if i := strings.IndexByte(k[4:], '/'); i >= 0 {
			k = "hkcu" + k[4+i:]
		}
	}
	switch k {
	case "hklm", "hkcu", "hku", "hkcr", "hklm/software", "hklm/system", "hkcu/software", "hklm/system/currentcontrolset",
		"hklm/software/microsoft", "hkcu/software/microsoft", "hklm/software/microsoft/windows", "hklm/software/classes":
		return regHive
	case "hklm/sam", "hklm/security":
		return regCredHive
	case "hklm/system/currentcontrolset/services", "hklm/system/controlset001/services", "hklm/system/currentcontrolset/control":
		return regHive // every service, or the system's control set
	}
	switch {
	case strings.Contains(k, "/currentversion/run") || strings.Contains(k, "/currentversion/policies/explorer/run") ||
		strings.Contains(k, "windows nt/currentversion/winlogon") || strings.Contains(k, "image file execution options") ||
		strings.Contains(k, "silentprocessexit") || strings.Contains(k, "command processor") ||
		strings.Contains(k, "windows nt/currentversion/windows") || strings.HasSuffix(k, "/environment") || envHijackValue(k) || strings.HasSuffix(k, "control panel/desktop/scrnsave.exe") ||
		strings.Contains(k, "active setup/installed components") || strings.Contains(k, "/shell/open/command") ||
		strings.Contains(k, "currentversion/explorer/shell folders") || strings.Contains(k, "currentversion/explorer/user shell folders") ||
		strings.Contains(k, "/session manager/bootexecute") || strings.Contains(k, "software/microsoft/office test/") ||
		strings.Contains(k, "/office/") && (strings.HasSuffix(k, "/addins") || strings.Contains(k, "/addins/")) && strings.Contains(k, "hkcu") || strings.Contains(k, "inprocserver32") && strings.HasPrefix(k, "hkcu") ||
		strings.Contains(k, "/currentversion/app paths/") || strings.Contains(k, "/shell/open/") || strings.Contains(k, "/shell/runas/command") ||
		strings.Contains(k, "/currentversion/winlogon") || strings.Contains(k, "/appinit_dlls") || strings.Contains(k, "/appcertdlls") ||
		strings.Contains(k, "/currentversion/runonce") || strings.Contains(k, "/currentversion/runservices") || strings.Contains(k, "/scripts/logon") ||
		strings.Contains(k, "/scripts/startup") || strings.Contains(k, "/netsh") && strings.HasPrefix(k, "hklm/software/microsoft/netsh") ||
		// DLLs services and the spooler, time and network providers load
		// at boot: print monitors and processors, time providers,
		// network providers, known DLLs, Explorer's shell extensions
		strings.Contains(k, "/control/print/monitors") || strings.Contains(k, "/control/print/environments/") ||
		strings.Contains(k, "/w32time/timeproviders") || strings.Contains(k, "/control/networkprovider") ||
		strings.Contains(k, "/session manager/knowndlls") || strings.Contains(k, "/control/safeboot/alternateshell") ||
		strings.Contains(k, "/shellserviceobjectdelayload") || strings.Contains(k, "/browser helper objects") ||
		strings.Contains(k, "/shellexecutehooks") || strings.Contains(k, "/control/session manager/setupexecute") ||
		strings.Contains(k, "/services/") && strings.HasSuffix(k, "/parameters/servicedll") || officeStartupValue(k) ||
		// a browser policy that installs an extension into every profile
		// (Chrome's and Edge's ExtensionInstallForcelist, Firefox's
		// ExtensionSettings)
		strings.Contains(k, "/policies/") && (strings.Contains(k, "extensioninstallforcelist") || strings.Contains(k, "mozilla/firefox/extensions")):
		return regAutorun
	case strings.Contains(k, "windows/powershell/scriptblocklogging") || strings.Contains(k, "windows/powershell/transcription") ||
		strings.Contains(k, "/control/wmi/autologger") ||
		strings.Contains(k, "windows/powershell/modulelogging") || strings.Contains(k, "/eventlog/") && strings.Contains(k, "hklm/system"):
		return regLogging
	case strings.Contains(k, "/runmru") || strings.Contains(k, "/typedpaths") || strings.Contains(k, "/recentdocs") || strings.Contains(k, "/typedurls") ||
		strings.Contains(k, "/terminal server client") || strings.Contains(k, "/userassist") || strings.Contains(k, "mru") && strings.Contains(k, "/explorer/") ||
		strings.Contains(k, "/wordwheelquery") || strings.Contains(k, "/shell/bagmru") || strings.Contains(k, "/shell/bags") || strings.Contains(k, "/bam/state") ||
		strings.Contains(k, "/appcompatcache") || strings.Contains(k, "/appcompatflags/compatibility assistant"):
		return regHistory
	case strings.Contains(k, "windows defender") || strings.Contains(k, "/windowsfirewall") || strings.Contains(k, "windows/windowsupdate") ||
		strings.Contains(k, "microsoft/windowsupdate/ux/settings") || // updates paused, deferred
		strings.Contains(k, "/sharedaccess/parameters/firewallpolicy") ||
		// System Restore, SmartScreen and the policy that runs every
		// installer elevated guard the machine as much as the antivirus
		strings.Contains(k, "windows nt/systemrestore") || strings.Contains(k, "smartscreen") || strings.HasSuffix(k, "policies/microsoft/windows/system") ||
		// File History and Windows Backup turned off by policy
		strings.Contains(k, "policies/microsoft/windows/filehistory") || strings.Contains(k, "policies/microsoft/windows/backup/client") ||
		strings.Contains(k, "currentversion/apphost") || // SmartScreen's check of apps (EnableWebContentEvaluation)
		// the attachment manager: downloaded files of the listed types no
		// longer warn, or lose the mark of the web
		strings.Contains(k, "currentversion/policies/associations") || strings.Contains(k, "currentversion/policies/attachments") ||
		strings.Contains(k, "policies/microsoft/windows/system/") || strings.HasSuffix(k, "policies/microsoft/windows/installer") ||
		strings.Contains(k, "policies/microsoft/windows/installer/") ||
		// virtualization-based security, Credential Guard, code integrity
		// and the antimalware scan interface's providers
		strings.Contains(k, "/control/deviceguard") || strings.Contains(k, "policies/microsoft/windows/deviceguard") ||
		strings.Contains(k, "/control/ci/") || strings.Contains(k, "software/microsoft/amsi") ||
		// Point and Print's prompts and driver-install restriction (the
		// PrintNightmare protections)
		strings.Contains(k, "windows nt/printers/pointandprint"):
		return regDefender
	case strings.HasPrefix(k, "hklm/software/") && strings.Contains(k, "/powershell/1/shellids"),
		strings.Contains(k, "policies/microsoft/windows/powershell"), // the policy's EnableScripts and ExecutionPolicy
		strings.Contains(k, "securityproviders/schannel/protocols/") && (strings.Contains(k, "/tls 1.0") || strings.Contains(k, "/tls 1.1") ||
			strings.Contains(k, "/ssl 2.0") || strings.Contains(k, "/ssl 3.0") || strings.Contains(k, "/pct 1.0")):
		// the machine's own PowerShell execution policy, and the retired
		// TLS and SSL versions every program's connections may then use
		return regSecurity
	case strings.Contains(k, "policies/system"):
		return regUAC
	case strings.Contains(k, "control/lsa") || strings.Contains(k, "securityproviders/wdigest"):
		return regLSA
	case strings.Contains(k, "terminal server") || strings.Contains(k, "policies/microsoft/windows nt/terminal services"):
		return regRDP
	case strings.HasPrefix(k, "hklm/system/currentcontrolset/services/") || strings.HasPrefix(k, "hklm/system/controlset001/services/"):
		return regServices
	case strings.HasPrefix(k, "hklm/sam") || strings.HasPrefix(k, "hklm/security"):
		return regCredHive
	}
	return regNone
}

// officeStartupValue reports an Office application's OPEN, OPEN1, ...
// value under Options: the add-ins (.xll, .xlam, .wll) it loads at every
// start, an add-in trusted without the add-in dialog.
func officeStartupValue(k string) bool {
	if !strings.Contains(k, "/office/") {
		return false
	}
	i := strings.LastIndex(k, "/options/open")
	if i < 0 {
		return false
	}
	for _, r := range k[i+len("/options/open"):] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// envHijackValue reports a saved environment value (key/value) that
// changes what runs: a logon script, the search path for programs or
// modules, a profiler DLL loaded into every .NET program. Other values
// (ACME_HOME) are settings.
func envHijackValue(k string) bool {
	i := strings.Index(k, "/environment/")
	if i < 0 {
		return false
	}
	switch k[i+len("/environment/"):] {
	case "userinitmprlogonscript", "path", "psmodulepath", "pathext", "comspec", "windir", "systemroot", "cor_enable_profiling", "cor_profiler",
		"cor_profiler_path", "coreclr_enable_profiling", "coreclr_profiler", "coreclr_profiler_path", "__pslockdownpolicy":
		return true
	}
	return false
}

// runtimeHookVar reports a saved variable (lower-case name, value) that
// every later run of a language runtime or package manager obeys: code
// preloaded into each program, a profiler DLL, or packages fetched from
// an index over plain HTTP. Other variables (ACME_HOME) are settings.
func runtimeHookVar(name, value string) bool {
	switch name {
	case "node_options", "npm_config_node_options":
		// memory and debugging switches are settings; a preloaded module
		// runs in every node process
		return strings.Contains(value, "--require") || strings.Contains(value, "-r ") || strings.Contains(value, "--import") || strings.Contains(value, "loader")
	case "java_tool_options", "_java_options", "jdk_java_options":
		return strings.Contains(value, "agent") || strings.Contains(value, "bootclasspath")
	case "rubyopt", "perl5opt":
		return strings.Contains(value, "-r") || strings.Contains(value, "-m")
	case "pythonstartup", "pythonpath", "pythonhome", "perl5lib", "rubylib", "dotnet_startup_hooks", "dotnet_additional_deps",
		"cor_enable_profiling", "cor_profiler", "cor_profiler_path", "coreclr_enable_profiling", "coreclr_profiler", "coreclr_profiler_path",
		"git_ssh_command", "git_ssh", "git_askpass", "ssh_askpass", "git_exec_path", "git_config_global", "git_template_dir",
		"npm_config_script_shell", "bash_env", "__pslockdownpolicy":
		return true
	case "pip_index_url", "pip_extra_index_url", "pip_trusted_host", "uv_index_url", "uv_extra_index_url", "uv_default_index", "uv_index",
		"npm_config_registry", "yarn_npm_registry_server", "bun_config_registry", "goproxy", "goinsecure", "gonosumdb", "gonosumcheck", "goflags",
		"cargo_registries_crates_io_index", "nuget_source", "conda_channels", "poetry_repositories_default_url":
		// a package index over plain HTTP, or one trusted without
		// checks: whoever is on the path serves the packages
		if name == "pip_trusted_host" || name == "goinsecure" || name == "gonosumdb" || name == "gonosumcheck" {
			return true
		}
		if name == "goflags" {
			return strings.Contains(value, "-insecure")
		}
		if !strings.HasPrefix(value, "http://") {
			return false
		}
		h := hostOf(value)
		ip, ok := parseIP(h)
		return h != "localhost" && !(ok && ip.IsLoopback())
	}
	return false
}

// toolDialect is the dialect a tool's name implies: an agent's
// "PowerShell" tool runs PowerShell, a "cmd" tool cmd.exe; "" for tools
// that do not name one.
func toolDialect(tool string) string {
	switch strings.ToLower(tool) {
	case "powershell", "pwsh", "powershell_command", "run_powershell", "execute_powershell", "powershell_exec":
		return ShellPowerShell
	case "cmd", "cmd_exe", "run_cmd", "command_prompt", "batch":
		return ShellCmd
	case "gitbash", "git_bash":
		return ShellGitBash
	}
	return ""
}

// winModelCacheRoot reports the whole store of downloaded machine-learning
// models (Hugging Face, PyTorch hub, Ollama, LM Studio): rebuilding it
// means downloading gigabytes again, unlike a build cache.
func winModelCacheRoot(rel string) bool {
	switch rel {
	case ".cache/huggingface", ".cache/huggingface/hub", ".cache/torch", ".cache/torch/hub", ".ollama", ".ollama/models", ".lmstudio", ".lmstudio/models",
		".cache/lm-studio", "appdata/local/ollama", ".cache/whisper":
		return true
	}
	return false
}

// winShellStarts reports arguments of cmd or PowerShell, started from a
// POSIX shell (Git Bash), that start a program and return at once:
// cmd //c start prog, powershell -c "Start-Process prog". In a loop that
// is a fork bomb as much as prog & is.
func (a *analysis) winShellStarts(args []*syntax.Word) bool {
	for i, w := range args {
		l := strings.ToLower(a.expandOne(w).s)
		switch {
		case l == "/c" || l == "//c" || l == "/k" || l == "//k":
			if i+1 < len(args) {
				next := strings.ToLower(a.expandOne(args[i+1]).s)
				if next == "start" || strings.HasPrefix(next, "start ") {
					return true
				}
			}
		case strings.Contains(l, "start-process") || strings.HasPrefix(l, "saps ") || strings.HasPrefix(l, "start "):
			return true
		}
	}
	return false
}
