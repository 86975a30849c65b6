package guard

import (
	"encoding/base64"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// PowerShell front end: a tokeniser that splits a script into statements,
// pipelines and arguments the way PowerShell's argument mode does, and a
// walker that resolves aliases, parameter abbreviations, variables and
// nested code (script blocks, subexpressions, -EncodedCommand, wrappers)
// before the commands are judged.

type psKind uint8

const (
	psWord  psKind = iota
	psSep          // ; or newline
	psPipe         // |
	psAnd          // &&
	psOr           // ||
	psCall         // & (call operator)
	psRedir        // > >> 2> *> 2>&1 <
)

type psTok struct {
	kind psKind
	text string // raw text
}

// psTokens splits PowerShell source into tokens.
func psTokens(src string) []psTok {
	out := make([]psTok, 0, len(src)/5+2)
	i := 0
	n := len(src)
	for i < n {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			i++
			continue
		case c == '`' && i+1 < n && (src[i+1] == '\n' || src[i+1] == '\r'):
			i += 2
			continue
		case c == '\n' || c == '\r' || c == ';':
			out = append(out, psTok{kind: psSep})
			i++
			continue
		case c == '#':
			for i < n && src[i] != '\n' {
				i++
			}
			continue
		case c == '<' && i+1 < n && src[i+1] == '#':
			end := strings.Index(src[i+2:], "#>")
			if end < 0 {
				return out
			}
			i += end + 4
			continue
		case c == '|':
			if i+1 < n && src[i+1] == '|' {
				out = append(out, psTok{kind: psOr})
				i += 2
			} else {
				out = append(out, psTok{kind: psPipe})
				i++
			}
			continue
		case c == '&':
			if i+1 < n && src[i+1] == '&' {
				out = append(out, psTok{kind: psAnd})
				i += 2
			} else {
				out = append(out, psTok{kind: psCall})
				i++
			}
			continue
		case c == '>' || (c == '2' || c == '1' || c == '3' || c == '*') && i+1 < n && src[i+1] == '>' || c == '<' && (i+1 >= n || src[i+1] != '#'):
			j := i
			for j < n && (src[j] == '>' || src[j] == '<' || src[j] == '*' || src[j] >= '0' && src[j] <= '9' || src[j] == '&') {
				j++
			}
			out = append(out, psTok{kind: psRedir, text: src[i:j]})
			i = j
			continue
		}
		j := psWordEnd(src, i)
		if j == i {
			j = i + 1
		}
		out = append(out, psTok{kind: psWord, text: src[i:j]})
		i = j
	}
	return out
}

// psWordEnd returns where the word starting at i ends: at white space or
// an operator outside quotes and brackets.
func psWordEnd(src string, i int) int {
	n := len(src)
	depth := 0
	for i < n {
		c := src[i]
		switch c {
		case '`':
			i += 2
			continue
		case '\'':
			i = psQuoteEnd(src, i, '\'')
			continue
		case '"':
			i = psQuoteEnd(src, i, '"')
			continue
		case '@':
			if i+1 < n && (src[i+1] == '"' || src[i+1] == '\'') && (i+2 >= n || src[i+2] == '\n' || src[i+2] == '\r') {
				q := src[i+1]
				end := strings.Index(src[i+2:], "\n"+string(q)+"@")
				if end < 0 {
					return n
				}
				i += 2 + end + 3
				continue
			}
		case '(', '{', '[':
			depth++
		case ')', '}', ']':
			if depth == 0 {
				if i == 0 {
					return i + 1
				}
				return i
			}
			depth--
		case ' ', '\t', '\n', '\r', ';', '|', '&', '>':
			if depth == 0 {
				return i
			}
		case '<':
			if depth == 0 && (i+1 >= n || src[i+1] != '#') {
				return i
			}
		case '#':
			if depth == 0 && i > 0 && (src[i-1] == ' ' || src[i-1] == '\t') {
				return i
			}
		}
		i++
	}
	return n
}

func psQuoteEnd(src string, i int, q byte) int {
	n := len(src)
	i++
	for i < n {
		c := src[i]
		if q == '"' && c == '`' {
			i += 2
			continue
		}
		if c == q {
			if i+1 < n && src[i+1] == q {
				i += 2
				continue
			}
			return i + 1
		}
		if q == '"' && c == '$' && i+1 < n && src[i+1] == '(' {
			// a subexpression may hold quotes of its own
			d := 0
			for i < n {
				switch src[i] {
				case '(':
					d++
				case ')':
					d--
				case '\'':
					i = psQuoteEnd(src, i, '\'') - 1
				}
				i++
				if d == 0 {
					break
				}
			}
			continue
		}
		i++
	}
	return n
}

// psStmt is one pipeline, split into stages of words.
type psStmt struct {
	stages [][]psTok
	redirs [][]string // per stage: "op target"
}

func psStatements(toks []psTok) []psStmt {
	var out []psStmt
	var cur psStmt
	var reds []string
	// every stage is a capped window of one buffer: one allocation for
	// all of them
	flat := make([]psTok, 0, len(toks))
	start := 0
	flushStage := func() {
		if len(flat) > start || len(reds) > 0 {
			var stage []psTok
			if len(flat) > start {
				stage = flat[start:len(flat):len(flat)]
			}
			cur.stages = append(cur.stages, stage)
			cur.redirs = append(cur.redirs, reds)
		}
		start, reds = len(flat), nil
	}
	flush := func() {
		flushStage()
		if len(cur.stages) > 0 {
			out = append(out, cur)
		}
		cur = psStmt{}
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.kind {
		case psSep, psAnd, psOr:
			flush()
		case psPipe:
			flushStage()
		case psRedir:
			target := ""
			if !strings.Contains(t.text, "&") && i+1 < len(toks) && toks[i+1].kind == psWord {
				target = toks[i+1].text
				i++
			}
			reds = append(reds, t.text+" "+target)
		case psCall:
			if len(flat) == start {
				flat = append(flat, t)
			}
			// a trailing & runs the pipeline in the background
		default:
			flat = append(flat, t)
		}
	}
	flush()
	return out
}

// psKeyword reports a keyword in any case; command names (mostly longer
// than any keyword, or with a dash) are not lowered to find out.
func psKeyword(t string) bool {
	if len(t) > 12 || strings.IndexByte(t, '-') >= 0 {
		return false
	}
	return psKeywords[strings.ToLower(t)]
}

// psKeywords start statements that are not commands.
var psKeywords = map[string]bool{
	"if": true, "elseif": true, "else": true, "foreach": true, "for": true, "while": true, "do": true, "until": true,
	"switch": true, "try": true, "catch": true, "finally": true, "function": true, "filter": true, "param": true,
	"return": true, "throw": true, "trap": true, "begin": true, "process": true, "end": true, "break": true,
	"continue": true, "exit": true, "workflow": true, "class": true, "enum": true, "using": true, "data": true,
	"dynamicparam": true, "clean": true,
}

// psAliases maps PowerShell's built-in aliases (and common commands
// without the Verb-Noun form) onto cmdlets.
var psAliases = map[string]string{
	"ri": "remove-item", "rm": "remove-item", "rmdir": "remove-item", "del": "remove-item", "erase": "remove-item", "rd": "remove-item",
	"gci": "get-childitem", "ls": "get-childitem", "dir": "get-childitem", "gi": "get-item",
	"iex": "invoke-expression", "iwr": "invoke-webrequest", "irm": "invoke-restmethod", "wget": "invoke-webrequest", "curl": "invoke-webrequest",
	"gc": "get-content", "cat": "get-content", "type": "get-content", "sc": "set-content", "ac": "add-content",
	"cp": "copy-item", "copy": "copy-item", "cpi": "copy-item", "mv": "move-item", "move": "move-item", "mi": "move-item",
	"ni": "new-item", "md": "new-item", "mkdir": "new-item", "cd": "set-location", "sl": "set-location", "chdir": "set-location",
	"pushd": "push-location", "popd": "pop-location", "start": "start-process", "saps": "start-process",
	"kill": "stop-process", "spps": "stop-process", "ps": "get-process", "gps": "get-process",
	"icm": "invoke-command", "%": "foreach-object", "foreach": "foreach-object", "?": "where-object", "where": "where-object",
	"echo": "write-output", "write": "write-output", "sp": "set-itemproperty", "gp": "get-itemproperty", "clc": "clear-content",
	"cli": "clear-item", "clhy": "clear-history", "ii": "invoke-item", "sajb": "start-job", "spsv": "stop-service",
	"sasv": "start-service", "tee": "tee-object", "rni": "rename-item", "ren": "rename-item", "set": "set-variable", "sv": "set-variable",
	"gsv": "get-service", "gcim": "get-ciminstance", "rcim": "remove-ciminstance", "gwmi": "get-wmiobject", "rwmi": "remove-wmiobject",
	"nal": "new-alias", "sal": "set-alias", "ipmo": "import-module", "epal": "export-alias", "r": "invoke-history",
	"fl": "format-list", "ft": "format-table", "fw": "format-wide", "select": "select-object", "sort": "sort-object",
	"measure": "measure-object", "rvpa": "resolve-path", "cvpa": "convert-path",
}

// canonicalPS folds a PowerShell command name onto the name its rules
// are filed under.
func canonicalPS(name string) string {
	n := strings.ToLower(strings.Trim(name, `"'`))
	if i := strings.LastIndexAny(n, `/\`); i >= 0 {
		n = n[i+1:]
	}
	// module-qualified: Microsoft.PowerShell.Management\Remove-Item
	if c, ok := psAliases[n]; ok {
		return c
	}
	if strings.HasSuffix(n, ".exe") {
		n = strings.TrimSuffix(n, ".exe")
		if strings.Contains(n, "-") {
			return n
		}
		return canonicalName(n)
	}
	if strings.Contains(n, "-") {
		return n
	}
	return canonicalName(n)
}

// psParam reports whether a token is a parameter name (-Name, -Name:val).
func psParam(t string) (name, val string, hasVal, ok bool) {
	if len(t) < 2 || t[0] != '-' && !(t[0] == '\xe2') {
		return "", "", false, false
	}
	c := t[1]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '?') {
		return "", "", false, false
	}
	body := t[1:]
	if i := strings.IndexByte(body, ':'); i >= 0 {
		return strings.ToLower(body[:i]), body[i+1:], true, true
	}
	return strings.ToLower(body), "", false, true
}

// psArgs are a cmdlet's arguments: named parameters (matched by unique
// prefix against the cmdlet's parameter names, as PowerShell does) and
// positional values.
type psArgs struct {
	named map[string]word
	pos   []word
	flags map[string]bool
}

// parsePSArgs reads words as the arguments of a cmdlet with the given
// parameters; switches are parameters that take no value.
func parsePSArgs(words []word, params []string, switches []string) psArgs {
	// the maps are made on first use: most commands have no parameter
	// of one kind or the other, and rules parse arguments again and again
	var pa psArgs
	for i := 0; i < len(words); i++ {
		w := words[i]
		name, val, hasVal, ok := psParam(w.s)
		if !ok || !w.ok && !strings.HasPrefix(w.s, "-") {
			for strings.HasSuffix(w.s, ",") && i+1 < len(words) && !strings.HasPrefix(words[i+1].s, "-") {
				// Compress-Archive a, b dest.zip: the array is one
				// positional argument, as after a parameter's name
				w = word{s: w.s + words[i+1].s, ok: w.ok && words[i+1].ok}
				i++
			}
			pa.pos = append(pa.pos, w)
			continue
		}
		full := matchParam(name, switches)
		if full != "" {
			if hasVal {
				l := strings.ToLower(val)
				pa.setFlag(full, !(l == "$false" || l == "0" || l == "false")) // $false reads False once expanded
			} else {
				pa.setFlag(full, true)
			}
			continue
		}
		full = matchParam(name, params)
		if full == "" {
			full = name
		}
		if pa.named == nil {
			pa.named = map[string]word{}
		}
		if hasVal {
			pa.named[full] = word{s: val, ok: w.ok}
			continue
		}
		if i+1 < len(words) {
			v := words[i+1]
			i++
			for strings.HasSuffix(v.s, ",") && i+1 < len(words) && !strings.HasPrefix(words[i+1].s, "-") {
				// -ArgumentList '/i', 'x.msi': an array written with
				// spaces after its commas is one argument
				v = word{s: v.s + words[i+1].s, ok: v.ok && words[i+1].ok}
				i++
			}
			pa.named[full] = v
		} else {
			pa.setFlag(full, true)
		}
	}
	return pa
}

// setFlag records a switch, making the map on first use.
func (pa *psArgs) setFlag(name string, on bool) {
	if pa.flags == nil {
		pa.flags = map[string]bool{}
	}
	pa.flags[name] = on
}

// matchParam matches an abbreviated parameter name against names: an
// exact match, else the only name it is a prefix of (the first when it is
// ambiguous, to err on the side of the more dangerous reading).
func matchParam(abbr string, names []string) string {
	for _, n := range names {
		if n == abbr {
			return n
		}
	}
	for _, n := range names {
		if strings.HasPrefix(n, abbr) {
			return n
		}
	}
	return ""
}

func (p psArgs) get(name string) (word, bool) {
	w, ok := p.named[name]
	return w, ok
}

// psReadShownWhole reports an expression whose value is a .NET read of a
// file, whole or encoded ([IO.File]::ReadAllText(P), [Convert]::
// ToBase64String([IO.File]::ReadAllBytes(P)); not ...(P).Length or a
// comparison): the file's text is what is shown.
func psReadShownWhole(raw string) bool {
	raw = strings.TrimSpace(raw)
	l := strings.ToLower(raw)
	i := strings.Index(l, "::readall")
	if i < 0 || !strings.HasSuffix(raw, ")") {
		return false
	}
	depth := 0
	for j := i; j < len(raw); j++ {
		switch raw[j] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				// only the closing of calls that wrap it may follow
				// ([Convert]::ToBase64String([IO.File]::ReadAllBytes(K)))
				return strings.Trim(raw[j+1:], ") ") == ""
			}
		}
	}
	return false
}

// psItem is what $_ stands for inside a ForEach-Object block.
type psItem struct {
	paths     []string // normal-form roots of the items
	recursive bool     // the items are everything under the roots
	filtered  bool
	pattern   string // the -Filter, -Include or wildcard that chose them
	literal   bool   // the items are the paths themselves ('C:\a','D:\b' | ...)
}

// one returns the item for one of the paths, as a block run per item
// sees it.
func (it *psItem) one(i int) *psItem {
	n := *it
	n.paths = it.paths[i : i+1]
	return &n
}

// path returns the path $_ stands for when the item has one root: the
// root itself for literal items and wildcards (gci *.log lists the
// matches), the files a filter picks in the project (gci -Filter *.log:
// root/*.log), or everything in the root (outside the project a filter
// does not make a recursive search of someone's files harmless).
func (it *psItem) path(a *analysis) string {
	root := winNative(it.paths[0])
	switch {
	case it.literal || strings.ContainsAny(root[strings.LastIndexAny(root, `\/`)+1:], "*?"):
		return root
	case psNamePattern(it.pattern):
		if cl, _ := a.winClassify(it.paths[0]); cl == wpWorkDir || cl == wpInside {
			// -Include bin,obj: each name under the root, as a list
			names := splitComma(it.pattern)
			for i, n := range names {
				names[i] = root + "/" + strings.TrimSpace(n)
			}
			return strings.Join(names, ",")
		}
	}
	return root + "/*"
}

// psNamePattern reports a -Filter or -Include that picks files by name
// (*.log, build-*), not every file (*, *.*) and not a path.
func psNamePattern(p string) bool {
	if p == "" {
		return false
	}
	for _, n := range splitComma(p) {
		if n = strings.TrimSpace(n); n == "" || strings.ContainsAny(n, `\/:`) || strings.Trim(n, "*.") == "" {
			return false
		}
	}
	return true
}

// runPS analyses PowerShell source.
func (ws *winState) runPS(src string) {
	ws.psWholeLine(src)
	ws.runPSItem(src, nil)
	ws.psUploadedFiles(src)
}

// psUploadedFiles judges, once the line's statements have run, the files
// .NET's WebClient uploads: (New-Object Net.WebClient).UploadFile(URL,
// "$env:TEMP\k.zip") sends an archive the line packed from keys or the
// project.
func (ws *winState) psUploadedFiles(src string) {
	if !strings.Contains(strings.ToLower(src), ".uploadfile(") || ws.a.stop {
		return
	}
	for _, q := range psQuoted(src) {
		v := ws.psExpand(strings.Trim(q, `'"`), nil)
		p := ws.a.winAbs(v.s)
		d := ws.secret[p]
		if d == "" {
			d, _ = ws.a.winSensitive(p)
		}
		if d != "" {
			ws.emitWin(nil, "win-exfil-secrets", d+" uploaded (WebClient.UploadFile)")
			return
		}
	}
}

