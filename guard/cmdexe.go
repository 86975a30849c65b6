package guard

import (
	"path"
	"strconv"
	"strings"
)

// cmd.exe front end: %VAR% expansion, ^ escapes, & && || | and
// parenthesised blocks, if/for headers, and the built-ins' own switches
// (del /s /q, rd /s, start, set, cd /d).

type cKind uint8

const (
	cWord cKind = iota
	cAmp
	cAnd
	cOr
	cPipe
	cLP
	cRP
	cRedir
	cNL
)

type cTok struct {
	kind cKind
	s    string
	ok   bool // fully known (no unexpanded %VAR% or loop variable)
	// argv is the word as a program reading its command line the C
	// runtime's way receives it, when that differs from s: \" is a
	// quote in the argument, not one of cmd's ("{\"a\":1}" is {"a":1})
	argv string
}

// cmdTokens splits one cmd.exe script into tokens, after expanding the
// variables it knows.
func (ws *winState) cmdTokens(src string) []cTok {
	out := make([]cTok, 0, len(src)/5+2)
	n := len(src)
	i := 0
	for i < n {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == ',' || c == ';' && (i+1 >= n || src[i+1] == ' '):
			i++
			continue
		case c == '\r':
			i++
			continue
		case c == '\n':
			out = append(out, cTok{kind: cNL})
			i++
			continue
		case c == '&':
			if i+1 < n && src[i+1] == '&' {
				out = append(out, cTok{kind: cAnd})
				i += 2
			} else {
				out = append(out, cTok{kind: cAmp})
				i++
			}
			continue
		case c == '|':
			if i+1 < n && src[i+1] == '|' {
				out = append(out, cTok{kind: cOr})
				i += 2
			} else {
				out = append(out, cTok{kind: cPipe})
				i++
			}
			continue
		case c == '(':
			out = append(out, cTok{kind: cLP})
			i++
			continue
		case c == ')':
			out = append(out, cTok{kind: cRP})
			i++
			continue
		case c == '>' || c == '<' || (c >= '0' && c <= '9') && i+1 < n && src[i+1] == '>' && (i == 0 || src[i-1] == ' '):
			j := i
			for j < n && (src[j] == '>' || src[j] == '<' || src[j] >= '0' && src[j] <= '9' || src[j] == '&') {
				j++
			}
			out = append(out, cTok{kind: cRedir, s: src[i:j]})
			i = j
			continue
		}
		if j := plainCmdWord(src, i); j > i {
			out = append(out, cTok{kind: cWord, s: src[i:j], ok: true})
			i = j
			continue
		}
		var b strings.Builder
		ok := true
		inQ := false
		pd := 0 // parentheses opened inside the word: Everyone:(OI)(CI)F
		var escs []crtEscape
		j := i
	word:
		for j < n {
			c := src[j]
			switch {
			case c == '"':
				if k := backslashesBefore(src, i, j); k > 0 {
					escs = append(escs, crtEscape{at: b.Len(), k: k})
				}
				inQ = !inQ
				j++
				continue
			case c == '^' && !inQ && j+1 < n:
				b.WriteByte(src[j+1])
				j += 2
				continue
			case c == '%':
				v, k, known := ws.cmdPercent(src, j)
				b.WriteString(v)
				ok = ok && known
				j = k
				continue
			case c == '!' && j+1 < n:
				if k := strings.IndexByte(src[j+1:], '!'); k > 0 && !strings.ContainsAny(src[j+1:j+1+k], " \t\"") {
					name := src[j+1 : j+1+k]
					if v, ok2 := ws.cmdVar(name); ok2 {
						b.WriteString(v)
					} else {
						b.WriteString(src[j : j+2+k])
						ok = false
					}
					j += k + 2
					continue
				}
			case inQ:
				if c == '\n' {
					break word
				}
			case c == '(' && b.Len() > 0:
				pd++
			case c == ')' && pd > 0:
				pd--
			case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '&' || c == '|' || c == '<' || c == '>' || c == ')':
				break word
			case c == '(' && b.Len() == 0:
				break word
			}
			b.WriteByte(c)
			j++
		}
		if j == i {
			j++
		}
		t := cTok{kind: cWord, s: b.String(), ok: ok}
		if escs != nil {
			t.argv = crtArgv(t.s, escs)
		}
		out = append(out, t)
		i = j
	}
	return out
}

// crtEscape is a quote of a cmd word preceded by k backslashes, at byte
// at of the word as cmd reads it (quotes removed).
type crtEscape struct{ at, k int }

// backslashesBefore counts the backslashes just before src[j], back to
// the word's start i.
func backslashesBefore(src string, i, j int) int {
	k := 0
	for j-k-1 >= i && src[j-k-1] == '\\' {
		k++
	}
	return k
}