// psWholeLine judges objects made in one statement and used in another:
// the credential vault read, event logs listed then cleared.
func (ws *winState) psWholeLine(src string) {
	l := strings.ToLower(src)
	if strings.Contains(src, "ackageSourceCredentials") || strings.Contains(src, "ackagesourcecredentials") {
		if (strings.Contains(l, "select-xml") || strings.Contains(l, "[xml]")) && !strings.Contains(l, "| measure") {
			// NuGet.Config's packageSourceCredentials: the feeds' passwords
			ws.emitWin(nil, "win-read-secrets", "a package feed's password (NuGet.Config packageSourceCredentials)")
		}
	}
	if strings.Contains(l, "winlogon") && strings.Contains(l, "defaultpassword") && !strings.Contains(l, "remove-itemproperty") && !strings.Contains(l, "set-itemproperty") {
		ws.emitWin(nil, "win-read-secrets", "the saved log-on password (Winlogon DefaultPassword)")
	}
	if strings.Contains(l, "set-psdebug") && strings.Contains(l, "-trace") && !strings.Contains(l, "-trace 0") {
		// Set-PSDebug -Trace 2; .\scripts\Load-Secrets.ps1: every line
		// of a script that handles secrets echoed with its values
		for _, f := range strings.Fields(l[strings.Index(l, "set-psdebug"):]) {
			if b := path.Base(strings.ReplaceAll(strings.Trim(f, `"';&`), `\`, "/")); strings.HasSuffix(b, ".ps1") && hasAny(b, "secret", "prod", "cred", "token", "password", "deploy", "release") {
				ws.emitWin(nil, "secret-printed", "a script that handles secrets traced line by line ("+b+")")
				break
			}
		}
	}
	if strings.Contains(l, "identitysecuritydefaultsenforcementpolicy") && strings.Contains(strings.ReplaceAll(l, " ", ""), "isenabled=$false") {
		// the tenant's security defaults (MFA for every account) off
		ws.emitWin(nil, "win-defender-disable", "the directory's security defaults switched off")
	}
	if !strings.Contains(src, ".") || !strings.Contains(src, "(") {
		return // every case calls a method
	}
	if strings.Contains(l, "[ref].assembly.gettypes()") && strings.Contains(l, "iutils") && strings.Contains(l, ".setvalue(") {
		// [Ref].Assembly.GetTypes() | ? Name -like '*iUtils', its
		// '*Failed' field set: AMSI switched off, its names hidden
		// behind wildcards
		ws.emitWin(nil, "win-defender-disable", truncate(src, 120))
	}
	if len(l) == len(src) && strings.Contains(l, "outlook.application") && strings.Contains(l, ".send(") {
		// mail sent through Outlook's COM object: its attachments leave
		for rest := l; ; {
			i := strings.Index(rest, ".attachments.add(")
			if i < 0 {
				break
			}
			rest = rest[i+len(".attachments.add("):]
			j := strings.IndexAny(rest, ",)")
			if j < 0 {
				break
			}
			off := len(l) - len(rest)
			w := ws.psWord(strings.TrimSpace(src[off:off+j]), nil)
			if !w.ok {
				continue
			}
			p := ws.a.winAbs(w.s)
			d, _ := ws.a.winSensitive(p)
			if b := path.Base(p); d == "" && (b == ".env" || strings.HasPrefix(b, ".env.") && !strings.HasSuffix(b, ".example")) {
				d = "the environment file " + w.s
			}
			if d == "" {
				d = ws.secret[p]
			}
			if d != "" {
				ws.emitWin(nil, "win-exfil-secrets", d+" attached to a mail sent through Outlook")
				break
			}
		}
	}
	if strings.Contains(l, "passwordvault") && (strings.Contains(l, "retrievepassword") || strings.Contains(l, "retrieveall")) {
		ws.emitWin(nil, "win-vault-dump", truncate(src, 120))
	}
	if (strings.Contains(l, "readallbytes(") || strings.Contains(l, "readalltext(")) && hasAny(l, "invoke-webrequest", "invoke-restmethod", "iwr ", "irm ", "uploadstring", "uploaddata") {
		// $b = [IO.File]::ReadAllBytes('.env') ... Invoke-WebRequest
		// "http://host/?d=$b": the file's content sent
		for _, q := range psQuoted(src) {
			p := ws.a.winAbs(strings.Trim(q, `'"`))
			d, _ := ws.a.winSensitive(p)
			if b := path.Base(p); d == "" && (b == ".env" || strings.HasPrefix(b, ".env.") && !strings.HasSuffix(b, ".example")) {
				d = "the environment file " + strings.Trim(q, `'"`)
			}
			if d != "" {
				ws.emitWin(nil, "win-exfil-secrets", d+" read and sent over the network")
				break
			}
		}
	}
	if strings.Contains(l, "schedule.service") && strings.Contains(l, "registertaskdefinition") {
		ws.emitWin(nil, "win-scheduled-task-suspicious", "a task registered through the Schedule.Service COM object")
	}
	if (strings.Contains(l, "get-eventlog") || strings.Contains(l, "diagnostics.eventlog")) && strings.Contains(l, ".clear()") {
		ws.emitWin(nil, "win-log-clear", truncate(src, 120))
	}
	if (strings.Contains(l, "sockets.tcpclient") || strings.Contains(l, "sockets.socket")) && strings.Contains(l, "getstream()") ||
		strings.Contains(l, "websockets.clientwebsocket") && strings.Contains(l, ".connectasync(") {
		// a raw stream to another machine, set up over several
		// statements: a shell's channel unless the host is this one
		remote := false
		for _, q := range psQuoted(src) {
			if h := hostOf(strings.Trim(q, `'"`)); h != "" && !isLocalHost(h) {
				remote = true
			} else if ip, ok := parseIP(strings.Trim(q, `'"`)); ok && !ip.IsLoopback() {
				remote = true
			}
		}
		if remote && rawPrintJob(l) && zplReset(l) {
			ws.emitWin(nil, "label-printer-reset", truncate(src, 120))
		} else if remote && !rawPrintJob(l) {
			ws.emitWin(nil, "win-reverse-shell", truncate(src, 120))
		}
	}
	if strings.Contains(l, "smo.server") && (strings.Contains(l, ".killdatabase(") || strings.Contains(l, ".drop()") || strings.Contains(l, ".dropifexists(")) {
		// SQL Server Management Objects: a database dropped through the
		// server object, unless the server is this machine's own
		local := false
		for _, q := range psQuoted(src) {
			h := lower(strings.Trim(q, `'"`))
			if h == "." || h == "localhost" || strings.HasPrefix(h, "(localdb)") || strings.HasPrefix(h, `.\`) || strings.HasPrefix(h, "localhost\\") || h == "127.0.0.1" {
				local = true
			}
		}
		if !local {
			ws.emitWin(nil, "db-drop-database", "through SQL Server Management Objects: "+truncate(src, 100))
		}
	}
	if strings.Contains(l, "copyfromscreen(") {
		// a screen capture saved to a file: sending the file sends the
		// screen
		for i := strings.Index(l, ".save("); i >= 0; {
			arg := src[i+len(".save("):]
			if j := strings.IndexAny(arg, ",)"); j >= 0 {
				arg = arg[:j]
			}
			if w := ws.psWord(strings.TrimSpace(arg), nil); w.ok {
				ws.markSecretCopy(ws.a.winAbs(w.s), "a capture of the screen")
			}
			k := strings.Index(l[i+1:], ".save(")
			if k < 0 {
				break
			}
			i += 1 + k
		}
	}
	if strings.Contains(l, "getasynckeystate") || strings.Contains(l, "setwindowshookex") && strings.Contains(l, "13") {
		// reading every key pressed, whatever it is sent to
		ws.emitWin(nil, "win-exfil-secrets", "keystrokes read through "+map[bool]string{true: "GetAsyncKeyState", false: "a keyboard hook"}[strings.Contains(l, "getasynckeystate")])
	}
}

func (ws *winState) runPSItem(src string, item *psItem) {
	a := ws.a
	if strings.Contains(src, "ocket") || strings.Contains(src, "CPClient") || strings.Contains(src, "cpclient") || strings.Contains(src, "istener") {
		// a socket read in one statement and run in another
		l := strings.ToLower(src)
		if (strings.Contains(l, "tcpclient") || strings.Contains(l, "sockets.socket") || strings.Contains(l, "tcplistener")) && strings.Contains(l, "getstream") &&
			(strings.Contains(l, "iex") || strings.Contains(l, "invoke-expression") || strings.Contains(l, "cmd.exe") || strings.Contains(l, "powershell") || strings.Contains(l, ".write(") && !rawPrintJob(l)) {
			ws.emitWin(nil, "win-reverse-shell", truncate(src, 120))
			return
		}
	}
	for _, st := range psStatements(psTokens(src)) {
		if a.stop {
			return
		}
		ws.psStatement(st, item)
	}
}

// psCallBlock analyses a script block run with arguments: its param()
// names and $args[i] are bound to them.
func (ws *winState) psCallBlock(block string, args []word, item *psItem) {
	gs := psGroups(block)
	if len(gs) != 1 {
		return
	}
	body := strings.TrimSpace(gs[0])
	var names []string
	if l := strings.ToLower(body); strings.HasPrefix(l, "param(") || strings.HasPrefix(l, "param (") {
		open := strings.IndexByte(body, '(')
		pt := psGroupText(body[open:])
		for _, p := range strings.Split(strings.Trim(pt, "()"), ",") {
			p = strings.TrimSpace(p)
			if i := strings.LastIndexByte(p, ']'); i >= 0 {
				p = strings.TrimSpace(p[i+1:]) // [string]$p
			}
			if n, _ := psVarName(p, 0); n != "" {
				names = append(names, strings.ToLower(n))
			}
		}
		body = body[open+len(pt):]
	}
	saved := ws.vars
	ws.vars = make(map[string]word, len(saved)+len(args))
	for k, v := range saved {
		ws.vars[k] = v
	}
	for i, w := range args {
		if i < len(names) {
			ws.vars[names[i]] = w
		}
		n := "__arg" + strconv.Itoa(i)
		ws.vars[n] = w
		body = strings.ReplaceAll(body, "$args["+strconv.Itoa(i)+"]", "$"+n)
	}
	ws.psNested(body, item)
	ws.vars = saved
}

// psNested analyses code in a script block, subexpression or parenthesis.
func (ws *winState) psNested(code string, item *psItem) {
	a := ws.a
	if strings.TrimSpace(code) == "" || a.stop {
		return
	}
	if a.depth >= maxDepth {
		a.unresolved(nil, "blocks nested too deep to analyse", truncate(code, 200))
		return
	}
	a.depth++
	ws.runPSItem(code, item)
	a.depth--
}

// psGroups returns the code inside the (...), $(...), @(...) and {...} of
// a raw word, outside single-quoted strings.
func psGroups(t string) []string {
	var out []string
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch c {
		case '\'':
			i = psQuoteEnd(t, i, '\'') - 1
		case '"':
			// in a double-quoted string only $( ) runs: "a (b) c" and
			// python -c "print(len(x))" are text
			end := psQuoteEnd(t, i, '"')
			body := t[i+1 : max(i+1, min(end-1, len(t)))]
			for k := 0; k < len(body); k++ {
				switch {
				case body[k] == '`':
					k++
				case body[k] == '$' && k+1 < len(body) && body[k+1] == '(':
					g := psGroupText(body[k+1:])
					if strings.HasSuffix(g, ")") && len(g) >= 2 {
						out = append(out, g[1:len(g)-1])
					} else {
						out = append(out, g[1:])
					}
					k += len(g)
				}
			}
			i = end - 1
		case '`':
			i++
		case '(', '{':
			close := byte(')')
			if c == '{' {
				close = '}'
				if i > 0 && t[i-1] == '$' {
					// ${name}
					j := strings.IndexByte(t[i:], '}')
					if j > 0 {
						i += j
					}
					continue
				}
			}
			d := 0
			j := i
			for ; j < len(t); j++ {
				switch t[j] {
				case '\'':
					j = psQuoteEnd(t, j, '\'') - 1
				case '"':
					j = psQuoteEnd(t, j, '"') - 1
				case '(', '{':
					d++
				case ')', '}':
					d--
				}
				if d == 0 {
					break
				}
			}
			_ = close
			if j >= len(t) {
				out = append(out, t[i+1:])
				return out
			}
			if c == '{' && i > 0 && t[i-1] == '@' {
				// a hash table: its entries are key = value, and only
				// the expressions and blocks among the values run
				out = append(out, psGroups(t[i+1:j])...)
			} else {
				out = append(out, t[i+1:j])
			}
			i = j
		}
	}
	return out
}

// psWord resolves a raw PowerShell word to its value.
func (ws *winState) psWord(t string, item *psItem) word {
	if t == "" {
		return lit("")
	}
	if t[0] == '{' {
		return word{s: t, tail: len(t)}
	}
	if !strings.ContainsAny(t, "'\"`$@(") {
		return lit(t)
	}
	if lt := strings.ToLower(t); lt == "(get-psreadlineoption).historysavepath" || lt == "$((get-psreadlineoption).historysavepath)" {
		// (a script that merely mentions it, pwsh -c "Remove-Item
		// (Get-PSReadLineOption).HistorySavePath; ...", is its own text)
		if h := winNative(ws.a.winHome()); h != "" {
			return lit(h + "/appdata/roaming/microsoft/windows/powershell/psreadline/consolehost_history.txt")
		}
	}
	if t[0] == '(' || strings.HasPrefix(t, "$(") || strings.HasPrefix(t, "@(") {
		if v, ok := psConcat(t); ok {
			return lit(v)
		}
		if t[0] == '(' && strings.Contains(t, "+") {
			// ($a + $b), ($root + '\x'): known variables joined
			if v, ok := ws.psJoinedParts(t, item); ok {
				return lit(v)
			}
		}
		inner := psGroups(t)
		if len(inner) == 1 {
			in := strings.TrimSpace(inner[0])
			if len(in) >= 2 && (in[0] == '\'' || in[0] == '"') && psQuoteEnd(in, 0, in[0]) == len(in) {
				return ws.psWord(in, item)
			}
			if w, ok := ws.psJoinPath(in, item); ok {
				return w
			}
			if w, ok := ws.psFolderPath(in); ok {
				return w
			}
			if w, ok := ws.psSplitPath(in, item); ok {
				return w
			}
			switch strings.ToLower(in) {
			case "get-location", "gl", "pwd", "$pwd", "$pwd.path", "(get-location).path", "(pwd).path", "$executioncontext.sessionstate.path.currentlocation":
				return lit(".")
			}
			if f := strings.Fields(in); len(f) > 1 && strings.EqualFold(f[0], "git") {
				// Remove-Item (git ls-files -o): every file git lists,
				// which may be every file of the project
				args := make([]word, 0, len(f)-2)
				for _, s := range f[2:] {
					args = append(args, lit(s))
				}
				if f[1] == "ls-files" && lsFilesAll(args) || f[1] == "status" && statusListsAll(args) {
					return lit("*")
				}
			}
		}
		return word{s: t, tail: len(t)}
	}
	var b strings.Builder
	ok := true
	tail := 0
	unres := func(s string) {
		b.WriteString(s)
		ok = false
		tail = b.Len()
	}
	// a parameter name holds no control character: in -Fo`rce the
	// backtick hides the letter from a reader, it makes no carriage return
	param := len(t) > 1 && t[0] == '-' && (t[1] >= 'a' && t[1] <= 'z' || t[1] >= 'A' && t[1] <= 'Z' || t[1] == '`')
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch c {
		case '`':
			if i+1 < len(t) {
				i++
				if param {
					b.WriteByte(t[i])
					continue
				}
				b.WriteByte(psEscape(t[i]))
			}
		case '\'':
			end := psQuoteEnd(t, i, '\'')
			inner := t[i+1 : max(i+1, end-1)]
			b.WriteString(strings.ReplaceAll(inner, "''", "'"))
			i = end - 1
		case '"':
			end := psQuoteEnd(t, i, '"')
			inner := t[i+1 : max(i+1, end-1)]
			v := ws.psExpand(inner, item)
			start := b.Len()
			b.WriteString(v.s)
			if !v.ok {
				ok = false
				tail = start + v.tail
			}
			i = end - 1
		case '@':
			if i+1 < len(t) && (t[i+1] == '"' || t[i+1] == '\'') {
				body := t[i+2:]
				body = strings.TrimPrefix(strings.TrimPrefix(body, "\r"), "\n")
				if j := strings.LastIndex(body, "\n"+string(t[i+1])+"@"); j >= 0 {
					body = body[:j]
				}
				if t[i+1] == '"' {
					v := ws.psExpand(body, item)
					b.WriteString(v.s)
					ok = ok && v.ok
				} else {
					b.WriteString(body)
				}
				i = len(t)
				continue
			}
			b.WriteByte(c)
		case '$':
			name, end := psVarName(t, i)
			if name == "" {
				if i+1 < len(t) && t[i+1] == '(' {
					j := i + 1 + len(psGroupText(t[i+1:]))
					// "$($_.FullName)\x": a variable's value or its path
					if inner := strings.TrimSpace(t[i+2 : max(i+2, j-1)]); psSimpleVarRef.MatchString(inner) {
						if w := ws.psWord(inner, item); w.ok {
							b.WriteString(w.s)
							i = j - 1
							continue
						}
					}
					unres(t[i:j])
					i = j - 1
					continue
				}
				b.WriteByte(c)
				continue
			}
			v, known := ws.psVar(name, item)
			// member access or indexing on a variable is not resolved
			if end < len(t) && (t[end] == '.' && end+1 < len(t) && isLetters(t[end+1:end+2]) || t[end] == '[') {
				j := end
				for j < len(t) && t[j] != '\\' && t[j] != '/' && t[j] != ' ' {
					j++
				}
				member := strings.ToLower(t[end:j])
				switch {
				case known && strings.HasPrefix(member, ".fullname"):
					b.WriteString(v)
				case known && (name == "_" || strings.EqualFold(name, "psitem")) && psItemTextPart(member):
					// $_.Substring(3) over git status --porcelain: a part
					// of the item's text is one of the items
					b.WriteString(v)
				case strings.EqualFold(name, "profile") && strings.HasPrefix(member, ".allusers"):
					b.WriteString(`C:\Windows\System32\WindowsPowerShell\v1.0\profile.ps1`)
				case strings.EqualFold(name, "profile") && strings.HasPrefix(member, ".currentuser"):
					b.WriteString(v)
				default:
					unres(t[i:j])
				}
				i = j - 1
				continue
			}
			if known {
				b.WriteString(v)
			} else {
				unres(t[i:end])
			}
			i = end - 1
		default:
			b.WriteByte(c)
		}
	}
	return word{s: b.String(), ok: ok, tail: tail}
}

// psItemTextPart reports a string method that keeps part of the item's
// text (a status line's path): Substring, Trim, TrimStart, TrimEnd.
func psItemTextPart(member string) bool {
	for _, m := range [...]string{".substring(", ".trim(", ".trim()", ".trimstart(", ".trimend("} {
		if strings.HasPrefix(member, m) {
			return true
		}
	}
	return false
}

// psSimpleVarRef matches a variable alone or with its FullName: $x,
// $env:HOME, $_.FullName.
var psSimpleVarRef = regexp.MustCompile(`^\$[A-Za-z_][\w:]*(?:\.(?i:fullname))?$`)

// psFolderPath evaluates [Environment]::GetFolderPath('Name').
func (ws *winState) psFolderPath(in string) (word, bool) {
	l := strings.ToLower(in)
	l = strings.TrimPrefix(l, "[system.environment]::getfolderpath(")
	if len(l) == len(in) {
		l = strings.TrimPrefix(l, "[environment]::getfolderpath(")
		if len(l) == len(in) {
			return word{}, false
		}
	}
	name := strings.Trim(strings.TrimSuffix(strings.TrimSpace(l), ")"), `"' `)
	name = strings.TrimPrefix(name, "[environment+specialfolder]::")
	name = strings.TrimPrefix(name, "[environment+specialfolder]")
	home := ws.a.winHome()
	sub := map[string]string{"userprofile": "", "mydocuments": `\Documents`, "personal": `\Documents`, "desktop": `\Desktop`,
		"desktopdirectory": `\Desktop`, "applicationdata": `\AppData\Roaming`, "localapplicationdata": `\AppData\Local`,
		"startup": `\AppData\Roaming\Microsoft\Windows\Start Menu\Programs\Startup`, "mypictures": `\Pictures`, "favorites": `\Favorites`}
	if s, ok := sub[name]; ok && home != "" {
		return lit(home + s), true
	}
	sys := map[string]string{"windows": `C:\Windows`, "system": `C:\Windows\System32`, "systemx86": `C:\Windows\SysWOW64`,
		"programfiles": `C:\Program Files`, "programfilesx86": `C:\Program Files (x86)`, "commonapplicationdata": `C:\ProgramData`,
		"commonstartup": `C:\ProgramData\Microsoft\Windows\Start Menu\Programs\StartUp`}
	if s, ok := sys[name]; ok {
		return lit(s), true
	}
	return word{}, false
}

// psSplat records a hashtable as the parameters @name passes.
func (ws *winState) psSplat(name, raw string, item *psItem) {
	body := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(raw), "@{"), "}")
	var out []word
	for _, kv := range strings.FieldsFunc(body, func(r rune) bool { return r == ';' || r == '\n' }) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		k = strings.Trim(strings.TrimSpace(k), `"'`)
		v = strings.TrimSpace(v)
		switch strings.ToLower(v) {
		case "$true", "1":
			out = append(out, lit("-"+k))
		case "$false", "0":
		default:
			out = append(out, lit("-"+k), ws.psWord(v, item))
		}
	}
	if ws.splats == nil {
		ws.splats = map[string][]word{}
	}
	ws.splats[name] = out
}

// psArraySplat records an array of plain values, which @name passes to
// a program as its arguments: $a = @('group','delete'); az @a.
func (ws *winState) psArraySplat(name, body string, item *psItem) {
	var out []word
	for _, v := range splitOutsideQuotes(body, ',') {
		if quoted := len(v) >= 2 && (v[0] == '\'' || v[0] == '"') && v[len(v)-1] == v[0]; !quoted && strings.ContainsAny(v, "({") {
			return // a computed item: not known
		}
		out = append(out, ws.psWord(v, item))
	}
	if len(out) == 0 {
		return
	}
	if ws.splats == nil {
		ws.splats = map[string][]word{}
	}
	ws.splats[name] = out
}

// psJoinPath evaluates Join-Path and [IO.Path]::Combine of known parts.
func (ws *winState) psJoinPath(in string, item *psItem) (word, bool) {
	l := strings.ToLower(in)
	var parts []word
	switch {
	case strings.HasPrefix(l, "join-path "):
		toks := psTokens(in[len("join-path "):])
		ws2 := make([]word, 0, len(toks))
		for _, t := range toks {
			ws2 = append(ws2, ws.psWord(t.text, item))
		}
		pa := parsePSArgs(ws2, []string{"path", "childpath", "additionalchildpath"}, []string{"resolve"})
		if p, ok := pa.get("path"); ok {
			parts = append(parts, p)
		}
		if p, ok := pa.get("childpath"); ok {
			parts = append(parts, p)
		}
		parts = append(parts, pa.pos...)
	case strings.HasPrefix(l, "[io.path]::combine(") || strings.HasPrefix(l, "[system.io.path]::combine("):
		body := in[strings.IndexByte(in, '(')+1:]
		body = strings.TrimSuffix(strings.TrimSpace(body), ")")
		for _, a := range strings.Split(body, ",") {
			parts = append(parts, ws.psWord(strings.TrimSpace(a), item))
		}
	default:
		return word{}, false
	}
	if len(parts) < 2 {
		return word{}, false
	}
	var b strings.Builder
	tail := 0
	for i, p := range parts {
		if !p.ok && (i > 0 || !strings.HasPrefix(p.s, "$")) {
			return word{}, false
		}
		if i > 0 {
			b.WriteByte('\\')
		}
		b.WriteString(strings.TrimRight(p.s, `\/`))
		if !p.ok {
			tail = b.Len()
		}
	}
	if tail > 0 {
		// (Join-Path $env:BUILD_ROOT '*'): an unknown folder with a
		// literal child, judged as "$env:BUILD_ROOT\*" is
		return word{s: b.String(), tail: tail}, true
	}
	return lit(b.String()), true
}

// psConcat evaluates a parenthesised constant expression: ('ie'+'x'),
// ('{0}-{1}' -f 'Get','ChildItem'), (-join ('a','b')); see psConstEval.
func psConcat(t string) (string, bool) {
	t = strings.TrimSpace(t)
	if !strings.HasPrefix(t, "(") || !strings.HasSuffix(t, ")") {
		return "", false
	}
	return psConstEval(t)
}

// psExpressionStage reports a statement that starts with a variable
// and goes on with an operator ($_ -replace 'a','b', $x -split ','):
// an expression, which PowerShell evaluates rather than runs.
func psExpressionStage(stage []psTok) bool {
	if len(stage) < 2 {
		return false
	}
	switch strings.ToLower(stage[1].text) {
	case "-replace", "-ireplace", "-creplace", "-split", "-isplit", "-csplit", "-join", "-f", "-match", "-notmatch", "-like", "-notlike",
		"-eq", "-ne", "-gt", "-lt", "-ge", "-le", "-contains", "-notcontains", "-in", "-notin", "-as", "-is", "-isnot", "+", "-", "*", "/":
		return true
	}
	return false
}

func psGroupText(t string) string {
	d := 0
	for j := 0; j < len(t); j++ {
		switch t[j] {
		case '(', '{':
			d++
		case ')', '}':
			d--
			if d == 0 {
				return t[:j+1]
			}
		}
	}
	return t
}

func psEscape(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 't':
		return '\t'
	case 'r':
		return '\r'
	case '0':
		return 0
	}
	return c
}

// psVarName reads the variable name after the $ at i: "env:HOME",
// "HOME", "_"; end is the offset after it.
func psVarName(t string, i int) (string, int) {
	j := i + 1
	if j < len(t) && t[j] == '{' {
		k := strings.IndexByte(t[j:], '}')
		if k < 0 {
			return "", i + 1
		}
		return t[j+1 : j+k], j + k + 1
	}
	start := j
	for j < len(t) {
		c := t[j]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '?' && j == start {
			j++
			continue
		}
		if c == ':' && j+1 < len(t) && isLetters(t[j+1:j+2]) && j > start {
			j++
			continue
		}
		break
	}
	if j == start {
		return "", i + 1
	}
	return t[start:j], j
}

// psVar resolves a variable.
func (ws *winState) psVar(name string, item *psItem) (string, bool) {
	a := ws.a
	l := strings.ToLower(name)
	for _, scope := range [...]string{"using:", "script:", "global:", "local:", "private:"} {
		// $using:HOME in a job's block is the caller's $HOME; scope
		// prefixes name the same variable
		if strings.HasPrefix(l, scope) && len(l) > len(scope) {
			return ws.psVar(name[len(scope):], item)
		}
	}
	if strings.HasPrefix(l, "env:") {
		return a.envValue(l[4:])
	}
	switch l {
	case "home":
		h := winNative(a.winHome())
		return h, h != ""
	case "pwd":
		if a.cwd != "" {
			return winNative(a.cwd), true
		}
		return "", false
	case "true":
		return "True", true
	case "false":
		return "False", true
	case "null":
		return "", true
	case "profile":
		if h := winNative(a.winHome()); h != "" {
			return h + "/documents/windowspowershell/microsoft.powershell_profile.ps1", true
		}
		return "", false
	case "pshome":
		return `C:\Windows\System32\WindowsPowerShell\v1.0`, true
	case "_", "psitem":
		if item != nil && len(item.paths) == 1 {
			return item.path(a), true
		}
	}
	if v, ok := ws.vars[l]; ok && v.ok {
		return v.s, true
	}
	return "", false
}

// psExpand expands the text of a double-quoted string.
func (ws *winState) psExpand(s string, item *psItem) word {
	if !strings.ContainsAny(s, "$`") {
		return lit(s)
	}
	var b strings.Builder
	ok := true
	tail := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '`':
			if i+1 < len(s) {
				i++
				b.WriteByte(psEscape(s[i]))
			}
		case '$':
			if i+1 < len(s) && s[i+1] == '(' {
				g := psGroupText(s[i+1:])
				inner := strings.TrimSpace(g[1:max(1, len(g)-1)])
				if w, ok := ws.psFolderPath(inner); ok {
					b.WriteString(w.s)
					i += len(g)
					continue
				}
				if w, ok := ws.psJoinPath(inner, item); ok {
					b.WriteString(w.s)
					i += len(g)
					continue
				}
				if psSimpleVarRef.MatchString(inner) {
					// "$($_.FullName)\Desktop": the item's path
					if w := ws.psWord(inner, item); w.ok {
						b.WriteString(w.s)
						i += len(g)
						continue
					}
				}
				// its output becomes part of the string, judged where the
				// string goes
				ws.a.wantOut++
				ws.psNested(inner, item)
				ws.a.wantOut--
				b.WriteString("$" + g)
				ok = false
				tail = b.Len()
				i += len(g)
				continue
			}
			name, end := psVarName(s, i)
			if name == "" {
				b.WriteByte(c)
				continue
			}
			if v, known := ws.psVar(name, item); known {
				b.WriteString(v)
			} else {
				b.WriteString(s[i:end])
				ok = false
				tail = b.Len()
			}
			i = end - 1
		default:
			b.WriteByte(c)
		}
	}
	return word{s: b.String(), ok: ok, tail: tail}
}

// psStatement analyses one pipeline.
// psHashCheck reads an if statement comparing a file's hash with an
// expected one and stopping when they differ (if ((Get-FileHash $f).Hash
// -ne $exp) { throw }): the release sites' downloads are checked.
func (ws *winState) psHashCheck(l string) {
	if strings.Contains(l, "get-filehash") && (strings.Contains(l, " -ne ") || strings.Contains(l, " -eq ")) &&
		(strings.Contains(l, "throw") || strings.Contains(l, "exit")) {
		ws.a.releaseChecked()
	}
}