// crtArgv applies the C runtime's rule to a word cmd has read: before a
// quote, 2n backslashes are n backslashes (the quote still opens or
// closes), and 2n+1 are n backslashes and a quote kept in the argument.
func crtArgv(w string, escs []crtEscape) string {
	var b strings.Builder
	b.Grow(len(w))
	last := 0
	for _, e := range escs {
		b.WriteString(w[last : e.at-e.k])
		b.WriteString(strings.Repeat(`\`, e.k/2))
		if e.k%2 == 1 {
			b.WriteByte('"')
		}
		last = e.at
	}
	b.WriteString(w[last:])
	return b.String()
}

// plainCmdWord returns the end of the word at i when it has no quotes,
// escapes, variables or parentheses, so that it is its own text: most
// words are, and building each byte by byte was most of the allocations
// of a cmd line. It returns i otherwise, for the full reading.
func plainCmdWord(src string, i int) int {
	j := i
	for j < len(src) {
		switch src[j] {
		case ' ', '\t', '\n', '\r', '&', '|', '<', '>', ')':
			return j
		case '"', '^', '%', '!', '(':
			return i
		}
		j++
	}
	return j
}

// cmdPercent expands the %...% reference at i; it returns the text, the
// offset after it and whether it is known.
func (ws *winState) cmdPercent(src string, i int) (string, int, bool) {
	n := len(src)
	if i+1 < n && src[i+1] == '%' {
		// %%i: a for loop variable
		j := i + 2
		if j < n {
			j++
		}
		return src[i:j], j, false
	}
	if i+5 <= n && strings.EqualFold(src[i:i+5], "%~dp0") && ws.a.workDir != "" {
		// the folder of the batch file that runs: one kept in the project
		return winNative(ws.a.workDir) + `\`, i + 5, true
	}
	if i+1 < n && (src[i+1] >= '0' && src[i+1] <= '9' || src[i+1] == '*' || src[i+1] == '~') {
		j := i + 2
		for src[i+1] == '~' && j < n && isLetters(src[j:j+1]) {
			j++
		}
		if src[i+1] == '~' && j < n && (src[j] >= '0' && src[j] <= '9' || src[j] == '*') {
			j++ // %~dp0: a batch argument; %~nxr ends at its loop letter
		}
		return src[i:min(j, n)], min(j, n), false
	}
	k := strings.IndexByte(src[i+1:], '%')
	if k <= 0 || strings.ContainsAny(src[i+1:i+1+k], "\n\" \t&|<>()") {
		if i+1 < n && isDriveLetter(src[i+1]) {
			// %i: a loop variable typed at the prompt
			return src[i : i+2], i + 2, false
		}
		return "%", i + 1, true
	}
	name := src[i+1 : i+1+k]
	if c := strings.IndexByte(name, ':'); c >= 0 {
		// %X:~start,len% substrings and %X:old=new% substitutions of a
		// known value are evaluated
		if v, ok := ws.cmdVar(name[:c]); ok {
			if r, ok := cmdVarEdit(v, name[c+1:]); ok {
				return r, i + 2 + k, true
			}
		}
		return src[i : i+2+k], i + 2 + k, false
	}
	if v, ok := ws.cmdVar(name); ok {
		return v, i + 2 + k, true
	}
	if strings.Contains(name, "^") {
		// %US^ERPROFILE%: no variable has a caret in its name, and the
		// caret is only there to hide the one meant from a plain search;
		// the worse reading is the one the writer meant
		if v, ok := ws.cmdVar(strings.ReplaceAll(name, "^", "")); ok {
			return v, i + 2 + k, true
		}
	}
	return src[i : i+2+k], i + 2 + k, false
}

// cmdVarEdit applies a %X:...% edit: ~start[,len] (negative counts
// from the end) or old=new (case-insensitive, *old from the start).
func cmdVarEdit(v, edit string) (string, bool) {
	if strings.HasPrefix(edit, "~") {
		spec := strings.Split(edit[1:], ",")
		n := len(v)
		start, err := strconv.Atoi(strings.TrimSpace(spec[0]))
		if err != nil {
			return "", false
		}
		if start < 0 {
			start = max(0, n+start)
		}
		start = min(start, n)
		end := n
		if len(spec) > 1 {
			l, err := strconv.Atoi(strings.TrimSpace(spec[1]))
			if err != nil {
				return "", false
			}
			if l < 0 {
				end = max(start, n+l)
			} else {
				end = min(n, start+l)
			}
		}
		return v[start:end], true
	}
	old, repl, ok := strings.Cut(edit, "=")
	if !ok || old == "" {
		return "", false
	}
	lv, lo := strings.ToLower(v), strings.ToLower(old)
	if strings.HasPrefix(lo, "*") {
		i := strings.Index(lv, lo[1:])
		if i < 0 {
			return v, true
		}
		return repl + v[i+len(lo)-1:], true
	}
	var b strings.Builder
	for {
		i := strings.Index(lv, lo)
		if i < 0 {
			b.WriteString(v)
			return b.String(), true
		}
		b.WriteString(v[:i])
		b.WriteString(repl)
		v, lv = v[i+len(lo):], lv[i+len(lo):]
	}
}

func (ws *winState) cmdVar(name string) (string, bool) {
	if v, ok := ws.vars[strings.ToLower(name)]; ok {
		return v.s, v.ok
	}
	return ws.a.envValue(name)
}

// runCmd analyses a cmd.exe script.
func (ws *winState) runCmd(src string) {
	ws.cmdForkBomb(src)
	// each line is expanded when it is read: SET on one line is seen by
	// the next
	lines := strings.Split(src, "\n")
	for _, line := range lines {
		if ws.a.stop {
			return
		}
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "::") || strings.HasPrefix(t, ":") {
			continue
		}
		unset := ws.unsetRefs(line)
		ws.cmdSeq(ws.cmdTokens(line), nil)
		for _, n := range unset {
			if _, ok := ws.vars[n]; ok && !ws.a.stop {
				// set k=FILE&& curl -F f=@%k%: the line sees the value
				// the next time it runs in the same session
				ws.cmdSeq(ws.cmdTokens(line), nil)
				break
			}
		}
	}
}

// unsetRefs returns the %NAME% variables a line refers to that are not
// set yet (lower case).
func (ws *winState) unsetRefs(line string) []string {
	var out []string
	for rest := line; ; {
		i := strings.IndexByte(rest, '%')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(rest[i+1:], '%')
		if j < 0 {
			return out
		}
		n := strings.ToLower(rest[i+1 : i+1+j])
		if _, ok := ws.vars[n]; !ok && isVarName(n) {
			if _, env := ws.a.envValue(n); !env {
				out = append(out, n)
			}
		}
		rest = rest[i+j+2:]
	}
}

// cmdForkBomb flags batch fork bombs: %0|%0, and labels looped to with
// goto that start new processes without pausing.
func (ws *winState) cmdForkBomb(src string) {
	l := strings.ToLower(src)
	compact := strings.ReplaceAll(strings.ReplaceAll(l, " ", ""), "^", "")
	if strings.Contains(compact, "%0|%0") || strings.Contains(compact, "%~f0|%~f0") || strings.Contains(compact, "%~0|%~0") {
		ws.emitWin(nil, "win-fork-bomb", truncate(src, 120))
		return
	}
	lines := strings.Split(l, "\n")
	for i, line := range lines {
		t := strings.TrimSpace(strings.ReplaceAll(line, "&", "\n"))
		first := strings.SplitN(t, "\n", 2)[0]
		if !strings.HasPrefix(first, ":") || strings.HasPrefix(first, "::") {
			continue
		}
		label := strings.TrimSpace(strings.TrimPrefix(first, ":"))
		if label == "" {
			continue
		}
		body := strings.Join(lines[i:], "\n")
		gi := strings.Index(body, "goto "+label)
		if gi < 0 {
			gi = strings.Index(body, "goto :"+label)
		}
		if gi < 0 {
			continue
		}
		loop := body[:gi]
		spawns := strings.Contains(loop, "start ") || strings.Contains(loop, "%0") || strings.Contains(loop, "call %0") ||
			strings.Contains(loop, "start\t")
		pauses := strings.Contains(loop, "timeout") || strings.Contains(loop, "ping -n") || strings.Contains(loop, "choice ") ||
			strings.Contains(loop, "exit") || strings.Contains(loop, "pause") || strings.Contains(loop, "if ")
		if spawns && !pauses {
			ws.emitWin(nil, "win-fork-bomb", truncate(src, 120))
			return
		}
	}
}

// batchWrite records text redirected into a batch file and judges the
// file as it now reads: a batch file that starts itself in a loop is a
// fork bomb whether it names itself or %0.
func (ws *winState) batchWrite(toks []cTok, text string) {
	for i, t := range toks {
		if t.kind != cRedir || strings.HasPrefix(t.s, "<") || strings.Contains(t.s, "&") || i+1 >= len(toks) || toks[i+1].kind != cWord {
			continue
		}
		ws.batchText(toks[i+1].s, text, strings.Contains(t.s, ">>"))
	}
}

// batchText records text written to a file and, for a batch file,
// judges what it now holds.
func (ws *winState) batchText(file, text string, appendTo bool) {
	name := strings.ToLower(file)
	if j := strings.LastIndexAny(name, `\/`); j >= 0 {
		name = name[j+1:]
	}
	if ws.batch == nil {
		ws.batch = map[string]string{}
	}
	if appendTo {
		ws.batch[name] += text
	} else {
		ws.batch[name] = text
	}
	if p := ws.a.winAbs(file); p != "" {
		// what a program given the file reads (sqlcmd -i c.sql)
		if ws.a.files == nil {
			ws.a.files = make(map[string]flow)
		}
		ws.a.files[p] = flow{kind: flowText, text: ws.batch[name], what: "file written earlier (" + file + ")"}
	}
	if strings.HasSuffix(name, ".json") {
		lp, lt := strings.ToLower(strings.ReplaceAll(file, `\`, "/")), strings.ToLower(ws.batch[name])
		if d := editorAutorun(lp, lt); d != "" {
			ws.emitWin(nil, "win-write-autorun", d+": "+file)
		}
		if strings.HasSuffix(lp, "docker/config/daemon.json") || strings.HasSuffix(lp, ".docker/daemon.json") {
			// "hosts": ["tcp://0.0.0.0:2375"]: the engine's API, root on
			// the host, open to the network without TLS
			if strings.Contains(lt, "tcp://") && !strings.Contains(lt, "tcp://127.0.0.1") && !strings.Contains(lt, "tcp://localhost") && !strings.Contains(lt, "tlsverify") {
				ws.emitWin(nil, "docker-socket-open", "the Docker engine API on TCP without TLS: "+file)
			}
		}
	}
	if !strings.HasSuffix(name, ".bat") && !strings.HasSuffix(name, ".cmd") {
		return // a script another program reads (diskpart /s)
	}
	ws.cmdForkBomb(strings.ReplaceAll(strings.ToLower(ws.batch[name]), name, "%0"))
}

// editorAutorun describes editor and terminal settings (path and text
// in lower case) that run a command by themselves: a VS Code task run
// when the folder opens, a terminal profile every new terminal starts.
func editorAutorun(p, text string) string {
	switch {
	case strings.HasSuffix(p, "tasks.json") && strings.Contains(text, "folderopen"):
		return "a VS Code task run whenever the folder opens"
	case strings.HasSuffix(p, "settings.json") && (strings.Contains(text, "terminal.integrated.profiles") || strings.Contains(text, "terminal.integrated.shell") ||
		strings.Contains(text, "automationprofile")) && oddTerminalProgram(text, "path"):
		return "an editor terminal profile (the program every new terminal starts)"
	case strings.HasSuffix(p, "settings.json") && strings.Contains(p, "windowsterminal") && oddTerminalProgram(text, "commandline"):
		return "a Windows Terminal profile (the program every new tab starts)"
	}
	return ""
}

// oddTerminalProgram reports a terminal profile (JSON text, lower case)
// whose program, named after key, is no shell, or a shell given a
// command to run.
func oddTerminalProgram(text, key string) bool {
	if strings.Contains(text, `"/c"`) || strings.Contains(text, `"-c"`) || strings.Contains(text, `"-command"`) || strings.Contains(text, "-encodedcommand") ||
		strings.Contains(text, "iex") || strings.Contains(text, "http") {
		return true
	}
	for rest := text; ; {
		i := strings.Index(rest, key)
		if i < 0 {
			return false
		}
		rest = rest[i+len(key):]
		if !strings.HasPrefix(strings.TrimLeft(rest, `" `), ":") {
			continue // a word that only contains the key
		}
		// cmd's echo keeps or drops the quotes: read up to the next
		// quote, comma or brace either way
		v := strings.TrimLeft(rest, `" :`)
		if j := strings.IndexAny(v, `",}`); j >= 0 {
			v = v[:j]
		}
		v = strings.ReplaceAll(v, `\\`, "/")
		f := strings.Fields(v + " ")[0]
		if k := strings.Index(v, ".exe"); k >= 0 {
			f = v[:k+4] // C:\Program Files\Git\bin\bash.exe
		}
		if k := strings.LastIndexAny(f, `/\`); k >= 0 {
			f = f[k+1:]
		}
		switch strings.TrimSuffix(f, ".exe") {
		case "pwsh", "powershell", "cmd", "bash", "wsl", "zsh", "fish", "sh", "nu", "ubuntu", "git-bash", "%systemroot%":
			continue
		}
		return true
	}
}

// batchFor returns the text the line wrote into the batch file named by
// s, or "".
func (ws *winState) batchFor(s string) string {
	name := strings.ToLower(s)
	if j := strings.LastIndexAny(name, `\/`); j >= 0 {
		name = name[j+1:]
	}
	return ws.batch[name]
}

// cmdSeq runs a sequence of statements; it returns what the last writes.
func (ws *winState) cmdSeq(toks []cTok, in *flow) flow {
	var out flow
	start := 0
	depth := 0
	for i := 0; i <= len(toks); i++ {
		if i < len(toks) {
			switch toks[i].kind {
			case cLP:
				depth++
				continue
			case cRP:
				if depth > 0 {
					depth--
				}
				continue
			case cAmp, cAnd, cOr, cNL:
				if depth > 0 {
					continue
				}
			default:
				continue
			}
		}
		if i > start {
			f := ws.cmdPipeline(toks[start:i])
			out = mergeFlow(out, f)
		}
		start = i + 1
		if ws.a.stop {
			break
		}
	}
	return out
}

// cmdPipeline runs the stages of one pipeline.
func (ws *winState) cmdPipeline(toks []cTok) flow {
	var stages [][]cTok
	start, depth := 0, 0
	for i, t := range toks {
		switch t.kind {
		case cLP:
			depth++
		case cRP:
			if depth > 0 {
				depth--
			}
		case cPipe:
			if depth == 0 {
				stages = append(stages, toks[start:i])
				start = i + 1
			}
		}
	}
	stages = append(stages, toks[start:])
	savedStages := ws.cmdStages
	ws.cmdStages = len(stages)
	defer func() { ws.cmdStages = savedStages }()
	if l := strings.ToLower(ws.a.src); strings.Contains(l, "winlogon") && strings.Contains(l, "defaultpassword") && strings.Contains(l, "reg query") &&
		!strings.Contains(l, "reg add") && !strings.Contains(l, "reg delete") {
		// reg query ...\Winlogon | findstr DefaultPassword: the saved
		// automatic log-on password, in the clear
		ws.emitWin(nil, "win-read-secrets", "the saved log-on password (Winlogon DefaultPassword)")
	}
	if cmdWholeEnvShown(stages) && ws.a.wantOut == 0 && !ws.a.piped {
		// set, set | more: every variable with its value on the terminal
		ws.emitWin(nil, "secret-printed", "every environment variable with its value")
	}
	for si, st := range stages {
		if len(st) > 0 && st[0].kind == cWord && !st[0].ok && strings.IndexByte(st[0].s, '!') >= 0 {
			// !a!!b! -c ... | iex: the name delayed expansion reads
			if v, ok := ws.cmdDelayed(st[0].s); ok {
				st = append([]cTok{{kind: cWord, s: v, ok: true}}, st[1:]...)
			}
		}
		if si < len(stages)-1 && cmdIsCmdCommand(st) {
			// cmd /c curl URL | cmd: what the inner command prints is
			// what the next stage reads
			var parts []string
			for k := si; k < len(stages); k++ {
				var ws2 []string
				for j, t := range stages[k] {
					if t.kind == cWord && !(k == si && j <= cmdSlashC(stages[k])) {
						ws2 = append(ws2, cmdQuote(t.s))
					}
				}
				parts = append(parts, strings.Join(ws2, " "))
			}
			for k := 0; k < si; k++ {
				ws.cmdStage(stages[k], flow{}, k)
			}
			ws.a.nestedWin(strings.Join(parts, " | "), ShellCmd, "cmd /c payload")
			return flow{kind: flowUnknown}
		}
		if si < len(stages)-1 && cmdIsPwshCommand(st) {
			// powershell -c irm x | iex: the pipe was meant for PowerShell
			var parts []string
			for k := si; k < len(stages); k++ {
				var ws2 []string
				for _, t := range stages[k] {
					if t.kind == cWord {
						ws2 = append(ws2, cmdQuote(t.s))
					}
				}
				if k == si {
					i := cmdPwshPayloadStart(stages[k])
					ws2 = ws2[min(i, len(ws2)):]
				}
				parts = append(parts, strings.Join(ws2, " "))
			}
			for k := 0; k < si; k++ {
				ws.cmdStage(stages[k], flow{}, k)
			}
			ws.a.nestedWin(strings.Join(parts, " | "), ShellPowerShell, "powershell -Command payload")
			return flow{kind: flowUnknown}
		}
	}
	var prev flow
	names := make([]string, 0, len(stages))
	for si, st := range stages {
		if ws.a.stop {
			break
		}
		piped := ws.a.piped
		ws.a.piped = si < len(stages)-1
		prev = ws.cmdStage(st, prev, si)
		ws.a.piped = piped
		if len(st) > 0 {
			names = append(names, strings.ToLower(st[0].s))
		}
	}
	if len(names) == 2 && (names[0] == "%0" || names[0] == "%~f0") && names[0] == names[1] {
		ws.emitWin(nil, "win-fork-bomb", "%0|%0")
	}
	return prev
}

// cmdIsCmdCommand reports a cmd /c stage whose payload is one unquoted
// command.
func cmdIsCmdCommand(st []cTok) bool {
	if len(st) < 3 || st[0].kind != cWord {
		return false
	}
	n := strings.ToLower(st[0].s)
	if i := strings.LastIndexAny(n, `/\`); i >= 0 {
		n = n[i+1:]
	}
	if strings.TrimSuffix(n, ".exe") != "cmd" {
		return false
	}
	k := cmdSlashC(st)
	return k > 0 && k+1 < len(st) && st[k+1].kind == cWord && !strings.ContainsAny(st[k+1].s, " \t")
}

// cmdSlashC is the index of the /c or /k token of a cmd stage; 0 if none.
func cmdSlashC(st []cTok) int {
	for j, t := range st {
		if j > 0 && t.kind == cWord {
			switch strings.ToLower(t.s) {
			case "/c", "/k", "/r":
				return j
			}
			if !strings.HasPrefix(t.s, "/") {
				return 0
			}
		}
	}
	return 0
}

// cmdIsPwshCommand reports a powershell -Command stage.
func cmdIsPwshCommand(st []cTok) bool {
	if len(st) == 0 || st[0].kind != cWord {
		return false
	}
	n := strings.ToLower(st[0].s)
	if i := strings.LastIndexAny(n, `/\`); i >= 0 {
		n = n[i+1:]
	}
	n = strings.TrimSuffix(n, ".exe")
	if n != "powershell" && n != "pwsh" {
		return false
	}
	return cmdPwshPayloadStart(st) < len(st)
}

// cmdPwshPayloadStart is the index of the first word of a powershell
// -Command payload among the stage's words.
func cmdPwshPayloadStart(st []cTok) int {
	k := 0
	for _, t := range st {
		if t.kind != cWord {
			continue
		}
		k++
		l := strings.ToLower(t.s)
		if l == "-c" || l == "-command" || l == "/c" || l == "-com" {
			return k
		}
	}
	return 1 << 30
}

// cmdStage runs one pipeline stage: a block, an if/for, or a command.
func (ws *winState) cmdStage(toks []cTok, in flow, stage int) flow {
	a := ws.a
	if len(toks) == 0 {
		return flow{}
	}
	if toks[0].kind == cLP {
		depth, end := 0, len(toks)
		for i, t := range toks {
			if t.kind == cLP {
				depth++
			} else if t.kind == cRP {
				depth--
				if depth == 0 {
					end = i
					break
				}
			}
		}
		f := ws.cmdSeq(toks[1:end], &in)
		rest := toks[min(end+1, len(toks)):]
		if f.kind == flowText {
			ws.batchWrite(rest, f.text)
		}
		if len(rest) > 0 && rest[0].kind == cWord && strings.EqualFold(rest[0].s, "else") {
			ws.cmdStage(rest[1:], in, stage)
		}
		ws.cmdRedirs(nil, rest)
		return f
	}
	for len(toks) > 2 && toks[0].kind == cRedir && toks[1].kind == cWord && toks[2].kind == cWord {
		// > wipe.bat echo ...: a redirection may come first; it applies
		// as if written at the end
		toks = append(append(append([]cTok{}, toks[2:]...), toks[0]), toks[1])
	}
	if toks[0].kind != cWord {
		return flow{}
	}
	first := strings.ToLower(strings.TrimPrefix(toks[0].s, "@"))
	if first == "" && len(toks) > 1 {
		toks = toks[1:]
		first = strings.ToLower(toks[0].s)
	}
	switch first {
	case "rem", "goto", "setlocal", "endlocal", "exit", "pause", "cls", "title", "color", "chcp", "prompt", "verify", "shift":
		return flow{}
	case "if":
		return ws.cmdIf(toks[1:], in, stage)
	case "for":
		return ws.cmdFor(toks, in, stage)
	}
	words := ws.a.wordBuf(len(toks))
	var argvs []string // the C runtime's reading of each word, where it differs
	for _, t := range toks {
		if t.kind == cWord {
			if !t.ok && strings.IndexByte(t.s, '!') >= 0 {
				// delayed expansion (cmd /v:on): !name! is read when the
				// command runs, after the set earlier on the line
				if v, ok := ws.cmdDelayed(t.s); ok {
					t.s, t.ok = v, true
					if len(words) == 0 && strings.ContainsAny(strings.TrimSpace(v), " \t") {
						// !a!!b! naming the command: what the variables
						// hold is split into the command and its arguments
						for _, f := range strings.Fields(v) {
							words = append(words, lit(f))
						}
						continue
					}
				}
			}
			if t.argv != "" && argvs == nil {
				argvs = make([]string, len(words), len(toks))
			}
			if argvs != nil {
				argvs = append(argvs, t.argv)
			}
			words = append(words, word{s: t.s, ok: t.ok, tail: tailOf(t)})
		}
		if t.kind == cRedir {
			break
		}
		if t.kind == cLP || t.kind == cRP {
			// (...) among the arguments: cmd /c for /l %i in (0,0,1) ...
			if len(words) == 0 {
				break
			}
			p := "("
			if t.kind == cRP {
				p = ")"
			}
			words = append(words, lit(p))
		}
	}
	if len(words) == 0 {
		return flow{}
	}
	name0 := strings.TrimPrefix(words[0].s, "@")
	words[0].s = name0
	l := strings.ToLower(name0)
	if i := strings.LastIndexAny(l, `/\`); i >= 0 {
		l = l[i+1:]
	}
	l = strings.TrimSuffix(l, ".exe")
	// echo. cd.. dir/w
	for _, sep := range []string{".", "/"} {
		if i := strings.Index(l, sep); i > 0 && cmdOnly[l[:i]] || i > 0 && l[:i] == "echo" {
			l = l[:i]
		}
	}
	if argvs != nil && crtArgvPrograms[l] && len(argvs) == len(words) {
		// curl -d "{\"paused\":true}": the program receives {"paused":true}
		for i, v := range argvs {
			if v != "" {
				words[i].s = v
			}
		}
	}
	c := a.newCmd()
	*c = cmd{words: words, origin: ws.origin, depth: a.depth, cwd: a.cwd, in: in, stage: stage}
	c.base = name0
	c.dryRun = winHelpAsked(words[1:])
	switch l {
	case "set":
		ws.cmdSet(words[1:])
		c.name = "cmd:set"
		a.finish(c)
		if len(words) == 1 || len(words) == 2 && !strings.Contains(words[1].s, "=") && !strings.HasPrefix(words[1].s, "/") {
			// set alone lists every variable (set P: those starting with P)
			ws.secretRedirs(toks, "the environment variables")
			if len(words) == 1 {
				for i, t := range toks {
					// set > env.txt: every variable, secrets included, in a file
					if t.kind == cRedir && (strings.HasPrefix(t.s, ">") || strings.HasPrefix(t.s, "1>")) && i+1 < len(toks) && toks[i+1].kind == cWord &&
						!strings.EqualFold(toks[i+1].s, "nul") && !strings.HasPrefix(toks[i+1].s, "&") && strings.Count(a.src, toks[i+1].s[strings.LastIndexAny(toks[i+1].s, `\/`)+1:]) < 2 {
						// (set > %TEMP%\v.txt && type %TEMP%\v.txt: read back at once)
						ws.emitWin(c, "environment-dumped-to-file", "set > "+toks[i+1].s)
						break
					}
				}
			}
			if len(words) == 2 && !ws.a.piped && ws.a.wantOut == 0 && !cmdOutputRedirected(toks) &&
				(tokenServicePrefixes(words[1].s) || tokenServices[strings.ToLower(words[1].s)] || secretVarName(words[1].s)) {
				// set AWS_, set GITHUB_TOKEN: a service's credentials shown
				ws.emitWin(c, "secret-printed", "the environment variables starting "+words[1].s)
			}
			return flow{kind: flowSecret, what: "the environment variables", crit: true}
		}
		return flow{}
	case "cd", "chdir", "pushd":
		c.name = "cmd:" + l
		args := words[1:]
		if len(args) > 0 && strings.EqualFold(args[0].s, "/d") {
			args = args[1:]
		}
		if len(args) > 0 {
			p := strings.Join(wordsText(args), " ")
			if args[0].ok {
				a.cwd = a.winAbs(p)
			} else {
				a.cwd = ""
			}
			ws.shareCwd = ""
			if t := strings.Trim(p, `"`); strings.HasPrefix(t, `\\`) && !strings.HasPrefix(t, `\\?\`) && !strings.HasPrefix(t, `\\.\`) {
				ws.shareCwd = t
			}
		}
		a.finish(c)
		return flow{}
	case "echo":
		c.name = "cmd:echo"
		if strings.TrimSpace(strings.Join(wordsText(words[1:]), " ")) == "" && len(name0) > 4 {
			// echo. > file: the file holds one empty line
			for i, t := range toks {
				if t.kind == cRedir && t.s == ">" && i+1 < len(toks) && winSourceFile(toks[i+1].s) {
					ws.winWipe(c, word{s: toks[i+1].s, ok: toks[i+1].ok}) // not a new empty file: code emptied
				}
			}
		}
		if !cmdLocalHostsAppend(toks, strings.Join(wordsText(words[1:]), " ")) {
			ws.cmdRedirs(c, toks)
		}
		ws.batchWrite(toks, strings.Join(wordsText(words[1:]), " ")+"\n")
		a.finish(c)
		return flow{kind: flowText, text: strings.Join(wordsText(words[1:]), " ") + "\n"}
	case "start":
		c.name = "cmd:start"
		a.finish(c)
		ws.cmdStart(c, words[1:])
		return flow{}
	case "call":
		if len(words) > 1 && !strings.HasPrefix(words[1].s, ":") {
			if text := ws.batchFor(words[1].s); text != "" {
				// a batch file the line wrote: what it holds runs
				a.nestedWin(text, ShellCmd, "batch file "+words[1].s)
			}
			// call expands %x% once more when it runs: a SET earlier on
			// the line is seen then
			plain := strings.Join(wordsText(words[1:]), " ")
			a.nestedWin(ws.cmdLate(plain), ShellCmd, "call")
			if quoted := strings.Join(quotedWordsText(words[1:]), " "); quoted != plain {
				// a word that held spaces was either quoted on the line
				// (-Q "DROP DATABASE x") or a whole command in a variable
				// (call %CMD%): both readings are judged
				a.nestedWin(ws.cmdLate(quoted), ShellCmd, "call")
			}
		}
		return flow{}
	case "del", "erase":
		c.name = "cmd:del"
		ws.cmdDel(c, words[1:])
	case "rd", "rmdir":
		c.name = "cmd:rd"
		ws.cmdRd(c, words[1:])
	case "gsudo", "sudo", "psexec", "psexec64", "paexec":
		c.name = l
		ws.elevated(c, words[1:])
	case "wt", "wt.exe":
		c.name = "wt"
		ws.terminalLaunch(words[1:])
	case "conhost", "conhost.exe":
		c.name = "conhost"
		ws.conhostLaunch(words[1:])
	case "robocopy":
		c.name = "robocopy"
		ws.cmdRobocopy(c, words[1:], true)
	case "7z", "7za", "7zz", "rar":
		c.name = l
		ws.archiveMoves(c, words[1:])
	case "copy", "xcopy", "move":
		c.name = "cmd:" + l
		if l == "copy" && len(words) == 3 && (strings.EqualFold(words[2].s, "con") || strings.EqualFold(words[2].s, "con:")) {
			// copy FILE con: the file written to the console, as type
			// shows it
			if d, _ := a.winSensitive(a.winAbs(words[1].s)); d != "" && stage == 0 {
				ws.emitWin(c, "win-read-secrets", d)
			}
		}
		ws.cmdCopy(c, words[1:])
	case "type", "cd.", "break", "rem.":
		c.name = "cmd:" + l
		// commands that write nothing: > file empties it
		if len(words) == 2 && strings.EqualFold(words[1].s, "nul") || l == "cd." || l == "break" || l == "rem." {
			for i, t := range toks {
				if t.kind == cRedir && t.s == ">" && i+1 < len(toks) {
					ws.winWipe(c, word{s: toks[i+1].s, ok: toks[i+1].ok})
				}
			}
		}
		ws.cmdRedirs(c, toks)
		for _, w := range words[1:] {
			if l != "type" {
				break
			}
			if d, crit := a.winSensitive(a.winAbs(w.s)); d != "" {
				if stage == 0 && !strings.HasPrefix(d, "shell history") {
					ws.emitWin(c, "win-read-secrets", d)
				}
				a.finish(c)
				return flow{kind: flowSecret, what: d, crit: crit}
			}
			if d := a.winProdSettings(w.s); d != "" && stage == 0 {
				ws.emitWin(c, "win-read-secrets", d)
			} else if p := a.winAbs(w.s); p != "" && a.inWork(p) && ws.cmdStages == 1 && a.wantOut == 0 && !a.piped && !cmdOutputRedirected(toks) {
				// type .env: the project's environment file on the
				// terminal, as cat .env is (a template is not)
				if localEnvFile(strings.ToLower(path.Base(p))) {
					ws.emitWin(c, "win-read-secrets", "the project's environment file "+w.s)
				}
			}
		}
		a.finish(c)
		return flow{kind: flowLocal}
	case "mklink", "attrib", "dir", "ver", "vol", "md", "mkdir", "ren", "rename", "assoc", "ftype", "where", "popd", "path":
		c.name = "cmd:" + l
		if l == "popd" {
			ws.shareCwd = ""
		}
		if l == "mklink" {
			// mklink /J or /D LINK TARGET: a folder reached by another name
			if sw, ops := cmdSwitches(words[1:]); (sw["j"] || sw["d"]) && len(ops) == 2 {
				a.recordWinLink(ops[0], ops[1])
			}
		}
	default:
		c.name = canonicalName(l)
		if l == "powershell" || l == "pwsh" {
			c.name = "pwsh"
		}
		for _, n := range [...]string{name0, name0 + ".bat", name0 + ".cmd"} {
			if text := ws.batchFor(n); text != "" && (strings.HasSuffix(strings.ToLower(n), ".bat") || strings.HasSuffix(strings.ToLower(n), ".cmd")) {
				// wipe.bat, written earlier on the line, run by its name:
				// what it holds runs
				a.nestedWin(text, ShellCmd, "batch file "+n)
				break
			}
		}
		namedLeaf := !words[0].ok && strings.ContainsAny(name0, `\/`) && l != "" && !strings.ContainsAny(l, "%!")
		if (strings.HasPrefix(l, "%") || strings.HasPrefix(l, "!") || !words[0].ok) && !namedLeaf {
			if l != "%0" && l != "%~f0" {
				a.unresolved(c, "the command name is not a literal ("+truncate(words[0].s, 60)+")", "")
			}
			return flow{kind: flowUnknown}
		}
	}
	ws.cmdRedirs(c, toks)
	if (c.name == "cmd" || c.name == "pwsh") && in.kind == flowRemote && len(words) <= 2 {
		ws.emitWin(c, "remote-code-exec", "piping downloaded code into "+l)
	}
	if c.name == "diskpart" {
		ws.diskpart(c, in)
	}
	if c.name == "certutil" {
		ws.certutilEncode(c)
	}
	if c.name == "bitsadmin" {
		ws.bitsUpload(c, words[1:])
	}
	if c.name == "esentutl" {
		ws.esentutlCopy(c)
	}
	if c.name == "winrs" {
		ws.winrsPayload(c)
	}
	ws.finishWin(c)
	if winRouted(c.name) && hasRedirect(toks) {
		if f := c.outFlow(a); f.kind == flowSecret {
			// vault kv get ... > v.txt: the file holds it now
			ws.secretRedirs(toks, f.what)
		} else if f.kind == flowRemote {
			// curl URL > c.bat: the file is the download, as with -o,
			// and running it later runs what was fetched
			ws.downloadRedirs(toks)
		} else if d := infraOutputs(c); d != "" {
			ws.secretRedirs(toks, d)
		}
	}
	if c.name == "findstr" && hasRedirect(toks) && secretSearch(strings.ToLower(strings.Join(wordsText(words[1:]), " "))) {
		ws.secretRedirs(toks, "lines found by searching for passwords or keys")
	}
	switch l {
	case "more", "sort", "findstr", "find":
		// more < %USERPROFILE%\.kube\config: a credential file shown
		// through the input; findstr /i pass "%APPDATA%\FileZilla\
		// sitemanager.xml": its password lines picked out
		files := []word{}
		for i, t := range toks {
			if t.kind == cRedir && t.s == "<" && i+1 < len(toks) {
				files = append(files, word{s: toks[i+1].s, ok: toks[i+1].ok})
			}
		}
		if l == "findstr" {
			// the lines found are shown, unless only the file names are
			// (/m) or the section headers ('^\[')
			sw, ops := cmdSwitches(words[1:])
			if !sw["m"] && (len(ops) == 0 || !strings.HasPrefix(ops[0].s, "^[") && !strings.HasPrefix(ops[0].s, `^\[`)) && !findstrPicksPlain(words[1:]) {
				files = append(files, ops...)
			}
		}
		for _, w := range files {
			if strings.HasPrefix(w.s, "/") && len(w.s) <= 4 {
				continue // a switch
			}
			if d, crit := a.winSensitive(a.winAbs(w.s)); d != "" && !strings.HasPrefix(d, "shell history") {
				if stage == 0 && !hasRedirectOut(toks) {
					ws.emitWin(c, "win-read-secrets", d)
				}
				return flow{kind: flowSecret, what: d, crit: crit}
			}
		}
	}
	if l == "clip" {
		// clip < %USERPROFILE%\.ssh\id_rsa: a key on the clipboard, as
		// pbcopy < key is
		for i, t := range toks {
			if t.kind == cRedir && t.s == "<" && i+1 < len(toks) && toks[i+1].kind == cWord {
				if d, crit := a.winSensitive(a.winAbs(toks[i+1].s)); d != "" && crit {
					ws.emitWin(c, "secret-to-clipboard-or-printer", d+" → clip")
				}
			}
		}
	}
	switch l {
	case "more", "sort", "findstr", "find", "clip":
		if in.kind == flowRemote || in.kind == flowSecret {
			return in // a filter passes on what it reads
		}
	}
	if winRouted(c.name) {
		return c.outFlow(a)
	}
	return flow{kind: flowUnknown}
}