func (ws *winState) psStatement(st psStmt, item *psItem) {
	a := ws.a
	if len(a.released) > 0 && len(st.stages) > 0 && len(st.stages[0]) > 0 && strings.EqualFold(st.stages[0][0].text, "if") {
		ws.psHashCheck(strings.ToLower(psJoin(st.stages[0])))
	}
	if len(st.stages) > 1 && len(st.stages[0]) > 0 {
		// Get-MgGroup -Filter "displayName eq 'sg-test-pr-12'" | ...: what
		// the later stages change is the tests' own; Get-X -All | ...
		// Remove-X: every object of the kind
		switch ws.psPipelineSource(st) {
		case psSourceScratch:
			a.testTarget++
			defer func() { a.testTarget-- }()
		case psSourceEvery:
			ws.emitWin(nil, "win-cloud-bulk-change", truncate(psJoin(st.stages[0]), 120)+" | ...")
		case psSourceProduction:
			ws.emitWin(nil, "win-production-objects-removed", truncate(psJoin(st.stages[0]), 120)+" | ...")
		}
	}
	// nested code first: blocks and subexpressions in every word
	var prev flow
	var prevItem *psItem
	var stageCmds []*cmd // the pipeline's commands, for rules that look along it
	if len(st.stages) > 1 {
		stageCmds = make([]*cmd, len(st.stages))
		ws.shadowStages(st.stages, stageCmds)
	}
	for si, stage := range st.stages {
		if a.stop {
			return
		}
		if len(stage) == 0 {
			continue
		}
		first := stage[0]
		call := false
		if first.kind == psCall {
			call = true
			stage = stage[1:]
			if len(stage) == 0 {
				continue
			}
			first = stage[0]
		}
		if first.kind == psWord && !call {
			if k := strings.IndexAny(first.text, "({"); k > 0 && (isCmdName(first.text[:k]) || k == 1 && (first.text[0] == '?' || first.text[0] == '%') && first.text[k] == '{' ||
				k == 1 && (first.text[0] == '.' || first.text[0] == '&')) {
				// iex(...), while($true){...}, ?{$_}, %{...}, .(gcm ...),
				// &(...): the name or the call operator ends at the bracket
				stage = append([]psTok{{kind: psWord, text: first.text[:k]}, {kind: psWord, text: first.text[k:]}}, stage[1:]...)
				first = stage[0]
			}
		}
		ft := first.text
		if strings.IndexByte(ft, '`') >= 0 && !strings.ContainsAny(ft, "'\"$") {
			// a backtick outside quotes only escapes the next character:
			// R`e`m`o`v`e-I`t`e`m is Remove-Item
			ft = strings.ReplaceAll(ft, "`", "")
			stage = append([]psTok{{kind: psWord, text: ft}}, stage[1:]...)
		}
		// assignment: $x = value
		if !call && strings.HasPrefix(ft, "$") {
			name, end := psVarName(ft, 0)
			rest := ft[end:]
			var rhs []psTok
			switch {
			case name != "" && (strings.HasPrefix(rest, ".") || strings.HasPrefix(rest, "[")):
				// $x.Prop = v, $a[0] = v: a member set, not the variable
				raw := psJoin(stage)
				ws.psDotNetMore(raw, strings.ToLower(raw), item)
			case name != "" && (rest == "=" || rest == "+=") && len(stage) > 1:
				rhs = stage[1:]
			case name != "" && (strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, "+=")) && len(rest) > 1:
				rhs = append([]psTok{{kind: psWord, text: strings.TrimLeft(rest, "+=")}}, stage[1:]...)
			case name != "" && len(stage) > 2 && (stage[1].text == "=" || stage[1].text == "+="):
				rhs = stage[2:]
			}
			if rhs != nil {
				ws.psAssign(strings.ToLower(name), rhs, item, st, si)
				prev = flow{}
				continue
			}
		}
		if !call && (psKeyword(ft) && ws.funcs[strings.ToLower(ft)] == "" || psExprStart(ft)) {
			if raw := strings.TrimSpace(psJoin(stage)); raw == "''" || raw == `""` || strings.EqualFold(raw, "$null") {
				// '' > file, $null > file: the file is emptied
				for _, r := range st.redirs[si] {
					if op, target, _ := strings.Cut(r, " "); target != "" && !strings.Contains(op, ">>") && (winSourceFile(target) || a.winUserConfig(a.winAbs(ws.psWord(target, item).s))) {
						ws.winWipe(nil, ws.psWord(target, item)) // not a new empty file: code emptied
					}
				}
			}
			ws.psExpression(stage, item)
			prev = ws.exprFlow(stage)
			if len(st.stages) == 1 && len(st.redirs[si]) == 0 && a.wantOut == 0 && ws.inValue == 0 {
				ws.psExpressionShown(psJoin(stage), prev, item)
			}
			if si == 0 && len(st.stages) > 1 && len(st.stages[1]) > 0 {
				// $env:AWS_SECRET_ACCESS_KEY | Out-File -Append ci.log: the
				// secret kept in a file, as echo "$X" >> ci.log is (the
				// clipboard is where one value is meant to go)
				switch strings.ToLower(st.stages[1][0].text) {
				case "out-file", "set-content", "add-content", "tee-object", "tee", "ac", "sc":
					if name := ws.psEnvRead(psJoin(stage)); name != "" && secretVarName(name) {
						ws.emitWin(nil, "secret-printed", "the environment variable "+name+" into "+st.stages[1][0].text)
					}
				}
			}
			if len(st.stages) == 1 && prev.kind == flowSecret && strings.HasPrefix(ft, "[") && len(st.redirs[si]) == 0 && psReadShownWhole(psJoin(stage)) {
				// [IO.File]::ReadAllText(KEY) alone on its line: shown
				ws.emitWin(nil, "win-read-secrets", prev.what)
			}
			if len(st.stages) == 1 && len(st.redirs[si]) == 0 && a.wantOut == 0 && (ft[0] == '"' || ft[0] == '$') {
				// $s = Get-Secret X -AsPlainText; "password: $s": the
				// variable's secret shown
				if raw := strings.ToLower(psJoin(stage)); !hasAny(raw, ".length", ".count", "-eq", "-ne", "-match", "-like", "-not", ".startswith", "gethashcode", "isnullorempty", "[0..", ".substring(0,") {
					_, member, dotted := strings.Cut(raw, ".")
					if d := ws.secretVarIn(raw); d != "" && (ft[0] == '"' || !dotted || hasAny(member, "password", "token", "secret", "key", "value", "credential")) {
						// (its length, or a test of it, shows nothing; $d.id
						// is a field of what a request answered)
						ws.emitWin(nil, "win-secret-printed", d)
					}
				}
			}
			if si == 0 {
				prevItem = ws.exprItem(stage, item)
			}
			continue
		}
		if !call && (ft == "." || ft == "&") && len(stage) > 1 {
			stage = stage[1:]
			ft = stage[0].text
			call = true
		}
		machine := ""
		if canonicalPS(ft) == "invoke-command" {
			machine = psMachine(stage[1:])
		}
		// a machine named for tests (-VMName test-win11-tmp,
		// -ComputerName e2e-runner-3)
		testMachine := machine != "" && testName(machine) && !isProdName(machine)
		if testMachine {
			// a machine made for tests: what the block changes there
			// is its own
			a.throwaway++
		}
		// a production machine: what the block destroys is production's
		prodMachine := machine != "" && isProdName(machine)
		if prodMachine {
			a.prodTarget++
		}
		printer := psPrinters[canonicalPS(ft)]
		if printer {
			for _, t := range stage[1:] {
				if n := ws.cliTokenIn(t.text); n != "" {
					// $t = gh auth token; Write-Output $t
					ws.emitWin(nil, "keychain-dump", "a client's token printed ("+t.text+")")
				}
				if d := ws.secretVarIn(t.text); d != "" && psShowers[canonicalPS(ft)] && len(st.stages) == 1 && len(st.redirs[si]) == 0 && a.wantOut == 0 {
					ws.emitWin(nil, "win-secret-printed", d) // $s = Get-Secret X -AsPlainText; Write-Host $s
				}
			}
		} else {
			ws.cliTokenArgs(stage)
		}
		for _, t := range stage[1:] {
			for _, g := range psGroups(t.text) {
				if strings.HasPrefix(strings.TrimSpace(t.text), "{") && psTakesBlockItem(canonicalPS(ft)) {
					continue // run below with the pipeline item
				}
				// what a (...) or $(...) argument prints is the argument,
				// shown only by a command that prints its arguments
				value := !printer && strings.Contains(t.text, "("+g+")")
				if value {
					a.wantOut++
				}
				ws.psNested(g, item)
				if value {
					a.wantOut--
				}
			}
		}
		if testMachine {
			a.throwaway--
		}
		if prodMachine {
			a.prodTarget--
		}
		if v, ok := psConcat(ft); ok && call {
			ft = v
		} else if k := strings.Index(ft, ")("); call && k > 0 {
			// &(name)(args)
			if v, ok := psConcat(ft[:k+1]); ok {
				stage = append([]psTok{{kind: psWord, text: v}, {kind: psWord, text: ft[k+1:]}}, stage[1:]...)
				ft = v
			}
		}
		if call && strings.HasPrefix(ft, "{") && len(stage) > 1 {
			// & { param($p) ... } arg: the block sees its arguments
			args := make([]word, 0, len(stage)-1)
			for _, t := range stage[1:] {
				args = append(args, ws.psWord(t.text, item))
			}
			ws.psCallBlock(ft, args, item)
		}
		if n := psGetCommandName(ft); call && n != "" {
			ft = n // & (Get-Command git -CommandType Application) --version
		}
		if lf := strings.ToLower(strings.Trim(ft, `"'`)); strings.HasSuffix(lf, ".ps1") {
			if text := ws.batchFor(strings.Trim(ft, `"'`)); text != "" {
				// Set-Content x.ps1 "..."; .\x.ps1: what the line wrote
				// into the script runs
				a.nestedWin(text, ShellPowerShell, "script file "+ft)
			}
		}
		if strings.HasPrefix(ft, "{") || strings.HasPrefix(ft, "(") || strings.HasPrefix(ft, "$") {
			// & { ... } / & (expr) / & $var
			for _, g := range psGroups(ft) {
				ws.psNested(g, item)
			}
			if call && strings.HasPrefix(ft, "(") {
				if p := psScriptFromFile(ft); p != "" && a.inWork(a.winAbs(p)) {
					prev = flow{kind: flowUnknown}
					continue // the project's own script, read and run
				}
				if code, ok := ws.psScriptBlockCode(ft, item); ok {
					a.nestedWin(code, ShellPowerShell, "scriptblock")
					prev = flow{kind: flowUnknown}
					continue // constant code: judged as what it says
				}
				if arg, ok := psScriptBlockCreateArg(ft); ok && psDownloads(strings.ToLower(arg)) {
					// .([scriptblock]::Create((iwr $u).Content)): a download run
					ws.emitWin(nil, "remote-code-exec", "a script block made from a download: "+truncate(ft, 100))
					continue
				}
				if arg, ok := psScriptBlockCreateArg(ft); ok && psInitBlock(arg) {
					// & ([ScriptBlock]::Create((oh-my-posh init pwsh
					// --print) -join "`n")): a known tool's shell set-up
					prev = flow{kind: flowUnknown}
					continue
				}
				a.unresolved(nil, "the command name is computed ("+truncate(ft, 60)+")", ft)
				continue
			}
			if name, end := psVarName(ft, 0); call && end == len(ft) && ws.blocks[strings.ToLower(name)] != "" {
				// & $sb args: the block assigned earlier, with its arguments
				args := make([]word, 0, len(stage)-1)
				for _, t := range stage[1:] {
					args = append(args, ws.psWord(t.text, item))
				}
				ws.psCallBlock(ws.blocks[strings.ToLower(name)], args, item)
				prev = flow{kind: flowUnknown}
				continue
			}
			if strings.HasPrefix(ft, "$") && !call && psExpressionStage(stage) {
				// ($_ -replace 'namespace/',''): a value computed, no
				// command run
				prev = flow{kind: flowUnknown}
				continue
			}
			if strings.HasPrefix(ft, "$") {
				v := ws.psWord(ft, item)
				if !v.ok {
					name, _ := psVarName(ft, 0)
					switch {
					case ws.remoteVars[strings.ToLower(name)]:
						ws.emitWin(nil, "remote-code-exec", "running downloaded code held in "+ft)
						continue
					case computedDirLeaf(v) == "":
						a.unresolved(nil, "the command name is not a literal ("+truncate(ft, 60)+")", ft)
						continue
					}
					// the program is named, only its folder is computed
				} else {
					ft = v.s
				}
			} else {
				prev = flow{kind: flowUnknown}
				continue
			}
		}
		words := a.wordBuf(len(stage))
		nameWord := ws.psWord(ft, item)
		words = append(words, nameWord)
		for _, t := range stage[1:] {
			// only @name splats: lowering every word for the look-up
			// was a share of the allocations of a PowerShell line
			if len(t.text) > 1 && t.text[0] == '@' {
				if sp, ok := ws.splats[strings.ToLower(t.text[1:])]; ok {
					words = append(words, sp...)
					continue
				}
				if t.text[1] == '(' && !psCmdlet(canonicalPS(nameWord.s)) {
					// & git @('reset','--hard'): a program is given the
					// array's elements as its arguments
					if els := ws.psItemsOf(t.text, item); len(els) > 0 && !strings.Contains(t.text, "$") {
						for _, e := range els {
							words = append(words, lit(e))
						}
						continue
					}
				}
			}
			words = append(words, ws.psWord(t.text, item))
		}
		name := canonicalPS(nameWord.s)
		if al, ok := ws.aliases[strings.ToLower(nameWord.s)]; ok {
			name = canonicalPS(al)
		}
		body, ok := ws.funcs[strings.ToLower(nameWord.s)]
		if al, isAlias := ws.aliases[strings.ToLower(nameWord.s)]; !ok && isAlias {
			body, ok = ws.funcs[strings.ToLower(al)] // Set-Alias tidy Tidy-Rg
		}
		if ok && nameWord.ok {
			// a function defined earlier on the line: its body runs with
			// these arguments
			ws.psCallBlock(body, words[1:], item)
			prev = flow{kind: flowUnknown}
			continue
		}
		if !nameWord.ok {
			leaf := computedDirLeaf(nameWord)
			if leaf == "" {
				a.unresolved(nil, "the command name is not a literal ("+truncate(ft, 60)+")", ft)
				continue
			}
			// $env:JAVA_HOME\bin\java.exe: only the folder is computed,
			// the program is named
			name = canonicalPS(leaf)
		}
		c := a.newCmd()
		*c = cmd{words: words, origin: ws.origin, depth: a.depth, cwd: a.cwd, in: prev}
		c.base = nameWord.s
		c.name = name
		c.stage = si
		if stageCmds != nil {
			stageCmds[si] = c
			c.pipe = stageCmds
		}
		var redirTargets []word
		for _, r := range st.redirs[si] {
			op, target, _ := strings.Cut(r, " ")
			if target != "" {
				tw := ws.psWord(target, item)
				ws.winWrite(c, tw, strings.Contains(op, ">>"))
				redirTargets = append(redirTargets, tw)
			}
		}
		if name == "curl" || name == "wget" {
			// curl.exe is real curl: route it
			name = canonicalName(name)
			c.name = name
		}
		if name == "invoke-webrequest" && (nameWord.s == "curl" || nameWord.s == "wget") && psLooksLikeCurl(words[1:]) {
			c.name = nameWord.s
		}
		var blockItem *psItem
		if psTakesBlockItem(c.name) {
			blockItem = prevItem
			if in := psInputObject(words[1:]); in.ok && blockItem == nil {
				// -InputObject 'C:\x': the item the block runs for
				if p := a.winAbs(in.s); p != "" {
					blockItem = &psItem{paths: []string{p}, literal: true}
				}
			}
			if blockItem == nil {
				blockItem = item
			}
		}
		nextItem := ws.psCommand(c, prevItem, item, si > 0)
		if testMachine {
			a.throwaway++
		}
		if prodMachine {
			a.prodTarget++
		}
		if blockItem != nil || psTakesBlockItem(c.name) {
			for _, t := range stage[1:] {
				if strings.HasPrefix(strings.TrimSpace(t.text), "{") {
					for _, g := range psGroups(t.text) {
						if blockItem != nil && len(blockItem.paths) > 1 {
							// the block runs once per item: judge it for
							// each (a few are enough to find the worst)
							for i := range min(len(blockItem.paths), 8) {
								ws.psNested(g, blockItem.one(i))
							}
							continue
						}
						ws.psNested(g, blockItem)
					}
				}
			}
		}
		if testMachine {
			a.throwaway--
		}
		if prodMachine {
			a.prodTarget--
		}
		prevItem = nextItem
		if winRouted(c.name) {
			ws.routeWords(c)
			routedModule(a, c)
		}
		prev = ws.psOutFlow(c)
		if prev.kind == flowSecret {
			// Get-ChildItem env: > e.txt: the file holds the secret now
			for _, tw := range redirTargets {
				if tw.ok {
					ws.markSecretCopy(a.winAbs(tw.s), prev.what)
					if prev.what == "the environment" && (stageCmds == nil || !pipeFilters(stageCmds[:si+1])) && a.winPersistentFile(tw.s) {
						ws.emitWin(c, "environment-dumped-to-file", "the environment into "+tw.s)
					}
				}
			}
		}
	}
}

// shadowStages fills a pipeline's later stages with their commands as
// written (name and words, nothing expanded or run) before the first is
// judged, so that a rule judging a stage sees what its output goes
// through (| ForEach-Object { ($_ -split '=')[0] }: the names alone);
// each is replaced by the command built when its turn comes.
func (ws *winState) shadowStages(stages [][]psTok, cmds []*cmd) {
	for si := 1; si < len(stages); si++ {
		stage := stages[si]
		if len(stage) == 0 || stage[0].kind != psWord || !isCmdName(stage[0].text) {
			continue
		}
		words := make([]word, 0, len(stage))
		for _, t := range stage {
			words = append(words, lit(strings.Trim(t.text, `"'`)))
		}
		name := canonicalPS(stage[0].text)
		if al, ok := ws.aliases[strings.ToLower(stage[0].text)]; ok {
			name = canonicalPS(al)
		}
		cmds[si] = &cmd{words: words, name: name, base: stage[0].text, stage: si, pipe: cmds, origin: ws.origin, depth: ws.a.depth, cwd: ws.a.cwd}
	}
}

// psTakesBlockItem reports whether a cmdlet runs its script block once
// per pipeline item ($_).
func psTakesBlockItem(name string) bool {
	switch name {
	case "foreach-object", "where-object":
		return true
	}
	return false
}

// isCmdName reports whether s can be a command name or keyword.
func isCmdName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return s != "" && s[0] != '-' && s[0] != '.'
}

func psExprStart(t string) bool {
	if t == "" {
		return false
	}
	switch t[0] {
	case '$', '(', '[', '\'', '"', '@', '{', '!', '+':
		return true
	case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return psNumberStart(t)
	case '-':
		return len(t) > 1 && t[1] >= '0' && t[1] <= '9'
	}
	return false
}

// psNumberStart reports a token that PowerShell reads as a number (10,
// 0x1F, 1e3, 64MB, 1..10, 5+3) rather than a command whose name begins
// with a digit: 7z, 7za and 2to3 are programs.
func psNumberStart(t string) bool {
	l := strings.ToLower(t)
	if strings.HasPrefix(l, "0x") {
		return true
	}
	i := 0
	for i < len(l) && (l[i] >= '0' && l[i] <= '9' || l[i] == '.' || l[i] == '_') {
		i++
	}
	rest := l[i:]
	if rest == "" || strings.IndexByte(",+-*/%)]};|=<>", rest[0]) >= 0 {
		return true
	}
	if rest[0] == 'e' && len(rest) > 1 && (rest[1] >= '0' && rest[1] <= '9' || rest[1] == '-' || rest[1] == '+') {
		return true
	}
	for _, suf := range [...]string{"kb", "mb", "gb", "tb", "pb", "ul", "lu", "uy", "us", "l", "d", "u", "y", "s", "n"} {
		if r, ok := strings.CutPrefix(rest, suf); ok && (r == "" || strings.IndexByte(",+-*/%)]};|=<>.", r[0]) >= 0) {
			return true
		}
	}
	return false
}

// psLooksLikeCurl reports whether the arguments of curl/wget in
// PowerShell are curl's options (curl.exe) rather than Invoke-WebRequest's.
func psLooksLikeCurl(args []word) bool {
	for _, w := range args {
		s := w.s
		if strings.HasPrefix(s, "--") || len(s) == 2 && s[0] == '-' && s[1] >= 'a' && s[1] <= 'z' && strings.IndexByte("sLfkOoXdFTHIv", s[1]) >= 0 || strings.HasPrefix(s, "-fsSL") || s == "-sSL" {
			return true
		}
	}
	return false
}