func tailOf(t cTok) int {
	if t.ok {
		return 0
	}
	return len(t.s)
}

func wordsText(ws []word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.s
	}
	return out
}

// quotedWordsText is wordsText with each word that holds a space or a
// separator quoted again, so that the line reads back as the same words.
func quotedWordsText(ws []word) []string {
	out := wordsText(ws)
	for i, s := range out {
		if strings.ContainsAny(s, " \t&|<>^") && !strings.Contains(s, `"`) {
			out[i] = `"` + s + `"`
		}
	}
	return out
}

// cmdRedirs judges a command's output redirections.
// secretRedirs marks the files a command printing a secret writes to:
// sending one of them later sends the secret.
func (ws *winState) secretRedirs(toks []cTok, what string) {
	for i, t := range toks {
		if t.kind == cRedir && strings.HasPrefix(t.s, ">") || t.kind == cRedir && strings.HasPrefix(t.s, "1>") {
			if i+1 < len(toks) && toks[i+1].kind == cWord && toks[i+1].ok {
				ws.markSecretCopy(ws.a.winAbs(toks[i+1].s), what)
			}
		}
	}
}

// downloadRedirs marks the files a command printing what it fetched
// writes to as downloaded.
func (ws *winState) downloadRedirs(toks []cTok) {
	for i, t := range toks {
		if t.kind == cRedir && (strings.HasPrefix(t.s, ">") || strings.HasPrefix(t.s, "1>")) && i+1 < len(toks) && toks[i+1].kind == cWord && toks[i+1].ok {
			ws.markDownloaded(ws.a.winAbs(toks[i+1].s))
		}
	}
}