// psAssign records a variable and analyses the value's code.
func (ws *winState) psAssign(name string, rhs []psTok, item *psItem, st psStmt, si int) {
	if ws.vars == nil {
		ws.vars = map[string]word{}
	}
	raw := psJoin(rhs)
	l := strings.ToLower(raw)
	delete(ws.hashtables, name)
	delete(ws.releaseVars, name)
	delete(ws.everyVars, name)
	if src := strings.TrimLeft(l, "(@ "); strings.HasPrefix(src, "get-") && psListsEvery(src) {
		if ws.everyVars == nil {
			ws.everyVars = map[string]string{}
		}
		ws.everyVars[name] = truncate(raw, 120)
	}
	if strings.HasPrefix(raw, "@{") {
		ws.psSplat(name, raw, item)
		if ws.hashtables == nil {
			ws.hashtables = map[string]string{}
		}
		ws.hashtables[name] = raw // -Headers $h reads it
	} else if strings.HasPrefix(raw, "@(") && strings.HasSuffix(raw, ")") {
		ws.psArraySplat(name, raw[2:len(raw)-1], item)
	}
	if ws.cliTokens != nil {
		delete(ws.cliTokens, name)
	}
	if psCLIToken(l) != "" {
		// $t = az account get-access-token ...; $h = @{Authorization =
		// "Bearer $(gh auth token)"}: the value is a header or token,
		// judged where it is sent
		if ws.cliTokens == nil {
			ws.cliTokens = map[string]string{}
		}
		ws.cliTokens[name] = raw
		ws.a.wantOut++
		defer func() { ws.a.wantOut-- }()
	}
	if d := ws.psSecretSource(rhs, raw, l); d != "" {
		// $s = Get-AzKeyVaultSecret ... -AsPlainText: wherever $s goes,
		// the secret goes
		if ws.secretVars == nil {
			ws.secretVars = map[string]string{}
		}
		ws.secretVars[name] = d
	} else if ws.secretVars != nil {
		delete(ws.secretVars, name)
	}
	if items := ws.psItemsOf(raw, item); len(items) > 0 {
		if ws.lists == nil {
			ws.lists = map[string][]string{}
		}
		ws.lists[name] = items // $paths = @('C:\a','D:\b'); $d = Get-ChildItem X
	} else if ws.lists != nil {
		delete(ws.lists, name)
	}
	if strings.HasPrefix(raw, "{") && len(rhs) == 1 {
		if ws.blocks == nil {
			ws.blocks = map[string]string{}
		}
		ws.blocks[name] = raw
	} else if code, ok := ws.psScriptBlockCode(raw, item); ok && strings.Contains(l, "::create(") {
		// $sb = [scriptblock]::Create('param($x) $x * 2'): the block the
		// text makes, run where $sb is called
		if ws.blocks == nil {
			ws.blocks = map[string]string{}
		}
		ws.blocks[name] = "{" + code + "}"
	} else if ws.blocks != nil {
		delete(ws.blocks, name)
	}
	if psDownloads(l) {
		if ws.remoteVars == nil {
			ws.remoteVars = map[string]bool{}
		}
		ws.remoteVars[name] = true
	}
	if strings.HasPrefix(l, "join-path ") {
		if w, ok := ws.psJoinPath(raw, item); ok {
			ws.vars[name] = w
			return
		}
	}
	if len(rhs) == 1 && !psExprStart(rhs[0].text) || len(rhs) >= 1 && !psExprStart(rhs[0].text) && !strings.HasPrefix(rhs[0].text, "-") {
		// $x = Get-Something ... : a pipeline
		sub := psStmt{stages: [][]psTok{rhs}, redirs: [][]string{nil}}
		if si+1 < len(st.stages) {
			sub.stages = append(sub.stages, st.stages[si+1:]...)
			sub.redirs = append(sub.redirs, st.redirs[si+1:]...)
		}
		ws.psStatement(sub, item)
		delete(ws.vars, name)
		return
	}
	ws.a.wantOut++ // (the value is kept, not printed)
	ws.psExpression(rhs, item)
	ws.a.wantOut--
	if v, ok := ws.psJoinedParts(raw, item); ok {
		ws.vars[name] = lit(v) // $c = 'Remove-' + 'Item'
		return
	}
	if dec, ok := psDecodeExpr(raw); ok {
		ws.vars[name] = lit(dec)
		return
	}
	if v, ok := psConstEval(raw); ok && len(rhs) > 1 {
		ws.vars[name] = lit(v) // -join ('Rem','ove-Item'), 'metI-evomeR'[-1..-11] -join ''
		return
	}
	if v, ok := psCharCodes(raw); ok {
		ws.vars[name] = lit(v) // [string]::new([char[]](65,100,...))
		return
	}
	if len(rhs) == 1 {
		v := ws.psWord(rhs[0].text, item)
		if v.ok {
			ws.vars[name] = v
			if env, ok := strings.CutPrefix(name, "env:"); ok && isVarName(env) {
				// $env:DATABASE_URL = '...': the server the programs run
				// after it connect to, and the rest of their environment
				ws.a.setVar(strings.ToUpper(env), v)
				if up := strings.ToUpper(env); tlsCheckOffVar(up, v.s) && up != "NODE_TLS_REJECT_UNAUTHORIZED" {
					// $env:GIT_SSL_NO_VERIFY = '1': for the rest of the
					// session, as export is (Node's is judged with the
					// command it precedes)
					ws.emitWin(nil, "tool-tls-off", "$env:"+env+" = "+v.s)
				}
			}
			return
		}
		if releaseURL(v) {
			if ws.releaseVars == nil {
				ws.releaseVars = map[string]bool{}
			}
			ws.releaseVars[name] = true
		}
	}
	delete(ws.vars, name)
}

// psJoinedParts evaluates a string concatenation of quoted strings and
// known variables ('Remove-' + 'Item', $a + $b); ok is false when a part
// is anything else.
func (ws *winState) psJoinedParts(raw string, item *psItem) (string, bool) {
	t := strings.TrimSpace(raw)
	for strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")") {
		t = strings.TrimSpace(t[1 : len(t)-1])
	}
	if !strings.Contains(t, "+") || strings.ContainsAny(t, "(){}[];|") {
		return "", false
	}
	var b strings.Builder
	for _, part := range strings.Split(t, "+") {
		part = strings.TrimSpace(part)
		quoted := len(part) > 1 && (part[0] == '\'' || part[0] == '"') && part[len(part)-1] == part[0] && !strings.ContainsRune(part[1:len(part)-1], rune(part[0]))
		if name, end := psVarName(part, 0); !quoted && (name == "" || end != len(part)) {
			return "", false
		}
		w := ws.psWord(part, item)
		if !w.ok {
			return "", false
		}
		b.WriteString(w.s)
	}
	return b.String(), true
}

func psJoin(ts []psTok) string {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch t.kind {
		case psCall:
			b.WriteString("&")
		default:
			b.WriteString(t.text)
		}
	}
	return b.String()
}

// psDownloads reports whether PowerShell code fetches content from the
// network.
func psDownloads(l string) bool {
	return strings.Contains(l, "downloadstring") || strings.Contains(l, "downloaddata") || strings.Contains(l, "downloadfile") ||
		strings.Contains(l, "invoke-webrequest") || strings.Contains(l, "invoke-restmethod") || strings.Contains(l, "iwr ") ||
		strings.Contains(l, "irm ") || strings.Contains(l, "(iwr") || strings.Contains(l, "(irm") || strings.Contains(l, "net.webclient") ||
		strings.Contains(l, "httpclient") || strings.Contains(l, "getstringasync") || strings.Contains(l, "start-bitstransfer") ||
		strings.Contains(l, "msxml2.xmlhttp") || strings.Contains(l, "winhttp.winhttprequest") || strings.Contains(l, "webrequest]::create") ||
		strings.Contains(l, "curl ") && strings.Contains(l, "http") || strings.Contains(l, "wget ") && strings.Contains(l, "http")
}

// psDecodeExpr decodes [Text.Encoding]::X.GetString([Convert]::FromBase64String('...')).
func psDecodeExpr(raw string) (string, bool) {
	l := strings.ToLower(raw)
	i := strings.Index(l, "frombase64string(")
	if i < 0 {
		return "", false
	}
	rest := raw[i+len("frombase64string("):]
	rest = strings.TrimLeft(rest, " ")
	if rest == "" || rest[0] != '\'' && rest[0] != '"' {
		return "", false
	}
	end := strings.IndexByte(rest[1:], rest[0])
	if end < 0 {
		return "", false
	}
	b64 := rest[1 : 1+end]
	if strings.Contains(l, "unicode") {
		return decodeUTF16Base64(b64)
	}
	b, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// psJoinedLiterals removes the joins of quoted strings from text, so
// that 'Amsi'+'Utils' reads AmsiUtils.
func psJoinedLiterals(l string) string {
	if !strings.Contains(l, "+") {
		return l
	}
	return psLiteralJoins.Replace(l)
}

var psLiteralJoins = strings.NewReplacer("'+'", "", `"+"`, "", "' + '", "", `" + "`, "", `'+"`, "", `"+'`, "")

// psCharCodes evaluates a string joined from a list of character codes:
// -join [char[]](65,100).
//
// The other spellings of the same are read too: -join ([char[]]@(65,100)),
// [string]::new([char[]](65,100)), [string]::Join with an empty
// separator, and the -join operator written after the list.
func psCharCodes(raw string) (string, bool) {
	l := strings.ToLower(strings.Join(strings.Fields(raw), ""))
	for _, pre := range [...]string{"-join", "[string]::new(", "[string]::join('',", `[string]::join("",`, "(new-objectstring(,", "[string]::concat("} {
		if r, ok := strings.CutPrefix(l, pre); ok {
			l = r
			if pre != "-join" {
				l = strings.TrimSuffix(l, ")")
			}
			break
		}
	}
	for _, suf := range [...]string{"-join''", `-join""`} {
		l = strings.TrimSuffix(l, suf)
	}
	// ( [char[]] @( ... ) ): the grouping parentheses and array
	// sub-expression say nothing of the value
	for strings.HasPrefix(l, "(") && strings.HasSuffix(l, ")") && strings.HasPrefix(l[1:], "[char[]]") {
		l = l[1 : len(l)-1]
	}
	rest, ok := strings.CutPrefix(l, "[char[]]")
	if !ok {
		return "", false
	}
	rest = strings.TrimPrefix(rest, "@")
	if !strings.HasPrefix(rest, "(") || !strings.HasSuffix(rest, ")") {
		return "", false
	}
	var b strings.Builder
	for _, f := range strings.Split(rest[1:len(rest)-1], ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 || n > 0xFFFF {
			return "", false
		}
		b.WriteRune(rune(n))
	}
	return b.String(), b.Len() > 0
}

// psExpression analyses a statement that is an expression or a keyword
// statement: nested blocks are code, and the .NET calls it makes are
// judged by what they do.
func (ws *winState) psExpression(stage []psTok, item *psItem) {
	a := ws.a
	raw := psJoin(stage)
	l := strings.ToLower(raw)
	kw := ""
	if len(stage) > 0 {
		kw = strings.ToLower(stage[0].text)
	}
	if kw == "foreach" || kw == "for" || kw == "while" || kw == "do" {
		ws.psLoopBomb(kw, raw, l)
	}
	if kw == "function" || kw == "filter" {
		ws.psFuncBomb(stage)
		ws.psDefine(raw)
	}
	if kw == "foreach" {
		ws.psForeach(raw, item)
	}
	if a.wantOut == 0 {
		ws.psPrintedSecret(raw, l)
	}
	ws.psDotNet(raw, l, item)
	for _, t := range stage {
		for _, g := range psGroups(t.text) {
			if a.stop {
				return
			}
			paren := strings.Contains(t.text, "("+g+")")
			if paren {
				ws.inValue++
			}
			ws.psNested(g, item)
			if paren {
				ws.inValue--
			}
		}
	}
}

// psPrintedSecret judges an expression statement whose value PowerShell
// prints: a secret environment variable read through .NET, or data
// decrypted with the user's DPAPI key.
func (ws *winState) psPrintedSecret(raw, l string) {
	if strings.HasPrefix(l, "[environment]::getenvironmentvariable(") || strings.HasPrefix(l, "[system.environment]::getenvironmentvariable(") {
		if qs := psQuoted(raw[strings.IndexByte(raw, '(')+1:]); len(qs) > 0 && secretVarName(qs[0]) {
			ws.emitWin(nil, "secret-printed", "the environment variable "+qs[0])
		}
		return
	}
	if strings.Contains(l, "protecteddata]::unprotect(") && !strings.Contains(l, "=") {
		ws.emitWin(nil, "secret-printed", "data decrypted with the user's DPAPI key")
	}
	// (Get-StoredCredential -Target X).GetNetworkCredential().Password, or
	// $c.GetNetworkCredential().Password: a saved password shown
	if strings.Contains(l, ".getnetworkcredential().password") && !strings.Contains(strings.SplitN(l, ".getnetworkcredential()", 2)[0], "=") &&
		!strings.Contains(l, "(get-credential") {
		ws.emitWin(nil, "secret-printed", "a saved credential's password in clear text")
	}
}

// psGroupOut is what a parenthesised command sends down the pipeline.
func (ws *winState) psGroupOut(inner string, item *psItem) flow {
	toks := psTokens(strings.TrimSpace(inner))
	if len(toks) == 0 || toks[0].kind != psWord {
		return flow{kind: flowUnknown}
	}
	words := make([]word, 0, len(toks))
	for i, t := range toks {
		if t.kind == psPipe && len(words) > 0 {
			// (Get-AzAccessToken | ConvertTo-Json): what the first stage
			// prints, reformatted by the stages after it
			c := &cmd{words: words, name: canonicalPS(words[0].s), base: words[0].s, cwd: ws.a.cwd}
			f := ws.psOutFlow(c)
			for _, rest := range psStages(toks[i+1:]) {
				if len(rest) == 0 || rest[0].kind != psWord || !psReformats[canonicalPS(rest[0].text)] {
					return flow{kind: flowUnknown}
				}
			}
			return f
		}
		if t.kind != psWord {
			return flow{kind: flowUnknown} // statements inside
		}
		words = append(words, ws.psWord(t.text, item))
	}
	c := &cmd{words: words, name: canonicalPS(words[0].s), base: words[0].s, cwd: ws.a.cwd}
	return ws.psOutFlow(c)
}

// psReformats are the cmdlets that print what they are given in another
// form: the data stays what it was.
var psReformats = map[string]bool{"convertto-json": true, "out-string": true, "convertto-csv": true, "convertto-xml": true,
	"format-list": true, "format-table": true, "select-object": true, "sort-object": true, "where-object": true, "convertto-html": true}

// psMachine returns the machine Invoke-Command is aimed at (-VMName,
// -ComputerName), or "".
func psMachine(toks []psTok) string {
	for i, t := range toks {
		if t.kind != psWord || i+1 >= len(toks) {
			continue
		}
		switch strings.ToLower(t.text) {
		case "-vmname", "-computername", "-cn":
			return strings.Trim(toks[i+1].text, `"'`)
		}
	}
	return ""
}

// psStages splits tokens at pipes.
func psStages(toks []psTok) [][]psTok {
	var out [][]psTok
	start := 0
	for i, t := range toks {
		if t.kind == psPipe {
			out = append(out, toks[start:i])
			start = i + 1
		}
	}
	return append(out, toks[start:])
}

// psLoopBomb flags endless loops that keep starting processes.
func (ws *winState) psLoopBomb(kw, raw, l string) {
	compact := strings.ReplaceAll(strings.ReplaceAll(l, " ", ""), "\t", "")
	endless := strings.Contains(compact, "while($true)") || strings.Contains(compact, "while(1)") || strings.Contains(compact, "for(;;)") ||
		strings.Contains(compact, "until($false)") || kw == "for" && strings.Contains(compact, ";;)") ||
		strings.Contains(compact, "1..1000") || strings.Contains(compact, "1..10000") || strings.Contains(compact, "1..100000")
	if !endless {
		return
	}
	spawns := psSpawns(l) || strings.Contains(l, "powershell") && strings.Contains(l, "&")
	pauses := strings.Contains(l, "start-sleep") || strings.Contains(l, "sleep ") || strings.Contains(l, "break") ||
		strings.Contains(l, "wait-job") || strings.Contains(l, "-wait") || strings.Contains(l, "return") || strings.Contains(strings.ReplaceAll(l, "-noexit", ""), "exit")
	if !spawns && !pauses && (strings.Contains(l, "+=") || strings.Contains(l, "byte[]") || strings.Contains(l, "appendalltext") || strings.Contains(l, "add-content") || strings.Contains(l, "out-file") ||
		strings.Contains(l, ">>") || strings.Contains(l, "writeallbytes") || strings.Contains(l, "new-item")) {
		ws.emitWin(nil, "win-endless-loop", truncate(raw, 120))
		return
	}
	if spawns && !pauses {
		ws.emitWin(nil, "win-fork-bomb", truncate(raw, 120))
	}
}

// psFuncBomb flags a function that starts copies of itself.
func (ws *winState) psFuncBomb(stage []psTok) {
	if len(stage) < 3 {
		return
	}
	name := strings.ToLower(stage[1].text)
	if i := strings.IndexByte(name, '{'); i >= 0 {
		name = name[:i]
	}
	body := strings.ToLower(psJoin(stage[2:]))
	if name == "" || !strings.Contains(body, name) {
		return
	}
	n := strings.Count(body, name)
	if strings.Contains(body, name+"|"+name) || strings.Contains(body, name+" | "+name) ||
		n >= 2 && (strings.Contains(body, "start-job") || strings.Contains(body, "start-process") || strings.Contains(body, "&")) {
		ws.emitWin(nil, "win-fork-bomb", "function "+name+" starts copies of itself")
	}
}

// psSearchPattern matches a quoted pattern given to a search: -Pattern,
// -match, -like and their kin.
var psSearchPattern = regexp.MustCompile(`(-pattern|-[ic]?match|-[ic]?notmatch|-[ic]?like|-[ic]?notlike|-simplematch)\s+('[^']*'|"[^"]*")`)

// psSearchPatternsOut returns lower-case code without the patterns it
// searches for.
func psSearchPatternsOut(l string) string {
	if !strings.Contains(l, "-pattern") && !strings.Contains(l, "match") && !strings.Contains(l, "like") {
		return l
	}
	return psSearchPattern.ReplaceAllString(l, "$1 ''")
}

// psDotNet judges .NET calls written in an expression.
func (ws *winState) psDotNet(raw, l string, item *psItem) {
	a := ws.a
	switch {
	case (strings.Contains(l, "net.sockets.tcpclient") || strings.Contains(l, "net.sockets.socket") || strings.Contains(l, "sockets.tcplistener")) &&
		(strings.Contains(l, "getstream") || strings.Contains(l, "iex") || strings.Contains(l, "invoke-expression") || strings.Contains(l, ".receive(")):
		ws.emitWin(nil, "win-reverse-shell", truncate(raw, 120))
	case psDownloads(l) && psExecutes(l) && psDownloads(psSearchPatternsOut(l)) && psExecutes(psSearchPatternsOut(l)):
		// (Select-String -Pattern 'iex|DownloadString' searches for the
		// words; it runs nothing)
		ws.emitWin(nil, "remote-code-exec", truncate(raw, 120))
	case strings.Contains(l, "winnt://") && strings.Contains(l, ".add(") && psAdminGroupADSI(l):
		// ([ADSI]"WinNT://host/Administrators,group").Add("WinNT://host/dev")
		ws.emitWin(nil, "win-admin-group", truncate(raw, 120))
	case strings.Contains(l, "servercertificatevalidationcallback") && psAcceptsAnyCert(l):
		// [Net.ServicePointManager]::ServerCertificateValidationCallback =
		// {$true}: every later download of the session goes unchecked
		ws.emitWin(nil, "tool-tls-off", truncate(raw, 120))
	}
	if i := strings.Index(l, "byte[]"); i >= 0 && (strings.Contains(l, "writeallbytes") || strings.Contains(l, "setlength(") || strings.Contains(l, "+=")) {
		// New-Object byte[] 50GB written out or grown in a loop: the disk
		// or the memory fills
		for _, f := range strings.FieldsFunc(l[i:], func(r rune) bool { return r == ' ' || r == '(' || r == ')' || r == ',' }) {
			if strings.HasSuffix(f, "gb") || strings.HasSuffix(f, "tb") {
				if n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSuffix(f, "gb"), "tb")); err == nil && (n >= 5 || strings.HasSuffix(f, "tb")) {
					ws.emitWin(nil, "win-disk-fill", f+" of bytes")
					break
				}
			}
		}
	}
	if strings.Contains(l, "dns]::gethost") || strings.Contains(l, "dns]::resolve") {
		// a secret in the name looked up leaves in the query
		if name := winSecretVar(raw); name != "" {
			ws.emitWin(nil, "win-exfil-secrets", "the environment variable "+name+" in a looked-up host name")
		}
	}
	if strings.Contains(l, ".upload") || strings.Contains(l, "sendasync") || strings.Contains(l, "postasync") {
		if d := psSecretExpr(l); d != "" {
			ws.emitWin(nil, "win-exfil-secrets", d)
		}
		for _, q := range psQuoted(raw) {
			p := a.winAbs(ws.psWord(q, item).s)
			if d, _ := a.winSensitive(p); d != "" {
				ws.emitWin(nil, "win-exfil-secrets", d)
				break
			}
		}
	}
	if strings.Contains(l, "frombase64string") && psExecutes(l) {
		if dec, ok := psDecodeExpr(raw); ok {
			a.nestedWin(dec, ShellPowerShell, "decoded base64 payload")
		} else {
			a.unresolved(nil, "decoded (obfuscated) code is run", truncate(raw, 200))
		}
	}
	// [IO.Directory]::Delete('C:\x', $true) / [IO.File]::Delete(...)
	// Scripting.FileSystemObject's DeleteFolder/DeleteFile delete whole
	// trees and take wildcards
	for _, api := range [...]string{"io.directory]::delete(", "io.file]::delete(", "filesystem.deletedirectory(", "filesystem]::deletedirectory(",
		"filesystem]::deletefile(", "filesystem.deletefile(", ".deletefolder("} {
		if i := strings.Index(l, api); i >= 0 {
			arg := raw[i+len(api):]
			if j := strings.IndexAny(arg, ",)"); j >= 0 {
				recursive := strings.Contains(strings.ToLower(arg[j:]), "$true") || api != "io.file]::delete(" && !strings.Contains(api, "deletefile")
				p := ws.psWord(strings.TrimSpace(arg[:j]), item)
				ws.winDelete(nil, []word{p}, recursive, false)
			}
		}
	}
	for _, api := range [...]string{"io.file]::writealltext(", "io.file]::appendalltext(", "io.file]::writeallbytes(", "io.file]::copy("} {
		if i := strings.Index(l, api); i >= 0 {
			args := raw[i+len(api):]
			if api == "io.file]::copy(" {
				if j := strings.IndexByte(args, ','); j >= 0 {
					args = args[j+1:]
				}
			}
			if j := strings.IndexAny(args, ",)"); j >= 0 {
				ws.winWrite(nil, ws.psWord(strings.TrimSpace(args[:j]), item), api == "io.file]::appendalltext(")
			}
		}
	}
	if strings.Contains(l, "setenvironmentvariable(") && strings.Contains(l, "'machine'") || strings.Contains(l, "\"machine\"") && strings.Contains(l, "setenvironmentvariable(") {
		if strings.Contains(l, "'path'") || strings.Contains(l, "\"path\"") || strings.Contains(l, "comspec") || strings.Contains(l, "psmodulepath") {
			ws.emitWin(nil, "win-system-env", truncate(raw, 120))
		}
	}
	if i := strings.Index(l, "setenvironmentvariable("); i >= 0 && strings.Contains(l[i:], ",") {
		// a saved variable that loads a profiler DLL into every .NET
		// program or lifts PowerShell's language restrictions, in any scope
		name := strings.Trim(strings.TrimSpace(l[i+len("setenvironmentvariable("):][:strings.IndexByte(l[i:], ',')-len("setenvironmentvariable(")]), `"'`)
		if envHijackValue("/environment/"+name) && name != "path" && name != "psmodulepath" && name != "comspec" {
			ws.emitWin(nil, "win-system-env", truncate(raw, 120))
		} else if rest := l[i+len("setenvironmentvariable("):]; strings.Count(rest, ",") >= 2 {
			// saved for the user or the machine, not this process only
			parts := strings.SplitN(rest, ",", 3)
			v := strings.Trim(strings.TrimSpace(parts[1]), `"'`)
			if scope := parts[2]; (strings.Contains(scope, "user") || strings.Contains(scope, "machine")) && runtimeHookVar(name, v) {
				ws.emitWin(nil, "win-env-hijack", truncate(raw, 120))
			} else if strings.Contains(scope, "user") || strings.Contains(scope, "machine") {
				if tlsCheckOffVar(strings.ToUpper(name), v) {
					ws.emitWin(nil, "tool-tls-off", truncate(raw, 120)) // checks off for every later session
				}
				if proxyVar(name) && strangerProxy(v) != "" {
					ws.emitWin(nil, "traffic-through-stranger", truncate(raw, 120)) // every later session's traffic
				}
				if secretVarName(strings.ToUpper(name)) && v != "" && !strings.HasPrefix(v, "$") && !strings.Contains(v, "(") {
					// [Environment]::SetEnvironmentVariable('STRIPE_API_KEY',
					// 'sk_live_...', 'Machine'): the secret kept in the
					// registry in clear
					if strings.Contains(scope, "machine") {
						ws.emitWin(nil, "win-secret-stored-machine-wide", name)
					} else {
						ws.emitWin(nil, "secret-stored-in-clear", name+" (the user's permanent environment)")
					}
				}
			}
		}
	}
	ws.psDotNetMore(raw, l, item)
	if strings.Contains(l, "setaccessrule") || strings.Contains(l, "addaccessrule") || strings.Contains(l, "filesystemaccessrule") {
		if psGrantsEveryone(l) {
			ws.emitWin(nil, "win-acl-everyone", truncate(raw, 120))
		}
	}
}

// psDotNetMore judges .NET and WinRT calls by what they do: raw disk
// writes, assemblies loaded from the network, logs cleared, the
// credential vault read, timestamps forged, files downloaded.
func (ws *winState) psDotNetMore(raw, l string, item *psItem) {
	if strings.IndexByte(l, '.') < 0 {
		return // every case calls a method, sets a member or names \\.\
	}
	a := ws.a
	if sql := psSQLCommandText(raw, l); sql != "" {
		// $m.CommandText = 'DELETE FROM dbo.Users'; New-Object
		// System.Data.SqlClient.SqlCommand('DROP ...', $c): the statement
		// runs on the server of the line's connection string
		server := "the-connection-string-server"
		if m := sqlServerInConn.FindStringSubmatch(a.src); m != nil {
			server = strings.TrimSpace(m[1])
		}
		a.nested("sqlcmd -S "+shellQuote(server)+" -Q "+shellQuote(sql), "SqlClient command")
	}
	if strings.Contains(l, `\\.\physicaldrive`) || strings.Contains(l, `\\.\harddisk`) || strings.Contains(l, `\\?\globalroot`) ||
		strings.Contains(l, `\\.\`) && (strings.Contains(l, `\\.\c:`) || strings.Contains(l, `\\.\d:`)) {
		if strings.Contains(l, "openwrite") || strings.Contains(l, "writeallbytes") || strings.Contains(l, "'write'") || strings.Contains(l, "readwrite") ||
			strings.Contains(l, "fileaccess]::write") || strings.Contains(l, ".write(") || strings.Contains(l, "createfile") {
			ws.emitWin(nil, "win-raw-disk-write", truncate(raw, 120))
		}
	}
	for _, api := range [...]string{"assembly]::load(", "assembly]::loadfrom(", "assembly]::unsafeloadfrom(", "assembly]::loadfile(", "assembly]::loadwithpartialname("} {
		if i := strings.Index(l, api); i >= 0 {
			arg := l[i+len(api):]
			held := false // a variable holding downloaded bytes
			if name, _ := psVarName(strings.TrimSpace(arg), 0); name != "" && ws.remoteVars[strings.ToLower(name)] {
				held = true
			}
			if held || psDownloads(arg) || strings.Contains(arg, "://") || strings.HasPrefix(strings.Trim(arg, `"' `), `\\`) && !strings.HasPrefix(strings.Trim(arg, `"' `), `\\.\`) {
				ws.emitWin(nil, "remote-code-exec", "loading an assembly from the network: "+truncate(raw, 100))
			}
		}
	}
	// [Microsoft.Win32.Registry]::CurrentUser.OpenSubKey('Software\...\Run', $true).SetValue(...):
	// the registry written through .NET is judged as reg add would be
	if i := strings.Index(l, "registry]::"); i >= 0 && strings.Contains(l, ".setvalue(") {
		hive := ""
		switch rest := l[i+len("registry]::"):]; {
		case strings.HasPrefix(rest, "currentuser"):
			hive = "hkcu"
		case strings.HasPrefix(rest, "localmachine"):
			hive = "hklm"
		}
		for _, open := range [...]string{".opensubkey(", ".createsubkey("} {
			if j := strings.Index(l, open); hive != "" && j >= 0 {
				if qs := psQuoted(strings.TrimSpace(raw[j+len(open):])); len(qs) > 0 {
					if k, ok := normRegKey(hive + `\` + qs[0]); ok {
						ws.regWrite(nil, k, "")
					}
				}
			}
		}
	}
	// AMSI switched off in the session: what it would scan runs unseen
	// ('Amsi'+'Utils'): the names split into joined strings
	if j := psJoinedLiterals(l); strings.Contains(j, "amsiutils") || strings.Contains(j, "amsiinitfailed") || strings.Contains(j, "amsicontext") && strings.Contains(j, "setvalue") {
		ws.emitWin(nil, "win-defender-disable", truncate(raw, 120))
	}
	if strings.Contains(l, ".clearlog(") || strings.Contains(l, "eventlog") && strings.Contains(l, ".clear()") {
		ws.emitWin(nil, "win-log-clear", truncate(raw, 120))
	}
	if strings.Contains(l, "passwordvault") && (strings.Contains(l, "retrievepassword") || strings.Contains(l, "retrieveall") || strings.Contains(l, ".retrieve(")) ||
		strings.Contains(l, "credenumerate") || strings.Contains(l, "credread(") {
		ws.emitWin(nil, "win-vault-dump", truncate(raw, 120))
	}
	for _, prop := range [...]string{".creationtime", ".lastwritetime", ".lastaccesstime", "]::setcreationtime", "]::setlastwritetime", "]::setlastaccesstime"} {
		i := strings.Index(l, prop)
		if i < 0 {
			continue
		}
		rest := strings.TrimLeft(strings.TrimPrefix(l[i+len(prop):], "utc"), " ")
		var val string
		switch {
		case strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "=="):
			val = rest[1:]
		case strings.HasPrefix(rest, "(") && prop[0] == ']':
			if j := strings.IndexByte(rest, ','); j >= 0 {
				val = rest[j+1:]
			}
		default:
			continue
		}
		val = strings.TrimSpace(val)
		if (strings.Contains(val, "time") || strings.Contains(val, "$")) && !strings.Contains(l, "windows") && !strings.Contains(l, "system32") &&
			!strings.Contains(l, "windir") && !strings.Contains(l, "systemroot") && !strings.Contains(l, "programdata") {
			// another file's time copied (a build keeping times in step);
			// borrowing a system file's time is what hides a dropped file
			continue
		}
		// touching a file (now) is routine; a date of the past hides it
		if val == "" || strings.HasPrefix(val, "get-date") && !strings.HasPrefix(val, "get-date ") || strings.HasPrefix(val, "(get-date)") ||
			strings.HasPrefix(val, "[datetime]::now") || strings.HasPrefix(val, "[datetime]::utcnow") || strings.HasPrefix(val, "$now") {
			continue
		}
		ws.emitWin(nil, "win-timestomp", truncate(raw, 120))
		break
	}
	// text made into code: InvokeScript('...'), [ScriptBlock]::Create(...)
	for _, api := range [...]string{".invokescript(", "scriptblock]::create(", ".newscriptblock(", ".addscript("} {
		i := strings.Index(l, api)
		if i < 0 {
			continue
		}
		arg := strings.TrimSpace(raw[i+len(api):])
		if j := strings.LastIndexByte(arg, ')'); j >= 0 && (arg[0] == '$' || arg[0] == '(') {
			arg = strings.TrimSpace(arg[:j])
			if k := strings.IndexByte(arg, ')'); k >= 0 && arg[0] == '$' {
				arg = arg[:k]
			}
		}
		if qs := psQuoted(arg); len(qs) > 0 && (arg[0] == '\'' || arg[0] == '"') {
			if w := ws.psWord(qs[0], item); w.ok {
				a.nestedWin(w.s, ShellPowerShell, strings.Trim(api, ".(]:"))
			}
			continue
		}
		if name, end := psVarName(arg, 0); name != "" {
			if ws.remoteVars[strings.ToLower(name)] {
				ws.emitWin(nil, "remote-code-exec", "running downloaded code held in $"+name)
			} else if w := ws.psWord(arg[:end], item); w.ok {
				a.nestedWin(w.s, ShellPowerShell, strings.Trim(api, ".(]:"))
			}
		}
	}
	// processes started through .NET and COM: judge the command line
	for _, api := range [...]string{"process]::start(", ".shellexecute(", ".run(", ".exec(", "win32_process]::create(", ".create("} {
		i := strings.Index(l, api)
		if i < 0 || (api == ".run(" || api == ".exec(") && !strings.Contains(l, "wscript.shell") && !strings.Contains(l, "$") ||
			api == ".create(" && !strings.Contains(l, "win32_process") {
			continue
		}
		qs := psQuoted(raw[i+len(api):])
		if len(qs) == 0 {
			continue
		}
		line := ws.psWord(qs[0], item)
		if !line.ok {
			continue
		}
		text := line.s
		if api == "process]::start(" || api == ".shellexecute(" {
			text = cmdQuote(text)
			if len(qs) > 1 {
				if ar := ws.psWord(qs[1], item); ar.ok {
					text += " " + ar.s
				}
			}
		}
		a.nestedWin(text, ShellCmd, strings.Trim(api, ".(]:"))
		break
	}
	if i := strings.Index(l, ".createshortcut("); i >= 0 {
		if qs := psQuoted(raw[i:]); len(qs) > 0 {
			ws.winWrite(nil, ws.psWord(qs[0], item), false)
		}
	}
	if i := strings.Index(l, "::writeallbytes("); i >= 0 && (strings.Contains(l, ".downloaddata(") || strings.Contains(l, "invoke-webrequest") ||
		strings.Contains(l, "iwr ") || strings.Contains(l, "getbytearrayasync(")) {
		// [IO.File]::WriteAllBytes("$env:TEMP\svc.exe", (New-Object
		// Net.WebClient).DownloadData(url)): the file is the download
		args := raw[i+len("::writeallbytes("):]
		if j := psTopComma(args); j > 0 {
			if p := a.winAbs(ws.psWord(strings.TrimSpace(args[:j]), item).s); p != "" {
				ws.markDownloaded(p)
			}
		}
	}
	if i := strings.Index(l, ".downloadfile("); i >= 0 {
		args := raw[i+len(".downloadfile("):]
		if j := strings.IndexByte(args, ','); j >= 0 {
			dst := args[j+1:]
			if k := strings.LastIndexByte(dst, ')'); k >= 0 {
				dst = dst[:k]
			}
			if p := a.winAbs(ws.psWord(strings.TrimSpace(dst), item).s); p != "" {
				ws.markDownloaded(p)
			}
		}
	}
}

// psTopComma is the index of the first comma of s outside quotes and
// brackets, or -1.
func psTopComma(s string) int {
	d := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'', '"':
			i = psQuoteEnd(s, i, s[i]) - 1
		case '(', '[', '{':
			d++
		case ')', ']', '}':
			d--
		case ',':
			if d == 0 {
				return i
			}
		}
	}
	return -1
}

// psQuoted returns the quoted strings in PowerShell code, with quotes.
func psQuoted(raw string) []string {
	var out []string
	for i := 0; i < len(raw); i++ {
		if raw[i] == '\'' || raw[i] == '"' {
			end := psQuoteEnd(raw, i, raw[i])
			out = append(out, raw[i:end])
			i = end - 1
		}
	}
	return out
}

// psExecutes reports whether code runs text as code.
func psExecutes(l string) bool {
	return strings.Contains(l, "iex") || strings.Contains(l, "invoke-expression") || strings.Contains(l, "scriptblock]::create") ||
		strings.Contains(l, "invokescript") || strings.Contains(l, "invoke-command") || strings.Contains(l, "| powershell") ||
		strings.Contains(l, "|powershell") || strings.Contains(l, "| pwsh") || strings.Contains(l, "&(") || strings.Contains(l, "& (") ||
		strings.Contains(l, ".invoke(") || strings.Contains(l, "start-process") || strings.Contains(l, "newscriptblock") ||
		strings.Contains(l, "addscript(")
}

func psGrantsEveryone(l string) bool {
	return (strings.Contains(l, "everyone") || strings.Contains(l, "s-1-1-0") || strings.Contains(l, "builtin\\users") ||
		strings.Contains(l, "authenticated users") || strings.Contains(l, "'users'") || strings.Contains(l, "\"users\"")) &&
		(strings.Contains(l, "fullcontrol") || strings.Contains(l, "modify") || strings.Contains(l, "write"))
}

// exprFlow is what an expression statement writes to the pipeline.
func (ws *winState) exprFlow(stage []psTok) flow {
	raw := psJoin(stage)
	l := strings.ToLower(raw)
	if j := strings.LastIndex(raw, ")."); len(stage) == 1 && strings.HasPrefix(raw, "(") && j > 0 && psMemberName(raw[j+2:]) {
		// (Get-AzAccessToken).Token: a member of a secret is the secret
		if f := ws.psGroupOut(raw[1:j], nil); f.kind == flowSecret {
			return f
		}
	}
	if len(stage) == 1 && strings.HasPrefix(raw, "(") && strings.HasSuffix(raw, ")") {
		// (Get-Content .env -Raw) | ...: the command's output
		if f := ws.psGroupOut(raw[1:len(raw)-1], nil); f.kind != flowUnknown && f.kind != flowNone {
			return f
		}
	}
	if strings.Contains(l, "]::getenvironmentvariables(") {
		// [Environment]::GetEnvironmentVariables('User'): every variable
		// with its value, as gci env: gives them
		return flow{kind: flowSecret, what: "the environment", crit: true}
	}
	if i := strings.Index(l, ".."); i > 0 && l[0] >= '0' && l[0] <= '9' {
		n, err := strconv.ParseFloat(strings.TrimRight(strings.Fields(l[i+2:] + " ")[0], ")"), 64)
		if err != nil || n > 200 {
			return flow{kind: flowList, what: "range " + truncate(raw, 40)}
		}
		return flow{kind: flowList, what: "range small"}
	}
	for _, api := range [...]string{"readallbytes(", "readalltext(", "readalllines(", "get-content ", "gc "} {
		if i := strings.Index(l, api); i >= 0 {
			arg := strings.TrimLeft(raw[i+len(api):], " (")
			if j := strings.IndexAny(arg, ")"); j >= 0 {
				arg = arg[:j]
			}
			p := ws.a.winAbs(ws.psWord(strings.TrimSpace(arg), nil).s)
			if d, crit := ws.a.winSensitive(p); d != "" {
				return flow{kind: flowSecret, what: d, crit: crit}
			}
		}
	}
	for i := strings.Index(l, "$env:"); i >= 0; {
		name := l[i+5:]
		if j := strings.IndexAny(name, " ,;)\"'"); j >= 0 {
			name = name[:j]
		}
		for _, sv := range secretVarNames {
			if strings.Contains(name, sv) || strings.HasSuffix(name, "_key") {
				return flow{kind: flowSecret, what: "the environment variable " + name, crit: true}
			}
		}
		k := strings.Index(l[i+5:], "$env:")
		if k < 0 {
			break
		}
		i += 5 + k
	}
	if psDownloads(l) {
		return flow{kind: flowRemote, what: truncate(raw, 80)}
	}
	if d := psSecretExpr(l); d != "" {
		return flow{kind: flowSecret, what: d, crit: true}
	}
	if len(stage) == 1 && psShellInit(raw) {
		return flow{kind: flowLocal} // (& conda shell.powershell hook): a known tool's set-up
	}
	if len(stage) == 1 {
		if name, end := psVarName(stage[0].text, 0); name != "" && end == len(stage[0].text) && ws.remoteVars[strings.ToLower(name)] {
			return flow{kind: flowRemote, what: stage[0].text}
		}
		if d := ws.secretVarIn(stage[0].text); d != "" {
			return flow{kind: flowSecret, what: d, crit: true}
		}
		if t := stage[0].text; len(t) >= 2 && (t[0] == '\'' || t[0] == '"' || t[0] == '(') {
			v := ws.psWord(t, nil)
			if v.ok {
				return flow{kind: flowText, text: v.s}
			}
		}
		if dec, ok := psDecodeExpr(raw); ok {
			return flow{kind: flowText, text: dec, obf: true}
		}
	}
	if strings.Contains(l, "frombase64string") {
		return flow{kind: flowUnknown, obf: true}
	}
	return flow{kind: flowUnknown}
}

// psReadExpr returns the file a (Get-Content FILE -Raw) expression reads.
func psReadExpr(expr string) string {
	return psScriptFromFile("([scriptblock]::create(" + strings.TrimPrefix(expr, "$") + "))")
}

// psMemberName reports a plain member name (Token, Password, Value).
func psMemberName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

// psLiteralScriptBlock returns the code of ([scriptblock]::Create('CODE'))
// made from one constant string: known code, judged as it is.
func psLiteralScriptBlock(expr string) (string, bool) {
	lit, ok := psScriptBlockCreateArg(expr)
	if !ok || len(lit) < 2 || lit[0] != '\'' && lit[0] != '"' || lit[len(lit)-1] != lit[0] {
		return "", false
	}
	body := lit[1 : len(lit)-1]
	if strings.IndexByte(body, lit[0]) >= 0 || lit[0] == '"' && strings.ContainsAny(body, "$`") {
		return "", false // more than one string, or one that expands
	}
	return body, true
}

// psScriptBlockCreateArg returns X of ([scriptblock]::Create(X)).
func psScriptBlockCreateArg(expr string) (string, bool) {
	t := strings.TrimSpace(expr)
	for strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")") {
		t = strings.TrimSpace(t[1 : len(t)-1])
	}
	const create = "[scriptblock]::create("
	if len(t) <= len(create) || !strings.EqualFold(t[:len(create)], create) || !strings.HasSuffix(t, ")") {
		return "", false
	}
	return strings.TrimSpace(t[len(create) : len(t)-1]), true
}

// psScriptFromFile returns the file a script block is made from,
// ([scriptblock]::Create((Get-Content .\build\tasks.ps1 -Raw))): running
// it is running that script.
func psScriptFromFile(expr string) string {
	l := strings.ToLower(strings.Join(strings.Fields(expr), " "))
	rest, ok := strings.CutPrefix(strings.TrimLeft(l, "( "), "[scriptblock]::create(")
	if !ok {
		return ""
	}
	rest = strings.TrimLeft(rest, "( ")
	for _, reader := range [...]string{"get-content ", "gc ", "cat ", "[io.file]::readalltext("} {
		if r, ok := strings.CutPrefix(rest, reader); ok {
			r = strings.TrimRight(r, ") ")
			r = strings.TrimSpace(strings.TrimSuffix(r, "-raw"))
			r = strings.Trim(strings.TrimSpace(r), `'"`)
			if r == "" || strings.ContainsAny(r, "$() `;|") {
				return ""
			}
			// the original spelling of the path (Windows paths are
			// case-insensitive, the lowering changes nothing)
			return r
		}
	}
	return ""
}

// computedDirLeaf returns the program a path names when only its folder
// is computed ($env:JAVA_HOME\bin\java.exe, %VSTOOLS%\VsDevCmd.bat): the
// literal last element, or "" when the name itself is computed.
func computedDirLeaf(w word) string {
	if w.tail <= 0 || w.tail > len(w.s) {
		return ""
	}
	lit := w.s[w.tail:]
	i := strings.LastIndexAny(lit, `\/`)
	if i < 0 || i == len(lit)-1 {
		return ""
	}
	leaf := lit[i+1:]
	if strings.ContainsAny(leaf, "$%!`'\"(){}") {
		return ""
	}
	if l := lower(leaf); strings.HasSuffix(l, ".com") {
		leaf = leaf[:len(leaf)-4] // format.com is format
	}
	return leaf
}

// exprItem returns the items an expression at the head of a pipeline
// passes on, when they are paths: a list of string constants, or a .NET
// listing of a folder ([IO.Directory]::GetFiles(...)).
func (ws *winState) exprItem(stage []psTok, item *psItem) *psItem {
	raw := strings.TrimSpace(psJoin(stage))
	l := strings.ToLower(raw)
	for _, api := range [...]string{"getfiles(", "enumeratefiles(", "getdirectories(", "enumeratedirectories(", "getfilesystementries(", "enumeratefilesystementries("} {
		i := strings.Index(l, "directory]::"+api)
		if i < 0 {
			continue
		}
		body := raw[i+len("directory]::")+len(api):]
		if j := strings.LastIndexByte(body, ')'); j >= 0 {
			body = body[:j]
		}
		args := psSplitArgs(body)
		if len(args) == 0 {
			return nil
		}
		w := ws.psWord(args[0], item)
		p := ws.a.winAbs(w.s)
		if !w.ok || p == "" {
			return nil
		}
		it := &psItem{paths: []string{p}, recursive: strings.Contains(l, "alldirectories")}
		if len(args) > 1 {
			it.pattern = ws.psWord(args[1], item).s
			it.filtered = true
		}
		return it
	}
	if strings.HasPrefix(raw, "@(") && strings.HasSuffix(raw, ")") {
		raw = strings.TrimSpace(raw[2 : len(raw)-1]) // @('dist', $HOME): the array's elements
	}
	if raw == "" || raw[0] != '\'' && raw[0] != '"' && raw[0] != '$' {
		return nil
	}
	it := &psItem{literal: true}
	for _, e := range psSplitArgs(raw) {
		if !psListElement(e) {
			return nil
		}
		w := ws.psWord(e, item)
		if !w.ok {
			continue // an element it cannot know; the others still pass
		}
		if p := ws.a.winAbs(w.s); p != "" && (strings.ContainsAny(w.s, `\/`) || strings.HasSuffix(w.s, ":")) {
			it.paths = append(it.paths, p)
		}
	}
	if len(it.paths) == 0 {
		return nil
	}
	return it
}

// psSplitArgs splits a comma-separated list at its top level (outside
// quotes and brackets).
func psSplitArgs(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'', '"':
			if e := psQuoteEnd(s, i, c); e > i {
				i = e - 1
			}
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" || len(out) > 0 {
		out = append(out, t)
	}
	return out
}

// psSplitPath resolves (Split-Path X), -Parent or -Leaf, and
// [IO.Path]::GetDirectoryName(X): the folder of a known path.
func (ws *winState) psSplitPath(in string, item *psItem) (word, bool) {
	l := strings.ToLower(in)
	var target word
	leaf := false
	switch {
	case strings.HasPrefix(l, "split-path "):
		toks := psTokens(in[len("split-path "):])
		ws2 := make([]word, 0, len(toks))
		for _, t := range toks {
			ws2 = append(ws2, ws.psWord(t.text, item))
		}
		pa := parsePSArgs(ws2, []string{"path", "literalpath"}, []string{"parent", "leaf", "resolve", "noqualifier", "qualifier", "isabsolute", "extension", "leafbase"})
		p := psPathArg(pa)
		if p == nil || pa.flags["noqualifier"] || pa.flags["qualifier"] || pa.flags["isabsolute"] || pa.flags["extension"] || pa.flags["leafbase"] {
			return word{}, false
		}
		target, leaf = *p, pa.flags["leaf"]
	case strings.HasPrefix(l, "[io.path]::getdirectoryname(") || strings.HasPrefix(l, "[system.io.path]::getdirectoryname("):
		body := strings.TrimSuffix(strings.TrimSpace(in[strings.IndexByte(in, '(')+1:]), ")")
		target = ws.psWord(strings.TrimSpace(body), item)
	default:
		return word{}, false
	}
	if !target.ok {
		return word{}, false
	}
	t := strings.TrimRight(target.s, `\/`)
	i := strings.LastIndexAny(t, `\/`)
	if i < 0 {
		return word{}, false
	}
	if leaf {
		return lit(t[i+1:]), true
	}
	if i == 2 && t[1] == ':' {
		return lit(t[:3]), true // C:\x: the drive's root
	}
	return lit(t[:i]), true
}

// psDefine records a function definition (function Name($a) { ... } or
// function Name { param($a) ... }) as a block its calls run with their
// arguments.
func (ws *winState) psDefine(raw string) {
	rest := strings.TrimSpace(raw[strings.IndexByte(raw, ' ')+1:])
	end := strings.IndexAny(rest, " ({")
	if end <= 0 {
		return
	}
	name := strings.ToLower(rest[:end])
	if i := strings.IndexByte(name, ':'); i >= 0 {
		name = name[i+1:] // function global:Name
	}
	rest = strings.TrimSpace(rest[end:])
	params := ""
	if strings.HasPrefix(rest, "(") {
		params = psGroupText(rest)
		rest = strings.TrimSpace(rest[len(params):])
	}
	if !strings.HasPrefix(rest, "{") {
		return
	}
	body := psGroupText(rest)
	if params != "" {
		body = "{ param" + params + " " + strings.TrimSpace(body[1:])
	}
	if ws.funcs == nil {
		ws.funcs = map[string]string{}
	}
	ws.funcs[name] = body
}

// psItemsOf returns the paths an expression lists: an array of string
// constants ('C:\a','D:\b', @(...)), a variable holding one, or a folder
// listing (Get-ChildItem X: everything in X, written X\*); nil when it is
// none of those.
func (ws *winState) psItemsOf(raw string, item *psItem) []string {
	t := strings.TrimSpace(raw)
	if strings.HasPrefix(t, "@(") && strings.HasSuffix(t, ")") {
		t = strings.TrimSpace(t[2 : len(t)-1])
	} else if strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")") && psGroupText(t) == t {
		t = strings.TrimSpace(t[1 : len(t)-1])
	}
	if t == "" {
		return nil
	}
	if name, end := psVarName(t, 0); name != "" && end == len(t) {
		return ws.lists[strings.ToLower(name)]
	}
	l := strings.ToLower(t)
	for _, pre := range [...]string{"get-childitem ", "gci ", "ls ", "dir "} {
		if !strings.HasPrefix(l, pre) || strings.ContainsAny(t, "|;") {
			continue
		}
		toks := psTokens(t[len(pre):])
		words := make([]word, 0, len(toks))
		for _, tk := range toks {
			words = append(words, ws.psWord(tk.text, item))
		}
		pa := parsePSArgs(words, []string{"path", "literalpath", "filter", "include", "exclude", "depth"}, []string{"recurse", "force", "directory", "file", "name"})
		if _, f := pa.get("filter"); f {
			return nil
		}
		if _, f := pa.get("include"); f {
			return nil
		}
		if p := psPathArg(pa); p != nil && p.ok {
			return []string{strings.TrimRight(p.s, `\/`) + `\*`}
		}
		return nil
	}
	if t[0] != '\'' && t[0] != '"' && t[0] != '$' {
		return nil
	}
	var out []string
	n := 0
	for _, e := range psSplitArgs(t) {
		if !psListElement(e) {
			return nil
		}
		n++
		w := ws.psWord(e, item)
		if !w.ok {
			continue // an element it cannot know; the others still run
		}
		out = append(out, w.s)
	}
	if n < 2 || len(out) == 0 {
		return nil
	}
	return out
}