func (ws *winState) cmdRedirs(c *cmd, toks []cTok) {
	for i, t := range toks {
		if t.kind != cRedir || strings.Contains(t.s, "&") || strings.HasPrefix(t.s, "<") {
			continue
		}
		if i+1 < len(toks) && toks[i+1].kind == cWord {
			ws.winWrite(c, word{s: toks[i+1].s, ok: toks[i+1].ok}, strings.Contains(t.s, ">>"))
			if c != nil && c.name == "terraform" && iacAllOutputs(c) && !strings.HasPrefix(t.s, "2") && !strings.EqualFold(toks[i+1].s, "nul") &&
				ws.a.outputsFileExposed(toks[i+1].s, ws.a.winAbs(toks[i+1].s)) {
				// terraform output -json > outputs.json: the sensitive
				// outputs in clear, kept
				ws.markSecretCopy(ws.a.winAbs(toks[i+1].s), "every Terraform output")
				ws.emitWin(c, "secrets-exported-to-file", "terraform output -json → "+toks[i+1].s)
			}
		}
	}
}

// cmdDelayed expands every !name! of s from the variables set so far; ok
// is false when one of them is still unknown.
// cmdLate expands every %name% of s whose value is known by now (set
// earlier on the line); others stay as written.
func (ws *winState) cmdLate(s string) string {
	if strings.Count(s, "%") < 2 {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '%')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		k := strings.IndexByte(s[i+1:], '%')
		if k <= 0 {
			b.WriteString(s)
			return b.String()
		}
		name := s[i+1 : i+1+k]
		if v, ok := ws.cmdVar(name); ok && !strings.ContainsAny(name, " :") {
			b.WriteString(s[:i])
			b.WriteString(v)
			s = s[i+2+k:]
			continue
		}
		b.WriteString(s[:i+1])
		s = s[i+1:]
	}
}