// psListElement reports an element of a literal list: a quoted string or
// a variable ($HOME, $env:OneDrive), not an expression or a command.
func psListElement(e string) bool {
	if e == "" {
		return false
	}
	if e[0] == '\'' || e[0] == '"' {
		return true
	}
	if e[0] != '$' {
		return false
	}
	name, end := psVarName(e, 0)
	return name != "" && end == len(e)
}

// psForeach runs the body of foreach ($x in LIST) { ... } once for each
// of the first items of a list it knows, $x bound to the item.
func (ws *winState) psForeach(raw string, item *psItem) {
	open := strings.IndexByte(raw, '(')
	if open < 0 {
		return
	}
	head := psGroupText(raw[open:])
	rest := strings.TrimSpace(raw[open+len(head):])
	if !strings.HasPrefix(rest, "{") || len(head) < 2 {
		return
	}
	body := psGroupText(rest)
	inner := strings.TrimSpace(head[1 : len(head)-1])
	v, end := psVarName(inner, 0)
	if v == "" {
		return
	}
	src := strings.TrimSpace(inner[end:])
	if len(src) < 3 || !strings.EqualFold(src[:3], "in ") {
		return
	}
	if cv, _ := psVarName(strings.TrimSpace(src[3:]), 0); cv != "" && ws.everyVars[strings.ToLower(cv)] != "" && psTextDestroys(strings.ToLower(body)) {
		// foreach ($id in $ids) { Clear-X -Id $id }, $ids every object
		ws.emitWin(nil, "win-cloud-bulk-change", ws.everyVars[strings.ToLower(cv)]+"; foreach ...")
	}
	items := ws.psItemsOf(strings.TrimSpace(src[3:]), item)
	if len(items) == 0 {
		return
	}
	name := strings.ToLower(v)
	saved, had := ws.vars[name]
	if ws.vars == nil {
		ws.vars = map[string]word{}
	}
	for i, it := range items {
		if i == 8 || ws.a.stop {
			break
		}
		ws.vars[name] = lit(it)
		ws.psNested(body[1:len(body)-1], item)
	}
	if had {
		ws.vars[name] = saved
	} else {
		delete(ws.vars, name)
	}
}

// psInputObject returns the -InputObject argument of a cmdlet.
func psInputObject(args []word) word {
	for i, w := range args {
		if l := strings.ToLower(w.s); len(l) > 3 && strings.HasPrefix("-inputobject", l) && i+1 < len(args) {
			return args[i+1]
		}
	}
	return word{}
}

// psScriptBlockCode returns the code of ([scriptblock]::Create(X)) when X
// is a string constant or a variable holding one.
func (ws *winState) psScriptBlockCode(expr string, item *psItem) (string, bool) {
	if code, ok := psLiteralScriptBlock(expr); ok {
		return code, true
	}
	arg, ok := psScriptBlockCreateArg(expr)
	if !ok {
		return "", false
	}
	if w := ws.psWord(arg, item); w.ok && w.s != "" {
		return w.s, true
	}
	return "", false
}