// cmdLateWords reads delete targets that name a variable SET earlier on
// the same line with its value: cmd expands the whole line first, but
// whoever wrote it meant the value (and in a batch file an unset
// variable is empty, which is worse).
func (ws *winState) cmdLateWords(ops []word) []word {
	for i, w := range ops {
		if !w.ok && strings.Count(w.s, "%") >= 2 {
			if v := ws.cmdLate(w.s); !strings.Contains(v, "%") {
				ops[i] = word{s: v, ok: true}
				continue
			}
			ops[i] = cmdVarTail(w)
		}
	}
	return ops
}

// cmdCreatesFiles reports a cmd command that makes a file or folder
// each time it runs.
func cmdCreatesFiles(name string) bool {
	switch strings.ToLower(name) {
	case "md", "mkdir", "copy", "xcopy", "fsutil", "mklink":
		return true
	}
	return false
}

// cmdVarTail marks where the literal tail of a word with an unknown
// %VAR% begins: "%BUILD_OUT%\*" is the contents of whatever the variable
// names, and in a batch file an unset variable expands to nothing, so
// the same words reach the drive's root.
func cmdVarTail(w word) word {
	if strings.HasPrefix(w.s, "%") {
		if i := strings.LastIndexByte(w.s, '%'); i > 0 {
			w.tail = i + 1
		}
	}
	return w
}

func (ws *winState) cmdDelayed(s string) (string, bool) {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '!')
		if i < 0 {
			b.WriteString(s)
			return b.String(), true
		}
		k := strings.IndexByte(s[i+1:], '!')
		if k <= 0 {
			return "", false
		}
		v, ok := ws.cmdVar(s[i+1 : i+1+k])
		if !ok {
			return "", false
		}
		b.WriteString(s[:i])
		b.WriteString(v)
		s = s[i+2+k:]
	}
}

func (ws *winState) cmdSet(args []word) {
	if len(args) == 0 {
		return
	}
	s := args[0].s
	if strings.HasPrefix(s, "/") {
		return
	}
	joined := strings.Join(wordsText(args), " ")
	joined = strings.Trim(joined, `"`)
	name, val, ok := strings.Cut(joined, "=")
	if !ok {
		return
	}
	if ws.vars == nil {
		ws.vars = map[string]word{}
	}
	known := true
	for _, w := range args {
		known = known && w.ok
	}
	name = strings.TrimSpace(name)
	ws.vars[strings.ToLower(name)] = word{s: val, ok: known}
	if isVarName(name) {
		// set GIT_TRACE_REDACT=0&& git ...: the environment of the
		// programs run after it
		ws.a.setVar(strings.ToUpper(name), word{s: val, ok: known})
	}
}

// cmdIf runs the command of an if statement (and its else part).
func (ws *winState) cmdIf(toks []cTok, in flow, stage int) flow {
	i := 0
	skip := func() {
		for i < len(toks) && toks[i].kind == cWord && (strings.EqualFold(toks[i].s, "/i") || strings.EqualFold(toks[i].s, "not")) {
			i++
		}
	}
	skip()
	if i < len(toks) && toks[i].kind == cWord {
		switch strings.ToLower(toks[i].s) {
		case "exist", "errorlevel", "defined", "cmdextversion":
			i += 2
		default:
			if strings.Contains(toks[i].s, "==") {
				i++
			} else {
				i += 3 // a EQU b
			}
		}
	}
	if i >= len(toks) {
		return flow{}
	}
	rest := toks[i:]
	// split off "else"
	depth := 0
	for j, t := range rest {
		switch t.kind {
		case cLP:
			depth++
		case cRP:
			depth--
		case cWord:
			if depth == 0 && j > 0 && strings.EqualFold(t.s, "else") {
				f := ws.cmdStage(rest[:j], in, stage)
				ws.cmdStage(rest[j+1:], in, stage)
				return f
			}
		}
	}
	return ws.cmdStage(rest, in, stage)
}

// cmdFor runs the body of a for loop; a /l loop starting thousands of
// processes is a fork bomb.
func (ws *winState) cmdFor(toks []cTok, in flow, stage int) flow {
	for j, t := range toks {
		if t.kind == cWord && strings.EqualFold(t.s, "do") && j+1 < len(toks) {
			body := toks[j+1:]
			if b := body[0]; b.kind == cWord && len(b.s) > 1 && b.s[0] == '@' {
				// do @cmd: the @ only keeps the command from being echoed
				b.s = b.s[1:]
				body = append([]cTok{b}, body[1:]...)
			}
			if len(toks) > 1 && strings.EqualFold(toks[1].s, "/l") {
				n := 0
				for k := 0; k < j; k++ {
					if toks[k].kind == cLP {
						// (start,step,end)
						var nums []string
						for m := k + 1; m < j && toks[m].kind == cWord; m++ {
							nums = append(nums, strings.Split(toks[m].s, ",")...)
						}
						if len(nums) >= 3 {
							n, _ = strconv.Atoi(nums[len(nums)-1])
							first, _ := strconv.Atoi(nums[len(nums)-3])
							step, _ := strconv.Atoi(nums[len(nums)-2])
							if step == 0 || step > 0 && first > n || step < 0 && first < n {
								n = 1 << 30 // endless
							}
						}
						break
					}
				}
				starts, writes := false, false
				for _, t := range body {
					if t.kind == cWord && (strings.EqualFold(t.s, "start") || strings.EqualFold(t.s, "%0")) {
						starts = true
					}
					writes = writes || t.kind == cRedir || t.kind == cWord && cmdCreatesFiles(t.s)
				}
				switch {
				case n >= 500 && starts:
					ws.emitWin(nil, "win-fork-bomb", "a loop starting processes without end")
				case n == 1<<30:
					ws.emitWin(nil, "win-endless-loop", "for /l without end")
				case n >= 1_000_000 && writes:
					// a million folders or files: the disk or the
					// folder's index fills long before the loop ends
					ws.emitWin(nil, "win-endless-loop", "for /l creating "+strconv.Itoa(n)+" files or folders")
				}
			}
			if len(toks) > 1 && strings.EqualFold(toks[1].s, "/r") && len(body) > 0 && (strings.EqualFold(body[0].s, "del") || strings.EqualFold(body[0].s, "erase")) {
				for k := 2; k < j; k++ {
					if toks[k].kind == cWord && winSourceFile(toks[k].s) {
						ws.emitWin(nil, "win-delete-project", "every "+toks[k].s+" file in the project")
						break
					}
				}
			}
			if ws.cmdForBound(toks[:j], body, in, stage) {
				return flow{}
			}
			return ws.cmdStage(body, in, stage)
		}
	}
	return flow{}
}

// namesOnlyOpts reports for /f options that keep only the first token
// cut at "=": each line's name, not its value.
func namesOnlyOpts(opts string) bool {
	if !strings.Contains(opts, "delims=") || !strings.Contains(opts[strings.Index(opts, "delims="):], "=") {
		return false
	}
	d := opts[strings.Index(opts, "delims=")+len("delims="):]
	if !strings.HasPrefix(d, "=") {
		return false
	}
	return !strings.Contains(opts, "tokens=") || strings.Contains(opts, "tokens=1 ") || strings.HasSuffix(opts, "tokens=1") || strings.Contains(opts, "tokens=1\t")
}

// namesOnlyOfSet reports a for /f loop over the output of set that
// keeps only the first token cut at "=": each variable's name.
func namesOnlyOfSet(opts string, set []cTok) bool {
	if !namesOnlyOpts(opts) {
		return false
	}
	var parts []string
	for _, t := range set {
		parts = append(parts, t.s)
	}
	src := strings.ToLower(strings.Trim(strings.Join(parts, " "), "'` "))
	return src == "set" || strings.HasPrefix(src, "set ") && !strings.Contains(src, "|")
}

// cmdForBound runs a for loop's body with its variable bound to what
// the loop walks: each item of the set (a folder glob for /d, under the
// /r root), or, for /f over a command's output, any name (a wildcard)
// or, for a routed tool, the command substitution itself. It reports
// whether it judged the body.
func (ws *winState) cmdForBound(head, body []cTok, in flow, stage int) bool {
	mode, root, v, opts := "", "", "", ""
	lp, rp := -1, -1
	for k := 1; k < len(head); k++ {
		t := head[k]
		switch {
		case t.kind == cLP && lp < 0:
			lp = k
		case t.kind == cRP && lp >= 0 && rp < 0:
			rp = k
		case lp >= 0:
		case t.kind == cWord && strings.HasPrefix(t.s, "/") && k == 1:
			mode = strings.ToLower(t.s)
		case t.kind == cWord && strings.HasPrefix(t.s, "%") && v == "":
			v = t.s
		case t.kind == cWord && mode == "/r" && v == "" && root == "":
			root = t.s
		case t.kind == cWord && mode == "/f" && v == "":
			opts += " " + strings.ToLower(strings.Trim(t.s, `"`))
		}
	}
	if v == "" || lp < 0 || rp < lp || mode == "/l" {
		return false
	}
	if mode == "/f" && namesOnlyOfSet(opts, head[lp+1:rp]) {
		// for /f "tokens=1 delims==" %i in ('set') do echo %i: the
		// variables' names, cut at the equals sign
		return false
	}
	uses := false
	for _, t := range body {
		// %r, or %~nxr, %~fr: the variable with modifiers
		if t.kind == cWord && forVarBind(t.s, v, "") != t.s {
			uses = true
			break
		}
	}
	if !uses {
		return false
	}
	var items []string
	set := head[lp+1 : rp]
	if mode == "/f" {
		parts := make([]string, 0, len(set))
		for _, t := range set {
			parts = append(parts, t.s)
		}
		src := strings.Join(parts, " ")
		readFile := ""
		if src != "" && src[0] != '\'' && src[0] != '`' {
			readFile = strings.Trim(src, `"`)
		} else if f := strings.Fields(strings.Trim(src, "'`")); len(f) == 2 && (strings.EqualFold(f[0], "type") || strings.EqualFold(f[0], "more")) {
			readFile = strings.Trim(f[1], `"`) // ('type FILE'): the file's lines
		}
		if readFile != "" && len(body) > 0 && body[0].kind == cWord && fetchers[canonicalName(strings.ToLower(strings.TrimPrefix(body[0].s, "@")))] {
			// for /f "usebackq tokens=*" %a in (".env") do curl URL?d=%a:
			// each line of a secret file sent as a request
			p := ws.a.winAbs(readFile)
			d, _ := ws.a.winSensitive(p)
			if d == "" {
				d = ws.secret[p]
			}
			if b := strings.ToLower(path.Base(strings.ReplaceAll(p, `\`, "/"))); d == "" && (b == ".env" || strings.HasPrefix(b, ".env.") && !envTemplate(b)) {
				d = "the project's " + b
			}
			if d != "" {
				for _, t := range body[1:] {
					if t.kind == cWord && strings.Contains(t.s, v) {
						ws.emitWin(nil, "win-exfil-secrets", d+" sent line by line by "+strings.TrimPrefix(body[0].s, "@"))
						return true
					}
				}
			}
		}
		if len(src) > 1 && (src[0] == '\'' || src[0] == '`') {
			inner := strings.Trim(src, "'`")
			if n := strings.ToLower(body[0].s); len(body) > 0 && body[0].kind == cWord && !cmdOnly[n] && winRouted(canonicalName(n)) {
				// docker rm -f %i over docker ps -q: the POSIX rules know
				// the substitution
				var b strings.Builder
				for i, t := range body {
					if t.kind != cWord {
						break
					}
					if i > 0 {
						b.WriteByte(' ')
					}
					switch {
					case t.s == v:
						b.WriteString("$(" + inner + ")")
					case strings.Contains(t.s, v):
						b.WriteString(`"` + strings.ReplaceAll(t.s, v, "$("+inner+")") + `"`)
					default:
						b.WriteString(shellQuote(t.s))
					}
				}
				ws.a.run(b.String(), ws.origin)
				return true
			}
		}
		if src != "" && src[0] != '\'' && src[0] != '`' && len(body) > 1 && body[0].kind == cWord && strings.EqualFold(strings.TrimPrefix(body[0].s, "@"), "echo") && !cmdOutputRedirected(body) {
			// for /f "tokens=1,* delims==" %a in (.env) do @echo %a=%b:
			// the file's lines on the terminal, as type prints them
			p := ws.a.winAbs(strings.Trim(src, `"`))
			d, _ := ws.a.winSensitive(p)
			dotEnv := false
			if d == "" && ws.a.inWork(p) && localEnvFile(strings.ToLower(path.Base(strings.ReplaceAll(p, `\`, "/")))) {
				d, dotEnv = "the project's environment file "+src, true
			}
			// the first word of each line alone is a name where lines
			// read "name = value"; a .env's KEY=value line is one word
			firstWordOnly := !strings.Contains(opts, "tokens=") && !strings.Contains(opts, "delims=") && !dotEnv
			if d != "" && ws.a.wantOut == 0 && !namesOnlyOpts(opts) && !firstWordOnly {
				ws.emitWin(nil, "win-read-secrets", d+" printed line by line")
				return true
			}
		}
		if src != "" && src[0] != '\'' && src[0] != '`' && !strings.HasPrefix(src, `"`) && len(body) > 0 && body[0].kind == cWord && dnsLookupTool(body[0].s) {
			// for /f %a in (FILE) do nslookup %a.DOMAIN: each line of the
			// file leaves as a name looked up under someone's domain
			p := ws.a.winAbs(src)
			d, _ := ws.a.winSensitive(p)
			if d == "" {
				d = ws.secret[p]
			}
			if b := strings.ToLower(path.Base(strings.ReplaceAll(p, `\`, "/"))); d == "" && (b == ".env" || strings.HasPrefix(b, ".env.") && !envTemplate(b)) {
				d = "the project's " + b
			}
			if d != "" {
				for _, t := range body[1:] {
					if t.kind == cWord && strings.Contains(t.s, v+".") {
						ws.emitWin(nil, "win-exfil-secrets", d+" sent as DNS lookups")
						return true
					}
				}
			}
		}
		items = []string{"*"}
		if inner := strings.Trim(strings.TrimSpace(src), `"`); inner != "" && src[0] != '\'' && src[0] != '`' && !strings.ContainsAny(inner, `.\/:*?`) {
			// for /f %i in ("text"): the text's first token (or all of it
			// with tokens=*); the quotes are gone by now, so a bare word
			// may also be a file of that name
			if f := strings.Fields(inner); len(f) > 0 {
				items = append(items, f[0])
				if len(f) > 1 {
					items = append(items, inner)
				}
			}
		}
		if f := strings.Fields(strings.Trim(src, "'`")); len(f) > 1 && strings.EqualFold(f[0], "dir") {
			// dir /b *.tmp lists only what its pattern matches
			for _, w := range f[1:] {
				if !strings.HasPrefix(w, "/") && strings.ContainsAny(w, "*?") {
					items = []string{strings.Trim(w, `"`)}
				}
			}
		}
	} else {
		for _, t := range set {
			if t.kind != cWord || t.s == "" {
				continue
			}
			// (bin,obj) and (a;b): commas and semicolons separate
			// items as spaces do
			for _, s := range strings.FieldsFunc(t.s, func(r rune) bool { return r == ',' || r == ';' }) {
				if root != "" {
					s = strings.TrimRight(root, `\/`) + `\` + s
				}
				if len(items) < 8 {
					items = append(items, s)
				}
			}
			if len(items) == 8 {
				break
			}
		}
	}
	removes := false
	for _, t := range body {
		if t.kind == cWord && (strings.EqualFold(strings.TrimPrefix(t.s, "@"), "rd") || strings.EqualFold(strings.TrimPrefix(t.s, "@"), "rmdir")) {
			removes = true
		}
	}
	if mode == "/d" && removes {
		// for /d /r C:\ %d in (bin obj) do rd /s /q "%d": every folder of
		// those names under the root, the system's own among them
		for k := 1; k < len(head); k++ {
			if head[k].kind == cWord && strings.EqualFold(head[k].s, "/r") && k+1 < len(head) {
				if cl, _ := ws.a.winClassify(ws.a.winAbs(head[k+1].s)); cl == wpRoot || cl == wpSystem || cl == wpHome {
					ws.emitWin(nil, "win-delete-system", "every folder it names under "+head[k+1].s)
					return true
				}
			}
		}
	}
	if mode == "/r" && root != "" && len(body) > 0 && body[0].kind == cWord && (strings.EqualFold(body[0].s, "del") || strings.EqualFold(body[0].s, "erase")) {
		// del run on every match below the root is del /s of the pattern
		body = append([]cTok{body[0], {kind: cWord, s: "/s", ok: true}}, body[1:]...)
	}
	for _, it := range items {
		bound := make([]cTok, len(body))
		for i, t := range body {
			if b := forVarBind(t.s, v, it); t.kind == cWord && b != t.s {
				t.s = b
				t.ok = !strings.Contains(t.s, "%")
				if mode == "/r" {
					t.s = strings.ReplaceAll(t.s, `\\`, `\`)
				}
			}
			bound[i] = t
		}
		ws.cmdStage(bound, in, stage)
	}
	return true
}

// forVarBind returns s with a for loop's variable v (%r, or %%r in a
// batch file) replaced by it, the modified forms too: %~nxr is the
// item's name and extension, %~dpr its drive and folder, %~fr (and
// %~r) the whole item. Size, time and attribute modifiers (%~zr) stand
// for a number.
func forVarBind(s, v, it string) string {
	if len(v) < 2 {
		return s
	}
	pct, letter := v[:len(v)-1], v[len(v)-1]
	if !strings.Contains(s, v) && !strings.Contains(s, pct+"~") {
		return s // neither %r nor a modified %~..r
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if strings.HasPrefix(s[i:], v) {
			b.WriteString(it)
			i += len(v)
			continue
		}
		if strings.HasPrefix(s[i:], pct+"~") {
			j := i + len(pct) + 1
			k := j
			for k < len(s) && strings.IndexByte("fdpnxsatz", s[k]) >= 0 {
				k++
			}
			mods := ""
			switch {
			case k < len(s) && s[k] == letter:
				mods, k = s[j:k], k+1
			case k > j && s[k-1] == letter:
				mods = s[j : k-1]
			default:
				b.WriteByte(s[i])
				i++
				continue
			}
			b.WriteString(forVarModified(it, mods))
			i = k
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// forVarModified is what %~MODSv gives for the item it.
func forVarModified(it, mods string) string {
	if it == "" || mods == "" || strings.ContainsRune(mods, 'f') {
		return it
	}
	dir, base := "", it
	if i := strings.LastIndexAny(it, `\/`); i >= 0 {
		dir, base = it[:i+1], it[i+1:]
	}
	name, ext := base, ""
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		name, ext = base[:i], base[i:]
	}
	var b strings.Builder
	if strings.ContainsRune(mods, 'd') && len(dir) >= 2 && dir[1] == ':' {
		b.WriteString(dir[:2])
	}
	if strings.ContainsRune(mods, 'p') {
		d := dir
		if len(d) >= 2 && d[1] == ':' {
			d = d[2:]
		}
		b.WriteString(d)
	}
	if strings.ContainsRune(mods, 'n') {
		b.WriteString(name)
	}
	if strings.ContainsRune(mods, 'x') {
		b.WriteString(ext)
	}
	if b.Len() == 0 {
		return "0" // a size, time or attributes
	}
	return b.String()
}

// dnsLookupTool reports a program that resolves the name it is given.
func dnsLookupTool(s string) bool {
	switch strings.TrimSuffix(strings.ToLower(s), ".exe") {
	case "nslookup", "ping", "resolve-dnsname", "dig", "host", "tracert", "pathping":
		return true
	}
	return false
}

// cmdStart runs what start starts.
func (ws *winState) cmdStart(c *cmd, args []word) {
	i := 0
	if i < len(args) && args[i].s == "" {
		i++ // start "" prog
	} else if len(args) > 1 && startSwitches[strings.ToLower(args[1].s)] && !strings.HasPrefix(args[0].s, "/") {
		// start "worker%i" /b cmd /c ...: a quoted title before the
		// switches and the program after them; unquoted, the first word
		// is the program (start powershell /min -c ...). The quotes are
		// gone by now: both readings are judged.
		ws.cmdStart(c, args[1:])
		if len(args) > 2 && !isCmdName(args[0].s) {
			return // worker%i: not a program name
		}
	}
	for i < len(args) && strings.HasPrefix(args[i].s, "/") {
		if strings.EqualFold(args[i].s, "/d") {
			i++
		}
		i++
	}
	if i >= len(args) {
		return
	}
	if i == 0 && len(args) > 1 && strings.ContainsAny(args[0].s, " ") {
		i = 1 // a quoted title
	}
	rest := args[i:]
	l := strings.ToLower(rest[0].s)
	if l == "%0" || l == "%~f0" || l == "%~0" {
		return // judged by cmdForkBomb
	}
	parts := make([]string, len(rest))
	for k, w := range rest {
		parts[k] = cmdQuote(w.s)
	}
	ws.a.nestedWin(strings.Join(parts, " "), ShellCmd, "start")
}

// startSwitches are start's own switches.
var startSwitches = map[string]bool{
	"/b": true, "/min": true, "/max": true, "/wait": true, "/d": true, "/i": true, "/separate": true, "/shared": true,
	"/low": true, "/normal": true, "/high": true, "/realtime": true, "/abovenormal": true, "/belownormal": true,
	"/affinity": true, "/node": true,
}

// cmdSwitches splits cmd-style arguments into /switches and operands.
func cmdSwitches(args []word) (map[string]bool, []word) {
	sw := map[string]bool{}
	var ops []word
	for _, w := range args {
		s := strings.ToLower(w.s)
		if strings.HasPrefix(s, "//") {
			s = s[1:]
		}
		if strings.HasPrefix(s, "/") && len(s) >= 2 && len(s) <= 12 && !strings.Contains(s[1:], "/") {
			k := s[1:]
			if i := strings.IndexByte(k, ':'); i >= 0 {
				k = k[:i]
			}
			sw[k] = true
			continue
		}
		ops = append(ops, w)
	}
	return sw, ops
}

func (ws *winState) cmdDel(c *cmd, args []word) {
	a := ws.a
	sw, ops := cmdSwitches(args)
	for _, w := range ws.cmdLateWords(ops) {
		if !w.ok {
			ws.winDelete(c, []word{w}, sw["s"], false)
			continue
		}
		s := w.s
		glob := strings.ContainsAny(s, "*?")
		base := s
		if glob {
			base = s[:strings.IndexAny(s, "*?")]
			if j := strings.LastIndexAny(base, `\/`); j >= 0 {
				base = base[:j+1]
			} else {
				base = "."
			}
		}
		p := a.winAbs(base)
		if p == "" {
			continue
		}
		ws.specialFilesDeleted(c, s, p) // (and the folder judged as such: a system folder's is worse)
		if last := s[strings.LastIndexAny(s, `\/`)+1:]; glob && !strings.ContainsAny(base, "*?") && last != "*" && last != "*.*" && ws.documentsDeleted(c, p, last) {
			continue
		}
		cl, _ := a.winClassify(p)
		// del of a folder deletes the files in it
		dir := glob || cl == wpRoot || cl == wpHome || cl == wpWorkDir || (cl == wpSystem || cl == wpHomeSub || cl == wpOutside) && !strings.Contains(p[strings.LastIndexByte(p, '/')+1:], ".")
		everything := !glob || strings.HasSuffix(s, "*") || strings.HasSuffix(s, "*.*")
		if glob && winSourceFile(s) && (sw["s"] || strings.HasPrefix(path.Base(strings.ReplaceAll(s, `\`, "/")), "*.")) {
			if cl == wpWorkDir || cl == wpInside && ws.projectDelete(p+"/x.cs", true, true) != "" { // (not build output)
				ws.emitWin(c, "win-delete-project", "every "+path.Base(strings.ReplaceAll(s, `\`, "/"))+" file under "+winNative(p))
				continue
			}
		}
		ws.winDeleteAbs(c, p, sw["s"], dir && everything, glob && !everything)
	}
}

func (ws *winState) cmdRd(c *cmd, args []word) {
	sw, ops := cmdSwitches(args)
	ws.dirTargets = true // rd removes folders only: Acme.Api is one
	ws.winDelete(c, ws.cmdLateWords(ops), sw["s"], false)
	ws.dirTargets = false
}

// cmdRobocopy judges robocopy; withinProject false leaves mirrors from
// one folder of the project into another to the rules by name, as
// PowerShell build scripts keep their own trees in step with it.
func (ws *winState) cmdRobocopy(c *cmd, args []word, withinProject bool) {
	a := ws.a
	sw, ops := cmdSwitches(args)
	if sw["l"] {
		return // /L lists what would be copied and deleted
	}
	if (sw["mir"] || sw["purge"]) && len(ops) >= 2 && ops[1].ok {
		p := a.winAbs(ops[1].s)
		inner := p != "" && a.inWork(a.winAbs(ops[0].s)) && p != a.workDir && a.inWork(p)
		if p != "" && (withinProject || !inner) && !ws.projectMirror(a.winAbs(ops[0].s), p) && !ws.projectDeploy(ops[0], p) {
			ws.winDeleteAbs(c, p, true, true, false)
		}
	}
	if len(ops) >= 2 {
		ws.winWrite(c, ops[1], false)
		if (sw["e"] || sw["s"]) && !sw["mir"] && !sw["purge"] && !sw["xc"] && !sw["xn"] && !sw["xo"] {
			// robocopy ..	emplate . /e: another tree's files over the
			// project's changed ones (/XC /XN /XO keep them)
			ws.overWorkDir(c, ops[0], ops[1], "overwrite-workdir")
		}
		if sw["move"] || sw["mov"] {
			// /MOVE deletes the source once copied
			ws.movedAway(c, ops[0], ops[1])
		}
		sp := a.winAbs(ops[0].s)
		if a.userDataToShare(ops[0].s, ops[1].s) {
			ws.emitWin(c, "win-exfil-userdata", ops[0].s+" copied to "+ops[1].s)
		}
		if d, _ := a.winSensitive(sp); d != "" && winRemotePath(ops[1].s) {
			ws.emitWin(c, "win-exfil-secrets", d+" copied to "+ops[1].s)
		} else if cl, _ := a.winClassify(sp); (cl == wpHome || cl == wpSecrets) && winRemotePath(ops[1].s) {
			// a whole profile: its keys, tokens and browser data with it
			ws.emitWin(c, "win-exfil-secrets", "the profile "+ops[0].s+" copied to "+ops[1].s)
		}
	}
}

// projectDeploy reports a mirror that keeps a copy: on a share or
// another drive of no one's profile or system, of the project's own
// folder (dist, publish), what a deploy does, or into a folder named as
// its source (Documents to D:\Backup\Documents), what a backup does; in
// the project, a vendored folder refreshed from the folder it copies
// (test\fixtures from D:\data\fixtures). An empty folder mirrored
// anywhere is a delete; the work directory itself (a stale copy mirrored
// over the project), a profile, a system folder or a drive stay judged
// as deletes.
func (ws *winState) projectDeploy(src word, dst string) bool {
	if !src.ok {
		return false
	}
	sp := ws.a.winAbs(src.s)
	if sp == "" || emptyFolderName(path.Base(sp)) {
		return false
	}
	if host, _, ok := strings.Cut(strings.TrimPrefix(dst, "//"), "/"); strings.HasPrefix(dst, "//") && ok && ws.a.inWork(sp) && stagingHost(host) {
		return true // dist mirrored onto \\web01.staging.corp\site: a staging deploy
	}
	sameName := strings.EqualFold(path.Base(sp), path.Base(dst))
	switch cl, _ := ws.a.winClassify(dst); cl {
	case wpOutside:
		if !sameName && strings.Contains(strings.ToLower(path.Base(dst)), "backup") {
			return false // dist mirrored over D:\Backups: the backups go
		}
		return ws.a.inWork(sp) || sameName
	case wpInside:
		return !ws.a.inWork(sp) && sameName
	}
	return false
}

// emptyFolderName reports the name of a folder made empty to be mirrored
// over another, the usual way to delete a deep tree with robocopy.
func emptyFolderName(b string) bool {
	return strings.HasPrefix(b, "empty") || b == "blank" || b == "null"
}

// projectMirror reports a mirror of a project folder into a copy of it
// inside the project (backup\src from src): /MIR prunes only the copy.
func (ws *winState) projectMirror(src, dst string) bool {
	wd := ws.a.workDir
	if wd == "" || !strings.HasPrefix(src, wd+"/") || !strings.HasPrefix(dst, wd+"/") || strings.HasPrefix(src, dst) {
		return false
	}
	sb := path.Base(src)
	if emptyFolderName(sb) {
		return false
	}
	first, _, _ := strings.Cut(dst[len(wd)+1:], "/")
	switch first {
	case "backup", "backups", "mirror", "snapshot", "snapshots", ".backup":
		return true
	}

	// build output mirrored into a folder of its own (robocopy build
	// preview /MIR): that folder only ever held copies of the build
	srcFirst, _, _ := strings.Cut(src[len(wd)+1:], "/")
	if regenerable[srcFirst] && !sourceDirs[first] && !projectDirs[first] && !strings.HasPrefix(first, ".") && first != srcFirst {
		return true
	}
	return regenerable[first] || path.Base(dst) == sb && first != sb
}

func (ws *winState) cmdCopy(c *cmd, args []word) {
	a := ws.a
	_, ops := cmdSwitches(args)
	if len(ops) >= 2 {
		dst := ops[len(ops)-1]
		src := ops[0]
		ws.winWrite(c, dst, false)
		if sw, _ := cmdSwitches(args); (strings.EqualFold(src.s, "nul") || strings.EqualFold(src.s, "nul:")) && (sw["y"] || winSourceFile(dst.s)) {
			// /y: overwrite the file that is there
			ws.winWipe(c, dst)
		}
		if c.name == "cmd:move" {
			ws.movedAway(c, src, dst)
		}
		if sw, _ := cmdSwitches(args); c.name == "cmd:xcopy" && (sw["e"] || sw["s"]) {
			// xcopy ..	emplate\*.* . /e /y: another tree over the project
			ws.overWorkDir(c, src, dst, "overwrite-workdir")
		}
		sp := a.winAbs(src.s)
		if sp != "" && ws.isDownloaded(sp) {
			ws.markDownloaded(a.winAbs(dst.s))
		}
		ws.copiedSecret(sp, a.winAbs(dst.s))
		if a.userDataToShare(src.s, dst.s) {
			ws.emitWin(c, "win-exfil-userdata", src.s+" copied to "+dst.s)
		}
		if d, crit := a.winSensitive(sp); d != "" && (winRemotePath(dst.s) || crit && winOtherDrive(dst.s)) {
			ws.emitWin(c, "win-exfil-secrets", d+" copied to "+dst.s)
		} else if cl, _ := a.winClassify(sp); (cl == wpHome || cl == wpSecrets) && winRemotePath(dst.s) {
			// a whole profile: its keys, tokens and browser data with it
			ws.emitWin(c, "win-exfil-secrets", "the profile "+src.s+" copied to "+dst.s)
		} else if crit && strings.HasPrefix(d, "browser credentials") {
			ws.emitWin(c, "win-read-secrets", d+" copied to "+dst.s)
		}
	}
}

// diskpart judges the script diskpart reads.
func (ws *winState) diskpart(c *cmd, in flow) {
	text := ""
	if in.kind == flowText {
		text = strings.ToLower(in.text)
	}
	sw, ops := cmdSwitches(c.args())
	_ = ops
	script := false
	if sw["s"] {
		// diskpart /s FILE: the file written earlier in the line says
		// what it does; any other file is not known
		script = true
		if f, ok := swVal(wargs(c), "s"); ok {
			if t := ws.batchFor(f); t != "" && diskpartReadOnly(t) {
				text, script, in = strings.ToLower(t), false, flow{kind: flowText, text: t}
				c.scriptKnown = true
			} else if p := ws.a.winAbs(f); t == "" && p != "" && ws.a.inWork(p) && listingScript(p) {
				// scripts\list-disks.txt in the project: a script named for
				// listing, kept with the code
				text, script, in = "list disk", false, flow{kind: flowText, text: "list disk"}
				c.scriptKnown = true
			}
		}
	}
	if script || in.kind != flowText || strings.Contains(text, "clean") || strings.Contains(text, "format") || strings.Contains(text, "delete") ||
		strings.Contains(text, "convert") || strings.Contains(text, "create partition") || strings.Contains(text, "shrink") {
		ws.emitWin(c, "win-diskpart", strings.TrimSpace(strings.ReplaceAll(text, "\n", "; ")))
	}
}

// diskpartReadOnly reports a diskpart script that only looks: every line
// lists, selects or details (select only picks what the next lines act
// on).
func diskpartReadOnly(text string) bool {
	any := false
	for _, line := range strings.Split(strings.ToLower(text), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "list", "lis", "select", "sel", "detail", "det", "help", "rem", "exit":
			any = true
		default:
			return false
		}
	}
	return any
}

// hasRedirectOut reports the standard output sent to a file (> f, >> f,
// 1> nul), not shown.
func hasRedirectOut(toks []cTok) bool {
	for _, t := range toks {
		if t.kind == cRedir && strings.Contains(t.s, ">") && !strings.HasPrefix(t.s, "2") && !strings.Contains(t.s, "&") {
			return true
		}
	}
	return false
}

func hasRedirect(toks []cTok) bool {
	for _, t := range toks {
		if t.kind == cRedir {
			return true
		}
	}
	return false
}

// infraOutputs describes what terraform output prints: the outputs of
// the state, sensitive ones in clear with -json or -raw. Printed they
// are the user's to read; written to a file and sent, they leave.
func infraOutputs(c *cmd) string {
	if c.name != "terraform" && c.name != "tofu" && c.name != "terragrunt" {
		return ""
	}
	for _, w := range c.args() {
		if strings.HasPrefix(w.s, "-") {
			continue
		}
		if w.s == "output" {
			return "the infrastructure's outputs (" + c.base + " output)"
		}
		return ""
	}
	return ""
}

// cmdLocalHostsAppend reports echo 127.0.0.1 app.test >> ...\hosts: a
// name for this machine added, nothing redirected.
func cmdLocalHostsAppend(toks []cTok, text string) bool {
	seen := false
	for i, t := range toks {
		if t.kind != cRedir {
			continue
		}
		if t.s != ">>" || i+1 >= len(toks) || !strings.HasSuffix(strings.ToLower(strings.ReplaceAll(toks[i+1].s, `\`, "/")), "/drivers/etc/hosts") {
			return false
		}
		seen = true
	}
	return seen && localHostsEntries(text)
}

// listingScript reports a diskpart script whose name says it lists or
// shows: list-disks.txt, diskpart-list.txt.
func listingScript(p string) bool {
	base := lower(path.Base(p))
	return strings.Contains(base, "list") || strings.Contains(base, "show") || strings.Contains(base, "detail")
}

// cmdOutputRedirected reports a cmd command whose output goes to a file.
func cmdOutputRedirected(toks []cTok) bool {
	for _, t := range toks {
		if t.kind == cRedir && (strings.HasPrefix(t.s, ">") || strings.HasPrefix(t.s, "1>")) {
			return true
		}
	}
	return false
}

// findstrPicksPlain reports a findstr whose /c: strings pick only lines
// that hold no secret: section headers (/b /c:"["), or plain names
// (/c:"<server>" /c:"<id>").
func findstrPicksPlain(words []word) bool {
	var pats []string
	begins := false
	for _, w := range words {
		l := strings.ToLower(w.s)
		switch {
		case l == "/b":
			begins = true
		case strings.HasPrefix(l, "/c:") && !strings.HasPrefix(l, "/c:/"): // (/c:/users/dev: a path, in normal form)
			pats = append(pats, strings.Trim(w.s[3:], `"'`))
		}
	}
	if len(pats) == 0 {
		return false
	}
	for _, p := range pats {
		if p == "[" && begins {
			continue
		}
		if !plainPattern(p) && (p == "" || hasAny(strings.ToUpper(p), "KEY", "SECRET", "TOKEN", "PASS", "PWD", "AUTH", "CRED", "PRIVATE", "[")) {
			return false
		}
	}
	return true
}

// cmdWholeEnvShown reports cmd's set alone, or paged or sorted (set |
// more, set | sort), nothing redirected.
func cmdWholeEnvShown(stages [][]cTok) bool {
	if len(stages) > 2 || len(stages[0]) != 1 || stages[0][0].kind != cWord || !strings.EqualFold(stages[0][0].s, "set") {
		return false
	}
	if len(stages) == 1 {
		return true
	}
	last := stages[1]
	if len(last) == 0 || last[0].kind != cWord {
		return false
	}
	for _, t := range last[1:] {
		if t.kind != cWord || !strings.HasPrefix(t.s, "/") {
			return false // a file or a redirection
		}
	}
	switch strings.ToLower(last[0].s) {
	case "more", "more.com", "sort", "sort.exe":
		return true
	}
	return false
}

// crtArgvPrograms are programs that read their command line the C
// runtime's way and are given JSON or nested commands on it (cmd's own
// commands and batch files read it as written).
var crtArgvPrograms = map[string]bool{"curl": true, "aws": true, "az": true, "gcloud": true, "kubectl": true, "gh": true, "jq": true,
	"node": true, "python": true, "py": true, "plink": true, "ssh": true, "wget": true, "docker": true, "terraform": true, "vault": true,
	"http": true, "xh": true, "git": true}