// psSecretSource describes the secret the right-hand side of an
// assignment yields: a clear-text secret expression, a secret store read,
// a file of keys read; "" for anything else.
func (ws *winState) psSecretSource(rhs []psTok, raw, l string) string {
	if d := psSecretExpr(l); d != "" {
		return d
	}
	if d := ws.secretVarIn(raw); d != "" {
		return d // $b = [Convert]::ToBase64String($s): derived from it
	}
	if f := ws.exprFlow(rhs); f.kind == flowSecret {
		return f.what
	}
	if len(rhs) > 0 && !psExprStart(rhs[0].text) {
		if f := ws.psGroupOut(raw, nil); f.kind == flowSecret {
			return f.what
		}
	}
	return ""
}

// secretVarIn describes the secret a variable named in s holds; "" for
// none.
func (ws *winState) secretVarIn(s string) string {
	if len(ws.secretVars) == 0 || strings.IndexByte(s, '$') < 0 {
		return ""
	}
	for i := strings.IndexByte(s, '$'); i >= 0; {
		if name, _ := psVarName(s, i); name != "" {
			if d := ws.secretVars[strings.ToLower(name)]; d != "" {
				return d
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

// psGetCommandName is the program of (Get-Command NAME ...), the command
// a call operator runs when its name is looked up first, or "".
func psGetCommandName(ft string) string {
	if !strings.HasPrefix(ft, "(") || !strings.HasSuffix(ft, ")") {
		return ""
	}
	f := strings.Fields(ft[1 : len(ft)-1])
	if len(f) < 2 {
		return ""
	}
	switch strings.ToLower(f[0]) {
	case "get-command", "gcm":
	default:
		return ""
	}
	name := strings.Trim(f[1], `'"`)
	if strings.EqualFold(name, "-name") && len(f) > 2 {
		name = strings.Trim(f[2], `'"`)
	}
	if strings.ContainsAny(name, "*?") && !strings.ContainsAny(name, "$()[]{}`;|&") {
		// (gcm *ke-Ex*): a pattern that picks a command by a part of its
		// name is taken for the most dangerous command it matches
		for _, c := range psPatternTargets {
			if ok, _ := path.Match(strings.ToLower(name), c); ok {
				return c
			}
		}
		return ""
	}
	if name == "" || strings.ContainsAny(name, "$*?()[]{}`;|&") || strings.HasPrefix(name, "-") {
		return ""
	}
	return name
}

// psPatternTargets are the commands a wildcard lookup is matched
// against, the most dangerous first.
var psPatternTargets = []string{"invoke-expression", "invoke-command", "start-process", "invoke-webrequest", "invoke-restmethod",
	"remove-item", "set-mppreference", "add-mppreference", "format-volume", "clear-disk", "stop-computer", "restart-computer",
	"clear-eventlog", "remove-eventlog", "set-executionpolicy", "new-service", "register-scheduledtask", "add-localgroupmember"}

// psShowers are the printers that show their arguments on the terminal.
var psShowers = map[string]bool{"write-host": true, "write-output": true, "echo": true, "write": true, "write-information": true,
	"write-verbose": true, "write-warning": true, "write-error": true, "write-debug": true, "out-host": true}

// psPrinters are the commands that show or store their arguments as
// they are.
var psPrinters = map[string]bool{
	"write-host": true, "write-output": true, "echo": true, "write": true, "write-information": true, "write-verbose": true,
	"write-warning": true, "write-error": true, "write-debug": true, "out-host": true, "out-file": true, "set-content": true,
	"add-content": true, "tee-object": true, "out-string": true, "set-clipboard": true,
}

// cliTokenArgs judges a client's token put into a command's arguments
// ("Bearer $(gh auth token)"): sent only to its own service over https it
// signs the request in; sent elsewhere it leaves the machine; with no
// address to tell, it is a token printed as before.
func (ws *winState) cliTokenArgs(stage []psTok) {
	for k, t := range stage[1:] {
		n := psCLIToken(strings.ToLower(t.text))
		if n == "" {
			n = ws.cliTokenIn(t.text) // $t = gh auth token; git clone https://x:$t@host/r
		}
		if n == "" {
			continue
		}
		// only an Authorization (or token) header signs a request in; a
		// token in a body, a query or anything else is sent as data
		header := psAuthHeader(t.text) || k > 0 && (strings.EqualFold(stage[k].text, "-headers") || strings.EqualFold(stage[k].text, "-header"))
		if !header {
			ws.emitWin(nil, "keychain-dump", strings.Trim(t.text, `"'`))
			return
		}
		var urls []string
		for _, u := range stage[1:] {
			v := strings.Trim(u.text, `"'`)
			if i := strings.Index(strings.ToLower(v), "https://"); i >= 0 {
				urls = append(urls, v[i:])
			} else if i := strings.Index(strings.ToLower(v), "http://"); i >= 0 {
				urls = append(urls, v[i:])
			}
		}
		if len(urls) == 0 {
			ws.emitWin(nil, "keychain-dump", strings.Trim(t.text, `"'`))
			return
		}
		for _, u := range urls {
			if foreignToIssuer(n, hostOf(u)) || !issuerURL(u) {
				ws.emitWin(nil, "win-exfil-secrets", "a client's token ("+strings.TrimSuffix(n, "_token")+") sent to "+hostOf(u))
				return
			}
		}
	}
}

// psAdminGroupADSI reports an ADSI path (lower case) naming a group that
// grants administration or remote access.
func psAdminGroupADSI(l string) bool {
	for _, g := range [...]string{"/administrators", "/remote desktop users", "/remote management users", "/domain admins", "/enterprise admins", "/backup operators"} {
		if strings.Contains(l, g) {
			return true
		}
	}
	return false
}

// sqlServerInConn finds the server of an ADO.NET connection string.
var sqlServerInConn = regexp.MustCompile(`(?i)(?:server|data source|addr|address)\s*=\s*([^;'"]+)`)

// psSQLCommandText is the statement a .NET SQL command is given: its
// CommandText set, or the first argument of a new SqlCommand; "" for
// none.
func psSQLCommandText(raw, l string) string {
	i := strings.Index(l, ".commandtext")
	if i >= 0 {
		rest := strings.TrimSpace(raw[i+len(".commandtext"):])
		if !strings.HasPrefix(rest, "=") {
			return ""
		}
		rest = strings.TrimSpace(rest[1:])
		if qs := psQuoted(rest); len(qs) > 0 && strings.HasPrefix(rest, qs[0]) {
			return strings.Trim(qs[0], `'"`)
		}
		return ""
	}
	if i = strings.Index(l, "sqlclient.sqlcommand"); i >= 0 && strings.Contains(l, "new-object") {
		if qs := psQuoted(raw[i:]); len(qs) > 0 {
			return strings.Trim(qs[0], `'"`)
		}
	}
	return ""
}

// psAcceptsAnyCert reports a certificate callback (lower case) that
// accepts every certificate: { $true }, {param(...) $true}.
func psAcceptsAnyCert(l string) bool {
	i := strings.Index(l, "servercertificatevalidationcallback")
	rest := strings.TrimSpace(l[i+len("servercertificatevalidationcallback"):])
	body, ok := strings.CutPrefix(rest, "=")
	if !ok {
		return false
	}
	body = strings.TrimSpace(body)
	if !strings.HasPrefix(body, "{") {
		return false
	}
	end := strings.IndexByte(body, '}')
	if end < 0 {
		return false
	}
	inner := strings.TrimSpace(body[1:end])
	if strings.HasPrefix(inner, "param(") {
		if j := strings.IndexByte(inner, ')'); j >= 0 {
			inner = strings.TrimSpace(inner[j+1:])
		}
	}
	return inner == "$true" || inner == "return $true"
}

// What a pipeline's first stage hands on to the next ones.
const (
	psSourceOther   = iota
	psSourceScratch // objects chosen by a throwaway name
	psSourceEvery   // every object of a directory or tenant, destroyed or switched off later
	// psSourceProduction: a production machine's objects, removed later
	psSourceProduction
)

// psPipelineSource reads a pipeline whose first stage lists a service's
// objects (Get-MgGroup, Get-AzResource, Get-Team): chosen by a scratch
// name, or all of them (-All, no filter) with a later stage that removes,
// wipes, retires or disables each.
func (ws *winState) psPipelineSource(st psStmt) int {
	first := st.stages[0]
	name := strings.ToLower(first[0].text)
	if v, _ := psVarName(first[0].text, 0); v != "" && len(first) == 1 && ws.everyVars[strings.ToLower(v)] != "" {
		// $all | ForEach-Object { Remove-X ... }, $all listed before
		if psStagesDestroy(st.stages[1:]) {
			return psSourceEvery
		}
		return psSourceOther
	}
	if psListsPackages(first) {
		// winget list | ForEach-Object { winget uninstall --id ... }:
		// every installed package
		for _, stage := range st.stages[1:] {
			if strings.Contains(strings.ToLower(psJoin(stage)), "uninstall") {
				return psSourceEvery
			}
		}
		return psSourceOther
	}
	if !strings.HasPrefix(name, "get-") || len(name) < 8 {
		return psSourceOther
	}
	var args []string
	for _, t := range first[1:] {
		args = append(args, strings.ToLower(strings.Trim(t.text, `"'`)))
	}
	for _, sw := range [...]string{"filter", "displayname", "name", "identity", "search", "searchstring", "vmname", "keyprefix", "prefix", "container"} {
		if v, ok := swVal(args, sw); ok {
			if throwawayName(strings.ReplaceAll(v, "example.", "")) {
				return psSourceScratch
			}
			if sw == "vmname" && (isProdName(v) || prodMarker(v)) && psStagesDestroy(st.stages[1:]) {
				return psSourceProduction // Get-VMSnapshot -VMName sql-prod-01 | Remove-VMSnapshot
			}
			// -Filter "operatingSystem eq 'iOS'" -All: a whole class of
			// objects; a name or an id picks one
			if sw != "filter" || hasAny(v, "displayname eq", "id eq", "name eq", "mail eq", "userprincipalname eq") || !hasSw(args, "all") {
				return psSourceOther
			}
			break
		}
	}
	if !hasSw(args, "all") {
		return psSourceOther
	}
	if psStagesDestroy(st.stages[1:]) {
		return psSourceEvery
	}
	return psSourceOther
}

// psListsPackages reports a stage listing every installed package
// (winget list, choco list, Get-Package) with no name or query to narrow
// it: options only.
func psListsPackages(stage []psTok) bool {
	if len(stage) == 0 {
		return false
	}
	name := strings.ToLower(stage[0].text)
	rest := stage[1:]
	switch name {
	case "winget", "winget.exe", "choco", "scoop":
		if len(rest) == 0 || strings.ToLower(rest[0].text) != "list" {
			return false
		}
		rest = rest[1:]
	case "get-package", "get-appxpackage", "get-installedmodule":
	default:
		return false
	}
	for i := 0; i < len(rest); i++ {
		t := strings.ToLower(rest[i].text)
		switch {
		case t == "--source" || t == "-s":
			i++ // the source's name
		case strings.HasPrefix(t, "-"):
			if t == "--name" || t == "--id" || t == "-name" || t == "--query" || t == "-q" || t == "--tag" {
				return false
			}
		default:
			return false // a query narrows it
		}
	}
	return true
}

// psStagesDestroy reports pipeline stages that remove, wipe, retire or
// disable what reaches them.
func psStagesDestroy(stages [][]psTok) bool {
	for _, stage := range stages {
		if psTextDestroys(strings.ToLower(psJoin(stage))) {
			return true
		}
	}
	return false
}

// psTextDestroys reports code (lower case) that removes, wipes, retires
// or disables objects.
func psTextDestroys(l string) bool {
	return hasAny(l, "remove-", "clear-", "disable-", "revoke-", "retire", "wipe", "-state disabled", "-accountenabled $false", "-accountenabled:$false")
}

// psListsEvery reports a listing cmdlet's text (lower case, from its
// name) that asks for every object (-All) with no filter naming one.
func psListsEvery(l string) bool {
	f := strings.Fields(strings.NewReplacer("(", " ", ")", " ").Replace(l))
	if len(f) < 2 || len(f[0]) < 8 {
		return false
	}
	all := false
	for _, w := range f[1:] {
		if w == "|" {
			break
		}
		switch {
		case w == "-all" || w == "-all:$true":
			all = true
		case w == "-filter" || w == "-name" || w == "-identity" || w == "-search" || w == "-displayname" || w == "-userid" || w == "-objectid":
			return false
		}
	}
	return all
}

// psJoinTail matches what turns a program's lines into one string:
// -join "`n", | Out-String.
var (
	psJoinTail    = regexp.MustCompile("(?i)\\s*(?:-join\\s*(?:\"[^\"]*\"|'[^']*'|\\[[^\\]]*\\]::\\w+)|\\|\\s*out-string)\\s*$")
	psThemeOption = regexp.MustCompile(`(?i)(--config|--theme)\s+(?:"[^"]*"|'[^']*'|\S+)`)
)

// psInitBlock reports the text of a script block that is a well-known
// tool's printed shell set-up: (oh-my-posh init pwsh --config THEME
// --print) -join "`n".
func psInitBlock(arg string) bool {
	t := strings.TrimSpace(psJoinTail.ReplaceAllString(strings.TrimSpace(arg), ""))
	t = psThemeOption.ReplaceAllString(t, "$1 theme")
	if !strings.HasPrefix(t, "(") {
		t = "(" + t + ")"
	}
	return psShellInit(t)
}

// psEnvRead returns the environment variable a statement is no more than
// a read of ($env:NAME, ${env:NAME}, (Get-Item env:NAME).Value, with the
// name spelled through a variable: "env:$n"), or "".
func (ws *winState) psEnvRead(raw string) string {
	t := strings.TrimSpace(raw)
	for strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")") {
		t = strings.TrimSpace(t[1 : len(t)-1])
	}
	l := strings.ToLower(t)
	l = strings.TrimSuffix(l, ".trim()")
	for _, pre := range [...]string{"$env:", "${env:"} {
		if n, ok := strings.CutPrefix(l, pre); ok {
			n = strings.TrimSuffix(n, "}")
			if isVarName(n) {
				return n
			}
			return ""
		}
	}
	inner, ok := strings.CutSuffix(l, ").value")
	if !ok || !strings.HasPrefix(inner, "(") {
		return ""
	}
	f := strings.Fields(inner[1:])
	if len(f) != 2 || f[0] != "get-item" && f[0] != "gi" && f[0] != "get-childitem" && f[0] != "gci" {
		return ""
	}
	arg := f[1]
	if len(arg) > 1 && arg[0] == '"' && arg[len(arg)-1] == '"' {
		w := ws.psExpand(arg[1:len(arg)-1], nil)
		if !w.ok {
			return ""
		}
		arg = strings.ToLower(w.s)
	}
	arg = strings.Trim(arg, "'")
	n, ok := strings.CutPrefix(arg, "env:")
	n = strings.TrimLeft(n, `\/`)
	if !ok || !isVarName(n) {
		return ""
	}
	return n
}

// psExpressionShown judges an expression alone on its line, whose value
// PowerShell prints: a secret variable ($env:OPENAI_API_KEY, (Get-Item
// env:X).Value), a SecureString's or a credential's password
// ($cred.GetNetworkCredential().Password), a secrets file's lines picked
// by -match or -like ((Get-Content .env) -match 'KEY|SECRET'), the whole
// environment ([Environment]::GetEnvironmentVariables('User'); .Keys
// after it gives the names alone).
func (ws *winState) psExpressionShown(raw string, value flow, item *psItem) {
	if name := ws.psEnvRead(raw); name != "" && secretVarName(name) {
		ws.emitWin(nil, "secret-printed", "the environment variable "+name)
	}
	if strings.HasPrefix(raw, `"`) && strings.Contains(raw, "$env:") {
		// "Using client secret: $env:AZURE_CLIENT_SECRET": the string
		// shown with the value in it ($($env:X.Length): its length)
		for rest := raw; ; {
			i := strings.Index(rest, "$env:")
			if i < 0 {
				break
			}
			rest = rest[i+5:]
			j := 0
			for j < len(rest) && isIdentByte(rest[j]) {
				j++
			}
			if n := rest[:j]; secretVarName(strings.ToUpper(n)) && !strings.HasPrefix(rest[j:], ".") {
				ws.emitWin(nil, "secret-printed", "the environment variable "+n)
				break
			}
		}
	}
	l := strings.ToLower(raw)
	if d := psSecretExpr(l); (d == "a decrypted SecureString" || d == "a credential's password in clear text") && strings.HasSuffix(strings.TrimRight(l, " )"), ".password") {
		ws.emitWin(nil, "secret-printed", d)
	}
	if g := psGroups(raw); strings.HasPrefix(raw, "(") && len(g) > 0 {
		rest := strings.TrimSpace(raw[min(len(raw), len(g[0])+2):])
		op, pat, _ := strings.Cut(rest, " ")
		switch strings.ToLower(op) {
		case "-match", "-imatch", "-cmatch", "-like", "-ilike":
			if f := ws.psGroupOut(g[0], item); f.kind == flowSecret && (secretishPattern(strings.Trim(pat, `"' `)) || connectionPattern(lower(pat))) {
				ws.emitWin(nil, "secret-printed", "secret lines of "+f.what)
			}
		}
	}
	if value.kind == flowSecret && value.what == "the environment" && strings.HasSuffix(strings.TrimSpace(raw), ")") {
		ws.emitWin(nil, "secret-printed", "every environment variable with its value")
	}
}

// rawPrintJob reports a lowered script that only writes to a printer's
// raw port (9100): a label or page printed, nothing read back or run.
func rawPrintJob(l string) bool {
	return (strings.Contains(l, ", 9100)") || strings.Contains(l, ",9100)")) && !strings.Contains(l, ".read(") && !strings.Contains(l, "streamreader") &&
		!strings.Contains(l, "iex") && !strings.Contains(l, "invoke-expression") && !strings.Contains(l, "cmd.exe") && !strings.Contains(l, "process")
}
